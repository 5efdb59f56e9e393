"""Plain HTML buttons for the table's controls.

The table redraws its controls on every action, for every phone at the table. A Quasar
``q-btn`` is a component of its own (ripple, focus helper, nested spans) that the browser
re-renders whenever its parent does; a native ``<button>`` costs a fraction of that and is
just as reachable by Tab and Enter. Their look is in ``style.css`` (``.btn``).

A *stamped* button makes game actions: it shows the table's stamp (``data-stamp``, see
``presses.py``) and its press sends that stamp, which its handler receives.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Literal

from nicegui.elements.mixins.disableable_element import DisableableElement
from nicegui.elements.mixins.text_element import TextElement
from nicegui.events import ClickEventArguments, handle_event

from .palette import Tone
from .updates import set_props


class PlainButton(TextElement, DisableableElement):
    """A ``<button>`` with a text, a click handler and ``enabled`` like ``ui.button``.

    ``filled`` draws it in its tone (else outlined); ``size`` is ``"lg"`` for the large
    touch targets, ``"sm"`` for the dice chips. A button that is ``gone_when_pressed`` (a
    movement option) lets go of the focus as it is pressed: removing the focused element
    makes the browser recompute the page's style on the spot, which every move paid for.
    """

    def __init__(self, text: str = "", *,
                 on_click: Callable[[], Any | Awaitable[Any]] | None = None,
                 tone: Tone = "primary", filled: bool = False,
                 size: Literal["sm", "md", "lg"] = "md", gone_when_pressed: bool = False
                 ) -> None:
        super().__init__(tag="button", text=text)
        self._props["type"] = "button"
        self._classes.extend(["btn", f"btn-{size}"])
        self._tone: Tone = tone
        self._filled = filled
        self._classes.extend(self._look())
        if on_click is not None:
            self.on("click", lambda _: handle_event(
                on_click, ClickEventArguments(sender=self, client=self.client)), [],
                js_handler=("(e) => { e.currentTarget.blur(); emit(); }" if gone_when_pressed
                            else "() => emit()"))

    @classmethod
    def stamped(cls, text: str = "", *, on_press: Callable[[Any], Any | Awaitable[Any]],
                stamp: str, tone: Tone = "primary", filled: bool = False,
                size: Literal["sm", "md", "lg"] = "md", gone_when_pressed: bool = False
                ) -> PlainButton:
        """A button for game actions: ``on_press`` receives the stamp the browser showed
        when it was pressed (whatever it is: the receiver checks it)."""
        button = cls(text, tone=tone, filled=filled, size=size)
        button._props["data-stamp"] = stamp
        button.on("click", lambda e: on_press(e.args), None,
                  js_handler=("(e) => parcheesiPress(e, emit, true)" if gone_when_pressed
                              else "(e) => parcheesiPress(e, emit, false)"))
        return button

    def _look(self) -> list[str]:
        return [f"tone-{self._tone}", "btn-filled" if self._filled else "btn-outline"]

    def restyle(self, *, tone: Tone | None = None, filled: bool | None = None) -> None:
        """Change the tone or fill; the browser is told only if something changed."""
        tone = self._tone if tone is None else tone
        filled = self._filled if filled is None else filled
        if (tone, filled) == (self._tone, self._filled):
            return
        for name in self._look():
            self._classes.remove(name)
        self._tone, self._filled = tone, filled
        self._classes.extend(self._look())
        self.update()

    def _handle_enabled_change(self, enabled: bool) -> None:
        set_props(self, {"disabled": not enabled})  # the HTML attribute, not Quasar's prop
