"""Expert's strength, speed and the calibration of its win chances.

    python benchmarks/expert.py rows [--games 2000] [--workers 2] [--only NAME ...]
    python benchmarks/expert.py calibration [--games 2000] [--players self|hard]
    python benchmarks/expert.py selfplay [--games 200]

``rows`` plays seeded games with seats and colours rotated (``parcheesi.server.simulate``) for
each match of ``ROWS`` and prints one JSON line per row: the first player's win rate (its
share of wins, in games of four) with its 95% Wilson interval, the target where the issue
sets one, and every player's decision times (p50 / p99 / max, in ms). ``grace`` is the
published "Amazing Grace" evaluation (``parcheesi/games/parcheesi/grace.py``).

``calibration`` plays games at tables of two, three and four (rotating) and, at every
position between rolls, reads each playing colour's win chance off the learned evaluation;
it then sorts the (chance, won) pairs into ten bins of predicted chance and prints each
bin's count, mean prediction and actual win rate. ``--players self`` plays the learned
evaluation against itself (the play it was trained to predict); ``--players hard``, Hard
against Hard. Target: within 3 points in every bin with at least 100 positions.

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

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from parcheesi.core.actions import Roll
from parcheesi.core.state import Phase
from parcheesi.games.parcheesi import ai, expert
from parcheesi.games.parcheesi.dice import seeded
from parcheesi.games.parcheesi.expert.selfplay import greedy, table
from parcheesi.games.parcheesi.state import State, new_state
from parcheesi.games.parcheesi.turns import apply
from parcheesi.server.simulate import game_seed, simulate

ROWS: list[tuple[list[str], float | None]] = [
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
]
EXPERT_MS = {"p50": 30.0, "p99": 300.0, "max": 1000.0}
CALIBRATION_POINTS = 0.03
CALIBRATION_COUNT = 100


def machine() -> str:
    return (f"{os.cpu_count()} cores, {platform.machine()}, "
            f"{platform.python_implementation()} {platform.python_version()}")


def rows(games: int, workers: int, seed: int, only: list[str]) -> None:
    for players, target in ROWS:
        name = ",".join(players)
        if only and name not in only:
            continue
        started = time.perf_counter()
        result = simulate(players, games, seed, workers=workers)
        first = players[0]
        rate = result["win_rate"][first]  # type: ignore[index]
        times: dict[str, dict[str, float]] = result["decision_ms"]  # type: ignore[assignment]
        meets = None if target is None else rate["rate"] >= target
        if first == "expert":
            fast = all(times["expert"][k] <= limit for k, limit in EXPERT_MS.items())
            meets = fast if meets is None else meets and fast
        print(json.dumps({"players": name, "games": games, "seed": seed,
                          "first_wins": rate, "target": target, "meets_target": meets,
                          "mean_rolls": round(float(result["mean_rolls"]), 1),  # type: ignore[arg-type]
                          "decision_ms": times, "minutes": round(
                              (time.perf_counter() - started) / 60, 1),
                          "machine": machine(), "load": os.getloadavg()}), flush=True)


def _calibration_game(args: tuple[int, int, str]) -> list[tuple[float, int]]:
    """(predicted chance, won) for every playing colour at every position between rolls
    of one game."""
    seed, index, players = args
    colours = table(index)
    state = new_state(colours)
    dice = seeded(game_seed(seed, index))
    seen: list[tuple[State, int]] = []
    while state.winner is None:
        if state.phase is Phase.ROLL:
            seen.append((state, len(seen)))
        if state.phase in (Phase.OPENING, Phase.ROLL):
            state, _ = apply(state, Roll(), dice)
        elif players == "self":
            state = greedy(expert.network(), state)
        else:
            state = ai.decide(state, "hard").state
    winner = state.winner
    pairs: list[tuple[float, int]] = []
    for position, _ in seen:
        for colour, chance in expert.chances(position).items():
            pairs.append((chance, int(colour == winner)))
    return pairs


def calibration(games: int, workers: int, seed: int, players: str) -> None:
    jobs = [(seed, k, players) for k in range(games)]
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
    print(json.dumps({"games": games, "seed": seed, "players": players,
                      "positions": len(pairs), "bins": table_rows,
                      "largest_difference": round(worst, 4),
                      "meets_target": worst <= CALIBRATION_POINTS, "machine": machine()},
                     indent=1), flush=True)


def selfplay_speed(games: int, seed: int) -> None:
    net = expert.network()
    positions = 0
    started = time.perf_counter()
    for index in range(games):
        state = new_state(table(index))
        dice = seeded(game_seed(seed, index))
        while state.winner is None:
            if state.phase in (Phase.OPENING, Phase.ROLL):
                positions += state.phase is Phase.ROLL
                state, _ = apply(state, Roll(), dice)
            else:
                state = greedy(net, state)
    seconds = time.perf_counter() - started
    print(json.dumps({"games": games, "games_per_second": round(games / seconds, 2),
                      "positions_per_second": round(positions / seconds),
                      "tables": "2, 3 and 4 players in turn", "machine": machine(),
                      "load": os.getloadavg()}), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", choices=("rows", "calibration", "selfplay"))
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--only", nargs="*", default=[], help="rows to play, e.g. expert,hard")
    parser.add_argument("--players", choices=("self", "hard"), default="self")
    args = parser.parse_args()
    if args.what == "rows":
        rows(args.games, args.workers, args.seed, args.only)
    elif args.what == "calibration":
        calibration(args.games, args.workers, args.seed, args.players)
    else:
        selfplay_speed(args.games, args.seed)


if __name__ == "__main__":
    main()
