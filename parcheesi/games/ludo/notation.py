"""JSON for Ludo: positions, outcome requests and answers, actions and whole states.

The request format and the answers of ``python -m parcheesi outcomes`` and ``choose`` are a
contract (``docs/contracts.md``, "Ludo positions and outcomes"). Parsing never trusts its
input: every malformed or impossible request, state or action raises
:class:`~parcheesi.core.notation.NotationError` with a one-line reason. Repeated keys, deep
nesting and over-long numbers are refused earlier, by the shared text parser
(:func:`parcheesi.core.notation.parse_json`).
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
    compact,
    four_pieces,
    int_in,
    request_turn,
)
from ...core.state import Phase, Pieces
from . import ai
from .actions import Action, Move
from .board import COLOUR_INDEX, COLOURS, HOME, YARD
from .expert import EXPERT
from .moves import legal_moves
from .state import LudoState, finished, validate_house
from .turns import advance

KIND = "ludo"
"""The game's name in JSON (a request's ``game``) and in storage (the ``kind`` column)."""
MAX_SIXES = 2
"""A request's sixes so far in the turn: 0, 1 or 2 (a third is the ``third_six`` rule's)."""

# --- pieces -----------------------------------------------------------------------------------

def piece_to_json(progress: int) -> str | int:
    if progress == YARD:
        return "yard"
    if progress == HOME:
        return "home"
    return progress


def piece_from_json(value: Any, where: str) -> int:
    """A piece's progress from ``"yard"``, ``"home"`` or an integer 0..55."""
    if isinstance(value, str) and value in ("yard", "home"):
        return YARD if value == "yard" else HOME
    if not int_in(value, 0, HOME - 1):
        raise NotationError(f"{where}: {brief(json.dumps(value))} is not \"yard\", \"home\" "
                            f"or a progress 0..{HOME - 1}")
    return value


def pieces_to_json(pieces: Pieces) -> dict[str, list[str | int]]:
    """Active colours' pieces, each list sorted: yard first, progress ascending, home."""
    return {COLOURS[c]: [piece_to_json(p) for p in sorted(own)]
            for c, own in enumerate(pieces) if own}


def pieces_from_json(obj: Any) -> Pieces:
    """Parse and check a ``pieces`` object: 2-4 known colours, four valid entries each."""
    colours_of_pieces(obj, COLOURS)
    pieces: list[tuple[int, ...]] = [()] * len(COLOURS)
    for name, own in obj.items():
        pieces[COLOUR_INDEX[name]] = four_pieces(own, name, piece_from_json)
    return tuple(pieces)


# --- outcome requests ---------------------------------------------------------------------------

_REQUEST_KEYS = ("game", "turn", "pieces", "die", "sixes", "house")


def request_from_json(obj: Any) -> tuple[LudoState, int]:
    """The position at the start of ``turn``'s roll (its sixes so far, the house rules) and
    the die, from a request of the docs/contracts.md contract. ``game``, if present, is ``ludo``."""
    _check_fields(obj)
    pieces = pieces_from_json(obj["pieces"])
    turn = _request_turn(obj["turn"], pieces)
    die = obj["die"]
    if not int_in(die, 1, 6):
        raise NotationError(f"die must be an integer 1..6, not {brief(json.dumps(die))}")
    sixes = obj.get("sixes", 0)
    if not int_in(sixes, 0, MAX_SIXES):
        raise NotationError(f"sixes must be 0, 1 or 2, not {brief(json.dumps(sixes))}")
    house = _house_from_json(obj.get("house", []))
    colours = tuple(c for c in range(len(COLOURS)) if pieces[c])
    done = tuple(c for c in colours if finished(pieces[c]))
    state = LudoState(colours=colours, pieces=pieces, phase=Phase.ROLL, turn=turn,
                      sixes=sixes, house=house, places=done,
                      ranks=tuple(range(1, len(done) + 1)),
                      winner=done[0] if done else None)
    return state, die


def _check_fields(obj: Any) -> None:
    """A request is an object of the contract's fields, the required ones present."""
    if not isinstance(obj, dict):
        raise NotationError("the request must be a JSON object")
    unknown = [key for key in obj if key not in _REQUEST_KEYS]
    if unknown:
        raise NotationError(f"unknown field {brief(repr(unknown[0]))}")
    if "game" in obj and obj["game"] != KIND:
        raise NotationError(f"unknown game {brief(json.dumps(obj['game']))} for a Ludo "
                            "request")
    for key in ("turn", "pieces", "die"):
        if key not in obj:
            raise NotationError(f"missing field {key!r}")


def _request_turn(turn: Any, pieces: Pieces) -> int:
    colour = request_turn(turn, COLOURS, pieces)
    if finished(pieces[colour]):
        raise NotationError(f"turn {turn!r} has already finished (all four pieces HOME)")
    return colour


def _house_from_json(raw: Any) -> tuple[str, ...]:
    if not isinstance(raw, list):
        raise NotationError(f"house must be a list of house-rule names, not "
                            f"{brief(json.dumps(raw))}")
    try:
        return validate_house(raw)
    except (ValueError, TypeError) as error:
        raise NotationError(str(error)) from None


# --- the answers ---------------------------------------------------------------------------------

def outcome(before: LudoState, after: LudoState) -> dict[str, Any]:
    """One outcome: the pieces when the roll's move is made, and whether the same player
    rolls again."""
    return {"again": after.phase is Phase.ROLL and after.turn == before.turn,
            "pieces": pieces_to_json(after.pieces)}


def outcomes(request: dict[str, Any]) -> dict[str, Any]:
    """Every distinct position the player can reach by the end of this roll's move, each
    with whether they roll again, sorted by compact JSON (docs/contracts.md). No usable move: the
    unchanged position."""
    state, die = request_from_json(request)
    rolled = advance(state, Roll(), die)
    if rolled.phase is not Phase.MOVE:
        found = {compact(outcome(state, rolled))}
    else:
        found = {compact(outcome(state, advance(rolled, move[4])))
                 for move in legal_moves(rolled)}
    return {"outcomes": [json.loads(item) for item in sorted(found)]}


def choose(request: dict[str, Any], level: str) -> dict[str, Any]:
    """The outcome computer player ``level`` picks for the request's roll, why, and each
    colour's chance to win from there by the learned evaluation."""
    if level not in ai.LEVELS:
        raise NotationError(f"Ludo has no player {level!r} (use {', '.join(ai.LEVELS)})")
    state, die = request_from_json(request)
    rolled = advance(state, Roll(), die)
    if rolled.phase is Phase.MOVE:
        decision = ai.decide(rolled, level, reason=True)
        after, reason = decision.state, decision.reason
    elif state.sixes == 2 and die == 6 and "third_six" in state.house:
        after, reason = rolled, "A third six in a row: nothing moves and the turn passes"
    elif rolled.phase is Phase.ROLL and rolled.turn == state.turn:
        after, reason = rolled, "No piece can use the 6, which still rolls again"
    else:
        after, reason = rolled, f"No piece can use the {die}: the turn passes"
    return {**outcome(state, after), "reason": reason,
            "win_chance": {COLOURS[c]: round(chance, 4)
                           for c, chance in EXPERT.chances(after).items()}}


# --- actions --------------------------------------------------------------------------------------

def action_to_json(action: Action) -> dict[str, Any]:
    if isinstance(action, Move):
        return {"type": "move", "piece": action.piece + 1,
                "capture": None if action.capture is None else COLOURS[action.capture]}
    if isinstance(action, PlayOn):
        return {"type": "play_on", "agree": action.agree}
    return {"type": "roll"}


_ACTION_KEYS = {"roll": {"type"}, "move": {"type", "piece", "capture"},
                "play_on": {"type", "agree"}}


def action_from_json(obj: Any) -> Action:
    """Parse an action; piece numbers are 1..4 as people see them."""
    if not isinstance(obj, dict) or obj.get("type") not in _ACTION_KEYS:
        raise NotationError("an action is an object with type roll, move or play_on")
    kind = obj["type"]
    extra = sorted(set(obj) - _ACTION_KEYS[kind])
    if extra:
        raise NotationError(f"a {kind} action has no field {brief(repr(extra[0]))}")
    if kind == "roll":
        return Roll()
    if kind == "play_on":
        if not isinstance(obj.get("agree"), bool):
            raise NotationError("a play_on action's agree is true or false")
        return PlayOn(obj["agree"])
    if not int_in(obj.get("piece"), 1, 4):
        raise NotationError("a move's piece is 1..4")
    capture = obj.get("capture")
    if capture is not None and capture not in COLOUR_INDEX:
        raise NotationError(f"a move's capture is a colour or null, not "
                            f"{brief(json.dumps(capture))}")
    return Move(obj["piece"] - 1, None if capture is None else COLOUR_INDEX[capture])


# --- whole states ---------------------------------------------------------------------------------

_PHASES = {phase.value: phase for phase in (Phase.OPENING, Phase.ROLL, Phase.MOVE,
                                            Phase.PLAY_ON, Phase.OVER)}


def position_to_json(state: LudoState) -> dict[str, Any]:
    """The position as an ``outcomes`` request: with the die when the player to move has
    rolled and not moved yet (the request of that roll), without it otherwise. The sixes so
    far are written as a request counts them, at most 2: only the ``third_six`` house rule
    reads them, and under it a run of sixes never reaches 3 before a roll."""
    request: dict[str, Any] = {"game": KIND, "turn": COLOURS[state.turn],
                               "pieces": pieces_to_json(state.pieces),
                               "sixes": min(state.sixes, MAX_SIXES),
                               "house": list(state.house)}
    if state.phase is Phase.MOVE and state.dice is not None:
        die = state.dice[0]
        request["die"] = die
        request["sixes"] = min(state.sixes - 1, MAX_SIXES) if die == 6 else 0
    return request


def die_to_json(die: int) -> int:
    """A roll as a game record writes it: the die itself."""
    return die


def die_from_json(raw: Any) -> int:
    if not int_in(raw, 1, 6):
        raise NotationError(f"a die must be 1..6, not {brief(json.dumps(raw))}")
    return int(raw)


def state_to_json(state: LudoState) -> dict[str, Any]:
    """Every field of the state (piece order kept, unlike :func:`pieces_to_json`)."""
    return {
        "colours": [COLOURS[c] for c in state.colours],
        "pieces": {COLOURS[c]: [piece_to_json(p) for p in state.pieces[c]]
                   for c in range(len(COLOURS)) if state.pieces[c]},
        "phase": state.phase.value,
        "turn": COLOURS[state.turn],
        "dice": None if state.dice is None else list(state.dice),
        "portions": list(state.portions),
        "sixes": state.sixes,
        "house": list(state.house),
        "opening": [[COLOURS[c], die] for c, die in state.opening],
        "contenders": [COLOURS[c] for c in state.contenders],
        "asking": [COLOURS[c] for c in state.asking],
        "places": [COLOURS[c] for c in state.places],
        "ranks": list(state.ranks),
        "rolls": state.rolls,
        "race_rolls": state.race_rolls,
        "winner": None if state.winner is None else COLOURS[state.winner],
        "draw": state.draw,
    }


_STATE_KEYS = ("colours", "pieces", "phase", "turn", "dice", "portions", "sixes", "house",
               "opening", "contenders", "asking", "places", "ranks", "rolls", "race_rolls",
               "winner", "draw")


def state_from_json(obj: Any) -> LudoState:
    """A state from :func:`state_to_json`'s JSON, every field checked."""
    if not isinstance(obj, dict) or set(obj) != set(_STATE_KEYS):
        raise NotationError("a Ludo state is an object with the fields "
                            f"{', '.join(_STATE_KEYS)}")
    colours = _colour_list(obj["colours"], "colours", tuple(range(len(COLOURS))))
    if not 2 <= len(colours) <= 4 or colours != tuple(sorted(colours)):
        raise NotationError("colours must be 2 to 4 colours in turn order")
    pieces = pieces_from_json(obj["pieces"])
    if tuple(c for c in range(len(COLOURS)) if pieces[c]) != colours:
        raise NotationError("the pieces' colours are not the state's colours")
    places = _colour_list(obj["places"], "places", colours)
    house = _house_from_json(obj["house"])
    if list(house) != obj["house"]:
        raise NotationError("house rules must be listed sorted by name")
    state = LudoState(
        colours=colours, pieces=pieces, phase=_phase(obj["phase"]),
        turn=_colour(obj["turn"], "turn", colours),
        dice=_dice(obj["dice"]), portions=_dice_list(obj["portions"], "portions"),
        sixes=_count(obj["sixes"], "sixes"), house=house,
        opening=_opening(obj["opening"], colours),
        contenders=_colour_list(obj["contenders"], "contenders", colours),
        asking=_colour_list(obj["asking"], "asking", colours),
        places=places, ranks=_ranks(obj["ranks"], len(places), len(colours)),
        rolls=_count(obj["rolls"], "rolls"), race_rolls=_count(obj["race_rolls"], "race_rolls"),
        winner=None if obj["winner"] is None else _colour(obj["winner"], "winner", colours),
        draw=_flag(obj["draw"], "draw"))
    _check_consistent(state)
    return state


def _check_consistent(state: LudoState) -> None:
    """What the fields must agree on for the rules to carry on from the state."""
    if state.race_rolls > state.rolls:
        raise NotationError("race_rolls cannot exceed rolls")
    if state.winner != (state.places[0] if state.places else None) and not state.draw:
        raise NotationError("the winner must be the first colour placed")
    if state.draw and (state.winner is not None or state.phase is not Phase.OVER):
        raise NotationError("a drawn game is over and has no winner")
    _check_phase(state)


def _check_phase(state: LudoState) -> None:
    """The fields that belong to the phase: the roll's die while a move is chosen, the
    colours still to answer while play on is asked, a colour to act that is still racing."""
    moving = state.phase is Phase.MOVE
    if moving != bool(state.portions) or (moving and state.portions != state.dice):
        raise NotationError("portions must be the die exactly while a move is chosen")
    if (state.phase is Phase.PLAY_ON) != bool(state.asking) or (
            state.asking and state.asking[0] != state.turn):
        raise NotationError("asking must start with turn exactly while play on is asked")
    if state.phase in (Phase.ROLL, Phase.MOVE, Phase.PLAY_ON) and state.turn in state.places:
        raise NotationError("the colour to act has already been placed")
    if moving and not legal_moves(state):
        raise NotationError("a move is to be chosen but no piece can use the die")


def _phase(raw: Any) -> Phase:
    if not isinstance(raw, str) or raw not in _PHASES:
        raise NotationError(f"phase {brief(json.dumps(raw))} is not one of "
                            f"{', '.join(_PHASES)}")
    return _PHASES[raw]


def _colour_list(raw: Any, what: str, allowed: tuple[int, ...]) -> tuple[int, ...]:
    return colour_list(raw, what, COLOURS, allowed)


def _colour(raw: Any, what: str, allowed: tuple[int, ...]) -> int:
    if not isinstance(raw, str) or raw not in COLOUR_INDEX or COLOUR_INDEX[raw] not in allowed:
        raise NotationError(f"{what} must be a colour of the game, not {brief(json.dumps(raw))}")
    return COLOUR_INDEX[raw]


def _dice(raw: Any) -> tuple[int] | None:
    if raw is None:
        return None
    if not isinstance(raw, list) or len(raw) != 1 or not int_in(raw[0], 1, 6):
        raise NotationError("dice must be null or one die 1..6")
    return (raw[0],)


def _dice_list(raw: Any, what: str) -> tuple[int, ...]:
    if not isinstance(raw, list) or len(raw) > 1 or not all(int_in(v, 1, 6) for v in raw):
        raise NotationError(f"{what} must be empty or one die 1..6")
    return tuple(raw)


def _count(raw: Any, what: str) -> int:
    if not int_in(raw, 0, 10**9):
        raise NotationError(f"{what} must be a whole number")
    return raw


def _flag(raw: Any, what: str) -> bool:
    if not isinstance(raw, bool):
        raise NotationError(f"{what} must be true or false")
    return raw


def _opening(raw: Any, colours: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    if not isinstance(raw, list) or not all(
            isinstance(item, list) and len(item) == 2 and int_in(item[1], 1, 6)
            for item in raw):
        raise NotationError("opening must be a list of [colour, die] pairs")
    rolled = _colour_list([item[0] for item in raw], "opening", colours)
    return tuple(zip(rolled, (item[1] for item in raw), strict=True))


def _ranks(raw: Any, count: int, colours: int) -> tuple[int, ...]:
    if not isinstance(raw, list) or len(raw) != count or not all(
            int_in(rank, 1, colours) for rank in raw):
        raise NotationError("ranks must give a place 1..colours to each colour placed")
    return tuple(raw)
