"""The post-game charts' data, worked out from a replayed record (``records.replay``).

The charts, the same for both games, read only through the game-rules interface:

- **the race**: each colour's progress (``GameRules.progress``) before the first roll and
  after every roll of the game (its moves done), numbered by the rolls made in play; every
  capture, at the roll whose moves made it, on the captured colour's line (where the drop
  is);
- **the luck of the dice**: each player's rolls, the pips they showed and the lucky rolls
  among them (doubles with two dice, a six with one), next to what a fair die gives on
  average for that many rolls: 3.5 pips a die, a lucky roll one time in six either way;
- **the chances to win** (a game with a learned evaluation): each colour's chance
  at the same points as the race.

The opening rolls (who starts) are not counted: they move no piece.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..core.registry import AnyRules
from ..core.rules import LuckyRoll

AVERAGE_PIPS = 3.5
"""What one fair die shows on average."""


@dataclass(frozen=True)
class Capture:
    """``by`` captured ``victim`` with the moves of roll ``roll`` (1 = the first roll)."""

    roll: int
    by: int
    victim: int


@dataclass(frozen=True)
class Race:
    """``progress[colour][k]``: how far ``colour`` had come after ``k`` rolls (0: the start),
    out of ``full`` (every piece HOME)."""

    colours: tuple[int, ...]
    full: int
    progress: dict[int, list[int]]
    captures: list[Capture]

    @property
    def rolls(self) -> int:
        return len(next(iter(self.progress.values()), [0])) - 1

    def share(self, colour: int, roll: int) -> float:
        """``colour``'s progress after ``roll`` rolls, in percent of the way HOME."""
        return round(100 * self.progress[colour][roll] / self.full, 1)


@dataclass(frozen=True)
class Luck:
    """One player's dice: rolls made, pips shown, lucky rolls, and the fair averages."""

    colour: int
    rolls: int
    pips: int
    lucky: int
    average_pips: float
    average_lucky: float


@dataclass(frozen=True)
class Charts:
    race: Race
    luck: list[Luck]
    lucky_name: str
    """What the game's lucky rolls are called (``GameRules.lucky``)."""
    chances: dict[int, list[float]] | None = None
    """``chances[colour][k]``: the colour's chance to win after ``k`` rolls, in percent, by
    the game's learned evaluation (None for a game without one)."""
    decided: int = 0
    """After how many rolls the winner was known (a table playing on for places rolls on)."""


def charts_of(rules: AnyRules, steps: Sequence[Any]) -> Charts:
    """Both charts of a game replayed into ``steps`` (each with ``state`` and ``events``;
    the first is the start)."""
    start = steps[0].state
    colours = tuple(start.colours)
    progress: dict[int, list[int]] = {c: [] for c in colours}
    captures: list[Capture] = []
    dice: dict[int, list[tuple[int, ...]]] = {c: [] for c in colours}
    rolls, before = 0, start
    points: list[Any] = []
    """The position at each point of the race: before each roll, and the last."""
    for step in steps[1:]:
        for colour, rolled in rules.dice_rolled(step.events):
            for c in colours:  # the point of the roll before: its moves are all done
                progress[c].append(rules.progress(before, c))
            points.append(before)
            dice[colour].append(rolled)
            rolls += 1
        captures.extend(Capture(rolls, by, victim) for by, victim in rules.captures(step.events))
        before = step.state
    for c in colours:
        progress[c].append(rules.progress(before, c))
    points.append(before)
    return Charts(race=Race(colours, rules.full_progress, progress, captures),
                  luck=[luck_of(c, dice[c], rules.dice_count, rules.lucky) for c in colours],
                  lucky_name=rules.lucky.name,
                  chances=chances_at(rules, colours, points),
                  decided=next((k for k, at in enumerate(points)
                                if rules.winner(at) is not None), len(points) - 1))


def chances_at(rules: AnyRules, colours: tuple[int, ...], points: Sequence[Any]
               ) -> dict[int, list[float]] | None:
    """Each colour's chance to win at each point, in percent (None: no evaluation)."""
    found = rules.win_chances(points)
    if found is None:
        return None
    return {c: [round(100 * at[c], 1) for at in found] for c in colours}


def luck_of(colour: int, rolls: Sequence[tuple[int, ...]], dice_count: int,
            lucky: LuckyRoll) -> Luck:
    """One player's luck from the dice of each of their rolls."""
    return Luck(colour=colour, rolls=len(rolls), pips=sum(sum(r) for r in rolls),
                lucky=sum(1 for r in rolls if lucky.test(r)),
                average_pips=len(rolls) * dice_count * AVERAGE_PIPS,
                average_lucky=len(rolls) * lucky.chance)
