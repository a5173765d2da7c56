"""Trix at the terminal table: the plug-in ``TrixGame.terminal`` names.

The generic session (``trixsim.terminal.session``) keeps the loop, the commands and the
save; ``TrixSession`` answers in Trix's words: the person types a card (``QH``, ``10S``,
``TS``, ``Q♥``), a contract's name or a unique start of it, ``y``/``n`` for the K♥
declaration, or ``pass`` (only in trix, with nothing to place). The status shows the
contract, its picker and the K♥ declaration, the tricks or the trix layout, the points
of the contract so far, and the hand by suit with the playable cards in brackets. The
"last" command shows the last completed trick, at most twice per contract (the house
rule of docs/rules.md §12: won tricks lie face down). A finished game is recorded as a
``trixsim-transcript/1`` record (``record``).
"""

from __future__ import annotations

from trixsim.games.trix.cards import KING_OF_HEARTS, Card, Seat, card_name, parse_card
from trixsim.games.trix.events import Trick
from trixsim.games.trix.narrator import (
    Names,
    Style,
    hand_line,
    layout_line,
    multiplier,
    points_so_far,
    points_table,
    result_lines,
    trick_line,
)
from trixsim.games.trix.transcript import GameRecord, Recorder
from trixsim.games.trix.types import (
    CONTRACT_NAMES,
    DECLARE,
    PASS,
    PICK,
    PLACE,
    PLAY,
    TRIX,
    Action,
    Contract,
)
from trixsim.table import Table
from trixsim.terminal.names import Style as BaseStyle
from trixsim.terminal.session import Session
from trixsim.terminal.text import read_name, read_typed_card

HELP = """\
Commands (any time it is your turn):
  a card        play or place it: rank then suit, e.g. QH, 10S (or TS), 7d, A♠
  a contract    when you pick: its name or a unique start of it (dineri, da, pli, tr ...)
  y / n         when asked whether to declare the K♥
  pass          in trix, only when you have nothing to place (it happens by itself)
  hand          show the table and your hand again
  score         totals, this contract's points so far, and the contracts left
  last          look at the last trick (at most twice per contract)
  help          this text
  quit          leave the game (you may save it first, to resume with --resume)
Playable cards are shown in [brackets]. Play goes seat 0 → 1 → 2 → 3 → 0."""

_PROMPTS = {PICK: "Your pick: ", DECLARE: "Declare the K♥? (y/n): ", PLAY: "Your card: ",
            PLACE: "Card to place: "}


def read_card(text: str) -> Card | None:
    """The card typed as ``QH``, ``qh``, ``10s``, ``TS`` or ``Q♥``; None if it is none."""
    return read_typed_card(text, parse_card)


def read_contract(text: str) -> list[Contract]:
    """The contracts whose name starts with ``text`` (case-insensitive): one when it is
    a name or a unique start of one."""
    return read_name(text, CONTRACT_NAMES)


def card_names(cards: list[int]) -> str:
    """Cards in the notation the person types, e.g. ``QH 10S``."""
    return " ".join(card_name(c) for c in cards)


class TrixSession(Session):
    """The person at ``seat`` plays a Trix ``table`` against ``bots``."""

    help_text = HELP
    title = "Trix"

    def _style(self, style: BaseStyle) -> Style:
        """Trix's style (its cards painted), in the colours asked for."""
        return style if isinstance(style, Style) else Style(style.color)

    def _names(self, seat: Seat) -> Names:
        """Seats by where they sit; rules messages name cards with suit symbols."""
        return Names(seat)

    def prompt(self) -> str:
        """What the person is asked for now."""
        return _PROMPTS[self.table.decision]

    def _move(self, text: str) -> Action | None:
        """The legal action ``text`` names, or None after saying why not."""
        decision = self.table.decision
        word = text.lower()
        action: Action | None
        if decision == PICK:
            found = read_contract(text)
            if len(found) != 1:
                options = ", ".join(CONTRACT_NAMES[a] for a in self.table.legal_actions())
                what = "names more than one contract" if found else "is not a contract"
                self.say(f"'{text}' {what}: pick one of {options}.")
                return None
            action = found[0]
        elif decision == DECLARE:
            action = {"y": 1, "yes": 1, "declare": 1, "n": 0, "no": 0, "quiet": 0}.get(word)
            if action is None:
                self.say("Answer y (declare the K♥) or n (keep quiet).")
                return None
        elif word == "pass":
            if decision != PLACE:
                self.say("You can pass only in trix, when you have nothing to place.")
                return None
            action = PASS
        else:
            action = read_card(text)
            if action is None:
                self.say(f"'{text}' is not a card or a command: type a card such as QH, "
                         "10S or TS (help lists the commands).")
                return None
        why = self.table.why_illegal(action)
        if why is not None:
            self.say(f"Not allowed: {self.names.personal(why)}.")
            return None
        return action

    # -- what the person sees --------------------------------------------------------

    def status(self) -> None:
        """The table as the person sees it before deciding, and their hand."""
        t, st, n = self.table, self.style, self.names
        v = t.view(self.seat)
        hand = int(v.hand[0])
        legal = set(t.legal_actions()) if t.turn == self.seat else set()
        self.say("")
        if t.decision == PICK:
            pick = int(v.pick[0])
            times = "four times" if pick == 7 else "double"
            self.say(f"Your pick {pick} of 7: your points count {times} (trix: never "
                     "multiplied).")
            self.say(f"Totals: {n.row([int(x) for x in v.totals[0]])}")
            self.say(f"Your hand:  {hand_line(st, hand)}")
            used = int(v.used[0][self.seat])
            self.say("Contracts you may pick: " + " ".join(
                st.bold(f"[{CONTRACT_NAMES[a]}]") for a in sorted(legal)))
            for a in range(len(CONTRACT_NAMES)):
                if a not in legal and not used >> a & 1:
                    self.say(f"  not {CONTRACT_NAMES[a]}: {t.why_illegal(a)}")
            return
        contract, picker = int(v.contract[0]), int(v.picker[0])
        declared = int(v.declared[0])
        head = (f"{st.bold(CONTRACT_NAMES[contract])}, picked by {n(picker)}, contract "
                f"{int(v.contract_no[0]) + 1} of 28")
        if declared >= 0:
            head += f" · {st.card(KING_OF_HEARTS)} declared by {n(declared)}"
        self.say(head)
        if contract == TRIX:
            left = [int(x) for x in v.hand_sizes[0]]
            self.say("Cards left: " + " · ".join(f"{n(s)} {left[s]}" for s in range(4)))
            self.say(f"Layout:  {layout_line(st, int(v.played[0]))}")
        else:
            self.say(f"Tricks won: {n.row([int(x) for x in v.tricks[0]])}"
                     f"   (trick {int(v.trick_no[0]) + 1})")
            for line in self._so_far():
                self.say(line)
            cards = [int(c) for c in v.trick_cards[0]]
            if t.turn == self.seat and int(v.trick_n[0]) == 0:
                self.say("You lead.")
            else:
                self.say(f"On the table: {trick_line(st, n, int(v.leader[0]), cards)}")
        playable = legal if t.decision in (PLAY, PLACE) else None
        self.say(f"Your hand:  {hand_line(st, hand, playable)}")
        if t.decision == DECLARE:
            kh = st.card(KING_OF_HEARTS)
            self.say(f"You hold the {kh}. Declared, it is worth 200 to whoever takes it; "
                     "you lose 50 if someone else does.")

    def _so_far(self) -> list[str]:
        """The points of the contract being played, so far (trick contracts, once picked)."""
        t = self.table
        v = t.view(self.seat)
        contract, number = int(v.contract[0]), int(v.contract_no[0])
        if t.decision == PICK or contract == TRIX or contract < 0:
            return []
        tricks = [(e.winner, e.cards) for e in t.history_for(self.seat)
                  if isinstance(e, Trick) and e.contract == number]
        points, taken = points_so_far(contract, int(v.picker[0]), number // 4 + 1,
                                      int(v.declared[0]), tricks)
        line = f"{CONTRACT_NAMES[contract].capitalize()} so far: {self.names.row(points)}"
        detail = [f"{self.names(s)} {taken[s]}" for s in range(4) if taken[s]]
        return [line + (f"   (taken: {', '.join(detail)})" if detail else "")]

    def score(self) -> None:
        """Totals (before this contract), the points of this contract so far, and the
        contracts each seat has not used yet."""
        v = self.table.view(self.seat)
        self.say(f"Totals: {self.names.row([int(x) for x in v.totals[0]])}"
                 + ("   (before this contract)" if self._so_far() else ""))
        for line in self._so_far():
            self.say(line)
        for s in range(4):
            used = int(v.used[0][s])
            left = [name for a, name in enumerate(CONTRACT_NAMES) if not used >> a & 1]
            self.say(f"  {self.names(s)} ({self.labels[s]}): "
                     f"{', '.join(left) or 'no contracts'} left")

    def last(self) -> None:
        """Show the last trick of this contract, if it was looked at fewer than twice."""
        t = self.table
        v = t.view(self.seat)
        number = int(v.contract_no[0])
        if int(v.contract[0]) == TRIX:
            self.say("There are no tricks in trix.")
            return
        tricks = [e for e in t.history_for(self.seat)
                  if isinstance(e, Trick) and e.contract == number]
        if not tricks:
            self.say("No trick has been completed in this contract yet.")
            return
        self.show_last_trick(tricks[-1], number, "this contract", lambda e: trick_line(
            self.style, self.names, e.leader, e.cards))

    def final_lines(self) -> list[str]:
        """The final totals and the result (the game must be over)."""
        return result_lines(self.names, self.table.totals)


def record(table: Table, seed: int | None, labels: list[str]) -> GameRecord:
    """The finished game at ``table`` as a ``trixsim-transcript/1`` record."""
    rec = Recorder(seed, labels)
    rec.fold(table.state, table.history)
    return rec.records(table.state)[0]


SESSION = TrixSession
"""The session ``trixsim.terminal.Session`` opens for a Trix table."""

__all__ = ["HELP", "SESSION", "Style", "TrixSession", "card_names", "hand_line",
           "layout_line", "multiplier", "points_so_far", "points_table", "read_card",
           "read_contract", "record", "result_lines", "trick_line"]
