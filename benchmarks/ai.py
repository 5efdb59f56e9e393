"""Strength and speed of the computer players, measured with the simulator.

    python benchmarks/ai.py [--game parcheesi|ludo] [--games 2000] [--workers 2]

Each row plays seeded games with seats and colours rotated (two-player games over every
pair of colours the game allows) and prints the first player's win rate with its 95%
interval, and every player's decision time. ``--game ludo`` plays Ludo's rows (no house
rules), whose targets include Hard's decision time (p99 at most ``LUDO_HARD_P99_MS``).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from parcheesi.server.simulate import simulate

ROWS = [
    (["hard", "random"], 0.95),
    (["hard", "medium"], 0.62),
    (["medium", "easy"], 0.62),
    (["easy", "random"], 0.60),
    (["hard", "random", "random", "random"], 0.70),
]

LUDO_ROWS = [
    (["hard", "random"], 0.82),
    (["hard", "medium"], 0.60),
    (["medium", "easy"], 0.60),
    (["easy", "random"], 0.55),
    (["hard", "random", "random", "random"], 0.52),
]
LUDO_HARD_P99_MS = 20.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", choices=("parcheesi", "ludo"), default="parcheesi")
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    ludo = args.game == "ludo"
    for players, target in LUDO_ROWS if ludo else ROWS:
        result = simulate(players, args.games, args.seed, workers=args.workers, kind=args.game)
        first = players[0]
        rate = result["win_rate"][first]  # type: ignore[index]
        decision_ms: dict[str, dict[str, float]] = result["decision_ms"]  # type: ignore[assignment]
        meets = rate["rate"] >= target
        if ludo and "hard" in decision_ms:
            meets = meets and decision_ms["hard"]["p99"] <= LUDO_HARD_P99_MS
        print(json.dumps({
            "game": args.game,
            "players": ",".join(players),
            "games": args.games,
            "first_wins": rate,
            "target": target,
            "meets_target": meets,
            "draws": result["draws"],
            "mean_rolls": round(float(result["mean_rolls"]), 1),  # type: ignore[arg-type]
            "decision_ms": decision_ms,
        }), flush=True)


if __name__ == "__main__":
    main()
