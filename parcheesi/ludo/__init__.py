"""Ludo (RULES-LUDO.md): the second game, an engine of the same shape as Parcheesi's.

:mod:`.board` (geometry and house-rule names), :mod:`.state` (the immutable position),
:mod:`.moves` (the lean core: legal moves and what a move does), :mod:`.rules` (the turn
machine: actions, :func:`~.rules.apply`), :mod:`.events` (Ludo's own events beside the
shared Parcheesi ones), :mod:`.choices`, :mod:`.dice`, :mod:`.notation` (JSON, the outcome
contract), :mod:`.ai` (computer players and the hint) and :mod:`.engine` (``LUDO_RULES``,
the game behind :class:`parcheesi.games.GameRules`).
"""
