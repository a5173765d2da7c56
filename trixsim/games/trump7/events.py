"""What happened in trump7 games: the events ``init`` and ``step`` report when asked.

The compiled rules write one int64 row per event: ``[batch position, kind, seat, trick
number (0-based), p0 .. p16]`` (the same 21-column layout as Trix's events, so one buffer
type serves both). Nobody asking costs nothing. ``decode`` makes readable objects:

| kind | seat | payload |
|---|---|---|
| ``Deal`` (chance) | the dealer | the four hands as dealt, the turned card, the eldest |
| ``Bid`` | the bidder | the bid (0-13) |
| ``Card`` | the player | the card, the trick number |
| ``Trick`` | the winner | the four cards in playing order, the leader, its honour points |
| ``Draw`` | the first to draw | the four cards drawn, in drawing order from that seat |
| ``GameEnd`` | | every seat's points, tricks, honour points and bid |

``Deal`` and ``Draw`` hold hidden cards: they are what chance did, not what a seat saw;
``visible_to`` filters them per seat (the turned card stays public all along).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from trixsim.gamekit import events as gamekit
from trixsim.gamekit.events import Event
from trixsim.gamekit.events import quad as _quad

EV_WIDTH = 21
(DEAL, BID, CARD, TRICK, DRAW, GAME_END) = range(6)
PER_STEP = 5
"""Room for events per game per call (a step makes at most three: card, trick, draw or
end)."""


class EventLog(gamekit.EventLog):
    """A reusable buffer for the events of one ``init`` or ``step`` call."""

    width = EV_WIDTH
    per_step = PER_STEP


@dataclass(frozen=True)
class Deal(Event):
    """Chance dealt the game and turned the trump card."""

    dealer: int
    hands: tuple[int, int, int, int]
    turned: int
    eldest: int


@dataclass(frozen=True)
class Bid(Event):
    """A seat announced how many tricks it will win (trump7-bid)."""

    seat: int
    bid: int


@dataclass(frozen=True)
class Card(Event):
    """A card played to a trick."""

    seat: int
    card: int
    trick: int


@dataclass(frozen=True)
class Trick(Event):
    """A completed trick: its winner, cards in playing order, leader, honour points."""

    winner: int
    cards: tuple[int, int, int, int]
    leader: int
    honours: int
    trick: int


@dataclass(frozen=True)
class Draw(Event):
    """After a trick, every seat drew one card from the stock, ``first`` first; -1 stands
    for a card the viewer may not see."""

    first: int
    cards: tuple[int, int, int, int]
    trick: int
    turned_holder: int  # the seat that drew the turned card in this round, else -1


@dataclass(frozen=True)
class GameEnd(Event):
    """The game ended: per seat its points, tricks, honour points and bid (-1 none)."""

    points: tuple[int, int, int, int]
    tricks: tuple[int, int, int, int]
    honours: tuple[int, int, int, int]
    bids: tuple[int, int, int, int]


def decode(rows: np.ndarray, game_ids: np.ndarray) -> list[Event]:
    """Readable events from raw rows (``game_ids``: the batch's global game indices)."""
    out: list[Event] = []
    for r in np.asarray(rows).tolist():
        g, kind, seat, tn = int(game_ids[r[0]]), r[1], r[2], r[3]
        if kind == DEAL:
            out.append(Deal(g, seat, _quad(r, 4), r[8], r[9]))
        elif kind == BID:
            out.append(Bid(g, seat, r[4]))
        elif kind == CARD:
            out.append(Card(g, seat, r[4], tn))
        elif kind == TRICK:
            out.append(Trick(g, seat, _quad(r, 4), r[8], r[9], tn))
        elif kind == DRAW:
            out.append(Draw(g, seat, _quad(r, 4), tn, r[8]))
        elif kind == GAME_END:
            out.append(GameEnd(g, _quad(r, 4), _quad(r, 8), _quad(r, 12), _quad(r, 16)))
    return out


def visible_to(event: Event, seat: int) -> Event:
    """The event as ``seat`` may see it: its own hand of a deal, its own drawn card and
    the turned card of a draw; everything else is public."""
    if isinstance(event, Deal):
        hands = tuple(h if s == seat else 0 for s, h in enumerate(event.hands))
        return Deal(event.game, event.dealer, hands, event.turned,  # type: ignore[arg-type]
                    event.eldest)
    if isinstance(event, Draw):
        cards = tuple(c if (event.first + k) % 4 == seat or (event.first + k) % 4
                      == event.turned_holder else -1 for k, c in enumerate(event.cards))
        return Draw(event.game, event.first, cards, event.trick,  # type: ignore[arg-type]
                    event.turned_holder)
    return event


__all__ = ["BID", "CARD", "DEAL", "DRAW", "EV_WIDTH", "GAME_END", "PER_STEP", "TRICK", "Bid",
           "Card", "Deal", "Draw", "Event", "EventLog", "GameEnd", "Trick", "decode",
           "visible_to"]
