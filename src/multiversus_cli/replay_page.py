"""A replay page: one self-contained HTML document that steps through a match, any game's.

A page is a :class:`Page`: the match's positions as frames (before the first
entry, then after each), every entry told in words beside them. A frame is
the board's SVG parts and the panels' HTML parts, as numbers into one pool
that stores each distinct part once (a board's tiles, a figure that did not
move), so a long match stays small. Everything is drawn in Python, as text;
the page's script only puts stored parts together and steps: buttons, a
slider, play and pause, the arrow keys, Home and End, a click on an entry,
jumps by round and by turn for a game played in rounds and turns, and
``#entry-N`` in the address, kept up to date as it steps so that a link
can be shared. It opens on the entry the address names, or else on the
first position whose board is laid out (:func:`opening`). Nothing is
fetched, and the board scales down to a narrow window.

A game writes its page with :func:`page_html` and its own CSS for what its
panels and board hold (Multiversus: :mod:`multiversus_cli.html`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from html import escape
from typing import Final

import msgspec

from multiversus_core.engine.ruleset import REFEREE


class Frame(msgspec.Struct, frozen=True, gc=False):
    """One position of the replay: the state after entry ``k`` as the viewer knew it."""

    svg: tuple[int, ...]
    """The board's parts, as numbers into the page's part pool."""
    panels: tuple[int, ...]
    """The panels beside the board (where the match stands, the pieces, the score), as numbers
    into the pool."""


class Page(msgspec.Struct, frozen=True, gc=False):
    """Everything a replay page shows, before it is written out as HTML."""

    title: str
    viewer: str
    pool: tuple[str, ...]
    """Each distinct SVG or HTML part once."""
    frames: tuple[Frame, ...]
    """Position 0 (before the first entry) to the last entry."""
    entries: tuple[tuple[str, tuple[str, ...]], ...]
    """Each entry's heading and narrated events, in the terminal replay's words."""
    opening: int = 0
    """The position the page opens at when its address names none (:func:`opening`)."""
    progress: tuple[tuple[int, int], ...] = ()
    """The round and the turn in it at each position, to jump by them; empty for a game that
    is not played in rounds and turns."""

    def board_svg(self, k: int) -> str:
        """Return the board after entry ``k`` (0: before the first) as one SVG document."""
        return "".join(self.pool[i] for i in self.frames[k].svg)


class Pool:
    """The parts of a page being built, each distinct part once."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.index: dict[str, int] = {}

    def add(self, part: str) -> int:
        """Return the number of ``part``, storing it if it is new."""
        number = self.index.get(part)
        if number is None:
            number = self.index[part] = len(self.parts)
            self.parts.append(part)
        return number

    def frame(self, svg: list[str] | tuple[str, ...], panels: list[str] | tuple[str, ...]) -> Frame:
        """Return the frame of these board parts and panels, storing each part."""
        return Frame(tuple(self.add(p) for p in svg), tuple(self.add(p) for p in panels))


Told = tuple[str, tuple[str, ...]]
"""An entry told: its head line, then a line per event worth telling."""

Progress = Callable[[int], tuple[int, int] | None]
"""The round and the turn in it at a position (as a presenter's ``progress`` gives them),
None for a game not played in rounds and turns."""


def opening(to: int, laid_out: Callable[[int], bool], progress: Progress) -> int:
    """The position a page of ``to`` entries opens at: the first whose board is laid out (every
    piece on it, as ``laid_out`` says) or at which the first round has begun; 0 if none is."""
    for k in range(to + 1):
        where = progress(k)
        if laid_out(k) or (where is not None and where[0] >= 1):
            return k
    return 0


def stepped_page(
    title: str,
    viewer: str,
    to: int,
    tell: Callable[[int], Told],
    frame: Callable[[Pool, int, Told], Frame],
    style: str = "",
    *,
    laid_out: Callable[[int], bool] = lambda k: False,
    progress: Progress = lambda k: None,
) -> str:
    """The page of a match's first ``to`` entries: each told by ``tell`` (from 1), each
    position drawn by ``frame`` (0: before the first entry, told as such), as
    :func:`page_html` writes it; it opens at :func:`opening` of ``laid_out`` and ``progress``,
    and jumps by the rounds and turns ``progress`` gives."""
    pool = Pool()
    frames = [frame(pool, 0, ("Before the first entry", ()))]
    told: list[Told] = []
    for number in range(1, to + 1):
        told.append(tell(number))
        frames.append(frame(pool, number, told[-1]))
    stages = [progress(k) for k in range(to + 1)]
    known = tuple(s for s in stages if s is not None)
    start = opening(to, laid_out, stages.__getitem__)
    shown = known if len(known) == len(stages) else ()
    page = Page(title, viewer, tuple(pool.parts), tuple(frames), tuple(told), start, shown)
    return page_html(page, style)


def panel_style(css: str) -> str:
    """The CSS of the panels a board game's page shows, its classes prefixed ``css``: the
    seats' names in their colours, the roster table and the entry told."""
    return f""".{css}-seat-1{{color:#1d4ed8;font-weight:bold}}
.{css}-seat-2{{color:#b91c1c;font-weight:bold}}
table.{css}-roster{{border-collapse:collapse;font-size:13px;margin:6px 0}}
table.{css}-roster caption{{text-align:left;font-size:13px;padding:2px 0}}
table.{css}-roster th,table.{css}-roster td{{border:1px solid #cbd5e1;padding:2px 6px;
text-align:left}}
.{css}-entry{{background:#fff;border:1px solid #cbd5e1;padding:2px 8px;font-size:14px}}
.{css}-entry ul{{margin:2px 0 4px;padding-left:18px}}"""


def seat_html(css: str, players: Sequence[str], seat: int) -> str:
    """A seat's player by name, in the seat's colour (:func:`panel_style`)."""
    return f'<span class="{css}-seat-{seat}">{escape(players[seat - 1])}</span>'


def result_html(css: str, players: Sequence[str], winner: int | None, reason: str) -> str:
    """The result of a match, as a panel's paragraph: who won (or a draw), and why."""
    won = "a draw" if winner is None else f"{seat_html(css, players, winner)} wins"
    return f'<p class="{css}-result"><b>Result</b>: {won} ({escape(reason)}).</p>'


def roster_head(css: str, what: str, players: Sequence[str], headers: Sequence[str]) -> str:
    """The head of a roster table of ``what`` ("Units"), seat 1's first: its caption naming
    the seats' players, and its column headers."""
    seats = ", then ".join(seat_html(css, players, seat) for seat in range(1, len(players) + 1))
    heads = "".join(f"<th>{escape(h)}</th>" for h in headers)
    caption = f"{escape(what)} (seat 1 first: {seats})"
    return f'<table class="{css}-roster"><caption>{caption}</caption><tr>{heads}</tr>'


def roster_row(css: str, data: str, ident: str, seat: int, label: str, cells: Sequence[str]) -> str:
    """A row of a roster table: the piece's label in its seat's colour, then ``cells`` (HTML
    already); the row names the piece by ``data-{data}``."""
    told = "".join(f"<td>{cell}</td>" for cell in cells)
    return (
        f'<tr data-{data}="{escape(ident)}"><td class="{css}-seat-{seat}">{escape(label)}</td>'
        f"{told}</tr>"
    )


def viewer_words(players: Sequence[str], viewer: str) -> str:
    """Whom a page shows the match as: "the referee", "the public (spectator)", or a seat's
    player ("Ann (seat 1)") for a viewer named ``seat-N``."""
    if viewer == REFEREE:
        return "the referee"
    if viewer == "spectator":
        return "the public (spectator)"
    seat = viewer.rpartition("-")[2]
    if seat.isdigit() and 1 <= int(seat) <= len(players):
        return f"{players[int(seat) - 1]} (seat {seat})"
    return viewer


def entry_html(head: str, lines: Sequence[str], css: str) -> str:
    """An entry told, for a panel: its head line, then a line per event worth telling, in a
    ``<div>`` of class ``css``."""
    told = "".join(f"<li>{escape(line)}</li>" for line in lines)
    return f'<div class="{css}"><p><b>{escape(head)}</b></p><ul>{told}</ul></div>'


def page_html(page: Page, style: str = "") -> str:
    """Return the page as one self-contained HTML document: nothing is fetched.

    ``style`` is the game's own CSS, for what its panels and board hold.
    """
    data = msgspec.json.encode(
        {
            "pool": page.pool,
            "frames": [[f.svg, f.panels] for f in page.frames],
            "opening": page.opening,
            "progress": page.progress or None,
        }
    ).replace(b"<", b"\\u003c")  # no "</script>" can close the data early
    items = ['<li data-k="0" class="mv-entry"><b>0. Before the first entry</b></li>']
    for k, (head, lines) in enumerate(page.entries, start=1):
        told = "".join(f"<li>{escape(line)}</li>" for line in lines)
        items.append(
            f'<li data-k="{k}" class="mv-entry"><b>{escape(head)}</b>'
            + (f"<ul>{told}</ul>" if told else "")
            + "</li>"
        )
    count = len(page.entries)
    return _TEMPLATE.format(
        title=escape(page.title),
        count=count,
        opening=page.opening,
        rounds=_rounds(page.progress),
        style=_LAYOUT + style + _LIST,
        script=_SCRIPT,
        data=data.decode(),
        entries="".join(items),
    )


def _rounds(progress: Sequence[tuple[int, int]]) -> str:
    """The controls that jump by round and by turn, for a game played in them."""
    if not progress:
        return ""
    first, last = min(r for r, _ in progress), max(r for r, _ in progress)
    return f"""<div id="mv-rounds">
<button id="mv-prev-round" type="button" title="Previous round (Shift+R)">&#xAB; Round</button>
<button id="mv-prev-turn" type="button" title="Previous turn (Shift+T)">&#x2039; Turn</button>
<button id="mv-next-turn" type="button" title="Next turn (T)">Turn &#x203A;</button>
<button id="mv-next-round" type="button" title="Next round (R)">Round &#xBB;</button>
<form id="mv-round-form"><label for="mv-round">Round</label>
<input id="mv-round" type="number" min="{first}" max="{last}" required>
<button id="mv-go-round" type="submit">Go</button></form>
<span id="mv-where" role="status"></span>
</div>"""


_LAYOUT: Final = """
:root{font-family:system-ui,sans-serif;color:#1f2937;background:#f8fafc}
body{margin:0;padding:12px}
h1{font-size:18px;margin:0 0 8px;overflow-wrap:anywhere}
#mv-main{display:flex;gap:16px;align-items:flex-start;flex-wrap:wrap}
#mv-left{flex:0 1 auto;max-width:min(560px,100%);min-width:0}
#mv-right{flex:1 1 400px;min-width:min(320px,100%);max-width:820px}
#mv-controls,#mv-rounds{display:flex;gap:4px;align-items:center;margin:6px 0;flex-wrap:wrap}
#mv-controls button,#mv-rounds button{font-size:14px;padding:3px 9px;cursor:pointer}
#mv-slider{flex:1 1 200px;min-width:0}
#mv-position,#mv-where{font-variant-numeric:tabular-nums;min-width:9em}
#mv-round-form{display:flex;gap:4px;align-items:center;margin:0}
#mv-round{width:4em}
"""
"""The page's layout and step controls: before the game's own CSS. Nothing may be wider than
the window: the board scales down, the controls wrap."""

_LIST: Final = """
#mv-panels{overflow-x:auto}
#mv-panels p{margin:4px 0;font-size:14px}
#mv-entries{list-style:none;padding:0;margin:0;max-height:60vh;overflow:auto;font-size:13px;
border:1px solid #cbd5e1;background:#fff;overflow-wrap:anywhere}
#mv-entries>li{padding:3px 6px;border-bottom:1px solid #eef2f7;cursor:pointer}
#mv-entries>li:hover{background:#f1f5f9}
#mv-entries>li.mv-current{background:#fef3c7}
#mv-entries ul{margin:2px 0 0 0;padding-left:18px}
#mv-board svg,.mv-board{display:block;max-width:100%;height:auto}
.mv-change{pointer-events:none}
"""
"""The panels, the list of entries and the board: after the game's own CSS."""

_SCRIPT: Final = """
(function(){
"use strict";
const data=JSON.parse(document.getElementById("mv-data").textContent);
const pool=data.pool, frames=data.frames, last=frames.length-1, stages=data.progress;
const board=document.getElementById("mv-board"), panels=document.getElementById("mv-panels");
const slider=document.getElementById("mv-slider"), position=document.getElementById("mv-position");
const list=document.getElementById("mv-entries"), play=document.getElementById("mv-play");
const items=list.querySelectorAll("li.mv-entry"), where=document.getElementById("mv-where");
const round=document.getElementById("mv-round");
let k=0, timer=null;
function join(parts){let s="";for(const i of parts){s+=pool[i];}return s;}
function stage(n){
  const [r,t]=stages[n];
  if(r===0){return "Set-up, before round 1";}
  return "Round "+r+(t>0?", turn "+t:"");
}
function show(n){
  k=Math.max(0,Math.min(last,n));
  board.innerHTML=join(frames[k][0]);
  panels.innerHTML=join(frames[k][1]);
  slider.value=String(k);
  position.textContent="Entry "+k+" of "+last;
  if(stages){where.textContent=stage(k);}
  const old=list.querySelector("li.mv-current");
  if(old){old.classList.remove("mv-current");}
  const item=items[k];
  item.classList.add("mv-current");
  const top=item.offsetTop-list.offsetTop, bottom=top+item.offsetHeight;
  if(top<list.scrollTop||bottom>list.scrollTop+list.clientHeight){
    list.scrollTop=Math.max(0,top-list.clientHeight/3);
  }
  document.body.dataset.entry=String(k);
  if(location.hash!=="#entry-"+k){history.replaceState(null,"","#entry-"+k);}
}
function stop(){if(timer!==null){clearInterval(timer);timer=null;}play.textContent="Play";}
function start(){
  if(k>=last){show(0);}
  play.textContent="Pause";
  timer=setInterval(function(){if(k>=last){stop();}else{show(k+1);}},700);
}
function toggle(){if(timer===null){start();}else{stop();}}
// As the terminal replay steps: a round begins where the round changes; the next turn is
// the first later position in a turn that is not this one.
function same(a,b){return stages[a][0]===stages[b][0]&&stages[a][1]===stages[b][1];}
function roundBegins(n){return n===0||stages[n][0]!==stages[n-1][0];}
function turnBegins(n){return stages[n][1]>0&&(n===0||!same(n,n-1));}
function nextTurn(n){return stages[n][1]>0&&!same(n,k);}
function after(test){for(let n=k+1;n<=last;n++){if(test(n)){return n;}}return null;}
function before(test){for(let n=k-1;n>=0;n--){if(test(n)){return n;}}return null;}
function jump(n){stop();if(n!==null){show(n);}}
function toRound(r){
  for(let n=0;n<=last;n++){if(stages[n][0]===r){jump(n);return;}}
  where.textContent="There is no round "+r+" here: "+round.min+" to "+round.max+".";
}
function on(id,act){document.getElementById(id).addEventListener("click",act);}
on("mv-first",function(){jump(0);});
on("mv-prev",function(){jump(k-1);});
on("mv-next",function(){jump(k+1);});
on("mv-last",function(){jump(last);});
play.addEventListener("click",toggle);
if(stages){
  on("mv-prev-round",function(){jump(before(roundBegins));});
  on("mv-next-round",function(){jump(after(roundBegins));});
  on("mv-prev-turn",function(){jump(before(turnBegins));});
  on("mv-next-turn",function(){jump(after(nextTurn));});
  document.getElementById("mv-round-form").addEventListener("submit",function(e){
    e.preventDefault();toRound(Number(round.value));
  });
}
slider.addEventListener("input",function(){stop();show(Number(slider.value));});
list.addEventListener("click",function(e){
  const item=e.target.closest("li.mv-entry");
  if(item){stop();show(Number(item.dataset.k));}
});
document.addEventListener("keydown",function(e){
  if(e.target===slider&&e.key.startsWith("Arrow")){return;}
  if(e.target===round||e.altKey||e.ctrlKey||e.metaKey){return;}
  let to;
  if(e.key==="ArrowRight"||e.key==="ArrowDown"){to=k+1;}
  else if(e.key==="ArrowLeft"||e.key==="ArrowUp"){to=k-1;}
  else if(e.key==="Home"){to=0;}
  else if(e.key==="End"){to=last;}
  else if(stages&&e.key==="t"){to=after(nextTurn);}
  else if(stages&&e.key==="T"){to=before(turnBegins);}
  else if(stages&&e.key==="r"){to=after(roundBegins);}
  else if(stages&&e.key==="R"){to=before(roundBegins);}
  else if(e.key===" "&&e.target.tagName!=="BUTTON"){e.preventDefault();toggle();return;}
  else{return;}
  e.preventDefault();jump(to);
});
function wanted(){const m=/^#entry-(\\d+)$/.exec(location.hash);return m?Number(m[1]):null;}
window.addEventListener("hashchange",function(){stop();show(wanted()??data.opening);});
show(wanted()??data.opening);
performance.mark("mv-first-frame");
})();
"""

_TEMPLATE: Final = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>{style}</style>
</head>
<body data-entry="{opening}">
<h1>{title}</h1>
<div id="mv-main">
<div id="mv-left">
<div id="mv-controls">
<button id="mv-first" type="button" title="First (Home)">&#xAB; First</button>
<button id="mv-prev" type="button" title="Previous (Left arrow)">&#x2039; Prev</button>
<button id="mv-play" type="button" title="Play or pause (Space)">Play</button>
<button id="mv-next" type="button" title="Next (Right arrow)">Next &#x203A;</button>
<button id="mv-last" type="button" title="Last (End)">Last &#xBB;</button>
<input id="mv-slider" type="range" min="0" max="{count}" value="{opening}" aria-label="Entry">
<span id="mv-position">Entry {opening} of {count}</span>
</div>
{rounds}
<div id="mv-board"></div>
</div>
<div id="mv-right">
<div id="mv-panels"></div>
<ol id="mv-entries">{entries}</ol>
</div>
</div>
<script type="application/json" id="mv-data">{data}</script>
<script>{script}</script>
</body>
</html>
"""


__all__ = [
    "Frame",
    "Page",
    "Pool",
    "Progress",
    "Told",
    "entry_html",
    "opening",
    "page_html",
    "panel_style",
    "result_html",
    "roster_head",
    "roster_row",
    "seat_html",
    "stepped_page",
    "viewer_words",
]
