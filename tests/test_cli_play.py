"""``multiversus play``: bot games, human play by number, quitting, resuming, bad options.

Every test fixes the match seed and the bot seed, so the games are the same
each run. Answering "1" to every prompt is always legal (it is the first
legal command, or Enter at a hot-seat hand-over), so a long run of "1" lines
plays a match to its end.
"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner, Result

from multiversus_cli.app import app
from multiversus_cli.menu import build_menu
from multiversus_cli.presenters.multiversus_play import Game, PlayerKind
from multiversus_core import DeclineReaction, MatchSettings, legal_commands, start_match
from multiversus_core.engine.log import LogWriter, read_log, replay
from multiversus_core.engine.verify import verify
from multiversus_core.rulesets.multiversus.bots.specs import RandomBot, command_for
from multiversus_core.rulesets.multiversus.decide import decider_seat
from tests.support import rechained

ONES = "1\n" * 3000
"""Enough answers to play any match to its end."""

THREE_ONE = "3\n1\n" * 2000
"""Move first (3 is a unit's Move coin), then take the first choice; an answer out of
range is asked again, so the next "1" reacts to every trigger offered."""

CLEARED = "──── the screen is cleared here ────"

RESULT = re.compile(r"The match ended in round \d of 6: (a draw|the \w+ \(.+\) win)")


def kinds_in_log(path: Path) -> set[str]:
    """The event kinds a match log holds."""
    return {type(e).__struct_config__.tag for entry in read_log(path).entries for e in entry.events}  # type: ignore[misc]


def play(*args: str, log: Path | None = None, input: str | None = None) -> Result:
    options = [*args]
    if log is not None:
        options += ["--log", str(log)]
    return CliRunner().invoke(app, ["play", *options], input=input)


def test_a_bot_game_runs_to_the_end_and_writes_a_log_that_replays(tmp_path: Path) -> None:
    log = tmp_path / "bots.jsonl"
    result = play(
        "--player1", "bot", "--player2", "bot", "--seed", "7", "--bot-seed", "7", "--quiet", log=log
    )
    assert result.exit_code == 0, result.output
    assert RESULT.match(result.output)
    assert len(result.output.strip().splitlines()) == 1  # --quiet prints only the result
    match_log = read_log(log)
    assert match_log.header.settings.seed == 7
    assert replay(match_log).is_over


def test_a_bot_game_tells_how_to_win_first_and_the_result_once_at_the_end(
    tmp_path: Path,
) -> None:
    result = play("--player1", "bot", "--player2", "bot", "--seed", "7", log=tmp_path / "b.jsonl")
    assert result.exit_code == 0, result.output
    out = result.output
    assert out.index("How to win") < out.index("The coin is flipped")
    assert len(RESULT.findall(out)) == 1
    assert "The match is over: " not in out  # not told in the narration too
    assert re.search(r"The match is over after round \d of 6\.\n", out)  # the final board


def test_delay_waits_after_each_command_of_a_bot_game(tmp_path: Path) -> None:
    settings = MatchSettings(seed=7, players=("Bot 1", "Bot 2"))
    path = tmp_path / "paced.jsonl"
    waits: list[float] = []
    game = Game(
        out=Console(file=io.StringIO(), width=120, color_system=None, highlight=False),
        state=start_match(settings),
        writer=LogWriter.create(path, settings),
        path=path,
        kinds={1: PlayerKind.bot, 2: PlayerKind.bot},
        bots={1: RandomBot(7), 2: RandomBot(7)},
        bot_seed=None,
        history=[],
        delay=0.25,
        sleep=waits.append,
    )
    assert game.run() == 0
    # After every command but the last, which ends the match.
    assert waits == [0.25] * (len(game.history) - 1)


def test_a_bot_game_without_quiet_tells_rolls_and_turns_and_shows_the_final_board(
    tmp_path: Path,
) -> None:
    result = play(
        "--player1",
        "bot",
        "--player2",
        "bot",
        "--seed",
        "7",
        "--bot-seed",
        "7",
        log=tmp_path / "b.jsonl",
    )
    assert result.exit_code == 0, result.output
    assert "Seed 7" in result.output
    assert re.search(r"roll the Initiative die: \d", result.output)
    assert "take the Initiative die: their turn begins" in result.output
    assert "Smogon (Large)" in result.output  # the final board's legend
    assert RESULT.search(result.output)


@pytest.fixture(scope="module")
def fighting_bots(tmp_path_factory: pytest.TempPathFactory) -> tuple[Result, Path]:
    """Seed 0: two bots whose match has attacks, reactions, a declined trigger and a winner."""
    log = tmp_path_factory.mktemp("fight") / "fight.jsonl"
    result = play(
        "--player1", "random", "--player2", "random", "--seed", "0", "--bot-seed", "0", log=log
    )
    assert result.exit_code == 0, result.output
    wanted = {"attack_made", "condition_changed", "reaction_triggered", "reaction_started"}
    wanted |= {"reaction_declined", "follow_up_chosen"}
    assert wanted <= kinds_in_log(log), "seed 0 no longer plays all of these; pick another seed"
    return result, log


def test_a_bot_game_tells_triggers_reactions_attacks_and_conditions(
    fighting_bots: tuple[Result, Path],
) -> None:
    out = fighting_bots[0].output
    assert re.search(r"The (Heroes|Adversaries) may react: .+\.", out)
    assert re.search(r"The (Heroes|Adversaries) react with [\w-]+ \(.+\)", out)
    assert re.search(r"(let it pass: no reaction|reaction is declined)", out)
    # An attack and the condition it leaves are one line.
    assert re.search(
        r"\n  .+ attacks .+ — hit(, with Advantage)?: (Wounded|Disabled|Eliminated)", out
    )
    assert "Marks: * Wounded" in out  # the final board marks conditions


def test_a_bot_game_ends_with_its_winner_and_the_reason(
    fighting_bots: tuple[Result, Path],
) -> None:
    result, log = fighting_bots
    final = replay(read_log(log))
    assert final.is_over
    if final.winner is None:
        assert "The match ended in round 6 of 6: a draw" in result.output
    else:
        side = final.winner.capitalize()
        assert re.search(
            rf"The match ended in round \d of 6: the {side} \(Bot \d\) win", result.output
        )


def test_the_same_seeds_with_seeded_salts_play_the_same_bot_game(tmp_path: Path) -> None:
    args = ("--player1", "bot", "--player2", "bot", "--seed", "11", "--bot-seed", "3", "--quiet")
    play(*args, "--seeded-salts", log=tmp_path / "a.jsonl")
    play(*args, "--seeded-salts", log=tmp_path / "b.jsonl")
    assert (tmp_path / "a.jsonl").read_bytes() == (tmp_path / "b.jsonl").read_bytes()
    assert read_log(tmp_path / "a.jsonl").settings.salts == "seed"


def test_real_play_salts_secrets_afresh_and_the_log_verifies(tmp_path: Path) -> None:
    args = ("--player1", "bot", "--player2", "bot", "--seed", "11", "--bot-seed", "3", "--quiet")
    play(*args, log=tmp_path / "a.jsonl")
    play(*args, log=tmp_path / "b.jsonl")
    a, b = read_log(tmp_path / "a.jsonl"), read_log(tmp_path / "b.jsonl")
    assert a.settings.salts == "secrets"
    # The same play, but every commitment and salt differs between the two logs.
    salts = [
        [getattr(e, "salt", "") for entry in log.entries for e in entry.events] for log in (a, b)
    ]
    assert [bool(s) for s in salts[0]] == [bool(s) for s in salts[1]]
    assert all(x != y for x, y in zip(*salts, strict=True) if x)
    assert verify(a).ok and verify(b).ok


@pytest.fixture(scope="module")
def human_game(tmp_path_factory: pytest.TempPathFactory) -> tuple[Result, Path]:
    """A whole match of a human answering by number (and some wrong input) against the bot."""
    log = tmp_path_factory.mktemp("human") / "human.jsonl"
    # Enter alone (the third line) takes the only choice: the flip.
    answers = "x\n999\n\nb\nd\nl\nu\n?\nh\nm\n" + ONES
    result = play(
        "--seed", "5", "--player2", "random", "--bot-seed", "1", "--name1", "Alice",
        log=log, input=answers,
    )  # fmt: skip
    return result, log


def test_a_human_plays_by_number_to_the_end_and_wrong_input_is_asked_again(
    human_game: tuple[Result, Path],
) -> None:
    result, log = human_game
    out = result.output
    assert result.exit_code == 0, out
    assert "'x' is not a choice. Type 1, or h for help." in out
    assert "There is no choice 999." in out
    assert "Traceback" not in out
    assert "Alice to flip the coin for the Set Up Player" in out
    assert " 1 Flip the coin for the Set Up Player" in out
    assert "Tiles: cr Crag" in out  # b: the board
    assert "Discard (face up)" in out  # d: coin piles
    assert "The match so far" in out  # l: the log in words
    assert "Unit (role)" in out  # u: units
    assert "q  quit" in out  # h: help
    assert "Choose the team you control" in out or "Set Up Player, choose" in out  # ?
    # A coin selection is made in steps: the unit coins, then one coin's action coins.
    assert re.search(r"Unit coins:\s+1 \w.+ \(green coin\)", out)
    assert re.search(r"\(green coin\):\s+\d+ Attack\s+\d+ Defend\s+\d+ Move", out)
    assert RESULT.search(out)
    assert replay(read_log(log)).is_over


def test_the_bots_hidden_selection_is_not_shown_before_it_is_revealed(
    human_game: tuple[Result, Path],
) -> None:
    result, _ = human_game
    lines = result.output.splitlines()
    side = "Heroes" if "Alice takes the Heroes" in result.output else "Adversaries"
    bot_side = "Adversaries" if side == "Heroes" else "Heroes"
    assert f"The {bot_side} select their coins in secret." in result.output
    assert f"The {bot_side} select a reaction in secret." in result.output
    # The human's own selections are told to them; the bot's only through reveals.
    assert any(line.strip().startswith("You select") for line in lines)
    assert not any(f"{bot_side} select" in line and " with " in line for line in lines)


def test_quitting_keeps_a_log_that_resume_carries_on_to_the_end(tmp_path: Path) -> None:
    log = tmp_path / "quit.jsonl"
    result = play(
        "--seed", "5", "--player2", "random", "--bot-seed", "1", log=log, input="1\n1\n1\nq\n"
    )
    assert result.exit_code == 0, result.output
    assert f"multiversus play --resume {log}" in result.output
    kept = read_log(log)
    assert len(kept.entries) >= 3
    assert not replay(kept).is_over

    # A bot takes over seat 1 and plays on to the end.
    resumed = play("--resume", str(log), "--player1", "bot", "--bot-seed", "1")
    assert resumed.exit_code == 0, resumed.output
    assert f"Resuming {log}: {len(kept.entries)} commands replayed." in resumed.output
    assert RESULT.search(resumed.output)
    final = read_log(log)
    assert final.entries[: len(kept.entries)] == kept.entries
    assert replay(final).is_over


def test_resume_moves_a_torn_last_line_aside_and_says_so(tmp_path: Path) -> None:
    log = tmp_path / "torn.jsonl"
    result = play(
        "--seed", "5", "--player2", "random", "--bot-seed", "1", log=log, input="1\n1\n1\nq\n"
    )
    assert result.exit_code == 0, result.output
    kept = read_log(log)
    # The program stopped in the middle of writing a line.
    with log.open("ab") as file:
        file.write(b'{"record":"entry","seq":')
    resumed = play("--resume", str(log), "--player1", "bot", "--bot-seed", "1")
    assert resumed.exit_code == 0, resumed.output
    assert "was cut short" in resumed.output
    assert (tmp_path / "torn.jsonl.torn-1").read_bytes() == b'{"record":"entry","seq":'
    final = read_log(log)
    assert final.entries[: len(kept.entries)] == kept.entries and replay(final).is_over


@pytest.fixture(scope="module")
def reacting_human(tmp_path_factory: pytest.TempPathFactory) -> tuple[Result, Path]:
    """A whole match of a human who moves and reacts by number against the bot."""
    log = tmp_path_factory.mktemp("reacting") / "reacting.jsonl"
    result = play(
        "--seed",
        "4",
        "--player2",
        "random",
        "--bot-seed",
        "2",
        "--name1",
        "Alice",
        log=log,
        input=THREE_ONE,
    )
    assert result.exit_code == 0, result.output
    wanted = {"reaction_triggered", "reaction_started", "attack_made", "follow_up_chosen"}
    assert wanted <= kinds_in_log(log), "this game no longer has all of these; pick another seed"
    return result, log


def test_a_human_is_offered_reactions_and_attacks_by_number(
    reacting_human: tuple[Result, Path],
) -> None:
    result, log = reacting_human
    out = result.output
    assert "Traceback" not in out
    # The offer says what triggered it and what the human's hidden reaction is.
    assert re.search(r"▶ Alice \(\w+\) to react or let the trigger pass", out)
    told = " ".join(out.split())  # the decision's help wraps between words
    assert re.search(
        r"You may react now with your .+? coin\) with [\w-]+; if you let it pass", told
    )
    assert re.search(r" 1 React: .+ takes an? [\w-]+ reaction", out)
    assert " 2 Let it pass: do not react now" in out
    # Attacks are listed by attacker, each target with what a hit would do.
    assert re.search(r"at \(\d,\d\) attacks:\s+\d+ .+ at \(\d,\d\) \(.*a hit: \w+\)", out)
    assert "a hit moves the target one step: Unharmed → Wounded → Disabled → Eliminated." in told
    # After an attack: stay, step or push, numbered.
    assert re.search(r"▶ Alice \(\w+\) to step, push or stay after the attack", out)
    assert re.search(r" 1 Stay: .+ do not move", out)
    assert re.search(r"\d+ Step .+ (north|east|south|west) to \(\d,\d\)", out)
    assert RESULT.search(out)
    assert replay(read_log(log)).is_over


def test_the_end_of_the_input_keeps_a_log_that_bots_can_finish(tmp_path: Path) -> None:
    log = tmp_path / "eof.jsonl"
    result = play("--seed", "9", log=log, input="1\n1\n1\n1\n1\n1\n")
    assert result.exit_code == 0, result.output
    assert "The input ended" in result.output
    assert "--resume" in result.output
    assert "Traceback" not in result.output
    entries = len(read_log(log).entries)
    assert entries >= 6

    # The human comes back and plays on from where the input ended.
    resumed = play("--resume", str(log), input="d\n1\n1\nq\n")
    assert resumed.exit_code == 0, resumed.output
    assert "Discard (face up)" in resumed.output
    assert len(read_log(log).entries) > entries


def test_ctrl_c_keeps_the_log_and_exits_130(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def interrupt() -> str:
        raise KeyboardInterrupt

    monkeypatch.setattr("builtins.input", interrupt)
    log = tmp_path / "int.jsonl"
    result = play("--seed", "5", log=log)
    assert result.exit_code == 130, result.output
    assert "Interrupted" in result.output
    assert f"--resume {log}" in result.output
    assert read_log(log).entries == ()


def test_hot_seat_clears_the_screen_before_each_secret_choice(tmp_path: Path) -> None:
    log = tmp_path / "hot.jsonl"
    result = play("--seed", "5", "--player2", "human", log=log, input="1\n" * 40)
    assert result.exit_code == 0, result.output
    assert "the screen is cleared here" in result.output
    assert "for a secret choice. " in result.output
    assert "You select" not in result.output  # nobody's secret is told on a shared screen


class _ScriptedPlayers:
    """Both seats of a hot-seat game, answering by number what a random bot would choose,
    step by step through the menus (a coin selection takes two).

    Enter at each hand-over; at a reaction offer they let it pass while the reaction
    is hidden, so the game shows a hidden reaction and then keeps it hidden.
    """

    def __init__(self, seed: int) -> None:
        self.game: Game | None = None
        self.bot = RandomBot(seed)
        self.answers: list[int] = []

    def __call__(self) -> str:
        game = self.game
        assert game is not None
        screen = game.out.file.getvalue()  # type: ignore[attr-defined]
        if screen.rstrip().endswith("press Enter when you are ready."):
            return ""
        if not self.answers:
            state = game.state
            seat = decider_seat(state)
            assert seat is not None
            commands = legal_commands(state, seat)
            wanted = command_for(self.bot, state, seat)
            if state.pending == "offer":
                wanted = DeclineReaction(player=seat)  # let it pass
            path = build_menu(state, commands).path_to(wanted)
            assert path is not None
            self.answers = list(path)
        return str(self.answers.pop(0))


def hot_seat_game(tmp_path: Path, settings: MatchSettings) -> str:
    """Play a whole hot-seat match by script and return what the shared screen showed."""
    players = _ScriptedPlayers(settings.seed)
    path = tmp_path / "hot.jsonl"
    game = Game(
        out=Console(file=io.StringIO(), width=120, color_system=None, highlight=False),
        state=start_match(settings),
        writer=LogWriter.create(path, settings),
        path=path,
        kinds={1: PlayerKind.human, 2: PlayerKind.human},
        bots={},
        bot_seed=None,
        history=[],
        read_line=players,
    )
    players.game = game
    assert game.run() == 0
    assert replay(read_log(path)).is_over
    return game.out.file.getvalue()  # type: ignore[attr-defined, no-any-return]


PRIVATE = ("(your secret)", "You may react now with your", "You select", "You choose your secret")
"""What only the deciding player may see."""


def _screens_keep_secrets(screen: str) -> list[str]:
    """Split the shared screen at each clearing; check no screen shows one player's secret
    and another player's decision. Return the screens."""
    screens = screen.split(CLEARED)
    for part in screens:
        deciders = set(re.findall(r"▶ (\w+) \(", part))
        if any(secret in part for secret in PRIVATE):
            assert len(deciders) <= 1, part
    return screens


def test_hot_seat_screens_hidden_reactions_and_set_up_secrets(tmp_path: Path) -> None:
    settings = MatchSettings(
        heroes="witch-hunters", adversaries="swartzblak", seed=2, players=("Alice", "Bob")
    )
    screens = _screens_keep_secrets(hot_seat_game(tmp_path, settings))
    handed = [s.split("\n", 2)[1] for s in screens[1:]]
    # A secret set-up choice, a hidden reaction offer: each on a screen of its own.
    assert any(
        h.endswith("for a secret choice. Alice: press Enter when you are ready.") for h in handed
    )
    assert any(" to react. " in h for h in handed), (
        "no hidden reaction was offered; pick another seed"
    )
    assert any("Choose your secret " in s for s in screens)
    # Every secret is told at the end.
    assert "The secrets were:" in screens[-1]


def test_hot_seat_play_by_number_keeps_every_secret_off_the_other_players_screen(
    tmp_path: Path,
) -> None:
    settings = MatchSettings(seed=4, players=("Alice", "Bob"))
    screens = _screens_keep_secrets(hot_seat_game(tmp_path, settings))
    assert len(screens) > 10


def test_an_unknown_team_is_a_one_line_error_with_exit_2(tmp_path: Path) -> None:
    result = play("--heroes", "nobody", log=tmp_path / "x.jsonl")
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    assert result.stderr.strip() == "multiversus play: no team 'nobody' is installed"
    assert not (tmp_path / "x.jsonl").exists()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--scenario", "nowhere"), "no Adversary sheet has a scenario 'nowhere'"),
        (("--seed", "-1"), "the seed must be from 0"),
        (("--quiet",), "--quiet is for a game between two bots"),
        (("--resume", "missing.jsonl"), "missing.jsonl: no such file"),
        (("--resume", "missing.jsonl", "--seed", "3"), "--seed cannot be used with --resume"),
        (("--delay", "1"), "--delay paces a game between two bots"),
        (
            ("--player1", "bot", "--player2", "bot", "--delay", "-1"),
            "--delay -1.0: give a number of seconds from 0",
        ),
        (
            ("--player1", "bot", "--player2", "bot", "--delay", "1", "--quiet"),
            "--quiet shows only the result",
        ),
    ],
)
def test_bad_options_are_one_line_errors_with_exit_2(
    tmp_path: Path, args: tuple[str, ...], message: str
) -> None:
    result = play(*args, log=None if "--resume" in args else tmp_path / "x.jsonl")
    assert result.exit_code == 2
    assert message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.output


def test_an_existing_log_is_never_overwritten(tmp_path: Path) -> None:
    log = tmp_path / "old.jsonl"
    log.write_text("precious\n")
    result = play("--seed", "1", log=log, input="1\n")
    assert result.exit_code == 2
    assert "already exists" in result.stderr
    assert log.read_text() == "precious\n"


def test_a_broken_log_cannot_be_resumed(tmp_path: Path) -> None:
    log = tmp_path / "broken.jsonl"
    log.write_text("not a log\n")
    result = play("--resume", str(log))
    assert result.exit_code == 2
    assert "cannot carry on from this log" in result.stderr
    assert "line 1" in result.stderr


@pytest.mark.parametrize("edit", ["step", "die"])
def test_a_forged_log_is_not_carried_on_and_sealed(tmp_path: Path, edit: str) -> None:
    """A log whose chain was recomputed after an edit verify refuses is refused by --resume;
    with secret chance, the seed kept in <log>.chance re-derives the rolls so far."""
    whole = tmp_path / "whole.jsonl"
    assert play("--player1", "bot", "--player2", "bot", "--quiet", log=whole).exit_code == 0
    chance = json.loads(whole.read_bytes().splitlines()[-1])["chance"]
    lines = whole.read_bytes().splitlines()[:60]
    kind = b'"figure_stepped"' if edit == "step" else b'"initiative_rolled"'
    index = next(i for i, line in enumerate(lines) if kind in line)
    record = json.loads(lines[index])
    event = next(e for e in record["events"] if e["kind"] == kind.decode().strip('"'))
    if edit == "step":
        event["to"] = [event["to"][0] + 3, event["to"][1]]
    else:
        event["die"] = event["die"] % 6 + 1
    lines[index] = json.dumps(record, separators=(",", ":")).encode()
    log = tmp_path / "forged.jsonl"
    log.write_bytes(rechained(b"\n".join(lines) + b"\n"))
    (tmp_path / "forged.jsonl.chance").write_text(json.dumps(chance, separators=(",", ":")))
    before = log.read_bytes()
    result = play("--resume", str(log), "--player1", "bot", "--player2", "bot", "--quiet")
    assert result.exit_code == 2, result.output
    assert "cannot carry on from this log: it does not verify" in result.stderr
    assert "(rules_differ)" in result.stderr and len(result.stderr.splitlines()) == 1
    assert log.read_bytes() == before
    # nor is a forged finished log whose end record is missing sealed
    whole.write_bytes(rechained(b"\n".join(lines + whole.read_bytes().splitlines()[60:-1]) + b"\n"))
    (tmp_path / "whole.jsonl.chance").write_text(json.dumps(chance, separators=(",", ":")))
    before = whole.read_bytes()
    result = play("--resume", str(whole), "--player1", "bot", "--player2", "bot", "--quiet")
    assert result.exit_code == 2 and "it does not verify" in result.stderr
    assert whole.read_bytes() == before


def test_the_default_log_is_named_for_the_time_and_announced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = play("--player1", "bot", "--player2", "bot", "--seed", "2", "--bot-seed", "2")
    assert result.exit_code == 0, result.output
    logs = list(tmp_path.glob("multiversus-*.jsonl"))
    assert len(logs) == 1
    assert re.fullmatch(r"multiversus-\d{8}-\d{6}\.jsonl", logs[0].name)
    assert f"Saving the log to {logs[0].name}" in result.output


def test_help_shows_the_options_and_an_example() -> None:
    result = CliRunner().invoke(app, ["play", "--help"])
    assert result.exit_code == 0
    for option in ("--heroes", "--resume", "--player1", "--bot-seed", "--quiet", "--delay"):
        assert option in result.output
    assert "multiversus play --resume" in result.output


def test_shell_completion_is_offered() -> None:
    result = CliRunner().invoke(app, ["--help"])
    assert result.exit_code == 0
    assert "--install-completion" in result.output


def test_the_bots_seed_is_their_own_and_the_hint_to_carry_on_names_it(tmp_path: Path) -> None:
    result = play("--seed", "5", log=tmp_path / "q.jsonl", input="q\n")
    assert result.exit_code == 0, result.output
    seed = re.search(r"--bot-seed (\d+)", result.output)
    assert seed is not None, result.output
    again = play("--seed", "5", log=tmp_path / "r.jsonl", input="q\n")
    other = re.search(r"--bot-seed (\d+)", again.output)
    assert other is not None and other.group(1) != seed.group(1)  # fresh each time, not the match's


def test_an_unknown_player_option_is_refused_naming_the_bots(tmp_path: Path) -> None:
    result = play("--player2", "mcts:0", log=tmp_path / "x.jsonl")
    assert result.exit_code == 2
    assert "mcts:N takes a whole number" in result.output
    assert not (tmp_path / "x.jsonl").exists()


def test_the_log_goes_through_the_pager_at_a_terminal_when_longer_than_the_screen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import pydoc

    paged: list[str] = []
    monkeypatch.setattr(pydoc, "pager", paged.append)
    settings = MatchSettings(seed=7, players=("Bot 1", "Bot 2"))
    path = tmp_path / "paged.jsonl"
    screen = io.StringIO()
    game = Game(
        out=Console(file=screen, width=100, height=20, force_terminal=True, color_system=None),
        state=start_match(settings),
        writer=LogWriter.create(path, settings),
        path=path,
        kinds={1: PlayerKind.bot, 2: PlayerKind.bot},
        bots={1: RandomBot(7), 2: RandomBot(7)},
        bot_seed=None,
        history=[],
        quiet=True,
    )
    assert game.run() == 0
    before = screen.getvalue()
    game._show_log(None)
    assert len(paged) == 1 and paged[0].startswith("The match so far")
    assert paged[0].count("\n") > 20
    assert screen.getvalue() == before  # nothing of it written past the pager
    # A short log, or output that is not a terminal, is printed as it is.
    game.out = Console(file=io.StringIO(), width=100, height=20, color_system=None)
    game._show_log(None)
    assert len(paged) == 1
