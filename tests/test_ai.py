"""Computer players: legal choices everywhere, determinism, strength order, the hint."""

from __future__ import annotations

import inspect
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import test_rules_scenarios as scenarios
from positions import EMERALD, RUBY, SAPPHIRE, at_roll, progress_on

from parcheesi.__main__ import choose_json, outcomes_json
from parcheesi.core.actions import Roll
from parcheesi.core.state import IllegalAction, Phase
from parcheesi.games.parcheesi.ai import LEVELS, decide
from parcheesi.games.parcheesi.game import GAME as PARCHEESI_GAME
from parcheesi.games.parcheesi.notation import request_from_json
from parcheesi.games.parcheesi.risk import capture_chances, turn_capture_chances
from parcheesi.games.parcheesi.turns import Game, apply, legal_actions
from parcheesi.server.simulate import simulate

ROOT = Path(__file__).resolve().parent.parent


def _scenario_requests() -> list[dict[str, Any]]:
    """Every (position, dice) the rule scenario tests roll, recorded by running them."""
    seen: dict[str, dict[str, Any]] = {}
    original_outcomes, original_rolled = scenarios.outcomes, scenarios.rolled

    def record(turn: str, pieces: dict[str, list[Any]], dice: tuple[int, int],
               doubles: int = 0) -> None:
        req = {"turn": turn, "pieces": pieces, "dice": list(dice), "doubles": doubles}
        seen[json.dumps(req, sort_keys=True)] = req

    def outcomes(turn, pieces, dice, doubles=0):  # type: ignore[no-untyped-def]
        record(turn, pieces, dice, doubles)
        return original_outcomes(turn, pieces, dice, doubles)

    def rolled(turn, pieces, dice, doubles=0):  # type: ignore[no-untyped-def]
        record(turn, pieces, dice, doubles)
        return original_rolled(turn, pieces, dice, doubles)

    scenarios.outcomes, scenarios.rolled = outcomes, rolled
    try:
        for name, test in inspect.getmembers(scenarios, inspect.isfunction):
            if name.startswith("test_") and not inspect.signature(test).parameters:
                test()
    finally:
        scenarios.outcomes, scenarios.rolled = original_outcomes, original_rolled
    return list(seen.values())


SCENARIO_REQUESTS = _scenario_requests()


def test_scenario_positions_were_collected():
    assert len(SCENARIO_REQUESTS) >= 40


@pytest.mark.parametrize("level", LEVELS)
def test_every_choice_in_the_scenario_positions_is_one_of_the_outcomes(level):
    for req in SCENARIO_REQUESTS:
        text = json.dumps(req)
        allowed = [o["pieces"] for o in outcomes_json(text)["outcomes"]]
        chosen = choose_json(text, level)
        assert chosen["pieces"] in allowed, req
        assert isinstance(chosen["reason"], str) and chosen["reason"]


@pytest.mark.parametrize("level", LEVELS)
def test_decisions_are_legal_action_sequences_in_random_games(level):
    """Replaying a decision's actions through the engine reaches the decision's state.
    (Expert searches a ply deeper, about a hundred times as long: two games, of two and
    of four.)"""
    rng = random.Random(5)
    for seed in range(2 if level == "expert" else 6):
        game = Game((0, 1, 2, 3) if seed % 2 else (1, 3), seed)
        while game.state.phase is not Phase.OVER:
            if game.state.phase in (Phase.MOVE, Phase.REWARD):
                decision = decide(game.state, level)
                state = game.state
                for action in decision.actions:
                    state, _ = apply(state, action)
                assert state == decision.state
                for action in decision.actions:
                    game.play(action)
            else:
                game.play(rng.choice(legal_actions(game.state)))


def test_decisions_are_deterministic_for_a_state():
    game = Game((0, 2), 11)
    while game.state.phase is not Phase.OVER:
        if game.state.phase in (Phase.MOVE, Phase.REWARD):
            for level in LEVELS:
                if level == "expert" and game.state.rolls % 3:
                    continue  # a third of Expert's decisions: its search is the slow one
                assert decide(game.state, level).actions == decide(game.state, level).actions
            game.play(decide(game.state, "hard").actions[0])
        else:
            game.play(legal_actions(game.state)[0])


def test_stronger_players_are_ahead_in_seeded_matches():
    """Seeded, so the result is fixed; the margins are far beyond the measured rates."""
    hard = simulate(["hard", "random"], 40, seed=3)
    assert hard["wins"]["hard"] >= 30
    medium = simulate(["hard", "medium"], 60, seed=3)
    assert medium["wins"]["hard"] > medium["wins"]["medium"]
    easy = simulate(["easy", "random"], 60, seed=3)
    assert easy["wins"]["easy"] > easy["wins"]["random"]


def test_hard_captures_when_it_can_and_says_so():
    # Ruby at 10 (square 15) with 3+1: 14 (square 19) would capture Sapphire's single at
    # progress 48 ((39+48)%68 = 19, not safe). The other options leave Ruby exposed.
    state, dice = request_from_json({"turn": "ruby", "pieces": {
        "ruby": [10, "home", "home", "home"], "sapphire": [48, "start", "start", "start"]},
        "dice": [3, 1]})
    rolled, _ = apply(state, Roll(), dice)
    decision = PARCHEESI_GAME.hint(rolled)
    assert decision.state.pieces[2].count(-1) == 4
    assert decision.reason.startswith("Captures Sapphire")


def test_capture_chance_counts_exact_dice_outcomes():
    # Ruby alone at progress 20 (square 25, not safe); Sapphire at progress 52 stands on
    # square (39+52)%68 = 23, two behind. Sapphire has pieces in START and its entry is open,
    # so a 5 (or 1+4 / 2+3) must enter. Outcomes that move the piece out exactly 2:
    # (2,1) (2,4) (2,6) (1,2) (4,2) (6,2), the doubles (2,2), and 1+1 summing to 2: 8;
    # plus (5,2) and (2,5), where the 5 enters and the 2 is still free: 10 in all.
    # 2+3 / 3+2 must enter with both dice, and 5+5 enters two pieces. Chance 10/36.
    state, _ = request_from_json({"turn": "ruby", "pieces": {
        "ruby": [20, "home", "home", "home"], "sapphire": [52, "start", "start", "start"]},
        "dice": [1, 2]})
    chances = capture_chances(state.pieces, 0)
    assert chances == {0: pytest.approx(10 / 36)}


def test_capture_chance_respects_blockades_and_safe_squares():
    # The same threat, but Ruby's own blockade on square 24 (Ruby progress 19) stands
    # between: nothing can reach the piece at 20.
    state, _ = request_from_json({"turn": "ruby", "pieces": {
        "ruby": [19, 19, 20, "home"], "sapphire": [52, "start", "start", "start"]},
        "dice": [1, 2]})
    assert capture_chances(state.pieces, 0) == {2: 0.0}
    # On a safe square (Ruby progress 24 = square 29) a piece is not exposed at all.
    state, _ = request_from_json({"turn": "ruby", "pieces": {
        "ruby": [24, "home", "home", "home"], "sapphire": [52, "start", "start", "start"]},
        "dice": [1, 2]})
    assert capture_chances(state.pieces, 0) == {}


def test_turn_capture_chance_counts_the_rerolls_after_doubles():
    # Sapphire 2 behind Ruby's piece: 10 of 36 rolls capture at once. Of the misses, the
    # doubles 3-3, 4-4, 5-5 and 6-6 (4 of 36) roll again, up to twice more.
    state, _ = request_from_json({"turn": "ruby", "pieces": {
        "ruby": [20, "home", "home", "home"], "sapphire": [52, "start", "start", "start"]},
        "dice": [1, 2]})
    again = 4 / 36
    assert turn_capture_chances(state.pieces, 0) == {
        0: pytest.approx(10 / 36 * (1 + again + again ** 2))}


def _chain_position(ruby: list[object], emerald: bool = True) -> dict[str, list[object]]:
    """Ruby's piece on square 60; Sapphire one piece exactly 20 behind it (square 40) and
    one 3 behind an Emerald piece (squares 30 and 33), neither able to reach Ruby."""
    pieces: dict[str, list[object]] = {
        "ruby": ruby,
        "sapphire": [progress_on(SAPPHIRE, 40), progress_on(SAPPHIRE, 30), "home", "home"]}
    if emerald:
        pieces["emerald"] = [progress_on(EMERALD, 33), "home", "home", "home"]
    return pieces


def test_turn_capture_chance_counts_a_capture_bonus_landing_on_the_piece():
    # The 14 rolls that move Sapphire 3 (a 3, 1+2, and the 3s under 4-4) capture Emerald;
    # the bonus 20 then takes the piece 20 behind Ruby's onto it. One roll alone sees no
    # danger.
    state = at_roll("ruby", _chain_position([progress_on(RUBY, 60), "home", "home", "home"]))
    assert capture_chances(state.pieces, RUBY) == {0: 0.0}
    assert turn_capture_chances(state.pieces, RUBY) == {0: pytest.approx(14 / 36)}


def test_turn_capture_chance_bonus_needs_a_capture_and_an_open_path():
    # Nothing else to capture: no bonus.
    alone = at_roll("ruby", _chain_position([progress_on(RUBY, 60), "home", "home", "home"],
                                            emerald=False))
    assert turn_capture_chances(alone.pieces, RUBY) == {0: 0.0}
    # A Ruby blockade on square 50 stands between the bonus piece and Ruby's piece.
    walled = at_roll("ruby", _chain_position([progress_on(RUBY, 50), progress_on(RUBY, 50),
                                              progress_on(RUBY, 60), "home"]))
    assert list(turn_capture_chances(walled.pieces, RUBY).values()) == [0.0]
    # No opponent racing: no danger at all.
    solo = at_roll("ruby", {"ruby": [progress_on(RUBY, 60), "home", "home", "home"],
                            "sapphire": ["home"] * 4})
    assert turn_capture_chances(solo.pieces, RUBY) == {0: 0.0}


def test_decide_rejects_unknown_levels_and_finished_games():
    game = Game((0, 2), 1)
    with pytest.raises(ValueError, match="unknown player"):
        decide(game.state, "grandmaster")
    over = game.state.with_(phase=Phase.OVER, winner=0)
    with pytest.raises(ValueError, match="over"):
        decide(over, "hard")
    with pytest.raises(IllegalAction):
        apply(over, decide(game.state, "hard").actions[0])


# --- command line ------------------------------------------------------------------------------

def _run(args: list[str], stdin: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "parcheesi", *args], input=stdin,
                          capture_output=True, text=True, cwd=ROOT, timeout=120)


EXAMPLE = {"turn": "ruby", "pieces": {"ruby": ["start", 12, 64, "home"],
                                      "sapphire": ["start", "start", 30, 70]},
           "dice": [5, 3], "doubles": 0}


@pytest.mark.parametrize("level", LEVELS)
def test_choose_command_prints_one_of_the_outcomes(level):
    result = _run(["choose", "--player", level], json.dumps(EXAMPLE))
    assert result.returncode == 0, result.stderr
    answer = json.loads(result.stdout)
    assert set(answer) == {"pieces", "reason", "win_chance"}
    chances = answer["win_chance"]
    assert set(chances) == set(EXAMPLE["pieces"])
    assert sum(chances.values()) == pytest.approx(1.0, abs=1e-3)
    assert answer["pieces"] in [o["pieces"] for o in outcomes_json(json.dumps(EXAMPLE))[
        "outcomes"]]


def test_choose_command_bad_input_exits_2_with_one_line():
    result = _run(["choose"], '{"turn": "ruby"')
    assert result.returncode == 2
    assert result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1


def test_choose_lines_answers_every_line_and_survives_bad_ones():
    bad_colour = dict(EXAMPLE, pieces={"ruby": ["start"] * 4, "emerald": ["start"] * 4})
    lines = [json.dumps(EXAMPLE), "not json", json.dumps(bad_colour), json.dumps(EXAMPLE)]
    result = _run(["choose", "--lines"], "\n".join(lines) + "\n")
    assert result.returncode == 0
    answers = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(answers) == 4
    assert "pieces" in answers[0] and answers[0] == answers[3]
    assert set(answers[1]) == {"error"} and set(answers[2]) == {"error"}
    assert "opposite" in answers[2]["error"]


def test_simulate_command_json_contract_and_reproducibility():
    args = ["simulate", "--players", "medium,easy,random", "--games", "6", "--seed", "4",
            "--json"]
    first = json.loads(_run(args, "").stdout)
    second = json.loads(_run(args, "").stdout)
    for key in ("games", "wins", "mean_rolls", "games_per_second", "decision_ms"):
        assert key in first
    assert first["games"] == 6
    assert sum(first["wins"].values()) == 6
    assert set(first["decision_ms"]) == {"medium", "easy", "random"}
    for times in first["decision_ms"].values():
        assert {"p50", "p99", "max"} <= set(times)
        assert 0 <= times["p50"] <= times["p99"] <= times["max"]
    assert first["wins"] == second["wins"] and first["mean_rolls"] == second["mean_rolls"]


def test_simulate_command_rejects_unknown_players():
    result = _run(["simulate", "--players", "hard,wizard", "--games", "2"], "")
    assert result.returncode == 2
    assert "wizard" in result.stderr


def test_decisions_depend_on_the_position_only_not_on_earlier_lookups():
    """Looking at a human's options first (which fills the roll's cache) or reading the
    state back from JSON must not change the hint: games replay from their record."""
    from parcheesi.games.parcheesi.notation import state_from_json, state_to_json
    from parcheesi.games.parcheesi.turns import combined_moves, legal_steps

    checked = 0
    for seed in range(8):
        game = Game((0, 2), seed)
        while game.state.phase is not Phase.OVER:
            state = game.state
            if state.phase in (Phase.MOVE, Phase.REWARD):
                first = PARCHEESI_GAME.hint(state).actions
                read_back = state_from_json(state_to_json(state))
                legal_steps(state)
                for piece in range(4):
                    combined_moves(state, piece)
                assert PARCHEESI_GAME.hint(state).actions == first
                assert PARCHEESI_GAME.hint(read_back).actions == first
                checked += 1
                for action in first:
                    game.play(action)
            else:
                game.play(Roll())
    assert checked > 100
