"""A game's rules page: its rules in the app's own words (``GameRules.rules_text``, kept in
the game's package beside the engine they must agree with)."""

from __future__ import annotations

from nicegui import ui

from parcheesi.core.registry import AnyRules


def rules_content(rules: AnyRules) -> None:
    """The rules of the game ``rules``."""
    ui.markdown(rules.rules_text).classes("rules-text").props(
        f'data-testid=rules data-game={rules.kind}')
