"""The Parcheesi engine behind the game-rules interface (:class:`~.games.GameRules`).

Nothing here decides a rule: each method hands over to the module that owns it (the turn
machine in :mod:`.game`, the choices in :mod:`.choices`, the players in :mod:`.ai`, the JSON
in :mod:`.notation`), so the rest of the server can hold a Parcheesi game without importing
any of them.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from . import ai, expert, layout, notation
from .analysis import outcomes_after_roll
from .board import COLOURS, HOME, START, opposite
from .choices import Choice, choices
from .dice import Dice, DiceSource, seeded
from .game import Action, Event, Roll, apply, motions, standings
from .layout import Motion
from .readings import SharedReadings
from .state import Phase, State, new_state, validate_colours


@dataclass(frozen=True)
class ParcheesiRules(SharedReadings):
    kind: str = "parcheesi"
    title: str = "Parcheesi"
    colours: tuple[str, ...] = COLOURS
    levels: tuple[str, ...] = ai.LEVELS
    table_levels: tuple[str, ...] = ai.TABLE_LEVELS
    house_rules: tuple[str, ...] = ()
    dice_count: int = 2
    full_progress: int = 4 * (HOME - START)

    def check_colours(self, colours: tuple[int, ...]) -> tuple[int, ...]:
        return validate_colours(colours)

    def colour_sets(self, count: int) -> list[tuple[int, ...]]:
        if count == 2:
            return [(c, opposite(c)) for c in (0, 1)]
        if count == 3:
            return [tuple(c for c in range(4) if c != missing) for missing in range(4)]
        return [(0, 1, 2, 3)] if count == 4 else []

    def new_state(self, colours: tuple[int, ...], house: Sequence[str] = (),
                  first: int | None = None) -> State:
        if house:
            raise ValueError(f"Parcheesi has no house rules (not {', '.join(house)})")
        return new_state(colours, first)

    def dice(self, seed: int) -> DiceSource:
        return seeded(seed)

    def apply(self, state: State, action: Action, dice: DiceSource
              ) -> tuple[State, list[Event]]:
        return apply(state, action, dice)

    def choices(self, state: State) -> list[Choice]:
        return choices(state)

    def standings(self, state: State) -> list[int]:
        return standings(state)

    def progress(self, state: State, colour: int) -> int:
        return sum(p - START for p in state.pieces[colour])

    def places(self, state: State) -> list[tuple[int, int]]:
        return list(zip(state.places, state.ranks, strict=True))

    def decide(self, state: State, level: str, reason: bool = False) -> ai.Decision:
        return ai.decide(state, level, reason)

    def hint(self, state: State) -> ai.Decision:
        return ai.hint(state)

    def win_chances(self, states: Sequence[State]) -> list[dict[int, float]]:
        return expert.chances_of(list(states))

    def motions(self, events: Sequence[Event]) -> list[Motion]:
        return motions(events)

    def motion_ms(self, moves: Sequence[Motion]) -> int:
        return layout.motion_ms(moves)

    def state_to_json(self, state: State) -> dict[str, Any]:
        return notation.state_to_json(state)

    def state_from_json(self, raw: Any) -> State:
        return notation.state_from_json(raw)

    def action_to_json(self, action: Action) -> dict[str, Any]:
        return notation.action_to_json(action)

    def dice_to_json(self, dice: Dice) -> list[int]:
        return notation.dice_to_json(dice)

    def dice_from_json(self, raw: Any) -> Dice:
        return notation.dice_from_json(raw)

    def position(self, state: State) -> dict[str, Any]:
        return notation.position_to_json(state)

    def action_from_json(self, raw: Any) -> Action:
        return notation.action_from_json(raw)

    def outcomes(self, request: dict[str, Any]) -> dict[str, Any]:
        state, dice = notation.request_from_json(request)
        found = {notation.compact({"pieces": notation.pieces_to_json(after.pieces)})
                 for after, _ in outcomes_after_roll(state, dice)}
        return {"outcomes": [json.loads(item) for item in sorted(found)]}

    def choose(self, request: dict[str, Any], level: str) -> dict[str, Any]:
        """The end of the roll ``level`` plays, why, and each colour's chance to win from
        there by the learned evaluation."""
        state, dice = notation.request_from_json(request)
        after, _ = apply(state, Roll(), dice)
        if after.phase in (Phase.MOVE, Phase.REWARD) and after.turn == state.turn:
            decision = ai.decide(after, level, reason=True)
            after, reason = decision.state, decision.reason
        elif state.doubles == 2 and dice[0] == dice[1]:
            reason = "Third doubles: the leading piece goes back to START"
        else:
            reason = "No move is possible"
        return {"pieces": notation.pieces_to_json(after.pieces), "reason": reason,
                "win_chance": {COLOURS[c]: round(chance, 4)
                               for c, chance in expert.chances(after).items()}}


PARCHEESI_RULES = ParcheesiRules()
