"""The browser client: one self-contained page (``page.html``: its script and style inline, no
file fetched from anywhere), and what the referee sends it that a browser cannot work out.

A page cannot run the engine, so the referee works out for it what ``multiversus join``
works out for itself, from the same thing: the seat's view log, filled in as the engine
fills view logs (:func:`~multiversus_core.engine.viewlog.filled_entries`), never the
referee's state. From that position it draws the seat's view with the game's renderer
(:func:`~multiversus_core.engine.render.renderer_of`), lists the seat's legal commands in
the game's words, and says where each is given on the board
(:func:`~multiversus_core.engine.render.pick_of`), or, for a tree of choices, where each
option is (:func:`~multiversus_core.engine.render.option_pick_of`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from functools import cache
from importlib.resources import files
from typing import Any, Final

import msgspec

from multiversus_core.engine.choices import Ask, CommandTree, is_tree, listed
from multiversus_core.engine.registry import load_ruleset
from multiversus_core.engine.render import (
    facts_html,
    facts_of,
    option_pick_of,
    pick_of,
    renderer_of,
)
from multiversus_core.engine.viewlog import RedactedLog, decode_view_log, filled_entries
from multiversus_server.client import Verdict, log_text
from multiversus_server.protocol import (
    Asked,
    Checked,
    Choice,
    Option,
    Picked,
    Shown,
    encoder,
)


@cache
def page_html() -> str:
    """The browser client's page, as the package ships it."""
    return files("multiversus_server").joinpath("page.html").read_text(encoding="utf-8")


Explain = Callable[[str, Any, int, Any, tuple[str, ...]], tuple[str, ...]]
"""What ``?`` says at the terminal of a decision: given the game's id, the state filled in from
the seat's view log, the seat, its legal commands and the keys chosen so far in a tree of
choices, a line each. The program (``multiversus serve``) gives its presenters' words."""

MOST_LISTED: Final = 200
"""The most commands of a tree of choices a page is offered as one list; more are offered one
choice at a time (:class:`~multiversus_server.protocol.Asked`)."""


def position(lines: Sequence[str]) -> tuple[Any, RedactedLog, Any]:
    """The ruleset, the view log and the state a view log's ``lines`` fill in, as
    ``multiversus join`` fills them in.

    :raises LogError: if the lines do not read as a view log.
    """
    seen = decode_view_log(log_text(lines), "<view log>")
    ruleset: Any = load_ruleset(seen.game)
    state = ruleset.initial_state(seen.header.settings, None)
    for entry, _ in filled_entries(seen, "<view log>"):
        state = ruleset.fold(state, entry.events)
    return ruleset, seen, state


def shown(
    lines: Sequence[str],
    seat: int | None,
    *,
    begun: bool,
    chosen: tuple[str, ...] = (),
    explain: Explain | None = None,
) -> Shown:
    """What a page draws from a view log's ``lines``: the board and view of its viewer (the view
    also in words, :func:`~multiversus_core.engine.render.facts_html`), and,
    for a seat the match waits for, its legal commands (none before the match has ``begun``):
    listed, or the choice after the keys ``chosen`` of a tree too big to list, and what
    ``explain`` says of it.

    :raises LogError: if the lines do not read as a view log.
    :raises ValueError: if ``chosen`` holds a key that was not an option.
    """
    ruleset, seen, state = position(lines)
    view = ruleset.view(state, seen.viewer)
    looks = renderer_of(ruleset)
    to_act = tuple(ruleset.to_act(state)) if begun else ()
    choices: list[Choice] = []
    asked: Asked | None = None
    odds: tuple[str, ...] = ()
    if seat is not None and seat in to_act:
        legal = ruleset.legal_commands(state, seat)
        if explain is not None:
            odds = explain(seen.game, state, seat, legal, chosen)
        every = listed(legal, MOST_LISTED) if not chosen else None
        if every is None:
            step = legal.ask(chosen)
            if isinstance(step, Ask):
                options = tuple(Option(o.key, o.label) for o in step.options)
                picks = _picks(legal, chosen, step, looks, view)
                asked = Asked(chosen, step.prompt, options, picks)
            else:
                every = (step,)
        for command in every or ():
            if looks is not None:
                words = looks.command_words(command, view)
            else:
                words = ruleset.describe_command(command, state)
            pick = pick_of(looks, command, view)
            choices.append(
                Choice(
                    msgspec.Raw(encoder.encode(command)),
                    words,
                    None if pick is None else pick.piece,
                    None if pick is None else pick.square,
                )
            )
    return Shown(
        seen.viewer,
        len(lines),
        ruleset.where(state),
        looks.board_svg(view) if looks else None,
        msgspec.Raw(encoder.encode(view)),
        to_act,
        tuple(choices),
        asked,
        odds,
        facts_html(facts_of(looks, view)),
    )


def _picks(
    tree: CommandTree[Any], chosen: tuple[str, ...], step: Ask, looks: object, view: object
) -> tuple[Picked, ...]:
    """The options of ``step`` given on the board: each option naming a piece or a square
    (the renderer's optional ``option_pick``), and, through an option naming neither (a row,
    "activate"), each option of the next choice that names one, so that a click chooses
    both."""
    picks: list[Picked] = []
    for option in step.options:
        pick = option_pick_of(looks, option.key, view)
        if pick is not None:
            picks.append(Picked((option.key,), option.label, pick.piece, pick.square))
            continue
        after = tree.ask((*chosen, option.key))
        if not isinstance(after, Ask):
            continue
        for then in after.options:
            pick = option_pick_of(looks, then.key, view)
            if pick is not None:
                words = f"{option.label}: {then.label}"
                picks.append(Picked((option.key, then.key), words, pick.piece, pick.square))
    return tuple(picks)


def chosen_command(lines: Sequence[str], seat: int, chosen: tuple[str, ...]) -> Any | None:
    """The command the keys ``chosen`` make in the seat's tree of choices, or None if they
    make none yet.

    :raises LogError: if the lines do not read as a view log.
    :raises ValueError: if a key was not an option, or the seat's choices are no tree.
    """
    ruleset, _, state = position(lines)
    legal = ruleset.legal_commands(state, seat)
    if not is_tree(legal):
        raise ValueError("this decision is a list: send one of its commands")
    step = legal.ask(chosen)
    return None if isinstance(step, Ask) else step


def checked(verdict: Verdict, lines: Sequence[str]) -> Checked:
    """The cross-check as a page is told it, with the SHA-256 of the view log it held."""
    digest = hashlib.sha256(log_text(lines)).hexdigest()
    return Checked(verdict.ok, verdict.problems, verdict.entries, verdict.outcome, digest)


__all__ = ["MOST_LISTED", "Explain", "checked", "chosen_command", "page_html", "position", "shown"]
