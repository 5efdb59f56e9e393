"""Parsing untrusted actions and states (parcheesi/games/parcheesi/notation.py): every malformed
input raises NotationError with a one-line reason, and good input parses exactly."""

from __future__ import annotations

import json
from typing import Any

import pytest

from parcheesi.core.actions import Roll
from parcheesi.core.notation import (
    MAX_DEPTH,
    MAX_REQUEST_LENGTH,
    NotationError,
    decode_request,
    parse_json,
)
from parcheesi.games.parcheesi.notation import (
    action_from_json,
    action_to_json,
    request_from_json,
    state_from_json,
    state_to_json,
)
from parcheesi.games.parcheesi.turns import Game, Move, Reward, legal_actions


def parse_request(text: str) -> object:
    """A request's text read the way the ``outcomes`` command reads it."""
    return request_from_json(parse_json(text))


def one_line(error: pytest.ExceptionInfo[NotationError]) -> str:
    message = str(error.value)
    assert message and "\n" not in message
    return message


# --- actions ----------------------------------------------------------------------------------

@pytest.mark.parametrize(("obj", "action"), [
    ({"type": "roll"}, Roll()),
    ({"type": "move", "piece": 1, "portions": [5]}, Move(0, (5,))),
    ({"type": "move", "piece": 4, "portions": [4, 1]}, Move(3, (4, 1))),
    ({"type": "move", "piece": 2, "portions": [6, 6, 1, 1]}, Move(1, (6, 6, 1, 1))),
    ({"type": "reward", "piece": 3, "amount": 20}, Reward(2, 20)),
    ({"type": "reward", "piece": 1, "amount": 10}, Reward(0, 10)),
])
def test_good_actions_parse_and_round_trip(obj: dict[str, Any], action: object) -> None:
    assert action_from_json(obj) == action
    assert action_to_json(action_from_json(obj)) == obj  # type: ignore[arg-type]


BAD_ACTIONS: dict[str, Any] = {
    "null": None,
    "list": ["roll"],
    "string": "roll",
    "number": 1,
    "empty object": {},
    "no type": {"piece": 1, "portions": [5]},
    "unknown type": {"type": "jump"},
    "type capitalised": {"type": "Roll"},
    "type not a string": {"type": 1},
    "type a list": {"type": ["roll"]},
    "move without piece": {"type": "move", "portions": [5]},
    "move piece 0": {"type": "move", "piece": 0, "portions": [5]},
    "move piece 5": {"type": "move", "piece": 5, "portions": [5]},
    "move piece -1": {"type": "move", "piece": -1, "portions": [5]},
    "move piece string": {"type": "move", "piece": "1", "portions": [5]},
    "move piece true": {"type": "move", "piece": True, "portions": [5]},
    "move piece float": {"type": "move", "piece": 1.0, "portions": [5]},
    "move without portions": {"type": "move", "piece": 1},
    "move portions empty": {"type": "move", "piece": 1, "portions": []},
    "move five portions": {"type": "move", "piece": 1, "portions": [1, 1, 6, 6, 1]},
    "move portion 0": {"type": "move", "piece": 1, "portions": [0]},
    "move portion 7": {"type": "move", "piece": 1, "portions": [7]},
    "move portion string": {"type": "move", "piece": 1, "portions": ["5"]},
    "move portion true": {"type": "move", "piece": 1, "portions": [True]},
    "move portion float": {"type": "move", "piece": 1, "portions": [5.0]},
    "move portions not a list": {"type": "move", "piece": 1, "portions": 5},
    "reward without piece": {"type": "reward", "amount": 20},
    "reward piece 9": {"type": "reward", "piece": 9, "amount": 20},
    "reward without amount": {"type": "reward", "piece": 1},
    "reward amount 15": {"type": "reward", "piece": 1, "amount": 15},
    "reward amount 5": {"type": "reward", "piece": 1, "amount": 5},
    "reward amount string": {"type": "reward", "piece": 1, "amount": "20"},
    "reward amount true": {"type": "reward", "piece": 1, "amount": True},
    "reward amount float": {"type": "reward", "piece": 1, "amount": 20.5},
}


@pytest.mark.parametrize("obj", list(BAD_ACTIONS.values()), ids=list(BAD_ACTIONS))
def test_bad_actions_raise_notation_error(obj: Any) -> None:
    with pytest.raises(NotationError) as error:
        action_from_json(obj)
    one_line(error)


# --- a game to take states from ------------------------------------------------------------

def short_game() -> Game:
    """Ruby and sapphire, seed 7, the first legal action each time until the 30th action."""
    game = Game((0, 2), 7)
    for _ in range(30):
        game.play(legal_actions(game.state)[0])
    return game


# --- states and requests ----------------------------------------------------------------------

def good_state() -> dict[str, Any]:
    return json.loads(json.dumps(state_to_json(short_game().state)))


BAD_STATES: dict[str, Any] = {
    "null": None,
    "list": [],
    "empty object": {},
    "no phase": {k: v for k, v in good_state().items() if k != "phase"},
    "unknown phase": {**good_state(), "phase": "dancing"},
    "unknown turn": {**good_state(), "turn": "green"},
    "colours not matching pieces": {**good_state(), "colours": ["emerald", "amber"]},
    "bad pieces": {**good_state(), "pieces": {"ruby": [1, 2, 3]}},
}


@pytest.mark.parametrize("obj", list(BAD_STATES.values()), ids=list(BAD_STATES))
def test_bad_states_raise_notation_error(obj: Any) -> None:
    with pytest.raises(NotationError) as error:
        state_from_json(obj)
    one_line(error)


@pytest.mark.parametrize("text", ["", "{", "[1, 2]", "null", '{"turn": "ruby"}'])
def test_bad_request_text_raises_notation_error(text: str) -> None:
    with pytest.raises(NotationError) as error:
        parse_request(text)
    one_line(error)


# --- hostile request text: bounded before Python's JSON module can fail otherwise ----------------

REQUEST = {"turn": "ruby", "pieces": {"ruby": ["start", 12, 64, "home"],
                                      "sapphire": ["start", "start", 30, 70]},
           "dice": [5, 3], "doubles": 0}


def request_with(field: str, raw: str) -> str:
    text = json.dumps({k: v for k, v in REQUEST.items() if k != field})
    return text[:-1] + f', "{field}": {raw}}}'


@pytest.mark.parametrize(("text", "reason"), [
    ("[" * 5000 + "]" * 5000, "not JSON: nested too deeply"),
    ("[" * 5000, "not JSON: nested too deeply"),
    (request_with("turn", "[" * 1000 + "]" * 1000), "not JSON: nested too deeply"),
    (request_with("doubles", "1" * 5000), "not JSON: a number is too long"),
    (request_with("doubles", "-" + "1" * 5000), "not JSON: a number is too long"),
    (request_with("doubles", "0." + "1" * 5000), "not JSON: a number is too long"),
    (request_with("doubles", "1e999"), "not JSON: a number is too large"),
    (request_with("doubles", "-1e999"), "not JSON: a number is too large"),
    (request_with("doubles", "NaN"), "not JSON: NaN is not a number"),
    (request_with("doubles", "Infinity"), "not JSON: Infinity is not a number"),
    (request_with("dice", "[-Infinity, 1]"), "not JSON: -Infinity is not a number"),
    ("", "not JSON: the input is empty"),
    (" \n\t", "not JSON: the input is empty"),
    (" " * MAX_REQUEST_LENGTH + "{}", f"the request is longer than {MAX_REQUEST_LENGTH} "
                                      "characters"),
], ids=["deep", "deep unclosed", "deep field", "long int", "long negative int", "long float",
        "1e999", "-1e999", "NaN", "Infinity", "-Infinity", "empty", "blank", "too long"])
def test_hostile_request_text_gets_a_short_reason(text: str, reason: str) -> None:
    with pytest.raises(NotationError) as error:
        parse_request(text)
    assert one_line(error) == reason


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


def test_nesting_is_refused_only_beyond_the_bound() -> None:
    assert parse_json(nested(MAX_DEPTH)) == json.loads(nested(MAX_DEPTH))
    assert parse_json('{"a": ' * MAX_DEPTH + "1" + "}" * MAX_DEPTH)
    with pytest.raises(NotationError, match="nested too deeply"):
        parse_json(nested(MAX_DEPTH + 1))
    with pytest.raises(NotationError, match="nested too deeply"):
        parse_json('{"a": ' * (MAX_DEPTH + 1) + "1" + "}" * (MAX_DEPTH + 1))


def test_brackets_inside_strings_do_not_count_as_nesting() -> None:
    brackets = "[{" * 100 + '\\"' + "[" * 100
    assert parse_json(json.dumps({"key": brackets})) == {"key": brackets}
    with pytest.raises(NotationError) as error:
        parse_request(request_with("turn", json.dumps(brackets)))
    assert one_line(error).startswith("turn ")


def test_numbers_within_the_bound_still_parse() -> None:
    assert parse_json("[" + "9" * 40 + ", -1.5e300, 0.25]") == [int("9" * 40), -1.5e300, 0.25]


@pytest.mark.parametrize("text", [
    request_with("doubles", json.dumps("x" * 10_000)),
    request_with("dice", json.dumps(list(range(10_000)))),
    request_with("turn", json.dumps("green" * 2000)),
    request_with("pieces", json.dumps({"green" * 2000: []})),
    request_with("pieces", json.dumps({"ruby": ["x" * 10_000] * 4,
                                       "sapphire": ["start"] * 4})),
    json.dumps({**REQUEST, "x" * 10_000: 1}),
    '{"' + "k" * 10_000 + '": 1, "' + "k" * 10_000 + '": 2}',
], ids=["doubles", "dice", "turn", "colour", "piece", "field", "repeated key"])
def test_long_values_are_cut_short_in_reasons(text: str) -> None:
    with pytest.raises(NotationError) as error:
        parse_request(text)
    assert len(one_line(error)) < 120


def test_request_bytes_are_utf8_within_the_bound() -> None:
    assert decode_request(json.dumps(REQUEST).encode()) == json.dumps(REQUEST)
    assert decode_request(b" " * MAX_REQUEST_LENGTH) == " " * MAX_REQUEST_LENGTH
    for data, reason in ((b" " * (MAX_REQUEST_LENGTH + 1),
                          f"the request is longer than {MAX_REQUEST_LENGTH} bytes"),
                         (b'{"turn": "\xff"}', "the request is not UTF-8 text"),
                         (b'"\xed\xa0\x80"', "the request is not UTF-8 text")):
        with pytest.raises(NotationError) as error:
            decode_request(data)
        assert one_line(error) == reason
