"""The game-rules interface: one game as the server, the command line and the table see it,
so that none of them knows which game it holds.

A game is a :class:`GameRules` value: its facts (kind, title, colours, computer levels,
house rules), its engine's entry points (new state, apply, choices, decisions, JSON), its
look and words at the table and the text of its rules page. Each game's package makes one
(``GAME`` in its ``game.py``) and the registry (:mod:`.registry`) lists them by kind. What
every game answers alike from the shared state fields and events (:mod:`.state`,
:mod:`.events`) is written here once, as methods: whose turn it is, whether the game is
over, the places, the captures and rolls among events, the pieces' motions and how long the
board takes to show them. The interface's contract is ``docs/contracts.md``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from .choices import Choice
from .events import Captured, Entered, Moved, Rolled
from .geometry import Motion, motion_ms
from .learning.expert import Expert
from .learning.learner import Learner
from .look import Look
from .state import PIECES, Phase, SharedState

S = TypeVar("S", bound=SharedState)
A = TypeVar("A")
E = TypeVar("E")
S_co = TypeVar("S_co", bound=SharedState, covariant=True)

State = Any
"""A position of some game, as its engine defines it (:class:`SharedState` outside it)."""
Action = Any
"""An action of some game (roll, move, ...), as its engine defines it: outside the engine,
only passed through."""
Event = Any
"""Something that happened in some game (moved, captured, won, ...), as its engine says."""
DiceSource = Callable[[int], Any]
"""A game's dice: roll number -> what was rolled, the same every time for one seed."""
Chances = list[dict[int, float]]
"""Each playing colour's chance to win, per position."""


@dataclass(frozen=True)
class Decision(Generic[A, S]):
    """A computer's (or the hint's) choice: the actions that finish the current roll or
    answer the current question, and why (written only when asked for)."""

    actions: list[A]
    state: S
    """The position when those actions are done."""
    reason: str


class NewState(Protocol[S_co]):
    def __call__(self, colours: tuple[int, ...], house: Sequence[str] = (),
                 first: int | None = None) -> S_co:
        """The position before the first roll, with the house rules ``house`` switched on
        and the opening roll begun by ``first`` (default: the first colour in turn order);
        ValueError (saying why) for colours that cannot play, a house rule the game does
        not have or a ``first`` not playing."""


class Decide(Protocol[S]):
    def __call__(self, state: S, level: str, reason: bool = False) -> Decision[Any, S]:
        """Computer player ``level``'s choice for the player to act (with a reason if
        asked); ValueError for a level the game does not have or a game that is over."""


@dataclass(frozen=True)
class LuckyRoll:
    """A game's lucky roll (the one that earns another: doubles, a six), which the charts
    count for each player against what fair dice give."""

    name: str
    """What the lucky rolls are called ("doubles", "sixes")."""
    chance: float
    """How often a fair roll is one."""
    test: Callable[[tuple[int, ...]], bool]
    """Whether the dice of one roll are one."""


@dataclass(frozen=True, kw_only=True, eq=False)
class GameRules(Generic[S, A, E]):
    """One game, seen from outside its engine. States, actions and events are the engine's
    own immutable values; only the engine looks inside them (beyond the shared fields)."""

    kind: str
    """The stored name of the game (the ``kind`` column of games and rooms)."""
    title: str
    """The game's name for people."""
    colours: tuple[str, ...]
    """The colours' names, by colour number."""
    levels: tuple[str, ...]
    """The computer players, weakest first (the first is the benchmarks' random one)."""
    table_levels: tuple[str, ...]
    """The computer players a host may seat at a table, weakest first (the last gives the
    hint)."""
    dice_count: int
    """Dice per roll."""
    lucky: LuckyRoll
    """The roll that earns another, as the charts count it."""
    start: int
    """The progress of a piece waiting to come in (START, the yard)."""
    home: int
    """The progress of a piece HOME."""
    look: Look
    """How the table draws and words the game."""
    rules_text: str
    """The game's rules page, in Markdown."""
    house_rules: tuple[str, ...] = ()
    """The optional house rules a host may switch on for a game."""

    new_state: NewState[S]
    check_colours: Callable[[tuple[int, ...]], tuple[int, ...]]
    """The colours of a table in turn order; ValueError (saying why) if they cannot play."""
    colour_sets: Callable[[int], list[tuple[int, ...]]]
    """Every set of ``count`` colours a table may use (the simulator rotates over them)."""
    dice: Callable[[int], DiceSource]
    """The game's dice for a seed."""
    apply: Callable[[S, A, DiceSource], tuple[S, list[E]]]
    """The position after an action and what happened; raises
    :class:`~parcheesi.core.state.IllegalAction` (changing nothing) for an action not
    open."""
    choices: Callable[[S], list[Choice]]
    """Every choice open to the player to act now, each with what it does."""
    standings: Callable[[S], list[int]]
    """The colours in the order they placed (or stand, while the game goes on)."""
    decide: Decide[S]
    expert: Expert | None = None
    """The game's learned evaluation: its Expert level and each colour's chance to win
    (None: the game has none)."""
    why_stuck: Callable[[S, int], str | None] | None = None
    """Why the player to act's piece cannot move now, in a short sentence for a child (None
    when it can move, or when the game has no explanation); read through
    :meth:`stuck_reason`."""

    state_to_json: Callable[[S], dict[str, Any]]
    state_from_json: Callable[[Any], S]
    """The state of a stored JSON object; NotationError if it is not one."""
    action_to_json: Callable[[A], dict[str, Any]]
    action_from_json: Callable[[Any], A]
    """The action of a stored or sent JSON object; NotationError if it is not one."""
    dice_to_json: Callable[[Any], Any]
    """What one roll gave, as a game record writes it."""
    dice_from_json: Callable[[Any], Any]
    """One roll of a game record; NotationError if it is not what a roll can give."""
    position: Callable[[S], dict[str, Any]]
    """The position as an ``outcomes`` request, with the dice only while the player to move
    has rolled and not moved yet."""
    outcomes: Callable[[dict[str, Any]], dict[str, Any]]
    """The ``outcomes`` command's answer to a request of this game."""
    choose: Callable[[dict[str, Any], str], dict[str, Any]]
    """The ``choose`` command's answer: the outcome a level picks, and why."""

    # --- what every game answers alike ---------------------------------------------------

    @property
    def default_level(self) -> str:
        """The computer level a seat starts at in the setup form, and the stand-in that moves
        for a person whose turn clock ran out unless the host chose another: the middle of
        the table levels (the weaker of two middle ones)."""
        return self.table_levels[(len(self.table_levels) - 1) // 2]

    @property
    def full_progress(self) -> int:
        """What :meth:`progress` says of a colour with every piece HOME."""
        return PIECES * (self.home - self.start)

    def turn(self, state: S) -> int:
        """The colour to act now."""
        return state.turn

    def rolling(self, state: S) -> bool:
        """Whether the player to act is to roll (rather than choose what a roll does)."""
        return state.phase in (Phase.OPENING, Phase.ROLL)

    def over(self, state: S) -> bool:
        """Whether the game has ended (nobody acts any more)."""
        return state.phase is Phase.OVER

    def winner(self, state: S) -> int | None:
        """The colour that won, once there is one."""
        return state.winner

    def rolls(self, state: S) -> int:
        """Rolls made so far (the simulator stops a game that never ends)."""
        return state.rolls

    def places(self, state: S) -> list[tuple[int, int]]:
        """(colour, place) of each colour placed so far, in the order placed (1 = first;
        players placed together by standing share a place). Empty for a game that ended at
        its first finish (the standings then give the order)."""
        return list(zip(state.places, state.ranks, strict=True))

    def final_places(self, state: S) -> dict[int, int]:
        """Every seat's place in a finished game (colour -> place, 1 = first): the places
        decided (shared by equal players), the others by the order of the standings."""
        places = dict(self.places(state))
        return {c: places.get(c, k + 1) for k, c in enumerate(self.standings(state))}

    def progress(self, state: S, colour: int) -> int:
        """How far ``colour``'s pieces have come altogether: the squares each has travelled
        from where it waits (coming in counts as one), 0 with every piece waiting,
        :attr:`full_progress` with every piece HOME; a capture or a penalty makes it
        drop."""
        return sum(p - self.start for p in state.pieces[colour])

    def hint(self, state: S) -> Decision[Any, S]:
        """The best choice for a person, with a reason they can read: the strongest table
        level's."""
        return self.decide(state, self.table_levels[-1], reason=True)

    def stuck_reason(self, state: S, piece: int) -> str | None:
        """Why piece ``piece`` (0..3) of the player to act cannot move now, in one short
        sentence a child can read: what the table's learning mode says when that piece is
        tapped, worked out by the game (:attr:`why_stuck`). None when some choice open now
        moves the piece, when nobody acts (the game is over), or when the game has no
        explanation (no :attr:`why_stuck`). While the player is to roll or to answer a
        question no choice moves a piece, so the game says what comes first ("Roll the dice
        first")."""
        return None if self.why_stuck is None else self.why_stuck(state, piece)

    def win_chances(self, states: Sequence[S]) -> Chances | None:
        """Each playing colour's chance to win from each of ``states`` (None: the game has
        no evaluation)."""
        return None if self.expert is None else self.expert.chances_of(states)

    @property
    def learner(self) -> Learner | None:
        """What the game's learned evaluation is trained from (None: it has none)."""
        return None if self.expert is None else self.expert.learner

    def captures(self, events: Sequence[Any]) -> list[tuple[int, int]]:
        """(capturing colour, captured colour) for every capture among ``events``."""
        return [(e.by_colour, e.colour) for e in events if isinstance(e, Captured)]

    def dice_rolled(self, events: Sequence[Any]) -> list[tuple[int, tuple[int, ...]]]:
        """(colour, dice) for every roll among ``events`` in play (not the opening rolls
        that decide who starts), the dice as rolled."""
        return [(e.colour, e.dice) for e in events if isinstance(e, Rolled)]

    def motions(self, events: Sequence[Any]) -> list[Motion]:
        """(colour, piece, from, to) for every piece ``events`` moved, in order, in the
        colour's own progress (an entry from where pieces wait to 0; a capture from where
        the piece stood straight back): what the board animates and the computers wait
        for."""
        found: list[Motion] = []
        for event in events:
            if isinstance(event, Entered):
                found.append((event.colour, event.piece, self.start, 0))
            elif isinstance(event, Moved):
                found.append((event.colour, event.piece, event.start, event.end))
            elif isinstance(event, Captured):
                found.append((event.colour, event.piece, event.progress, self.start))
        return found

    def motion_ms(self, motions: Sequence[Motion]) -> int:
        """How long the game's board takes to show those motions (its own layout's pace)."""
        return motion_ms(self.look.layout, motions)
