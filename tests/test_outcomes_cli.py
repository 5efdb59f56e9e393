"""``python -m parcheesi outcomes`` as a separate process (docs/contracts.md, "Position and outcome
JSON (contract)"). Expected outcomes are worked out by hand from docs/rules/parcheesi.md."""

from __future__ import annotations

import contextlib
import json
import os
import re
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent

START4 = ["start", "start", "start", "start"]
EXAMPLE = {"turn": "ruby",
           "pieces": {"ruby": ["start", 12, 64, "home"], "sapphire": ["start", "start", 30, 70]},
           "dice": [5, 3],
           "doubles": 0}


def run(stdin: str | bytes) -> subprocess.CompletedProcess[bytes]:
    data = stdin.encode() if isinstance(stdin, str) else stdin
    return subprocess.run([sys.executable, "-m", "parcheesi", "outcomes"], input=data,
                          capture_output=True, cwd=ROOT, timeout=60, check=False)


def outcomes(request: dict[str, Any]) -> list[dict[str, Any]]:
    done = run(json.dumps(request))
    assert done.returncode == 0, done.stderr.decode()
    assert done.stderr == b""
    result = json.loads(done.stdout)
    assert list(result) == ["outcomes"]
    return result["outcomes"]


def request(turn: str, pieces: dict[str, Any], dice: Any, **extra: Any) -> dict[str, Any]:
    return {"turn": turn, "pieces": pieces, "dice": dice, **extra}


def compact(obj: Any) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"))


def order(value: Any) -> tuple[int, int]:
    return (0, 0) if value == "start" else (2, 0) if value == "home" else (1, value)


# --- exact outcomes, by hand ---------------------------------------------------------------------

def test_design_example_gives_the_three_hand_worked_outcomes() -> None:
    # Sapphire's 30 is track square 1 (39 + 30 - 68), ruby's progress 64: off ruby's path.
    # The 5 must enter (entry square 5 is empty); the 3 then moves the new piece (3), the
    # piece on 12 (15) or the lane piece on 64 (67). Nothing is captured or reaches HOME.
    sapphire = ["start", "start", 30, 70]
    assert outcomes(EXAMPLE) == [
        {"pieces": {"ruby": [0, 12, 67, "home"], "sapphire": sapphire}},
        {"pieces": {"ruby": [0, 15, 64, "home"], "sapphire": sapphire}},
        {"pieces": {"ruby": [3, 12, 64, "home"], "sapphire": sapphire}},
    ]


def test_stdout_is_only_the_json_object() -> None:
    done = run(json.dumps(EXAMPLE))
    assert done.returncode == 0 and done.stderr == b""
    text = done.stdout.decode()
    assert text.strip().startswith("{") and text.strip().endswith("}")
    assert json.loads(text)["outcomes"][0]["pieces"]["ruby"] == [0, 12, 67, "home"]


def test_doubles_is_optional_and_defaults_to_zero() -> None:
    # 6-6 with a piece in START gives two portions of 6 (no entry): the piece on 12 takes
    # both (24, square 29, safe and empty), or 12 -> 18 and the lane piece 64 -> 70.
    base = request("ruby", EXAMPLE["pieces"], [6, 6])
    sapphire = ["start", "start", 30, 70]
    expected = [{"pieces": {"ruby": ["start", 18, 70, "home"], "sapphire": sapphire}},
                {"pieces": {"ruby": ["start", 24, 64, "home"], "sapphire": sapphire}}]
    assert outcomes(base) == expected
    assert outcomes({**base, "doubles": 0}) == expected
    assert outcomes({**base, "doubles": 1}) == expected
    without = run(json.dumps(base))
    with_zero = run(json.dumps({**base, "doubles": 0}))
    assert without.stdout == with_zero.stdout


def test_third_doubles_sends_the_leader_in_the_home_lane_back_to_start() -> None:
    # Two doubles already rolled: 6-6 moves nothing; the piece on 64 (home lane, the
    # greatest progress that is not START or HOME) returns to START.
    assert outcomes({**EXAMPLE, "dice": [6, 6], "doubles": 2}) == [
        {"pieces": {"ruby": ["start", "start", 12, "home"],
                    "sapphire": ["start", "start", 30, 70]}}]


def test_third_doubles_with_no_piece_out_changes_nothing() -> None:
    pieces = {"ruby": ["start", "start", "home", "start"], "sapphire": [3, "start", 9, 70]}
    assert outcomes(request("ruby", pieces, [5, 5], doubles=2)) == [
        {"pieces": {"ruby": ["start", "start", "start", "home"],
                    "sapphire": ["start", 3, 9, 70]}}]


def test_third_doubles_tie_returns_one_of_the_tied_pieces() -> None:
    # Two pieces on 40 (a blockade): one of them goes back; the lane is not involved.
    pieces = {"ruby": [40, 12, 40, "home"], "sapphire": START4}
    assert outcomes(request("ruby", pieces, [2, 2], doubles=2)) == [
        {"pieces": {"ruby": ["start", 12, 40, "home"], "sapphire": START4}}]


def test_a_roll_that_cannot_move_gives_the_unchanged_position() -> None:
    # No 5 and 3 + 4 != 5, and the lane piece on 70 needs exactly 1.
    pieces = {"ruby": [70, "start", "start", "start"], "sapphire": ["start", 30, 2, "start"]}
    assert outcomes(request("ruby", pieces, [3, 4])) == [
        {"pieces": {"ruby": ["start", "start", "start", 70],
                    "sapphire": ["start", "start", 2, 30]}}]


def test_a_blockade_on_the_entry_square_stops_entering() -> None:
    # Sapphire 34 is track square 5 (39 + 34 - 68), ruby's entry square: a blockade.
    pieces = {"ruby": START4, "sapphire": [34, 34, "start", "start"]}
    assert outcomes(request("ruby", pieces, [5, 2])) == [
        {"pieces": {"ruby": START4, "sapphire": ["start", "start", 34, 34]}}]


def test_a_capture_earns_a_20_that_is_taken_before_the_roll_ends() -> None:
    # Ruby on 10 (square 15), sapphire on 47 (square 18, not safe). 3 then 1 captures on
    # 13 and ends on 14, then the 20 goes 14 -> 34 (square 39, sapphire's empty entry).
    # 1 then 3 passes the sapphire piece and ends on 14 without a capture.
    pieces = {"ruby": ["start", "start", "start", 10], "sapphire": ["start", "start", "start", 47]}
    assert outcomes(request("ruby", pieces, [3, 1])) == [
        {"pieces": {"ruby": ["start", "start", "start", 14],
                    "sapphire": ["start", "start", "start", 47]}},
        {"pieces": {"ruby": ["start", "start", "start", 34], "sapphire": START4}},
    ]


def test_reaching_home_earns_a_10() -> None:
    # No piece in START: 5 + 2 on two pieces or one. 66 + 5 reaches HOME (10 reward), the 2
    # moves 50 -> 52 and the 10 then takes it to 62; or 66 + 2 = 68 and 50 + 5 = 55; or
    # 50 + 7 = 57. 66 + 7 would pass HOME.
    pieces = {"ruby": [50, 66, "home", "home"], "sapphire": START4}
    assert outcomes(request("ruby", pieces, [5, 2])) == [
        {"pieces": {"ruby": [55, 68, "home", "home"], "sapphire": START4}},
        {"pieces": {"ruby": [57, 66, "home", "home"], "sapphire": START4}},
        {"pieces": {"ruby": [62, "home", "home", "home"], "sapphire": START4}},
    ]


def test_the_last_piece_home_ends_the_game_at_once() -> None:
    # 69 + 2 reaches HOME and wins; the 10 reward and the 4 are never used.
    pieces = {"ruby": [69, "home", "home", "home"], "sapphire": START4}
    assert outcomes(request("ruby", pieces, [4, 2])) == [
        {"pieces": {"ruby": ["home", "home", "home", "home"], "sapphire": START4}}]


def test_every_level_chooses_when_no_opponent_is_left_racing() -> None:
    """The request's rules accept an opponent with every piece HOME; every player still
    answers with one of the roll's outcomes (Medium and Hard weigh no opponents as none)."""
    req = request("ruby", {"ruby": ["home", 6, "start", "home"], "sapphire": ["home"] * 4},
                  [4, 5])
    possible = [o["pieces"] for o in outcomes(req)]
    for level in ("random", "easy", "medium", "hard", "expert", "grace"):
        done = subprocess.run([sys.executable, "-m", "parcheesi", "choose", "--player", level],
                              input=json.dumps(req).encode(), capture_output=True, cwd=ROOT,
                              timeout=60, check=False)
        assert done.returncode == 0 and done.stderr == b"", (level, done.stderr.decode())
        assert json.loads(done.stdout)["pieces"] in possible, level


def test_another_colours_turn() -> None:
    # Amber (turn-off 51, entry 56) with emerald: 1 + 4 enters, the only legal sequence.
    pieces = {"emerald": ["start", 3, "start", 60], "amber": START4}
    assert outcomes(request("amber", pieces, [1, 4])) == [
        {"pieces": {"amber": ["start", "start", "start", 0],
                    "emerald": ["start", "start", 3, 60]}}]


# --- output format ----------------------------------------------------------------------------

FORMAT_CASES = [
    EXAMPLE,
    request("emerald", {"ruby": [3, 20, "start", 40], "emerald": [5, 10, "start", 66],
                        "sapphire": [8, 52, "home", "start"], "amber": [1, 2, 30, 64]}, [5, 6]),
    request("sapphire", {"ruby": [33, 12, 0, 21], "emerald": ["home", 17, 9, 0],
                         "sapphire": [44, 2, 27, 59]}, [3, 3]),
    request("amber", {"emerald": [18, 9, 61, "start"], "amber": [70, 40, 11, 11]}, [4, 4]),
]


@pytest.mark.parametrize("req", FORMAT_CASES, ids=["example", "four", "three", "two"])
def test_output_is_sorted_distinct_and_keeps_the_colours(req: dict[str, Any]) -> None:
    found = outcomes(req)
    assert found
    texts = [compact(item) for item in found]
    assert texts == sorted(texts)
    assert len(set(texts)) == len(texts)
    for item in found:
        assert list(item) == ["pieces"]
        assert set(item["pieces"]) == set(req["pieces"])
        for colour, own in item["pieces"].items():
            assert len(own) == 4
            assert own == sorted(own, key=order), (colour, own)
            assert all(v in ("start", "home") or (isinstance(v, int) and 0 <= v <= 70)
                       for v in own)


def test_four_portion_doubles_use_all_four_portions() -> None:
    # No ruby piece in START: 1-1 gives 1, 1, 6, 6 (14 in all), split any way between the
    # pieces on 10 and 20 (nothing blocks; both on 22 is a new blockade, which is allowed).
    pieces = {"ruby": [10, 20, "home", "home"], "sapphire": START4}
    pairs = [(10, 34), (11, 33), (12, 32), (16, 28), (17, 27), (18, 26), (20, 24), (21, 23),
             (22, 22)]
    assert outcomes(request("ruby", pieces, [1, 1])) == [
        {"pieces": {"ruby": [a, b, "home", "home"], "sapphire": START4}} for a, b in pairs]


def test_four_portion_doubles_that_do_not_all_fit_move_nothing() -> None:
    # 3-3 gives 3, 3, 4, 4: the 3 alone would bring the last piece HOME, but all four
    # portions cannot be used, so nothing moves at all.
    pieces = {"ruby": ["home", 68, "home", "home"], "sapphire": START4}
    assert outcomes(request("ruby", pieces, [3, 3])) == [
        {"pieces": {"ruby": [68, "home", "home", "home"], "sapphire": START4}}]


# --- bad input --------------------------------------------------------------------------------

def with_pieces(**pieces: Any) -> str:
    return json.dumps({"turn": "ruby", "pieces": pieces, "dice": [5, 3]})


def with_ruby(*ruby: Any) -> str:
    return with_pieces(ruby=list(ruby), sapphire=START4)


def with_field(**fields: Any) -> str:
    return json.dumps({**EXAMPLE, **fields})


def without(key: str) -> str:
    return json.dumps({k: v for k, v in EXAMPLE.items() if k != key})


BAD = {
    # not JSON
    "not json": "{",
    "not json text": "ruby to move",
    "empty input": "",
    "blank input": "  \n",
    "trailing garbage": json.dumps(EXAMPLE) + " x",
    "invalid utf-8": b'{"turn": "\xff"}',
    # not a request object
    "json array": json.dumps([EXAMPLE]),
    "json null": "null",
    "json number": "42",
    "json string": '"outcomes"',
    "missing pieces": without("pieces"),
    "missing dice": without("dice"),
    "missing turn": without("turn"),
    "pieces not an object": with_field(pieces=[["start"] * 4, START4]),
    "pieces null": with_field(pieces=None),
    # colours
    "one colour": with_pieces(ruby=START4),
    "no colours": with_pieces(),
    "five colours": with_pieces(ruby=START4, emerald=START4, sapphire=START4, amber=START4,
                                onyx=START4),
    "not opposite ruby emerald": with_pieces(ruby=START4, emerald=START4),
    "not opposite sapphire amber": json.dumps(
        request("amber", {"sapphire": START4, "amber": START4}, [5, 3])),
    "unknown colour": with_pieces(ruby=START4, green=START4),
    "unknown colour capitalised": with_pieces(Ruby=START4, Sapphire=START4),
    "turn not among the colours": with_field(turn="emerald"),
    "turn unknown": with_field(turn="green"),
    "turn not a string": with_field(turn=0),
    "turn null": with_field(turn=None),
    # piece count
    "three pieces": with_ruby("start", "start", 12),
    "five pieces": with_ruby("start", "start", 12, 64, "home"),
    "no pieces": with_ruby(),
    "pieces not a list": with_pieces(ruby="start", sapphire=START4),
    "pieces an object": with_pieces(ruby={"1": "start"}, sapphire=START4),
    # values out of range
    "progress 71": with_ruby("start", 12, 71, "home"),
    "progress -1": with_ruby("start", 12, -1, "home"),
    "progress 1000": with_ruby("start", 12, 1000, "home"),
    "word begin": with_ruby("begin", 12, 64, "home"),
    "word START": with_ruby("START", 12, 64, "home"),
    "string number": with_ruby("start", "12", 64, "home"),
    "float 3.5": with_ruby("start", 3.5, 64, "home"),
    "float 3.0": with_ruby("start", 3.0, 64, "home"),
    "true": with_ruby("start", True, 64, "home"),
    "false": with_ruby("start", False, 64, "home"),
    "null piece": with_ruby("start", None, 64, "home"),
    "list piece": with_ruby("start", [12], 64, "home"),
    "other colour out of range": with_pieces(ruby=START4, sapphire=["start", 71, 2, 3]),
    # shared squares
    "two colours on one square": with_pieces(ruby=[0, "start", "start", "start"],
                                             sapphire=[34, "start", "start", "start"]),
    "two colours on a plain square": json.dumps(request(
        "ruby", {"ruby": [20, "start", "start", "start"], "emerald": [3] + ["start"] * 3,
                 "sapphire": START4}, [5, 3])),
    "colour beside a blockade": with_pieces(ruby=[0, 0, "start", "start"],
                                            sapphire=[34, "start", "start", "start"]),
    "three pieces on one track square": with_ruby(10, 10, 10, "start"),
    "three pieces in one lane square": with_ruby(66, 66, 66, "home"),
    "four pieces on one square": with_ruby(30, 30, 30, 30),
    # dice
    "die 0": with_field(dice=[0, 3]),
    "die 7": with_field(dice=[7, 1]),
    "die -1": with_field(dice=[3, -1]),
    "one die": with_field(dice=[3]),
    "three dice": with_field(dice=[1, 2, 3]),
    "no dice": with_field(dice=[]),
    "dice string": with_field(dice="53"),
    "dice strings": with_field(dice=["5", "3"]),
    "dice object": with_field(dice={"a": 5, "b": 3}),
    "dice null": with_field(dice=None),
    "die float": with_field(dice=[5.0, 3]),
    "die true": with_field(dice=[True, 3]),
    # doubles
    "doubles 3": with_field(doubles=3),
    "doubles -1": with_field(doubles=-1),
    "doubles string": with_field(doubles="1"),
    "doubles float": with_field(doubles=1.5),
    "doubles true": with_field(doubles=True),
    "doubles null": with_field(doubles=None),
}


@pytest.mark.parametrize("stdin", list(BAD.values()), ids=list(BAD))
def test_bad_input_exits_2_with_one_line_on_stderr_and_nothing_on_stdout(
        stdin: str | bytes) -> None:
    done = run(stdin)
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert done.stdout == b""
    err = done.stderr.decode("utf-8", "replace")
    assert err.endswith("\n") and err.count("\n") == 1, err
    assert err.strip(), err
    assert "Traceback" not in err


# JSON objects may repeat a key; Python's json module then silently keeps the last value.
S4 = json.dumps(START4)
DUPLICATE_COLOUR = {
    # five colour entries: "more than four colours"
    "five entries": '{"turn": "ruby", "pieces": {"ruby": ' + S4 + ', "emerald": ' + S4
                    + ', "sapphire": ' + S4 + ', "amber": ' + S4
                    + ', "ruby": [0, "start", "start", "start"]}, "dice": [5, 3]}',
    # three colour entries in a two-player request
    "three entries": '{"turn": "ruby", "pieces": {"ruby": [12, "start", "start", "start"], '
                     '"sapphire": ' + S4 + ', "ruby": ' + S4 + '}, "dice": [5, 3]}',
}


@pytest.mark.parametrize("stdin", list(DUPLICATE_COLOUR.values()), ids=list(DUPLICATE_COLOUR))
def test_a_colour_listed_twice_is_bad_input(stdin: str) -> None:
    # A colour is used at most once (docs/rules/parcheesi.md 1); a request naming one twice is
    # ambiguous, and with five entries it lists "more than four colours" (docs/contracts.md).
    done = run(stdin)
    assert (done.returncode, done.stdout) == (2, b""), (done.stdout, done.stderr)
    assert done.stderr.decode().count("\n") == 1


def test_the_bad_cases_differ_from_a_good_request_only_in_the_fault() -> None:
    # The builders used above produce accepted requests when given good values.
    for good in (with_ruby("start", 12, 64, "home"), with_field(doubles=2),
                 with_field(dice=[6, 1]), with_pieces(ruby=START4, sapphire=START4),
                 json.dumps(request("amber", {"emerald": START4, "amber": START4}, [5, 3]))):
        done = run(good)
        assert done.returncode == 0, (good, done.stderr)
        assert json.loads(done.stdout)["outcomes"]


# --- hostile input: bounded parsing, never a traceback ------------------------------------------

def run_command(args: list[str], stdin: bytes,
                env: dict[str, str] | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "parcheesi", *args], input=stdin,
                          capture_output=True, cwd=ROOT, timeout=60, check=False,
                          env={**os.environ, **(env or {})})


def example_with(field: str, raw: str | bytes) -> bytes:
    """EXAMPLE with one field's value replaced by raw JSON text (or bytes that are not)."""
    text = json.dumps({k: v for k, v in EXAMPLE.items() if k != field})
    value = raw if isinstance(raw, bytes) else raw.encode()
    return text[:-1].encode() + f', "{field}": '.encode() + value + b"}"


DEEP = 5000
HOSTILE: dict[str, tuple[bytes, str]] = {
    # Python's JSON parser recurses once per level and fails near 1,000 levels.
    "deep arrays": (b"[" * DEEP + b"]" * DEEP, "nested too deeply"),
    "deep objects": (b'{"a": ' * DEEP + b"1" + b"}" * DEEP, "nested too deeply"),
    "deep value in a request": (example_with("turn", "[" * DEEP + "]" * DEEP),
                                "nested too deeply"),
    "deep and unclosed": (b"[" * DEEP, "nested too deeply"),
    # Python refuses to convert integers of more than 4,300 digits.
    "5000-digit doubles": (example_with("doubles", "1" * 5000), "number is too long"),
    "5000-digit piece": (example_with("pieces", '{"ruby": [' + "9" * 5000 + "]}"),
                         "number is too long"),
    "5000-digit float": (example_with("doubles", "1" * 5000 + ".5"), "number is too long"),
    "float overflowing to infinity": (example_with("doubles", "1e999"), "too large"),
    "NaN": (example_with("doubles", "NaN"), "not a number"),
    "Infinity": (example_with("dice", "[Infinity, 3]"), "not a number"),
    "-Infinity": (example_with("doubles", "-Infinity"), "not a number"),
    "empty input": (b"", "empty"),
    "over-long input": (b" " * 70_000 + json.dumps(EXAMPLE).encode(), "longer than"),
    "non-UTF-8 byte in a string": (example_with("turn", b'"\xff"'), "UTF-8"),
    "non-UTF-8 bytes alone": (b"\xff\xfe", "UTF-8"),
    "encoded surrogate": (example_with("turn", b'"\xed\xa0\x80"'), "UTF-8"),
}


@pytest.mark.parametrize("command", ["outcomes", "choose"])
@pytest.mark.parametrize("stdin,reason", list(HOSTILE.values()), ids=list(HOSTILE))
def test_hostile_input_exits_2_with_a_short_reason(command: str, stdin: bytes,
                                                   reason: str) -> None:
    done = run_command([command], stdin)
    assert done.returncode == 2, done.stderr[-300:]
    assert done.stdout == b""
    err = done.stderr.decode()
    assert err.startswith("error: ") and err.endswith("\n") and err.count("\n") == 1, err[:300]
    assert reason in err and len(err) < 120, err[:300]


@pytest.mark.parametrize("command", ["outcomes", "choose"])
def test_input_is_utf8_whatever_the_locale_says(command: str) -> None:
    # JSON is UTF-8 (RFC 8259): a Latin-1 standard input must not turn the byte into a letter.
    done = run_command([command], example_with("turn", b'"\xff"'),
                       env={"PYTHONIOENCODING": "latin-1"})
    assert (done.returncode, done.stdout) == (2, b""), done.stderr[-300:]
    assert done.stderr.decode() == "error: the request is not UTF-8 text\n"


def choose_lines(lines: list[bytes],
                 env: dict[str, str] | None = None) -> list[dict[str, Any]]:
    done = run_command(["choose", "--lines"], b"\n".join(lines) + b"\n", env)
    assert done.returncode == 0, done.stderr[-300:]
    assert done.stderr == b""
    return [json.loads(line) for line in done.stdout.splitlines()]


def test_choose_lines_answers_the_line_after_a_deeply_nested_one() -> None:
    good = json.dumps(EXAMPLE).encode()
    first, bad, third = choose_lines([good, b"[" * DEEP + b"]" * DEEP, good])
    assert "pieces" in first and third == first
    assert bad == {"error": "not JSON: nested too deeply"}


def test_choose_lines_answers_every_hostile_line_with_an_error_and_carries_on() -> None:
    good = json.dumps(EXAMPLE).encode()
    hostile = [stdin for stdin, _ in HOSTILE.values() if stdin]
    # A strict decoder of standard input used to end the stream at the first non-UTF-8 line.
    lines = [good, *hostile, example_with("turn", '"\\ud800"'), b" " * 200_000 + good, good]
    answers = choose_lines(lines, env={"PYTHONIOENCODING": "utf-8:strict"})
    assert len(answers) == len(lines)
    assert "pieces" in answers[0] and answers[-1] == answers[0]
    for stdin, answer in zip(lines[1:-1], answers[1:-1], strict=True):
        assert list(answer) == ["error"], (stdin[:60], answer)
        assert len(answer["error"]) < 100, answer


# --- the reason ``choose`` gives ------------------------------------------------------------------

def choose_reasons(level: str, requests: list[dict[str, Any]]) -> list[dict[str, Any]]:
    lines = b"\n".join(json.dumps(req).encode() for req in requests) + b"\n"
    done = run_command(["choose", "--player", level, "--lines"], lines)
    assert done.returncode == 0 and done.stderr == b"", done.stderr.decode()
    return [json.loads(line) for line in done.stdout.splitlines()]


@pytest.mark.parametrize("level", ["expert", "hard"])
def test_choose_reason_states_the_exact_danger_a_move_escapes(level: str) -> None:
    # Ruby alone on 20 (square 25); Sapphire on its 52 (square 23), two behind, with three
    # pieces in START, so a 5 must enter: a 2 on either die (11 outcomes) except 2-3 and
    # 3-2, which must enter with both dice (5-2 and 2-5 enter with the 5 and keep the 2),
    # and 1-1: 10 of 36. 1 + 3 takes the piece to 24, square 29: safe.
    req = request("ruby", {"ruby": [20, "home", "home", "home"], "sapphire": [52] + START4[1:]},
                  [1, 3])
    [answer] = choose_reasons(level, [req])
    assert answer["pieces"]["ruby"] == [24, "home", "home", "home"]
    assert answer["reason"] == ("Piece 1 moves to a safe square: 10 of Sapphire's 36 rolls "
                                "could hit it now, none after")


@pytest.mark.parametrize("level", ["expert", "hard"])
def test_choose_reasons_name_a_piece_and_never_the_generic_words(level: str) -> None:
    answers = choose_reasons(level, [EXAMPLE, *FORMAT_CASES])
    assert len(answers) == 1 + len(FORMAT_CASES)
    for answer in answers:
        reason = answer["reason"]
        assert "least risk" not in reason
        assert re.search(r"\b[Pp]ieces? \d", reason), reason
        assert reason[0].isupper() and not reason.endswith(".") and len(reason) <= 100
    # The design example: the 5 enters piece 1, the 3 moves another piece.
    assert answers[0]["reason"].startswith("Enters piece 1")


COMMANDS = ("outcomes", "choose", "simulate", "train", "tournament", "verify", "replay",
            "migrate", "ratings", "backup", "restore")


@pytest.mark.parametrize("command", COMMANDS)
def test_every_option_says_what_it_is_for(command: str,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    """``--help`` of each command explains every option it lists (argparse prints an option
    with no help text alone on its line, with nothing indented under it)."""
    from parcheesi.__main__ import main

    with pytest.raises(SystemExit) as stopped:
        main([command, "--help"])
    assert stopped.value.code == 0
    lines = capsys.readouterr().out.split("options:\n", 1)[1].splitlines()
    for here, after in zip(lines, [*lines[1:], ""], strict=True):
        option = re.fullmatch(r"  (-\S+(?: \S+)?(?:, -\S+)?)(\s{2,}\S.*)?", here)
        if option and not option.group(2):
            assert after.startswith(" " * 6), f"{command}: {option.group(1)} has no help"


def test_train_trains_the_default_game_unless_told(capsys: pytest.CaptureFixture[str]) -> None:
    """``train`` without ``--game`` trains the server's default game, as
    docs/contracts.md says (it took the first learnable game by name: Ludo)."""
    from parcheesi.__main__ import main
    from parcheesi.core.registry import DEFAULT_GAME

    with pytest.raises(SystemExit):
        main(["train", "--help"])
    assert f"the game to train (default: {DEFAULT_GAME})" in " ".join(
        capsys.readouterr().out.split())
    contracts = (Path(__file__).resolve().parent.parent / "docs" / "contracts.md").read_text()
    assert f"(`{DEFAULT_GAME}` by default" in contracts


def feed(stdin: Any, data: bytes) -> None:
    """Write ``data`` to a command's input and close it; a command that stopped reading
    leaves the rest unwritten."""
    with contextlib.suppress(BrokenPipeError), stdin:
        stdin.write(data)


def test_a_reader_that_goes_away_ends_the_answers_quietly() -> None:
    """``choose --lines ... | head -1``: the rest of the answers have nowhere to go; the
    command stops without a traceback (a BrokenPipeError before)."""
    lines = (json.dumps(EXAMPLE) + "\n") * 3000
    command = subprocess.Popen([sys.executable, "-m", "parcheesi", "choose", "--lines"],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, cwd=ROOT)
    assert command.stdin is not None and command.stdout is not None
    feeding = threading.Thread(target=feed, args=(command.stdin, lines.encode()))
    feeding.start()  # the answers come while the lines still go in
    assert json.loads(command.stdout.readline())  # the first answer, then the reader goes
    command.stdout.close()
    feeding.join(timeout=60)
    assert command.wait(timeout=60) == 1
    assert command.stderr is not None and command.stderr.read() == b""


def test_an_answer_that_cannot_be_written_is_one_line() -> None:
    with open("/dev/full", "wb") as full:
        done = subprocess.run([sys.executable, "-m", "parcheesi", "outcomes"],
                              input=json.dumps(EXAMPLE).encode(), stdout=full,
                              stderr=subprocess.PIPE, cwd=ROOT, timeout=60, check=False)
    assert done.returncode == 2
    assert done.stderr.decode().strip() == ("error: cannot write the answer: No space left "
                                            "on device")


@pytest.mark.parametrize(("args", "said"), [
    (["outcomes"], "error: cannot read the request: standard input is closed"),
    (["choose"], "error: cannot read the request: standard input is closed"),
    (["choose", "--lines"], "error: cannot read the requests: standard input is closed"),
    (["verify", "-"], "error: cannot read -: standard input is closed"),
    (["replay", "-"], "error: cannot read -: standard input is closed"),
])
def test_a_closed_standard_input_is_one_line(args: list[str], said: str) -> None:
    """``outcomes <&-``: Python has no ``sys.stdin`` at all (a traceback before)."""
    done = subprocess.run([sys.executable, "-m", "parcheesi", *args], stdin=None,
                          capture_output=True, cwd=ROOT, timeout=60, check=False,
                          preexec_fn=lambda: os.close(0))
    assert (done.returncode, done.stdout, done.stderr.decode().strip()) == (2, b"", said)


@pytest.mark.parametrize("command", ["outcomes", "choose", "train", "migrate", "ratings"])
def test_an_unknown_option_is_refused_with_its_commands_usage(command: str) -> None:
    """The usage shown names the command's own options (the top parser's, which names none
    of them, before)."""
    done = run_command([command, "--bogus"], b"")
    err = done.stderr.decode()
    assert done.returncode == 2 and done.stdout == b""
    assert err.startswith(f"usage: python -m parcheesi {command} [-h]")
    assert err.rstrip().endswith(f"{command}: error: unrecognized arguments: --bogus")


@pytest.mark.parametrize(("args", "reason"), [
    (["--dir", "{file}"], "is not a directory"),
    (["--export", "{folder}"], "is a directory: name the weights' file"),
    (["--seed", "-1"], "--seed must be 0 or more"),
    (["--hidden", "99999999"], "--hidden at most 4096"),
    (["--dir", "{folder}"], "is not a whole training checkpoint"),  # an empty checkpoint
])
def test_train_refuses_before_hours_of_work(args: list[str], reason: str, tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    """Places and numbers train cannot use, and a damaged checkpoint, are one line each
    before any game is played (tracebacks before, some after the whole training)."""
    from parcheesi.__main__ import main

    file = tmp_path / "notes.txt"
    file.write_text("x")
    (tmp_path / "checkpoint.npz").write_bytes(b"")
    named = [a.format(file=file, folder=tmp_path) for a in args]
    assert main(["train", "--iterations", "1", "--games", "1", *named]) == 2
    said = capsys.readouterr()
    assert reason in said.err and said.out == ""
