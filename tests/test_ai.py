"""Computer players: legal choices everywhere, determinism, strength order, the hint."""

from __future__ import annotations

import inspect
import json
import random
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import test_rules_scenarios as scenarios
from positions import EMERALD, RUBY, SAPPHIRE, H, S, at_roll, progress_on, rolled

from parcheesi.__main__ import choose_json, outcomes_json
from parcheesi.core.actions import Roll
from parcheesi.core.registry import rules_for
from parcheesi.core.state import IllegalAction, Phase
from parcheesi.games.parcheesi import expert
from parcheesi.games.parcheesi.ai import LEVELS, REASON_WIDTH, decide, explain
from parcheesi.games.parcheesi.game import GAME as PARCHEESI_GAME
from parcheesi.games.parcheesi.notation import request_from_json, state_from_json, state_to_json
from parcheesi.games.parcheesi.risk import capture_chances, capture_counts, turn_capture_chances
from parcheesi.games.parcheesi.turns import (
    Game,
    Move,
    Reward,
    apply,
    legal_actions,
    roll_outcomes,
)
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


def test_decisions_are_deterministic_for_a_state(monkeypatch: pytest.MonkeyPatch):
    # Expert's time budget stopped (its clock stands still): only the answers budget, which
    # is the same on any machine, ends its search, however busy this machine is.
    monkeypatch.setattr(expert.EXPERT, "clock", lambda: 0.0)
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
    # The 20 takes the piece from 14 to 34: square 39, a safe square.
    assert decision.reason == "Piece 1 captures Sapphire and takes the 20 to safety"


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


@pytest.mark.parametrize(("args", "reason"), [
    (["--players", "hard,wizard"], "unknown player 'wizard'"),
    (["--players", "hard"], "a game needs 2 to 4 players"),
    (["--players", "hard,easy", "--games", "0"], "--games must be 1 to 1000000"),
    (["--players", "hard,easy", "--games", "9" * 30], "--games must be 1 to 1000000"),
    (["--players", "hard,easy", "--workers", "0"], "--workers must be 1 to 64"),
    (["--players", "hard,easy", "--workers", "99999999999"], "--workers must be 1 to 64"),
])
def test_simulate_command_refuses_what_cannot_be_played(args: list[str], reason: str):
    result = _run(["simulate", "--games", "2", *args], "")
    assert result.returncode == 2
    assert reason in result.stderr and result.stdout == ""


def test_decisions_depend_on_the_position_only_not_on_earlier_lookups():
    """Looking at a human's options first (which fills the roll's cache) or reading the
    state back from JSON must not change the hint: games replay from their record."""
    from parcheesi.games.parcheesi.turns import combined_moves, legal_steps

    checked = 0
    for seed in range(3):
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


# --- the hint's words: what this move does in this position ----------------------------------

NAMES_A_PIECE = re.compile(r"\bpieces? \d", re.IGNORECASE)


def _hints(turn: str, pieces: dict[str, list[Any]], dice: tuple[int, int]) -> set[str]:
    """The reasons Hard and Expert give for the roll (and the table's hint, Expert's)."""
    state, _ = rolled(turn, pieces, dice)
    reasons = {decide(state, level, reason=True).reason for level in ("hard", "expert")}
    assert PARCHEESI_GAME.hint(state).reason in reasons
    return reasons


def _words(turn: str, pieces: dict[str, list[Any]], dice: tuple[int, int],
           actions: list[Any]) -> str:
    """The reason for ``actions``, a legal way to play the roll (whoever would choose it)."""
    state, _ = rolled(turn, pieces, dice)
    assert any(acts == actions for _, acts in roll_outcomes(state)), actions
    return explain(state, actions)


def test_hint_capture_on_entry_names_the_piece_and_the_bonus():
    # Sapphire's single at its progress 34 stands on square 5, Ruby's entry: the 5 enters
    # Ruby's piece 1 onto it and captures.
    assert _hints("ruby", {"ruby": [S, 20, H, H], "sapphire": [S, S, 34, H]}, (5, 2)) == {
        "Piece 1 captures Sapphire as it enters and takes the 20"}


def test_hint_home_names_the_piece_and_where_the_10_goes():
    # 69 + 2 is HOME; the 10 takes piece 2 from 30 + 6 = 36 to 46 (square 51, safe).
    assert _hints("ruby", {"ruby": [69, 30, H, H], "sapphire": [60, H, H, H]}, (2, 6)) == {
        "Piece 1 reaches HOME and piece 2 takes the 10 to safety"}


def test_hint_the_winning_move_says_so():
    assert _hints("ruby", {"ruby": [69, H, H, H], "sapphire": [60, H, H, H]}, (4, 2)) == {
        "Piece 1 reaches HOME and wins the game"}


def test_hint_entering_names_the_piece():
    assert _hints("ruby", {"ruby": [S, 40, H, H], "sapphire": [30, H, H, H]}, (1, 4)) == {
        "Enters piece 1, safe on its entry square"}


def test_hint_escape_to_a_safe_square_states_the_exact_rolls_avoided():
    # The position of test_capture_chance_counts_exact_dice_outcomes: 10 of Sapphire's 36
    # rolls hit Ruby's piece on 20 (square 25); 1 + 3 takes it to 24, square 29, safe.
    assert _hints("ruby", {"ruby": [20, H, H, H], "sapphire": [52, S, S, S]}, (1, 3)) == {
        "Piece 1 moves to a safe square: 10 of Sapphire's 36 rolls could hit it now, "
        "none after"}


def test_hint_escape_out_of_reach_states_the_exact_rolls_avoided():
    # Ruby on 23 (square 28); Sapphire's last piece on its 55 (square 26), 2 behind, with
    # no piece in START: a 2 on either die (11 outcomes), 1-1, and the doubles whose four
    # portions include a 2 (5-5: 5, 5, 2, 2; 6-6: 6, 6, 1, 1 moves 1 + 1): 14 of 36.
    # 3 + 4 takes the piece to 30, square 35: past square 34 where Sapphire leaves the
    # track, so nothing of Sapphire's can reach it.
    pieces = {"ruby": [23, H, H, H], "sapphire": [55, H, H, H]}
    state, _ = rolled("ruby", pieces, (3, 4))
    assert capture_chances(state.pieces, RUBY) == {0: pytest.approx(14 / 36)}
    assert _hints("ruby", pieces, (3, 4)) == {
        "Moves piece 1 out of reach: 14 of Sapphire's 36 rolls could hit it now, none after"}


def test_hint_less_danger_states_both_counts():
    # From 20, 4 + 2 takes the piece to 26 (square 31), 8 in front of Sapphire on square
    # 23. Sapphire must enter with a 5, so only 2-6, 6-2 and 4-4 (4 + 4, no four
    # portions with pieces in START) move it 8: 3 of 36, down from 10.
    pieces = {"ruby": [20, H, H, H], "sapphire": [52, S, S, S]}
    assert _hints("ruby", pieces, (4, 2)) == {
        "Piece 1 moves on to less danger: 10 of Sapphire's 36 rolls could hit it now, 3 after"}
    after = at_roll("sapphire", {"ruby": [26, H, H, H], "sapphire": [52, S, S, S]})
    assert capture_chances(after.pieces, RUBY) == {0: pytest.approx(3 / 36)}


def test_hint_accepting_danger_when_no_move_is_safe():
    # Ruby's only piece leaves its entry square for 3 (square 8); Sapphire's last piece on
    # square 4 is 4 behind: a 4 on either die (11), 1-3 and 3-1, and the doubles 2-2, 3-3
    # (3, 3, 4, 4) and 5-5 (5, 5, 2, 2): 16 of 36. The roll has no other end.
    pieces = {"ruby": [0, H, H, H], "sapphire": [33, H, H, H]}
    assert _hints("ruby", pieces, (1, 2)) == {
        "No move is safe: piece 1 moves on 3, open to 16 of Sapphire's 36 rolls: "
        "68 squares to go"}


def test_words_for_a_move_that_accepts_danger_when_a_safe_one_exists():
    # Piece 1 from 7 to 13 (square 18), 4 in front of Sapphire on square 14: 16 of 36 (the
    # count of the test above). Moving piece 3 6 to 46 (square 51) would have been safe.
    pieces = {"ruby": [7, 12, 40, H], "sapphire": [43, H, H, H]}
    assert _words("ruby", pieces, (5, 1), [Move(0, (5,)), Move(0, (1,))]) == (
        "Piece 1 moves on 6, open to 16 of Sapphire's 36 rolls: 58 squares to go")


def test_words_for_a_broken_blockade_name_who_left_and_who_is_open():
    # Ruby's blockade on 10 (square 15); Sapphire on square 11. Every end leaves a piece
    # open; this one moves piece 1 away and leaves piece 2 4 in front of Sapphire: 16 of 36.
    pieces = {"ruby": [10, 10, H, H], "sapphire": [40, H, H, H]}
    assert _words("ruby", pieces, (2, 1), [Move(0, (2,)), Move(0, (1,))]) == (
        "No move is safe: piece 1 moves on 3 and leaves piece 2 open to 16 of Sapphire's "
        "36 rolls")


def test_hint_a_blockade_that_shields_a_piece_in_danger():
    # Piece 2 stands alone on Sapphire's entry square (Ruby 34, square 39) with two of
    # Sapphire's pieces waiting in START: every roll that enters takes it, a 5 on either die
    # (11) or 1-4, 4-1, 2-3, 3-2: 15 of 36. Piece 1 joins it from 31 with the 3.
    pieces = {"ruby": [31, 34, 40, H], "sapphire": [S, S, 20, H]}
    assert _hints("ruby", pieces, (3, 1)) == {
        "Piece 1 shields piece 2 with a blockade: 15 of Sapphire's 36 rolls could hit it now"}


def test_words_for_a_blockade_in_front_of_an_opponent():
    # Piece 1 from 7 to 12 joins piece 2 on square 17, 3 in front of Sapphire on square 14.
    pieces = {"ruby": [7, 12, 40, H], "sapphire": [43, H, H, H]}
    assert _words("ruby", pieces, (5, 1), [Move(0, (5,)), Move(2, (1,))]) == (
        "Pieces 1 and 2 build a blockade 3 squares in front of Sapphire")


def test_hint_a_double_entry_blockade_in_front_of_an_opponent():
    # 5-5 enters two pieces on square 5; Sapphire's piece on its 30 is square 1, 4 behind.
    assert _hints("ruby", {"ruby": [S, S, 40, H], "sapphire": [30, H, H, H]}, (5, 5)) == {
        "Enters pieces 1 and 2: a blockade 4 squares in front of Sapphire"}


def test_hint_a_blockade_on_an_opponents_entry_square():
    # 30 + 4 and 31 + 3 meet on 34, square 39: Sapphire's entry, with two pieces in START.
    assert _hints("ruby", {"ruby": [30, 31, H, H], "sapphire": [S, S, 20, H]}, (4, 3)) == {
        "Pieces 1 and 2 build a blockade on Sapphire's entry square"}


def test_hint_closing_in_on_home():
    assert _hints("ruby", {"ruby": [64, H, H, H], "sapphire": [60, H, H, H]}, (1, 2)) == {
        "Piece 1 closes in on HOME: 4 squares to go"}
    assert _hints("ruby", {"ruby": [58, H, H, H], "sapphire": [20, H, H, H]}, (1, 6)) == {
        "Piece 1 runs into its home lane: 6 squares to go"}


def test_hint_a_threat_counts_the_rolls_that_would_capture():
    # Piece 1 from 10 to 14 (square 19), 6 behind Sapphire on square 25 (out of Sapphire's
    # reach: nothing of Sapphire's is behind it). Ruby's rolls moving 6: a 6 on either die
    # (11), 1-5, 5-1, 2-4, 4-2, and the doubles 1-1, 3-3 and 4-4 (4, 4, 3, 3): 18 of 36.
    assert _hints("ruby", {"ruby": [10, H, H, H], "sapphire": [54, H, H, H]}, (1, 3)) == {
        "Piece 1 lines up 6 behind Sapphire: 18 of 36 rolls could capture it"}


def test_hint_quiet_moves_say_where_the_piece_ends():
    # 10 + 7 = 17, square 22: safe; and from 2 to 5 (square 10), nobody behind.
    assert _hints("ruby", {"ruby": [10, H, H, H], "sapphire": [20, H, H, H]}, (3, 4)) == {
        "Piece 1 moves on 7 to a safe square: 54 squares to go"}
    assert _hints("ruby", {"ruby": [2, H, H, H], "sapphire": [54, H, H, H]}, (1, 2)) == {
        "Piece 1 moves on 3, out of every opponent's reach: 66 squares to go"}


def test_words_for_a_bonus_taken_mid_roll():
    # Piece 1 captured with its 4 (10 to 14, square 19); the 1 and the 20 are left. Piece 2
    # takes them: 30 to 51, square 56, safe.
    state, _ = rolled("ruby", {"ruby": [10, 30, H, H], "sapphire": [48, S, S, S]}, (4, 1))
    state, _ = apply(state, Move(0, (4,)))
    assert state.rewards == (20,)
    assert explain(state, [Move(1, (1,)), Reward(1, 20)]) == (
        "Piece 2 moves on 21 with the 20 bonus to a safe square: 20 squares to go")
    # The bonus alone, once the 1 is played: its own words.
    state, _ = apply(state, Move(0, (1,)))
    assert explain(state, [Reward(1, 20)]) == (
        "Piece 2 takes the 20 bonus, out of every opponent's reach: 21 squares to go")


def _rolled_positions(count: int) -> list[Any]:
    """Positions with a fresh roll to play, from seeded games of two, three and four
    (Hard against the random mover, so the positions vary)."""
    found = []
    colour_sets = [(0, 2), (1, 3), (0, 1, 2), (1, 2, 3), (0, 1, 2, 3)]
    for seed in range(40):
        game = Game(colour_sets[seed % len(colour_sets)], 700 + seed)
        rng = random.Random(seed)
        while game.state.phase is not Phase.OVER and len(found) < count * (seed + 1) / 10:
            state = game.state
            if state.phase in (Phase.MOVE, Phase.REWARD):
                if "dice" in PARCHEESI_GAME.position(state) and rng.random() < 0.5:
                    found.append(state)
                level = "hard" if rng.random() < 0.7 else "random"
                for action in decide(state, level).actions:
                    game.play(action)
            else:
                game.play(Roll())
        if len(found) >= count:
            break
    return found[:count]


HINT_POSITIONS = _rolled_positions(240)


def _check_reasons(reasons: list[str]) -> float:
    """No generic words, the table's style; the share that names a piece."""
    for reason in reasons:
        assert "least risk" not in reason  # the old stock words, for any move
        assert reason[0].isupper() and not reason.endswith("."), reason
        assert len(reason) <= REASON_WIDTH + 10, reason
    return sum(bool(NAMES_A_PIECE.search(r)) for r in reasons) / len(reasons)


@pytest.mark.parametrize("level", ["expert", "hard"])
def test_choose_reasons_name_the_piece_over_hundreds_of_positions(level):
    assert len(HINT_POSITIONS) == 240
    assert len({len(s.colours) for s in HINT_POSITIONS}) == 3
    rules = rules_for("parcheesi")
    reasons = []
    for state in HINT_POSITIONS:
        request = {k: v for k, v in rules.position(state).items() if k != "game"}
        reasons.append(rules.choose(request, level)["reason"])
    assert _check_reasons(reasons) >= 0.9  # 100% when measured
    assert len(set(reasons)) > len(reasons) / 2  # specific to the position, not stock words


def test_table_hints_name_the_piece_over_hundreds_of_positions():
    reasons = [PARCHEESI_GAME.hint(state).reason for state in HINT_POSITIONS]
    assert _check_reasons(reasons) >= 0.9


def test_reasons_are_deterministic_and_cheap():
    """The same words for the same position (read back from JSON, the roll's ends looked
    up or not), and well under a millisecond each on average (measured: about 0.1 ms)."""
    spent = 0.0
    for state in HINT_POSITIONS:
        actions = decide(state, "hard").actions
        started = time.perf_counter()
        words = explain(state, actions)
        spent += time.perf_counter() - started
        assert explain(state_from_json(state_to_json(state)), actions) == words
        assert explain(state, actions, roll_outcomes(state)) == words
    assert spent / len(HINT_POSITIONS) < 0.005


def test_capture_counts_are_what_capture_chances_combines():
    """The counts the words state per opponent are exact: combined as independent rolls
    they give the engine's capture chances."""
    for state in HINT_POSITIONS:
        for colour in state.colours:
            chances = capture_chances(state.pieces, colour)
            counts = capture_counts(state.pieces, colour)
            assert set(counts) == set(chances)
            for piece, chance in chances.items():
                miss = 1.0
                for n in counts[piece].values():
                    assert 0 < n <= 36
                    miss *= 1 - n / 36
                assert 1 - miss == pytest.approx(chance)
