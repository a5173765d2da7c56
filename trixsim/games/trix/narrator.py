"""Trix told in words: its cards, hands, the trix layout and its events, for the terminal
table and the web table's log (one narrator for both).

Cards are written with suit symbols (``10♦``), in red for hearts and diamonds when colour
is on. ``Narrator(style, names)`` turns each event a seat may see into lines; with
``brief`` it is the web log's shorter telling. ``log_lines`` is the web log.
"""

from __future__ import annotations

import re

from trixsim.games.trix.cards import (
    DIAMONDS,
    KING_OF_HEARTS,
    RANKS,
    RQ,
    SUIT_SYMBOLS,
    Card,
    card_symbol,
    cards_of,
    parse_card,
)
from trixsim.games.trix.events import (
    ContractEnd,
    Deal,
    Declare,
    Event,
    GameEnd,
    Out,
    Pass,
    Pick,
    Place,
    Trick,
)
from trixsim.games.trix.transcript import result_seats
from trixsim.games.trix.types import (
    CONTRACT_NAMES,
    DAMET,
    DINERI,
    FARCHA,
    GENERAL,
    N_CONTRACTS,
    PLI,
    RAY,
    TRIX,
    Contract,
)
from trixsim.terminal.names import Names as BaseNames
from trixsim.terminal.names import PlaceNames
from trixsim.terminal.names import Style as BaseStyle


class Style(BaseStyle):
    """How Trix cards look: plain text, or ANSI colours (red ♥ ♦, bold playable cards)."""

    def card(self, c: Card) -> str:
        """A card as ``Q♥`` (red for hearts and diamonds)."""
        text = RANKS[c & 7] + SUIT_SYMBOLS[c >> 3]
        return self.paint(text, red=c >> 3 in (0, 2))

    def suit(self, s: int) -> str:
        """A suit symbol (red for hearts and diamonds)."""
        return self.paint(SUIT_SYMBOLS[s], red=s in (0, 2))

    def rank(self, c: Card, playable: bool | None = None) -> str:
        """A card's rank in its suit's colour; ``[Q]`` (and bold) if playable, dim if not
        (None: no marking)."""
        text = f"[{RANKS[c & 7]}]" if playable else RANKS[c & 7]
        return self.paint(text, red=c >> 3 in (0, 2), playable=playable)


class Names(PlaceNames):
    """How seats are named for the person at seat ``me``: "you", and the others by where
    they sit ("left", "across", "right"), as on the web table; rules messages name Trix's
    cards with suit symbols."""

    def personal(self, why: str) -> str:
        """A rules message about seat ``me`` (trixsim's ``why_illegal``) addressed to you."""
        return _RECORD_CARD.sub(lambda m: card_symbol(parse_card(m[0])), super().personal(why))


_RECORD_CARD = re.compile(r"\b(?:10|[789JQKA])[HCDS]\b")
"""A card named as records name it (``10D``), which people read as ``10♦``."""


def hand_line(style: Style, hand: int, playable: set[int] | None = None) -> str:
    """A hand by suit (♥ ♣ ♦ ♠), strongest first; playable cards in brackets when
    ``playable`` is given."""
    parts = []
    for s in range(4):
        cards = sorted((c for c in cards_of(hand) if c >> 3 == s), reverse=True)
        ranks = [style.rank(c, None if playable is None else c in playable) for c in cards]
        parts.append(f"{style.suit(s)} {' '.join(ranks) or '-'}")
    return "   ".join(parts)


def layout_line(style: Style, placed: int) -> str:
    """The four trix stacks from the placed cards, each low to high (``♠ 8 9 J Q``)."""
    parts = []
    for s in range(4):
        cards = [c for c in cards_of(placed) if c >> 3 == s]
        parts.append(f"{style.suit(s)} {' '.join(style.rank(c) for c in cards) or '·'}")
    return "   ".join(parts)


def trick_line(style: Style, names: BaseNames, leader: int, cards: list[int] | tuple[int, ...]
               ) -> str:
    """``seat 1 Q♥, seat 2 7♥, you A♥`` for cards played from ``leader`` on."""
    return ", ".join(f"{names((leader + k) % 4)} {style.card(c)}"
                     for k, c in enumerate(cards) if c >= 0)


def multiplier(pick: int, contract: Contract) -> str:
    """What the pick number does to the picker's points."""
    if contract == TRIX:
        return "trix points are never multiplied"
    return "the picker's points count four times" if pick == 7 else \
        "the picker's points count double"


def points_so_far(contract: Contract, picker: int, pick: int, declared: int,
                  tricks: list[tuple[int, tuple[int, ...]]]) -> tuple[list[int], list[str]]:
    """The points each seat has taken so far in a trick contract, from its completed tricks
    ((winner, cards) each): what it would score if the contract ended now, the picker's
    multiplied, without the all-eight rules of the end (docs/rules.md §4-§8); and per seat
    what it took that counts (diamonds, queens, tricks, the K♥). Farcha's 100 goes to the
    winner of the last trick, so it shows once that trick is taken."""
    mult = 4 if pick == 7 else 2
    points, taken = [0] * 4, [""] * 4
    for s in range(4):
        won = [c for w, cards in tricks if w == s for c in cards]
        n_tricks = sum(1 for w, _ in tricks if w == s)
        dineri = 10 * sum(1 for c in won if c // 8 == DIAMONDS)
        damet = 20 * sum(1 for c in won if c % 8 == RQ)
        pli = 10 * n_tricks
        farcha = 100 if len(tricks) == 8 and tricks[-1][0] == s else 0
        ray = (200 if declared >= 0 else 100) if KING_OF_HEARTS in won else 0
        p = {DINERI: dineri, DAMET: damet, PLI: pli, FARCHA: farcha, RAY: ray}.get(
            contract, dineri + damet + pli + farcha + ray)
        points[s] = p * mult if s == picker else p
        bits = []
        if contract in (DINERI, GENERAL) and dineri:
            bits.append(f"{dineri // 10}{SUIT_SYMBOLS[DIAMONDS]}")
        if contract in (DAMET, GENERAL) and damet:
            bits.append(f"{damet // 20}Q")
        if contract in (PLI, GENERAL, FARCHA) and n_tricks:
            bits.append(f"{n_tricks} trick{'s' if n_tricks > 1 else ''}")
        if contract in (RAY, GENERAL) and ray:
            bits.append(card_symbol(KING_OF_HEARTS))
        taken[s] = " ".join(bits)
    if declared >= 0 and any(KING_OF_HEARTS in cards for _, cards in tricks) and not any(
            KING_OF_HEARTS in cards for w, cards in tricks if w == declared):
        points[declared] -= 50
    return points, taken


def points_table(names: BaseNames, points: tuple[int, ...], totals: tuple[int, ...]) -> list[str]:
    """Points and totals of the four seats, one column each."""
    heads = [names(s) for s in range(4)]
    width = max(7, *(len(h) for h in heads))
    return ["          " + "".join(f"{h:>{width}}" for h in heads),
            "  points  " + "".join(f"{p:>+{width}d}" if p else f"{0:>{width}d}"
                                   for p in points),
            "  totals  " + "".join(f"{t:>{width}d}" for t in totals)]


def result_lines(names: BaseNames, totals: list[int] | tuple[int, ...]) -> list[str]:
    """Final totals with the winners (lowest) and losers (highest)."""
    win, lose = result_seats(list(totals))
    if len(win) == 4:
        return [f"Final totals: {names.row(totals)}", "All four totals are equal: a tie."]
    who = ", ".join(names(s) for s in win)
    return [f"Final totals: {names.row(totals)}",
            ("You win!" if win == [names.me] else
             f"Winner{'s' if len(win) > 1 else ''} (lowest total): {who}"),
            f"Loser{'s' if len(lose) > 1 else ''} (highest total): "
            + ", ".join(names(s) for s in lose)]


class Narrator:
    """The game's events as lines for the person at seat ``names.me``.

    It sees the events as that seat may (``Table.history_for``): a declaration left
    unmade reaches only the K♥ holder, for anyone else would learn who holds it.
    ``brief`` is the web log's telling: a trick by its winner only (its cards lie face
    down), a contract's end in one line.
    """

    def __init__(self, style: Style, names: BaseNames, brief: bool = False) -> None:
        self.style, self.names, self.brief = style, names, brief
        self.contract: Contract = -1
        self.pick = 1

    def lines(self, e: Event) -> list[str]:
        """What to print for one event (nothing for a single card: tricks are told
        whole, and the status before each of your turns shows the cards on the table)."""
        n, st = self.names, self.style
        if isinstance(e, Deal):
            self.contract = -1
            return ["", st.bold(f"── Contract {e.contract + 1} of {N_CONTRACTS} ── "
                                f"{n.does(e.picker, 'pick')} (pick {e.contract // 4 + 1} "
                                f"of 7)")]
        if isinstance(e, Pick):
            self.contract, self.pick = e.choice, e.pick
            forced = ", the only choice" if e.forced else ""
            return [f"{n(e.seat, True)} picked {st.bold(CONTRACT_NAMES[e.choice])}"
                    f" ({multiplier(e.pick, e.choice)}{forced})."]
        if isinstance(e, Declare):
            if not e.declared:  # only its holder is told (``visible_to``)
                return [f"{n.does(e.seat, 'keep')} quiet about the {st.card(5)}."]
            return [f"{n.does(e.seat, 'declare')} the {st.card(5)}: 200 to whoever takes it, "
                    f"-50 for {n(e.seat)} if someone else does."]
        if isinstance(e, Trick) and self.brief:
            return [f"{n.does(e.winner, 'take')} trick {e.trick + 1}."]
        if isinstance(e, ContractEnd) and self.brief:
            name = CONTRACT_NAMES[self.contract] if self.contract >= 0 else "contract"
            return [f"{name.capitalize()} is over: {n.row(e.points, sign=True)}."]
        if isinstance(e, GameEnd) and self.brief:
            return ["Game over.", *result_lines(n, e.totals)]
        if isinstance(e, Trick):
            return [f"Trick {e.trick + 1}: {trick_line(st, n, e.leader, e.cards)}  →  "
                    f"{n.does(e.winner, 'take')} it."]
        if isinstance(e, Place):
            return [f"{n.does(e.seat, 'place')} {st.card(e.card)}."]
        if isinstance(e, Pass):
            return [f"{n.does(e.seat, 'pass')} (nothing to place)."]
        if isinstance(e, Out):
            first = e.place == 1
            return [f"{n.does(e.seat, 'is_')} out {'first' if first else 'second'}: "
                    f"{-100 if first else -50}."]
        if isinstance(e, ContractEnd):
            name = CONTRACT_NAMES[self.contract] if self.contract >= 0 else "the contract"
            return [f"{name.capitalize()} is over ({n(e.picker)} picked it):",
                    *points_table(n, e.points, e.totals)]
        if isinstance(e, GameEnd):
            return ["", st.bold("Game over."), *result_lines(n, e.totals)]
        return []


def log_lines(events: list[Event], seat: int) -> list[str]:
    """The game so far as short sentences for the person at ``seat`` (the web log): the
    brief narration, seats named by where they sit."""
    narrator = Narrator(Style(False), PlaceNames(seat), brief=True)
    return [line.strip() for e in events for line in narrator.lines(e) if line.strip()]


__all__ = ["Names", "Narrator", "Style", "hand_line", "layout_line", "log_lines", "multiplier",
           "points_so_far", "points_table", "result_lines", "trick_line"]
