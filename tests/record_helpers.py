"""Game records built in memory, the way the server builds them from a stored game."""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import asdict
from typing import Any

from parcheesi.core.registry import rules_for
from parcheesi.games.parcheesi.notation import action_from_json, action_to_json
from parcheesi.games.parcheesi.turns import Game
from parcheesi.server import fairness
from parcheesi.server.live import COMPUTER, HUMAN, Seat, first_state
from parcheesi.server.records import parse_record, record_of, replay
from parcheesi.server.store import GameRow, house_text


def stored_row(kind: str, colours: tuple[int, ...], house: tuple[str, ...] = (), *,
               secret: str = "", contributions: dict[str, str] | None = None,
               seed: int = 0) -> GameRow:
    """A game row as the server stores it: committed to ``secret`` (with the browsers'
    ``contributions``) when one is given, else a game from before commitments (``seed``)."""
    added = contributions or {}
    seats = [Seat(colour=c, kind=HUMAN if k == 0 else COMPUTER, level="easy",
                  name="Ann" if k == 0 else "") for k, c in enumerate(colours)]
    return GameRow(id=f"g{seed}", owner="browser", mode="solo", kind=kind,
                   house=house_text(house), seats=json.dumps([asdict(s) for s in seats]),
                   seed=fairness.dice_seed(secret, added) if secret else seed,
                   secret=secret, commitment=fairness.commitment(secret) if secret else "",
                   contributions=json.dumps(added), state="{}")


def committed_row(kind: str, colours: tuple[int, ...], n: int,
                  house: tuple[str, ...] = ()) -> GameRow:
    """A committed game whose secret and first seat's contribution follow from ``n``."""
    secret = hashlib.sha256(f"secret {kind} {n}".encode()).hexdigest()
    added = {rules_for(kind).colours[colours[0]]:
             hashlib.sha256(f"browser {n}".encode()).hexdigest()[:32]}
    return stored_row(kind, colours, house, secret=secret, contributions=added)


def play_random(row: GameRow, seed: int, limit: int | None = None) -> tuple[list[dict], Any]:
    """Random players' actions (JSON, as stored) from the row's start, to the end or for
    ``limit`` actions, and the state reached (the row's snapshot, as the server stores it)."""
    rules = rules_for(row.kind)
    state, dice, rng = first_state(row), rules.dice(row.seed), random.Random(seed)
    actions: list[dict] = []
    while not rules.over(state) and (limit is None or len(actions) < limit):
        action = rng.choice(rules.choices(state)).action
        state, _ = rules.apply(state, action, dice)
        actions.append(rules.action_to_json(action))
    row.state, row.version = json.dumps(rules.state_to_json(state)), len(actions)
    return actions, state


def assert_round_trip(row: GameRow, actions: list[dict], final: Any) -> dict:
    """The game (stored with its snapshot ``final`` after ``actions``) exports, reads back
    and replays to the identical final state."""
    rules = rules_for(row.kind)
    row.state, row.version = json.dumps(rules.state_to_json(final)), len(actions)
    record = record_of(row, actions)
    steps = replay(parse_record(json.dumps(record)))
    assert steps[-1].state == final, row.id
    assert len(steps) == len(actions) + 1
    return record


def through_json(game: Game) -> Game:
    """A Parcheesi engine game played again from its seed and its actions written as JSON and
    read back, as a record keeps them."""
    text = json.dumps([action_to_json(action) for action in game.actions])
    return Game.replay(game.colours, game.seed, map(action_from_json, json.loads(text)))
