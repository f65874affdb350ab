"""Every installed game as an OpenSpiel game: ``import multiversus_core.openspiel``.

Importing this module registers each installed ruleset that declares its
action ids (``ruleset.action_codec(settings)``, :mod:`.engine.actions`) with
OpenSpiel as ``python_<id>``, dashes as underscores (``python_sealed_bids``),
so that ``pyspiel.load_game("python_multiversus")`` plays it. It is the one
module of the library that imports something beside msgspec: OpenSpiel
(``pip install 'multiversus[openspiel]'``).

How a match looks to OpenSpiel:

- Sequential: where several seats decide at once (secret choices revealed
  together), the lowest seat decides first; the others cannot see its choice,
  as their views never show it. Players are seats less one.
- Actions are the codec's ids: one per command, the same in every state. A
  decision given as a tree of choices (:mod:`.engine.choices`) takes one
  action per choice (the option key's id), the choices made so far kept in the
  state and in the deciding seat's information state.
- Chance is explicit: a command that draws chance (a die left to the match's
  seed) becomes a chance node per die, whose outcome ``n`` is the face
  ``n + 1``; the command is then given with the dice supplied.
- The information state of a seat is its view (``Ruleset.view``), never the
  referee's state: its string is the view's canonical JSON (and the choices
  made so far), its tensor that string's bytes, each divided by 255, padded
  with zeros. The observation is the same.
- Returns are the outcome's at the end (``Outcome.returns``), 0 before.
- ``state.resample_from_infostate(player, sampler)`` draws a full state from the
  seat's view with ``Ruleset.determinize``, so that ISMCTSBot can search.

The game's parameters: ``settings``, the settings as JSON (empty: the game's
defaults), and ``tensor_size``, the bytes of the information-state tensor.

:raises ImportError: on import, if OpenSpiel is not installed.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Final, cast

import msgspec

from multiversus_core.engine.actions import ActionCodec
from multiversus_core.engine.choices import Ask, is_tree
from multiversus_core.engine.registry import AnyRuleset, game_ids, load_ruleset

try:
    import numpy as np
    import pyspiel
except ImportError as missing:  # one line, naming the extra
    raise ImportError(
        "multiversus_core.openspiel needs OpenSpiel: pip install 'multiversus[openspiel]'"
    ) from missing

TENSOR_SIZE: Final = 65536
"""The default bytes of an information-state tensor: a view's JSON longer than this raises."""

MOST_MOVES: Final = 5000
"""The most actions OpenSpiel is told a match may take (its ``max_game_length``)."""


def game_name(game_id: str) -> str:
    """The OpenSpiel name of a game: ``python_`` and its id, dashes as underscores."""
    return "python_" + game_id.replace("-", "_")


def has_actions(ruleset: AnyRuleset) -> bool:
    """Whether ``ruleset`` declares its action ids (``action_codec``), as OpenSpiel needs."""
    return callable(getattr(ruleset, "action_codec", None))


class SpielGame(pyspiel.Game):  # type: ignore[misc]
    """One game of the engine, as OpenSpiel sees it: a ruleset and its settings."""

    def __init__(
        self, ruleset: AnyRuleset, game_type: Any, params: dict[str, Any] | None = None
    ) -> None:
        params = {"settings": "", "tensor_size": TENSOR_SIZE, **(params or {})}
        text = str(params["settings"])
        settings = (
            msgspec.json.decode(text, type=ruleset.settings_type)
            if text
            else ruleset.settings_type()
        )
        ruleset.check_settings(settings)
        self.ruleset: Final = ruleset
        self.settings: Final = settings
        self.codec: Final[ActionCodec[Any]] = ruleset.action_codec(settings)  # type: ignore[attr-defined]
        self.seats: Final = len(ruleset.table(settings).players)
        self.tensor_size: Final = int(params["tensor_size"])
        info = pyspiel.GameInfo(
            num_distinct_actions=self.codec.size,
            max_chance_outcomes=max(self.codec.max_sides, 1),
            num_players=self.seats,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=None,
            max_game_length=MOST_MOVES,
        )
        super().__init__(game_type, info, params)

    def new_initial_state(self) -> SpielState:
        """A new match, from the settings (its chance explicit at each chance node)."""
        return SpielState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> ViewObserver:
        """The observer of a seat's view: the information state and the observation alike."""
        if params:
            raise ValueError(f"the observer takes no parameters, not {params!r}")
        return ViewObserver(self.tensor_size)


class SpielState(pyspiel.State):  # type: ignore[misc]
    """A match under way: the referee's state, a tree choice half made, or a chance point."""

    def __init__(self, game: SpielGame, state: Any = None) -> None:
        super().__init__(game)
        self._ruleset: AnyRuleset = game.ruleset
        self._codec: ActionCodec[Any] = game.codec
        self.state: Any = (
            game.ruleset.initial_state(game.settings, None) if state is None else state
        )
        """The engine's state (the referee's): never shown to a seat."""
        self.chosen: tuple[str, ...] = ()
        """The option keys chosen so far in a tree of choices."""
        self.pending: Any = None
        """A command waiting for its chance (a chance node), or None."""
        self.faces: tuple[int, ...] = ()
        """The dice rolled so far for the pending command."""
        self._sides: int | None = None

    # --- who acts, and what they may do ---------------------------------------------------

    def seat(self) -> int | None:
        """The seat to act (the lowest of several), or None once the match is over."""
        seats = self._ruleset.to_act(self.state)
        return seats[0] if seats else None

    def current_player(self) -> int:
        """The player to act, chance, or terminal."""
        if self.pending is not None:
            return int(pyspiel.PlayerId.CHANCE)
        seat = self.seat()
        return int(pyspiel.PlayerId.TERMINAL) if seat is None else seat - 1

    def _legal_actions(self, player: int) -> list[int]:
        """The ids of ``player``'s legal commands, or of the options of the choice under way."""
        if player != self.current_player():
            return []
        legal = self._ruleset.legal_commands(self.state, player + 1)
        if is_tree(legal):
            step = legal.ask(self.chosen)
            if isinstance(step, Ask):
                return sorted(self._codec.key_id(option.key) for option in step.options)
            return [self._codec.encode(step)]  # a tree that asks nothing: its one command
        commands = cast(Sequence[Any], legal)
        return sorted({self._codec.encode(command) for command in commands})

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The faces of the die being rolled, equally likely: outcome ``n`` is face ``n + 1``."""
        sides = self._sides or 0
        return [(face, 1.0 / sides) for face in range(sides)]

    # --- applying actions --------------------------------------------------------------

    def _apply_action(self, action: int) -> None:
        """Roll the next die, choose an option of a tree, or give a command."""
        if self.pending is not None:
            self.faces = (*self.faces, action + 1)
            self._roll_or_give()
            return
        seat = self.current_player() + 1
        if action >= self._codec.commands:
            legal = self._ruleset.legal_commands(self.state, seat)
            if not is_tree(legal):
                raise ValueError(f"{action} chooses an option, but this decision is a list")
            chosen = (*self.chosen, self._codec.key_of(action))
            step = legal.ask(chosen)
            self.chosen = chosen
            if isinstance(step, Ask):
                return
            command = step
        else:
            command = self._command_of(action, seat)
        self.chosen = ()
        if self._codec.draws_chance(command):
            self.pending, self.faces = command, ()
            self._roll_or_give()
        else:
            self._give(command)

    def _command_of(self, action: int, seat: int) -> Any:
        legal = self._ruleset.legal_commands(self.state, seat)
        if is_tree(legal):
            step = legal.ask(self.chosen)
            if isinstance(step, Ask) or self._codec.encode(step) != action:
                raise ValueError(f"{action} is not a legal action now")
            return step
        command = self._codec.decode(action, seat)
        if command not in legal:
            raise ValueError(f"{action} ({command!r}) is not a legal action now")
        return command

    def _roll_or_give(self) -> None:
        """Ask for the pending command's next die, or give it once it has them all."""
        sides = self._codec.next_die(
            self.pending, self.faces, lambda c: self._ruleset.decide(c, self.state)
        )
        if sides is not None:
            self._sides = sides
            return
        command = self._codec.supplied(self.pending, self.faces)
        self.pending, self.faces, self._sides = None, (), None
        self._give(command)

    def _give(self, command: Any) -> None:
        salted = self._ruleset.salted(command, self.get_game().settings)  # a "secrets" match
        _, self.state = self._ruleset.decide(salted, self.state)

    # --- the end ------------------------------------------------------------------------

    def is_terminal(self) -> bool:
        """Whether the match is over."""
        return self.pending is None and self._ruleset.outcome(self.state) is not None

    def returns(self) -> list[float]:
        """Each player's result from -1 to 1 at the end (:attr:`Outcome.returns`); 0 before."""
        outcome = self._ruleset.outcome(self.state)
        if outcome is None or self.pending is not None:
            return [0.0] * self.get_game().num_players()
        return [float(r) for r in outcome.returns]

    # --- what a seat knows ----------------------------------------------------------------

    def view_text(self, player: int) -> str:
        """What ``player`` knows: its view's canonical JSON, and its choices made so far."""
        viewer = self._ruleset.viewer_of(self.state, player + 1)
        text = msgspec.json.encode(self._ruleset.view(self.state, viewer)).decode()
        mine = self.pending is None and self.current_player() == player
        return f"{text} chosen:{'.'.join(self.chosen) if mine else ''}"

    def resample_from_infostate(
        self, player: int, probability_sampler: Callable[[], float]
    ) -> SpielState:
        """A state ``player`` cannot tell from this one: ``Ruleset.determinize`` of its view,
        drawn with a generator seeded from ``probability_sampler``."""
        rng = random.Random(int(probability_sampler() * 2**53))
        viewer = self._ruleset.viewer_of(self.state, player + 1)
        drawn = self._ruleset.determinize(self._ruleset.view(self.state, viewer), rng)
        sample = SpielState(self.get_game(), drawn)
        sample.chosen = self.chosen if self.pending is None else ()
        return sample

    def _action_to_string(self, player: int, action: int) -> str:
        """An action in words: a face, an option key, or the command."""
        if player == int(pyspiel.PlayerId.CHANCE):
            return f"rolled {action + 1}"
        if action >= self._codec.commands:
            return f"choose {self._codec.key_of(action)}"
        return msgspec.json.encode(self._codec.decode(action, player + 1)).decode()

    def __str__(self) -> str:
        """Where the match stands, in the game's words (the referee's state: for debugging)."""
        return self._ruleset.where(self.state)

    def __deepcopy__(self, memo: dict[int, Any]) -> SpielState:
        # The engine's state is immutable: a clone shares it.
        clone = SpielState(self.get_game(), self.state)
        clone.chosen, clone.pending, clone.faces = self.chosen, self.pending, self.faces
        clone._sides = self._sides
        return clone


class ViewObserver:
    """OpenSpiel's observer of a seat: the view as a string, and its bytes as a tensor."""

    def __init__(self, size: int) -> None:
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"view": self.tensor}

    def set_from(self, state: SpielState, player: int) -> None:
        """Fill :attr:`tensor` with ``player``'s view of ``state``.

        :raises ValueError: if the view is longer than the tensor.
        """
        data = np.frombuffer(state.view_text(player).encode(), dtype=np.uint8)
        if len(data) > len(self.tensor):
            raise ValueError(
                f"the view takes {len(data)} bytes, more than the tensor's {len(self.tensor)}: "
                "raise the game's tensor_size"
            )
        self.tensor.fill(0.0)
        self.tensor[: len(data)] = data / 255.0

    def string_from(self, state: SpielState, player: int) -> str:
        """``player``'s view of ``state``, as text."""
        return state.view_text(player)


def game_type(ruleset: AnyRuleset) -> Any:
    """The OpenSpiel facts of a game: sequential, explicit chance, imperfect information."""
    seats = len(ruleset.table(ruleset.settings_type()).players)
    return pyspiel.GameType(
        short_name=game_name(ruleset.id),
        long_name=ruleset.title,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=seats,
        min_num_players=seats,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"settings": "", "tensor_size": TENSOR_SIZE},
    )


def register(ruleset: AnyRuleset) -> str:
    """Register ``ruleset`` with OpenSpiel (once) and return its name there.

    :raises ValueError: if it declares no action ids.
    """
    if not has_actions(ruleset):
        raise ValueError(f"the game {ruleset.id!r} declares no action ids (action_codec)")
    name = game_name(ruleset.id)
    if name not in pyspiel.registered_names():
        _TYPES[ruleset.id] = game_type(ruleset)
        pyspiel.register_game(_TYPES[ruleset.id], _maker(ruleset.id))
    return name


_TYPES: Final[dict[str, Any]] = {}
"""The OpenSpiel facts of each game registered, by id."""


def _maker(game_id: str) -> type[SpielGame]:
    # OpenSpiel is given a class of the game's own, as its Python games are: it keeps its
    # maker past the interpreter's end, when a maker freed then (a closure) aborts it.
    def make(self: SpielGame, params: dict[str, Any] | None = None) -> None:
        SpielGame.__init__(self, load_ruleset(game_id), _TYPES[game_id], params)

    name = "".join(part.title() for part in game_id.split("-")) + "SpielGame"
    return type(name, (SpielGame,), {"__init__": make, "__doc__": f"{game_id}, for OpenSpiel."})


def register_all() -> tuple[str, ...]:
    """Register every installed game that declares action ids; return their OpenSpiel names."""
    return tuple(
        register(ruleset) for ruleset in map(load_ruleset, game_ids()) if has_actions(ruleset)
    )


REGISTERED: Final = register_all()
"""The OpenSpiel names of the games registered on import."""

__all__ = [
    "REGISTERED",
    "SpielGame",
    "SpielState",
    "ViewObserver",
    "game_name",
    "has_actions",
    "register",
    "register_all",
]
