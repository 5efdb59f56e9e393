"""Accessibility of every page, as axe-core finds it, in headless Chromium: at phone size
(390 x 844) and at 1280 x 800 no violation of impact "serious" or "critical", and a
level-one heading on every page; at phone size in dark colours, no contrast too low.

axe-core (the npm package, its major version pinned) is installed by ``scripts/test.sh``
into ``.axe/`` (git-ignored); without it these tests fail and say how to install it. Each
page is loaded in the state to look at (a table before and after a roll and with its
settings open, a room's lobby as a guest and as its host, its table with the host's tools
open, a finished game's replay and charts, a record refused, ...); ``axe.min.js`` is
injected into it and ``axe.run(document)`` looks at it in each size and colours: they
change under the loaded page, as a phone turned, a window resized or the system's dark mode
switched on would change them, with the page's transitions made instant so that no colour
is read half-way. Every problem of every page is gathered first, then reported at once:
each violation's id, impact, help and nodes.

The dice seed is fixed and the computers play at pace 0; waiting is on conditions only.
"""

from __future__ import annotations

import functools
from pathlib import Path

import pytest
from conftest import PHONE_VIEWPORT, TV_VIEWPORT, on_server_loop
from nicegui.testing import Screen
from test_browser_table import (
    DESKTOP_VIEWPORT,
    SEED,
    all_now,
    by_testid,
    css,
    enabled_button,
    shown,
    start_solo_game,
    until,
)

from components.lobby import token_key
from components.person import ASKED_KEY, PERSON_KEY
from components.server import Server
from parcheesi.server.live import HUMAN, Seat
from parcheesi.server.tournament import Settings
from parcheesi.server.tournaments import Request
from tests.chart_helpers import store_finished_game

pytestmark = pytest.mark.browser

AXE = Path(__file__).resolve().parent.parent / ".axe" / "node_modules" / "axe-core" / "axe.min.js"
INSTALL = "npm install --no-save --no-audit --no-fund --prefix .axe axe-core@4"
"""What ``scripts/test.sh`` runs when ``AXE`` is missing."""
COLOUR_RULES = ["color-contrast", "link-in-text-block"]
LOOKS = (("phone", PHONE_VIEWPORT, "light", None), ("1280x800", DESKTOP_VIEWPORT, "light", None),
         ("phone, dark", PHONE_VIEWPORT, "dark", COLOUR_RULES))
"""The sizes and colours each page is looked at in (the pages follow the browser's), and
the rules run (None: all; in dark colours, only what the colours change)."""
BLOCKING = ("serious", "critical")
REQUIRED = ("page-has-heading-one",)
"""Rules of a lower impact ("moderate") that the pages keep to all the same."""
AXE_WAIT = 30.0
GAME = "a11e" * 8
RUBY, SAPPHIRE = 0, 2

RUN_AXE = """
const done = arguments[arguments.length - 1];
const contrast = n => n.any.map(c => c.data).filter(d => d && d.contrastRatio).map(
  d => ` (${d.fgColor} on ${d.bgColor}: ${d.contrastRatio}:1, needs ${d.expectedContrastRatio})`
).join('');
const words = n => {
  const found = document.querySelector(n.target[n.target.length - 1]);
  return found ? ` "${found.textContent.trim().slice(0, 60)}"` : '';
};
axe.run(document, {resultTypes: ['violations'], ...arguments[0]}).then(
  result => done(result.violations.map(v => ({
    id: v.id, impact: v.impact, help: v.help, count: v.nodes.length,
    nodes: v.nodes.slice(0, 8).map(n => n.target.join(' ') + ' '
      + n.html.split('>')[0].replace(/ class="[^"]*"/, '').slice(0, 200) + '>'
      + words(n) + contrast(n))}))),
  error => done('axe failed: ' + error));
"""
"""Each violation: its id, impact, help and (the first 8 of) its nodes, each with its
selector, its opening tag, its words and, for a contrast, the colours and their ratio."""
INSTANT = """const style = document.createElement('style');
style.textContent = `*, *::before, *::after { transition-duration: 0s !important;
  transition-delay: 0s !important; animation-duration: 0s !important;
  animation-delay: 0s !important; }`;
document.head.append(style);"""
"""Transitions and CSS animations jump to their end."""
SETTLED = """return document.getAnimations().every(
  a => a.playState !== 'running' || a.effect.getComputedTiming().endTime === Infinity
       || a.effect.target?.classList.contains('q-loading-bar'))"""
"""Nothing half-way (what started before ``INSTANT``); the loading bar, which axe's own
fetches of the page's styles start, has a name and no words to read."""


@pytest.fixture(autouse=True)
def fixed_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("parcheesi.server.fairness.dice_seed", lambda secret, added: SEED)


@functools.cache
def axe_source() -> str:
    if not AXE.exists():
        pytest.fail(f"axe-core is not installed ({AXE} is missing): run ./scripts/test.sh, "
                    f"or {INSTALL}", pytrace=False)
    return AXE.read_text()


class Audit:
    """The serious and critical violations axe finds on each page looked at."""

    def __init__(self, screen: Screen) -> None:
        self.screen = screen
        self.problems: list[str] = []
        axe_source()

    def look(self, page: str) -> None:
        """Run axe on the page as it is now, in every size and colours."""
        driver = self.screen.selenium
        driver.set_script_timeout(AXE_WAIT)
        if not driver.execute_script("return typeof window.axe === 'object'"):
            driver.execute_script(axe_source())
            driver.execute_script(INSTANT)
        try:
            for name, viewport, colours, rules in LOOKS:
                driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", viewport)
                use_colours(self.screen, colours)
                until(self.screen, lambda: driver.execute_script(SETTLED),
                      "the page's transitions and animations to end")
                found = driver.execute_async_script(RUN_AXE, {"runOnly": rules} if rules else {})
                assert not isinstance(found, str), f"{page} at {name}: {found}"
                self.problems.extend(
                    f"{page} at {name}: {v['id']} ({v['impact']}): {v['help']}; "
                    f"{v['count']} node(s):\n    " + "\n    ".join(v["nodes"])
                    for v in found if v["impact"] in BLOCKING or v["id"] in REQUIRED)
        finally:
            driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", PHONE_VIEWPORT)
            use_colours(self.screen, None)

    def check(self) -> None:
        assert not self.problems, (
            f"{len(self.problems)} accessibility violation(s):\n" + "\n".join(self.problems))


def use_colours(screen: Screen, colours: str | None) -> None:
    """The browser asks for light or dark colours (None: its own, light); wait for the
    page to follow."""
    asked = [] if colours is None else [{"name": "prefers-color-scheme", "value": colours}]
    screen.selenium.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": asked})
    body = f"body--{colours or 'light'}"
    until(screen, lambda: screen.selenium.execute_script(
        "return document.body.classList.contains(arguments[0])", body), f"the {body} page")


def shows(screen: Screen, testid: str) -> None:
    until(screen, lambda: shown(screen, testid), f"data-testid={testid} to show")


def test_the_home_setup_rules_and_not_found_pages(screen: Screen) -> None:
    audit = Audit(screen)
    screen.allowed_js_errors.append("/no-such-page - Failed to load resource: the server "
                                    "responded with a status of 404")  # as it must
    for page, testid in (("/", "new-game"), ("/new", "start-game"), ("/rules", "rules"),
                         ("/rules/ludo", "rules"), ("/no-such-page", "trouble")):
        screen.open(page)
        shows(screen, testid)
        audit.look(page)
    audit.check()


def roll(screen: Screen) -> None:
    """Ruby rolls for the start and then for the turn: the moves are on offer."""
    by_testid(screen, "roll").click()
    until(screen, lambda: enabled_button(screen, "roll", "Roll"), "Ruby's roll")
    by_testid(screen, "roll").click()
    until(screen, lambda: any(b.is_enabled() for b in all_now(screen, '[data-testid^="piece-"]')),
          "a piece to move")


def test_the_tables_of_both_games(screen: Screen) -> None:
    audit = Audit(screen)
    start_solo_game(screen)
    audit.look("/play (Parcheesi)")
    roll(screen)
    audit.look("/play (Parcheesi) after a roll")
    by_testid(screen, "settings").click()
    shows(screen, "settings-dialog")
    audit.look("/play (Parcheesi) with the settings open")

    screen.open("/new")
    screen.click("Ludo")
    until(screen, lambda: bool(all_now(screen, css("seat-red"))), "the Ludo seats")
    screen.click("2 players")
    until(screen, lambda: not all_now(screen, css("seat-green")), "two seats")
    by_testid(screen, "start-game").click()
    shows(screen, "confirm-new-game")  # the Parcheesi game is going on
    audit.look("/new (abandon the game in progress?)")
    by_testid(screen, "confirm-new-game").click()
    until(screen, lambda: enabled_button(screen, "roll", "Roll for the start"), "the Ludo table")
    roll(screen)
    audit.look("/play (Ludo) after a roll")
    audit.check()


FAINT_BUTTONS = """
const rgb = c => c.match(/[\\d.]+/g).map(Number);
const lum = ([r, g, b]) => [r, g, b].map(v => v / 255).map(
  v => v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4)
  .reduce((sum, v, k) => sum + v * [0.2126, 0.7152, 0.0722][k], 0);
const under = e => { for (; e; e = e.parentElement) {
  const c = getComputedStyle(e).backgroundColor; if (rgb(c)[3] !== 0) return c; }
  return 'rgb(255, 255, 255)'; };
return [...document.querySelectorAll('.q-btn--flat, .q-btn--outline')].filter(b => b.offsetWidth)
  .map(b => { const [f, g] = [lum(rgb(getComputedStyle(b).color)), lum(rgb(under(b)))];
    return [b.getAttribute('aria-label') || b.textContent.trim(),
            Math.round(100 * (Math.max(f, g) + 0.05) / (Math.min(f, g) + 0.05)) / 100]; })
  .filter(([, ratio]) => ratio < 4.5);"""
"""The flat and outlined buttons shown whose colour reads at less than 4.5:1 on the surface
under them, with their ratio."""


def test_buttons_read_on_dark_surfaces(screen: Screen) -> None:
    """In dark colours, the flat buttons read on the surface under them: the settings button,
    the settings dialog's Close, the lobby's copy button. axe judges no icon, and leaves a
    dialog's words over its backdrop undecided, so this looks itself."""
    start_solo_game(screen)
    use_colours(screen, "dark")
    try:
        by_testid(screen, "settings").click()
        shows(screen, "settings-dialog")
        until(screen, lambda: screen.selenium.execute_script(SETTLED), "the dialog to open")
        assert screen.selenium.execute_script(FAINT_BUTTONS) == []
        room, _ = on_server_loop(screen.app_server.rooms.create(  # type: ignore[attr-defined]
            [Seat(RUBY, HUMAN, name="Hana"), Seat(SAPPHIRE, HUMAN)]))
        screen.open(f"/room/{room.code}")
        shows(screen, "guest-name")
        assert screen.selenium.execute_script(FAINT_BUTTONS) == []
    finally:
        use_colours(screen, None)


def test_a_rooms_lobby_its_table_and_its_tv(screen: Screen) -> None:
    server: Server = screen.app_server  # type: ignore[attr-defined]
    rooms = server.rooms
    audit = Audit(screen)
    screen.open("/rules")  # a page of the server's origin, for its localStorage
    room, host = on_server_loop(rooms.create([Seat(RUBY, HUMAN, name="Hana"),
                                              Seat(SAPPHIRE, HUMAN)]))
    screen.open(f"/room/{room.code}")
    shows(screen, "guest-name")
    audit.look("/room/<code> (a guest)")
    screen.open(f"/tv/{room.code}")
    shows(screen, "tv-waiting")
    audit.look("/tv/<code> (the lobby)")

    screen.selenium.execute_script("localStorage.setItem(arguments[0], arguments[1])",
                                   token_key(room.code), host)
    screen.open(f"/room/{room.code}")
    until(screen, lambda: bool(all_now(screen, css("start-waits-for"))), "the host's lobby")
    audit.look("/room/<code> (the host)")
    guest = on_server_loop(rooms.claim(room, SAPPHIRE, "Sam", "browser:sam"))
    shows(screen, "seat-status-sapphire")
    audit.look("/room/<code> (the host; Sam is not ready)")

    async def start() -> None:
        await rooms.set_ready(room, guest, True)
        await rooms.start(room, host)

    on_server_loop(start())
    until(screen, lambda: enabled_button(screen, "roll", "Roll for the start"), "the room's table")
    audit.look("/room/<code> (the host's table)")
    by_testid(screen, "host-menu").click()
    shows(screen, "host-dialog")
    audit.look("/room/<code> (the host's table, Host tools open)")
    screen.open(f"/tv/{room.code}")
    shows(screen, "board")
    audit.look("/tv/<code> (the game)")
    audit.check()


def test_a_finished_games_replay_charts_and_my_games(screen: Screen, tmp_path: Path) -> None:
    server: Server = screen.app_server  # type: ignore[attr-defined]
    audit = Audit(screen)
    screen.open("/rules")
    on_server_loop(store_finished_game(server, GAME, "parcheesi", count=2))
    screen.open(f"/replay/{GAME}")
    shows(screen, "replay-step")
    audit.look("/replay/<id>")
    screen.open(f"/games/{GAME}/charts")
    until(screen, lambda: len(all_now(screen, f"{css('chart-race')} canvas, "
                                              f"{css('chart-luck')} canvas")) == 2,
          "both charts drawn")
    audit.look("/games/<id>/charts")

    screen.open("/games")  # the host's: every game on the server
    shows(screen, "replay-game")
    audit.look("/games")
    record = tmp_path / "game.json"
    record.write_text("{not a record")
    screen.find_by_css(f"{css('import-record')} input[type=file]").send_keys(str(record))
    until(screen, lambda: by_testid(screen, "import-error").text.startswith(
        "This record was refused"), "the record to be refused")
    audit.look("/games (a record refused)")
    audit.check()


def test_the_tournaments_pages(screen: Screen) -> None:
    """The list with its form open, a knockout's page as its maker sees it (the bracket, the
    rounds to come, the standings, Take out, Your table is ready), its TV view, and a
    finished one's champion."""
    server: Server = screen.app_server  # type: ignore[attr-defined]
    audit = Audit(screen)
    screen.open("/rules")  # a page of the server's origin, for its localStorage
    ann, token = on_server_loop(server.people.add("Ann"))
    ben, _ = on_server_loop(server.people.add("Ben"))
    screen.selenium.execute_script("localStorage.setItem(arguments[0], arguments[1]);"
                                   "localStorage.setItem(arguments[2], '1')",
                                   PERSON_KEY, token, ASKED_KEY)
    screen.open("/tournaments")
    by_testid(screen, "new-tournament").click()
    shows(screen, "start-tournament")
    audit.look("/tournaments (the form open)")
    contest = on_server_loop(server.tournaments.create(ann.id, Request(
        "ludo", Settings("knockout", table_size=2, advance=1), (ann.id, ben.id),
        ("easy", "easy"))))
    screen.open(f"/t/{contest.code}")
    shows(screen, "your-table")
    audit.look("/t/<code> (its maker)")
    screen.open(f"/tv/t/{contest.code}")
    shows(screen, "bracket")
    audit.look("/tv/t/<code>")
    # on a television, its two tables side by side across the screen (each 22rem wide before,
    # their boards too small to read from across the room)
    screen.selenium.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", TV_VIEWPORT)
    try:
        until(screen, lambda: len(all_now(screen, ".tv-table-frame")) == 2, "the two tables")
        assert all(f.size["width"] > 0.45 * TV_VIEWPORT["width"]
                   for f in all_now(screen, ".tv-table-frame"))
    finally:
        screen.selenium.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", PHONE_VIEWPORT)
    final = on_server_loop(server.tournaments.create(ann.id, Request(
        "ludo", Settings("knockout"), (), ("easy",) * 4)))  # computers play it at once
    screen.open(f"/t/{final.code}")
    shows(screen, "champion")
    audit.look("/t/<code> (its champion)")
    audit.check()
