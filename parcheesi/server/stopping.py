"""Ending a service's background work when the server stops.

A task cancelled in the middle of a database query leaves the driver's thread (aiosqlite)
answering an event loop that may be gone by then: the work under way gets a moment to
finish first, and only what is still running after it is cancelled.
"""

from __future__ import annotations

import asyncio
from collections.abc import Collection
from typing import Any

WAIT = 2.0
"""Seconds the work under way may take to finish when the server stops."""


async def wind_down(tasks: Collection[asyncio.Task[Any]], wait: float = WAIT) -> None:
    """Let ``tasks`` finish for up to ``wait`` seconds, then cancel the rest and wait for
    them to end."""
    if not tasks:
        return
    _, pending = await asyncio.wait(list(tasks), timeout=wait)
    for task in pending:
        task.cancel()
    await asyncio.gather(*pending, return_exceptions=True)
