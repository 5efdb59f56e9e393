"""Playing on for places, written once for every game.

The first player to bring all their pieces HOME wins. In a game of three or four, that
moment asks the players still racing, one at a time from the one after the finisher,
whether to play on for the next places (``docs/rules/parcheesi.md``, where it is a table
option and every later finish asks again; ``docs/rules/ludo.md``, where only the first
finish asks). All must agree for the game to go on; a no ends it, and the players still
racing are then placed by their standing: pieces HOME, then how far their pieces have come,
equal players sharing a place. Each game's turn machine calls these at its own moments.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from .actions import PlayOn
from .events import Placed, PlayingOn, PlayOnAgreed, PlayOnAsked, PlayOnDeclined, Won
from .state import IllegalAction, Phase, SharedState

S = TypeVar("S", bound=SharedState)
Events = list[Any] | None
"""Where a turn machine reports what happened; ``None`` when nobody listens (a simulation
that only wants the position)."""

PLAY_ON_PLAYERS = 3
"""The fewest players of a game that may play on for places after its first finish."""


def standing(own: tuple[int, ...], home: int) -> tuple[int, int]:
    """How far a colour with pieces ``own`` has come: pieces HOME, then their progress
    added up (what orders the players placed at the end)."""
    return own.count(home), sum(own)


def take_place(state: S, events: Events) -> S:
    """The colour to act has just finished: it takes the next place, and wins if it is the
    first to finish."""
    colour = state.turn
    places = (*state.places, colour)
    first = state.winner is None
    if events is not None:
        if first:
            events.append(Won(colour))
        events.append(Placed(colour, len(places)))
    return state.with_(places=places, ranks=(*state.ranks, len(places)),
                       winner=colour if first else state.winner)


def ask_to_play_on(state: S, events: Events, **reset: Any) -> S:
    """The colour to act has just taken a place: ask the colours still racing, from the
    one after it in turn order, whether to play on (``reset``: the game's own fields of
    the turn that ends, set afresh)."""
    colour = state.turn
    racing = state.racing
    k = state.colours.index(colour)
    asking = tuple(c for c in state.colours[k + 1:] + state.colours[:k] if c in racing)
    if events is not None:
        events.append(PlayOnAsked(asking))
    return state.with_(phase=Phase.PLAY_ON, turn=asking[0], asking=asking, dice=None, **reset)


def answer(state: S, action: PlayOn, events: Events, *,
           place_rest: Callable[[S, Events], S], pass_turn: Callable[[S, Events], S]) -> S:
    """The answer of the colour asked: a no ends the game (``place_rest``), a yes asks the
    next one; when all have agreed, the turn passes (``pass_turn``) from the colour placed
    last to the next one still racing."""
    if not isinstance(action.agree, bool):
        raise IllegalAction(f"play on is answered true or false, not {action.agree!r}")
    colour = state.turn
    if not action.agree:
        if events is not None:
            events.append(PlayOnDeclined(colour))
        return place_rest(state.with_(asking=()), events)
    if events is not None:
        events.append(PlayOnAgreed(colour))
    rest = state.asking[1:]
    if rest:
        return state.with_(asking=rest, turn=rest[0])
    if events is not None:
        events.append(PlayingOn(state.racing))
    return pass_turn(state.with_(asking=(), turn=state.places[-1]), events)


def place_rest(state: S, home: int, events: Events) -> S:
    """The game is over: the colours still racing take the remaining places by
    :func:`standing`, equal players sharing a place."""
    racing = state.racing
    keys = {c: standing(state.pieces[c], home) for c in racing}
    ordered = sorted(racing, key=keys.__getitem__, reverse=True)
    base = len(state.places)
    ranks = tuple(base + 1 + sum(1 for d in racing if keys[d] > keys[c]) for c in ordered)
    if events is not None:
        events.extend(Placed(c, rank) for c, rank in zip(ordered, ranks, strict=True))
    return state.with_(phase=Phase.OVER, places=(*state.places, *ordered),
                       ranks=(*state.ranks, *ranks), portions=(), asking=())
