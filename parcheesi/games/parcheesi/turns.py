"""Parcheesi's turn machine: an action and a state in, a new state and the events out.

Actions are :class:`~parcheesi.core.actions.Roll`, :class:`Move` (one piece, one or more
dice portions, or an entry), :class:`Reward` (one pending reward on one piece) and
:class:`~parcheesi.core.actions.PlayOn` (the answer to the question whether to play on for
places). Everything that follows without a choice (a roll that cannot be used, forfeited
rewards, the third-doubles penalty, passing the turn, the win, places) happens inside
:func:`apply` and is reported as events (the shared ones of :mod:`parcheesi.core.events`
and Parcheesi's own :class:`RewardsForfeited` and :class:`Penalty`), so a client only draws
what the events and the new state say.

Playing on is a table option, not a rule: the rules (``docs/rules/parcheesi.md``) end the
game at the first player to bring all four pieces HOME. In a game of three or four, that
moment asks the players still racing, one at a time, whether to play on for the next places;
the game carries on only if all agree, and each later finish that leaves two or more racing
asks again, until one player is left, who takes the last place
(:mod:`parcheesi.core.places`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from itertools import permutations

from ...core import places
from ...core.actions import PlayOn, Roll
from ...core.events import (
    Captured,
    Entered,
    Moved,
    NoMove,
    OpeningRolled,
    OpeningTied,
    ReachedHome,
    Rolled,
    SharedEvent,
    Starts,
    TurnPassed,
    Won,
)
from ...core.state import IllegalAction, Phase, Pieces, next_racing
from .board import HOME, START
from .dice import Dice, DiceSource, seeded
from .moves import Node, RollPlan, View, own_blockades, penalty_piece, reward_options
from .state import State, blockade_pairs, new_state


@dataclass(frozen=True, slots=True)
class Move:
    """Spend dice portions on one piece, in order. For a piece in START: the entry spend,
    ``(5,)`` or both portions of a roll summing to five."""

    piece: int
    portions: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Reward:
    """Move one piece by one pending reward (20 or 10)."""

    piece: int
    amount: int


Action = Roll | Move | Reward | PlayOn

CAPTURE_REWARD = 20
"""Squares a capture earns (docs/rules/parcheesi.md 3.5)."""
HOME_REWARD = 10
"""Squares a piece reaching HOME earns."""


# --- Parcheesi's own events -----------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class RewardsForfeited:
    colour: int
    amounts: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Penalty:
    colour: int
    piece: int | None


Event = SharedEvent | RewardsForfeited | Penalty


# --- the roll search attached to a state -----------------------------------------------------

def roll_plan(state: State) -> tuple[RollPlan, Node]:
    """The search for the current roll and the state's node in it (built once, then shared)."""
    if state.plan is None:
        plan = RollPlan(state)
        object.__setattr__(state, "plan", (plan, 0))
    plan, captured = state.plan
    return plan, (state.mover, captured, state.portions)


def legal_steps(state: State) -> list[Move]:
    """Single-step moves that begin a complete legal sequence (empty outside MOVE)."""
    if state.phase is not Phase.MOVE:
        return []
    plan, node = roll_plan(state)
    return [Move(piece, spent) for (piece, spent), _ in plan.steps(node)]


def combined_moves(state: State, piece: int) -> list[Move]:
    """All remaining portions on ``piece`` in one go, one per distinct result (track pieces)."""
    if state.phase is not Phase.MOVE or len(state.portions) < 2:
        return []
    if not START < state.mover[piece] < HOME:
        return []
    plan, node = roll_plan(state)
    results: dict[Node, Move] = {}
    for order in sorted(set(permutations(state.portions)), reverse=True):
        current = node
        for value in order:
            step = next((c for (i, spent), c in plan.steps(current)
                         if i == piece and spent == (value,)), None)
            if step is None:
                break
            current = step
        else:
            results.setdefault(current, Move(piece, order))
    return list(results.values())


def legal_rewards(state: State) -> list[Reward]:
    if state.phase is not Phase.REWARD:
        return []
    return [Reward(piece, amount) for amount, piece in reward_options(state)]


def legal_actions(state: State) -> list[Action]:
    """Every action accepted now (moves as single steps; combined moves are also accepted)."""
    if state.phase in (Phase.OPENING, Phase.ROLL):
        return [Roll()]
    if state.phase is Phase.MOVE:
        return list(legal_steps(state))
    if state.phase is Phase.REWARD:
        return list(legal_rewards(state))
    if state.phase is Phase.PLAY_ON:
        return [PlayOn(True), PlayOn(False)]
    return []


# --- applying actions --------------------------------------------------------------------------

def apply(state: State, action: Action, dice: DiceSource | Dice | None = None
          ) -> tuple[State, list[Event]]:
    """Apply ``action``; raise :class:`IllegalAction` (state untouched) if it is not allowed.

    ``dice`` is needed for :class:`Roll`: a source indexed by ``state.rolls`` or the two
    values themselves.
    """
    events: list[Event] = []
    if isinstance(action, Roll):
        if state.phase not in (Phase.OPENING, Phase.ROLL):
            raise IllegalAction(f"cannot roll now ({_waiting_for(state)})")
        if dice is None:
            raise IllegalAction("a roll needs dice")
        values = dice if isinstance(dice, tuple) else dice(state.rolls)
        _check_dice(values)
        if state.phase is Phase.OPENING:
            return _opening_roll(state, values, events), events
        return _roll(state, values, events), events
    if isinstance(action, Move):
        if state.phase is not Phase.MOVE:
            raise IllegalAction(f"cannot move with the dice now ({_waiting_for(state)})")
        return _move(state, action, events), events
    if isinstance(action, Reward):
        if state.phase is not Phase.REWARD:
            raise IllegalAction(f"no reward to take now ({_waiting_for(state)})")
        return _reward(state, action, events), events
    if isinstance(action, PlayOn):
        if state.phase is not Phase.PLAY_ON:
            raise IllegalAction(f"nobody is asked to play on now ({_waiting_for(state)})")
        return _play_on(state, action, events), events
    raise IllegalAction(f"unknown action {action!r}")


def _waiting_for(state: State) -> str:
    return {Phase.OPENING: "the opening roll is under way",
            Phase.ROLL: f"{state.colour_name()} must roll",
            Phase.MOVE: f"{state.colour_name()} must move",
            Phase.REWARD: f"{state.colour_name()} must take a reward",
            Phase.PLAY_ON: f"{state.colour_name()} is asked whether to play on",
            Phase.OVER: "the game is over"}[state.phase]


def _check_dice(values: Dice) -> None:
    if (len(values) != 2 or any(isinstance(v, bool) or not isinstance(v, int) for v in values)
            or not all(1 <= v <= 6 for v in values)):
        raise IllegalAction(f"dice must be two values 1..6, not {values!r}")


def _opening_roll(state: State, values: Dice, events: list[Event]) -> State:
    events.append(OpeningRolled(state.turn, values))
    results = (*state.opening, (state.turn, values[0] + values[1]))
    waiting = [c for c in state.contenders if c not in {c2 for c2, _ in results}]
    if waiting:
        return state.with_(opening=results, turn=waiting[0], rolls=state.rolls + 1)
    top = max(total for _, total in results)
    tied = tuple(c for c, total in results if total == top)
    if len(tied) > 1:
        events.append(OpeningTied(tied))
        return state.with_(opening=(), contenders=tied, turn=tied[0], rolls=state.rolls + 1)
    events.append(Starts(tied[0]))
    return state.with_(opening=(), contenders=(), turn=tied[0], phase=Phase.ROLL,
                       rolls=state.rolls + 1, pairs=blockade_pairs(state.pieces[tied[0]]))


def _roll(state: State, values: Dice, events: list[Event]) -> State:
    a, b = values
    doubles = state.doubles + 1 if a == b else state.doubles
    mover = state.mover
    if a == b and doubles == 3:
        events.append(Rolled(state.turn, values, ()))
        victim = penalty_piece(mover)
        events.append(Penalty(state.turn, victim))
        pieces = state.pieces
        if victim is not None:
            pieces = _replace_piece(pieces, state.turn, victim, START)
        return _pass_turn(state.with_(pieces=pieces, rolls=state.rolls + 1, dice=values),
                          events)
    four = a == b and START not in mover
    portions = (a, a, 7 - a, 7 - a) if four else (a, b)
    state = state.with_(phase=Phase.MOVE, dice=values, doubles=doubles, four=four,
                        portions=tuple(sorted(portions, reverse=True)), rolls=state.rolls + 1)
    events.append(Rolled(state.turn, values, state.portions))
    plan, _ = roll_plan(state)
    if plan.target is None:
        events.append(NoMove(state.turn, values))
        return _settle_rewards(state.with_(portions=(), four=False), events)
    return state


def _move(state: State, action: Move, events: list[Event]) -> State:
    piece, spent = action.piece, tuple(action.portions)
    if piece not in range(4):
        raise IllegalAction(f"no piece {piece + 1}")
    if not spent or any(v not in state.portions for v in spent):
        raise IllegalAction(f"the roll has no portions {'+'.join(map(str, spent)) or 'given'}")
    plan, node = roll_plan(state)
    colour = state.turn
    view = plan.view
    pieces = state.pieces
    rewards = list(state.rewards)
    entering = state.mover[piece] == START
    if entering:
        spent = tuple(sorted(spent, reverse=True))  # both dice of a 1+4 / 2+3 in any order
    for step in [spent] if entering else [(v,) for v in spent]:
        taken = plan.take(node, piece, step)
        if taken is None:
            raise IllegalAction(_why_not(state, piece, spent))
        before = node[0][piece]
        node, cap_x = taken
        if entering:
            events.append(Entered(colour, piece, step))
        else:
            events.append(Moved(colour, piece, before, node[0][piece], step[0]))
        pieces = _landed(pieces, view, colour, piece, cap_x, node[0][piece] == HOME,
                         events, rewards)
    mover = node[0]
    pieces = pieces[:colour] + (mover,) + pieces[colour + 1:]
    rewards.sort(reverse=True)
    if mover.count(HOME) == 4:
        return _finish(state.with_(pieces=pieces), events)
    if plan.complete(node):
        return _settle_rewards(state.with_(pieces=pieces, portions=(), four=False,
                                           rewards=tuple(rewards)), events)
    return state.with_(pieces=pieces, portions=node[2], rewards=tuple(rewards),
                       plan=(plan, node[1]))


def _landed(pieces: Pieces, view: View, colour: int, piece: int, cap_x: int, home: bool,
            events: list[Event], rewards: list[int]) -> Pieces:
    """After a step of ``piece``: the opponent on ``cap_x`` (if any, >= 0) goes back to START
    and earns 20, reaching HOME earns 10. Returns the pieces with the capture made."""
    if cap_x >= 0:
        victim = view.opp_owner[cap_x]
        assert victim is not None
        was = pieces[victim[0]][victim[1]]
        pieces = _replace_piece(pieces, victim[0], victim[1], START)
        events.append(Captured(victim[0], victim[1], colour, piece, was))
        rewards.append(CAPTURE_REWARD)
    if home:
        events.append(ReachedHome(colour, piece))
        rewards.append(HOME_REWARD)
    return pieces


def _why_not(state: State, piece: int, spent: tuple[int, ...]) -> str:
    label = "+".join(map(str, spent))
    where = state.mover[piece]
    if where == HOME:
        return f"piece {piece + 1} is already HOME"
    if not legal_steps(state):
        return "no move is possible"
    if any(m.piece == piece for m in legal_steps(state)):
        return f"piece {piece + 1} cannot use {label} in any complete legal sequence"
    return f"piece {piece + 1} cannot move in any complete legal sequence of this roll"


def _reward(state: State, action: Reward, events: list[Event]) -> State:
    view = View(state.pieces, state.turn, state.pairs)
    options = reward_options(state, view)
    if (action.amount, action.piece) not in options:
        if action.amount not in state.rewards:
            raise IllegalAction(f"no pending reward of {action.amount}")
        raise IllegalAction(f"piece {action.piece + 1} cannot move {action.amount}")
    colour = state.turn
    mover = state.mover
    before = mover[action.piece]
    result = view.move(mover, 0, action.piece, action.amount)
    assert result is not None
    mover, _, cap_x = result
    rewards = list(state.rewards)
    rewards.remove(action.amount)
    events.append(Moved(colour, action.piece, before, mover[action.piece], action.amount,
                        reward=True))
    pieces = _landed(state.pieces, view, colour, action.piece, cap_x,
                     mover[action.piece] == HOME, events, rewards)
    pieces = pieces[:colour] + (mover,) + pieces[colour + 1:]
    new = state.with_(pieces=pieces, rewards=tuple(sorted(rewards, reverse=True)))
    if all(p == HOME for p in mover):
        return _finish(new, events)
    return _settle_rewards(new, events)


def _settle_rewards(state: State, events: list[Event]) -> State:
    """The roll's dice are used (or cannot be): rewards next, then the next roll or turn."""
    if state.rewards:
        if reward_options(state):
            return state.with_(phase=Phase.REWARD)
        events.append(RewardsForfeited(state.turn, state.rewards))
        state = state.with_(rewards=())
    if state.dice is not None and state.dice[0] == state.dice[1]:
        return state.with_(phase=Phase.ROLL)
    return _pass_turn(state, events)


def _pass_turn(state: State, events: list[Event] | None) -> State:
    """The turn passes to the next colour in turn order that is still racing."""
    order = state.colours
    if state.places:
        nxt = next_racing(order, state.places, state.turn)
    else:
        nxt = order[(order.index(state.turn) + 1) % len(order)]
    if events is not None:
        events.append(TurnPassed(nxt))
    return state.with_(phase=Phase.ROLL, turn=nxt, dice=None, portions=(), four=False,
                       doubles=0, rewards=(), pairs=blockade_pairs(state.pieces[nxt]))


# --- the end: the win, playing on for places ----------------------------------------------------

def _finish(state: State, events: list[Event]) -> State:
    """The player to move brought their fourth piece HOME (any pending reward goes with the
    finish). The first to finish wins: a game of two ends. In a game of three or four the
    finisher takes the next place and the players still racing are asked whether to play on
    for the next places, at every finish that leaves two or more racing; a finish that
    leaves one ends the game with that one last."""
    state = state.with_(portions=(), four=False, rewards=())
    if state.winner is None and len(state.colours) < places.PLAY_ON_PLAYERS:
        events.append(Won(state.turn))
        return state.with_(phase=Phase.OVER, winner=state.turn)
    state = places.take_place(state, events)
    if len(state.racing) <= 1:
        return _place_rest(state, events)
    return places.ask_to_play_on(state, events, doubles=0, pairs=())


def _play_on(state: State, action: PlayOn, events: list[Event]) -> State:
    """The answer of the colour asked: a no ends the game, a yes asks the next one; when
    all have agreed, the turn passes to the next player racing after the finisher."""
    return places.answer(state, action, events, place_rest=_place_rest, pass_turn=_pass_turn)


def _place_rest(state: State, events: list[Event] | None) -> State:
    """The game is over: the colours still racing take the remaining places by standing."""
    return places.place_rest(state, HOME, events)


def standings(state: State) -> list[int]:
    """The colours in the order they placed: the places decided so far, then the winner
    (once there is one), then the rest by pieces HOME, then by how far the pieces have come
    (ties in turn order)."""
    def placing(colour: int) -> tuple[bool, int, int]:
        return (colour == state.winner, *places.standing(state.pieces[colour], HOME))

    rest = [c for c in state.colours if c not in state.places]
    return [*state.places, *sorted(rest, key=placing, reverse=True)]


def _replace_piece(pieces: tuple[tuple[int, ...], ...], colour: int, piece: int,
                   value: int) -> tuple[tuple[int, ...], ...]:
    own = pieces[colour]
    own = own[:piece] + (value,) + own[piece + 1:]
    return pieces[:colour] + (own,) + pieces[colour + 1:]


# --- a whole game ------------------------------------------------------------------------------

class Game:
    """A game as its record: colours, dice seed and accepted actions, plus the current state.

    Replaying the record through :meth:`play` rebuilds the identical state.
    """

    def __init__(self, colours: Iterable[int], seed: int, dice: DiceSource | None = None
                 ) -> None:
        self.state = new_state(tuple(colours))
        self.colours = self.state.colours
        self.seed = seed
        self.dice = dice or seeded(seed)
        self.actions: list[Action] = []

    def play(self, action: Action) -> list[Event]:
        self.state, events = apply(self.state, action, self.dice)
        self.actions.append(action)
        return events

    @classmethod
    def replay(cls, colours: Iterable[int], seed: int, actions: Iterable[Action]) -> Game:
        game = cls(colours, seed)
        for action in actions:
            game.play(action)
        return game


# --- every outcome of one roll ----------------------------------------------------------------

def roll_outcomes(state: State) -> list[tuple[State, list[Action]]]:
    """Every distinct position the player to move can reach by the end of the current roll.

    ``state`` must be in MOVE or REWARD. Each result is the state after the roll (dice
    portions, then rewards) with the actions that reach it; results are distinct by pieces
    and listed in a fixed order, so callers that pick among them are deterministic.
    Rewards are searched like the dice, in the mover's coordinates with a captured mask, so
    orders of rewards that reach the same position are explored once.
    """
    results: dict[Pieces, tuple[State, list[Action]]] = {}
    if state.phase is Phase.MOVE:
        # A fresh search, not the state's cached one: steps asked for earlier (a person
        # looking at the options) must not change which paths and pieces are listed.
        plan = RollPlan(state)
        homes = state.mover.count(HOME)
        for final in sorted(plan.finals()):
            mover, captured, _ = final
            earned = ((CAPTURE_REWARD,) * captured.bit_count()
                      + (HOME_REWARD,) * (mover.count(HOME) - homes))
            actions: list[Action] = [Move(piece, spent) for piece, spent in plan.path(final)]
            _search_rewards(state, plan.view, mover, captured, state.rewards + earned, actions,
                            results)
    elif state.phase is Phase.REWARD:
        view = View(state.pieces, state.turn, state.pairs)
        _search_rewards(state, view, state.mover, 0, state.rewards, [], results)
    return list(results.values())


def _search_rewards(state: State, view: View, mover: tuple[int, ...], captured: int,
                    pending: tuple[int, ...], actions: list[Action],
                    results: dict[Pieces, tuple[State, list[Action]]]) -> None:
    """Every way to take the pending rewards (docs/rules/parcheesi.md 3.5); record each end
    position."""
    stack = [(mover, captured, tuple(sorted(pending, reverse=True)), actions)]
    seen: set[tuple[tuple[int, ...], int, tuple[int, ...]]] = set()
    while stack:
        mover, captured, pending, actions = stack.pop()
        key = (mover, captured, pending)
        if key in seen:
            continue
        seen.add(key)
        children = []
        if pending and mover.count(HOME) < 4:
            blocks = own_blockades(mover)
            for amount in sorted(set(pending), reverse=True):
                k = pending.index(amount)
                rest = pending[:k] + pending[k + 1:]
                for piece in range(4):
                    result = view.move(mover, captured, piece, amount, blocks)
                    if result is None:
                        continue
                    moved, caught, cap_x = result
                    earned = ((CAPTURE_REWARD,) if cap_x >= 0 else ()) + (
                        (HOME_REWARD,) if moved[piece] == HOME else ())
                    children.append((moved, caught, tuple(sorted(rest + earned, reverse=True)),
                                     [*actions, Reward(piece, amount)]))
        if children:
            stack.extend(reversed(children))
            continue
        end = _end_state(state, view, mover, captured)
        results.setdefault(end.pieces, (end, actions))


def _end_state(state: State, view: View, mover: tuple[int, ...], captured: int) -> State:
    """The state when the roll is over: pieces placed, rewards used or forfeited."""
    colour = state.turn
    pieces = state.pieces
    owner = view.opp_owner
    for x in range(captured.bit_length()):
        if captured >> x & 1:
            victim = owner[x]
            assert victim is not None
            pieces = _replace_piece(pieces, victim[0], victim[1], START)
    pieces = pieces[:colour] + (mover,) + pieces[colour + 1:]
    events: list[Event] = []
    if mover.count(HOME) == 4:
        return _finish(state.with_(pieces=pieces), events)
    return _settle_rewards(state.with_(pieces=pieces, portions=(), four=False, rewards=()),
                           events)
