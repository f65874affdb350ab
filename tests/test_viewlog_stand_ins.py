"""A view log cut where the other side's choice is still hidden: its entry holds a stand-in,
yet what the view shows of it is checked all the same. An event added to such an entry, the
chain rewritten to match, is caught at every cut point of a match, for both sides."""

from __future__ import annotations

from pathlib import Path

import pytest
from msgspec.structs import replace

from multiversus_core.engine.log import MatchLog, read_log
from multiversus_core.engine.verify import verify_view
from multiversus_core.engine.viewlog import (
    decode_view_log,
    encode_view_log,
    redact_log,
    view_records_for,
)
from multiversus_core.rulesets.multiversus.events import ConditionChanged

GOLDEN = Path(__file__).parent.parent / "replays" / "banner-knight--smogon--standard.jsonl"
CUTS = 90
"""The cut points tried: every entry of the match's first rounds."""


@pytest.mark.parametrize("viewer", ["heroes", "adversaries"])
def test_an_event_added_to_an_entry_holding_a_stand_in_is_caught_at_every_cut(
    viewer: str,
) -> None:
    log = read_log(GOLDEN)
    placeholders = view_records_for(log.game).event_placeholders
    tried = 0
    for cut in range(1, CUTS + 1):
        view = redact_log(MatchLog(log.header, log.entries[:cut], log.chance), viewer)
        last = view.entries[-1]
        if not any(type(event) in placeholders for event in last.events):
            continue
        # The honest cut verifies; the forged one, consistent in its chain, does not.
        assert verify_view(decode_view_log(encode_view_log(view))).ok, cut
        forged = (*last.events, ConditionChanged(figure="smogon", condition="eliminated"))
        tampered = replace(view, entries=(*view.entries[:-1], replace(last, events=forged)))
        result = verify_view(decode_view_log(encode_view_log(tampered)))
        assert not result.ok, f"cut at entry {cut} as the {viewer}: accepted"
        assert result.entry == cut
        tried += 1
    assert tried >= 5
