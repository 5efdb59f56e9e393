"""The post-game charts page (``/games/<id>/charts``) under NiceGUI's simulated user: both
charts of a finished game with their words, and a clear message for an unknown game or one
still being played."""

from __future__ import annotations

import pytest
from nicegui import ElementFilter, ui
from nicegui.testing import User

from components.server import Server
from parcheesi.server.live import COMPUTER, MODES, Seat
from tests.chart_helpers import store_finished_game
from tests.ui_helpers import element, elements

GAME = "c0ffee" * 5 + "00"


def charts(user: User) -> dict[str, ui.echart]:
    with user:
        found = list(ElementFilter(kind=ui.echart, local_scope=False))
    return {str(e.props["data-testid"]): e for e in found}


@pytest.mark.parametrize("kind, lucky", [("parcheesi", "Doubles"), ("ludo", "Sixes")])
async def test_a_finished_games_charts_show_the_race_and_the_luck(
        app_server: Server, user: User, kind: str, lucky: str) -> None:
    await store_finished_game(app_server, GAME, kind, count=4)
    await user.open(f"/games/{GAME}/charts")
    await user.should_see("How the game went")
    shown = charts(user)
    assert set(shown) == {"chart-race", "chart-luck", "chart-chances"}  # both games learn
    race = shown["chart-race"].options
    assert len(race["series"]) == 4
    rolls = len(race["series"][0]["data"]) - 1
    assert all(len(s["data"]) == rolls + 1 for s in race["series"])
    assert any(s["markPoint"]["data"] for s in race["series"])  # some capture, in 4 players
    luck = shown["chart-luck"].options
    assert luck["yAxis"][1]["name"] == lucky
    assert [s["name"] for s in luck["series"]] == ["Rolled", "Fair average"] * 2
    for name in ("race", "luck"):
        summary = shown[f"chart-{name}"].props["aria-label"]
        assert summary.startswith(("Race chart: ", "Luck chart: "))
        assert len(elements(user, f"chart-{name}-lines")) == 1
    chances = shown["chart-chances"]
    lengths = {len(s["data"]) for s in chances.options["series"]}
    assert len(lengths) == 1 and 2 <= lengths.pop() <= rolls + 1  # until the winner
    ends = [s["data"][-1][1] for s in chances.options["series"]]
    assert sorted(ends) == [0, 0, 0, 100]
    assert chances.props["aria-label"].startswith("Chances chart: ")
    assert len(elements(user, "chart-chances-lines")) == 1
    assert f"{rolls} rolls in play" in element(user, "charts-outcome").text
    await user.should_see("fair average")
    assert element(user, "charts-back").props["href"] == "/play"


async def test_an_unknown_game_has_no_charts(app_server: Server, user: User) -> None:
    await user.open("/games/0123456789abcdef0123456789abcdef/charts")
    await user.should_see("There is no game at this address.")
    assert not charts(user)
    await user.open("/games/" + "x" * 200 + "/charts")
    await user.should_see("There is no game at this address.")


async def test_a_game_still_being_played_gets_its_charts_after_the_game(
        app_server: Server, user: User) -> None:
    seats = [Seat(colour=c, kind=COMPUTER, level="easy") for c in (0, 2)]
    row, _ = app_server.hub.new_row("someone", MODES[0], seats, "ludo")
    await app_server.store.create_game(row)
    await user.open(f"/games/{row.id}/charts")
    await user.should_see("The charts come after the game")
    assert not charts(user)
