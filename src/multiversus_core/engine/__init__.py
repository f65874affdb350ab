"""The engine: what every game gets for free, behind the :class:`.ruleset.Ruleset` protocol.

Logs and their chain, commitments and their audit, chance, views and view
logs, verify, replay, bots and search, simulation: none of it names a game.
A game is a ruleset (:mod:`multiversus_core.rulesets`), found by id
(:mod:`.registry`). Nothing here imports a game.
"""
