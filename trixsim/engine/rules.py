"""The rules of Trix as a state machine over a batch of games: the only implementation.

``legal_action_mask`` says what the seat to act may do; ``step`` applies one action per
game. Games in a batch move independently: one may be picking while another places a
trix card. Section numbers refer to RULES.md part 2.
"""

from __future__ import annotations

import numpy as np

from trixsim import rng
from trixsim.cards import BIT, DIAMOND_MASK, JACKS, KH_MASK, QUEENS, SUIT_MASK
from trixsim.engine.state import GameState
from trixsim.types import (
    ALL_CONTRACTS, DAMET, DECLARE, DINERI, DONE, GENERAL, PASS, PICK, PLACE, PLAY, RAY, TRIX,
)

_U = np.uint32
_NOT_LOW = _U(0xFEFEFEFE)  # clears bit 0 of every suit byte
_NOT_HIGH = _U(0x7F7F7F7F)  # clears bit 7 of every suit byte
_JACKS = _U(JACKS)
_D = _U(DIAMOND_MASK)
_Q = _U(QUEENS)
_KH = _U(KH_MASK)
_TRIX_BIT = np.uint8(1 << TRIX)
_BIT8 = np.array([1 << k for k in range(8)], dtype=np.uint8)
_SEATS = np.arange(4)
_OFFSETS = np.arange(4)


class IllegalActionError(ValueError):
    """An action that the rules do not allow in the game's current state."""

    def __init__(self, message: str, games: np.ndarray) -> None:
        super().__init__(message)
        self.games = games


def pick_number(st: GameState, idx: np.ndarray | slice = slice(None)) -> np.ndarray:
    """The picker's own pick number, 1..7 (§3)."""
    return st.contract_no[idx] // 4 + 1


def placeable(placed: np.ndarray) -> np.ndarray:
    """Cards that may go on the trix stacks given the cards already placed (§11).

    A started suit's placed cards are a run of rank indices around the jack, so the next
    card up is the bit above the run and the next card down the bit below it; a suit is
    started exactly when its jack is placed.
    """
    p = np.asarray(placed).astype(_U, copy=False)
    up = (p << 1) & ~p & _NOT_LOW
    down = (p >> 1) & ~p & _NOT_HIGH
    return (_JACKS & ~p) | up | down


def _pick_mask(st: GameState, i: np.ndarray, hand: np.ndarray) -> np.ndarray:
    """Contracts the picker may choose (§3), as a mask over contract ids."""
    avail = ~st.used[i, st.picker[i]] & np.uint8(ALL_CONTRACTS)
    pn = pick_number(st, i)
    no_jack = (hand & _JACKS) == 0
    avail = np.where((pn <= 5) & no_jack, avail & ~_TRIX_BIT, avail)
    avail = np.where((pn == 6) & ((avail & _TRIX_BIT) != 0), _TRIX_BIT, avail)
    return avail.astype(_U)


def legal_action_mask(st: GameState) -> np.ndarray:
    """Per game, the legal actions of the seat to act as a uint32 mask over action values.

    PICK: bit k = contract k. DECLARE: bit 0 = keep quiet, bit 1 = declare. PLAY, PLACE:
    bit c = card c. An empty mask in PLACE means the seat must pass; DONE games get 0.
    """
    b = st.batch_size
    rows = np.arange(b)
    hand = st.hands[rows, st.turn]
    out = np.zeros(b, dtype=_U)
    ph = st.phase
    i = np.flatnonzero(ph == PLAY)
    if i.size:
        h = hand[i]
        follow = h & SUIT_MASK[st.best_card[i] >> 3]
        out[i] = np.where((st.trick_n[i] == 0) | (follow == 0), h, follow)
    i = np.flatnonzero(ph == PLACE)
    if i.size:
        out[i] = hand[i] & placeable(st.played[i])
    i = np.flatnonzero(ph == PICK)
    if i.size:
        out[i] = _pick_mask(st, i, hand[i])
    out[ph == DECLARE] = 3
    return out


def start_contract(st: GameState, idx: np.ndarray) -> None:
    """Deal a fresh contract (§2) and wait for its picker (§3)."""
    if not idx.size:
        return
    cn = st.contract_no[idx]
    st.hands[idx] = rng.deal(st.seed, st.game_id[idx], cn)
    pk = ((st.first_picker[idx] + cn) % 4).astype(np.int8)
    st.picker[idx] = pk
    st.turn[idx] = pk
    st.leader[idx] = pk
    st.phase[idx] = PICK
    st.contract[idx] = -1
    for arr in (st.played_by, st.played, st.won, st.tricks, st.trick_no, st.trick_n,
                st.trick_mask):
        arr[idx] = 0
    for arr in (st.trick_cards, st.best_card, st.best_seat, st.last_winner, st.declared,
                st.out_first):
        arr[idx] = -1


def check_actions(st: GameState, actions: np.ndarray, legal: np.ndarray) -> np.ndarray:
    """Indices of the running games whose action is not legal (empty when all are)."""
    a = actions
    is_pass = a == PASS
    in_mask = ((legal >> np.clip(a, 0, 31).astype(_U)) & 1) == 1
    ok = np.where(is_pass, (st.phase == PLACE) & (legal == 0), (a >= 0) & (a < 32) & in_mask)
    return np.flatnonzero((st.phase != DONE) & ~ok)


def step(st: GameState, actions: np.ndarray, legal: np.ndarray | None = None) -> None:
    """Apply one action per game, in place. DONE games ignore their action.

    ``legal`` may pass the mask already computed for this state. An action the rules do
    not allow raises IllegalActionError naming the games; the state is then unchanged.
    """
    a = np.asarray(actions, dtype=np.int64)
    if a.shape != (st.batch_size,):
        raise IllegalActionError(f"expected {st.batch_size} actions, got shape {a.shape}",
                                 np.arange(st.batch_size))
    if legal is None:
        legal = legal_action_mask(st)
    bad = check_actions(st, a, legal)
    if bad.size:
        raise IllegalActionError(
            f"illegal action {int(a[bad[0]])} in game {int(st.game_id[bad[0]])}", bad)
    ph = st.phase
    groups = [(np.flatnonzero(ph == p), f) for p, f in
              ((PICK, _pick), (DECLARE, _declare), (PLAY, _play), (PLACE, _place))]
    st.ply[ph != DONE] += 1
    for i, apply in groups:
        if i.size:
            apply(st, i, a[i])


def _pick(st: GameState, i: np.ndarray, a: np.ndarray) -> None:
    """The picker names a contract (§3); trix starts with its starter (§11)."""
    st.contract[i] = a
    pk = st.picker[i]
    st.used[i, pk] |= _BIT8[a]
    trix = a == TRIX
    it = i[trix]
    if it.size:
        order = (pk[trix, None].astype(np.int64) + _OFFSETS) % 4
        has_jack = (st.hands[it[:, None], order] & _JACKS) != 0
        st.turn[it] = order[np.arange(it.size), np.argmax(has_jack, axis=1)]
        st.phase[it] = PLACE
    _enter_play_turn(st, i[~trix])


def _enter_play_turn(st: GameState, i: np.ndarray) -> None:
    """The seat in ``turn`` is about to play: the K♥ holder first decides to declare (§5)."""
    if not i.size:
        return
    t = st.turn[i]
    c = st.contract[i]
    need = (((c == RAY) | (c == GENERAL)) & ((st.hands[i, t] & _KH) != 0)
            & (st.played_by[i, t] == 0))
    st.phase[i] = np.where(need, DECLARE, PLAY)


def _declare(st: GameState, i: np.ndarray, a: np.ndarray) -> None:
    """Record the K♥ holder's choice (1 = declare); the holder then plays."""
    st.declared[i] = np.where(a == 1, st.turn[i], -1)
    st.phase[i] = PLAY


def _play(st: GameState, i: np.ndarray, a: np.ndarray) -> None:
    """Play a card to the current trick; the highest card of the suit led wins it."""
    t = st.turn[i]
    bit = BIT[a]
    st.hands[i, t] &= ~bit
    st.played_by[i, t] |= bit
    st.played[i] |= bit
    n = st.trick_n[i]
    st.trick_cards[i, n] = a
    st.trick_mask[i] |= bit
    best = st.best_card[i]
    better = (n == 0) | (((a >> 3) == (best >> 3)) & (a > best))
    st.best_card[i] = np.where(better, a, best)
    st.best_seat[i] = np.where(better, t, st.best_seat[i])
    n1 = n + 1
    st.trick_n[i] = n1
    full = n1 == 4
    nxt = i[~full]
    if nxt.size:
        st.turn[nxt] = (t[~full] + 1) % 4
        _enter_play_turn(st, nxt)
    j = i[full]
    if j.size:
        _complete_trick(st, j)


def _complete_trick(st: GameState, j: np.ndarray) -> None:
    """The winner takes the trick and leads next; early ends are checked (§6)."""
    w = st.best_seat[j]
    st.tricks[j, w] += 1
    st.won[j, w] |= st.trick_mask[j]
    st.trick_no[j] += 1
    st.last_winner[j] = w
    st.leader[j] = w
    st.turn[j] = w
    st.trick_n[j] = 0
    st.trick_mask[j] = 0
    st.trick_cards[j] = -1
    st.best_card[j] = -1
    st.best_seat[j] = -1
    c = st.contract[j]
    pl = st.played[j]
    end = ((st.trick_no[j] == 8)
           | ((c == DINERI) & ((pl & _D) == _D))
           | ((c == DAMET) & ((pl & _Q) == _Q))
           | ((c == RAY) & ((pl & _KH) != 0)))
    _enter_play_turn(st, j[~end])
    e = j[end]
    if e.size:
        _finish_contract(st, e, trick_points(st, e))


def trick_points(st: GameState, e: np.ndarray) -> np.ndarray:
    """Points of finished trick contracts (§4-§8), multipliers and the −50 included."""
    won = st.won[e]
    tricks = st.tricks[e].astype(np.int32)
    rows = np.arange(e.size)
    nd = np.bitwise_count(won & _D).astype(np.int32)
    dineri = np.where(nd == 8, 150, 10 * nd)
    damet = 20 * np.bitwise_count(won & _Q).astype(np.int32)
    pli = np.where(tricks == 8, 150, 10 * tricks)
    farcha = np.where(_SEATS[None, :] == st.last_winner[e][:, None], 100, 0)
    decl = st.declared[e]
    has_kh = (won & _KH) != 0
    ray = np.where(has_kh, np.where(decl >= 0, 200, 100)[:, None], 0)
    general = np.where(tricks == 8, 0, dineri + damet + pli + farcha + ray)
    parts = np.stack([dineri, damet, pli, farcha, ray, general])
    pts = parts[st.contract[e], rows].astype(np.int32)
    pts[rows, st.picker[e]] *= np.where(pick_number(st, e) == 7, 4, 2).astype(np.int32)
    d = np.flatnonzero(decl >= 0)
    holder = decl[d]
    lost = ~has_kh[d, holder]
    pts[d[lost], holder[lost]] -= 50
    return pts


def _place(st: GameState, i: np.ndarray, a: np.ndarray) -> None:
    """Place a trix card or pass (§11); an ace gives another turn, empty hands are skipped."""
    t = st.turn[i]
    placing = a != PASS
    ip, tp, ap = i[placing], t[placing], a[placing]
    finished = np.zeros(i.size, dtype=bool)
    again = np.zeros(i.size, dtype=bool)
    if ip.size:
        bit = BIT[ap]
        st.hands[ip, tp] &= ~bit
        st.played_by[ip, tp] |= bit
        st.played[ip] |= bit
        emptied = st.hands[ip, tp] == 0
        had_first = st.out_first[ip] >= 0
        sec = emptied & had_first
        first = emptied & ~had_first
        st.out_first[ip[first]] = tp[first]
        finished[placing] = sec
        again[placing] = ((ap & 7) == 7) & ~emptied
        e = ip[sec]
        if e.size:
            pts = np.zeros((e.size, 4), dtype=np.int32)
            rows = np.arange(e.size)
            pts[rows, st.out_first[e]] = -100
            pts[rows, tp[sec]] = -50
            _finish_contract(st, e, pts)
    move = ~finished & ~again
    m = i[move]
    if m.size:
        order = (t[move, None].astype(np.int64) + _OFFSETS + 1) % 4
        nonempty = st.hands[m[:, None], order] != 0
        st.turn[m] = order[np.arange(m.size), np.argmax(nonempty, axis=1)]


def _finish_contract(st: GameState, e: np.ndarray, pts: np.ndarray) -> None:
    """Add the points, apply the 1000 rule, end the game or deal the next contract (§9)."""
    st.points[e] = pts
    tot = st.totals[e] + pts
    tot[tot == 1000] = 0
    st.totals[e] = tot
    st.contract_no[e] += 1
    over = (tot > 1000).any(axis=1) | (st.contract_no[e] >= 28)
    st.phase[e[over]] = DONE
    start_contract(st, e[~over])
