"""Events and commands: explicit tags, frozen structs, and an evolve case for every event."""

from __future__ import annotations

import msgspec
import pytest

from multiversus_core import EVENT_TYPES, Command, Event
from multiversus_core.evolve import _HANDLERS


def test_every_event_kind_has_exactly_one_evolve_handler() -> None:
    assert set(_HANDLERS) == set(EVENT_TYPES)


@pytest.mark.parametrize("union", [Event, Command], ids=["events", "commands"])
def test_every_kind_is_frozen_with_an_explicit_snake_case_tag(union: object) -> None:
    tags = []
    for kind in union.__args__:  # type: ignore[attr-defined]
        config = kind.__struct_config__
        assert config.frozen, kind
        assert config.tag_field == "kind"
        assert isinstance(config.tag, str) and config.tag == config.tag.lower(), kind
        assert config.tag != kind.__name__, kind
        tags.append(config.tag)
    assert len(tags) == len(set(tags))


def test_events_encode_with_their_tag() -> None:
    from multiversus_core.events import InitiativeRolled

    event = InitiativeRolled(side="heroes", die=4, greys=1, lost=False)
    assert msgspec.json.encode(event) == (
        b'{"kind":"initiative_rolled","side":"heroes","die":4,"greys":1,"lost":false}'
    )
    assert msgspec.json.decode(msgspec.json.encode(event), type=Event) == event
