"""Small helpers for building rules positions in tests (docs/rules/parcheesi.md 2,
docs/contracts.md request JSON).

Pieces are written as in the outcome request: ``"start"``, a progress 0..70 or ``"home"``;
the order of a colour's list is the piece numbering (index 0..3). The square arithmetic is
restated here on purpose, independently of the game's ``board.py``, so a test's comment and its
numbers can be checked by hand against docs/rules/parcheesi.md.
"""

from __future__ import annotations

import json
from typing import Any

from parcheesi.__main__ import outcomes_json
from parcheesi.core.actions import Roll
from parcheesi.games.parcheesi.notation import request_from_json
from parcheesi.games.parcheesi.state import State
from parcheesi.games.parcheesi.turns import Event, apply

S = "start"
H = "home"
START = -1
"""The engine's progress value for a piece in START."""
HOME = 71
"""Progress 71 is HOME (docs/rules/parcheesi.md 2)."""

RUBY, EMERALD, SAPPHIRE, AMBER = 0, 1, 2, 3
TURN_OFF = {RUBY: 0, EMERALD: 17, SAPPHIRE: 34, AMBER: 51}
SAFE = frozenset({0, 5, 12, 17, 22, 29, 34, 39, 46, 51, 56, 63})


def square(colour: int, progress: int) -> int:
    """Track square of a piece at track progress 0..63: (t + 5 + progress) mod 68."""
    return (TURN_OFF[colour] + 5 + progress) % 68


def progress_on(colour: int, track_square: int) -> int:
    """The progress at which ``colour`` stands on ``track_square``."""
    return (track_square - TURN_OFF[colour] - 5) % 68


def request(turn: str, pieces: dict[str, list[Any]], dice: tuple[int, int] = (1, 2),
            doubles: int = 0) -> dict[str, Any]:
    return {"turn": turn, "pieces": pieces, "dice": list(dice), "doubles": doubles}


def at_roll(turn: str, pieces: dict[str, list[Any]], doubles: int = 0) -> State:
    """The state at the start of a roll of ``turn`` (phase ROLL)."""
    state, _ = request_from_json(request(turn, pieces, doubles=doubles))
    return state


def rolled(turn: str, pieces: dict[str, list[Any]], dice: tuple[int, int],
           doubles: int = 0) -> tuple[State, list[Event]]:
    """Roll ``dice`` from the start of a roll: the state after the Roll and its events."""
    return apply(at_roll(turn, pieces, doubles), Roll(), dice)


def outcomes(turn: str, pieces: dict[str, list[Any]], dice: tuple[int, int],
             doubles: int = 0) -> list[dict[str, list[Any]]]:
    """The ``pieces`` of every outcome, as the outcomes command prints them."""
    result = outcomes_json(json.dumps(request(turn, pieces, dice, doubles)))
    return [item["pieces"] for item in result["outcomes"]]


def _key(value: Any) -> int:
    return -1 if value == S else 71 if value == H else value


def pos(**colours: list[Any]) -> dict[str, list[Any]]:
    """A position with each colour's list sorted: start, progress ascending, home."""
    return {name: sorted(own, key=_key) for name, own in colours.items()}


def expect(*positions: dict[str, list[Any]]) -> list[dict[str, list[Any]]]:
    """Positions in the order the outcomes command lists them (by compact JSON text)."""
    return sorted(positions, key=lambda p: json.dumps({"pieces": p}, sort_keys=True,
                                                      separators=(",", ":")))


def steps(moves: list[Any]) -> set[tuple[int, tuple[int, ...]]]:
    """Moves as a set of (piece, portions sorted) so the order of an entry spend is moot."""
    return {(m.piece, tuple(sorted(m.portions))) for m in moves}
