"""What every game shares and the server relies on, naming no game: the game-rules interface
(:mod:`.rules`) and the registry of games (:mod:`.registry`); the shared vocabulary of
states (:mod:`.state`), actions (:mod:`.actions`) and events (:mod:`.events`); play on for
places (:mod:`.places`); choices (:mod:`.choices`); the JSON every game reads alike
(:mod:`.notation`); the drawing geometry (:mod:`.geometry`); a game's look
(:mod:`.look`) and the words every game says alike (:mod:`.words`).

Nothing here imports a game or the server.
"""
