"""Words every game says alike: the shared events whose sentence is the same in every game
(a tie for the start, who starts, a roll nothing can use, the turn passing, the win), the
end played on for places (the question whether to play on, its two answers, the places as
they are decided), a turn clock running out, what a choice captures, and the move log made
of a game's own sentences.

Every game reports the same events and takes the same answer for these (:mod:`.events`,
:mod:`.actions`), so each game's words (``games/<kind>/words.py``) say them through these
functions.
"""

from __future__ import annotations

from collections.abc import Callable, Reversible, Sequence
from typing import Any

from .actions import PlayOn
from .choices import Choice
from .events import (
    Captured,
    NoMove,
    OpeningTied,
    Placed,
    PlayingOn,
    PlayOnAgreed,
    PlayOnAsked,
    PlayOnDeclined,
    ReachedHome,
    Starts,
    TimedOut,
    TurnPassed,
    Won,
)
from .look import Burst, Namer
from .state import Phase


def counted(n: int, thing: str) -> str:
    """A number of things: "1 game", "2 games", "0 squares"."""
    return f"{n} {thing}{'' if n == 1 else 's'}"


def place_name(place: int) -> str:
    """1st, 2nd, 3rd, 4th, ... 11th, 12th, 13th, ... 21st."""
    teens = 10 <= place % 100 <= 20
    suffix = "th" if teens else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return f"{place}{suffix}"


def play_on_label(answer: PlayOn) -> str:
    """Button text for an answer to the question."""
    return "Play on for the next places" if answer.agree else "End the game now"


def play_on_note(state: Any, name: Namer) -> str | None:
    """The status line's question to the player asked (None when nobody is asked)."""
    if state.phase is not Phase.PLAY_ON:
        return None
    return (f"{name(state.turn)}: play on for the next places, or end the game and place "
            "everyone by how far they got?")


def shared_words(event: Any, name: Namer) -> str | None:
    """One sentence for a shared event every game words alike, or None for any other event
    (a game's ``describe`` says its own events first, then asks this)."""
    match event:
        case OpeningTied(colours):
            return f"Tie for the start: {' and '.join(name(c) for c in colours)} roll again"
        case Starts(colour):
            return f"{name(colour)} starts"
        case NoMove(colour, _):
            return f"{name(colour)} cannot move"
        case TurnPassed(colour):
            return f"{name(colour)}'s turn"
        case Won(colour):
            return f"{name(colour)} wins!"
    return _end_words(event, name)


def _end_words(event: Any, name: Namer) -> str | None:
    """The end played on for places, and a turn clock running out."""
    match event:
        case PlayOnAsked(colours):
            return f"Play on for the next places? {', '.join(name(c) for c in colours)} decide"
        case PlayOnAgreed(colour):
            return f"{name(colour)} plays on"
        case PlayOnDeclined(colour):
            return f"{name(colour)} ends the game"
        case PlayingOn(_):
            return "Playing on for the next places"
        case Placed(colour, place):
            return f"{name(colour)} takes {place_name(place)} place"
        case TimedOut(colour):
            return f"Time ran out: a computer moved for {name(colour)}"
    return None


def bursts(events: Sequence[Any], capture: str, home: str) -> tuple[Burst, ...]:
    """What floats up from a piece for each capture (from the capturing piece) and each
    piece reaching HOME among ``events``, in the game's words ``capture`` and ``home``."""
    out = []
    for event in events:
        if isinstance(event, Captured):
            out.append((event.by_colour, event.by_piece, capture))
        elif isinstance(event, ReachedHome):
            out.append((event.colour, event.piece, home))
    return tuple(out)


def captures_words(choice: Choice, name: Namer) -> list[str]:
    """Whom a choice captures, each colour once, in the order of its captures."""
    return [f"captures {name(c)}" for c in dict.fromkeys(x.colour for x in choice.captures)]


def move_log(events: Reversible[Any], describe: Callable[[Any, Namer], str | None],
             name: Namer, lines: int) -> list[str]:
    """The sentences of the latest ``lines`` events that have words (``describe``: the
    game's own), newest first."""
    said: list[str] = []
    for event in reversed(events):
        text = describe(event, name)
        if text:
            said.append(text)
            if len(said) == lines:
                break
    return said
