"""Render the app's icons (web app manifest, home screen) from the original art in
``components/static/icons/icon.svg`` with the same headless Chromium the tests use.

    .venv/bin/python scripts/make_icons.py

Writes ``icon-192.png``, ``icon-512.png``, ``icon-maskable-512.png`` (the art inside the
maskable safe zone, on the full-bleed background) and ``apple-touch-icon.png`` (180 px)
beside the SVG. The PNGs are committed; run this again only when the art changes.
"""

from __future__ import annotations

import argparse
import base64
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

import chromium  # noqa: E402 - benchmarks/chromium.py, the browser of tests and benchmarks

ICONS = ROOT / "components" / "static" / "icons"
BACKGROUND = "#8b1e2d"
"""The art's own background colour (the maskable icon's bleed)."""
SIZES = {"icon-192.png": (192, 1.0), "icon-512.png": (512, 1.0),
         "icon-maskable-512.png": (512, 0.8), "apple-touch-icon.png": (180, 1.0)}
"""File -> (pixels, share of the square the art fills)."""


def page(svg: str, size: int, scale: float) -> str:
    art = base64.b64encode(svg.encode()).decode()
    inner = round(size * scale)
    return ("data:text/html;base64," + base64.b64encode(
        f"""<html><body style="margin:0;background:{BACKGROUND}">
        <div style="width:{size}px;height:{size}px;display:flex;align-items:center;
        justify-content:center"><img width="{inner}" height="{inner}"
        src="data:image/svg+xml;base64,{art}"></div></body></html>""".encode()).decode())


def main() -> None:
    argparse.ArgumentParser(description=__doc__,  # --help says what is made, and makes nothing
                            formatter_class=argparse.RawDescriptionHelpFormatter).parse_args()
    svg = (ICONS / "icon.svg").read_text()
    driver = chromium.start(chromium.chromium_options())
    try:
        for name, (size, scale) in SIZES.items():
            driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
                "width": size, "height": size, "deviceScaleFactor": 1, "mobile": False})
            driver.get(page(svg, size, scale))
            (ICONS / name).write_bytes(base64.b64decode(driver.execute_cdp_cmd(
                "Page.captureScreenshot", {"format": "png", "clip": {
                    "x": 0, "y": 0, "width": size, "height": size, "scale": 1}})["data"]))
            print(f"{name}: {size} px")
    finally:
        driver.quit()


if __name__ == "__main__":
    main()
