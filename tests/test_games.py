"""The registry of games (``parcheesi/core/registry.py``) and Parcheesi behind the game-rules
interface: a game played only through the interface is the engine's own game, its JSON
round-trips, and a request or a stored game of a kind this server does not play is refused
clearly."""

from __future__ import annotations

import json
import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from parcheesi.__main__ import choose_json, outcomes_json
from parcheesi.core.events import Captured
from parcheesi.core.notation import NotationError
from parcheesi.core.registry import (
    DEFAULT_GAME,
    UnknownGame,
    games,
    plays,
    register,
    rules_for,
    unregister,
)
from parcheesi.games.ludo.game import GAME as LUDO_RULES
from parcheesi.games.parcheesi.board import HOME
from parcheesi.games.parcheesi.game import GAME as PARCHEESI_RULES
from parcheesi.games.parcheesi.turns import Game
from parcheesi.server.simulate import seating

EXAMPLE = {"turn": "ruby",
           "pieces": {"ruby": ["start", 12, 64, "home"], "sapphire": ["start", "start", 30, 70]},
           "dice": [5, 3]}


def test_the_server_plays_parcheesi_and_ludo_and_refuses_other_kinds():
    assert games() == {"parcheesi": PARCHEESI_RULES, "ludo": LUDO_RULES}
    assert list(games()) == ["parcheesi", "ludo"] and DEFAULT_GAME == "parcheesi"
    assert rules_for("parcheesi") is PARCHEESI_RULES
    assert rules_for("ludo") is LUDO_RULES
    for bad in ("chess", None, 7, ["ludo"]):
        assert not plays(bad)
        with pytest.raises(UnknownGame, match="unknown game"):
            rules_for(bad)
    with pytest.raises(UnknownGame, match=re.escape(
            "unknown game 'chess' (this server plays ludo, parcheesi)")):
        rules_for("chess")


def test_a_game_registered_elsewhere_is_played_until_it_is_unregistered():
    from dataclasses import replace
    other = replace(LUDO_RULES, kind="other", title="Other")
    register(other)
    try:
        assert rules_for("other") is other and list(games())[-1] == "other"
        register(other)  # the same game again changes nothing
        with pytest.raises(ValueError, match="another game"):
            register(replace(other))
        with pytest.raises(ValueError, match="listed"):
            unregister("ludo")
    finally:
        unregister("other")
    assert not plays("other") and list(games()) == ["parcheesi", "ludo"]


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**62), count=st.sampled_from([2, 3, 4]),
       choice=st.integers(0, 10**6))
def test_a_game_played_through_the_interface_is_the_engines_game(seed, count, choice):
    """Random choices among the interface's own choices, to the end or 400 actions; the
    engine's record replay of the same actions reaches the same position, and every state
    and action survives its JSON."""
    rules = PARCHEESI_RULES
    colours = rules.colour_sets(count)[choice % len(rules.colour_sets(count))]
    state, dice = rules.new_state(colours), rules.dice(seed)
    record = Game(colours, seed)
    pick = random.Random(choice)
    for _ in range(400):
        if rules.over(state):
            break
        options = rules.choices(state)
        assert options, "a game that is not over always offers a choice"
        assert rules.rolling(state) == (len(options) == 1 and type(options[0].action).__name__
                                        == "Roll")
        action = pick.choice(options).action
        assert rules.action_from_json(json.loads(json.dumps(rules.action_to_json(action)))) \
            == action
        state, events = rules.apply(state, action, dice)
        assert record.play(action) == events
        assert rules.state_from_json(json.loads(json.dumps(rules.state_to_json(state)))) \
            == state
        assert rules.captures(events) == [(e.by_colour, e.colour) for e in events
                                          if isinstance(e, Captured)]
    assert record.state == state
    assert sorted(rules.standings(state)) == list(colours)
    # the winner is the first to finish, known from then on (also while the others play on)
    finished = [c for c in colours if state.pieces[c] == (HOME,) * 4]
    assert rules.winner(state) == state.winner
    assert (state.winner is None) == (not finished) and (not rules.over(state) or finished)


def test_colour_sets_are_the_tables_the_rules_allow():
    rules = PARCHEESI_RULES
    assert rules.colour_sets(2) == [(0, 2), (1, 3)]
    assert len(rules.colour_sets(3)) == 4 and len(rules.colour_sets(4)) == 1
    for count in (2, 3, 4):
        for colours in rules.colour_sets(count):
            assert rules.check_colours(colours) == colours
    with pytest.raises(ValueError, match="opposite pair"):
        rules.check_colours((0, 1))


def test_the_simulator_seats_rotate_over_the_colour_sets():
    rules = PARCHEESI_RULES
    assert [tuple(seating(rules, ["a", "b"], g)) for g in range(4)] == [
        (0, 2), (0, 2), (1, 3), (1, 3)]
    assert [seating(rules, ["a", "b"], g)[0] for g in range(2)] == ["a", "b"]
    assert {tuple(seating(rules, ["a", "b", "c"], g)) for g in range(12)} == set(
        rules.colour_sets(3))


def test_a_request_names_its_game_or_is_parcheesi():
    plain = outcomes_json(json.dumps(EXAMPLE))
    assert outcomes_json(json.dumps({**EXAMPLE, "game": "parcheesi"})) == plain
    assert choose_json(json.dumps({"game": "parcheesi", **EXAMPLE}), "hard") == choose_json(
        json.dumps(EXAMPLE), "hard")
    for bad in ("chess", "", 7, None, ["parcheesi"]):
        with pytest.raises(NotationError, match="unknown game"):
            outcomes_json(json.dumps({**EXAMPLE, "game": bad}))
    with pytest.raises(NotationError, match="more than once"):
        outcomes_json('{"game": "parcheesi", "game": "parcheesi", "turn": "ruby"}')
