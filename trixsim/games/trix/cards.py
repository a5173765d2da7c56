"""Cards, card masks and the bit tricks the engine is built on.

A card is a plain int 0..31: ``suit * 8 + rank``.  Suits are hearts, clubs, diamonds,
spades (0..3, the order of the record format's ``H C D S``).  Ranks are indexed by
strength, lowest first: 7 8 9 J Q K 10 A (0..7), so within a suit a higher card has a
higher int, and a trix stack grows outward from its jack (rank 3) by one rank index.
A set of cards (a hand) is a ``uint32`` mask with bit ``card`` set.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

from trixsim.choice import choose_uniform as choose_uniform  # re-exported

Card = int
"""A card, 0..31 (suit * 8 + rank)."""
CardMask = int
"""A set of cards as a 32-bit mask."""
Seat = int
"""A seat, 0..3; the next seat counter-clockwise is (seat + 1) % 4."""

SUITS = "HCDS"
RANKS = ("7", "8", "9", "J", "Q", "K", "10", "A")
SUIT_SYMBOLS = "♥♣♦♠"
HEARTS, CLUBS, DIAMONDS, SPADES = range(4)
R7, R8, R9, RJ, RQ, RK, R10, RA = range(8)

BIT = np.array([1 << i for i in range(32)], dtype=np.uint32)
"""BIT[card] is the card's mask; indexing beats shifting across numpy dtypes."""
SUIT_MASK = np.array([0xFF << (8 * s) for s in range(4)], dtype=np.uint32)
FULL = 0xFFFFFFFF
JACKS = sum(1 << (s * 8 + RJ) for s in range(4))
QUEENS = sum(1 << (s * 8 + RQ) for s in range(4))
ACES = sum(1 << (s * 8 + RA) for s in range(4))
SEVENS = sum(1 << (s * 8 + R7) for s in range(4))
DIAMOND_MASK = 0xFF << (8 * DIAMONDS)
KING_OF_HEARTS: Card = HEARTS * 8 + RK
KH_MASK = 1 << KING_OF_HEARTS


def card(rank: int, suit: int) -> Card:
    """The card of the given rank index and suit index."""
    return suit * 8 + rank


def suit_of(c: Card) -> int:
    """The suit index of a card."""
    return c >> 3


def rank_of(c: Card) -> int:
    """The rank index (0 = 7 ... 7 = ace) of a card."""
    return c & 7


def card_name(c: Card) -> str:
    """The record-format name of a card, e.g. ``'10D'``."""
    if not 0 <= c < 32:
        raise ValueError(f"no card {c}")
    return RANKS[c & 7] + SUITS[c >> 3]


def card_symbol(c: Card) -> str:
    """A human-readable name, e.g. ``'10♦'``."""
    return RANKS[c & 7] + SUIT_SYMBOLS[c >> 3]


_BY_NAME = {card_name(c): c for c in range(32)}


def parse_card(name: str) -> Card:
    """Parse a record-format card name; ValueError on anything else."""
    try:
        return _BY_NAME[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown card {name!r}") from None


def mask_of(cards: Iterable[Card]) -> CardMask:
    """The mask of a collection of cards."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def cards_of(mask: int) -> list[Card]:
    """The cards of a mask, ascending."""
    mask = int(mask)
    return [c for c in range(32) if mask >> c & 1]


def popcount(masks: np.ndarray) -> np.ndarray:
    """Number of cards in each mask (vectorised)."""
    return np.bitwise_count(masks)


@intrinsic
def _ctpop(typingctx: object, x: types.Type) -> tuple:
    """The number of set bits of an int64 (one ``popcnt`` where the CPU has it)."""
    def codegen(context: object, builder: ir.IRBuilder, sig: object, args: list) -> ir.Value:
        return builder.ctpop(args[0])
    return types.int64(types.int64), codegen


@intrinsic
def _cttz(typingctx: object, x: types.Type) -> tuple:
    """The number of trailing zero bits of an int64 (64 for 0)."""
    def codegen(context: object, builder: ir.IRBuilder, sig: object, args: list) -> ir.Value:
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))
    return types.int64(types.int64), codegen


@intrinsic
def _ctlz(typingctx: object, x: types.Type) -> tuple:
    """The number of leading zero bits of an int64 (64 for 0)."""
    def codegen(context: object, builder: ir.IRBuilder, sig: object, args: list) -> ir.Value:
        return builder.ctlz(args[0], ir.Constant(ir.IntType(1), 0))
    return types.int64(types.int64), codegen


@njit(cache=True)
def bit_count(x: int) -> int:
    """Number of cards in a mask (its low 32 bits); compiled, scalar: one CPU instruction,
    as the engine's and the heuristic's hot loops count cards at every step."""
    return _ctpop(np.int64(x) & 0xFFFFFFFF)


@njit(cache=True)
def low_card(m: int) -> int:
    """Lowest card of a non-empty mask (32 if its low 32 bits are empty); compiled,
    scalar."""
    return min(_cttz(np.int64(m)), 32)


@njit(cache=True)
def high_card(m: int) -> int:
    """Highest card of a mask whose low 32 bits are not all empty; compiled, scalar."""
    return 63 - _ctlz(np.int64(m) & 0xFFFFFFFF)


def lowest_card(masks: np.ndarray) -> np.ndarray:
    """Index of the lowest set bit of each non-zero mask."""
    m = np.asarray(masks).astype(np.int64)
    return np.bitwise_count((m & -m) - 1).astype(np.int64)


def highest_card(masks: np.ndarray) -> np.ndarray:
    """Index of the highest set bit of each non-zero mask."""
    m = np.asarray(masks).astype(np.uint64)
    m |= m >> np.uint64(1)
    m |= m >> np.uint64(2)
    m |= m >> np.uint64(4)
    m |= m >> np.uint64(8)
    m |= m >> np.uint64(16)
    return np.bitwise_count(m).astype(np.int64) - 1
