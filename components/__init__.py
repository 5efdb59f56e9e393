"""The NiceGUI pieces of the pages, the same for every game: they read live state and send
actions, and never decide a rule. A game is known here only through the registry
(``parcheesi.core.registry``): its rules, its look (board layout, paints, words) and its
rules page.

:mod:`.table` (one tab's table) applies the screen :mod:`.table_model` describes, drawn with
:mod:`.board_view`, :mod:`.dice_view` and :mod:`.buttons`; :mod:`.presses` stamps every action
control; :mod:`.setup` is the new-game form, :mod:`.lobby` a room's lobby, :mod:`.settings`
the per-browser settings, :mod:`.rules_page` a game's rules, :mod:`.health` the
server-problem banner and what ``/health`` answers, :mod:`.sockets` the guard in front of
NiceGUI's socket.io server (with :mod:`.admission`, who may open a socket, and
:mod:`.event_args`, what each element's events may carry), :mod:`.unconnected` the pages
whose socket never comes, and :mod:`.palette` the app's own colour and the button tones of
every game's colours.
"""
