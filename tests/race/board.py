"""The race's board as plain data: its colours and where a piece can be.

A piece is described by its *progress*: ``START`` (-1) while it waits, 0..11 on its own
colour's lane (no colour ever meets another), ``HOME`` (12) at the end.
"""

from __future__ import annotations

COLOURS: tuple[str, ...] = ("violet", "teal", "orange", "grey")
"""Colour names in turn order; a colour is referred to by its index."""
START = -1
HOME = 12
"""A piece HOME has come the twelve squares of its lane and one more."""
FIRST_LANE = 0


def finished(own: tuple[int, ...]) -> bool:
    """Whether every piece of a colour is HOME."""
    return all(p == HOME for p in own)
