"""Helpers for the trump7 tests: scenarios with explicit hands and stock, scripted play."""

from __future__ import annotations

import numpy as np

from trixsim.games import trump7
from trixsim.games.trump7.cards import cards_of, parse_card
from trixsim.games.trump7.chance import Chance, pack_from


def cards(text: str) -> list[int]:
    """Card ids from names, e.g. ``"AC KC 10H"``, in the order written."""
    return [parse_card(c) for c in text.split()]


def mask(text: str) -> int:
    """The mask of cards written as names."""
    m = 0
    for c in cards(text):
        m |= 1 << c
    return m


def table(hands: list[str], stock: str, game_id: int = 0,
          bidding: bool = False) -> trump7.GameState:
    """One game dealt ``hands`` (seat 0..3) with ``stock`` left (drawing order, the turned
    card last); ``game_id`` sets the dealer (game_id % 4)."""
    eldest = (game_id % 4 + 1) % 4
    pack = pack_from([cards(h) for h in hands], cards(stock), eldest)
    return trump7.init(Chance.impose(0, 1, {0: pack}), [game_id], bidding=bidding)


def act(st: trump7.GameState, *moves: str | int) -> None:
    """Apply moves to game 0: card names, or ints (bids)."""
    for m in moves:
        a = m if isinstance(m, int) else parse_card(m)
        trump7.step(st, np.array([a]))


def hand_names(st: trump7.GameState, seat: int) -> set[int]:
    """The cards seat holds in game 0."""
    return set(cards_of(int(st.hands[0, seat])))
