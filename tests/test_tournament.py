"""Tournaments (``parcheesi/server/tournament/``): the command line's contract
(``docs/contracts.md``, "tournament") through a subprocess, then the pure drawing, seating
and scoring functions with made-up places, so the pairing rules are checked without
playing a game.

All-computer runs use the ``random`` and ``easy`` levels, which decide in microseconds.
"""

from __future__ import annotations

import itertools
import json
import random
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from parcheesi.server.tournament import (
    Entrant,
    Settings,
    Table,
    Tournament,
    TournamentError,
    champion,
    create,
    knockout,
    next_round,
    over,
    play,
    record,
    standings,
    swiss,
)
from parcheesi.server.tournament.scoring import points

ROOT = Path(__file__).resolve().parent.parent
SIXTEEN = ",".join(["random", "easy"] * 8)
EIGHT = ",".join(["easy", "random"] * 4)


def cli(*args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "parcheesi", "tournament", *args],
                          capture_output=True, cwd=ROOT, timeout=120)


def answer(*args: str) -> dict[str, Any]:
    done = cli(*args, "--json")
    assert done.returncode == 0 and done.stderr == b"", done.stderr.decode()
    result: dict[str, Any] = json.loads(done.stdout)
    assert set(result) == {"format", "game", "entrants", "rounds", "standings", "champion"}
    return result


def check_table_points(table: dict[str, Any]) -> None:
    """Each place's points at the table's size, first to last (no shared place here)."""
    scale = {2: [6, 0], 3: [6, 3, 0], 4: [6, 4, 2, 0]}[len(table["seats"])]
    assert sorted(table["places"]) == sorted(table["seats"])
    assert [table["points"][e] for e in table["places"]] == scale


# --- the command line --------------------------------------------------------------------------

def test_a_knockout_of_16_at_tables_of_four_sends_the_first_two_on_to_one_final() -> None:
    result = answer("--format", "knockout", "--entrants", SIXTEEN, "--table-size", "4",
                    "--advance", "2", "--seed", "5")
    assert result["format"] == "knockout" and result["game"] == "parcheesi"
    assert result["entrants"][:4] == ["random-1", "easy-1", "random-2", "easy-2"]
    assert len(set(result["entrants"])) == 16
    rounds = [r["tables"] for r in result["rounds"]]
    assert [len(tables) for tables in rounds] == [4, 2, 1]
    first = [e for table in rounds[0] for e in table["seats"]]
    assert sorted(first) == sorted(result["entrants"])  # everyone once, no filler
    for tables, following in itertools.pairwise(rounds):
        through = {e for table in tables for e in table["places"][:2]}
        assert {e for table in following for e in table["seats"]} == through
    for table in (t for tables in rounds for t in tables):
        assert len(table["seats"]) == len(set(table["seats"])) == 4
        check_table_points(table)
    final = rounds[-1][0]
    assert result["champion"] == final["places"][0]
    assert result["standings"][0][0] == result["champion"]
    assert len(result["standings"]) == 16


def test_a_swiss_of_8_over_3_rounds_seats_everyone_and_sorts_the_standings() -> None:
    result = answer("--format", "swiss", "--entrants", EIGHT, "--rounds", "3", "--seed", "2")
    assert len(result["rounds"]) == 3
    totals = dict.fromkeys(result["entrants"], 0)
    for round_ in result["rounds"]:
        seated = [e for table in round_["tables"] for e in table["seats"]]
        assert sorted(seated) == sorted(result["entrants"])
        for table in round_["tables"]:
            assert len(table["seats"]) == 4
            check_table_points(table)
            for entrant, score in table["points"].items():
                totals[entrant] += score
    table = result["standings"]
    assert {entrant: score for entrant, score in table} == totals
    assert [score for _, score in table] == sorted(totals.values(), reverse=True)
    assert result["champion"] == table[0][0]


def test_the_same_seed_gives_the_same_bytes_and_another_seed_other_games() -> None:
    args = ("--format", "knockout", "--entrants", EIGHT, "--seed", "9", "--json")
    first, again, other = cli(*args), cli(*args), cli(*args[:-2], "10", "--json")
    assert first.returncode == again.returncode == other.returncode == 0
    assert first.stdout == again.stdout
    assert first.stdout != other.stdout


def test_without_json_it_prints_a_summary_for_people() -> None:
    done = cli("--game", "ludo", "--format", "robin", "--entrants", "easy,random,easy",
               "--rounds", "2", "--house", "stars", "--seed", "1")
    assert done.returncode == 0 and done.stderr == b""
    lines = done.stdout.decode().splitlines()
    assert lines[0] == "robin of ludo: 3 entrants"
    assert lines[1] == "round 1" and lines[3] == "round 2"
    assert lines[-2].startswith("standings: ") and lines[-1].startswith("champion: ")


@pytest.mark.parametrize("args", [
    ("--format", "league", "--entrants", EIGHT, "--seed", "1"),
    ("--format", "knockout", "--entrants", "easy,easy,easy", "--seed", "1"),
    ("--format", "swiss", "--entrants", "easy", "--seed", "1"),
    ("--format", "robin", "--entrants", "easy,easy,easy,easy,easy", "--seed", "1"),
    ("--format", "knockout", "--entrants", EIGHT, "--advance", "4", "--seed", "1"),
    ("--format", "knockout", "--entrants", EIGHT, "--advance", "0", "--seed", "1"),
    ("--format", "swiss", "--entrants", EIGHT, "--rounds", "0", "--seed", "1"),
    ("--format", "swiss", "--entrants", EIGHT, "--table-size", "5", "--seed", "1"),
    ("--format", "swiss", "--entrants", EIGHT, "--table-size", "1", "--seed", "1"),
    ("--format", "swiss", "--entrants", "easy,easy,easy", "--table-size", "2", "--seed", "1"),
    ("--format", "swiss", "--entrants", "easy,wizard", "--seed", "1"),
    ("--format", "swiss", "--entrants", "easy,grace", "--game", "ludo", "--seed", "1"),
    ("--format", "knockout", "--entrants", EIGHT, "--filler", "wizard", "--seed", "1"),
    ("--format", "swiss", "--entrants", EIGHT, "--game", "chess", "--seed", "1"),
    ("--format", "swiss", "--entrants", EIGHT, "--house", "stars", "--seed", "1"),
    ("--format", "swiss", "--entrants", EIGHT, "--seed"),
    ("--format", "swiss", "--entrants", EIGHT, "--seed", "x"),
    ("--format", "swiss", "--entrants", EIGHT),
    ("--entrants", EIGHT, "--seed", "1"),
    ("--format", "swiss", "--entrants", EIGHT, "--seed", "1", "--bogus"),
])
def test_bad_arguments_exit_2_with_one_line_and_nothing_on_stdout(args: tuple[str, ...]
                                                                  ) -> None:
    done = cli(*args, "--json")
    assert (done.returncode, done.stdout) == (2, b""), done.stderr.decode()
    message = done.stderr.decode()
    assert message.startswith("error: ") and message.count("\n") == 1, message


# --- all-computer play, in process -------------------------------------------------------------

def test_play_is_the_same_every_time_and_places_every_table() -> None:
    rules = Settings("swiss", table_size=3, rounds=2)
    first = play.play("ludo", rules, ["easy", "random"] * 3, 4, ("stars",))
    assert first == play.play("ludo", rules, ["easy", "random"] * 3, 4, ("stars",))
    assert over(first) and champion(first) == standings(first)[0][0]
    assert [len(r.tables) for r in first.rounds] == [2, 2]


def test_a_game_stopped_at_the_roll_cap_is_placed_by_its_standings(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(play, "MAX_ROLLS", 6)
    done = play.play("parcheesi", Settings("robin", rounds=1), ["easy", "random"], 1)
    table = done.rounds[0].tables[0]
    assert sorted(table.seats) == ["easy-1", "random-1"] and table.places is not None
    assert sorted(table.places) == [1, 2] and champion(done) == table.finish()[0][0]


# --- the pure functions ------------------------------------------------------------------------

def people(count: int) -> list[Entrant]:
    """p1..pN, rated in that order (p1 the highest)."""
    return [Entrant(f"p{k}", rating=count - k) for k in range(1, count + 1)]


Placing = Callable[[Table], dict[str, int]]


def by_seat(table: Table) -> dict[str, int]:
    """The first seated wins, and so on."""
    return {entrant: k + 1 for k, entrant in enumerate(table.seats)}


def reversed_seats(table: Table) -> dict[str, int]:
    return {entrant: len(table.seats) - k for k, entrant in enumerate(table.seats)}


def play_out(tournament: Tournament, placing: Placing = by_seat) -> Tournament:
    """Every round drawn and recorded with ``placing``."""
    while (drawn := next_round(tournament)) is not None:
        number = len(drawn.rounds) - 1
        for k, table in enumerate(drawn.rounds[-1].tables):
            drawn = record(drawn, number, k, placing(table))
        tournament = drawn
    return tournament


def met_twice(tournament: Tournament) -> list[frozenset[str]]:
    pairs = [frozenset(pair) for r in tournament.rounds for t in r.tables
             for pair in itertools.combinations(t.seats, 2)]
    return [pair for pair in set(pairs) if pairs.count(pair) > 1]


def test_the_first_knockout_round_snakes_the_seeds_over_the_tables() -> None:
    drawn = next_round(create(Settings("knockout"), people(16)))
    assert drawn is not None
    assert [t.seats for t in drawn.rounds[0].tables] == [
        ("p1", "p8", "p9", "p16"), ("p2", "p7", "p10", "p15"),
        ("p3", "p6", "p11", "p14"), ("p4", "p5", "p12", "p13")]
    shuffled = [Entrant(e.id, rating=e.rating) for e in reversed(people(16))]
    again = next_round(create(Settings("knockout"), shuffled))
    assert again is not None and again.rounds == drawn.rounds  # rating, not entrant order


def test_the_table_winners_are_spread_over_the_next_round() -> None:
    done = play_out(create(Settings("knockout"), people(16)), reversed_seats)
    # the winners p13..p16 (by seed), then the seconds p9..p12, in a snake over two tables
    second = [t.seats for t in done.rounds[1].tables]
    assert second == [("p13", "p16", "p9", "p12"), ("p14", "p15", "p10", "p11")]
    assert champion(done) == done.rounds[2].tables[0].finish()[0][0]


@pytest.mark.parametrize(("count", "size", "advance", "shape", "fillers"), [
    (6, 4, 2, [2, 1], 2),  # two tables of four with one filler each, then a final of four
    (5, 4, 2, [2, 1], 3),
    (4, 4, 2, [1], 0),  # one full table is already the final
    (8, 4, 1, [2, 1], 0),  # a final of two
    (3, 2, 1, [2, 1], 1),
    (6, 4, 3, [2, 1], 2),  # three of four would need two tables again: two go through
    (9, 4, 3, [3, 2, 1], 5),
    (17, 4, 2, [5, 3, 2, 1], 7),
])
def test_awkward_knockout_counts_fill_whole_tables_and_never_seat_one(
        count: int, size: int, advance: int, shape: list[int], fillers: int) -> None:
    settings = Settings("knockout", table_size=size, advance=advance, filler="easy")
    done = play_out(create(settings, people(count)))
    assert [len(r.tables) for r in done.rounds] == shape
    assert [tables for tables, _ in knockout.shape(count, size, advance)] == shape
    added = [e for e in done.entrants if e.filler]
    assert [e.id for e in added] == [f"easy-computer-{k}" for k in range(1, fillers + 1)]
    assert all(e.level == "easy" for e in added)
    for round_ in done.rounds[:-1]:
        assert all(len(table.seats) == size for table in round_.tables)
    assert 2 <= len(done.rounds[-1].tables[0].seats) <= size
    if fillers:
        first = done.rounds[0].tables
        assert max(sum(e.startswith("easy-computer") for e in t.seats) for t in first) <= (
            -(-fillers // len(first)))  # the fillers spread over the tables


def test_a_knockout_short_of_entrants_needs_a_filler_level() -> None:
    with pytest.raises(TournamentError, match="need 2 computer entrants"):
        create(Settings("knockout"), people(6))
    assert create(Settings("knockout"), people(16)).settings.filler is None


def test_a_shared_place_at_the_cut_goes_to_the_one_seated_first() -> None:
    drawn = next_round(create(Settings("knockout", advance=1), people(8)))
    assert drawn is not None
    table = drawn.rounds[0].tables[0]
    assert table.seats == ("p1", "p4", "p5", "p8")
    drawn = record(drawn, 0, 0, {"p1": 3, "p4": 1, "p5": 3, "p8": 1})
    drawn = record(drawn, 0, 1, by_seat(drawn.rounds[0].tables[1]))
    final = next_round(drawn)
    assert final is not None and set(final.rounds[1].tables[0].seats) == {"p4", "p2"}
    final = record(final, 1, 0, {"p4": 1, "p2": 1})
    assert champion(final) == final.rounds[1].tables[0].seats[0]
    assert next_round(final) is None


def test_points_follow_the_place_a_shared_place_scoring_as_that_place() -> None:
    seats = ("a", "b", "c", "d")
    assert points(Table(seats, (1, 2, 3, 4))) == {"a": 6, "b": 4, "c": 2, "d": 0}
    assert points(Table(seats, (1, 1, 3, 4))) == {"a": 6, "b": 6, "c": 2, "d": 0}
    assert points(Table(seats, (1, 2, 2, 4))) == {"a": 6, "b": 4, "c": 4, "d": 0}
    assert points(Table(seats[:3], (2, 1, 3))) == {"a": 3, "b": 6, "c": 0}
    assert points(Table(seats[:3], (1, 2, 2))) == {"a": 6, "b": 3, "c": 3}
    assert points(Table(seats[:2], (2, 1))) == {"a": 0, "b": 6}
    assert points(Table(seats[:2], (1, 1))) == {"a": 6, "b": 6}
    assert Table(seats, (1, 1, 3, 4)).finish() == [("a", 1), ("b", 1), ("c", 3), ("d", 4)]


def test_swiss_tables_of_three_and_two_score_their_own_points() -> None:
    done = play_out(create(Settings("swiss", rounds=2), people(5)))
    for round_ in done.rounds:
        assert [len(t.seats) for t in round_.tables] == [3, 2]
    first = done.rounds[0].tables
    assert [t.seats for t in first] == [("p1", "p2", "p3"), ("p4", "p5")]
    # p1 and p4 lead with 6; p4 and p5 met, and p1 met p2 and p3, so the first table has a
    # rematch whoever sits at it: p1, p4, then the best placed, p2. p5 (a second, at a
    # table of two) stands before p3 (a third) on equal points.
    assert [t.seats for t in done.rounds[1].tables] == [("p1", "p4", "p2"), ("p5", "p3")]
    assert standings(done) == [("p1", 12), ("p4", 9), ("p5", 6), ("p2", 3), ("p3", 0)]


@pytest.mark.parametrize(("count", "size", "rounds"), [(8, 2, 3), (16, 4, 3), (9, 3, 4)])
@pytest.mark.parametrize("seed", range(5))
def test_swiss_avoids_rematches_when_the_standings_allow(count: int, size: int, rounds: int,
                                                         seed: int) -> None:
    rng = random.Random(seed)

    def shuffled(table: Table) -> dict[str, int]:
        order = list(table.seats)
        rng.shuffle(order)
        return {entrant: k + 1 for k, entrant in enumerate(order)}

    done = play_out(create(Settings("swiss", table_size=size, rounds=rounds),
                           people(count)), shuffled)
    assert met_twice(done) == []
    for round_ in done.rounds:
        assert sorted(e for t in round_.tables for e in t.seats) == sorted(
            e.id for e in done.entrants)


def test_swiss_keeps_rematches_fewest_when_some_are_unavoidable() -> None:
    """Eight at two tables of four: the second round's tables each take two players
    from each first-round table, two rematched pairs a table and no more."""
    done = play_out(create(Settings("swiss", rounds=2), people(8)))
    second = done.rounds[1].tables
    assert swiss.rematches([t.seats for t in second], swiss.met(
        Tournament(done.settings, done.entrants, done.rounds[:1]))) == 4
    assert second[0].seats[0] == standings(Tournament(done.settings, done.entrants,
                                                      done.rounds[:1]))[0][0]


def test_swiss_standings_break_ties_by_places_then_rating_then_entrant_order() -> None:
    entrants = [Entrant("a", 1), Entrant("b", 5), Entrant("c", 5), Entrant("d", 0)]
    tournament = create(Settings("swiss", table_size=4, rounds=2), entrants)
    drawn = next_round(tournament)
    assert drawn is not None and drawn.rounds[0].tables[0].seats == ("b", "c", "a", "d")
    drawn = record(drawn, 0, 0, {"a": 1, "b": 2, "c": 2, "d": 4})  # 6, 4, 4, 0
    second = next_round(drawn)
    assert second is not None
    done = record(second, 1, 0, {"d": 1, "b": 2, "c": 2, "a": 4})  # 6, 4, 4, 0
    # a and d: 6 points and one first each; a is rated higher. b and c: 8 points, equal
    # places and rating; b was given first.
    assert standings(done) == [("b", 8), ("c", 8), ("a", 6), ("d", 6)]
    assert champion(done) == "b"


def test_a_round_robin_of_three_plays_n_games_with_the_seats_turning() -> None:
    done = play_out(create(Settings("robin", rounds=4), people(3)))
    assert [r.tables[0].seats for r in done.rounds] == [
        ("p1", "p2", "p3"), ("p2", "p3", "p1"), ("p3", "p1", "p2"), ("p1", "p2", "p3")]
    assert standings(done) == [("p1", 15), ("p2", 12), ("p3", 9)]
    assert over(done) and champion(done) == "p1"


def test_record_refuses_what_is_not_the_tables_result() -> None:
    drawn = next_round(create(Settings("swiss", rounds=2), people(4)))
    assert drawn is not None
    with pytest.raises(TournamentError, match="not finished"):
        next_round(drawn)
    with pytest.raises(TournamentError, match="exactly the table's players"):
        record(drawn, 0, 0, {"p1": 1, "p2": 2, "p3": 3})
    with pytest.raises(TournamentError, match="not the places"):
        record(drawn, 0, 0, {"p1": 1, "p2": 2, "p3": 2, "p4": 3})
    with pytest.raises(TournamentError, match="not the places"):
        record(drawn, 0, 0, {"p1": 1, "p2": 2, "p3": 3, "p4": True})
    with pytest.raises(TournamentError, match="no table 2"):
        record(drawn, 0, 1, by_seat(drawn.rounds[0].tables[0]))
    with pytest.raises(TournamentError, match="round 2 is not"):
        record(drawn, 1, 0, by_seat(drawn.rounds[0].tables[0]))
    done = record(drawn, 0, 0, by_seat(drawn.rounds[0].tables[0]))
    assert record(done, 0, 0, by_seat(drawn.rounds[0].tables[0])) == done  # a retry
    with pytest.raises(TournamentError, match="already recorded"):
        record(done, 0, 0, reversed_seats(drawn.rounds[0].tables[0]))
    assert champion(done) is None and not over(done)


@pytest.mark.parametrize(("fields", "count", "message"), [
    (dict(format="cup"), 4, "unknown format"),
    (dict(format="swiss", table_size=5), 4, "seats 2 to 4"),
    (dict(format="knockout", advance=4), 8, "1 to 3"),
    (dict(format="knockout", table_size=3, advance=0), 8, "1 to 2"),
    (dict(format="swiss", rounds=0), 4, "1 to 12 rounds"),
    (dict(format="robin", rounds=10 ** 20), 4, "1 to 12 rounds"),  # played on for ever
    (dict(format="knockout"), 3, "at least 4 entrants"),
    (dict(format="swiss"), 1, "at least 2 entrants"),
    (dict(format="swiss", table_size=2), 5, "even number"),
    (dict(format="robin"), 5, "at most 4"),
    (dict(format="knockout", filler=""), 8, "filler level"),
])
def test_settings_and_entrants_the_formats_cannot_play_are_refused(
        fields: dict[str, Any], count: int, message: str) -> None:
    with pytest.raises(TournamentError, match=message):
        create(Settings(**fields), people(count))


def test_entrants_need_unique_ids() -> None:
    with pytest.raises(TournamentError, match="twice"):
        create(Settings("swiss"), [Entrant("a"), Entrant("a")])
    with pytest.raises(TournamentError, match="needs an id"):
        create(Settings("swiss"), [Entrant("a"), Entrant("")])


def test_the_advance_defaults_to_half_the_table() -> None:
    assert [Settings("knockout", table_size=n).advance for n in (2, 3, 4)] == [1, 1, 2]


def test_json_round_trips_and_refuses_what_it_did_not_write() -> None:
    settings = Settings("knockout", filler="random")
    done = play_out(create(settings, people(6)), reversed_seats)
    stored = json.loads(json.dumps(done.to_json()))
    assert Tournament.from_json(stored) == done
    assert Tournament.from_json(stored).to_json() == stored
    halfway = next_round(create(settings, people(6)))
    assert halfway is not None
    assert Tournament.from_json(json.loads(json.dumps(halfway.to_json()))) == halfway
    for broken in (None, [], {**stored, "extra": 1}, {**stored, "entrants": {}},
                   {**stored, "settings": {**stored["settings"], "table_size": "4"}},
                   {**stored, "rounds": [{"tables": [{"seats": ["p1"], "places": None}]}]},
                   {**stored, "rounds": [{"tables": [{"seats": ["p1", "zz"],
                                                      "places": None}]}]},
                   {**stored, "entrants": [{**stored["entrants"][0], "rating": "1"}]}):
        with pytest.raises(TournamentError):
            Tournament.from_json(broken)


# --- properties --------------------------------------------------------------------------------

def ranking(rng: random.Random, seats: Sequence[str]) -> dict[str, int]:
    """Random places for ``seats``, with shared places now and then."""
    order = list(seats)
    rng.shuffle(order)
    places: dict[str, int] = {}
    for k, entrant in enumerate(order):
        shared = k > 0 and rng.random() < 0.3
        places[entrant] = places[order[k - 1]] if shared else k + 1
    return places


@st.composite
def knockouts(draw: st.DrawFn) -> tuple[Settings, int, int]:
    size = draw(st.integers(2, 4))
    advance = draw(st.integers(1, size - 1))
    count = draw(st.integers(size, 40))
    return Settings("knockout", table_size=size, advance=advance, filler="easy"), count, draw(
        st.integers(0, 2**32))


@settings(max_examples=120, deadline=None)
@given(knockouts())
def test_a_knockout_always_ends_with_one_champion(case: tuple[Settings, int, int]) -> None:
    settings_, count, seed = case
    rng = random.Random(seed)
    done = play_out(create(settings_, people(count)),
                    lambda table: ranking(rng, table.seats))
    assert [len(r.tables) for r in done.rounds] == [
        tables for tables, _ in knockout.shape(count, settings_.table_size,
                                               settings_.advance)]
    for round_, following in itertools.pairwise(done.rounds):
        sent = knockout.going_through(len(round_.tables), settings_.table_size,
                                      settings_.advance)
        through = {e for t in round_.tables for e, _ in t.finish()[:sent]}
        assert through <= {e for t in following.tables for e in t.seats}
    for round_ in done.rounds:
        seated = [e for t in round_.tables for e in t.seats]
        assert len(seated) == len(set(seated))
        assert all(2 <= len(t.seats) <= settings_.table_size for t in round_.tables)
    assert len(done.rounds[-1].tables) == 1 and over(done)
    winner = champion(done)
    assert winner is not None and winner == done.rounds[-1].tables[0].finish()[0][0]
    assert standings(done)[0][0] == winner
