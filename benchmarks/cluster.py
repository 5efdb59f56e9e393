"""The cluster's drill: shards behind the proxy, rooms that live in one shard at most, and a
shard killed under load that loses nothing.

    .venv/bin/python benchmarks/cluster.py [--shards 2] [--rooms 6] [--races 10] [--kills 3]

Brings a cluster up with ``scripts/cluster.sh up`` (PostgreSQL, Redis, nginx and the shards,
in a temporary directory, on free ports) and, through the proxy only, as phones do
(``phones.py``, ``chaos.py``):

1. **Rooms on every shard**: two-player rooms made through the pages (a host and a guest,
   each its own browser) until every shard owns some.
2. **Reconnect races**: both phones of one room open it again at the same moment, one
   through every shard's prefix (``/s/<i>/room/CODE``) and one through ``/room/CODE``; every
   page must end at the owner's prefix, and an action must be seen by both.
3. **Kills under load**: every room plays, each player thinking about a second before each
   press (``--think``; 0 plays without pause); a shard (in turn) is killed with SIGKILL and
   its supervisor starts it again. The killed shard's phones open their table
   again (the proxy's "restarting" page meanwhile) until it is back and an action is seen
   by both; the other shards' phones play on. Counted: actions the phones saw accepted
   that the database lacks (lost), the other shards' pages that lost their socket, and the
   seconds from the kill until the room is playable again.

Throughout, every shard's live rooms are read straight from it (``/health?rooms=1``, from
this machine) every 0.2 s: a room live in two shards at one reading is a split. Prints one
JSON object; target: 0 lost, 0 split, 0 pages of other shards disturbed, every room back
within 10 s of its shard's restart (its supervisor starts it a second after the kill; the
seconds from the kill are reported too), no error in the shards' logs.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from chaos import (
    Db,
    Options,
    Party,
    Tally,
    any_change,
    close_party,
    keep_playing,
    log,
    next_press,
    open_table,
    press,
    room_party,
    stop,
    watch,
)
from phones import StepFailed
from rooms import server_log_errors
from serving import Cluster, run
from sqlalchemy import create_engine, text

from parcheesi.server.migrate import sync_url
from parcheesi.server.shards import room_key, shard_of

ROOT = Path(__file__).resolve().parent.parent
BACK_WITHIN_S = 10.0


class PostgresDb(Db):
    """The drills' read-only queries, on the cluster's PostgreSQL database."""

    def __init__(self, url: str) -> None:
        super().__init__(Path())
        self.engine = create_engine(sync_url(url))

    def _rows(self, query: str, **values: Any) -> list[Any]:
        with self.engine.connect() as connection:
            return list(connection.execute(text(query), values))

    def version(self, game_id: str) -> int:
        rows = self._rows("SELECT version FROM games WHERE id = :id", id=game_id)
        return int(rows[0][0]) if rows else -1

    def games(self) -> dict[str, tuple[int, int]]:
        rows = self._rows("SELECT g.id, g.version, (SELECT COUNT(*) FROM actions a "
                          "WHERE a.game_id = g.id) FROM games g")
        return {str(g): (int(v), int(n)) for g, v, n in rows}

    def room_game(self, code: str) -> str | None:
        rows = self._rows("SELECT game_id FROM rooms WHERE code = :code", code=code)
        return str(rows[0][0]) if rows and rows[0][0] else None


@dataclass
class Splits:
    """Readings of every shard's live rooms; a room in two shards at once is a split."""

    readings: int = 0
    split: set[str] = field(default_factory=set)
    seen: dict[str, set[int]] = field(default_factory=dict)
    """Each room's shards over the whole run."""

    async def watch(self, cluster: Cluster, stop: asyncio.Event) -> None:
        while not stop.is_set():
            live = await asyncio.gather(*(asyncio.to_thread(cluster.live_rooms, i)
                                          for i in range(cluster.shards)))
            self.readings += 1
            for shard, codes in enumerate(live):
                for code in codes:
                    self.seen.setdefault(code, set()).add(shard)
                    if any(code in other for k, other in enumerate(live) if k != shard):
                        self.split.add(code)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), 0.2)


MAKE_AT_MOST = 20
"""Rooms made at most while a shard still owns none."""


def owner(party: Party, shards: int) -> int:
    assert party.code is not None
    return shard_of(room_key(party.code), shards)


async def make_rooms(cluster: Cluster, tally: Tally, rooms: int, timeout: float
                     ) -> list[Party]:
    """Rooms through the proxy until there are ``rooms`` and every shard owns one (a room's
    owner is its code's shard, and codes are drawn at random: up to :data:`MAKE_AT_MOST` are
    made, so that two shards get one each but once in half a million runs)."""
    parties: list[Party] = []
    while len(parties) < rooms or len({owner(p, cluster.shards) for p in parties}) \
            < cluster.shards:
        if len(parties) >= max(rooms * 4, MAKE_AT_MOST):
            raise StepFailed(f"{len(parties)} rooms made, still a shard without one")
        parties.append(await room_party(cluster.base, tally, 10 * len(parties), timeout))
    return parties


async def race(cluster: Cluster, party: Party, options: Options) -> str | None:
    """Both phones open the room again at once, through every prefix and none; what went
    wrong (None: every page at the owner's prefix, and an action seen by both)."""
    assert party.code is not None
    paths = [f"/s/{i}/room/{party.code}" for i in range(cluster.shards)]
    paths.append(f"/room/{party.code}")
    for phone in party.phones:
        await phone.page.close()
    opened = await asyncio.gather(*(open_table(phone.browser, paths[(k + turn) % len(paths)],
                                               options.timeout, None if turn == 0 else
                                               str(uuid.uuid4()))
                                    for turn in range(2) for k, phone in enumerate(
                                        party.phones)))
    home = f"/s/{owner(party, cluster.shards)}"
    wrong = [page.prefix for page in opened if page.prefix != home]
    keep, extra = opened[:len(party.phones)], opened[len(party.phones):]
    for page in extra:
        await page.close()
    for phone, page in zip(party.phones, keep, strict=True):
        phone.page = page
    if wrong:
        return f"pages served under {wrong}, not {home}"
    return await action_seen(party, options)


async def action_seen(party: Party, options: Options) -> str | None:
    """One game action pressed (a roll or a move, after any piece selections) and every
    other phone's board redrawn for it; what went wrong (None: the room plays)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + options.timeout
    while loop.time() < deadline:
        picked = next(((p, c) for p in party.phones if p.presses
                       and (c := next_press(p)) is not None), None)
        if picked is None:
            await any_change(party.pages(), 0.5)
            continue
        phone, chosen = picked
        others = [p for p in party.phones if p is not phone]
        seqs = {id(p): p.page.board_seq for p in others}
        await press(party, phone, chosen, options.timeout)
        if chosen[0] == "select":
            continue
        while any(p.page.board_seq == seqs[id(p)] for p in others):
            if loop.time() > deadline:
                return f"the others did not see {phone.role}'s {chosen[0]}"
            await any_change([p.page for p in others], 0.5)
        return None
    return "nothing to press"


async def reopen(party: Party, options: Options, started: float) -> float:
    """The killed shard's phones open the table again until it is back and an action is
    seen by both; seconds since ``started`` (the kill)."""
    for phone in party.phones:
        await phone.page.close()
    while True:
        try:
            opening = time.monotonic()
            for phone in party.phones:
                phone.page = await open_table(phone.browser, party.path, options.timeout)
            playing = time.monotonic()
            problem = await action_seen(party, options)
            if problem is None:
                log(f"room {party.code} back {time.monotonic() - started:.1f} s after the "
                    f"kill: pages opened in {playing - opening:.1f} s, an action seen in "
                    f"{time.monotonic() - playing:.1f} s")
                return time.monotonic() - started
            log(f"room {party.code} after the kill: {problem}")
        except (StepFailed, OSError, ConnectionError) as error:
            log(f"room {party.code} not back yet: {error}")
        for phone in party.phones:
            await phone.page.close()
        if time.monotonic() - started > 60:
            raise StepFailed(f"room {party.code} not playable 60 s after the kill")
        await asyncio.sleep(0.5)


async def restart_seen(cluster: Cluster, shard: int, old_pid: int | None
                       ) -> tuple[float, float]:
    """When the shard's supervisor started it again (its new process's pid appeared), and
    when it answered its health check again."""
    while cluster.pid(shard) in (old_pid, None):
        await asyncio.sleep(0.05)
    restarted = time.monotonic()
    while not await asyncio.to_thread(cluster.answers, shard):
        await asyncio.sleep(0.05)
    return restarted, time.monotonic()


async def play_at_pace(party: Party, options: Options, think: float, rng: random.Random
                       ) -> None:
    """Play as people do, thinking 0.5 to 1.5 times ``think`` seconds before each press,
    until cancelled (or the page goes away); ``think`` 0 plays without pause."""
    if think <= 0:
        await keep_playing(party, options.timeout)
        return
    with contextlib.suppress(StepFailed, ConnectionError, OSError):
        while True:
            picked = next(((p, c) for p in party.phones if p.presses
                           and (c := next_press(p)) is not None), None)
            if picked is None:
                await any_change(party.pages(), 0.5)
                continue
            await asyncio.sleep(think * rng.uniform(0.5, 1.5))
            await press(party, picked[0], picked[1], options.timeout)


async def kill_round(cluster: Cluster, parties: list[Party], db: Db, options: Options,
                     victim: int, rng: random.Random, think: float) -> dict[str, Any]:
    """Everyone plays; ``victim`` is killed; its rooms come back. The figures of the round."""
    seen: dict[str, int] = {}
    watch(parties, db, seen)
    players = {id(p): asyncio.create_task(play_at_pace(p, options, think, rng))
               for p in parties}
    await asyncio.sleep(rng.uniform(0.5, 2.0))
    killed = time.monotonic()
    old_pid = cluster.pid(victim)
    cluster.kill(victim)
    restarted = asyncio.create_task(restart_seen(cluster, victim, old_pid))
    hit = [p for p in parties if owner(p, cluster.shards) == victim]
    others = [p for p in parties if p not in hit]
    await stop([players[id(p)] for p in hit])
    back = await asyncio.gather(*(reopen(p, options, killed) for p in hit))
    restart, serving = await restarted
    since_restart = max(back, default=0.0) - (restart - killed)
    await stop(list(players.values()))
    disturbed = sum(1 for p in others for phone in p.phones
                    if phone.page.disconnected_at is not None)
    stored = db.games()
    lost = sum(max(0, version - stored.get(game, (0, 0))[0]) for game, version in seen.items())
    return {"victim": victim, "rooms_hit": len(hit), "back_s": max(back, default=0.0),
            "back_after_restart_s": since_restart, "serving_after_restart_s": serving - restart,
            "lost": lost, "other_pages_disturbed": disturbed,
            "actions_seen": sum(seen.values())}


async def drill(cluster: Cluster, args: argparse.Namespace) -> dict[str, Any]:
    options, tally = Options(timeout=args.timeout), Tally()
    rng = random.Random(args.seed)
    splits, stop = Splits(), asyncio.Event()
    watcher = asyncio.create_task(splits.watch(cluster, stop))
    db = PostgresDb(cluster.database_url)
    parties: list[Party] = []
    try:
        parties = await make_rooms(cluster, tally, args.rooms, options.timeout)
        log(f"{len(parties)} rooms; owners {[owner(p, cluster.shards) for p in parties]}")
        races = [await race(cluster, parties[k % len(parties)], options)
                 for k in range(args.races)]
        race_problems = [r for r in races if r]
        log(f"{args.races} reconnect races: {len(race_problems)} problems")
        kills = []
        for k in range(args.kills):
            kills.append(await kill_round(cluster, parties, db, options,
                                          k % cluster.shards, rng, args.think))
            log(f"kill {k + 1}: {kills[-1]}")
    finally:
        stop.set()
        await watcher
        for party in parties:
            await close_party(party)
    games = db.games()
    unlike = sum(1 for version, rows in games.values() if version != rows)
    figures = {
        "shards": cluster.shards, "rooms": len(parties),
        "rooms_per_shard": [sum(1 for p in parties if owner(p, cluster.shards) == i)
                            for i in range(cluster.shards)],
        "reconnect_races": args.races, "race_problems": race_problems[:5],
        "kills": len(kills), "lost": sum(k["lost"] for k in kills),
        "other_pages_disturbed": sum(k["other_pages_disturbed"] for k in kills),
        "slowest_back_s": round(max((k["back_s"] for k in kills), default=0.0), 1),
        "slowest_back_after_restart_s": round(max((k["back_after_restart_s"] for k in kills),
                                                  default=0.0), 1),
        "split_rooms": sorted(splits.split), "readings": splits.readings,
        "rooms_ever_in_two_shards": sorted(c for c, s in splits.seen.items() if len(s) > 1),
        "games_with_versions_unlike_action_rows": unlike, "kill_rounds": kills,
    }
    logged = [server_log_errors(path) for path in cluster.logs()]
    figures["server_log"] = {"error_lines": sum(errors for errors, _, _ in logged),
                             "examples": [line for _, _, lines in logged for line in lines][:5]}
    figures["met"] = (figures["lost"] == 0 and not splits.split and not race_problems
                      and figures["other_pages_disturbed"] == 0 and unlike == 0
                      and figures["slowest_back_after_restart_s"] <= BACK_WITHIN_S
                      and figures["server_log"]["error_lines"] == 0)
    figures["phones"] = tally.report()
    return figures


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--shards", type=int, default=2)
    parser.add_argument("--rooms", type=int, default=6)
    parser.add_argument("--races", type=int, default=10)
    parser.add_argument("--kills", type=int, default=3)
    parser.add_argument("--think", type=float, default=1.0,
                        help="mean seconds a player thinks before each press while a shard is "
                             "killed (0: no pause, the shards saturated)")
    parser.add_argument("--timeout", type=float, default=15.0)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="parcheesi-cluster-") as tmp:
        os.chmod(tmp, 0o711)  # PostgreSQL's own user reaches its folder inside
        cluster = Cluster(args.shards, Path(tmp) / "cluster")
        started = time.monotonic()
        cluster.up()
        try:
            figures = run(drill(cluster, args))
        finally:
            cluster.down()
        figures["seconds"] = round(time.monotonic() - started, 1)
        figures["machine"] = {"cores": os.cpu_count(), "load": os.getloadavg()}
    print(json.dumps(figures, indent=1), flush=True)
    return figures


if __name__ == "__main__":
    sys.exit(0 if main()["met"] else 1)
