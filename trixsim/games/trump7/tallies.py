"""Per-seat counts of how a trump7 game was played: leads, trumping and the trump honours.

They are read from a finished game's state alone (its 13-trick log, the stock in drawing
order and the cards each seat played), so the whole-game compiled loop and the stepwise
loop, which end in the same state, give the same counts. The hands each seat held before
every trick are rebuilt from the same state: a seat's seven dealt cards are the cards it
played less the ones it drew, and after each of the first six tricks the winner (the next
trick's leader) draws first.

``TALLIES`` names the counts, one ``games`` table column per seat each
(``outcomes.GAME_COLUMNS`` says what each means). A card a seat plays while it holds
none of the suit led is a *ruff* when it is a trump (the suit led not being trumps) and a
*discard* otherwise; a *ruff chance* is such a moment in a side suit while the seat held a
trump, so it chose between trumping and discarding (or trumped with its only cards). A
seat's honour is *lost* when it plays the trump ace, jack or queen into a trick another
seat wins. Leads are sorted by the card: a trump, a side-suit ace, a low side card (2-9),
or (the rest) a high side card (10, J, Q, K).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from trixsim.games.trump7 import cards, state
from trixsim.games.trump7.cards import ACE, JACK, N_RANKS, QUEEN, SUIT_MASK
from trixsim.games.trump7.state import COL, GameState
from trixsim.jitcache import guard, sources

guard(__file__, sources(cards, state), tuple(COL.items()))

TALLIES = ("leads", "lead_wins", "lead_points", "lead_trumps", "lead_trump_wins",
           "lead_aces", "lead_ace_wins", "lead_lows", "lead_low_wins", "ruffs", "ruff_wins",
           "ruff_chances", "discards", "honours_lost")
"""The per-seat counts, in the order of ``tally``'s second axis."""
(LEADS, LEAD_WINS, LEAD_POINTS, LEAD_TRUMPS, LEAD_TRUMP_WINS, LEAD_ACES, LEAD_ACE_WINS,
 LEAD_LOWS, LEAD_LOW_WINS, RUFFS, RUFF_WINS, RUFF_CHANCES, DISCARDS,
 HONOURS_LOST) = range(len(TALLIES))
LOW_TOP = 7
"""The highest rank of a low side card: rank 7 is the nine."""

_TRUMP, _PLAYED_BY, _LOG = COL["trump"], COL["played_by"], COL["trick_log"]
_STOCK = COL["stock"]


_HONOUR = np.zeros(N_RANKS, dtype=np.int64)
_HONOUR[ACE], _HONOUR[JACK], _HONOUR[QUEEN] = 5, 4, 3
_KIND = np.full(N_RANKS, -1, dtype=np.int64)  # a side card's lead kind by rank (-1: high)
_KIND[:LOW_TOP + 1] = LEAD_LOWS
_KIND[ACE] = LEAD_ACES


@njit(cache=True, nogil=True)  # run in a chunk's writer thread while the next slice plays
def _tally(S: np.ndarray, honour: np.ndarray, kinds: np.ndarray, out: np.ndarray) -> None:
    """``out[k * 4 + s, g]``: count ``TALLIES[k]`` of seat s in game g (zeros on entry).
    Branch-light: a card's strength in its trick is its rank, plus 16 if of the suit led,
    plus 32 if a trump, and the strongest card wins (as ``rules.beats`` decides)."""
    held = np.zeros(4, dtype=np.int64)  # the trumps each seat holds
    c = np.zeros(4, dtype=np.int64)
    acc = np.zeros(out.shape[0], dtype=np.int64)  # this game's counts
    for g in range(S.shape[0]):
        acc[:] = 0
        trump = S[g, _TRUMP]
        low = N_RANKS * trump
        for s in range(4):
            held[s] = (S[g, _PLAYED_BY + s] >> low) & SUIT_MASK
        for t in range(6):  # the dealt trumps: those a seat played less those it drew
            w = S[g, _LOG + t + 1] & 0xFF
            for d in range(4):
                x = S[g, _STOCK + 4 * t + d] - low
                if 0 <= x < N_RANKS:
                    held[(w + d) & 3] &= ~(np.int64(1) << x)
        for t in range(13):
            log = S[g, _LOG + t]
            lead = log & 0xFF
            c0 = (log >> 8) & 0xFF
            led = c0 // N_RANKS
            led_trump = 1 if led == trump else 0
            best, top, pts = 0, -1, 1
            for k in range(4):
                card = (log >> (8 * k + 8)) & 0xFF
                c[k] = card
                suit = card // N_RANKS
                rank = card - N_RANKS * suit
                is_trump = 1 if suit == trump else 0
                pts += honour[rank] * is_trump
                key = rank + 16 * (1 if suit == led else 0) + 32 * is_trump
                if key > top:
                    best, top = k, key
            w = (lead + best) & 3
            won = 1 if w == lead else 0
            acc[LEADS * 4 + lead] += 1
            acc[LEAD_WINS * 4 + lead] += won
            acc[LEAD_POINTS * 4 + lead] += pts * won
            kind = LEAD_TRUMPS if led_trump else kinds[c0 - N_RANKS * led]
            if kind >= 0:
                acc[kind * 4 + lead] += 1
                acc[(kind + 1) * 4 + lead] += won
            for k in range(4):
                s = (lead + k) & 3
                card = c[k]
                suit = card // N_RANKS
                is_trump = 1 if suit == trump else 0
                void = 1 if (k > 0 and suit != led) else 0
                ruff = void * is_trump
                acc[RUFFS * 4 + s] += ruff
                acc[RUFF_WINS * 4 + s] += ruff * (1 if w == s else 0)
                acc[DISCARDS * 4 + s] += void - ruff
                acc[RUFF_CHANCES * 4 + s] += void * (1 - led_trump) * (1 if held[s] else 0)
                x = card - low
                if is_trump:
                    acc[HONOURS_LOST * 4 + s] += honour[x] * (1 if w != s else 0)
                    held[s] &= ~(np.int64(1) << x)
            if t < 6:
                for d in range(4):
                    x = S[g, _STOCK + 4 * t + d] - low
                    if 0 <= x < N_RANKS:
                        held[(w + d) & 3] |= np.int64(1) << x
        for k in range(acc.shape[0]):
            out[k, g] = acc[k]


def tally(st: GameState) -> np.ndarray:
    """(len(TALLIES) * 4, B) int8 counts of a batch of finished games: row ``k * 4 + s``
    is count ``TALLIES[k]`` of seat s (see the module doc)."""
    out = np.zeros((len(TALLIES) * 4, st.batch_size), dtype=np.int8)
    _tally(np.ascontiguousarray(st.data), _HONOUR, _KIND, out)
    return out


__all__ = ["LOW_TOP", "TALLIES", "tally"]
