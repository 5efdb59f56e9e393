"""Fail when a function of the product code is more complex than LIMIT (radon's cyclomatic
complexity).

    .venv/bin/python scripts/complexity.py [PATH ...]    (default: app.py parcheesi components)

``radon cc`` itself only filters by grade letter, and the grades do not fall on the limit
(C is 11..20, D starts at 21), so this script applies the number instead, through radon's
own API: every function and method, closures and methods of nested classes included, is
measured the way ``radon cc`` measures it. A class's own figure (the sum over its methods)
is not a function and is not checked. Each offender is printed as ``file:line``; the exit
status is 1 if there is any (or a file cannot be parsed), else 0.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from radon.complexity import add_inner_blocks, cc_visit
from radon.visitors import Function

LIMIT = 15
DEFAULT_PATHS = ("app.py", "parcheesi", "components")


def python_files(paths: list[str]) -> list[Path]:
    """The ``.py`` files named or found under ``paths``, in a stable order."""
    found: list[Path] = []
    for name in paths:
        path = Path(name)
        if path.is_dir():
            found.extend(p for p in sorted(path.rglob("*.py")) if "__pycache__" not in p.parts)
        elif path.is_file():
            found.append(path)
        else:
            raise SystemExit(f"complexity: no such file or directory: {name}")
    return found


def functions(path: Path) -> list[Function]:
    """Every function and method in ``path``, nested ones included, as radon sees them."""
    blocks = add_inner_blocks(cc_visit(path.read_text(encoding="utf-8")))
    return [b for b in blocks if isinstance(b, Function)]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="complexity", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("paths", nargs="*", default=list(DEFAULT_PATHS), metavar="PATH",
                        help="files or directories to check (default: app.py parcheesi "
                             "components)")
    files = python_files(parser.parse_args(argv).paths)
    failed = False
    highest: tuple[int, str] = (0, "")
    count = 0
    for path in files:
        try:
            found = functions(path)
        except SyntaxError as error:
            print(f"{path}:{error.lineno}: cannot be parsed: {error.msg}")
            failed = True
            continue
        for block in sorted(found, key=lambda b: b.lineno):
            count += 1
            where = f"{path}:{block.lineno}: {block.fullname}"
            highest = max(highest, (block.complexity, where))
            if block.complexity > LIMIT:
                print(f"{where} has complexity {block.complexity} (limit {LIMIT})")
                failed = True
    if failed:
        print(f"complexity: split the functions above until each is at most {LIMIT}")
        return 1
    print(f"complexity: {count} functions in {len(files)} files, none above {LIMIT} "
          f"(highest {highest[0]}: {highest[1]})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
