"""Text for the terminal table: Trix's cards, hands and events (from its narrator,
``trixsim.games.trix.narrator``) and what the person types.

What the person types is read in the record notation of trixsim.games.trix.cards (``QH``, ``10S``),
case-insensitive, with ``T`` for 10 and suit symbols also accepted. The seat at the
keyboard is "you"; the others are "seat N".
"""

from __future__ import annotations

from trixsim.games.trix.cards import SUIT_SYMBOLS, Card, card_name, parse_card
from trixsim.games.trix.narrator import (
    Names,
    Narrator,
    Style,
    hand_line,
    layout_line,
    multiplier,
    points_so_far,
    points_table,
    result_lines,
    trick_line,
)
from trixsim.games.trix.types import CONTRACT_NAMES, Contract


def read_card(text: str) -> Card | None:
    """The card typed as ``QH``, ``qh``, ``10s``, ``TS`` or ``Q♥``; None if it is none."""
    t = "".join(text.split()).upper()
    for symbol, letter in zip(SUIT_SYMBOLS + "♡♧♢♤", "HCDS" * 2, strict=True):
        t = t.replace(symbol, letter)
    if t.startswith("T"):
        t = "10" + t[1:]
    try:
        return parse_card(t)
    except ValueError:
        return None


def read_contract(text: str) -> list[Contract]:
    """The contracts whose name starts with ``text`` (case-insensitive): one when it is
    a name or a unique start of one."""
    t = text.strip().lower()
    if not t:
        return []
    if t in CONTRACT_NAMES:
        return [CONTRACT_NAMES.index(t)]
    return [k for k, name in enumerate(CONTRACT_NAMES) if name.startswith(t)]


def card_names(cards: list[int]) -> str:
    """Cards in the notation the person types, e.g. ``QH 10S``."""
    return " ".join(card_name(c) for c in cards)


__all__ = ["Names", "Narrator", "Style", "card_names", "hand_line", "layout_line",
           "multiplier", "points_so_far", "points_table", "read_card", "read_contract",
           "result_lines", "trick_line"]
