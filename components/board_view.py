"""The board drawing: one SVG custom component that shows pieces, highlights and moves.

All geometry comes from :mod:`parcheesi.layout`; the browser side (``board.js``) only draws
what it is sent and animates the moves it is given. The static geometry is sent once: after
the first render, :meth:`Board._to_dict` leaves it out and asks the browser to keep its copy
(NiceGUI's ``preserved_props``), so each :meth:`Board.show` costs one small message with the
16 pieces, the highlights and the animation list, and never rebuilds elements.

Prop format (``geometry`` once, ``state`` on every ``show``: the JSON text of ``Board.view``,
which Python code reads as a dict), all lengths in board units of a
``0 0 1000 1000`` view box, numbers rounded to 0.1:

``geometry``
    ``size``: 1000; ``cell``: cell side;
    ``colours``: ``[[name, fill, dark, tint, mid], ...]`` per colour index;
    ``track``: ``[[x, y, w, h], ...]`` for squares 0..67; ``lanes``: ``[[colour, x, y, w, h]]``;
    ``safe``: ``[[cx, cy, colour or -1], ...]`` (-1: a star square, else an entry square);
    ``star``: SVG points of the star mark around the origin; ``starts``: ``[[cx, cy, r]]``;
    ``slots``: ``[[x, y], ...]`` START slots, 4 per colour; ``homes``: triangle points per
    colour; ``centre``: ``[x, y, w, h]``; ``label``: the board's accessible name;
    ``tap_reach``: how far from a landing marker's centre a tap takes it.
``state``
    ``seq``: show() counter (an animation plays once, for a new ``seq``); ``rotation``: 0..3;
    ``reduced``: no motion; ``active``: ``[0/1] * 4``;
    ``pieces``: ``[[colour, index, x, y, r, tap_r, flags, label, tap_x, tap_y, reach],
    ...]`` (tap_r: radius of the piece's own tap area; flags: 1 movable, 2 selected; a tap
    on no piece goes to the nearest movable piece whose disc ``tap_x, tap_y, reach`` holds
    it, see ``layout.tap_area``); ``targets``: ``[[x, y, r, colour], ...]``;
    ``moves``: ``[[colour, index, [x0, y0, x1, y1, ...], ms_per_step], ...]`` played in order;
    ``sound``: ``[kind, volume]`` or null, played once with this ``seq``;
    ``bursts``: ``[[x, y, words], ...]`` floated up from where a piece ends (a bonus);
    ``flashes``: ``[[x, y, delay_ms], ...]``: a ring flashed where a piece was sent back to
    START (a capture: a move ending in START), when its slide home begins; like ``moves``
    and ``bursts`` none with reduced motion;
    ``stamp``: the table's stamp (``presses.py``), sent back with a piece click.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from typing import Any

from nicegui import events, ui

from parcheesi.board import COLOURS, HOME, START, is_lane, is_track
from parcheesi.layout import (
    CELL,
    MAX_ANIMATION_MS,
    SIZE,
    TAP_REACH,
    Motion,
    centre_rect,
    hit_radius,
    home_triangle,
    lane_rect,
    path_points,
    piece_point,
    piece_radius,
    rect_centre,
    safe_squares,
    square_point,
    star_points,
    start_circle,
    start_slots,
    step_ms,
    tap_area,
    track_rect,
)

from .palette import PAINTS

PieceId = tuple[int, int]
"""(colour index 0..3, piece index 0..3)."""
Plan = tuple[int, int, list[tuple[float, float]], int, int, int]
"""One move as the board plays it: colour, piece, the points it passes, ms per step, when it
starts (ms after the show) and where it ends (progress)."""

BOARD_SHADES: tuple[tuple[str, str, str, str], ...] = tuple(
    (p.fill, p.dark, p.light, p.mid) for p in PAINTS)
"""Per colour, the shades ``board.js`` draws with (fill, dark, light, mid: see ``Paint``)."""

TARGET_RADIUS = 0.47 * CELL
HOME_TARGET_RADIUS = 0.75 * CELL
"""A landing marker takes a tap within ``layout.TAP_REACH`` of its centre, as a lone piece
does."""


def _r(value: float) -> float:
    return round(value, 1)


def _points(points: Iterable[tuple[float, float]]) -> str:
    """SVG ``points`` text."""
    return " ".join(f"{_r(x)},{_r(y)}" for x, y in points)


def _squares() -> dict[str, Any]:
    """The track's squares, the home lanes and the safe squares' marks."""
    safe = []
    for mark in safe_squares():
        x, y = rect_centre(track_rect(mark.square))
        safe.append([_r(x), _r(y), -1 if mark.colour is None else mark.colour])
    return {
        "track": [[_r(v) for v in track_rect(s)] for s in range(68)],
        "lanes": [[c, *(_r(v) for v in lane_rect(c, p))]
                  for c in range(len(COLOURS)) for p in range(64, 71)],
        "safe": safe,
    }


def _geometry() -> dict[str, Any]:
    """The static drawing, computed once per process."""
    colours = range(len(COLOURS))
    return {
        "size": SIZE,
        "cell": _r(CELL),
        "colours": [[name, *BOARD_SHADES[c]] for c, name in enumerate(COLOURS)],
        **_squares(),
        "star": _points(star_points(0.36 * CELL)),
        "starts": [[_r(v) for v in start_circle(c)] for c in colours],
        "slots": [[_r(x), _r(y)] for c in colours for x, y in start_slots(c)],
        "homes": [_points(home_triangle(c)) for c in colours],
        "centre": [_r(v) for v in centre_rect()],
        "label": "Parcheesi board",
        "tap_reach": _r(TAP_REACH),
    }


GEOMETRY = _geometry()


def default_label(colour: int, piece: int, progress: int) -> str:
    """The spoken name of a piece and where it stands, e.g. "Ruby piece 2, in START"."""
    name = f"{COLOURS[colour].capitalize()} piece {piece + 1}"
    if progress == START:
        return f"{name}, in START"
    if progress == HOME:
        return f"{name}, HOME"
    where = "on the track" if is_track(progress) else "in the home lane"
    return f"{name}, {where}, {HOME - progress} squares from home"


Spot = tuple[tuple[float, ...], tuple[float, ...]]
"""Where a piece is drawn ((x, y, radius, tap radius)) and its tap disc ((x, y, reach))."""


@functools.lru_cache(maxsize=256)
def _spots(pieces: tuple[tuple[int, ...], ...]) -> tuple[tuple[int, int, Spot], ...]:
    """(colour, index, spot) of every piece. A position is drawn by every tab of its game,
    and a roll redraws it unchanged: it is worked out once."""
    return tuple(
        (c, i, ((*(_r(v) for v in piece_point(c, i, pieces)), _r(piece_radius(c, i, pieces)),
                 _r(hit_radius(c, i, pieces))), tuple(_r(v) for v in tap_area(c, i, pieces))))
        for c, own in enumerate(pieces)
        for i in range(len(own))
    )


def _drawn(pieces: Sequence[Sequence[int]], movable: frozenset[PieceId],
           selected: PieceId | None, labels: Mapping[PieceId, str]) -> list[list[Any]]:
    """Every piece as the browser draws it: where, how large, its flags, its label and the
    disc a tap beside it reaches it in."""
    return [
        [c, i, *spot, (1 if (c, i) in movable else 0) | (2 if selected == (c, i) else 0),
         labels.get((c, i)) or default_label(c, i, pieces[c][i]), *tap]
        for c, i, (spot, tap) in _spots(tuple(tuple(own) for own in pieces))
    ]


def _bursts(bursts: Iterable[tuple[int, int, str]], pieces: Sequence[Sequence[int]]
            ) -> list[list[Any]]:
    """[x, y, words] of each burst, at its piece's drawn place."""
    return [[*(_r(v) for v in piece_point(c, i, pieces)), words] for c, i, words in bursts]


def _moves(plans: Iterable[Plan]) -> list[list[Any]]:
    """[colour, piece, flat points, ms per step] of each planned move, in order."""
    return [[colour, piece, [_r(v) for point in points for v in point], ms]
            for colour, piece, points, ms, _, _ in plans]


def _flashes(plans: Iterable[Plan]) -> list[list[float]]:
    """[x, y, delay] of each move that sends a piece back to START (a capture): where it was
    taken, when its slide begins."""
    return [[*(_r(v) for v in points[0]), t0]
            for _, _, points, _, t0, end in plans if end == START]


def _target_ring(colour: int, progress: int) -> list[float]:
    """Where a landing preview goes: the square or lane cell, or the colour's HOME triangle."""
    if progress == HOME:
        (ax, ay), (bx, by), (cx, cy) = home_triangle(colour)
        return [_r((ax + bx + cx) / 3), _r((ay + by + cy) / 3), _r(HOME_TARGET_RADIUS), colour]
    if not (is_track(progress) or is_lane(progress)):
        raise ValueError(f"not a landing progress: {progress}")
    x, y = square_point(colour, progress)
    return [_r(x), _r(y), _r(TARGET_RADIUS), colour]


class Board(ui.element, component="board.js"):
    """The whole board as one SVG; pieces are buttons when the caller says they may move."""

    def __init__(self, on_piece_click: Callable[[int, int, Any], Any] | None = None,
                 on_target_click: Callable[[int, int, Any], Any] | None = None) -> None:
        """:param on_piece_click: called with (colour, piece index, the stamp the board
        showed) when a movable piece is clicked or activated from the keyboard; may be a
        coroutine function.
        :param on_target_click: called with (colour, progress, stamp) when a landing marker
        that has a label (see :meth:`show`) is tapped or activated."""
        super().__init__()
        self._on_piece_click = on_piece_click
        self._on_target_click = on_target_click
        self._tappable: list[tuple[int, int] | None] = []
        self._movable: frozenset[PieceId] = frozenset()
        self._shown: Sequence[Sequence[int]] = ()
        self._seq = 0
        self._geometry_sent = False
        self._set_view({
            "seq": 0,
            "rotation": 0,
            "reduced": False,
            "active": [0, 0, 0, 0],
            "pieces": [],
            "targets": [],
            "moves": [],
            "sound": None,
            "bursts": [],
            "flashes": [],
            "stamp": "",
        })
        self.on("piece_click", self._handle_piece_click)
        self.on("target_click", self._handle_target_click)

    def show(
        self,
        pieces: Sequence[Sequence[int]],
        *,
        movable: Collection[PieceId] = frozenset(),
        selected: PieceId | None = None,
        targets: Iterable[tuple[int, int]] = (),
        target_labels: Sequence[str | None] = (),
        labels: Mapping[PieceId, str] | None = None,
        rotation: int = 0,
        moves: Iterable[Motion] = (),
        reduced_motion: bool = False,
        sound: Sequence[Any] | None = None,
        bursts: Iterable[tuple[int, int, str]] = (),
        stamp: str = "",
    ) -> None:
        """Draw ``pieces`` (the engine's per-colour progress tuples; ``()`` = inactive colour).

        ``movable`` pieces become focusable buttons; ``targets`` are (colour, progress)
        landing squares to preview, those with a ``target_labels`` entry (by position) are
        buttons (``board-target``) that take that landing; ``rotation`` quarter turns bring
        Emerald (1), Sapphire (2) or Amber (3) to the bottom; ``moves`` are animated in order,
        square by square, unless ``reduced_motion``. A new show() ends any animation still
        playing. ``sound`` (``[kind, volume]``) is played once by the page's
        ``parcheesiSound``. ``bursts`` are (colour, piece, words) floated up from a piece
        where it ends, e.g. the bonus a capture earned (not with reduced motion). A move
        that sends a piece back to START (a capture) flashes a ring where it was taken.
        """
        movable_set = frozenset(movable)
        shown_targets = list(targets)
        names = [*target_labels, *[None] * (len(shown_targets) - len(target_labels))]
        self._tappable = [t if name else None for t, name in zip(shown_targets, names,
                                                                  strict=True)]
        drawn = _drawn(pieces, movable_set, selected, labels or {})
        self._movable = movable_set
        self._seq += 1
        plans = [] if reduced_motion else self._plans(list(moves), pieces)
        self._set_view({
            "seq": self._seq,
            "rotation": rotation % 4,
            "reduced": reduced_motion,
            "active": [1 if c < len(pieces) and pieces[c] else 0 for c in range(len(COLOURS))],
            "pieces": drawn,
            "targets": [[*_target_ring(c, p), name] for (c, p), name in zip(
                shown_targets, names, strict=True)],
            "moves": _moves(plans),
            "sound": list(sound) if sound else None,
            "bursts": [] if reduced_motion else _bursts(bursts, pieces),
            "flashes": _flashes(plans),
            "stamp": stamp,
        })
        self._shown = pieces

    def _set_view(self, view: dict[str, Any]) -> None:
        """Keep ``view`` and send it as one JSON string: NiceGUI would otherwise wrap every
        nested list in an observable and the socket layer would walk them all, for every
        client on every action."""
        self.view = view
        self._props["state"] = json.dumps(view, separators=(",", ":"))

    def _plans(self, moves: list[Motion], pieces: Sequence[Sequence[int]]) -> list[Plan]:
        """The path of every move, starting where the piece was drawn and ending where it will
        be drawn (a piece sharing a square sits off-centre), with the time per step (all
        together at most ``MAX_ANIMATION_MS``), when it starts and where it ends."""
        paths = []
        for colour, piece, start, end in moves:
            points = path_points(colour, start, end, piece)
            before = self._shown
            if (
                colour < len(before)
                and piece < len(before[colour])
                and before[colour][piece] == start
            ):
                points[0] = piece_point(colour, piece, before)
            if pieces[colour][piece] == end:
                points[-1] = piece_point(colour, piece, pieces)
            paths.append((colour, piece, points, step_ms(end), end))
        total = sum((len(points) - 1) * ms for _, _, points, ms, _ in paths)
        scale = min(1.0, MAX_ANIMATION_MS / total) if total else 1.0
        plans, t0 = [], 0
        for colour, piece, points, ms, end in paths:
            step = round(ms * scale)
            plans.append((colour, piece, points, step, t0, end))
            t0 += (len(points) - 1) * step
        return plans

    def _handle_piece_click(self, e: events.GenericEventArguments) -> Any:
        """The browser only reports movable pieces, but its word is checked against ours.

        The callback's result is returned so that NiceGUI awaits a coroutine in the board's
        UI context, as it does for its own handlers.
        """
        args = e.args if isinstance(e.args, dict) else {}
        piece = (args.get("colour"), args.get("piece"))
        if self._on_piece_click is None or piece not in self._movable:
            return None
        return self._on_piece_click(*piece, args.get("stamp"))

    def _handle_target_click(self, e: events.GenericEventArguments) -> Any:
        """A tapped landing marker, by its place in the last show(); only labelled ones."""
        args = e.args if isinstance(e.args, dict) else {}
        index = args.get("index")
        if (self._on_target_click is None or type(index) is not int
                or not 0 <= index < len(self._tappable)):
            return None
        target = self._tappable[index]
        if target is None:
            return None
        return self._on_target_click(*target, args.get("stamp"))

    def _to_dict(self) -> dict[str, Any]:
        """Add the static geometry to the first render only; later updates keep the browser's
        copy. (It is no regular prop, which NiceGUI would resend with every update.) Adding
        event listeners after construction would make the browser re-create the element from
        such an update, so Board registers all it needs at once."""
        dict_ = super()._to_dict()
        if self._geometry_sent:
            dict_.setdefault("preserved_props", []).append("geometry")
        else:
            dict_["props"] = {**dict_.get("props", {}), "geometry": GEOMETRY}
            self._geometry_sent = True
        return dict_
