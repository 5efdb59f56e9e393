"""The pages: thin functions that receive the server's objects and put the components
together; every rule stays in the engine, every room decision in :mod:`parcheesi.server.rooms`.

:func:`register` binds them to their addresses for one :class:`~components.server.Server`.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import logging
import weakref
from collections.abc import Awaitable, Callable
from functools import cache
from pathlib import Path
from string import Template
from urllib.parse import urlsplit

import ifaddr
from fastapi import Request
from fastapi.responses import JSONResponse, Response
from nicegui import Client, app, background_tasks, ui
from nicegui.elements.mixins.text_element import TextElement

from parcheesi.core.notation import brief
from parcheesi.core.registry import DEFAULT_GAME, games, plays, rules_for
from parcheesi.server import fairness
from parcheesi.server.config import Config
from parcheesi.server.live import (
    LiveGame,
    LocalSeating,
    Seat,
    SetupError,
    next_opening,
)
from parcheesi.server.people import Person
from parcheesi.server.records import Record, Step, stored_record
from parcheesi.server.rooms import Busy, Room, RoomError, Rooms, RoomSeating, RoomStatus
from parcheesi.server.runner import ensure_runner
from parcheesi.server.store import ONLINE, SAME_DEVICE, SOLO

from .badges import CLOCK_SCRIPT
from .charts_page import DARK, ChartsView, finished_game
from .history import GAME_ID, IMPORTED_URL, Continue, my_games_page, record_download, replay_page
from .host_tools import PinGuard, Visitor
from .install import APP_NAME, ICONS, ICONS_URL, MANIFEST_URL, manifest, tagline
from .install import HEAD as INSTALL_HEAD
from .lobby import (
    LobbyView,
    ask_browser,
    forget_token,
    game_words,
    read_token,
    spaced_code,
    store_token,
    table_tools,
)
from .missing import missing
from .palette import PRIMARY, token_css, tone_css
from .people_page import PeoplePage
from .person import playing_as, this_person
from .person_page import link_page, person_page
from .presses import PRESS_SCRIPT
from .reactions import ReactionFeed
from .rules_page import rules_content
from .server import Server
from .settings import Settings, settings_button
from .setup import SetupForm
from .table import TableView
from .table_model import all_tones
from .tournament_page import (
    follow_tables,
    tournament_page,
    tournaments_page,
)
from .turns import TURN_SCRIPT, Entry, YourGames, table_url
from .tv import Invitation, TvView, join_box
from .unconnected import wait_for_socket

log = logging.getLogger(__name__)

RECONNECT_WAIT = 60.0
"""Seconds a table page is kept while its phone is away (asleep, out of Wi-Fi)."""


def register(server: Server) -> None:
    """Serve the pages of ``server`` (NiceGUI keeps one set of addresses per process)."""
    # Quasar's loading bar (shown while the page fetches) is a progressbar: it needs a name.
    app.config.quasar_config["loadingBar"]["aria-label"] = "Loading"
    share_head()

    @ui.page("/")
    async def home() -> None:
        await home_page(server)

    @ui.page("/new")
    async def new_game() -> None:
        await new_game_page(server)

    @ui.page("/play", reconnect_timeout=RECONNECT_WAIT)
    async def play() -> None:
        await play_page(server)

    @ui.page("/r/{code}")
    def invitation(code: str) -> None:
        ui.navigate.to(f"/room/{code}")

    @ui.page("/room/{code}", reconnect_timeout=RECONNECT_WAIT)
    async def room(code: str) -> None:
        await room_page(server, code)

    @ui.page("/games")
    async def my_games() -> None:
        frame(server, f"My games · {APP_NAME}")
        await my_games_page(server, browser_id(), is_host(server),
                            lambda record: app.storage.user.update(imported=record),
                            socket_connected)

    @ui.page("/replay/{game_id}")
    async def replay(game_id: str) -> None:
        frame(server, f"Replay · {APP_NAME}")
        if game_id == IMPORTED_URL.rsplit("/", 1)[1]:
            await replay_page(app.storage.user.get("imported"), None, continue_from(server))
            return
        record = await stored_record(server.store, game_id) if GAME_ID.fullmatch(game_id) \
            else None
        await replay_page(record, game_id, continue_from(server))

    @app.get("/records/{game_id}.json")
    async def record_file(game_id: str) -> Response:
        return await record_download(server, game_id)

    @ui.page("/games/{game_id}/charts")
    async def charts(game_id: str) -> None:
        await charts_page(server, game_id)

    @ui.page("/tv/{code}", reconnect_timeout=RECONNECT_WAIT)
    async def tv(code: str) -> None:
        await tv_page(server, code)

    @ui.page("/rules")
    def rules() -> None:
        rules_page(server, DEFAULT_GAME)

    @ui.page("/rules/{kind}")
    def game_rules(kind: str) -> None:
        rules_page(server, kind)

    @app.api_route("/health", methods=["GET", "HEAD"])  # monitors often ask with HEAD
    async def health_check(request: Request) -> JSONResponse:
        return await health(server, request)

    @app.get(MANIFEST_URL)
    def web_manifest() -> JSONResponse:
        return JSONResponse(manifest(), media_type="application/manifest+json")

    guard = PinGuard(server.config.host_pin)

    @ui.page("/people")
    async def people() -> None:
        frame(server, f"People · {APP_NAME}")
        await PeoplePage(server, Visitor(is_host(server), browser_id()), guard).show()

    @ui.page("/people/link/{code}")
    async def link(code: str) -> None:
        frame(server, f"Another device · {APP_NAME}")
        await link_page(server, code, socket_connected)

    @ui.page("/people/{person_id}")
    async def person(person_id: str) -> None:
        frame(server, f"People · {APP_NAME}")
        await person_page(server, person_id, lambda: reachable_base(server.config),
                          socket_connected)

    @ui.page("/tournaments")
    async def tournaments() -> None:
        frame(server, f"Tournaments · {APP_NAME}")
        await tournaments_page(server, socket_connected)

    @ui.page("/t/{code}")
    async def tournament(code: str) -> None:
        frame(server, f"Tournament · {APP_NAME}")
        await tournament_page(server, code, socket_connected)

    @ui.page("/tv/t/{code}")
    async def tournament_tv(code: str) -> None:
        page_head(f"Tournament TV · {APP_NAME}")
        server.notice.banner()
        await tournament_page(server, code, socket_connected, tv=True)

    @app.get("/t/{code}/results.json")
    async def tournament_results(code: str) -> Response:
        contest = await server.tournaments.get(code)
        if contest is None:
            return JSONResponse({"error": "There is no tournament with that code."},
                                status_code=404)
        return JSONResponse(server.tournaments.results(contest), headers={
            "Content-Disposition": f'attachment; filename="tournament-{contest.code}.json"'})

    app.add_static_files(ICONS_URL, ICONS)
    answer_trouble(server)


def answer_trouble(server: Server) -> None:
    """An address that names no page, and a page that failed, answer with the top bar, a
    plain sentence and the way home (NiceGUI's own pages show an exception's name and
    words, and no way on). A file's or a JSON address's 404 stays NiceGUI's."""
    files_not_found = app.exception_handlers[404]

    @app.exception_handler(404)
    async def not_found(request: Request, exception: Exception) -> Response:
        if request.scope.get("endpoint") not in (None, app):
            answer = files_not_found(request, exception)
            return await answer if inspect.isawaitable(answer) else answer
        with Client(ui.page(""), request=request) as client:
            trouble_page(server, "Page not found", NO_PAGE, 404)
        return client.build_response(request, 404)

    app.on_page_exception(
        lambda: trouble_page(server, "Something went wrong", PAGE_FAILED, 500))


NO_PAGE = "There is no page at this address. Check it, or start again from the home page."
PAGE_FAILED = ("This page could not be shown: something went wrong on the server. Every game "
               "is kept as it was; try again in a moment.")


def trouble_page(server: Server, heading: str, message: str, status: int) -> None:
    """A page that cannot show what its address asks for: what went wrong, and home."""
    ui.context.client.status_code = status
    frame(server, f"{heading} · {APP_NAME}")
    missing(heading, message, "trouble").props("data-testid=trouble-home")


STYLE = (Path(__file__).parent / "style.css").read_text()
"""The pages' own styles, in every page's head (no extra request; kept once:
:func:`share_head`)."""

HEAD = Template("""
<script>
(() => {
  let ctx = null;
  const unlock = () => {
    if (!ctx) ctx = new (window.AudioContext || window.webkitAudioContext)();
    if (ctx.state === 'suspended') ctx.resume();
  };
  addEventListener('pointerdown', unlock, {capture: true});
  addEventListener('keydown', unlock, {capture: true});
  const tones = $tones;
  window.parcheesiSound = (kind, volume) => {
    // (a phone not yet tapped refuses to vibrate, and says so on its console)
    const tapped = !navigator.userActivation || navigator.userActivation.hasBeenActive;
    if (kind === 'turn' && navigator.vibrate && tapped) navigator.vibrate(80);
    if (!ctx || ctx.state !== 'running' || !(volume > 0)) return;
    (tones[kind] || tones.move).forEach((frequency, k) => {
      const start = ctx.currentTime + k * 0.12;
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.frequency.value = frequency;
      gain.gain.setValueAtTime(0.25 * volume, start);
      gain.gain.exponentialRampToValueAtTime(0.001, start + 0.15);
      osc.connect(gain).connect(ctx.destination);
      osc.start(start);
      osc.stop(start + 0.16);
    });
  };
})();
</script>
""")


@cache
def shared_head() -> str:
    """The scripts every page has in its head from the start: a ``<script>`` added once a page
    is connected (a room's table, built after its socket) would be inserted as text and never
    run. The sounds' notes are every game's (``table_model.all_tones``)."""
    sounds = HEAD.substitute(tones=json.dumps(all_tones()))
    return sounds + PRESS_SCRIPT + CLOCK_SCRIPT + TURN_SCRIPT + INSTALL_HEAD


def share_head() -> None:
    """Put the pages' scripts and styles in every page's head, once per process: NiceGUI
    keeps shared head code once, where a page's own would be a copy of some 35 kB held by
    every page until it goes (thousands of pages loaded without a socket would hold
    thousands of copies)."""
    if shared_head() not in Client.shared_head_html:
        ui.add_head_html(shared_head(), shared=True)
        ui.add_css(token_css() + "\n" + STYLE + tone_css(), shared=True)


def page_head(title: str) -> None:
    """The colours and the title of a page (its scripts and styles are every page's:
    :func:`share_head`)."""
    ui.colors(primary=PRIMARY)
    ui.page_title(title)


def frame(server: Server, title: str, game: str = "") -> ui.header:
    """Head, colours and the top bar shared by every page (returned for extra buttons);
    ``game``: the name of the game a table plays, said beside the app's."""
    page_head(title)
    with ui.header().classes("app-header items-center px-3 py-1 shadow-sm") as header:
        ui.link(APP_NAME, "/").classes(
            "text-xl font-bold no-underline touch-target").props(
            f'aria-label="{APP_NAME} home"')
        if game:
            ui.label(game).classes("header-game text-base").props('data-testid=header-game')
        ui.space()
        ui.link("My games", "/games").classes("text-base touch-target").props(
            'data-testid=my-games')
        ui.link("People", "/people").classes("text-base touch-target").props(
            'data-testid=people-link')
        ui.link("Rules", "/rules").classes("text-base touch-target").props(
            'data-testid=rules-link')
    server.notice.banner()
    return header


def page_heading(text: str, hidden: bool = False) -> None:
    """The page's level-one heading; ``hidden``: for screen readers only, on a page that
    shows what it is otherwise (a table, a lobby)."""
    TextElement(tag="h1", text=text).classes("visually-hidden" if hidden else "")


async def socket_connected() -> bool:
    """Wait for this page's browser to connect its socket; False if it never does (a page
    fetched by a script or abandoned while loading is let go of: :mod:`.unconnected`)."""
    return await wait_for_socket(ui.context.client)


def browser_id() -> str:
    return str(app.storage.browser["id"])


def is_host(server: Server) -> bool:
    """Whether this page is open on the server's own machine (straight, not through a
    proxy): the host, who sees every game on the server."""
    request = ui.context.client.request
    return bool(request and request.client and request.client.host in server.host_addresses
                and "x-forwarded-for" not in request.headers)


async def keep_or_replace(server: Server, owner: str) -> bool:
    """Whether a new local game may start: yes when none is in progress, else the player
    is asked whether to abandon it."""
    current = await server.hub.local_game(owner)
    if current is None or current.over:
        return True
    with ui.dialog().props('aria-label="Start a new game?"') as dialog, ui.card():
        ui.label("Abandon the game in progress and start a new one?")
        with ui.row():
            ui.button("Keep playing", on_click=lambda: dialog.submit(False)).props(
                "flat data-testid=keep-game")
            ui.button("Start new game", on_click=lambda: dialog.submit(True)).props(
                "color=negative data-testid=confirm-new-game")
    return bool(await dialog)


def continue_from(server: Server) -> Continue:
    """Play on from a step of a record as this browser's new local game."""
    async def go(record: Record, step: Step) -> None:
        owner = browser_id()
        if not await keep_or_replace(server, owner):
            return
        try:
            await server.hub.create_local(owner, record.local_mode(), record.seats,
                                          record.rules.kind, record.house, start=step.state)
        except SetupError as error:
            ui.notify(f"This game cannot go on here: {error}", type="negative")
            return
        ui.navigate.to("/play")

    return go


def requester() -> tuple[str, ...]:
    """Keys that room-code attempts and seat claims are rate-limited by (this page's
    browser and address; computed while the page is built, so later clicks can use it)."""
    request = ui.context.client.request
    address = request.client.host if request and request.client else "unknown"
    return (f"browser:{browser_id()}", f"address:{address}")


async def home_page(server: Server) -> None:
    frame(server, APP_NAME)
    rooms = server.rooms
    game = await server.hub.local_game(browser_id())
    local = game is not None and not game.over
    with ui.column().classes("w-full max-w-md mx-auto p-4 gap-4 items-stretch"):
        page_heading(APP_NAME, hidden=True)
        ui.label(tagline()).classes("text-lg")
        who = ui.row().classes("w-full min-h-10")
        tables_box = ui.column().classes("w-full gap-2 items-stretch home-slot")
        resume_box = ui.column().classes("w-full gap-2 items-stretch home-slot")
        ui.button("New game", on_click=lambda: ui.navigate.to("/new")).props(
            'data-testid=new-game size=lg')
        with ui.card().classes("w-full"):
            ui.label("Join a room").classes("font-medium")
            code = ui.input("Room code", placeholder="ABCD 2345").props(
                'data-testid=join-code autocapitalize=characters maxlength=12')
            error = ui.label("").classes("text-negative").props('role=alert')

            async def join() -> None:
                try:
                    room = await rooms.find(code.value or "", *requester(), live=False)
                except RoomError as problem:
                    error.set_text(str(problem))
                    return
                ui.navigate.to(f"/room/{room.code}")

            code.on("keydown.enter", join)
            ui.button("Join", on_click=join).props('data-testid=join')
        with ui.row().classes("w-full justify-center gap-6"):
            ui.link("How to play", "/rules").classes("touch-target")
            ui.link("Tournaments", "/tournaments").classes("touch-target").props(
                "data-testid=tournaments-link")
        # Last on the page: it comes once the socket is connected and moves nothing above it.
        games_box = ui.column().classes("w-full gap-2 items-stretch")

    def show_resume(online: list[str]) -> None:
        with resume_box:
            if not local and not online:
                return
            with ui.dialog().props('aria-label="Resume a game"') as choose, ui.card():
                ui.label("Which game do you want to continue?")
                if local:
                    ui.button("The game on this device", on_click=lambda: ui.navigate.to(
                        "/play")).props('data-testid=resume-local')
                for room_code in online:
                    ui.button(f"Online room {spaced_code(room_code)}",
                              on_click=lambda c=room_code: ui.navigate.to(f"/room/{c}")).props(
                        f'data-testid=resume-room-{room_code}')

            def resume() -> None:
                if local and not online:
                    ui.navigate.to("/play")
                elif online and not local and len(online) == 1:
                    ui.navigate.to(f"/room/{online[0]}")
                else:
                    choose.open()

            ui.button("Resume", on_click=resume).props(
                'data-testid=resume color=primary size=lg')

    offered: list[str] = []
    """The online rooms the resume button offers now."""

    def offer(entries: list[Entry]) -> None:
        nonlocal offered
        online = [e.key for e in entries if e.key != "local"]
        if online != offered:  # unchanged, it keeps a choice the person has open
            offered = online
            resume_box.clear()
            show_resume(online)

    if local:
        show_resume([])
    if not await socket_connected():
        return
    await playing_as(server.people, who)
    person = await this_person(server.people)
    if person is not None:
        await follow_tables(server.tournaments, person.id, tables_box)
    await YourGames(server.store, rooms, game if local else None, games_box,
                    server.hub.wall, offer).draw()


async def new_game_page(server: Server) -> None:
    frame(server, f"New game · {APP_NAME}")
    rooms, hub = server.rooms, server.hub
    owner = browser_id()

    async def start(mode: str, seats: list[Seat], kind: str, house: tuple[str, ...],
                    clock: int, stand_in: str) -> None:
        if mode == ONLINE:
            try:
                room, token = await rooms.create(seats, kind, house, clock, stand_in)
            except RoomError as error:
                ui.notify(str(error), type="negative")
                return
            try:
                await store_token(room.code, token)
            except TimeoutError:  # without the key in this browser nobody holds the host seat
                await rooms.discard(room)
                ui.notify("This browser did not keep the room's key in time, so the room was "
                          "not made. Please try again.", type="negative")
                return
            ui.navigate.to(f"/room/{room.code}")
            return
        if not await keep_or_replace(server, owner):
            return
        await hub.create_local(owner, mode, seats, kind, house)
        ui.navigate.to("/play")

    async def identify() -> Person | None:
        return await this_person(server.people)

    with ui.column().classes("w-full max-w-xl mx-auto p-4"):
        page_heading("New game")
        form = weakref.ref(SetupForm(start, await server.people.everyone(), identify))
    # The browser says whose it is once connected; the form is not kept alive for it (a
    # page closed meanwhile lets go of its form at once).
    if await socket_connected():
        me = await identify()
        drawn = form()
        if drawn is not None:
            drawn.played_by(me)


async def play_page(server: Server) -> None:
    game = await server.hub.local_game(browser_id(), finished_too=True)
    if game is None:
        frame(server, APP_NAME)
        ui.navigate.to("/")
        return
    header = frame(server, f"{game.rules.title} · {APP_NAME}", game.rules.title)
    settings = Settings(app.storage.user)
    humans = [s.colour for s in game.seats.values() if s.is_human]
    local = humans[0] if game.mode == SOLO and humans else None
    owner = browser_id()

    async def play_again() -> None:
        """The same seats again, with new dice, the opening roll begun by the next seat (a
        second tap finds a game in progress)."""
        current = await server.hub.local_game(owner)
        last = await server.store.game(game.id)
        if current is None and last is not None:
            seats = list(game.seats.values())
            await server.hub.create_local(owner, game.mode, seats, game.kind, game.house,
                                          start=next_opening(last, seats, game.house))
        ui.navigate.to("/play")

    async def switch_seat(colour: int, human: bool) -> None:
        try:
            await server.hub.switch_seat(game, colour, human)
        except SetupError as error:
            ui.notify(str(error), type="warning")

    with ui.column().classes("w-full max-w-6xl mx-auto p-2 gap-2"):
        page_heading(game.rules.title, hidden=True)
        view = TableView(LocalSeating(game, local), settings, lambda: ui.navigate.to("/new"),
                         play_again, switch_seat=switch_seat,
                         rating_changes=server.ratings.changes)
    with header:
        settings_button(settings, lambda: view.redraw([]), game.rules,
                        shared_screen=game.mode == SAME_DEVICE)
    ensure_runner(game, server.config.pace)
    if not await socket_connected():
        return
    view.shares = asyncio.get_running_loop().create_future()
    try:
        await add_randomness(game, humans)
    finally:
        view.shares.set_result(None)
    settings.system_reduced_motion = bool(await ask_browser(
        "matchMedia('(prefers-reduced-motion: reduce)').matches", False))
    view.redraw([])


RANDOM_BYTES_JS = ("Array.from(crypto.getRandomValues(new Uint8Array({size})), "
                   "b => b.toString(16).padStart(2, '0')).join('')")


async def add_randomness(game: LiveGame, colours: list[int]) -> None:
    """Before the first roll, each human seat this browser plays adds random bytes of its
    own to the dice (``parcheesi.server.fairness``): the server committed to its secret first."""
    if game.version or not game.commitment or not colours:
        return
    size = fairness.CONTRIBUTION_BYTES
    value = await ask_browser(RANDOM_BYTES_JS.format(size=size * len(colours)), "")
    if not isinstance(value, str):
        return
    for k, colour in enumerate(colours):
        await game.contribute(colour, value[2 * size * k:2 * size * (k + 1)])


def invite_url(code: str, config: Config) -> str:
    """The invitation link, with an address phones can reach when the host uses localhost."""
    return f"{reachable_base(config)}/r/{code}"


def tv_url(code: str, config: Config) -> str:
    """The room's TV view, at an address other devices can reach."""
    return f"{reachable_base(config)}/tv/{code}"


def reachable_base(config: Config) -> str:
    """This server as other devices on the network reach it (:func:`base_for`)."""
    request = ui.context.client.request
    asked = request.headers.get("host", "") if request else ""
    return base_for(asked, request.url.scheme if request else "http", config.host, config.port)


LOOPBACK = frozenset({"localhost", "127.0.0.1", "::1"})


def base_for(asked: str, scheme: str, bound: str, port: int) -> str:
    """The address a page was ``asked`` for (its Host), unless that was this machine's own:
    then a LAN address, which phones can open, or, when the server listens on this machine
    alone (``bound``), localhost: no other device could open a LAN address."""
    if asked and urlsplit(f"//{asked}").hostname not in LOOPBACK:
        return f"{scheme}://{asked}"
    urls = lan_urls(port) if bound not in LOOPBACK else []
    return urls[0] if urls else f"http://localhost:{port}"


async def room_page(server: Server, code: str) -> None:
    rooms = server.rooms
    try:
        room = await rooms.find(code, *requester())
    except RoomError as error:
        frame(server, f"Room · {APP_NAME}")
        missing("Room", str(error), "room-error")
        try_again_if_busy(error)
        return
    title = rules_for(room.kind).title
    header = frame(server, f"{title} room · {APP_NAME}", title)
    client = ui.context.client
    keys = requester()
    browser = browser_id()
    # The browser's settings are read while its request is still being answered: NiceGUI may
    # let go of a browser's stored settings between the response and the socket.
    settings = Settings(app.storage.user)
    if not await socket_connected():
        return
    token = await read_token(room.code)
    person = await this_person(server.people)
    if room.tournament and person and room.colour_of(token) is None:
        assigned = await rooms.take_assigned(room, person.id)  # a tournament seat is theirs
        if assigned is not None:
            token = assigned
            await store_token(room.code, assigned)
    seat = {"token": token}
    rooms.connect(room, room.colour_of(token))
    # NiceGUI calls the disconnect handlers whenever the socket drops, also when the same page
    # reconnects a moment later (a phone waking up): count the reconnection as well, and stop
    # following the room only when the page is gone for good.
    client.on_connect(lambda: rooms.connect(room, room.colour_of(seat["token"])))
    client.on_disconnect(lambda: rooms.disconnect(room, room.colour_of(seat["token"])))
    page_heading(f"{rules_for(room.kind).title} room", hidden=True)
    content = ui.column().classes("w-full max-w-6xl mx-auto p-2 gap-2")
    shown: dict[str, str | None] = {"game": None}

    def claimed(new_token: str) -> None:
        seat["token"] = new_token
        rooms.connect(room, room.colour_of(new_token))

    async def draw() -> None:
        if room.status == RoomStatus.LOBBY:
            LobbyView(rooms, room, seat["token"], invite_url(room.code, server.config),
                      keys, on_claimed=claimed,
                      tv_url=tv_url(room.code, server.config), person=person)
            return
        shown["game"] = room.game_id
        await play_room(server, room, seat["token"], header, settings, browser)

    async def build() -> None:
        """Draw the lobby or the game; again whenever the room moves on to a new game. A
        drawing that fails (the database out of reach for a moment) says so, with a button
        to draw it again, rather than leaving the page empty."""
        content.clear()
        try:
            with content:
                await draw()
        except Exception:
            log.exception("a room's page could not be drawn", extra={"room": room.code})
            content.clear()
            with content:
                ui.label("This table could not be shown just now.").props(
                    'role=alert data-testid=room-error')
                ui.button("Try again", on_click=build).props('data-testid=room-retry')

    follow_games(rooms, room, shown, build)
    await build()


def follow_games(rooms: Rooms, room: Room, shown: dict[str, str | None],
                 build: Callable[[], Awaitable[None]]) -> None:
    """Build the page again whenever the room moves on to a game other than ``shown``'s
    (the start, Play again) or back to its lobby (Play again after a player left), until
    the page is gone."""

    lobby = {"shown": room.status == RoomStatus.LOBBY}

    def follow(changed: Room) -> None:
        in_lobby = changed.status == RoomStatus.LOBBY
        if in_lobby != lobby["shown"] or (not in_lobby and changed.game_id != shown["game"]):
            lobby["shown"] = in_lobby
            shown["game"] = None if in_lobby else changed.game_id
            background_tasks.create(build(), name="room next game")

    rooms.subscribe(room, follow)
    ui.context.client.on_delete(lambda: rooms.unsubscribe(room, follow))


async def play_room(server: Server, room: Room, token: str | None, header: ui.header,
                    settings: Settings, browser: str) -> None:
    rooms = server.rooms
    game = await rooms.game(room)
    if game is None:
        ui.label("This room's game could not be found.").props('role=alert')
        return
    colour = room.colour_of(token)
    if colour is not None:
        await server.store.took_part(game.id, browser)
        await add_randomness(game, [colour])
    if ui.context.client.is_deleted:  # the page went while it waited: no table to follow
        return

    async def play_again() -> None:
        if room.game_id != game.id:  # a second tap, or another tab was quicker: done already
            return
        try:
            await rooms.play_again(room, token)
        except RoomError as error:
            ui.notify(str(error), type="negative")

    async def leave() -> None:
        try:
            await rooms.leave(room, token)
            await forget_token(room.code)
        except (RoomError, ValueError) as error:
            ui.notify(str(error), type="negative")
            return
        ui.navigate.to("/")

    replaced = room.replaced_colour(token) if colour is None else None
    if replaced is not None:
        ui.label(f"The host gave your seat ({game.rules.colours[replaced].title()}) to a "
                 "computer while you were away. You are watching this room now.").classes(
            "text-grey-8").props('data-testid=seat-replaced role=status')
    elif colour is None:
        ui.label("You are watching this room: all its seats are taken.").classes("text-grey-8")
    guest = colour is not None and colour != room.host and not room.tournament
    seating = RoomSeating(rooms, room, token, game, colour)
    view = TableView(seating, settings, lambda: ui.navigate.to("/new"),
                     None if room.tournament else play_again, leave if guest else None,
                     away=seating.away, rating_changes=server.ratings.changes)
    if room.tournament:
        ui.link("Back to the tournament", f"/t/{room.tournament}").classes(
            "touch-target").props("data-testid=tournament-back")
    tv_link(room.code)
    table_tools(rooms, room, token, view)  # on the turn line: reactions, host, seat
    with header:
        settings_button(settings, lambda: view.redraw([]), game.rules, shared_screen=False)
    ensure_runner(game, server.config.pace)


def tv_link(code: str) -> None:
    """The link to the room's TV view (opened beside the table, which stays as it is)."""
    ui.link("TV view", f"/tv/{code}", new_tab=True).classes("touch-target").props(
        'data-testid=tv-link aria-label="Open the TV view of this room"')


BUSY_RETRY = 3.0
"""Seconds before a room page that found its room live in another process asks again."""


def try_again_if_busy(error: RoomError) -> None:
    """A room live in another process just now (its shard restarting): load the page again
    in a moment, where it will be."""
    if isinstance(error, Busy):
        ui.timer(BUSY_RETRY, ui.navigate.reload, once=True)


async def tv_page(server: Server, code: str) -> None:
    """The room's current game for a TV: no header, no controls, no seat. The page follows
    the room from its lobby to its game and on to each next game (Play again). It counts as
    nobody's presence and starts no computers: they play while a player's page is open."""
    page_head(f"TV · {APP_NAME}")
    ui.query("body").classes("tv-body")
    server.notice.banner()
    rooms = server.rooms
    try:
        room = await rooms.find(code, *requester())
    except RoomError as error:
        missing("TV view", str(error), "tv-error", large=True)
        try_again_if_busy(error)
        return
    if not await socket_connected():
        return
    reduced = bool(await ask_browser(
        "matchMedia('(prefers-reduced-motion: reduce)').matches", False))
    page_heading(f"{rules_for(room.kind).title} on TV", hidden=True)
    content = ui.element("div").classes("tv-page")
    ReactionFeed(rooms, room, tv=True)
    invitation = Invitation(room.code, invite_url(room.code, server.config))
    shown: dict[str, str | None] = {"game": None}
    views: list[TvView] = []

    async def build() -> None:
        for view in views:
            view.close()
        views.clear()
        content.clear()
        with content:
            if room.status == RoomStatus.LOBBY:
                tv_waiting(room)
                join_box(invitation, large=True)
                return
            shown["game"] = room.game_id
            game = await rooms.game(room)
            if game is None:
                ui.label("This room's game could not be found.").props('role=alert')
                return
            views.append(TvView(game, room.host, reduced, invitation))

    follow_games(rooms, room, shown, build)
    await build()


def tv_waiting(room: Room) -> None:
    """The TV before the room's first game: which room, and that it waits for the start."""
    with ui.column().classes("tv-waiting items-center gap-4").props('data-testid=tv-waiting'):
        ui.label(game_words(room)).classes("text-2xl")
        ui.label(spaced_code(room.code)).classes(
            "tv-code font-mono font-bold tracking-widest").props('data-testid=room-code')
        ui.label("The game appears here when the host starts it.").classes("text-xl")


async def health(server: Server, request: Request) -> JSONResponse:
    """For reverse proxies and monitors, within a second: 200 while the database takes
    writes, 503 with the reason when it cannot (its file is no longer the one the server
    opened, a write failed), 503 with "busy" while it has not answered in time (another
    program holds it locked). Asked from the server's own machine, straight (not through
    the proxy), with ``?rooms=1``, it lists the codes of the rooms live in this process (the
    cluster's drills check that no room is live in two)."""
    problem = await server.notice.check()
    body: dict[str, object] = {
        "status": "ok" if problem is None else "unavailable",
        "database": "ok" if problem is None else problem, "shard": str(server.config.shard),
        "live_games": len(server.hub.games), "rooms": len(server.rooms.rooms)}
    if server.config.redis_url:
        body["settings"] = "unreachable" if server.notice.settings_lost else "ok"
    straight = request.client is not None and request.client.host in server.host_addresses \
        and "x-forwarded-for" not in request.headers
    if straight and request.query_params.get("rooms") == "1":
        body["live_rooms"] = sorted(server.rooms.rooms)
    return JSONResponse(body, status_code=200 if problem is None else 503)


def rules_url(kind: str) -> str:
    """A game's rules page: ``/rules`` for the default game, ``/rules/<kind>`` for the others
    (``/rules/<kind>`` serves every game)."""
    return "/rules" if kind == DEFAULT_GAME else f"/rules/{kind}"


def rules_page(server: Server, kind: str) -> None:
    """The rules of game ``kind``, with links to the other games' rules; a game this server
    does not play is a page not found (404) that names the ones it does."""
    if not plays(kind):
        titles = " and ".join(rules.title for rules in games().values())
        trouble_page(server, "Page not found", f"There are no rules for {brief(repr(kind))} "
                                               f"here: this server plays {titles}.", 404)
        return
    game = rules_for(kind)
    frame(server, f"{game.title} rules · {APP_NAME}")
    with ui.column().classes("w-full max-w-2xl mx-auto p-4"):
        page_heading(f"Rules of {game.title}")
        with ui.row().classes("gap-4"):
            for other, rules in games().items():
                if other != kind:
                    ui.link(f"{rules.title} rules", rules_url(other)).classes(
                        "touch-target").props(f'data-testid=rules-{other}')
        rules_content(game)
        ui.link("Back", "/").classes("touch-target").props('data-testid=back')


async def charts_page(server: Server, game_id: str) -> None:
    """The race and the luck of the dice of a finished game, for anyone with its address
    (a game's id is 128 random bits); for a game going on, when they will come."""
    frame(server, f"Charts · {APP_NAME}")
    row = await server.store.game(game_id) if GAME_ID.fullmatch(game_id) else None
    raw = await stored_record(server.store, game_id) if row is not None else None
    # the replay takes a tenth of a second or two: on a thread, so the tables keep going
    shown = (await asyncio.to_thread(finished_game, raw) if raw is not None
             else "There is no game at this address.")
    ui.query(".nicegui-content").style("padding: 8px")  # the charts take the phone's width
    with ui.column().classes("w-full max-w-2xl mx-auto gap-3 items-stretch"):
        if isinstance(shown, str):
            page_heading("Charts")
            ui.label(shown).classes("text-lg").props('role=alert data-testid=charts-message')
            view = None
        else:
            view = ChartsView(shown)
        if row is not None:
            ui.link("Back to the table", table_url(row.owner)).classes("touch-target").props(
                'data-testid=charts-back')
        ui.link("Home", "/").classes("touch-target")
    if view is None or not await socket_connected():
        return
    if await ask_browser("matchMedia('(prefers-color-scheme: dark)').matches", False):
        view.use_ink(DARK)


def lan_urls(port: int) -> list[str]:
    """Addresses phones on the same network can open."""
    urls = []
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            if isinstance(ip.ip, str) and not ip.ip.startswith("127."):
                urls.append(f"http://{ip.ip}:{port}")
    return sorted(set(urls))


