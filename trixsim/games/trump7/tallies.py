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


@njit(cache=True)
def _tally(S: np.ndarray, honour: np.ndarray, out: np.ndarray) -> None:
    """``out[k * 4 + s, g]``: count ``TALLIES[k]`` of seat s in game g (zeros on entry)."""
    held = np.zeros(4, dtype=np.int64)  # the trumps each seat holds
    c = np.zeros(4, dtype=np.int64)
    for g in range(S.shape[0]):
        trump = S[g, _TRUMP]
        low = N_RANKS * trump
        for s in range(4):
            held[s] = (S[g, _PLAYED_BY + s] >> low) & SUIT_MASK
        for t in range(6):  # the dealt trumps: those a seat played less those it drew
            w = S[g, _LOG + t + 1] & 0xFF
            for d in range(4):
                card = S[g, _STOCK + 4 * t + d]
                if card // N_RANKS == trump:
                    held[(w + d) & 3] &= ~(np.int64(1) << (card - low))
        for t in range(13):
            log = S[g, _LOG + t]
            lead = log & 0xFF
            best, pts = 0, 1
            for k in range(4):
                card = (log >> (8 * k + 8)) & 0xFF
                c[k] = card
                if card // N_RANKS == trump:
                    pts += honour[card - low]
                if k > 0:
                    top = c[best]
                    if card // N_RANKS == top // N_RANKS:
                        if card > top:
                            best = k
                    elif card // N_RANKS == trump:
                        best = k
            w = (lead + best) & 3
            won = 1 if w == lead else 0
            led = c[0] // N_RANKS
            out[LEADS * 4 + lead, g] += 1
            if won:
                out[LEAD_WINS * 4 + lead, g] += 1
                out[LEAD_POINTS * 4 + lead, g] += pts
            kind = -1
            if led == trump:
                kind = LEAD_TRUMPS
            elif c[0] % N_RANKS == ACE:
                kind = LEAD_ACES
            elif c[0] % N_RANKS <= LOW_TOP:
                kind = LEAD_LOWS
            if kind >= 0:
                out[kind * 4 + lead, g] += 1
                out[(kind + 1) * 4 + lead, g] += won
            for k in range(4):
                s = (lead + k) & 3
                suit = c[k] // N_RANKS
                if k > 0 and suit != led:
                    if suit == trump:
                        out[RUFFS * 4 + s, g] += 1
                        if w == s:
                            out[RUFF_WINS * 4 + s, g] += 1
                    else:
                        out[DISCARDS * 4 + s, g] += 1
                    if led != trump and held[s] != 0:
                        out[RUFF_CHANCES * 4 + s, g] += 1
                if suit == trump:
                    if w != s:
                        out[HONOURS_LOST * 4 + s, g] += honour[c[k] - low]
                    held[s] &= ~(np.int64(1) << (c[k] - low))
            if t < 6:
                for d in range(4):
                    card = S[g, _STOCK + 4 * t + d]
                    if card // N_RANKS == trump:
                        held[(w + d) & 3] |= np.int64(1) << (card - low)


def tally(st: GameState) -> np.ndarray:
    """(len(TALLIES) * 4, B) int8 counts of a batch of finished games: row ``k * 4 + s``
    is count ``TALLIES[k]`` of seat s (see the module doc)."""
    out = np.zeros((len(TALLIES) * 4, st.batch_size), dtype=np.int8)
    _tally(np.ascontiguousarray(st.data), _HONOUR, out)
    return out


__all__ = ["LOW_TOP", "TALLIES", "tally"]
