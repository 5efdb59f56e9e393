"""Parcheesi's immutable game state.

A :class:`State` holds everything the rules need and nothing the rules can derive cheaply
again. It is a frozen dataclass of tuples, so states can be shared, compared, hashed and
kept in histories safely. The one exception is the per-roll search cache (``plan``), which is
excluded from comparison and rebuilt on demand, so a state read back from JSON behaves
exactly like the original.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...core.state import Phase, Pieces, Seated, initial_pieces, opening_order
from .board import COLOURS, HOME, START, opposite


@dataclass(frozen=True, slots=True)
class State(Seated):
    colours: tuple[int, ...]
    """Active colour indices in turn order."""
    pieces: Pieces
    phase: Phase
    turn: int
    """Colour index whose action is awaited (during the opening: the next seat to roll)."""
    dice: tuple[int, int] | None = None
    """The last roll of the player to move (``None`` before their first roll this turn)."""
    portions: tuple[int, ...] = ()
    """Dice portions of the current roll still to be used, in descending order."""
    four: bool = False
    """The current roll gives four portions (doubles with no piece in START)."""
    doubles: int = 0
    """Doubles rolled in a row by the player to move this turn, the current roll included."""
    rewards: tuple[int, ...] = ()
    """Pending rewards (20 for a capture, 10 for reaching HOME), largest first."""
    pairs: tuple[tuple[int, int], ...] = ()
    """Piece pairs of the player to move that formed a blockade when the turn began."""
    opening: tuple[tuple[int, int], ...] = ()
    """Opening round so far: (colour, total) for the contenders that have rolled."""
    contenders: tuple[int, ...] = ()
    """Colours still rolling for the start (all at first, then only those tied)."""
    rolls: int = 0
    """Dice rolls made so far in the game; the index of the next roll in the dice source."""
    winner: int | None = None
    """The first player to finish (the game's winner), once there is one."""
    asking: tuple[int, ...] = ()
    """During ``PLAY_ON``: the racing colours yet to answer, in turn order (``turn`` first)."""
    places: tuple[int, ...] = ()
    """Colours placed so far, in the order they were placed, when the players play on for
    places in a game of three or four (empty in a game that ended at its first finish)."""
    ranks: tuple[int, ...] = ()
    """The place (1 = first) of each colour of ``places``, in the same order; players placed
    together by standing when the game ends share a place (1, 2, 2)."""
    plan: Any = field(default=None, compare=False, repr=False)
    """Cached search for the current roll (see ``rules.RollPlan``); never serialised."""

    def colour_name(self, colour: int | None = None) -> str:
        return COLOURS[self.turn if colour is None else colour]

    def with_(self, **changes: Any) -> State:
        """A copy with ``changes``; the roll cache is dropped unless passed explicitly.

        One line per field rather than a loop over the fields: every action makes a state
        or more, and the loop cost more than the rest of a copy. (A test checks that every
        field is copied.)"""
        new = _NEW(State)
        get = changes.get
        _SET(new, "colours", get("colours", self.colours))
        _SET(new, "pieces", get("pieces", self.pieces))
        _SET(new, "phase", get("phase", self.phase))
        _SET(new, "turn", get("turn", self.turn))
        _SET(new, "dice", get("dice", self.dice))
        _SET(new, "portions", get("portions", self.portions))
        _SET(new, "four", get("four", self.four))
        _SET(new, "doubles", get("doubles", self.doubles))
        _SET(new, "rewards", get("rewards", self.rewards))
        _SET(new, "pairs", get("pairs", self.pairs))
        _SET(new, "opening", get("opening", self.opening))
        _SET(new, "contenders", get("contenders", self.contenders))
        _SET(new, "rolls", get("rolls", self.rolls))
        _SET(new, "winner", get("winner", self.winner))
        _SET(new, "asking", get("asking", self.asking))
        _SET(new, "places", get("places", self.places))
        _SET(new, "ranks", get("ranks", self.ranks))
        _SET(new, "plan", get("plan"))
        return new


_NEW = object.__new__
_SET = object.__setattr__


def validate_colours(colours: tuple[int, ...]) -> tuple[int, ...]:
    """Check a seat set (docs/rules/parcheesi.md 1) and return it in turn order."""
    if not 2 <= len(colours) <= 4:
        raise ValueError("a game needs 2, 3 or 4 colours")
    if len(set(colours)) != len(colours):
        raise ValueError("each colour can be used only once")
    if any(c not in range(4) for c in colours):
        raise ValueError("unknown colour")
    ordered = tuple(sorted(colours))
    if len(ordered) == 2 and ordered[1] != opposite(ordered[0]):
        raise ValueError("a two-player game must use an opposite pair "
                         "(ruby and sapphire, or emerald and amber)")
    return ordered


def new_state(colours: tuple[int, ...], first: int | None = None) -> State:
    """The state before the opening roll, which ``first`` begins (default: the first colour
    in turn order; a room's next game passes the honour on)."""
    ordered = validate_colours(colours)
    contenders = opening_order(ordered, first)
    return State(colours=ordered, pieces=initial_pieces(ordered, START, len(COLOURS)),
                 phase=Phase.OPENING, turn=contenders[0], contenders=contenders)


def blockade_pairs(pieces: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    """Pairs of one colour's pieces standing together on a track or lane square."""
    return tuple((i, j) for i in range(4) for j in range(i + 1, 4)
                 if pieces[i] == pieces[j] and START < pieces[i] < HOME)
