"""Finished games stored straight into a store, seat by seat credited to people, for the
ratings and the people's pages (random moves: quick, and each game's places follow from
its number)."""

from __future__ import annotations

import json
from dataclasses import asdict
from datetime import UTC, datetime, timedelta

from record_helpers import committed_row, play_random

from parcheesi.server.live import COMPUTER, HUMAN, Seat
from parcheesi.server.people import Person
from parcheesi.server.store import ActionRow, Store

START = datetime(2026, 1, 1, tzinfo=UTC)


def game_id(n: int) -> str:
    """Game ``n``'s id, shaped like the server's (32 hex digits)."""
    return f"{n:032x}"


async def finished_game(store: Store, n: int, seats: list[Seat], kind: str = "ludo") -> str:
    """Store a finished game of random moves whose seats are ``seats``, finished ``n``
    minutes after :data:`START`; returns its id."""
    row = committed_row(kind, tuple(s.colour for s in seats), n)
    row.id = game_id(n)
    row.seats = json.dumps([asdict(s) for s in seats])
    actions, _ = play_random(row, n)
    row.finished, row.finished_at = True, START + timedelta(minutes=n)
    await store.create_game(row)
    async with store.write_session() as session:
        session.add_all([ActionRow(game_id=row.id, index=k, action=json.dumps(a))
                         for k, a in enumerate(actions)])
        await session.commit()
    return row.id


def human(colour: int, person: Person) -> Seat:
    """A seat played by ``person``."""
    return Seat(colour, HUMAN, name=person.name, person=person.id)


def computer(colour: int, level: str = "easy") -> Seat:
    return Seat(colour, COMPUTER, level)
