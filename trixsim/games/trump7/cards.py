"""trump7's 52 cards: ids, names and card sets as 52-bit masks.

A card is ``suit * 13 + rank``: suits 0-3 are clubs, diamonds, hearts, spades (♣ ♦ ♥ ♠),
ranks 0-12 are 2, 3, ..., 10, J, Q, K, A (rank 0 is the two, the ace is high). A set of
cards is an int mask with bit ``card`` set, below 2**52, so it fits an int64 state column
and a uint64 action mask. Names are rank then suit letter: ``2C``, ``10H``, ``QS``, ``AD``.
"""

from __future__ import annotations

Card = int
"""A card id, 0..51 (``suit * 13 + rank``)."""
CardMask = int
"""A set of cards: bit ``card`` set for each card in it."""
Suit = int
"""0 clubs, 1 diamonds, 2 hearts, 3 spades."""

N_CARDS = 52
N_RANKS = 13
SUITS = "CDHS"
SUIT_WORDS = ("clubs", "diamonds", "hearts", "spades")
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
JACK, QUEEN, KING, ACE = 9, 10, 11, 12
FULL_MASK = (1 << N_CARDS) - 1
SUIT_MASK = (1 << N_RANKS) - 1
"""The cards of suit 0; shift by ``13 * suit`` for another suit."""
HONOUR_POINTS = ((ACE, 5), (JACK, 4), (QUEEN, 3))
"""Rank and worth of the trump honours (the ace, jack and queen of trumps)."""


def card_name(card: Card) -> str:
    """``AS``, ``10H``, ``2C``."""
    if not 0 <= card < N_CARDS:
        raise ValueError(f"{card} is not a card (0-51)")
    return RANKS[card % N_RANKS] + SUITS[card // N_RANKS]


def parse_card(name: str) -> Card:
    """The card called ``name`` (``AS``, ``10h``, ``2C``); ValueError if it is none."""
    text = name.strip().upper()
    rank, suit = text[:-1], text[-1:]
    if rank not in RANKS or not suit or suit not in SUITS:
        raise ValueError(f"{name!r} is not a card (rank 2-10 J Q K A, then C D H S)")
    return SUITS.index(suit) * N_RANKS + RANKS.index(rank)


def mask_of(cards: list[Card] | tuple[Card, ...]) -> CardMask:
    """The mask of some cards."""
    m = 0
    for c in cards:
        m |= 1 << int(c)
    return m


def cards_of(mask: CardMask) -> list[Card]:
    """The cards of a mask, ascending."""
    m = int(mask)
    return [c for c in range(N_CARDS) if (m >> c) & 1]


def names(mask: CardMask) -> str:
    """The cards of a mask as names, ascending, space-separated ("nothing" if empty)."""
    return " ".join(card_name(c) for c in cards_of(mask)) or "nothing"


__all__ = ["ACE", "FULL_MASK", "HONOUR_POINTS", "JACK", "KING", "N_CARDS", "N_RANKS", "QUEEN",
           "RANKS", "SUITS", "SUIT_MASK", "SUIT_WORDS", "Card", "CardMask", "Suit", "card_name",
           "cards_of", "mask_of", "names", "parse_card"]
