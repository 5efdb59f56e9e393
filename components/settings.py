"""Per-browser settings (sound, volume, reduced motion, board orientation, one-tap moves,
learning mode, the hand-over screen, a notification when it is your turn, the win-chance
meter) and their dialog.

Settings live in NiceGUI's server-side per-browser storage, so they follow the browser
across games, reloads and server restarts without touching the game tables.
"""

from __future__ import annotations

from collections.abc import Callable, MutableMapping
from typing import Any

from nicegui import ui

from parcheesi.core.look import Paint
from parcheesi.core.registry import DEFAULT_GAME, AnyRules, games

ORIENTATIONS = {
    "auto": "Automatic (your colour at the bottom; on a shared screen, whoever has it)",
    "turn": "Player to move at the bottom",
}
"""The orientations that name no colour; :func:`orientations` adds one per colour."""
SLIDERS_ICON = ("M3 5h10v2H3zM17 5h4v2h-4zM13 3h2v6h-2zM3 11h4v2H3zM11 11h10v2H11zM7 9h2v6H7z"
                "M3 17h12v2H3zM19 17h2v2h-2zM15 15h2v6h-2z|0 0 24 24")
"""A settings icon drawn as an SVG path, so the page needs no icon font."""
ARROW_ICON = "M7 10l5 5 5-5z|0 0 24 24"

MOTION = {"system": "As the system prefers", "on": "Reduce motion", "off": "Animate moves"}
ONE_TAP = "Move at once when a piece has one move"
LEARNING = "Learning mode: tapping a piece that cannot move says why"
HAND_OVER = "Pass the phone: a hand-over screen between people's turns on a shared screen"


def orientations() -> dict[str, str]:
    """Every board orientation by its stored value: :data:`ORIENTATIONS`, then each colour of
    the default game by name, with the colours of the same paint in the other games ("Ruby
    (Other game: Red) at the bottom"), then the other games' colours of paints of their own;
    a table of any game turns that paint to the bottom."""
    listed = games()
    first = listed[DEFAULT_GAME]
    found = dict(ORIENTATIONS)
    for name, paint in zip(first.colours, first.look.paints, strict=True):
        others = [f"{rules.title}: {rules.colours[rules.look.paints.index(paint)].title()}"
                  for rules in listed.values()
                  if rules is not first and paint in rules.look.paints]
        also = f" ({'; '.join(others)})" if others else ""
        found[name] = f"{name.title()}{also} at the bottom"
    for rules in listed.values():  # the other games' colours of paints of their own
        for name, paint in zip(rules.colours, rules.look.paints, strict=True):
            if _orientation_key(paint, name) not in found:
                found[name] = f"{name.title()} ({rules.title}) at the bottom"
    return found


def _orientation_key(paint: Paint, name: str) -> str:
    """How an orientation turning ``paint`` (called ``name`` in its game) to the bottom is
    stored: by the default game's name for that paint, else by the game's own."""
    default = games()[DEFAULT_GAME]
    return (default.colours[default.look.paints.index(paint)]
            if paint in default.look.paints else name)


def orientations_of(rules: AnyRules, current: str) -> dict[str, str]:
    """The orientations offered at a table of ``rules``: those that name no colour, and its
    own colours in its own words ("Red at the bottom"), stored as :func:`orientations` stores
    their paints; ``current``, if another game's colour, stays listed as it is."""
    found = dict(ORIENTATIONS)
    for name, paint in zip(rules.colours, rules.look.paints, strict=True):
        found[_orientation_key(paint, name)] = f"{name.title()} at the bottom"
    if current not in found:
        found[current] = orientations()[current]
    return found


CHANCES = "Show each player's chance to win"


NOTIFY = "Tell me when it is my turn"
NOTIFY_NOTE = ("With this tab in the background, a notification says so. This browser asks "
               "you first.")
NOTIFY_BLOCKED = ("This browser blocks notifications from this page: allow them in its site "
                  "settings.")


class Settings:
    """Typed access to the settings stored for this browser."""

    def __init__(self, storage: MutableMapping[str, Any]) -> None:
        self.storage = storage
        self.system_reduced_motion = False
        """What the browser reports for prefers-reduced-motion (asked once per page)."""

    @property
    def sound(self) -> bool:
        return bool(self.storage.get("sound", True))

    @property
    def volume(self) -> int:
        return int(self.storage.get("volume", 60))

    @property
    def one_tap(self) -> bool:
        """Whether a tap on a piece that has exactly one move makes it (else it shows it)."""
        return bool(self.storage.get("one_tap", True))

    @property
    def learning(self) -> bool:
        """Whether a tap on a piece of the player to act that cannot move says why (off
        unless switched on: for children learning the game)."""
        return bool(self.storage.get("learning", False))

    @property
    def hand_over(self) -> bool:
        """Whether a screen several people share covers the table between different
        people's turns until the next one has the phone (on unless switched off)."""
        return bool(self.storage.get("hand_over", True))

    @property
    def show_chances(self) -> bool:
        """Whether the table shows the win-chance meter (off unless the player switches it
        on: not everyone wants to be told they are losing)."""
        return bool(self.storage.get("show_chances", False))

    @property
    def notify_turn(self) -> bool:
        """Whether a hidden table tab shows a notification when this browser's turn comes
        (off unless the player switches it on; offered only where the browser can)."""
        return bool(self.storage.get("notify_turn", False))

    @property
    def reduced_motion(self) -> str:
        value = self.storage.get("reduced_motion", "system")
        return value if value in MOTION else "system"

    @property
    def orientation(self) -> str:
        value = self.storage.get("orientation", "auto")
        return value if value in orientations() else "auto"

    def reduced_motion_for_board(self) -> bool:
        if self.reduced_motion == "system":
            return self.system_reduced_motion
        return self.reduced_motion == "on"

    def set(self, key: str, value: Any) -> None:
        self.storage[key] = value


def settings_button(settings: Settings, on_change: Callable[[], None], rules: AnyRules,
                    shared_screen: bool) -> None:
    """A gear button that opens the settings dialog of a table of ``rules``; changes apply
    at once. The settings are the browser's, for every game; the dialog shows those that
    matter at this table (the hand-over on a shared screen, the win chances where the game
    has them), in its game's words."""

    def changed(key: str, value: Any) -> None:
        settings.set(key, value)
        on_change()

    with ui.dialog().props('aria-label=Settings') as dialog, ui.card().classes(
            "w-full max-w-md").props('data-testid=settings-dialog'):
        ui.label("Settings").classes("text-lg font-medium")
        ui.switch("Sound", value=settings.sound,
                  on_change=lambda e: changed("sound", bool(e.value))).props(
            'data-testid=setting-sound')
        with ui.row().classes("w-full items-center no-wrap"):
            ui.label("Volume")
            ui.slider(min=0, max=100, step=5, value=settings.volume,
                      on_change=lambda e: changed("volume", int(e.value))).props(
                'label aria-label="Volume" data-testid=setting-volume').classes("grow")
        ui.switch(ONE_TAP, value=settings.one_tap,
                  on_change=lambda e: changed("one_tap", bool(e.value))).props(
            'data-testid=setting-one-tap')
        ui.switch(LEARNING, value=settings.learning,
                  on_change=lambda e: changed("learning", bool(e.value))).props(
            'data-testid=setting-learning')
        if shared_screen:
            ui.switch(HAND_OVER, value=settings.hand_over,
                      on_change=lambda e: changed("hand_over", bool(e.value))).props(
                'data-testid=setting-hand-over')
        if rules.expert is not None:
            ui.switch(CHANCES, value=settings.show_chances,
                      on_change=lambda e: changed("show_chances", bool(e.value))).props(
                'data-testid=setting-chances')
        notify_switch(settings, changed)
        ui.select(MOTION, value=settings.reduced_motion, label="Motion",
                  on_change=lambda e: changed("reduced_motion", e.value)).props(
            f'data-testid=setting-motion dropdown-icon="{ARROW_ICON}"').classes("w-full")
        ui.select(orientations_of(rules, settings.orientation), value=settings.orientation,
                  label="Board orientation",
                  on_change=lambda e: changed("orientation", e.value)).props(
            f'data-testid=setting-orientation dropdown-icon="{ARROW_ICON}"').classes("w-full")
        ui.button("Close", on_click=dialog.close).props("flat data-testid=settings-close")
    ui.button(icon=SLIDERS_ICON, on_click=dialog.open).classes("touch-target").props(
        'flat round aria-label="Settings" data-testid=settings')


def notify_switch(settings: Settings, changed: Callable[[str, Any], None]) -> None:
    """The switch of the turn notification. The page shows it only where the browser can
    notify (a secure context with notifications: ``turns.TURN_SCRIPT`` marks the page so),
    and asks the browser's permission as it is switched on."""
    with ui.column().classes("notify-setting gap-0"):
        ui.switch(NOTIFY, value=settings.notify_turn,
                  on_change=lambda e: changed("notify_turn", bool(e.value))).props(
            'data-testid=setting-notify')
        ui.label(NOTIFY_NOTE).classes("text-sm text-grey-8")
        ui.label(NOTIFY_BLOCKED).classes("notify-blocked text-sm text-negative").props(
            'data-testid=notify-blocked')
