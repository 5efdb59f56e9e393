"""The game-rules interface: what live games, storage, rooms, the simulator, the command line
and the table ask of a game, so that none of them knows which game it holds.

Each game's engine implements :class:`GameRules` with its own immutable state, actions and
events (the interface passes them through untouched) and is listed in :data:`GAMES` under
the kind stored with every game (``games.kind``). A second game is a second entry.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from .engine import PARCHEESI_RULES
from .layout import Motion
from .ludo.engine import LUDO_RULES

State = Any
"""A position of some game: that game's engine's own immutable value."""
Action = Any
"""An action of some game (roll, move, ...), as its engine defines it."""
Event = Any
"""Something that happened in some game (moved, captured, won, ...), as its engine says."""


class Decided(Protocol):
    """A computer's (or the hint's) choice: the actions that finish the current roll."""

    @property
    def actions(self) -> Sequence[Any]: ...

    @property
    def reason(self) -> str: ...

    @property
    def state(self) -> Any:
        """The position when those actions are done."""


class GameRules(Protocol):
    """One game's rules, seen from outside its engine. States, actions and events are the
    engine's own immutable values; only the engine looks inside them."""

    @property
    def kind(self) -> str:
        """The stored name of the game (``"parcheesi"``)."""

    @property
    def title(self) -> str:
        """The game's name for people."""

    @property
    def colours(self) -> tuple[str, ...]:
        """The colours' names, by colour number."""

    @property
    def levels(self) -> tuple[str, ...]:
        """The computer players, weakest first (the first is the benchmarks' random one)."""

    @property
    def table_levels(self) -> tuple[str, ...]:
        """The computer players a host may seat at a table."""

    @property
    def house_rules(self) -> tuple[str, ...]:
        """The optional house rules a host may switch on for a game (none for Parcheesi)."""

    @property
    def dice_count(self) -> int:
        """Dice per roll (Parcheesi two, Ludo one)."""

    @property
    def full_progress(self) -> int:
        """What :meth:`progress` says of a colour with every piece HOME."""

    def check_colours(self, colours: tuple[int, ...]) -> tuple[int, ...]:
        """The colours of a table in turn order; ValueError (saying why) if they cannot play."""

    def colour_sets(self, count: int) -> list[tuple[int, ...]]:
        """Every set of ``count`` colours a table may use (the simulator rotates over them)."""

    def new_state(self, colours: tuple[int, ...], house: Sequence[str] = (),
                  first: int | None = None) -> Any:
        """The position before the first roll, with the house rules ``house`` switched on
        and the opening roll begun by ``first`` (default: the first colour in turn order);
        ValueError (saying why) for a house rule the game does not have or a ``first`` not
        playing."""

    def dice(self, seed: int) -> Callable[[int], Any]:
        """The game's dice for ``seed``: roll number -> what was rolled, the same every time."""

    def apply(self, state: Any, action: Any, dice: Callable[[int], Any]
              ) -> tuple[Any, list[Any]]:
        """The position after ``action`` and what happened; raises
        :class:`~parcheesi.state.IllegalAction` (changing nothing) for an action not open."""

    def choices(self, state: Any) -> list[Any]:
        """Every choice open to the player to act now, each with what it does."""

    def turn(self, state: Any) -> int:
        """The colour to act now."""

    def rolling(self, state: Any) -> bool:
        """Whether the player to act is to roll (rather than choose what a roll does)."""

    def over(self, state: Any) -> bool:
        """Whether the game has ended (nobody acts any more)."""

    def winner(self, state: Any) -> int | None:
        """The colour that won, once there is one."""

    def rolls(self, state: Any) -> int:
        """Rolls made so far (the simulator stops a game that never ends)."""

    def standings(self, state: Any) -> list[int]:
        """The colours in the order they placed (or stand, while the game goes on)."""

    def places(self, state: Any) -> list[tuple[int, int]]:
        """(colour, place) of each colour placed so far, in the order placed (1 = first;
        players placed together by standing share a place): the players finished while
        the game plays on for places, and everyone once it ends so. Empty for a game that
        ended at its first finish (the standings then give the order)."""

    def decide(self, state: Any, level: str, reason: bool = False) -> Decided:
        """Computer player ``level``'s choice for the player to act (with a reason if asked)."""

    def hint(self, state: Any) -> Decided:
        """The best choice for a person, with a reason they can read."""

    def progress(self, state: Any, colour: int) -> int:
        """How far ``colour``'s pieces have come altogether: the squares each has travelled
        from START (entering counts as one), 0 with every piece at START, ``full_progress``
        with every piece HOME; a capture or a penalty makes it drop."""

    def captures(self, events: Sequence[Any]) -> list[tuple[int, int]]:
        """(capturing colour, captured colour) for every capture among ``events``."""

    def dice_rolled(self, events: Sequence[Any]) -> list[tuple[int, tuple[int, ...]]]:
        """(colour, dice) for every roll among ``events`` in play (not the opening rolls
        that decide who starts), the dice as rolled: two for Parcheesi, one for Ludo."""

    def win_chances(self, states: Sequence[Any]) -> list[dict[int, float]] | None:
        """Each playing colour's chance to win from each of ``states``, by the game's
        learned evaluation (None: the game has none)."""

    def motions(self, events: Sequence[Any]) -> list[Motion]:
        """(colour, piece, from, to) for every piece ``events`` moved, in order, in the
        colour's own progress: what the board animates and the computers wait for."""

    def motion_ms(self, motions: Sequence[Motion]) -> int:
        """How long the board takes to show those motions."""

    def state_to_json(self, state: Any) -> dict[str, Any]: ...

    def state_from_json(self, raw: Any) -> Any: ...

    def action_to_json(self, action: Any) -> dict[str, Any]: ...

    def action_from_json(self, raw: Any) -> Any:
        """The action of a stored or sent JSON object; NotationError if it is not one."""

    def dice_to_json(self, dice: Any) -> Any:
        """What one roll gave, as a game record writes it."""

    def dice_from_json(self, raw: Any) -> Any:
        """One roll of a game record; NotationError if it is not what a roll can give."""

    def position(self, state: Any) -> dict[str, Any]:
        """The position as an ``outcomes`` request (DESIGN.md), with the dice only while
        the player to move has rolled and not moved yet."""

    def outcomes(self, request: dict[str, Any]) -> dict[str, Any]:
        """The ``outcomes`` command's answer to a request of this game (DESIGN.md)."""

    def choose(self, request: dict[str, Any], level: str) -> dict[str, Any]:
        """The ``choose`` command's answer: the outcome ``level`` picks, and why."""


class UnknownGame(ValueError):
    """A game kind this server does not play."""


GAMES: dict[str, GameRules] = {PARCHEESI_RULES.kind: PARCHEESI_RULES,
                               LUDO_RULES.kind: LUDO_RULES}
"""Every game this server plays, by kind."""
DEFAULT_GAME = PARCHEESI_RULES.kind
"""The game of a request, a table or a stored game that does not name one."""


def rules_for(kind: str) -> GameRules:
    """The rules of game ``kind``; :class:`UnknownGame` if this server does not play it."""
    try:
        return GAMES[kind]
    except (KeyError, TypeError):
        raise UnknownGame(f"unknown game {kind!r} (this server plays "
                          f"{', '.join(sorted(GAMES))})") from None
