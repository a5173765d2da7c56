"""trump7's re-deals consistent with what a seat saw, for the fair-play check
(``Trump7Game.redeal_pairs``, which the conformance kit's ``check_fair_play`` calls).

For a decision of seat ``t``, hidden from ``t`` are the other three hands and the order
of the stock; ``t`` saw its own deal and what it drew, every card played and by whom (so
the suits each seat failed to follow), who drew the turned card, and the bids. A re-deal
gives the hidden cards out again consistently with all of that, in three steps:

1. the other hands and the stock's unseen order now, from trump7's worlds sampling
   (``worlds.sample_world``: each seat's number of cards, its voids and what it drew
   since, the turned card with its holder or under the stock);
2. a drawing history for each other seat: which of its cards (held or played) it was
   dealt and which it drew in which round, each card arriving before it was played and
   after the last trick at which the seat showed out of its suit, the turned card in the
   last round (``_arrivals``); ``t``'s own deal and draws are kept as they were;
3. the pack that deals all that, replayed through the rules (``rules.deal_pack``,
   ``rules.step_one``) with every recorded action: a re-deal is kept only if each action
   is legal where it was taken and the replay arrives at a state whose public columns
   (everything but ``hands`` and ``stock``), ``t``'s hand and ``t``'s draws are those of
   the game played. Anything else is rejected and counted, with its reason.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import numpy as np
from numba import njit

from trixsim.game import Redeals
from trixsim.games.trump7 import rules
from trixsim.games.trump7.cards import N_RANKS
from trixsim.games.trump7.chance import pack_from
from trixsim.games.trump7.rules import deal_pack, is_legal, legal_one, step_one
from trixsim.games.trump7.state import BID, COL, DONE, HIDDEN, LAYOUT, PLAY, WIDTH, GameState
from trixsim.games.trump7.worlds import WORK, sample_world
from trixsim.jitcache import guard, sources

guard(__file__, sources(rules), tuple(COL.items()), DONE)

_PHASE, _TURN, _PLY = COL["phase"], COL["turn"], COL["ply"]
_HANDS, _STOCK, _STOCK_N = COL["hands"], COL["stock"], COL["stock_n"]
_PLAYED_BY, _TRICK_NO, _TRICK_LOG = COL["played_by"], COL["trick_no"], COL["trick_log"]
_TRICK_N, _TRICK_CARDS, _LEADER = COL["trick_n"], COL["trick_cards"], COL["leader"]
_TURNED, _HOLDER, _ELDEST = COL["turned"], COL["turned_holder"], COL["eldest"]
_BIDDING, _GAME_ID = COL["bidding"], COL["game_id"]
TRIES = 8
"""Re-deals drawn per decision before giving it up."""
_PUBLIC = np.array([c for name, width, _, _ in LAYOUT.fields if name not in HIDDEN
                    for c in range(COL[name], COL[name] + width)], dtype=np.int64)
"""The state columns every seat sees (all but the hidden hands and stock)."""

NO_HISTORY = "no order of draws fits a seat's cards, its plays and its shown voids"
REPLAYED_ELSEWHERE = ("the game replayed through the rules from the re-dealt pack refused "
                      "a recorded action or arrived at another public state")
SEEN_CHANGED = "the replay changed the seat's own hand or its draws"
"""Why a drawn re-deal is rejected (``Redeals.reasons``)."""


@dataclass(frozen=True)
class Decision:
    """One decision of a recorded game: its state row and every action taken before it."""

    row: np.ndarray
    before: np.ndarray

    @property
    def seat(self) -> int:
        """The seat deciding."""
        return int(self.row[_TURN])


def decisions_from(states: list[GameState], actions: list[np.ndarray]) -> list[Decision]:
    """Every decision of the recorded games (a state before each step, the actions
    applied), game after game."""
    if not states:
        return []
    rows = np.stack([s.data for s in states], axis=1)
    acts = np.stack([np.asarray(a, dtype=np.int64) for a in actions], axis=1)
    out = []
    for g in range(rows.shape[0]):
        for k in range(rows.shape[1]):
            if rows[g, k, _PHASE] == DONE:
                break
            out.append(Decision(rows[g, k], acts[g, :k].copy()))
    return out


def _plays(row: np.ndarray) -> list[tuple[int, int, int]]:
    """(trick, seat, card) of every card played, in order (the current trick's too)."""
    out = []
    for j in range(int(row[_TRICK_NO])):
        log = int(row[_TRICK_LOG + j])
        for k in range(4):
            out.append((j, ((log & 0xFF) + k) % 4, (log >> (8 * k + 8)) & 0xFF))
    for k in range(int(row[_TRICK_N])):
        out.append((int(row[_TRICK_NO]), (int(row[_LEADER]) + k) % 4,
                    int(row[_TRICK_CARDS + k])))
    return out


def _winners(row: np.ndarray, rounds: int) -> list[int]:
    """The winner of each trick followed by a drawing round (the next trick's leader)."""
    n = int(row[_TRICK_NO])
    return [int(row[_TRICK_LOG + i + 1]) & 0xFF if i + 1 < n else int(row[_LEADER])
            for i in range(rounds)]


def _bounds(cards: int, seat: int, plays: list[tuple[int, int, int]], rounds: int,
            turned: int, holder: int) -> dict[int, tuple[int, int]]:
    """Per card of ``seat`` (held or played), the rounds it may have arrived in: -1 the
    deal, i the draw after trick i. A card played at trick j arrived by round j - 1; a card
    of a suit the seat showed out of at trick t, and not played before t, arrived at round
    t or later; the turned card came in the last round."""
    played_at = {c: j for j, s, c in plays if s == seat}
    led: dict[int, int] = {}
    outs: list[tuple[int, int]] = []  # (trick, suit) the seat showed out of
    for j, s, c in plays:
        if j not in led:
            led[j] = c // N_RANKS
        elif s == seat and c // N_RANKS != led[j]:
            outs.append((j, led[j]))
    out = {}
    for c in (c for c in range(52) if cards >> c & 1):
        if c == turned and seat == holder:
            out[c] = (5, 5)
            continue
        j = played_at.get(c, 99)
        lo = max([t for t, x in outs if x == c // N_RANKS and t < j], default=-1)
        out[c] = (lo, min(j - 1, rounds - 1))
    return out


def _feasible(cards: list[int], bounds: dict[int, tuple[int, int]], times: list[int]) -> bool:
    """Whether ``cards`` can fill the arrival ``times`` (one each, ascending) within their
    bounds: earliest deadline first."""
    left = sorted(cards, key=lambda c: bounds[c][1])
    for t in times:
        k = next((i for i, c in enumerate(left) if bounds[c][0] <= t), -1)
        if k < 0 or bounds[left[k]][1] < t:
            return False
        left.pop(k)
    return not left


def _arrivals(bounds: dict[int, tuple[int, int]], rounds: int,
              gen: np.random.Generator) -> dict[int, int] | None:
    """A random arrival per card within its bounds: seven dealt (-1), one drawn in each
    round; None if no such assignment exists."""
    times = [-1] * 7 + list(range(rounds))
    if len(bounds) != len(times):
        return None
    left = list(bounds)
    out: dict[int, int] = {}
    for k, t in enumerate(times):
        fits = [c for c in left if bounds[c][0] <= t <= bounds[c][1]]
        for i in gen.permutation(len(fits)).tolist():
            c = fits[i]
            rest = [x for x in left if x != c]
            if _feasible(rest, bounds, times[k + 1:]):
                out[c] = t
                left = rest
                break
        else:
            return None
    return out


@njit(cache=True)
def _replay(start: np.ndarray, pack: np.ndarray, actions: np.ndarray) -> tuple[bool, np.ndarray]:
    """Deal ``pack`` into the fresh row ``start`` and apply ``actions`` through the rules;
    whether every one was legal where it was taken, and the row it arrived at."""
    S = start.reshape(1, -1).copy()
    deal_pack(S, 0, pack)
    for a in actions:
        if S[0, _PHASE] == DONE or not is_legal(a, legal_one(S, 0)):
            return False, S[0]
        step_one(S, 0, a)
    return True, S[0]


def redeal(d: Decision, gen: np.random.Generator,
           tally: Counter[str] | None = None) -> np.ndarray | None:
    """A state row reached by the same actions as ``d.row``, every public column, the
    deciding seat's hand and draws the same, the other hands or the stock's unseen order
    different (see the module doc); None if none was found in ``TRIES`` draws. ``tally``
    counts the rejected draws by reason."""
    row, me = d.row, d.seat
    rounds = int(row[_STOCK_N]) // 4
    plays = _plays(row)
    winners = _winners(row, rounds)
    drawer = {4 * i + k: (w + k) % 4 for i, w in enumerate(winners) for k in range(4)}
    mine = {p: int(row[_STOCK + p]) for p, s in drawer.items() if s == me}
    held = int(row[_HANDS + me]) | int(row[_PLAYED_BY + me])
    dealt_me = held & ~sum(1 << c for c in mine.values())
    turned, holder = int(row[_TURNED]), int(row[_HOLDER])
    start = LAYOUT.rows(np.array([row[_GAME_ID]]))[0]
    start[_BIDDING] = row[_BIDDING]
    hand_me = np.int64(row[_HANDS + me])
    work = np.empty(WORK, dtype=np.int64)
    for _ in range(TRIES):
        W = np.zeros((1, WIDTH), dtype=np.int64)
        sample_world(row, me, hand_me, np.int64(gen.integers(2**62)), np.zeros(1), W, work)
        deal = {me: dealt_me}
        stock = [-1] * 24
        for p, c in mine.items():
            stock[p] = c
        for k in range(4 * rounds, 24):
            stock[k] = int(W[0, _STOCK + k])
        ok = True
        for s in (s for s in range(4) if s != me):
            cards = int(W[0, _HANDS + s]) | int(row[_PLAYED_BY + s])
            when = _arrivals(_bounds(cards, s, plays, rounds, turned, holder), rounds, gen)
            if when is None:
                ok = False
                break
            deal[s] = sum(1 << c for c, t in when.items() if t < 0)
            for c, t in when.items():
                if t >= 0:
                    stock[4 * t + (s - winners[t]) % 4] = c
        if not ok:
            _count(tally, NO_HISTORY)
            continue
        hands = [[c for c in range(52) if deal[s] >> c & 1] for s in range(4)]
        try:
            pack = pack_from(hands, stock, int(row[_ELDEST]))
        except ValueError:
            _count(tally, NO_HISTORY)
            continue
        fits, got = _replay(start, np.array(pack, dtype=np.int64), d.before)
        if not fits or not np.array_equal(got[_PUBLIC], row[_PUBLIC]):
            _count(tally, REPLAYED_ELSEWHERE)
            continue
        if got[_HANDS + me] != row[_HANDS + me] or \
                any(got[_STOCK + p] != c for p, c in mine.items()):
            _count(tally, SEEN_CHANGED)
            continue
        if np.array_equal(got, row):
            continue  # the same deal again: nothing hidden moved
        return got
    return None


def _count(tally: Counter[str] | None, why: str) -> None:
    if tally is not None:
        tally[why] += 1


def redeal_pairs(states: list[GameState], actions: list[np.ndarray], gen: np.random.Generator,
                 limit: int | None = None) -> Redeals:
    """``Trump7Game.redeal_pairs``: for up to ``limit`` decisions of the recorded games
    (those with a choice first, then the others, each group in random order), the state
    as played and a re-deal of the cards hidden from the seat to act (``redeal``)."""
    decisions = decisions_from(states, actions)
    choice = [bin(int(legal_one(d.row.reshape(1, -1), 0))).count("1") > 1 for d in decisions]
    order = np.concatenate([
        gen.permutation(np.array([k for k, c in enumerate(choice) if c], dtype=np.int64)),
        gen.permutation(np.array([k for k, c in enumerate(choice) if not c], dtype=np.int64))])
    if limit is not None:
        order = np.sort(order[:limit])
    tally: Counter[str] = Counter()
    a: list[np.ndarray] = []
    b: list[np.ndarray] = []
    for k in order.tolist():
        r = redeal(decisions[k], gen, tally)
        if r is not None:
            a.append(decisions[k].row)
            b.append(r)
    chance = type(states[0].chance)(states[0].run_seed) if states else None
    rows_a = np.stack(a) if a else np.zeros((0, WIDTH), dtype=np.int64)
    rows_b = np.stack(b) if b else np.zeros((0, WIDTH), dtype=np.int64)
    names = {BID: "bid", PLAY: "play"}
    where = tuple(f"decision {names[int(r[_PHASE])]!r} at ply {int(r[_PLY])} (seat "
                  f"{int(r[_TURN])})" for r in rows_a)
    return Redeals(GameState(rows_a, chance), GameState(rows_b, chance), rows_a[:, _TURN].copy(),
                   where, asked=len(order), rejected=sum(tally.values()),
                   reasons=tuple(f"{n} x {why}" for why, n in tally.items()))


__all__ = ["Decision", "decisions_from", "redeal", "redeal_pairs"]
