"""trump7 at the terminal table: the plug-in ``Trump7Game.terminal`` names; the generic
session's loop, save and commands (``trixsim.terminal.session``), in trump7's words.

The person types a card (``QH``, ``10s``, ``TS``, ``Q♥``) or, in trump7-bid, a bid (a
number of tricks, 0-13); ``hand``, ``score``, ``last`` (the last trick, twice a game),
``help`` and ``quit`` work as in Trix. The status before each decision shows the trump
suit, the turned card and who drew it, the stock's count, the trick, each seat's tricks,
honours, bid and points so far, and the hand by suit with trumps apart, the playable
cards in brackets.
"""

from __future__ import annotations

from trixsim.game import Action
from trixsim.games.trump7.cards import Card, parse_card
from trixsim.games.trump7.events import Trick
from trixsim.games.trump7.narrator import (
    SYMBOLS,
    bid_stakes,
    card_text,
    hand_line,
    result_lines,
    trick_line,
)
from trixsim.games.trump7.state import BID, PLAY
from trixsim.terminal.names import Style
from trixsim.terminal.session import Session
from trixsim.terminal.text import read_typed_card

HELP = """\
Commands (any time it is your turn):
  a card        play it: rank then suit, e.g. QH, 10S (or TS), 7d, A♠
  a number      when you bid (trump7-bid): the tricks you will win, 0-13
  hand          show the table and your hand again
  score         tricks, honours, bids and points so far
  last          look at the last trick (at most twice a game)
  help          this text
  quit          leave the game (you may save it first, to resume with --resume)
Playable cards are shown in [brackets]; trumps are shown last, after a bar.
Play, bidding and drawing go seat 0 → 1 → 2 → 3 → 0."""


def read_card(text: str) -> Card | None:
    """The card typed as ``QH``, ``qh``, ``10s``, ``TS`` or ``Q♥``; None if it is none."""
    return read_typed_card(text, parse_card)


class Trump7Session(Session):
    """The person at ``seat`` plays a trump7 (or trump7-bid) ``table`` against ``bots``."""

    help_text = HELP

    def prompt(self) -> str:
        """What the person is asked for now."""
        return "Your bid (0-13): " if self.table.decision == BID else "Your card: "

    def _move(self, text: str) -> Action | None:
        """The legal action ``text`` names, or None after saying why not."""
        t = self.table
        if t.decision == BID:
            word = text.strip()
            if not word.isdigit() or not 0 <= int(word) <= 13:
                self.say(f"'{text}' is not a bid: type a number of tricks from 0 to 13.")
                return None
            return int(word)
        action = read_card(text)
        if action is None:
            self.say(f"'{text}' is not a card or a command: type a card such as QH, 10S or "
                     "TS (help lists the commands).")
            return None
        why = t.why_illegal(action)
        if why is not None:
            self.say(f"Not allowed: {self._personal(why)}.")
            return None
        return action

    def _personal(self, why: str) -> str:
        """A rules message addressed to you, its cards as people read them (``Q♥``)."""
        words = [card_text(Style(False), c) if (c := read_card(w)) is not None
                 and w.isupper() else w for w in self.names.personal(why).split(" ")]
        return " ".join(words)

    # -- what the person sees --------------------------------------------------------

    def _head(self) -> list[str]:
        """Trumps, the turned card and who drew it, the stock, the trick number."""
        v = self.table.view(self.seat)
        n, st = self.names, self.style
        turned, holder = int(v.turned[0]), int(v.turned_holder[0])
        trump = int(v.trump[0])
        where = (f"drawn by {n(holder)}" if holder >= 0 else "under the stock")
        stock = int(v.stock_left[0])
        return [st.bold(f"Trumps {SYMBOLS[trump]}") + f" · turned card "
                f"{card_text(st, turned)} ({where}) · stock: {stock} card"
                f"{'' if stock == 1 else 's'} · trick {min(int(v.trick_no[0]) + 1, 13)} of 13"]

    def _table_lines(self) -> list[str]:
        """Tricks, honours, bids and points of the four seats so far."""
        v = self.table.view(self.seat)
        n = self.names
        out = [f"Tricks:  {n.row([int(x) for x in v.tricks[0]])}"]
        honours = [int(x) for x in v.honours[0]]
        if any(honours):
            out.append(f"Honours: {n.row(honours)}")
        if int(v.bidding[0]):
            bids = [int(x) for x in v.bids[0]]
            out.append("Bids:    " + " · ".join(
                f"{n(s)} {b if b >= 0 else '?'}" for s, b in enumerate(bids)))
        out.append(f"Points so far: {n.row([int(x) for x in v.points[0]])}")
        return out

    def status(self) -> None:
        """The table as the person sees it before deciding, and their hand."""
        t, st = self.table, self.style
        v = t.view(self.seat)
        hand, trump = int(v.hand[0]), int(v.trump[0])
        legal = set(t.legal_actions()) if t.turn == self.seat else set()
        self.say("")
        for line in self._head() + self._table_lines():
            self.say(line)
        if t.decision == BID:
            self.say(f"Your hand:  {hand_line(st, hand, trump)}")
            self.say("Your bid: the tricks you will win in this game, 0-13. Made (that "
                     "many or more): 2 points per trick bid, 1 per extra trick; short: 1 "
                     "per trick won, -2 per trick missing. A bid of 0 is always made.")
            self.say("For example, bid 3: " + bid_stakes(3) + ".")
            return
        cards = [int(c) for c in v.trick_cards[0]]
        if t.turn == self.seat and int(v.trick_n[0]) == 0:
            self.say("You lead.")
        else:
            self.say(f"On the table: {trick_line(st, self.names, int(v.leader[0]), cards)}")
        playable = legal if t.decision == PLAY else None
        self.say(f"Your hand:  {hand_line(st, hand, trump, playable)}")

    def score(self) -> None:
        """Tricks, honours, bids and points so far, and who plays each seat."""
        for line in self._table_lines():
            self.say(line)
        for s in range(4):
            self.say(f"  {self.names(s)}: {self.labels[s]}")

    def last(self) -> None:
        """Show the last trick, if it was looked at fewer than twice in this game."""
        tricks = [e for e in self.table.history_for(self.seat) if isinstance(e, Trick)]
        if not tricks:
            self.say("No trick has been completed yet.")
            return
        self.show_last_trick(tricks[-1], 0, "this game", lambda e: trick_line(
            self.style, self.names, e.leader, e.cards))

    def final_lines(self) -> list[str]:
        """The final points and the result (the game must be over)."""
        return result_lines(self.names, self.table.totals)


SESSION = Trump7Session
"""The session ``trixsim.terminal.Session`` opens for a trump7 or trump7-bid table."""

__all__ = ["HELP", "SESSION", "Trump7Session", "read_card"]
