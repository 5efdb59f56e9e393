"""What the table shows, worked out without any widget.

A :class:`TableModel` belongs to one table (one browser tab). It keeps what the person at
that tab has picked so far (a piece, a dice portion), the hint on display and the status line,
and turns a :class:`Seen` (what the live game says now) into a :class:`Screen`: an immutable
description of every part of the table that the widgets in ``table.py`` apply as it is. What
a choice does comes from the engine (``parcheesi.choices``); the move log and the standings
come from the game's record. Nothing here imports NiceGUI, so it is tested with plain asserts.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from parcheesi.board import HOME, START
from parcheesi.choices import Choice, for_piece, pieces_to_choose, using_portion
from parcheesi.dice import Dice
from parcheesi.game import (
    Action,
    Captured,
    Entered,
    Event,
    Moved,
    NoMove,
    Rolled,
    TurnPassed,
)
from parcheesi.games import GameRules
from parcheesi.live import Stats
from parcheesi.state import Phase, State

from .palette import TONES, Tone
from .texts import describe, move_log, option_label, piece_label

LOG_LINES = 8
HINT_UNAVAILABLE = "A hint is available when you have a roll to play."


@dataclass(frozen=True, slots=True)
class Seen:
    """What the table reads of the live game, at one version."""

    rules: GameRules
    """The game's rules: what the table asks instead of deciding anything itself."""
    state: State
    version: int
    names: Mapping[int, str]
    """Each seat's display name, by colour."""
    seats: Mapping[int, str]
    """Each seat's description for the turn line ("Ann (Ruby)", "Amber, hard computer")."""
    stats: Stats
    acting: bool
    """Whether the person at this table may act now."""
    fault: str | None = None


@dataclass(frozen=True, slots=True)
class PieceButton:
    enabled: bool
    pressed: bool
    label: str


@dataclass(frozen=True, slots=True)
class Chip:
    """A dice portion still to use, and how many of that value there are."""

    value: int
    count: int
    pressed: bool


@dataclass(frozen=True, slots=True)
class Standing:
    place: int
    player: str
    home: int
    captures: int
    lost: int


@dataclass(frozen=True, slots=True)
class Board:
    pieces: tuple[tuple[int, ...], ...]
    movable: frozenset[tuple[int, int]]
    selected: tuple[int, int] | None
    targets: tuple[tuple[int, int], ...]
    labels: Mapping[tuple[int, int], str]
    moves: tuple[tuple[int, int, int, int], ...]


@dataclass(frozen=True, slots=True)
class Screen:
    """Everything the table shows at one moment."""

    turn: str
    board: Board
    dice: Dice | None
    chips: tuple[Chip, ...]
    roll_text: str
    can_roll: bool
    tone: Tone
    pieces: tuple[PieceButton, ...]
    options: tuple[tuple[str, Action], ...]
    choose_note: str | None
    """The invitation to pick a piece, when a piece is to be picked."""
    can_hint: bool
    status: str
    log: tuple[str, ...]
    winner: str | None
    standings: tuple[Standing, ...]


def animations(events: list[Event]) -> tuple[tuple[int, int, int, int], ...]:
    """(colour, piece, from, to) for every piece the events moved, in order."""
    out = []
    for event in events:
        if isinstance(event, Entered):
            out.append((event.colour, event.piece, START, 0))
        elif isinstance(event, Moved):
            out.append((event.colour, event.piece, event.start, event.end))
        elif isinstance(event, Captured):
            out.append((event.colour, event.piece, event.progress, START))
    return tuple(out)


class TableModel:
    """The picks and words of one table between two positions."""

    def __init__(self) -> None:
        self.selected: int | None = None
        self.portion: int | None = None
        self.hinted: State | None = None
        """Where the hint's moves would leave the roll, while the hint is shown."""
        self.status = ""
        self.last_roll: Dice | None = None
        """The newest roll seen, still shown after a roll that passed the turn at once."""
        self._choices: tuple[int, list[Choice]] = (-1, [])

    # --- what can be done now ------------------------------------------------------------

    def choices(self, seen: Seen) -> list[Choice]:
        """What the engine offers at this version (worked out once per position)."""
        if self._choices[0] != seen.version:
            self._choices = (seen.version, seen.rules.choices(seen.state))
        return self._choices[1]

    def movable(self, seen: Seen) -> set[int]:
        if not seen.acting:
            return set()
        options = self.choices(seen)
        if self.portion is not None:
            options = using_portion(options, self.portion)
        return pieces_to_choose(options)

    def roll_action(self, seen: Seen) -> Action | None:
        """The roll, when rolling is what the person here may do now."""
        if not seen.acting or not seen.rules.rolling(seen.state):
            return None
        return next((c.action for c in self.choices(seen)), None)

    def options_for(self, seen: Seen, piece: int) -> list[Choice]:
        return for_piece(self.choices(seen), piece)

    # --- the person's picks --------------------------------------------------------------

    def pick_piece(self, seen: Seen, piece: int) -> Action | None:
        """A tap on a piece: the action to send when a dice portion was picked first,
        otherwise None (the piece is selected, or unselected, to show its options)."""
        if piece not in self.movable(seen):
            return None
        if self.portion is not None:
            moves = for_piece(using_portion(self.choices(seen), self.portion), piece)
            return moves[0].action if moves else None
        self.selected = None if self.selected == piece else piece
        self.hinted = None
        return None

    def pick_portion(self, value: int) -> None:
        self.portion = None if self.portion == value else value
        self.selected = None

    def taking(self) -> None:
        """An action is being sent: the picks are used up."""
        self.selected = self.portion = self.hinted = None

    def show_hint(self, seen: Seen, reason: str | None, ends: State | None) -> None:
        """The hint's reason and the position it leads to (None when no hint applies)."""
        if reason is None or not seen.acting:
            self.status = HINT_UNAVAILABLE
            return
        self.hinted = ends
        self.selected = None
        self.status = f"Hint: {reason}"

    def hint_applies(self, seen: Seen) -> bool:
        rules = seen.rules
        return seen.acting and not rules.rolling(seen.state) and not rules.over(seen.state)

    def changed(self, seen: Seen, events: list[Event]) -> None:
        """The game moved on (or told the table something): picks that no longer apply go,
        the status line says what happened."""
        if self.selected is not None and self.selected not in self.movable(seen):
            self.selected = None
        if seen.state.phase is not Phase.MOVE:
            self.portion = None
        self.hinted = None
        for event in events:
            if isinstance(event, Rolled) and event.portions:
                self.last_roll = event.dice
            elif isinstance(event, TurnPassed) and not any(isinstance(e, NoMove)
                                                         for e in events):
                self.last_roll = None
        said = [t for t in (describe(e, seen.names.__getitem__) for e in events) if t]
        if said:
            self.status = ". ".join(said[-3:])
        elif seen.fault:
            self.status = seen.fault

    def missed(self) -> None:
        """Actions were made while this table was away: the roll it kept is not the newest."""
        self.last_roll = None

    # --- the screen ------------------------------------------------------------------------

    def screen(self, seen: Seen, events: list[Event]) -> Screen:
        """The table at ``seen``; ``events`` are the ones that led there (animated)."""
        state = seen.state
        name: Callable[[int], str] = seen.names.__getitem__
        movable = self.movable(seen)
        options = self._options(seen)
        picking = seen.acting and not options and state.phase in (Phase.MOVE, Phase.REWARD)
        return Screen(
            turn=self._turn_line(seen),
            board=self._board(seen, movable, events),
            dice=state.dice or self.last_roll,
            chips=self._chips(seen),
            roll_text="Roll for the start" if state.phase is Phase.OPENING else "Roll",
            can_roll=seen.acting and seen.rules.rolling(state),
            tone=TONES[state.turn],
            pieces=tuple(PieceButton(k in movable, k == self.selected,
                                     piece_label(name(state.turn), k, p))
                         for k, p in enumerate(state.pieces[state.turn])),
            options=options,
            choose_note=("Choose a piece" + (" for the bonus" if state.phase is Phase.REWARD
                                             else "")) if picking else None,
            can_hint=self.hint_applies(seen),
            status=self._status(seen),
            log=tuple(move_log(seen.stats.recent, name, LOG_LINES)),
            winner=name(winner) if (winner := seen.rules.winner(state)) is not None else None,
            standings=self._standings(seen),
        )

    def _turn_line(self, seen: Seen) -> str:
        state = seen.state
        if seen.rules.over(state):
            return f"{seen.names[seen.rules.standings(state)[0]]} won"
        seat = seen.seats[seen.rules.turn(state)]
        return f"Opening roll: {seat}" if state.phase is Phase.OPENING else f"Turn: {seat}"

    def _options(self, seen: Seen) -> tuple[tuple[str, Action], ...]:
        if self.selected is None or not seen.acting:
            return ()
        return tuple((option_label(c), c.action) for c in self.options_for(seen, self.selected))

    def _board(self, seen: Seen, movable: set[int], events: list[Event]) -> Board:
        state = seen.state
        targets = []
        if self.selected is not None:
            targets += [(state.turn, c.end) for c in self.options_for(seen, self.selected)
                        if c.end is not None]
        if self.hinted is not None:
            targets += [(state.turn, p) for k, p in enumerate(self.hinted.pieces[state.turn])
                        if p != state.mover[k]]
        labels = {(c, k): piece_label(seen.names[c], k, p)
                  for c, own in enumerate(state.pieces) for k, p in enumerate(own)}
        return Board(state.pieces, frozenset((state.turn, p) for p in movable),
                     (state.turn, self.selected) if self.selected is not None else None,
                     tuple(targets), labels, animations(events))

    def _chips(self, seen: Seen) -> tuple[Chip, ...]:
        state = seen.state
        if state.phase is not Phase.MOVE or not seen.acting:
            return ()
        return tuple(Chip(v, state.portions.count(v), self.portion == v)
                     for v in sorted(set(state.portions), reverse=True))

    def _status(self, seen: Seen) -> str:
        state = seen.state
        if not seen.acting and not seen.rules.over(state):
            return self.status or f"{seen.names[state.turn]} is thinking…"
        if seen.acting and state.phase is Phase.ROLL and state.doubles:
            return f"{seen.names[state.turn]} rolled doubles: roll again"
        return self.status

    def _standings(self, seen: Seen) -> tuple[Standing, ...]:
        state = seen.state
        if not seen.rules.over(state):
            return ()
        stats = seen.stats
        return tuple(Standing(k + 1, seen.names[c], state.pieces[c].count(HOME),
                              stats.captures.get(c, 0), stats.lost.get(c, 0))
                     for k, c in enumerate(seen.rules.standings(state)))

