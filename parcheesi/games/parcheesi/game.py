"""Parcheesi as the server and the table see it: ``GAME``, its
:class:`~parcheesi.core.rules.GameRules`.

Nothing here decides a rule: each entry point is the function of the module that owns it
(the turn machine in :mod:`.turns`, the choices in :mod:`.choices`, the players in
:mod:`.ai`, the JSON in :mod:`.notation`, the look in :mod:`.look`), so the rest of the
server holds a Parcheesi game without importing any of them. The two command-line answers
(``outcomes``, ``choose``; ``docs/contracts.md``) are put together here.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from ...core.actions import Roll
from ...core.notation import compact
from ...core.rules import GameRules, LuckyRoll
from ...core.state import Phase
from . import ai, expert, notation
from .analysis import outcomes_after_roll
from .board import COLOURS, HOME, START, opposite
from .choices import choices
from .dice import seeded
from .look import LOOK
from .rules_text import RULES_TEXT
from .state import State, new_state, validate_colours
from .stuck import why_stuck
from .turns import Action, Event, apply, standings


def new_game(colours: tuple[int, ...], house: Sequence[str] = (),
             first: int | None = None) -> State:
    """The position before the opening roll (Parcheesi has no house rules)."""
    if house:
        raise ValueError(f"Parcheesi has no house rules (not {', '.join(house)})")
    return new_state(colours, first)


def colour_sets(count: int) -> list[tuple[int, ...]]:
    """Two players sit opposite each other; three leave one colour out; four use all."""
    if count == 2:
        return [(c, opposite(c)) for c in (0, 1)]
    if count == 3:
        return [tuple(c for c in range(4) if c != missing) for missing in range(4)]
    return [(0, 1, 2, 3)] if count == 4 else []


def outcomes(request: dict[str, Any]) -> dict[str, Any]:
    """Every distinct position the roll of ``request`` can end in, sorted by compact JSON."""
    state, dice = notation.request_from_json(request)
    found = {compact({"pieces": notation.pieces_to_json(after.pieces)})
             for after, _ in outcomes_after_roll(state, dice)}
    return {"outcomes": [json.loads(item) for item in sorted(found)]}


def choose(request: dict[str, Any], level: str) -> dict[str, Any]:
    """The end of the roll ``level`` plays, why, and each colour's chance to win from there
    by the learned evaluation."""
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


DOUBLES = LuckyRoll("doubles", 1 / 6, lambda dice: dice[0] == dice[1])
"""Doubles earn another roll (docs/rules/parcheesi.md 3.6)."""

GAME = GameRules[State, Action, Event](
    kind=notation.KIND, title="Parcheesi", colours=COLOURS, levels=ai.LEVELS,
    table_levels=ai.TABLE_LEVELS, dice_count=2, lucky=DOUBLES, start=START, home=HOME, look=LOOK,
    rules_text=RULES_TEXT,
    new_state=new_game, check_colours=validate_colours, colour_sets=colour_sets, dice=seeded,
    apply=apply, choices=choices, standings=standings, decide=ai.decide,
    expert=expert.EXPERT, why_stuck=why_stuck,
    state_to_json=notation.state_to_json, state_from_json=notation.state_from_json,
    action_to_json=notation.action_to_json, action_from_json=notation.action_from_json,
    dice_to_json=notation.dice_to_json, dice_from_json=notation.dice_from_json,
    position=notation.position_to_json, outcomes=outcomes, choose=choose)
"""Parcheesi, for the registry (``parcheesi/games/__init__.py``)."""
