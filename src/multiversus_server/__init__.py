"""``multiversus serve``: a referee for matches of any installed game, played over a network.

The server holds no rule of its own: it calls the same engine as everything
else, through each game's ruleset. It keeps every match log on disk in the
log format (``docs/log-format.md``), appending and syncing each entry before
it tells anyone, resumes every match from its log after a restart, sends each
seat only its view log (``engine/viewlog.py``), and publishes the match log
once the match is over, so that each player can check the referee
(``docs/serve.md``).

- :mod:`.protocol`: the messages on the wire, and the bounds;
- :mod:`.referee`: the matches, their logs, their seats and their chance;
- :mod:`.app`: the Starlette application (HTTP and WebSocket routes);
- :mod:`.client`: a seat's client, which keeps its own view log and cross-checks.

Needs the optional extra ``serve`` (Starlette, uvicorn, websockets).
"""
