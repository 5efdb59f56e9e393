"""Game records: export, read back, replay and verify (docs/records.md, docs/contracts.md "Game
records"). Honest records verify; every kind of tampering is refused with its step."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from parcheesi.__main__ import main
from parcheesi.core.registry import rules_for
from parcheesi.server import fairness
from parcheesi.server.records import (
    MAX_RECORD_BYTES,
    RecordError,
    parse_record,
    read_record,
    record_of,
    replay,
    verify,
)
from tests.record_helpers import assert_round_trip, committed_row, play_random, stored_row

ROOT = Path(__file__).resolve().parent.parent
HONEST = 100
"""Honest records the verify command accepts (half Parcheesi, half Ludo)."""


def honest(n: int) -> dict[str, Any]:
    """Finished game ``n``: Parcheesi for even ``n`` and Ludo for odd, 2 to 4 players."""
    kind = "parcheesi" if n % 2 == 0 else "ludo"
    colours = rules_for(kind).colour_sets(2 + n % 3)[0]
    house = ("stars", "six_again") if kind == "ludo" and n % 4 == 1 else ()
    row = committed_row(kind, colours, n, house)
    actions, final = play_random(row, n)
    return assert_round_trip(row, actions, final)


@pytest.fixture(scope="module")
def records() -> list[dict[str, Any]]:
    return [honest(n) for n in range(HONEST)]


def test_a_finished_record_reveals_the_seed_and_verifies(records) -> None:
    for record in records:
        assert fairness.commitment(record["seed"]) == record["commitment"]
        assert record["result"]["over"] and record["ended"]
        assert verify(read_record(record)).startswith("verified: ")


def test_an_unfinished_record_keeps_the_seed_back_and_replays_from_its_dice() -> None:
    row = committed_row("ludo", (0, 2), 7)
    actions, state = play_random(row, 7, limit=40)
    record = record_of(row, actions)
    assert "seed" not in record and row.secret not in json.dumps(record)
    assert not record["result"]["over"]
    assert verify(read_record(record)).endswith("dice not yet verifiable (the seed is "
                                                "revealed when the game is over)")
    assert replay(read_record(record))[-1].state == state


def test_a_game_from_before_commitments_replays_but_its_dice_are_not_verifiable() -> None:
    row = stored_row("parcheesi", (1, 3), seed=12345)
    actions, state = play_random(row, 3)
    record = assert_round_trip(row, actions, state)
    assert record["commitment"] is None and "seed" not in record
    assert "dice not verifiable" in verify(read_record(record))


def test_a_game_continued_from_a_position_records_where_it_began() -> None:
    first = committed_row("parcheesi", (0, 2), 5)
    _, middle = play_random(first, 5, limit=30)
    row = committed_row("parcheesi", (0, 2), 6)
    row.start = json.dumps(rules_for("parcheesi").state_to_json(middle))
    more, final = play_random(row, 6)
    record = assert_round_trip(row, more, final)
    assert record["start"]["rolls"] == middle.rolls
    assert verify(read_record(record)).startswith("verified: ")


def _first_roll(record: dict[str, Any]) -> int:
    return next(k for k, raw in enumerate(record["actions"], 1) if raw["type"] == "roll")


def _other_die(value: Any) -> Any:
    return value % 6 + 1 if isinstance(value, int) else [value[0] % 6 + 1, value[1]]


def _alter_die(record: dict[str, Any], n: int) -> str:
    roll = record["rolls"][n % len(record["rolls"])]
    roll[1] = _other_die(roll[1])
    return "do not follow from the seed"


def _alter_seed(record: dict[str, Any], n: int) -> str:
    record["seed"] = fairness.new_secret()
    return "step 0: the seed does not match the commitment"


def _alter_commitment(record: dict[str, Any], n: int) -> str:
    record["commitment"] = fairness.commitment(fairness.new_secret())
    return "step 0: the seed does not match the commitment"


def _alter_contribution(record: dict[str, Any], n: int) -> str:
    colour = next(iter(record["contributions"]))
    record["contributions"][colour] = "0" * 32
    return "do not follow from the seed"


def _alter_action(record: dict[str, Any], n: int) -> str:
    """Another action in place of one: a different move, or a move where a roll was."""
    k = n % len(record["actions"])
    actions = record["actions"]
    actions[k] = ({"type": "roll"} if actions[k]["type"] != "roll"
                  else next(a for a in actions if a["type"] != "roll"))
    return "step "


def _drop_last_action(record: dict[str, Any], n: int) -> str:
    record["actions"].pop()
    return "step "


def _alter_winner(record: dict[str, Any], n: int) -> str:
    others = [s["colour"] for s in record["seats"] if s["colour"] != record["result"]["winner"]]
    record["result"]["winner"] = others[0]
    return "the result is not what the actions lead to"


TAMPERS: list[Callable[[dict[str, Any], int], str]] = [
    _alter_die, _alter_seed, _alter_commitment, _alter_contribution, _alter_action,
    _drop_last_action, _alter_winner]


def test_every_tampered_record_is_refused_with_its_step(records) -> None:
    for n, record in enumerate(records):
        tampered = copy.deepcopy(record)
        expected = TAMPERS[n % len(TAMPERS)](tampered, n)
        with pytest.raises(RecordError) as refused:
            verify(read_record(tampered))
        assert expected in str(refused.value), (n, TAMPERS[n % len(TAMPERS)].__name__)
        assert str(refused.value).startswith("step "), refused.value


def test_the_verify_command_accepts_honest_and_refuses_tampered_files(
        records, tmp_path, capsys) -> None:
    for n, record in enumerate(records):
        path = tmp_path / f"game-{n}.json"
        path.write_text(json.dumps(record))
        assert main(["verify", str(path)]) == 0
        tampered = copy.deepcopy(record)
        TAMPERS[n % len(TAMPERS)](tampered, n)
        path.write_text(json.dumps(tampered))
        assert main(["verify", str(path)]) == 2
        out, err = capsys.readouterr()
        assert out.startswith("verified: ") and out.count("\n") == 1
        assert err.startswith("error: step ") and err.count("\n") == 1


def test_verify_and_replay_run_as_commands(records, tmp_path) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(records[1]))
    command = [sys.executable, "-m", "parcheesi"]
    checked = subprocess.run([*command, "verify", str(path)], capture_output=True, text=True,
                             cwd=ROOT, timeout=60)
    assert checked.returncode == 0 and checked.stdout.startswith("verified: Ludo")
    shown = subprocess.run([*command, "replay", str(path)], capture_output=True, text=True,
                           cwd=ROOT, timeout=60)
    assert shown.returncode == 0, shown.stderr
    position, result = (json.loads(line) for line in shown.stdout.splitlines())
    assert position["game"] == "ludo" and "die" not in position
    assert result == records[1]["result"]
    # the position is a request the outcomes command reads once the die is added
    asked = subprocess.run([*command, "outcomes"], input=json.dumps({**position, "die": 6}),
                           capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert asked.returncode == 0, asked.stderr
    missing = subprocess.run([*command, "verify", str(tmp_path / "none.json")],
                             capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert missing.returncode == 2 and missing.stdout == ""
    assert "cannot read" in missing.stderr


@pytest.mark.parametrize(("text", "reason"), [
    ("{", "not JSON"),
    ("[]", "a record is a JSON object"),
    ('{"format": "chess"}', "not a game record"),
    ('{"format": "parcheesi-record", "version": 9}', "record version 9"),
    ('{"format": "parcheesi-record", "version": 1, "game": "go"}', "unknown game"),
    ('{"format": "parcheesi-record", "version": 1, "game": "ludo", "extra": 1}',
     "unknown field"),
    ('{"format": "parcheesi-record", "version": 1, "game": "ludo"}',
     "not a valid record: 'seats' is missing"),
    ('{"format": "parcheesi-record", "version": true}', "record version true"),
    ('{"format": "parcheesi-record", "version": 1.0}', "record version 1.0"),
    ('{"format": "parcheesi-record", "format": "parcheesi-record"}', "more than once"),
    ('{"format": "parcheesi-record", "version": NaN}', "NaN is not a number"),
    ("[" * 100_000 + "]" * 100_000, "nested too deeply"),  # RecursionError before
    ('{"format": "parcheesi-record", "result": ' + "[" * 50_000 + "]" * 50_000 + "}",
     "nested too deeply"),
])
def test_a_malformed_record_gets_a_clear_reason(text: str, reason: str) -> None:
    with pytest.raises(RecordError, match=reason):
        parse_record(text)


def test_a_record_is_utf8() -> None:
    """JSON is UTF-8: a record in UTF-16 (which Python's own reader would take) is refused."""
    with pytest.raises(RecordError, match="a record is UTF-8 text"):
        parse_record('{"format": "parcheesi-record"}'.encode("utf-16"))


def test_bad_fields_are_named(records) -> None:
    cases: list[tuple[Callable[[dict[str, Any]], None], str]] = [
        (lambda r: r.update(seats=[{"colour": "mauve", "kind": "human"}]), "a seat must"),
        (lambda r: r["seats"].__delitem__(slice(1, None)), "seats:"),
        (lambda r: r.update(start=r["final"], seats=r["seats"][:2]), "the seats are not"),
        (lambda r: r.update(rolls=[[0, 9]]), "a die must be 1..6"),
        (lambda r: r.update(rolls=[[0, 3], [0, 3]]), "each number once"),
        (lambda r: r.update(seed="XYZ"), "the seed must be 32 bytes"),
        (lambda r: r.update(contributions={"green": "12"}), "contribution 'green'"),
        (lambda r: r.update(commitment=None), "needs the commitment"),
    ]
    for change, reason in cases:
        record = copy.deepcopy(records[1])
        change(record)
        with pytest.raises(RecordError, match=reason):
            read_record(record)
    with pytest.raises(RecordError, match="at most 4 MB"):
        parse_record(" " * (MAX_RECORD_BYTES + 1))


@pytest.mark.parametrize("kind", ["parcheesi", "ludo"])
def test_a_position_just_rolled_is_the_request_of_that_roll(kind: str) -> None:
    """Copy position after a roll gives back the request whose outcomes are that roll's."""
    rules = rules_for(kind)
    row = committed_row(kind, rules.colour_sets(2)[0], 3)
    _, state = play_random(row, 3, limit=1)
    dice = rules.dice(row.seed)
    checked = 0
    for n in range(400):
        if rules.over(state):
            break
        if not rules.rolling(state):
            choice = rules.choices(state)[n % len(rules.choices(state))]
            state, _ = rules.apply(state, choice.action, dice)
            continue
        before = state
        state, _ = rules.apply(state, rules.choices(state)[0].action, dice)
        request = rules.position(state)
        if rules.rolling(state) or rules.turn(state) != rules.turn(before) \
                or ("dice" not in request and "die" not in request):
            continue
        body = {k: v for k, v in request.items() if k != "game"}
        ends = rules.outcomes(body)["outcomes"]
        assert ends, request
        roll_key = "dice" if kind == "parcheesi" else "die"
        # sixes in a row matter only to a roll of six (and a Ludo state forgets them after
        # any other roll)
        ignored = {"game", roll_key} | ({"sixes"} if body.get("die") not in (None, 6) else set())
        without = {k: v for k, v in rules.position(before).items() if k not in ignored}
        assert {k: v for k, v in body.items() if k not in ignored} == without
        checked += 1
    assert checked > 20


def test_replay_prints_the_position_without_dice_even_just_after_a_roll(
        tmp_path, capsys) -> None:
    rules = rules_for("parcheesi")
    for limit in range(1, 40):  # the first record that stops with a roll still to play
        row = committed_row("parcheesi", (0, 2), 11)
        actions, state = play_random(row, 11, limit=limit)
        if "dice" in rules.position(state):
            break
    assert "dice" in rules.position(state)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record_of(row, actions)))
    assert main(["replay", str(path)]) == 0
    position, result = (json.loads(line) for line in capsys.readouterr().out.splitlines())
    assert position == {k: v for k, v in rules.position(state).items() if k != "dice"}
    assert result["over"] is False and result["rolls"] == state.rolls
