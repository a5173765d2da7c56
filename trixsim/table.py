"""One game of any registered game, driven one decision at a time: the entry point for
interactive tables.

A terminal or web table seats people and bots around one game. ``Table`` wraps a batch
of one game of the same engine the simulator uses (no second set of rules): it says who
must decide what, lists the legal actions, shows any seat its own view, applies one
action, lets bots take their turns until a person must decide, and writes the finished
game as a ``trixsim-record/1`` envelope that ``trixsim replay`` checks.

What a table shows is the game's own: its package holds ``view`` (``game_view(table,
seat, looks_left, preselect)``, the JSON-ready view of one seat built from that seat's
history, and ``event_dict``, one event for the wire) and ``narrator`` (``Narrator(style,
names, brief)``, events as sentences for the terminal and, brief, the web log).
``parts(game)`` finds both.
"""

from __future__ import annotations

import copy
import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import numpy as np

from trixsim.game import Action, Game, Seat, mask_actions
from trixsim.records import Move, Record
from trixsim.sim import decide
from trixsim.strategy import Strategy


@dataclass(frozen=True)
class Parts:
    """What a game shows at a table: its per-seat view module and its narrator module."""

    view: ModuleType
    narrator: ModuleType


def parts(game: Game) -> Parts:
    """The ``view`` and ``narrator`` modules of ``game``'s package (``trixsim.games.NAME``
    for this project's games); ValueError when the game has no table parts."""
    package = type(game).__module__.rpartition(".")[0]
    try:
        return Parts(importlib.import_module(f"{package}.view"),
                     importlib.import_module(f"{package}.narrator"))
    except ImportError:
        raise ValueError(f"game {game.name!r} cannot be played at a table (its package "
                         f"{package} has no view and narrator modules)") from None


class Table:
    """A single game of ``game`` (any registered game, named by the caller: a table has
    no default game), advanced one decision at a time."""

    def __init__(self, seed: int, game_id: int = 0, first_picker: Seat | None = None, *,
                 game: Game) -> None:
        fp = None if first_picker is None else [first_picker]
        self.game: Game = game
        self.seed = seed
        self._log = self.game.event_log()
        self._events = self.game.events_module
        self.state: Any = self.game.init(seed, [game_id], first_pickers=fp, events=self._log)
        self.history: list[Any] = self._events.decode(self._log.rows, self.state.game_id)
        self.actions: list[Action] = []
        """Every action taken, in order: with the seed, the whole game (``replay``)."""
        self.moves: list[Move] = []
        """Every action with its decision and seat, as a record holds them."""
        self._legal = self.game.legal_action_mask(self.state)

    @classmethod
    def replay(cls, seed: int, actions: list[Action], game_id: int = 0, *,
               game: Game) -> Table:
        """The table after ``actions`` from the deal of ``seed``; ValueError naming the
        first action the rules refuse."""
        table = cls(seed, game_id, game=game)
        for k, a in enumerate(actions):
            why = "the game is over" if table.over else table.why_illegal(a)
            if why is not None:
                raise ValueError(f"action {k + 1} ({a}) is not allowed: {why}")
            table.act(a)
        return table

    @property
    def over(self) -> bool:
        """Whether the game has ended."""
        return int(self.game.decision(self.state)[0]) < 0

    @property
    def turn(self) -> Seat:
        """The seat that must decide now."""
        return int(self.game.to_act(self.state)[0])

    @property
    def decision(self) -> int:
        """What it must decide (a decision id of the game; -1 once over)."""
        return int(self.game.decision(self.state)[0])

    @property
    def totals(self) -> list[int]:
        """Running totals of the four seats (Trix); the final scores once a game without
        running totals is over."""
        if hasattr(self.state, "totals"):
            return [int(t) for t in self.state.totals[0]]
        return [int(t) for t in self.game.final_scores(self.state)[0]]

    def legal_actions(self) -> list[Action]:
        """The actions allowed now (``[PASS]`` when a trix seat has nothing to place)."""
        return mask_actions(int(self._legal[0]))

    def why_illegal(self, action: Action) -> str | None:
        """Why ``action`` is not allowed now (None if it is): for a person's mistake."""
        return self.game.why_illegal(self.state, 0, action)

    def view(self, seat: Seat) -> Any:
        """What ``seat`` knows now (its own hand only); ``legal`` is empty unless it acts."""
        return self.game.observe(self.state, np.array([0]), seat)

    def act(self, action: Action) -> None:
        """Apply the acting seat's action; IllegalActionError if the rules forbid it."""
        move = (self.decision, self.turn, int(action))
        self._legal = self.game.step(self.state, np.array([action], dtype=np.int64),
                                     events=self._log)
        self.history += self._events.decode(self._log.rows, self.state.game_id)
        self.actions.append(int(action))
        self.moves.append(move)

    def history_for(self, seat: Seat) -> list[Any]:
        """Everything that happened, as ``seat`` may see it (other hands hidden, and what
        else the game hides, e.g. a quiet K♥ holder in Trix): what a table sends a player
        who joins or comes back."""
        return [v for e in self.history if (v := self._events.visible_to(e, seat)) is not None]

    def play_bots(self, bots: Mapping[int, Strategy]) -> None:
        """Let the bots at the seats in ``bots`` act until another seat must decide.

        Actions the rules take without asking (Trix's forced trix passes) are applied for
        every seat, person or bot.
        """
        while (seat := self.pass_forced(bots)) is not None:
            self.act(self.thinker(bots[seat])())

    def pass_forced(self, bots: Mapping[int, Strategy]) -> Seat | None:
        """Apply the actions the rules force (Trix's passes); then the seat of ``bots``
        that must decide now, or None when the game is over or a seat without a bot must
        decide."""
        while not self.over:
            forced = int(self.game.pending(self.state, self._legal)[2][0])
            if forced >= 0:
                self.act(forced)
                continue
            return self.turn if self.turn in bots else None
        return None

    def thinker(self, bot: Strategy) -> Callable[[], Action]:
        """A function that returns ``bot``'s action for the seat to act now, computed on
        a copy of the game (so it may run in another thread, and be abandoned, while the
        table goes on)."""
        state = copy.deepcopy(self.state)
        legal = self._legal.copy()
        game = self.game
        return lambda: int(decide(state, [bot] * 4, legal, game)[0])

    def record(self, labels: list[str]) -> Record:
        """The finished game as a ``trixsim-record/1`` envelope (``labels``: each seat's
        player, a strategy spec or ``human``); check it with ``trixsim.records.replay``."""
        if not self.over:
            raise ValueError("the game is not over")
        final = np.asarray(self.game.final_scores(self.state))
        win, lose = self.game.winners_losers(final)
        return Record(self.game.name, int(self.seed), int(self.state.game_id[0]), list(labels),
                      {f: int(getattr(self.state, f)[0]) for f in self.game.record_fields},
                      list(self.moves), [int(x) for x in final[0]],
                      [int(s) for s in np.flatnonzero(win[0])],
                      [int(s) for s in np.flatnonzero(lose[0])])
