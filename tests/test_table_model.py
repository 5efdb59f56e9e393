"""The table model (``components/table_model.py``) with plain asserts: what the table shows
and what a tap does, from engine states built with ``positions.py``."""

from __future__ import annotations

import json

from positions import AMBER, EMERALD, RUBY, SAPPHIRE, H, S, at_roll, rolled

from components.pages import shared_head
from components.table_model import (
    HINT_UNAVAILABLE,
    Seen,
    TableModel,
    all_tones,
    last_move,
    sound_for,
)
from parcheesi.core.actions import PlayOn, Roll
from parcheesi.core.events import Moved, Placed, PlayOnDeclined, Rolled, TurnPassed
from parcheesi.core.registry import games
from parcheesi.core.state import Phase
from parcheesi.games.ludo.game import GAME as LUDO_RULES
from parcheesi.games.ludo.state import LudoState
from parcheesi.games.parcheesi.game import GAME as PARCHEESI_RULES
from parcheesi.games.parcheesi.state import State
from parcheesi.games.parcheesi.turns import Move, apply, standings
from parcheesi.games.parcheesi.words import bonuses
from parcheesi.server.live import Stats

NAMES = {RUBY: "Ann", EMERALD: "Emerald", SAPPHIRE: "Sapphire", AMBER: "Amber"}
SEATS = {RUBY: "Ann (Ruby)", EMERALD: "Emerald, easy computer",
         SAPPHIRE: "Sapphire, hard computer", AMBER: "Amber, medium computer"}


def play(state: State, *actions: object) -> tuple[State, list]:
    """Apply actions in turn; the final state and all events."""
    events: list = []
    for action in actions:
        state, new = apply(state, action)  # type: ignore[arg-type]
        events.extend(new)
    return state, events


def seen(state: State, *, version: int = 1, acting: bool = True, stats: Stats | None = None
         ) -> Seen:
    return Seen(PARCHEESI_RULES, state, version, NAMES, SEATS, stats or Stats(PARCHEESI_RULES),
                acting)


def test_a_roll_is_the_only_thing_to_do_before_the_dice():
    model = TableModel()
    screen = model.screen(seen(at_roll("ruby", {"ruby": [S, S, S, S], "sapphire": [S] * 4})),
                          [])
    assert (screen.turn, screen.roll_text, screen.can_roll) == ("Turn: Ann (Ruby)", "Roll", True)
    assert screen.board.movable == frozenset() and screen.options == () and not screen.can_hint
    assert screen.choose_note is None and screen.chips == ()


def test_picking_a_piece_shows_its_options_and_where_they_land():
    state, _ = rolled("ruby", {"ruby": [10, S, S, S], "sapphire": [S] * 4}, (6, 2))
    model = TableModel()
    now = seen(state)
    screen = model.screen(now, [])
    assert screen.choose_note == "Choose a piece" and screen.can_hint
    assert [(c.value, c.count) for c in screen.chips] == [(6, 1), (2, 1)]
    assert model.pick_piece(now, 0) is None  # a selection, nothing sent
    screen = model.screen(now, [])
    assert screen.board.selected == (RUBY, 0) and screen.pieces[0].pressed
    # square 17 (progress 12) is a safe square
    assert [text for text, _ in screen.options] == ["Move 6", "Move 2: safe", "Move 8 (6+2)"]
    assert sorted(screen.board.targets) == [(RUBY, 12), (RUBY, 16), (RUBY, 18)]
    assert dict(zip(screen.board.targets, screen.board.target_labels, strict=True)) == {
        (RUBY, 16): "Move 6", (RUBY, 12): "Move 2: safe", (RUBY, 18): "Move 8 (6+2)"}
    # each option and its landing marker carry the same number (the marker's place)
    assert screen.option_marks == (1, 2, 3)
    assert screen.board.targets[:3] == ((RUBY, 16), (RUBY, 12), (RUBY, 18))
    assert model.pick_target(now, 12) == Move(0, (2,))  # a tap on a landing marker
    assert model.pick_target(now, 30) is None
    assert screen.choose_note is None
    model.pick_piece(now, 0)  # a second tap lets go
    assert model.screen(now, []).options == ()


def test_options_say_what_they_do_besides_moving():
    # Sapphire's piece at 47 stands on square 18, Ruby's progress 13; Ruby's lane piece at 66
    # is five squares from HOME (no piece in START: the 5 need not enter one).
    state, _ = rolled("ruby", {"ruby": [10, 66, 20, 30], "sapphire": [47, S, S, S]}, (5, 3))
    model = TableModel()
    now = seen(state)
    model.pick_piece(now, 0)
    assert "Move 3: captures Sapphire, bonus 20" in [t for t, _ in model.screen(now, []).options]
    model.pick_piece(now, 1)
    assert [t for t, _ in model.screen(now, []).options] == ["Move 5: HOME, bonus 10", "Move 3"]


def test_a_piece_with_one_move_moves_at_once_unless_the_setting_says_otherwise():
    # 6 and 2: piece 1 on the track can move 6, 2 or 8; piece 2, three squares from HOME in
    # its lane, only 2.
    state, _ = rolled("ruby", {"ruby": [10, 68, S, S], "sapphire": [S] * 4}, (6, 2))
    now = seen(state)
    only = [c.action for c in PARCHEESI_RULES.choices(state) if c.piece == 1]
    assert only == [Move(1, (2,))]  # the engine's word: piece 2 has one choice
    model = TableModel()
    assert model.pick_piece(now, 1) == Move(1, (2,))  # taken at once, nothing selected
    assert model.screen(now, []).board.selected is None
    assert model.pick_piece(now, 0) is None  # three choices: the piece is selected
    assert model.screen(now, []).board.selected == (RUBY, 0)
    two_steps = TableModel()
    assert two_steps.pick_piece(now, 1, at_once=False) is None  # the setting is off
    assert [text for text, _ in two_steps.screen(now, []).options] == ["Move 2"]


def test_a_portion_picked_first_makes_the_piece_tap_an_action():
    state, _ = rolled("ruby", {"ruby": [10, 20, S, S], "sapphire": [S] * 4}, (6, 2))
    model = TableModel()
    now = seen(state)
    model.pick_portion(2)
    assert model.screen(now, []).chips[1].pressed
    assert model.pick_piece(now, 1) == Move(1, (2,))
    assert model.pick_piece(now, 3) is None  # in START: the 2 cannot enter it


def test_nothing_moves_for_a_table_that_may_not_act():
    state, _ = rolled("ruby", {"ruby": [10, S, S, S], "sapphire": [S] * 4}, (6, 2))
    model = TableModel()
    watching = seen(state, acting=False)
    assert model.pick_piece(watching, 0) is None
    screen = model.screen(watching, [])
    assert screen.status == "Ann is thinking…" and screen.board.movable == frozenset()
    assert not screen.can_roll and not screen.can_hint and screen.chips == ()
    model.show_hint(watching, "take the lead", None)
    assert model.status == HINT_UNAVAILABLE


def test_the_status_says_what_happened_and_the_log_keeps_it():
    before = at_roll("ruby", {"ruby": [S, S, S, S], "sapphire": [S] * 4})
    after, events = apply(before, Roll(), (5, 3))
    stats = Stats(PARCHEESI_RULES)
    stats.record(events)
    model = TableModel()
    now = seen(after, version=2, stats=stats)
    model.changed(now, events)
    screen = model.screen(now, events)
    assert screen.status == "Ann rolled 5 and 3"
    assert screen.log == ("Ann rolled 5 and 3",)
    assert screen.dice == (5, 3)


def test_a_finished_game_shows_the_standings():
    state, _ = rolled("ruby", {"ruby": [66, H, H, H], "sapphire": [S, S, 30, H]}, (5, 3))
    over, events = apply(state, Move(0, (5,)))
    stats = Stats(PARCHEESI_RULES)
    stats.record(events)
    screen = TableModel().screen(seen(over, version=3, acting=False, stats=stats), events)
    assert screen.winner == "Ann" and screen.turn == "Ann won"
    assert [(s.place, s.player, s.home) for s in screen.standings] == [
        (1, "Ann", 4), (2, "Sapphire", 1)]
    assert standings(over) == [RUBY, SAPPHIRE]
    assert screen.status == "" and not screen.can_roll


def test_the_third_doubles_is_told_by_its_own_event():
    before = at_roll("ruby", {"ruby": [10, 20, S, S], "sapphire": [S] * 4}, doubles=2)
    after, events = apply(before, Roll(), (6, 6))
    stats = Stats(PARCHEESI_RULES)
    stats.record(events)
    screen = TableModel().screen(seen(after, stats=stats, acting=False), events)
    assert screen.log == ("Sapphire's turn",
                          "Third doubles: Ann's piece 2 goes back to START",
                          "Ann rolled 6 and 6")


def test_badges_name_every_seat_and_mark_the_one_to_act():
    state, _ = rolled("ruby", {"ruby": [10, H, S, S], "sapphire": [S, S, H, H]}, (6, 2))
    now = Seen(PARCHEESI_RULES, state, 1, NAMES, SEATS, Stats(PARCHEESI_RULES), True,
               levels={SAPPHIRE: "hard"}, you=RUBY)
    screen = TableModel().screen(now, [])
    assert [(b.colour, b.name, b.detail, b.home, b.current) for b in screen.badges] == [
        (RUBY, "Ann", "you", 1, True), (SAPPHIRE, "Sapphire", "hard computer", 2, False)]
    assert screen.badges[0].label == "Ann, you, 1 HOME, to play"
    assert screen.your_turn and screen.dice_owner == "Ann"
    watching = Seen(PARCHEESI_RULES, state, 1, NAMES, SEATS, Stats(PARCHEESI_RULES), False,
                    levels={SAPPHIRE: "hard"}, you=SAPPHIRE)
    assert not TableModel().screen(watching, []).your_turn


def test_the_dice_say_whose_roll_they_are_and_go_when_the_turn_passes():
    before = at_roll("ruby", {"ruby": [10, S, S, S], "sapphire": [S] * 4})
    rolled_now, events = apply(before, Roll(), (6, 2))
    model = TableModel()
    model.changed(seen(rolled_now, version=2), events)
    assert model.screen(seen(rolled_now, version=2), events).dice_owner == "Ann"
    moved, events = apply(rolled_now, Move(0, (6, 2)))  # the whole roll: Sapphire's turn
    model.changed(seen(moved, version=3, acting=False), events)
    screen = model.screen(seen(moved, version=3, acting=False), events)
    assert (screen.dice, screen.dice_owner) == (None, None)
    assert [b.current for b in screen.badges] == [False, True]


def test_a_roll_that_passes_the_turn_at_once_stays_on_the_dice_to_show_why():
    """The dice show the roll nothing could use, as the status line says it, in both games:
    a Ludo roll that no piece can use offers no portions, and the dice showed the roll
    before it (or none)."""
    model = TableModel()
    before = at_roll("ruby", {"ruby": [S, S, S, S], "sapphire": [10, S, S, S]})
    passed, events = apply(before, Roll(), (2, 4))  # no 5 to enter with: Sapphire's turn
    assert passed.turn == SAPPHIRE
    model.changed(seen(passed, version=2, acting=False), events)
    screen = model.screen(seen(passed, version=2, acting=False), events)
    assert (screen.dice, screen.dice_owner) == ((2, 4), "Ann")
    red, yellow = 0, 2
    names = {red: "Red", yellow: "Yuki"}
    start = LudoState(colours=(red, yellow), pieces=((10, -1, -1, -1), (), (-1,) * 4, ()),
                      phase=Phase.ROLL, turn=red)
    state, events = LUDO_RULES.apply(start, Roll(), lambda _: 2)  # Red moves 2
    state, events = LUDO_RULES.apply(state, LUDO_RULES.choices(state)[0].action, lambda _: 2)
    model = TableModel()
    model.changed(Seen(LUDO_RULES, state, 2, names, names, Stats(LUDO_RULES), False), events)
    state, events = LUDO_RULES.apply(state, Roll(), lambda _: 3)  # Yuki: all in the yard
    assert state.turn == red
    now = Seen(LUDO_RULES, state, 3, names, names, Stats(LUDO_RULES), True)
    model.changed(now, events)
    screen = model.screen(now, events)
    assert (screen.dice, screen.dice_owner) == ((3,), "Yuki")
    assert "Yuki rolled 3" in screen.status


def test_each_kind_of_moment_has_its_sound():
    start = at_roll("ruby", {"ruby": [S, S, S, S], "sapphire": [S] * 4})
    rolled_now, events = apply(start, Roll(), (5, 3))
    assert sound_for(events, PARCHEESI_RULES.look) == "roll"
    assert sound_for([], PARCHEESI_RULES.look) is None
    _, events = apply(rolled_now, Move(0, (5,)))
    assert sound_for(events, PARCHEESI_RULES.look) == "move"
    capture, _ = rolled("ruby", {"ruby": [10, 20, 30, 40], "sapphire": [47, S, S, S]}, (3, 1))
    _, events = apply(capture, Move(0, (3,)))
    assert sound_for(events, PARCHEESI_RULES.look) == "capture"
    assert bonuses(events) == ((RUBY, 0, "+20"),)  # floated up from the capturing piece
    home, _ = rolled("ruby", {"ruby": [66, 20, 30, 40], "sapphire": [S] * 4}, (5, 2))
    _, events = apply(home, Move(0, (5,)))
    assert sound_for(events, PARCHEESI_RULES.look) == "home"
    assert bonuses(events) == ((RUBY, 0, "+10"),)
    third = at_roll("ruby", {"ruby": [10, 20, S, S], "sapphire": [S] * 4}, doubles=2)
    _, events = apply(third, Roll(), (6, 6))
    assert sound_for(events, PARCHEESI_RULES.look) == "penalty"
    last, _ = rolled("ruby", {"ruby": [66, H, H, H], "sapphire": [S, S, 30, H]}, (5, 3))
    _, events = apply(last, Move(0, (5,)))
    assert sound_for(events, PARCHEESI_RULES.look) == "win"


def test_every_sound_a_table_makes_has_its_notes() -> None:
    """The shared sounds and each game's own (its look's), in the pages' one tone table; a
    game's sound named without notes would play as a move."""
    named = {"move", "roll", "capture", "home", "bonus", "win", "turn"}
    for rules in games().values():
        own = {name for _, name in rules.look.sounds}
        assert own == set(rules.look.tones), rules.kind
        named |= own
    tones = all_tones()
    assert set(tones) == named and tones["penalty"] == (262, 196)
    assert all(notes and all(100 <= hz <= 2000 for hz in notes) for notes in tones.values())
    assert f"const tones = {json.dumps(tones)};" in shared_head()


# --- playing on for places ---------------------------------------------------------------------

THREE = {"ruby": [S, 10, 20, 30], "emerald": [68, H, H, H], "sapphire": [S, S, 5, 40]}
"""Emerald's last piece is on 68: a 3 takes it HOME, first, in a game of three."""


def finished_first() -> tuple[State, list]:
    """Emerald finishes first: Sapphire, then Ann (Ruby), are asked whether to play on."""
    state, _ = rolled("emerald", THREE, (3, 2))
    return apply(state, Move(0, (3,)))


def test_the_person_asked_whether_to_play_on_answers_with_two_buttons():
    asked, _ = apply(finished_first()[0], PlayOn(True))  # the computer Sapphire agrees
    assert asked.turn == RUBY
    model = TableModel()
    screen = model.screen(seen(asked), [])
    assert screen.options == (("Play on for the next places", PlayOn(True)),
                              ("End the game now", PlayOn(False)))
    assert screen.question  # the piece buttons make room for the answers
    assert screen.status == ("Ann: play on for the next places, or end the game and place "
                             "everyone by how far they got?")
    assert not screen.can_roll and screen.choose_note is None and screen.board.movable == set()
    assert not screen.can_hint  # a question, not a roll: nothing for Hint and Play best
    # while the game goes on, the winner's badge says its place and there is no winner card
    assert screen.winner is None and screen.standings == ()
    assert [(b.colour, b.place, b.place_text, b.current) for b in screen.badges] == [
        (RUBY, None, "", True), (EMERALD, 1, "1st", False), (SAPPHIRE, None, "", False)]
    assert screen.badges[1].label == "Emerald, 1st place, 4 HOME"
    assert screen.turn == "Turn: Ann (Ruby)"
    # a table that may not act shows no buttons
    assert model.screen(seen(asked, acting=False), []).options == ()


def test_the_question_and_its_answers_are_told_in_the_status_and_the_log():
    state, events = finished_first()
    stats = Stats(PARCHEESI_RULES)
    stats.record(events)
    model = TableModel()
    now = seen(state, version=2, acting=False, stats=stats)
    model.changed(now, events)
    assert model.screen(now, events).log[:3] == (
        "Play on for the next places? Sapphire, Ann decide", "Emerald takes 1st place",
        "Emerald wins!")
    state, events = play(state, PlayOn(True), PlayOn(True))
    stats.record(events)
    assert TableModel().screen(seen(state, stats=stats), events).log[:4] == (
        "Sapphire's turn", "Playing on for the next places", "Ann plays on",
        "Sapphire plays on")
    assert [b.place_text for b in TableModel().screen(seen(state), []).badges] == [
        "", "1st", ""]


def test_a_game_ended_by_a_no_shows_every_place_on_the_winner_card():
    state, events = play(finished_first()[0], PlayOn(True), PlayOn(False))
    assert events[1:] == [PlayOnDeclined(RUBY), Placed(RUBY, 2), Placed(SAPPHIRE, 3)]
    stats = Stats(PARCHEESI_RULES)
    stats.record(events)
    screen = TableModel().screen(seen(state, acting=False, stats=stats), events)
    assert screen.winner == "Emerald" and screen.turn == "Emerald won"
    assert [(s.place, s.player) for s in screen.standings] == [
        (1, "Emerald"), (2, "Ann"), (3, "Sapphire")]
    assert [b.place_text for b in screen.badges] == ["2nd", "1st", "3rd"]
    assert "Ann ends the game" in screen.log


def test_players_placed_together_share_their_place_on_the_winner_card():
    # Ann and Sapphire have the same progress when Sapphire says no: both are second (in
    # turn order).
    pieces = {"ruby": [S, 10, 20, S], "emerald": [68, H, H, H], "sapphire": [S, 10, 20, S]}
    state, _ = rolled("emerald", pieces, (3, 2))
    state, _ = play(state, Move(0, (3,)), PlayOn(False))
    screen = TableModel().screen(seen(state, acting=False), [])
    assert [(s.place, s.player) for s in screen.standings] == [
        (1, "Emerald"), (2, "Ann"), (2, "Sapphire")]


def test_a_game_played_on_to_the_end_lists_the_places_as_they_came():
    pieces = {"ruby": [S, S, 20, H], "emerald": [H, H, H, H], "sapphire": [68, H, H, H]}
    start = at_roll("sapphire", pieces).with_(winner=EMERALD, places=(EMERALD,), ranks=(1,))
    state, _ = apply(start, Roll(), (3, 2))
    state, events = apply(state, Move(0, (3,)))
    screen = TableModel().screen(seen(state, acting=False), events)
    assert screen.winner == "Emerald"
    assert [(s.place, s.player, s.home) for s in screen.standings] == [
        (1, "Emerald", 4), (2, "Sapphire", 4), (3, "Ann", 1)]


def test_a_ludo_player_asked_to_play_on_gets_the_same_two_buttons():
    red, green, yellow = 0, 1, 2
    pieces = ((55, 56, 56, 56), (56, 10, -1, -1), (-1, -1, -1, -1), ())
    state = LudoState(colours=(red, green, yellow), pieces=pieces, phase=Phase.ROLL, turn=red)
    state, _ = LUDO_RULES.apply(state, Roll(), lambda _: 1)
    state, events = LUDO_RULES.apply(state, LUDO_RULES.choices(state)[0].action,
                                     lambda _: 1)
    assert state.phase is Phase.PLAY_ON and state.turn == green
    names = {red: "Red", green: "Gus", yellow: "Yellow"}
    now = Seen(LUDO_RULES, state, 3, names, names, Stats(LUDO_RULES), True)
    screen = TableModel().screen(now, events)
    assert screen.options == (("Play on for the next places", PlayOn(True)),
                              ("End the game now", PlayOn(False)))
    assert screen.option_marks == (0, 0)  # they land nowhere: no marker numbers
    assert screen.status.startswith("Gus: play on for the next places")
    assert screen.winner is None and [b.place_text for b in screen.badges] == ["1st", "", ""]


def test_the_last_move_is_the_newest_sentence_that_is_not_the_turn_passing_on():
    state = at_roll("ruby", {"ruby": [S, S, S, S], "sapphire": [S] * 4})
    stats = Stats(PARCHEESI_RULES)
    assert last_move(seen(state, acting=False, stats=stats)) == ""
    stats.record([Rolled(SAPPHIRE, (3, 4), (3, 4)), Moved(SAPPHIRE, 0, 5, 12, 7),
                  TurnPassed(RUBY)])
    assert last_move(seen(state, acting=False, stats=stats)) == "Sapphire moved piece 1 by 7"
