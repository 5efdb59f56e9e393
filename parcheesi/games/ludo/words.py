"""Ludo's words at the table: event descriptions, choice labels, piece labels, what floats
up from a piece, the status line's note to the roller, the house rules' names.

Pure functions of the Ludo engine's values, so the status line, the log and the aria-labels
say the same. The words of the end every game shares (playing on for places) are
:mod:`parcheesi.core.words`'s.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...core.actions import PlayOn
from ...core.choices import Choice
from ...core.events import (
    Captured,
    Entered,
    Moved,
    OpeningRolled,
    ReachedHome,
    Rolled,
)
from ...core.look import Burst, Namer
from ...core.state import Phase
from ...core.words import bursts, captures_words, play_on_label, play_on_note, shared_words
from .board import HOME, LAST_TRACK, YARD
from .events import Drawn, LimitReached, RollAgain, ThirdSix

HOUSE_WORDS: dict[str, tuple[str, str]] = {
    "stars": ("Star squares", "the square 8 after each start is safe for everyone"),
    "third_six": ("Third six", "a third 6 in a row moves nothing and ends the turn"),
    "capture_all": ("Capture all", "a landing captures every piece it can, not just one"),
    "no_home_bonus": ("No HOME bonus", "bringing a piece HOME earns no extra roll"),
    "six_again": ("Six again", "a 6 that no piece can use still rolls again"),
}
"""Each house rule (docs/rules/ludo.md 4): its short name and what it does."""

_AGAIN = {"six": "for the 6", "capture": "for the capture", "home": "for reaching HOME",
          "six_again": "(six again)"}


def where(progress: int) -> str:
    if progress == YARD:
        return "in the yard"
    if progress == HOME:
        return "HOME"
    lane = "in the home lane" if progress > LAST_TRACK else "on the track"
    return f"{lane}, {HOME - progress} squares from home"


def piece_label(name: str, piece: int, progress: int) -> str:
    """E.g. "Red piece 2, on the track, 31 squares from home"."""
    return f"{name} piece {piece + 1}, {where(progress)}"


def option_label(choice: Choice, name: Namer) -> str:
    """Button text: "Bring out", "Move 4: captures Green, roll again", "Play on"."""
    if isinstance(choice.action, PlayOn):
        return play_on_label(choice.action)
    assert choice.start is not None and choice.end is not None
    label = "Bring out" if choice.start == YARD else f"Move {choice.end - choice.start}"
    effects = captures_words(choice, name)
    if choice.wins:
        effects.append("finishes")
    elif choice.home:
        effects.append("HOME")
    elif choice.safe and choice.start != YARD:
        effects.append("safe")
    if choice.again:
        effects.append("roll again")
    return f"{label}: {', '.join(effects)}" if effects else label


def _turn_words(event: Any, name: Namer) -> str | None:
    match event:
        case OpeningRolled(colour, dice):
            return f"{name(colour)} rolled {dice[0]} for the start"
        case Rolled(colour, dice, _):
            return f"{name(colour)} rolled {dice[0]}"
        case RollAgain(colour, why):
            return f"{name(colour)} rolls again {_AGAIN.get(why, '')}".rstrip()
        case ThirdSix(colour):
            return f"Third 6 in a row: {name(colour)}'s turn ends"
    return None


def _end_words(event: Any, name: Namer) -> str | None:
    match event:
        case LimitReached(rolls):
            return f"{rolls:,} rolls: the game stops"
        case Drawn():
            return "A draw: nobody finished"
    return None


def _piece_words(event: Any, name: Namer) -> str | None:
    match event:
        case Entered(colour, piece, _):
            return f"{name(colour)} brought out piece {piece + 1}"
        case Moved(colour, piece, _, end, count, _):
            target = " to HOME" if end == HOME else (" into the home lane" if end > LAST_TRACK
                                                  and end - count <= LAST_TRACK else "")
            return f"{name(colour)} moved piece {piece + 1} by {count}{target}"
        case Captured(colour, piece, by_colour, _, _):
            return f"{name(by_colour)} captured {name(colour)}'s piece {piece + 1}"
        case ReachedHome(colour, piece):
            return f"{name(colour)}'s piece {piece + 1} reached HOME"
    return None


def describe(event: Any, name: Namer) -> str | None:
    """One sentence for an event, or None for events that need no words."""
    return (_turn_words(event, name) or _piece_words(event, name) or shared_words(event, name)
            or _end_words(event, name))


def bonuses(events: Sequence[Any]) -> tuple[Burst, ...]:
    """What floats up from a piece: a capture or a piece HOME."""
    return bursts(events, "Capture!", "HOME!")


def roll_note(state: Any, name: Namer) -> str | None:
    """The word to the player to act when there is one: the play-on question, or a roll
    again within the turn."""
    question = play_on_note(state, name)
    if question:
        return question
    if state.phase is Phase.ROLL and state.dice is not None:
        return f"{name(state.turn)} rolls again"
    return None
