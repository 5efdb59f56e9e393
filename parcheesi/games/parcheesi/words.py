"""Parcheesi's words at the table: event descriptions, move labels, piece labels, the
bonuses floated from a piece and the status line's note to the roller.

Pure functions of engine values, kept apart from the widgets so the status line, the log and
the aria-labels all say the same thing. The words of the end every game shares (playing on
for places) are :mod:`parcheesi.core.words`'s.
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
from .board import HOME, LAST_TRACK, START
from .turns import CAPTURE_REWARD, HOME_REWARD, Event, Move, Penalty, Reward, RewardsForfeited


def where(progress: int) -> str:
    if progress == START:
        return "in START"
    if progress == HOME:
        return "HOME"
    if progress > LAST_TRACK:
        return f"in the home lane, {HOME - progress} squares from home"
    return f"on the track, {HOME - progress} squares from home"


def piece_label(name: str, piece: int, progress: int) -> str:
    """E.g. "Ruby piece 2, on the track, 31 squares from home"."""
    return f"{name} piece {piece + 1}, {where(progress)}"


def move_label(move: Move, progress: int) -> str:
    """Button text for a movement of a piece at ``progress``: Enter, Move 3, Move 8 (5+3)."""
    if progress == START:
        return "Enter" if move.portions == (5,) else f"Enter ({'+'.join(map(str, move.portions))})"
    if len(move.portions) == 1:
        return f"Move {move.portions[0]}"
    return f"Move {sum(move.portions)} ({'+'.join(map(str, move.portions))})"


def reward_label(reward: Reward) -> str:
    return f"Bonus {reward.amount}"


def option_label(choice: Choice, name: Namer) -> str:
    """Button text for a choice of movement or bonus, with what it does when it does more
    than move: "Move 8 (2+6): captures Emerald", "Move 3: HOME, bonus 10", "Move 6: safe";
    or an answer to the question whether to play on: "Play on for the next places"."""
    if isinstance(choice.action, PlayOn):
        return play_on_label(choice.action)
    if isinstance(choice.action, Reward):
        label = reward_label(choice.action)
    else:
        assert isinstance(choice.action, Move) and choice.start is not None
        label = move_label(choice.action, choice.start)
    effects = consequences(choice, name)
    return f"{label}: {', '.join(effects)}" if effects else label


def consequences(choice: Choice, name: Namer) -> list[str]:
    """What a choice does besides moving its piece, in the engine's words (``Choice``)."""
    effects = captures_words(choice, name)
    if choice.wins:
        effects.append("wins")
    elif choice.home:
        effects.append("HOME")
    elif choice.safe and choice.start != START:  # an entry always lands on a safe square
        effects.append("safe")
    if choice.bonus and not choice.wins:
        effects.append(f"bonus {choice.bonus}")
    return effects


def describe(event: Event, name: Namer) -> str | None:
    """One sentence for an event, or None for events that need no words."""
    return _turn_words(event, name) or _piece_words(event, name) or shared_words(event, name)


def _turn_words(event: Event, name: Namer) -> str | None:
    """Rolls and turns."""
    match event:
        case OpeningRolled(colour, dice):
            return f"{name(colour)} rolled {dice[0]} and {dice[1]} for the start"
        case Rolled(colour, dice, portions):
            extra = f" (moves {'+'.join(map(str, portions))})" if len(portions) == 4 else ""
            return f"{name(colour)} rolled {dice[0]} and {dice[1]}{extra}"
        case Penalty(colour, piece):
            if piece is None:
                return f"Third doubles: {name(colour)} has no piece out, nothing goes back"
            return f"Third doubles: {name(colour)}'s piece {piece + 1} goes back to START"
    return None


def _piece_words(event: Event, name: Namer) -> str | None:
    """What happened to pieces."""
    match event:
        case Entered(colour, piece, _):
            return f"{name(colour)} entered piece {piece + 1}"
        case Moved(colour, piece, _, end, count, reward):
            bonus = " (bonus)" if reward else ""
            target = "HOME" if end == HOME else ("into the home lane" if end > LAST_TRACK
                                                 else "")
            return f"{name(colour)} moved piece {piece + 1} by {count}{bonus}" + (
                f" {target}" if target else "")
        case Captured(colour, piece, by_colour, _, _):
            return (f"{name(by_colour)} captured {name(colour)}'s piece {piece + 1} and earned "
                    f"{CAPTURE_REWARD}")
        case ReachedHome(colour, piece):
            return f"{name(colour)}'s piece {piece + 1} reached HOME and earned {HOME_REWARD}"
        case RewardsForfeited(colour, amounts):
            return f"{name(colour)} could not use the bonus {' + '.join(map(str, amounts))}"
    return None


def bonuses(events: Sequence[Any]) -> tuple[Burst, ...]:
    """The bonus each capture or arrival HOME just earned, on the piece that earned it."""
    return bursts(events, f"+{CAPTURE_REWARD}", f"+{HOME_REWARD}")


def roll_note(state: Any, name: Namer) -> str | None:
    """The word to the player to act when there is one: the play-on question, or a roll
    again for doubles."""
    question = play_on_note(state, name)
    if question:
        return question
    if state.phase is Phase.ROLL and state.doubles:
        return f"{name(state.turn)} rolled doubles: roll again"
    return None
