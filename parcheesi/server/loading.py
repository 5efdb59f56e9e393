"""Single-flight loading: however many callers ask for the same key at once, one load runs
and every caller gets its result (the live games' hub and the rooms both load this way, so
a restart with every phone reconnecting at the same moment makes one object, not several)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Generic, TypeVar

T = TypeVar("T")


class SingleFlight(Generic[T]):
    def __init__(self, what: str) -> None:
        self.what = what
        """What is loaded, for the tasks' names."""
        self._loading: dict[str, asyncio.Task[T]] = {}

    async def load(self, key: str, load: Callable[[str], Awaitable[T]]) -> T:
        """The result of ``load(key)``, shared with every caller that asks while it runs (a
        caller that gives up does not cancel it for the others)."""
        loading = self._loading.get(key)
        if loading is None:
            loading = asyncio.get_running_loop().create_task(
                _run(load, key), name=f"load {self.what} {key}")
            self._loading[key] = loading
            loading.add_done_callback(lambda _: self._loading.pop(key, None))
        return await asyncio.shield(loading)


async def _run(load: Callable[[str], Awaitable[T]], key: str) -> T:
    return await load(key)
