"""Computer-only games for measuring the players (``python -m parcheesi simulate``).

Seats rotate so that every player sits in every seat equally: game ``g`` assigns colours by
rotating the player list by ``g``, and the colour sets the game allows (for Parcheesi's two
players, the two opposite pairs) take turns. Each game's dice seed is derived from the run's
seed and the game number, so the same seed gives the same games, whether run in one process
or several.

A game is measured by its winner, the first player to finish, so it stops there: the
computers would play on for the next places (both games ask a table of three or four), but
nothing after the first finish changes who won, and stopping saves the time. ``rolls`` is
then the game's length to its winner.
"""

from __future__ import annotations

import hashlib
import math
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from ..core.registry import DEFAULT_GAME, AnyRules, rules_for

MAX_ROLLS = 20_000
"""A game that has not ended after this many rolls is reported as an error."""


@dataclass
class GameResult:
    winner: str | None
    """The winning player's name; None for a draw (Ludo's roll limit)."""
    rolls: int
    """Rolls made until the game had its winner (or ended as a draw)."""
    decision_ms: dict[str, list[float]] = field(default_factory=dict)


def seating(rules: AnyRules, players: list[str], game_index: int) -> dict[int, str]:
    """Colour -> player name for game ``game_index``: the players rotate over the seats,
    and the colour sets the game allows for that many players take turns."""
    n = len(players)
    rotated = [players[(k + game_index) % n] for k in range(n)]
    sets = rules.colour_sets(n)
    colours = sets[(game_index // n) % len(sets)]
    return dict(zip(colours, rotated, strict=True))


def game_seed(seed: int, game_index: int) -> int:
    digest = hashlib.blake2b(f"{seed}:{game_index}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


def play_game(players: list[str], seed: int, game_index: int,
              kind: str = DEFAULT_GAME, house: tuple[str, ...] = ()) -> GameResult:
    """One game (with the house rules ``house``), played until it has a winner or ends;
    every decision but a plain roll is timed for its player."""
    rules = rules_for(kind)
    seats = seating(rules, players, game_index)
    state = rules.new_state(tuple(seats), house)
    dice = rules.dice(game_seed(seed, game_index))
    times: dict[str, list[float]] = {name: [] for name in players}
    while not rules.over(state) and rules.winner(state) is None:
        if rules.rolls(state) > MAX_ROLLS:
            raise RuntimeError(f"game {game_index} did not end after {MAX_ROLLS} rolls")
        name = seats[rules.turn(state)]
        rolling = rules.rolling(state)
        started = time.perf_counter()
        decision = rules.decide(state, name)
        if not rolling:
            times[name].append((time.perf_counter() - started) * 1000)
        for action in decision.actions:
            state, _ = rules.apply(state, action, dice)
    winner = rules.winner(state)
    return GameResult(None if winner is None else seats[winner], rules.rolls(state), times)


def _play_chunk(args: tuple[list[str], int, list[int], str, tuple[str, ...]]
                ) -> list[GameResult]:
    players, seed, indices, kind, house = args
    return [play_game(players, seed, g, kind, house) for g in indices]


def simulate(players: list[str], games: int, seed: int, workers: int = 1,
             kind: str = DEFAULT_GAME, house: tuple[str, ...] = ()) -> dict[str, object]:
    """Play ``games`` games of ``kind`` (with the house rules ``house``) and summarise
    wins, draws, length, speed and decision times."""
    rules = rules_for(kind)
    _check(rules, players, games, workers)
    rules.new_state(rules.colour_sets(len(players))[0], house)  # ValueError: unknown rule
    started = time.perf_counter()
    results = _play_all(players, games, seed, workers, kind, house)
    elapsed = time.perf_counter() - started
    names = list(dict.fromkeys(players))
    wins = {name: sum(1 for r in results if r.winner == name) for name in names}
    decision: dict[str, dict[str, float]] = {}
    for name in names:
        samples = sorted(t for r in results for t in r.decision_ms.get(name, []))
        decision[name] = _percentiles(samples)
    return {
        "game": kind,
        "players": players,
        "games": games,
        "seed": seed,
        "house": list(house),
        "wins": wins,
        "draws": sum(1 for r in results if r.winner is None),
        "win_rate": {name: wilson(wins[name], games) for name in names},
        "mean_rolls": statistics.fmean(r.rolls for r in results),
        "games_per_second": games / elapsed if elapsed > 0 else float("inf"),
        "decision_ms": decision,
    }


MOST_GAMES = 1_000_000
"""Games one run plays at most (hours of a machine's time; every game's result is kept
until the summary)."""
MOST_WORKERS = 64
"""Processes one run starts at most (each is a whole Python; more than the cores is no
faster)."""


def _check(rules: AnyRules, players: list[str], games: int, workers: int) -> None:
    for name in players:
        if name not in rules.levels:
            raise ValueError(f"unknown player {name!r} (use {', '.join(rules.levels)})")
    if not 2 <= len(players) <= 4:
        raise ValueError("a game needs 2 to 4 players")
    if not 1 <= games <= MOST_GAMES:
        raise ValueError(f"--games must be 1 to {MOST_GAMES}")
    if not 1 <= workers <= MOST_WORKERS:
        raise ValueError(f"--workers must be 1 to {MOST_WORKERS}")


def _play_all(players: list[str], games: int, seed: int, workers: int, kind: str,
              house: tuple[str, ...]) -> list[GameResult]:
    """Every game's result, in ``workers`` processes (the results do not depend on them)."""
    workers = min(workers, games)  # a process with no game to play is not started
    if workers <= 1:
        return _play_chunk((players, seed, list(range(games)), kind, house))
    chunks = [(players, seed, list(range(w, games, workers)), kind, house)
              for w in range(workers)]
    with ProcessPoolExecutor(workers) as pool:
        return [r for chunk in pool.map(_play_chunk, chunks) for r in chunk]


def wilson(wins: int, games: int) -> dict[str, float]:
    """The win rate with its 95% Wilson score interval."""
    z = 1.96
    rate = wins / games
    centre = (rate + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(rate * (1 - rate) / games + z * z / (4 * games * games)) / (
        1 + z * z / games)
    return {"rate": round(rate, 4), "low": round(max(0.0, centre - half), 4),
            "high": round(min(1.0, centre + half), 4)}


def _percentiles(samples: list[float]) -> dict[str, float]:
    if not samples:
        return {"p50": 0.0, "p99": 0.0, "max": 0.0, "count": 0}

    def at(q: float) -> float:
        return samples[min(len(samples) - 1, int(q * len(samples)))]

    return {"p50": round(at(0.5), 3), "p99": round(at(0.99), 3),
            "max": round(samples[-1], 3), "count": len(samples)}
