"""The rules of Trix as a state machine over a batch of games: the only implementation.

``legal_action_mask`` says what the seat to act may do; ``step`` applies one action per
game. Games in a batch move independently: one may be picking while another places a
trix card. The per-game logic is compiled (numba) and looped over the batch, so one rule
text serves a batch of 100,000 games and a single interactive table alike. Section
numbers refer to the "Interpretations fixed by trixsim" of docs/rules.md.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from trixsim import rng
from trixsim.errors import IllegalActionError as _IllegalActionError
from trixsim.gamekit.events import buffers, no_events
from trixsim.games.trix import cards
from trixsim.games.trix.cards import DIAMOND_MASK, JACKS, KH_MASK, QUEENS
from trixsim.games.trix.cards import bit_count as popcount
from trixsim.games.trix.chance import Chance
from trixsim.games.trix.events import CARD as EV_CARD
from trixsim.games.trix.events import CONTRACT_END as EV_CONTRACT_END
from trixsim.games.trix.events import DEAL as EV_DEAL
from trixsim.games.trix.events import DECLARE as EV_DECLARE
from trixsim.games.trix.events import EV_WIDTH, PER_STEP, EventLog
from trixsim.games.trix.events import GAME_END as EV_GAME_END
from trixsim.games.trix.events import OUT as EV_OUT
from trixsim.games.trix.events import PASS as EV_PASS
from trixsim.games.trix.events import PICK as EV_PICK
from trixsim.games.trix.events import PLACE as EV_PLACE
from trixsim.games.trix.events import TRICK as EV_TRICK
from trixsim.games.trix.state import COL, FIELDS, GameState, empty
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
from trixsim.rng import deal_one, first_picker

_TRIX_BIT = 1 << TRIX
_PASS_BIT = 1 << PASS
guard(__file__, sources(cards, rng), FIELDS, DIAMOND_MASK, JACKS, KH_MASK, QUEENS,
      (DAMET, DECLARE, DINERI, DONE, FARCHA, GENERAL, PASS, PICK, PLACE, PLAY, PLI, RAY, TRIX),
      (EV_WIDTH, EV_DEAL, EV_PICK, EV_DECLARE, EV_CARD, EV_TRICK, EV_PLACE, EV_PASS, EV_OUT,
       EV_CONTRACT_END, EV_GAME_END))

# Column offsets of the state rows (compile-time constants in the kernels).
GAME_ID = COL["game_id"]
FIRST_PICKER = COL["first_picker"]
CONTRACT_NO = COL["contract_no"]
USED = COL["used"]
TOTALS = COL["totals"]
PHASE = COL["phase"]
TURN = COL["turn"]
PLY = COL["ply"]
PICKER = COL["picker"]
CONTRACT = COL["contract"]
HANDS = COL["hands"]
PLAYED_BY = COL["played_by"]
PLAYED = COL["played"]
WON = COL["won"]
TRICKS = COL["tricks"]
TRICK_NO = COL["trick_no"]
TRICK_CARDS = COL["trick_cards"]
TRICK_N = COL["trick_n"]
LEADER = COL["leader"]
BEST_CARD = COL["best_card"]
BEST_SEAT = COL["best_seat"]
LAST_WINNER = COL["last_winner"]
DECLARED = COL["declared"]
OUT_FIRST = COL["out_first"]
OUT_SECOND = COL["out_second"]
POINTS = COL["points"]
VOIDS = COL["voids"]
TRICK_LOG = COL["trick_log"]
TRIX_LOG = COL["trix_log"]
TRIX_N = COL["trix_n"]
TRIX_LOG_MAX = 8 * FIELDS[[f[0] for f in FIELDS].index("trix_log")][1]
"""Moves the trix log holds: 128, the most a contract can make (a placement, then at most
three passes before the next: four seats never all pass while cards remain)."""
STOP_AFTER = COL["stop_after"]


class IllegalActionError(_IllegalActionError):
    """Actions that the Trix rules do not allow in the games' current state."""


@njit(cache=True, inline='always')
def beats(card: int, best: int) -> bool:
    """Whether ``card`` takes the trick from ``best``, the card winning it so far: only a
    higher card of the same suit does (the suit led, since ``best`` always has it)."""
    return (card >> 3) == (best >> 3) and card > best


def trick_winner(leader: int, cards: list[int]) -> int:
    """The seat that wins a complete or partial trick led by ``leader``."""
    best = 0
    for k in range(1, len(cards)):
        if beats(cards[k], cards[best]):
            best = k
    return (leader + best) % 4


def winners_losers(totals: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Boolean (…, 4) masks of the winners (lowest total) and losers (highest) (§10)."""
    t = np.asarray(totals)
    return t == t.min(axis=-1, keepdims=True), t == t.max(axis=-1, keepdims=True)


@njit(cache=True, inline='always')
def placeable_one(placed: int) -> int:
    """Cards that may go on the trix stacks given the cards already placed (§11).

    A started suit's placed cards are a run of rank indices around its jack, so the next
    card up is the bit above the run and the next card down the bit below it; a suit is
    started exactly when its jack is placed.
    """
    up = (placed << 1) & ~placed & 0xFEFEFEFE
    down = (placed >> 1) & ~placed & 0x7F7F7F7F
    return (JACKS & ~placed) | up | down


@njit(cache=True)
def _placeable_many(placed: np.ndarray, out: np.ndarray) -> None:
    for i in range(placed.shape[0]):
        out[i] = placeable_one(np.int64(placed[i]))


def placeable(placed: np.ndarray) -> np.ndarray:
    """``placeable_one`` over an array of placed-card masks (uint32 result)."""
    p = np.ascontiguousarray(placed, dtype=np.uint32).ravel()
    out = np.empty(p.shape[0], dtype=np.uint32)
    _placeable_many(p, out)
    return out.reshape(np.shape(placed))


def pick_number(st: GameState, idx: np.ndarray | slice = slice(None)) -> np.ndarray:
    """The picker's own pick number, 1..7 (§3)."""
    return st.contract_no[idx] // 4 + 1


@njit(cache=True, inline='always')
def _pick_mask(S: np.ndarray, g: int, hand: int) -> int:
    """Contracts the picker may choose (§3), as a mask over contract ids."""
    avail = ~np.int64(S[g, USED + S[g, PICKER]]) & 0x7F
    pn = S[g, CONTRACT_NO] // 4 + 1
    if pn <= 5 and (hand & JACKS) == 0:
        avail &= ~_TRIX_BIT
    elif pn == 6 and (avail & _TRIX_BIT) != 0:
        avail = _TRIX_BIT
    return avail


@njit(cache=True, inline='always')
def legal_one(S: np.ndarray, g: int) -> int:
    """The legal action mask of game ``g`` (see legal_action_mask)."""
    ph = S[g, PHASE]
    if ph == DONE:
        return 0
    hand = np.int64(S[g, HANDS + S[g, TURN]])
    if ph == PLAY:
        if S[g, TRICK_N] == 0:
            return hand
        follow = hand & (0xFF << (8 * (S[g, BEST_CARD] >> 3)))
        return follow if follow != 0 else hand
    if ph == PLACE:
        return hand & placeable_one(np.int64(S[g, PLAYED]))
    if ph == PICK:
        return _pick_mask(S, g, hand)
    return 3


@njit(cache=True)
def _legal_many(S: np.ndarray, out: np.ndarray) -> None:
    for g in range(out.shape[0]):
        out[g] = legal_one(S, g)


def legal_action_mask(st: GameState) -> np.ndarray:
    """Per game, the legal actions of the seat to act as a uint32 mask over action values.

    PICK: bit k = contract k. DECLARE: bit 0 = keep quiet, bit 1 = declare. PLAY, PLACE:
    bit c = card c. An empty mask in PLACE means the seat must pass (action PASS); DONE
    games get 0.
    """
    out = np.empty(st.batch_size, dtype=np.uint32)
    _legal_many(st.data, out)
    return out


_DEALING = DONE + 1
_BRIEF = frozenset({EV_DEAL, EV_PICK, EV_CONTRACT_END, EV_GAME_END})
"""The events a step writes alone when no others are asked for."""
"""Internal phase: the contract ended and the next deal (a chance event) is due."""

# Events: one int64 row each, [batch position, kind, seat, contract number (0-based),
# p0..p21]; see trixsim.games.trix.events for their meaning and readable form.
NO_EVENTS = no_events(EV_WIDTH)


@njit(cache=True, inline='always')
def _emit(E: np.ndarray, n: np.ndarray, g: int, kind: int, seat: int, cn: int,
          p0: int, p1: int, p2: int, p3: int) -> int:
    """Append an event row (p4..p7 zero); returns its row for more payload."""
    k = n[0]
    E[k, 0] = g
    E[k, 1] = kind
    E[k, 2] = seat
    E[k, 3] = cn
    E[k, 4] = p0
    E[k, 5] = p1
    E[k, 6] = p2
    E[k, 7] = p3
    for j in range(8, EV_WIDTH):
        E[k, j] = 0
    n[0] = k + 1
    return k


@njit(cache=True, inline='always')
def _emit_deal(S: np.ndarray, g: int, E: np.ndarray, n: np.ndarray) -> None:
    _emit(E, n, g, EV_DEAL, S[g, PICKER], S[g, CONTRACT_NO], S[g, HANDS], S[g, HANDS + 1],
          S[g, HANDS + 2], S[g, HANDS + 3])


@njit(cache=True, inline='always')
def _emit_pick(S: np.ndarray, g: int, t: int, a: int, cn: int, lm: int, E: np.ndarray,
               n: np.ndarray) -> None:
    """The pick event (``lm``: the picker's legal mask, to tell a forced pick)."""
    forced = 1 if lm != 0 and (lm & (lm - 1)) == 0 else 0
    _emit(E, n, g, EV_PICK, t, cn, a, cn // 4 + 1, forced, 0)


@njit(cache=True, inline='always')
def _emit_end(S: np.ndarray, g: int, cn: int, E: np.ndarray, n: np.ndarray) -> None:
    """The events of a contract's end (and of the game's, if it ended too)."""
    k = _emit(E, n, g, EV_CONTRACT_END, S[g, PICKER], cn, S[g, POINTS], S[g, POINTS + 1],
              S[g, POINTS + 2], S[g, POINTS + 3])
    kh_taker = -1
    for s in range(4):
        E[k, 8 + s] = S[g, TOTALS + s]
        E[k, 12 + s] = S[g, TRICKS + s]
        if np.int64(S[g, WON + s]) & KH_MASK:
            kh_taker = s
    E[k, 16] = S[g, DECLARED]
    E[k, 17] = kh_taker
    E[k, 18] = S[g, TRICK_NO]
    E[k, 19] = S[g, OUT_FIRST]
    E[k, 20] = S[g, OUT_SECOND]
    for s in range(4):  # what the outcome tables need to re-derive the points (check)
        E[k, 21 + s] = S[g, WON + s]
    E[k, 25] = S[g, LAST_WINNER] if S[g, TRICK_NO] > 0 else -1
    if S[g, PHASE] == DONE:
        _emit(E, n, g, EV_GAME_END, -1, cn, S[g, TOTALS], S[g, TOTALS + 1],
              S[g, TOTALS + 2], S[g, TOTALS + 3])


@njit(cache=True, inline='always')
def _emit_step(S: np.ndarray, g: int, ph: int, t: int, a: int, cn: int, tn: int,
               out1: int, lm: int, E: np.ndarray, n: np.ndarray) -> None:
    """The events of one applied action (before the next deal, if one is due)."""
    if ph == PICK:
        _emit_pick(S, g, t, a, cn, lm, E, n)
    elif ph == DECLARE:
        _emit(E, n, g, EV_DECLARE, t, cn, a, 0, 0, 0)
    elif ph == PLAY:
        _emit(E, n, g, EV_CARD, t, cn, a, tn, 0, 0)
        if S[g, TRICK_NO] != tn:
            log = np.int64(S[g, TRICK_LOG + tn])
            k = _emit(E, n, g, EV_TRICK, S[g, LAST_WINNER], cn, (log >> 8) & 0xFF,
                      (log >> 16) & 0xFF, (log >> 24) & 0xFF, (log >> 32) & 0xFF)
            E[k, 8] = log & 0xFF
            E[k, 9] = tn
    elif a == PASS:
        _emit(E, n, g, EV_PASS, t, cn, 0, 0, 0, 0)
    else:
        _emit(E, n, g, EV_PLACE, t, cn, a, 0, 0, 0)
        if out1 < 0 and S[g, OUT_FIRST] == t:
            _emit(E, n, g, EV_OUT, t, cn, 1, 0, 0, 0)
        elif S[g, OUT_SECOND] == t:
            _emit(E, n, g, EV_OUT, t, cn, 2, 0, 0, 0)
    if S[g, CONTRACT_NO] != cn:
        _emit_end(S, g, cn, E, n)


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


@njit(cache=True)
def _init_many(S: np.ndarray, draw_first: bool, seed: int, deals: np.ndarray,
               E: np.ndarray, n: np.ndarray) -> None:
    for g in range(S.shape[0]):
        if draw_first:
            S[g, FIRST_PICKER] = first_picker(seed, S[g, GAME_ID])
        _deal(S, g, seed, deals)
        if E.shape[0] > 0:
            _emit_deal(S, g, E, n)


def init(seed: int | Chance, game_ids: np.ndarray | list[int] | range,
         first_pickers: np.ndarray | list[int] | None = None,
         events: EventLog | None = None) -> GameState:
    """New games with the given global indices, dealt and waiting for the first pick.

    ``seed`` is the chance source (a seed, or a ``Chance`` that may impose deals). The
    first picker is drawn at random from (seed, game index) unless ``first_pickers``
    imposes it (a replayed record, a table where the seats drew in person).
    """
    chance = seed if isinstance(seed, Chance) else Chance(int(seed))
    st = empty(chance, np.asarray(game_ids, dtype=np.int64))
    if len(chance.deals) not in (0, st.batch_size):
        raise ValueError("imposed deals must cover every game of the batch")
    if first_pickers is not None:
        fp = np.asarray(first_pickers, dtype=np.int64)
        if fp.shape != (st.batch_size,) or ((fp < 0) | (fp > 3)).any():
            raise ValueError("first_pickers must hold one seat (0-3) per game")
        st.first_picker[:] = fp
    E, n = _buffers(events, st.batch_size)
    _init_many(st.data, first_pickers is None, chance.seed, chance.deals, E, n)
    return st


def _buffers(events: EventLog | None, batch: int) -> tuple[np.ndarray, np.ndarray]:
    """The event buffer and counter for a call (empty ones when nobody asks for events)."""
    return buffers(events, batch, EV_WIDTH, PER_STEP, "Trix")


@njit(cache=True, inline='always')
def _is_legal(S: np.ndarray, g: int, a: int, lm: int) -> bool:
    """Whether action ``a`` is legal in game ``g`` whose legal mask is ``lm``."""
    if a == PASS:
        return S[g, PHASE] == PLACE and lm == 0
    return 0 <= a < 32 and ((lm >> a) & 1) == 1


@njit(cache=True, inline='always')
def _refused(S: np.ndarray, g: int, a: int, lm: int) -> bool:
    """Whether the step refuses action ``a`` in game ``g`` whose legal mask is ``lm``
    (any forced-pass bit in it is not read: the rules say when a seat must pass);
    finished games refuse nothing. A legal card is told from the mask alone, so checking
    a step reads a state row only for a pass, a finished game or a refusal."""
    if 0 <= a < 32 and ((lm >> a) & 1) == 1:
        return False
    if S[g, PHASE] == DONE:
        return False
    return not _is_legal(S, g, a, lm & 0xFFFFFFFF)


@njit(cache=True)
def _step_many(S: np.ndarray, actions: np.ndarray, legal: np.ndarray,
               legal_out: np.ndarray, seed: int, deals: np.ndarray, E: np.ndarray,
               n: np.ndarray, pass_bit: bool, brief: bool) -> np.ndarray:
    """Check every action, then apply them all and write the new legal masks (with the
    forced trix pass as bit 32 when ``pass_bit``: the masks the game hands the loop).
    ``brief``: of the events, only deals, picks and contract (and game) ends.

    Returns the illegal games; if there are any, nothing is applied.
    """
    n_bad = 0
    for g in range(actions.shape[0]):
        if _refused(S, g, actions[g], np.int64(legal[g])):
            n_bad += 1
    bad = np.empty(n_bad, dtype=np.int64)
    if n_bad:
        k = 0
        for g in range(actions.shape[0]):
            if _refused(S, g, actions[g], np.int64(legal[g])):
                bad[k] = g
                k += 1
        return bad
    for g in range(actions.shape[0]):
        if S[g, PHASE] != DONE:
            if E.shape[0] > 0 and brief:  # the outcome rows' events only
                ph, a, cn = S[g, PHASE], actions[g], S[g, CONTRACT_NO]
                if ph == PICK:
                    _emit_pick(S, g, S[g, TURN], a, cn, np.int64(legal[g]) & 0xFFFFFFFF,
                               E, n)
                step_one(S, g, a)
                if S[g, CONTRACT_NO] != cn:
                    _emit_end(S, g, cn, E, n)
            elif E.shape[0] > 0:
                ph, t, a = S[g, PHASE], S[g, TURN], actions[g]
                cn, tn, out1 = S[g, CONTRACT_NO], S[g, TRICK_NO], S[g, OUT_FIRST]
                step_one(S, g, a)
                _emit_step(S, g, ph, t, a, cn, tn, out1, np.int64(legal[g]) & 0xFFFFFFFF,
                           E, n)
            else:
                step_one(S, g, actions[g])
            if S[g, PHASE] == _DEALING:
                _deal(S, g, seed, deals)
                if E.shape[0] > 0:
                    _emit_deal(S, g, E, n)
            lm = legal_one(S, g)
            if pass_bit and lm == 0 and S[g, PHASE] == PLACE:
                lm = _PASS_BIT
            legal_out[g] = lm
        else:
            legal_out[g] = 0
    return bad


def step(st: GameState, actions: np.ndarray, legal: np.ndarray | None = None,
         events: EventLog | None = None, pass_bit: bool = False) -> np.ndarray:
    """Apply one action per game, in place, and return the new legal-action masks.

    DONE games ignore their action. ``legal`` may pass ``legal_action_mask(st)`` when the
    caller already has it for this very state (e.g. from the previous step). With
    ``events``, the step's events are written to it (see ``trixsim.games.trix.events``);
    without, none are made (an event log whose ``kinds`` are among deals, picks and
    contract and game ends gets only those). If any action is not legal,
    IllegalActionError names those games (``.games``, batch positions) and nothing is
    applied. ``pass_bit``: the masks
    taken and returned are uint64 with the forced trix pass as bit 32 (``TrixGame``'s);
    else uint32 without it.
    """
    a = np.ascontiguousarray(actions, dtype=np.int64)
    if a.shape != (st.batch_size,):
        raise IllegalActionError(f"expected {st.batch_size} actions, got shape {a.shape}",
                                 np.arange(st.batch_size))
    dtype = np.uint64 if pass_bit else np.uint32
    if legal is None:
        legal = legal_action_mask(st)
        if pass_bit:
            legal = with_pass(st, legal)
    out = np.empty(st.batch_size, dtype=dtype)
    E, n = _buffers(events, st.batch_size)
    kinds = getattr(events, "kinds", None)
    brief = kinds is not None and kinds <= _BRIEF
    bad = _step_many(st.data, a, np.ascontiguousarray(legal, dtype=dtype), out,
                     st.chance.seed, st.chance.deals, E, n, pass_bit, brief)
    if bad.size:
        g = int(bad[0])
        raise IllegalActionError(
            f"illegal action {int(a[g])} in game {int(st.game_id[g])}", bad)
    return out


@njit(cache=True)
def _with_pass(S: np.ndarray, legal: np.ndarray, out: np.ndarray) -> None:
    for g in range(S.shape[0]):
        if S[g, PHASE] == PLACE and legal[g] == 0:
            out[g] = _PASS_BIT
        else:
            out[g] = legal[g]


def with_pass(st: GameState, legal: np.ndarray) -> np.ndarray:
    """The 32-bit masks ``legal`` as uint64 with the forced trix pass added as bit 32."""
    out = np.empty(st.batch_size, dtype=np.uint64)
    _with_pass(st.data, np.ascontiguousarray(legal, dtype=np.uint32), out)
    return out


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
