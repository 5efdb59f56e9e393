"""Parcheesi: the rules engine and everything that serves it, without any user interface.

:mod:`.games` is the game-rules interface the server holds games through (``GameRules``,
``GAMES``, ``rules_for``); :mod:`.engine` puts the Parcheesi engine behind it.

The engine is pure and deterministic (dice are injected): :mod:`.state` (the position),
:mod:`.game` (actions, events, :func:`~.game.apply`), :mod:`.choices` (what each open choice
does), :mod:`.rules` (the roll search), :mod:`.board` and :mod:`.layout` (geometry),
:mod:`.dice`, :mod:`.notation` (position, outcome and record JSON) and :mod:`.analysis`.
:mod:`.ai` holds the computer players and :mod:`.simulate` plays them against each other.

Around it: :mod:`.live` (live games and the hub that loads them), :mod:`.rooms` (online
rooms), :mod:`.loading` (one load per game or room however many ask), :mod:`.runner` (the
computers' supervised task), :mod:`.store` (SQLite or PostgreSQL), :mod:`.migrate` and
:mod:`.backup`, :mod:`.config` and :mod:`.logs`. The command line is
``python -m parcheesi``.
"""

from .choices import Choice, choices
from .engine import PARCHEESI_RULES
from .game import Action, Event, Move, PlayOn, Reward, Roll, apply, legal_actions, standings
from .games import GAMES, GameRules, rules_for
from .state import IllegalAction, Phase, State, new_state

__all__ = ["GAMES", "PARCHEESI_RULES", "Action", "Choice", "Event", "GameRules",
           "IllegalAction", "Move", "Phase", "PlayOn", "Reward", "Roll", "State", "apply",
           "choices", "legal_actions", "new_state", "rules_for", "standings"]
