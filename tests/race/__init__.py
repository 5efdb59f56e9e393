"""A tiny third game kept with the tests: a race up four private lanes.

It has the shape of a real game's package (``parcheesi/games/<kind>/``) and imports only
:mod:`parcheesi.core`, so that the server, the command line and the table serving it once it
is registered (``parcheesi.core.registry.register``) shows that a game is one folder.
"""
