"""Putting the server on a phone's home screen: the web app manifest and its icons.

The icons are rendered from the original art in ``static/icons/icon.svg`` by
``scripts/make_icons.py``. A browser offers to install the app only over HTTPS (see
docs/hosting.md); over plain HTTP a home-screen shortcut still gets the icon.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from parcheesi.core.registry import games

from .palette import PRIMARY

APP_NAME = "Family Table"
"""The app's name, for every game it serves: the top bar, the pages' titles, the home
screen (the package and the command keep their own name)."""

ICONS = Path(__file__).parent / "static" / "icons"
ICONS_URL = "/icons"
MANIFEST_URL = "/manifest.webmanifest"
BACKGROUND = "#f6efe4"
"""The paper colour of the icon's board (``static/icons/icon.svg``): the splash screen
behind the icon."""

ICON = f"{ICONS_URL}/icon-192.png"
"""The app's icon: the tab's and a turn notification's."""

HEAD = (f'<link rel="manifest" href="{MANIFEST_URL}">'
        f'<link rel="icon" type="image/png" href="{ICON}">'
        f'<link rel="apple-touch-icon" href="{ICONS_URL}/apple-touch-icon.png">'
        f'<meta name="theme-color" content="{PRIMARY}">')
"""What every page's head says about the app."""


def tagline() -> str:
    """What the app is, in a line: "Classic <the games' titles> for the family table."."""
    return f"Classic {' and '.join(rules.title for rules in games().values())} for the " \
        "family table."


def manifest() -> dict[str, Any]:
    return {
        "name": APP_NAME,
        "short_name": APP_NAME,
        "description": tagline(),
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "background_color": BACKGROUND,
        "theme_color": PRIMARY,
        "icons": [
            {"src": f"{ICONS_URL}/icon-192.png", "sizes": "192x192", "type": "image/png"},
            {"src": f"{ICONS_URL}/icon-512.png", "sizes": "512x512", "type": "image/png"},
            {"src": f"{ICONS_URL}/icon-maskable-512.png", "sizes": "512x512",
             "type": "image/png", "purpose": "maskable"},
        ],
    }
