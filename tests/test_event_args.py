"""What a browser may send each of NiceGUI's own elements (``components/event_args.py``):
arguments of the wrong type are refused before the element's handler indexes, stores or reads
them, and what ``nicegui.js`` and Quasar really send passes.

The elements are built on a page of the test's own (``own_pages``); each check is asked with
the listener's own event name, as the socket guard asks it. Handing a refused value to the
element's handler would raise (a toggle or a select) or set a value of another type (a
slider, a switch, an input): the last test shows it does.
"""

from __future__ import annotations

from typing import Any

import hostile  # benchmarks/hostile.py
import pytest
from nicegui import ui
from nicegui.element import Element
from nicegui.events import GenericEventArguments
from nicegui.testing import User

from components import event_args

pytestmark = pytest.mark.own_pages

WRONG = [hostile.nested(value) for _, value in hostile.WRONG]
"""Every wrong value the drills send (deep nesting as the object it decodes to)."""


def value_event(element: Element) -> str:
    """The event a value element's change comes as (``update:modelValue``; an input's
    ``update:value``)."""
    return next(listener.type for listener in element._event_listeners.values()
                if listener.type.startswith("update:"))


async def elements(user: User) -> dict[str, Element]:
    """One of each kind the app uses, on a page of its own."""
    made: dict[str, Element] = {}

    @ui.page("/")
    def page() -> None:
        made["toggle"] = ui.toggle(["a", "b", "c"], value="a")
        made["radio"] = ui.radio({"x": "X", "y": "Y"}, value="x")
        made["select"] = ui.select(["one", "two"], value="one")
        made["slider"] = ui.slider(min=0, max=1, step=0.1, value=0.5)
        made["input"] = ui.input("Code").props("maxlength=12")
        made["number"] = ui.number("Most people", min=1, max=50, precision=0)
        made["switch"] = ui.switch("On", value=True)
        made["expansion"] = ui.expansion("More")
        made["dialog"] = ui.dialog()
        made["keyboard"] = ui.keyboard(on_key=lambda _: None)

    await user.open("/")
    return made


RIGHT: dict[str, list[Any]] = {
    "toggle": [0, 2], "radio": [1], "select": [{"value": 1, "label": "two"}, None],
    "slider": [0, 0.3, 1], "input": ["ab12", "", None],
    "number": ["7", "2.5", "", None, 12, 1.5], "switch": [False, True],
    "expansion": [True, False], "dialog": [False, True],
}
"""What the browser sends each value element when a person changes it."""
STILL_WRONG: dict[str, list[Any]] = {
    "toggle": [3, -1, 1.0, True], "radio": [2], "select": [1, {"value": 5}, [{"value": 0}]],
    "slider": [2, -0.1, float("inf"), float("nan"), True], "input": ["x" * 13, 12],
    "number": ["seven", "nan", "inf", "1" * 40, "0", "51", 0, True, float("nan")],
    "switch": [0, 1, "true"], "expansion": [1], "dialog": ["open"],
}
"""Values of roughly the right kind that Quasar never sends (out of range, a number for a
flag, a text over the field's length)."""


async def test_value_elements_take_only_what_the_browser_sends(user: User) -> None:
    made = await elements(user)
    for name, right in RIGHT.items():
        element = made[name]
        event = value_event(element)
        for value in right:
            assert event_args.problem(element, event, [value]) is None, (name, value)
        for value in [*STILL_WRONG[name], *WRONG]:
            if any(value is r or (type(value) is type(r) and value == r) for r in right):
                continue
            assert event_args.problem(element, event, [value]) is not None, (name, value)
        assert event_args.problem(element, event, [right[0], right[0]]) is not None


async def test_key_events_need_every_field_of_its_type(user: User) -> None:
    keyboard = (await elements(user))["keyboard"]
    key = {"action": "keydown", "key": "ArrowLeft", "code": "ArrowLeft", "repeat": False,
           "altKey": False, "ctrlKey": False, "metaKey": False, "shiftKey": False,
           "location": 0}
    assert event_args.problem(keyboard, "key", [key]) is None
    for field in key:
        for value in WRONG:
            if type(value) is type(key[field]):  # any text is a key's name
                continue
            assert event_args.problem(keyboard, "key", [{**key, field: value}]) is not None
    assert event_args.problem(keyboard, "key", [{}]) is not None


async def test_events_it_does_not_know_pass(user: User) -> None:
    toggle = (await elements(user))["toggle"]
    for value in WRONG:
        assert event_args.problem(toggle, "click", [value]) is None


async def test_the_handlers_would_fail_on_what_is_refused(user: User) -> None:
    """Why the checks are there: NiceGUI's own handlers index options with the value, or take
    it as the new value whatever it is."""
    made = await elements(user)
    toggle, slider = made["toggle"], made["slider"]
    with pytest.raises(TypeError):
        toggle._event_args_to_value(GenericEventArguments(sender=toggle, client=toggle.client,
                                                          args=[0]))
    assert slider._event_args_to_value(GenericEventArguments(
        sender=slider, client=slider.client, args="not a number")) == "not a number"
