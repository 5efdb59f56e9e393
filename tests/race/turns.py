"""The race's turn machine: an action and a position in, the next position and what
happened out.

Roll (the opening roll, then a turn's roll), Move (one piece by the die) and PlayOn (the
answer whether to play on for places) are the actions; everything that follows without a
choice (a roll nothing can use, the turn passing, finishing, places) happens here and is
reported in the events every game shares. Finishing and playing on are
:mod:`parcheesi.core.places`'s, as in the real games.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from parcheesi.core import places
from parcheesi.core.actions import PlayOn, Roll
from parcheesi.core.events import (
    Moved,
    NoMove,
    OpeningRolled,
    OpeningTied,
    Placed,
    PlayingOn,
    PlayOnAgreed,
    PlayOnAsked,
    PlayOnDeclined,
    ReachedHome,
    Rolled,
    Starts,
    TurnPassed,
    Won,
)
from parcheesi.core.state import IllegalAction, Phase, next_racing

from .board import COLOURS, HOME, finished
from .moves import Action, Move, end_of, movable
from .state import RaceState

Event = (OpeningRolled | OpeningTied | Starts | Rolled | Moved | ReachedHome | NoMove
         | TurnPassed | Won | PlayOnAsked | PlayOnAgreed | PlayOnDeclined | PlayingOn | Placed)
"""Every event a race reports: only the shared ones."""
Events = list[Any] | None
"""Where the machine reports what happened (None: nobody listens)."""
Dice = Callable[[int], Any] | int | None
"""A dice source indexed by ``state.rolls``, or the die itself."""


def apply(state: RaceState, action: Action, dice: Dice = None
          ) -> tuple[RaceState, list[Event]]:
    """The position after ``action`` and what happened; IllegalAction if it is not open."""
    events: list[Any] = []
    return advance(state, action, dice, events), events


def advance(state: RaceState, action: Action, dice: Dice = None, events: Events = None
            ) -> RaceState:
    """:func:`apply` without making the events unless a list is given for them."""
    phase = state.phase
    if isinstance(action, Roll) and phase is Phase.OPENING:
        return _opening_roll(state, _die(state, dice), events)
    if isinstance(action, Roll) and phase is Phase.ROLL:
        return _roll(state, _die(state, dice), events)
    if isinstance(action, Move) and phase is Phase.MOVE:
        return _move(state, action, events)
    if isinstance(action, PlayOn) and phase is Phase.PLAY_ON:
        return places.answer(state, action, events, place_rest=_place_rest,
                             pass_turn=_pass_turn)
    if isinstance(action, Roll | Move | PlayOn):
        raise IllegalAction(f"not now: {waiting_for(state)}")
    raise IllegalAction(f"unknown action {action!r}")


def waiting_for(state: RaceState) -> str:
    """What the game waits for, in words (the reason of a refusal)."""
    name = COLOURS[state.turn]
    return {Phase.OPENING: f"{name} rolls for the start", Phase.ROLL: f"{name} must roll",
            Phase.MOVE: f"{name} must move", Phase.PLAY_ON: f"{name} is asked to play on",
            }.get(state.phase, "the game is over")


def _die(state: RaceState, dice: Dice) -> int:
    value = dice(state.rolls) if callable(dice) else dice
    if type(value) is not int or not 1 <= value <= 6:
        raise IllegalAction(f"a die is a value 1..6, not {value!r}")
    return value


def _opening_roll(state: RaceState, die: int, events: Events) -> RaceState:
    """Every contender rolls once; the highest starts; those tied for it roll again."""
    colour = state.turn
    _report(events, OpeningRolled(colour, (die,)))
    results = (*state.opening, (colour, die))
    rolled = {c for c, _ in results}
    waiting = [c for c in state.contenders if c not in rolled]
    state = state.with_(rolls=state.rolls + 1)
    if waiting:
        return state.with_(opening=results, turn=waiting[0])
    top = max(value for _, value in results)
    tied = tuple(c for c, value in results if value == top)
    if len(tied) > 1:
        _report(events, OpeningTied(tied))
        return state.with_(opening=(), contenders=tied, turn=tied[0])
    _report(events, Starts(tied[0]))
    return state.with_(opening=(), contenders=(), turn=tied[0], phase=Phase.ROLL)


def _roll(state: RaceState, die: int, events: Events) -> RaceState:
    """A move is to be chosen, or (no piece can use the die) the turn passes."""
    colour = state.turn
    state = state.with_(dice=(die,), rolls=state.rolls + 1)
    if movable(state.mover, die):
        _report(events, Rolled(colour, (die,), (die,)))
        return state.with_(phase=Phase.MOVE, portions=(die,))
    _report(events, Rolled(colour, (die,), ()), NoMove(colour, (die,)))
    return _pass_turn(state, events)


def _move(state: RaceState, action: Move, events: Events) -> RaceState:
    piece, die, colour = action.piece, state.portions[0], state.turn
    if type(piece) is not int or piece not in range(len(state.mover)):
        raise IllegalAction(f"there is no piece {piece!r} (pieces are 0..3)")
    start = state.mover[piece]
    end = end_of(start, die)
    if end is None:
        raise IllegalAction(f"piece {piece + 1} cannot move {die} (it needs "
                            f"{HOME - start} to reach HOME)")
    own = tuple(end if k == piece else p for k, p in enumerate(state.mover))
    pieces = tuple(own if c == colour else p for c, p in enumerate(state.pieces))
    _report(events, Moved(colour, piece, start, end, die))
    if end == HOME:
        _report(events, ReachedHome(colour, piece))
    state = state.with_(pieces=pieces, portions=())
    return _finish(state, events) if finished(own) else _pass_turn(state, events)


def _pass_turn(state: RaceState, events: Events) -> RaceState:
    nxt = next_racing(state.colours, state.places, state.turn)
    _report(events, TurnPassed(nxt))
    return state.with_(phase=Phase.ROLL, turn=nxt, dice=None, portions=())


def _finish(state: RaceState, events: Events) -> RaceState:
    """The player to move brought their last piece HOME: they take the next place; the
    game ends, asks (after the first finish, three or four playing) whether to play on, or
    goes on."""
    first = state.winner is None
    state = places.take_place(state, events)
    if len(state.racing) <= 1:
        return _place_rest(state, events)
    return places.ask_to_play_on(state, events) if first else _pass_turn(state, events)


def _place_rest(state: RaceState, events: Events) -> RaceState:
    return places.place_rest(state, HOME, events)


def _report(events: Events, *happened: Event) -> None:
    if events is not None:
        events.extend(happened)


def standings(state: RaceState) -> list[int]:
    """The colours placed so far, then the rest by pieces HOME and progress."""
    rest = sorted(state.racing, key=lambda c: places.standing(state.pieces[c], HOME),
                  reverse=True)
    return [*state.places, *rest]
