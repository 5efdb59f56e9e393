"""Ludo as the server and the table see it: ``GAME``, its
:class:`~parcheesi.core.rules.GameRules`.

Nothing here decides a rule: each entry point is the function of the module that owns it
(the turn machine in :mod:`.turns`, the choices in :mod:`.choices`, the players in
:mod:`.ai`, the JSON and the command-line answers in :mod:`.notation`, the look in
:mod:`.look`), so the rest of the server holds a Ludo game exactly as it holds any other.
"""

from __future__ import annotations

from itertools import combinations

from ...core.rules import GameRules, LuckyRoll
from . import ai, notation
from .board import COLOURS, HOME, HOUSE_RULES, YARD
from .choices import choices
from .dice import ludo_dice
from .events import Event
from .expert import EXPERT
from .look import LOOK
from .rules_text import RULES_TEXT
from .state import LudoState, new_state, validate_colours
from .stuck import why_stuck
from .turns import Action, apply, standings


def colour_sets(count: int) -> list[tuple[int, ...]]:
    """Any two, three or four colours (docs/rules/ludo.md 1); for two, the opposite pairs
    first (the setup form offers the first: red and yellow, across the board)."""
    if count == 2:
        pairs = list(combinations(range(len(COLOURS)), 2))
        return sorted(pairs, key=lambda pair: (pair[1] - pair[0]) % 4 != 2)
    return list(combinations(range(len(COLOURS)), count)) if count in (3, 4) else []


SIXES = LuckyRoll("sixes", 1 / 6, lambda dice: dice == (6,))
"""A move with a six earns another roll (docs/rules/ludo.md 3.2)."""

GAME = GameRules[LudoState, Action, Event](
    kind=notation.KIND, title="Ludo", colours=COLOURS, levels=ai.LEVELS,
    table_levels=ai.TABLE_LEVELS, house_rules=HOUSE_RULES, dice_count=1, lucky=SIXES, start=YARD,
    home=HOME, look=LOOK, rules_text=RULES_TEXT,
    new_state=new_state, check_colours=validate_colours, colour_sets=colour_sets,
    dice=ludo_dice, apply=apply, choices=choices, standings=standings, decide=ai.decide,
    expert=EXPERT, why_stuck=why_stuck,
    state_to_json=notation.state_to_json, state_from_json=notation.state_from_json,
    action_to_json=notation.action_to_json, action_from_json=notation.action_from_json,
    dice_to_json=notation.die_to_json, dice_from_json=notation.die_from_json,
    position=notation.position_to_json, outcomes=notation.outcomes, choose=notation.choose)
"""Ludo, for the registry (``parcheesi/games/__init__.py``)."""
