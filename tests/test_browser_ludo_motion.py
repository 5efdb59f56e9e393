"""Ludo's motion that finishes: at the host's default computer pace, a computer's capture (the
capturing piece's walk and the captured piece's slide back to its yard, at Ludo's own pace:
``STEP_MS`` a square, ``CAPTURE_MS`` for the slide) is drawn to the end, and seen standing
there for a moment, before the next computer action is shown.

The positions are what the page draws: a small sampler (installed with ``execute_script``)
reads, on every animation frame, the ``transform`` of the watched ``board-piece-*`` elements
(board units) and the move log, whose entries change with every action the page shows.

The dice seed is fixed. Three players, Red (the person, who only rolls: none of Red's rolls
here is a 6, so Red never has a move) against Green and Yellow (medium computers). Red rolls
1 for the start, Green 6, Yellow 3: Green starts. Green brings out piece 1 with a 6 and
walks it 5 squares, then 5 more (progress 10); Yellow brings out piece 1 with a 6 and walks
it 2 squares (Yellow progress 2, square 28). Then Green rolls 5: piece 1 walks from progress
10 to 15, which is square 28: Yellow's piece 1 is captured and slides back to its yard slot
(5 x 110 ms + 360 ms on the board, so the computers wait 1.11 s), and Green rolls again for
the capture: 3 (and then moves piece 1 on to 18). With Parcheesi's pace the computers would
wait only 5 x 75 ms + 320 ms + LANDED = 0.895 s, before the slide has ended.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from motion_helpers import default_config, near, roll_enabled
from motion_helpers import until as wait_until
from nicegui.testing import Screen
from selenium.webdriver.common.by import By

from parcheesi.games.ludo.board import YARD
from parcheesi.games.ludo.layout import (
    CAPTURE_MS,
    CELL,
    STEP_MS,
    piece_point,
    square_point,
    start_slots,
)
from parcheesi.server.config import Config
from parcheesi.server.runner import LANDED

pytestmark = pytest.mark.browser

SEED = 7222
RED, GREEN, YELLOW = 0, 1, 2
WAIT = 30.0
"""Seconds for any one step of the game to show (the computers take about a second each)."""
WATCHED = ("board-piece-yellow-1", "board-piece-green-1")
CAPTURE = "Green captured Yellow's piece 1"
RED_ROLLS = ("Roll for the start", "Roll", "Roll", "Roll")
"""Red's presses before the capture: the opening roll (1), then 2, 2 and 2 (no move)."""
GREEN_FROM, GREEN_TO, YELLOW_AT = 10, 15, 2
FRAME_MS = 1000 / 60

SAMPLER = """
const [watched, mark] = arguments;
window.motionSamples = [];
window.motionNow = [0, ''];
window.motionMarked = null;
let shown = 0;
let last = null;
const at = (id) => {
  const e = document.querySelector('[data-testid="' + id + '"]');
  const m = e && /translate\\(([-\\d.]+)[ ,]+([-\\d.]+)\\)/.exec(e.getAttribute('transform'));
  return m ? [Number(m[1]), Number(m[2])] : null;
};
const tick = (now) => {
  const log = document.querySelector('[data-testid=log]');
  const text = log ? log.textContent : '';
  if (text !== last) { shown += 1; last = text; }
  const newest = log ? Array.from(log.children).slice(0, 3).map((e) => e.textContent) : [];
  const lines = newest.join('\\n');
  if (window.motionMarked === null && lines.includes(mark)) window.motionMarked = shown;
  window.motionNow = [shown, lines];
  window.motionSamples.push([now, shown, lines, ...watched.map(at)]);
  if (window.motionSamples.length < 30000) requestAnimationFrame(tick);
};
requestAnimationFrame(tick);
"""
"""Per frame: [time (ms), how many different logs the page has shown, the newest three log
entries (newest first, one a line), the position of each watched piece]. ``motionNow`` is
the latest frame's count and entries, ``motionMarked`` the count of the first log showing
``mark`` (the polls read those, not every frame)."""


@pytest.fixture(autouse=True)
def fixed_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("parcheesi.server.fairness.dice_seed", lambda secret, added: SEED)


@pytest.fixture
def app_config(app_data: Path) -> Config:
    return default_config()


def until(screen: Screen, condition, message: str, timeout: float = WAIT) -> None:
    wait_until(screen, condition, message, timeout)



def now(screen: Screen) -> tuple[int, str]:
    """How many different logs the page has shown, and its newest entries."""
    shown, lines = screen.selenium.execute_script("return window.motionNow")
    return shown, lines


def marked(screen: Screen) -> int | None:
    return screen.selenium.execute_script("return window.motionMarked")



def test_a_ludo_capture_is_drawn_to_the_end_at_ludos_pace(
        screen: Screen, app_config: Config) -> None:
    assert app_config.pace > 0
    screen.open("/new")
    screen.click("Ludo")
    until(screen, lambda: bool(screen.selenium.find_elements(
        By.CSS_SELECTOR, '[data-testid="seat-red"]')), "Ludo's seats")
    screen.click("3 players")
    until(screen, lambda: bool(screen.selenium.find_elements(
        By.CSS_SELECTOR, '[data-testid="seat-yellow"]')), "Yellow's seat")
    for name in ("green", "yellow"):  # the computers the seed was chosen for
        assert "Medium" in screen.find_by_css(f'[data-testid="level-{name}"]').text, name
    screen.find_by_css('[data-testid="start-game"]').click()
    until(screen, lambda: roll_enabled(screen, "Roll for the start"), "the opening roll")
    screen.selenium.execute_script(SAMPLER, list(WATCHED), CAPTURE)

    # Red only rolls; each press is shown (the log changes) before the next is awaited.
    for label in RED_ROLLS:
        until(screen, lambda label=label: roll_enabled(screen, label), f"Red's {label!r}")
        before = now(screen)[0]
        screen.find_by_css('[data-testid="roll"]').click()
        until(screen, lambda before=before: now(screen)[0] > before, "Red's roll shown")
    # Green's turn: roll 5, move piece 1 and capture, roll again.
    until(screen, lambda: marked(screen) is not None and now(screen)[0] > marked(screen),
          "Green's capture and the roll after it", timeout=3 * WAIT)
    frames = screen.selenium.execute_script("return window.motionSamples")
    assert len(frames) > 100, "the page draws frames"
    capture_at = next(k for k, f in enumerate(frames) if CAPTURE in f[2])
    assert frames[capture_at][2].startswith("Green rolls again for the capture"), frames[
        capture_at][2]
    next_at = next(k for k in range(capture_at, len(frames))
                   if frames[k][1] > frames[capture_at][1])
    assert frames[next_at][2].startswith("Green rolled 3"), frames[next_at][2]
    # The frames shown from the capture until the page shows Green's next roll.
    shown = frames[capture_at:next_at]

    # Green's piece 1 walks five squares, progress 10 to 15 (square 28), and lands there.
    walker = [f[4] for f in shown]
    landing = square_point(GREEN, GREEN_TO)
    landed = next((k for k, p in enumerate(walker) if near(p, landing)), None)
    assert landed is not None, "Green's walk is cut off by the next action"
    squares = [square_point(GREEN, p) for p in range(GREEN_FROM + 1, GREEN_TO + 1)]
    visited = [s for s in squares if any(near(p, s, CELL / 4) for p in walker[:landed + 1])]
    assert len(visited) == len(squares), f"the walk skips squares: {len(visited)} of 5 shown"
    assert all(near(p, landing) for p in walker[landed:]), "Green's piece stays where it landed"

    # Yellow's piece 1 slides from square 28 back to its yard slot, all of it shown.
    before = ((YARD,) * 4, (GREEN_FROM,) + (YARD,) * 3, (YELLOW_AT,) + (YARD,) * 3, ())
    square = piece_point(YELLOW, 0, before)
    slot = start_slots(YELLOW)[0]
    victim = [f[3] for f in shown]
    assert near(victim[0], square), "the captured piece starts where it was taken"
    arrived = next((k for k, p in enumerate(victim) if near(p, slot)), None)
    assert arrived is not None, "the slide back to the yard is cut off by the next action"
    left = max(k for k, p in enumerate(victim[:arrived]) if near(p, square))
    between = {tuple(p) for p in victim[left + 1:arrived]}
    assert len(between) >= 3, f"the captured piece jumps to its yard: {between}"
    assert all(near(p, slot) for p in victim[arrived:]), "it stays in its yard"
    assert all(near(p, square) for p in victim[:landed]), (
        "the captured piece leaves before Green's piece lands")

    # At Ludo's pace: the walk takes 5 x STEP_MS, the slide CAPTURE_MS (less a little easing
    # at either end, within a frame: the frames are sampled, not the animation's clock).
    times = [f[0] for f in shown]
    walked = times[landed] - times[0]
    slid = times[arrived] - times[left]
    assert slid >= CAPTURE_MS - 2 * FRAME_MS, f"the slide took {slid:.0f} ms, not {CAPTURE_MS}"
    assert walked >= 4 * STEP_MS, f"the walk took {walked:.0f} ms"
    # ... and both stand still for a moment before the next action is shown (the runner
    # waits LANDED beyond the animation; half of it is left for the updates' jitter).
    rest = frames[next_at][0] - times[arrived]
    assert rest >= LANDED * 1000 / 2, (
        f"the next action came {rest:.0f} ms after the slide ended (slide {slid:.0f} ms)")
