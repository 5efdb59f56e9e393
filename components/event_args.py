"""What a browser may send as the arguments of an element's event, checked before any handler
sees them.

NiceGUI hands an event's arguments, decoded from JSON, to the element's handler as they came,
and its own elements trust them: a toggle or a select indexes its options with them (a list
raises ``TypeError``), a slider or a switch takes any value as its new value (which the app's
change handlers then use), the keyboard reads named fields of them. ``nicegui.js`` and Quasar
send each of these events in one shape only; :func:`problem` says when a frame's arguments are
not that shape, so the socket guard (:mod:`components.sockets`) drops the frame, where a
handler would otherwise raise (one traceback in the log per frame) or store a value of the
wrong type.

The app's own components (the board, the table's controls, the replay's move list, the plain
buttons) check their arguments in their own handlers, beside the code that uses them; an
event this module does not know (a click, whose handlers take no arguments) passes.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from nicegui import ui
from nicegui.element import Element
from nicegui.elements.mixins.value_element import ValueElement
from nicegui.helpers import event_type_to_camel_case

MAX_TEXT = 10_000
"""Characters a text field may send when it sets no ``maxlength`` of its own."""


def is_int(value: Any) -> bool:
    """An integer as JSON has them (a boolean is not one)."""
    return isinstance(value, int) and not isinstance(value, bool)


def is_number(value: Any) -> bool:
    """A finite number (JSON's ``Infinity`` and ``NaN``, which Python's reader accepts, are
    not)."""
    return (is_int(value) or isinstance(value, float)) and math.isfinite(value)


def _index(element: Any, value: Any) -> bool:
    """An index into a choice element's options, as Quasar's toggle and radio send it."""
    return is_int(value) and 0 <= value < len(element.options)


def _toggle(element: Any, value: Any) -> bool:
    return (value is None and bool(element.props.get("clearable"))) or _index(element, value)


def _option(element: Any, value: Any) -> bool:
    """One picked option as NiceGUI's select sends it: ``{"value": index, "label": ...}``."""
    return isinstance(value, dict) and _index(element, value.get("value"))


def _select(element: Any, value: Any) -> bool:
    if value is None:
        return True
    if element.multiple:
        return isinstance(value, list) and all(_option(element, v) for v in value)
    return _option(element, value)


def _slider(element: Any, value: Any) -> bool:
    low, high = element.props.get("min", 0), element.props.get("max", 100)
    return is_number(value) and low <= value <= high


def _text(element: Any, value: Any) -> bool:
    limit = element.props.get("maxlength")
    limit = int(limit) if isinstance(limit, int | str) and str(limit).isdigit() else MAX_TEXT
    return value is None or (isinstance(value, str) and len(value) <= limit)


NUMBER_TEXT = 32
"""Characters a number field's text may have (a long one is not a number a person typed)."""


def _number(element: Any, value: Any) -> bool:
    """A number field's new value: Quasar sends the field's text ("7"; "" once cleared),
    which NiceGUI reads with ``float``; a finite number within the field's bounds only."""
    if value is None or value == "":
        return True
    if isinstance(value, str):
        if len(value) > NUMBER_TEXT:
            return False
        try:
            value = float(value)
        except ValueError:
            return False
    low, high = element.props.get("min", -math.inf), element.props.get("max", math.inf)
    return is_number(value) and low <= value <= high


def _flag(element: Any, value: Any) -> bool:
    return isinstance(value, bool)


Check = Callable[[Any, Any], bool]
"""Whether an element may be sent this argument."""

VALUES: tuple[tuple[type[Element], Check], ...] = (
    (ui.toggle, _toggle), (ui.radio, _index), (ui.select, _select), (ui.slider, _slider),
    (ui.input, _text), (ui.number, _number),
    (ui.switch, _flag), (ui.checkbox, _flag), (ui.expansion, _flag), (ui.dialog, _flag),
    (ui.menu, _flag),
)
"""The new value each kind of value element's ``update:modelValue`` may carry (the first
class that matches decides; subclasses come before their bases)."""

KEY_FIELDS = {"action": str, "key": str, "code": str, "repeat": bool, "altKey": bool,
              "ctrlKey": bool, "metaKey": bool, "shiftKey": bool}


def _key(element: Any, value: Any) -> bool:
    """A key event of ``ui.keyboard`` (``location`` is the only number)."""
    return (isinstance(value, dict) and is_int(value.get("location"))
            and all(isinstance(value.get(k), t) for k, t in KEY_FIELDS.items()))


def _selection(element: Any, value: Any) -> bool:
    """A table's selection change: whether rows were added, the rows and their keys."""
    return (isinstance(value, dict) and isinstance(value.get("added"), bool)
            and isinstance(value.get("rows"), list)
            and all(isinstance(r, dict) for r in value["rows"])
            and isinstance(value.get("keys"), list))


def _anything(element: Any, value: Any) -> bool:
    return True


OTHERS: dict[tuple[type[Element], str], Check] = {
    (ui.keyboard, "key"): _key,
    (ui.table, "selection"): _selection,
    (ui.table, "update:pagination"): lambda _, v: isinstance(v, dict),
    (ui.table, "update:fullscreen"): _flag,
}
"""The arguments of the other events of NiceGUI's own elements whose handlers read them."""


def _value_check(element: Element, event: str) -> Check | None:
    if not isinstance(element, ValueElement):
        return None
    if event != event_type_to_camel_case(f"update:{element.VALUE_PROP}"):
        return None
    return next((check for kind, check in VALUES if isinstance(element, kind)), _anything)


def problem(element: Element, event: str, args: list[Any]) -> str | None:
    """Why ``args`` (the decoded arguments of a frame for ``element``'s ``event`` listener)
    are not what the browser sends for it, if so."""
    check = _value_check(element, event)
    if check is None:
        check = next((c for (kind, name), c in OTHERS.items()
                      if name == event and isinstance(element, kind)), None)
    if check is None:
        return None
    value = args[0] if len(args) == 1 else args
    try:
        ok = check(element, value)
    except (TypeError, ValueError, AttributeError):  # an element unlike its kind's
        ok = False
    return None if ok else f"event: bad arguments for {event}"
