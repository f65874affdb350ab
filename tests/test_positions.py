"""Positions as text: their errors, starting a match or a test from one, and the CLI.

The round trip over random play of every game is in ``tests/contract/test_positions.py``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Final

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import multiversus_core
from multiversus_cli.app import app
from multiversus_core import MatchSettings, SettingsError, start_match
from multiversus_core.engine.log import (
    decode_log,
    encode_log,
    read_log,
    replay,
    starting_state,
)
from multiversus_core.engine.play import play_from, play_match
from multiversus_core.engine.position import (
    MAX_POSITION,
    Initial,
    PositionError,
    edit_position,
    opening_state,
    read_position,
    read_redacted_position,
    redact_position,
    start_position,
    without_chance,
    write_position,
)
from multiversus_core.engine.registry import load_ruleset
from multiversus_core.engine.verify import (
    check_commitments,
    verify_against,
    verify_data,
    verify_file,
    verify_view,
)
from multiversus_core.engine.viewlog import (
    decode_view_log,
    encode_view_log,
    redact_log,
    replayable,
)
from multiversus_core.rulesets.multiversus.events import CoinsRevealed
from multiversus_core.rulesets.sealed_bids.position import SealedBidsNotation
from multiversus_core.rulesets.sealed_bids.rules import Bid, BidsRevealed, SealedBidsSettings
from multiversus_core.rulesets.tiles_d6.model import TilesSettings

TILES = "tiles-d6/1"
KNIGHT = "multiversus/4 heroes_team=banner-knight adversaries_team=smogon scenario=smoking-crags"
"""Multiversus just after set-up's teams are chosen, the figures where the scenario puts them."""


def _read(text: str) -> str:
    with pytest.raises(PositionError) as caught:
        read_position(text)
    message = str(caught.value)
    assert "\n" not in message and message
    return message


# --- errors: one line each, naming what is wrong -------------------------------------------


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("", "a position begins with its game and version, such as 'tiles-d6/1'"),
        ("tiles-d6", "a position begins with its game and version"),
        ("Tiles-D6/1", "a position begins with its game and version"),
        ("chess/1 board=8", "no installed game is called 'chess'"),
        (
            "tiles-d6/9 round=2",
            "the position is of tiles-d6 version 9; this engine reads version 1",
        ),
        (f"{TILES} colour=red", "tiles-d6 has no field 'colour'"),
        (f"{TILES} settings=3 settings=4", "field settings is given twice"),
        (f"{TILES} round", "a field is name=value, not 'round'"),
        (f"{TILES}  round=2", "one space between fields"),
        (f"{TILES} round=2x", "field round: '2x' is neither a word nor JSON"),
        (f"{TILES} acted=[1", "field acted: expecting ',' delimiter, character 3 of its value"),
        (
            f'{TILES} reason="a\tb"',
            "field reason: invalid control character, character 3 of its value",
        ),
        (f"{TILES} acted={'[' * 9000}", "field acted: its value is nested too deeply"),
        (f'{TILES} round="two"', "round: expected `int`, got `str`"),
        (f"{TILES} phase=dance", "phase: invalid enum value 'dance'"),
        (f'{TILES} units={{"9.nobody":{{"at":[1,1]}}}}', "units has no '9.nobody'"),
        (f'{TILES} units={{"1.captain":{{"wings":2}}}}', "units.1.captain has no field 'wings'"),
        (f'{TILES} settings={{"map":"atlantis"}}', "settings: map: no map 'atlantis'"),
        (f'{TILES} units={{"1.captain":{{"at":[0,99]}}}}', "1.captain stands at (0,99), off the"),
        (f"{TILES} phase=play active=7", "active: 7 is not a seat"),
        ("multiversus/4 heroes_team=banner-knight", "name both teams and the scenario, or none"),
        (f"{KNIGHT[:-13]}moon", "has no scenario 'moon'"),
        (KNIGHT.replace("banner-knight", "nobody"), "no team 'nobody'"),
        (f'{KNIGHT} figures={{"knight":{{"square":[99,0]}}}}', "knight stands at (99,0), off"),
    ],
)
def test_a_bad_position_is_refused_in_one_line_naming_the_fault(text: str, says: str) -> None:
    assert says in _read(text)


WORLDS = "worlds-collide/1"
BIDS = "sealed-bids/1"
A_BID = '{"kind":"bid_committed","seat":1,"round":2,"token":1,"commitment":"c","salt":"s"}'


@pytest.mark.parametrize(
    ("text", "says"),
    [
        (f"{TILES} round={10**20}", "round: a number of 21 digits is not within 0 to 8"),
        (f"{TILES} turn=17", "turn: 17 is not within 0 to 16"),
        (f"{TILES} draws=-1", "draws: -1 is not within 0 to 1000000"),
        (f'{TILES} units={{"1.captain":{{"health":-5}}}}', "units.1.captain.health: -5 is not"),
        (f'{TILES} units={{"1.captain":{{"health":99}}}}', "units.1.captain.health: 99 is not"),
        (f'{TILES} units={{"1.captain":{{"seat":3}}}}', "units.1.captain.seat: 3 is not a seat"),
        (f'{TILES} acted=["1.nobody"]', "acted: '1.nobody' is not a unit"),
        (f"{TILES} injured=[99,0]", "injured.0: 99 is not within 0 to 5"),
        (f"{TILES} first=3", "first: 3 is not a seat"),
        (f"{WORLDS} round=99", "round: 99 is not within 0 to 5"),
        (f'{WORLDS} models={{"1.commander":{{"hp":99}}}}', "models.1.commander.hp: 99 is not"),
        (f'{WORLDS} models={{"1.commander":{{"hp":-1}}}}', "models.1.commander.hp: -1 is not"),
        (f'{WORLDS} sides={{"0":{{"ap":-1}}}}', "sides.0.ap: -1 is not within 0 to 999"),
        (f'{WORLDS} sides={{"1":{{"vp":{10**6}}}}}', "sides.1.vp: 1000000 is not within"),
        (f"{WORLDS} active=0", "active: 0 is not a seat"),
        (
            f"{WORLDS} phase=activations round=1 active=1 "
            f'activation={{"seat":1,"models":["1.commander"],"plan":"move_twice","tactic":"x"}}',
            "activation.tactic: 'x' is not a tactic of its faction",
        ),
        (
            f"{WORLDS} phase=activations round=1 active=1 "
            f'activation={{"seat":1,"models":["2.nobody"],"plan":"move_twice"}}',
            "activation.models: '2.nobody' is not a model of its seat",
        ),
        (f"{BIDS} round=0", "round: 0 is not within 1 to 3"),
        (f'{BIDS} settings={{"rounds":5}} round=6', "round: 6 is not within 1 to 5"),
        (f"{BIDS} scores=[-1,0,0]", "scores.0: -1 is not within 0 to 18"),
        (f"{BIDS} pot=19", "pot: 19 is not within 0 to 18"),
        (f"{BIDS} spent=[[9],[],[]]", "spent.0: 9 is not a token"),
        (f"{BIDS} round=2 spent=[[1,2],[],[]]", "spent.0: tokens spent: 2 is not within 0 to"),
        (f"{BIDS} round=3 spent=[[1,1],[],[]]", "spent.0: a token is spent once"),
        (f"{BIDS} spent=[[],[]]", "spent: one for each of the 3 seats"),
        (f"{BIDS} round=2 spent=[[1],[2],[3]] bids=[{A_BID}]", "bids.0.token: 1 is not a token"),
        (f"{BIDS} round=3 bids=[{A_BID}]", "bids.0.round: 2 is not within 3 to 3"),
        (f"{BIDS} round=2 bids=[{A_BID},{A_BID}]", "bids: one bid a seat"),
        (f"{KNIGHT} round={10**20}", "round: a number of 21 digits is not within 0 to 6"),
        (f"{KNIGHT} turns_in_round=3", "turns_in_round: 3 is not within 0 to 2"),
        (f"{KNIGHT} activations=-2", "activations: -2 is not within 0 to 9999"),
        (
            f'{KNIGHT} heroes={{"stash":["knight.red9"]}}',
            "heroes.stash: 'knight.red9' is not a coin of the heroes",
        ),
        (
            f'{KNIGHT} adversaries={{"discard":["knight.green1"]}}',
            "adversaries.discard: 'knight.green1' is not a coin of the adversaries",
        ),
        (
            f'{KNIGHT} heroes={{"stash":["knight.green1"],"discard":["knight.green1"]}}',
            "heroes: coin knight.green1 is in two places",
        ),
        (
            f'{KNIGHT} secrets=[{{"side":"heroes","name":"shapeshifter","choice":"x"}}]',
            "secrets.0.name: 'shapeshifter' is not a secret of the heroes",
        ),
    ],
)
def test_a_value_the_rules_do_not_allow_is_refused_naming_its_field(text: str, says: str) -> None:
    assert says in _read(text)


def test_a_value_at_the_edge_of_what_the_rules_allow_is_read() -> None:
    assert read_position(f"{TILES} round=8 turn=16").round == 8
    assert read_position(f'{WORLDS} models={{"1.commander":{{"hp":0}}}}').models[0].hp == 0
    assert read_position(f"{BIDS} round=3 scores=[18,0,0]").scores == (18, 0, 0)
    assert read_position(f'{KNIGHT} heroes={{"stash":[],"discard":["knight.green1"]}}')


def test_an_edit_is_held_to_the_rules_limits() -> None:
    with pytest.raises(PositionError, match="round: 9 is not within 0 to 8"):
        edit_position(TILES, "round=9")


def test_a_position_longer_than_the_bound_is_refused_before_it_is_read() -> None:
    text = f"{TILES} reason={'x' * MAX_POSITION}"
    assert f"a position is at most {MAX_POSITION} characters" in _read(text)


def test_a_position_of_another_game_than_asked_is_refused() -> None:
    with pytest.raises(PositionError, match="the position is of tiles-d6, not of multiversus"):
        read_position(f"{TILES} round=1", "multiversus")


# --- the text itself ------------------------------------------------------------------------


def test_a_position_names_only_what_differs_from_the_start_of_the_match() -> None:
    assert write_position(load_ruleset("tiles-d6").initial_state(TilesSettings(), None)) == TILES
    state = read_position(f'{TILES} phase=play round=2 units={{"1.captain":{{"at":[3,4]}}}}')
    captain = state.unit("1.captain")
    assert (state.phase, state.round, captain.at, captain.health) == ("play", 2, (3, 4), 8)
    assert (
        write_position(state) == f'{TILES} units={{"1.captain":{{"at":[3,4]}}}} phase=play round=2'
    )


def test_a_multiversus_position_lays_out_the_teams_it_names() -> None:
    state = start_match(position=KNIGHT)
    assert [unit.id for unit in state.units][:3] == ["knight", "squire", "militia"]
    assert state.board is not None and state.figure("knight").square is not None
    assert write_position(state) == KNIGHT


def test_start_match_takes_a_position_or_settings_not_both() -> None:
    with pytest.raises(SettingsError, match="give settings or a position, not both"):
        start_match(MatchSettings(), position=KNIGHT)


# --- starting from a position and its log ---------------------------------------------------


def test_a_log_started_from_a_position_records_it_without_the_chance_seed() -> None:
    text = f'{TILES} units={{"1.captain":{{"at":[3,4]}}}} phase=deploy first=1 north=1 active=1'
    ruleset = load_ruleset("tiles-d6")
    bots = {seat: ruleset.bots["random"](seat) for seat in (1, 2)}
    log, _ = play_from(text, bots)
    assert log.chance is not None  # fresh and secret, revealed at the end
    header = log.header
    assert str(log.chance.seed) not in header.position and log.chance.salt not in header.position
    assert read_position(header.position).settings == header.settings
    assert starting_state(log) == msgspec.structs.replace(
        read_position(header.position), chance=log.chance
    )
    data = encode_log(log)
    assert decode_log(data) == log and verify_data(data).ok
    assert replay(decode_log(data)) is not None


def test_a_log_from_the_initial_state_has_no_position_in_its_header() -> None:
    ruleset = load_ruleset("sealed-bids")
    bots = {seat: ruleset.bots["random"](seat) for seat in (1, 2, 3)}
    log, _ = play_match(SealedBidsSettings(seed=4), bots)
    assert log.header.position == ""
    assert b'"position"' not in encode_log(log).split(b"\n")[0]


def test_the_audit_holds_a_reveal_of_a_bid_sealed_before_the_position_to_it() -> None:
    ruleset = load_ruleset("sealed-bids")
    sealed = ruleset.decide(Bid(player=1, token=3), start_position("sealed-bids/1", seed=2)[0])[1]
    bots = {seat: ruleset.bots["random"](seat) for seat in (1, 2, 3)}
    log, _ = play_from(write_position(sealed), bots, seed=5)
    revealed = log.entries[1].events[1]
    assert isinstance(revealed, BidsRevealed) and revealed.bids[0].token == 3
    forged_bids = (msgspec.structs.replace(revealed.bids[0], token=1), *revealed.bids[1:])
    forged_entry = msgspec.structs.replace(
        log.entries[1],
        events=(log.entries[1].events[0], msgspec.structs.replace(revealed, bids=forged_bids)),
    )
    forged = msgspec.structs.replace(log, entries=(log.entries[0], forged_entry, *log.entries[2:]))
    assert verify_data(encode_log(log)).ok
    checked = verify_data(encode_log(forged))
    assert not checked.ok and checked.code == "reveal_mismatch" and checked.entry == 2
    assert "is not the secret or salt the starting position holds" in checked.problem


def _selected(seed: int) -> Any:
    """A Multiversus state whose active coin selection is committed, not yet revealed."""
    ruleset = load_ruleset("multiversus")
    bots = {seat: ruleset.bots["random"](seed + seat) for seat in (1, 2)}
    settings = MatchSettings(heroes="banner-knight", adversaries="smogon", seed=seed)
    state = ruleset.initial_state(settings, None)
    while ruleset.outcome(state) is None:
        activation = state.activation
        if activation is not None and activation.commitment and not activation.revealed:
            return state
        seat = ruleset.to_act(state)[0]
        view = ruleset.view(state, ruleset.viewer_of(state, seat))
        command = bots[seat].choose(view, ruleset.legal_commands(state, seat))
        state = ruleset.decide(command, state)[1]
    raise AssertionError("no selection in the match")


def test_the_audit_holds_a_coin_selection_made_before_the_position_to_it() -> None:
    state = _selected(3)
    bots = {seat: load_ruleset("multiversus").bots["random"](seat) for seat in (1, 2)}
    log, _ = play_from(write_position(state), bots, seed=5)
    assert verify_data(encode_log(log)).ok
    number, revealed = next(
        (number, event)
        for number, entry in enumerate(log.entries)
        for event in entry.events
        if isinstance(event, CoinsRevealed)
    )
    assert revealed.salt == state.activation.salt  # the position's selection, revealed
    entry = log.entries[number]
    forged_event = msgspec.structs.replace(revealed, salt="0" * 64)
    events = tuple(forged_event if e is revealed else e for e in entry.events)
    entries = list(log.entries)
    entries[number] = msgspec.structs.replace(entry, events=events)
    forged = msgspec.structs.replace(log, entries=tuple(entries))
    checked = verify_data(encode_log(forged))
    assert not checked.ok and checked.code == "reveal_mismatch" and checked.entry == number + 1
    assert "the Heroes' coin selection" in checked.problem or "the Adversaries'" in checked.problem


def test_a_secret_held_by_the_position_and_never_revealed_is_named_as_such() -> None:
    state = _selected(3)
    bots = {seat: load_ruleset("multiversus").bots["random"](seat) for seat in (1, 2)}
    log, _ = play_from(write_position(state), bots, seed=5)
    kept = tuple(
        msgspec.structs.replace(
            entry, events=tuple(e for e in entry.events if not isinstance(e, CoinsRevealed))
        )
        for entry in log.entries
    )
    problems = check_commitments(msgspec.structs.replace(log, entries=kept))
    assert problems and problems[0].code == "unrevealed"
    assert "committed before the starting position" in problems[0].message


@pytest.mark.parametrize(
    ("change", "says"),
    [
        ('activation={"unit":"nobody"}', "activation.unit: 'nobody' is not a unit of the"),
        ('activation={"coin":"nobody.green1"}', "activation.coin: 'nobody.green1' is not a coin"),
        ('activation={"number":0}', "activation.number: 0 is not within 1 to"),
        ('activation={"attacked_units":["nobody"]}', "'nobody' is not an enemy unit"),
    ],
)
def test_the_activation_under_way_names_units_and_coins_that_exist(change: str, says: str) -> None:
    with pytest.raises(PositionError) as caught:
        edit_position(write_position(_selected(3)), change)
    assert says in str(caught.value)


def _forced(figure: str, *, ally: str | None = None, queued: str | None = None) -> str:
    move = {"how": "push", "direction": [1, 0], "distance": 1}
    queue = [] if queued is None else [{**move, "figure": queued}]
    forced = {"side": "heroes", "move": {**move, "figure": figure}, "ally": ally, "queue": queue}
    return "activation=" + json.dumps({"forced": forced})


def test_the_activation_s_forced_moves_offer_and_follow_up_name_figures_that_exist() -> None:
    state = _selected(3)
    text = write_position(state)
    figure = state.figures[0].id
    unit = state.activation.unit
    held = {"triggers": [], "figure": figure, "held": {"step": "attack", "figure": figure}}
    attack = {"kind": "attack", "double": False, "side": state.activation.side, "unit": unit}
    cases = [
        (_forced("nobody"), "activation.forced.move.figure: 'nobody' is not a figure"),
        (_forced(figure, ally="nobody"), "activation.forced.ally: 'nobody' is not a figure"),
        (_forced(figure, queued="nobody"), "activation.forced.queue.0.figure: 'nobody' is not"),
        (
            "activation="
            + json.dumps({"offer": {**held, "held": {**held["held"], "target": "x"}}}),
            "activation.offer.held.target: 'x' is not a figure",
        ),
        (
            "activation=" + json.dumps({"action": {**attack, "follow_up": [figure, "nobody"]}}),
            "activation.action.follow_up: 'nobody' is not a figure",
        ),
    ]
    for change, says in cases:
        with pytest.raises(PositionError) as caught:
            edit_position(text, change)
        assert says in str(caught.value) and "\n" not in str(caught.value)
    assert read_position(edit_position(text, _forced(figure))) is not None  # a good one reads


def test_a_header_whose_position_and_settings_disagree_is_refused() -> None:
    ruleset = load_ruleset("sealed-bids")
    bots = {seat: ruleset.bots["random"](seat) for seat in (1, 2, 3)}
    log, _ = play_from("sealed-bids/1 round=2", bots, seed=5)
    other = msgspec.structs.replace(log.header.settings, rounds=4)
    header = msgspec.structs.replace(log.header, settings=other)
    with pytest.raises(PositionError, match="the header's position and settings"):
        opening_state(ruleset, header, None)
    checked = verify_data(encode_log(msgspec.structs.replace(log, header=header)))
    assert not checked.ok and "the header's position and settings" in (checked.problem or "")


def test_a_position_that_holds_its_chance_seed_cannot_head_a_log() -> None:
    state, chance = start_position("sealed-bids/1 round=2")
    assert chance is not None and state.chance == chance
    ruleset = load_ruleset("sealed-bids")
    bots = {seat: ruleset.bots["random"](seat) for seat in (1, 2, 3)}
    log, _ = play_from("sealed-bids/1 round=2", bots, seed=5)
    leaky = msgspec.structs.replace(log.header, position=write_position(state))
    leaky = msgspec.structs.replace(leaky, settings=state.settings)
    with pytest.raises(PositionError, match="holds its chance seed"):
        opening_state(ruleset, leaky, None)


BIDDING: Final = (
    'sealed-bids/1 settings={"salts":"secrets"} round=2 spent=[[2],[2],[5]] scores=[0,0,4]'
)
"""Sealed Bids in round 2, before anyone bids again; salts are secret."""


def _two_bids() -> Any:
    """The log of a Sealed Bids match played on from where seats 1 and 2 have bid."""
    ruleset = load_ruleset("sealed-bids")
    state = read_position(BIDDING)
    for command in (Bid(1, 4, "a" * 64), Bid(2, 3, "b" * 64)):
        state = ruleset.decide(command, state)[1]
    bots = {seat: ruleset.bots["random"](seat) for seat in (1, 2, 3)}
    return play_from(write_position(state), bots, seed=5)[0]


def test_a_seats_view_log_names_the_position_with_the_other_seats_bids_stood_in_for() -> None:
    log = _two_bids()
    own = redact_log(log, "seat-1")
    position = own.header.position
    assert position.endswith(' hidden=["bid:2:2"]')
    assert "a" * 64 in position and "b" * 64 not in position  # its own salt, not seat 2's
    seen = read_redacted_position(position, "seat-1")
    assert [(b.seat, b.token, b.salt) for b in seen.state.bids] == [(1, 4, "a" * 64), (2, 1, "")]
    assert seen.hidden == ("bid:2:2",)
    public = redact_log(log, "spectator").header.position
    assert public.endswith(' hidden=["bid:2:1","bid:2:2"]')
    data = encode_view_log(own)
    assert b"b" * 64 not in data.split(b"\n")[0]
    checked = verify_view(decode_view_log(data))
    assert checked.ok, checked.problem
    # Filled in from the round's reveal, it starts where the match did.
    filled = replayable(decode_view_log(data)).header.position
    assert read_position(filled) == read_position(log.header.position)
    assert redact_log(log, "referee").header == log.header


def test_a_viewers_position_is_refused_as_a_position_to_play_from() -> None:
    log = _two_bids()
    position = redact_log(log, "seat-3").header.position
    assert _read(position).startswith("the position is a viewer's, with secrets hidden")
    with pytest.raises(PositionError, match="is a viewer's"):
        start_position(position)


@pytest.mark.parametrize(
    ("change", "says"),
    [
        (('2,"token":1,', '2,"token":3,'), "is not as the seat-1 sees it"),
        ((' hidden=["bid:2:2"]', ""), "is not as the seat-1 sees it"),
        (('["bid:2:2"]', '["bid:2:1"]'), "is not as the seat-1 sees it"),
        (('["bid:2:2"]', "[]"), "field hidden: a list of the keys"),
        (('["bid:2:2"]', "[2]"), "field hidden: a list of the keys"),
    ],
)
def test_a_view_logs_position_whose_stand_ins_were_changed_is_refused(
    change: tuple[str, str], says: str
) -> None:
    log = _two_bids()
    own = redact_log(log, "seat-1")
    old, new = change
    assert old in own.header.position
    header = msgspec.structs.replace(own.header, position=own.header.position.replace(old, new))
    forged = decode_view_log(encode_view_log(msgspec.structs.replace(own, header=header)))
    checked = verify_view(forged)
    assert (checked.ok, checked.code, checked.entry) == (False, "bad_settings", None)
    assert says in (checked.problem or "")
    with pytest.raises(PositionError, match=says):
        replayable(forged)


def test_the_match_log_disowns_a_view_log_whose_position_was_changed() -> None:
    log = _two_bids()
    own = redact_log(log, "seat-1")
    other = edit_position(log.header.position, "scores=[0,1,4]")
    header = msgspec.structs.replace(own.header, position=redact_position(other, "seat-1"))
    forged = decode_view_log(encode_view_log(msgspec.structs.replace(own, header=header)))
    (_, against) = verify_against(log, [forged])
    assert (against.ok, against.code) == (False, "views_differ")
    assert (against.problem or "").startswith(
        "the header: the starting position differs from the match log's as the seat-1"
    )


def test_a_game_that_hides_nothing_cannot_show_a_viewer_anothers_secret(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    log = _two_bids()
    monkeypatch.setattr(SealedBidsNotation, "hide", Initial.hide)
    with pytest.raises(ValueError, match="a position as seat-1 sees it shows seat 2's bid"):
        redact_log(log, "seat-1")


def test_a_hidden_coin_selection_stands_in_as_the_first_face_down_coin() -> None:
    state = _selected(3)
    activation = state.activation
    assert activation is not None
    side, other = activation.side, ("adversaries" if activation.side == "heroes" else "heroes")
    bots = {seat: load_ruleset("multiversus").bots["random"](seat) for seat in (1, 2)}
    log, _ = play_from(write_position(state), bots, seed=5)
    mine = read_redacted_position(redact_log(log, side).header.position, side)
    assert mine.state.activation == activation and mine.hidden == ()
    theirs = read_redacted_position(redact_log(log, other).header.position, other)
    assert theirs.hidden[-1] == f"coins:{side}:"
    shown = theirs.state.activation
    face_down = sorted((*state.piles(side).stash, activation.coin))
    assert (shown.coin, shown.actions, shown.remaining, shown.salt) == (face_down[0], (), (), "")
    assert shown.commitment == activation.commitment
    assert activation.salt not in redact_log(log, other).header.position
    for viewer in ("heroes", "adversaries", "spectator"):
        checked = verify_view(redact_log(log, viewer))
        assert checked.ok, (viewer, checked.problem)


def test_replay_writes_a_seats_view_log_of_a_match_from_a_position(tmp_path: Path) -> None:
    log = _two_bids()
    path = tmp_path / "bids.jsonl"
    path.write_bytes(encode_log(log))
    words = ["replay", str(path), "--as", "seat-1", "--format", "log"]
    written = CliRunner().invoke(app, words)
    assert written.exit_code == 0, written.output
    view = tmp_path / "seat-1.jsonl"
    view.write_bytes(written.stdout_bytes)
    assert decode_view_log(written.stdout_bytes) == redact_log(log, "seat-1")
    checked = CliRunner().invoke(app, ["verify", str(path), str(view)])
    assert checked.exit_code == 0, checked.output
    shown = CliRunner().invoke(app, ["replay", str(view), "--to", "0", "--format", "json"])
    assert shown.exit_code == 0, shown.output
    assert '"hidden_bid_committed"' in shown.output and "b" * 64 not in shown.output
    page = CliRunner().invoke(app, ["replay", str(path), "--as", "seat-2", "--format", "html"])
    assert page.exit_code == 0, page.output


def test_starting_from_a_position_renames_the_seats_when_asked() -> None:
    state, chance = start_position(f"{TILES} round=1", seed=8, players=("Ann", "Bob"))
    assert chance is None and state.chance is None
    assert state.settings.players == ("Ann", "Bob") and state.settings.seed == 8
    with pytest.raises(PositionError, match="settings: players"):
        start_position(f"{TILES} round=1", players=("Ann",))


# --- the command line -------------------------------------------------------------------------


def _position_at(log: Path, to: int) -> str:
    shown = CliRunner().invoke(app, ["replay", str(log), "--as", "referee", "--to", str(to)])
    assert shown.exit_code == 0, shown.output
    (line,) = [line for line in shown.output.splitlines() if line.startswith("Position: ")]
    return line.removeprefix("Position: ")


def test_replay_to_an_entry_shows_the_referees_position_there(tmp_path: Path) -> None:
    log = tmp_path / "tiles.jsonl"
    words = ["play", "--game", "tiles-d6", "--players", "random,random", "--seed", "3"]
    played = CliRunner().invoke(app, [*words, "--bot-seed", "2", "--log", str(log)])
    assert played.exit_code == 0, played.output
    match = read_log(log)
    text = _position_at(log, 20)
    state = starting_state(match)
    for entry in match.entries[:20]:
        state = load_ruleset("tiles-d6").fold(state, entry.events)
    assert read_position(text) == without_chance(state)
    hidden = CliRunner().invoke(app, ["replay", str(log), "--to", "20", "--format", "board"])
    assert "Position:" not in hidden.output  # it holds every secret: the referee's only
    whole = CliRunner().invoke(app, ["replay", str(log), "--no-step"])
    assert "Position:" not in whole.output  # only where --to asks for a point


def test_play_from_a_position_plays_on_and_its_log_verifies(tmp_path: Path) -> None:
    golden = Path("replays/banner-knight--smogon--standard.jsonl")
    text = _position_at(golden, 30)
    log = tmp_path / "from.jsonl"
    words = ["play", "--from", text, "--player1", "bot", "--player2", "bot", "--quiet"]
    result = CliRunner().invoke(app, [*words, "--seed", "4", "--log", str(log)])
    assert result.exit_code == 0, result.output
    match = read_log(log)
    assert match.header.position.startswith("multiversus/4 ")
    start = starting_state(match)
    assert start.round == 2 and start.figure("squire").square == (2, 7)
    assert start.settings.seed == 4 and verify_file(log).ok


def test_play_from_a_position_of_another_game_names_its_game_itself(tmp_path: Path) -> None:
    log = tmp_path / "bids.jsonl"
    words = ["play", "--from", "sealed-bids/1 round=3 scores=[2,0,1]", "--players"]
    result = CliRunner().invoke(app, [*words, "random,random,random", "--log", str(log)])
    assert result.exit_code == 0, result.output
    match = read_log(log)
    assert match.game == "sealed-bids" and match.finished and match.chance is not None
    assert starting_state(match).scores == (2, 0, 1) and verify_file(log).ok


def test_replay_refuses_a_view_log_whose_stand_ins_were_changed_in_one_line(
    tmp_path: Path,
) -> None:
    own = redact_log(_two_bids(), "seat-1")
    bare = own.header.position.replace(' hidden=["bid:2:2"]', "")
    forged = msgspec.structs.replace(own, header=msgspec.structs.replace(own.header, position=bare))
    path = tmp_path / "seat-1.jsonl"
    path.write_bytes(encode_view_log(forged))
    result = CliRunner().invoke(app, ["replay", str(path), "--format", "json"])
    assert result.exit_code == 2, result.output
    assert result.output == (
        f"multiversus replay: {path}: it does not verify, the position is not as the seat-1 "
        "sees it: a stand-in, or the list of the secrets it hides (hidden), was changed "
        "(bad_settings)\n"
    )


SEATS: Final = {
    "multiversus": ["--player1", "random", "--player2", "random"],
    "sealed-bids": ["--players", "random,random,random"],
    "tiles-d6": ["--players", "random,random"],
    "worlds-collide": ["--players", "random,random"],
}
"""How ``multiversus play`` seats random bots at each game's table."""


@pytest.mark.parametrize("game", sorted(SEATS))
def test_each_viewers_view_log_of_a_match_played_from_a_position_verifies_against_it(
    tmp_path: Path, game: str
) -> None:
    first = tmp_path / "first.jsonl"
    named = [] if game == "multiversus" else ["--game", game]
    words = ["play", *named, *SEATS[game], "--seed", "3", "--bot-seed", "2"]
    played = CliRunner().invoke(app, [*words, "--log", str(first)])
    assert played.exit_code == 0, played.output
    text = _position_at(first, len(read_log(first).entries) // 2)
    log = tmp_path / "from.jsonl"
    words = ["play", "--from", text, *SEATS[game]]
    result = CliRunner().invoke(app, [*words, "--bot-seed", "5", "--log", str(log)])
    assert result.exit_code == 0, result.output
    assert read_log(log).header.position
    views = []
    for viewer in load_ruleset(game).viewers:
        written = CliRunner().invoke(app, ["replay", str(log), "--as", viewer, "--format", "log"])
        assert written.exit_code == 0, written.output
        views.append(tmp_path / f"{viewer}.jsonl")
        views[-1].write_bytes(written.stdout_bytes)
        shown = CliRunner().invoke(app, ["replay", str(views[-1]), "--format", "json"])
        assert shown.exit_code == 0, shown.output
    checked = CliRunner().invoke(app, ["verify", str(log), *map(str, views)])
    assert checked.exit_code == 0, checked.output
    assert checked.output.count("OK ") == 1 + len(views)


@pytest.mark.parametrize(
    ("words", "says"),
    [
        (["--from", "chess/1 x=1"], "multiversus play: unknown game 'chess'"),
        (["--from", f"{KNIGHT} round=2x"], "multiversus play: field round: '2x' is neither"),
        (["--from", KNIGHT, "--heroes", "banner-knight"], "--heroes cannot be used with --from"),
        (["--game", "tiles-d6", "--from", f"{TILES} x=1"], "tiles-d6 has no field 'x'"),
    ],
)
def test_play_from_a_bad_position_exits_2_with_one_line(
    tmp_path: Path, words: list[str], says: str
) -> None:
    log = ["--log", str(tmp_path / "x.jsonl")]
    result = CliRunner().invoke(app, ["play", *words, *log], env={"COLUMNS": "300"})
    assert result.exit_code == 2, result.output
    assert says in result.output and len(result.output.strip().splitlines()) == 1
    assert not (tmp_path / "x.jsonl").exists()


# --- editing -----------------------------------------------------------------------------------


def test_an_edit_changes_the_fields_it_names_against_the_positions_own_values() -> None:
    moved = f'{TILES} units={{"1.captain":{{"at":[3,4]}},"2.ogre":{{"at":[5,5]}}}} phase=play'
    edited = edit_position(moved, 'units={"1.captain":{"prone":true}} round=2')
    state = read_position(edited)
    captain, ogre = state.unit("1.captain"), state.unit("2.ogre")
    assert (captain.at, captain.prone, ogre.at, state.round) == ((3, 4), True, (5, 5), 2)
    assert edited == (
        f'{TILES} units={{"1.captain":{{"at":[3,4],"prone":true}},"2.ogre":{{"at":[5,5]}}}} '
        "phase=play round=2"
    )


def test_an_edit_is_checked_as_a_position_is() -> None:
    with pytest.raises(PositionError, match=r"2\.ogre and 1\.captain both stand at"):
        edit_position(
            f'{TILES} units={{"1.captain":{{"at":[3,4]}}}}', 'units={"2.ogre":{"at":[3,4]}}'
        )
    with pytest.raises(PositionError, match="tiles-d6 has no field 'wind'"):
        edit_position(TILES, "wind=3")


# --- hostile text --------------------------------------------------------------------------------

_MUTATED: Final = (
    KNIGHT + ' figures={"knight":{"square":[2,7],"condition":"wounded"}} pending=select round=2',
    f'{TILES} units={{"1.captain":{{"at":[3,4],"prone":true}}}} phase=play round=2 active=1',
    'worlds-collide/1 sides={"1":{"out":true}} models={"1.commander":{"at":[8,7]}} round=1',
    "sealed-bids/1 round=2 spent=[[4],[5],[2]] scores=[0,4,0] draws=1",
)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(
    text=st.sampled_from(_MUTATED),
    edits=st.lists(
        st.tuples(
            st.floats(0, 1),
            st.sampled_from(["put", "cut", "add"]),
            st.sampled_from(list('{}[]",:=0123456789 -aentrul.')),
        ),
        min_size=1,
        max_size=3,
    ),
)
def test_any_edit_of_a_position_reads_or_is_refused_in_one_line(
    text: str, edits: list[tuple[float, str, str]]
) -> None:
    chars = list(text)
    for where, how, char in edits:
        at_ = min(int(where * len(chars)), len(chars) - 1)
        if how == "put":
            chars[at_] = char
        elif how == "cut":
            del chars[at_]
        else:
            chars.insert(at_, char)
    edited = "".join(chars)
    state: object = None
    reason = ""
    try:
        state = read_position(edited)
    except PositionError as error:  # refused: in one line
        reason = str(error)
    if state is None:
        assert reason and "\n" not in reason
    else:
        assert read_position(write_position(state)) == state


def test_the_package_offers_positions_as_text() -> None:
    text = multiversus_core.write_position(read_position(f"{TILES} round=2"))
    assert text == f"{TILES} round=2"
    assert multiversus_core.read_position(text) == read_position(text)
    with pytest.raises(multiversus_core.PositionError, match="round: 9 is not within 0 to 8"):
        multiversus_core.read_position(f"{TILES} round=9")
    assert {"PositionError", "read_position", "write_position"} <= set(multiversus_core.__all__)
