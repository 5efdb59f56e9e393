"""The board drawing: one SVG custom component that shows pieces, highlights and moves.

All geometry comes from the game's layout (its look's
:class:`~parcheesi.core.geometry.BoardLayout`: the same names in every game, so one
component draws any game); the browser side (``board.js``) only draws what it is sent and
animates the moves it is given. The static geometry is sent once: after the first render,
:meth:`Board._to_dict` leaves it out and asks the browser to keep its copy (NiceGUI's
``preserved_props``), so each :meth:`Board.show` costs one small message with the pieces,
the highlights and the animation list, and never rebuilds elements.

Prop format (``geometry`` once, ``state`` on every ``show``: the JSON text of ``Board.view``,
which Python code reads as a dict), all lengths in board units of a
``0 0 1000 1000`` view box, numbers rounded to 0.1:

``geometry``
    ``size``: 1000; ``cell``: cell side;
    ``colours``: ``[[name, fill, dark, tint, mid], ...]`` per colour index;
    ``track``: ``[[x, y, w, h], ...]`` per track square; ``lanes``: ``[[colour, x, y, w, h]]``;
    ``yards``: ``[[x, y, w, h], ...]`` per colour where the board has yards, else ``[]``;
    ``safe``: ``[[cx, cy, colour or -1], ...]`` (-1: a star square, else an entry square);
    ``star``: SVG points of the star mark around the origin; ``starts``: ``[[cx, cy, r]]``;
    ``slots``: ``[[x, y], ...]`` START slots, 4 per colour; ``homes``: triangle points per
    colour; ``centre``: ``[x, y, w, h]``; ``label``: the board's accessible name;
    ``tap_reach``: how far from a landing marker's centre a tap takes it; ``badge``:
    ``[dx, dy, r]``, the count badge of a stack, from its top piece's centre
    (``layout.COUNT_BADGE``).
``state``
    ``seq``: show() counter (an animation plays once, for a new ``seq``); ``rotation``: 0..3;
    ``reduced``: no motion; ``active``: ``[0/1] * 4``;
    ``pieces``: ``[[colour, index, x, y, r, tap_r, flags, label, tap_x, tap_y, reach,
    count], ...]`` in drawing order, each square's lower layers first (tap_r: radius of the
    piece's own tap area; flags: 1 movable, 2 selected, 4 under the top of a stack (drawn
    without the movable ring); a tap on no piece goes to the nearest movable piece whose
    disc ``tap_x, tap_y, reach`` holds it, see ``layout.tap_area``; count: on the top piece
    of a stack, three or more on one square, how many are there, drawn on its badge, else
    0; movable pieces are raised to a stack's top, see ``layout.stacking``); ``targets``:
    ``[[x, y, r, colour], ...]``;
    ``moves``: ``[[colour, index, [x0, y0, x1, y1, ...], ms_per_step], ...]`` played in order;
    ``sound``: ``[kind, volume]`` or null, played once with this ``seq``;
    ``bursts``: ``[[x, y, words], ...]`` floated up from where a piece ends (a bonus);
    ``flashes``: ``[[x, y, delay_ms], ...]``: a ring flashed where a piece was sent back to
    START (a capture: a move ending in START), when its slide home begins; like ``moves``
    and ``bursts`` none with reduced motion;
    ``stamp``: the table's stamp (``presses.py``), sent back with a piece click;
    ``explain``: the colour whose pieces that may not move report a tap (``piece_stuck``:
    learning mode), -1 for none.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from typing import Any

from nicegui import events, ui

from parcheesi.core.geometry import BoardLayout, Motion, PieceId
from parcheesi.core.look import Paint
from parcheesi.core.registry import AnyRules

from .updates import as_json

Plan = tuple[int, int, list[tuple[float, float]], int, int, int]
"""One move as the board plays it: colour, piece, the points it passes, ms per step, when it
starts (ms after the show) and where it ends (progress)."""


def _r(value: float) -> float:
    return round(value, 1)


def _points(points: Iterable[tuple[float, float]]) -> str:
    """SVG ``points`` text."""
    return " ".join(f"{_r(x)},{_r(y)}" for x, y in points)


def _squares(layout: BoardLayout, colours: int, house: Sequence[str]) -> dict[str, Any]:
    """The track's squares, the home lanes and the safe squares' marks."""
    safe = []
    for mark in layout.safe_squares(house):
        x, y = layout.rect_centre(layout.track_rect(mark.square))
        safe.append([_r(x), _r(y), -1 if mark.colour is None else mark.colour])
    return {
        "track": [[_r(v) for v in layout.track_rect(s)] for s in range(layout.TRACK_LENGTH)],
        "lanes": [[c, *(_r(v) for v in layout.lane_rect(c, p))]
                  for c in range(colours) for p in range(layout.FIRST_LANE, layout.HOME)],
        "safe": safe,
    }


@functools.lru_cache(maxsize=16)
def geometry(layout: BoardLayout, colours: tuple[str, ...], shades: tuple[Paint, ...],
             label: str, house: tuple[str, ...] = ()) -> dict[str, Any]:
    """The static drawing of a game's board (with its house rules' marks), worked out once."""
    cell = layout.CELL
    indices = range(len(colours))
    return {
        "size": layout.SIZE,
        "cell": _r(cell),
        "colours": [[name, s.fill, s.dark, s.light, s.mid] for name, s in zip(colours, shades,
                                                                              strict=True)],
        **_squares(layout, len(colours), house),
        "star": _points(layout.star_points(0.36 * cell)),
        "yards": [[_r(v) for v in rect] for rect in layout.yard_rects()],
        "starts": [[_r(v) for v in layout.start_circle(c)] for c in indices],
        "slots": [[_r(x), _r(y)] for c in indices for x, y in layout.start_slots(c)],
        "homes": [_points(layout.home_triangle(c)) for c in indices],
        "centre": [_r(v) for v in layout.centre_rect()],
        "label": label,
        "tap_reach": _r(layout.TAP_REACH),
        "badge": [_r(v) for v in layout.COUNT_BADGE],
    }


TARGET_RADIUS = 0.47
HOME_TARGET_RADIUS = 0.75
"""A landing marker's radius on a square and in a HOME triangle, in cells."""


Spot = tuple[tuple[float, ...], tuple[float, ...], int, int]
"""Where a piece is drawn ((x, y, radius, tap radius)), its tap disc ((x, y, reach)), the
count on it (0 but on a stack's top piece) and its flag 4 (a stack's piece under its top)."""


@functools.lru_cache(maxsize=256)
def _spots(layout: BoardLayout, pieces: tuple[tuple[int, ...], ...],
           on_top: frozenset[PieceId] = frozenset()) -> tuple[tuple[int, int, Spot], ...]:
    """(colour, index, spot) of every piece, in drawing order: every square's lower layers
    first (a stack's ``on_top`` pieces uppermost, see ``layout.stacking``). A position is
    drawn by every tab of its game: it is worked out once for each set of movable pieces."""
    drawn = []
    for c, own in enumerate(pieces):
        for i in range(len(own)):
            layer, stack = layout.stacking(c, i, pieces, on_top)
            top = layer == stack - 1
            spot = ((*(_r(v) for v in layout.piece_point(c, i, pieces, on_top)),
                     _r(layout.piece_radius(c, i, pieces)), _r(layout.hit_radius(c, i, pieces))),
                    tuple(_r(v) for v in layout.tap_area(c, i, pieces)), stack if top else 0,
                    4 if stack and not top else 0)
            drawn.append((layer, (c, i, spot)))
    return tuple(piece for _, piece in sorted(drawn, key=lambda item: item[0]))


def _moves(plans: Iterable[Plan]) -> list[list[Any]]:
    """[colour, piece, flat points, ms per step] of each planned move, in order."""
    return [[colour, piece, [_r(v) for point in points for v in point], ms]
            for colour, piece, points, ms, _, _ in plans]


def _flashes(plans: Iterable[Plan], start: int) -> list[list[float]]:
    """[x, y, delay] of each move that sends a piece back to ``start`` (a capture): where it
    was taken, when its slide begins."""
    return [[*(_r(v) for v in points[0]), t0]
            for _, _, points, _, t0, end in plans if end == start]


def _still(view: Mapping[str, Any]) -> bool:
    """Whether a view plays nothing (no move, sound, burst or flash): shown again unchanged,
    it would change nothing on screen."""
    return not (view["moves"] or view["sound"] or view["bursts"] or view["flashes"])


def _target_ring(layout: BoardLayout, colour: int, progress: int) -> list[float]:
    """Where a landing preview goes: the square or lane cell, or the colour's HOME triangle."""
    if progress == layout.HOME:
        (ax, ay), (bx, by), (cx, cy) = layout.home_triangle(colour)
        return [_r((ax + bx + cx) / 3), _r((ay + by + cy) / 3),
                _r(HOME_TARGET_RADIUS * layout.CELL), colour]
    if not (layout.is_track(progress) or layout.is_lane(progress)):
        raise ValueError(f"not a landing progress: {progress}")
    x, y = layout.square_point(colour, progress)
    return [_r(x), _r(y), _r(TARGET_RADIUS * layout.CELL), colour]


class Board(ui.element, component="board.js"):
    """The whole board as one SVG; pieces are buttons when the caller says they may move."""

    def __init__(self, rules: AnyRules,
                 on_piece_click: Callable[[int, int, Any], Any] | None = None,
                 on_target_click: Callable[[int, int, Any], Any] | None = None, *,
                 house: tuple[str, ...] = (),
                 on_stuck_click: Callable[[int, int], Any] | None = None) -> None:
        """:param rules: the game drawn: its look's layout, paints, board label and piece
        words, its colours.
        :param on_piece_click: called with (colour, piece index, the stamp the board
        showed) when a movable piece is clicked or activated from the keyboard; may be a
        coroutine function.
        :param on_target_click: called with (colour, progress, stamp) when a landing marker
        that has a label (see :meth:`show`) is tapped or activated.
        :param house: the house rules the board marks.
        :param on_stuck_click: called with (colour, piece index) when a piece of the colour
        :meth:`show` names as ``explain`` is tapped while it may not move (learning mode: the
        table says why); no action, so no stamp."""
        super().__init__()
        look = rules.look
        self.layout = look.layout
        self.colours = rules.colours
        self._geometry = geometry(look.layout, rules.colours, look.paints, look.board_label,
                                  house)
        self._piece_words = look.piece_label
        self._on_piece_click = on_piece_click
        self._on_target_click = on_target_click
        self._on_stuck_click = on_stuck_click
        self._explain: int | None = None
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
            "explain": -1,
        })
        self.on("piece_click", self._handle_piece_click)
        self.on("target_click", self._handle_target_click)
        self.on("piece_stuck", self._handle_stuck_click)

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
        explain: int | None = None,
    ) -> None:
        """Draw ``pieces`` (the engine's per-colour progress tuples; ``()`` = inactive colour).

        ``movable`` pieces become focusable buttons; ``targets`` are (colour, progress)
        landing squares to preview, those with a ``target_labels`` entry (by position) are
        buttons (``board-target``) that take that landing; ``rotation`` quarter turns bring
        the second (1), third (2) or fourth (3) colour to the bottom; ``moves`` are animated
        in order, square by square, unless ``reduced_motion``. A new show() ends any animation still
        playing. ``sound`` (``[kind, volume]``) is played once by the page's
        ``parcheesiSound``. ``bursts`` are (colour, piece, words) floated up from a piece
        where it ends, e.g. the bonus a capture earned (not with reduced motion). A move
        that sends a piece back to START (a capture) flashes a ring where it was taken.
        A tap on a piece of colour ``explain`` that may not move calls ``on_stuck_click``.
        """
        movable_set = frozenset(movable)
        shown_targets = list(targets)
        names = [*target_labels, *[None] * (len(shown_targets) - len(target_labels))]
        self._tappable = [t if name else None for t, name in zip(shown_targets, names,
                                                                  strict=True)]
        drawn = self._drawn(pieces, movable_set, selected, labels or {})
        plans = [] if reduced_motion else self._plans(list(moves), pieces, movable_set,
                                                      self._movable)
        self._movable = movable_set
        view = {
            "seq": self._seq + 1,
            "rotation": rotation % 4,
            "reduced": reduced_motion,
            "active": [1 if c < len(pieces) and pieces[c] else 0
                       for c in range(len(self.colours))],
            "pieces": drawn,
            "targets": [[*_target_ring(self.layout, c, p), name] for (c, p), name in zip(
                shown_targets, names, strict=True)],
            "moves": _moves(plans),
            "sound": list(sound) if sound else None,
            "bursts": [] if reduced_motion else self._bursts(bursts, pieces, movable_set),
            "flashes": _flashes(plans, self.layout.START),
            "stamp": stamp,
            "explain": -1 if explain is None else explain,
        }
        self._explain = explain
        self._shown = pieces
        if _still(view) and view == {**self.view, "seq": self._seq + 1}:
            return  # the same drawing, with nothing to play: the browser is not told
        self._seq += 1
        self._set_view(view)

    def _drawn(self, pieces: Sequence[Sequence[int]], movable: frozenset[PieceId],
               selected: PieceId | None, labels: Mapping[PieceId, str]) -> list[list[Any]]:
        """Every piece as the browser draws it, in drawing order (movable pieces raised to a
        stack's top): where, how large, its flags, its label, the disc a tap beside it
        reaches it in and the count on it."""
        return [
            [c, i, *spot,
             under | (1 if (c, i) in movable else 0) | (2 if selected == (c, i) else 0),
             labels.get((c, i)) or self._piece_words(self.colours[c].capitalize(), i,
                                                     pieces[c][i]), *tap, count]
            for c, i, (spot, tap, count, under) in _spots(
                self.layout, tuple(tuple(own) for own in pieces), movable)
        ]

    def _bursts(self, bursts: Iterable[tuple[int, int, str]], pieces: Sequence[Sequence[int]],
                on_top: frozenset[PieceId]) -> list[list[Any]]:
        """[x, y, words] of each burst, at its piece's drawn place."""
        return [[*(_r(v) for v in self.layout.piece_point(c, i, pieces, on_top)), words]
                for c, i, words in bursts]

    def _set_view(self, view: dict[str, Any]) -> None:
        """Keep ``view`` and send it as one JSON string (``as_json``)."""
        self.view = view
        self._props["state"] = as_json(view)

    def _plans(self, moves: list[Motion], pieces: Sequence[Sequence[int]],
               on_top: Collection[PieceId] = (), shown_on_top: Collection[PieceId] = ()
               ) -> list[Plan]:
        """The path of every move, starting where the piece was drawn and ending where it will
        be drawn (a piece sharing a square sits off-centre; ``shown_on_top`` and ``on_top``
        are the pieces raised to a stack's top before and after, the movable ones), with the
        time per step (all together at most the layout's ``MAX_ANIMATION_MS``), when it
        starts and where it ends."""
        layout, before = self.layout, self._shown
        paths = []
        for colour, piece, start, end in moves:
            points = layout.path_points(colour, start, end, piece)
            if (
                colour < len(before)
                and piece < len(before[colour])
                and before[colour][piece] == start
            ):
                points[0] = layout.piece_point(colour, piece, before, shown_on_top)
            if pieces[colour][piece] == end:
                points[-1] = layout.piece_point(colour, piece, pieces, on_top)
            paths.append((colour, piece, points, layout.step_ms(end), end))
        total = sum((len(points) - 1) * ms for _, _, points, ms, _ in paths)
        scale = min(1.0, layout.MAX_ANIMATION_MS / total) if total else 1.0
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
        if (self._on_piece_click is None or not all(type(v) is int for v in piece)
                or piece not in self._movable):  # (a list in the pair could not be looked up)
            return None
        return self._on_piece_click(*piece, args.get("stamp"))

    def _handle_stuck_click(self, e: events.GenericEventArguments) -> Any:
        """A tap on a piece that may not move, of the colour the board explains (checked
        against ours, as a piece click is)."""
        args = e.args if isinstance(e.args, dict) else {}
        colour, piece = args.get("colour"), args.get("piece")
        if (self._on_stuck_click is None or self._explain is None or type(colour) is not int
                or colour != self._explain or type(piece) is not int or not 0 <= piece < 4
                or (colour, piece) in self._movable):
            return None
        return self._on_stuck_click(colour, piece)

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
            dict_["props"] = {**dict_.get("props", {}), "geometry": self._geometry}
            self._geometry_sent = True
        return dict_
