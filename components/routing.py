"""In a cluster, every page is served by the shard that owns it, under that shard's prefix.

The proxy sends ``/s/<i>/...`` to shard ``i`` (telling it the prefix in
``X-Forwarded-Prefix``) and everything else to any shard that is up. A page (a NiceGUI page
keeps a socket to the process that drew it, so it must be drawn where its socket goes) that
arrives without its owner's prefix is redirected there: a room's pages to the room's owner
(:data:`ROOM_PAGES`), every other page to the shard that owns the browser's storage id
(its local games, its home page). Files, downloads and the health check are served by
whichever shard the request reached: they read only the database.
"""

from __future__ import annotations

from nicegui import Client
from starlette.middleware.base import BaseHTTPMiddleware, RequestResponseEndpoint
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Match
from starlette.types import ASGIApp

from parcheesi.server.rooms import normalise_code
from parcheesi.server.shards import Shard, owner_path, relative_to, room_key

ROOM_PAGES = frozenset({"/r/{code}", "/room/{code}", "/tv/{code}"})
"""The pages of one room: served by the room's owner."""


class ShardRouting(BaseHTTPMiddleware):
    """Redirects a page that reached the wrong shard, or no shard's prefix, to its owner."""

    def __init__(self, app: ASGIApp, shard: Shard) -> None:
        super().__init__(app)
        self.shard = shard

    async def dispatch(self, request: Request, call_next: RequestResponseEndpoint) -> Response:
        key = owner_key(request) if request.method == "GET" else None
        if key is None:
            return await call_next(request)
        owner = self.shard.owner(key)
        prefix = request.headers.get("x-forwarded-prefix", "")
        if owner == self.shard.index and prefix == self.shard.prefix:
            return await call_next(request)
        target = owner_path(owner, request.url.path, request.url.query)
        # NiceGUI writes the request's own prefix before an absolute redirect: from under a
        # prefix, the way to the owner is written relative to the path the browser asked for
        location = relative_to(prefix + request.url.path, target) if prefix else target
        return RedirectResponse(location, status_code=307)


def owner_key(request: Request) -> str | None:
    """The owner key of the page asked for: its room's, or the browser's; None for what is
    not a page."""
    pages = set(Client.page_routes.values())
    for route in request.app.routes:
        path = getattr(route, "path", None)
        if path not in pages:
            continue
        match, scope = route.matches(request.scope)
        if match is not Match.FULL:
            continue
        if path in ROOM_PAGES:
            return room_key(normalise_code(str(scope["path_params"]["code"])))
        return str(request.session["id"])
    return None
