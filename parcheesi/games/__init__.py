"""The games this server plays, each a package of its own beside this one (``<kind>/``:
engine, computers, layout, look and words, rules page; ``GAME`` in its ``game.py``).

:data:`KINDS` is the list the registry (:mod:`parcheesi.core.registry`) reads: one word per
game, in the order the setup form offers them; the first is the default game. No game
imports another.
"""

KINDS = ("parcheesi", "ludo")
