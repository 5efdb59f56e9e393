"""The post-game charts' data (``parcheesi/charts.py``): the race of every colour roll by
roll with its captures, and the luck of each player's dice against the fair average, for
Parcheesi (two dice, doubles) and Ludo (one die, sixes)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from parcheesi.core.events import Captured, OpeningRolled, Rolled
from parcheesi.core.registry import rules_for
from parcheesi.core.state import Phase
from parcheesi.games.ludo.game import GAME as LUDO_RULES
from parcheesi.games.parcheesi.game import GAME as PARCHEESI_RULES
from parcheesi.games.parcheesi.state import new_state
from parcheesi.server.charts import Capture, charts_of, luck_of
from parcheesi.server.records import read_record, record_of, replay
from tests.record_helpers import committed_row, play_random

RUBY, EMERALD, SAPPHIRE, AMBER = range(4)


def finished(kind: str, colours: tuple[int, ...], n: int):
    """The replayed steps of a finished game played by random players."""
    row = committed_row(kind, colours, n)
    actions, _ = play_random(row, n)
    return replay(read_record(record_of(row, actions)))


@pytest.fixture(scope="module")
def parcheesi_steps():
    return finished("parcheesi", (RUBY, EMERALD, SAPPHIRE), 3)


@pytest.fixture(scope="module")
def ludo_steps():
    return finished("ludo", (0, 1, 2, 3), 5)


def rolled(steps) -> list[Rolled]:
    return [e for s in steps for e in s.events if isinstance(e, Rolled)]


def test_the_race_starts_at_nothing_and_ends_with_the_winner_home(parcheesi_steps) -> None:
    race = charts_of(PARCHEESI_RULES, parcheesi_steps).race
    final = parcheesi_steps[-1].state
    assert race.colours == (RUBY, EMERALD, SAPPHIRE) and race.full == 4 * 72
    assert race.rolls == len(rolled(parcheesi_steps))
    for colour in race.colours:
        assert len(race.progress[colour]) == race.rolls + 1
        assert race.progress[colour][0] == 0
        assert race.progress[colour][-1] == PARCHEESI_RULES.progress(final, colour)
    assert race.share(final.winner, race.rolls) == 100.0


def test_a_colour_moves_only_on_its_own_rolls_unless_captured(parcheesi_steps) -> None:
    """Between two points only the roller goes forward; anyone else can only drop, and
    only when captured by those moves."""
    charts = charts_of(PARCHEESI_RULES, parcheesi_steps)
    race, rollers = charts.race, [e.colour for e in rolled(parcheesi_steps)]
    captured = {(c.roll, c.victim) for c in race.captures}
    for k, roller in enumerate(rollers, start=1):
        for colour in race.colours:
            change = race.progress[colour][k] - race.progress[colour][k - 1]
            if colour != roller:
                assert change == 0 or (change < 0 and (k, colour) in captured)


def test_a_capture_shows_as_a_drop_of_the_captured_colour_and_a_mark(parcheesi_steps,
                                                                     ludo_steps) -> None:
    for rules, steps in ((PARCHEESI_RULES, parcheesi_steps), (LUDO_RULES, ludo_steps)):
        race = charts_of(rules, steps).race
        made = [c for s in steps for c in rules.captures(s.events)]
        assert [(c.by, c.victim) for c in race.captures] == made and made, rules.kind
        for capture in race.captures:
            line = race.progress[capture.victim]
            assert line[capture.roll] < line[capture.roll - 1], capture
            assert capture.by != capture.victim


def test_a_capture_is_marked_at_the_roll_whose_moves_made_it() -> None:
    """A Move step after the second roll captures: the mark is at roll 2, not 3."""
    def step(events, pieces):
        return SimpleNamespace(events=events, state=new_state((RUBY, SAPPHIRE)).with_(
            phase=Phase.ROLL, pieces=pieces))
    start, far = (-1,) * 4, (10, -1, -1, -1)
    steps = [step([], (start, (), start, ())),
             step([Rolled(RUBY, (5, 3), (5, 3))], (start, (), start, ())),
             step([], ((0, -1, -1, -1), (), start, ())),
             step([Rolled(SAPPHIRE, (6, 6), (6, 6, 1, 1))], ((0, -1, -1, -1), (), start, ())),
             step([], ((0, -1, -1, -1), (), far, ())),
             step([Rolled(RUBY, (2, 2), (2, 2, 5, 5))], ((0, -1, -1, -1), (), far, ())),
             step([Captured(SAPPHIRE, 0, RUBY, 0, 10)], ((14, -1, -1, -1), (), start, ()))]
    race = charts_of(PARCHEESI_RULES, steps).race
    assert race.captures == [Capture(roll=3, by=RUBY, victim=SAPPHIRE)]
    assert race.progress == {RUBY: [0, 1, 1, 15], SAPPHIRE: [0, 0, 11, 0]}


def test_the_opening_rolls_are_not_counted() -> None:
    steps = [SimpleNamespace(events=[], state=new_state((RUBY, SAPPHIRE)))]
    steps.append(SimpleNamespace(events=[OpeningRolled(RUBY, (6, 6))], state=steps[0].state))
    charts = charts_of(PARCHEESI_RULES, steps)
    assert charts.race.rolls == 0 and all(luck.rolls == 0 for luck in charts.luck)


def test_the_totals_are_the_sums_of_the_dice_each_player_rolled(parcheesi_steps,
                                                                ludo_steps) -> None:
    for rules, steps in ((PARCHEESI_RULES, parcheesi_steps), (LUDO_RULES, ludo_steps)):
        events = rolled(steps)
        for luck in charts_of(rules, steps).luck:
            own = [e.dice for e in events if e.colour == luck.colour]
            assert luck.rolls == len(own) > 0
            assert luck.pips == sum(sum(d) for d in own)
            assert all(len(d) == rules.dice_count for d in own)


def test_parcheesi_averages_seven_pips_a_roll_and_doubles_one_roll_in_six(
        parcheesi_steps) -> None:
    charts = charts_of(PARCHEESI_RULES, parcheesi_steps)
    assert charts.lucky_name == "doubles"
    events = rolled(parcheesi_steps)
    for luck in charts.luck:
        assert luck.average_pips == luck.rolls * 7
        assert luck.average_lucky == pytest.approx(luck.rolls / 6)
        assert luck.lucky == sum(1 for e in events
                                 if e.colour == luck.colour and e.dice[0] == e.dice[1])


def test_ludo_averages_three_and_a_half_pips_a_roll_and_sixes_one_roll_in_six(
        ludo_steps) -> None:
    charts = charts_of(LUDO_RULES, ludo_steps)
    assert charts.lucky_name == "sixes"
    assert charts.race.full == 4 * 57
    events = rolled(ludo_steps)
    for luck in charts.luck:
        assert luck.average_pips == luck.rolls * 3.5
        assert luck.average_lucky == pytest.approx(luck.rolls / 6)
        assert luck.lucky == sum(1 for e in events
                                 if e.colour == luck.colour and e.dice == (6,))


def test_lucky_rolls_are_each_games_own() -> None:
    """Parcheesi's doubles and Ludo's sixes, said by each game (the charts knew both)."""
    doubles, sixes = PARCHEESI_RULES.lucky.test, LUDO_RULES.lucky.test
    assert doubles((3, 3)) and doubles((6, 6)) and not doubles((6, 5))
    assert sixes((6,)) and not sixes((5,))
    luck = luck_of(AMBER, [(1, 1), (2, 5), (6, 6)], 2, PARCHEESI_RULES.lucky)
    assert (luck.rolls, luck.pips, luck.lucky, luck.average_pips) == (3, 21, 2, 21.0)
    assert luck.average_lucky == pytest.approx(0.5)


def test_progress_counts_squares_from_start_for_both_games() -> None:
    parcheesi = rules_for("parcheesi").new_state((RUBY, SAPPHIRE))
    assert PARCHEESI_RULES.progress(parcheesi, RUBY) == 0
    moved = parcheesi.with_(pieces=((0, 10, 71, -1), (), (-1,) * 4, ()))
    assert PARCHEESI_RULES.progress(moved, RUBY) == 1 + 11 + 72 + 0
    assert PARCHEESI_RULES.progress(moved.with_(pieces=((71,) * 4, (), (), ())), RUBY) \
        == PARCHEESI_RULES.full_progress
    ludo = rules_for("ludo").new_state((0, 2))
    assert LUDO_RULES.progress(ludo, 0) == 0 and LUDO_RULES.full_progress == 4 * 57


@pytest.mark.parametrize("game", ["parcheesi", "ludo"])
def test_the_chances_follow_the_race_points_and_end_with_the_winner(
        game: str, request: pytest.FixtureRequest) -> None:
    steps = request.getfixturevalue(f"{game}_steps")
    charts = charts_of(rules_for(game), steps)
    chances, race = charts.chances, charts.race
    assert chances is not None and set(chances) == set(race.colours)
    winner = steps[-1].state.winner
    for colour, line in chances.items():
        assert len(line) == race.rolls + 1
        assert all(0 <= value <= 100 for value in line)
        assert line[-1] == (100.0 if colour == winner else 0.0)
    for k in range(race.rolls + 1):  # the chances of one point add up to one
        assert sum(chances[c][k] for c in race.colours) == pytest.approx(100, abs=0.2)
    assert {chances[c][0] for c in race.colours} != {100.0}
    assert chances[winner][charts.decided] == 100.0
    assert all(chances[winner][k] < 100.0 for k in range(charts.decided))

