"""A match replay as one self-contained HTML page, from a view log (or, asked, the match log).

The page is built from what one viewer knew: :func:`side_page` takes a
:class:`~multiversus_core.rulesets.multiversus.views.RedactedLog` (a side's or the public's view
log), fills it in with :func:`~multiversus_core.engine.viewlog.replayable` and shows
every state only through :func:`~multiversus_core.rulesets.multiversus.views.view` as that viewer,
so the page holds nothing the view log lacks. :func:`referee_page` shows a
match log as the referee, and is only used when asked for.

Everything on the page is drawn here, in Python, as text: the board by
:mod:`multiversus_core.rulesets.multiversus.render`, the panels by the ``*_html`` functions from a
:class:`~multiversus_core.rulesets.multiversus.views.MatchView`, and the event list in the words
of the terminal replay (:func:`multiversus_cli.presenters.multiversus_text.entry_head`
and :func:`~multiversus_cli.presenters.multiversus_text.event_lines`). The page itself, its
step controls and script, is any game's (:mod:`multiversus_cli.replay_page`): every distinct
part (a figure on a space, a panel) is stored once, and each entry is a list of part numbers.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from html import escape
from typing import Any, Final, cast

import msgspec

from multiversus_cli import replay_page
from multiversus_cli.presenters.multiversus_text import entry_head, event_lines
from multiversus_cli.replay_page import Frame, Page, Pool
from multiversus_core.engine.log import LogEntry, LogHeader, MatchLog
from multiversus_core.engine.position import opening_state
from multiversus_core.engine.viewlog import replayable
from multiversus_core.rulesets.multiversus.catalog import find_team
from multiversus_core.rulesets.multiversus.events import Event
from multiversus_core.rulesets.multiversus.evolve import evolve
from multiversus_core.rulesets.multiversus.narrate import (
    action_name,
    actions_name,
    coins_by_unit,
    reason_words,
    side_name,
)
from multiversus_core.rulesets.multiversus.render import board_parts, changes, figure_labels
from multiversus_core.rulesets.multiversus.ruleset import RULESET
from multiversus_core.rulesets.multiversus.scoring import WIN_CONDITIONS
from multiversus_core.rulesets.multiversus.state import MatchState
from multiversus_core.rulesets.multiversus.terms import SIDES, Side, other_side
from multiversus_core.rulesets.multiversus.units import CoinId, coin_colour, coin_unit
from multiversus_core.rulesets.multiversus.views import (
    MatchView,
    PlayerViewer,
    RedactedLog,
    Viewer,
    redact,
    view,
)

ROUNDS: Final = 6


# --- building -----------------------------------------------------------------------


def side_page(log: RedactedLog) -> Page:
    """Return the replay page of a view log, as its viewer saw the match.

    :raises ValueError: for the referee's view (use :func:`referee_page`).
    :raises LogError: if the view log's events do not follow each other.
    """
    if log.viewer == "referee":
        raise ValueError("a view log is one side's or the public's: use referee_page")
    # Not the referee, so one of this game's viewers (redact_log checks it).
    who = cast(PlayerViewer, log.viewer)
    filled = replayable(log)
    return _page(filled.header, filled.entries, who, lambda state: view(state, who))


def referee_page(log: MatchLog) -> Page:
    """Return the replay page of a match log as the referee: every secret shown."""
    return _page(log.header, log.entries, "referee", referee_view)


def referee_view(state: MatchState) -> MatchView:
    """Return a view holding everything: each side's secrets from that side's own view."""
    heroes, adversaries = view(state, "heroes"), view(state, "adversaries")
    own = {"heroes": heroes, "adversaries": adversaries}
    activation = heroes.activation
    act = state.activation
    if act is not None:
        mine, theirs = own[act.side].activation, own[other_side(act.side)].activation
        assert mine is not None and theirs is not None
        activation = msgspec.structs.replace(
            mine,
            reaction_hidden=theirs.reaction_hidden,
            reaction_coin=theirs.reaction_coin,
            reaction_actions=theirs.reaction_actions,
            reaction_salt=theirs.reaction_salt,
        )
    secrets = tuple(
        h if h.side == "heroes" else a
        for h, a in zip(heroes.secrets, adversaries.secrets, strict=True)
    )
    return msgspec.structs.replace(
        heroes, adversaries=adversaries.adversaries, activation=activation, secrets=secrets
    )


def _page(
    header: LogHeader[Any],
    entries: Sequence[LogEntry[Any, Any]],
    who: Viewer,
    shown: Callable[[MatchState], MatchView],
) -> Page:
    pool = Pool()
    state = opening_state(RULESET, header, None)
    seen = shown(state)
    frames = [_frame(pool, state, seen, seen, (), who)]
    told: list[tuple[str, tuple[str, ...]]] = []
    progress = [(state.round, state.turns_in_round)]
    laid_out = [_laid_out(seen)]
    for number, entry in enumerate(entries, start=1):
        before, seen_before = state, seen
        for event in entry.events:
            state = evolve(state, event)
        seen = shown(state)
        head = entry_head(number, before, entry.command, who)
        told.append((head, tuple(event_lines(before, entry.events, who))))
        frames.append(_frame(pool, state, seen, seen_before, entry.events, who))
        progress.append((state.round, state.turns_in_round))
        laid_out.append(_laid_out(seen))
    teams = f"{_team(seen.heroes_team)} v {_team(seen.adversaries_team)}"
    title = f"Multiversus replay: {teams}, as {_whom(who)}"
    start = replay_page.opening(len(entries), laid_out.__getitem__, progress.__getitem__)
    parts, shown_frames = tuple(pool.parts), tuple(frames)
    return Page(title, who, parts, shown_frames, tuple(told), start, tuple(progress))


def _laid_out(seen: MatchView) -> bool:
    """Whether the board is laid out: there is one, with every figure on it."""
    figures = seen.figures
    return seen.board is not None and bool(figures) and all(f.square is not None for f in figures)


def _frame(
    pool: Pool,
    state: MatchState,
    seen: MatchView,
    seen_before: MatchView,
    events: Sequence[Event],
    who: Viewer,
) -> Frame:
    labels = figure_labels(state)  # public: units and figures only
    parts = board_parts(seen, labels, changes(seen_before, redact(events, who)))
    panels = (status_html(seen), coins_html(seen, who), activation_html(seen), score_html(seen))
    return pool.frame(parts, panels)


def _team(team_id: str | None) -> str:
    if team_id is None:
        return "?"
    sheet = find_team(team_id)
    return sheet.name if sheet else team_id


def _whom(who: Viewer) -> str:
    match who:
        case "heroes" | "adversaries":
            return f"the {side_name(who)}"
        case "spectator":
            return "the public (spectator)"
        case "referee":
            return "the referee (every secret shown)"


# --- the panels: pure functions of a view -------------------------------------------


def side_label(seen: MatchView, side: Side) -> str:
    """Return a side with its player, for example "Heroes (Alice)"."""
    if seen.heroes_seat is None:
        return side_name(side)
    seat = seen.heroes_seat if side == "heroes" else 3 - seen.heroes_seat
    return f"{side_name(side)} ({seen.settings.players[seat - 1]})"


def _unit(seen: MatchView, unit_id: str) -> str:
    return next((u.name for u in seen.units if u.id == unit_id), unit_id)


def _figure(seen: MatchView, figure_id: str) -> str:
    return next((f.name for f in seen.figures if f.id == figure_id), figure_id)


def coin_words(seen: MatchView, coin: CoinId) -> str:
    """Return a unit coin in words, for example "Town Militia (grey coin)"."""
    return f"{_unit(seen, coin_unit(coin))} ({coin_colour(coin)} coin)"


def coins_words(seen: MatchView, coins: Sequence[CoinId]) -> str:
    """Return coins grouped by unit: "Banner Knight: green, grey ×2; Smogon: grey"."""
    return coins_by_unit(coins, lambda unit_id: _unit(seen, unit_id))


def _side(seen: MatchView, side: Side) -> str:
    return f'<span class="mv-side-{side}">{escape(side_label(seen, side))}</span>'


def status_html(seen: MatchView) -> str:
    """Return the round, the turn and who holds the Initiative, as HTML."""
    if seen.ended is not None:
        return f'<p class="mv-status"><b>The match is over</b> after round {seen.round}.</p>'
    if seen.round == 0:
        words = "<b>Set-up</b>"
        if seen.starting_side is not None:
            words += f" · the {side_name(seen.starting_side)} start each round"
        return f'<p class="mv-status">{words}</p>'
    words = f"<b>Round {seen.round} of {ROUNDS}</b>"
    if seen.active is not None:
        words += f" · turn {seen.turns_in_round} of 2 · Initiative: {_side(seen, seen.active)}"
        if seen.may_give_up:
            words += " (they may give it up)"
    return f'<p class="mv-status">{words}</p>'


def coins_html(seen: MatchView, who: Viewer) -> str:
    """Return both sides' unit coin piles as the view holds them, as an HTML table."""
    if seen.heroes_team is None:
        return '<p class="mv-coins">No coins yet: the teams are not chosen.</p>'
    rows = []
    for side in SIDES:
        piles = seen.piles(side)
        you = " (you)" if who == side else ""
        if piles.stash is not None:
            stash = f"{piles.stash_count}: {coins_words(seen, piles.stash)}"
        else:
            stash = f"{piles.stash_count} (hidden)"
        removed = f"; removed: {coins_words(seen, piles.removed)}" if piles.removed else ""
        rows.append(
            f"<tr><th>{_side(seen, side)}{you}</th><td>{escape(stash)}</td>"
            f"<td>{escape(coins_words(seen, piles.face_down))}</td>"
            f"<td>{escape(coins_words(seen, piles.discard) + removed)}</td></tr>"
        )
    return (
        '<table class="mv-coins"><tr><th>Unit coins</th><th>Stash</th>'
        "<th>Face down (stash and secret selection)</th><th>Discard (face up)</th></tr>"
        + "".join(rows)
        + "</table>"
    )


def activation_html(seen: MatchView) -> str:
    """Return the activation under way, selections as revealed to the viewer, as HTML."""
    act = seen.activation
    if act is None:
        return '<p class="mv-activation">No activation under way.</p>'
    words = [f"<b>Activation {act.number}</b>: {_side(seen, act.side)}"]
    if act.hidden or act.unit is None:
        words.append(" — coins selected in secret")
    else:
        what = coin_words(seen, act.coin) if act.coin is not None else _unit(seen, act.unit)
        words.append(f" — {escape(what)} with {escape(actions_name(act.actions or ()))}")
        if not act.revealed:
            words.append(" (not revealed yet)")
    words.append(" · reaction: ")
    if not act.reaction_selected:
        words.append("not selected yet")
    elif act.reaction_hidden:
        words.append("selected in secret")
    elif act.reaction_coin is None:
        words.append("none")
    else:
        coin = coin_words(seen, act.reaction_coin)
        words.append(f"{escape(coin)} with {escape(actions_name(act.reaction_actions or ()))}")
        if not act.reaction_revealed:
            words.append(" (not revealed yet)")
    action = act.action
    if action is not None:
        words.append(f" · action: {escape(action_name(action.kind, double=action.double))}")
        if action.target_unit is not None:
            words.append(f" at {escape(_unit(seen, action.target_unit))}")
        if action.mover is not None:
            plural = "s" if action.steps_left != 1 else ""
            words.append(
                f", moving {escape(_figure(seen, action.mover))}, "
                f"{action.steps_left} space{plural} left"
            )
    if act.offer is not None and act.reaction is None:
        words.append(f" · the {side_name(other_side(act.side))} may react")
    if act.reaction is not None:
        reaction = act.reaction
        words.append(
            f" · {side_name(other_side(act.side))} reaction: "
            f"{escape(_unit(seen, reaction.unit))} "
            f"{escape(action_name(reaction.kind, double=reaction.double))}"
        )
    return f'<p class="mv-activation">{"".join(words)}</p>'


def characters_left(seen: MatchView, side: Side) -> int:
    """Return how many of a side's characters are still in the match (terrain never counts)."""
    return sum(
        1 for f in seen.figures if f.side == side and not f.terrain and f.condition != "eliminated"
    )


def score_html(seen: MatchView) -> str:
    """Return the score (characters left), the win conditions and set-up secrets, as HTML."""
    if seen.heroes_team is None:
        return '<div class="mv-score"><p>Score: the teams are not chosen yet.</p></div>'
    out = ['<div class="mv-score"><p><b>Characters left</b>: ']
    out.append(" · ".join(f"{_side(seen, s)} {characters_left(seen, s)}" for s in SIDES))
    out.append("</p><p><b>Win conditions</b>: a side with no character left loses at once. ")
    out.append(escape(_conditions(seen)))
    out.append("</p>")
    if seen.ended is not None:
        out.append(f"<p><b>Result</b>: {escape(_result(seen))}.</p>")
    secrets = _secrets(seen)
    if secrets:
        out.append(f"<p><b>Secrets</b>: {escape('; '.join(secrets))}</p>")
    out.append("</div>")
    return "".join(out)


def _condition_text(name: str) -> str:
    """A win condition's rules text, as its sheet gives it (its name if there is none)."""
    known = WIN_CONDITIONS.get(name)
    if known is not None and known[0]:
        return known[0]
    return f"At the end of round {ROUNDS}: {name.replace('-', ' ')}."


def _conditions(seen: MatchView) -> str:
    """The Adversary sheet's win conditions as the viewer knows them, in the sheet's words."""
    sheet = find_team(seen.adversaries_team or "")
    names = sheet.win_conditions if sheet else ()
    if "secret-schemes" in seen.settings.variants and names:
        scheme = next((s for s in seen.secrets if s.name == "scheme"), None)
        if scheme is None:
            return f"After round {ROUNDS}, the Adversaries' secret scheme decides (not chosen yet)."
        if scheme.choice is None:
            return (
                f"After round {ROUNDS}, the Adversaries' secret scheme decides (chosen in secret)."
            )
        names = (scheme.choice,)
    texts = [_condition_text(n) for n in names]
    return " ".join([*texts, "Otherwise the match is a draw."])


def _result(seen: MatchView) -> str:
    reason = seen.ended or ""
    if seen.winner is None:
        return "a draw" + ("" if reason == "six_rounds_played" else f" ({reason_words(reason)})")
    who = f"the {side_label(seen, seen.winner)} win"
    if reason == "elimination":
        return f"{who} by elimination"
    return f"{who} after round {ROUNDS}: {reason_words(reason)}"


def _secrets(seen: MatchView) -> list[str]:
    lines = []
    for secret in seen.secrets:
        head = f"{side_name(secret.side)} {secret.name}: "
        if secret.choice is None:
            lines.append(head + "chosen in secret")
        else:
            lines.append(head + _figure(seen, secret.choice).replace("-", " "))
    chosen = {(s.side, s.name) for s in seen.secrets}
    for offer in seen.secret_offers:
        if (offer.side, offer.name) not in chosen:
            lines.append(f"{side_name(offer.side)} {offer.name}: not chosen yet")
    return lines


# --- writing ------------------------------------------------------------------------


def page_html(page: Page) -> str:
    """Return the page as one self-contained HTML document: nothing is fetched."""
    return replay_page.page_html(page, _STYLE)


_STYLE: Final = """.mv-side-heroes{color:#1d4ed8;font-weight:bold}
.mv-side-adversaries{color:#b91c1c;font-weight:bold}
table.mv-coins{border-collapse:collapse;font-size:13px;margin:6px 0}
table.mv-coins th,table.mv-coins td{border:1px solid #cbd5e1;padding:2px 6px;text-align:left;
vertical-align:top}"""
"""The sides' colours and the coins' table."""


__all__ = [
    "Frame",
    "Page",
    "activation_html",
    "coins_html",
    "page_html",
    "referee_page",
    "referee_view",
    "score_html",
    "side_page",
    "status_html",
]
