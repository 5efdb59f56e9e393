"""The registry of games (``parcheesi/core/registry.py``) and Parcheesi behind the game-rules
interface: the games served and the order they are offered in, a game registered from
elsewhere, Parcheesi's colour sets and the simulator's seats, and a request of a kind this
server does not play refused clearly. What every game must do through the interface is
``test_conformance.py``'s."""

from __future__ import annotations

import json
import re

import pytest

from parcheesi.__main__ import choose_json, outcomes_json
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
from parcheesi.games.parcheesi.game import GAME as PARCHEESI_RULES
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
