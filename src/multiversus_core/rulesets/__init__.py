"""The games bundled with the engine, one package each.

The engine finds them by id: :mod:`multiversus_core.engine.registry`.
"""
