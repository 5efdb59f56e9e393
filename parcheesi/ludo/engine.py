"""The Ludo engine behind the game-rules interface (:class:`~parcheesi.games.GameRules`).

Nothing here decides a rule: each method hands over to the module that owns it (the turn
machine in :mod:`.rules`, the choices in :mod:`.choices`, the players in :mod:`.ai`, the
JSON in :mod:`.notation`), so the rest of the server holds a Ludo game exactly as it holds
a Parcheesi one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from .. import layout
from ..choices import Choice
from ..game import Captured, Entered, Moved
from ..layout import Motion
from ..readings import SharedReadings
from . import ai, notation
from .board import COLOURS, HOME, HOUSE_RULES, YARD
from .choices import choices
from .dice import LudoDice, ludo_dice
from .events import Event
from .rules import Action, apply, standings
from .state import LudoState, new_state, validate_colours


@dataclass(frozen=True)
class LudoRules(SharedReadings):
    kind: str = "ludo"
    title: str = "Ludo"
    colours: tuple[str, ...] = COLOURS
    levels: tuple[str, ...] = ai.LEVELS
    table_levels: tuple[str, ...] = ai.TABLE_LEVELS
    house_rules: tuple[str, ...] = HOUSE_RULES
    dice_count: int = 1
    full_progress: int = 4 * (HOME - YARD)

    def check_colours(self, colours: tuple[int, ...]) -> tuple[int, ...]:
        return validate_colours(colours)

    def colour_sets(self, count: int) -> list[tuple[int, ...]]:
        """Two players: the opposite pairs the setup suggests; three or four: every set."""
        if count == 2:
            return [(0, 2), (1, 3)]
        return list(combinations(range(len(COLOURS)), count)) if count in (3, 4) else []

    def new_state(self, colours: tuple[int, ...], house: Sequence[str] = (),
                  first: int | None = None) -> LudoState:
        return new_state(colours, house, first)

    def dice(self, seed: int) -> LudoDice:
        return ludo_dice(seed)

    def apply(self, state: LudoState, action: Action, dice: LudoDice
              ) -> tuple[LudoState, list[Event]]:
        return apply(state, action, dice)

    def choices(self, state: LudoState) -> list[Choice]:
        return choices(state)

    def standings(self, state: LudoState) -> list[int]:
        return standings(state)

    def progress(self, state: LudoState, colour: int) -> int:
        return sum(p - YARD for p in state.pieces[colour])

    def places(self, state: LudoState) -> list[tuple[int, int]]:
        return list(zip(state.places, state.ranks, strict=True))

    def decide(self, state: LudoState, level: str, reason: bool = False) -> ai.Decision:
        return ai.decide(state, level, reason)

    def hint(self, state: LudoState) -> ai.Decision:
        return ai.hint(state)

    def win_chances(self, states: Sequence[LudoState]) -> None:
        """Ludo has no learned evaluation (yet): no chances to show."""
        return None

    def motions(self, events: Sequence[Event]) -> list[Motion]:
        """(colour, piece, from, to) in the colour's own progress: an entry from the yard
        (-1) to 0, a move square by square, a captured piece straight back to its yard."""
        found: list[Motion] = []
        for event in events:
            if isinstance(event, Entered):
                found.append((event.colour, event.piece, YARD, 0))
            elif isinstance(event, Moved):
                found.append((event.colour, event.piece, event.start, event.end))
            elif isinstance(event, Captured):
                found.append((event.colour, event.piece, event.progress, YARD))
        return found

    def motion_ms(self, motions: Sequence[Motion]) -> int:
        """Parcheesi's pace (:mod:`parcheesi.layout`): each square walked takes a step, a
        piece sent back to its yard one slower slide, all of one action at most a second."""
        total = sum(layout.CAPTURE_MS if end == YARD else (end - start) * layout.STEP_MS
                    for _, _, start, end in motions)
        return min(total, layout.MAX_ANIMATION_MS)

    def state_to_json(self, state: LudoState) -> dict[str, Any]:
        return notation.state_to_json(state)

    def state_from_json(self, raw: Any) -> LudoState:
        return notation.state_from_json(raw)

    def action_to_json(self, action: Action) -> dict[str, Any]:
        return notation.action_to_json(action)

    def action_from_json(self, raw: Any) -> Action:
        return notation.action_from_json(raw)

    def dice_to_json(self, dice: int) -> int:
        return dice

    def dice_from_json(self, raw: Any) -> int:
        return notation.die_from_json(raw)

    def position(self, state: LudoState) -> dict[str, Any]:
        return notation.position_to_json(state)

    def outcomes(self, request: dict[str, Any]) -> dict[str, Any]:
        return notation.outcomes(request)

    def choose(self, request: dict[str, Any], level: str) -> dict[str, Any]:
        return notation.choose(request, level)


LUDO_RULES = LudoRules()
