"""JSON for the race: pieces, whole states, actions, dice, and the command line's
``outcomes`` and ``choose`` answers.

Parsing never trusts its input: anything malformed or impossible raises
:class:`~parcheesi.core.notation.NotationError` with a one-line reason, as the records and
the command line expect of every game.
"""

from __future__ import annotations

import json
from typing import Any

from parcheesi.core.actions import PlayOn, Roll
from parcheesi.core.notation import (
    NotationError,
    brief,
    colour_list,
    colours_of_pieces,
    compact,
    four_pieces,
    int_in,
    request_turn,
)
from parcheesi.core.state import Phase, Pieces

from . import ai
from .board import COLOURS, HOME, START, finished
from .moves import Action, Move, movable
from .state import RaceState
from .turns import advance

KIND = "race"
ALL = tuple(range(len(COLOURS)))

# --- pieces --------------------------------------------------------------------------------


def piece_to_json(progress: int) -> str | int:
    return "start" if progress == START else "home" if progress == HOME else progress


def piece_from_json(value: Any, where: str) -> int:
    """A piece's progress from ``"start"``, ``"home"`` or a square 0..11."""
    if value in ("start", "home") and isinstance(value, str):
        return START if value == "start" else HOME
    if not int_in(value, 0, HOME - 1):
        raise NotationError(f"{where}: {brief(json.dumps(value))} is not \"start\", "
                            f"\"home\" or a square 0..{HOME - 1}")
    return value


def pieces_to_json(pieces: Pieces, keep_order: bool = False) -> dict[str, list[str | int]]:
    """Each playing colour's pieces, sorted (a position) or in piece order (a state)."""
    return {COLOURS[c]: [piece_to_json(p) for p in (own if keep_order else sorted(own))]
            for c, own in enumerate(pieces) if own}


def pieces_from_json(obj: Any) -> Pieces:
    colours_of_pieces(obj, COLOURS)
    pieces: list[tuple[int, ...]] = [()] * len(COLOURS)
    for name, own in obj.items():
        pieces[COLOURS.index(name)] = four_pieces(own, name, piece_from_json)
    return tuple(pieces)


# --- the command line's requests -------------------------------------------------------------

_REQUEST_KEYS = ("game", "turn", "pieces", "die")


def request_from_json(obj: Any) -> tuple[RaceState, int]:
    """The position at the start of ``turn``'s roll, and the die."""
    if not isinstance(obj, dict):
        raise NotationError("the request must be a JSON object")
    unknown = [key for key in obj if key not in _REQUEST_KEYS]
    if unknown:
        raise NotationError(f"unknown field {brief(repr(unknown[0]))}")
    if obj.get("game", KIND) != KIND:
        raise NotationError(f"unknown game {brief(json.dumps(obj['game']))} for a race")
    missing = [key for key in _REQUEST_KEYS[1:] if key not in obj]
    if missing:
        raise NotationError(f"missing field {missing[0]!r}")
    pieces = pieces_from_json(obj["pieces"])
    turn = request_turn(obj["turn"], COLOURS, pieces)
    if finished(pieces[turn]):
        raise NotationError(f"turn {obj['turn']!r} has already finished")
    if not int_in(obj["die"], 1, 6):
        raise NotationError(f"die must be 1..6, not {brief(json.dumps(obj['die']))}")
    colours = tuple(c for c in ALL if pieces[c])
    done = tuple(c for c in colours if finished(pieces[c]))
    return RaceState(colours=colours, pieces=pieces, phase=Phase.ROLL, turn=turn,
                     places=done, ranks=tuple(range(1, len(done) + 1)),
                     winner=done[0] if done else None), obj["die"]


def outcomes(request: dict[str, Any]) -> dict[str, Any]:
    """Every distinct position the roll can end in, sorted by compact JSON."""
    state, die = request_from_json(request)
    rolled = advance(state, Roll(), die)
    ends = ([advance(rolled, Move(k)) for k in movable(rolled.mover, die)]
            if rolled.phase is Phase.MOVE else [rolled])
    found = {compact({"pieces": pieces_to_json(end.pieces)}) for end in ends}
    return {"outcomes": [json.loads(item) for item in sorted(found)]}


def choose(request: dict[str, Any], level: str) -> dict[str, Any]:
    """The end of the roll computer ``level`` plays, and why."""
    if level not in ai.LEVELS:
        raise NotationError(f"the race has no player {level!r} (use {', '.join(ai.LEVELS)})")
    state, die = request_from_json(request)
    rolled = advance(state, Roll(), die)
    if rolled.phase is not Phase.MOVE:
        return {"pieces": pieces_to_json(state.pieces),
                "reason": f"No piece can use the {die}: the turn passes"}
    decision = ai.decide(rolled, level, reason=True)
    return {"pieces": pieces_to_json(decision.state.pieces), "reason": decision.reason}


def position_to_json(state: RaceState) -> dict[str, Any]:
    """The position as an ``outcomes`` request, with the die while it is to be used."""
    request: dict[str, Any] = {"game": KIND, "turn": COLOURS[state.turn],
                               "pieces": pieces_to_json(state.pieces)}
    if state.phase is Phase.MOVE and state.dice is not None:
        request["die"] = state.dice[0]
    return request


# --- actions and dice --------------------------------------------------------------------------

def action_to_json(action: Action) -> dict[str, Any]:
    if isinstance(action, Move):
        return {"type": "move", "piece": action.piece + 1}
    if isinstance(action, PlayOn):
        return {"type": "play_on", "agree": action.agree}
    return {"type": "roll"}


_ACTION_KEYS = {"roll": {"type"}, "move": {"type", "piece"}, "play_on": {"type", "agree"}}


def action_from_json(obj: Any) -> Action:
    """An action; pieces are numbered 1..4 as people see them."""
    if not isinstance(obj, dict) or not isinstance(obj.get("type"), str) \
            or obj["type"] not in _ACTION_KEYS:
        raise NotationError("an action is an object with type roll, move or play_on")
    if set(obj) != _ACTION_KEYS[obj["type"]]:
        raise NotationError(f"a {obj['type']} action has the fields "
                            f"{', '.join(sorted(_ACTION_KEYS[obj['type']]))}")
    if obj["type"] == "roll":
        return Roll()
    if obj["type"] == "play_on":
        if not isinstance(obj["agree"], bool):
            raise NotationError("a play_on action's agree is true or false")
        return PlayOn(obj["agree"])
    if not int_in(obj["piece"], 1, 4):
        raise NotationError("a move's piece is 1..4")
    return Move(obj["piece"] - 1)


def die_to_json(die: int) -> int:
    return die


def die_from_json(raw: Any) -> int:
    if not int_in(raw, 1, 6):
        raise NotationError(f"a die must be 1..6, not {brief(json.dumps(raw))}")
    return raw


# --- whole states ------------------------------------------------------------------------------

_STATE_KEYS = ("colours", "pieces", "phase", "turn", "dice", "portions", "opening",
               "contenders", "asking", "places", "ranks", "rolls", "winner")


def state_to_json(state: RaceState) -> dict[str, Any]:
    names = [COLOURS[c] for c in state.colours]
    return {
        "colours": names, "pieces": pieces_to_json(state.pieces, keep_order=True),
        "phase": state.phase.value, "turn": COLOURS[state.turn],
        "dice": None if state.dice is None else list(state.dice),
        "portions": list(state.portions),
        "opening": [[COLOURS[c], die] for c, die in state.opening],
        "contenders": [COLOURS[c] for c in state.contenders],
        "asking": [COLOURS[c] for c in state.asking],
        "places": [COLOURS[c] for c in state.places], "ranks": list(state.ranks),
        "rolls": state.rolls, "winner": None if state.winner is None else COLOURS[state.winner],
    }


def state_from_json(obj: Any) -> RaceState:
    """A state of :func:`state_to_json`'s JSON, every field checked."""
    if not isinstance(obj, dict) or set(obj) != set(_STATE_KEYS):
        raise NotationError(f"a race state is an object with the fields {', '.join(_STATE_KEYS)}")
    colours = colour_list(obj["colours"], "colours", COLOURS, ALL)
    if len(colours) < 2 or colours != tuple(sorted(colours)):
        raise NotationError("colours must be 2 to 4 colours in turn order")
    pieces = pieces_from_json(obj["pieces"])
    if tuple(c for c in ALL if pieces[c]) != colours:
        raise NotationError("the pieces' colours are not the state's colours")
    places = colour_list(obj["places"], "places", COLOURS, colours)
    state = RaceState(
        colours=colours, pieces=pieces, phase=_phase(obj["phase"]),
        turn=_colour(obj["turn"], "turn", colours), dice=_dice(obj["dice"]),
        portions=_portions(obj["portions"]), opening=_opening(obj["opening"]),
        contenders=colour_list(obj["contenders"], "contenders", COLOURS, colours),
        asking=colour_list(obj["asking"], "asking", COLOURS, colours), places=places,
        ranks=_ranks(obj["ranks"], len(places), len(colours)), rolls=_count(obj["rolls"]),
        winner=None if obj["winner"] is None else _colour(obj["winner"], "winner", colours))
    _check_consistent(state)
    return state


def _check_consistent(state: RaceState) -> None:
    """What the fields must agree on for the rules to carry on from the state."""
    if state.winner != (state.places[0] if state.places else None):
        raise NotationError("the winner must be the first colour placed")
    moving = state.phase is Phase.MOVE
    if moving != bool(state.portions) or (moving and state.portions != state.dice):
        raise NotationError("portions must be the die exactly while a move is chosen")
    if moving and not movable(state.mover, state.portions[0]):
        raise NotationError("a move is to be chosen but no piece can use the die")
    if (state.phase is Phase.PLAY_ON) != bool(state.asking) or (
            state.asking and state.asking[0] != state.turn):
        raise NotationError("asking must start with turn exactly while play on is asked")
    if state.phase is not Phase.OVER and state.turn in state.places:
        raise NotationError("the colour to act has already been placed")


_PHASES = tuple(p.value for p in Phase if p is not Phase.REWARD)


def _phase(raw: Any) -> Phase:
    if not isinstance(raw, str) or raw not in _PHASES:
        raise NotationError(f"phase {brief(json.dumps(raw))} is not a phase of the race")
    return Phase(raw)


def _colour(raw: Any, what: str, allowed: tuple[int, ...]) -> int:
    return colour_list([raw], what, COLOURS, allowed)[0]


def _dice(raw: Any) -> tuple[int, ...] | None:
    if raw is None:
        return None
    if not isinstance(raw, list) or len(raw) != 1 or not int_in(raw[0], 1, 6):
        raise NotationError("dice must be null or one die 1..6")
    return (raw[0],)


def _portions(raw: Any) -> tuple[int, ...]:
    if raw == []:
        return ()
    found = _dice(raw)
    if found is None:
        raise NotationError("portions must be empty or one die 1..6")
    return found


def _opening(raw: Any) -> tuple[tuple[int, int], ...]:
    if not isinstance(raw, list) or not all(
            isinstance(item, list) and len(item) == 2 and int_in(item[1], 1, 6)
            for item in raw):
        raise NotationError("opening must be a list of [colour, die] pairs")
    rolled = colour_list([item[0] for item in raw], "opening", COLOURS, ALL)
    return tuple(zip(rolled, (item[1] for item in raw), strict=True))


def _ranks(raw: Any, count: int, colours: int) -> tuple[int, ...]:
    if not isinstance(raw, list) or len(raw) != count or not all(
            int_in(rank, 1, colours) for rank in raw):
        raise NotationError("ranks must give a place 1..colours to each colour placed")
    return tuple(raw)


def _count(raw: Any) -> int:
    if not int_in(raw, 0, 10**9):
        raise NotationError("rolls must be a whole number")
    return raw
