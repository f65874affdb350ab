"""tiles-d6 at the terminal: whole matches played through the menus as printed, menus kept
short, ``?`` giving the rules' odds, one-line errors, quitting and carrying on."""

from __future__ import annotations

import io
import json
import random
import re
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import pytest
from rich.console import Console

from multiversus_cli.play_any import Decision, PlayRequest, Quit
from multiversus_cli.presenters.tiles_d6_play import (
    MOST_CHOICES,
    PROMPT,
    TilesTerminal,
    menu_for,
    play_request,
)
from multiversus_core.engine.log import read_log
from multiversus_core.engine.verify import verify_file
from multiversus_core.rulesets.tiles_d6 import rules
from multiversus_core.rulesets.tiles_d6.model import (
    Attack,
    ChooseHalf,
    EndAction,
    Place,
    RollOff,
    StandUp,
    StartCharge,
    StartMove,
    StepTo,
    TilesSettings,
    TilesState,
)
from multiversus_core.rulesets.tiles_d6.ruleset import RULESET
from tests import screens
from tests.positions import at
from tests.screens import scripted


class Screen(screens.Screen):
    """tiles-d6's menus as printed."""

    OPTION = re.compile(r"^  (\S)  (.+)$")
    SQUARES = re.compile(r"^Type a square [^:]*: (.+)$")
    HEADING = re.compile(r"^Crossing: ")
    PROMPT = PROMPT
    MOST = 4000


def randomly(seed: int) -> Callable[[Screen], str]:
    """A person who picks among what the menu shows, now and then going back or asking why."""
    rng = random.Random(seed)

    def pick(screen: Screen) -> str:
        if rng.random() < 0.03:
            return "?"
        acting = [key for key in screen.keys if key != "0"]
        offered = acting * 4 + screen.keys + screen.squares * 3
        return rng.choice(offered) if offered else ""

    return pick


def request(log: Path, players: str = "human,random") -> PlayRequest:
    """A new match: Ann in seat 1, Bob in seat 2, public seed 5."""
    return PlayRequest(players=players, names="Ann,Bob", seed=5, log=log, bot_seed=1)


def run(screen: Screen, made: PlayRequest) -> tuple[int, str]:
    """The exit code of the match ``made`` asks for, played at ``screen``, and its errors."""
    errors = io.StringIO()
    code = play_request(screen.out, Console(file=errors, width=200), made, ask=screen.ask)
    return code, errors.getvalue()


MOST_KINDS = {"RollOff", "Place", "StartMove", "StartCharge", "StepTo", "StandUp", "EndAction"}
"""What a person's whole match through the menus gives, at the least."""


@pytest.mark.parametrize(
    ("players", "seed", "kinds"),
    [
        ("human,random", 3, {*MOST_KINDS, "Attack", "Fire", "EndTurn"}),
        ("human,human", 8, {*MOST_KINDS, "ChooseHalf", "Fire", "EndTurn"}),
    ],
)
def test_a_whole_match_is_played_through_the_menus_none_longer_than_the_limit(
    tmp_path: Path, players: str, seed: int, kinds: set[str]
) -> None:
    log = tmp_path / "match.jsonl"
    screen = Screen(randomly(seed))
    code, errors = run(screen, request(log, players))
    assert code == 0 and not errors
    assert "The match is over: " in screen.text
    read = read_log(log)
    assert read.finished and verify_file(log).ok
    assert screen.menus and max(screen.menus) <= MOST_CHOICES
    people = [e.command for e in read.entries if players == "human,human" or e.command.player == 1]
    assert screen.boards >= len(people)  # the board before each decision
    assert kinds <= {type(command).__name__ for command in people}


def test_the_set_up_takes_typed_squares_and_the_turn_a_unit_then_its_action(
    tmp_path: Path,
) -> None:
    log = tmp_path / "match.jsonl"
    # Ann is player two (seed 5): Bob's bot sets up north first, then Ann places her five.
    places = ["a12", "b12", "c12", "d12", "f12"]
    screen = Screen(scripted("", *places, "C", "1", "c11", "0", "0"))
    code, _ = run(screen, request(log))
    assert code == 0
    read = read_log(log)
    commands = [entry.command for entry in read.entries if entry.command.player == 1]
    assert isinstance(commands[0], RollOff)
    assert [c.at for c in commands if isinstance(c, Place)] == [
        (0, 11),
        (1, 11),
        (2, 11),
        (3, 11),
        (5, 11),
    ]
    assert any(isinstance(c, StartMove) and c.unit == "1.spearman-2" for c in commands)
    assert "Ann: step Ann's Spearman 2 to c11" in screen.text
    assert "Stopped after" in screen.text and not read.finished
    assert verify_file(log).ok
    assert "Ann, seat 1: place Captain (A)" in screen.text
    assert "Ann, seat 1: Spearman 2 (C) on c12: what does it do?" in screen.text
    assert "  1  move (4 points)" in screen.text and "  0  back" in screen.text


def test_bad_answers_are_told_in_a_line_and_asked_again(tmp_path: Path) -> None:
    log = tmp_path / "match.jsonl"
    answers = ["zz", "", "a1", "z9", "e1", "a12", "q"]
    screen = Screen(scripted("1", *answers))
    code, _ = run(screen, request(log))
    assert code == 0
    text = screen.text
    assert "'zz' is not a choice here: type a square. (h for help)" in text
    assert "Nothing was typed." in text
    assert "a1 is not a square to set up on: a free tile of your half" in text
    assert "z9 is not on the board (a1 to l12)." in text
    assert "e1 is not a square to set up on" in text
    assert "Ann: place Ann's Captain on a12" in text
    assert "Stopped after" in text and "--resume" in text
    for line in text.splitlines():
        if "is not" in line or "Nothing was typed" in line:
            assert line.endswith("(h for help)")


def test_the_end_of_the_input_keeps_the_log_and_resume_carries_it_on(tmp_path: Path) -> None:
    log = tmp_path / "match.jsonl"
    screen = Screen(scripted("1", "a12"))
    code, _ = run(screen, request(log))
    assert code == 0 and "Stopped after" in screen.text
    kept = read_log(log)
    assert not kept.finished and len(kept.entries) >= 2
    carried = Screen(randomly(1))
    resumed = PlayRequest(players="random,random", resume=log, bot_seed=2)
    code, errors = run(carried, resumed)
    assert code == 0 and not errors
    assert f"carried on after entry {len(kept.entries)}" in carried.text
    assert read_log(log).finished and verify_file(log).ok


def test_a_search_bot_plays_with_the_budget_its_spec_gives(tmp_path: Path) -> None:
    log = tmp_path / "match.jsonl"
    code, errors = run(Screen(scripted()), request(log, "mcts:2,random"))
    assert code == 0 and not errors
    assert read_log(log).finished and verify_file(log).ok


@pytest.mark.parametrize(
    ("players", "said"),
    [
        ("human,heuristic:5", "--players: the heuristic bot takes no number of iterations"),
        ("human,mcts:0", "--players: mcts:N takes a whole number of iterations N from 1"),
    ],
)
def test_a_bad_budget_is_a_one_line_error_with_exit_2(
    tmp_path: Path, players: str, said: str
) -> None:
    log = tmp_path / "match.jsonl"
    code, errors = run(Screen(scripted()), request(log, players))
    assert code == 2 and said in errors and len(errors.strip().splitlines()) == 1
    assert not log.exists()


def test_bad_options_are_one_line_errors_with_exit_2(tmp_path: Path) -> None:
    log = tmp_path / "match.jsonl"
    code, errors = run(Screen(scripted()), request(log, "human,nobody"))
    assert code == 2
    assert "no player 'nobody' in tiles-d6" in errors and len(errors.strip().splitlines()) == 1
    assert not log.exists()


# --- ? and the rules' odds --------------------------------------------------------------------


def set_up() -> TilesState:
    """Ann (seat 1) is player one in the north; every unit placed on its first free square."""
    settings = TilesSettings(players=("Ann", "Bob"), seed=7)
    state = RULESET.initial_state(settings, None)
    for command in (RollOff(1, (6, 1)), ChooseHalf(1, "north")):
        state = rules.decide(command, state)[1]
    while state.phase == "deploy":
        seat = rules.to_act(state)[0]
        state = rules.decide(Place(seat, rules.deploy_tiles(state, seat)[0]), state)[1]
    return state


def placed(state: TilesState, squares: dict[str, tuple[int, int] | None]) -> TilesState:
    units = {unit: {"at": square} for unit, square in squares.items()}
    result: TilesState = at(state, f"units={json.dumps(units)}")
    return result


def explain(state: TilesState, *answers: str) -> str:
    """What the terminal prints for seat 1's decision in ``state`` given ``answers`` (the last
    quits)."""
    screen = Screen(scripted(*answers, "q"))
    legal = tuple(rules.legal_commands(state, 1))
    with pytest.raises(Quit):
        TilesTerminal().choose(
            Decision(RULESET, state, 1, legal, ("Ann", "Bob")), screen.out, screen.ask
        )
    return screen.text


def chance(count: int, of: int = 6) -> str:
    odds = Fraction(count, of)
    return f"{odds.numerator} in {odds.denominator}"


def test_the_odds_of_an_attack_come_from_the_rules_modifier() -> None:
    # The captain on e6 faces the ogre on f6 (Large) with a goblin beside it on f7.
    state = placed(set_up(), {"1.captain": (4, 5), "2.ogre": (5, 5), "2.goblin-1": (5, 6)})
    captain, ogre = state.unit("1.captain"), state.unit("2.ogre")
    assert captain is not None and ogre is not None
    modifier = rules.melee_modifier(state, captain, ogre, charge=False)
    assert modifier == 4 - 2 + (1 - 2) + 1  # Combat - Evade, crowd, Large
    hits = [face for face in range(2, 7) if face + modifier >= 4]  # T23
    shown = explain(state, "A", "3", "?")
    assert (
        f"attack a Ogre: needs {hits[0]}+ on a d6 ({modifier:+d} to the die): "
        f"{chance(len(hits))} to hit; backfires on a 1: 1 in 6"
    ) in shown
    assert "Ann, seat 1: attack which enemy?" in shown
    assert "  a  Ogre on f6, 10/10 health" in shown and "  b  Goblin 1 on f7, 5/5 health" in shown


def test_the_odds_of_a_fire_count_the_range_and_brambles() -> None:
    # Crossbow 1 on a5 shoots along rank 5 at the goblin on i5 (range 8, through g5 and h5).
    state = placed(set_up(), {"1.crossbow-1": (0, 4), "2.goblin-1": (8, 4), "2.ogre": (0, 9)})
    shooter, goblin = state.unit("1.crossbow-1"), state.unit("2.goblin-1")
    assert shooter is not None and goblin is not None
    modifier = rules.fire_modifier(state, shooter, goblin)
    assert modifier == 3 - 3 - 8 // 3 - 1 - 1  # Ranged - Evade, range, Small, brambles
    shown = explain(state, "?")
    assert (
        "D Crossbow 1: fire at b Goblin 1 (range 8: -2): cannot hit (-4 to the die: a 6 makes 2)"
        in shown
    )
    # From a8 the ogre on a10 is at range 2: no penalty, Large.
    near = placed(state, {"1.crossbow-1": (0, 7)})
    shooter = near.unit("1.crossbow-1")
    ogre = near.unit("2.ogre")
    assert shooter is not None and ogre is not None
    modifier = rules.fire_modifier(near, shooter, ogre)
    assert modifier == 3 - 2 + 1
    hits = [face for face in range(1, 7) if face + modifier >= 4]  # T26
    assert (
        f"fire at a Ogre (range 2: -0): needs {hits[0]}+ on a d6 (+2 to the die): "
        f"{chance(len(hits))} to hit"
    ) in explain(near, "D", "4", "?")


def test_the_odds_of_a_step_are_its_cost_and_its_fall() -> None:
    # The spearman on g6 stands in brambles next to the ogre on h7.
    state = placed(set_up(), {"1.spearman-1": (6, 5), "2.ogre": (7, 6)})
    state = rules.decide(StartMove(1, "1.spearman-1"), state)[1]
    shown = explain(state, "?")
    # Leaving brambles (a 1 falls), then withdrawing: 3 or less falls, -1 next to the ogre.
    into_free = Fraction(1, 6) + Fraction(5, 6) * Fraction(3, 6)
    into_adjacent = Fraction(1, 6) + Fraction(5, 6) * Fraction(4, 6)
    free = f"f5: 2 points; brambles roll (a 1 falls) then withdraw roll (d6 +0, 3 or less falls): falls {chance(into_free.numerator, into_free.denominator)}"
    adjacent = f"g7: 2 points; brambles roll (a 1 falls) then withdraw roll (d6 -1, 3 or less falls): falls {chance(into_adjacent.numerator, into_adjacent.denominator)}"
    assert free in shown and adjacent in shown
    assert "Type a square to step to: f5-h5 f6 h6 f7-g7" in shown
    calm = placed(set_up(), {"1.spearman-1": (1, 8)})
    calm = rules.decide(StartCharge(1, "1.spearman-1"), calm)[1]
    assert "a9: 1 point, no roll" in explain(calm, "?")


def test_a_step_to_a_square_the_rules_refuse_says_why() -> None:
    state = placed(set_up(), {"1.spearman-1": (6, 5), "2.ogre": (7, 6)})
    state = rules.decide(StartMove(1, "1.spearman-1"), state)[1]
    shown = explain(state, "h7", "c3")
    assert "Spearman 1 cannot step to h7: a unit stands there." in shown
    assert "Spearman 1 cannot step to c3: a step goes to one of the 8 neighbouring tiles." in shown


def test_the_menus_lead_to_every_legal_command_and_no_other() -> None:
    # During a Move or a Charge the menu keeps to the moving unit: stopping it leads back to
    # the other units and the end of the turn.
    rng = random.Random(11)
    state = RULESET.initial_state(TilesSettings(seed=11), None)
    while seats := rules.to_act(state):
        legal = rules.legal_commands(state, seats[0])
        offered = list(menu_for(state, seats[0], legal).commands())
        assert len(offered) == len(set(offered))
        action = state.action
        if action is None:
            assert set(offered) == set(legal)
        else:
            kept = {
                c
                for c in legal
                if isinstance(c, StepTo | StandUp | EndAction)
                or (isinstance(c, Attack) and c.unit == action.unit)
            }
            assert set(offered) == kept
        state = rules.decide(rng.choice(legal), state)[1]
