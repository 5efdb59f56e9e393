"""Strength and speed of the computer players, measured with the simulator.

    python benchmarks/ai.py [--games 2000] [--workers 2]

Each row plays seeded games with seats and colours rotated (two-player games over both
opposite pairs) and prints the first player's win rate with its 95% interval, and every
player's decision time.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from parcheesi.simulate import simulate

ROWS = [
    (["hard", "random"], 0.95),
    (["hard", "medium"], 0.62),
    (["medium", "easy"], 0.62),
    (["easy", "random"], 0.60),
    (["hard", "random", "random", "random"], 0.70),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    for players, target in ROWS:
        result = simulate(players, args.games, args.seed, workers=args.workers)
        first = players[0]
        rate = result["win_rate"][first]  # type: ignore[index]
        print(json.dumps({
            "players": ",".join(players),
            "games": args.games,
            "first_wins": rate,
            "target": target,
            "meets_target": rate["rate"] >= target,
            "mean_rolls": round(float(result["mean_rolls"]), 1),  # type: ignore[arg-type]
            "decision_ms": result["decision_ms"],
        }), flush=True)


if __name__ == "__main__":
    main()
