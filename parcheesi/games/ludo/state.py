"""Ludo's immutable game state.

:class:`LudoState` holds everything the rules need: where every piece is, whose turn it is
and what they are to do, the run of sixes, the house rules, the opening round, the play-on
question and the finishing order. Its field names and meanings match every game's state
where the games share an idea (:class:`~parcheesi.core.state.SharedState`: ``colours``,
``pieces``, ``phase``, ``turn``, ``dice``, ``portions``, ``rolls``, ``winner``, ``places``
...), so the table and the live game read every game the same way.

It is a frozen dataclass of tuples and ints, so states can be shared, compared, hashed and
kept in histories. The one exception is the cached list of legal moves of the current roll
(``moves``): excluded from comparison, never serialised, rebuilt on demand, so a state read
back from JSON behaves exactly like the original. Copies are made by :meth:`with_`, which
copies the instance dictionary instead of running the generated ``__init__``: a simulated
game makes two states per roll, and this is the cheapest way to make them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ...core.state import Phase, Pieces, Seated, initial_pieces, opening_order
from .board import COLOURS, HOME, HOUSE_RULES, YARD


@dataclass(frozen=True)
class LudoState(Seated):
    colours: tuple[int, ...]
    """Active colour indices in turn order."""
    pieces: Pieces
    phase: Phase
    turn: int
    """The colour to act: during the opening the next seat to roll; during ``PLAY_ON`` the
    racing colour being asked."""
    dice: tuple[int] | None = None
    """The last roll of the player to act this turn, as a 1-tuple (``None`` before their
    first roll of the turn)."""
    portions: tuple[int, ...] = ()
    """``(n,)`` while a move with the die ``n`` is to be chosen, else ``()``."""
    sixes: int = 0
    """Sixes rolled in a row by the player to act this turn, the last roll included."""
    house: tuple[str, ...] = ()
    """The house rules switched on (docs/rules/ludo.md 4), sorted by name."""
    opening: tuple[tuple[int, int], ...] = ()
    """Opening round so far: (colour, die) for the contenders that have rolled."""
    contenders: tuple[int, ...] = ()
    """Colours still rolling for the start (all at first, then only those tied)."""
    asking: tuple[int, ...] = ()
    """During ``PLAY_ON``: the racing colours yet to answer, in turn order (``turn`` first)."""
    places: tuple[int, ...] = ()
    """Colours in the order they were placed: finishers first, as they finished."""
    ranks: tuple[int, ...] = ()
    """The place (1 = first) of each colour of ``places``, in the same order; players placed
    together at the end by their standing share a place (1, 2, 2, 4)."""
    rolls: int = 0
    """Dice rolls made so far, opening rolls included: the index of the next roll in the
    dice source."""
    race_rolls: int = 0
    """Rolls since the opening round, all seats together: what the draw limit counts."""
    winner: int | None = None
    """The first player to finish (``None`` before that, and for a draw)."""
    draw: bool = False
    """Whether the game ended as a draw at the roll limit with nobody finished."""
    moves: Any = field(default=None, compare=False, repr=False)
    """Cached legal moves of the current roll (see ``moves.legal_moves``); never serialised."""

    def __post_init__(self) -> None:
        """Keep the fields in an ordinary dictionary of the instance's own.

        The generated ``__init__`` stores them in a form that shares its keys with the
        class; Python 3.11 cannot speed up attribute reads on such a dictionary once it is
        copied, and every later state is a copy (:meth:`with_`, the turn machine), so an
        ordinary one makes each field read of the game cheaper. Nothing else changes."""
        _SET(self, "__dict__", dict(self.__dict__))

    def colour_name(self, colour: int | None = None) -> str:
        return COLOURS[self.turn if colour is None else colour]

    def with_(self, **changes: Any) -> LudoState:
        """A copy with ``changes``; the cached moves are dropped unless passed explicitly."""
        new = object.__new__(LudoState)
        values = self.__dict__.copy()
        values["moves"] = None
        values.update(changes)
        _SET(new, "__dict__", values)
        return new


_SET = object.__setattr__


def validate_colours(colours: tuple[int, ...]) -> tuple[int, ...]:
    """Check a seat set (docs/rules/ludo.md 1: any 2-4 distinct colours) and return it in turn
    order."""
    if not 2 <= len(colours) <= 4:
        raise ValueError("a Ludo game needs 2, 3 or 4 colours")
    if any(isinstance(c, bool) or not isinstance(c, int) or c not in range(4)
           for c in colours):
        raise ValueError("unknown colour (Ludo's colours are 0..3: red, green, yellow, blue)")
    if len(set(colours)) != len(colours):
        raise ValueError("each colour can be used only once")
    return tuple(sorted(colours))


def validate_house(house: Iterable[str]) -> tuple[str, ...]:
    """Check house-rule names (docs/rules/ludo.md 4) and return them sorted."""
    names = list(house)
    for name in names:
        if name not in HOUSE_RULES:
            raise ValueError(f"unknown house rule {name!r} (use {', '.join(HOUSE_RULES)})")
    if len(set(names)) != len(names):
        repeated = next(n for n in names if names.count(n) > 1)
        raise ValueError(f"house rule {repeated!r} is given more than once")
    return tuple(sorted(names))


def new_state(colours: tuple[int, ...], house: Iterable[str] = (),
              first: int | None = None) -> LudoState:
    """The state before the opening roll, with the house rules ``house`` switched on and the
    opening roll begun by ``first`` (default: the first colour in turn order)."""
    ordered = validate_colours(tuple(colours))
    contenders = opening_order(ordered, first)
    return LudoState(colours=ordered, pieces=initial_pieces(ordered, YARD, len(COLOURS)),
                     phase=Phase.OPENING,
                     turn=contenders[0], house=validate_house(house), contenders=contenders)


def finished(own: tuple[int, ...]) -> bool:
    """Whether all four pieces of a colour are HOME."""
    return own == (HOME, HOME, HOME, HOME)
