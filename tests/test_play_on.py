"""Named scenario tests for playing on for places in Parcheesi (a table option, not a rule).

The rules (docs/rules/parcheesi.md) end the game at the first player with all four pieces HOME. In
a game of three or four the engine then asks the players still racing, one at a time in turn
order after the finisher, whether to play on for the next places (as Ludo does,
docs/rules/ludo.md 3.3): play carries on only if all agree; the turn passes to the next player
still racing after the finisher; finished players are skipped; each later finish that
leaves two or more racing asks again; the last player left takes the last place. A no ends
the game and places the rest by pieces HOME, then progress (equal players share a place).

Positions are built with ``positions.py``; a position after a finish is the start-of-roll
position with the places already decided (``placed``). The finishing moves below are all
"last piece on 68, a 3 takes it HOME" (68 + 3 = 71).
"""

from __future__ import annotations

import dataclasses
import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from positions import AMBER, EMERALD, HOME, RUBY, SAPPHIRE, START, H, S, at_roll, rolled
from record_helpers import through_json

from parcheesi.core.actions import PlayOn, Roll
from parcheesi.core.choices import Choice
from parcheesi.core.events import (
    NoMove,
    Placed,
    PlayingOn,
    PlayOnAgreed,
    PlayOnAsked,
    PlayOnDeclined,
    ReachedHome,
    TurnPassed,
    Won,
)
from parcheesi.core.notation import NotationError
from parcheesi.core.state import IllegalAction, Phase
from parcheesi.games.parcheesi.ai import LEVELS, decide
from parcheesi.games.parcheesi.choices import choices
from parcheesi.games.parcheesi.dice import seeded
from parcheesi.games.parcheesi.game import GAME as PARCHEESI_GAME
from parcheesi.games.parcheesi.game import GAME as PARCHEESI_RULES
from parcheesi.games.parcheesi.notation import (
    action_from_json,
    action_to_json,
    state_from_json,
    state_to_json,
)
from parcheesi.games.parcheesi.state import State
from parcheesi.games.parcheesi.turns import (
    Game,
    Move,
    Reward,
    apply,
    legal_actions,
    roll_outcomes,
    standings,
)

FINISHING = [68, H, H, H]
"""Three pieces HOME, the last on 68: a 3 takes it HOME."""


def play(state: State, *actions: Any) -> tuple[State, list[Any]]:
    """Apply actions in turn; the final state and all events."""
    events: list[Any] = []
    for action in actions:
        state, new = apply(state, action)
        events.extend(new)
    return state, events


def finish(turn: str, pieces: dict[str, list[Any]], state: State | None = None
           ) -> tuple[State, list[Any]]:
    """``turn`` rolls 3 and 2 and takes its last piece (piece 1, on 68) HOME with the 3."""
    if state is None:
        state, _ = rolled(turn, pieces, (3, 2))
    else:
        state, _ = apply(state, Roll(), (3, 2))
    return apply(state, Move(0, (3,)))


def placed(turn: str, pieces: dict[str, list[Any]], places: tuple[int, ...]) -> State:
    """The start of ``turn``'s roll in a game played on, with ``places`` decided (each one
    place after the other)."""
    return at_roll(turn, pieces).with_(winner=places[0], places=places,
                                       ranks=tuple(range(1, len(places) + 1)))


THREE = {"ruby": FINISHING, "emerald": [S, 10, 20, 30], "sapphire": [S, S, 5, 40]}
FOUR = {"ruby": [S, S, S, S], "emerald": FINISHING, "sapphire": [S, 12, 30, H],
        "amber": [S, S, 8, 33]}


# --- the question --------------------------------------------------------------------------------

def test_a_first_finish_in_a_game_of_three_asks_the_two_still_racing():
    state, events = finish("ruby", THREE)
    # Ruby's piece reaches HOME (its 10 goes with the finish), Ruby wins and is placed
    # first, and the two still racing are asked in turn order after Ruby.
    assert events[-4:] == [ReachedHome(RUBY, 0), Won(RUBY), Placed(RUBY, 1),
                           PlayOnAsked((EMERALD, SAPPHIRE))]
    assert state.phase is Phase.PLAY_ON and state.turn == EMERALD
    assert state.asking == (EMERALD, SAPPHIRE)
    assert state.winner == RUBY and state.places == (RUBY,) and state.ranks == (1,)
    assert state.racing == (EMERALD, SAPPHIRE)
    assert state.portions == () and state.rewards == () and state.dice is None
    assert legal_actions(state) == [PlayOn(True), PlayOn(False)]
    assert choices(state) == [Choice(PlayOn(True)), Choice(PlayOn(False))]
    assert not PARCHEESI_RULES.over(state) and not PARCHEESI_RULES.rolling(state)
    assert PARCHEESI_RULES.winner(state) == RUBY
    assert PARCHEESI_RULES.places(state) == [(RUBY, 1)]


def test_a_first_finish_in_a_game_of_four_asks_in_turn_order_after_the_finisher():
    state, events = finish("emerald", FOUR)
    assert events[-3:] == [Won(EMERALD), Placed(EMERALD, 1),
                           PlayOnAsked((SAPPHIRE, AMBER, RUBY))]
    assert state.phase is Phase.PLAY_ON and state.turn == SAPPHIRE
    # each yes asks the next one, in that order
    state, events = apply(state, PlayOn(True))
    assert events == [PlayOnAgreed(SAPPHIRE)]
    assert state.phase is Phase.PLAY_ON and state.turn == AMBER and state.asking == (AMBER, RUBY)
    state, events = apply(state, PlayOn(True))
    assert events == [PlayOnAgreed(AMBER)] and state.turn == RUBY and state.asking == (RUBY,)


def test_a_finish_by_a_bonus_asks_too_and_the_bonus_left_goes_with_it():
    # Ruby 66 and 60 with 5 and 1: 66+5 HOME (10), 60+1 = 61; the 10 takes 61 HOME.
    pieces = {"ruby": [66, 60, H, H], "emerald": [S, S, 10, S], "sapphire": [S] * 4}
    state, _ = rolled("ruby", pieces, (5, 1))
    state, _ = play(state, Move(0, (5,)), Move(1, (1,)))
    state, events = apply(state, Reward(1, 10))
    assert events[-3:] == [Won(RUBY), Placed(RUBY, 1), PlayOnAsked((EMERALD, SAPPHIRE))]
    assert state.phase is Phase.PLAY_ON and state.rewards == ()


# --- everyone agrees -----------------------------------------------------------------------------

def test_when_everyone_agrees_the_next_player_racing_after_the_finisher_rolls():
    state, _ = finish("ruby", THREE)
    state, events = play(state, PlayOn(True), PlayOn(True))
    assert events == [PlayOnAgreed(EMERALD), PlayOnAgreed(SAPPHIRE),
                      PlayingOn((EMERALD, SAPPHIRE)), TurnPassed(EMERALD)]
    assert state.phase is Phase.ROLL and state.turn == EMERALD and state.asking == ()
    assert state.doubles == 0 and state.dice is None
    assert state.places == (RUBY,) and state.winner == RUBY


def test_finished_players_are_skipped_in_turn_order():
    # Emerald finished first; Ruby has nothing to move with 1 and 2 (all in START): the turn
    # passes over Emerald to Sapphire.
    state = placed("ruby", {**FOUR, "emerald": [H, H, H, H]}, (EMERALD,))
    state, events = apply(state, Roll(), (1, 2))
    assert events[-2:] == [NoMove(RUBY, (1, 2)), TurnPassed(SAPPHIRE)]
    assert state.turn == SAPPHIRE


def test_the_next_finish_asks_again_and_the_turn_goes_on_after_that_finisher():
    pieces = {"ruby": [S, S, S, S], "emerald": [H, H, H, H], "sapphire": FINISHING,
              "amber": [S, S, 8, 33]}
    state, events = finish("sapphire", pieces, placed("sapphire", pieces, (EMERALD,)))
    assert Won not in [type(e) for e in events]  # the winner is Emerald's for good
    assert events[-2:] == [Placed(SAPPHIRE, 2), PlayOnAsked((AMBER, RUBY))]
    assert state.turn == AMBER and state.places == (EMERALD, SAPPHIRE)
    assert state.ranks == (1, 2) and state.winner == EMERALD
    state, events = play(state, PlayOn(True), PlayOn(True))
    assert events[-2:] == [PlayingOn((RUBY, AMBER)), TurnPassed(AMBER)]
    assert state.phase is Phase.ROLL and state.turn == AMBER


def test_the_last_player_left_takes_the_last_place_and_the_game_is_over():
    pieces = {"ruby": [S, S, 20, H], "emerald": [H, H, H, H], "sapphire": FINISHING}
    state, events = finish("sapphire", pieces, placed("sapphire", pieces, (EMERALD,)))
    assert events[-2:] == [Placed(SAPPHIRE, 2), Placed(RUBY, 3)]
    assert state.phase is Phase.OVER and state.winner == EMERALD
    assert state.places == (EMERALD, SAPPHIRE, RUBY) and state.ranks == (1, 2, 3)
    assert standings(state) == [EMERALD, SAPPHIRE, RUBY]
    assert PARCHEESI_RULES.places(state) == [(EMERALD, 1), (SAPPHIRE, 2), (RUBY, 3)]
    assert legal_actions(state) == [] and choices(state) == []


def test_a_game_of_four_played_on_places_everyone_in_finishing_order():
    pieces = {"ruby": [S, 3, 20, H], "emerald": [H, H, H, H], "sapphire": [H, H, H, H],
              "amber": FINISHING}
    state, events = finish("amber", pieces, placed("amber", pieces, (EMERALD, SAPPHIRE)))
    assert events[-2:] == [Placed(AMBER, 3), Placed(RUBY, 4)]
    assert state.phase is Phase.OVER and standings(state) == [EMERALD, SAPPHIRE, AMBER, RUBY]


# --- a no ----------------------------------------------------------------------------------------

def test_a_no_ends_the_game_and_places_the_rest_by_standing_equal_players_sharing():
    # Ruby finishes first. Sapphire has two pieces HOME: second. Emerald and Amber have one
    # HOME and the same progress (10, START, START): they share third place.
    pieces = {"ruby": FINISHING, "emerald": [H, 10, S, S], "sapphire": [H, H, 20, S],
              "amber": [S, 10, S, H]}
    state, _ = finish("ruby", pieces)
    state, events = play(state, PlayOn(True), PlayOn(False))
    assert events == [PlayOnAgreed(EMERALD), PlayOnDeclined(SAPPHIRE), Placed(SAPPHIRE, 2),
                      Placed(EMERALD, 3), Placed(AMBER, 3)]
    assert state.phase is Phase.OVER and state.asking == ()
    assert state.places == (RUBY, SAPPHIRE, EMERALD, AMBER) and state.ranks == (1, 2, 3, 3)
    assert standings(state) == [RUBY, SAPPHIRE, EMERALD, AMBER]
    assert PARCHEESI_RULES.over(state) and PARCHEESI_RULES.winner(state) == RUBY
    assert legal_actions(state) == []


def test_the_first_no_ends_the_game_before_anyone_else_is_asked():
    state, _ = finish("ruby", THREE)
    state, events = apply(state, PlayOn(False))
    # Emerald (10+20+30 and a piece in START) is ahead of Sapphire (5+40)
    assert events == [PlayOnDeclined(EMERALD), Placed(EMERALD, 2), Placed(SAPPHIRE, 3)]
    assert state.phase is Phase.OVER and state.places == (RUBY, EMERALD, SAPPHIRE)


# --- games that end at once ----------------------------------------------------------------------

def test_a_game_of_two_ends_at_the_first_finish_as_the_rules_say():
    state, events = finish("ruby", {"ruby": FINISHING, "sapphire": [S, 10, 20, 30]})
    assert events[-1] == Won(RUBY) and Placed not in [type(e) for e in events]
    assert state.phase is Phase.OVER and state.winner == RUBY
    assert state.places == () and state.ranks == () and state.asking == ()
    assert standings(state) == [RUBY, SAPPHIRE] and PARCHEESI_RULES.places(state) == []
    assert legal_actions(state) == []


def test_a_finish_that_leaves_one_player_racing_ends_the_game():
    # Covered for a later finish above; here in a game of three where two had finished.
    pieces = {"ruby": [S, S, S, S], "emerald": [H, H, H, H], "sapphire": FINISHING}
    state, events = finish("sapphire", pieces, placed("sapphire", pieces, (EMERALD,)))
    assert PlayOnAsked not in [type(e) for e in events]
    assert state.phase is Phase.OVER and state.places[-1] == RUBY


# --- what is refused -----------------------------------------------------------------------------

def test_an_answer_when_nobody_is_asked_is_refused_and_changes_nothing():
    state = at_roll("ruby", THREE)
    before = json.dumps(state_to_json(state))
    for answer in (PlayOn(True), PlayOn(False)):
        with pytest.raises(IllegalAction, match="nobody is asked to play on"):
            apply(state, answer)
    assert json.dumps(state_to_json(state)) == before
    over, _ = finish("ruby", {"ruby": FINISHING, "sapphire": [S] * 4})
    with pytest.raises(IllegalAction, match="the game is over"):
        apply(over, PlayOn(True))


def test_while_the_question_is_asked_nothing_else_is_accepted():
    state, _ = finish("ruby", THREE)
    with pytest.raises(IllegalAction, match="emerald is asked whether to play on"):
        apply(state, Roll(), (1, 2))
    with pytest.raises(IllegalAction):
        apply(state, Move(1, (3,)))
    with pytest.raises(IllegalAction, match="true or false"):
        apply(state, PlayOn("yes"))  # type: ignore[arg-type]
    assert state.phase is Phase.PLAY_ON and state.turn == EMERALD


# --- the players ---------------------------------------------------------------------------------

def test_the_computers_and_the_hint_always_play_on():
    state, _ = finish("ruby", THREE)
    for level in LEVELS:
        decision = decide(state, level)
        assert decision.actions == [PlayOn(True)]
        assert decision.state == apply(state, PlayOn(True))[0]
    advice = PARCHEESI_GAME.hint(state)
    assert advice.actions == [PlayOn(True)] and advice.reason == "Plays on for the next places"
    assert PARCHEESI_RULES.decide(state, "hard").actions == [PlayOn(True)]


def test_a_finishing_roll_decided_by_a_computer_reaches_the_question():
    state, _ = rolled("ruby", THREE, (3, 2))
    ends = [end for end, _ in roll_outcomes(state)]
    assert any(end.phase is Phase.PLAY_ON for end in ends)
    decision = decide(state, "hard")
    after, _ = play(state, *decision.actions)
    assert after == decision.state and after.phase is Phase.PLAY_ON  # finishing is best


def test_a_computer_after_the_first_finish_plays_to_finish_not_at_random():
    # Emerald finished; Sapphire can take its last piece HOME with the 3 or move 2 on the
    # lane: it finishes (a player out of the race is no reason to give up).
    pieces = {"ruby": [S, S, S, S], "emerald": [H, H, H, H], "sapphire": FINISHING,
              "amber": [S, S, 8, 33]}
    state, _ = apply(placed("sapphire", pieces, (EMERALD,)), Roll(), (3, 2))
    for level in ("easy", "medium", "hard", "expert"):
        after = decide(state, level).state
        assert after.pieces[SAPPHIRE] == (HOME,) * 4, level


# --- the state ----------------------------------------------------------------------------------

def test_a_copy_of_a_state_carries_every_field_and_changes_only_those_asked():
    state, _ = finish("emerald", FOUR)
    names = [f.name for f in dataclasses.fields(State)]
    assert {"asking", "places", "ranks"} <= set(names)
    copy = state.with_()
    assert all(getattr(copy, n) == getattr(state, n) for n in names if n != "plan")
    assert copy.plan is None
    for name in names:
        marker = object()
        changed = state.with_(**{name: marker})
        assert getattr(changed, name) is marker, name
        assert all(getattr(changed, n) == getattr(state, n) for n in names
                   if n not in (name, "plan")), name


# --- JSON ----------------------------------------------------------------------------------------

OLD_STATE = {
    # A three-player game that ended at its first finish, as stored before play on existed.
    "colours": ["ruby", "emerald", "sapphire"],
    "pieces": {"ruby": ["home", "home", "home", "home"], "emerald": ["start", 10, 20, 30],
               "sapphire": ["start", "start", 5, 40]},
    "phase": "over", "turn": "ruby", "dice": [3, 2], "portions": [], "four": False,
    "doubles": 0, "rewards": [], "pairs": [], "opening": [], "contenders": [], "rolls": 212,
    "winner": "ruby",
}


def test_a_state_stored_before_play_on_loads_unchanged():
    state = state_from_json(OLD_STATE)
    assert state.phase is Phase.OVER and state.winner == RUBY
    assert (state.asking, state.places, state.ranks) == ((), (), ())
    assert state_to_json(state) == OLD_STATE  # written back exactly as it was
    assert standings(state) == [RUBY, EMERALD, SAPPHIRE]
    mid_game = {**OLD_STATE, "phase": "roll", "winner": None, "dice": None,
                "pieces": {**OLD_STATE["pieces"], "ruby": [68, "home", "home", "home"]}}
    assert state_to_json(state_from_json(mid_game)) == mid_game


def test_a_state_asking_whether_to_play_on_round_trips_exactly():
    state, _ = finish("emerald", FOUR)
    state, _ = apply(state, PlayOn(True))
    obj = state_to_json(state)
    assert (obj["asking"], obj["places"], obj["ranks"]) == (["amber", "ruby"], ["emerald"], [1])
    text = json.dumps(obj)
    back = state_from_json(json.loads(text))
    assert back == state and json.dumps(state_to_json(back)) == text
    assert legal_actions(back) == legal_actions(state)


def test_play_on_answers_round_trip_as_actions():
    for answer in (PlayOn(True), PlayOn(False)):
        assert action_to_json(answer) == {"type": "play_on", "agree": answer.agree}
        assert action_from_json(action_to_json(answer)) == answer
    for bad in ({"type": "play_on"}, {"type": "play_on", "agree": 1},
                {"type": "play_on", "agree": "yes"}):
        with pytest.raises(NotationError):
            action_from_json(bad)


def _asked() -> dict[str, Any]:
    state, _ = finish("ruby", THREE)
    return json.loads(json.dumps(state_to_json(state)))


BAD_PLAY_ON_STATES: dict[str, Any] = {
    "asking not a list": {**_asked(), "asking": "emerald"},
    "asking an unknown colour": {**_asked(), "asking": ["emerald", "green"]},
    "asking a colour not playing": {**_asked(), "asking": ["emerald", "amber"]},
    "asking twice": {**_asked(), "asking": ["emerald", "emerald"]},
    "asking someone else than turn": {**_asked(), "asking": ["sapphire", "emerald"]},
    "asking a placed colour": {**_asked(), "asking": ["emerald", "ruby"]},
    "asked with no one to answer": {k: v for k, v in _asked().items() if k != "asking"},
    "asking outside play on": {**_asked(), "phase": "roll"},
    "places without ranks": {k: v for k, v in _asked().items() if k != "ranks"},
    "a rank of 0": {**_asked(), "ranks": [0]},
    "a rank above the players": {**_asked(), "ranks": [4]},
    "a rank that is not a number": {**_asked(), "ranks": [True]},
    "a winner not placed first": {**_asked(), "winner": "sapphire"},
    "placed but not finished": {**_asked(), "places": ["emerald"],
                                "asking": ["sapphire", "ruby"], "turn": "sapphire",
                                "winner": "emerald"},
    "to act though placed": {**_asked(), "phase": "roll", "asking": [], "turn": "ruby"},
}


@pytest.mark.parametrize("obj", list(BAD_PLAY_ON_STATES.values()), ids=list(BAD_PLAY_ON_STATES))
def test_malformed_play_on_fields_are_refused(obj: dict[str, Any]) -> None:
    with pytest.raises(NotationError) as error:
        state_from_json(obj)
    assert "\n" not in str(error.value)


# --- whole games ---------------------------------------------------------------------------------

@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**40), four=st.booleans(), pick=st.integers(0, 2**32))
def test_random_games_of_three_and_four_played_on_stay_whole(seed: int, four: bool,
                                                             pick: int) -> None:
    """Random games where the players mostly agree to play on: every offered choice is
    accepted, every piece is accounted for, the places are the finishers in order, and the
    record replays to the same state."""
    colours = (RUBY, EMERALD, SAPPHIRE, AMBER) if four else (RUBY, EMERALD, AMBER)
    rng = random.Random(pick)
    game = Game(colours, seed)
    dice = seeded(seed)
    for _ in range(3000):
        state = game.state
        if state.phase is Phase.OVER:
            break
        offered = choices(state)
        for choice in offered:  # every choice is legal
            apply(state, choice.action, dice)
        if state.phase is Phase.PLAY_ON:
            action: Any = PlayOn(rng.random() < 0.9)
        else:
            action = rng.choice(offered).action
        game.play(action)
        _check_whole(game.state, colours)
    state = game.state
    assert state.phase is Phase.OVER and sorted(state.places) == sorted(colours)
    assert state.winner == state.places[0] and standings(state) == list(state.places)
    replayed = through_json(game)
    assert replayed.state == state and replayed.actions == game.actions


def _check_whole(state: State, colours: tuple[int, ...]) -> None:
    for c in range(4):
        own = state.pieces[c]
        assert len(own) == (4 if c in colours else 0)
        assert all(p in (START, HOME) or 0 <= p <= 70 for p in own)
    finished = [c for c in colours if state.pieces[c] == (HOME,) * 4]
    assert len(state.places) == len(state.ranks) == len(set(state.places))
    if state.phase is not Phase.OVER:
        assert set(finished) == set(state.places) and state.turn not in state.places
    assert state.winner == (state.places[0] if state.places else None)
