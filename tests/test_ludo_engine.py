"""Ludo behind the game-rules interface (``parcheesi/core/rules.py``): its facts, colour
sets, motions and their pace, standings, the computers' interface, and the state and action
JSON refusing what is not one. What every game must do through the interface is
``test_conformance.py``'s."""

from __future__ import annotations

import inspect
from dataclasses import fields

import pytest
from dice_helpers import fixed

from parcheesi.core.actions import PlayOn, Roll
from parcheesi.core.events import Captured, Entered, Moved
from parcheesi.core.notation import NotationError
from parcheesi.core.registry import rules_for
from parcheesi.core.rules import GameRules
from parcheesi.core.state import IllegalAction, Phase
from parcheesi.games.ludo import ai, layout
from parcheesi.games.ludo.actions import Move
from parcheesi.games.ludo.board import HOME, YARD
from parcheesi.games.ludo.dice import ludo_dice
from parcheesi.games.ludo.game import GAME as LUDO_RULES
from parcheesi.games.ludo.notation import action_from_json, state_from_json, state_to_json
from parcheesi.games.ludo.state import LudoState, new_state
from parcheesi.games.ludo.turns import advance, apply
from parcheesi.games.parcheesi.game import GAME as PARCHEESI_RULES
from parcheesi.server.simulate import play_game, seating, simulate

RULES = LUDO_RULES


def test_ludo_has_every_method_and_property_of_the_interface():
    names = ({name for name, _ in inspect.getmembers(GameRules) if not name.startswith("_")}
             | {f.name for f in fields(GameRules)})
    assert {"house_rules", "new_state", "motions", "choose", "hint"} <= names
    for name in names:
        assert hasattr(RULES, name), name
    assert rules_for("ludo") is RULES
    assert (RULES.kind, RULES.title, RULES.colours) == ("ludo", "Ludo",
                                                        ("red", "green", "yellow", "blue"))
    assert RULES.levels == ("random", "easy", "medium", "hard", "expert", "points")
    assert RULES.table_levels == ("easy", "medium", "hard", "expert")
    assert RULES.house_rules == ("stars", "third_six", "capture_all", "no_home_bonus",
                                 "six_again")
    assert PARCHEESI_RULES.house_rules == ()
    with pytest.raises(ValueError, match="Parcheesi has no house rules"):
        PARCHEESI_RULES.new_state((0, 2), ("stars",))


def test_colour_sets_and_seats():
    # any two colours may play (docs/rules/ludo.md 1), the opposite pairs first
    assert RULES.colour_sets(2) == [(0, 2), (1, 3), (0, 1), (0, 3), (1, 2), (2, 3)]
    assert RULES.colour_sets(3) == [(0, 1, 2), (0, 1, 3), (0, 2, 3), (1, 2, 3)]
    assert RULES.colour_sets(4) == [(0, 1, 2, 3)] and RULES.colour_sets(5) == []
    assert RULES.check_colours((3, 0)) == (0, 3)  # any pair, in turn order
    with pytest.raises(ValueError, match="only once"):
        RULES.check_colours((1, 1))
    assert {tuple(seating(RULES, ["a", "b", "c"], g)) for g in range(12)} == set(
        RULES.colour_sets(3))
    state = RULES.new_state((2, 0), ("stars",))
    assert (state.colours, state.house, state.phase) == ((0, 2), ("stars",), Phase.OPENING)


def test_motions_and_their_pace():
    events = [Entered(0, 1, (6,)), Moved(0, 1, 0, 6, 6), Captured(2, 3, 0, 1, 32),
              Moved(1, 0, 50, 56, 6)]
    assert RULES.motions(events) == [(0, 1, YARD, 0), (0, 1, 0, 6), (2, 3, 32, YARD),
                                     (1, 0, 50, HOME)]
    assert RULES.captures(events) == [(0, 2)]
    # Ludo's own pace, as its board animates (110 ms a square, 360 ms a capture's slide)
    assert RULES.motion_ms([(0, 1, 0, 6)]) == 6 * layout.STEP_MS == 660
    assert RULES.motion_ms([(2, 3, 32, YARD)]) == layout.CAPTURE_MS == 360
    assert RULES.motion_ms(RULES.motions(events) * 5) == layout.MAX_ANIMATION_MS


def test_standings_while_the_game_goes_on_and_at_the_end():
    pieces = ((HOME, HOME, 3, YARD), (10, 10, 10, 10), (HOME, 0, YARD, YARD), ())
    state = LudoState(colours=(0, 1, 2), pieces=pieces, phase=Phase.ROLL, turn=1)
    assert RULES.standings(state) == [0, 2, 1]  # HOME first, then progress
    assert RULES.winner(state) is None and not RULES.over(state)
    assert RULES.rolling(state) and RULES.turn(state) == 1


def test_the_computers_choose_legal_moves_and_always_play_on():
    """The computers' interface, whatever their strategy: a legal action that finishes the
    roll, the position it leads to, a reason when asked, the same choice every time."""
    state = LudoState(colours=(0, 1, 2), pieces=((3, 22, YARD, 55), (10, YARD, YARD, YARD),
                                                 (HOME, HOME, HOME, 54), ()),
                      phase=Phase.ROLL, turn=0)
    assert RULES.decide(state, "easy").actions == [Roll()]
    rolled, _ = apply(state, Roll(), 1)  # 3 -> 4, 22 -> 23 captures green 10, 55 -> HOME
    for level in ai.LEVELS:
        decision = RULES.decide(rolled, level, reason=True)
        (action,) = decision.actions
        assert action in {c.action for c in RULES.choices(rolled)}
        assert decision.state == advance(rolled, action) and decision.reason
        assert RULES.decide(rolled, level, reason=True) == decision  # replays
    hint = RULES.hint(rolled)
    assert hint.actions == RULES.decide(rolled, "expert").actions and hint.reason
    asked = LudoState(colours=(0, 1, 2), pieces=((HOME,) * 4, (5, YARD, YARD, YARD),
                                                 (7, YARD, YARD, YARD), ()),
                      phase=Phase.PLAY_ON, turn=1, asking=(1, 2), places=(0,), ranks=(1,),
                      winner=0)
    for level in ai.LEVELS:
        decision = RULES.decide(asked, level)
        assert decision.actions == [PlayOn(True)] and decision.state.turn == 2
    with pytest.raises(ValueError, match="unknown player"):
        RULES.decide(state, "grandmaster")


def test_the_simulator_plays_ludo_with_house_rules_and_counts_draws():
    result = simulate(["random", "hard", "easy"], 6, seed=3, kind="ludo",
                      house=("stars", "third_six"))
    assert result["games"] == 6 and result["house"] == ["stars", "third_six"]
    assert sum(result["wins"].values()) + result["draws"] == 6  # type: ignore[union-attr]
    assert play_game(["random", "random"], 3, 1, "ludo").rolls > 0
    with pytest.raises(ValueError, match="unknown house rule"):
        simulate(["random", "hard"], 1, seed=1, kind="ludo", house=("doubles",))


def test_the_dice_of_the_interface_follow_the_seed():
    assert [RULES.dice(9)(k) for k in range(40)] == [ludo_dice(9)(k) for k in range(40)]
    state, _ = apply(new_state((0, 2)), Roll(), fixed([4]))
    assert state.opening == ((0, 4),)


# --- state and action JSON refuse what is not one ------------------------------------------------

def a_state() -> dict:
    state = new_state((0, 1, 3), ("stars",))
    dice = fixed([6, 2, 3, 6])
    for _ in range(4):
        state, _ = apply(state, Roll(), dice)
    assert state.phase is Phase.MOVE
    return state_to_json(state)


@pytest.mark.parametrize("change, words", [
    ({"colours": ["red", "green"]}, "not the state's colours"),
    ({"colours": ["green", "red", "blue"]}, "turn order"),
    ({"colours": ["red", "red", "blue"]}, "distinct colours"),
    ({"phase": "reward"}, "phase"),
    ({"turn": "yellow"}, "turn must be a colour of the game"),
    ({"dice": [7]}, "one die 1..6"),
    ({"dice": [1, 2]}, "one die 1..6"),
    ({"portions": []}, "portions must be the die exactly"),
    ({"portions": [3]}, "portions must be the die exactly"),
    ({"sixes": -1}, "sixes must be a whole number"),
    ({"sixes": True}, "sixes must be a whole number"),
    ({"house": ["stars", "stars"]}, "more than once"),
    ({"house": ["bogus"]}, "unknown house rule"),
    ({"house": ["third_six", "six_again"]}, "sorted"),
    ({"opening": [["red", 9]]}, "[colour, die] pairs"),
    ({"asking": ["green"]}, "asking must start with turn"),
    ({"places": ["red"]}, "ranks must give a place"),
    ({"places": ["red"], "ranks": [1]}, "the winner must be the first colour placed"),
    ({"rolls": 1, "race_rolls": 2}, "race_rolls cannot exceed rolls"),
    ({"rolls": 1.5}, "rolls must be a whole number"),
    ({"winner": "green"}, "the winner must be the first"),
    ({"draw": 1}, "draw must be true or false"),
    ({"draw": True}, "a drawn game is over"),
    ({"pieces": {"red": [55, "home", "home", "home"], "green": ["yard"] * 4,
                 "blue": ["yard"] * 4}}, "no piece can use the die"),
    ({"pieces": {"red": ["yard"] * 3, "green": ["yard"] * 4, "blue": ["yard"] * 4}},
     "exactly four pieces"),
])
def test_a_malformed_state_is_refused(change, words):
    raw = {**a_state(), **change}
    with pytest.raises(NotationError, match=words.replace("[", r"\[").replace("]", r"\]")):
        state_from_json(raw)


def test_a_state_needs_exactly_its_fields():
    raw = a_state()
    assert state_from_json(raw).phase is Phase.MOVE
    for bad in ({**raw, "extra": 1}, {k: v for k, v in raw.items() if k != "sixes"}, [], None):
        with pytest.raises(NotationError, match="a Ludo state is an object"):
            state_from_json(bad)


@pytest.mark.parametrize("raw, words", [
    ({"type": "reward", "piece": 1, "amount": 10}, "type roll, move or play_on"),
    ({"type": "move", "piece": 0}, "piece is 1..4"),
    ({"type": "move", "piece": True}, "piece is 1..4"),
    ({"type": "move", "piece": 2, "capture": "ruby"}, "capture is a colour or null"),
    ({"type": "move", "piece": 2, "portions": [3]}, "no field 'portions'"),
    ({"type": "play_on", "agree": 1}, "agree is true or false"),
    ({"type": "roll", "die": 6}, "no field 'die'"),
    ("roll", "type roll, move or play_on"),
])
def test_a_malformed_action_is_refused(raw, words):
    with pytest.raises(NotationError, match=words):
        action_from_json(raw)


def test_actions_read_as_people_number_pieces():
    assert action_from_json({"type": "move", "piece": 2, "capture": "yellow"}) == Move(1, 2)
    assert action_from_json({"type": "move", "piece": 4}) == Move(3)
    assert action_from_json({"type": "play_on", "agree": False}) == PlayOn(False)
    with pytest.raises(IllegalAction):
        apply(new_state((0, 2)), PlayOn(True))


def test_the_position_of_a_long_run_of_sixes_is_a_request_the_command_line_takes():
    """Without ``third_six`` a run of sixes has no end; the position says at most the 2 a
    request may carry (only that house rule reads them), so "Copy position" and ``replay``
    always print a request ``outcomes`` answers."""
    pieces = ((10, YARD, YARD, YARD), (), (20, YARD, YARD, YARD), ())
    rolling = LudoState(colours=(0, 2), pieces=pieces, phase=Phase.ROLL, turn=0, sixes=4)
    assert RULES.position(rolling)["sixes"] == 2
    moving, _ = apply(rolling, Roll(), 6)
    assert moving.sixes == 5 and RULES.position(moving)["sixes"] == 2
    request = {k: v for k, v in RULES.position(moving).items() if k != "game"}
    assert RULES.outcomes(request)["outcomes"]


def test_a_move_is_told_with_where_it_went():
    """The move log's words for a move: how far, and into the home lane or to HOME ("moved
    piece 3 by 1 HOME" before)."""
    def said(start: int, end: int) -> str | None:
        return LUDO_RULES.look.describe(Moved(0, 2, start, end, end - start), lambda _: "Red")

    assert said(10, 14) == "Red moved piece 3 by 4"
    assert said(48, 52) == "Red moved piece 3 by 4 into the home lane"
    assert said(55, HOME) == f"Red moved piece 3 by {HOME - 55} to HOME"
