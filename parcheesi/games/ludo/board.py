"""Ludo's board as pure data (docs/rules/ludo.md 2): colours, the 52-square track, start squares,
stars, home lanes and the house-rule names.

A piece is described by its *progress* from its own colour's start square: ``YARD`` (-1),
0..50 on the shared track, 51..55 in its private home lane, ``HOME`` (56). Everything here is
a constant, a small pure function or a table computed once, so the rules, the notation and
the drawing share one source of geometric truth and the rules' hot path only looks things up.
"""

from __future__ import annotations

COLOURS: tuple[str, ...] = ("red", "green", "yellow", "blue")
"""Colour names in the order pieces travel round the board (and turns pass); a colour is
referred to by its index here."""
COLOUR_INDEX: dict[str, int] = {name: i for i, name in enumerate(COLOURS)}

YARD = -1
"""Progress of a piece in its yard (not yet out)."""
LAST_TRACK = 50
"""The last track progress before the colour's home lane."""
FIRST_LANE = 51
LANE_LENGTH = 5
HOME = 56
TRACK_LENGTH = 52
START_SQUARES: tuple[int, ...] = (0, 13, 26, 39)
"""Each colour's start square, where its pieces come out (safe for that colour only)."""
STARS: tuple[int, ...] = (8, 21, 34, 47)
"""The square 8 after each start square: safe for everyone under the ``stars`` house rule."""

HOUSE_RULES: tuple[str, ...] = ("stars", "third_six", "capture_all", "no_home_bonus",
                                "six_again")
"""The house rules a host may switch on (docs/rules/ludo.md 4), in the rules' order."""


def track_square(colour: int, progress: int) -> int | None:
    """The shared track square (0..51) of ``colour``'s piece at ``progress``; None off the
    track (yard, home lane, HOME)."""
    if 0 <= progress <= LAST_TRACK:
        return (START_SQUARES[colour] + progress) % TRACK_LENGTH
    return None


def is_track(progress: int) -> bool:
    return 0 <= progress <= LAST_TRACK


def is_lane(progress: int) -> bool:
    return FIRST_LANE <= progress < HOME


def progress_of_square(colour: int, square: int) -> int | None:
    """Inverse of :func:`track_square`: ``colour``'s progress on track ``square``, or None
    for the one square its pieces never stand on (the one just before its start square)."""
    progress = (square - START_SQUARES[colour]) % TRACK_LENGTH
    return progress if progress <= LAST_TRACK else None


def is_safe(colour: int, square: int, stars: bool) -> bool:
    """Whether a piece of ``colour`` standing on track ``square`` cannot be captured there:
    its own start square always, a star only under the ``stars`` house rule (docs/rules/ludo.md
    3.1, 4)."""
    return square == START_SQUARES[colour] or (stars and square in STARS)


def safe_progress(colour: int, progress: int, stars: bool) -> bool:
    """Whether ``colour``'s piece at ``progress`` stands on a track square safe for it."""
    square = track_square(colour, progress)
    return square is not None and is_safe(colour, square, stars)


# --- tables for the rules' hot path ----------------------------------------------------------

def _rivals(colour: int, progress: int) -> tuple[tuple[int, int], ...]:
    """(opponent, opponent's progress) of every opponent piece that a piece of ``colour``
    landing at ``progress`` could capture, its own start square excluded (safe for it)."""
    square = track_square(colour, progress)
    if square is None:
        return ()
    found = []
    for other in range(len(COLOURS)):
        if other == colour:
            continue
        theirs = progress_of_square(other, square)
        if theirs is not None and not is_safe(other, square, stars=False):
            found.append((other, theirs))
    return tuple(found)


RIVALS: tuple[tuple[tuple[tuple[int, int], ...], ...], ...] = tuple(
    tuple(_rivals(c, p) for p in range(HOME + 1)) for c in range(len(COLOURS)))
"""RIVALS[colour][progress]: where opponents that a landing at ``progress`` captures stand,
in their own progress (empty off the track)."""
ON_STAR: tuple[tuple[bool, ...], ...] = tuple(
    tuple(track_square(c, p) in STARS for p in range(HOME + 1)) for c in range(len(COLOURS)))
"""ON_STAR[colour][progress]: whether that progress is a star square."""


