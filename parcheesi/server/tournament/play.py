"""An all-computer tournament, for the command line (``python -m parcheesi tournament``):
the server's drawing, seating and scoring (:mod:`.formats`), with every table a
computer-only game.

- Entrants: the levels given, named ``<level>-<n>``, numbered per level in the order
  given (``hard,hard,easy``: ``hard-1``, ``hard-2``, ``easy-1``); each is rated by its
  level's rank among the game's levels (weakest 0), so the stronger levels are the higher
  seeds. Fillers play at their level.
- A table: a game of the kind with the house rules, its seats in table order taking the
  colours of the game's first colour set for that many players
  (``rules.colour_sets(n)[0]``), the dice seeded from the tournament's seed and the round
  and table numbers (the simulator's derivation, :func:`~..simulate.game_seed`, applied
  twice). It is played to its end, the computers playing on for every place, or until the
  simulator's roll cap (:data:`~..simulate.MAX_ROLLS`), then placed by the game's
  ``final_places`` (its standings for a game stopped there).

The simulator's own game (:func:`~..simulate.play_game`) stops at the first finish,
names players by their level (two ``hard`` entrants at one table would be one name) and
fails at the roll cap, so a table's game is played here to every place; the cap and the
seed derivation are the simulator's. The same seed gives the same tournament, to the byte.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from ...core.registry import AnyRules, rules_for
from ..simulate import MAX_ROLLS, game_seed
from .formats import champion, create, next_round, record, standings
from .model import Entrant, Settings, Tournament, TournamentError
from .scoring import points


def entrants(rules: AnyRules, levels: Sequence[str]) -> list[Entrant]:
    """The entrants of computer ``levels`` (the module's docstring names and rates them);
    :class:`TournamentError` for a level the game does not have."""
    made: list[Entrant] = []
    numbers: Counter[str] = Counter()
    for level in levels:
        if level not in rules.levels:
            raise TournamentError(f"{rules.title} has no level {level!r} "
                                  f"(use {', '.join(rules.levels)})")
        numbers[level] += 1
        made.append(Entrant(f"{level}-{numbers[level]}", rules.levels.index(level), level))
    return made


def _checked_rules(kind: str, settings: Settings, house: Sequence[str]) -> AnyRules:
    """The game's rules, once the game, the filler level and the house rules are known to
    be good."""
    try:
        rules = rules_for(kind)
        rules.new_state(rules.colour_sets(2)[0], house)  # ValueError: a rule it lacks
    except ValueError as error:
        raise TournamentError(str(error)) from None
    if settings.filler is not None and settings.filler not in rules.levels:
        raise TournamentError(f"{rules.title} has no filler level {settings.filler!r} "
                              f"(use {', '.join(rules.levels)})")
    return rules


def play(kind: str, settings: Settings, levels: Sequence[str], seed: int,
         house: Sequence[str] = ()) -> Tournament:
    """The whole tournament of computer ``levels`` at game ``kind``, played out."""
    rules = _checked_rules(kind, settings, house)
    tournament = create(settings, entrants(rules, levels))
    while (drawn := next_round(tournament)) is not None:
        tournament = _play_round(rules, drawn, seed, house)
    return tournament


def _play_round(rules: AnyRules, tournament: Tournament, seed: int,
                house: Sequence[str]) -> Tournament:
    """The tournament with every table of its last round played and recorded."""
    number = len(tournament.rounds) - 1
    levels = {e.id: e.level for e in tournament.entrants if e.level is not None}
    for k, table in enumerate(tournament.rounds[-1].tables):
        places = play_table(rules, [(seat, levels[seat]) for seat in table.seats],
                            game_seed(game_seed(seed, number), k), house)
        tournament = record(tournament, number, k, places)
    return tournament


def play_table(rules: AnyRules, seats: Sequence[tuple[str, str]], dice_seed: int,
               house: Sequence[str]) -> dict[str, int]:
    """One table's game of (entrant, computer level) ``seats``: entrant -> place."""
    colours = rules.colour_sets(len(seats))[0]
    seated = dict(zip(colours, seats, strict=True))
    state = rules.new_state(colours, house)
    dice = rules.dice(dice_seed)
    while not rules.over(state) and rules.rolls(state) <= MAX_ROLLS:
        for action in rules.decide(state, seated[rules.turn(state)][1]).actions:
            state, _ = rules.apply(state, action, dice)
    return {seated[colour][0]: place
            for colour, place in rules.final_places(state).items()}


def summary(tournament: Tournament, kind: str) -> dict[str, Any]:
    """The command's answer (``docs/contracts.md``, "tournament")."""
    return {
        "format": tournament.settings.format,
        "game": kind,
        "entrants": [e.id for e in tournament.entrants if not e.filler],
        "rounds": [{"tables": [{"seats": list(table.seats),
                                "places": [entrant for entrant, _ in table.finish()],
                                "points": points(table)} for table in round_.tables]}
                   for round_ in tournament.rounds],
        "standings": [[entrant, score] for entrant, score in standings(tournament)],
        "champion": champion(tournament),
    }


def describe(answer: Mapping[str, Any]) -> str:
    """The answer in a few lines for people: each table first to last with its points,
    the standings and the champion."""
    lines = [f"{answer['format']} of {answer['game']}: {len(answer['entrants'])} entrants"]
    for number, round_ in enumerate(answer["rounds"], start=1):
        lines.append(f"round {number}")
        lines.extend("  " + ", ".join(f"{e} {table['points'][e]}" for e in table["places"])
                     for table in round_["tables"])
    lines.append("standings: " + ", ".join(f"{e} {score}" for e, score in
                                           answer["standings"]))
    lines.append(f"champion: {answer['champion']}")
    return "\n".join(lines)
