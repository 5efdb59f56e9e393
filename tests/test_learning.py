"""The learned evaluation of every game that has one: one training pipeline, one network, one
search, checked the same way for each (the game only supplies its encoding and its play).

Every test is parametrized over the registry's games whose rules have a learner, so a game
that learns is checked here with no new test code; what is one game's own (what its units
and terms mean, its rolls) is in that game's tests (``test_expert.py``,
``test_ludo_expert.py``).
"""

from __future__ import annotations

import json
import time
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest

from parcheesi.core.actions import Roll
from parcheesi.core.learning import search
from parcheesi.core.learning.learner import Learner
from parcheesi.core.learning.network import Network
from parcheesi.core.learning.selfplay import Samples, play, samples, taught
from parcheesi.core.learning.training import (
    Adam,
    Batch,
    Checkpoint,
    Settings,
    gradients,
    learner_of,
    train,
)
from parcheesi.core.learning.values import race_chances, win_chances
from parcheesi.core.registry import AnyRules, games
from parcheesi.core.state import Phase

LEARNING = sorted(kind for kind, rules in games().items() if rules.learner is not None)


@pytest.fixture(params=LEARNING)
def game(request: pytest.FixtureRequest) -> AnyRules:
    return games()[request.param]


def learner(game: AnyRules) -> Learner:
    found = game.learner
    assert found is not None
    return found


def small_net(game: AnyRules, seed: int = 1, hidden: int = 16) -> Network:
    return Network.fresh(hidden, np.random.default_rng(seed), learner(game).encoding)


def self_played(game: AnyRules, colours: tuple[int, ...], seed: int) -> tuple[list, int | None]:
    return play(learner(game), small_net(game), colours, seed)


def rotated(state, k: int):  # type: ignore[no-untyped-def]
    """The same position with every colour moved on by ``k`` (both boards are symmetric)."""
    return state.with_(pieces=tuple(state.pieces[(c - k) % 4] for c in range(4)),
                       turn=(state.turn + k) % 4,
                       colours=tuple(sorted((c + k) % 4 for c in state.colours)))


def test_every_game_with_an_expert_level_learns_and_the_rest_say_so():
    assert "parcheesi" in LEARNING and "ludo" in LEARNING
    for kind, rules in games().items():
        assert (rules.learner is not None) == ("expert" in rules.table_levels), kind
    for kind in games():
        if kind not in LEARNING:
            with pytest.raises(ValueError, match="no learned evaluation"):
                learner_of(kind)


# --- encoding ------------------------------------------------------------------------------------

def test_each_position_is_read_from_its_roller_whatever_the_board_turn(game: AnyRules):
    """The same relation between colours after a quarter turn of the whole board reads the
    same: the encoding is the roller's view, so the chances turn with the board."""
    lrn = learner(game)
    positions, _ = self_played(game, (0, 1, 2, 3), seed=4)
    net = small_net(game)
    for state in positions[::25]:
        for k in (1, 2, 3):
            turned = rotated(state, k)
            assert lrn.encode(turned) == lrn.encode(state)
            assert np.allclose(np.roll(race_chances(lrn, net, [state], state.turn)[0], k),
                               race_chances(lrn, net, [turned], turned.turn)[0])


def test_units_fit_the_encoding_and_pad_to_one_length(game: AnyRules):
    lrn = learner(game)
    shape = lrn.encoding
    for colours in ((0, 2), (1, 2, 3), (0, 1, 2, 3)):
        positions, _ = self_played(game, colours, seed=len(colours))
        for state in positions:
            units, dense = lrn.encode(state)
            assert len(units) == shape.units_on and len(dense) == shape.dense_units
            on = [u for u in units if u != shape.pad_unit]
            assert len(on) == len(set(on)) and all(0 <= u < shape.sparse_units for u in on)
            absent = {u - shape.absent_unit for u in on
                      if shape.absent_unit <= u < shape.absent_unit + 4}
            playing = {(c - state.turn) % 4 for c in state.colours}
            assert absent == {0, 1, 2, 3} - playing  # nobody finished before the first finish


# --- network and chances -------------------------------------------------------------------------

def test_chances_add_up_to_one_over_the_colours_racing(game: AnyRules):
    lrn = learner(game)
    net = small_net(game)
    positions, _ = self_played(game, (0, 1, 3), seed=6)
    values = race_chances(lrn, net, positions, 0)
    assert np.allclose(values.sum(axis=1), 1.0)
    assert (values[:, 2] == 0).all() and (values[:, [0, 1, 3]] > 0).all()


def test_a_finished_game_is_certain_and_the_opening_is_even(game: AnyRules):
    lrn = learner(game)
    net = small_net(game)
    opening = game.new_state((0, 2))
    assert list(win_chances(lrn, net, opening)) == [0.5, 0.0, 0.5, 0.0]
    won = opening.with_(phase=Phase.OVER, winner=2)
    assert list(win_chances(lrn, net, won)) == [0.0, 0.0, 1.0, 0.0]


def test_in_the_middle_of_a_roll_the_chances_are_those_of_the_movers_best_end(game: AnyRules):
    lrn = learner(game)
    net = small_net(game)
    state = game.new_state((0, 2))
    dice = game.dice(11)
    checked = 0
    while checked < 5:
        if game.rolling(state):
            state = game.apply(state, Roll(), dice)[0]
            continue
        if state.phase in (Phase.MOVE, Phase.REWARD):
            ends = lrn.roll_ends(state)
            best = race_chances(lrn, net, ends, state.turn)[:, state.turn].max()
            assert win_chances(lrn, net, state)[state.turn] == pytest.approx(best)
            checked += len(ends) > 1
        state = game.decide(state, "medium").state


def test_saved_weights_load_as_float32_play_the_same_and_fit_only_their_game(
        game: AnyRules, tmp_path: Path):
    lrn = learner(game)
    net = small_net(game)
    net.save(tmp_path / "w.npz")
    loaded = Network.load(tmp_path / "w.npz", lrn.encoding)
    assert loaded.sparse.dtype == np.float32
    positions, _ = self_played(game, (0, 2), seed=2)
    assert np.allclose(race_chances(lrn, net, positions, 0),
                       race_chances(lrn, loaded, positions, 0), atol=1e-5)
    for other in LEARNING:
        if learner_of(other).encoding != lrn.encoding:
            with pytest.raises(ValueError, match="another encoding"):
                Network.load(tmp_path / "w.npz", learner_of(other).encoding)


# --- self-play and training ----------------------------------------------------------------------

def test_a_self_play_game_ends_with_its_winner_and_every_position_between_rolls(game: AnyRules):
    positions, winner = self_played(game, (0, 2), seed=3)
    assert all(s.phase is Phase.ROLL for s in positions)
    assert [s.rolls for s in positions] == sorted({s.rolls for s in positions})
    assert winner in (0, 2)
    assert learner(game).finished(positions[-1], winner) is False


def test_td_lambda_targets_end_with_the_winner_and_blend_the_network_before(game: AnyRules):
    lrn = learner(game)
    net = small_net(game)
    positions, winner = play(lrn, net, (1, 3), seed=5)
    assert winner is not None
    one = samples(lrn, net, positions, winner, lam=1.0)  # lambda 1: every target is the result
    for state, target in zip(positions, one.targets, strict=True):
        assert target[(winner - state.turn) % 4] == pytest.approx(1.0)
    zero = samples(lrn, net, positions, winner, lam=0.0)  # lambda 0: the next position's value
    values = race_chances(lrn, net, positions, 0)
    for t in range(len(positions) - 1):
        assert np.allclose(zero.targets[t], np.roll(values[t + 1], -positions[t].turn))
    assert zero.targets[-1][(winner - positions[-1].turn) % 4] == pytest.approx(1.0)


def test_a_game_nobody_won_ends_as_an_even_share(game: AnyRules):
    lrn = learner(game)
    net = small_net(game)
    positions, _ = play(lrn, net, (0, 1, 2), seed=7)
    drawn = samples(lrn, net, positions[-10:], None, lam=1.0)
    for state, target in zip(positions[-10:], drawn.targets, strict=True):
        assert np.allclose(np.roll(target, state.turn)[[0, 1, 2]], 1 / 3)


def test_the_gradient_matches_finite_differences(game: AnyRules):
    lrn = learner(game)
    net = small_net(game, hidden=6)
    positions, winner = play(lrn, net, (0, 1, 2, 3), seed=8)
    batch = Batch.of(samples(lrn, net, positions[:20], winner, lam=0.7), net.absent_unit)
    _, grads = gradients(net, batch)
    rng = np.random.default_rng(0)
    for array, grad in zip(net.arrays(), grads, strict=True):
        flat = array.reshape(-1)
        for index in rng.choice(flat.size, 3, replace=False):
            if array is net.sparse and index // array.shape[1] == net.pad_unit:
                continue
            saved = flat[index]
            flat[index] = saved + 1e-6
            up, _ = gradients(net, batch)
            flat[index] = saved - 1e-6
            down, _ = gradients(net, batch)
            flat[index] = saved
            assert grad.reshape(-1)[index] == pytest.approx((up - down) / 2e-6, abs=1e-6)


def test_adam_fitting_lowers_the_loss_on_a_fixed_batch(game: AnyRules):
    lrn = learner(game)
    net = small_net(game, hidden=12)
    positions, winner = play(lrn, net, (0, 2), seed=9)
    batch = Batch.of(samples(lrn, net, positions, winner, lam=1.0), net.absent_unit)
    adam = Adam([w.shape for w in net.arrays()], 0.01)
    before, _ = gradients(net, batch)
    for _ in range(50):
        _, grads = gradients(net, batch)
        adam.update(net.arrays(), grads)
    after, _ = gradients(net, batch)
    assert after < before * 0.8
    assert not net.sparse[net.pad_unit].any()  # the padding unit's row stays zero


def test_training_goes_on_from_its_checkpoint_exactly(game: AnyRules, tmp_path: Path):
    settings = Settings(game=game.kind, games=6, hidden=8, epochs=1)
    lines: list[dict[str, object]] = []
    straight = train(tmp_path / "straight", settings, 2, 1, lines.append)
    train(tmp_path / "pieces", settings, 1, 1, lines.append)
    resumed = train(tmp_path / "pieces", settings, 2, 2, lines.append)  # two workers too
    for a, b in zip(straight.net.arrays(), resumed.net.arrays(), strict=True):
        assert np.array_equal(a, b)
    assert [line["iteration"] for line in lines] == [1, 2, 1, 2]
    again = Checkpoint.load(tmp_path / "pieces" / "checkpoint.npz")
    assert again.iteration == 2 and again.adam.step == resumed.adam.step
    other = next(kind for kind in LEARNING if kind != game.kind)
    with pytest.raises(ValueError, match=f"training of {game.kind}"):
        train(tmp_path / "pieces", Settings(game=other), 3, 1, lines.append)


def test_the_training_tables_rotate_over_every_table_and_house_rule(game: AnyRules):
    lrn = learner(game)
    seen = [lrn.tables(k) for k in range(3000)]
    assert {len(colours) for colours, _ in seen[:12]} == {2, 3, 4}  # every size, early on
    for count in (2, 3, 4):
        assert {colours for colours, _ in seen if len(colours) == count} == set(
            game.colour_sets(count))
    every_set = {tuple(c) for n in range(len(game.house_rules) + 1)
                 for c in combinations(game.house_rules, n)}
    assert {house for _, house in seen} == every_set
    plain = sum(1 for _, house in seen if not house)
    assert plain >= len(seen) // 2  # the plain rules are half the games or more


def test_samples_join_in_order(game: AnyRules):
    lrn = learner(game)
    net = small_net(game)
    a = samples(lrn, net, *play(lrn, net, (0, 2), seed=1), lam=0.5)
    b = samples(lrn, net, *play(lrn, net, (1, 3), seed=2), lam=0.5)
    joined = Samples.join([a, b])
    assert joined.inputs == a.inputs + b.inputs
    assert np.array_equal(joined.targets, np.concatenate([a.targets, b.targets]))


# --- the search ----------------------------------------------------------------------------------

def test_the_shortlist_keeps_the_best_few_within_the_margin():
    values = np.array([0.30, 0.52, 0.50, 0.10, 0.47, 0.49])
    assert search.shortlist(values, count=3, margin=0.05) == [1, 2, 5]
    assert search.shortlist(values, count=5, margin=0.04) == [1, 2, 5]
    assert search.shortlist(values, count=2, margin=0.5) == [1, 2]


def test_the_rolls_weigh_one_in_all(game: AnyRules):
    lrn = learner(game)
    assert len(lrn.rolls) == len(lrn.roll_chances)
    assert sum(lrn.roll_chances) == pytest.approx(1.0)


def searched_position(game: AnyRules, net: Network) -> tuple[object, list]:
    """A position of a seeded game where the search has candidates to choose between."""
    lrn = learner(game)
    state = game.new_state((0, 1, 2, 3))
    dice = game.dice(5)
    while True:
        if state.phase in (Phase.MOVE, Phase.REWARD):
            ends = lrn.roll_ends(state)
            static = search.static_values(lrn, net, state, ends)
            limits = lrn.search
            if not isinstance(static, int) and not any(e.winner is not None for e in ends) \
                    and len(search.shortlist(static, limits.candidates, limits.margin)) > 1:
                return state, ends
        if game.rolling(state):
            state = game.apply(state, Roll(), dice)[0]
        else:
            state = game.decide(state, "medium").state


def test_expert_searches_its_candidates_and_stops_when_a_budget_runs_out(game: AnyRules):
    lrn = learner(game)
    net = small_net(game)
    state, ends = searched_position(game, net)
    static = search.static_values(lrn, net, state, ends)
    assert not isinstance(static, int)
    picks = search.shortlist(static, lrn.search.candidates, lrn.search.margin)
    budget = search.Budget(10**9, 60.0, time.perf_counter)
    deep = [search.one_ply(lrn, net, ends[k], state.turn) if lrn.search.depth == 1 else
            search.deep_value(lrn, net, ends[k], state.turn, lrn.search.depth, budget)
            for k in picks]
    assert search.choose(lrn, net, state, ends) == picks[int(np.argmax(deep))]
    ticks = iter(range(100))  # a clock that has already run out: the network's own choice
    assert search.choose(lrn, net, state, ends, clock=lambda: next(ticks)) == picks[0]
    assert search.greedy(lrn, net, state, ends) == picks[0]


def test_one_roll_deeper_is_the_first_ply_of_two(game: AnyRules):
    """The search two rolls ahead is made of the same ply: one roll ahead, it rates an end
    as the one-ply search does; two ahead, differently (it looks further)."""
    lrn = learner(game)
    net = small_net(game)
    state, ends = searched_position(game, net)
    me = state.turn
    budget = search.Budget(10**9, 60.0, time.perf_counter)
    for end in ends:
        one = search.one_ply(lrn, net, end, me)
        assert search.deep_value(lrn, net, end, me, 1, budget) == pytest.approx(one)
    two = [search.deep_value(lrn, net, end, me, 2, budget) for end in ends]
    assert all(value is not None and 0.0 <= value <= 1.0 for value in two)
    assert two != [search.one_ply(lrn, net, end, me) for end in ends]


def test_expert_takes_a_finish_without_searching(game: AnyRules):
    lrn = learner(game)
    net = small_net(game)
    state, ends = searched_position(game, net)
    me = state.turn
    home = game.home
    done = ends[-1].with_(pieces=tuple((home,) * 4 if c == me else p
                                       for c, p in enumerate(ends[-1].pieces)))
    assert search.choose(lrn, net, state, [*ends, done]) == len(ends)


# --- the shipped weights -------------------------------------------------------------------------

def test_the_shipped_weights_load_and_say_how_they_were_trained(game: AnyRules):
    lrn = learner(game)
    assert game.expert is not None
    for net, path in ((game.expert.network(), lrn.weights),
                      (game.expert.chance_network(), lrn.chance_weights or lrn.weights)):
        assert net.sparse.dtype == np.float32
        assert not net.sparse[net.pad_unit].any()
        note = json.loads(path.with_suffix(".json").read_text())
        assert {"settings", "iterations", "games", "training_hours", "machine",
                "command"} <= set(note)
        assert f"--game {game.kind} " in note["command"]
        assert path.stat().st_size < 3_000_000


def test_the_chances_weights_go_on_from_the_search_weights_training(game: AnyRules):
    """A game's chances weights, where it ships them, come from the same run as its search
    weights gone on with the teacher: the same settings up to the teacher's iteration."""
    lrn = learner(game)
    if lrn.chance_weights is None:
        assert game.expert is not None
        assert game.expert.chance_network() is game.expert.network()
        return
    search_note = json.loads(lrn.weights.with_suffix(".json").read_text())
    chances_note = json.loads(lrn.chance_weights.with_suffix(".json").read_text())
    teacher = chances_note["settings"]
    assert teacher["teacher_share"] > 0
    assert teacher["teacher_from"] == search_note["iterations"] < chances_note["iterations"]
    plain = {k: v for k, v in teacher.items() if not k.startswith("teacher_")}
    assert plain == {k: v for k, v in search_note["settings"].items()
                     if not k.startswith("teacher_")}


def test_the_chances_name_every_colour_playing(game: AnyRules):
    chances = game.win_chances([game.new_state((1, 3))])
    assert chances == [{1: 0.5, 3: 0.5}]


# --- a teacher's games ---------------------------------------------------------------------------

TAUGHT = [kind for kind in LEARNING if games()[kind].learner.teacher is not None]  # type: ignore[union-attr]


def test_a_share_of_the_games_is_the_teachers_whatever_their_table() -> None:
    assert not any(taught(2026, 90, k, 0.0) for k in range(500))
    assert all(taught(2026, 90, k, 1.0) for k in range(500))
    picked = [k for k in range(4000) if taught(2026, 90, k, 0.5)]
    assert 1850 <= len(picked) <= 2150
    assert {k % 12 for k in picked} == set(range(12))  # every table size and rule rotation
    assert picked != [k for k in range(4000) if taught(2026, 91, k, 0.5)]


@pytest.mark.parametrize("kind", TAUGHT)
def test_a_teachers_game_is_the_teachers_and_learns_from_who_won(kind: str) -> None:
    game = games()[kind]
    lrn, net = learner(game), small_net(game)
    taught_positions, winner = play(lrn, net, (0, 2), seed=5, taught=True)
    own_positions, _ = play(lrn, net, (0, 2), seed=5)
    assert winner in (0, 2)
    assert [lrn.key(s) for s in taught_positions] != [lrn.key(s) for s in own_positions]
    # Same dice, so the games part where the teacher first plays otherwise than the network
    assert lrn.key(taught_positions[0]) == lrn.key(own_positions[0])


def test_a_game_without_a_teacher_cannot_be_taught() -> None:
    plain = next((kind for kind in LEARNING if kind not in TAUGHT), None)
    if plain is None:
        pytest.skip("every game that learns has a teacher")
    game = games()[plain]
    with pytest.raises(ValueError, match="no teacher"):
        play(learner(game), small_net(game), (0, 2), seed=5, taught=True)


@pytest.mark.parametrize("kind", TAUGHT)
def test_a_teacher_joins_a_run_from_the_iteration_asked(kind: str, tmp_path: Path) -> None:
    plain = Settings(game=kind, games=4, hidden=8, epochs=1)
    lines: list[dict[str, object]] = []
    train(tmp_path, plain, 1, 1, lines.append)
    later = Settings(game=kind, games=4, hidden=8, epochs=1, teacher_share=0.5,
                     teacher_from=1)
    point = train(tmp_path, later, 2, 1, lines.append)
    assert point.settings.teacher_share == 0.5 and point.settings.share(0) == 0.0
    assert point.settings.share(1) == 0.5
    assert "--teacher-share 0.5 --teacher-from 1 --iterations 2" in point.settings.command(2)
    # Asked for from an iteration already done, it would change the past: the run keeps
    # the checkpoint's settings
    too_late = Settings(game=kind, games=4, hidden=8, epochs=1, teacher_share=0.25,
                        teacher_from=0)
    assert train(tmp_path, too_late, 3, 1, lines.append).settings.teacher_share == 0.5
    assert Checkpoint.load(tmp_path / "checkpoint.npz").settings.teacher_from == 1
