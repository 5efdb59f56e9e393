"""Game records through the app (NiceGUI's simulated user) and the dice contributions of a
live game: download, My games, import (honest and tampered), playing on from a step."""

from __future__ import annotations

import asyncio
import json

import pytest
from nicegui import ui
from nicegui.elements.upload_files import SmallFileUpload
from nicegui.testing import User
from nicegui.testing.user_interaction import UserInteraction
from test_records import honest
from ui_helpers import (
    browser_id,
    choose,
    click,
    elements,
    live_game,
    start_game,
    stop_runners,
    text,
    until,
)

from components import pages
from components.server import Server
from parcheesi.server import fairness
from parcheesi.server.live import COMPUTER, HUMAN, Hub, Seat
from parcheesi.server.records import read_record, replay
from parcheesi.server.store import Store


@pytest.fixture
async def table_user(app_server: Server, user: User):
    yield user
    stop_runners(app_server)


async def test_a_game_record_downloads_without_its_seed_until_the_game_is_over(
        app_server: Server, table_user: User) -> None:
    user = table_user
    game = await start_game(app_server, user)
    link = elements(user, "export-record")[0]
    assert link.props["href"] == f"/records/{game.id}.json"
    assert link.props["download"] == ""  # the name is the server's alone (two names before)
    answer = await user.http_client.get(f"/records/{game.id}.json")
    assert answer.status_code == 200
    record = answer.json()
    assert answer.headers["content-disposition"] == (
        f'attachment; filename="parcheesi-{record["created"][:10]}-{game.id[:8]}.json"')
    assert record["game"] == "parcheesi" and "seed" not in record
    assert record["commitment"] == game.commitment
    for wrong in ("nothing", "0" * 32, "../../etc/passwd"):
        assert (await user.http_client.get(f"/records/{wrong}.json")).status_code == 404


async def upload(user: User, data: bytes) -> None:
    """Open a record file with My games' upload control (which comes once the page is
    connected)."""
    await until(lambda: bool(elements(user, "import-record", ui.upload)), "the upload control")
    box = elements(user, "import-record", ui.upload)[0]
    await box.handle_uploads([SmallFileUpload("game.json", "application/json", data)])


async def test_an_imported_record_replays_and_a_tampered_one_is_refused_with_its_step(
        table_user: User) -> None:
    user = table_user
    record = honest(1)
    tampered = json.loads(json.dumps(record))
    tampered["rolls"][5][1] = tampered["rolls"][5][1] % 6 + 1
    await user.open("/games")
    await upload(user, json.dumps(tampered).encode())
    await until(lambda: bool(text(user, "import-error")), "the refusal")
    assert text(user, "import-error").startswith("This record was refused: step ")
    assert "do not follow from the seed" in text(user, "import-error")
    await upload(user, b"{not json")
    await until(lambda: "not JSON" in text(user, "import-error"), "the second refusal")
    await upload(user, json.dumps(record).encode())
    await until(lambda: bool(elements(user, "replay-step")), "the replay of the import")
    assert text(user, "verification").startswith("verified: Ludo")
    last = len(record["actions"])
    assert text(user, "replay-step").startswith(f"Step {last} of {last}")
    log = UserInteraction(user, set(elements(user, "log")), None)
    for wrong in ([3], {"step": 3}, None, 3.5, "3.5", "Infinity", "9" * 5000):
        log.trigger("click", wrong)  # the page sends a line's step as text, nothing else
    assert text(user, "replay-step").startswith(f"Step {last} of {last}")
    log.trigger("click", "3")
    assert text(user, "replay-step").startswith(f"Step 3 of {last}")


async def test_a_game_plays_on_from_a_step_of_a_record_as_a_new_local_game(
        app_server: Server, table_user: User) -> None:
    user = table_user
    record = honest(0)
    await user.open("/games")
    await upload(user, json.dumps(record).encode())
    await until(lambda: bool(elements(user, "replay-step")), "the replay")
    await click(user, "replay-start")
    for _ in range(9):
        await click(user, "replay-forward")
    assert text(user, "replay-step").startswith("Step 9 of ")
    await click(user, "continue-from-step")
    await until(lambda: bool(elements(user, "turn")), "the new table")
    game = await live_game(app_server, user)
    assert game.state == replay(read_record(record))[9].state
    assert game.version == 0 and game.mode == "solo"
    row = await app_server.store.game(game.id)
    assert row is not None and json.loads(row.start)["rolls"] == game.state.rolls


async def test_my_games_lists_this_browsers_games_and_the_host_sees_every_game(
        app_server: Server, table_user: User) -> None:
    user = table_user
    mine = await start_game(app_server, user)
    theirs = await app_server.hub.create_local("another-browser", "solo", SEATS)
    assert [r.id for r in await app_server.store.games_of(browser_id(user))] == [mine.id]
    assert {r.id for r in await app_server.store.games_of(None)} == {mine.id, theirs.id}
    own_machine, app_server.host_addresses = app_server.host_addresses, ()
    await user.open("/games")  # as a phone on the network
    assert elements(user, f"game-{mine.id}") and not elements(user, f"game-{theirs.id}")
    assert [e.text for e in elements(user, "game-standing")] == ["Ruby to play"]
    await user.should_see("Ruby · Sapphire, medium computer")  # the comma is a seat's own
    app_server.host_addresses = own_machine
    await user.open("/games")  # the simulated browser asks from the server's own machine
    assert elements(user, f"game-{theirs.id}")


SEATS = [Seat(colour=0, kind=HUMAN, name="Ann"), Seat(colour=2, kind=COMPUTER, level="easy")]


async def test_contributions_are_taken_once_per_human_seat_and_only_before_the_first_roll(
        tmp_path) -> None:
    store = Store(f"sqlite+aiosqlite:///{tmp_path / 'games.sqlite3'}")
    game = await Hub(store).create_local("browser", "solo", SEATS)
    row = await store.game(game.id)
    assert row is not None and fairness.matches(row.secret, game.commitment)
    assert game.seed == fairness.dice_seed(row.secret, {})
    share = "ab" * 16
    assert not await game.contribute(2, share)  # a computer's seat
    assert not await game.contribute(0, "AB" * 16)  # not lowercase hex
    assert not await game.contribute(0, "ab" * 15)  # too short
    assert await game.contribute(0, share)
    assert not await game.contribute(0, "cd" * 16)  # once per seat
    assert game.contributions == {"ruby": share}
    assert game.seed == fairness.dice_seed(row.secret, {"ruby": share})
    reloaded = await store.game(game.id)
    assert reloaded is not None and reloaded.seed == game.seed
    assert json.loads(reloaded.contributions) == {"ruby": share}
    await game.act(game.rules.choices(game.state)[0].action, version=0)
    fresh = await Hub(store).create_local("browser-2", "solo", SEATS)
    await fresh.act(fresh.rules.choices(fresh.state)[0].action, version=0)
    assert not await fresh.contribute(0, share)  # after the first roll
    assert fresh.contributions == {}
    await store.close()


async def test_a_first_roll_pressed_before_the_browsers_share_arrives_waits_for_it(
        app_server: Server, table_user: User, monkeypatch: pytest.MonkeyPatch) -> None:
    """A quick press of Roll, before this browser's share of the dice came back: the roll
    waits for it, so the dice still follow from it (the roll went first and the share was
    refused, under a busy machine)."""
    arrived = asyncio.Event()
    ask = pages.ask_browser

    async def slow(code: str, default: object = None) -> object:
        if "getRandomValues" in code:
            await arrived.wait()  # the browser's answer is on its way
        return await ask(code, default)

    monkeypatch.setattr(pages, "ask_browser", slow)
    await table_user.open("/new")
    await choose(table_user, "player-count", 2)
    await click(table_user, "start-game", wait=False)  # the page waits for the share
    await until(lambda: bool(elements(table_user, "roll")), "the table to open")
    game = await live_game(app_server, table_user)
    assert game.version == 0 and game.contributions == {}
    asyncio.get_running_loop().call_later(0.2, arrived.set)
    await click(table_user, "roll")
    assert game.version >= 1 and list(game.contributions) == ["ruby"]
    row = await app_server.store.game(game.id)
    assert row is not None and json.loads(row.contributions) == game.contributions


async def test_copy_position_gives_an_outcomes_request_of_the_table(
        app_server: Server, table_user: User, monkeypatch) -> None:
    user = table_user
    copied: list[str] = []
    monkeypatch.setattr(ui.clipboard, "write", copied.append)
    game = await start_game(app_server, user)
    await click(user, "copy-position")
    request = json.loads(copied[-1])
    assert request == game.rules.position(game.state)
    assert request["game"] == "parcheesi" and "dice" not in request  # nothing rolled yet
    answer = game.rules.outcomes({k: v for k, v in {**request, "dice": [3, 4]}.items()
                                  if k != "game"})
    assert answer["outcomes"]
