"""People and their ratings: who a browser is, what the host may change, and OpenSkill's
ratings from the places of finished games, incremental and rebuilt alike."""

from __future__ import annotations

import asyncio
import json
import random
import subprocess
import sys
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from openskill.models import PlackettLuce
from people_helpers import START, finished_game, game_id

from parcheesi.core.registry import rules_for
from parcheesi.server.leaderboard import leaderboard, profile
from parcheesi.server.live import COMPUTER, HUMAN, Seat
from parcheesi.server.people import LINK_MINUTES, People, PersonError
from parcheesi.server.ratings import Ratings, shown
from parcheesi.server.store import Store

ROOT = Path(__file__).resolve().parent.parent


class Wall:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> datetime:
        return self.now


class Wire:
    """The notices between the processes of a cluster, in memory: whatever one tells,
    every listener hears."""

    def __init__(self) -> None:
        self.listeners: dict[str, list] = {}
        self.told: list[tuple[str, str]] = []

    def listen(self, topic: str, listener) -> None:
        self.listeners.setdefault(topic, []).append(listener)

    async def send(self, topic: str, text: str) -> None:
        self.told.append((topic, text))
        for listener in self.listeners.get(topic, []):
            await listener(text)

    def tell(self, topic: str, text: str) -> None:
        self.told.append((topic, text))
        for listener in self.listeners.get(topic, []):
            asyncio.get_running_loop().create_task(listener(text))


def computers(levels: list[str], colours: tuple[int, ...]) -> list[Seat]:
    return [Seat(c, COMPUTER, level) for c, level in zip(colours, levels, strict=True)]


@pytest.fixture
async def house(database_url):
    store = Store(database_url)
    wall = Wall()
    people = People(store, wall)
    yield store, people, Ratings(store, people), wall
    await store.close()


async def board(ratings: Ratings, people: People, kind: str) -> list[tuple[str, int, int]]:
    everyone = {p.id: p for p in await people.everyone(computers=True)}
    return [(e.person.name, e.rating, e.games)
            for e in leaderboard(await ratings.results_of(kind), everyone)]


async def test_a_browser_becomes_a_person_and_a_forged_token_finds_nobody(house):
    _, people, _, _ = house
    ann, token = await people.add("  Ann  ", "🦊")
    assert ann.name == "Ann" and ann.emoji == "🦊"
    assert await people.of_token(token) == ann
    for forged in (token[:-1] + ("A" if token[-1] != "A" else "B"), "", None, 7, "x" * 500,
                   ["token"]):
        assert await people.of_token(forged) is None
    with pytest.raises(PersonError, match="already here"):
        await people.add("ann")
    for bad in ("", "   ", "x" * 25, "Guest", "a\x00b", 5):
        with pytest.raises(PersonError):
            await people.add(bad)
    with pytest.raises(PersonError, match="emoji"):
        await people.add("Ben", "BEN")
    assert [p.name for p in await people.everyone()] == ["Ann"]


async def test_a_second_device_by_a_one_time_link_that_runs_out(house):
    _, people, _, wall = house
    ann, _ = await people.add("Ann")
    code = await people.link(ann.id)
    person, token = await people.redeem(code)
    assert person == ann and await people.of_token(token) == ann
    with pytest.raises(PersonError, match="does not work"):
        await people.redeem(code)  # used
    late = await people.link(ann.id)
    wall.now += timedelta(minutes=LINK_MINUTES, seconds=1)
    with pytest.raises(PersonError, match="does not work"):
        await people.redeem(late)
    for forged in ("made-up-code", "", None, 12):
        with pytest.raises(PersonError):
            await people.redeem(forged)


async def test_the_host_caps_renames_merges_and_removes(house):
    _, people, _, _ = house
    ann, ann_token = await people.add("Ann")
    sam, sam_token = await people.add("Sam")
    with pytest.raises(PersonError, match="more people"):
        await people.set_limit(1)
    assert await people.set_limit(2) == 2
    with pytest.raises(PersonError, match="full"):
        await people.add("Ben")
    for bad in (0, 10_000, "3", 2.5, True):
        with pytest.raises(PersonError):
            await people.set_limit(bad)
    renamed = await people.rename(sam.id, "Sammy", "🐸")
    assert (renamed.name, renamed.emoji) == ("Sammy", "🐸")
    with pytest.raises(PersonError, match="already called"):
        await people.rename(sam.id, "ann")
    await people.merge(sam.id, ann.id)  # the same child on two phones
    assert await people.of_token(sam_token) == ann
    assert await people.get(sam.id) == ann
    await people.remove(ann.id)
    assert await people.of_token(ann_token) is None and await people.everyone() == []
    with pytest.raises(PersonError):
        await people.rename(ann.id, "Ann again")


async def test_places_rate_people_and_computers_with_openskill(house):
    store, people, ratings, _ = house
    ann, _ = await people.add("Ann")
    ben, _ = await people.add("Ben")
    seats = [Seat(0, HUMAN, name="Ann", person=ann.id), Seat(2, HUMAN, name="Ben",
                                                             person=ben.id)]
    game = await finished_game(store, 1, seats)
    changes = await ratings.changes(game)
    assert [c.name for c in changes] == ["Ann", "Ben"] and all(c.rated for c in changes)
    winner, loser = sorted(changes, key=lambda c: -c.delta)
    model = PlackettLuce()
    expected = model.rate([[model.rating()], [model.rating()]], ranks=[1.0, 2.0])
    assert winner.after == shown(expected[0][0].mu, expected[0][0].sigma)
    assert loser.after == shown(expected[1][0].mu, expected[1][0].sigma)
    assert winner.after > 1000 > loser.after or winner.after > loser.after
    rows = await board(ratings, people, "ludo")
    assert [(name, games) for name, _, games in rows] == [(winner.name, 1), (loser.name, 1)]
    # A guest counts for nobody: a person against a guest is not rated.
    alone = await finished_game(store, 2, [Seat(0, HUMAN, name="Ann", person=ann.id),
                                           Seat(2, HUMAN, name="Visitor")])
    assert [(c.name, c.rated, c.delta) for c in await ratings.changes(alone)] == [
        ("Ann", False, 0)]
    # Computers are people too: an all-computer game rates its levels' rows.
    bots = await finished_game(store, 3, computers(["easy", "hard"], (0, 2)))
    assert {c.name for c in await ratings.changes(bots)} == {"Easy computer", "Hard computer"}
    # A level against itself is rated too: the mean of its seats' new ratings, one game.
    mirror = await finished_game(store, 4, computers(["medium"] * 4, (0, 1, 2, 3)))
    (medium,) = await ratings.changes(mirror)
    seats = PlackettLuce().rate([[PlackettLuce().rating()] for _ in range(4)],
                                ranks=[1.0, 2.0, 3.0, 4.0])
    assert medium.rated and medium.after == shown(
        sum(team[0].mu for team in seats) / 4, sum(team[0].sigma for team in seats) / 4)


async def test_rebuilding_gives_the_incremental_numbers_over_hundreds_of_games(house):
    store, people, ratings, _ = house
    ann, _ = await people.add("Ann")
    levels = rules_for("ludo").table_levels
    rng = random.Random(29)
    games = 120 if store.url.startswith("sqlite") else 60  # PostgreSQL: the same, fewer
    for n in range(games):
        colours = (0, 1, 2, 3)[:rng.choice((2, 3, 4))]
        seats = computers([rng.choice(levels) for _ in colours], colours)
        if n % 5 == 0:
            seats[0] = Seat(colours[0], HUMAN, name="Ann", person=ann.id)
        await finished_game(store, n, seats)
        if n % 7 == 0:
            await ratings.rate_pending()  # incremental, as games finish
    await ratings.rate_pending()
    incremental = await board(ratings, people, "ludo")
    assert len(incremental) >= 4 and sum(count for *_, count in incremental) >= games
    assert await ratings.rebuild() == games
    assert await board(ratings, people, "ludo") == incremental
    again = Ratings(store, people)  # a restarted server reads what was stored
    assert await again.rate_pending() == 0
    assert await board(again, people, "ludo") == incremental


async def test_a_merge_or_a_removal_rates_every_game_again(house):
    store, people, ratings, _ = house
    ann, _ = await people.add("Ann")
    annie, _ = await people.add("Annie")
    ben, _ = await people.add("Ben")
    for n, (first, second) in enumerate([(ann, ben), (annie, ben), (ann, ben)]):
        await finished_game(store, n, [Seat(0, HUMAN, name=first.name, person=first.id),
                                       Seat(2, HUMAN, name=second.name, person=second.id)])
    await ratings.rate_pending()
    await people.merge(annie.id, ann.id)
    await ratings.rebuild()
    rows = {name: games for name, _, games in await board(ratings, people, "ludo")}
    assert rows == {"Ann": 3, "Ben": 3}
    await people.remove(ben.id)
    await ratings.rebuild()
    assert [(n, g) for n, _, g in await board(ratings, people, "ludo")] == [("Ann", 3)]
    everyone = {p.id: p for p in await people.everyone(computers=True)}
    page = profile(ann, await ratings.results_of(person=ann.id),
                   await ratings.games_with([game_id(0)]), everyone)
    assert page.games == 3 and page.history == {} and page.meetings == []


async def test_the_ratings_command_rebuilds_the_same_leaderboard(tmp_path):
    url = f"sqlite+aiosqlite:///{tmp_path / 'cli.sqlite3'}"
    store = Store(url)
    people = People(store)
    ann, _ = await people.add("Ann")
    for n in range(6):
        await finished_game(store, n, [Seat(0, HUMAN, name="Ann", person=ann.id),
                                       *computers(["hard"], (2,))])
    await store.close()

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "parcheesi", "ratings", *args,
                               "--database-url", url], capture_output=True, text=True,
                              cwd=ROOT, timeout=120)

    first, again = run(), run("--rebuild")
    assert first.returncode == again.returncode == 0, first.stderr + again.stderr
    table = json.loads(first.stdout)
    assert json.loads(again.stdout) == table
    assert {row["person"] for row in table["ludo"]} == {"Ann", "Hard computer"}
    assert all(row["games"] == 6 and not row["provisional"] for row in table["ludo"])
    broken = run("--rebuild").args[:-1] + ["postgresql+psycopg://nobody@127.0.0.1:1/none"]
    failed = subprocess.run(broken, capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert failed.returncode == 2 and failed.stderr.count("\n") == 1, failed.stderr
    assert failed.stdout == ""


async def test_in_a_cluster_one_process_rates_and_the_others_read(house, monkeypatch):
    """A shard that does not rate never writes a rating (two processes rating at once would
    rate games out of order, or twice): its finish card waits for the rater's."""
    store, people, rater, _ = house
    reader = Ratings(store, people, rates=False)
    ann, _ = await people.add("Ann")
    ben, _ = await people.add("Ben")
    seats = [Seat(0, HUMAN, name="Ann", person=ann.id), Seat(2, HUMAN, name="Ben",
                                                             person=ben.id)]
    game = await finished_game(store, 1, seats)
    assert await reader.rate_pending() == 0 and await reader.rebuild() == 0
    reader.soon()  # nothing to start
    assert not reader._tasks
    monkeypatch.setattr("parcheesi.server.ratings.RATED_WAIT", 0.3)
    assert await reader.changes(game) == []  # not rated yet, and not by this process
    # The rater tells the other processes of every game it rated: the card hears it at once
    wire = Wire()
    rater.tell_shards(wire)
    reader.tell_shards(wire)
    monkeypatch.setattr("parcheesi.server.ratings.RATED_WAIT", 60.0)
    waiting = asyncio.create_task(reader.changes(game))
    await asyncio.sleep(0.05)
    assert not waiting.done()
    assert await rater.rate_pending() == 1
    assert wire.told == [("rated", game)]
    shown_by_reader = await asyncio.wait_for(waiting, timeout=5)
    assert shown_by_reader == await rater.changes(game)
    assert [c.name for c in shown_by_reader] == ["Ann", "Ben"]
    assert not reader._hearing
    # A card that asks once the game is rated reads it without waiting
    assert await asyncio.wait_for(reader.changes(game), timeout=5) == shown_by_reader


async def test_a_finish_card_s_wait_for_its_ratings_ends_when_the_server_stops(house,
                                                                              monkeypatch):
    """The wait reads the store: it must not outlive it (the store closes right after)."""
    store, people, _, _ = house
    reader = Ratings(store, people, rates=False)
    ann, _ = await people.add("Ann")
    seats = [Seat(0, HUMAN, name="Ann", person=ann.id), Seat(2, HUMAN, name="Ben")]
    game = await finished_game(store, 1, seats)
    monkeypatch.setattr("parcheesi.server.ratings.RATED_WAIT", 60.0)
    waiting = asyncio.create_task(reader.changes(game))
    await asyncio.sleep(0)  # waiting for the rater, which never comes
    assert reader._readers
    await asyncio.wait_for(reader.close(), timeout=5)
    assert waiting.cancelled() and not reader._readers
    assert await reader.changes(game) == []  # stopped: it reads nothing more


async def test_a_computer_person_needed_at_once_by_many_is_made_once(house):
    """The first need makes it; needs at the same moment (on PostgreSQL, in separate
    transactions) all get the same person, and none fails."""
    _, people, _, _ = house
    for level in ("easy", "medium", "hard"):  # the first opens the pool's connections
        made = await asyncio.gather(*(people.computer("ludo", level) for _ in range(8)))
        assert len({person.id for person in made}) == 1
    computers_now = [p for p in await people.everyone(computers=True) if p.computer]
    assert sorted(p.name for p in computers_now) == ["Easy computer", "Hard computer",
                                                     "Medium computer"]
