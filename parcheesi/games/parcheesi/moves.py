"""Single moves, the complete-sequence search for one roll, rewards and the penalty.

The search works in the *mover's coordinates*: every opponent piece on the track is placed
at the progress the mover would have on that square, so a move is a handful of integer
comparisons. A search node is ``(mover pieces, captured mask, remaining portions)``; the
captured mask has bit ``x`` set when the opponent single at mover progress ``x`` was sent to
START during this roll (only singles can be captured, so blockades never change).

Legality follows docs/rules/parcheesi.md 3.3: the best *metric* ``(entries, portions used)`` over
all complete sequences is the roll's target; a step is legal when some continuation still
reaches the target. A four-portion roll with no sequence using all four portions moves
nothing at all.
"""

from __future__ import annotations

from .board import HOME, LAST_TRACK, SAFE_BY_PROGRESS, START, TRACK_SQUARES, progress_of_square
from .state import State

Node = tuple[tuple[int, ...], int, tuple[int, ...]]
"""(mover pieces, captured mask, remaining portions in descending order)."""
Step = tuple[int, tuple[int, ...]]
"""(piece index, portions spent): an entry from START or one die portion on one piece."""

_NO_BLOCK = 99
"""``View.next_block`` where no blockade lies ahead: above HOME, so no move reaches it."""
_RELATIVE = tuple(
    tuple(tuple(progress_of_square(m, TRACK_SQUARES[c][p]) for p in range(LAST_TRACK + 1))
          for c in range(4))
    for m in range(4))
"""``_RELATIVE[m][c][p]``: the progress of colour ``m`` on the square where ``c`` is at ``p``."""


class View:
    """The board as the colour to move sees it: opponents placed in the mover's progress."""

    __slots__ = ("colour", "next_block", "opp_count", "opp_owner", "paired", "partner", "safe")

    def __init__(self, pieces: tuple[tuple[int, ...], ...], colour: int,
                 pairs: tuple[tuple[int, int], ...] = ()) -> None:
        self.colour = colour
        self.safe = SAFE_BY_PROGRESS[colour]
        # opp_count and next_block run to HOME so that ``move`` indexes them by any progress
        # without a range test: no opponent stands in the mover's lane, no blockade beyond it.
        count = [0] * (HOME + 1)
        owner: list[tuple[int, int] | None] = [None] * (LAST_TRACK + 1)
        for c, own in enumerate(pieces):
            if c == colour or not own:
                continue
            relative = _RELATIVE[colour][c]
            for k, p in enumerate(own):
                if 0 <= p <= LAST_TRACK:
                    x = relative[p]
                    if x <= LAST_TRACK:
                        count[x] += 1
                        owner[x] = (c, k)
        self.opp_count = count
        self.opp_owner = owner
        nxt = [_NO_BLOCK] * (HOME + 1)
        for x in range(LAST_TRACK, -1, -1):
            nxt[x] = x if count[x] == 2 else nxt[x + 1]
        self.next_block = nxt
        partner = [-1] * 4
        for i, j in pairs:
            partner[i], partner[j] = j, i
        self.partner = partner
        self.paired = bool(pairs)

    def enter(self, mover: tuple[int, ...], captured: int,
              i: int) -> tuple[tuple[int, ...], int, int] | None:
        """Piece ``i`` from START onto the entry square: (mover, captured, capture x or -1)."""
        if self.opp_count[0] == 2 or sum(1 for p in mover if p == 0) >= 2:
            return None
        new = mover[:i] + (0,) + mover[i + 1:]
        if self.opp_count[0] == 1 and not captured & 1:
            return new, captured | 1, 0
        return new, captured, -1

    def move(self, mover: tuple[int, ...], captured: int, i: int, n: int,
             blocks: tuple[int, ...] | None = None) -> tuple[tuple[int, ...], int, int] | None:
        """Piece ``i`` forward ``n`` squares: (mover, captured, capture x or -1), or None.

        ``blocks`` (the mover's own blockade squares) may be passed when already known.
        The hot path of the search: the opponent tables are padded to HOME (see ``__init__``)
        so no test needs a range check first, and only a mover with a blockade of its own
        pays a function call.
        """
        p = mover[i]
        q = p + n
        if p == START or q > HOME:
            return None
        if blocks is None:
            blocks = own_blockades(mover)
        if blocks and _crosses(blocks, p, q):
            return None
        # An opponent blockade on p+1..q (next_block holds _NO_BLOCK, above HOME, past one).
        if self.next_block[p + 1] <= q:
            return None
        # A pair that stood as a blockade when the turn began may not form one again.
        if q < HOME and q in mover and self.partner[i] == mover.index(q):
            return None
        new = mover[:i] + (q,) + mover[i + 1:]
        if self.opp_count[q] == 1 and not captured >> q & 1:
            if self.safe[q]:
                return None
            return new, captured | (1 << q), q
        return new, captured, -1


def _crosses(blocks: tuple[int, ...], p: int, q: int) -> bool:
    """Whether a move from ``p`` to ``q`` passes or lands on one of the mover's own
    ``blocks``. They all lie short of HOME, so ``q`` needs no cap at HOME - 1."""
    for x in blocks:  # noqa: SIM110 - a plain loop is 2.5 times faster than any() here
        if p < x <= q:
            return True
    return False


def own_blockades(mover: tuple[int, ...]) -> tuple[int, ...]:
    """Squares (as progress) where two of the mover's pieces stand together."""
    a, b, c, d = mover
    if a != b and a != c and a != d and b != c and b != d and c != d:
        return ()
    return tuple(x for x, y in ((a, b), (a, c), (a, d), (b, c), (b, d), (c, d))
                 if x == y and START < x < HOME)


class RollPlan:
    """Every complete legal sequence of one roll, found by one memoised depth-first search.

    Built from a state in the middle of a roll as well as at its start: the best metric
    from any node reached legally is the same whether counted from the roll's start or
    from that node, so a plan rebuilt after reading a state back is equivalent.
    """

    __slots__ = ("four", "leaves", "memo", "n_portions", "parent", "root", "start_count",
                 "step_cache", "target", "view")

    def __init__(self, state: State) -> None:
        self.view = View(state.pieces, state.turn, state.pairs)
        self.four = state.four
        self.n_portions = len(state.portions)
        mover = state.mover
        self.start_count = mover.count(START)
        self.root: Node = (mover, 0, state.portions)
        self.memo: dict[Node, tuple[int, int]] = {}
        """Best metric of any complete sequence through each node searched."""
        self.parent: dict[Node, tuple[Node, Step]] = {}
        """How each node was first reached: enough to rebuild one path to it."""
        self.leaves: list[Node] = []
        """Nodes where no further step is possible: the ends of complete sequences."""
        self.step_cache: dict[Node, list[tuple[Step, Node]]] = {}
        best = self.best(self.root)
        if self.four and best[1] < self.n_portions:
            self.target: tuple[int, int] | None = None
        else:
            self.target = best if best[1] > 0 else None

    def metric(self, node: Node) -> tuple[int, int]:
        mover, _, remaining = node
        return self.start_count - mover.count(START), self.n_portions - len(remaining)

    def best(self, node: Node) -> tuple[int, int]:
        """The best metric of any complete sequence through ``node``."""
        memo = self.memo
        found = memo.get(node)
        if found is not None:
            return found
        mover, _, remaining = node
        if len(remaining) == 1 and (remaining[0] != 5 or START not in mover):
            return self._last_portion(node)
        best = None
        parent = self.parent
        for step, child in self.children(node):
            m = memo.get(child)
            if m is None:
                if child not in parent:
                    parent[child] = (node, step)
                if child[2]:
                    m = self.best(child)
                else:  # every portion spent: a leaf, no search needed
                    m = memo[child] = (self.start_count - child[0].count(START), self.n_portions)
                    self.leaves.append(child)
            if best is None or m > best:
                best = m
        if best is None:
            best = self.metric(node)
            self.leaves.append(node)
        memo[node] = best
        return best

    def _last_portion(self, node: Node) -> tuple[int, int]:
        """``best`` for a node with one portion left that cannot enter a piece: its
        children are all leaves, so they are recorded directly (the hot path of a roll)."""
        mover, captured, (value,) = node
        memo, parent, leaves = self.memo, self.parent, self.leaves
        blocks = own_blockades(mover)
        move = self.view.move
        entries = self.start_count - mover.count(START)
        leaf = (entries, self.n_portions)
        moved = False
        for i in self._movers(mover, False):
            result = move(mover, captured, i, value, blocks)
            if result is None:
                continue
            moved = True
            child = (result[0], result[1], ())
            if child not in memo:
                memo[child] = leaf
                parent.setdefault(child, (node, (i, (value,))))
                leaves.append(child)
        if not moved:
            leaf = (entries, self.n_portions - 1)
            leaves.append(node)
        memo[node] = leaf
        return leaf

    def steps(self, node: Node) -> list[tuple[Step, Node]]:
        """Every step (any piece) from ``node`` that begins a complete legal sequence."""
        if self.target is None:
            return []
        found = self.step_cache.get(node)
        if found is None:
            found = []
            for step, child in self.children(node, every_piece=True):
                self.parent.setdefault(child, (node, step))
                if self.best(child) == self.target:
                    found.append((step, child))
            self.step_cache[node] = found
        return found

    def take(self, node: Node, piece: int, spent: tuple[int, ...]) -> tuple[Node, int] | None:
        """The node after one step and the capture square (or -1), if the step is legal."""
        if self.target is None:
            return None
        mover, captured, remaining = node
        if mover[piece] == START:
            both = spent == remaining and sum(remaining) == 5
            if not ((spent == (5,) and 5 in remaining) or (not self.four and both)):
                return None
            result = self.view.enter(mover, captured, piece)
        elif len(spent) == 1 and spent[0] in remaining:
            result = self.view.move(mover, captured, piece, spent[0])
        else:
            return None
        if result is None:
            return None
        k = remaining.index(spent[0])
        rest = () if len(spent) == 2 else remaining[:k] + remaining[k + 1:]
        child = (result[0], result[1], rest)
        self.parent.setdefault(child, (node, (piece, spent)))
        if self.best(child) != self.target:
            return None
        return child, result[2]

    def complete(self, node: Node) -> bool:
        """True when ``node`` ends a complete legal sequence (nothing more may move)."""
        return self.target is None or self.metric(node) == self.target

    def finals(self) -> list[Node]:
        """The distinct end nodes of the complete legal sequences (the root if none).

        Symmetric pieces are searched once, so a position appears once unless steps for
        every piece were asked for first.
        """
        if self.target is None:
            return [self.root]
        target = self.target
        return [node for node in self.leaves if self.memo[node] == target]

    def path(self, node: Node) -> list[Step]:
        """One legal sequence of steps from the root to ``node`` (a node from :meth:`finals`)."""
        steps: list[Step] = []
        while node != self.root:
            node, step = self.parent[node]
            steps.append(step)
        steps.reverse()
        return steps

    def children(self, node: Node, every_piece: bool = False) -> list[tuple[Step, Node]]:
        """Single steps from ``node``; symmetric pieces are tried once unless ``every_piece``."""
        mover, captured, remaining = node
        out: list[tuple[Step, Node]] = []
        if not remaining:
            return out
        if START in mover:
            self._entries(node, every_piece, out)
        movers = self._movers(mover, every_piece)
        if not movers:
            return out
        blocks = own_blockades(mover)
        move = self.view.move
        last = 0
        for k, v in enumerate(remaining):
            if v == last:
                continue
            last = v
            rest = remaining[:k] + remaining[k + 1:]
            for i in movers:
                result = move(mover, captured, i, v, blocks)
                if result is not None:
                    out.append(((i, (v,)), (result[0], result[1], rest)))
        return out

    def _entries(self, node: Node, every_piece: bool, out: list[tuple[Step, Node]]) -> None:
        """Add the entries from ``node`` to ``out``: a 5, or both dice summing to five."""
        mover, captured, remaining = node
        entry_spends: list[tuple[tuple[int, ...], tuple[int, ...]]] = []
        if 5 in remaining:
            k = remaining.index(5)
            entry_spends.append(((5,), remaining[:k] + remaining[k + 1:]))
        if not self.four and len(remaining) == 2 and remaining[0] + remaining[1] == 5:
            entry_spends.append((remaining, ()))
        if not entry_spends:
            return
        starts = [i for i in range(4) if mover[i] == START]
        for spent, rest in entry_spends:
            for i in starts if every_piece else starts[:1]:
                result = self.view.enter(mover, captured, i)
                if result is not None:
                    out.append(((i, spent), (result[0], result[1], rest)))

    def _movers(self, mover: tuple[int, ...], every_piece: bool) -> list[int]:
        """Pieces on the track or lane; of two interchangeable pieces only the first."""
        if every_piece:
            return [i for i in range(4) if START < mover[i] < HOME]
        partner = self.view.partner
        if not self.view.paired:
            firsts: dict[int, int] = {}
            for i in range(4):
                firsts.setdefault(mover[i], i)
            firsts.pop(START, None)
            firsts.pop(HOME, None)
            return list(firsts.values())
        out: list[int] = []
        seen: list[int] = []
        for i in range(4):
            p = mover[i]
            if p in (START, HOME):
                continue
            if p in seen:
                j = out[seen.index(p)]
                if partner[j] == partner[i] or partner[i] == j:
                    continue
            out.append(i)
            seen.append(p)
        return out


def reward_options(state: State, view: View | None = None) -> list[tuple[int, int]]:
    """(amount, piece) for every pending reward some piece can move in full
    (docs/rules/parcheesi.md 3.5)."""
    if not state.rewards:
        return []
    view = view or View(state.pieces, state.turn, state.pairs)
    mover = state.mover
    return [(amount, i) for amount in sorted(set(state.rewards), reverse=True)
            for i in range(4) if view.move(mover, 0, i, amount) is not None]


def penalty_piece(mover: tuple[int, ...]) -> int | None:
    """The piece the third doubles sends back: the most advanced unfinished one, lowest index."""
    best = None
    for i, p in enumerate(mover):
        if START < p < HOME and (best is None or p > mover[best]):
            best = i
    return best
