"""The bundled teams' rules: one module per team sheet in ``data/teams``.

Importing this package registers every bundled ability and win condition
(:func:`multiversus_core.abilities.register`,
:func:`multiversus_core.scoring.register_win_condition`). It is imported by
:mod:`multiversus_core.abilities`, so it is loaded whenever the library is.
A team from another package does the same in its own module and offers its
sheets through the ``multiversus.teams`` entry point group (``docs/teams.md``).
"""

from multiversus_core.teams import banner_knight, black_goblins, smogon, swartzblak, witch_hunters

__all__ = ["banner_knight", "black_goblins", "smogon", "swartzblak", "witch_hunters"]
