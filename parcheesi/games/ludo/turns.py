"""Ludo's turn machine: an action and a state in, the new state and what happened out.

Actions (:mod:`.actions`) are :class:`Roll` (the shared one: roll the die, also for the
opening roll), :class:`Move` (one piece by the roll, choosing whose piece to capture when
that is a choice) and :class:`PlayOn` (the answer to the play-on question). Everything that
follows without a choice (an unusable roll, the third six, extra rolls, passing the turn,
finishing, places, the roll limit) happens inside :func:`apply` and is reported as events
(:mod:`.events`); finishing and playing on for places are :mod:`parcheesi.core.places`'s.

:func:`apply` and :func:`advance` are one machine: ``advance`` is ``apply`` without the
event objects, for simulations and searches that only want the position. It makes each new
state by copying the last one's fields and changing a few, so that a simulated game of five
hundred rolls takes a few milliseconds. Which moves a roll allows and what a move does to
the pieces is :mod:`.moves`'s business.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from ...core import places
from ...core.actions import PlayOn, Roll
from ...core.events import (
    Captured,
    Entered,
    Moved,
    NoMove,
    OpeningRolled,
    OpeningTied,
    ReachedHome,
    Rolled,
    Starts,
    TurnPassed,
)
from ...core.state import IllegalAction, Phase, next_racing
from .actions import Action, Move
from .board import COLOURS, HOME, YARD
from .dice import LudoDice
from .events import Drawn, Event, LimitReached, RollAgain, ThirdSix
from .moves import SWAP, LegalMove, find_moves, legal_moves, moved_pieces
from .state import LudoState, new_state
from .stuck import what_stops

DRAW_ROLLS = 1000
"""Rolls (all seats together, opening rolls not counted) after which play stops
(docs/rules/ludo.md 3.3): a draw if nobody has finished, else the rest are placed."""

Events = list[Event] | None
"""Where the machine reports what happened; ``None`` when nobody listens."""
Dice = LudoDice | int | None
"""A dice source indexed by ``state.rolls``, or the die itself."""
Values = dict[str, Any]
"""The fields of the state being made (a copy of the last state's, changed in place)."""

_ALL_HOME = (HOME,) * 4
_DIE: tuple[tuple[int], ...] = tuple((n,) for n in range(7))
_NEW = object.__new__
_SET_FIELDS: Callable[[LudoState, Values], None] = vars(LudoState)["__dict__"].__set__
"""``_SET_FIELDS(new, values)`` gives a state made by ``object.__new__`` its fields: the
``__dict__`` descriptor's own setter, which skips the frozen class's ``__setattr__`` without
the generic ``object.__setattr__`` path (a name lookup in the class and an argument tuple)."""
_OPENING, _ROLL, _MOVE, _PLAY_ON, _OVER = (Phase.OPENING, Phase.ROLL, Phase.MOVE, Phase.PLAY_ON,
                                           Phase.OVER)
"""The phases as module constants: an enum member read through its class costs more than
the rest of a roll's bookkeeping."""


def apply(state: LudoState, action: Action, dice: Dice = None
          ) -> tuple[LudoState, list[Event]]:
    """Apply ``action``; raise :class:`IllegalAction` (state untouched) if it is not open.

    ``dice`` is needed for :class:`Roll`: a source indexed by ``state.rolls`` or the value.
    """
    events: list[Event] = []
    return advance(state, action, dice, events), events


def advance(state: LudoState, action: Action, dice: Dice = None, events: Events = None
            ) -> LudoState:
    """The state after ``action``: :func:`apply` without the event objects unless a list
    is given for them (simulations and searches only want the position).

    The roll and the move the phase waits for, twice per roll of a game, are told by the
    action's exact class: ``type()`` is cheaper than ``isinstance``, whose miss for a roll
    was about 1% of a simulated game. Everything else (another phase, another action, a
    subclass) goes through :func:`_checked`, which says what is wrong."""
    if type(action) is Move and state.phase is _MOVE:
        return _move(state, action, events)
    if type(action) is Roll and state.phase is _ROLL:
        die = dice(state.rolls) if callable(dice) else dice
        if type(die) is not int or not 1 <= die <= 6:  # type(): cheaper than __class__
            die = _die(state, dice)  # says what is wrong with it (or takes it)
        return _roll(state, die, events)
    return _checked(state, action, dice, events)


def _checked(state: LudoState, action: Action, dice: Dice, events: Events) -> LudoState:
    """:func:`advance` for any action in any phase, by ``isinstance``."""
    phase = state.phase
    if isinstance(action, Move):
        if phase is not _MOVE:
            raise IllegalAction(f"cannot move now ({waiting_for(state)})")
        return _move(state, action, events)
    if isinstance(action, Roll):
        if phase is _ROLL:
            return _roll(state, _die(state, dice), events)
        if phase is _OPENING:
            return _opening_roll(state, _die(state, dice), events)
        raise IllegalAction(f"cannot roll now ({waiting_for(state)})")
    if isinstance(action, PlayOn):
        if phase is not _PLAY_ON:
            raise IllegalAction(f"nobody is asked to play on now ({waiting_for(state)})")
        return _play_on(state, action, events)
    raise IllegalAction(f"unknown action {action!r}")


def waiting_for(state: LudoState) -> str:
    """What the game waits for, in words."""
    name = state.colour_name()
    return {_OPENING: "the opening roll is under way",
            _ROLL: f"{name} must roll",
            _MOVE: f"{name} must move",
            _PLAY_ON: f"{name} is asked whether to play on",
            _OVER: "the game is over"}.get(state.phase, state.phase.value)


def _die(state: LudoState, dice: Dice) -> int:
    if dice is None:
        raise IllegalAction("a roll needs a die")
    value: Any = dice if isinstance(dice, int) else dice(state.rolls)
    if value.__class__ is not int or not 1 <= value <= 6:
        raise IllegalAction(f"a die is a value 1..6, not {value!r}")
    return value


def _make(values: Values) -> LudoState:
    """The state of ``values`` (every field, ``moves`` included), without ``__init__``'s
    cost: a simulated game makes two states per roll."""
    state = _NEW(LudoState)
    _SET_FIELDS(state, values)
    return state


def _values(state: LudoState) -> Values:
    values = state.__dict__.copy()
    values["moves"] = None
    return values


# --- rolls -------------------------------------------------------------------------------------

def _opening_roll(state: LudoState, die: int, events: Events) -> LudoState:
    """Every seat rolls; the highest starts; only those tied for the highest roll again."""
    colour = state.turn
    if events is not None:
        events.append(OpeningRolled(colour, (die,)))
    results = (*state.opening, (colour, die))
    rolled = {c for c, _ in results}
    waiting = [c for c in state.contenders if c not in rolled]
    if waiting:
        return state.with_(opening=results, turn=waiting[0], rolls=state.rolls + 1)
    top = max(value for _, value in results)
    tied = tuple(c for c, value in results if value == top)
    if len(tied) > 1:
        if events is not None:
            events.append(OpeningTied(tied))
        return state.with_(opening=(), contenders=tied, turn=tied[0], rolls=state.rolls + 1)
    if events is not None:
        events.append(Starts(tied[0]))
    return state.with_(opening=(), contenders=(), turn=tied[0], phase=_ROLL,
                       rolls=state.rolls + 1)


def _roll(state: LudoState, die: int, events: Events) -> LudoState:
    """The die is rolled: the moves it allows are kept on the new state, or the turn goes on
    without a move (a third six, a roll no piece can use). The old state's fields are read
    as attributes, cheaper than the copied dictionary's items, and the run of sixes is set
    only when it changes: a dictionary store is dearer than the test."""
    colour, house = state.turn, state.house
    values = state.__dict__.copy()
    values["dice"] = _DIE[die]
    values["rolls"] = state.rolls + 1
    values["race_rolls"] = state.race_rolls + 1
    if die == 6:
        sixes = values["sixes"] = state.sixes + 1
        if sixes == 3 and "third_six" in house:
            values["moves"] = None
            if events is not None:
                events.append(Rolled(colour, (die,), ()))
                events.append(ThirdSix(colour))
            return _pass_turn(state, values, events)
    elif state.sixes:  # after a roll that was no six (most rolls) there is nothing to reset
        values["sixes"] = 0
    options = find_moves(state.pieces, colour, die, house)
    if options:
        if events is not None:
            events.append(Rolled(colour, (die,), (die,)))
        values["phase"] = _MOVE
        values["portions"] = _DIE[die]
        values["moves"] = options
        new = _NEW(LudoState)
        _SET_FIELDS(new, values)
        return new
    values["moves"] = None
    if events is not None:
        events.append(Rolled(colour, (die,), ()))
        events.append(NoMove(colour, (die,)))
    if die == 6 and "six_again" in house:
        return _roll_again(values, "six_again", events)
    return _pass_turn(state, values, events)


# --- moves -------------------------------------------------------------------------------------

def _move(state: LudoState, action: Move, events: Events) -> LudoState:
    """The chosen move is made; the player finishes, rolls again or passes the turn. Each
    way sets only the fields it changes (:func:`_pass_turn` sets the phase and portions
    itself, :func:`_roll_again` the phase)."""
    for move in state.moves or legal_moves(state):
        if move[4] is action:
            break
    else:
        move = _matching(state, action)
    colour, pieces = state.turn, state.pieces
    if move[3]:  # a capture: moved_pieces sends the victims to their yards too
        pieces = moved_pieces(pieces, colour, move)
    else:  # what moved_pieces does, without its call (over 1% of a simulated game)
        pieces = SWAP[colour](pieces, SWAP[move[0]](pieces[colour], move[1]))
    if events is not None:
        _report_move(state, move, events)
    values = state.__dict__.copy()
    values["moves"] = None
    values["pieces"] = pieces
    home = move[1] == HOME
    if home and pieces[colour] == _ALL_HOME:  # only a move HOME can finish
        values["portions"] = ()
        values["phase"] = _ROLL
        return _finish(values, events)
    # docs/rules/ludo.md 3.2: one extra roll for a 6, a capture or a piece HOME (one at most)
    if state.portions[0] == 6:
        why = "six"
    elif move[3]:
        why = "capture"
    elif home and "no_home_bonus" not in state.house:
        why = "home"
    else:
        return _pass_turn(state, values, events)
    values["portions"] = ()
    return _roll_again(values, why, events)


def _matching(state: LudoState, action: Move) -> LegalMove:
    """The legal move ``action`` makes (found by value); IllegalAction if there is none."""
    piece, capture = action.piece, action.capture
    if piece.__class__ is int and (capture is None or capture.__class__ is int):
        for move in legal_moves(state):  # True == 1, but True is no piece: hence the types
            if move[0] == piece and move[2] == capture:
                return move
    raise IllegalAction(why_not(state, action))


def _report_move(state: LudoState, move: LegalMove, events: list[Event]) -> None:
    colour = state.turn
    piece, end, _, victims, _ = move
    start = state.mover[piece]
    if start == YARD:
        events.append(Entered(colour, piece, (6,)))
    else:
        events.append(Moved(colour, piece, start, end, end - start))
    for other, k in victims:
        events.append(Captured(other, k, colour, piece, state.pieces[other][k]))
    if end == HOME:
        events.append(ReachedHome(colour, piece))


def why_not(state: LudoState, action: Move) -> str:
    """Why ``action`` is not one of the current roll's moves, in one line."""
    piece, capture = action.piece, action.capture
    if isinstance(piece, bool) or not isinstance(piece, int) or piece not in range(4):
        return f"there is no piece {piece!r} (pieces are 0..3)"
    stopped = _stopped(piece, state.mover[piece], state.portions[0])
    if stopped:
        return stopped
    choices = [m[2] for m in legal_moves(state) if m[0] == piece]
    names = " or ".join(COLOURS[c] for c in choices if c is not None)
    if capture is not None and capture.__class__ is not int:
        return f"a capture is a colour 0..3, not {capture!r}"
    if capture is None:
        return f"choose whose piece piece {piece + 1} captures: {names}"
    if not names:
        return f"piece {piece + 1} has no choice of capture to make"
    return f"piece {piece + 1} can capture {names}, not {capture!r}"


def _stopped(piece: int, at: int, die: int) -> str | None:
    """Why a piece at ``at`` cannot use ``die`` at all (:func:`.stuck.what_stops`), in
    :func:`why_not`'s words; None when it can."""
    stop = what_stops(at, die)
    if stop == "home":
        return f"piece {piece + 1} is already HOME"
    if stop == "yard":
        return f"piece {piece + 1} can come out of the yard only on a 6"
    if stop == "past":
        return f"piece {piece + 1} needs {HOME - at} to reach HOME, not {die}"
    return None


# --- what follows a roll or a move -------------------------------------------------------------

def _roll_again(values: Values, why: str, events: Events) -> LudoState:
    """The same player rolls again (unless the roll limit stops the game, which sets the
    phase and portions itself)."""
    if values["race_rolls"] >= DRAW_ROLLS:
        return _stop(_make(values), events)
    if events is not None:
        events.append(RollAgain(values["turn"], why))
    values["phase"] = _ROLL
    return _make(values)


def _pass_turn(state: LudoState, values: Values, events: Events) -> LudoState:
    """The turn passes to the next colour still racing (unless the roll limit stops the
    game, which sets the phase and portions itself). ``values`` are copied from ``state``,
    whose colours, places and turn they keep."""
    if values["race_rolls"] >= DRAW_ROLLS:
        return _stop(_make(values), events)
    colours, places, turn = state.colours, state.places, state.turn
    if places:
        nxt = next_racing(colours, places, turn)
    else:
        nxt = colours[(colours.index(turn) + 1) % len(colours)]
    if events is not None:
        events.append(TurnPassed(nxt))
    values["phase"] = _ROLL
    values["turn"] = nxt
    values["dice"] = None
    values["portions"] = ()
    if values["sixes"]:  # mostly 0 already: the roll before was no six
        values["sixes"] = 0
    new = _NEW(LudoState)
    _SET_FIELDS(new, values)
    return new


def _finish(values: Values, events: Events) -> LudoState:
    """The player to move brought their fourth piece HOME: they take the next place; the
    game ends, asks whether to play on, or goes on (docs/rules/ludo.md 3.3)."""
    first = values["winner"] is None
    state = places.take_place(_make(values), events)
    if len(state.racing) <= 1:
        return _place_rest(state, events)
    if state.race_rolls >= DRAW_ROLLS:
        return _stop(state, events)
    if not first:
        return _pass_turn(state, _values(state), events)
    return places.ask_to_play_on(state, events, sixes=0)


def _play_on(state: LudoState, action: PlayOn, events: Events) -> LudoState:
    return places.answer(state, action, events, place_rest=_place_rest,
                         pass_turn=lambda s, e: _pass_turn(s, _values(s), e))


def _stop(state: LudoState, events: Events) -> LudoState:
    """The roll limit is reached: a draw if nobody has finished, else the rest placed."""
    if events is not None:
        events.append(LimitReached(DRAW_ROLLS))
    if state.winner is None:
        if events is not None:
            events.append(Drawn())
        return state.with_(phase=_OVER, draw=True, portions=(), asking=())
    return _place_rest(state, events)


def _place_rest(state: LudoState, events: Events) -> LudoState:
    """The game is over: the colours still racing take the remaining places by standing."""
    return places.place_rest(state, HOME, events)


# --- whole games --------------------------------------------------------------------------------

def standings(state: LudoState) -> list[int]:
    """The colours in the order they placed: the places decided so far, then the rest by
    standing (ties in turn order)."""
    rest = sorted(state.racing, key=lambda c: places.standing(state.pieces[c], HOME),
                  reverse=True)
    return [*state.places, *rest]


def replay(colours: tuple[int, ...], house: Iterable[str], dice: Callable[[int], int],
           actions: Iterable[Action]) -> LudoState:
    """The state a game's record reaches: its actions applied from the start with its dice
    (IllegalAction if one is refused)."""
    state = new_state(colours, house)
    for action in actions:
        state = advance(state, action, dice)
    return state


__all__ = ["DRAW_ROLLS", "Action", "Dice", "Events", "Move", "PlayOn", "Roll", "advance",
           "apply", "replay", "standings", "waiting_for", "why_not"]
