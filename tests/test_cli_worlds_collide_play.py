"""worlds-collide at the terminal: whole matches played through the menus as printed, no menu
longer than 20 choices, models typed by letter and squares by name, ``?`` giving the rules'
odds, re-roll decisions told die by die, one-line errors, quitting and carrying on."""

from __future__ import annotations

import io
import random
import re
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import pytest
from rich.console import Console

from multiversus_cli.play_any import Decision, PlayRequest, Quit
from multiversus_cli.presenters.worlds_collide_play import (
    MOST_CHOICES,
    WorldsTerminal,
    listed,
    play_request,
)
from multiversus_core.engine.choices import Ask, is_tree
from multiversus_core.engine.log import read_log
from multiversus_core.engine.verify import verify_file
from multiversus_core.rulesets.worlds_collide import rules
from multiversus_core.rulesets.worlds_collide.choices import legal_commands
from multiversus_core.rulesets.worlds_collide.model import (
    Act,
    Activate,
    AttackWith,
    Deploy,
    KeepDice,
    MoveTo,
    Reroll,
    RollOff,
    WorldsSettings,
    WorldsState,
    meets_knack,
)
from multiversus_core.rulesets.worlds_collide.ruleset import RULESET
from tests import screens
from tests.screens import scripted
from tests.worlds_collide_tables import given, table


class Screen(screens.Screen):
    """worlds-collide's menus as printed: each option by its number."""

    OPTION = re.compile(r"^  (\S+)\. (.+)$")
    SQUARES = re.compile(r"^Or type a square: (.+)$")
    HEADING = re.compile(r"^Collision Point: ")
    PROMPT = "Choice (? odds, h help"
    WIDTH = 100


def randomly(seed: int) -> Callable[[Screen], str]:
    """A person who picks among what the menu shows, mostly activating and attacking, now and
    then typing a square, a model's letter, going back or asking for the odds."""
    rng = random.Random(seed)

    def pick(screen: Screen) -> str:
        roll = rng.random()
        if roll < 0.03:
            return "?"
        if roll < 0.05 and "b back" in screen.fresh:
            return "b"
        if screen.labels[:2] == ["activate", "pass"] and roll < 0.9:
            return "1"
        if screen.labels and screen.labels[0] == "no more attacks with it" and roll < 0.8:
            return rng.choice(screen.keys[1:])
        letters = [label.split()[0] for label in screen.labels if re.match(r"^\w [A-Z]", label)]
        offered = screen.keys + screen.squares + letters
        return rng.choice(offered) if offered else ""

    return pick


def request(log: Path, players: str = "human,random", seed: int = 5) -> PlayRequest:
    """A new match: Ann in seat 1, Bob in seat 2, a public seed."""
    return PlayRequest(players=players, names="Ann,Bob", seed=seed, log=log, bot_seed=1)


def run(screen: Screen, made: PlayRequest) -> tuple[int, str]:
    """The exit code of the match ``made`` asks for, played at ``screen``, and its errors."""
    errors = io.StringIO()
    code = play_request(screen.out, Console(file=errors, width=200), made, ask=screen.ask)
    return code, errors.getvalue()


@pytest.mark.parametrize(
    ("players", "seed"), [("human,random", 3), ("human,human", 8), ("random,human", 11)]
)
def test_a_whole_match_is_played_through_the_menus_none_longer_than_20(
    tmp_path: Path, players: str, seed: int
) -> None:
    log = tmp_path / "match.jsonl"
    screen = Screen(randomly(seed))
    code, errors = run(screen, request(log, players, seed))
    assert code == 0 and not errors
    assert "The match is over: " in screen.text
    read = read_log(log)
    assert read.finished and verify_file(log).ok
    assert screen.menus and max(screen.menus) <= MOST_CHOICES == 20
    seats = [n for n, p in enumerate(players.split(","), start=1) if p == "human"]
    people = [e.command for e in read.entries if e.command.player in seats]
    assert screen.boards >= len(people)  # the board before each decision
    kinds = {type(command).__name__ for command in people}
    assert {"Deploy", "Activate", "Act"} <= kinds
    if 1 in seats:  # seat 1 rolls for both
        assert {"RollOff", "StartRound"} <= kinds


def test_every_menu_of_many_random_matches_has_at_most_20_choices() -> None:
    """Every decision of 12 random matches, each walked through its menus at random several
    times: no menu a person is shown is longer than the limit."""
    longest = 0
    for seed in range(1, 13):
        rng = random.Random(seed)
        settings = WorldsSettings(seed=seed, factions=rng.choice(FACTIONS))
        state = RULESET.initial_state(settings, None)
        while seats := rules.to_act(state):
            seat = seats[0]
            legal = legal_commands(state, seat)
            tree = legal if is_tree(legal) else listed(state, seat, legal)
            command = None
            for _ in range(3):
                chosen: tuple[str, ...] = ()
                while isinstance(step := tree.ask(chosen), Ask):
                    longest = max(longest, len(step.options))
                    assert len(step.options) <= MOST_CHOICES, step.prompt
                    chosen = (*chosen, rng.choice(step.options).key)
                command = step
            assert command is not None and command in legal
            state = rules.decide(command, state)[1]
    assert longest == 17  # a row of the map


FACTIONS = [("iron-legion", "wyldfae"), ("wyldfae", "iron-legion"), ("wyldfae", "wyldfae")]


def test_deployment_takes_letters_and_typed_squares(tmp_path: Path) -> None:
    log = tmp_path / "match.jsonl"
    # Seed 5: Bob wins the roll-off and deploys first; Ann deploys in rows 15-17.
    screen = Screen(scripted("", "A", "c16", "D", "z9", "c1", "16", "5", "q"))
    code, _ = run(screen, request(log))
    assert code == 0
    commands = [e.command for e in read_log(log).entries if e.command.player == 1]
    assert isinstance(commands[0], RollOff)
    assert commands[1:] == [
        Deploy(1, "1.commander", (2, 15)),
        Deploy(1, "1.rifleman-1", (5, 15)),  # row 16, its 5th square: f16 (c16 is taken)
    ]
    text = screen.text
    assert "Ann, seat 1: Which model do you place?" in text
    assert "  1. A Commander: Move 4, 6 HP, defense 1, Command, leader 2" in text
    assert "Ann, seat 1: Commander goes on which row?\n  15. row 15\n  16. row 16" in text
    assert "Or type a square: a15-q15 a16-q16 a17-q17" in text
    assert "z9 is not on the board (a1 to q17). (h for help)" in text
    assert "c1 is not a free square of your deployment rows (W18). (h for help)" in text
    assert "Stopped after" in text and verify_file(log).ok


def test_bad_answers_are_told_in_a_line_and_asked_again(tmp_path: Path) -> None:
    log = tmp_path / "match.jsonl"
    screen = Screen(scripted("zz", "7", "", "h", "q"))
    code, _ = run(screen, request(log))
    assert code == 0
    text = screen.text
    assert text.count("Type the number of a choice, ? for the odds, h for help, or q.") == 2
    assert "An activation: activate or pass;" in text  # the help
    assert "Stopped after 2 entries" in text and "--resume" in text  # the roll-off, Bob's


def test_the_end_of_the_input_keeps_the_log_and_resume_carries_it_on(tmp_path: Path) -> None:
    log = tmp_path / "match.jsonl"
    screen = Screen(scripted("", "A", "c16"))
    code, _ = run(screen, request(log))
    assert code == 0 and "Stopped after" in screen.text
    kept = read_log(log)
    assert not kept.finished and len(kept.entries) >= 3
    carried = Screen(randomly(1))
    resumed = PlayRequest(players="random,random", resume=log, bot_seed=2)
    code, errors = run(carried, resumed)
    assert code == 0 and not errors
    assert f"carried on after entry {len(kept.entries)}" in carried.text
    assert read_log(log).finished and verify_file(log).ok


def test_bad_options_are_one_line_errors_with_exit_2(tmp_path: Path) -> None:
    log = tmp_path / "match.jsonl"
    code, errors = run(Screen(scripted()), request(log, "human,nobody"))
    assert code == 2
    assert "no player 'nobody' in worlds-collide" in errors
    assert len(errors.strip().splitlines()) == 1
    assert not log.exists()


# --- an activation and ? ----------------------------------------------------------------------


def explain(state: WorldsState, *answers: str) -> str:
    """What the terminal prints for seat 1's decision in ``state`` given ``answers`` (the last
    quits)."""
    screen = Screen(scripted(*answers, "q"))
    legal = legal_commands(state, 1)
    listed_ = legal if is_tree(legal) else tuple(legal)
    with pytest.raises(Quit):
        WorldsTerminal().choose(
            Decision(RULESET, state, 1, listed_, ("Ann", "Bob")), screen.out, screen.ask
        )
    return screen.text


def choose(state: WorldsState, *answers: str) -> object:
    """The command seat 1's answers make in ``state``."""
    screen = Screen(scripted(*answers))
    legal = legal_commands(state, 1)
    listed_ = legal if is_tree(legal) else tuple(legal)
    return WorldsTerminal().choose(
        Decision(RULESET, state, 1, listed_, ("Ann", "Bob")), screen.out, screen.ask
    )


def chance(odds: Fraction) -> str:
    return f"{odds.numerator} in {odds.denominator}"


PLACED = {
    "1.commander": (11, 1),  # l2
    "1.rifleman-1": (12, 1),  # m2
    "1.rifleman-2": (13, 1),  # n2
    "2.sprite-1": (12, 7),  # m8: behind the low walls of m4 and m5
    "2.sprite-2": (14, 2),  # o3: next to Rifleman 2
    "2.treant-1": (9, 9),
}


def test_an_activation_picks_models_by_letter_then_the_plan_and_the_tactic() -> None:
    state = table(PLACED, ap=(3, 3))
    # letters go by the models in the state: here Commander A, Rifleman 1 C, Rifleman 2 D
    command = choose(state, "1", "C", "A", "1", "2", "2")
    assert command == Activate(1, ("1.rifleman-1", "1.commander"), "attack_move", "volley")
    text = explain(state, "1", "c", "?")
    assert "Ann, seat 1: Who else joins the formation?" in text
    assert "  2. A Commander on l2, 6/6 HP" in text and "  3. D Rifleman 2 on n2, 3/3 HP" in text
    assert "A formation is one connected group of models of one training" in text


def test_the_odds_of_a_plan_and_a_tactic_come_from_the_rules() -> None:
    state = table(PLACED, ap=(3, 3), environment=(1, 3))  # Mud: Move -1
    text = explain(state, "1", "C", "1", "?", "1", "?")
    assert "move, then attack: each moves up to its movement (Rifleman 1 3), then attacks" in text
    assert "move twice: one move of twice the movement (Rifleman 1 6), no attack" in text
    volley = Fraction(sum(meets_knack(f, 4) for f in range(1, 7)), 6)
    again = volley + (1 - volley) * volley
    assert (
        f"Volley (knack 4): {chance(volley)} to succeed, {chance(again)} with a re-roll: "
        "ranged hits +1 damage"
    ) in text
    assert "Forced March (knack 3): 2 in 3 to succeed" in text
    assert "A failed check (Mud): the activated models cannot move." in text
    assert "A failed die may be re-rolled once for 1 AP (2 AP then)." in text


def test_the_odds_of_an_attack_come_from_the_rules_needed_cover_and_damage() -> None:
    state = table(PLACED, ap=(3, 3))
    state = given(state, Activate(1, ("1.rifleman-1", "1.rifleman-2"), "attack_move"))[1]
    text = explain(state, "?", "2", "?")
    rifleman_1, rifleman_2 = state.model("1.rifleman-1"), state.model("1.rifleman-2")
    sprite_1, sprite_2 = state.model("2.sprite-1"), state.model("2.sprite-2")
    assert rifleman_1 and rifleman_2 and sprite_1 and sprite_2
    rifle = rules.weapon_of(rifleman_1, "Rifle")
    assert rifle is not None
    # Rifleman 1 shoots Sprite 1 over the low walls: cover adds 3 and Physical, against
    # which the rifle does not double: 2 - 3, at least 1.
    assert rules.in_cover(state, rifleman_1, sprite_1)
    assert rules.needed(state, rifleman_1, rifle) == 4
    assert rules.damage(state, rifleman_1, rifle, sprite_1) == 1
    assert (
        "a Sprite 1 on m8 (2 HP): needs 4+, 1 in 2 a die; in cover: defense +3, Physical; "
        "a hit deals 1"
    ) in text
    # Rifleman 2 stands next to Sprite 2: its rifle hits only on a 6, and with no square
    # between, there is no cover: a rifle doubles against a model of no type, 4.
    assert rules.needed(state, rifleman_2, rifle) == rules.RANGED_IN_MELEE
    assert not rules.in_cover(state, rifleman_2, sprite_2)
    assert rules.damage(state, rifleman_2, rifle, sprite_2) == 4
    assert (
        "c Sprite 2 on o3 (2 HP): needs 6 only, 1 in 6 a die (ranged next to an enemy: only a "
        "6); a hit deals 4, enough to fell it"
    ) in text
    assert "Rifleman 1's Rifle, attack 1 of 1: at whom?" in text
    assert "Rifleman 1's Rifle: 1 attacks this activation;" in text
    assert "a failed die may be re-rolled once for 1 AP (2 AP then)" in text


def test_a_move_takes_a_typed_square_and_says_why_one_is_refused() -> None:
    state = table(PLACED, ap=(3, 3))
    state = given(state, Activate(1, ("1.commander",), "move_attack"))[1]
    text = explain(state, "?", "l7", "m2")
    assert "Commander has 4 movement (W2, W12): a step costs 1, 3 onto or off a ruin" in text
    assert "Commander cannot reach l7 with 4 movement (W2). (h for help)" in text
    assert "Commander cannot end on m2: Rifleman 1 stands there (W2). (h for help)" in text
    assert "Ann, seat 1: Commander ends its move on which row?\n  1. row 1\n" in text
    assert "Or type a square: h1-p1 h2-l2 o2-p2 " in text
    command = choose(state, "l5", "1")
    assert command == Act(1, moves=(MoveTo("1.commander", (11, 4)),))


def test_a_re_roll_decision_tells_each_die_its_face_what_it_needs_and_the_cost() -> None:
    state = table({"1.rifleman-1": (12, 1), "2.sprite-2": (14, 2)}, ap=(3, 3))
    state = given(state, Activate(1, ("1.rifleman-1",), "move_attack"))[1]
    attack = AttackWith("1.rifleman-1", "Rifle", "2.sprite-2")
    state = given(state, Act(1, attacks=(attack,), dice=(2,)))[1]
    assert state.activation is not None and state.activation.roll is not None
    text = explain(state, "?")
    assert (
        "Ann, seat 1: Roll of the attacks at Sprite 2: die 1 (Rifleman 1's Rifle): 2, needs "
        "4+, fails. You have 2 AP."
    ) in text
    assert "  1. re-roll die 1 (a 2, needs 4+) for 1 AP: 1 AP left" in text
    assert "  2. keep the dice: 0 of 1 hit" in text
    assert "re-roll die 1 for 1 AP: 1 in 2 it meets 4+" in text
    assert "a hit of Rifleman 1's Rifle deals 4 (Sprite 2: 2 HP)" in text
    assert choose(state, "1") == Reroll(1, 0)
    assert choose(state, "2") == KeepDice(1)


def test_a_tactic_check_awaiting_a_re_roll_says_what_success_and_failure_bring() -> None:
    state = table(PLACED, ap=(3, 3), environment=(1, 2))  # Smog
    state = given(state, Activate(1, ("1.rifleman-1",), "move_attack", "volley", dice=(1,)))[1]
    text = explain(state, "?")
    assert "Roll of the Volley check: die 1 (Volley): 1, needs 4+, fails. You have 2 AP." in text
    assert "  2. keep the dice: the check fails" in text
    assert "success: ranged hits +1 damage" in text
    assert "failure: the activated models cannot attack" in text


def test_the_start_of_a_round_tells_the_ap_and_the_tables() -> None:
    state = table(PLACED, phase="round", round=1, ap=(0, 0))
    text = explain(state, "?")
    assert "Ann, seat 1: Round 2 begins\n  1. roll for the environment, then the AP" in text
    assert "AP gained: 2 and each leader's leadership on the board: Ann 4, Bob 2;" in text
    assert "Iron Legion 3 Mud: Move -1 for every model; a failed tactic: the activated" in text
    assert "Wyldfae 4 Mist: no sight beyond 4 squares;" in text
