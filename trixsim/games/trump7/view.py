"""What a trump7 seat is shown at a table: its view of the game and the events it may
see, as JSON-ready dicts (the web table's per-game view; ``trixsim.serve.wire`` sends it).

Everything is built from ``Table.view(seat)`` (the seat's observation: its own hand and
the public fields) and ``Table.history_for(seat)`` (other hands and other seats' drawn
cards already hidden), field by field: nothing is copied wholesale, so the other hands
and the order of the stock reach no browser. The public part, by the rules: the turned
card and who drew it, every card played and by whom, each seat's tricks, honours, bid
and points so far, the cards left in the stock and in each hand.

Besides the view, what a table asks of the game (as Trix's ``view``): ``round_no``,
``last_trick``, ``choose_refusal``, ``PLAY_DECISIONS``, ``N_CARDS`` and ``LOOKS``.
"""

from __future__ import annotations

from typing import Any

from trixsim.games.trump7.cards import cards_of
from trixsim.games.trump7.events import Bid, Card, Deal, Draw, Event, GameEnd, Trick
from trixsim.games.trump7.narrator import (
    bid_stakes,
    honour_cards,
    log_lines,
    plain,
    trick_line,
)
from trixsim.games.trump7.state import BID, PLAY
from trixsim.terminal.names import Names, Style

PLAY_DECISIONS = (PLAY,)
"""The decisions a card chosen in advance is played for."""
N_CARDS = 52
"""Card ids a client may name (0-51)."""
LOOKS = 2
"""How often the last trick may be looked at in a game (as in Trix, per contract)."""
ROUND = "game"
"""What ``LOOKS`` counts within: the whole game."""

LOG_LINES = 40
"""How many of the latest log lines a state carries."""
DECISIONS = {PLAY: "play", BID: "bid"}


def event_dict(e: Event) -> dict[str, Any] | None:
    """One event for the wire (None: not told). A deal says only the dealer, eldest and
    turned card; a draw only the cards the seat may see (its own, the turned card)."""
    if isinstance(e, Deal):
        return {"kind": "deal", "dealer": e.dealer, "eldest": e.eldest, "turned": e.turned}
    if isinstance(e, Bid):
        return {"kind": "bid", "seat": e.seat, "bid": e.bid}
    if isinstance(e, Card):
        return {"kind": "card", "seat": e.seat, "card": e.card, "trick": e.trick}
    if isinstance(e, Trick):
        return {"kind": "trick", "winner": e.winner, "leader": e.leader,
                "cards": list(e.cards), "trick": e.trick, "honours": e.honours}
    if isinstance(e, Draw):
        return {"kind": "draw", "first": e.first, "trick": e.trick,
                "cards": [int(c) for c in e.cards], "turned_holder": e.turned_holder}
    if isinstance(e, GameEnd):
        return {"kind": "game_end", "points": list(e.points), "tricks": list(e.tricks),
                "honours": list(e.honours), "bids": list(e.bids)}
    return None


def game_view(table: Any, seat: int, looks_left: int,
              preselect: int | None) -> dict[str, Any]:
    """The game as ``seat`` may see it now (the ``game`` part of a state message)."""
    v = table.view(seat)
    events = table.history_for(seat)
    over = table.over
    turn = -1 if over else table.turn
    decision = "done" if over else DECISIONS[table.decision]
    legal = table.legal_actions() if turn == seat else []
    trump = int(v.trump[0])
    leader = int(v.leader[0])
    trick = [{"seat": (leader + k) % 4, "card": int(c)}
             for k, c in enumerate(v.trick_cards[0]) if int(c) >= 0]
    tricks = [e for e in events if isinstance(e, Trick)]
    honours_won: list[list[int]] = [[], [], [], []]
    for e in tricks:
        honours_won[e.winner] += honour_cards(e.cards, trump)
    bidding = bool(int(v.bidding[0]))
    return {
        "over": over,
        "turn": turn,
        "decision": decision,
        "bidding": bidding,
        "dealer": int(v.dealer[0]),
        "eldest": int(v.eldest[0]),
        "trump": trump,
        "turned": int(v.turned[0]),
        "turned_holder": int(v.turned_holder[0]),
        "stock_left": int(v.stock_left[0]),
        "hand": sorted(cards_of(int(v.hand[0]))),
        "legal": legal,
        "stakes": ({str(b): bid_stakes(b) for b in legal}
                   if decision == "bid" and turn == seat else {}),
        "trick": {"leader": leader, "cards": trick},
        "trick_no": int(v.trick_no[0]),
        "tricks": [int(x) for x in v.tricks[0]],
        "honours": [int(x) for x in v.honours[0]],
        "honour_cards": [sorted(h) for h in honours_won],
        "bids": [int(x) for x in v.bids[0]] if bidding else [-1, -1, -1, -1],
        "points": [int(x) for x in v.points[0]],
        "hand_sizes": [int(x) for x in v.hand_sizes[0]],
        "looks_left": looks_left,
        "preselect": preselect,
        "log": log_lines(events, seat)[-LOG_LINES:],
    }


def round_no(table: Any, seat: int) -> int:
    """A trump7 game is one deal: the last trick's looks are counted per game."""
    return 0


def last_trick(table: Any, seat: int) -> Trick:
    """The last completed trick; ValueError when none is yet."""
    tricks = [e for e in table.history if isinstance(e, Trick)]
    if not tricks:
        raise ValueError("no trick has been completed yet")
    return tricks[-1]


def trick_text(names: Names, e: Trick) -> str:
    """``Trick 3: you Q♥, right 7♥ … → Left takes it.`` without colour."""
    return (f"Trick {e.trick + 1}: {trick_line(Style(False), names, e.leader, e.cards)}"
            f" → {names.does(e.winner, 'take')} it.")


def choose_refusal(table: Any, seat: int) -> str | None:
    """Why ``seat`` may not choose a card in advance now (None: it may)."""
    if table.turn == seat and table.decision in PLAY_DECISIONS:
        return "it is your turn: play the card"
    if table.turn == seat and table.decision == BID:
        return "it is your turn: bid first"
    return None


__all__ = ["DECISIONS", "LOG_LINES", "LOOKS", "N_CARDS", "PLAY_DECISIONS", "choose_refusal",
           "event_dict", "game_view", "last_trick", "plain", "round_no", "trick_text"]
