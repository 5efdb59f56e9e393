"""Ludo (``docs/rules/ludo.md``): the game behind ``GAME`` (:mod:`.game`), of the same shape
as every game's package.

:mod:`.board` (geometry and house-rule names), :mod:`.state` (the immutable position),
:mod:`.moves` (the lean core: legal moves and what a move does), :mod:`.turns` (the turn
machine: :func:`~.turns.apply`), :mod:`.actions` and :mod:`.events` (Ludo's own beside the
shared ones), :mod:`.choices`, :mod:`.dice`, :mod:`.notation` (JSON, the outcome contract),
:mod:`.ai` (computer players); at the table :mod:`.layout`, :mod:`.words`, :mod:`.look` and
the rules page's text (:mod:`.rules_text`).
"""
