"""Command-line tools (docs/contracts.md contracts).

- ``outcomes``: read one request (docs/contracts.md, "Position and outcome JSON") on standard input
  and print every distinct position reachable by the end of that roll.
- ``choose --player LEVEL [--lines]``: the position a computer player's choices reach by the
  end of the roll, with the hint's reason; ``--lines`` answers one request per line.
- ``simulate --players a,b[,c[,d]] --games N --seed S [--game KIND] [--house a,b]
  [--json]``: computer-only games (``--house``: the game's house rules to switch on).
- ``verify FILE``: check a game record (``docs/records.md``): every action legal, every die
  from the seed committed to at the start and the players' contributions.
- ``replay FILE``: a record's final position (an ``outcomes`` request, without dice) on one
  line and its result on the next.
- ``migrate``: bring the database up to this version's schema (the server also does it on
  start).
- ``ratings [--rebuild]``: rate the finished games not rated yet (``--rebuild``: every
  game again, from the first) and print each game's leaderboard as one JSON object.
- ``backup OUTPUT`` / ``restore BACKUP``: a consistent copy of the database while the server
  runs; putting one back (server stopped).
- ``tournament --format knockout|swiss|robin --entrants LEVEL,... --seed S [--game KIND]
  [--table-size N] [--advance K] [--rounds R] [--house a,b] [--filler LEVEL] [--json]``: an
  all-computer tournament, played out; ``--json`` prints it as one JSON object, without it
  a few lines for people.

Bad input exits with status 2 and a one-line reason on standard error (``choose --lines``
answers ``{"error": ...}`` on that line instead and carries on; ``tournament`` says a wrong
option in that one line too, where the older commands print argparse's usage line first).
Standard input is read as bytes and decoded as UTF-8 whatever the locale, and no more than a
request's bound (``MAX_REQUEST_LENGTH``) is ever held for one request.
"""

from __future__ import annotations

import argparse
import errno
import json
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, BinaryIO, NoReturn

from .core.notation import MAX_REQUEST_LENGTH, NotationError, brief, decode_request, parse_json
from .core.registry import DEFAULT_GAME, AnyRules, games, plays, rules_for
from .server.simulate import simulate

TRAIN_ITERATIONS = 80
"""Iterations of the shipped weights' training (``train``'s default)."""


def game_request(text: str) -> tuple[AnyRules, dict[str, Any]]:
    """The game a request is for (``"game"``, Parcheesi when absent) and the rest of it."""
    request = parse_json(text)
    if not isinstance(request, dict):
        raise NotationError("the request must be a JSON object")
    kind = request.pop("game", DEFAULT_GAME)
    if not plays(kind):
        raise NotationError(f"unknown game {brief(json.dumps(kind))} "
                            f"(use {' or '.join(sorted(games()))})")
    return rules_for(kind), request


def outcomes_json(text: str) -> dict[str, Any]:
    rules, request = game_request(text)
    return rules.outcomes(request)


def choose_json(text: str, player: str) -> dict[str, Any]:
    """The end position of ``player``'s choice for the request's roll, and why."""
    rules, request = game_request(text)
    if player not in rules.levels:
        raise NotationError(f"{rules.title} has no player {player!r} "
                            f"(use {', '.join(rules.levels)})")
    return rules.choose(request, player)


def _fail(message: str) -> int:
    """Say what went wrong on one line (a driver's message may run to several) and exit 2."""
    print(f"error: {' '.join(message.split())}", file=sys.stderr)
    return 2


def _standard_input() -> BinaryIO:
    """Standard input's bytes; closed (``<&-``), an error to say in one line, as bad input."""
    if sys.stdin is None:
        raise OSError(errno.EBADF, "standard input is closed")
    return sys.stdin.buffer


def _answer_one(answer: Callable[[str], dict[str, Any]]) -> int:
    """Read one request from standard input and print its answer (exit 2 on bad input).

    One byte past the bound is enough to know the request is too long, so no more is read.
    """
    try:
        result = answer(decode_request(_standard_input().read(MAX_REQUEST_LENGTH + 1)))
    except NotationError as error:
        return _fail(str(error))
    except OSError as error:
        return _fail(f"cannot read the request: {error.strerror}")
    print(json.dumps(result))
    return 0


def _request_lines(stream: BinaryIO) -> Iterator[bytes]:
    """Each input line without its end of line. A line longer than any request comes out cut
    short (still too long to be accepted) and the rest of it is read and dropped."""
    while line := stream.readline(MAX_REQUEST_LENGTH + 2):
        rest = line
        while len(rest) == MAX_REQUEST_LENGTH + 2 and not rest.endswith(b"\n"):
            rest = stream.readline(MAX_REQUEST_LENGTH + 2)
        yield line.removesuffix(b"\n")


def cmd_outcomes(_: argparse.Namespace) -> int:
    return _answer_one(outcomes_json)


def cmd_choose(args: argparse.Namespace) -> int:
    if not args.lines:
        return _answer_one(lambda text: choose_json(text, args.player))
    try:
        stream = _standard_input()
    except OSError as error:
        return _fail(f"cannot read the requests: {error.strerror}")
    for line in _request_lines(stream):
        try:
            answer: dict[str, object] = choose_json(decode_request(line), args.player)
        except NotationError as error:
            answer = {"error": str(error)}
        print(json.dumps(answer), flush=True)
    return 0


def cmd_simulate(args: argparse.Namespace) -> int:
    players = [name.strip() for name in args.players.split(",")]
    house = tuple(name.strip() for name in args.house.split(",") if name.strip())
    try:
        result = simulate(players, args.games, args.seed, workers=args.workers,
                          kind=args.game, house=house)
    except ValueError as error:
        return _fail(str(error))
    if args.json:
        print(json.dumps(result))
        return 0
    draws = f", {result['draws']} drawn" if result["draws"] else ""
    print(f"{result['games']} games, seed {result['seed']}, "
          f"{result['mean_rolls']:.1f} rolls per game, "
          f"{result['games_per_second']:.1f} games/s{draws}")
    wins: dict[str, int] = result["wins"]  # type: ignore[assignment]
    rates: dict[str, dict[str, float]] = result["win_rate"]  # type: ignore[assignment]
    decision: dict[str, dict[str, float]] = result["decision_ms"]  # type: ignore[assignment]
    for name in wins:
        rate = rates[name]
        times = decision[name]
        print(f"  {name:7} wins {wins[name]:6} ({rate['rate']:.1%}, 95% {rate['low']:.1%}"
              f"..{rate['high']:.1%})  decision ms p50 {times['p50']} p99 {times['p99']} "
              f"max {times['max']}")
    return 0


def cmd_tournament(args: argparse.Namespace) -> int:
    from .server.tournament import Settings, TournamentError
    from .server.tournament.play import describe, play, summary

    levels = [name.strip() for name in args.entrants.split(",")]
    house = tuple(name.strip() for name in args.house.split(",") if name.strip())
    filler = args.filler or rules_for(args.game).table_levels[0]
    try:
        settings = Settings(args.format, args.table_size, args.advance, args.rounds, filler)
        answer = summary(play(args.game, settings, levels, args.seed, house), args.game)
    except TournamentError as error:
        return _fail(str(error))
    print(json.dumps(answer) if args.json else describe(answer))
    return 0


def cmd_train(args: argparse.Namespace) -> int:
    from .core.learning.training import Settings, export, train

    problem = _train_problem(args)
    if problem:
        return _fail(problem)
    settings = Settings(game=args.game, seed=args.seed, games=args.games, hidden=args.hidden,
                        lam=args.lam, teacher_share=args.teacher_share,
                        teacher_from=max(args.teacher_from, 0))
    directory = Path(args.dir or f"data/training/{args.game}")
    try:
        point = train(directory, settings, args.iterations, args.workers,
                      lambda line: print(json.dumps(line), flush=True))
    except ValueError as error:  # a checkpoint of another game in that directory
        return _fail(str(error))
    if args.export:
        export(point, Path(args.export))
        print(f"weights written to {args.export}")
    return 0


MOST_HIDDEN = 4096
"""Hidden units a network may have at most (the shipped ones have 128)."""


def _train_problem(args: argparse.Namespace) -> str | None:
    """What is wrong with train's numbers and places before hours of training, or None."""
    if min(args.iterations, args.games, args.workers, args.hidden) < 1:
        return "--iterations, --games, --workers and --hidden must be at least 1"
    if not 0 <= args.lam <= 1 or not 0 <= args.teacher_share <= 1:
        return "--lam and --teacher-share must be between 0 and 1"
    if args.seed < 0 or args.hidden > MOST_HIDDEN:
        return f"--seed must be 0 or more, and --hidden at most {MOST_HIDDEN}"
    if args.dir and Path(args.dir).exists() and not Path(args.dir).is_dir():
        return f"--dir {args.dir} is not a directory"
    if args.export and Path(args.export).is_dir():
        return f"--export {args.export} is a directory: name the weights' file"
    return None


def _database_url(args: argparse.Namespace) -> str:
    """The database the command works on; a URL that cannot be one ends the command with
    its one line and status 2."""
    from .server.config import ConfigError, data_directory, database_setting

    try:
        return database_setting(args.database_url, os.environ, data_directory(os.environ))
    except ConfigError as error:
        raise SystemExit(_fail(str(error))) from None


def cmd_migrate(args: argparse.Namespace) -> int:
    from .server.migrate import current_revision, upgrade

    url = _database_url(args)
    try:
        upgrade(url)
    except Exception as error:  # report any driver or migration failure in one line
        return _fail(f"migration failed: {error}")
    print(f"database at revision {current_revision(url)}")
    return 0


def cmd_ratings(args: argparse.Namespace) -> int:
    import asyncio

    from .server.ratings import standings

    try:
        table = asyncio.run(standings(_database_url(args), rebuild=args.rebuild))
    except Exception as error:  # report any driver or database failure in one line
        return _fail(f"ratings failed: {error}")
    print(json.dumps(table))
    return 0


def cmd_backup(args: argparse.Namespace) -> int:
    from .server.backup import BackupError, backup

    try:
        written = backup(_database_url(args), Path(args.output))
    except BackupError as error:
        return _fail(str(error))
    print(f"backup written to {written}")
    return 0


def cmd_restore(args: argparse.Namespace) -> int:
    from .server.backup import BackupError, restore

    try:
        restore(_database_url(args), Path(args.backup))
    except BackupError as error:
        return _fail(str(error))
    print("backup restored; start the server again")
    return 0


def _read_record(path: str) -> Any:
    """The record in file ``path`` (``-``: standard input), read and checked."""
    from .server.records import MAX_RECORD_BYTES, RecordError, parse_record

    try:
        if path == "-":
            data = _standard_input().read(MAX_RECORD_BYTES + 1)
        else:
            with open(path, "rb") as file:
                data = file.read(MAX_RECORD_BYTES + 1)
    except OSError as error:
        raise RecordError(f"cannot read {path}: {error.strerror}") from None
    return parse_record(data)


def cmd_verify(args: argparse.Namespace) -> int:
    from .server.records import RecordError, verify

    try:
        print(verify(_read_record(args.file)))
    except RecordError as error:
        return _fail(str(error))
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    from .server.records import RecordError, replay, result_of

    try:
        record = _read_record(args.file)
        final = replay(record)[-1].state
    except RecordError as error:
        return _fail(str(error))
    position = {key: value for key, value in record.rules.position(final).items()
                if key not in ("dice", "die")}  # the contract's request without the dice
    print(json.dumps(position))
    print(json.dumps(result_of(record.rules, final)))
    return 0


class _CommandParser(argparse.ArgumentParser):
    """A command's parser. It refuses unrecognised arguments itself, with its own usage
    (argparse leaves them to the top parser, whose usage names no command's options); with
    ``one_line`` it refuses bad options as the command refuses bad input, in one ``error:``
    line with status 2 (no usage line)."""

    def __init__(self, *args: Any, one_line: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.one_line = one_line

    def error(self, message: str) -> NoReturn:
        if not self.one_line:
            super().error(message)
        self.exit(2, f"error: {message} (see {self.prog} --help)\n")

    def parse_known_args(self, args: Any = None,
                         namespace: Any = None) -> tuple[Any, list[str]]:
        known, extra = super().parse_known_args(args, namespace)
        if extra:
            self.error(f"unrecognized arguments: {' '.join(extra)}")
        return known, extra


def _by_game(facts: str) -> str:
    """A list each game has (its ``levels`` or ``house_rules``), game by game, for help."""
    return "; ".join(f"{rules.title}: {', '.join(getattr(rules, facts))}"
                     for rules in games().values() if getattr(rules, facts))


def _simulate_parser(commands: Any) -> None:
    """The ``simulate`` command's options."""
    sim = commands.add_parser("simulate", help="play computer-only games")
    sim.add_argument("--players", required=True,
                     help=f"2-4 comma-separated computer levels ({_by_game('levels')})")
    sim.add_argument("--games", type=int, default=200, help="games to play (default: 200)")
    sim.add_argument("--seed", type=int, default=1,
                     help="the dice's seed (the same seed, the same games; default: 1)")
    sim.add_argument("--workers", type=int, default=1,
                     help="processes to play in (results do not depend on it)")
    sim.add_argument("--game", choices=sorted(games()), default=DEFAULT_GAME,
                     help=f"the game (default: {DEFAULT_GAME})")
    sim.add_argument("--house", default="",
                     help=f"comma-separated house rules to switch on ({_by_game('house_rules')})")
    sim.add_argument("--json", action="store_true", help="print one JSON object")
    sim.set_defaults(run=cmd_simulate)


def _tournament_parser(commands: Any) -> None:
    """The ``tournament`` command's options."""
    tournament = commands.add_parser(
        "tournament", one_line=True, help="play an all-computer tournament "
        "(knockout, Swiss or round robin) and print its rounds, standings and champion")
    tournament.add_argument("--game", choices=sorted(games()), default=DEFAULT_GAME,
                            help=f"the game (default: {DEFAULT_GAME})")
    tournament.add_argument("--format", required=True, help="knockout, swiss or robin")
    tournament.add_argument("--entrants", required=True,
                            help="comma-separated computer levels, one per entrant "
                                 "(named <level>-<n> in that order)")
    tournament.add_argument("--table-size", type=int, default=4,
                            help="players per table, 2 to 4 (a round robin seats all)")
    tournament.add_argument("--advance", type=int,
                            help="knockout: how many of each table go through "
                                 "(default: half the table)")
    tournament.add_argument("--rounds", type=int, default=3,
                            help="Swiss: rounds; round robin: games")
    tournament.add_argument("--house", default="",
                            help=f"comma-separated house rules to switch on "
                                 f"({_by_game('house_rules')})")
    tournament.add_argument("--filler", help="knockout: the level of the computers that "
                            "fill a round short of players (default: the game's weakest "
                            "table level)")
    tournament.add_argument("--seed", type=int, required=True,
                            help="the dice's seed (the same seed, the same tournament)")
    tournament.add_argument("--json", action="store_true", help="print one JSON object")
    tournament.set_defaults(run=cmd_tournament)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m parcheesi", description="Command-line tools for every game "
        f"({', '.join(rules.title for rules in games().values())}): positions, computer "
        "players, records, tournaments and the database.")
    commands = parser.add_subparsers(dest="command", required=True,
                                     parser_class=_CommandParser)
    outcomes = commands.add_parser("outcomes", help="every position reachable by one roll "
                                   "(JSON request on standard input)")
    outcomes.set_defaults(run=cmd_outcomes)
    choose = commands.add_parser("choose", help="a computer player's choice for one roll "
                                 "(JSON request on standard input)")
    levels = list(dict.fromkeys(level for rules in games().values() for level in rules.levels))
    choose.add_argument("--player", choices=levels, default="hard",
                        help=f"the computer level to ask (default: hard; {_by_game('levels')})")
    choose.add_argument("--lines", action="store_true",
                        help="answer one request per input line until end of input")
    choose.set_defaults(run=cmd_choose)
    _simulate_parser(commands)
    train = commands.add_parser("train", help="train the learned evaluation by self-play "
                                "(stops and goes on from its checkpoint)")
    learning = sorted(kind for kind, rules in games().items() if rules.learner is not None)
    first = DEFAULT_GAME if DEFAULT_GAME in learning else learning[0]
    train.add_argument("--game", choices=learning, default=first,
                       help=f"the game to train (default: {first})")
    train.add_argument("--dir", help="where the checkpoint is kept "
                       "(default: data/training/GAME)")
    train.add_argument("--iterations", type=int, default=TRAIN_ITERATIONS,
                       help="train until this many iterations are done")
    train.add_argument("--games", type=int, default=2000,
                       help="self-play games per iteration (a new run only)")
    train.add_argument("--seed", type=int, default=2026,
                       help="the seed of the first weights and the dice (a new run only)")
    train.add_argument("--hidden", type=int, default=128,
                       help="units of the hidden layer (a new run only)")
    train.add_argument("--lam", type=float, default=0.7,
                       help="lambda of the TD(lambda) targets (a new run only)")
    train.add_argument("--teacher-share", type=float, default=0.0,
                       help="the share of games played by the game's strongest hand-written "
                       "computer instead of the network (default: none)")
    train.add_argument("--teacher-from", type=int, default=0,
                       help="the iteration the teacher's games start at (a run may go on "
                       "from a checkpoint made before it)")
    train.add_argument("--workers", type=int, default=2,
                       help="processes to play in (the weights do not depend on it)")
    train.add_argument("--export", help="write the weights and their note here when done")
    train.set_defaults(run=cmd_train)
    _tournament_parser(commands)
    for name, run, text in (
            ("verify", cmd_verify, "check a game record: legal actions, dice from the "
             "committed seed"),
            ("replay", cmd_replay, "print a game record's final position (an outcomes "
             "request without dice) and its result")):
        command = commands.add_parser(name, help=text)
        command.add_argument("file", help="the record (JSON; - for standard input)")
        command.set_defaults(run=run)
    for name, run, text in (("migrate", cmd_migrate, "upgrade the database schema"),
                            ("ratings", cmd_ratings, "rate the finished games not rated yet "
                             "and print every game's leaderboard as JSON"),
                            ("backup", cmd_backup, "write a consistent backup"),
                            ("restore", cmd_restore, "restore a backup (server stopped)")):
        command = commands.add_parser(name, help=text)
        if name == "backup":
            command.add_argument("output", help="file to write")
        if name == "restore":
            command.add_argument("backup", help="backup file to put back")
        if name == "ratings":
            command.add_argument("--rebuild", action="store_true",
                                 help="forget every rating and rate every game again")
        command.add_argument("--database-url", help="default: the server's setting "
                             "(PARCHEESI_DATABASE_URL or the SQLite file under data/)")
        command.set_defaults(run=run)
    args = parser.parse_args(argv)
    code: int = args.run(args)
    return code


def run() -> int:
    """:func:`main`, where the output cannot be written: a reader gone (``choose --lines |
    head -1``) ends the command quietly, a full disk in one line, never a traceback."""
    try:
        code = main()
        sys.stdout.flush()
        return code
    except BrokenPipeError:
        # Python flushes standard output again at exit: point it at nothing first.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except OSError as error:
        if error.errno != errno.ENOSPC:
            raise
        return _fail(f"cannot write the answer: {error.strerror}")


if __name__ == "__main__":
    sys.exit(run())
