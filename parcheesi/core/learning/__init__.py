"""Learned evaluations for any game: a small network that rates each colour's chance to win,
trained by self-play, and Expert, the computer level that searches one roll deeper with it.

Nothing here knows a game. A game that learns supplies a :class:`~.learner.Learner`: how it
reads a position into the network's units (its encoding), how a game of it is played between
rolls, and where its shipped weights live; everything else (the network, TD(lambda)
self-play, Adam, checkpoints, the one-roll search, the chances in colours) is written once,
here, for every game:

- :mod:`.learner`: what a game supplies;
- :mod:`.network`: the network and its file;
- :mod:`.values`: the chances of whole positions, in colours;
- :mod:`.search`: Expert's choice;
- :mod:`.selfplay` and :mod:`.training`: ``python -m parcheesi train --game KIND``;
- :mod:`.expert`: a game's Expert and chances from its shipped weights.
"""
