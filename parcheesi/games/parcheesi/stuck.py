"""Why a Parcheesi piece cannot move now, in one short sentence for a child: what the
learning mode shows when a piece that cannot move is tapped (``GAME.why_stuck``).

Nothing here decides a rule. Whether a piece can move is the engine's own answer: a legal
step of the roll's search (:class:`.moves.RollPlan` through :func:`.turns.roll_plan`) or a
usable bonus (:func:`.moves.reward_options`). Only for a piece that cannot move does this
module look for the words, in the same places the rules are kept:

- a step the piece could make on its own that begins no complete legal sequence
  (docs/rules/parcheesi.md 3.3) is told apart by the search's own measure
  (``RollPlan.best`` against ``RollPlan.target``: it would give up an entry, or leave part
  of the roll unused);
- a step the board forbids (:meth:`.moves.View.move` or :meth:`.moves.View.enter` said no)
  is explained from the board as that view sees it, in the view's own order: the count past
  HOME, the blockades (its ``next_block``, :func:`.moves.own_blockades`), the pair that stood
  as a blockade when the turn began (3.4, its ``partner``), an opponent alone on a safe
  square (its ``opp_count``, ``opp_owner`` and ``safe``).

Squares are named by how far ahead they are (the board shows no numbers) and opponents by
their colour. When the piece cannot move now but does move later in some complete legal
sequence of the roll, the sentence begins "Another move must be played first".
"""

from __future__ import annotations

from collections.abc import Iterable

from ...core.state import Phase
from .board import COLOURS, HOME, START
from .moves import Node, RollPlan, View, own_blockades, reward_options
from .state import State
from .turns import roll_plan

ALREADY_HOME = "Already HOME"
ROLL_FIRST = "Roll the dice first"
OPENING_FIRST = "First roll the dice to see who begins"
ANSWER_FIRST = "Answer the question first"
"""During the question whether to play on for places (docs/rules/parcheesi.md 5) no piece
moves: the player asked answers it first (a decision of theirs, so a sentence, not None)."""
FIRST = "Another move must be played first"
WHOLE_ROLL_LATER = f"{FIRST}: the whole roll has to be used"
WHOLE_ROLL_NEVER = "Moving it would waste part of the roll: the whole roll has to be used"
BONUS_FROM_START = "A bonus cannot bring a piece out of START"
UNEXPLAINED = "It cannot move now"
"""What is said if no reason is found (the tests check that it never is)."""


def why_stuck(state: State, piece: int) -> str | None:
    """Why piece ``piece`` (0..3) of the player to act cannot move now, or None when some
    choice open now moves it, or when the game is over (nobody acts). ValueError for a piece
    that is not 0..3."""
    if isinstance(piece, bool) or not isinstance(piece, int) or piece not in range(4):
        raise ValueError(f"there is no piece {piece!r} (pieces are 0..3)")
    phase = state.phase
    if phase is Phase.OVER:
        return None
    if phase is Phase.PLAY_ON:
        return ANSWER_FIRST
    if state.mover[piece] == HOME:
        return ALREADY_HOME
    if phase is Phase.OPENING:
        return OPENING_FIRST
    if phase is Phase.ROLL:
        return ROLL_FIRST
    if phase is Phase.REWARD:
        return _bonus_reason(state, piece)
    return _dice_reason(state, piece)


# --- the dice of a roll (phase MOVE) -----------------------------------------------------------

def _dice_reason(state: State, piece: int) -> str | None:
    plan, node = roll_plan(state)
    if any(i == piece for (i, _), _ in plan.steps(node)):
        return None
    alone = [child for (i, _), child in plan.children(node, every_piece=True) if i == piece]
    if alone:
        return _sequence_reason(plan, node, piece, alone)
    mover, captured, remaining = node
    later = _moves_later(plan, node, piece)
    if mover[piece] == START:
        reason = _entry_reason(plan.view, mover, remaining)
    else:
        reason = _track_reason(plan.view, mover, captured, piece, remaining, later=later)
    return f"{FIRST}: {reason[0].lower()}{reason[1:]}" if later else reason


def _sequence_reason(plan: RollPlan, node: Node, piece: int, alone: list[Node]) -> str:
    """Why steps the piece could make on its own begin no complete legal sequence
    (docs/rules/parcheesi.md 3.3): each would give up an entry the roll can make, or leave
    part of the roll unused."""
    target = plan.target
    assert target is not None  # a roll with nothing to move is over before MOVE
    if all(plan.best(child)[0] < target[0] for child in alone):
        remaining = node[2]
        if 5 in remaining:
            return "A 5 must be used to bring a piece out of START"
        return (f"The {remaining[1]} and {remaining[0]} must be used to bring a piece out "
                "of START")
    if _moves_later(plan, node, piece):
        return WHOLE_ROLL_LATER
    return WHOLE_ROLL_NEVER


def _moves_later(plan: RollPlan, node: Node, piece: int) -> bool:
    """Whether some complete legal sequence from ``node`` moves ``piece`` at a later step."""
    seen: set[Node] = set()
    stack = [node]
    while stack:
        current = stack.pop()
        for (i, _), child in plan.steps(current):
            if i == piece:
                return True
            if child not in seen:
                seen.add(child)
                stack.append(child)
    return False


def _entry_reason(view: View, mover: tuple[int, ...], remaining: tuple[int, ...]) -> str:
    """Why a piece in START cannot come out (docs/rules/parcheesi.md 3.1)."""
    spends = 5 in remaining or (len(remaining) == 2 and sum(remaining) == 5)
    if not spends:
        if len(remaining) == 2:
            return "Needs a 5 to come out (or two dice that add up to 5)"
        return "Needs a 5 to come out"
    if view.opp_count[0] == 2:
        return f"Its entry square is blocked by {_owner(view, 0)}'s blockade"
    if mover.count(0) >= 2:
        return "Its entry square is blocked by your own blockade"
    return UNEXPLAINED


# --- a pending bonus (phase REWARD) ------------------------------------------------------------

def _bonus_reason(state: State, piece: int) -> str | None:
    """Why the piece cannot take any pending bonus (docs/rules/parcheesi.md 3.5)."""
    view = View(state.pieces, state.turn, state.pairs)
    if any(i == piece for _, i in reward_options(state, view)):
        return None
    if state.mover[piece] == START:
        return BONUS_FROM_START
    return _track_reason(view, state.mover, 0, piece, state.rewards, bonus=True)


# --- what stops a piece on its way -------------------------------------------------------------

def _track_reason(view: View, mover: tuple[int, ...], captured: int, piece: int,
                  counts: Iterable[int], bonus: bool = False, later: bool = False) -> str:
    """Why the piece cannot move by any of ``counts`` (dice portions or bonuses): what stops
    the smallest count that stays within HOME (when the piece moves ``later`` in the roll,
    the smallest one stopped by something another move can change: its own pieces), or,
    when every count goes past HOME, the count it needs."""
    at = mover[piece]
    found = [_blocked(view, mover, captured, piece, count)
             for count in sorted(set(counts)) if at + count <= HOME]
    if found:
        changing = [reason for moves_away, reason in found if moves_away]
        return changing[0] if later and changing else found[0][1]
    needs = f"needs exactly {HOME - at} to reach HOME"
    return f"A bonus cannot be split: it {needs}" if bonus else f"N{needs[1:]}"


def _blocked(view: View, mover: tuple[int, ...], captured: int, piece: int, count: int
             ) -> tuple[bool, str]:
    """Why ``View.move`` refuses ``count`` squares to a piece that stays within HOME: a
    blockade on the way (the nearest), the pair rule, or an opponent safe where it lands;
    and whether what stops it is the mover's own pieces (which another move may shift)."""
    at = mover[piece]
    end = at + count
    own = [x for x in own_blockades(mover) if at < x <= end]
    theirs = view.next_block[at + 1]
    if own and min(own) < theirs:
        return True, f"Your own blockade {_ahead(min(own) - at)} is in the way"
    if theirs <= end:
        return False, f"{_owner(view, theirs)}'s blockade {_ahead(theirs - at)} is in the way"
    partner = view.partner[piece]
    if end < HOME and partner >= 0 and mover[partner] == end:
        return True, f"It cannot pair up with piece {partner + 1} again this turn"
    if view.opp_count[end] == 1 and not captured >> end & 1 and view.safe[end]:
        return False, f"Cannot land on {_owner(view, end)}'s piece on a safe square"
    return False, UNEXPLAINED


def _ahead(squares: int) -> str:
    return f"{squares} square{'' if squares == 1 else 's'} ahead"


def _owner(view: View, x: int) -> str:
    """The colour of the opponent piece at the mover's progress ``x``, as people say it."""
    owner = view.opp_owner[x]
    return COLOURS[owner[0]].capitalize() if owner is not None else "another colour"
