"""Tables, seats and seat tokens: the web table's game logic, with no network in it.

A ``Hub`` (trixsim.serve.hub) holds any number of ``GameTable``s by id. A table has
four seats, each open, a person's (held by a random seat token, kept by the person's
browser) or a bot's (a strategy spec). The person who creates a table holds seat 0 and
is its host: they may put a bot in any open seat. The game starts when four are seated,
on a ``trixsim.table.Table`` with a random seed that never leaves the server.

The server is the only authority: every action is checked against the engine
(``Table.why_illegal``) for the seat that sent it, and a refusal is a ``Refused`` with a
one-line reason for that client only. A person who leaves keeps the seat; after
``bot_after`` seconds away (None: never) a stand-in bot plays for them until they return.
A card chosen in advance is played when the seat's turn comes if it is still legal, and
dropped with a notice otherwise. A finished game is written as a trixsim-record/1
envelope (trixsim.records), checked as ``trixsim replay`` checks it.

A table plays the game it was created for (``game_name``, any registered game with table
parts: ``trixsim.table.parts``); what is the game's own (which cards a seat may choose in
advance, the last trick, the view) comes from the game's ``view`` module. A table may be
``listed`` in the server's lobby while it has open seats.
"""

from __future__ import annotations

import re
import secrets
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

from trixsim.folders import write_atomic
from trixsim.games import get_game
from trixsim.records import replay
from trixsim.serve.bots import BotList, BotRefused
from trixsim.serve.wire import event_dicts, game_view
from trixsim.strategy import Strategy
from trixsim.table import Table, parts
from trixsim.terminal.names import PlaceNames

HUMAN = "human"
"""The record's name for a person's seat (as ``trixsim play`` writes it)."""
OPEN, PERSON, BOT = "open", "human", "bot"
NAME_RE = re.compile(r"[^\w .'-]", re.UNICODE)


SIT_IN_AFTER = 60.0
"""Default seconds away before a friend may sit in (a dropped connection is not a leave)."""


class Refused(Exception):
    """A client's message that is not allowed; the text goes back to that client only."""


@dataclass
class SeatInfo:
    """Who sits in one seat."""

    kind: str = OPEN
    name: str = ""
    token: str | None = None
    spec: str | None = None
    bot: Strategy | None = None
    online: int = 0
    """Open connections of the person holding the seat."""
    away_since: float | None = None
    preselect: int | None = None
    sub_token: str | None = None
    """The token of a friend sitting in for the (away) person; void once they return."""
    sub_name: str = ""
    sub_online: int = 0
    """Open connections of that friend."""


def clean_name(text: Any, seat: int) -> str:
    """A display name: printable, at most 20 characters (default "Seat N")."""
    name = NAME_RE.sub("", text if isinstance(text, str) else "").strip()[:20]
    return name or f"Seat {seat}"


@dataclass
class GameTable:
    """One table: its seats, its game once four are seated, per-seat bookkeeping."""

    id: str
    bot_after: float | None
    stand_in: Strategy
    records: Path | None
    clock: Callable[[], float] = time.monotonic
    seats: list[SeatInfo] = field(default_factory=lambda: [SeatInfo() for _ in range(4)])
    game: Table | None = None
    seed: int = field(default_factory=lambda: secrets.randbelow(2**63))
    looks: dict[tuple[int, int], int] = field(default_factory=dict)
    told: list[int] = field(default_factory=lambda: [0] * 4)
    record_path: Path | None = None
    record_error: str | None = None
    keep_error: str | None = None
    bots: BotList | None = None
    """The bots the host may seat (None: the bundled ones of the table's game)."""
    sit_in_after: float = SIT_IN_AFTER
    """Seconds a person must have been away before a friend may sit in for them."""
    game_name: str = field(kw_only=True)
    """The game this table plays (a registered name; a table has no default game)."""
    listed: bool = False
    """Whether the server's lobby lists this table while it has open seats."""

    def __post_init__(self) -> None:
        if self.bots is None:
            self.bots = BotList(game=self.game_name)

    @property
    def parts(self) -> tuple[ModuleType, ModuleType]:
        """The game's ``view`` and ``narrator`` modules."""
        p = parts(get_game(self.game_name))
        return p.view, p.narrator

    def names(self, seat: int) -> Any:
        """The game's way of naming seats to the person at ``seat``."""
        return self.parts[1].Names(seat)

    def free_seats(self) -> list[int]:
        """The open seats (before the game starts)."""
        return [s for s, i in enumerate(self.seats) if i.kind == OPEN] \
            if self.game is None else []

    # -- seats -----------------------------------------------------------------------

    @property
    def phase(self) -> str:
        """``waiting`` for players, ``playing``, or ``over``."""
        if self.game is None:
            return "waiting"
        return "over" if self.game.over else "playing"

    def seat_of(self, token: Any) -> int | None:
        """The seat held with ``token`` at this table (None: no seat)."""
        return self.holder(token)[0]

    def holder(self, token: Any) -> tuple[int | None, bool]:
        """(the seat ``token`` acts for, whether it is a friend sitting in); (None, False)
        for no seat. A friend's token acts only until the seat's person is back."""
        if not isinstance(token, str) or not token:
            return None, False
        for s, info in enumerate(self.seats):
            if info.token is not None and secrets.compare_digest(info.token, token):
                return s, False
            if info.sub_token is not None and secrets.compare_digest(info.sub_token, token):
                return s, True
        return None, False

    def sit(self, seat: Any, name: Any) -> tuple[int, str]:
        """Give a person the open seat ``seat`` (None: the first open one): (seat, token).
        Once the game has started, a seat whose person is away may be taken by a friend
        sitting in for them (``sit_in``)."""
        if self.game is not None:
            return self.sit_in(seat, name)
        if seat is None:
            free = [s for s, i in enumerate(self.seats) if i.kind == OPEN]
            if not free:
                raise Refused("the table is full")
            seat = free[0]
        s = _seat_number(seat)
        if self.seats[s].kind != OPEN:
            raise Refused(f"seat {s} is taken")
        token = secrets.token_urlsafe(24)
        self.seats[s] = SeatInfo(kind=PERSON, name=clean_name(name, s), token=token)
        self._maybe_start()
        return s, token

    def sit_in(self, seat: Any, name: Any) -> tuple[int, str]:
        """A friend plays for the away person at ``seat`` (None: the first such seat) until
        that person returns: (seat, the friend's token)."""
        if self.game is None or self.game.over:
            raise Refused("there is no game to sit in" if self.game is None
                          else "the game is over")
        if seat is None:
            free = [s for s, i in enumerate(self.seats)
                    if i.kind == PERSON and i.online == 0 and i.sub_token is None]
            if not free:
                raise Refused("every player is here: no seat to sit in")
            seat = free[0]
        s = _seat_number(seat)
        info = self.seats[s]
        if info.kind != PERSON:
            raise Refused(f"seat {s} is played by a bot")
        if info.online > 0:
            raise Refused(f"{info.name} is at the table: seat {s} is theirs")
        if info.sub_token is not None:
            raise Refused(f"{info.sub_name} already sits in for {info.name}")
        away = self.clock() - (info.away_since if info.away_since is not None else self.clock())
        if away < self.sit_in_after:
            raise Refused(f"{info.name} has been away for less than {self.sit_in_after:g} s: "
                          f"wait a little before sitting in for them")
        info.sub_token, info.sub_name = secrets.token_urlsafe(24), clean_name(name, s)
        info.sub_online = 0
        return s, info.sub_token

    def put_bot(self, by: int | None, seat: Any, spec: Any) -> None:
        """The host (seat 0) puts a bot playing ``spec`` in an open seat."""
        self._host_only(by)
        s = _seat_number(seat)
        if self.seats[s].kind != OPEN:
            raise Refused(f"seat {s} is not open")
        if not isinstance(spec, str) or not spec.strip():
            raise Refused("give a strategy spec, e.g. heuristic or pimc:worlds=8")
        try:
            bot = self.bots.load(spec)
        except BotRefused as exc:
            raise Refused(str(exc)) from None
        self.seats[s] = SeatInfo(kind=BOT, name=self.bots.label(spec),
                                 spec=self.bots.resolve(spec), bot=bot)
        self._maybe_start()

    def clear_seat(self, by: int | None, seat: Any) -> None:
        """The host takes a bot out of a seat before the game starts."""
        self._host_only(by)
        s = _seat_number(seat)
        if self.seats[s].kind != BOT:
            raise Refused(f"seat {s} holds no bot")
        self.seats[s] = SeatInfo()

    def _host_only(self, by: int | None) -> None:
        if by != 0:
            raise Refused("only the table's host (seat 0) may seat bots")
        if self.game is not None:
            raise Refused("the game has started")

    def _maybe_start(self) -> None:
        if self.game is None and all(i.kind != OPEN for i in self.seats):
            self.game = Table(self.seed, game_id=0, game=get_game(self.game_name))

    def connected(self, seat: int, sub: bool = False) -> bool:
        """A connection of the person at ``seat`` (or, with ``sub``, of the friend sitting
        in) opened. Returns whether a friend sitting in must now stand up: the person is
        back."""
        info = self.seats[seat]
        if sub:
            info.sub_online += 1
            return False
        info.online += 1
        info.away_since = None
        back = info.sub_token is not None
        info.sub_token, info.sub_name, info.sub_online = None, "", 0
        return back

    def disconnected(self, seat: int, sub: bool = False) -> None:
        """A connection closed; with none left the person is away from now."""
        info = self.seats[seat]
        if sub:
            info.sub_online = max(0, info.sub_online - 1)
            return
        info.online = max(0, info.online - 1)
        if info.online == 0:
            info.away_since = self.clock()

    def standing_in(self, seat: int) -> bool:
        """Whether the stand-in bot plays for the (away) person at ``seat`` now."""
        info = self.seats[seat]
        return (info.kind == PERSON and self.bot_after is not None
                and info.away_since is not None and info.sub_online == 0
                and self.clock() - info.away_since >= self.bot_after)

    def wake_in(self) -> float | None:
        """Seconds until an away person's stand-in must take their turn (None: never)."""
        g = self.game
        if g is None or g.over or self.bot_after is None:
            return None
        info = self.seats[g.turn]
        if info.kind != PERSON or info.away_since is None or info.sub_online > 0:
            return None
        return max(0.0, info.away_since + self.bot_after - self.clock())

    # -- the game --------------------------------------------------------------------

    def act(self, seat: int | None, action: Any) -> None:
        """The person at ``seat`` takes ``action`` (then call ``advance``)."""
        if seat is None:
            raise Refused("take a seat first")
        g = self._running()
        if g.turn != seat:
            raise Refused("it is not your turn")
        if not isinstance(action, int) or isinstance(action, bool):
            raise Refused("an action is a number")
        why = g.why_illegal(action)
        if why is not None:
            raise Refused(f"not allowed: {self.names(seat).personal(why)}")
        g.act(action)
        self.seats[seat].preselect = None

    def preselect(self, seat: int | None, card: Any) -> None:
        """Choose the card to play when ``seat``'s turn comes (None clears the choice)."""
        if seat is None:
            raise Refused("take a seat first")
        g = self._running()
        if card is None:
            self.seats[seat].preselect = None
            return
        view = self.parts[0]
        if not isinstance(card, int) or isinstance(card, bool) \
                or not 0 <= card < view.N_CARDS:
            raise Refused(f"a card is a number 0-{view.N_CARDS - 1}")
        if not _holds(g, seat, card):
            raise Refused("that card is not in your hand")
        why = view.choose_refusal(g, seat)
        if why is not None:
            raise Refused(why)
        self.seats[seat].preselect = card

    def last_trick(self, seat: int | None) -> dict[str, Any]:
        """The last completed trick (of this contract in Trix); at most ``LOOKS`` times a
        contract (a game in trump7)."""
        if seat is None:
            raise Refused("take a seat first")
        g = self._running()
        view = self.parts[0]
        number = view.round_no(g, seat)
        try:
            e = view.last_trick(g, seat)
        except ValueError as exc:
            raise Refused(str(exc)) from None
        looked = self.looks.get((seat, number), 0)
        if looked >= view.LOOKS:
            raise Refused(f"you have already looked at the last trick {view.LOOKS} times in "
                          f"this {view.ROUND}")
        self.looks[(seat, number)] = looked + 1
        return {"type": "last", "trick": view.event_dict(e),
                "looks_left": view.LOOKS - looked - 1,
                "text": view.trick_text(PlaceNames(seat), e)}

    def _running(self) -> Table:
        if self.game is None:
            raise Refused("the game has not started: four players are needed")
        if self.game.over:
            raise Refused("the game is over")
        return self.game

    def advance(self) -> dict[int, str]:
        """Let bots, stand-ins and chosen cards play until a person must decide, the bots
        thinking here (the server lets them think in a worker thread instead: ``next_bot``).

        Returns notices for seats whose chosen card could not be played. Writes the record
        once the game is over.
        """
        notices: dict[int, str] = {}
        while (step := self.next_bot(notices)) is not None:
            assert self.game is not None
            self.game.act(self.game.thinker(step[1])())
        self.settle()
        return notices

    def next_bot(self, notices: dict[int, str]) -> tuple[int, Strategy] | None:
        """Play forced passes and chosen cards; then the (seat, bot or stand-in) that must
        decide now, or None when a person must (or the game is over). A chosen card that
        is no longer allowed is dropped with a notice in ``notices``."""
        g = self.game
        if g is None:
            return None
        while not g.over:
            bots = {s: (i.bot if i.kind == BOT else self.stand_in)
                    for s, i in enumerate(self.seats)
                    if i.kind == BOT or self.standing_in(s)}
            seat = g.pass_forced(bots)  # type: ignore[arg-type]
            if seat is not None:
                return seat, bots[seat]  # type: ignore[return-value]
            if g.over:
                break
            info = self.seats[g.turn]
            card = info.preselect
            if card is None or g.decision not in self.parts[0].PLAY_DECISIONS:
                break
            info.preselect = None
            why = g.why_illegal(card)
            if why is None:
                g.act(card)
                continue
            notices[g.turn] = (f"Your chosen card could not be played "
                               f"({self.names(g.turn).personal(why)}): choose again.")
            break
        return None

    def settle(self) -> None:
        """After the bots: forget stale chosen cards; write the record of a finished game."""
        g = self.game
        if g is None:
            return
        self._drop_stale_choices()
        if g.over and self.record_path is None and self.record_error is None:
            self._save()

    def _drop_stale_choices(self) -> None:
        """Forget chosen cards from an earlier contract (the hand is new)."""
        g = self.game
        assert g is not None
        for s, info in enumerate(self.seats):
            if info.preselect is not None and (g.over or not _holds(g, s, info.preselect)):
                info.preselect = None

    def labels(self) -> list[str]:
        """The record's ``strategies``: a bot's spec, ``human`` for a person."""
        return [i.spec or HUMAN for i in self.seats]

    def _save(self) -> None:
        """Write the finished game as a trixsim-record/1 envelope, replayed first."""
        if self.records is None or self.game is None:
            return
        try:
            rec = self.game.record(self.labels())
            replay(rec)
            self.records.mkdir(parents=True, exist_ok=True)
            stamp = time.strftime("%Y%m%d-%H%M%S")
            path = self.records / f"table-{stamp}-{self.id}.jsonl"
            write_atomic(path, rec.to_json() + "\n")
            self.record_path = path
        except (OSError, ValueError) as exc:
            self.record_error = f"{type(exc).__name__}: {exc}"
            print(f"trixsim serve: could not save table {self.id}'s game: "
                  f"{self.record_error}", file=sys.stderr)

    # -- what each seat is sent ------------------------------------------------------

    def state(self, seat: int | None, events: bool = True) -> dict[str, Any]:
        """The ``state`` message for ``seat`` (None: someone not seated): the seats, and
        the game as that seat may see it, with the events since its last state when
        ``events`` (a fresh connection gets none: the state is complete)."""
        msg: dict[str, Any] = {
            "type": "state", "table": self.id, "you": seat, "host": seat == 0,
            "phase": self.phase,
            "seats": [{"seat": s, "kind": i.kind, "name": i.name,
                       "online": i.kind != PERSON or i.online > 0,
                       "sub": i.sub_name if i.sub_token is not None else None,
                       "standin": self.standing_in(s)} for s, i in enumerate(self.seats)],
            "game": None, "events": [], "game_name": self.game_name}
        g = self.game
        if g is None or seat is None:
            return msg
        seen = g.history_for(seat)
        if events:
            msg["events"] = event_dicts(g, seen[self.told[seat]:])
        self.told[seat] = len(seen)
        view = self.parts[0]
        looks_left = view.LOOKS - self.looks.get((seat, view.round_no(g, seat)), 0)
        msg["game"] = game_view(g, seat, looks_left, self.seats[seat].preselect)
        if g.over:
            msg["game"]["saved"] = self.record_path is not None
        return msg


def _holds(g: Table, seat: int, card: int) -> bool:
    """Whether ``seat`` holds ``card`` now."""
    return bool((int(g.view(seat).hand[0]) >> card) & 1)


def _seat_number(seat: Any) -> int:
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat <= 3:
        raise Refused("a seat is a number 0-3")
    return seat


__all__ = ["BOT", "HUMAN", "OPEN", "PERSON", "SIT_IN_AFTER", "GameTable", "Refused",
           "SeatInfo", "clean_name"]
