"""Engine speed: rolls per second, enumeration time per roll, and a worst-case position.

    python benchmarks/engine.py [--games 200]
    python benchmarks/engine.py --game ludo [--games 200] [--runs 5]

Parcheesi: random 4-player games where every roll is fully enumerated (every complete legal
sequence, ``RollPlan.finals``) and a random end position is played through the normal
action path. The enumeration time per roll is a fresh search of that roll (``RollPlan`` +
``finals``).

Ludo: random 4-player games (no house rules) played to the end through the real rule
functions: the game's seeded dice, ``legal_moves`` for the roll and ``advance`` (the turn
machine without event objects) for every roll, move and play-on answer; the players agree
to play on, as computers do, so a game lasts until three have finished (or the roll limit).
The same games are played again through ``apply``, which also makes the events. Each figure
is the best of ``--runs`` runs, since other work on the machine only ever slows a run down.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from parcheesi.core.actions import Roll
from parcheesi.core.state import Phase
from parcheesi.games.ludo import turns as ludo
from parcheesi.games.ludo.dice import ludo_dice
from parcheesi.games.ludo.moves import legal_moves
from parcheesi.games.ludo.state import LudoState, new_state
from parcheesi.games.parcheesi.analysis import outcomes_after_roll
from parcheesi.games.parcheesi.moves import RollPlan
from parcheesi.games.parcheesi.notation import request_from_json
from parcheesi.games.parcheesi.turns import Game, Move, apply, legal_actions, roll_plan


def random_games(games: int) -> tuple[int, float, list[float]]:
    """Play random games; return rolls, total seconds and per-roll enumeration times."""
    rolls = 0
    enumeration: list[float] = []
    started = time.perf_counter()
    for seed in range(games):
        rng = random.Random(seed)
        game = Game((0, 1, 2, 3), seed)
        while game.state.phase is not Phase.OVER:
            state = game.state
            if state.phase is Phase.MOVE:
                # The search the Roll action already ran, timed again from scratch.
                t0 = time.perf_counter()
                RollPlan(state).finals()
                enumeration.append(time.perf_counter() - t0)
                plan, _ = roll_plan(state)
                finals = plan.finals()
                for piece, spent in plan.path(rng.choice(sorted(finals))):
                    game.play(Move(piece, spent))
            else:
                game.play(rng.choice(legal_actions(state)))
        rolls += game.state.rolls
    # The repeated searches above are measurement only: leave them out of the rate.
    return rolls, time.perf_counter() - started - sum(enumeration), enumeration


WORST = {
    # Four-portion doubles for Ruby with all four pieces free on the track and lone opponents
    # within reach, so portions and 20-square bonuses capture in chains: the heaviest of 400
    # random such positions (881 distinct outcomes with 2-2).
    "turn": "ruby",
    "pieces": {"ruby": [13, 17, 20, 33],
               "emerald": [5, 20, 37, 38],
               "sapphire": ["start", 19, 33, 49],
               "amber": ["start", "start", "start", "start"]},
    "doubles": 0,
}


def worst_case() -> tuple[float, list[int], int]:
    """The slowest full roll (dice search plus every reward choice) over all doubles."""
    slowest = (0.0, [1, 1], 0)
    for a in range(1, 7):
        request = dict(WORST, dice=[a, a])
        state, dice = request_from_json(request)
        best = float("inf")
        count = 0
        for _ in range(5):
            t0 = time.perf_counter()
            count = len(outcomes_after_roll(state, dice))
            best = min(best, time.perf_counter() - t0)
        if best > slowest[0]:
            slowest = (best, [a, a], count)
    return slowest


def _with_events(state: LudoState, action: ludo.Action, dice: ludo.Dice = None
                 ) -> LudoState:
    return ludo.apply(state, action, dice)[0]


def ludo_game(seed: int, events: bool) -> LudoState:
    """One random 4-player Ludo game to its end, with or without the events."""
    rng = random.Random(seed)
    dice = ludo_dice(seed)
    step: Callable[..., LudoState] = _with_events if events else ludo.advance
    roll, agree = Roll(), ludo.PlayOn(True)
    moving, asking, over = Phase.MOVE, Phase.PLAY_ON, Phase.OVER
    state = new_state((0, 1, 2, 3))
    while True:
        phase = state.phase
        if phase is moving:
            moves = legal_moves(state)
            state = step(state, moves[int(rng.random() * len(moves))][4])
        elif phase is asking:
            state = step(state, agree)
        elif phase is over:
            return state
        else:
            state = step(state, roll, dice)


def ludo_games(games: int, runs: int, events: bool) -> tuple[float, float, float, int]:
    """Over ``runs`` runs of the same games: the best rate (games per second) by the clock,
    the median by the clock, the best per second of the process's own CPU time (which
    other work on the machine does not count), and the rolls of one run."""
    wall, cpu = [], []
    rolls = 0
    for _ in range(runs):
        started, used = time.perf_counter(), time.process_time()
        rolls = sum(ludo_game(seed, events).rolls for seed in range(games))
        wall.append(games / (time.perf_counter() - started))
        cpu.append(games / (time.process_time() - used))
    return max(wall), statistics.median(wall), max(cpu), rolls


def ludo_main(games: int, runs: int) -> None:
    best, median, cpu, rolls = ludo_games(games, runs, events=False)
    with_events, with_events_median, with_events_cpu, _ = ludo_games(games, runs,
                                                                     events=True)
    result = {
        "machine": f"{platform.machine()}, {platform.python_implementation()} "
                   f"{platform.python_version()}",
        "game": "ludo",
        "games": games,
        "runs": runs,
        "rolls_per_game": round(rolls / games, 1),
        "games_per_second": round(best),
        "games_per_second_median": round(median),
        "games_per_cpu_second": round(cpu),
        "rolls_per_second": round(best * rolls / games),
        "with_events": {"games_per_second": round(with_events),
                        "games_per_second_median": round(with_events_median),
                        "games_per_cpu_second": round(with_events_cpu)},
        "load_average": [round(x, 2) for x in os.getloadavg()],
    }
    print(json.dumps(result, indent=2))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--game", choices=("parcheesi", "ludo"), default="parcheesi")
    parser.add_argument("--runs", type=int, default=5, help="Ludo: runs to take the best of")
    args = parser.parse_args()
    if args.game == "ludo":
        ludo_main(args.games, args.runs)
        return
    rolls, seconds, enumeration = random_games(args.games)
    enumeration.sort()
    worst, dice, outcomes = worst_case()
    # Check the worst position really is heavy: count its enumerated dice end nodes.
    state, _ = request_from_json(dict(WORST, dice=dice))
    rolled, _ = apply(state, Roll(), (dice[0], dice[1]))
    finals = len(RollPlan(rolled).finals())
    result = {
        "machine": f"{platform.machine()}, {platform.python_implementation()} "
                   f"{platform.python_version()}",
        "games": args.games,
        "rolls": rolls,
        "rolls_per_second": round(rolls / seconds),
        "enumeration_ms": {
            "p50": round(statistics.median(enumeration) * 1000, 3),
            "p99": round(enumeration[int(0.99 * len(enumeration))] * 1000, 3),
            "max": round(enumeration[-1] * 1000, 3),
        },
        "worst_position": {"dice": dice, "dice_end_positions": finals,
                           "outcomes_with_rewards": outcomes, "ms": round(worst * 1000, 2)},
    }
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
