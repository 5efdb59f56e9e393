"""Learning mode and Undo in headless Chromium at phone size: a tap on a piece that cannot
move says why on the status line, and Undo takes back the move of the roll just made.

The seed and the game are ``test_browser_table.py``'s: Ruby (the person) against Sapphire;
Ruby rolls 5 and 3 with every piece in START.
"""

from __future__ import annotations

import pytest
from nicegui.testing import Screen
from test_browser_table import (
    SEED,
    all_now,
    by_testid,
    css,
    entered,
    movable_ruby_pieces,
    shown,
    start_solo_game,
    status,
    until,
    wait_for_five_and_three,
    wait_for_ruby_to_roll,
)

pytestmark = pytest.mark.browser


@pytest.fixture(autouse=True)
def fixed_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("parcheesi.server.fairness.dice_seed", lambda secret, added: SEED)


def learning_mode(screen: Screen) -> None:
    """Switch learning mode on in the settings dialog."""
    by_testid(screen, "settings").click()
    until(screen, lambda: shown(screen, "setting-learning"), "the settings dialog")
    by_testid(screen, "setting-learning").click()
    until(screen, lambda: by_testid(screen, "setting-learning").get_attribute("aria-checked")
          == "true", "the switch to turn on")
    by_testid(screen, "settings-close").click()
    until(screen, lambda: not shown(screen, "settings-dialog"), "the dialog to close")


def test_a_tapped_piece_that_cannot_move_says_why_and_undo_takes_a_move_back(
        screen: Screen) -> None:
    start_solo_game(screen)
    learning_mode(screen)
    by_testid(screen, "board-piece-ruby-2").click()
    until(screen, lambda: status(screen) == "First roll the dice to see who begins",
          "the reason to roll first")
    by_testid(screen, "roll").click()  # for the start
    wait_for_ruby_to_roll(screen)
    by_testid(screen, "roll").click()
    wait_for_five_and_three(screen)
    assert not all_now(screen, css("undo"))  # a roll is never taken back

    by_testid(screen, "board-piece-ruby-1").click()  # enter with the 5: the 3 is left
    until(screen, lambda: entered(screen), "Ruby's piece 1 to enter")
    until(screen, lambda: movable_ruby_pieces(screen) == ["board-piece-ruby-1"],
          "only piece 1 to stay movable")
    by_testid(screen, "board-piece-ruby-2").click()
    until(screen, lambda: status(screen) == "Needs a 5 to come out", "why piece 2 waits")

    by_testid(screen, "undo").click()
    until(screen, lambda: status(screen) == "Move taken back: play this roll again.",
          "the move taken back")
    until(screen, lambda: len(movable_ruby_pieces(screen)) == 4, "all four to enter again")
    assert "in START" in (by_testid(screen, "board-piece-ruby-1").get_attribute("aria-label")
                          or "")
    assert not all_now(screen, css("undo"))
