"""JSON every game reads and writes alike: untrusted request text, the bounds that keep it
cheap, and the checks of colours and integers that each game's notation is made of.

Parsing never trusts its input: every malformed or impossible value raises
:class:`NotationError` with a one-line reason (the command line's and the records' contract,
``docs/contracts.md``).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Sequence
from typing import Any, TypeGuard


class NotationError(ValueError):
    """Input that does not describe a valid position, request, action or record."""


# A request is a few hundred characters, three levels deep, with one-digit numbers. These
# bounds sit far above any real request and far below what would make parsing slow or make
# Python's JSON module fail with something other than a decoding error (it recurses once per
# level and refuses integers of more than 4,300 digits).
MAX_REQUEST_LENGTH = 65536
MAX_DEPTH = 32
MAX_NUMBER_LENGTH = 40
MAX_SHOWN = 40

# A JSON string (escapes included) or one bracket; strings are skipped so that brackets
# inside them are not counted.
_STRING_OR_BRACKET = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?|[\[\]{}]', re.DOTALL)


def decode_request(data: bytes) -> str:
    """The text of a request read as bytes: JSON is UTF-8 (RFC 8259), whatever the locale."""
    if len(data) > MAX_REQUEST_LENGTH:
        raise NotationError(f"the request is longer than {MAX_REQUEST_LENGTH} bytes")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise NotationError("the request is not UTF-8 text") from None


def parse_json(text: str) -> Any:
    """Untrusted JSON text within the request bounds; every failure is a NotationError."""
    return parse_untrusted(text, MAX_REQUEST_LENGTH, "the request")


def parse_untrusted(text: str, limit: int, what: str) -> Any:
    """Untrusted JSON text of at most ``limit`` characters (``what`` it is, for the reason):
    nested at most :data:`MAX_DEPTH` deep, no key twice, no number too long or infinite;
    every failure is a NotationError."""
    if len(text) > limit:
        raise NotationError(f"{what} is longer than {limit} characters")
    if not text.strip():
        raise NotationError("not JSON: the input is empty")
    _check_depth(text)
    try:
        return json.loads(text, object_pairs_hook=_unique_keys, parse_int=_parse_int,
                          parse_float=_parse_float, parse_constant=_refuse_constant)
    except json.JSONDecodeError as error:
        raise NotationError(f"not JSON: {error}") from None


def _check_depth(text: str) -> None:
    """Refuse nesting deeper than MAX_DEPTH before the recursive parser sees it.

    Every bracket outside a string is counted, so the depth found is never less than the
    parser's own and the parser cannot run out of recursion.
    """
    depth = 0
    for match in _STRING_OR_BRACKET.finditer(text):
        token = match.group()
        if token in ("[", "{"):
            depth += 1
            if depth > MAX_DEPTH:
                raise NotationError("not JSON: nested too deeply")
        elif token in ("]", "}"):
            depth -= 1


def _parse_int(digits: str) -> int:
    if len(digits) > MAX_NUMBER_LENGTH:
        raise NotationError("not JSON: a number is too long")
    return int(digits)


def _parse_float(digits: str) -> float:
    """A fraction or exponent; one too large for a float (1e999) would become infinity."""
    if len(digits) > MAX_NUMBER_LENGTH:
        raise NotationError("not JSON: a number is too long")
    value = float(digits)
    if not math.isfinite(value):
        raise NotationError("not JSON: a number is too large")
    return value


def _refuse_constant(name: str) -> float:
    """NaN, Infinity and -Infinity, which Python accepts, are not JSON numbers."""
    raise NotationError(f"not JSON: {name} is not a number")


def brief(quoted: str) -> str:
    """Input quoted in a reason, cut short: a reason stays one short line."""
    return quoted if len(quoted) <= MAX_SHOWN else quoted[:MAX_SHOWN - 3] + "..."


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """JSON objects with a repeated key (a colour listed twice) are refused, not merged."""
    obj: dict[str, Any] = {}
    for key, value in pairs:
        if key in obj:
            raise NotationError(f"{brief(repr(key))} is given more than once")
        obj[key] = value
    return obj


def compact(obj: Any) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"))


def int_in(value: object, low: int, high: int) -> TypeGuard[int]:
    """Whether ``value`` is a JSON integer (true, false and 1.0 are not) from low to high."""
    return type(value) is int and low <= value <= high


def colour_list(raw: Any, what: str, names: Sequence[str], allowed: tuple[int, ...]
                ) -> tuple[int, ...]:
    """Distinct colour names (of ``names``, by index) among ``allowed``, in the order
    given."""
    if not isinstance(raw, list) or not all(isinstance(n, str) and n in names for n in raw):
        raise NotationError(f"{what} must be a list of colours")
    found = tuple(names.index(name) for name in raw)
    if len(set(found)) != len(found) or any(c not in allowed for c in found):
        raise NotationError(f"{what} must name distinct colours of the game")
    return found


def request_turn(turn: Any, names: Sequence[str], pieces: Sequence[tuple[int, ...]]) -> int:
    """The colour to act of a request: a colour's name, of a colour with pieces."""
    if not isinstance(turn, str) or turn not in names:
        raise NotationError(f"turn {brief(json.dumps(turn))} is not a colour")
    colour = names.index(turn)
    if not pieces[colour]:
        raise NotationError(f"turn {turn!r} is not among the colours")
    return colour


def colours_of_pieces(obj: Any, names: Sequence[str]) -> list[int]:
    """The colours of a ``pieces`` object (colour name -> pieces), sorted: an object of
    2 to 4 known colours."""
    if not isinstance(obj, dict):
        raise NotationError("pieces must be an object mapping colours to four pieces")
    for name in obj:
        if name not in names:
            raise NotationError(f"unknown colour {brief(repr(name))} "
                                f"(use {', '.join(names)})")
    if not 2 <= len(obj) <= 4:
        raise NotationError(f"a position needs 2 to 4 colours, not {len(obj)}")
    return sorted(names.index(name) for name in obj)


def four_pieces(own: Any, name: str, piece: Callable[[Any, str], int]) -> tuple[int, ...]:
    """A colour's four pieces (``piece``: one piece's progress from its JSON, told where it
    is for the reason it gives)."""
    if not isinstance(own, list) or len(own) != 4:
        raise NotationError(f"{name} must have exactly four pieces")
    return tuple(piece(value, f"{name} piece {k + 1}") for k, value in enumerate(own))
