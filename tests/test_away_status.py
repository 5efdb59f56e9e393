"""The table's status line while a room's player to act is away (their page not connected):
"Sam is away: waiting for them" instead of "is thinking" or the last move's words, on the
other tables only, and only while that player is the one to act. The room knows who is
away (``Rooms.away``); the table passes it to its model in ``Seen.away``, which decides no
rule: plain asserts on the model here, the room's pages in ``test_rooms_ui``."""

from __future__ import annotations

from dataclasses import replace

from positions import RUBY, SAPPHIRE, S, at_roll

from components.table_model import Seen, TableModel
from parcheesi.core.events import Rolled
from parcheesi.games.parcheesi.game import GAME as PARCHEESI_RULES
from parcheesi.server.live import Stats

NAMES = {RUBY: "Hana", SAPPHIRE: "Sam"}
SEATS = {RUBY: "Hana (Ruby)", SAPPHIRE: "Sam (Sapphire)"}
AWAY = "Sam is away: waiting for them"


def hana_s_table(turn: str) -> Seen:
    """Hana's table (Ruby) with ``turn`` to roll; Hana may act only on her own turn."""
    state = at_roll(turn, {"ruby": [S] * 4, "sapphire": [S] * 4})
    return Seen(PARCHEESI_RULES, state, 1, NAMES, SEATS, Stats(PARCHEESI_RULES),
                acting=turn == "ruby", you=RUBY)


def test_the_status_says_the_player_to_act_is_away_instead_of_thinking() -> None:
    model = TableModel()
    sams_turn = hana_s_table("sapphire")
    assert model.screen(sams_turn, []).status == "Sam is thinking…"
    assert model.screen(replace(sams_turn, away=frozenset({SAPPHIRE})), []).status == AWAY
    # Also over what just happened (the log keeps that), and only while he is away.
    model.changed(sams_turn, [Rolled(RUBY, (6, 1), (6, 1))])
    said = model.screen(sams_turn, []).status
    assert said.startswith("Hana rolled")
    assert model.screen(replace(sams_turn, away=frozenset({SAPPHIRE})), []).status == AWAY
    assert model.screen(sams_turn, []).status == said


def test_nobody_is_waited_for_who_is_not_to_act() -> None:
    model = TableModel()
    hanas_turn = hana_s_table("ruby")  # Hana's own move: her table never says she is away
    assert "away" not in model.screen(replace(hanas_turn, away=frozenset({SAPPHIRE, RUBY})),
                                      []).status
    sams_turn = hana_s_table("sapphire")  # Hana away while it is Sam's move
    assert model.screen(replace(sams_turn, away=frozenset({RUBY})), []).status == (
        "Sam is thinking…")
