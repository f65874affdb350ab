"""Rendering and description: the board, its legend and status, events and commands in
words, and what each seat may see.

The hidden-information tests compare two states that differ only in a secret
(a coin selection, a set-up secret): whatever is drawn or told to the player
who did not make it must be the same text for both.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from itertools import pairwise

import pytest

from multiversus_cli.render import (
    board_grid,
    board_legend,
    figure_labels,
    render_board,
    render_piles,
    render_units,
    status_line,
    to_text,
)
from multiversus_core import (
    AfterAttack,
    Attack,
    ChooseSecret,
    Command,
    DeclineReaction,
    EndAction,
    Event,
    MatchSettings,
    MatchState,
    React,
    SelectCoins,
    SelectReaction,
    Step,
    StopForcedMove,
    Stunt,
    apply,
    decide,
    decider_seat,
    fold,
    legal_commands,
    start_match,
)
from multiversus_core.engine.render import facts_html
from multiversus_core.rulesets.multiversus.activation import triggered_units
from multiversus_core.rulesets.multiversus.bots.specs import RandomBot, command_for
from multiversus_core.rulesets.multiversus.events import (
    AttackMade,
    ConditionChanged,
    MatchEnded,
    ReactionDeclined,
    ReactionTriggered,
    SecretChosen,
    SecretRevealed,
)
from multiversus_core.rulesets.multiversus.geometry import are_adjacent
from multiversus_core.rulesets.multiversus.narrate import (
    Narrator,
    command_parts,
    decision_help,
    describe_command,
    describe_event,
    describe_events,
    possessive,
    secret_option_name,
    secret_text,
)
from multiversus_core.rulesets.multiversus.render import view_facts
from multiversus_core.rulesets.multiversus.terms import Condition, Seat, other_seat
from multiversus_core.rulesets.multiversus.views import (
    HiddenSecretChosen,
    redact_event,
    view,
    viewer_of,
)
from tests.support import conditioned, placed, play, play_passing, select, set_up
from tests.test_actions import ARENA

SETTINGS = MatchSettings(
    heroes="banner-knight",
    adversaries="smogon",
    scenario="smoking-crags",
    seed=5,
    players=("Alice", "Bob"),
)


SECRET_SETTINGS = MatchSettings(
    heroes="witch-hunters", adversaries="swartzblak", seed=3, players=("Alice", "Bob")
)
"""A pairing whose sheets both have set-up secrets."""


def play_until(
    predicate: Callable[[MatchState], bool],
    bot_seed: int = 1,
    settings: MatchSettings = SETTINGS,
) -> MatchState:
    """Play random legal commands from the start until the predicate holds."""
    state = start_match(settings)
    bot = RandomBot(bot_seed)
    while not predicate(state):
        assert not state.is_over, "the predicate never held"
        seat = decider_seat(state)
        assert seat is not None
        state, _ = apply(state, command_for(bot, state, seat))
    return state


def find_events(
    wanted: Callable[[MatchState, tuple[Event, ...]], bool],
) -> tuple[MatchState, tuple[Event, ...]]:
    """Return the first (state before, events) of random bot play where ``wanted`` holds.

    Several bot seeds are tried in order, so the search does not hang on one seed's luck.
    """
    for bot_seed in range(1, 40):
        state = start_match(SETTINGS)
        bot = RandomBot(bot_seed)
        while not state.is_over:
            seat = decider_seat(state)
            assert seat is not None
            after, events = apply(state, command_for(bot, state, seat))
            if wanted(state, events):
                return state, events
            state = after
    raise AssertionError("no bot game of the first 40 seeds has such events")


def find_state(predicate: Callable[[MatchState], bool]) -> MatchState:
    """Return the first state of random bot play (over several bot seeds) where the predicate holds."""
    state, events = find_events(lambda s, e: predicate(fold(e, s)))
    return fold(events, state)


def grid_cells(state: MatchState) -> list[list[str]]:
    """Return the board grid's rows of cell texts, without the coordinate header and column."""
    lines = to_text(board_grid(state)).splitlines()
    return [line.split()[1:] for line in lines[1:] if line.strip()]


@pytest.fixture(scope="module")
def first_turn() -> MatchState:
    return play_until(lambda s: s.pending == "select")


def test_the_board_shows_every_figure_label(first_turn: MatchState) -> None:
    labels = figure_labels(first_turn)
    cells = [cell for row in grid_cells(first_turn) for cell in row]
    for figure in first_turn.figures:
        assert labels[figure.id] in cells, figure.name


def test_labels_are_short_and_unique(first_turn: MatchState) -> None:
    labels = figure_labels(first_turn)
    assert len(set(labels.values())) == len(labels)
    assert all(1 <= len(label) <= 3 for label in labels.values())


def test_a_large_figure_fills_four_cells(first_turn: MatchState) -> None:
    smogon = first_turn.figure("smogon")
    assert smogon.size == "large" and smogon.square == (4, 0)
    label = figure_labels(first_turn)["smogon"]
    rows = grid_cells(first_turn)
    assert sum(row.count(label) for row in rows) == 4
    assert rows[0][4:6] == [label, label]
    assert rows[1][4:6] == [label, label]


def test_coordinates_run_along_the_edges(first_turn: MatchState) -> None:
    lines = to_text(board_grid(first_turn)).splitlines()
    assert lines[0].split() == [str(c) for c in range(10)]
    assert [line.split()[0] for line in lines[1:11]] == [str(r) for r in range(10)]


def test_special_tiles_are_lettered_and_in_the_legend(first_turn: MatchState) -> None:
    cells = [cell for row in grid_cells(first_turn) for cell in row]
    assert cells.count("cr") == 4
    assert cells.count("sv") == 4
    legend = to_text(board_legend(first_turn))
    assert "cr Crag (blocking, obscuring)" in legend
    assert "sv Smoke Vent (obscuring)" in legend


def test_the_legend_maps_labels_to_names(first_turn: MatchState) -> None:
    legend = to_text(board_legend(first_turn))
    assert "Sm" in legend and "Smogon (Large)" in legend
    assert "TM1 TM2 TM3" in legend and "Town Militia 1, 2, 3" in legend
    assert "BK" in legend and "Banner Knight" in legend


def test_the_status_shows_round_initiative_and_coin_counts(first_turn: MatchState) -> None:
    status = to_text(status_line(first_turn, 1))
    active = first_turn.active
    assert active is not None
    assert "Round 1 of 6" in status
    assert f"{active.capitalize()} (" in status and "hold the Initiative" in status
    assert "Heroes (" in status and "stash 9, discard 0" in status


def test_units_list_every_figure_and_its_space(first_turn: MatchState) -> None:
    text = to_text(render_units(first_turn, 1), width=120)
    for figure in first_turn.figures:
        assert figure.name in text
        assert figure.square is not None
        assert f"({figure.square[0]},{figure.square[1]})" in text


def test_units_show_the_rules_of_each_unit(first_turn: MatchState) -> None:
    from multiversus_core.rulesets.multiversus.abilities import abilities_of, title

    text = to_text(render_units(first_turn, 1), width=200)
    shown = 0
    for unit in first_turn.units:
        for ability in abilities_of(unit):
            assert title(ability) in text
            shown += 1
    assert shown > 0
    assert "(!)" in text or "(!!)" in text


def test_the_opponents_stash_is_only_a_count(first_turn: MatchState) -> None:
    viewer: Seat = 1
    own = first_turn.side_of(viewer)
    assert own is not None
    text = to_text(render_piles(first_turn, viewer), width=160)
    assert "9 coins (hidden)" in text
    own_unit = next(u for u in first_turn.units if u.side == own)
    other_unit = next(u for u in first_turn.units if u.side != own)
    assert own_unit.name in text
    assert other_unit.name not in text


def _views(state: MatchState, viewer: Seat | None) -> str:
    return "\n".join(
        to_text(view, width=160)
        for view in (
            render_board(state, viewer),
            render_units(state, viewer),
            render_piles(state, viewer),
        )
    )


def test_the_reactive_seat_never_sees_the_active_selection(first_turn: MatchState) -> None:
    active = decider_seat(first_turn)
    assert active is not None
    reactive: Seat = 2 if active == 1 else 1
    side = first_turn.side_of(active)
    units = [u for u in first_turn.units if u.side == side and not u.is_terrain]
    one = SelectCoins(player=active, unit=units[0].id, colour="green", actions=("move",))
    other = SelectCoins(player=active, unit=units[1].id, colour="grey", actions=("move", "move"))
    before = first_turn
    a, events_a = apply(before, one)
    b, events_b = apply(before, other)
    assert a.pending == b.pending == "react"
    assert _views(a, reactive) == _views(b, reactive)
    assert describe_events(before, events_a, reactive) == describe_events(
        before, events_b, reactive
    )
    # The active player does see their own selection.
    assert _views(a, active) != _views(b, active)
    assert units[0].name + " (green coin) with Move" in to_text(status_line(a, active))


def test_the_active_seat_never_sees_an_unrevealed_reaction(first_turn: MatchState) -> None:
    active = decider_seat(first_turn)
    assert active is not None
    reactive = other_seat(active)
    mover = next(u for u in first_turn.units if u.side == first_turn.side_of(active))
    state, _ = apply(
        first_turn, SelectCoins(player=active, unit=mover.id, colour="green", actions=("move",))
    )
    side = state.side_of(reactive)
    units = [u for u in state.units if u.side == side and not u.is_terrain]
    one = SelectReaction(player=reactive, unit=units[0].id, colour="green", actions=("attack",))
    other = SelectReaction(player=reactive, unit=units[1].id, colour="grey", actions=("defend",))
    a, events_a = apply(state, one)
    b, events_b = apply(state, other)
    assert a.pending == b.pending == "move"  # mid-activation: the active unit moves
    assert _views(a, active) == _views(b, active)
    assert "reaction: selected in secret" in to_text(status_line(a, active))
    assert describe_events(state, events_a, active) == describe_events(state, events_b, active)
    # The reactive player sees their own reaction; the public view sees neither secret.
    assert "(your secret)" in to_text(status_line(a, reactive))
    assert _views(a, reactive) != _views(b, reactive)
    assert _views(a, None) == _views(b, None)


# Conditions on the board


def test_conditions_are_marked_on_the_board_and_eliminated_figures_in_the_legend(
    first_turn: MatchState,
) -> None:
    state = fold(
        (
            ConditionChanged(figure="militia-2", condition="wounded"),
            ConditionChanged(figure="squire", condition="disabled"),
            ConditionChanged(figure="militia-3", condition="eliminated"),
        ),
        first_turn,
    )
    labels = figure_labels(state)
    cells = [cell for row in grid_cells(state) for cell in row]
    assert labels["militia-2"] + "*" in cells  # Wounded
    assert labels["squire"] + "×" in cells  # Disabled
    assert labels["militia-1"] in cells  # Unharmed: no mark
    assert not any(cell.startswith(labels["militia-3"]) for cell in cells)  # off the board
    legend = to_text(board_legend(state), width=160)
    assert f"{labels['militia-3']}†" in legend
    assert "(Eliminated: Town Militia 3)" in legend
    assert "(Wounded: Town Militia 2)" in legend
    assert "Squire Aldous (Disabled)" in legend
    assert "Marks: * Wounded, × Disabled, † Eliminated." in legend
    units = to_text(render_units(state, 1), width=160)
    assert "Eliminated" in units and "Disabled" in units and "Wounded" in units


# Reactions: the trigger is public, the reaction hidden until it is used


def _left_adjacent_offer(state: MatchState) -> bool:
    act = state.activation
    return (
        state.pending == "offer"
        and act is not None
        and act.offer is not None
        and "left_adjacent" in act.offer.triggers
        and not act.reaction_revealed
    )


@pytest.fixture(scope="module")
def offer() -> MatchState:
    """A reaction offered while the reactive selection is still hidden."""
    return find_state(_left_adjacent_offer)


def _reactive_unit_name(state: MatchState) -> str:
    act = state.activation
    assert act is not None and act.reaction_coin is not None
    return state.unit(act.reaction_coin.rpartition(".")[0]).name


def _next_to(state: MatchState) -> set[str]:
    """The characters of the units the offered trigger concerns that stand next to the mover."""
    act = state.activation
    assert act is not None and act.offer is not None
    mover = state.figure(act.offer.figure)
    units = dict(triggered_units(state, act.offer.held))["left_adjacent"]
    return {
        f.name
        for f in state.figures
        if f.unit in units and not f.terrain and f.square is not None and are_adjacent(f, mover)
    }


def test_the_status_says_who_may_react_and_names_the_characters_the_trigger_concerns(
    offer: MatchState,
) -> None:
    reactive = decider_seat(offer)
    assert reactive is not None
    side = offer.side_of(reactive)
    assert side is not None
    act = offer.activation
    assert act is not None and act.offer is not None
    mover = offer.figure(act.offer.figure).name
    told = set()
    for viewer in (other_seat(reactive), reactive, None):
        status = to_text(status_line(offer, viewer), width=300)
        found = re.search(
            rf"the {side.capitalize()} may react \({mover} leaves a space next to (.+?)\)", status
        )
        assert found is not None, status
        told.add(found.group(1))
    # Every viewer reads the same words, which name the characters the mover leaves.
    (words,) = told
    assert all(name in words for name in _next_to(offer))


def test_a_trigger_is_told_to_everyone_alike() -> None:
    state, events = find_events(
        lambda s, e: (
            any(isinstance(x, ReactionTriggered) for x in e) and _left_adjacent_offer(fold(e, s))
        )
    )
    trigger = next(x for x in events if isinstance(x, ReactionTriggered))
    assert all(
        redact_event(trigger, viewer_of(state, viewer)) == trigger for viewer in (1, 2, None)
    )
    side = trigger.side.capitalize()
    told = [
        [line for line in describe_events(state, events, viewer) if f"The {side} may react" in line]
        for viewer in (1, 2, None)
    ]
    assert told[0] == told[1] == told[2] and len(told[0]) == 1


def test_a_trigger_names_the_unit_it_concerns_not_the_hidden_reaction_far_away() -> None:
    # The Adversaries secretly selected Smogon, far away; the knight leaves Bruiser 1's side.
    state = select(placed(set_up(), ARENA), "knight", ("move",), ("smogon", ("attack",)))
    after, events = apply(state, Step(player=1, figure="knight", direction=(0, 1)))
    for viewer in (1, 2, None):
        assert describe_events(state, events, viewer) == [
            "The Adversaries may react: Banner Knight leaves a space next to Dragonkith Bruisers 1."
        ]
    # The reactive player is told their Smogon cannot answer it.
    assert "cannot answer this" in (decision_help(after, 2) or "")


def test_react_and_let_it_pass_are_offered_to_the_reactive_player(offer: MatchState) -> None:
    reactive = decider_seat(offer)
    assert reactive is not None
    commands = legal_commands(offer, reactive)
    assert [type(c) for c in commands] == [React, DeclineReaction]
    unit = _reactive_unit_name(offer)
    react, decline = (describe_command(offer, c) for c in commands)
    assert react.startswith(f"React: {unit} takes a")
    assert react.endswith(" reaction")
    assert decline == "Let it pass: do not react now"


def test_a_declined_trigger_leaves_the_reaction_hidden(offer: MatchState) -> None:
    reactive = decider_seat(offer)
    assert reactive is not None
    active = other_seat(reactive)
    after, events = apply(offer, DeclineReaction(player=reactive))
    assert isinstance(events[0], ReactionDeclined)
    side = events[0].side.capitalize()
    assert describe_event(offer, events[0], active) == f"The {side} let it pass: no reaction."
    unit = _reactive_unit_name(offer)
    assert unit in (describe_event(offer, events[0], reactive) or "")
    if after.activation is not None:
        assert "reaction: selected in secret" in to_text(status_line(after, active), width=300)


# Attacks


def test_an_attack_is_told_in_one_line_with_its_hit_and_the_condition_it_leaves() -> None:
    def hit_and_harm(state: MatchState, events: tuple[Event, ...]) -> bool:
        return any(
            isinstance(a, AttackMade)
            and a.hit
            and isinstance(c, ConditionChanged)
            and c.figure == a.target
            for a, c in pairwise(events)
        )

    state, events = find_events(hit_and_harm)
    attack = next(e for e in events if isinstance(e, AttackMade))
    harm = next(e for e in events if isinstance(e, ConditionChanged) and e.figure == attack.target)
    attacker, target = state.figure(attack.attacker).name, state.figure(attack.target).name
    lines = describe_events(state, events, None)
    expected = f"{attacker} attacks {target} — hit"
    (line,) = [line for line in lines if line.startswith(expected)]
    assert line.endswith(
        f": {harm.condition.capitalize()}"
        + (", and leaves the board." if harm.condition == "eliminated" else ".")
    )
    assert (", with Advantage" in line) == attack.advantage
    # Told alone, the attack and the condition are a line each.
    assert describe_event(state, attack, None) == line.split(":")[0] + "."


def test_attack_choices_name_each_target_and_what_a_hit_would_do() -> None:
    state = find_state(
        lambda s: (
            s.pending == "attack"
            and any(isinstance(c, Attack) for c in legal_commands(s, decider_seat(s) or 1))
        )
    )
    seat = decider_seat(state)
    assert seat is not None
    attacks = [c for c in legal_commands(state, seat) if isinstance(c, Attack)]
    for command in attacks:
        heading, label = command_parts(state, command)
        attacker, target = state.figure(command.attacker), state.figure(command.target)
        assert attacker.square is not None
        column, row = attacker.square
        assert heading == f"{attacker.name} at ({column},{row}) attacks"
        assert label.startswith(f"{target.name} at (")
        assert "a hit: " in label
        assert describe_command(state, command).startswith(f"{attacker.name} attacks {target.name}")


def test_after_an_attack_the_choices_are_to_stay_step_or_push() -> None:
    state = find_state(lambda s: s.pending == "after_attack")
    seat = decider_seat(state)
    assert seat is not None
    labels = [describe_command(state, c) for c in legal_commands(state, seat)]
    commands = legal_commands(state, seat)
    assert all(isinstance(c, AfterAttack) for c in commands)
    assert labels[0].startswith("Stay: ")
    for command, label in zip(commands, labels, strict=True):
        assert isinstance(command, AfterAttack)
        if command.choice == "step":
            assert label.startswith("Step ") and " to (" in label
        elif command.choice == "push":
            assert label.startswith("Push ") and " away" in label


def _after_attack(
    squares: dict[str, tuple[int, int] | None], conditions: dict[str, Condition]
) -> MatchState:
    state = conditioned(placed(set_up(), {**ARENA, **squares}), conditions)
    state = select(state, "knight", ("attack",), ("smogon", ("move",)))
    state = play_passing(state, Attack(player=1, attacker="knight", target="bruisers-1"))
    assert state.pending == "after_attack"
    return state


def test_after_an_attack_the_help_names_the_push_only_when_it_is_offered() -> None:
    # A free space behind Bruiser 1: step, push or stay.
    state = _after_attack({}, {})
    assert decision_help(state, 1) == (
        "After the attack, Banner Knight may step one space, push Dragonkith Bruisers 1 one "
        "space directly away or stay."
    )
    # Bruiser 1 eliminated by the hit: it is off the board, and no push is offered or told.
    state = _after_attack({}, {"bruisers-1": "disabled"})
    assert state.figure("bruisers-1").square is None
    assert not any(
        c.choice == "push" for c in legal_commands(state, 1) if isinstance(c, AfterAttack)
    )
    assert decision_help(state, 1) == "After the attack, Banner Knight may step one space or stay."
    # Boxed in: Smogon behind the Bruiser, allies all round the knight.
    squares = {"smogon": (3, 3), "squire": (3, 6), "militia-1": (5, 6), "militia-2": (4, 7)}
    state = _after_attack(squares, {})
    assert decision_help(state, 1) == "After the attack, Banner Knight may stay."


def test_a_declined_reaction_names_its_unit_with_a_plain_possessive() -> None:
    assert possessive("Smogon") == "Smogon's"
    assert possessive("Dragonkith Bruisers") == "Dragonkith Bruisers'"
    state = select(placed(set_up(), ARENA), "knight", ("move",), ("bruisers", ("move",)))
    state = play(state, Step(player=1, figure="knight", direction=(0, 1)))
    (declined,) = [
        e for e in decide(DeclineReaction(player=2), state) if isinstance(e, ReactionDeclined)
    ]
    assert describe_event(state, declined, 2) == (
        "Dragonkith Bruisers' reaction is declined: it does not react now."
    )


# Set-up secrets


@pytest.fixture(scope="module")
def secret_choice() -> MatchState:
    """The first set-up secret waiting to be chosen."""
    return play_until(lambda s: s.pending == "secret", settings=SECRET_SETTINGS)


def test_a_set_up_secret_is_hidden_from_the_opponent_until_revealed(
    secret_choice: MatchState,
) -> None:
    chooser = decider_seat(secret_choice)
    assert chooser is not None
    opponent = other_seat(chooser)
    one, other = legal_commands(secret_choice, chooser)[:2]
    assert isinstance(one, ChooseSecret) and isinstance(other, ChooseSecret)
    a, events_a = apply(secret_choice, one)
    b, events_b = apply(secret_choice, other)
    # The opponent and the public see the same whichever was chosen.
    for viewer in (opponent, None):
        assert _views(a, viewer) == _views(b, viewer)
        told = describe_events(secret_choice, events_a, viewer)
        assert told == describe_events(secret_choice, events_b, viewer)
        assert f"choose their secret {one.name}, in secret." in told[0]
    assert isinstance(
        redact_event(events_a[0], viewer_of(secret_choice, opponent)), HiddenSecretChosen
    )
    # The chooser sees their own choice.
    assert _views(a, chooser) != _views(b, chooser)
    assert "(your secret)" in to_text(status_line(a, chooser), width=300)
    (own,) = describe_events(secret_choice, events_a[:1], chooser)
    assert own.startswith(f"You choose your secret {one.name}: ")
    # Once revealed, everyone sees it.
    secret = events_a[0]
    assert isinstance(secret, SecretChosen)
    revealed = fold((SecretRevealed(side=secret.side, name=secret.name, choice=secret.choice),), a)
    status = to_text(status_line(revealed, opponent), width=300)
    assert f"secret {secret.name}: {secret_option_name(a, secret.choice)}" in status


def test_the_view_panel_tells_a_side_its_own_coins_and_secrets_and_the_rest_only_what_is_public(
    secret_choice: MatchState,
) -> None:
    chooser = decider_seat(secret_choice)
    assert chooser is not None
    one, other = legal_commands(secret_choice, chooser)[:2]
    assert isinstance(one, ChooseSecret) and isinstance(other, ChooseSecret)
    a, _ = apply(secret_choice, one)
    b, _ = apply(secret_choice, other)

    def panel(state: MatchState, seat: Seat | None) -> str:
        return facts_html(view_facts(view(state, viewer_of(state, seat))))

    for seat in (other_seat(chooser), None):  # the same whichever was chosen
        assert panel(a, seat) == panel(b, seat)
        assert "hidden" in panel(a, seat)
    own = panel(a, chooser)
    assert own != panel(b, chooser) and "{" not in own
    side = a.side_of(chooser)
    assert side is not None
    row = f"<td>{one.name}</td><td>{secret_option_name(a, one.choice)}</td><td>no</td>"
    assert row in own  # the secret, the choice and whether it was revealed
    stash = a.piles(side).stash
    assert stash and all(a.unit(coin.rpartition(".")[0]).name in own for coin in stash)
    opponent = "heroes" if side == "adversaries" else "adversaries"
    assert f"{len(a.piles(opponent).stash)} (hidden)" in own


def test_secret_choices_are_offered_in_words_with_the_sheets_text(
    secret_choice: MatchState,
) -> None:
    chooser = decider_seat(secret_choice)
    assert chooser is not None
    state = secret_choice
    # Choose every secret in turn; a hidden identity is offered as figure names.
    while state.pending == "secret":
        seat = decider_seat(state)
        assert seat is not None
        commands = legal_commands(state, seat)
        help_text = decision_help(state, seat) or ""
        assert isinstance(commands[0], ChooseSecret)
        side = state.side_of(seat)
        assert side is not None
        assert secret_text(state, side, commands[0].name) in help_text
        assert help_text.startswith(f"Choose your secret {commands[0].name}.")
        for command in commands:
            assert isinstance(command, ChooseSecret)
            heading, label = command_parts(state, command)
            assert heading == f"Your secret {command.name}"
            assert "-" not in label
            try:
                assert label == state.figure(command.choice).name
            except KeyError:
                assert label == command.choice.replace("-", " ")
        state, _ = apply(state, commands[0])
    assert state.pending == "select"


# The result


def test_the_result_names_the_winner_and_the_reason_or_a_draw(first_turn: MatchState) -> None:
    heroes_seat = first_turn.seat_of("heroes")
    assert heroes_seat is not None
    heroes = f"Heroes ({SETTINGS.players[heroes_seat - 1]})"
    won = MatchEnded(reason="elimination", winner="heroes")
    assert describe_event(first_turn, won, None) == (
        f"The match is over: the {heroes} win by elimination (no Adversary character is left)."
    )
    draw = MatchEnded(reason="six_rounds_played", winner=None)
    assert describe_event(first_turn, draw, 1) == (
        "The match is over: a draw (six rounds played, and nobody won)."
    )
    over = fold((won,), first_turn)
    status = to_text(status_line(over, None), width=300)
    assert status.startswith(f"The match is over after round 1 of 6: the {heroes} win")


def test_a_placeholder_is_told_like_the_hidden_event_it_stands_for(
    secret_choice: MatchState,
) -> None:
    chooser = decider_seat(secret_choice)
    assert chooser is not None
    opponent = other_seat(chooser)
    command = legal_commands(secret_choice, chooser)[0]
    _, events = apply(secret_choice, command)
    chosen = events[0]
    assert isinstance(chosen, SecretChosen)
    placeholder = redact_event(chosen, viewer_of(secret_choice, opponent))
    assert isinstance(placeholder, HiddenSecretChosen)
    for viewer in (chooser, opponent, None):
        told = describe_event(secret_choice, placeholder, viewer)
        assert told == describe_event(secret_choice, chosen, opponent)
        assert chosen.choice not in (told or "")


# What an action did, or that it did nothing


def _told(state: MatchState, command: Command) -> list[str]:
    """Play a command, letting any reaction offer pass; return its events in words."""
    events = list(decide(command, state))
    after = fold(events, state)
    while after.pending == "offer":
        passed = decide(DeclineReaction(player=2), after)
        after = fold(passed, after)
        events.extend(passed)
    return describe_events(state, events, None)


def test_an_interaction_that_does_nothing_says_so() -> None:
    state = select(placed(set_up(), ARENA), "knight", ("stunt",), ("smogon", ("move",)))
    told = _told(state, Stunt(player=1, figure="knight", target="bruisers-1"))
    assert "Stunt: Banner Knight interacts with Dragonkith Bruisers 1, but nothing happens." in told


def test_an_interaction_that_does_something_is_told_with_what_it_did() -> None:
    # A Cloud beside the knight is blown away when he interacts with it (Billowing).
    arena = placed(set_up(), {**ARENA, "clouds-1": (4, 7)})
    state = select(arena, "knight", ("stunt",), ("smogon", ("move",)))
    told = _told(state, Stunt(player=1, figure="knight", target="clouds-1"))
    at = told.index("Stunt: Banner Knight interacts with Cloud 1.")
    # Billowing blows it "up to two spaces": the Heroes choose how far (P30).
    assert told[at + 1] == "The Heroes choose how far Cloud 1 goes: up to 2 spaces south."
    state = play_passing(state, Stunt(player=1, figure="knight", target="clouds-1"))
    assert _told(state, StopForcedMove(player=1, spaces=2)) == ["Cloud 1 is pushed to (4,9)."]


def test_an_ability_that_does_nothing_says_so() -> None:
    # Smoke Breath with no enemy near Smogon or its Clouds.
    arena = placed(set_up(starting="adversaries"), ARENA)
    state = play(
        arena, SelectCoins(player=2, unit="smogon", colour="green", actions=("stunt", "stunt"))
    )
    state = play(state, SelectReaction(player=1, unit="squire", colour="green", actions=("move",)))
    told = _told(state, Stunt(player=2, figure="smogon", ability="Smoke Breath"))
    assert "Stunt: Smogon uses Smoke Breath, but nothing happens." in told


def test_an_attack_action_that_ends_without_an_attack_says_so() -> None:
    state = select(placed(set_up(), ARENA), "knight", ("attack",), ("smogon", ("move",)))
    told = _told(state, EndAction(player=1))
    assert told[0] == "Banner Knight ends its Attack action without an attack."
    # An action that did attack ends without a word.
    state = select(placed(set_up(), ARENA), "knight", ("attack",), ("smogon", ("move",)))
    state = play_passing(state, Attack(player=1, attacker="knight", target="bruisers-1"))
    state = play_passing(state, AfterAttack(player=1, choice="stay"))
    assert not any("without" in line for line in _told(state, EndAction(player=1)))


def test_a_narrator_for_a_screen_that_prints_the_result_itself_leaves_it_out() -> None:
    state = select(placed(set_up(), ARENA), "knight", ("attack",), ("smogon", ("move",)))
    ended = MatchEnded(reason="six_rounds_played", winner=None)
    told = Narrator(None)
    told.tell(state, (ended,))
    assert told.take() == ["The match is over: a draw (six rounds played, and nobody won)."]
    quiet = Narrator(None, announce_result=False)
    quiet.tell(state, (ended,))
    assert quiet.take() == []


def test_unit_rules_put_each_text_under_its_ability_indented_and_wrapped_by_words(
    first_turn: MatchState,
) -> None:
    text = to_text(render_units(first_turn, 1), width=50)
    rally = text.split("Banner Knight: Rally (!)\n", 1)[1].split("\n")
    body = rally[: next(i for i, line in enumerate(rally) if not line.startswith("  "))]
    assert len(body) > 1 and all(len(line.rstrip()) <= 50 for line in body)
    words = " ".join(" ".join(body).split())
    assert words == (
        "Every other allied character adjacent to the Banner Knight recovers one step: "
        "Disabled to Wounded, or Wounded to Unharmed."
    )


def test_p5_a_step_of_another_figure_says_it_ends_the_movers_move() -> None:
    state = select(placed(set_up(), ARENA), "militia", ("move",), ("smogon", ("move",)))
    heads = {command_parts(state, c)[0] for c in legal_commands(state, 1) if isinstance(c, Step)}
    assert not any("this ends" in (head or "") for head in heads)  # nobody has moved yet
    state = play_passing(state, Step(player=1, figure="militia-1", direction=(0, -1)))
    heads = {
        c.figure: command_parts(state, c)[0]
        for c in legal_commands(state, 1)
        if isinstance(c, Step)
    }
    assert "this ends" not in (heads["militia-1"] or "")
    assert heads["militia-2"] is not None
    assert heads["militia-2"].endswith("(this ends Town Militia 1's move)")
