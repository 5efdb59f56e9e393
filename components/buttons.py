"""Plain HTML buttons.

A Quasar ``q-btn`` is a component of its own (ripple, focus helper, nested spans) that the
browser re-renders whenever its parent does; a native ``<button>`` costs a fraction of that
and is just as reachable by Tab and Enter. Their look is in ``style.css`` (``.btn``), which
the table's controls (``controls.js``) draw with too.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Literal

from nicegui.elements.mixins.disableable_element import DisableableElement
from nicegui.elements.mixins.text_element import TextElement
from nicegui.events import ClickEventArguments, handle_event

from .updates import set_props


class PlainButton(TextElement, DisableableElement):
    """A ``<button>`` with a text, a click handler and ``enabled`` like ``ui.button``.

    ``filled`` draws it in the primary tone (else outlined); ``size`` is ``"lg"`` for the
    large touch targets.
    """

    def __init__(self, text: str = "", *,
                 on_click: Callable[[], Any | Awaitable[Any]] | None = None,
                 filled: bool = False, size: Literal["md", "lg"] = "md") -> None:
        super().__init__(tag="button", text=text)
        self._props["type"] = "button"
        self._classes.extend(["btn", f"btn-{size}", "tone-primary",
                              "btn-filled" if filled else "btn-outline"])
        if on_click is not None:
            self.on("click", lambda _: handle_event(
                on_click, ClickEventArguments(sender=self, client=self.client)), [],
                js_handler="() => emit()")

    def _handle_enabled_change(self, enabled: bool) -> None:
        set_props(self, {"disabled": not enabled})  # the HTML attribute, not Quasar's prop
