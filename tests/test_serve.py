"""Playing across a network: a real referee on 127.0.0.1, real WebSocket clients, real
``multiversus serve`` and ``multiversus join`` processes.

The referee keeps each match log on disk and sends each seat its view log;
at the end it publishes the match log and each client cross-checks it. These
tests play whole matches with bots at small budgets, kill the referee
mid-match, send it what no client should, and publish forged logs.
"""

from __future__ import annotations

import json
import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest
import uvicorn
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from multiversus_core.engine.chance import fresh_contribution
from multiversus_core.engine.choices import random_command
from multiversus_core.engine.log import MatchLog, read_log
from multiversus_core.engine.play import play_from
from multiversus_core.engine.position import write_position
from multiversus_core.engine.registry import load_ruleset
from multiversus_core.engine.verify import verify, verify_against
from multiversus_core.engine.viewlog import encode_view_log, read_view_log, redact_log
from multiversus_server.app import Bucket, create_app
from multiversus_server.page import Explain, ViewPosition, position, shown
from multiversus_server.protocol import MAX_CONNECTIONS, MAX_FRAME_BYTES, encoder
from multiversus_server.referee import Publish, Referee, honest
from tests.contract.kit import examples, play

SRC = Path(__file__).resolve().parent.parent / "src"
SERVE = (sys.executable, "-m", "multiversus_cli.app", "serve")
JOIN = (sys.executable, "-m", "multiversus_cli.app", "join")
ENV = {**os.environ, "PYTHONPATH": f"{SRC}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def wait_for(port: int, timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.05)
    raise AssertionError(f"nothing listens on port {port}")


def create(port: int, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/matches",
        data=json.dumps(body).encode(),
        headers={"content-type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        created: dict[str, Any] = json.loads(answer.read())
        return created


def serve_process(port: int, data: Path) -> subprocess.Popen[str]:
    process = subprocess.Popen(
        [*SERVE, "--port", str(port), "--data", str(data)],
        env=ENV,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    wait_for(port)
    return process


def join_process(link: str, player: str, log: Path, seed: int) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [*JOIN, link, "--player", player, "--log", str(log), "--bot-seed", str(seed), "--quiet"],
        env=ENV,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def finish(process: subprocess.Popen[str], timeout: float = 120) -> tuple[int, str]:
    out, err = process.communicate(timeout=timeout)
    return process.returncode, out + err


class InProcess:
    """A referee served from this process, on a free port, with a publishing hook."""

    def __init__(
        self, data: Path, publish: Publish = honest, explain: Explain | None = None
    ) -> None:
        self.port = free_port()
        self.referee = Referee(data, publish)
        config = uvicorn.Config(
            create_app(self.referee, explain),
            host="127.0.0.1",
            port=self.port,
            log_level="warning",
            ws="websockets-sansio",
            ws_max_size=MAX_FRAME_BYTES,
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> InProcess:
        self.thread.start()
        wait_for(self.port)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(10)


@pytest.fixture
def referee(tmp_path: Path) -> Iterator[InProcess]:
    with InProcess(tmp_path / "data") as serving:
        yield serving


def ws(link: str) -> ClientConnection:
    url = link.replace("http://", "ws://").replace("/join/", "/ws/")
    return connect(url, open_timeout=5, legacy=True)


def receive(connection: ClientConnection, timeout: float = 5) -> dict[str, Any]:
    message: dict[str, Any] = json.loads(connection.recv(timeout))
    return message


def nothing_for(connection: ClientConnection, seconds: float = 0.3) -> bool:
    try:
        connection.recv(seconds)
    except TimeoutError:
        return True
    return False


def joined(connection: ClientConnection, contribution: str = "") -> dict[str, Any]:
    connection.send(json.dumps({"type": "join", "contribution": contribution}))
    return receive(connection)


def played_log(data: Path) -> MatchLog:
    (path,) = data.glob("*.jsonl")
    return read_log(path)


# --- whole matches --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "players"),
    [("tiles-d6", ("heuristic", "heuristic")), ("multiversus", ("heuristic", "random"))],
)
def test_two_join_bots_play_a_match_to_its_end_and_both_cross_checks_pass(
    tmp_path: Path, game: str, players: tuple[str, str]
) -> None:
    port = free_port()
    server = serve_process(port, tmp_path / "data")
    try:
        links = create(port, {"game": game})
        assert len(links["seats"]) == 2 and links["spectator"] not in links["seats"]
        logs = [tmp_path / "seat-1.jsonl", tmp_path / "seat-2.jsonl"]
        clients = [
            join_process(link, player, log, seed)
            for link, player, log, seed in zip(links["seats"], players, logs, (1, 2), strict=True)
        ]
        for client in clients:
            code, output = finish(client)
            assert code == 0, output
            assert "The cross-check passed" in output
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(10)
    log = played_log(tmp_path / "data")
    assert log.finished and log.game == game
    views = [read_view_log(path) for path in logs]
    assert all(result.ok for result in verify_against(log, views))
    # each seat was sent exactly its view log: nothing of the referee's, nothing of the other's
    for path, view in zip(logs, views, strict=True):
        assert path.read_bytes() == encode_view_log(redact_log(log, view.viewer))
    assert {view.viewer for view in views} == {
        load_ruleset(game).viewer_of(read_log_state(log), seat) for seat in (1, 2)
    }
    # the chance came from the referee's seed and both seats' contributions
    assert log.chance is not None and len(log.chance.contributions) == 2


def read_log_state(log: MatchLog) -> Any:
    ruleset = load_ruleset(log.game)
    state = ruleset.initial_state(log.header.settings, None)
    for entry in log.entries:
        state = ruleset.fold(state, entry.events)
    return state


def test_a_spectator_link_follows_the_public_view_and_cross_checks_it(
    tmp_path: Path, referee: InProcess
) -> None:
    links = create(referee.port, {"game": "sealed-bids"})
    logs = [tmp_path / f"seat-{n}.jsonl" for n in (1, 2, 3)]
    watcher = join_process(links["spectator"], "human", tmp_path / "public.jsonl", 0)
    clients = [
        join_process(link, "random", log, seed)
        for seed, (link, log) in enumerate(zip(links["seats"], logs, strict=True))
    ]
    for client in [*clients, watcher]:
        code, output = finish(client)
        assert code == 0, output
    public = read_view_log(tmp_path / "public.jsonl")
    assert public.viewer == "spectator" and public.finished


# --- a dishonest referee --------------------------------------------------------------


def table_roll_forgery(log: MatchLog) -> MatchLog:
    """The log with one Initiative roll turned into a table roll of another face, chosen so
    that the forged log still verifies on its own."""
    from multiversus_core import RollInitiative
    from multiversus_core.rulesets.multiversus.events import InitiativeRolled

    for index, entry in enumerate(log.entries):
        if not isinstance(entry.command, RollInitiative):
            continue
        rolled = next(e for e in entry.events if isinstance(e, InitiativeRolled))
        for face in range(1, 7):
            if face == rolled.die:
                continue
            events = tuple(
                msgspec.structs.replace(e, die=face) if e is rolled else e for e in entry.events
            )
            command = msgspec.structs.replace(entry.command, die=face)
            changed = msgspec.structs.replace(entry, command=command, events=events)
            entries = (*log.entries[:index], changed, *log.entries[index + 1 :])
            forged = msgspec.structs.replace(log, entries=entries)
            if verify(forged).ok:
                FORGED.append(index + 1)
                return forged
    return log


FORGED: list[int] = []


def test_a_referee_that_publishes_a_forged_die_is_caught_by_both_clients(tmp_path: Path) -> None:
    FORGED.clear()
    with InProcess(tmp_path / "data", table_roll_forgery) as serving:
        links = create(serving.port, {"game": "multiversus"})
        logs = [tmp_path / "seat-1.jsonl", tmp_path / "seat-2.jsonl"]
        clients = [
            join_process(link, "random", log, seed)
            for seed, (link, log) in enumerate(zip(links["seats"], logs, strict=True))
        ]
        results = [finish(client) for client in clients]
    assert FORGED, "no roll could be forged so that verify alone passes"
    for code, output in results:
        assert code == 1, output
        assert "The cross-check failed" in output and "views_differ" in output
    # the log on the referee's disk is the honest one: the clients' view logs agree with it
    log = played_log(tmp_path / "data")
    assert all(r.ok for r in verify_against(log, [read_view_log(p) for p in logs]))


def altered_contribution(log: MatchLog) -> MatchLog:
    assert log.chance is not None
    given = list(log.chance.contributions)
    given[1] = fresh_contribution()
    chance = msgspec.structs.replace(log.chance, contributions=tuple(given))
    return msgspec.structs.replace(log, chance=chance)


def test_a_referee_that_alters_a_seat_s_contribution_to_the_chance_is_caught(
    tmp_path: Path,
) -> None:
    with InProcess(tmp_path / "data", altered_contribution) as serving:
        links = create(serving.port, {"game": "tiles-d6"})
        logs = [tmp_path / "seat-1.jsonl", tmp_path / "seat-2.jsonl"]
        clients = [
            join_process(link, "heuristic", log, seed)
            for seed, (link, log) in enumerate(zip(links["seats"], logs, strict=True))
        ]
        results = [finish(client) for client in clients]
    for code, output in results:
        assert code == 1, output
        assert "The cross-check failed" in output
    # seat 2 names its own contribution; both find dice that do not follow from the chance
    assert "seat 2's contribution" in results[1][1]
    assert "rules_differ" in results[0][1]
    # the referee's own log records both contributions and verifies; altered, it does not
    log = played_log(tmp_path / "data")
    assert log.chance is not None and all(log.chance.contributions)
    assert verify(log).ok
    assert verify(altered_contribution(log)).code == "rules_differ"
    missing = msgspec.structs.replace(log.chance, contributions=(log.chance.contributions[0], ""))
    assert verify(msgspec.structs.replace(log, chance=missing)).code == "bad_chance"


# --- what a page is sent ---------------------------------------------------------------


@pytest.mark.parametrize("game", ["multiversus", "tiles-d6", "worlds-collide", "sealed-bids"])
def test_a_page_s_position_kept_as_its_view_log_grows_is_the_one_read_from_it_whole(
    tmp_path: Path, game: str
) -> None:
    referee = Referee(tmp_path / "data")
    match, _, _ = referee.create({"game": game})
    for seat in range(1, match.seats + 1):
        match.join(seat, fresh_contribution())
    rng = random.Random(3)
    kept = {viewer: ViewPosition() for viewer in match.views}
    for step in range(400):
        if not match.finished:
            seat = rng.choice(match.to_act())
            command = random_command(match.ruleset.legal_commands(match.state, seat), rng)
            match.act(seat, msgspec.json.encode(command))
        for viewer, lines in match.views.items():
            if step % 2 and not match.finished:  # a step or two at a time
                continue
            at = kept[viewer]
            got = shown(lines, None, begun=True, at=at)
            if step % 25 == 0 or match.finished:
                whole = shown(lines, None, begun=True)
                assert encoder.encode(got) == encoder.encode(whole), (viewer, step)
                _, seen, state = at.of(lines)
                _, seen_whole, state_whole = position(lines)
                assert seen == seen_whole
                assert msgspec.json.encode(state) == msgspec.json.encode(state_whole)
        if match.finished:
            break
    assert match.finished or game == "multiversus"
    # a seat that became another viewer starts again from its new view log
    other = ViewPosition()
    for lines in match.views.values():
        assert encoder.encode(shown(lines, None, begun=True, at=other)) == encoder.encode(
            shown(lines, None, begun=True)
        )
    referee.close()


@pytest.mark.parametrize("game", ["multiversus", "sealed-bids"])
def test_a_page_s_position_of_a_match_from_a_position_holding_secrets_is_the_one_read_whole(
    game: str,
) -> None:
    ruleset = load_ruleset(game)
    example = examples(ruleset, ruleset.settings_type(), 5)[1]  # secret salts
    states = play(ruleset, example, random.Random(5)).states
    holding = [s for s in states[1:] if ruleset.auditor(s.settings).start_at(s)]
    bots = {seat: ruleset.bots["random"](seat) for seat in range(1, 4)}
    log, _ = play_from(write_position(holding[len(holding) // 2]), bots, seed=5)
    stood_in = 0
    for viewer in ruleset.viewers:
        lines = encode_view_log(redact_log(log, viewer)).decode().splitlines()
        stood_in += "hidden=" in json.loads(lines[0]).get("position", "")
        at = ViewPosition()
        for end in [*range(1, len(lines) - 1, 3), len(lines)]:  # a few lines at a time
            _, seen, state = at.of(lines[:end])
            _, seen_whole, state_whole = position(lines[:end])
            assert seen == seen_whole, (viewer, end)
            assert msgspec.json.encode(state) == msgspec.json.encode(state_whole), (viewer, end)
    assert stood_in  # some viewer's position holds a stand-in, revealed as the match goes


# --- crash and resume -----------------------------------------------------------------


def entries_on_disk(data: Path) -> int:
    (path,) = data.glob("*.jsonl")
    return path.read_bytes().count(b"\n") - 1


def test_a_referee_killed_mid_match_resumes_it_and_no_acknowledged_command_is_lost(
    tmp_path: Path,
) -> None:
    data = tmp_path / "data"
    port = free_port()
    server = serve_process(port, data)
    links = create(port, {"game": "tiles-d6"})
    logs = [tmp_path / "seat-1.jsonl", tmp_path / "seat-2.jsonl"]
    clients = [
        join_process(link, "heuristic", log, seed)
        for seed, (link, log) in enumerate(zip(links["seats"], logs, strict=True))
    ]
    try:
        deadline = time.monotonic() + 60
        while entries_on_disk(data) < 40 and time.monotonic() < deadline:
            time.sleep(0.02)
        server.send_signal(signal.SIGKILL)
        server.wait(10)
        (path,) = data.glob("*.jsonl")
        at_kill = path.read_bytes()
        acknowledged = [read_view_log(log) for log in logs]  # what the seats were sent
        assert 40 <= at_kill.count(b"\n") - 1 < 200
        server = serve_process(port, data)
        for client in clients:
            code, output = finish(client)
            assert code == 0, output
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(10)
    log = read_log(path)
    assert log.finished and verify(log).ok
    # every line on disk at the kill is still there, and every entry a seat was told of
    assert path.read_bytes().startswith(at_kill)
    assert all(len(view.entries) <= at_kill.count(b"\n") - 1 for view in acknowledged)


# --- what no client should send --------------------------------------------------------


def two_seats(
    port: int, links: dict[str, Any] | None = None
) -> tuple[ClientConnection, ClientConnection]:
    links = links or create(port, {"game": "tiles-d6"})
    first, second = ws(links["seats"][0]), ws(links["seats"][1])
    assert joined(first, fresh_contribution())["waiting"] == [2]
    started = joined(second, fresh_contribution())
    assert started["waiting"] == [] and started["seat"] == 2
    assert receive(first)["waiting"] == []  # told the match has begun
    return first, second


def first_command(seat: int) -> dict[str, Any]:
    return {"kind": "roll_off", "player": seat, "dice": None}


def never_reads(link: str, join: dict[str, Any]) -> ClientConnection:
    """A connection that joins, then never reads: a small receive buffer, one message queued
    at most, no compression, so that what the referee sends it soon waits."""
    port = int(link.split(":")[2].split("/")[0])
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect(("127.0.0.1", port))
    url = link.replace("http://", "ws://").replace("/join/", "/ws/")
    stuck = connect(url, sock=sock, max_queue=1, compression=None, open_timeout=5, legacy=True)
    stuck.send(json.dumps({"type": "join", **join}))
    return stuck


def test_a_client_that_never_reads_delays_no_other_seat_s_acknowledgement(
    referee: InProcess,
) -> None:
    links = create(referee.port, {"game": "tiles-d6"})
    (match,) = referee.referee
    # a page (sent the board after every command) on the spectators' link, that never reads
    with never_reads(links["spectator"], {"page": True}):
        first, second = two_seats(referee.port, links)
        with first, second:
            seats = {1: first, 2: second}
            slowest = 0.0
            for _ in range(150):
                if match.finished:
                    break
                acting = match.to_act()[0]
                command = next(iter(match.ruleset.legal_commands(match.state, acting)))
                started = time.monotonic()
                seats[acting].send(
                    json.dumps({"type": "command", "command": msgspec.to_builtins(command)})
                )
                for connection in seats.values():  # each seat hears of it, in order
                    assert until_lines(connection)["first"] == len(match.entries)
                slowest = max(slowest, time.monotonic() - started)
            assert len(match.entries) >= 60
            assert slowest < 1.0  # not SEND_TIMEOUT: nobody waited for the page that never reads


def until_lines(connection: ClientConnection) -> dict[str, Any]:
    """The next ``lines`` message (a join sends a ``sync`` to everyone)."""
    for _ in range(5):
        message = receive(connection)
        if message["type"] == "lines":
            return message
    raise AssertionError("no lines message")


def test_a_client_cannot_act_for_another_seat(referee: InProcess) -> None:
    first, second = two_seats(referee.port)
    with first, second:
        ruleset = load_ruleset("tiles-d6")
        state = ruleset.initial_state(ruleset.settings_type(), None)
        assert ruleset.to_act(state) == (1,)
        (theirs,) = ruleset.legal_commands(state, 1)
        second.send(json.dumps({"type": "command", "command": msgspec.to_builtins(theirs)}))
        error = receive(second)
        assert error == {"type": "error", "message": "you play seat 2; this command is seat 1's"}
        assert nothing_for(first)
        first.send(json.dumps({"type": "command", "command": msgspec.to_builtins(theirs)}))
        assert receive(first)["type"] == "lines"
        assert receive(second)["type"] == "lines"


def assert_the_match_goes_on(first: ClientConnection, second: ClientConnection) -> None:
    """Seat 1 gives the first command of a tiles-d6 match (its roll-off): both seats hear it."""
    ruleset = load_ruleset("tiles-d6")
    state = ruleset.initial_state(ruleset.settings_type(), None)
    (mine,) = ruleset.legal_commands(state, 1)
    first.send(json.dumps({"type": "command", "command": msgspec.to_builtins(mine)}))
    assert receive(first)["type"] == "lines"
    assert receive(second)["type"] == "lines"


@pytest.mark.parametrize(
    ("sent", "error"),
    [
        ("{not json", "not a message: JSON is malformed"),
        ("x" * (100 * 1024), "a message of 102400 bytes: at most 16384"),
        ('{"type":"command","command":{"kind":"end_turn","player":1}}', "not a legal command"),
        ('{"type":"command","command":{"kind":"fly","player":1}}', "not a command of tiles-d6"),
        ('{"type":"join","contribution":""}', "this connection has joined already"),
        ('{"type":"shout"}', "not a message"),
        ('{"type":"command","command":' + "[" * 5000 + "]" * 5000 + "}", "nested more than 32"),
        ("\u0000", "not a message: JSON is malformed"),
    ],
)
def test_a_bad_message_gets_one_line_of_error_for_its_sender_only_and_the_match_goes_on(
    referee: InProcess, sent: str, error: str
) -> None:
    first, second = two_seats(referee.port)
    with first, second:
        first.send(sent)
        answer = receive(first)
        assert answer["type"] == "error" and error in answer["message"]
        assert "\n" not in answer["message"]
        assert nothing_for(second)
        assert_the_match_goes_on(first, second)


def test_a_frame_above_the_bound_closes_only_that_connection(referee: InProcess) -> None:
    links = create(referee.port, {"game": "tiles-d6"})
    first, second = two_seats(referee.port, links)
    with first, second:
        first.send("x" * (MAX_FRAME_BYTES + 1))
        with pytest.raises(ConnectionClosed):
            receive(first)
        with ws(links["seats"][0]) as again:  # the seat joins again and plays on
            assert joined(again)["seat"] == 1
            assert receive(second)["type"] == "sync"  # everyone hears who is here
            ruleset = load_ruleset("tiles-d6")
            state = ruleset.initial_state(ruleset.settings_type(), None)
            (mine,) = ruleset.legal_commands(state, 1)
            again.send(json.dumps({"type": "command", "command": msgspec.to_builtins(mine)}))
            assert receive(again)["type"] == "lines"


def test_commands_before_every_seat_joined_are_refused(referee: InProcess) -> None:
    links = create(referee.port, {"game": "tiles-d6"})
    with ws(links["seats"][0]) as first:
        sync = joined(first, fresh_contribution())
        assert sync["waiting"] == [2] and sync["viewer"] == "seat-1"
        first.send(json.dumps({"type": "command", "command": first_command(1)}))
        assert receive(first)["message"] == "the match has not begun: it waits for seat 2 to join"


def test_a_seat_joins_only_with_a_contribution_and_keeps_the_one_recorded(
    referee: InProcess,
) -> None:
    links = create(referee.port, {"game": "tiles-d6"})
    mine = fresh_contribution()
    with ws(links["seats"][0]) as first:
        first.send(json.dumps({"type": "join", "contribution": "00"}))
        assert "64 lower-case hex digits" in receive(first)["message"]
        assert joined(first, mine)["contribution"] == mine
    with ws(links["seats"][0]) as again:
        assert joined(again, fresh_contribution())["contribution"] == mine
    (chance_file,) = (referee.referee.data).glob("*.chance")
    assert mine in chance_file.read_text()


def test_a_spectator_cannot_act_and_connections_to_a_match_are_bounded(
    referee: InProcess,
) -> None:
    links = create(referee.port, {"game": "tiles-d6"})
    opened = [ws(links["spectator"]) for _ in range(MAX_CONNECTIONS)]
    try:
        sync = joined(opened[0])
        assert sync["seat"] is None and sync["viewer"] == "spectator"
        opened[0].send(json.dumps({"type": "command", "command": first_command(1)}))
        assert receive(opened[0])["message"] == "a spectator gives no commands"
        with (
            pytest.raises(ConnectionClosed, match=r"1013.*too many connections"),
            ws(links["spectator"]) as extra,
        ):
            extra.recv(5)
    finally:
        for connection in opened:
            connection.close()


def test_an_unknown_link_is_refused(referee: InProcess) -> None:
    with (
        pytest.raises(ConnectionClosed, match=r"1008.*no match has this link"),
        ws(f"http://127.0.0.1:{referee.port}/join/{'A' * 22}") as connection,
    ):
        connection.recv(5)


@pytest.mark.parametrize(
    ("body", "error"),
    [
        ({"game": "chess"}, "unknown game 'chess'"),
        ({"game": "tiles-d6", "seed": 7}, "the referee sets seed itself"),
        ({"game": "tiles-d6", "players": ["only one"]}, "players"),
        ([1, 2], 'naming its "game"'),
    ],
)
def test_post_matches_refuses_what_cannot_start_a_match_in_one_line(
    referee: InProcess, body: Any, error: str
) -> None:
    with pytest.raises(urllib.error.HTTPError) as refused:
        create(referee.port, body)
    assert refused.value.code == 400
    message = json.loads(refused.value.read())["error"]
    assert error in message and "\n" not in message


def test_the_start_page_offers_every_game(referee: InProcess) -> None:
    with urllib.request.urlopen(f"http://127.0.0.1:{referee.port}/", timeout=5) as page:
        text = page.read().decode()
    assert '<form method="post" action="/matches">' in text
    assert all(f'value="{game}"' in text for game in ("multiversus", "tiles-d6", "sealed-bids"))


# --- the commands' mistakes, one line each ----------------------------------------------


def test_serve_on_an_address_in_use_or_with_an_unknown_game_exits_2_in_one_line(
    tmp_path: Path, referee: InProcess
) -> None:
    busy = subprocess.run(
        [*SERVE, "--port", str(referee.port), "--data", str(tmp_path / "other")],
        env=ENV,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert busy.returncode == 2
    assert busy.stderr.strip().splitlines() == [
        f"multiversus serve: cannot listen on http://127.0.0.1:{referee.port}: "
        "Address already in use"
    ]
    assert not (tmp_path / "other").exists()
    unknown = subprocess.run(
        [*SERVE, "--port", str(free_port()), "--data", str(tmp_path / "d"), "--new", "chess"],
        env=ENV,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert unknown.returncode == 2 and unknown.stdout == ""
    (line,) = unknown.stderr.strip().splitlines()
    assert line.startswith("multiversus serve: unknown game 'chess'")


@pytest.mark.parametrize(
    ("link", "said"),
    [
        ("http://127.0.0.1:1/play/x", "not a join link"),
        ("http://127.0.0.1:{port}/join/" + "A" * 22, "the referee refused the link"),
    ],
)
def test_join_with_a_bad_link_exits_2_in_one_line(
    tmp_path: Path, referee: InProcess, link: str, said: str
) -> None:
    ran = subprocess.run(
        [*JOIN, link.format(port=referee.port), "--player", "random", "--log", str(tmp_path / "v")],
        env=ENV,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert ran.returncode == 2
    (line,) = ran.stderr.strip().splitlines()
    assert line.startswith("multiversus join: ") and said in line


def test_a_connection_s_messages_are_bounded_in_rate() -> None:
    bucket = Bucket(rate=100, burst=100)
    assert [bucket.take(0.0) for _ in range(100)] == [0.0] * 100  # a burst is read at once
    assert bucket.take(0.0) == pytest.approx(0.01)  # then one a hundredth of a second
    assert bucket.take(0.0) == pytest.approx(0.02)
    assert bucket.take(10.0) == 0.0  # the bucket fills again, up to the burst
    assert bucket.tokens == pytest.approx(99)
