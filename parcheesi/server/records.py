"""Game records: one JSON format for both games, written from a stored game, read back,
replayed step by step and verified against the dice commitment (``docs/records.md``).

A record says everything needed to play the game again without the server: the game and
its house rules, the seats, the position it began at, the dice of every roll, every
action, the result, the commitment to the dice secret and, once the game is over, the
secret itself. Reading a record refuses anything malformed; replaying it refuses the first
step the rules or the dice contradict, naming the step and why.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..core.notation import NotationError, brief, parse_untrusted
from ..core.registry import AnyRules, plays, rules_for
from ..core.state import IllegalAction
from . import fairness
from .live import COMPUTER, HUMAN, NAME_LENGTH, Seat, first_state, seats_of
from .store import SAME_DEVICE, SOLO, GameRow, Store, house_of

FORMAT = "parcheesi-record"
VERSION = 1
MAX_RECORD_BYTES = 4_000_000
"""The largest record file accepted (a long Ludo game is about 100 kB)."""
_KEYS = {"format", "version", "game", "house", "seats", "start", "created", "ended",
         "commitment", "contributions", "seed", "rolls", "actions", "result", "final"}


class RecordError(ValueError):
    """A record that cannot be read, or a step of it that cannot have happened."""

    def __init__(self, reason: str, step: int | None = None) -> None:
        super().__init__(reason if step is None else f"step {step}: {reason}")
        self.step = step


@dataclass(frozen=True)
class Step:
    """One action of a record and the position it led to (step 0: the start)."""

    number: int
    action: Any
    state: Any
    events: list[Any] = field(default_factory=list)


@dataclass
class Record:
    """A game record as read, before it is replayed."""

    rules: AnyRules
    house: tuple[str, ...]
    seats: list[Seat]
    start: Any
    actions: list[Any]
    rolls: dict[int, Any]
    commitment: str = ""
    contributions: dict[str, str] = field(default_factory=dict)
    secret: str | None = None
    result: dict[str, Any] | None = None
    final: Any = None
    created: str = ""
    ended: str = ""

    @property
    def checkable(self) -> bool:
        """Whether the dice can be checked: the secret is revealed and was committed to."""
        return bool(self.commitment) and self.secret is not None

    def local_mode(self) -> str:
        """How the seats would be played on one device (solo: one person at the table)."""
        return SOLO if sum(s.is_human for s in self.seats) == 1 else SAME_DEVICE


# --- writing -------------------------------------------------------------------------------

def record_of(row: GameRow, actions: list[dict[str, Any]]) -> dict[str, Any]:
    """The record of a stored game: its first ``row.version`` actions (as stored; one
    stored after the row was read waits for the next record) and the dice of every roll up
    to its snapshot, which was written with its last action. The secret only once the game
    is over, so a record taken during a game reveals no future die."""
    rules = rules_for(row.kind)
    dice = rules.dice(row.seed)
    start, state = first_state(row), rules.state_from_json(json.loads(row.state))
    names = rules.colours
    record: dict[str, Any] = {
        "format": FORMAT, "version": VERSION, "game": rules.kind,
        "house": list(house_of(row.house)),
        "seats": [{"colour": names[s.colour], "kind": s.kind, "level": s.level,
                   "name": s.name} for s in seats_of(row)],
        "created": row.created_at.isoformat(), "ended": "",
        "commitment": row.commitment or None,
        "contributions": json.loads(row.contributions),
        "rolls": [[index, rules.dice_to_json(dice(index))]
                  for index in range(rules.rolls(start), rules.rolls(state))],
        "actions": actions[:row.version],
        "result": result_of(rules, state),
        "final": rules.state_to_json(state),
    }
    if row.start:
        record["start"] = json.loads(row.start)
    if rules.over(state):
        record["ended"] = row.updated_at.isoformat()
        if row.commitment:
            record["seed"] = row.secret
    return record


def result_of(rules: AnyRules, state: Any) -> dict[str, Any]:
    """Where the game stands: whether it is over, who won, the places, the rolls."""
    names = rules.colours
    winner = rules.winner(state)
    return {"over": rules.over(state), "winner": None if winner is None else names[winner],
            "places": [[names[c], place] for c, place in rules.places(state)],
            "standings": [names[c] for c in rules.standings(state)],
            "rolls": rules.rolls(state)}


# --- reading -------------------------------------------------------------------------------

def parse_record(text: str | bytes) -> Record:
    """Read a record file's text; RecordError saying what is wrong with it."""
    if len(text) > MAX_RECORD_BYTES:
        raise RecordError(f"a record is at most {MAX_RECORD_BYTES // 1_000_000} MB")
    try:
        if isinstance(text, bytes):
            text = text.decode("utf-8")  # JSON is UTF-8 (RFC 8259)
        raw = parse_untrusted(text, MAX_RECORD_BYTES, "a record")
    except UnicodeDecodeError:
        raise RecordError("not JSON: a record is UTF-8 text") from None
    except NotationError as error:
        raise RecordError(str(error)) from None
    return read_record(raw)


def read_record(raw: Any) -> Record:
    """A record's JSON object, checked field by field."""
    if not isinstance(raw, dict):
        raise RecordError("a record is a JSON object")
    if raw.get("format") != FORMAT:
        raise RecordError(f"not a game record (format must be {FORMAT!r})")
    version = raw.get("version")
    if type(version) is not int or version != VERSION:  # not true, not 1.0
        raise RecordError(f"record version {brief(json.dumps(raw.get('version')))} is not "
                          f"one this server reads ({VERSION})")
    unknown = sorted(set(raw) - _KEYS)
    if unknown:
        raise RecordError(f"unknown field {brief(repr(unknown[0]))}")
    kind = raw.get("game")
    if not plays(kind):
        raise RecordError(f"unknown game {brief(json.dumps(kind))}")
    rules = rules_for(kind)
    try:
        return _read_fields(rules, raw)
    except RecordError:
        raise
    except NotationError as error:
        raise RecordError(str(error)) from None
    except KeyError as error:
        raise RecordError(f"not a valid record: {brief(repr(error.args[0]))} is missing") \
            from None
    except (TypeError, AttributeError):
        raise RecordError("not a valid record: a field holds the wrong kind of value") \
            from None
    except ValueError as error:
        raise RecordError(f"not a valid record: {str(error).splitlines()[0]}") from None


def _read_fields(rules: AnyRules, raw: dict[str, Any]) -> Record:
    house = tuple(_strings(raw.get("house", []), "house"))
    seats = _seats(rules, raw["seats"])
    colours = tuple(s.colour for s in seats)
    start = (rules.state_from_json(raw["start"]) if "start" in raw
             else rules.new_state(colours, house))
    if tuple(start.colours) != colours:
        raise RecordError("the seats are not the colours of the start position")
    record = Record(
        rules=rules, house=house, seats=seats, start=start,
        actions=_list(raw["actions"], "actions"), rolls=_rolls(rules, raw["rolls"]),
        commitment=_hex_or_empty(raw.get("commitment"), "commitment", 32),
        contributions=_contributions(rules, raw.get("contributions", {})),
        secret=_secret(raw.get("seed")), result=raw.get("result"), final=raw.get("final"),
        created=str(raw.get("created", "")), ended=str(raw.get("ended") or ""))
    if record.secret is not None and not record.commitment:
        raise RecordError("a revealed seed needs the commitment it was made against")
    return record


def _seats(rules: AnyRules, raw: Any) -> list[Seat]:
    seats = []
    for entry in _list(raw, "seats"):
        if not isinstance(entry, dict) or entry.get("colour") not in rules.colours:
            raise RecordError(f"a seat must name a colour of {rules.title}")
        kind, level, name = entry.get("kind"), entry.get("level", ""), entry.get("name", "")
        if kind not in (HUMAN, COMPUTER) or not isinstance(level, str) \
                or not isinstance(name, str):
            raise RecordError(f"seat {entry['colour']}: kind, level and name are not valid")
        if kind == COMPUTER and level not in rules.table_levels:
            raise RecordError(f"seat {entry['colour']}: unknown computer level {level!r}")
        seats.append(Seat(colour=rules.colours.index(entry["colour"]), kind=kind,
                          level=level or rules.default_level, name=name[:NAME_LENGTH]))
    colours = tuple(sorted(s.colour for s in seats))
    try:
        rules.check_colours(colours)
    except ValueError as error:
        raise RecordError(f"seats: {error}") from None
    if len(set(colours)) != len(seats):
        raise RecordError("seats: a colour is seated twice")
    return sorted(seats, key=lambda s: s.colour)


def _rolls(rules: AnyRules, raw: Any) -> dict[int, Any]:
    rolls: dict[int, Any] = {}
    for entry in _list(raw, "rolls"):
        if not (isinstance(entry, list) and len(entry) == 2 and type(entry[0]) is int
                and entry[0] >= 0 and entry[0] not in rolls):
            raise RecordError("each roll is [roll number, dice], each number once")
        rolls[entry[0]] = rules.dice_from_json(entry[1])
    return rolls


def _contributions(rules: AnyRules, raw: Any) -> dict[str, str]:
    if not isinstance(raw, dict):
        raise RecordError("contributions must be an object of colour: hex")
    for colour, value in raw.items():
        if colour not in rules.colours or not fairness.is_hex(
                value, fairness.CONTRIBUTION_BYTES):
            raise RecordError(f"contribution {brief(repr(colour))} is not "
                              f"{fairness.CONTRIBUTION_BYTES} bytes of hex for a colour")
    return dict(raw)


def _secret(raw: Any) -> str | None:
    if raw is None:
        return None
    if not fairness.is_hex(raw, fairness.SECRET_BYTES):
        raise RecordError(f"the seed must be {fairness.SECRET_BYTES} bytes of lowercase hex")
    return str(raw)


def _hex_or_empty(raw: Any, what: str, size: int) -> str:
    if raw is None:
        return ""
    if not fairness.is_hex(raw, size):
        raise RecordError(f"the {what} must be {size} bytes of lowercase hex")
    return str(raw)


def _list(raw: Any, what: str) -> list[Any]:
    if not isinstance(raw, list):
        raise RecordError(f"{what} must be a list")
    return raw


def _strings(raw: Any, what: str) -> list[str]:
    if not isinstance(raw, list) or not all(isinstance(v, str) for v in raw):
        raise RecordError(f"{what} must be a list of names")
    return raw


# --- replaying -----------------------------------------------------------------------------

def replay(record: Record) -> list[Step]:
    """Every step of the record, from the start; RecordError at the first step that breaks
    the rules or whose dice contradict the record (or, when revealed, the seed)."""
    rules = record.rules
    if record.checkable and not fairness.matches(record.secret or "", record.commitment):
        raise RecordError("the seed does not match the commitment made at the start", 0)
    seeded = (rules.dice(fairness.dice_seed(record.secret or "", record.contributions))
              if record.checkable else None)
    state = record.start
    steps = [Step(0, None, state)]
    drawn: set[int] = set()
    for number, raw in enumerate(record.actions, start=1):
        dice = _StepDice(record.rolls, seeded, number, drawn)
        try:
            action = rules.action_from_json(raw)
            state, events = rules.apply(state, action, dice)
        except (NotationError, IllegalAction) as error:
            raise RecordError(f"not a legal action here ({error})", number) from None
        steps.append(Step(number, action, state, events))
    _check_end(record, state, len(steps) - 1, drawn)
    return steps


class _StepDice:
    """The dice one step may draw: those the record lists, which must also follow from the
    seed when it is revealed."""

    def __init__(self, rolls: dict[int, Any], seeded: Callable[[int], Any] | None,
                 step: int, drawn: set[int]) -> None:
        self.rolls, self.seeded, self.step, self.drawn = rolls, seeded, step, drawn

    def __call__(self, index: int) -> Any:
        self.drawn.add(index)
        if index not in self.rolls:
            raise RecordError(f"roll {index + 1} is not in the record", self.step)
        value = self.rolls[index]
        if self.seeded is not None and self.seeded(index) != value:
            raise RecordError(f"the dice of roll {index + 1} ({_dice_words(value)}) do not "
                              f"follow from the seed ({_dice_words(self.seeded(index))})",
                              self.step)
        return value


def _dice_words(value: Any) -> str:
    return "+".join(map(str, value)) if isinstance(value, tuple) else str(value)


def _check_end(record: Record, state: Any, last: int, drawn: set[int]) -> None:
    """The replay must end where the record says it did, with no roll left unused."""
    rules = record.rules
    extra = sorted(set(record.rolls) - drawn)
    if extra:
        raise RecordError(f"roll {extra[0] + 1} is listed but never rolled", last)
    if record.final is not None and record.final != rules.state_to_json(state):
        raise RecordError("the final position is not where the actions lead", last)
    if record.result is not None and record.result != result_of(rules, state):
        raise RecordError("the result is not what the actions lead to", last)
    if record.secret is not None and not rules.over(state):
        raise RecordError("the seed is revealed before the game is over", last)


def verify(record: Record) -> str:
    """A one-line summary of a record that replays cleanly (RecordError otherwise)."""
    return summary(record, replay(record)[-1].state)


def summary(record: Record, final: Any) -> str:
    """What a record that replayed cleanly to ``final`` shows: the game, how it went and
    how far its dice can be checked."""
    rules = record.rules
    winner = rules.winner(final)
    outcome = (f"{rules.colours[winner].title()} won" if winner is not None
               else "no winner" if rules.over(final) else "not over")
    played = (f"{rules.title}, {len(record.seats)} players, {len(record.actions)} actions, "
              f"{rules.rolls(final) - rules.rolls(record.start)} rolls, {outcome}")
    if record.checkable:
        return f"verified: {played}; every die follows from the seed committed to " \
               f"({record.commitment[:16]}...) and the players' contributions"
    if not record.commitment:
        return f"legal: {played}; dice not verifiable (the game began before dice " \
               "commitments)"
    return f"legal: {played}; dice not yet verifiable (the seed is revealed when the " \
           "game is over)"


async def stored_record(store: Store, game_id: str) -> dict[str, Any] | None:
    """The record of a stored game (None for no such game)."""
    row = await store.game(game_id)
    if row is None or not plays(row.kind):
        return None
    return record_of(row, await store.actions(game_id))
