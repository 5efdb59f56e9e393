"""Screenshots of crowded squares for docs/screenshots/: the board component alone, showing
crafted positions at phone size (390 x 844, light scheme), the whole board as a phone shows
it and, below, a loupe (the same board drawn larger) on the crowded squares.

    .venv/bin/python scripts/crowded_screenshots.py [--out DIR] [--scale N] [--scheme dark]

``crowded-parcheesi.png``: a blockade, two colours on a safe square and lone pieces beside
them; ``crowded-ludo.png`` (the ``stars`` house rule on): two pieces on one square, a stack
of three on a star and one of five on Red's start square, Red to move (its movable pieces
are raised to the top of their stacks). ``--scale`` is the device pixel ratio (1 by
default, as the README's other shots; 3 as a phone's, to look closer), ``--out`` another
directory, ``--scheme dark`` the dark colour scheme (to check; the README's are light).

Starts its own NiceGUI server (this file with ``--serve PORT``) and Debian's headless
Chromium.
"""

from __future__ import annotations

import argparse
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

OUT = ROOT / "docs" / "screenshots"
PHONE_BOARD = 342
"""CSS px: the board's width on a 390 px wide phone, as the table page draws it."""
LOUPE = (PHONE_BOARD, 360)
"""The loupe's size on the page, CSS px."""


def parcheesi_scene() -> tuple[object, tuple[tuple[int, ...], ...], set[tuple[int, int]],
                               tuple[str, ...], tuple[float, float, float]]:
    """Ruby's blockade on square 15 (progress 10 twice), Ruby and Emerald on the star square
    12, an Emerald pair in its lane (66), lone Sapphire and Amber pieces on squares 14 and
    11; Ruby to move its blockade."""
    from parcheesi.games.parcheesi.board import HOME, START
    from parcheesi.games.parcheesi.game import GAME

    pieces = ((10, 10, 7, START), (58, 66, 66, START), (43, START, START, HOME),
              (23, START, START, START))
    return GAME, pieces, {(0, 0), (0, 1)}, (), (680.0, 358.0, 320.0)


def ludo_scene() -> tuple[object, tuple[tuple[int, ...], ...], set[tuple[int, int]],
                          tuple[str, ...], tuple[float, float, float]]:
    """Five on Red's start square 0 (two of Red's, one each of Green, Yellow and Blue), three
    on the star square 47 (Blue's and two of Green's), Red's pair on square 2, a lone Yellow
    piece on 50; Red to move any of its pieces."""
    from parcheesi.games.ludo.board import YARD
    from parcheesi.games.ludo.game import GAME

    pieces = ((0, 0, 2, 2), (39, 34, 34, YARD), (26, 24, YARD, YARD), (13, 8, YARD, YARD))
    movable = {(0, k) for k in range(4)}
    return GAME, pieces, movable, ("stars",), (360.0, 700.0, 290.0)


Scene = Callable[[], tuple[object, tuple[tuple[int, ...], ...], set[tuple[int, int]],
                           tuple[str, ...], tuple[float, float, float]]]
"""The rules, the pieces, the movable ones, the house rules and the loupe's window (x, y,
side in board units)."""
SCENES: dict[str, Scene] = {"parcheesi": parcheesi_scene, "ludo": ludo_scene}


def serve(port: int) -> None:
    """The pages: ``/<game>`` for each scene."""
    from nicegui import ui

    from components.board_view import Board
    from components.pages import STYLE

    def page(rules: object, pieces: Sequence[Sequence[int]], movable: set[tuple[int, int]],
             house: tuple[str, ...], window: tuple[float, float, float]) -> None:
        ui.add_css(STYLE)
        ui.dark_mode(None)  # the browser's colour scheme
        x, y, side = window
        zoom = LOUPE[0] / side
        with ui.column().classes("w-full items-center").style("padding: 8px 0; gap: 8px"):
            ui.label(f"Crowded squares: {rules.title}").classes(  # type: ignore[attr-defined]
                "text-lg font-medium")
            Board(rules, house=house).style(f"width: {PHONE_BOARD}px").show(  # type: ignore[arg-type]
                pieces, movable=movable)
            ui.label("The same board, larger:").classes("text-sm")
            with ui.element("div").style(
                    f"width: {LOUPE[0]}px; height: {LOUPE[1]}px; overflow: hidden; "
                    "position: relative; border: 2px solid #6f5f45; border-radius: 8px"):
                Board(rules, house=house).style(  # type: ignore[arg-type]
                    f"position: absolute; width: {1000 * zoom}px; max-width: none; "
                    f"left: {-x * zoom}px; top: {-y * zoom}px").show(pieces, movable=movable)

    def shown(scene: Scene) -> Callable[[], None]:
        return lambda: page(*scene())

    for name, scene in SCENES.items():
        ui.page(f"/{name}")(shown(scene))
    ui.run(host="127.0.0.1", port=port, reload=False, show=False, title="Crowded squares")


def wait_for(port: int, seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with socket.socket() as sock:
            if sock.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.2)
    sys.exit("crowded_screenshots: the server did not start")


def main() -> None:
    import chromium  # benchmarks/chromium.py
    from serving import free_port, stop_server  # benchmarks/serving.py

    args = options()
    out, scale, scheme = args.out, args.scale, args.scheme
    out.mkdir(parents=True, exist_ok=True)
    port = free_port()
    log = Path(tempfile.gettempdir()) / f"crowded-screenshots-{port}.log"
    with log.open("wb") as sink:
        server = subprocess.Popen([sys.executable, __file__, "--serve", str(port)], cwd=ROOT,
                                  stdout=sink, stderr=subprocess.STDOUT, start_new_session=True)
    driver = chromium.start(chromium.chromium_options())
    try:
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                               {**chromium.PHONE_VIEWPORT, "deviceScaleFactor": scale})
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {
            "features": [{"name": "prefers-color-scheme", "value": scheme}]})
        wait_for(port)
        for name in SCENES:
            driver.get(f"http://127.0.0.1:{port}/{name}")
            time.sleep(2.0)
            path = out / f"crowded-{name}.png"
            driver.save_screenshot(str(path))
            print(f"{path}: saved")
    finally:
        driver.quit()
        stop_server(server)
        print(f"server log: {log}")


def options() -> argparse.Namespace:
    """The command line (``--help`` says what this script makes, and makes nothing)."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=OUT,
                        help="the directory to write to (default: docs/screenshots)")
    parser.add_argument("--scale", type=float, default=1.0,
                        help="the device pixel ratio (default: 1)")
    parser.add_argument("--scheme", choices=("light", "dark"), default="light",
                        help="the colour scheme (default: light)")
    parser.add_argument("--serve", type=int, metavar="PORT", help=argparse.SUPPRESS)
    return parser.parse_args()


if __name__ in {"__main__", "__mp_main__"}:
    if "--serve" in sys.argv:
        serve(options().serve)
    else:
        main()
