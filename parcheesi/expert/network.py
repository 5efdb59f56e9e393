"""The learned evaluation: a small network giving each seat's chance to win a position.

One hidden layer over the sparse board units and the derived terms of
:mod:`.encoding`, and one output per slot; a softmax over the slots of the colours still
racing turns the outputs into chances that add up to one. Evaluating a batch of positions
(every end position of a roll) costs one gather of the first layer's rows and two small
matrix products, so numpy's per-call overhead is paid once per roll, not once per position.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from .encoding import ABSENT_UNIT, DENSE_UNITS, SPARSE_UNITS

Array = npt.NDArray[np.float64]
Encoded = tuple[list[int], list[float]]

WEIGHT_NAMES = ("sparse", "dense", "hidden_bias", "out", "out_bias")


@dataclass
class Network:
    """Weights of the evaluation (``float64``; the file keeps them as ``float32``)."""

    sparse: Array
    """(SPARSE_UNITS, hidden): the first layer's row of each board unit."""
    dense: Array
    """(DENSE_UNITS, hidden): the first layer's rows of the derived terms."""
    hidden_bias: Array
    out: Array
    """(hidden, 4): one output per slot."""
    out_bias: Array

    @classmethod
    def fresh(cls, hidden: int, rng: np.random.Generator) -> Network:
        """Small random weights (He initialisation for the ReLU layer)."""
        fan_in = 40.0  # about how many units are on in a position
        return cls(sparse=rng.normal(0, np.sqrt(2 / fan_in), (SPARSE_UNITS, hidden)),
                   dense=rng.normal(0, np.sqrt(2 / fan_in), (DENSE_UNITS, hidden)),
                   hidden_bias=np.zeros(hidden),
                   out=rng.normal(0, np.sqrt(1 / hidden), (hidden, 4)),
                   out_bias=np.zeros(4))

    @classmethod
    def load(cls, path: Path) -> Network:
        with np.load(path) as data:
            return cls(*(data[name].astype(np.float64) for name in WEIGHT_NAMES))

    def save(self, path: Path) -> None:
        """Write the weights as ``float32`` (half the size; the play is the same to well
        within the training's own noise)."""
        with path.open("wb") as out:
            np.savez_compressed(out, **{name: getattr(self, name).astype(np.float32)
                                        for name in WEIGHT_NAMES})

    def arrays(self) -> list[Array]:
        return [getattr(self, name) for name in WEIGHT_NAMES]

    def hidden_pre(self, encoded: list[Encoded]) -> Array:
        """The first layer before its activation, for a batch of encoded positions."""
        flat: list[int] = []
        offsets: list[int] = []
        for units, _ in encoded:
            offsets.append(len(flat))
            flat += units
        rows = np.add.reduceat(self.sparse[flat], offsets, axis=0)
        dense = np.array([terms for _, terms in encoded])
        pre: Array = rows + dense @ self.dense + self.hidden_bias
        return pre

    def chances(self, encoded: list[Encoded]) -> Array:
        """(batch, 4): each slot's chance to win (0 for an absent slot)."""
        hidden = np.maximum(self.hidden_pre(encoded), 0.0)
        logits = hidden @ self.out + self.out_bias
        return softmax(logits, absent_mask(encoded))


def absent_mask(encoded: list[Encoded]) -> npt.NDArray[np.bool_]:
    """(batch, 4): which slots are absent (inactive or finished colours)."""
    mask = np.zeros((len(encoded), 4), dtype=bool)
    for row, (units, _) in enumerate(encoded):
        for unit in units:
            if ABSENT_UNIT <= unit < ABSENT_UNIT + 4:
                mask[row, unit - ABSENT_UNIT] = True
    return mask


def softmax(logits: Array, absent: npt.NDArray[np.bool_]) -> Array:
    """Chances over the slots present; absent slots get exactly 0."""
    shifted = np.where(absent, -np.inf, logits)
    shifted = shifted - shifted.max(axis=1, keepdims=True)
    weights = np.exp(shifted)
    result: Array = weights / weights.sum(axis=1, keepdims=True)
    return result
