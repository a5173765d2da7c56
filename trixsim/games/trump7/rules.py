"""The rules of trump7 as a state machine over a batch of games: the only implementation.

``legal_action_mask`` says what the seat to act may do; ``step`` applies one action per
game; games move independently. The per-game kernels (``legal_one``, ``step_one``,
``deal_game``) are compiled and shared by the batch functions, the whole-game loop
(``trixsim.games.trump7.fast``) and the scalar benchmark loop. Section numbers refer to
docs/rules-trump7.md.

Actions (plain ints, their meaning set by the decision): in PLAY a card id 0..51
(``suit * 13 + rank``); in BID the number of tricks announced, 0..13. Legal masks are
int64 here (below 2**52) and uint64 behind the ``Game`` interface.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from trixsim import choice, rng
from trixsim.choice import nth_bit
from trixsim.errors import IllegalActionError as _RulesError
from trixsim.gamekit.events import buffers, no_events
from trixsim.games.trump7 import cards, chance
from trixsim.games.trump7.cards import ACE, JACK, N_RANKS, QUEEN, SUIT_MASK
from trixsim.games.trump7.chance import Chance, pack_one
from trixsim.games.trump7.events import BID as EV_BID
from trixsim.games.trump7.events import CARD as EV_CARD
from trixsim.games.trump7.events import DEAL as EV_DEAL
from trixsim.games.trump7.events import DRAW as EV_DRAW
from trixsim.games.trump7.events import EV_WIDTH, PER_STEP, EventLog
from trixsim.games.trump7.events import GAME_END as EV_GAME_END
from trixsim.games.trump7.events import TRICK as EV_TRICK
from trixsim.games.trump7.state import BID, COL, DONE, FIELDS, PLAY, GameState, empty
from trixsim.jitcache import guard, sources

guard(__file__, sources(rng, cards, chance, choice), FIELDS, (PLAY, BID, DONE),
      (EV_WIDTH, EV_DEAL, EV_BID, EV_CARD, EV_TRICK, EV_DRAW, EV_GAME_END))

PHASE, TURN, PLY, TRICK_N = COL["phase"], COL["turn"], COL["ply"], COL["trick_n"]
BEST_CARD, BEST_SEAT, LEADER = COL["best_card"], COL["best_seat"], COL["leader"]
TRUMP, HANDS, PLAYED, PLAYED_BY = COL["trump"], COL["hands"], COL["played"], COL["played_by"]
TRICK_CARDS, TRICK_NO, TRICKS = COL["trick_cards"], COL["trick_no"], COL["tricks"]
HONOURS, WON, POINTS, BIDS = COL["honours"], COL["won"], COL["points"], COL["bids"]
TURNED, TURNED_HOLDER, STOCK_N = COL["turned"], COL["turned_holder"], COL["stock_n"]
LAST_WINNER, VOIDS, TRICK_LOG = COL["last_winner"], COL["voids"], COL["trick_log"]
DEALER, ELDEST, BIDDING = COL["dealer"], COL["eldest"], COL["bidding"]
GAME_ID, STOCK = COL["game_id"], COL["stock"]

BID_MASK = (1 << 14) - 1
"""The legal mask of a bid: 0..13 tricks, any total allowed (§11)."""
NO_EVENTS = no_events(EV_WIDTH)
NO_PACKS = np.full((0, 52), -1, dtype=np.int64)


class IllegalActionError(_RulesError):
    """Actions the rules do not allow in the games' current state (``games``: their batch
    positions). It derives from the game-neutral ``trixsim.errors.IllegalActionError``,
    which the loop (``trixsim.sim``) catches to name the strategy at fault."""


# ---------------------------------------------------------------- scoring (§9, §11)

@njit(cache=True, inline="always")
def honour_points(card: int, trump: int) -> int:
    """What a card is worth beyond its trick: ace, jack, queen of trumps 5, 4, 3 (§9)."""
    if card // N_RANKS != trump:
        return 0
    r = card % N_RANKS
    if r == ACE:
        return 5
    if r == JACK:
        return 4
    if r == QUEEN:
        return 3
    return 0


@njit(cache=True, inline="always")
def trick_score(tricks: int, bid: int) -> int:
    """Points for ``tricks`` tricks won: one each without a bid (``bid`` < 0); with bid B,
    2B + (T - B) when made (T >= B), T - 2(B - T) when short (§11)."""
    if bid < 0:
        return tricks
    if tricks >= bid:
        return 2 * bid + (tricks - bid)
    return tricks - 2 * (bid - tricks)


def score(tricks: np.ndarray, bids: np.ndarray, honours: np.ndarray) -> np.ndarray:
    """``trick_score`` plus the honours, over arrays (bids -1 where there was no bid)."""
    t, b = np.asarray(tricks, dtype=np.int64), np.asarray(bids, dtype=np.int64)
    made = np.where(t >= b, 2 * b + (t - b), t - 2 * (b - t))
    return np.where(b < 0, t, made) + np.asarray(honours, dtype=np.int64)


def winners_losers(points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Boolean (..., 4) masks of the winners (most points) and losers (fewest) (§10):
    higher is better; all equal makes everyone both."""
    p = np.asarray(points)
    return p == p.max(axis=-1, keepdims=True), p == p.min(axis=-1, keepdims=True)


@njit(cache=True, inline="always")
def beats(card: int, best: int, trump: int) -> bool:
    """Whether ``card`` takes the trick from ``best``, the card winning it so far (§8): a
    higher card of its suit, or any trump over a card that is not one (``best`` is always
    of the suit led or a trump, so a discard never wins)."""
    if card // N_RANKS == best // N_RANKS:
        return card > best
    return card // N_RANKS == trump


def trick_winner(leader: int, played: list[int], trump: int) -> int:
    """The seat winning a trick (complete or not) led by ``leader`` with these cards."""
    best = 0
    for k in range(1, len(played)):
        if beats(played[k], played[best], trump):
            best = k
    return (leader + best) % 4


# ---------------------------------------------------------------- the deal (§4-§5)

@njit(cache=True)
def deal_game(S: np.ndarray, g: int, seed: int, packs: np.ndarray, pack: np.ndarray) -> None:
    """Deal game ``g`` from its pack (imposed, else from (seed, game index)); ``pack`` is
    scratch room for 52 cards. The dealer is game index % 4; the eldest gets the first
    card, bids first (trump7-bid) and leads first."""
    if packs.shape[0] > 0 and packs[g, 0] >= 0:
        for i in range(52):
            pack[i] = packs[g, i]
    else:
        pack_one(seed, S[g, GAME_ID], pack)
    deal_pack(S, g, pack)


@njit(cache=True, inline="always")
def deal_pack(S: np.ndarray, g: int, pack: np.ndarray) -> None:
    """Deal game ``g`` from ``pack`` (52 card ids in pack order; see ``chance``)."""
    dealer = S[g, GAME_ID] % 4
    eldest = (dealer + 1) % 4
    S[g, DEALER] = dealer
    S[g, ELDEST] = eldest
    for s in range(4):
        S[g, HANDS + s] = 0
    for i in range(28):
        s = (eldest + i) % 4
        S[g, HANDS + s] = np.int64(S[g, HANDS + s]) | (np.int64(1) << pack[i])
    S[g, TURNED] = pack[28]
    S[g, TRUMP] = pack[28] // N_RANKS
    for k in range(23):
        S[g, STOCK + k] = pack[29 + k]
    S[g, STOCK + 23] = pack[28]
    S[g, STOCK_N] = 0
    S[g, TURN] = eldest
    S[g, LEADER] = eldest
    S[g, PHASE] = BID if S[g, BIDDING] != 0 else PLAY


# ---------------------------------------------------------------- legal actions (§7, §11)

@njit(cache=True, inline="always")
def legal_one(S: np.ndarray, g: int) -> int:
    """The legal action mask of game ``g``: a card must follow the suit led if it can."""
    ph = S[g, PHASE]
    if ph == PLAY:
        hand = np.int64(S[g, HANDS + S[g, TURN]])
        if S[g, TRICK_N] == 0:
            return hand
        follow = hand & (np.int64(SUIT_MASK) << (N_RANKS * (S[g, TRICK_CARDS] // N_RANKS)))
        return follow if follow != 0 else hand
    if ph == BID:
        return BID_MASK
    return 0


@njit(cache=True)
def _legal_many(S: np.ndarray, out: np.ndarray) -> None:
    for g in range(S.shape[0]):
        out[g] = legal_one(S, g)


def legal_action_mask(st: GameState) -> np.ndarray:
    """Per game, the legal actions of the seat to act as an int64 mask (0 once over)."""
    out = np.empty(st.batch_size, dtype=np.int64)
    _legal_many(st.data, out)
    return out


# ---------------------------------------------------------------- applying an action

@njit(cache=True, inline="always")
def step_one(S: np.ndarray, g: int, a: int) -> None:
    """Apply the legal action ``a`` to game ``g``."""
    S[g, PLY] += 1
    if S[g, PHASE] == BID:
        t = S[g, TURN]
        S[g, BIDS + t] = a
        nxt = (t + 1) % 4
        S[g, TURN] = nxt
        if nxt == S[g, ELDEST]:
            S[g, PHASE] = PLAY
            for s in range(4):
                S[g, POINTS + s] = trick_score(0, S[g, BIDS + s])
    else:
        _play(S, g, a)


@njit(cache=True, inline="always")
def _play(S: np.ndarray, g: int, a: int) -> None:
    """Play a card to the current trick (§7-§8)."""
    t = S[g, TURN]
    bit = np.int64(1) << a
    S[g, HANDS + t] = np.int64(S[g, HANDS + t]) & ~bit
    S[g, PLAYED_BY + t] = np.int64(S[g, PLAYED_BY + t]) | bit
    S[g, PLAYED] = np.int64(S[g, PLAYED]) | bit
    n = S[g, TRICK_N]
    S[g, TRICK_CARDS + n] = a
    if n == 0 or beats(a, S[g, BEST_CARD], S[g, TRUMP]):
        S[g, BEST_CARD] = a
        S[g, BEST_SEAT] = t
    if n > 0:
        led = S[g, TRICK_CARDS] // N_RANKS
        if a // N_RANKS != led:  # shown out of the suit led: public from now on
            S[g, VOIDS] = np.int64(S[g, VOIDS]) | (np.int64(1) << (4 * t + led))
    n += 1
    S[g, TRICK_N] = n
    if n < 4:
        S[g, TURN] = (t + 1) % 4
    else:
        _complete_trick(S, g)


@njit(cache=True)
def _complete_trick(S: np.ndarray, g: int) -> None:
    """The winner takes the trick and its honours, everyone draws (§6), the winner leads;
    the game ends after 13 tricks."""
    w = S[g, BEST_SEAT]
    trump = S[g, TRUMP]
    m = np.int64(S[g, WON + w])
    log = np.int64(S[g, LEADER])
    hon = 0
    for k in range(4):
        c = S[g, TRICK_CARDS + k]
        m |= np.int64(1) << c
        log |= np.int64(c) << (8 * k + 8)
        hon += honour_points(c, trump)
        S[g, TRICK_CARDS + k] = -1
    S[g, WON + w] = m
    S[g, TRICKS + w] += 1
    S[g, HONOURS + w] += hon
    S[g, TRICK_LOG + S[g, TRICK_NO]] = log
    S[g, TRICK_NO] += 1
    S[g, LAST_WINNER] = w
    S[g, LEADER] = w
    S[g, TURN] = w
    S[g, TRICK_N] = 0
    S[g, BEST_CARD] = -1
    S[g, BEST_SEAT] = -1
    S[g, POINTS + w] = trick_score(S[g, TRICKS + w], S[g, BIDS + w]) + S[g, HONOURS + w]
    k = S[g, STOCK_N]
    if k < 24:
        for d in range(4):
            s = (w + d) % 4
            S[g, HANDS + s] = np.int64(S[g, HANDS + s]) | (np.int64(1) << S[g, STOCK + k + d])
        if k + 4 == 24:
            S[g, TURNED_HOLDER] = (w + 3) % 4
        S[g, STOCK_N] = k + 4
    if S[g, TRICK_NO] == 13:
        S[g, PHASE] = DONE


# ---------------------------------------------------------------- events

@njit(cache=True, inline="always")
def _emit(E: np.ndarray, n: np.ndarray, g: int, kind: int, seat: int, tn: int) -> int:
    """Append an event row with an empty payload; returns its row."""
    k = n[0]
    E[k, 0] = g
    E[k, 1] = kind
    E[k, 2] = seat
    E[k, 3] = tn
    for j in range(4, EV_WIDTH):
        E[k, j] = 0
    n[0] = k + 1
    return k


@njit(cache=True)
def emit_deal(S: np.ndarray, g: int, E: np.ndarray, n: np.ndarray) -> None:
    """The deal event (every hand: a table filters it per seat)."""
    k = _emit(E, n, g, EV_DEAL, S[g, DEALER], 0)
    for s in range(4):
        E[k, 4 + s] = S[g, HANDS + s]
    E[k, 8] = S[g, TURNED]
    E[k, 9] = S[g, ELDEST]


@njit(cache=True)
def emit_step(S: np.ndarray, g: int, ph: int, t: int, a: int, tn: int, drawn: int,
              E: np.ndarray, n: np.ndarray) -> None:
    """The events of one applied action (``ph``, ``t``, ``tn``, ``drawn``: the phase,
    seat, trick number and stock count before it)."""
    if ph == BID:
        k = _emit(E, n, g, EV_BID, t, tn)
        E[k, 4] = a
        return
    k = _emit(E, n, g, EV_CARD, t, tn)
    E[k, 4] = a
    if S[g, TRICK_NO] == tn:
        return
    w = S[g, LAST_WINNER]
    log = np.int64(S[g, TRICK_LOG + tn])
    k = _emit(E, n, g, EV_TRICK, w, tn)
    hon = 0
    for j in range(4):
        c = (log >> (8 * j + 8)) & 0xFF
        E[k, 4 + j] = c
        hon += honour_points(c, S[g, TRUMP])
    E[k, 8] = log & 0xFF
    E[k, 9] = hon
    if S[g, STOCK_N] != drawn:
        k = _emit(E, n, g, EV_DRAW, w, tn)
        for j in range(4):
            E[k, 4 + j] = S[g, STOCK + drawn + j]
        E[k, 8] = S[g, TURNED_HOLDER] if drawn + 4 == 24 else -1
    if S[g, PHASE] == DONE:
        k = _emit(E, n, g, EV_GAME_END, -1, tn)
        for s in range(4):
            E[k, 4 + s] = S[g, POINTS + s]
            E[k, 8 + s] = S[g, TRICKS + s]
            E[k, 12 + s] = S[g, HONOURS + s]
            E[k, 16 + s] = S[g, BIDS + s]


# ---------------------------------------------------------------- batch entry points

@njit(cache=True)
def _init_many(S: np.ndarray, seed: int, packs: np.ndarray, E: np.ndarray,
               n: np.ndarray) -> None:
    pack = np.empty(52, dtype=np.int64)
    for g in range(S.shape[0]):
        deal_game(S, g, seed, packs, pack)
        if E.shape[0] > 0:
            emit_deal(S, g, E, n)


def _buffers(events: EventLog | None, batch: int) -> tuple[np.ndarray, np.ndarray]:
    """The event buffer and counter for a call; checks a log's room (any log with
    ``prepare(batch)`` giving rows of EV_WIDTH columns, PER_STEP per game, will do)."""
    return buffers(events, batch, EV_WIDTH, PER_STEP, "trump7")


def init(seed: int | Chance, game_ids: np.ndarray | list[int] | range, bidding: bool = False,
         events: EventLog | None = None) -> GameState:
    """New games with the given global indices, dealt, the eldest to bid or lead.

    ``seed`` is the chance source (a seed, or a ``Chance`` that may impose packs);
    ``bidding`` plays trump7-bid."""
    src = seed if isinstance(seed, Chance) else Chance(int(seed))
    st = empty(src, np.asarray(game_ids, dtype=np.int64), bidding)
    if len(src.packs) not in (0, st.batch_size):
        raise ValueError("imposed packs must cover every game of the batch")
    E, n = _buffers(events, st.batch_size)
    _init_many(st.data, src.seed, src.packs, E, n)
    return st


@njit(cache=True, inline="always")
def is_legal(a: int, lm: int) -> bool:
    """Whether action ``a`` is in the legal mask ``lm``."""
    return 0 <= a < 52 and ((lm >> a) & 1) == 1


@njit(cache=True)
def _step_many(S: np.ndarray, actions: np.ndarray, legal: np.ndarray, legal_out: np.ndarray,
               E: np.ndarray, n: np.ndarray, advance: bool) -> np.ndarray:
    """Check every action, then apply them all and write the new legal masks. Returns the
    illegal games; if there are any, nothing is applied. ``advance`` (without events):
    after each game's action, also play its lone legal cards until its seat to act has a
    choice or the game ends."""
    n_bad = 0
    for g in range(actions.shape[0]):
        if S[g, PHASE] != DONE and not is_legal(actions[g], legal[g]):
            n_bad += 1
    bad = np.empty(n_bad, dtype=np.int64)
    if n_bad:
        k = 0
        for g in range(actions.shape[0]):
            if S[g, PHASE] != DONE and not is_legal(actions[g], legal[g]):
                bad[k] = g
                k += 1
        return bad
    for g in range(actions.shape[0]):
        if S[g, PHASE] == DONE:
            legal_out[g] = 0
            continue
        if E.shape[0] > 0:
            ph, t, tn, drawn = S[g, PHASE], S[g, TURN], S[g, TRICK_NO], S[g, STOCK_N]
            step_one(S, g, actions[g])
            emit_step(S, g, ph, t, actions[g], tn, drawn, E, n)
        else:
            step_one(S, g, actions[g])
        lm = legal_one(S, g)
        while advance and lm != 0 and (lm & (lm - 1)) == 0:
            step_one(S, g, nth_bit(lm, 0))
            lm = legal_one(S, g)
        legal_out[g] = lm
    return bad


def step(st: GameState, actions: np.ndarray, legal: np.ndarray | None = None,
         events: EventLog | None = None, advance: bool = False) -> np.ndarray:
    """Apply one action per game, in place, and return the new int64 legal masks.

    Finished games ignore their action. ``legal``: this state's masks if the caller has
    them. If any action is illegal, IllegalActionError names those games (``.games``) and
    nothing is applied. ``advance``: each game then plays on its lone legal cards until
    its seat to act has a choice or it ends (only without ``events``: a step's events
    would outgrow the log)."""
    a = np.ascontiguousarray(actions, dtype=np.int64)
    if a.shape != (st.batch_size,):
        raise IllegalActionError(f"expected {st.batch_size} actions, got shape {a.shape}",
                                 np.arange(st.batch_size))
    lm = legal_action_mask(st) if legal is None else \
        np.ascontiguousarray(np.asarray(legal).astype(np.int64))
    out = np.empty(st.batch_size, dtype=np.int64)
    E, n = _buffers(events, st.batch_size)
    bad = _step_many(st.data, a, lm, out, E, n, advance and events is None)
    if bad.size:
        g = int(bad[0])
        raise IllegalActionError(f"illegal action {int(a[g])} in game {int(st.game_id[g])}",
                                 bad)
    return out


__all__ = ["BID_MASK", "IllegalActionError", "beats", "deal_game", "deal_pack", "emit_deal",
           "emit_step", "honour_points", "init", "is_legal", "legal_action_mask", "legal_one",
           "score", "step", "step_one", "trick_score", "trick_winner", "winners_losers"]
