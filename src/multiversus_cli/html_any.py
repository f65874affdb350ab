"""Any game's match as one self-contained HTML page, as one viewer knew it.

The page lists every entry in the game's own words (:mod:`multiversus_cli.transcript`:
each command and event redacted for the viewer, told by the ruleset) and,
beside the entry it is at, the viewer's view after it, as the ruleset gives
it. Everything is drawn here, in Python; the page's script only shows one
stored position at a time (buttons, a slider, the arrow keys, and
``#entry-N`` in the address).
"""

from __future__ import annotations

import json
from html import escape
from typing import Final

from multiversus_cli import transcript
from multiversus_core.engine.log import MatchLog
from multiversus_core.engine.registry import AnyRuleset

_STYLE: Final = """
body { font-family: system-ui, sans-serif; margin: 1.5em; color: #222; }
h1 { font-size: 1.3em; margin: 0 0 .3em 0; }
nav { margin: .8em 0; display: flex; gap: .6em; align-items: center; flex-wrap: wrap; }
main { display: flex; gap: 1.5em; align-items: flex-start; flex-wrap: wrap; }
ol { flex: 1 1 20em; min-width: 0; max-height: 75vh; overflow: auto; margin: 0;
  padding-left: 2.5em; overflow-wrap: anywhere; }
li { margin: .2em 0; padding: .15em .4em; border-radius: .3em; }
li.now { background: #fde68a; }
li.later { color: #999; }
li ul { margin: .1em 0 .3em 0; padding-left: 1.2em; list-style: none; }
pre { flex: 1 1 20em; min-width: 0; background: #f4f4f5; padding: .8em; overflow: auto;
  max-height: 75vh; }
"""

_SCRIPT: Final = """
const views = JSON.parse(document.getElementById('views').textContent);
const slider = document.getElementById('at');
function show(k) {
  k = Math.max(0, Math.min(views.length - 1, k));
  slider.value = k;
  document.getElementById('where').textContent = k === 0 ? 'before the first entry'
    : 'after entry ' + k + ' of ' + (views.length - 1);
  document.getElementById('view').textContent = views[k];
  document.querySelectorAll('li.entry').forEach((li, i) => {
    li.className = 'entry' + (i + 1 === k ? ' now' : i + 1 > k ? ' later' : '');
  });
  history.replaceState(null, '', '#entry-' + k);
}
document.getElementById('back').onclick = () => show(+slider.value - 1);
document.getElementById('next').onclick = () => show(+slider.value + 1);
slider.oninput = () => show(+slider.value);
document.addEventListener('keydown', (e) => {
  if (e.key === 'ArrowLeft') show(+slider.value - 1);
  if (e.key === 'ArrowRight') show(+slider.value + 1);
});
const asked = /^#entry-(\\d+)$/.exec(location.hash);
show(asked ? +asked[1] : views.length - 1);
"""


def page_html(ruleset: AnyRuleset, log: MatchLog, viewer: str, to: int) -> str:
    """The page of the first ``to`` entries of ``log`` as ``viewer`` knew them."""
    views = [transcript.shown_state(ruleset, transcript.start(ruleset, log), viewer).decode()]
    items = []
    for told in transcript.told(ruleset, log, viewer, to):
        if not isinstance(told, transcript.Told):
            continue
        events = "".join(f"<li>{escape(line)}</li>" for line in told.events)
        items.append(
            f'<li class="entry" id="entry-{told.number}">{escape(told.command)}'
            f"<ul>{events}</ul></li>"
        )
    state = transcript.start(ruleset, log)
    for entry in log.entries[:to]:
        state = ruleset.fold(state, entry.events)
        views.append(transcript.shown_state(ruleset, state, viewer).decode())
    names = ", ".join(ruleset.table(log.header.settings).players)
    result = ruleset.outcome(state)
    ending = "" if result is None else f"<p><b>{escape(result.reason)}</b></p>"
    title = f"{ruleset.title}: {names}, as the {viewer} knew it"
    stored = json.dumps(views).replace("</", "<\\/")
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(title)}</title>"
        f"<style>{_STYLE}</style></head><body>"
        f"<h1>{escape(title)}</h1>{ending}"
        '<nav><button id="back">&larr; back</button>'
        f'<input id="at" type="range" min="0" max="{len(views) - 1}" value="{len(views) - 1}">'
        '<button id="next">next &rarr;</button><span id="where"></span></nav>'
        f'<main><ol>{"".join(items)}</ol><pre id="view"></pre></main>'
        f'<script id="views" type="application/json">{stored}</script>'
        f"<script>{_SCRIPT}</script></body></html>\n"
    )
