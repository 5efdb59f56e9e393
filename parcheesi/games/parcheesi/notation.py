"""JSON for Parcheesi: positions, outcome requests, actions and states (a game record is
the server's, ``parcheesi/server/records.py``, made of these).

The request format is the contract of ``python -m parcheesi outcomes`` (``docs/contracts.md``,
"Position and outcome JSON"). Parsing never trusts its input: every malformed or impossible
position raises :class:`~parcheesi.core.notation.NotationError` with a one-line reason;
repeated keys, deep nesting and over-long numbers are refused earlier, by the shared text
parser (:func:`parcheesi.core.notation.parse_json`).
"""

from __future__ import annotations

import json
from typing import Any

from ...core.actions import PlayOn, Roll
from ...core.notation import (
    NotationError,
    brief,
    colour_list,
    colours_of_pieces,
    four_pieces,
    int_in,
    request_turn,
)
from ...core.state import Phase, Pieces
from .board import COLOUR_INDEX, COLOURS, HOME, LAST_TRACK, START, opposite, track_square
from .dice import Dice
from .state import State, blockade_pairs
from .turns import CAPTURE_REWARD, HOME_REWARD, Action, Move, Reward

KIND = "parcheesi"
"""The game's name in JSON (a request's ``game``) and in storage (the ``kind`` column)."""


# --- pieces -----------------------------------------------------------------------------------

def piece_to_json(progress: int) -> str | int:
    if progress == START:
        return "start"
    if progress == HOME:
        return "home"
    return progress


def piece_from_json(value: Any, where: str) -> int:
    if value == "start" and isinstance(value, str):
        return START
    if value == "home" and isinstance(value, str):
        return HOME
    if isinstance(value, bool) or not isinstance(value, int):
        raise NotationError(f"{where}: {brief(json.dumps(value))} is not \"start\", \"home\" "
                            f"or a progress 0..70")
    if not 0 <= value < HOME:
        raise NotationError(f"{where}: progress {value} is out of range 0..70")
    return value


def _sort_key(progress: int) -> int:
    return progress  # START (-1) first, then progress ascending, then HOME (71)


def pieces_to_json(pieces: Pieces) -> dict[str, list[str | int]]:
    """Active colours' pieces, each list sorted: start, progress ascending, home."""
    return {COLOURS[c]: [piece_to_json(p) for p in sorted(own, key=_sort_key)]
            for c, own in enumerate(pieces) if own}


def pieces_from_json(obj: Any) -> Pieces:
    """Parse and check a ``pieces`` object (colours, counts, ranges, shared squares)."""
    colours = colours_of_pieces(obj, COLOURS)
    if len(colours) == 2 and colours[1] != opposite(colours[0]):
        raise NotationError("two colours must be an opposite pair "
                            "(ruby and sapphire, or emerald and amber)")
    pieces: list[tuple[int, ...]] = [()] * 4
    for c in colours:
        pieces[c] = four_pieces(obj[COLOURS[c]], COLOURS[c], piece_from_json)
    check_pieces(tuple(pieces))
    return tuple(pieces)


def check_pieces(pieces: Pieces) -> None:
    """No square holds more than two pieces, nor pieces of two colours."""
    track: dict[int, tuple[int, int]] = {}
    for c, own in enumerate(pieces):
        for p in set(own):
            n = own.count(p)
            if START < p < HOME and n > 2:
                raise NotationError(f"{COLOURS[c]} has {n} pieces on one square")
        for p in own:
            if 0 <= p <= LAST_TRACK:
                square = track_square(c, p)
                other, count = track.get(square, (c, 0))
                if other != c:
                    raise NotationError(f"{COLOURS[other]} and {COLOURS[c]} share track "
                                        f"square {square}")
                track[square] = (c, count + 1)


# --- outcome requests --------------------------------------------------------------------------

_REQUEST_KEYS = {"turn", "pieces", "dice", "doubles"}

def request_from_json(obj: Any) -> tuple[State, Dice]:
    if not isinstance(obj, dict):
        raise NotationError("the request must be a JSON object")
    unknown = sorted(set(obj) - _REQUEST_KEYS)
    if unknown:
        raise NotationError(f"unknown field {brief(repr(unknown[0]))}")
    for key in ("turn", "pieces", "dice"):
        if key not in obj:
            raise NotationError(f"missing field {key!r}")
    pieces = pieces_from_json(obj["pieces"])
    colour = request_turn(obj["turn"], COLOURS, pieces)
    dice = obj["dice"]
    if not isinstance(dice, list) or len(dice) != 2 or not all(int_in(v, 1, 6) for v in dice):
        raise NotationError(f"dice must be two values 1..6, not {brief(json.dumps(dice))}")
    doubles = obj.get("doubles", 0)
    if not int_in(doubles, 0, 2):
        raise NotationError(f"doubles must be 0, 1 or 2, not {brief(json.dumps(doubles))}")
    colours = tuple(c for c in range(4) if pieces[c])
    state = State(colours=colours, pieces=pieces, phase=Phase.ROLL, turn=colour,
                  doubles=doubles, pairs=blockade_pairs(pieces[colour]))
    return state, (dice[0], dice[1])


def position_to_json(state: State) -> dict[str, Any]:
    """The position as an ``outcomes`` request: with the dice when the player to move has
    rolled and not moved yet (the request of that roll), without them otherwise."""
    request: dict[str, Any] = {"game": KIND, "turn": COLOURS[state.turn],
                               "pieces": pieces_to_json(state.pieces),
                               "doubles": state.doubles}
    if state.phase is Phase.MOVE and state.dice is not None and not state.rewards:
        a, b = state.dice
        whole = (a, a, 7 - a, 7 - a) if state.four else (a, b)
        if state.portions == tuple(sorted(whole, reverse=True)):
            request["dice"] = [a, b]
            request["doubles"] = state.doubles - (a == b)
    return request


def dice_to_json(dice: Dice) -> list[int]:
    return [dice[0], dice[1]]


def dice_from_json(raw: Any) -> Dice:
    if not isinstance(raw, list) or len(raw) != 2 or not all(int_in(v, 1, 6) for v in raw):
        raise NotationError(f"dice must be two values 1..6, not {brief(json.dumps(raw))}")
    return raw[0], raw[1]


# --- actions and states -----------------------------------------------------------------------

def action_to_json(action: Action) -> dict[str, Any]:
    if isinstance(action, Roll):
        return {"type": "roll"}
    if isinstance(action, Move):
        return {"type": "move", "piece": action.piece + 1, "portions": list(action.portions)}
    if isinstance(action, PlayOn):
        return {"type": "play_on", "agree": action.agree}
    return {"type": "reward", "piece": action.piece + 1, "amount": action.amount}


def action_from_json(obj: Any) -> Action:
    """Parse an action; piece numbers are 1..4 as people see them."""
    if not isinstance(obj, dict) or obj.get("type") not in ("roll", "move", "reward",
                                                            "play_on"):
        raise NotationError("an action is an object with type roll, move, reward or play_on")
    kind = obj["type"]
    if kind == "roll":
        return Roll()
    if kind == "play_on":
        if not isinstance(obj.get("agree"), bool):
            raise NotationError("a play_on action's agree is true or false")
        return PlayOn(obj["agree"])
    piece = obj.get("piece")
    if not int_in(piece, 1, 4):
        raise NotationError("piece must be 1..4")
    if kind == "move":
        portions = obj.get("portions")
        if (not isinstance(portions, list) or not 1 <= len(portions) <= 4
                or not all(int_in(v, 1, 6) for v in portions)):
            raise NotationError("portions must be a list of one to four values 1..6")
        return Move(piece - 1, tuple(portions))
    amount = obj.get("amount")
    if amount not in (HOME_REWARD, CAPTURE_REWARD) or isinstance(amount, bool):
        raise NotationError(f"a reward amount is {HOME_REWARD} or {CAPTURE_REWARD}")
    return Reward(piece - 1, amount)


def state_to_json(state: State) -> dict[str, Any]:
    """Every field of the state (piece order kept, unlike :func:`pieces_to_json`).

    The fields of a game played on for places (``asking``, ``places``, ``ranks``) are
    written only when they hold something, so every other state is written as before."""
    obj: dict[str, Any] = {
        "colours": [COLOURS[c] for c in state.colours],
        "pieces": {COLOURS[c]: [piece_to_json(p) for p in own]
                   for c, own in enumerate(state.pieces) if own},
        "phase": state.phase.value,
        "turn": COLOURS[state.turn],
        "dice": list(state.dice) if state.dice else None,
        "portions": list(state.portions),
        "four": state.four,
        "doubles": state.doubles,
        "rewards": list(state.rewards),
        "pairs": [[i + 1, j + 1] for i, j in state.pairs],
        "opening": [[COLOURS[c], total] for c, total in state.opening],
        "contenders": [COLOURS[c] for c in state.contenders],
        "rolls": state.rolls,
        "winner": COLOURS[state.winner] if state.winner is not None else None,
    }
    for key in _PLACES_KEYS:
        if getattr(state, key):
            obj[key] = ([COLOURS[c] for c in getattr(state, key)] if key != "ranks"
                        else list(state.ranks))
    return obj


_PLACES_KEYS = ("asking", "places", "ranks")
"""The fields of play on for places: absent (none) in a state stored before they existed."""


def state_from_json(obj: Any) -> State:
    """A state from :func:`state_to_json`'s JSON (one stored by an older version too)."""
    try:
        pieces = pieces_from_json(obj["pieces"])
        colours = tuple(COLOUR_INDEX[name] for name in obj["colours"])
        if colours != tuple(c for c in range(4) if pieces[c]):
            raise NotationError("colours do not match the pieces")
        state = State(
            colours=colours,
            pieces=pieces,
            phase=Phase(obj["phase"]),
            turn=COLOUR_INDEX[obj["turn"]],
            dice=tuple(obj["dice"]) if obj["dice"] else None,
            portions=tuple(obj["portions"]),
            four=bool(obj["four"]),
            doubles=int(obj["doubles"]),
            rewards=tuple(obj["rewards"]),
            pairs=tuple((i - 1, j - 1) for i, j in obj["pairs"]),
            opening=tuple((COLOUR_INDEX[name], total) for name, total in obj["opening"]),
            contenders=tuple(COLOUR_INDEX[name] for name in obj["contenders"]),
            rolls=int(obj["rolls"]),
            winner=COLOUR_INDEX[obj["winner"]] if obj["winner"] is not None else None,
        )
    except NotationError:
        raise
    except (KeyError, TypeError, ValueError) as error:
        raise NotationError(f"not a valid state: {error}") from None
    return _with_places(state, obj)


def _with_places(state: State, obj: dict[str, Any]) -> State:
    """``state`` with the play-on fields of ``obj`` (missing: none), every one checked."""
    colours = state.colours
    places = colour_list(obj.get("places", []), "places", COLOURS, colours)
    raw_ranks = obj.get("ranks", [])
    if not isinstance(raw_ranks, list) or len(raw_ranks) != len(places) or not all(
            int_in(rank, 1, len(colours)) for rank in raw_ranks):
        raise NotationError("ranks must give a place 1..colours to each colour placed")
    state = state.with_(asking=colour_list(obj.get("asking", []), "asking", COLOURS, colours),
                        places=places, ranks=tuple(raw_ranks))
    _check_places(state)
    return state


def _check_places(state: State) -> None:
    """What the play-on fields must agree on with the rest of the state."""
    if state.places and state.winner != state.places[0]:
        raise NotationError("the winner must be the first colour placed")
    _check_asking(state)
    if state.phase is not Phase.OVER and state.turn in state.places:
        raise NotationError("the colour to act has already been placed")
    finished = {c for c in state.colours if state.pieces[c].count(HOME) == 4}
    if state.phase is not Phase.OVER and state.places and finished != set(state.places):
        raise NotationError("while the game goes on, the colours placed are those finished")


def _check_asking(state: State) -> None:
    """The colours still to answer: exactly while play on is asked, ``turn`` first, none of
    them placed."""
    if (state.phase is Phase.PLAY_ON) != bool(state.asking) or (
            state.asking and state.asking[0] != state.turn):
        raise NotationError("asking must start with turn exactly while play on is asked")
    if any(c in state.places for c in state.asking):
        raise NotationError("a colour asked to play on has already been placed")
