"""How one action changes one Trix game: the per-game kernels of the rules (compiled).

``step_one`` applies a legal action to a state row (a pick, a declaration, a card, a
trix placement or pass) and carries the game through the trick's end, the contract's
points and the 1000 rule to the next deal or the game's end; ``_deal`` and
``start_contract`` open a contract. ``rules`` loops them over a batch and checks the
actions first; the whole-game loop (``fast``) and the search's worlds call them one game
at a time. Section numbers refer to docs/rules.md.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from trixsim import rng
from trixsim.games.trix import cards
from trixsim.games.trix.cards import DIAMOND_MASK, JACKS, KH_MASK, QUEENS
from trixsim.games.trix.cards import bit_count as popcount
from trixsim.games.trix.state import (
    BEST_CARD,
    BEST_SEAT,
    CONTRACT,
    CONTRACT_NO,
    DECLARED,
    FIELDS,
    FIRST_PICKER,
    GAME_ID,
    HANDS,
    LAST_WINNER,
    LEADER,
    OUT_FIRST,
    OUT_SECOND,
    PHASE,
    PICKER,
    PLAYED,
    PLAYED_BY,
    PLY,
    POINTS,
    STOP_AFTER,
    TOTALS,
    TRICK_CARDS,
    TRICK_LOG,
    TRICK_N,
    TRICK_NO,
    TRICKS,
    TRIX_LOG,
    TRIX_LOG_MAX,
    TRIX_N,
    TURN,
    USED,
    VOIDS,
    WON,
)
from trixsim.games.trix.types import (
    DAMET,
    DECLARE,
    DINERI,
    DONE,
    FARCHA,
    GENERAL,
    PASS,
    PICK,
    PLACE,
    PLAY,
    PLI,
    RAY,
    TRIX,
)
from trixsim.jitcache import guard, sources
from trixsim.rng import deal_one

guard(__file__, sources(cards, rng), FIELDS, DIAMOND_MASK, JACKS, KH_MASK, QUEENS,
      (DAMET, DECLARE, DINERI, DONE, FARCHA, GENERAL, PASS, PICK, PLACE, PLAY, PLI, RAY, TRIX))

_DEALING = DONE + 1
"""Internal phase: the contract ended and the next deal (a chance event) is due."""


@njit(cache=True, inline='always')
def beats(card: int, best: int) -> bool:
    """Whether ``card`` takes the trick from ``best``, the card winning it so far: only a
    higher card of the same suit does (the suit led, since ``best`` always has it)."""
    return (card >> 3) == (best >> 3) and card > best


@njit(cache=True, inline='always')
def _deal(S: np.ndarray, g: int, seed: int, deals: np.ndarray) -> None:
    """The chance event: the next contract's deal, imposed or from (seed, game, contract)."""
    cn = S[g, CONTRACT_NO]
    if deals.shape[0] > 0 and deals[g, cn, 0] >= 0:
        for s in range(4):
            S[g, HANDS + s] = deals[g, cn, s]
    else:
        deal_one(seed, S[g, GAME_ID], cn, S[g, HANDS:HANDS + 4])
    start_contract(S, g)


@njit(cache=True)
def start_contract(S: np.ndarray, g: int) -> None:
    """Start a freshly dealt contract (§2) and wait for its picker (§3)."""
    cn = S[g, CONTRACT_NO]
    pk = (S[g, FIRST_PICKER] + cn) % 4
    S[g, PICKER] = pk
    S[g, TURN] = pk
    S[g, LEADER] = pk
    S[g, PHASE] = PICK
    S[g, CONTRACT] = -1
    S[g, PLAYED] = 0
    S[g, TRICK_NO] = 0
    S[g, TRICK_N] = 0
    S[g, BEST_CARD] = -1
    S[g, BEST_SEAT] = -1
    S[g, LAST_WINNER] = -1
    S[g, DECLARED] = -1
    S[g, OUT_FIRST] = -1
    S[g, OUT_SECOND] = -1
    S[g, VOIDS] = 0
    for k in range(8):
        S[g, TRICK_LOG + k] = -1
    for k in range(TRIX_LOG_MAX // 8):
        S[g, TRIX_LOG + k] = 0
    S[g, TRIX_N] = 0
    for s in range(4):
        S[g, PLAYED_BY + s] = 0
        S[g, WON + s] = 0
        S[g, TRICKS + s] = 0
        S[g, TRICK_CARDS + s] = -1


@njit(cache=True, inline='always')
def step_one(S: np.ndarray, g: int, a: int) -> None:
    """Apply a legal action to game ``g``.

    ``ply`` counts the public actions (picks, cards, trix passes, declarations of the K♥):
    a holder keeping quiet is no event the other seats see, so it is not counted (§12).
    """
    ph = S[g, PHASE]
    if ph != DECLARE or a == 1:
        S[g, PLY] += 1
    if ph == PLAY:
        _play(S, g, a)
    elif ph == PLACE:
        _place(S, g, a)
    elif ph == PICK:
        _pick(S, g, a)
    else:
        S[g, DECLARED] = S[g, TURN] if a == 1 else -1
        S[g, PHASE] = PLAY


@njit(cache=True, inline='always')
def _pick(S: np.ndarray, g: int, a: int) -> None:
    """The picker names a contract (§3); trix starts with its starter (§11)."""
    S[g, CONTRACT] = a
    pk = S[g, PICKER]
    S[g, USED + pk] |= 1 << a
    if a == TRIX:
        for k in range(4):
            s = (pk + k) % 4
            if (np.int64(S[g, HANDS + s]) & JACKS) != 0:
                S[g, TURN] = s
                break
        S[g, PHASE] = PLACE
    else:
        _enter_play_turn(S, g)


@njit(cache=True, inline='always')
def _enter_play_turn(S: np.ndarray, g: int) -> None:
    """The seat in ``turn`` is about to play: the K♥ holder first decides to declare (§5)."""
    t = S[g, TURN]
    c = S[g, CONTRACT]
    if ((c == RAY or c == GENERAL) and (np.int64(S[g, HANDS + t]) & KH_MASK) != 0
            and S[g, PLAYED_BY + t] == 0):
        S[g, PHASE] = DECLARE
    else:
        S[g, PHASE] = PLAY


@njit(cache=True, inline='always')
def _play(S: np.ndarray, g: int, a: int) -> None:
    """Play a card to the current trick; the highest card of the suit led wins it."""
    t = S[g, TURN]
    bit = np.int64(1) << a
    S[g, HANDS + t] = np.int64(S[g, HANDS + t]) & ~bit
    S[g, PLAYED_BY + t] = np.int64(S[g, PLAYED_BY + t]) | bit
    S[g, PLAYED] = np.int64(S[g, PLAYED]) | bit
    n = S[g, TRICK_N]
    S[g, TRICK_CARDS + n] = a
    led = S[g, TRICK_CARDS] >> 3
    if n > 0 and (a >> 3) != led:  # shown out of the suit led: public from now on
        S[g, VOIDS] = np.int64(S[g, VOIDS]) | (np.int64(1) << (4 * t + led))
    best = S[g, BEST_CARD]
    if n == 0 or beats(a, best):
        S[g, BEST_CARD] = a
        S[g, BEST_SEAT] = t
    n += 1
    S[g, TRICK_N] = n
    if n < 4:
        S[g, TURN] = (t + 1) % 4
        _enter_play_turn(S, g)
    else:
        _complete_trick(S, g)


@njit(cache=True)
def _complete_trick(S: np.ndarray, g: int) -> None:
    """The winner takes the trick and leads next; early ends are checked (§6)."""
    w = S[g, BEST_SEAT]
    S[g, TRICKS + w] += 1
    m = np.int64(S[g, WON + w])
    log = np.int64(S[g, LEADER])
    for k in range(4):
        m |= np.int64(1) << S[g, TRICK_CARDS + k]
        log |= np.int64(S[g, TRICK_CARDS + k]) << (8 * k + 8)
        S[g, TRICK_CARDS + k] = -1
    S[g, TRICK_LOG + S[g, TRICK_NO]] = log
    S[g, WON + w] = m
    S[g, TRICK_NO] += 1
    S[g, LAST_WINNER] = w
    S[g, LEADER] = w
    S[g, TURN] = w
    S[g, TRICK_N] = 0
    S[g, BEST_CARD] = -1
    S[g, BEST_SEAT] = -1
    c = S[g, CONTRACT]
    pl = np.int64(S[g, PLAYED])
    if (S[g, TRICK_NO] == 8
            or (c == DINERI and (pl & DIAMOND_MASK) == DIAMOND_MASK)
            or (c == DAMET and (pl & QUEENS) == QUEENS)
            or (c == RAY and (pl & KH_MASK) != 0)):
        trick_points(S, g)
        _finish_contract(S, g)
    else:
        _enter_play_turn(S, g)


@njit(cache=True)
def multiplier(contract: int, pick: int) -> int:
    """The factor on the picker's own points (§4): 2, 4 on the seventh pick, 1 in trix."""
    if contract == TRIX:
        return 1
    return 4 if pick == 7 else 2


@njit(cache=True)
def trick_points(S: np.ndarray, g: int) -> None:
    """Write the points of a finished trick contract (§4-§8) into ``S[g, POINTS]``."""
    c = S[g, CONTRACT]
    decl = S[g, DECLARED]
    mult = multiplier(c, S[g, CONTRACT_NO] // 4 + 1)
    for s in range(4):
        won = np.int64(S[g, WON + s])
        tr = np.int64(S[g, TRICKS + s])
        nd = popcount(won & DIAMOND_MASK)
        dineri = 150 if nd == 8 else 10 * nd
        damet = 20 * popcount(won & QUEENS)
        pli = 150 if tr == 8 else 10 * tr
        farcha = 100 if S[g, LAST_WINNER] == s else 0
        ray = 0
        if (won & KH_MASK) != 0:
            ray = 200 if decl >= 0 else 100
        if c == DINERI:
            p = dineri
        elif c == DAMET:
            p = damet
        elif c == PLI:
            p = pli
        elif c == FARCHA:
            p = farcha
        elif c == RAY:
            p = ray
        else:
            p = 0 if tr == 8 else dineri + damet + pli + farcha + ray
        if s == S[g, PICKER]:
            p *= mult
        S[g, POINTS + s] = p
    if decl >= 0 and (np.int64(S[g, WON + decl]) & KH_MASK) == 0:
        S[g, POINTS + decl] -= 50


@njit(cache=True, inline='always')
def _next_holder(S: np.ndarray, g: int, t: int) -> None:
    """Turn passes to the next seat after ``t`` that still holds cards (§11)."""
    for k in range(1, 5):
        s = (t + k) % 4
        if S[g, HANDS + s] != 0:
            S[g, TURN] = s
            return


@njit(cache=True, inline='always')
def _place(S: np.ndarray, g: int, a: int) -> None:
    """Place a trix card or pass (§11); an ace gives another turn; stop at the second out."""
    t = S[g, TURN]
    m = S[g, TRIX_N]
    if m < TRIX_LOG_MAX:  # the public history (§12): who placed what, who passed
        code = np.int64((t << 6) | a) << np.int64(8 * (m % 8))
        S[g, TRIX_LOG + m // 8] = np.int64(S[g, TRIX_LOG + m // 8]) | code
        S[g, TRIX_N] = m + 1
    if a == PASS:
        _next_holder(S, g, t)
        return
    bit = np.int64(1) << a
    S[g, HANDS + t] = np.int64(S[g, HANDS + t]) & ~bit
    S[g, PLAYED_BY + t] = np.int64(S[g, PLAYED_BY + t]) | bit
    S[g, PLAYED] = np.int64(S[g, PLAYED]) | bit
    if S[g, HANDS + t] == 0:
        if S[g, OUT_FIRST] >= 0:
            for s in range(4):
                S[g, POINTS + s] = 0
            S[g, POINTS + S[g, OUT_FIRST]] = -100
            S[g, POINTS + t] = -50
            S[g, OUT_SECOND] = t
            _finish_contract(S, g)
            return
        S[g, OUT_FIRST] = t
        _next_holder(S, g, t)
    elif (a & 7) != 7:
        _next_holder(S, g, t)


@njit(cache=True)
def add_points(total: int, points: int) -> int:
    """A seat's total after a contract's points: exactly 1000 returns to 0 (§9)."""
    v = total + points
    return 0 if v == 1000 else v


@njit(cache=True)
def ends_game(total: int, contracts_played: int) -> bool:
    """Whether a game ends: a total above 1000, or 28 contracts played (§9)."""
    return total > 1000 or contracts_played >= 28


@njit(cache=True)
def _finish_contract(S: np.ndarray, g: int) -> None:
    """Add the points, apply the 1000 rule, end the game or deal the next contract (§9)."""
    over = False
    for s in range(4):
        v = add_points(S[g, TOTALS + s], S[g, POINTS + s])
        S[g, TOTALS + s] = v
        over |= ends_game(v, 0)
    S[g, CONTRACT_NO] += 1
    if over or ends_game(0, S[g, CONTRACT_NO]) or S[g, STOP_AFTER] != 0:
        S[g, PHASE] = DONE
    else:
        S[g, PHASE] = _DEALING
