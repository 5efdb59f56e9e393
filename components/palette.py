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
