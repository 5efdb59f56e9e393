"""Ludo's computer players and the hint: a minimal stand-in with the final interface.

``decide(state, level, reason=False)`` returns a :class:`Decision` (the actions that finish
the current roll, the position after them and, if asked, a reason a person can read) and
``hint(state)`` is Hard's decision with its reason. Stronger players will replace the
choosing behind that interface; until then:

- **random**: a random legal move, drawn from a generator seeded from the position, so a
  decision replays identically;
- **easy**, **medium**, **hard**: a capture first, then a piece reaching HOME, then the most
  advanced piece that can move (the lowest piece number on a tie).

Every player always agrees to play on for the next places (RULES-LUDO.md 3.3: computers
always agree).
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass

from ..game import Roll
from ..state import Phase
from .board import COLOURS, HOME, YARD
from .moves import LegalMove, legal_moves
from .rules import Action, PlayOn, advance
from .state import LudoState

TABLE_LEVELS = ("easy", "medium", "hard")
"""The levels a computer seat at a table can have."""
LEVELS = ("random", *TABLE_LEVELS)
"""Every computer player, the benchmarks' random mover included."""


@dataclass(frozen=True)
class Decision:
    """What a player does with the current roll (or question), and why (for the hint)."""

    actions: list[Action]
    state: LudoState
    """The state when those actions are done (for a roll: the state before it, since the die
    is not known yet)."""
    reason: str


def decide(state: LudoState, level: str, reason: bool = False) -> Decision:
    """The computer's choice for the player to act: roll, move, or play on."""
    if level not in LEVELS:
        raise ValueError(f"unknown player {level!r} (use {', '.join(LEVELS)})")
    if state.phase in (Phase.OPENING, Phase.ROLL):
        return Decision([Roll()], state, "Rolls the die")
    if state.phase is Phase.PLAY_ON:
        agree = PlayOn(True)
        return Decision([agree], advance(state, agree), "Plays on for the next places")
    moves = legal_moves(state)
    if not moves:
        raise ValueError("the game is over" if state.phase is Phase.OVER
                         else "there is nothing to decide")
    if len(moves) == 1:
        index = 0
    elif level == "random":
        index = _rng(state).randrange(len(moves))
    else:
        index = max(range(len(moves)), key=lambda k: (_preference(state, moves[k]), -k))
    move = moves[index]
    action = move[4]
    return Decision([action], advance(state, action), explain(state, move) if reason else "")


def hint(state: LudoState) -> Decision:
    """Hard's choice for a person, with a reason they can read."""
    return decide(state, "hard", reason=True)


def _rng(state: LudoState) -> random.Random:
    """A generator seeded from the position, so a decision replays identically."""
    digest = hashlib.blake2b(repr((state.pieces, state.turn, state.dice, state.rolls)).encode(),
                             digest_size=8).digest()
    return random.Random(int.from_bytes(digest, "big"))


def _preference(state: LudoState, move: LegalMove) -> tuple[int, bool, int]:
    piece, end, _, victims, _ = move
    return len(victims), end == HOME, state.mover[piece]


def explain(state: LudoState, move: LegalMove) -> str:
    """What a move does, in words."""
    piece, end, _, victims, _ = move
    number = piece + 1
    if victims:
        names = " and ".join(sorted({COLOURS[c].capitalize() for c, _ in victims}))
        return f"Piece {number} captures {names}"
    if end == HOME:
        return f"Piece {number} reaches HOME"
    if state.mover[piece] == YARD:
        return f"Piece {number} comes out of the yard"
    return f"Piece {number} moves on to {end}"
