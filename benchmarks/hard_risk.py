"""Hard's capture risk: how well it predicts its pieces' danger, and what it is worth.

    python benchmarks/hard_risk.py versus [--games 2000] [--workers 2] [--players 2|4]
    python benchmarks/hard_risk.py calibration [--games 300] [--players 2|4]

Hard judges each exposed piece by the chance that an opponent captures it during their
whole next turn (``risk.turn_capture_chances``: one roll, the rerolls after doubles, and the
20-square bonus of a capture made elsewhere). Earlier it looked at one roll only
(``risk.capture_chances``).

``versus`` plays Hard against "one-roll Hard" (Hard with the one-roll risk in both of its
risk terms, the earlier Hard), seats and colours rotated as in ``parcheesi.server.simulate``, and
prints Hard's win rate (its share of wins at a table of four) with its 95% interval.

``calibration`` plays Hard against Hard and, whenever a colour's turn ends, notes each of
its exposed pieces with both predictions; a piece counts as captured if an opponent takes
it before that colour rolls again. It prints the pieces, the captures, the captures each
prediction expected and their ratio (1.0 is a perfect prediction on average), and the
same per band of predicted chance.
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import json
import sys
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from expert import machine  # benchmarks/expert.py

from parcheesi.core.events import Captured
from parcheesi.core.registry import rules_for
from parcheesi.core.state import Phase
from parcheesi.games.parcheesi import ai, risk
from parcheesi.games.parcheesi.dice import seeded
from parcheesi.games.parcheesi.state import State, new_state
from parcheesi.games.parcheesi.turns import apply
from parcheesi.server.simulate import game_seed, seating, wilson

ONE_ROLL = "one-roll"
BANDS = (0.0, 0.05, 0.1, 0.2, 0.3, 0.5, 1.01)


@contextmanager
def _one_roll_risk() -> Iterator[None]:
    """Hard as it was: its risk terms read the one-roll chances (this process only)."""
    whole_turn = getattr(ai, "turn_capture_chances")  # noqa: B009 (not re-exported by ai)
    setattr(ai, "turn_capture_chances", risk.capture_chances)  # noqa: B010
    try:
        yield
    finally:
        setattr(ai, "turn_capture_chances", whole_turn)  # noqa: B010


def _decide(state: State, name: str) -> ai.Decision:
    with _one_roll_risk() if name == ONE_ROLL else contextlib.nullcontext():
        return ai.decide(state, "hard")


def _versus_game(args: tuple[list[str], int, int]) -> str:
    """The winner's name of one seeded game."""
    players, seed, index = args
    seats = seating(rules_for("parcheesi"), players, index)
    state = new_state(tuple(seats))
    dice = seeded(game_seed(seed, index))
    while state.winner is None:
        for action in _decide(state, seats[state.turn]).actions:
            state, _ = apply(state, action, dice)
    return seats[state.winner]


def versus(games: int, workers: int, seed: int, count: int) -> None:
    players = ["hard", *[ONE_ROLL] * (count - 1)]
    jobs = [(players, seed, k) for k in range(games)]
    with ProcessPoolExecutor(workers) as pool:
        winners = list(pool.map(_versus_game, jobs, chunksize=20))
    wins = winners.count("hard")
    print(json.dumps({"players": ",".join(players), "games": games, "seed": seed,
                      "hard_wins": wilson(wins, games), "fair_share": round(1 / count, 4),
                      "machine": machine()}), flush=True)


Watch = tuple[dict[int, float], dict[int, float], set[int]]
"""One colour's exposed pieces at the end of its turn: the one-roll and whole-turn
chances, and the pieces captured since."""


def _calibration_game(args: tuple[int, int, int]) -> list[tuple[float, float, int]]:
    """(one-roll chance, whole-turn chance, captured) for every exposed piece at the end
    of every turn of one Hard-against-Hard game."""
    seed, index, count = args
    colours = (0, 2) if count == 2 else tuple(range(count))
    state = new_state(colours)
    dice = seeded(game_seed(seed, index))
    watching: dict[int, Watch] = {}
    samples: list[tuple[float, float, int]] = []
    mover = -1
    while state.winner is None:
        if state.phase is Phase.ROLL and state.turn != mover:
            done = watching.pop(state.turn, None)
            if done is not None:
                one, whole, taken = done
                samples += [(one[i], whole[i], int(i in taken)) for i in one]
            if mover >= 0:
                watching[mover] = (risk.capture_chances(state.pieces, mover),
                                   risk.turn_capture_chances(state.pieces, mover), set())
            mover = state.turn
        for action in ai.decide(state, "hard").actions:
            state, events = apply(state, action, dice)
            for event in events:
                if isinstance(event, Captured) and event.colour in watching:
                    watching[event.colour][2].add(event.piece)
    return samples


def calibration(games: int, workers: int, seed: int, count: int) -> None:
    jobs = [(seed, k, count) for k in range(games)]
    with ProcessPoolExecutor(workers) as pool:
        samples = [s for game in pool.map(_calibration_game, jobs, chunksize=10) for s in game]
    captured = sum(taken for _, _, taken in samples)
    report: dict[str, object] = {"players": count, "games": games, "seed": seed,
                                 "pieces": len(samples), "captured": captured}
    for name, k in (("one_roll", 0), ("whole_turn", 1)):
        expected = sum(s[k] for s in samples)
        bands = []
        for low, high in itertools.pairwise(BANDS):
            members = [s for s in samples if low <= s[k] < high]
            if members:
                bands.append({"band": f"{low:.2f}-{min(high, 1.0):.2f}", "pieces": len(members),
                              "predicted": round(sum(s[k] for s in members) / len(members), 4),
                              "actual": round(sum(s[2] for s in members) / len(members), 4)})
        report[name] = {"expected": round(expected, 1),
                        "actual_over_expected": round(captured / expected, 3) if expected else None,
                        "bands": bands}
    report["machine"] = machine()
    print(json.dumps(report, indent=1), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", choices=("versus", "calibration"))
    parser.add_argument("--games", type=int)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--players", type=int, choices=(2, 4), default=2)
    args = parser.parse_args()
    if args.what == "versus":
        versus(args.games or 2000, args.workers, args.seed, args.players)
    else:
        calibration(args.games or 300, args.workers, args.seed, args.players)


if __name__ == "__main__":
    main()
