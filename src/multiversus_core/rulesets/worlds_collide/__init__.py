"""worlds-collide (If Worlds Collide): a skirmish of factions from shattered worlds, on a grid.

Rulings W1 to W40 settle what the game's text leaves open. Its content, the
factions and the maps with their mission, is data that :mod:`.content` reads.
"""
