"""``multiversus serve``: a referee for matches of any installed game, over a network.

Needs the optional extra ``serve`` (``pip install 'multiversus[serve]'``).
The referee keeps every match log in ``--data`` and resumes them all when it
starts again; ``--new GAME`` creates a match first and prints its links as
one line of JSON, for scripts. ``docs/serve.md`` describes the protocol.
"""

from __future__ import annotations

import json
import logging
import socket
import sys
from pathlib import Path
from typing import Annotated, Any, Final, NoReturn

import typer

from multiversus_cli.play_any import one_line
from multiversus_core.engine.errors import LogError

EXIT_USAGE: Final = 2
SHUTDOWN_SECONDS: Final = 5
"""How long the referee waits for its connections to close when it is stopped."""
EPILOG: Final = (
    "Example: multiversus serve --port 8765 --data matches --new tiles-d6, then give each "
    "player their link, to open in a browser or play with multiversus join LINK."
)


def serve(
    host: Annotated[
        str, typer.Option(help="The address to listen on; 0.0.0.0 opens it to the network.")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="The port to listen on.", min=1, max=65535)] = 8765,
    data: Annotated[
        Path, typer.Option(help="The folder that keeps every match log (made if missing).")
    ] = Path("matches"),
    new: Annotated[
        list[str] | None,
        typer.Option(
            "--new",
            metavar="GAME",
            help="Create a match of GAME first and print its links as one line of JSON "
            '({"seats": [...], "spectator": ...}); may be given several times.',
        ),
    ] = None,
) -> None:
    """Run a referee for matches of any installed game, played over a network.

    Each match has a secret link a seat and one for spectators; POST /matches
    with {"game": ID} creates one, and the start page has a form. Every match
    log is kept in --data, synced entry by entry, and every match resumes when
    the referee starts again on the same folder.
    """
    try:
        import uvicorn  # the serve extra: only this command needs it

        from multiversus_server.app import create_app
        from multiversus_server.protocol import MAX_FRAME_BYTES
        from multiversus_server.referee import MatchError, Referee
    except ImportError as error:
        _fail(f"serve needs the serve extra (pip install 'multiversus[serve]'): {error}")
    base = f"http://{host}:{port}"
    try:
        listening = _listen(host, port)
    except OSError as error:
        _fail(f"cannot listen on {base}: {error.strerror or error}")
    try:
        referee = Referee(data)
        for problem in referee.resume_all():
            print(f"multiversus serve: {problem}", file=sys.stderr)
        for game in new or ():
            _, tokens, spectator = referee.create({"game": game})
            links = {
                "seats": [f"{base}/join/{token}" for token in tokens],
                "spectator": f"{base}/join/{spectator}",
            }
            print(json.dumps(links), flush=True)
    except (MatchError, LogError) as error:
        _fail(one_line(error))
    print(f"multiversus serve: refereeing on {base} (matches in {data})", file=sys.stderr)
    config = uvicorn.Config(
        create_app(referee, explain),
        host=host,
        port=port,
        log_level="warning",
        ws_max_size=MAX_FRAME_BYTES,
        ws="websockets-sansio",
        lifespan="on",
        # a client that stopped reading keeps its connection from closing: do not wait on it
        timeout_graceful_shutdown=SHUTDOWN_SECONDS,
    )
    logging.getLogger("uvicorn.error").addFilter(OneLine())
    uvicorn.Server(config).run(sockets=[listening])


class OneLine(logging.Filter):
    """Log a client's text frame that is not UTF-8 in one line, without a traceback: the
    connection is closed (1007), the referee is not at fault, and a client must not be able
    to fill the referee's output with tracebacks."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and isinstance(record.exc_info[1], UnicodeDecodeError):
            record.exc_info, record.exc_text = None, None
        return True


def _listen(host: str, port: int) -> socket.socket:
    """A socket bound to the address, so that an address in use is told in one line."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    listening = socket.socket(family, socket.SOCK_STREAM)
    try:
        listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listening.bind((host, port))
    except OSError:
        listening.close()
        raise
    return listening


def explain(
    game: str, state: Any, seat: int, legal: Any, chosen: tuple[str, ...]
) -> tuple[str, ...]:
    """What ``?`` says at the terminal of a seat's decision, for the browser client: the
    game's presenter's words (:meth:`~multiversus_cli.presenters.Presenter.explain`)."""
    from multiversus_cli.presenters import presenter_for

    return presenter_for(game).explain(state, seat, legal, chosen)


def _fail(message: str) -> NoReturn:
    print(f"multiversus serve: {message}", file=sys.stderr)
    raise typer.Exit(EXIT_USAGE)


__all__ = ["serve"]
