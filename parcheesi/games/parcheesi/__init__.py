"""Parcheesi (``docs/rules/parcheesi.md``): the game behind ``GAME`` (:mod:`.game`).

The engine is pure and deterministic (dice are injected): :mod:`.board` (geometry),
:mod:`.state` (the immutable position), :mod:`.moves` (single moves and the search for the
complete sequences of one roll), :mod:`.turns` (the turn machine: actions, events,
:func:`~.turns.apply`), :mod:`.choices` (what each open choice does), :mod:`.dice`,
:mod:`.notation` (position, outcome and record JSON) and :mod:`.analysis` (every outcome
of a roll). :mod:`.ai` holds the computer players, with :mod:`.risk` (capture chances),
:mod:`.grace` (the benchmark opponent) and :mod:`.expert` (the learned evaluation). At the
table: :mod:`.layout` (the board's drawing geometry), :mod:`.words` and :mod:`.look`, and
the rules page's text (:mod:`.rules_text`).
"""
