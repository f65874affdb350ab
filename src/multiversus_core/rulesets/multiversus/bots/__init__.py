"""Multiversus' bots: the random and heuristic players, the search and what it needs.

The heuristic bot (:mod:`.heuristic`) and the search bot (:mod:`.search`)
judge states with :mod:`.evaluation` and fill in what a view hides with
:mod:`.determinize`; every bot decides from its side's view only.
"""
