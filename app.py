"""Start the Parcheesi server: pages and wiring only; the game lives in ``parcheesi/``.

    python app.py [--host 0.0.0.0] [--port 8080] [--database-url URL] [--pace 0.5]
"""

from __future__ import annotations

import os
import sys

import ifaddr
from nicegui import app, ui

from components.rules_page import rules_content
from components.settings import Settings, settings_button
from components.setup import SetupForm
from components.table import TableView
from parcheesi.config import ConfigError, parse
from parcheesi.runner import ensure_runner
from parcheesi.store import Store
from parcheesi.tables import Hub, Seat

SIMULATED = "NICEGUI_USER_SIMULATION" in os.environ or "NICEGUI_SCREEN_TEST_PORT" in os.environ
"""Under NiceGUI's test fixtures the command line belongs to pytest, not to us."""

try:
    config = parse([] if SIMULATED else sys.argv[1:])
except ConfigError as error:
    sys.exit(f"parcheesi: {error}")

store = Store(config.database_url)
hub = Hub(store)
app.on_startup(store.init)
app.on_shutdown(store.close)

HEAD = """
<style>
  .table-layout { display: grid; gap: 12px; grid-template-columns: 1fr; }
  .board-box { width: min(100%, 72vh); }
  @media (min-width: 900px) {
    .table-layout { grid-template-columns: minmax(0, 1.3fr) minmax(320px, 1fr); }
    .board-box { width: min(100%, 76vh); }
  }
  .rules-text h2 { font-size: 1.2rem; font-weight: 600; margin: 1rem 0 0.3rem; }
</style>
<script>
(() => {
  let ctx = null;
  const unlock = () => {
    if (!ctx) ctx = new (window.AudioContext || window.webkitAudioContext)();
    if (ctx.state === 'suspended') ctx.resume();
  };
  addEventListener('pointerdown', unlock, {capture: true});
  addEventListener('keydown', unlock, {capture: true});
  const tones = {move: [520], capture: [330, 220], win: [523, 659, 784]};
  window.parcheesiSound = (kind, volume) => {
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
"""


def frame(title: str) -> ui.header:
    """Head, colours and the top bar shared by every page (returned for extra buttons)."""
    ui.add_head_html(HEAD)
    ui.colors(primary="#8b1e2d")
    ui.page_title(title)
    with ui.header().classes("items-center px-3 py-1 bg-white text-black shadow-sm") as header:
        ui.link("Parcheesi", "/").classes("text-xl font-bold no-underline text-black").props(
            'aria-label="Parcheesi home"')
        ui.space()
        ui.link("Rules", "/rules").classes("text-base").props('data-testid=rules-link')
    return header


def browser_id() -> str:
    return str(app.storage.browser["id"])


@ui.page("/")
async def home_page() -> None:
    frame("Parcheesi")
    game = await hub.local_game(browser_id())
    with ui.column().classes("w-full max-w-md mx-auto p-4 gap-4 items-stretch"):
        ui.label("Classic Parcheesi for the family table.").classes("text-lg")
        if game is not None and not game.over:
            ui.button("Resume", on_click=lambda: ui.navigate.to("/play")).props(
                'data-testid=resume color=primary size=lg')
        ui.button("New game", on_click=lambda: ui.navigate.to("/new")).props(
            'data-testid=new-game size=lg' + ("" if game else " color=primary"))
        ui.link("How to play", "/rules").classes("text-center")


@ui.page("/new")
async def new_game_page() -> None:
    frame("New game · Parcheesi")
    owner = browser_id()

    async def start(mode: str, seats: list[Seat]) -> None:
        current = await hub.local_game(owner)
        if current is not None and not current.over:
            with ui.dialog() as dialog, ui.card():
                ui.label("Abandon the game in progress and start a new one?")
                with ui.row():
                    ui.button("Keep playing", on_click=lambda: dialog.submit(False)).props(
                        "flat data-testid=keep-game")
                    ui.button("Start new game", on_click=lambda: dialog.submit(True)).props(
                        "color=negative data-testid=confirm-new-game")
            if not await dialog:
                return
        await hub.create_local(owner, mode, seats)
        ui.navigate.to("/play")

    with ui.column().classes("w-full max-w-xl mx-auto p-4"):
        SetupForm(start)


@ui.page("/play", reconnect_timeout=60)
async def play_page() -> None:
    header = frame("Parcheesi")
    game = await hub.local_game(browser_id(), finished_too=True)
    if game is None:
        ui.navigate.to("/")
        return
    settings = Settings(app.storage.user)
    humans = [s.colour for s in game.seats.values() if s.is_human]
    local = humans[0] if game.mode == "solo" and humans else None
    with ui.column().classes("w-full max-w-6xl mx-auto p-2 gap-2"):
        view = TableView(game, settings, lambda: ui.navigate.to("/new"), local_colour=local)
    with header:
        settings_button(settings, lambda: view.redraw([]))
    ensure_runner(game, config.pace)
    if "NICEGUI_USER_SIMULATION" not in os.environ:  # no browser to ask in simulated tests
        await ui.context.client.connected()
        settings.system_reduced_motion = bool(await ui.run_javascript(
            "matchMedia('(prefers-reduced-motion: reduce)').matches"))
        view.redraw([])


@ui.page("/rules")
def rules_page() -> None:
    frame("Rules · Parcheesi")
    with ui.column().classes("w-full max-w-2xl mx-auto p-4"):
        rules_content()
        ui.link("Back", "/").props('data-testid=back')


def lan_urls(port: int) -> list[str]:
    """Addresses phones on the same network can open."""
    urls = []
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            if isinstance(ip.ip, str) and not ip.ip.startswith("127."):
                urls.append(f"http://{ip.ip}:{port}")
    return sorted(set(urls))


def announce() -> None:
    if config.host in ("0.0.0.0", "::"):
        urls = lan_urls(config.port)
        if urls:
            print("Phones on this network can open: " + ", ".join(urls), flush=True)


app.on_startup(announce)

if __name__ in {"__main__", "__mp_main__"}:
    ui.run(host=config.host, port=config.port, title="Parcheesi", reload=False, show=False,
           storage_secret=config.storage_secret, reconnect_timeout=10, favicon="🎲",
           show_welcome_message=True)
