"""The table's controls as one custom component (``controls.js``).

The dice and whose roll they are, the dice chips, Roll, the piece buttons, the movement
options, Hint, Play best and the status line change together on almost every action, and
each of them used to be a NiceGUI element of its own: every action sent all of them (every
stamped control resent whole for its new stamp) and the browser re-rendered each one's
region. As one element with one JSON state, an action sends one small update and the browser
patches one component, as the board does.

The component reads state and sends presses; it decides nothing. A press of a game action
(Roll, a piece, a movement option, Hint, Play best, Undo) comes back as ``press`` with the stamp
the control showed (``presses.py``), and, for an option, which set of options it was drawn
in: a press on an option the table no longer shows finds no action, as a click on a removed
button would. A chip only picks a dice portion and is no game action (no stamp).

State format (the ``state`` prop: the JSON text of :attr:`Controls.state`):

``stamp``
    the table's stamp, shown by every action control;
``tone``
    the colour name of the seat to act (the piece buttons' and options' tone);
``dice``
    ``{"faces": [value, ...], "rolls": n, "label": aria-label, "owner": words}``
    (``rolls``: how many rolls were shown tumbling; a new count tumbles the dice);
``chips``
    ``[[value, count, pressed], ...]``, one per dice portion value still to use;
``roll``
    ``[text, enabled]``;
``pieces``
    ``[[enabled, pressed, label], ...]``, the four piece buttons;
``question``
    whether the options answer a question (the piece buttons make room for them);
``note``
    the invitation to pick a piece, or null;
``set``, ``options``
    which set of options this is (a counter) and ``[[text, marker number], ...]``;
``hint``
    whether Hint and Play best may be pressed;
``undo``
    whether Undo is shown (a table of one person and computers, after a move of the roll);
``status``
    the status line (an ``aria-live`` region).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from nicegui import events, ui

from .dice_view import dice_label
from .table_model import Screen
from .updates import as_json

CONTROLS = ("roll", "piece", "option", "hint", "best", "undo")
"""The game actions a press can name."""


class Controls(ui.element, component="controls.js", dependencies=["dice.js"]):
    """One table's controls, redrawn from the model's :class:`Screen`."""

    def __init__(self, on_press: Callable[[str | None, int, Any], Any],
                 on_chip: Callable[[int], Any]) -> None:
        """:param on_press: called with (control, index, stamp) for a press of a game action:
        ``control`` one of :data:`CONTROLS`, ``index`` the piece or the option (else 0); None
        for a press that names nothing shown (malformed, or an option of a set no longer
        shown), which the table answers without acting. May be a coroutine function, which
        NiceGUI awaits in the table's context.
        :param on_chip: called with the index of the chip pressed, among those shown."""
        super().__init__()
        self._on_press = on_press
        self._on_chip = on_chip
        self._rolls = 0
        self._set = 0
        self._options: tuple[Any, ...] = ()
        """The options of the set shown, with their actions (two sets may read the same)."""
        self.state: dict[str, Any] = {}
        """What the browser shows (see the module's docstring)."""
        self.on("press", self._handle_press)
        self.on("chip", self._handle_chip)

    def show(self, screen: Screen, stamp: str, tumble: bool) -> None:
        """Show ``screen`` with ``stamp`` on every action control; ``tumble``: the dice were
        just rolled and are shown rolling. The browser is told only when something changed."""
        if tumble:
            self._rolls += 1
        if screen.options != self._options:  # a new set: new buttons, a new identity
            self._options = screen.options
            self._set += 1
        state = {
            "stamp": stamp,
            "tone": screen.tone,
            "dice": {"faces": list(screen.dice or ()), "rolls": self._rolls,
                     "label": dice_label(screen.dice, screen.dice_owner),
                     "owner": f"{screen.dice_owner}'s roll" if screen.dice_owner else ""},
            "chips": [[c.value, c.count, c.pressed] for c in screen.chips],
            "roll": [screen.roll_text, screen.can_roll],
            "pieces": [[p.enabled, p.pressed, p.label] for p in screen.pieces],
            "question": screen.question,
            "note": screen.choose_note,
            "set": self._set,
            "options": [[text, mark] for (text, _), mark in zip(
                screen.options, screen.option_marks, strict=True)],
            "hint": screen.can_hint,
            "undo": screen.can_undo,
            "status": screen.status,
        }
        if state == self.state:
            return
        self.state = state
        self._props["state"] = as_json(state)
        self.update()

    def _handle_press(self, e: events.GenericEventArguments) -> Any:
        """A press as the browser sent it. The result is returned so that NiceGUI awaits a
        coroutine in this element's context."""
        args = e.args if isinstance(e.args, dict) else {}
        control, index = args.get("control"), args.get("index")
        if type(index) is not int or control not in CONTROLS or (control == "option" and not (
                args.get("set") == self._set and 0 <= index < len(self.state["options"]))):
            return self._on_press(None, 0, args.get("stamp"))
        return self._on_press(control, index, args.get("stamp"))

    def _handle_chip(self, e: events.GenericEventArguments) -> Any:
        """A chip pressed, by its place among the chips shown."""
        k = e.args
        return self._on_chip(k) if type(k) is int and 0 <= k < len(self.state["chips"]) else None

    def _displayed_contents(self, *, only_visible: bool) -> list[Any]:
        """The words the controls show (what NiceGUI's test tools look for)."""
        state = self.state
        if not state:
            return super()._displayed_contents(only_visible=only_visible)
        words = [state["dice"]["owner"], *(str(c[0]) for c in state["chips"]), state["roll"][0],
                 *(o[0] for o in state["options"]), state["status"]]
        if state["note"] is not None:
            words.append(state["note"])
        return [*super()._displayed_contents(only_visible=only_visible), *(w for w in words if w)]
