"""The rules of Trix as a state machine over a batch of games: the only implementation.

``legal_action_mask`` says what the seat to act may do; ``step`` checks and applies one
action per game (how one action changes one game is ``transitions.step_one``). Games in
a batch move independently: one may be picking while another places a trix card. The
per-game logic is compiled (numba) and looped over the batch, so one rule text serves a
batch of 100,000 games and a single interactive table alike. Section numbers refer to
the "Interpretations fixed by trixsim" of docs/rules.md.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from trixsim import rng
from trixsim.errors import IllegalActionError as _IllegalActionError
from trixsim.gamekit.events import buffers, no_events
from trixsim.games.trix import cards, transitions
from trixsim.games.trix.cards import DIAMOND_MASK, JACKS, KH_MASK, QUEENS, low_card
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
from trixsim.games.trix.state import (
    BEST_CARD,
    CONTRACT_NO,
    DECLARED,
    FIELDS,
    FIRST_PICKER,
    GAME_ID,
    HANDS,
    LAST_WINNER,
    OUT_FIRST,
    OUT_SECOND,
    PHASE,
    PICKER,
    PLAYED,
    POINTS,
    TOTALS,
    TRICK_LOG,
    TRICK_N,
    TRICK_NO,
    TRICKS,
    TURN,
    USED,
    WON,
    GameState,
    empty,
)
from trixsim.games.trix.transitions import _DEALING, _deal, beats, step_one
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
from trixsim.rng import first_picker

_TRIX_BIT = 1 << TRIX
_PASS_BIT = 1 << PASS
guard(__file__, sources(cards, rng, transitions), FIELDS, DIAMOND_MASK, JACKS, KH_MASK, QUEENS,
      (DAMET, DECLARE, DINERI, DONE, FARCHA, GENERAL, PASS, PICK, PLACE, PLAY, PLI, RAY, TRIX),
      (EV_WIDTH, EV_DEAL, EV_PICK, EV_DECLARE, EV_CARD, EV_TRICK, EV_PLACE, EV_PASS, EV_OUT,
       EV_CONTRACT_END, EV_GAME_END))



class IllegalActionError(_IllegalActionError):
    """Actions that the Trix rules do not allow in the games' current state."""


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


_BRIEF = frozenset({EV_DEAL, EV_PICK, EV_CONTRACT_END, EV_GAME_END})
"""The events a step writes alone when no others are asked for."""

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
               n: np.ndarray, pass_bit: bool, brief: bool, advance: bool) -> np.ndarray:
    """Check every action, then apply them all and write the new legal masks (with the
    forced trix pass as bit 32 when ``pass_bit``: the masks the game hands the loop).
    ``brief``: of the events, only deals, picks and contract (and game) ends.
    ``advance``: after each game's action, also play the actions nobody chooses (the
    trix pass, the only legal action) until its seat to act has a choice, the game ends
    or its contract does (so one step ends at most one contract). The apply-and-emit code
    is written out in the loop: moved into a helper (inlined or not), numba compiled the
    step about 2.5 times slower.

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
            cn0 = S[g, CONTRACT_NO]
            a = actions[g]
            lm = np.int64(legal[g]) & 0xFFFFFFFF
            while True:
                if E.shape[0] > 0 and brief:  # the outcome rows' events only
                    ph, cn = S[g, PHASE], S[g, CONTRACT_NO]
                    if ph == PICK:
                        _emit_pick(S, g, S[g, TURN], a, cn, lm, E, n)
                    step_one(S, g, a)
                    if S[g, CONTRACT_NO] != cn:
                        _emit_end(S, g, cn, E, n)
                elif E.shape[0] > 0:
                    ph, t = S[g, PHASE], S[g, TURN]
                    cn, tn, out1 = S[g, CONTRACT_NO], S[g, TRICK_NO], S[g, OUT_FIRST]
                    step_one(S, g, a)
                    _emit_step(S, g, ph, t, a, cn, tn, out1, lm, E, n)
                else:
                    step_one(S, g, a)
                if S[g, PHASE] == _DEALING:
                    _deal(S, g, seed, deals)
                    if E.shape[0] > 0:
                        _emit_deal(S, g, E, n)
                lm = legal_one(S, g)
                if not advance or S[g, PHASE] == DONE or S[g, CONTRACT_NO] != cn0:
                    break
                if lm == 0 and S[g, PHASE] == PLACE:
                    a = PASS
                elif lm != 0 and (lm & (lm - 1)) == 0:
                    a = low_card(lm)
                else:
                    break
            if pass_bit and lm == 0 and S[g, PHASE] == PLACE:
                lm = _PASS_BIT
            legal_out[g] = lm
        else:
            legal_out[g] = 0
    return bad


def step(st: GameState, actions: np.ndarray, legal: np.ndarray | None = None,
         events: EventLog | None = None, pass_bit: bool = False,
         advance: bool = False) -> np.ndarray:
    """Apply one action per game, in place, and return the new legal-action masks.

    DONE games ignore their action. ``legal`` may pass ``legal_action_mask(st)`` when the
    caller already has it for this very state (e.g. from the previous step). With
    ``events``, the step's events are written to it (see ``trixsim.games.trix.events``);
    without, none are made (an event log whose ``kinds`` are among deals, picks and
    contract and game ends gets only those). If any action is not legal,
    IllegalActionError names those games (``.games``, batch positions) and nothing is
    applied. ``pass_bit``: the masks
    taken and returned are uint64 with the forced trix pass as bit 32 (``TrixGame``'s);
    else uint32 without it. ``advance``: each game then goes on by itself through the
    actions nobody chooses (the trix pass, the only legal action) until its seat to act
    has a choice, it ends, or its contract ends; not with an event log that wants every
    event (one step would then make more events than the log holds).
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
                     st.chance.seed, st.chance.deals, E, n, pass_bit, brief,
                     advance and (events is None or brief))
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


