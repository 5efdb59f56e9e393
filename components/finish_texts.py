"""Words for the end of a game that Parcheesi and Ludo share: the question whether to play
on for the next places, its two answers, and the places as they are decided; and the words
of a turn clock running out (``parcheesi.live.TimedOut``), which any game can have.

Both games report the same events and take the same answer (``parcheesi.game``:
``PlayOn``, ``PlayOnAsked``, ``PlayOnAgreed``, ``PlayOnDeclined``, ``PlayingOn``,
``Placed``), so ``texts.py`` and ``ludo_texts.py`` say them alike through these functions.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from parcheesi.game import Placed, PlayingOn, PlayOn, PlayOnAgreed, PlayOnAsked, PlayOnDeclined
from parcheesi.live import TimedOut
from parcheesi.state import Phase

Namer = Callable[[int], str]
"""Colour index -> the seat's display name."""


def place_name(place: int) -> str:
    """1st, 2nd, 3rd, 4th."""
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(place, f"{place}th")


def play_on_label(answer: PlayOn) -> str:
    """Button text for an answer to the question."""
    return "Play on for the next places" if answer.agree else "End the game now"


def play_on_note(state: Any, name: Namer) -> str | None:
    """The status line's question to the player asked (None when nobody is asked)."""
    if state.phase is not Phase.PLAY_ON:
        return None
    return (f"{name(state.turn)}: play on for the next places, or end the game and place "
            "everyone by how far they got?")


def finish_words(event: Any, name: Namer) -> str | None:
    """One sentence for an event of the end of a game, or None for any other event."""
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
