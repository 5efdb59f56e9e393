"""Screenshots of the table for the README (``docs/screenshots/``): a solo game against one
computer at phone size (390 x 844), played with Roll and Play best to the end, in light and
dark colour schemes: the start, mid-game, a capture, and the finish.

    .venv/bin/python scripts/screenshots.py [--game ludo] [--tv | --hand-over]

Ludo's shots are named ``ludo-<moment>-<scheme>.png``. With ``--tv``: an online room of
four (the host and three computers) played from a phone, and its TV view (``/tv/<code>``)
in a second browser mid-game: ``tv-mid-game.png`` at 1920 x 1080 here; to check the layout,
every size of ``TV_SIZES`` (``/tmp/tv-<width>x<height>.png``) and the host's lobby on the
phone (``/tmp/tv-lobby-phone.png``). With ``--hand-over``: two people sharing the phone
(Ruby and Sapphire on one screen), and the hand-over screen as Sapphire's turn comes a few
turns in: ``hand-over-<scheme>.png``.

Starts its own server (pace 0.2, a fresh data directory) and Debian's headless Chromium.
"""

from __future__ import annotations

import argparse
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

import chromium  # noqa: E402 - benchmarks/chromium.py
from selenium.common.exceptions import WebDriverException  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from serving import free_port, stop_server  # noqa: E402

from parcheesi.core.registry import DEFAULT_GAME, games  # noqa: E402

OUT = ROOT / "docs" / "screenshots"
MAX_PRESSES = 600


def options() -> argparse.Namespace:
    """The command line (``--help`` says what this script makes, and makes nothing)."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", choices=sorted(games()), default=DEFAULT_GAME,
                        help=f"the game played (default: {DEFAULT_GAME})")
    scene = parser.add_mutually_exclusive_group()
    scene.add_argument("--tv", action="store_true", help="an online room and its TV view")
    scene.add_argument("--hand-over", action="store_true",
                       help="two people sharing the phone, and the hand-over screen")
    return parser.parse_args()


OPTIONS = options()
GAME = OPTIONS.game
PREFIX = "" if GAME == DEFAULT_GAME else f"{GAME}-"


def testid(driver, name: str):
    found = driver.find_elements(By.CSS_SELECTOR, f'[data-testid="{name}"]')
    return found[0] if found else None


def press_next(driver) -> bool:
    """Roll or Play best, whichever the table offers now; False when neither is."""
    for name in ("roll", "play-best"):
        button = testid(driver, name)
        if button is not None and button.is_enabled():
            button.click()
            return True
    return False


def shoot(driver, name: str) -> None:
    name = PREFIX + name
    for scheme in ("light", "dark"):
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {
            "features": [{"name": "prefers-color-scheme", "value": scheme}]})
        time.sleep(0.3)
        driver.save_screenshot(str(OUT / f"{name}-{scheme}.png"))
    print(f"{name}: saved")


def play(driver, base: str) -> None:
    driver.get(f"{base}/new")
    time.sleep(1.5)
    if GAME != DEFAULT_GAME:
        driver.find_element(By.XPATH, f"//*[normalize-space()='{GAME.title()}']").click()
        time.sleep(0.5)
    driver.find_element(By.XPATH, "//*[normalize-space()='2 players']").click()
    time.sleep(0.5)
    testid(driver, "start-game").click()
    time.sleep(2)
    shoot(driver, "start")
    shot = {"mid": False, "capture": False}
    for presses in range(MAX_PRESSES):
        if testid(driver, "winner") is not None:
            break
        log = testid(driver, "log")
        if not shot["capture"] and log is not None and " captured " in log.text:
            shoot(driver, "capture")
            shot["capture"] = True
        if not shot["mid"] and presses == 60:
            shoot(driver, "mid-game")
            shot["mid"] = True
        if not press_next(driver):
            time.sleep(0.2)
        time.sleep(0.35)
    time.sleep(1.5)
    shoot(driver, "finish")


TV_SIZES = ((1920, 1080), (1366, 768))
"""A TV screen and a laptop's: the TV view must fit both without scrolling."""


def tv(driver, base: str) -> None:
    """The host plays a room of four from a phone; a second browser shows its TV view."""
    driver.get(f"{base}/new")
    time.sleep(1.5)
    driver.find_element(By.XPATH, "//*[normalize-space()='Online room']").click()
    time.sleep(0.5)
    for colour in ("emerald", "sapphire", "amber"):  # invited players until told otherwise
        testid(driver, f"kind-{colour}").click()
        time.sleep(0.5)
        driver.find_element(
            By.XPATH, "//*[contains(@class, 'q-item')][normalize-space()='Computer']").click()
        time.sleep(0.5)
    testid(driver, "start-game").click()
    time.sleep(2)
    code = testid(driver, "room-code").text.replace(" ", "")
    driver.save_screenshot("/tmp/tv-lobby-phone.png")
    testid(driver, "start-game").click()
    time.sleep(1.5)
    screen = chromium.start(chromium.chromium_options())
    try:
        screen.get(f"{base}/tv/{code}")
        time.sleep(1.5)
        for _ in range(70):
            if not press_next(driver):
                time.sleep(0.2)
            time.sleep(0.35)
        time.sleep(1.5)
        for width, height in TV_SIZES:
            screen.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
                "width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
            time.sleep(0.5)
            scrolls = screen.execute_script(
                "return [document.documentElement.scrollWidth, "
                "document.documentElement.scrollHeight]")
            print(f"tv {width}x{height}: page {scrolls[0]}x{scrolls[1]}")
            screen.save_screenshot(f"/tmp/tv-{width}x{height}.png")
            if (width, height) == TV_SIZES[0]:
                screen.save_screenshot(str(OUT / "tv-mid-game.png"))
        print("tv-mid-game: saved")
    finally:
        screen.quit()


def hand_over(driver, base: str) -> None:
    """Ruby and Sapphire share the phone; shoot the hand-over screen once Sapphire's turn
    comes after a few turns, with a roll on its dice."""
    driver.get(f"{base}/new")
    time.sleep(1.5)
    driver.find_element(By.XPATH, "//*[normalize-space()='Same device']").click()
    driver.find_element(By.XPATH, "//*[normalize-space()='2 players']").click()
    time.sleep(0.5)
    testid(driver, "kind-sapphire").click()
    time.sleep(0.5)
    driver.find_element(By.XPATH, "//*[contains(@class, 'q-item')][normalize-space()='Human']"
                        ).click()
    time.sleep(0.5)
    testid(driver, "start-game").click()
    time.sleep(2)
    for presses in range(MAX_PRESSES):
        if testid(driver, "hand-over") is not None:
            if (presses > 12 and testid(driver, "hand-over-title").text.startswith("Sapphire")
                    and testid(driver, "hand-over-dice") is not None):
                shoot(driver, "hand-over")
                return
            testid(driver, "hand-over-ready").click()
        elif not press_next(driver):
            time.sleep(0.2)
        time.sleep(0.35)
    sys.exit("screenshots: no hand-over to Sapphire came")


def wait_for(port: int, seconds: float = 30.0) -> None:
    """Until the server answers on ``port``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with socket.socket() as sock:
            if sock.connect_ex(("127.0.0.1", port)) == 0:
                time.sleep(0.5)
                return
        time.sleep(0.2)
    sys.exit("screenshots: the server did not start")


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    port = free_port()
    data = tempfile.mkdtemp(prefix="parcheesi-shots-")
    server = subprocess.Popen(
        [sys.executable, str(ROOT / "app.py"), "--host", "127.0.0.1", "--port", str(port),
         "--pace", "0.2"], cwd=ROOT, env={"PARCHEESI_DATA_DIR": data, "PATH": "/usr/bin:/bin"},
        stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT, start_new_session=True)
    driver = chromium.start(chromium.chromium_options())
    try:
        wait_for(port)
        scene = tv if OPTIONS.tv else hand_over if OPTIONS.hand_over else play
        scene(driver, f"http://127.0.0.1:{port}")
    except WebDriverException as error:
        sys.exit(f"screenshots: the browser failed: {error.msg}")
    finally:
        driver.quit()
        stop_server(server)


if __name__ == "__main__":
    main()
