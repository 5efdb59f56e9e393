"""The learned evaluation and Expert: encoding, network, win chances, training, search."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from parcheesi.core.actions import Roll
from parcheesi.core.state import Phase
from parcheesi.games.parcheesi import expert
from parcheesi.games.parcheesi.board import HOME, START
from parcheesi.games.parcheesi.expert import search
from parcheesi.games.parcheesi.expert.encoding import (
    ABSENT_UNIT,
    DOUBLES_UNIT,
    FULL_PIPS,
    PAD_UNIT,
    SLOT_UNITS,
    UNITS_ON,
    encode,
)
from parcheesi.games.parcheesi.expert.network import Network
from parcheesi.games.parcheesi.expert.selfplay import Samples, play, samples, table
from parcheesi.games.parcheesi.expert.training import (
    Adam,
    Batch,
    Checkpoint,
    Settings,
    gradients,
    train,
)
from parcheesi.games.parcheesi.expert.values import race_chances, win_chances
from parcheesi.games.parcheesi.notation import request_from_json
from parcheesi.games.parcheesi.risk import capture_chances
from parcheesi.games.parcheesi.state import State, new_state
from parcheesi.games.parcheesi.turns import apply, roll_outcomes


def small_net(seed: int = 1, hidden: int = 16) -> Network:
    return Network.fresh(hidden, np.random.default_rng(seed))


def rotated(pieces: tuple[tuple[int, ...], ...], k: int) -> tuple[tuple[int, ...], ...]:
    """The same position with every colour moved on by ``k`` (the board is symmetric)."""
    return tuple(pieces[(c - k) % 4] for c in range(4))


# --- encoding ----------------------------------------------------------------------------------

def test_the_roller_is_slot_zero_and_each_unit_says_where_pieces_stand():
    pieces = ((START, 3, 3, HOME), (), (10, START, START, START), ())
    units, dense = encode(pieces, 0, 0)
    on = [u for u in units if u != PAD_UNIT]
    ruby = [2 * 3, 2 * 3 + 1, 142, 146]  # two at 3, one in START, one HOME
    sapphire = [2 * SLOT_UNITS + 2 * 10] + [2 * SLOT_UNITS + 142 + k for k in range(3)]
    assert sorted(on) == sorted(ruby + sapphire + [ABSENT_UNIT + 1, ABSENT_UNIT + 3])
    assert len(units) == UNITS_ON
    # pips: Ruby 72 + 68 + 68 + 0; Sapphire 61 + 3 * 72
    assert dense[0] == pytest.approx((72 + 68 + 68) / FULL_PIPS)
    assert dense[6] == pytest.approx((61 + 3 * 72) / FULL_PIPS)
    assert dense[3:6] == [0.0, 0.0, 0.0] and dense[9:] == [0.0, 0.0, 0.0]


def test_seen_from_sapphire_the_slots_turn_with_the_roller():
    pieces = ((START, 3, 3, HOME), (), (10, START, START, START), ())
    from_ruby = encode(pieces, 0, 0)
    from_sapphire = encode(pieces, 2, 0)
    assert from_sapphire == encode(rotated(pieces, 2), 0, 0)
    assert from_sapphire != from_ruby


def test_doubles_already_rolled_this_turn_are_units_of_their_own():
    pieces = ((10, 20, 30, 40), (), (10, 20, 30, 40), ())
    assert DOUBLES_UNIT not in encode(pieces, 0, 0)[0]
    assert DOUBLES_UNIT in encode(pieces, 0, 1)[0]
    assert DOUBLES_UNIT + 1 not in encode(pieces, 0, 1)[0]
    assert {DOUBLES_UNIT, DOUBLES_UNIT + 1} <= set(encode(pieces, 0, 2)[0])


def test_a_colour_with_every_piece_home_is_out_of_the_race():
    pieces = ((HOME,) * 4, (5, 6, 7, 8), (9, 10, 11, 12), ())
    units, dense = encode(pieces, 1, 0)
    assert ABSENT_UNIT + 3 in units  # Ruby, three slots on from Emerald
    assert dense[9:] == [0.0, 0.0, 0.0]


def test_the_risk_terms_are_the_exact_capture_chances():
    # Ruby alone at 20 with Sapphire's pieces behind it on the track.
    state, _ = request_from_json({"turn": "ruby", "pieces": {
        "ruby": [20, "start", "start", "start"], "sapphire": [48, 50, "start", "start"]},
        "dice": [1, 2]})
    risk = capture_chances(state.pieces, 0)
    assert risk, "the test position must put Ruby at risk"
    _, dense = encode(state.pieces, 0, 0)
    assert dense[1] == pytest.approx(sum(risk.values()))
    assert dense[2] == pytest.approx(sum(c * (20 + 1) / HOME for c in risk.values()))


# --- network and chances -------------------------------------------------------------------------

def test_chances_add_up_to_one_over_the_colours_racing():
    net = small_net()
    state = new_state((0, 1, 3))
    state = state.with_(phase=Phase.ROLL, pieces=((4, 9, START, START), (30, START, START, START),
                                                  (), (HOME, HOME, HOME, HOME)))
    values = race_chances(net, [state], 0)[0]
    assert values.sum() == pytest.approx(1.0)
    assert values[2] == 0.0 and values[3] == 0.0  # Sapphire not playing, Amber finished
    assert values[0] > 0 and values[1] > 0


def test_the_chances_turn_with_the_board():
    """Every colour's relation to the others is the same after a quarter turn of the whole
    board, so the chances must turn with it."""
    net = small_net()
    pieces = ((4, 9, START, 66), (30, START, START, START), (12, 12, 50, START),
              (HOME, 1, 40, START))
    base = new_state((0, 1, 2, 3)).with_(phase=Phase.ROLL, pieces=pieces, turn=1)
    values = race_chances(net, [base], 1)[0]
    for k in (1, 2, 3):
        turned = base.with_(pieces=rotated(pieces, k), turn=(1 + k) % 4)
        again = race_chances(net, [turned], turned.turn)[0]
        assert np.allclose(np.roll(values, k), again)


def test_a_finished_position_is_certain_and_the_opening_is_even():
    net = small_net()
    opening = new_state((0, 2))
    assert list(win_chances(net, opening)) == [0.5, 0.0, 0.5, 0.0]
    won = opening.with_(phase=Phase.OVER, winner=2)
    assert list(win_chances(net, won)) == [0.0, 0.0, 1.0, 0.0]


def test_in_the_middle_of_a_roll_the_chances_are_those_of_the_movers_best_end():
    net = small_net()
    state, dice = request_from_json({"turn": "ruby", "pieces": {
        "ruby": [10, 20, "start", "start"], "sapphire": [15, 3, "start", "start"]},
        "dice": [3, 4]})
    rolled, _ = apply(state, Roll(), dice)
    ends = [end for end, _ in roll_outcomes(rolled)]
    best = max(race_chances(net, ends, 0)[:, 0])
    assert win_chances(net, rolled)[0] == pytest.approx(best)


def test_saved_weights_load_as_float32_and_play_the_same(tmp_path: Path):
    net = small_net()
    net.save(tmp_path / "w.npz")
    loaded = Network.load(tmp_path / "w.npz")
    assert loaded.sparse.dtype == np.float32
    state = new_state((0, 2)).with_(phase=Phase.ROLL, pieces=(
        (4, 9, START, 66), (), (12, 12, 50, START), ()))
    assert np.allclose(race_chances(net, [state], 0), race_chances(loaded, [state], 0),
                       atol=1e-5)


# --- training ------------------------------------------------------------------------------------

def test_a_self_play_game_ends_with_its_winner_and_every_position_between_rolls():
    net = small_net()
    positions, winner = play(net, (0, 2), seed=3)
    assert all(s.phase is Phase.ROLL for s in positions)
    assert [s.rolls for s in positions] == sorted({s.rolls for s in positions})
    assert winner in (0, 2)


def test_td_lambda_targets_end_with_the_winner_and_blend_the_network_before():
    net = small_net()
    positions, winner = play(net, (1, 3), seed=5)
    one = samples(net, positions, winner, lam=1.0)  # lambda 1: every target is the result
    for state, target in zip(positions, one.targets, strict=True):
        assert target[(winner - state.turn) % 4] == pytest.approx(1.0)
    zero = samples(net, positions, winner, lam=0.0)  # lambda 0: the next position's value
    values = race_chances(net, positions, 0)
    for t in range(len(positions) - 1):
        roller = positions[t].turn
        assert np.allclose(zero.targets[t], np.roll(values[t + 1], -roller))
    assert zero.targets[-1][(winner - positions[-1].turn) % 4] == pytest.approx(1.0)


def test_the_gradient_matches_finite_differences():
    net = small_net(hidden=6)
    positions, winner = play(net, (0, 1, 2, 3), seed=8)
    batch = Batch.of(samples(net, positions[:20], winner, lam=0.7))
    _, grads = gradients(net, batch)
    rng = np.random.default_rng(0)
    for array, grad in zip(net.arrays(), grads, strict=True):
        flat = array.reshape(-1)
        for index in rng.choice(flat.size, 3, replace=False):
            if array is net.sparse and index // array.shape[1] == PAD_UNIT:
                continue
            saved = flat[index]
            flat[index] = saved + 1e-6
            up, _ = gradients(net, batch)
            flat[index] = saved - 1e-6
            down, _ = gradients(net, batch)
            flat[index] = saved
            assert grad.reshape(-1)[index] == pytest.approx((up - down) / 2e-6, abs=1e-6)


def test_adam_fitting_lowers_the_loss_on_a_fixed_batch():
    net = small_net(hidden=12)
    positions, winner = play(net, (0, 2), seed=9)
    batch = Batch.of(samples(net, positions, winner, lam=1.0))
    adam = Adam([w.shape for w in net.arrays()], 0.01)
    before, _ = gradients(net, batch)
    for _ in range(50):
        _, grads = gradients(net, batch)
        adam.update(net.arrays(), grads)
    after, _ = gradients(net, batch)
    assert after < before * 0.8
    assert not net.sparse[PAD_UNIT].any()  # the padding unit's row stays zero


def test_training_goes_on_from_its_checkpoint_exactly(tmp_path: Path):
    settings = Settings(games=6, hidden=8, epochs=1)
    lines: list[dict[str, object]] = []
    straight = train(tmp_path / "straight", settings, 2, 1, lines.append)
    train(tmp_path / "pieces", settings, 1, 1, lines.append)
    resumed = train(tmp_path / "pieces", settings, 2, 2, lines.append)  # two workers too
    for a, b in zip(straight.net.arrays(), resumed.net.arrays(), strict=True):
        assert np.array_equal(a, b)
    assert [line["iteration"] for line in lines] == [1, 2, 1, 2]
    again = Checkpoint.load(tmp_path / "pieces" / "checkpoint.npz")
    assert again.iteration == 2 and again.adam.step == resumed.adam.step


def test_the_tables_of_training_games_rotate_over_two_three_and_four():
    assert [len(table(k)) for k in range(6)] == [2, 3, 4, 2, 3, 4]
    assert {table(k) for k in range(0, 12, 3)} == {(0, 2), (1, 3)}


def test_samples_join_in_order():
    net = small_net()
    a = samples(net, *play(net, (0, 2), seed=1), lam=0.5)
    b = samples(net, *play(net, (1, 3), seed=2), lam=0.5)
    joined = Samples.join([a, b])
    assert joined.inputs == a.inputs + b.inputs
    assert np.array_equal(joined.targets, np.concatenate([a.targets, b.targets]))


# --- the search ----------------------------------------------------------------------------------

def test_the_shortlist_keeps_the_best_few_within_the_margin():
    values = np.array([0.30, 0.52, 0.50, 0.10, 0.47, 0.49])
    assert search.shortlist(values, count=3, margin=0.05) == [1, 2, 5]
    assert search.shortlist(values, count=5, margin=0.04) == [1, 2, 5]
    assert search.shortlist(values, count=2, margin=0.5) == [1, 2]


def test_the_rolls_weigh_one_in_all():
    assert len(search.ROLLS) == 21
    assert search.WEIGHTS.sum() == pytest.approx(1.0)


def rolled_position() -> tuple[State, list[State]]:
    state, dice = request_from_json({"turn": "ruby", "pieces": {
        "ruby": [10, 20, 33, "start"], "sapphire": [15, 3, 40, "start"]}, "dice": [3, 4]})
    rolled, _ = apply(state, Roll(), dice)
    return rolled, [end for end, _ in roll_outcomes(rolled)]


def test_one_ply_is_the_average_of_the_next_rollers_best_answers():
    net = small_net()
    _, ends = rolled_position()
    after = ends[0]
    expected = 0.0
    for (a, b), weight in zip(search.ROLLS, search.WEIGHTS, strict=True):
        answered, _ = apply(after, Roll(), (a, b))
        if answered.phase in (Phase.MOVE, Phase.REWARD) and answered.turn == after.turn:
            options = [end for end, _ in roll_outcomes(answered)]
        else:
            options = [answered]
        values = race_chances(net, options, after.turn)
        expected += weight * values[int(np.argmax(values[:, after.turn])), 0]
    assert search.one_ply(net, after, 0) == pytest.approx(expected)


def test_expert_searches_its_candidates_and_stops_when_a_budget_runs_out():
    net = small_net()
    rolled, ends = rolled_position()
    static = race_chances(net, ends, 0)[:, 0]
    picks = search.shortlist(static)
    deep = [search.one_ply(net, ends[k], 0) for k in picks]
    assert len(picks) > 1, "the test position must leave the search a choice"
    best = picks[int(np.argmax(deep))]
    assert search.choose(net, rolled, ends) == best
    # no answers to spend, or a clock that has already run out: the network's own choice
    assert search.choose(net, rolled, ends, answers=0) == picks[0]
    ticks = iter(range(100))
    assert search.choose(net, rolled, ends, seconds=0.5, clock=lambda: next(ticks)) == picks[0]


def test_expert_takes_a_finish_and_plays_a_forced_roll_without_searching():
    net = small_net()
    state, dice = request_from_json({"turn": "ruby", "pieces": {
        "ruby": [68, "home", "home", "home"], "sapphire": [15, 3, 40, "start"]},
        "dice": [3, 1]})
    rolled, _ = apply(state, Roll(), dice)
    ends = [end for end, _ in roll_outcomes(rolled)]
    k = search.choose(net, rolled, ends)
    assert ends[k].pieces[0] == (HOME,) * 4


# --- the shipped weights -------------------------------------------------------------------------

def test_the_shipped_weights_load_and_say_how_they_were_trained():
    net = expert.network()
    assert net.sparse.dtype == np.float32
    assert not net.sparse[PAD_UNIT].any()
    note = json.loads(expert.WEIGHTS.with_suffix(".json").read_text())
    assert {"settings", "iterations", "games", "training_hours", "machine", "command"} <= set(
        note)
    assert expert.WEIGHTS.stat().st_size < 3_000_000


def test_chances_name_every_colour_playing():
    state = new_state((1, 3))
    assert expert.chances(state) == {1: 0.5, 3: 0.5}
