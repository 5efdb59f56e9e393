"""The race's computer players: ``random`` (a move drawn from a generator seeded by the
position, so a game replays identically) and ``simple`` (a piece HOME when the die allows
it, else the piece furthest behind, which keeps the most dice usable near the end; the
hint's player). Both always agree to play on for places."""

from __future__ import annotations

import hashlib
import random

from parcheesi.core import rules
from parcheesi.core.actions import PlayOn, Roll
from parcheesi.core.state import Phase

from .board import HOME
from .moves import Action, Move, end_of, movable
from .state import RaceState
from .turns import advance

TABLE_LEVELS = ("random", "simple")
LEVELS = TABLE_LEVELS
"""Every computer player, weakest first; all may sit at a table."""

Decision = rules.Decision[Action, RaceState]


def decide(state: RaceState, level: str, reason: bool = False) -> Decision:
    """The choice of computer ``level`` for the player to act: roll, move, or play on."""
    if level not in LEVELS:
        raise ValueError(f"unknown player {level!r} (use {', '.join(LEVELS)})")
    if state.phase in (Phase.OPENING, Phase.ROLL):
        return Decision([Roll()], state, "Rolls the die")
    if state.phase is Phase.PLAY_ON:
        return Decision([PlayOn(True)], advance(state, PlayOn(True)),
                        "Plays on for the next places")
    if state.phase is not Phase.MOVE:
        raise ValueError("the game is over")
    options = movable(state.mover, state.portions[0])
    piece = _random(state, options) if level == "random" else _simple(state, options)
    action = Move(piece)
    return Decision([action], advance(state, action), _why(state, piece) if reason else "")


def _random(state: RaceState, options: list[int]) -> int:
    digest = hashlib.blake2b(repr((state.pieces, state.turn, state.rolls)).encode(),
                             digest_size=8).digest()
    return random.Random(int.from_bytes(digest, "big")).choice(options)


def _simple(state: RaceState, options: list[int]) -> int:
    die = state.portions[0]
    home = [k for k in options if end_of(state.mover[k], die) == HOME]
    return home[0] if home else min(options, key=lambda k: state.mover[k])


def _why(state: RaceState, piece: int) -> str:
    if end_of(state.mover[piece], state.portions[0]) == HOME:
        return f"Brings piece {piece + 1} HOME"
    return f"Moves piece {piece + 1}, the furthest behind, to keep later rolls usable"
