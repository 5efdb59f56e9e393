"""The folders show the layers (docs/architecture.md): what ``lint-imports`` cannot check
because it reads packages only, and what is not an import at all.

- The package root holds only the command line; below it ``core/``, ``games/`` and
  ``server/``.
- Every game folder is listed in ``parcheesi/games/__init__.py`` and says everything about
  its game in its ``GAME``; the registry serves exactly those.
- ``app.py`` (a script, which import-linter does not read) imports no game's modules, like
  the pages.
- The pages and ``app.py`` name no game: no string of theirs is a game's kind and none
  mentions a game by name, so a new game needs no change there.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from parcheesi.core.registry import DEFAULT_GAME, games, rules_for
from parcheesi.games import KINDS

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "parcheesi"


def imported(path: Path) -> set[str]:
    """Every module ``path`` imports (absolute names; relative ones resolved)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def test_the_package_root_holds_only_the_command_line_and_the_three_layers() -> None:
    files = {p.name for p in PACKAGE.iterdir() if p.is_file()}
    folders = {p.name for p in PACKAGE.iterdir() if p.is_dir() and p.name != "__pycache__"}
    assert files == {"__init__.py", "__main__.py"}
    assert folders == {"core", "games", "server"}


def test_every_game_folder_is_listed_and_served_by_the_registry() -> None:
    folders = {p.name for p in (PACKAGE / "games").iterdir()
               if p.is_dir() and (p / "__init__.py").exists()}
    assert set(KINDS) == folders
    assert list(games()) == list(KINDS) and KINDS[0] == DEFAULT_GAME
    for kind in KINDS:
        rules = rules_for(kind)
        assert rules.kind == kind and rules.rules_text.strip() and rules.look.paints


def test_app_imports_no_games_modules() -> None:
    assert not [name for name in imported(ROOT / "app.py")
                if name.startswith("parcheesi.games")]


def test_the_pages_and_app_name_no_game() -> None:
    """No string of the pages' Python, scripts or styles is a game's kind, and none of their
    text names a game (its kind or its title), but for the package's name."""
    kinds = set(KINDS)
    titles = {rules_for(kind).title for kind in KINDS}
    sources = [ROOT / "app.py", *sorted((ROOT / "components").glob("*.py"))]
    for path in sources:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                assert node.value not in kinds, f"{path.name} names the game {node.value!r}"
    # the package's name (parcheesi/, parcheesi.core, parcheesi-seat-...)
    allowed = re.compile(r'\bparcheesi(?=[./\w-])')
    for path in [*sources, *sorted((ROOT / "components").glob("*.js")),
                 *sorted((ROOT / "components").glob("*.css"))]:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            text = allowed.sub("", line)
            for name in kinds | titles:
                assert not re.search(rf"\b{name}\b", text, re.IGNORECASE), (
                    f"{path.name}:{number} names the game {name!r}: {line.strip()}")
