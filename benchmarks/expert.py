"""Expert's strength, speed and the calibration of its win chances, for each game that has a
learned evaluation.

    python benchmarks/expert.py rows [--game parcheesi|ludo] [--games 2000] [--workers 2]
                                     [--only NAME ...]
    python benchmarks/expert.py calibration [--game ...] [--games 2000] [--players self|hard]
    python benchmarks/expert.py selfplay [--game ...] [--games 200]

``rows`` plays seeded games with seats and colours rotated (``parcheesi.server.simulate``) for
each match of the game's ``ROWS`` and prints one JSON line per row: the first player's win
rate (its share of wins, in games of three or four) with its 95% Wilson interval, the target
where the issue sets one, and every player's decision times (p50 / p99 / max, in ms). For
Parcheesi, ``grace`` is the published "Amazing Grace" evaluation
(``parcheesi/games/parcheesi/grace.py``); for Ludo, ``points`` is the classic points
heuristic (``parcheesi/games/ludo/points.py``).

``calibration`` plays the training's tables (two, three and four players in turn, and for
Ludo half of them with house rules) and, at every position between rolls, reads each playing
colour's win chance off the learned evaluation; it then sorts the (chance, won) pairs into
ten bins of predicted chance and prints each bin's count, mean prediction and actual win
rate. ``--players self`` plays the learned evaluation against itself (the play it was trained
to predict); ``--players hard``, Hard against Hard. Target: within 3 points in every bin with
at least 100 positions.

``selfplay`` measures the training's self-play speed: games and positions per second in
one process (the training runs one such process per core).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from parcheesi.core.learning.learner import Learner
from parcheesi.core.learning.selfplay import greedy_end
from parcheesi.core.learning.training import learner_of
from parcheesi.core.registry import AnyRules, rules_for
from parcheesi.core.state import Phase
from parcheesi.server.simulate import game_seed, simulate

ROWS: dict[str, list[tuple[list[str], float | None]]] = {
    "parcheesi": [
        (["expert", "hard"], 0.58),
        (["expert", "hard", "hard", "hard"], 0.36),
        (["expert", "medium"], None),
        (["expert", "random"], None),
        (["expert", "grace"], None),
        (["expert", "grace", "grace", "grace"], None),
        (["hard", "grace"], None),
        (["hard", "grace", "grace", "grace"], None),
        (["expert", "medium", "medium", "medium"], None),
        (["expert", "random", "random", "random"], None),
    ],
    "ludo": [
        (["expert", "hard"], 0.58),
        (["expert", "hard", "hard", "hard"], 0.31),
        (["expert", "points"], None),
        (["expert", "points", "points", "points"], None),
        (["hard", "points"], None),
        (["hard", "points", "points", "points"], None),
        (["expert", "medium"], None),
        (["expert", "random"], None),
    ],
}
EXPERT_MS = {"parcheesi": {"p50": 30.0, "p99": 300.0, "max": 1000.0},
             "ludo": {"p50": 20.0, "p99": 150.0, "max": 500.0}}
CALIBRATION_POINTS = 0.03
CALIBRATION_COUNT = 100


def machine() -> str:
    return (f"{os.cpu_count()} cores, {platform.machine()}, "
            f"{platform.python_implementation()} {platform.python_version()}")


def rows(kind: str, games: int, workers: int, seed: int, only: list[str]) -> None:
    for players, target in ROWS[kind]:
        name = ",".join(players)
        if only and name not in only:
            continue
        started = time.perf_counter()
        result = simulate(players, games, seed, workers=workers, kind=kind)
        first = players[0]
        rate = result["win_rate"][first]  # type: ignore[index]
        times: dict[str, dict[str, float]] = result["decision_ms"]  # type: ignore[assignment]
        meets = None if target is None else rate["rate"] >= target
        if first == "expert":
            fast = all(times["expert"][k] <= limit for k, limit in EXPERT_MS[kind].items())
            meets = fast if meets is None else meets and fast
        print(json.dumps({"game": kind, "players": name, "games": games, "seed": seed,
                          "first_wins": rate, "target": target, "meets_target": meets,
                          "mean_rolls": round(float(result["mean_rolls"]), 1),  # type: ignore[arg-type]
                          "decision_ms": times, "minutes": round(
                              (time.perf_counter() - started) / 60, 1),
                          "machine": machine(), "load": os.getloadavg()}), flush=True)


def _finished(rules: AnyRules, state: Any) -> bool:
    return rules.winner(state) is not None or rules.over(state)


def _calibration_game(args: tuple[str, int, int, str]) -> list[tuple[float, int]]:
    """(predicted chance, won) for every playing colour at every position between rolls
    of one game (a drawn game is won by nobody)."""
    kind, seed, index, players = args
    rules = rules_for(kind)
    learner = learner_of(kind)
    assert rules.expert is not None
    colours, house = learner.tables(index)
    state = learner.new_game(colours, house)
    dice = learner.dice(game_seed(seed, index))
    seen: list[Any] = []
    while not _finished(rules, state):
        if state.phase is Phase.ROLL:
            seen.append(state)
        if rules.rolling(state):
            state = learner.roll(state, dice)
        elif players == "self":
            state = greedy_end(learner, rules.expert.network(), state)
        else:
            state = rules.decide(state, "hard").state
    winner = rules.winner(state)
    pairs: list[tuple[float, int]] = []
    for chances in rules.expert.chances_of(seen):
        pairs += [(chance, int(colour == winner)) for colour, chance in chances.items()]
    return pairs


def calibration(kind: str, games: int, workers: int, seed: int, players: str) -> None:
    jobs = [(kind, seed, k, players) for k in range(games)]
    with ProcessPoolExecutor(workers) as pool:
        pairs = [p for game in pool.map(_calibration_game, jobs, chunksize=20) for p in game]
    bins: list[list[tuple[float, int]]] = [[] for _ in range(10)]
    for chance, won in pairs:
        bins[min(9, int(chance * 10))].append((chance, won))
    table_rows = []
    worst = 0.0
    for k, members in enumerate(bins):
        if not members:
            continue
        predicted = sum(c for c, _ in members) / len(members)
        actual = sum(w for _, w in members) / len(members)
        half = 1.96 * math.sqrt(max(actual * (1 - actual), 1e-9) / len(members))
        if len(members) >= CALIBRATION_COUNT:
            worst = max(worst, abs(predicted - actual))
        table_rows.append({"bin": f"{k / 10:.1f}-{(k + 1) / 10:.1f}", "positions": len(members),
                           "predicted": round(predicted, 4), "actual": round(actual, 4),
                           "actual_95": [round(actual - half, 4), round(actual + half, 4)],
                           "difference": round(actual - predicted, 4)})
    print(json.dumps({"game": kind, "games": games, "seed": seed, "players": players,
                      "positions": len(pairs), "bins": table_rows,
                      "largest_difference": round(worst, 4),
                      "meets_target": worst <= CALIBRATION_POINTS, "machine": machine()},
                     indent=1), flush=True)


def selfplay_speed(kind: str, games: int, seed: int) -> None:
    learner: Learner = learner_of(kind)
    rules = rules_for(kind)
    assert rules.expert is not None
    net = rules.expert.network()
    positions = 0
    started = time.perf_counter()
    for index in range(games):
        colours, house = learner.tables(index)
        state = learner.new_game(colours, house)
        dice = learner.dice(game_seed(seed, index))
        while not _finished(rules, state):
            if rules.rolling(state):
                positions += state.phase is Phase.ROLL
                state = learner.roll(state, dice)
            else:
                state = greedy_end(learner, net, state)
    seconds = time.perf_counter() - started
    print(json.dumps({"game": kind, "games": games,
                      "games_per_second": round(games / seconds, 2),
                      "positions_per_second": round(positions / seconds),
                      "tables": "the training's (2, 3 and 4 players in turn)",
                      "machine": machine(), "load": os.getloadavg()}), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", choices=("rows", "calibration", "selfplay"))
    parser.add_argument("--game", choices=sorted(ROWS), default="parcheesi")
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--only", nargs="*", default=[], help="rows to play, e.g. expert,hard")
    parser.add_argument("--players", choices=("self", "hard"), default="self")
    args = parser.parse_args()
    if args.what == "rows":
        rows(args.game, args.games, args.workers, args.seed, args.only)
    elif args.what == "calibration":
        calibration(args.game, args.games, args.workers, args.seed, args.players)
    else:
        selfplay_speed(args.game, args.games, args.seed)


if __name__ == "__main__":
    main()
