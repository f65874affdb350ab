"""Multiversus: a two-player tactical skirmish game of hidden choices, as a ruleset of the engine.

Loading the package registers the bundled teams' abilities and win
conditions (:func:`.teams.register_bundled`), before any team sheet is read.
"""

from multiversus_core.rulesets.multiversus.teams import register_bundled

register_bundled()
