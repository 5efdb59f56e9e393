"""The one registry of games: every game this server plays, by kind.

The games are listed in one place, ``parcheesi/games/__init__.py`` (``KINDS``, one word per
game, the default game first); each game's package says everything about it in its
``GAME`` (``game.py``). The registry finds them there the first time it is asked, so this
module names no game and imports none: the server, the command line and the pages ask
:func:`rules_for` and :func:`games`, and a game added to the list is served everywhere.
:func:`register` adds a game from elsewhere (the tests' own game).
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from .rules import GameRules

GAMES_PACKAGE = "parcheesi.games"
"""Where the games live: ``<package>.<kind>.game.GAME`` for each of its ``KINDS``."""

AnyRules = GameRules[Any, Any, Any]

DEFAULT_GAME: str = import_module(GAMES_PACKAGE).KINDS[0]
"""The game of a request, a table or a stored game that does not name one: the first
listed."""

_games: dict[str, AnyRules] = {}


class UnknownGame(ValueError):
    """A game kind this server does not play."""


def _listed() -> dict[str, AnyRules]:
    """Every game, the listed ones found on first use."""
    if not _games:
        for kind in import_module(GAMES_PACKAGE).KINDS:
            game: AnyRules = import_module(f"{GAMES_PACKAGE}.{kind}.game").GAME
            if game.kind != kind:
                raise RuntimeError(f"the game listed as {kind!r} says it is {game.kind!r}")
            _games[kind] = game
    return _games


def games() -> dict[str, AnyRules]:
    """Every game this server plays, by kind, in the order they are offered (a copy)."""
    return dict(_listed())


def rules_for(kind: Any) -> AnyRules:
    """The rules of game ``kind``; :class:`UnknownGame` if this server does not play it."""
    listed = _listed()
    if not isinstance(kind, str) or kind not in listed:
        raise UnknownGame(f"unknown game {kind!r} (this server plays "
                          f"{', '.join(sorted(listed))})")
    return listed[kind]


def plays(kind: Any) -> bool:
    """Whether this server plays game ``kind``."""
    return isinstance(kind, str) and kind in _listed()


def register(game: AnyRules) -> None:
    """Play ``game`` too, after the listed ones (a game kept elsewhere, such as a test's)."""
    listed = _listed()
    if game.kind in listed and listed[game.kind] is not game:
        raise ValueError(f"another game is registered as {game.kind!r}")
    listed[game.kind] = game


def unregister(kind: str) -> None:
    """Stop playing a game :func:`register` added (the listed ones stay)."""
    if kind in import_module(GAMES_PACKAGE).KINDS:
        raise ValueError(f"{kind!r} is one of the listed games")
    _listed().pop(kind, None)
