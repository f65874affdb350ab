"""Hostile team sheets: every one is refused in one line naming a field, or sets up and plays.

Mutations of the bundled sheets and sheets generated from scratch, with the
numbers, strings, nesting and squares a careless or hostile author might
write (``tests/sheet_fuzz.py``). ``scripts/fuzz_sheets.py`` runs the same
check longer and prints the counts.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.sheet_fuzz import check_sheet, generated, mutated


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.randoms(use_true_random=False))
def test_mutated_sheets_are_refused_naming_a_field_or_set_up_and_play(rnd: random.Random) -> None:
    check_sheet(mutated(rnd))


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.randoms(use_true_random=False))
def test_generated_sheets_are_refused_naming_a_field_or_set_up_and_play(
    rnd: random.Random,
) -> None:
    check_sheet(generated(rnd))


def test_some_mutated_and_generated_sheets_are_accepted_and_played() -> None:
    """The fuzz reaches the accepting side too, not only the refusals."""
    rnd = random.Random(11)
    outcomes = [check_sheet(mutated(rnd), moves=4) for _ in range(60)]
    outcomes += [check_sheet(generated(rnd), moves=4) for _ in range(60)]
    assert outcomes.count("accepted") >= 10
    assert outcomes.count("refused") >= 40
