"""New sockets bounded per address and per browser, and a storm's log kept to a line a minute
per address (``components/admission.py``), alone with a fake clock and through the socket
guard's engine.io ``connect`` hook."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from test_sockets import Clock, FakeServer, receive

from components.admission import (
    BROWSER_SOCKETS_BURST,
    BROWSER_SOCKETS_PER_SECOND,
    FLOOD_PENALTY,
    HELD_AT_MOST,
    KEYS,
    LOG_EVERY,
    NEW_SOCKETS_BURST,
    NEW_SOCKETS_PER_SECOND,
    REFUSAL_DELAY,
    Admission,
    Buckets,
    LogLines,
    TokenBucket,
)
from components.sockets import BURST, FLOOD_REFUSALS, SocketGuard


def test_the_bucket_allows_its_burst_then_its_rate():
    bucket = TokenBucket(3, 2.0, now=0.0)
    assert [bucket.take(0.0) for _ in range(4)] == [True, True, True, False]
    assert bucket.take(0.5) and not bucket.take(0.5)  # one token accrues in half a second
    assert bucket.refill(100.0) == 3  # never more than the burst
    assert bucket.take(50.0)  # a clock read out of order adds nothing and takes nothing back
    assert bucket.refill(100.0) == 2


def test_buckets_are_kept_per_key_and_bounded():
    buckets = Buckets(2, 1.0, keys=3)
    assert [buckets.take("a", 0.0) for _ in range(3)] == [True, True, False]
    assert buckets.take("b", 0.0)  # another key has its own
    for key in ("c", "d"):
        buckets.take(key, 0.0)
    assert len(buckets) == 3  # "a", the least recently used, is forgotten: a fresh bucket
    assert buckets.take("a", 0.0)


def test_an_address_opening_sockets_as_fast_as_it_can_gets_its_burst_then_its_rate(lines):
    clock = Clock()
    admission = Admission(clock, LogLines(clock))
    admitted = 0
    for _ in range(600):  # ten seconds of a socket every 1/60 s
        admitted += admission.admit("10.0.0.9", None)
        clock.now += 1 / 60
    accrued = 10 * NEW_SOCKETS_PER_SECOND  # (the last token comes as the ten seconds end)
    assert NEW_SOCKETS_BURST + accrued - 1 <= admitted <= NEW_SOCKETS_BURST + accrued
    assert admission.refused == 600 - admitted
    assert [r.getMessage() for r in lines] == ["socket connections refused: too many new ones"]
    assert lines[0].address == "10.0.0.9" and lines[0].held_back == 0
    assert admission.admit("10.0.0.10", None)  # another address is not touched


def test_a_browser_is_bounded_on_any_address_and_a_phone_never_is():
    clock = Clock()
    admission = Admission(clock, LogLines(clock))
    admitted = sum(admission.admit(f"10.0.1.{k}", "browser") for k in range(100))
    assert admitted == BROWSER_SOCKETS_BURST
    clock.now += 1 / BROWSER_SOCKETS_PER_SECOND
    assert admission.admit("10.0.1.200", "browser")
    # a phone: a burst of page loads, then a page every few seconds for an hour
    phone = Admission(clock, LogLines(clock))
    assert all(phone.admit("10.0.2.1", "phone") for _ in range(BROWSER_SOCKETS_BURST))
    for _ in range(1200):
        clock.now += 3.0
        assert phone.admit("10.0.2.1", "phone")
    assert phone.refused == 0


def test_the_servers_own_machine_is_never_throttled():
    clock = Clock()
    admission = Admission(clock, LogLines(clock), exempt=("127.0.0.1", "::1"))
    assert all(admission.admit("127.0.0.1", "browser") for _ in range(1000))
    assert not all(admission.admit("127.0.0.2", None) for _ in range(1000))


def test_a_storm_logs_a_line_a_minute_per_address_with_what_it_held_back(lines):
    clock = Clock()
    log_lines = LogLines(clock, keys=KEYS)
    for _ in range(500):
        log_lines.log(logging.WARNING, "storm", "10.0.0.1", "refused")
        log_lines.log(logging.WARNING, "storm", "10.0.0.2", "refused")
        log_lines.log(logging.WARNING, "flood", "10.0.0.1", "cut")
        clock.now += 0.1  # fifty seconds
    assert [(r.getMessage(), r.address) for r in lines] == [
        ("refused", "10.0.0.1"), ("refused", "10.0.0.2"), ("cut", "10.0.0.1")]
    clock.now += LOG_EVERY
    log_lines.log(logging.WARNING, "storm", "10.0.0.1", "refused")
    assert lines[-1].held_back == 499


# --- through the socket guard ----------------------------------------------------------------


def scope(address: str, kind: str = "websocket", query: bytes = b"EIO=4&transport=websocket",
          session: str | None = None) -> dict[str, Any]:
    found: dict[str, Any] = {"type": kind, "client": (address, 50000), "query_string": query}
    if session is not None:
        found["session"] = {"id": session}
    return found


async def test_a_reconnect_storm_is_turned_away_before_engine_io_makes_a_session(lines):
    """Requests that would open a session are screened: past the bucket each is held a
    while, then turned away (a WebSocket closed before it is accepted, a long-polling
    handshake 429); requests of a session that exists, and the server's own machine, pass."""
    clock, pauses, sent = Clock(), [], []

    async def sleep(seconds: float) -> None:
        pauses.append(seconds)

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    async def receive() -> dict[str, Any]:
        return {"type": "websocket.connect"}

    admission = Admission(clock, LogLines(clock), exempt=("127.0.0.1",), sleep=sleep)
    answers = [await admission.screen(scope("10.0.0.7", session=f"s{k}"), receive, send)
               for k in range(200)]
    assert answers.count(True) == NEW_SOCKETS_BURST
    assert admission.refused == 200 - NEW_SOCKETS_BURST
    assert pauses == [REFUSAL_DELAY] * (200 - NEW_SOCKETS_BURST)  # each refusal is held
    assert sent == [{"type": "websocket.close", "code": 1008}] * (200 - NEW_SOCKETS_BURST)
    sent.clear()
    assert not await admission.screen(scope("10.0.0.7", "http", b"EIO=4&transport=polling"),
                                      receive, send)
    assert [m.get("status") for m in sent] == [429, None]
    assert await admission.screen(scope("10.0.0.7", query=b"EIO=4&sid=abc"), receive, send)
    assert all([await admission.screen(scope("127.0.0.1"), receive, send) for _ in range(50)])
    assert [r.getMessage() for r in lines] == ["socket connections refused: too many new ones"]


async def test_a_socket_cut_off_for_flooding_costs_its_address_and_browser_many_sockets():
    clock = Clock()
    admission = Admission(clock, LogLines(clock))
    admission.flooded("10.0.0.8", "flooder")
    assert not admission.admit("10.0.0.8", None)  # the burst is gone, and more
    assert not admission.admit("10.0.0.9", "flooder")  # the browser too, on any address
    clock.now += (FLOOD_PENALTY - NEW_SOCKETS_BURST + 1) / NEW_SOCKETS_PER_SECOND
    assert admission.admit("10.0.0.8", None)
    assert admission.admit("10.0.0.10", None)  # nobody else was touched


async def test_the_guard_remembers_where_each_session_came_from():
    server, clock = FakeServer(), Clock()
    guard = SocketGuard(server, clock)  # type: ignore[arg-type]
    await guard.on_eio_connect("e1", {"asgi.scope": scope("10.0.0.7", session="s")})
    assert server.connected == ["e1"]
    assert (guard.state("e1").address, guard.state("e1").browser) == ("10.0.0.7", "s")


async def test_refusals_are_held_a_while_but_never_too_many_at_once():
    clock = Clock()
    release = asyncio.Event()

    async def sleep(seconds: float) -> None:
        await release.wait()

    admission = Admission(clock, LogLines(clock), sleep=sleep)
    held = [asyncio.create_task(admission.refuse()) for _ in range(HELD_AT_MOST + 5)]
    await asyncio.sleep(0)
    assert admission.held == HELD_AT_MOST and sum(t.done() for t in held) == 5
    release.set()
    await asyncio.gather(*held)
    assert admission.held == 0


async def test_flooding_sockets_of_one_address_log_one_line_a_minute(lines):
    server, clock = FakeServer(), Clock()
    guard = SocketGuard(server, clock)  # type: ignore[arg-type]
    for k in range(5):
        await guard.on_eio_connect(f"e{k}", {"asgi.scope": scope("10.0.0.8")})
        for _ in range(BURST + FLOOD_REFUSALS + 1):
            await receive(guard, f"e{k}", '2["event",{}]')
        clock.now += 1.0
    await asyncio.sleep(0)  # the disconnects are tasks
    assert guard.disconnected == 5
    assert [r.getMessage() for r in lines] == ["socket flooding: disconnected"]
    clock.now += LOG_EVERY
    await guard.on_eio_connect("e9", {"asgi.scope": scope("10.0.0.8")})
    for _ in range(BURST + FLOOD_REFUSALS + 1):
        await receive(guard, "e9", '2["event",{}]')
    assert [r.getMessage() for r in lines] == ["socket flooding: disconnected"] * 2
    assert lines[-1].held_back == 4 and lines[-1].address == "10.0.0.8"
