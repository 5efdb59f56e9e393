"""Short runs of the fault drills (``benchmarks/chaos.py``, ``benchmarks/attacks.py``)
against the real server.

Each test starts ``app.py`` as a subprocess and drives it as phones do, over HTTP and
NiceGUI's socket.io protocol, with a handful of trials instead of the drill's thousands; it
asserts the drill's own target, so a regression in exactly-once presses, restarts, crashes,
database locks, hostile frames or memory shows up in the normal test run. The full drills
print the figures for ``docs/benchmarks.md``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import attacks
import chaos


def drill(name: str, **settings: Any) -> tuple[dict[str, Any], str]:
    """Run a drill: its figures, and the result as text for a failing assertion (what the
    phones and the server's log saw)."""
    found = (attacks.run if name in attacks.DRILLS else chaos.run)(name, **settings)
    why = json.dumps({k: found[k] for k in ("figures", "server_log", "phones", "code")},
                     default=str)
    return found["figures"], why[:4000]


@pytest.mark.slow
def test_presses_that_arrive_together_make_one_action() -> None:
    found, why = drill("races", trials=10)
    assert found["duplicates"] == 0, why
    assert found["engine_text_shown"] == 0, why
    assert all(race["trials"] for race in found["per_race"].values()), why


@pytest.mark.slow
def test_a_room_stays_one_room_through_restarts() -> None:
    found, why = drill("restart", trials=2)
    assert found["split"] == 0, why


@pytest.mark.slow
def test_a_crash_right_after_the_winning_move_leaves_the_room_playable() -> None:
    found, why = drill("kill-win", trials=1)
    assert found["stuck"] == 0, why


@pytest.mark.slow
def test_computers_carry_on_after_a_database_lock() -> None:
    found, why = drill("lock", trials=1, lock_s=3.0, resume_s=5.0)
    assert found["frozen"] == 0, why


@pytest.mark.slow
def test_no_action_a_phone_saw_is_lost_in_a_crash() -> None:
    found, why = drill("kill-cycles", trials=5)
    assert found["cycles"] == 5, why
    assert found["lost"] == 0, why
    assert found["games_with_versions_unlike_action_rows"] == 0, why


@pytest.mark.slow
def test_bad_presses_change_nothing() -> None:
    found, why = drill("bad-presses", trials=500)
    assert found["state_changes"] == 0, why
    assert found["pages_work_afterwards"], why


@pytest.mark.slow
def test_malformed_frames_cause_no_error_lines() -> None:
    """The 25 kinds of malformed packets, every field of every message with wrong types
    from sockets with and without a page, and wrong arguments to every listener of a room's
    table as its host sees it (the table's controls, the host's tools, the reactions);
    every other kind of page: the long test below."""
    found, why = drill("malformed", pages=1)
    assert found["kinds"] == 25 + 2 + 1
    assert found["frames_of_wrong_types"] > 1000, why
    assert found["error_lines"] == 0, why
    assert not found["server_stopped_answering_after"], why


@pytest.mark.long
def test_wrong_arguments_to_every_kind_of_page_cause_no_error_lines() -> None:
    """Wrong arguments to every listener of all ten kinds of page, at a phone's pace
    (minutes)."""
    found, why = drill("malformed")
    assert found["kinds"] == 25 + 2 + 10
    assert found["frames_of_wrong_types"] > 3000, why
    assert found["error_lines"] == 0, why
    assert not found["server_stopped_answering_after"], why


@pytest.mark.slow
def test_health_answers_within_a_second_while_the_database_is_locked() -> None:
    found, why = drill("health-lock", lock_s=3.0)
    assert found["slowest_ms"] < 1000, why
    assert set(found["during"]) <= {"503 busy", "503 (sqlite3.OperationalError) database "
                                                "is locked"}, why
    assert found["first_200_after_release_s"] is not None, why


@pytest.mark.slow
def test_a_reconnect_storm_is_throttled_and_logged_briefly() -> None:
    """How quick the room stays (the 20 ms p95 target) is a figure of ``benchmarks/attacks.py
    storm`` on a quiet machine; here the bound is looser, as for the flood."""
    found, why = drill("storm", storm_s=6.0, storm_sockets=40, storm_addresses=4)
    assert found["attack"]["accepted"] <= found["accepted_at_most"], why
    assert found["attack"]["refused"] > 0, why
    assert found["log_bytes_per_s"] < 1024, why
    assert found["p95_ms_during_others"] < 500.0, why


@pytest.mark.slow
def test_guessing_from_fresh_addresses_gets_the_servers_bound_of_answers() -> None:
    found, why = drill("guessing", guess_s=20.0, guessers=8)
    assert found["no_room_answers_most_in_a_minute"] <= found["bound"], why
    assert found["answers"].get("too many", 0) > 0, why
    assert found["guest_joined_s"] < 5.0, why


@pytest.mark.slow
def test_a_flooding_socket_is_cut_off_and_the_room_plays_on() -> None:
    """The flood is cut off and the room's other phones keep being answered meanwhile. How
    quickly (the 50 ms p95 target) is a figure of ``benchmarks/chaos.py flood``, measured on
    a quiet machine: under the suite's own load a p95 says more about the machine than the
    server, so here the bound is an order of magnitude looser."""
    found, why = drill("flood", trials=1, flood_s=6.0)
    cut = found["disconnected_after_s"][0]
    assert cut is not None and cut <= 2.0, why
    run = found["runs"][0]
    assert run["samples_during"] >= 10, why
    assert found["p95_ms_others_during_flood"] < 500.0, why


@pytest.mark.long
def test_memory_returns_to_idle_after_visitors_and_rooms_leave() -> None:
    found, why = drill("memory", trials=300, rooms=3, together=True, unloads=False)
    assert found["memory_report"], "the server wrote no memory report on SIGUSR1"
    compared = found["compared"]
    assert found["after_rooms_left"][compared] <= 1.1 * found["idle"][compared], \
        why


@pytest.mark.long
def test_page_loads_that_never_connect_are_let_go_of() -> None:
    """The peak stays bounded, every page goes, and the objects Python holds are back within
    10% of idle. The process's resident size is a figure of ``benchmarks/attacks.py
    page-flood`` only: the allocators keep part of what Python frees (docs/reliability.md)."""
    found, why = drill("page-flood", trials=2000, settle_s=30.0)
    assert found["peak_above_idle_mib"] <= 150, why
    assert found["pages_held_after"] == 0, why
    assert found["objects_after_vs_idle"] <= 1.1, why
