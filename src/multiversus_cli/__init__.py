"""The ``multiversus`` command-line program: play matches of Multiversus at the terminal.

The rules live in :mod:`multiversus_core`; this package only asks, shows and
records. :mod:`.app` is the Typer app, :mod:`.play` the play command,
:mod:`.render` the board and status views, and :mod:`.describe` commands and
events in words.
"""

__all__: list[str] = []
