"""The learned evaluation: a small network giving each seat's chance to win a position.

One hidden layer (ReLU) over the board units and the derived terms of a game's encoding
(:class:`~.learner.Encoding`), and one output per slot; a softmax over the slots of the
colours still racing turns the outputs into chances that add up to one. A batch of
positions (every end position of a roll) costs one gather of the first layer's rows and
two small matrix products, so numpy's per-call overhead is paid once per roll, not once per
position.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from .learner import SLOTS, Encoded, Encoding

Array = npt.NDArray[np.float64]
__all__ = ["WEIGHT_NAMES", "Array", "Encoded", "Network", "absent_mask", "softmax"]

WEIGHT_NAMES = ("sparse", "dense", "hidden_bias", "out", "out_bias")


@dataclass
class Network:
    """Weights of the evaluation (``float64`` while training, ``float32`` for play and in
    the file)."""

    sparse: Array
    """(sparse units + 1, hidden): the first layer's row of each board unit; the last row,
    the padding unit's, stays zero."""
    dense: Array
    """(dense units, hidden): the first layer's rows of the derived terms."""
    hidden_bias: Array
    out: Array
    """(hidden, 4): one output per slot."""
    out_bias: Array
    absent_unit: int
    """The encoding's unit of slot 0 being absent (:attr:`Encoding.absent_unit`)."""

    @property
    def pad_unit(self) -> int:
        """The padding unit: the first layer's last row."""
        return len(self.sparse) - 1

    @classmethod
    def fresh(cls, hidden: int, rng: np.random.Generator, encoding: Encoding) -> Network:
        """Small random weights (He initialisation for the ReLU layer)."""
        scale = np.sqrt(2 / encoding.units_on)
        sparse = rng.normal(0, scale, (encoding.sparse_units + 1, hidden))
        sparse[encoding.pad_unit] = 0.0
        return cls(sparse=sparse, dense=rng.normal(0, scale, (encoding.dense_units, hidden)),
                   hidden_bias=np.zeros(hidden),
                   out=rng.normal(0, np.sqrt(1 / hidden), (hidden, SLOTS)),
                   out_bias=np.zeros(SLOTS), absent_unit=encoding.absent_unit)

    @classmethod
    def load(cls, path: Path, encoding: Encoding) -> Network:
        """Weights for play, kept as ``float32``: half the memory traffic per product.
        ValueError if the file's weights do not fit the encoding."""
        with np.load(path) as data:
            arrays = [data[name].astype(np.float32) for name in WEIGHT_NAMES]
        if arrays[0].shape[0] != encoding.sparse_units + 1 or (
                arrays[1].shape[0] != encoding.dense_units):
            raise ValueError(f"{path.name} was trained for another encoding")
        return cls.of(arrays, encoding.absent_unit)

    @classmethod
    def of(cls, arrays: list[Array], absent_unit: int) -> Network:
        """The network of weight arrays in :data:`WEIGHT_NAMES`' order."""
        sparse, dense, hidden_bias, out, out_bias = arrays
        return cls(sparse, dense, hidden_bias, out, out_bias, absent_unit)

    def save(self, path: Path) -> None:
        """Write the weights as ``float32`` (half the size; the play is the same to well
        within the training's own noise)."""
        with path.open("wb") as out:
            np.savez_compressed(out, **{name: getattr(self, name).astype(np.float32)
                                        for name in WEIGHT_NAMES})

    def arrays(self) -> list[Array]:
        """The weight arrays, in :data:`WEIGHT_NAMES`' order (what the training updates)."""
        return [getattr(self, name) for name in WEIGHT_NAMES]

    def chances(self, encoded: list[Encoded]) -> Array:
        """(batch, 4): each slot's chance to win (0 for an absent slot)."""
        units = np.array([on for on, _ in encoded], dtype=np.intp)
        dense = np.array([terms for _, terms in encoded], dtype=self.dense.dtype)
        pre = self.sparse[units].sum(axis=1) + dense @ self.dense + self.hidden_bias
        hidden = np.maximum(pre, 0.0)
        return softmax(hidden @ self.out + self.out_bias, absent_mask(units, self.absent_unit))


def absent_mask(units: npt.NDArray[np.integer], absent_unit: int) -> npt.NDArray[np.bool_]:
    """(batch, 4): which slots are absent (inactive or finished colours), from a batch's
    board units."""
    marks = units[:, :, None] == absent_unit + np.arange(SLOTS)
    mask: npt.NDArray[np.bool_] = marks.any(axis=1)
    return mask


def softmax(logits: Array, absent: npt.NDArray[np.bool_]) -> Array:
    """Chances over the slots present; absent slots get exactly 0."""
    shifted = np.where(absent, -np.inf, logits)
    shifted = shifted - shifted.max(axis=1, keepdims=True)
    weights = np.exp(shifted)
    result: Array = weights / weights.sum(axis=1, keepdims=True)
    return result
