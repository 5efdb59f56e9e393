"""Each game's own look at the table: its board geometry and its words.

The table model and the widgets are the same for every game; what differs between
Parcheesi and Ludo besides the rules (which the engine answers through ``GameRules``) is how
the table draws and says things: the board's layout, what a piece's place is called, the
words of a choice and of an event, the bonus that floats from a piece, the dice portions to
pick. A :class:`Look` holds those, one per game kind, in :data:`LOOKS`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from parcheesi import layout as parcheesi_layout
from parcheesi.board import HOME
from parcheesi.choices import Choice
from parcheesi.game import CAPTURE_REWARD, HOME_REWARD, Captured, ReachedHome
from parcheesi.games import Event
from parcheesi.ludo import layout as ludo_layout
from parcheesi.ludo.board import HOME as LUDO_HOME
from parcheesi.state import Phase

from . import ludo_texts, texts
from .board_view import BoardLayout
from .finish_texts import play_on_note

Namer = Callable[[int], str]
Burst = tuple[int, int, str]
"""(colour, piece, words) floated up from a piece."""


@dataclass(frozen=True)
class Look:
    """How one game is drawn and worded at the table."""

    layout: BoardLayout
    board_label: str
    home: int
    """The progress of a piece that is HOME (the badges count them)."""
    chips: bool
    """Whether the dice of a roll are spent in portions the player picks (Parcheesi's two
    dice) rather than all at once (Ludo's one die)."""
    piece_label: Callable[[str, int, int], str]
    """(seat name, piece index, progress) -> the piece's spoken name and place."""
    option_label: Callable[[Choice, Namer], str]
    describe: Callable[[Event, Namer], str | None]
    bonuses: Callable[[Sequence[Event]], tuple[Burst, ...]]
    roll_note: Callable[[Any, Namer], str | None]
    """The status line's word to the player about to roll (or answer), when it has one."""
    house_words: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    """Each house rule's short name and what it does, by name (``GameRules.house_rules``)."""

    def house_line(self, house: Sequence[str]) -> str:
        """The house rules in play, by their short names ("Star squares, Six again")."""
        return ", ".join(self.house_words[name][0] for name in house)


def parcheesi_bonuses(events: Sequence[Event]) -> tuple[Burst, ...]:
    """The bonus each capture or arrival HOME just earned, on the piece that earned it."""
    out = []
    for event in events:
        if isinstance(event, Captured):
            out.append((event.by_colour, event.by_piece, f"+{CAPTURE_REWARD}"))
        elif isinstance(event, ReachedHome):
            out.append((event.colour, event.piece, f"+{HOME_REWARD}"))
    return tuple(out)


def parcheesi_roll_note(state: Any, name: Namer) -> str | None:
    """The word to the player to act when there is one: the play-on question, or a roll
    again for doubles."""
    question = play_on_note(state, name)
    if question:
        return question
    if state.phase is Phase.ROLL and state.doubles:
        return f"{name(state.turn)} rolled doubles: roll again"
    return None


PARCHEESI_LOOK = Look(
    layout=parcheesi_layout, board_label="Parcheesi board", home=HOME, chips=True,
    piece_label=texts.piece_label, option_label=texts.option_label, describe=texts.describe,
    bonuses=parcheesi_bonuses, roll_note=parcheesi_roll_note)

LUDO_LOOK = Look(
    layout=ludo_layout, board_label="Ludo board", home=LUDO_HOME, chips=False,
    piece_label=ludo_texts.piece_label, option_label=ludo_texts.option_label,
    describe=ludo_texts.describe, bonuses=ludo_texts.bonuses, roll_note=ludo_texts.roll_note,
    house_words=ludo_texts.HOUSE_WORDS)

LOOKS: dict[str, Look] = {"parcheesi": PARCHEESI_LOOK, "ludo": LUDO_LOOK}
"""Every game's look, by game kind (``GameRules.kind``)."""


def look_for(kind: str) -> Look:
    return LOOKS[kind]
