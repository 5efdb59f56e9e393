"""Motion that finishes: at the host's default computer pace, a computer's capture and its
20-square bonus walk are drawn to the end before the next computer action redraws the board.

The positions are what the page draws: a small sampler (installed with ``execute_script``)
reads, on every animation frame, the ``transform`` of the watched ``board-piece-*`` elements
(board units) and the move log, whose newest entry changes with every action the page shows.

The dice seed is fixed. Three players, Ruby (the person) against Emerald and Sapphire (medium
computers). Emerald wins the opening roll with 6+6, enters and moves; Sapphire enters piece 1
(Sapphire progress 1, square 40); Ruby rolls 1+3 with every piece in START and passes. Then
Emerald rolls 6+6: piece 1 moves 6 and 6 more, from progress 6 to 18, which is square 40:
Sapphire's piece 1 is captured and slides back to START; Emerald takes the 20 bonus with
piece 1 (progress 18 -> 38, twenty squares) and, having rolled doubles, rolls again.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from motion_helpers import default_config, near, roll_enabled
from motion_helpers import until as wait_until
from nicegui.testing import Screen
from selenium.webdriver.common.by import By

from parcheesi.games.parcheesi.board import START
from parcheesi.games.parcheesi.layout import CELL, piece_point, start_slots
from parcheesi.server.config import Config

pytestmark = pytest.mark.browser

SEED = 1644
RUBY, EMERALD, SAPPHIRE = 0, 1, 2
WAIT = 20.0
WATCHED = ("board-piece-sapphire-1", "board-piece-emerald-1")

SAMPLER = """
window.motionSamples = [];
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
  const first = log && log.firstElementChild ? log.firstElementChild.textContent : '';
  window.motionSamples.push([now, shown, first, ...arguments[0].map(at)]);
  if (window.motionSamples.length < 20000) requestAnimationFrame(tick);
};
requestAnimationFrame(tick);
"""
"""Per frame: [time, how many different logs the page has shown, the newest log entry, the
position of each watched piece]."""


@pytest.fixture(autouse=True)
def fixed_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("parcheesi.server.fairness.dice_seed", lambda secret, added: SEED)


@pytest.fixture
def app_config(app_data: Path) -> Config:
    return default_config()


def until(screen: Screen, condition, message: str, timeout: float = WAIT) -> None:
    wait_until(screen, condition, message, timeout)



def samples(screen: Screen) -> list[list]:
    return screen.selenium.execute_script("return window.motionSamples")



def action_frames(frames: list[list], words: str) -> tuple[int, int]:
    """The first frame showing the action whose newest log entry contains ``words``, and the
    first frame of the action the page showed after it."""
    first = next(k for k, f in enumerate(frames) if words in f[2])
    nxt = next(k for k in range(first, len(frames)) if frames[k][1] > frames[first][1])
    return first, nxt


def test_a_capture_and_its_bonus_walk_are_drawn_to_the_end(
        screen: Screen, app_config: Config) -> None:
    assert app_config.pace > 0
    screen.open("/new")
    screen.click("3 players")
    until(screen, lambda: bool(screen.selenium.find_elements(
        By.CSS_SELECTOR, '[data-testid="seat-emerald"]')), "Emerald's seat")
    screen.find_by_css('[data-testid="start-game"]').click()
    until(screen, lambda: roll_enabled(screen, "Roll for the start"), "the opening roll")
    screen.selenium.execute_script(SAMPLER, list(WATCHED))
    screen.find_by_css('[data-testid="roll"]').click()
    until(screen, lambda: roll_enabled(screen, "Roll"), "Ruby's roll, after Emerald's turn")
    screen.find_by_css('[data-testid="roll"]').click()
    # Emerald's turn: roll, move, move and capture, bonus, roll again.
    until(screen, lambda: any("(bonus)" in f[2] for f in samples(screen))
          and samples(screen)[-1][1] > next(f[1] for f in samples(screen) if "(bonus)" in f[2]),
          "Emerald's bonus walk and the roll after it")
    frames = samples(screen)
    assert len(frames) > 100, "the page draws frames"

    # The capture: Sapphire's piece 1 slides from square 40 back to its START slot.
    captured_at, bonus_at = action_frames(frames, "captured")
    assert "(bonus)" in frames[bonus_at][2]
    square = piece_point(SAPPHIRE, 0, ((START,) * 4, (6,) + (START,) * 3, (1,) + (START,) * 3))
    home_slot = start_slots(SAPPHIRE)[0]
    victim = [f[3] for f in frames[captured_at:bonus_at]]
    assert near(victim[0], square), "the captured piece starts where it was taken"
    arrived = next((k for k, p in enumerate(victim) if near(p, home_slot)), None)
    assert arrived is not None, "the slide back to START is cut off by the next action"
    between = {tuple(p) for p in victim[:arrived] if not near(p, square)
               and not near(p, home_slot)}
    assert len(between) >= 3, f"the captured piece jumps home: {between}"
    assert all(near(p, home_slot) for p in victim[arrived:]), "it stays in START"

    # The bonus: Emerald's piece 1 walks twenty squares, from progress 18 to 38, to the end
    # before Emerald's next roll is shown.
    walk_start, roll_at = action_frames(frames, "(bonus)")
    assert "rolled" in frames[roll_at][2]
    after = ((START,) * 4, (38,) + (START,) * 3, (START,) * 4)
    landing = piece_point(EMERALD, 0, after)
    walker = [f[4] for f in frames[walk_start:roll_at]]
    reached = next((k for k, p in enumerate(walker) if near(p, landing)), None)
    assert reached is not None, "the bonus walk is cut off by the next action"
    squares = [piece_point(EMERALD, 0, ((START,) * 4, (p,) + (START,) * 3, (START,) * 4))
               for p in range(19, 39)]
    visited = [s for s in squares
               if any(near(p, s, CELL / 4) for p in walker[:reached + 1])]
    assert len(visited) == 20, f"the walk skips squares: {len(visited)} of 20 shown"
