"""Frames a hostile client sends: every field of every message ``nicegui.js`` sends, given
values of every wrong type, deep nesting and huge values.

Shared by the malformed-frame drill (``chaos.py malformed``) and the socket tests
(``tests/test_sockets.py``), which send them over raw sockets with and without a page; the
server must drop each without a traceback. Nothing here talks to a server.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

DEPTH = 100_000
"""How deep the nested JSON goes (Python's reader gives up near 1,000)."""


class Deep:
    """A list nested ``DEPTH`` deep (``text``: the JSON text of one, as an event argument
    is sent): written out by :func:`packet`, and built without recursion by :func:`nested`
    for tests that pass Python objects."""

    def __init__(self, text: bool = False) -> None:
        self.text = text
        self.mark = "\x00deep text\x00" if text else "\x00deep\x00"

    def __repr__(self) -> str:
        return f"Deep(text={self.text})"


DEEP, DEEP_TEXT = Deep(), Deep(text=True)

WRONG: tuple[tuple[str, Any], ...] = (
    ("null", None), ("true", True), ("negative", -1), ("huge integer", 10**40),
    ("fraction", 1.5), ("empty text", ""), ("long text", "x" * 100_000), ("empty list", []),
    ("list", [0]), ("object", {}), ("object of lists", {"colour": [0], "piece": [0]}),
    ("deep nesting", DEEP),
)
"""Values of the wrong type for some field of every message (each is right for none, or
for few)."""


def nested(value: Any) -> Any:
    """A message (or any value) as the Python object the server decodes from its frame:
    :data:`DEEP` the nested list, :data:`DEEP_TEXT` its JSON text, in the message's fields
    and an event's arguments."""
    if isinstance(value, dict):
        value = {k: nested(v) for k, v in value.items()}
        if isinstance(value.get("args"), list):
            value["args"] = [nested(a) for a in value["args"]]
        return value
    if value is DEEP_TEXT:
        return "[" * DEPTH + "]" * DEPTH
    if value is not DEEP:
        return value
    built: list[Any] = []
    for _ in range(DEPTH):
        built = [built]
    return built


def packet(event: str, data: Any) -> str:
    """A socket.io event packet as engine.io text ("42" and the JSON list); :data:`DEEP`
    and :data:`DEEP_TEXT` among ``data``'s fields or an event's arguments are written out."""
    if isinstance(data, dict):
        data = {k: _marked(v) for k, v in data.items()}
        if isinstance(data.get("args"), list):
            data["args"] = [_marked(a) for a in data["args"]]
    text = "42" + json.dumps([event, _marked(data)])
    nesting = "[" * DEPTH + "]" * DEPTH
    return text.replace(json.dumps(DEEP.mark), nesting).replace(
        json.dumps(DEEP_TEXT.mark), f'"{nesting}"')


def _marked(value: Any) -> Any:
    return value.mark if isinstance(value, Deep) else value


def messages(client_id: str, element: int, listener: str) -> dict[str, dict[str, Any]]:
    """A well-formed message of each kind ``nicegui.js`` sends, for a page, one of its
    elements and that element's listener."""
    return {
        "event": {"client_id": client_id, "id": element, "listener_id": listener, "args": []},
        "javascript_response": {"client_id": client_id, "request_id": "r", "result": None},
        "ack": {"client_id": client_id, "next_message_id": 0},
        "log": {"client_id": client_id, "level": "info", "message": "hello"},
        "handshake": {"client_id": client_id, "tab_id": "t", "document_id": "d",
                      "old_tab_id": None, "next_message_id": 0},
    }


def wrong_fields(client_id: str, element: int, listener: str
                 ) -> Iterator[tuple[str, str, Any]]:
    """(name, kind, message): each message with one field given each wrong value, an event's
    arguments also given each as JSON text (what a handler receives) and as a list item that
    is not text; the message itself replaced by each."""
    for kind, message in messages(client_id, element, listener).items():
        for name, value in WRONG:
            yield f"{kind} as {name}", kind, value
            for field in message:
                yield f"{kind}.{field} {name}", kind, {**message, field: value}
            if kind == "event":
                yield f"event argument {name}", kind, {**message, "args": [_text(value)]}
                yield f"event argument item {name}", kind, {**message, "args": [value]}


def wrong_arguments(client_id: str, element: int, listener: str
                    ) -> Iterator[tuple[str, dict[str, Any]]]:
    """(name, event message): an element's listener sent each wrong value as its one
    argument, and as two arguments."""
    for name, value in WRONG:
        frame = {"client_id": client_id, "id": element, "listener_id": listener}
        yield name, {**frame, "args": [_text(value)]}
        yield f"{name} twice", {**frame, "args": [_text(value), _text(value)]}


def _text(value: Any) -> Any:
    """A value as the JSON text of an event argument (:data:`DEEP` becomes
    :data:`DEEP_TEXT`, which :func:`packet` writes out)."""
    return DEEP_TEXT if value is DEEP else json.dumps(value)
