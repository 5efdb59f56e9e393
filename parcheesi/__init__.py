"""parcheesi: a self-hosted server for classic board games, without any user interface.

The package root holds only the command line (``python -m parcheesi``). Below it:

- :mod:`parcheesi.core`: what every game shares and the server relies on: the game-rules
  interface and the one registry of games, the shared vocabulary (phases, actions, events),
  play on for places, choices, the drawing geometry's protocols, a game's look and words.
- :mod:`parcheesi.games`: one package per game (Parcheesi, Ludo), each everything about its
  game: engine, computers, layout, look and words, rules page. No game imports another.
- :mod:`parcheesi.server`: live games, rooms, storage, turn clocks, the computers' task,
  records, the simulator, backups, migrations, configuration and logs.

``docs/architecture.md`` says how they fit together; ``lint-imports`` (``pyproject.toml``)
keeps the layers apart.
"""
