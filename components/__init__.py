"""The NiceGUI pieces of the pages: they read live state and send actions, and never decide
a rule.

:mod:`.table` (one tab's table) applies the screen :mod:`.table_model` describes, drawn with
:mod:`.board_view`, :mod:`.dice_view` and :mod:`.buttons`; :mod:`.presses` stamps every action
control; :mod:`.setup` is the new-game form, :mod:`.lobby` a room's lobby, :mod:`.settings`
the per-browser settings, :mod:`.rules_page` the rules, :mod:`.health` the server-problem
banner, :mod:`.sockets` the guard in front of NiceGUI's socket.io server, and
:mod:`.palette` and :mod:`.texts` own the colours and the words.
"""
