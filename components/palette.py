"""The colours of the pages: the app's own, and every game's players' by colour name.

Each game's look owns its players' paints (``GameRules.look.paints``, by colour index); the
pages read them from there, and the button tones and the fills (badges' dots, confetti) of
every colour of every game come from :func:`tone_css`, so a colour changed in a game's look
changes everywhere at once.
"""

from __future__ import annotations

from parcheesi.core.look import Paint
from parcheesi.core.registry import games

PRIMARY = "#8b1e2d"
"""The app's own colour: headers, the main buttons, the server-problem banner."""

ON_PRIMARY = "#ffffff"

LIGHT_TOKENS = {"surface": "#ffffff", "surface-2": "#f3f1ee", "page": "#faf8f5",
                "text": "#1d1b19", "muted": "#5f5953", "line": "#d8d2cb",
                "disabled": "#ebe7e2", "link": "#1d4ed8"}
"""The pages' design colours (surfaces, lines, text), as ``--name`` in CSS; the charts,
which ECharts draws on a canvas that reads no CSS, take theirs from here too."""
DARK_TOKENS = {"surface": "#23201d", "surface-2": "#2e2a26", "page": "#171513",
               "text": "#f2eee9", "muted": "#b9b1a8", "line": "#4a443e",
               "disabled": "#34302c", "link": "#8ab4f8"}
"""The same in dark colours (Quasar marks dark mode on the body)."""


def token_css() -> str:
    """The design colours as CSS variables, light and dark."""
    def variables(tokens: dict[str, str]) -> str:
        return " ".join(f"--{name}: {value};" for name, value in tokens.items())
    return (f":root {{ {variables(LIGHT_TOKENS)} }}\n"
            f"body.body--dark {{ {variables(DARK_TOKENS)} }}")


def paints_by_name() -> dict[str, Paint]:
    """Every colour of every game by its name (the same paint may have several names, one
    per game)."""
    return {name: paint for rules in games().values()
            for name, paint in zip(rules.colours, rules.look.paints, strict=True)}


def tone_css() -> str:
    """The ``.tone-*`` rules the buttons use, one per player colour and the primary one (with
    the colour's own fill as ``--fill``, for the badges' dots and the finish's confetti: the
    tone is darkened for text)."""
    paints = paints_by_name()
    return "\n".join([f".tone-primary {{ --tone: {PRIMARY}; }}",
                      *(f".tone-{name} {{ --tone: {paint.tone}; --fill: {paint.fill}; }}"
                        for name, paint in paints.items())])
