"""Command-line tools: ``outcomes`` (and the computer-player tools).

``python -m parcheesi outcomes`` reads one request (DESIGN.md, "Position and outcome JSON")
on standard input and prints every distinct position reachable by the end of that roll.
Bad input exits with status 2 and a one-line reason on standard error.
"""

from __future__ import annotations

import argparse
import json
import sys

from .analysis import outcomes_after_roll
from .notation import NotationError, compact, parse_request, pieces_to_json


def outcomes_json(text: str) -> dict[str, list[dict[str, object]]]:
    state, dice = parse_request(text)
    found = {compact({"pieces": pieces_to_json(after.pieces)})
             for after, _ in outcomes_after_roll(state, dice)}
    return {"outcomes": [json.loads(item) for item in sorted(found)]}


def _fail(message: str) -> int:
    print(f"error: {message}", file=sys.stderr)
    return 2


def cmd_outcomes(_: argparse.Namespace) -> int:
    try:
        text = sys.stdin.read()
        result = outcomes_json(text)
    except NotationError as error:
        return _fail(str(error))
    except UnicodeDecodeError:
        return _fail("input is not UTF-8 text")
    print(json.dumps(result))
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m parcheesi",
                                     description="Classic Parcheesi tools.")
    commands = parser.add_subparsers(dest="command", required=True)
    outcomes = commands.add_parser("outcomes", help="every position reachable by one roll "
                                   "(JSON request on standard input)")
    outcomes.set_defaults(run=cmd_outcomes)
    args = parser.parse_args(argv)
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
