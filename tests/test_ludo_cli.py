"""``python -m parcheesi outcomes`` and ``choose`` for Ludo requests, as separate processes
(docs/contracts.md, "Ludo positions and outcomes (contract)"). Expected outcomes are worked out by
hand from docs/rules/ludo.md: track square = (start + progress) mod 52, starts Red 0, Green 13,
Yellow 26, Blue 39."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
YARD4 = ["yard"] * 4
EXAMPLE = {"game": "ludo", "turn": "red",
           "pieces": {"red": ["yard", 0, 50, "home"], "yellow": ["yard", "yard", 12, 55]},
           "die": 6, "sixes": 0, "house": []}


def command(*args: str) -> list[str]:
    return [sys.executable, "-m", "parcheesi", *args]


def environment() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT)}


def run(stdin: str | bytes, *args: str) -> subprocess.CompletedProcess[bytes]:
    data = stdin.encode() if isinstance(stdin, str) else stdin
    return subprocess.run(command(*(args or ("outcomes",))), input=data, capture_output=True,
                          cwd=ROOT, env=environment(), timeout=60, check=False)


def outcomes(request: dict[str, Any]) -> list[dict[str, Any]]:
    done = run(json.dumps(request))
    assert done.returncode == 0, done.stderr.decode()
    assert done.stderr == b""
    result = json.loads(done.stdout)
    assert list(result) == ["outcomes"]
    found = result["outcomes"]
    texts = [compact(o) for o in found]
    assert texts == sorted(set(texts)), "outcomes are distinct and sorted"
    return found


def ludo(turn: str, pieces: dict[str, list[Any]], die: int, **extra: Any) -> dict[str, Any]:
    return {"game": "ludo", "turn": turn, "pieces": pieces, "die": die, **extra}


def compact(obj: Any) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"))


# --- exact outcomes, by hand ---------------------------------------------------------------------

def test_design_example_gives_the_three_hand_worked_outcomes() -> None:
    # A 6: a yard piece comes out onto square 0 (nobody there), the piece on 0 goes to 6, or
    # 50 + 6 reaches HOME exactly; every one is a 6, so every one rolls again. Yellow's 12
    # (square 38) and 55 (its lane) are out of the way.
    yellow = ["yard", "yard", 12, 55]
    assert outcomes(EXAMPLE) == [
        {"again": True, "pieces": {"red": ["yard", 0, "home", "home"], "yellow": yellow}},
        {"again": True, "pieces": {"red": ["yard", 6, 50, "home"], "yellow": yellow}},
        {"again": True, "pieces": {"red": [0, 0, 50, "home"], "yellow": yellow}},
    ]


def test_two_opponent_colours_on_the_landing_square_give_one_outcome_each() -> None:
    # Red 15 + 5 = 20: green 7 (square 20) and yellow 46 (26 + 46 - 52 = 20) stand there.
    request = ludo("red", {"red": [15, "yard", "yard", "yard"], "green": ["yard", 7, "yard",
                                                                          "yard"],
                           "yellow": [46, "yard", "yard", "yard"]}, 5)
    assert outcomes(request) == [
        {"again": True, "pieces": {"green": YARD4, "red": ["yard", "yard", "yard", 20],
                                   "yellow": ["yard", "yard", "yard", 46]}},
        {"again": True, "pieces": {"green": ["yard", "yard", "yard", 7],
                                   "red": ["yard", "yard", "yard", 20], "yellow": YARD4}},
    ]
    # capture_all: one landing captures both
    assert outcomes({**request, "house": ["capture_all"]}) == [
        {"again": True, "pieces": {"green": YARD4, "red": ["yard", "yard", "yard", 20],
                                   "yellow": YARD4}}]


def test_no_usable_move_is_the_unchanged_position() -> None:
    pieces = {"red": [52, "home", "home", "home"], "blue": YARD4}
    assert outcomes(ludo("red", pieces, 6)) == [{"again": False, "pieces": pieces}]
    assert outcomes(ludo("red", pieces, 6, house=["six_again"])) == [
        {"again": True, "pieces": pieces}]
    assert outcomes(ludo("red", pieces, 3)) == [
        {"again": False, "pieces": {"blue": YARD4, "red": [55, "home", "home", "home"]}}]


def test_the_third_six_moves_nothing() -> None:
    pieces = {"green": [0, "yard", "yard", "yard"], "red": YARD4}
    third = ludo("green", pieces, 6, sixes=2, house=["third_six"])
    assert outcomes(third) == [{"again": False, "pieces": {"green": ["yard", "yard", "yard", 0],
                                                           "red": YARD4}}]
    assert outcomes({**third, "house": []}) == [
        {"again": True, "pieces": {"green": ["yard", "yard", "yard", 6], "red": YARD4}},
        {"again": True, "pieces": {"green": ["yard", "yard", 0, 0], "red": YARD4}},
    ]


def test_the_finishing_move_and_a_star() -> None:
    # Red's fourth piece HOME: no extra roll. Blue 43 + 4 = 47 is square 39 + 47 - 52 = 34,
    # a star, where yellow's 8 stands (26 + 8).
    assert outcomes(ludo("red", {"red": ["home", 55, "home", "home"], "blue": YARD4}, 1)) == [
        {"again": False, "pieces": {"blue": YARD4, "red": ["home"] * 4}}]
    request = ludo("blue", {"blue": [43, "home", "home", "home"],
                            "yellow": [8, "yard", "yard", "yard"]}, 4)
    assert outcomes(request) == [
        {"again": True, "pieces": {"blue": [47, "home", "home", "home"], "yellow": YARD4}}]
    assert outcomes({**request, "house": ["stars"]}) == [
        {"again": False, "pieces": {"blue": [47, "home", "home", "home"],
                                    "yellow": ["yard", "yard", "yard", 8]}}]


# --- choose --------------------------------------------------------------------------------------

def test_choose_answers_one_of_the_outcomes_with_a_reason() -> None:
    expected = [compact(o) for o in outcomes(EXAMPLE)]
    for level in ("random", "easy", "medium", "hard", "expert"):
        done = run(json.dumps(EXAMPLE), "choose", "--player", level)
        assert done.returncode == 0 and done.stderr == b"", done.stderr
        answer = json.loads(done.stdout)
        assert sorted(answer) == ["again", "pieces", "reason", "win_chance"] and answer["reason"]
        assert compact({"again": answer["again"], "pieces": answer["pieces"]}) in expected
        chances = answer["win_chance"]
        assert set(chances) == set(EXAMPLE["pieces"]) and sum(chances.values()) == \
            pytest.approx(1, abs=1e-3)


def test_choose_lines_answers_a_bad_line_with_an_error_and_carries_on() -> None:
    no_move = ludo("red", {"red": YARD4, "green": YARD4}, 2)
    lines = "\n".join([json.dumps(EXAMPLE), '{"game": "ludo", "turn": "red"', json.dumps(
        {**EXAMPLE, "die": 0}), json.dumps(no_move)]) + "\n"
    done = run(lines, "choose", "--player", "hard", "--lines")
    assert done.returncode == 0 and done.stderr == b""
    answers = [json.loads(line) for line in done.stdout.decode().splitlines()]
    assert len(answers) == 4
    first = {"again": answers[0]["again"], "pieces": answers[0]["pieces"]}
    assert first in outcomes(EXAMPLE) and answers[0]["reason"]
    assert list(answers[1]) == ["error"] and answers[1]["error"].startswith("not JSON")
    assert "die must be an integer 1..6" in answers[2]["error"]
    chances = answers[3].pop("win_chance")
    assert answers[3] == {"again": False, "pieces": {"green": YARD4, "red": YARD4},
                          "reason": "No piece can use the 2: the turn passes"}
    assert set(chances) == {"green", "red"}


# --- bad input -----------------------------------------------------------------------------------

def _with(**changes: Any) -> str:
    request = {**EXAMPLE, **changes}
    return json.dumps({k: v for k, v in request.items() if v is not _DROP})


def _pieces(**changes: Any) -> str:
    return _with(pieces={**EXAMPLE["pieces"], **changes})


_DROP = object()
BAD: dict[str, tuple[str, str]] = {
    # name: (request text, words the one-line reason contains)
    "not JSON": ('{"game": "ludo", "turn": ', "not JSON"),
    "empty": ("", "not JSON"),
    "not an object": ('["ludo"]', "must be a JSON object"),
    "repeated top-level key": ('{"game": "ludo", "die": 6, "die": 5, "turn": "red", '
                               '"pieces": {}}', "more than once"),
    "repeated colour": ('{"game": "ludo", "turn": "red", "die": 6, "pieces": {"red": '
                        '[0, 0, 0, 0], "red": [1, 1, 1, 1]}}', "more than once"),
    "repeated key deep": ('{"game": "ludo", "turn": "red", "die": 6, "pieces": {"red": '
                          '[0, 0, 0, {"a": 1, "a": 2}], "blue": [0, 0, 0, 0]}}',
                          "more than once"),
    "missing turn": (_with(turn=_DROP), "missing field 'turn'"),
    "missing pieces": (_with(pieces=_DROP), "missing field 'pieces'"),
    "missing die": (_with(die=_DROP), "missing field 'die'"),
    "unknown key": (_with(dice=[6]), "unknown field 'dice'"),
    "unknown key doubles": (_with(doubles=0), "unknown field 'doubles'"),
    "unknown game": (_with(game="chess"), "unknown game"),
    "game not a string": (_with(game=["ludo"]), "unknown game"),
    "one colour": (_with(pieces={"red": [0, 0, 0, 0]}), "2 to 4 colours, not 1"),
    "no colours": (_with(pieces={}), "2 to 4 colours, not 0"),
    "pieces not an object": (_with(pieces=[[0, 0, 0, 0]]), "pieces must be an object"),
    "unknown colour": (_pieces(ruby=[0, 0, 0, 0]), "unknown colour 'ruby'"),
    "turn not among them": (_with(turn="green"), "not among the colours"),
    "turn not a colour": (_with(turn="ruby"), "is not a colour"),
    "turn not a string": (_with(turn=0), "is not a colour"),
    "turn already finished": (_pieces(red=["home"] * 4), "already finished"),
    "three entries": (_pieces(red=[0, 0, 0]), "exactly four pieces"),
    "five entries": (_pieces(red=[0, 0, 0, 0, 0]), "exactly four pieces"),
    "entries not a list": (_pieces(red="yard"), "exactly four pieces"),
    "entry true": (_pieces(red=[True, 0, 0, 0]), "true is not"),
    "entry float": (_pieces(red=[1.0, 0, 0, 0]), "1.0 is not"),
    "entry fraction": (_pieces(red=[2.5, 0, 0, 0]), "2.5 is not"),
    "entry 56": (_pieces(red=[56, 0, 0, 0]), "56 is not"),
    "entry -1": (_pieces(red=[-1, 0, 0, 0]), "-1 is not"),
    "entry start": (_pieces(yellow=["start", 0, 0, 0]), '"start" is not'),
    "entry null": (_pieces(red=[None, 0, 0, 0]), "null is not"),
    "entry HOME in capitals": (_pieces(red=["HOME", 0, 0, 0]), '"HOME" is not'),
    "die 0": (_with(die=0), "die must be an integer 1..6, not 0"),
    "die 7": (_with(die=7), "not 7"),
    "die float": (_with(die=6.0), "not 6.0"),
    "die string": (_with(die="6"), 'not "6"'),
    "die true": (_with(die=True), "not true"),
    "die list": (_with(die=[6]), "not [6]"),
    "sixes 3": (_with(sixes=3), "sixes must be 0, 1 or 2, not 3"),
    "sixes -1": (_with(sixes=-1), "not -1"),
    "sixes float": (_with(sixes=1.0), "not 1.0"),
    "sixes true": (_with(sixes=True), "not true"),
    "house not a list": (_with(house="stars"), "house must be a list"),
    "house unknown": (_with(house=["stars", "doubles"]), "unknown house rule 'doubles'"),
    "house repeated": (_with(house=["stars", "stars"]), "'stars' is given more than once"),
    "house not names": (_with(house=[1]), "unknown house rule 1"),
    "no game: Parcheesi": (json.dumps({k: v for k, v in EXAMPLE.items() if k != "game"}),
                           "unknown field 'die'"),
}


def test_every_bad_input_exits_2_with_one_line_and_nothing_on_stdout() -> None:
    """Each bad request in its own process, all started at once (they take a third of a
    second each to start)."""
    running = {name: subprocess.Popen(command("outcomes"), stdin=subprocess.PIPE,
                                      stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                      cwd=ROOT, env=environment())
               for name in BAD}
    choosing = {name: subprocess.Popen(command("choose", "--player", "easy"),
                                       stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                       stderr=subprocess.PIPE, cwd=ROOT, env=environment())
                for name in ("not JSON", "turn already finished", "entry 56")}
    for name, process in [*running.items(), *choosing.items()]:
        text, words = BAD[name]
        out, err = process.communicate(text.encode(), timeout=120)
        assert process.returncode == 2, (name, out, err)
        assert out == b"", name
        lines = err.decode().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: "), (name, err)
        assert words in lines[0], (name, lines[0])
