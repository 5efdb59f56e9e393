"""Everything that serves the games, for any game: live games and the hub that loads them
(:mod:`.live`), online rooms (:mod:`.rooms`), one load per game or room however many ask
(:mod:`.loading`), the computers' supervised task (:mod:`.runner`), turn clocks
(:mod:`.clocks`), storage on SQLite or PostgreSQL (:mod:`.store`) and its migrations
(:mod:`.migrate`, ``migrations/``), fair dice (:mod:`.fairness`), game records
(:mod:`.records`), the post-game charts' data (:mod:`.charts`), the simulator
(:mod:`.simulate`), backups (:mod:`.backup`), configuration (:mod:`.config`) and logs
(:mod:`.logs`).

The server holds a game only through the registry (:mod:`parcheesi.core.registry`): it
imports no game's modules.
"""
