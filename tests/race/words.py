"""The race's words at the table: pieces, choices, its own sentences for events, what
floats up from a piece, the status line's note. What every game says alike (who starts, a
roll nothing can use, the turn passing, the win, the end played on for places) is
:func:`parcheesi.core.words.shared_words`'s."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from parcheesi.core.actions import PlayOn
from parcheesi.core.choices import Choice
from parcheesi.core.events import Moved, OpeningRolled, ReachedHome, Rolled
from parcheesi.core.look import Burst, Namer
from parcheesi.core.words import play_on_label, play_on_note, shared_words

from .board import HOME, START


def where(progress: int) -> str:
    if progress == START:
        return "waiting at START"
    if progress == HOME:
        return "HOME"
    return f"on square {progress + 1}, {HOME - progress} from HOME"


def piece_label(name: str, piece: int, progress: int) -> str:
    """E.g. "Violet piece 2, on square 4, 9 from HOME"."""
    return f"{name} piece {piece + 1}, {where(progress)}"


def option_label(choice: Choice, name: Namer) -> str:
    """Button text: "Bring in to square 3", "Move 4: HOME", "Move 2: finishes"."""
    if isinstance(choice.action, PlayOn):
        return play_on_label(choice.action)
    assert choice.start is not None and choice.end is not None
    label = (f"Bring in to square {choice.end + 1}" if choice.start == START
             else f"Move {choice.end - choice.start}")
    effect = "finishes" if choice.wins else "HOME" if choice.home else ""
    return f"{label}: {effect}" if effect else label


def _own_words(event: Any, name: Namer) -> str | None:
    match event:
        case OpeningRolled(colour, dice):
            return f"{name(colour)} rolled {dice[0]} for the start"
        case Rolled(colour, dice, _):
            return f"{name(colour)} rolled {dice[0]}"
        case Moved(colour, piece, start, end, count, _):
            if start == START:
                return f"{name(colour)} brought piece {piece + 1} in to square {end + 1}"
            return f"{name(colour)} moved piece {piece + 1} by {count}"
        case ReachedHome(colour, piece):
            return f"{name(colour)}'s piece {piece + 1} reached HOME"
    return None


def describe(event: Any, name: Namer) -> str | None:
    """One sentence for an event, or None for an event that needs no words."""
    return _own_words(event, name) or shared_words(event, name)


def bonuses(events: Sequence[Any]) -> tuple[Burst, ...]:
    """What floats up from a piece: HOME."""
    return tuple((e.colour, e.piece, "HOME!") for e in events if isinstance(e, ReachedHome))


def roll_note(state: Any, name: Namer) -> str | None:
    """The play-on question, when it is asked (the race has no other note)."""
    return play_on_note(state, name)
