"""The race as the server and the table see it: ``GAME``, its
:class:`~parcheesi.core.rules.GameRules`, made of the entry points of the modules that own
them. Registered by the tests (``parcheesi.core.registry.register``), never listed."""

from __future__ import annotations

from itertools import combinations

from parcheesi.core.rules import GameRules, LuckyRoll

from . import ai, notation
from .board import COLOURS, HOME, START
from .choices import choices
from .dice import race_dice
from .look import LOOK
from .moves import Action
from .rules_text import RULES_TEXT
from .state import RaceState, new_state, validate_colours
from .turns import Event, apply, standings


def colour_sets(count: int) -> list[tuple[int, ...]]:
    """Any two, three or four colours: the lanes never meet, so every set is fair."""
    return list(combinations(range(len(COLOURS)), count)) if 2 <= count <= 4 else []


GAME = GameRules[RaceState, Action, Event](
    kind=notation.KIND, title="Race", colours=COLOURS, levels=ai.LEVELS,
    table_levels=ai.TABLE_LEVELS, dice_count=1,
    lucky=LuckyRoll("sixes", 1 / 6, lambda dice: dice == (6,)), start=START, home=HOME,
    look=LOOK, rules_text=RULES_TEXT,
    new_state=new_state, check_colours=validate_colours, colour_sets=colour_sets,
    dice=race_dice, apply=apply, choices=choices, standings=standings, decide=ai.decide,
    state_to_json=notation.state_to_json, state_from_json=notation.state_from_json,
    action_to_json=notation.action_to_json, action_from_json=notation.action_from_json,
    dice_to_json=notation.die_to_json, dice_from_json=notation.die_from_json,
    position=notation.position_to_json, outcomes=notation.outcomes, choose=notation.choose)
"""The race, for ``register``."""
