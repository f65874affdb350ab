"""tiles-d6: a two-player skirmish on a grid of tiles, with d6 rolls, as a ruleset of the engine.

Rulings T1 to T40 settle what the game's text leaves open. Its content, the
rosters and the maps, is data that :mod:`.content` reads.
"""
