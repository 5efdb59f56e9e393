"""Training a game's learned evaluation by self-play: ``python -m parcheesi train --game KIND``.

Each iteration plays a batch of self-play games with the current network
(:mod:`.selfplay`), computes their TD(lambda) targets, and fits the network to them with a
few passes of Adam over minibatches (cross-entropy between the target chances and the
network's). Training on the newest games only keeps it on-policy, like TD-Gammon's online
updates, while the batch form lets numpy do the arithmetic.

Everything is seeded (games from the run's seed, the iteration and the game's number; the
minibatch order from the seed and the iteration), and a checkpoint after every iteration
holds the whole training state, so a run stopped at any point goes on exactly where it
stopped, and the same settings give the same weights (floating-point sums may differ on
another machine's numpy).
"""

from __future__ import annotations

import json
import os
import platform
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from ..registry import rules_for
from .learner import Learner
from .network import WEIGHT_NAMES, Array, Network, absent_mask, softmax
from .selfplay import Samples, play_games

CHUNK = 25
"""Games per task handed to a worker process (small, so the two cores stay busy)."""


@dataclass(frozen=True)
class Settings:
    game: str
    """The game's kind (its learner: ``GameRules.learner``)."""
    seed: int = 2026
    hidden: int = 128
    games: int = 2000
    """Self-play games per iteration."""
    lam: float = 0.7
    learning_rate: float = 0.001
    halving: int = 30
    """Iterations over which the learning rate halves (a smooth decay)."""
    batch: int = 256
    epochs: int = 2
    """Passes over each iteration's samples."""
    teacher_share: float = 0.0
    """The share of each iteration's games played by the game's teacher
    (:attr:`.Learner.teacher`) rather than by the network..."""
    teacher_from: int = 0
    """...from this iteration on (so a run can go on from a checkpoint made without them)."""

    def share(self, iteration: int) -> float:
        """The teacher's share of iteration ``iteration``'s games."""
        return self.teacher_share if iteration >= self.teacher_from else 0.0

    def command(self, iterations: int) -> str:
        """The command line that trains these settings for ``iterations`` iterations."""
        line = (f"python -m parcheesi train --game {self.game} --seed {self.seed} "
                f"--games {self.games} --hidden {self.hidden} --lam {self.lam}")
        if self.teacher_share:
            line += f" --teacher-share {self.teacher_share} --teacher-from {self.teacher_from}"
        return f"{line} --iterations {iterations}"


@dataclass
class Batch:
    """Samples in arrays: the board units (padded), the derived terms, the absent slots and
    the targets."""

    units: npt.NDArray[np.int16]
    dense: npt.NDArray[np.float32]
    absent: npt.NDArray[np.bool_]
    targets: npt.NDArray[np.float32]

    @classmethod
    def of(cls, samples: Samples, absent_unit: int) -> Batch:
        units = np.array([on for on, _ in samples.inputs], dtype=np.int16)
        dense = np.array([terms for _, terms in samples.inputs], dtype=np.float32)
        return cls(units, dense.reshape(len(units), -1), absent_mask(units, absent_unit),
                   samples.targets.astype(np.float32))

    def take(self, rows: npt.NDArray[np.int64]) -> Batch:
        return Batch(self.units[rows], self.dense[rows], self.absent[rows], self.targets[rows])


class Adam:
    """Adam's moment estimates for each weight array."""

    def __init__(self, shapes: list[tuple[int, ...]], rate: float) -> None:
        self.rate = rate
        self.step = 0
        self.first = [np.zeros(s) for s in shapes]
        self.second = [np.zeros(s) for s in shapes]

    def update(self, weights: list[Array], grads: list[Array]) -> None:
        self.step += 1
        b1, b2, eps = 0.9, 0.999, 1e-8
        scale = self.rate * np.sqrt(1 - b2 ** self.step) / (1 - b1 ** self.step)
        for w, g, m, v in zip(weights, grads, self.first, self.second, strict=True):
            m *= b1
            m += (1 - b1) * g
            v *= b2
            v += (1 - b2) * g * g
            w -= scale * m / (np.sqrt(v) + eps)


def gradients(net: Network, batch: Batch) -> tuple[float, list[Array]]:
    """The mean cross-entropy of the batch and its gradient for every weight array."""
    n = len(batch.targets)
    board = np.zeros((n, net.pad_unit + 1), dtype=np.float32)
    board[np.arange(n)[:, None], batch.units] = 1.0
    board[:, net.pad_unit] = 0.0  # the padding unit is never on: its row stays zero
    pre = board @ net.sparse + batch.dense @ net.dense + net.hidden_bias
    hidden = np.maximum(pre, 0.0)
    chances = softmax(hidden @ net.out + net.out_bias, batch.absent)
    targets = batch.targets
    loss = -float(np.sum(targets * np.log(np.where(targets > 0, chances, 1.0) + 1e-12))) / n
    d_logits = (chances - targets) / n
    d_hidden = (d_logits @ net.out.T) * (pre > 0)
    return loss, [board.T @ d_hidden, batch.dense.T @ d_hidden, d_hidden.sum(axis=0),
                  hidden.T @ d_logits, d_logits.sum(axis=0)]


def fit(net: Network, adam: Adam, batch: Batch, settings: Settings, rng: np.random.Generator
        ) -> float:
    """``settings.epochs`` passes of Adam over ``batch`` in shuffled minibatches; the mean
    loss of the last pass."""
    losses: list[float] = []
    for _ in range(settings.epochs):
        order = rng.permutation(len(batch.targets))
        losses = []
        for start in range(0, len(order), settings.batch):
            loss, grads = gradients(net, batch.take(order[start:start + settings.batch]))
            adam.update(net.arrays(), grads)
            losses.append(loss)
    return float(np.mean(losses)) if losses else 0.0


def learner_of(kind: str) -> Learner:
    """The learner of game ``kind``; ValueError naming the games that learn if it has none."""
    learner = rules_for(kind).learner
    if learner is None:
        raise ValueError(f"{kind} has no learned evaluation")
    return learner


def _chunk(args: tuple[str, Network, int, int, list[int], float, float]
           ) -> tuple[Samples, dict[str, float]]:
    kind, net, seed, iteration, indices, lam, share = args
    return play_games(learner_of(kind), net, seed, iteration, indices, lam, share)


def self_play(net: Network, settings: Settings, iteration: int, workers: int
              ) -> tuple[Samples, int]:
    """This iteration's games (in ``workers`` processes; the samples do not depend on how
    many) and how many positions they gave."""
    chunks = [(settings.game, net, settings.seed, iteration,
               list(range(k, min(k + CHUNK, settings.games))), settings.lam,
               settings.share(iteration))
              for k in range(0, settings.games, CHUNK)]
    if workers <= 1:
        results = [_chunk(c) for c in chunks]
    else:
        with ProcessPoolExecutor(workers) as pool:
            results = list(pool.map(_chunk, chunks))
    parts = [samples for samples, _ in results]
    return Samples.join(parts), int(sum(summary["positions"] for _, summary in results))


@dataclass
class Checkpoint:
    """The whole training state after ``iteration`` iterations."""

    settings: Settings
    iteration: int
    net: Network
    adam: Adam
    seconds: float
    """Training time so far (self-play and fitting), over every piece of the run."""

    @classmethod
    def start(cls, settings: Settings) -> Checkpoint:
        encoding = learner_of(settings.game).encoding
        net = Network.fresh(settings.hidden, np.random.default_rng(settings.seed), encoding)
        return cls(settings, 0, net, Adam([w.shape for w in net.arrays()],
                                          settings.learning_rate), 0.0)

    def save(self, path: Path) -> None:
        arrays: dict[str, Any] = {f"w{k}": w for k, w in enumerate(self.net.arrays())}
        arrays |= {f"m{k}": m for k, m in enumerate(self.adam.first)}
        arrays |= {f"v{k}": v for k, v in enumerate(self.adam.second)}
        meta = {"settings": asdict(self.settings), "iteration": self.iteration,
                "step": self.adam.step, "seconds": self.seconds}
        partial = path.with_suffix(".partial")
        with partial.open("wb") as out:
            np.savez(out, **arrays, meta=np.array(json.dumps(meta)))
        partial.replace(path)  # a stop while writing leaves the previous checkpoint whole

    @classmethod
    def load(cls, path: Path) -> Checkpoint:
        """The checkpoint in ``path``; ValueError saying so if it is not a whole one."""
        try:
            return cls._read(path)
        except (OSError, EOFError, KeyError, TypeError, ValueError) as error:
            raise ValueError(f"{path} is not a whole training checkpoint ({error}): move "
                             "it away to start again") from None

    @classmethod
    def _read(cls, path: Path) -> Checkpoint:
        with np.load(path) as data:
            meta = json.loads(str(data["meta"]))
            settings = Settings(**meta["settings"])
            count = len(WEIGHT_NAMES)
            absent = learner_of(settings.game).encoding.absent_unit
            net = Network.of([data[f"w{k}"] for k in range(count)], absent)
            adam = Adam([w.shape for w in net.arrays()], settings.learning_rate)
            adam.first = [data[f"m{k}"] for k in range(count)]
            adam.second = [data[f"v{k}"] for k in range(count)]
            adam.step = meta["step"]
        return cls(settings, meta["iteration"], net, adam, meta["seconds"])


def resumed(point: Checkpoint, settings: Settings) -> Settings:
    """The settings a run going on from ``point`` trains with: the checkpoint's, but for a
    teacher asked for from an iteration not reached yet (it has changed nothing so far, so
    the run is the same as one made with it from the start)."""
    if settings.teacher_share and settings.teacher_from >= point.iteration:
        return replace(point.settings, teacher_share=settings.teacher_share,
                       teacher_from=settings.teacher_from)
    return point.settings


def train(directory: Path, settings: Settings, iterations: int, workers: int,
          report: Callable[[dict[str, object]], None]) -> Checkpoint:
    """Train until ``iterations`` iterations are done, going on from the checkpoint in
    ``directory`` if there is one (its settings win but for :func:`resumed`'s teacher;
    ValueError if it is another game's), saving one after every iteration."""
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / "checkpoint.npz"
    point = Checkpoint.load(path) if path.exists() else Checkpoint.start(settings)
    if point.settings.game != settings.game:
        raise ValueError(f"{path} holds a training of {point.settings.game}, "
                         f"not {settings.game}")
    if learner_of(settings.game).teacher is None and settings.teacher_share:
        raise ValueError(f"{settings.game} has no teacher to play training games")
    point.settings = resumed(point, settings)
    while point.iteration < iterations:
        started = time.perf_counter()
        samples, positions = self_play(point.net, point.settings, point.iteration, workers)
        played = time.perf_counter()
        rng = np.random.default_rng([point.settings.seed, point.iteration])
        point.adam.rate = point.settings.learning_rate * 0.5 ** (
            point.iteration / point.settings.halving)
        loss = fit(point.net, point.adam, Batch.of(samples, point.net.absent_unit),
                   point.settings, rng)
        point.iteration += 1
        point.seconds += time.perf_counter() - started
        point.save(path)
        report({"iteration": point.iteration, "positions": positions, "loss": round(loss, 5),
                "self_play_s": round(played - started, 1),
                "fit_s": round(time.perf_counter() - played, 1),
                "total_h": round(point.seconds / 3600, 3)})
    return point


def export(point: Checkpoint, path: Path) -> None:
    """Write the weights for play, with a note of how they were trained beside them."""
    path.parent.mkdir(parents=True, exist_ok=True)
    point.net.save(path)
    note = {"settings": asdict(point.settings), "iterations": point.iteration,
            "games": point.iteration * point.settings.games,
            "training_hours": round(point.seconds / 3600, 2),
            "machine": f"{os.cpu_count()} cores, {platform.machine()}, "
                       f"{platform.python_implementation()} {platform.python_version()}, "
                       f"numpy {np.__version__}",
            "command": point.settings.command(point.iteration)}
    path.with_suffix(".json").write_text(json.dumps(note, indent=2) + "\n")
