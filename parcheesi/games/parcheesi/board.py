"""Board geometry as pure data: colours, the 68-square track, safe squares, entries, lanes.

Every position is described per piece by its *progress* (docs/rules/parcheesi.md 2): ``START`` (-1),
0..63 on the track counted from the colour's own entry square, 64..70 in the private home
lane, and ``HOME`` (71). Everything in this module is a constant or a small pure function,
so the rules, the notation and the drawing all share one source of geometric truth.
"""

from __future__ import annotations

COLOURS: tuple[str, ...] = ("ruby", "emerald", "sapphire", "amber")
"""Colour names in the direction of travel; a colour is referred to by its index here."""

COLOUR_INDEX: dict[str, int] = {name: i for i, name in enumerate(COLOURS)}

TRACK_LENGTH = 68
LANE_LENGTH = 7
START = -1
LAST_TRACK = 63
"""Progress of the colour's own turn-off square, the last track square before its lane."""
FIRST_LANE = 64
HOME = 71

ENTRY_SHIFT = 5
SAFE_SQUARES: frozenset[int] = frozenset(
    s for c in range(4) for s in (17 * c, 17 * c + 5, 17 * c + 12)
)


def opposite(colour: int) -> int:
    """The colour across the board (Ruby/Sapphire, Emerald/Amber)."""
    return (colour + 2) % 4


def turn_off(colour: int) -> int:
    """Track square where the colour leaves the track for its home lane."""
    return 17 * colour


def entry_square(colour: int) -> int:
    """Track square where the colour's pieces enter from START (a safe square)."""
    return (turn_off(colour) + ENTRY_SHIFT) % TRACK_LENGTH


def track_square(colour: int, progress: int) -> int:
    """Track square (0..67) of a piece of ``colour`` at track progress 0..63."""
    return (turn_off(colour) + ENTRY_SHIFT + progress) % TRACK_LENGTH


def is_track(progress: int) -> bool:
    return 0 <= progress <= LAST_TRACK


def is_lane(progress: int) -> bool:
    return FIRST_LANE <= progress < HOME


def progress_of_square(colour: int, square: int) -> int:
    """Inverse of :func:`track_square`: the progress at which ``colour`` stands on ``square``."""
    return (square - turn_off(colour) - ENTRY_SHIFT) % TRACK_LENGTH


# Per colour, the track square and safety of every track progress 0..63: hot-path lookups.
TRACK_SQUARES: tuple[tuple[int, ...], ...] = tuple(
    tuple(track_square(c, p) for p in range(LAST_TRACK + 1)) for c in range(4)
)
SAFE_BY_PROGRESS: tuple[tuple[bool, ...], ...] = tuple(
    tuple(sq in SAFE_SQUARES for sq in TRACK_SQUARES[c]) for c in range(4)
)
