"""What the person types at the terminal table, read the same way for every game.

Cards are typed in the record notation every game here shares (rank then suit letter:
``QH``, ``10S``), case-insensitive, with ``T`` for 10 and the suit symbols (``♥``, or
the hollow ``♡``) also accepted; ``typed_card`` turns a line into that notation and the
game's ``parse_card`` says which card it names. Names of choices (Trix's contracts) may
be shortened to any unique start (``read_name``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

SUIT_LETTERS = {"♥": "H", "♣": "C", "♦": "D", "♠": "S",
                "♡": "H", "♧": "C", "♢": "D", "♤": "S"}
"""Suit symbols, solid and hollow, and the letter the record notation writes."""

CardT = TypeVar("CardT")


def typed_card(text: str) -> str:
    """A typed card in record notation: no spaces, upper case, symbols as letters, ``T``
    as 10 (``q ♥`` -> ``QH``, ``ts`` -> ``10S``)."""
    t = "".join(text.split()).upper()
    for symbol, letter in SUIT_LETTERS.items():
        t = t.replace(symbol, letter)
    if t.startswith("T"):
        t = "10" + t[1:]
    return t


def read_typed_card(text: str, parse_card: Callable[[str], CardT]) -> CardT | None:
    """The card ``text`` names by a game's ``parse_card`` (which raises ValueError for
    none); None when it names none."""
    try:
        return parse_card(typed_card(text))
    except ValueError:
        return None


def read_name(text: str, names: Sequence[str]) -> list[int]:
    """The indices of the names that start with ``text`` (case-insensitive): one when it
    is a name or a unique start of one, none when empty."""
    t = text.strip().lower()
    if not t:
        return []
    if t in names:
        return [list(names).index(t)]
    return [k for k, name in enumerate(names) if name.startswith(t)]


__all__ = ["SUIT_LETTERS", "read_name", "read_typed_card", "typed_card"]
