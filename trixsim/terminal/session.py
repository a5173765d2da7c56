"""One game at the terminal table: the person's turns, the bots' moves, the commands.

A ``Session`` runs a ``trixsim.table.Table`` for the person at one seat: it lets the bots
play (and applies the actions the rules take by themselves) until the person must
decide, prints what happened as that seat may see it (``Table.history_for``, told by the
game's narrator), shows the status, and reads lines until one is a legal action or
``quit``. It talks only through an ``ask(prompt) -> line`` and a ``say(line)`` callable,
so tests feed it input lines and read its output; EOFError or KeyboardInterrupt from
``ask`` pass through.

The loop, the commands (``help``, ``hand``, ``score``, ``last``, ``quit``) and the save
are the same for every game; what the person is asked, how a typed line becomes an
action and what the status, score and last trick look like are the game's. A game names
its terminal plug-in in ``Game.terminal`` (an import path, as ``report_aspects`` is): a
module whose ``SESSION`` is its ``Session`` subclass and which may offer
``record(table, seed, labels)``, the finished game in the game's own record format
(without it: the ``trixsim-record/1`` envelope). ``Session(table, ...)`` opens the
session of the table's game.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable, Mapping
from pathlib import Path
from types import ModuleType
from typing import Any

from trixsim.game import Action, Game, Seat
from trixsim.strategy import Strategy
from trixsim.table import Table, parts
from trixsim.terminal.names import Names, PlaceNames, Style

LOOKS = 2
"""How often the last trick may be looked at (per contract in Trix, per game in trump7)."""
QUIT = "quit"
OVER = "over"
SAVE_FORMAT = "trixsim-play-save/1"


def terminal_of(game: Game) -> ModuleType:
    """The terminal plug-in ``game`` names (``Game.terminal``); ValueError (one line) when
    it names none or the module has no ``SESSION``."""
    path = getattr(game, "terminal", None)
    if not path:
        raise ValueError(f"the terminal table cannot play {game.name!r} (the game names no "
                         "terminal plug-in)")
    module = importlib.import_module(path)
    if not isinstance(getattr(module, "SESSION", None), type):
        raise ValueError(f"{path}, the terminal plug-in of {game.name!r}, has no SESSION")
    return module


class Session:
    """The person at ``seat`` plays ``table`` against the bots in ``bots`` (the other
    three seats); ``labels`` name the four seats' players (the record's ``strategies``).

    ``Session(table, ...)`` makes the session of the table's game (its terminal
    plug-in's ``SESSION``, a subclass); a subclass answers ``prompt``, ``_move``,
    ``status``, ``score``, ``last`` and ``final_lines`` in its game's words."""

    help_text = ""
    """The text of the ``help`` command."""
    title: str | None = None
    """How the game is called when a session starts (None: its registered name)."""

    def __new__(cls, table: Table, *args: Any, **kwargs: Any) -> Session:
        if cls is Session:
            cls = terminal_of(table.game).SESSION
        return super().__new__(cls)

    def __init__(self, table: Table, seat: Seat, bots: Mapping[int, Strategy],
                 labels: list[str], say: Callable[[str], None],
                 style: Style | None = None) -> None:
        self.table, self.seat, self.bots, self.labels = table, seat, dict(bots), labels
        self.say = say
        self.style = self._style(style or Style())
        self.names = self._names(seat)
        self.narrator = parts(table.game).narrator.Narrator(self.style, self.names)
        self.actions: list[Action] = []
        """The person's actions so far, in order: with the seed, the whole game."""
        self._told = 0
        self._looks: dict[int, int] = {}

    def _style(self, style: Style) -> Style:
        """The style the game's narrator paints with (a game's own kind of ``Style``)."""
        return style

    def _names(self, seat: Seat) -> Names:
        """How seats are named for the person at ``seat``: by where they sit."""
        return PlaceNames(seat)

    # -- the game loop ---------------------------------------------------------------

    def run(self, ask: Callable[[str], str]) -> str:
        """Play until the game is over (``OVER``) or the person quits (``QUIT``)."""
        self._catch_up()
        while not self.table.over:
            self.status()
            while True:
                answer = self._answer(ask(self.prompt()))
                if answer == QUIT:
                    return QUIT
                if answer is not None:
                    break
            self.table.act(int(answer))
            self.actions.append(int(answer))
            self._catch_up()
        return OVER

    def replay(self, actions: list[Action]) -> None:
        """Redo a saved game's moves silently (bots answer as before: their choices
        depend only on the game); ValueError if the moves do not fit the game."""
        for k, a in enumerate(actions):
            self.table.play_bots(self.bots)
            if self.table.over or self.table.turn != self.seat:
                raise ValueError(f"move {k + 1}: it is not seat {self.seat}'s turn")
            why = self.table.why_illegal(a)
            if why is not None:
                raise ValueError(f"move {k + 1}: {why}")
            self.table.act(a)
            self.actions.append(a)
        self.table.play_bots(self.bots)
        self._told = len(self.table.history)
        for e in self.table.history_for(self.seat):  # keep the narrator's state
            self.narrator.lines(e)

    def _catch_up(self) -> None:
        """Let the bots play until the person must decide; print everything new."""
        self.table.play_bots(self.bots)
        new = self.table.history_for(self.seat)[self._told:]
        self._told += len(new)
        for e in new:
            for line in self.narrator.lines(e):
                self.say(line)

    def _answer(self, text: str) -> Action | str | None:
        """The action typed, ``QUIT``, or None after printing why the line is no action
        (a command's output, or why the move is not allowed)."""
        t = text.strip()
        word = t.lower()
        if not t:
            return None
        if word in ("help", "?", "h"):
            self.say(self.help_text)
        elif word == "hand":
            self.status()
        elif word == "score":
            self.score()
        elif word == "last":
            self.last()
        elif word in ("quit", "exit", "q"):
            return QUIT
        else:
            return self._move(t)
        return None

    # -- the game's own words (a subclass answers them) ------------------------------

    def prompt(self) -> str:
        """What the person is asked for now."""
        raise NotImplementedError

    def _move(self, text: str) -> Action | None:
        """The legal action ``text`` names, or None after saying why not."""
        raise NotImplementedError

    def status(self) -> None:
        """The table as the person sees it before deciding, and their hand."""
        raise NotImplementedError

    def score(self) -> None:
        """The scores so far."""
        raise NotImplementedError

    def last(self) -> None:
        """Show the last trick, if the person may still look at it."""
        raise NotImplementedError

    def final_lines(self) -> list[str]:
        """The final scores and the result (the game must be over)."""
        raise NotImplementedError

    def show_last_trick(self, trick: Any, scope: int, where: str,
                        line: Callable[[Any], str]) -> None:
        """Say ``trick`` (a completed trick's event, drawn by ``line``), unless it was
        looked at ``LOOKS`` times already in ``scope`` (a contract's number, or 0 for the
        whole game), which ``where`` names ("this contract", "this game")."""
        looked = self._looks.get(scope, 0)
        if looked >= LOOKS:
            self.say(f"You have already looked at the last trick {LOOKS} times in {where}.")
            return
        self._looks[scope] = looked + 1
        self.say(f"Last trick ({trick.trick + 1}): {line(trick)}  →  won by "
                 f"{self.names(trick.winner)}   [look {looked + 1} of {LOOKS}]")

    # -- saving ----------------------------------------------------------------------

    def saved(self, seed: int, game_id: int, against: str) -> dict[str, Any]:
        """What ``--resume`` needs to rebuild this unfinished game."""
        return {"format": SAVE_FORMAT, "seed": seed, "game_id": game_id, "seat": self.seat,
                "against": against, "actions": list(self.actions),
                "game": self.table.game.name}


def game_record(table: Table, seed: int | None, labels: list[str]) -> Any:
    """The finished game at ``table`` as a record with ``to_json()``: in the game's own
    format where its terminal plug-in writes one (``record``), else the
    ``trixsim-record/1`` envelope."""
    own = getattr(terminal_of(table.game), "record", None)
    return own(table, seed, labels) if own is not None else table.record(labels)


def load_save(path: Path) -> dict[str, Any]:
    """A saved game's fields; ValueError with a one-line reason if it is not one. A save
    names its game (``game``) unless written before saves did; whether its actions fit
    that game is for the caller, who knows the game, to check."""
    try:
        d = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ValueError(f"cannot read {path}: {exc}") from None
    if not isinstance(d, dict) or d.get("format") != SAVE_FORMAT:
        raise ValueError(f"{path} is not a saved trixsim game ({SAVE_FORMAT})")
    ints = ("seed", "game_id", "seat")
    if not all(isinstance(d.get(k), int) and not isinstance(d.get(k), bool) for k in ints) \
            or not 0 <= d["seat"] <= 3 or d["seed"] < 0 or d["game_id"] < 0 \
            or not isinstance(d.get("against"), str) \
            or not isinstance(d.get("actions"), list) \
            or not all(isinstance(a, int) and not isinstance(a, bool) and 0 <= a < 64
                       for a in d["actions"]) \
            or ("game" in d and not isinstance(d["game"], str)):
        raise ValueError(damaged(path))
    return d


def damaged(path: Path) -> str:
    """The one line that says a save is damaged."""
    return f"{path}: a damaged save (seed, game_id, seat, against, actions)"


__all__ = ["LOOKS", "OVER", "QUIT", "SAVE_FORMAT", "Session", "damaged", "game_record",
           "load_save", "terminal_of"]
