"""What the table shows, worked out without any widget.

A :class:`TableModel` belongs to one table (one browser tab). It keeps what the person at
that tab has picked so far (a piece, a dice portion), the hint on display and the status line,
and turns a :class:`Seen` (what the live game says now) into a :class:`Screen`: an immutable
description of every part of the table that the widgets in ``table.py`` apply as it is. What
a choice does comes from the engine (``parcheesi.core.choices``); the move log and the standings
come from the game's record. Nothing here imports NiceGUI, so it is tested with plain asserts.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime

from parcheesi.core.actions import Roll
from parcheesi.core.choices import Choice, for_piece, pieces_to_choose, using_portion
from parcheesi.core.events import (
    Captured,
    Entered,
    Moved,
    NoMove,
    OpeningRolled,
    ReachedHome,
    Rolled,
    TimedOut,
    TurnPassed,
    Won,
)
from parcheesi.core.geometry import Motion
from parcheesi.core.look import Look
from parcheesi.core.registry import AnyRules, games
from parcheesi.core.rules import Action, Event, State
from parcheesi.core.state import Phase
from parcheesi.core.words import move_log, place_name
from parcheesi.server.live import Stats

LOG_LINES = 8
HINT_UNAVAILABLE = "A hint is available when you have a roll to play."


@dataclass(frozen=True, slots=True)
class Seen:
    """What the table reads of the live game, at one version."""

    rules: AnyRules
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
    levels: Mapping[int, str] = field(default_factory=dict)
    """Each computer seat's level, by colour."""
    you: int | None = None
    """The seat of the one person at this table (a solo or online player), if there is one."""
    deadline: datetime | None = None
    """When the move to make now runs out (a room's turn clock), if it has a clock."""
    away: frozenset[int] = frozenset()
    """The seats whose players are away (a room's players with no page open): the status
    line says the table waits for them rather than that they are thinking."""
    undo: bool = False
    """Whether the one person at this table may take back their last move now."""

    @property
    def look(self) -> Look:
        """How this game is drawn and worded."""
        return self.rules.look


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
class Badge:
    """One active seat at the table: who plays it and how far they are."""

    colour: int
    name: str
    detail: str
    """"you", "hard computer", or nothing."""
    home: int
    """Pieces HOME."""
    current: bool
    """Whether this seat is to act."""
    place: int | None = None
    """The seat's place (1 = first), once it has one: a player finished while the others
    play on for places, and everyone when the game ends so."""
    deadline: int | None = None
    """When this seat's move runs out (milliseconds since 1970, UTC), while it is to act
    on a turn clock; the browser counts down to it."""

    @property
    def place_text(self) -> str:
        """The place as the badge shows it ("1st"), or nothing before the seat has one."""
        return place_name(self.place) if self.place is not None else ""

    @property
    def label(self) -> str:
        """What a screen reader says for the badge."""
        parts = [self.name, self.detail, f"{self.place_text} place" if self.place else "",
                 f"{self.home} HOME", "to play" if self.current else "",
                 "on the clock" if self.deadline is not None else ""]
        return ", ".join(p for p in parts if p)


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
    target_labels: tuple[str, ...]
    """What tapping each of the first targets does (the selected piece's landings); the
    hint's previews after them have none."""
    labels: Mapping[tuple[int, int], str]
    moves: tuple[Motion, ...]
    bursts: tuple[tuple[int, int, str], ...] = ()
    """(colour, piece, words) floated from a piece: the bonus it just earned."""


@dataclass(frozen=True, slots=True)
class Screen:
    """Everything the table shows at one moment."""

    turn: str
    badges: tuple[Badge, ...]
    board: Board
    dice: tuple[int, ...] | None
    dice_owner: str | None
    """Whose roll the dice show."""
    your_turn: bool
    """Whether it is the turn of the one person at this table (a solo or online player)."""
    sound: str | None
    """The sound of what just happened (``parcheesiSound`` kinds), if anything did."""
    rolled: bool
    """Whether the dice were just rolled (they tumble)."""
    chips: tuple[Chip, ...]
    roll_text: str
    can_roll: bool
    tone: str
    """The colour name of the player to act (the buttons' ``tone-*``)."""
    pieces: tuple[PieceButton, ...]
    options: tuple[tuple[str, Action], ...]
    question: bool
    """Whether the options answer a question rather than move a piece (play on?): the
    piece buttons, which have nothing to do then, make room for them."""
    option_marks: tuple[int, ...]
    """Each option's landing marker number on the board (the same number on both; 0 for an
    option that lands nowhere)."""
    choose_note: str | None
    """The invitation to pick a piece, when a piece is to be picked."""
    can_hint: bool
    status: str
    log: tuple[str, ...]
    winner: str | None
    """The winner's name once the game is over (the winner overlay), else None."""
    standings: tuple[Standing, ...]
    """Every seat's place once the game is over, else empty."""
    can_undo: bool = False
    """Whether Undo is shown: the one person's last move of this roll may be taken back."""


TONES: dict[str, tuple[int, ...]] = {
    "move": (520,), "roll": (300, 360), "capture": (330, 220), "home": (587, 784),
    "bonus": (523, 587, 659), "win": (523, 659, 784), "turn": (660, 880)}
"""The notes of the sounds every game's table makes, by name (Hz, one after another); a
game's own sounds are its look's ``tones``."""


def all_tones() -> dict[str, tuple[int, ...]]:
    """The notes of every sound a table of any game makes, by name."""
    return {**TONES, **{name: notes for rules in games().values()
                        for name, notes in rules.look.tones.items()}}


WINNING: tuple[tuple[type, str], ...] = ((Won, "win"), (Captured, "capture"))
ARRIVING: tuple[tuple[type, str], ...] = ((ReachedHome, "home"),)
"""The shared events with a sound of their own, the most telling first: a game's own
sounding events (its look's ``sounds``) come between the two."""


def sound_for(events: list[Event], look: Look) -> str | None:
    """One sound for what ``events`` did: a win, a capture, the game's own (a penalty),
    a piece HOME, a bonus walk, a roll, or a plain move."""
    if not events:
        return None
    for kind, sound in (*WINNING, *look.sounds, *ARRIVING):
        if any(isinstance(e, kind) for e in events):
            return sound
    if any(isinstance(e, Moved) and e.reward for e in events):
        return "bonus"
    if any(isinstance(e, Rolled | OpeningRolled) for e in events) and not any(
            isinstance(e, Moved | Entered) for e in events):
        return "roll"
    return "move"


def last_move(seen: Seen) -> str:
    """The newest sentence of the game's record that tells what a player did or what
    happened to them (a roll, a move, a capture, the win; not the turn passing on, which the
    turn line says), or "" before anything did: what a TV shows across the room."""
    name: Callable[[int], str] = seen.names.__getitem__
    for event in reversed(seen.stats.recent):
        if isinstance(event, TurnPassed):
            continue
        text = seen.look.describe(event, name)
        if text:
            return text
    return ""


class TableModel:
    """The picks and words of one table between two positions."""

    def __init__(self) -> None:
        self.selected: int | None = None
        self.portion: int | None = None
        self.hinted: State | None = None
        """Where the hint's moves would leave the roll, while the hint is shown."""
        self.status = ""
        self.last_roll: tuple[int, ...] | None = None
        """The newest roll seen, still shown after a roll that passed the turn at once."""
        self.last_roller: int | None = None
        """Who rolled ``last_roll``."""
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

    def pick_piece(self, seen: Seen, piece: int, at_once: bool = True) -> Action | None:
        """A tap on a piece: the action to send when a dice portion was picked first, or,
        with ``at_once`` (the one-tap setting), when the engine offers the piece exactly one
        choice; otherwise None (the piece is selected, or unselected, to show its options)."""
        if piece not in self.movable(seen):
            return None
        if self.portion is not None:
            moves = for_piece(using_portion(self.choices(seen), self.portion), piece)
            return moves[0].action if moves else None
        options = self.options_for(seen, piece)
        if at_once and len(options) == 1:
            return options[0].action
        self.selected = None if self.selected == piece else piece
        self.hinted = None
        return None

    def pick_target(self, seen: Seen, end: int) -> Action | None:
        """A tap on the landing marker at ``end`` of the selected piece: the choice that
        lands there, or None (and the status asks which) when several do."""
        if self.selected is None or not seen.acting:
            return None
        landing = [c for c in self.options_for(seen, self.selected) if c.end == end]
        if len(landing) == 1:
            return landing[0].action
        if landing:
            self.status = "Several moves land there: choose one of the buttons."
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
        """Whether Hint and Play best have something to do: a roll to play (not a roll to
        make, nor a question such as whether to play on, whose choices move no piece)."""
        rules = seen.rules
        return (seen.acting and not rules.rolling(seen.state) and not rules.over(seen.state)
                and any(c.piece is not None for c in self.choices(seen)))

    def changed(self, seen: Seen, events: list[Event]) -> None:
        """The game moved on (or told the table something): picks that no longer apply go,
        the status line says what happened."""
        if self.selected is not None and self.selected not in self.movable(seen):
            self.selected = None
        if seen.state.phase is not Phase.MOVE:
            self.portion = None
        self.hinted = None
        self._follow_dice(events)
        said = [t for t in (seen.look.describe(e, seen.names.__getitem__) for e in events)
                if t]
        if said:
            # A move a computer made because time ran out always says so first.
            first = said[:1] if events and isinstance(events[0], TimedOut) else []
            self.status = ". ".join(first + said[len(first):][-3 + len(first):])
        elif seen.fault:
            self.status = seen.fault

    def _follow_dice(self, events: list[Event]) -> None:
        """Keep the newest roll and its roller; a turn that passed after moves clears it (a
        roll that passed the turn at once stays, to show why)."""
        for event in events:
            if isinstance(event, Rolled):
                self.last_roll, self.last_roller = event.dice, event.colour
            elif isinstance(event, TurnPassed) and not any(isinstance(e, NoMove)
                                                         for e in events):
                self.last_roll = self.last_roller = None

    def missed(self, seen: Seen) -> None:
        """The table shows a position it did not see reached (a page opened or reloaded, a
        phone back from sleep after moves): the roll it kept is not the newest, and the
        status line says the newest thing that happened, where it was empty or stale."""
        self.last_roll = None
        self.status = last_move(seen)

    # --- the screen ------------------------------------------------------------------------

    def screen(self, seen: Seen, events: list[Event]) -> Screen:
        """The table at ``seen``; ``events`` are the ones that led there (animated)."""
        state = seen.state
        name: Callable[[int], str] = seen.names.__getitem__
        movable = self.movable(seen)
        options = self._options(seen)
        dice, dice_owner = self._dice(seen)
        return Screen(
            turn=self._turn_line(seen),
            badges=self._badges(seen),
            board=self._board(seen, movable, events),
            dice=dice,
            dice_owner=dice_owner,
            your_turn=(seen.acting and seen.you is not None
                       and seen.rules.turn(state) == seen.you),
            sound=sound_for(events, seen.look),
            rolled=any(isinstance(e, Rolled | OpeningRolled) for e in events),
            chips=self._chips(seen),
            roll_text="Roll for the start" if state.phase is Phase.OPENING else "Roll",
            can_roll=seen.acting and seen.rules.rolling(state),
            tone=seen.rules.colours[state.turn],
            pieces=tuple(PieceButton(k in movable, k == self.selected,
                                     seen.look.piece_label(name(state.turn), k, p))
                         for k, p in enumerate(state.pieces[state.turn])),
            options=options,
            question=bool(options) and self.selected is None,
            option_marks=self._marks(seen, options),
            choose_note=self._choose_note(seen, options),
            can_hint=self.hint_applies(seen),
            status=self._status(seen),
            log=tuple(move_log(seen.stats.recent, seen.look.describe, name, LOG_LINES)),
            winner=self._winner(seen),
            standings=self._standings(seen),
            can_undo=seen.undo,
        )

    def _dice(self, seen: Seen) -> tuple[tuple[int, ...] | None, str | None]:
        """The dice to show and whose they are: this turn's, or else the newest roll kept."""
        state = seen.state
        dice, roller = (state.dice, state.turn) if state.dice else (self.last_roll,
                                                                      self.last_roller)
        return dice, seen.names[roller] if dice and roller is not None else None

    @staticmethod
    def _choose_note(seen: Seen, options: tuple[tuple[str, Action], ...]) -> str | None:
        """What to do when the person must pick a piece first (no option is open)."""
        phase = seen.state.phase
        if not seen.acting or options or phase not in (Phase.MOVE, Phase.REWARD):
            return None
        return "Choose a piece" + (" for the bonus" if phase is Phase.REWARD else "")

    def _badges(self, seen: Seen) -> tuple[Badge, ...]:
        state, rules = seen.state, seen.rules
        to_act = None if rules.over(state) else rules.turn(state)

        def detail(colour: int) -> str:
            if colour in seen.levels:
                return f"{seen.levels[colour]} computer"
            return "you" if colour == seen.you else ""

        places = dict(rules.places(state))
        deadline = (None if seen.deadline is None or to_act is None
                    else round(seen.deadline.timestamp() * 1000))
        return tuple(Badge(c, seen.names[c], detail(c), state.pieces[c].count(rules.home),
                           c == to_act, places.get(c), deadline if c == to_act else None)
                     for c in state.colours)

    def _turn_line(self, seen: Seen) -> str:
        state = seen.state
        if seen.rules.over(state):
            return f"{seen.names[seen.rules.standings(state)[0]]} won"
        seat = seen.seats[seen.rules.turn(state)]
        return f"Opening roll: {seat}" if state.phase is Phase.OPENING else f"Turn: {seat}"

    def _options(self, seen: Seen) -> tuple[tuple[str, Action], ...]:
        """The selected piece's choices, or the choices that move no piece (the answers to
        the question whether to play on for places)."""
        if not seen.acting:
            return ()
        name, label = seen.names.__getitem__, seen.look.option_label
        if self.selected is None:
            return tuple((label(c, name), c.action) for c in self.choices(seen)
                         if c.piece is None and not isinstance(c.action, Roll))
        return tuple((label(c, name), c.action) for c in self.options_for(seen, self.selected))

    def _marks(self, seen: Seen, options: tuple[tuple[str, Action], ...]) -> tuple[int, ...]:
        """The number of each option's landing marker: its landing square's place among the
        selected piece's landing squares, in the options' order (0 for an option that moves
        no piece: an answer to the play-on question)."""
        if self.selected is None or not seen.acting:
            return (0,) * len(options)
        ends = [c.end for c in self.options_for(seen, self.selected)]
        order = list(dict.fromkeys(e for e in ends if e is not None))
        return tuple(order.index(e) + 1 if e is not None else 0 for e in ends)

    def _board(self, seen: Seen, movable: set[int], events: list[Event]) -> Board:
        state = seen.state
        targets: list[tuple[int, int]] = []
        said: dict[int, list[str]] = {}
        if self.selected is not None and seen.acting:
            for c in self.options_for(seen, self.selected):
                if c.end is not None:
                    said.setdefault(c.end, []).append(
                        seen.look.option_label(c, seen.names.__getitem__))
            targets += [(state.turn, end) for end in said]
        tap = tuple(" or ".join(words) for words in said.values())
        if self.hinted is not None:
            targets += [(state.turn, p) for k, p in enumerate(self.hinted.pieces[state.turn])
                        if p != state.mover[k]]
        labels = {(c, k): seen.look.piece_label(seen.names[c], k, p)
                  for c, own in enumerate(state.pieces) for k, p in enumerate(own)}
        return Board(state.pieces, frozenset((state.turn, p) for p in movable),
                     (state.turn, self.selected) if self.selected is not None else None,
                     tuple(targets), tap, labels, tuple(seen.rules.motions(events)),
                     seen.look.bonuses(events))

    def _chips(self, seen: Seen) -> tuple[Chip, ...]:
        state = seen.state
        if state.phase is not Phase.MOVE or not seen.acting or not seen.look.chips:
            return ()
        return tuple(Chip(v, state.portions.count(v), self.portion == v)
                     for v in sorted(set(state.portions), reverse=True))

    def _status(self, seen: Seen) -> str:
        state = seen.state
        if not seen.acting and not seen.rules.over(state):
            if (to_act := seen.rules.turn(state)) in seen.away:
                return f"{seen.names[to_act]} is away: waiting for them"
            return self.status or f"{seen.names[state.turn]} is thinking…"
        if seen.acting and (note := seen.look.roll_note(state, seen.names.__getitem__)):
            return note
        return self.status

    def _winner(self, seen: Seen) -> str | None:
        """The winner's name, once the game is over (not while the others play on)."""
        rules = seen.rules
        winner = rules.winner(seen.state)
        if winner is None or not rules.over(seen.state):
            return None
        return seen.names[winner]

    def _standings(self, seen: Seen) -> tuple[Standing, ...]:
        """Every seat in the order placed, with its place: the places decided (shared by
        equal players), else the order of the standings."""
        state, rules = seen.state, seen.rules
        if not rules.over(state):
            return ()
        stats = seen.stats
        places = rules.final_places(state)
        return tuple(Standing(places[c], seen.names[c], state.pieces[c].count(rules.home),
                              stats.captures.get(c, 0), stats.lost.get(c, 0))
                     for c in rules.standings(state))

