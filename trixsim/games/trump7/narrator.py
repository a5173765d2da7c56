"""trump7 told in words: its cards, hands and events, for the terminal table and the web
table's log (one narrator for both).

Cards are written rank then suit symbol (``10♥``, ``Q♠``), red for hearts and diamonds
when colour is on; a hand is shown by suit, trumps last and apart. ``Narrator(style,
names)`` turns each event a seat may see (``Table.history_for``) into lines; ``brief``
is the web log's telling (the same sentences, without blank lines or tables).
"""

from __future__ import annotations

from trixsim.games.trump7.cards import (
    HONOUR_POINTS,
    N_RANKS,
    RANKS,
    Card,
    CardMask,
    cards_of,
)
from trixsim.games.trump7.events import Bid, Deal, Draw, Event, GameEnd, Trick
from trixsim.terminal.names import Names, PlaceNames, Style

SYMBOLS = "♣♦♥♠"
"""Suit symbols in suit order (clubs, diamonds, hearts, spades)."""
STOCK = 24
"""Cards in the stock after the deal (the turned card last)."""


def card_text(style: Style, c: Card, playable: bool | None = None) -> str:
    """``Q♥`` (red for hearts and diamonds); ``[Q♥]`` when playable, dim when not."""
    text = RANKS[c % N_RANKS] + SYMBOLS[c // N_RANKS]
    return style.paint(f"[{text}]" if playable else text, red=c // N_RANKS in (1, 2),
                       playable=playable)


def plain(c: Card) -> str:
    """A card as ``Q♥`` without colour."""
    return RANKS[c % N_RANKS] + SYMBOLS[c // N_RANKS]


def suit_order(trump: int) -> list[int]:
    """Suits as a hand shows them: the plain suits, then trumps (apart)."""
    return [s for s in range(4) if s != trump] + ([trump] if 0 <= trump < 4 else [])


def hand_line(style: Style, hand: CardMask, trump: int,
              playable: set[int] | None = None) -> str:
    """A hand by suit, strongest first, trumps last after a bar; playable cards in
    brackets when ``playable`` is given."""
    parts = []
    for s in suit_order(trump):
        cards = sorted((c for c in cards_of(hand) if c // N_RANKS == s), reverse=True)
        shown = " ".join(card_text(style, c, None if playable is None else c in playable)
                         for c in cards)
        head = style.paint(SYMBOLS[s], red=s in (1, 2))
        parts.append(("| trumps " if s == trump else "") + f"{head} {shown or '-'}")
    return "   ".join(parts)


def trick_line(style: Style, names: Names, leader: int, cards: tuple[int, ...] | list[int]
               ) -> str:
    """``seat 1 Q♥, seat 2 7♥, you A♥`` for the cards played from ``leader`` on."""
    return ", ".join(f"{names((leader + k) % 4)} {card_text(style, c)}"
                     for k, c in enumerate(cards) if c >= 0)


def honour_cards(cards: list[int] | tuple[int, ...], trump: int) -> list[Card]:
    """The trump honours (ace, jack, queen of trumps) among ``cards``."""
    ranks = {r for r, _ in HONOUR_POINTS}
    return [c for c in cards if c >= 0 and c // N_RANKS == trump and c % N_RANKS in ranks]


def result_lines(names: Names, points: list[int] | tuple[int, ...]) -> list[str]:
    """Final points with the winners (most points) and losers (fewest)."""
    hi, lo = max(points), min(points)
    if hi == lo:
        return [f"Final points: {names.row(points)}", "All four have the same points: a tie."]
    win = [s for s in range(4) if points[s] == hi]
    lose = [s for s in range(4) if points[s] == lo]
    return [f"Final points: {names.row(points)}",
            ("You win!" if win == [names.me] else
             f"Winner{'s' if len(win) > 1 else ''} (most points): "
             + ", ".join(names(s) for s in win)),
            f"Loser{'s' if len(lose) > 1 else ''} (fewest points): "
            + ", ".join(names(s) for s in lose)]


def bid_stakes(bid: int) -> str:
    """What a bid puts at stake, in words (docs/rules-trump7.md, the bid)."""
    if bid == 0:
        return "a bid of 0 is always made: 1 point per trick"
    return (f"made: {2 * bid} for the {bid} trick{'s' if bid > 1 else ''}, +1 per extra; "
            f"short: -2 per trick missing (e.g. {bid - 1} trick{'' if bid == 2 else 's'}: "
            f"{bid - 1 - 2})")


class Narrator:
    """trump7's events as lines for the person at seat ``names.me`` (``brief``: the web
    log's telling, no blank lines or tables)."""

    def __init__(self, style: Style, names: Names, brief: bool = False) -> None:
        self.style, self.names, self.brief = style, names, brief
        self.trump = -1

    def lines(self, e: Event) -> list[str]:
        """What to print for one event (nothing for a single card: tricks are told whole,
        and the status before each of your turns shows the cards on the table)."""
        n, st = self.names, self.style
        if isinstance(e, Deal):
            self.trump = e.turned // N_RANKS
            head = (f"{n.does(e.dealer, 'deal')}; the turned card is "
                    f"{card_text(st, e.turned)}: trumps are {SYMBOLS[self.trump]}. "
                    f"{n(e.eldest, True)} {'are' if e.eldest == n.me else 'is'} eldest.")
            return [head] if self.brief else ["", st.bold("── trump7 ──"), head]
        if isinstance(e, Bid):
            return [f"{n.does(e.seat, 'bid')} {e.bid} trick{'' if e.bid == 1 else 's'}."]
        if isinstance(e, Trick):
            hon = honour_cards(e.cards, self.trump)
            extra = (f" (+{e.honours}: {' '.join(card_text(st, c) for c in hon)})"
                     if e.honours else "")
            return [f"Trick {e.trick + 1}: {trick_line(st, n, e.leader, e.cards)}  →  "
                    f"{n.does(e.winner, 'take')} it{extra}."]
        if isinstance(e, Draw):
            return self._draw(e)
        if isinstance(e, GameEnd):
            if self.brief:
                return ["Game over.", *result_lines(n, e.points)]
            return ["", st.bold("Game over."), *points_table(n, e), *result_lines(n, e.points)]
        return []

    def _draw(self, e: Draw) -> list[str]:
        n, st = self.names, self.style
        left = STOCK - 4 * (e.trick + 1)
        mine = [c for k, c in enumerate(e.cards) if (e.first + k) % 4 == n.me and c >= 0]
        out = [f"Everyone draws, {n(e.first)} first"
               + (f"; you draw {card_text(st, mine[0])}" if mine else "")
               + f" ({left} left in the stock)."]
        if e.turned_holder >= 0:
            turned = next(c for k, c in enumerate(e.cards)
                          if (e.first + k) % 4 == e.turned_holder)
            out.append(f"{n.does(e.turned_holder, 'draw')} the turned card "
                       f"{card_text(st, turned)}.")
        return out


def points_table(names: Names, e: GameEnd) -> list[str]:
    """Tricks, bids, honours and points of the four seats, one column each."""
    heads = [names(s) for s in range(4)]
    width = max(7, *(len(h) for h in heads))
    rows = [("tricks", e.tricks), ("honours", e.honours)]
    if any(b >= 0 for b in e.bids):
        rows.insert(1, ("bid", e.bids))
    rows.append(("points", e.points))
    return ["           " + "".join(f"{h:>{width}}" for h in heads),
            *(f"  {label:<9}" + "".join(f"{v:>{width}d}" for v in values)
              for label, values in rows)]


def log_lines(events: list[Event], seat: int) -> list[str]:
    """The game so far as short sentences for the person at ``seat`` (the web log),
    seats named by where they sit."""
    narrator = Narrator(Style(False), PlaceNames(seat), brief=True)
    return [line.strip() for e in events for line in narrator.lines(e) if line.strip()]


__all__ = ["SYMBOLS", "Names", "Narrator", "bid_stakes", "card_text", "hand_line", "honour_cards",
           "log_lines", "plain", "points_table", "result_lines", "suit_order", "trick_line"]
