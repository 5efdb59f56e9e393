"""Cheap element updates for what is redrawn on every action.

NiceGUI's ``element.props("key=value ...")`` parses its string on every call, and quoted
values go through ``ast.literal_eval``, whose helper closures are reference cycles: called
for every button on every redraw, they fill the cyclic garbage collector, whose pauses then
delay every game on the server. ``set_props`` takes the values as Python objects and sends
an update only when one of them changed.

The board, the controls and the move log hold their state in one prop as one JSON string
(``as_json``): NiceGUI would otherwise wrap every nested list in an observable and the socket
layer would walk them all, for every tab on every action.

It writes them straight into the element's props dict and asks for one update. Going through
the props' observable dict instead costs a change event per call, whose handler NiceGUI looks
up by signature each time: about 30 µs against 4 µs for a stamp, and a redraw changes a dozen
props (every action control's stamp, the buttons' states and labels) for every tab.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from nicegui import json, ui

_MISSING = object()


def set_props(element: ui.element, values: Mapping[str, Any], remove: Iterable[str] = ()
              ) -> None:
    """Set ``values`` and drop the ``remove`` keys; update the browser only on a change."""
    props = element.props
    changed = {key: value for key, value in values.items()
               if props.get(key, _MISSING) != value}
    gone = [key for key in remove if key in props]
    if not changed and not gone:
        return
    for key in gone:
        dict.__delitem__(props, key)
    dict.update(props, changed)  # plain values (text, numbers, flags): nothing to observe
    element.update()


def as_json(value: Any) -> str:
    """``value`` as the compact JSON string a prop sends as it is. NiceGUI's own encoder
    (orjson where it is installed) is about ten times the standard library's speed, and the
    board's string is made for every tab on every action."""
    return json.dumps(value)
