"""Finished games stored on a test's server, played by computers straight through the live
game's own path (``LiveGame.act``), for the charts page."""

from __future__ import annotations

from components.server import Server
from parcheesi.core.registry import rules_for
from parcheesi.server.live import COMPUTER, MODES, Seat


async def store_finished_game(server: Server, game_id: str, kind: str = "parcheesi",
                              count: int = 4, level: str = "easy") -> str:
    """A game of ``count`` ``level`` computers, stored under ``game_id`` and played to its
    end; returns the id."""
    rules = rules_for(kind)
    seats = [Seat(colour=c, kind=COMPUTER, level=level) for c in rules.colour_sets(count)[0]]
    row, state = server.hub.new_row("charts-test", MODES[0], seats, kind)
    row.id = game_id
    await server.store.create_game(row)
    game = server.hub.add(row, state)
    while not game.over:
        for action in rules.decide(game.state, level).actions:
            await game.act(action, version=game.version, computer=True)
    return game_id
