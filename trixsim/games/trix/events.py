"""What happened: the events ``init`` and ``step`` report when asked, raw and readable.

The compiled engine writes one int64 row per event into an ``EventLog`` buffer:
``[batch position, kind, seat, contract number (0-based), p0 .. p21]``. Nobody asking costs
nothing (``step`` without ``events`` writes none). ``decode`` turns rows into small
immutable objects for records, tables and the table's wire protocol:

| kind | seat | payload |
|---|---|---|
| ``Deal`` (chance) | the picker | the four hands as dealt |
| ``Pick`` | the picker | contract, pick number 1-7, whether it was the only choice |
| ``Declare`` | the K♥ holder | declared or not |
| ``Card`` | the player | the card, the trick number (0-based) |
| ``Trick`` | the winner | the leader and the four cards in playing order, trick number |
| ``Place`` / ``Pass`` | the trix player | the card placed |
| ``Out`` | the seat out of cards in trix | 1 first (−100), 2 second (−50) |
| ``ContractEnd`` | the picker | every seat's points, new totals (1000 rule applied) and |
| | | tricks; who declared K♥, who took it; tricks played; trix's two outs; |
| | | the cards each seat took (p17..p20) and who took the last trick (p21) |
| ``GameEnd`` | | the final totals |

``Deal`` holds every hand: it is what chance did, not what a seat saw; a table filters it
per seat (``visible_to``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from trixsim.gamekit import events as gamekit
from trixsim.gamekit.events import quad as _quad

EV_WIDTH = 26
(DEAL, PICK, DECLARE, CARD, TRICK, PLACE, PASS, OUT, CONTRACT_END, GAME_END) = range(10)
PER_STEP = 5  # most events one game makes in one step (a card, the trick, the end, a deal)


class EventLog(gamekit.EventLog):
    """A reusable buffer for the events of one ``init`` or ``step`` call."""

    width = EV_WIDTH
    per_step = PER_STEP


@dataclass(frozen=True)
class Event(gamekit.Event):
    """Something that happened in one game (``game``: its global index) during one of its
    contracts."""

    contract: int  # the contract's number in the game, 0-based


@dataclass(frozen=True)
class Deal(Event):
    """Chance dealt a contract; ``picker`` now picks."""

    picker: int
    hands: tuple[int, int, int, int]


@dataclass(frozen=True)
class Pick(Event):
    """The picker chose a contract."""

    seat: int
    choice: int
    pick: int
    forced: bool


@dataclass(frozen=True)
class Declare(Event):
    """The K♥ holder declared it (or kept quiet)."""

    seat: int
    declared: bool


@dataclass(frozen=True)
class Card(Event):
    """A card played to a trick."""

    seat: int
    card: int
    trick: int


@dataclass(frozen=True)
class Trick(Event):
    """A completed trick: its leader, cards in playing order, winner."""

    winner: int
    leader: int
    cards: tuple[int, int, int, int]
    trick: int


@dataclass(frozen=True)
class Place(Event):
    """A card placed in trix."""

    seat: int
    card: int


@dataclass(frozen=True)
class Pass(Event):
    """A trix pass (the seat could place nothing)."""

    seat: int


@dataclass(frozen=True)
class Out(Event):
    """A seat placed its last card in trix: ``place`` 1 first out, 2 second."""

    seat: int
    place: int


@dataclass(frozen=True)
class ContractEnd(Event):
    """A contract ended: every seat's points and totals after it, with what the outcome
    tables need of it (so they read one event per contract, not every trick)."""

    picker: int
    points: tuple[int, int, int, int]
    totals: tuple[int, int, int, int]
    tricks: tuple[int, int, int, int] = (0, 0, 0, 0)
    declared: int = -1  # seat that declared K♥, -1 none
    kh_taker: int = -1  # seat that took K♥ in a trick, -1 none
    tricks_played: int = 0
    out_first: int = -1  # trix
    out_second: int = -1


@dataclass(frozen=True)
class GameEnd(Event):
    """The game ended with these totals."""

    totals: tuple[int, int, int, int]


def decode(rows: np.ndarray, game_ids: np.ndarray) -> list[Event]:
    """Readable events from raw rows (``game_ids``: the batch's global game indices)."""
    out: list[Event] = []
    for r in rows.tolist():
        g, kind, seat, cn = int(game_ids[r[0]]), r[1], r[2], r[3]
        if kind == DEAL:
            out.append(Deal(g, cn, seat, _quad(r, 4)))
        elif kind == PICK:
            out.append(Pick(g, cn, seat, r[4], r[5], bool(r[6])))
        elif kind == DECLARE:
            out.append(Declare(g, cn, seat, bool(r[4])))
        elif kind == CARD:
            out.append(Card(g, cn, seat, r[4], r[5]))
        elif kind == TRICK:
            out.append(Trick(g, cn, seat, r[8], _quad(r, 4), r[9]))
        elif kind == PLACE:
            out.append(Place(g, cn, seat, r[4]))
        elif kind == PASS:
            out.append(Pass(g, cn, seat))
        elif kind == OUT:
            out.append(Out(g, cn, seat, r[4]))
        elif kind == CONTRACT_END:
            out.append(ContractEnd(g, cn, seat, _quad(r, 4), _quad(r, 8), _quad(r, 12),
                                   *r[16:21]))
        elif kind == GAME_END:
            out.append(GameEnd(g, cn, _quad(r, 4)))
    return out


def visible_to(event: Event, seat: int) -> Event | None:
    """The event as ``seat`` may see it, or None when it is not told to that seat.

    A deal shows only the seat's own hand. A K♥ declaration left unmade is known only to
    its holder: telling the others that a decision was taken would name the holder.
    """
    if isinstance(event, Deal):
        hands = tuple(h if s == seat else 0 for s, h in enumerate(event.hands))
        return Deal(event.game, event.contract, event.picker, hands)  # type: ignore[arg-type]
    if isinstance(event, Declare) and not event.declared and event.seat != seat:
        return None
    return event


__all__ = ["CARD", "CONTRACT_END", "DEAL", "DECLARE", "EV_WIDTH", "GAME_END", "OUT", "PASS",
           "PICK", "PLACE", "TRICK", "Card", "ContractEnd", "Deal", "Declare", "Event",
           "EventLog", "GameEnd", "Out", "Pass", "Pick", "Place", "Trick", "decode",
           "visible_to"]
