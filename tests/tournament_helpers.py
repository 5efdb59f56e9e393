"""A server's tournaments without pages: the store, hub, rooms, people and ratings a server
has, its computers playing at no pace, and a helper that plays the people's seats."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from parcheesi.server.live import Hub, LiveGame, Refused
from parcheesi.server.people import People
from parcheesi.server.ratings import Ratings
from parcheesi.server.rooms import Rooms
from parcheesi.server.runner import ensure_runner
from parcheesi.server.store import Store
from parcheesi.server.tournaments import Contest, Tournaments


@dataclass
class Site:
    """One server process's objects over a database (a second one is a restarted server,
    or another process)."""

    store: Store
    hub: Hub
    rooms: Rooms
    people: People
    ratings: Ratings
    tournaments: Tournaments

    @classmethod
    def open(cls, url: str, settle_on_finish: bool = True) -> Site:
        store = Store(url)
        hub = Hub(store)
        people = People(store)
        ratings = Ratings(store, people)
        rooms = Rooms(store, hub)
        tournaments = Tournaments(store, rooms, people, ratings,
                                  lambda game: ensure_runner(game, 0))
        if settle_on_finish:
            hub.on_finish = tournaments.game_over
        return cls(store, hub, rooms, people, ratings, tournaments)

    async def close(self) -> None:
        await self.tournaments.close()
        for game in list(self.hub.games.values()):
            if game.runner is not None:
                game.runner.cancel()
        await self.store.close()

    async def table_game(self, room_code: str) -> LiveGame:
        room = await self.rooms.get(room_code)
        assert room is not None
        game = await self.rooms.game(room)
        assert game is not None
        return game

    async def play_people(self, contest: Contest) -> None:
        """Play every table of the round under way to its end: the people's seats by the
        game's weakest computer's choices, the computers' by their runners."""
        for _, _, room_code in contest.playing():
            game = await self.table_game(room_code)
            await play_out(game)

    async def settled(self, contest: Contest, rounds: int) -> Contest:
        """The tournament once its settling tasks are done and it has ``rounds`` rounds."""
        for _ in range(1000):
            await asyncio.gather(*self.tournaments._tasks)
            current = await self.tournaments.get(contest.code)
            assert current is not None
            if len(current.tournament.rounds) >= rounds or current.over:
                return current
            await asyncio.sleep(0.01)
        raise AssertionError(f"tournament {contest.code} never reached round {rounds}")


async def play_out(game: LiveGame) -> None:
    """Play a game to its end: its human seats here, its computers by their runner."""
    weakest = game.rules.levels[0]
    while not game.over:
        if not game.seat_to_act().is_human:
            game.changed.clear()
            await game.changed.wait()
            continue
        version = game.version
        decision = game.rules.decide(game.state, weakest)
        try:
            for k, action in enumerate(decision.actions):
                await game.act(action, version=version + k, colour=game.turn)
        except Refused:
            continue
