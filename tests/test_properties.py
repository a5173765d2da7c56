"""Property tests over random games: invariants that hold at every step of any legal play.

Games are played with uniformly random legal actions (a forced trix pass where the legal
mask is empty). Each finished contract is rescored by ``reference_points``, a direct
reading of docs/rules.md written independently of the engine, from the state before the last
action. Example counts are small so the file stays quick; the conformance test covers
many more games.
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import FULL, playout, random_actions
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from trixsim import rng
from trixsim.games import trix as engine
from trixsim.games.trix import GAME as TRIX_RULES
from trixsim.games.trix import GameState, IllegalActionError
from trixsim.games.trix.cards import DIAMOND_MASK, KH_MASK, QUEENS
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
from trixsim.sim import play_batch
from trixsim.strategy import Strategy

SETTINGS = settings(max_examples=6, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])
seeds = hs.integers(0, 2**40)
first_ids = hs.integers(0, 10**6)


def bits(m: int) -> int:
    """Number of cards in a mask."""
    return bin(int(m) & FULL).count("1")


def check_state(st: GameState, legal: np.ndarray, actions: np.ndarray) -> None:
    """Invariants of every state (before each step) of a batch being played."""
    h = st.hands.astype(np.int64)
    live = st.phase != DONE
    union = h[:, 0] | h[:, 1] | h[:, 2] | h[:, 3]
    sizes = np.bitwise_count(h)
    played = st.played
    pb = st.played_by
    assert (st.totals != 1000).all()
    assert (st.contract_no <= 28).all()
    over = (st.totals > 1000).any(axis=1)
    assert np.array_equal(~live, over | (st.contract_no == 28))
    assert (st.used[st.contract_no == 28] == 0x7F).all()
    for g in np.flatnonzero(live):
        ph = int(st.phase[g])
        # all 32 cards accounted for: hands and played cards are disjoint and complete
        assert sizes[g].sum() == bits(union[g])
        assert union[g] & played[g] == 0 and (union[g] | played[g]) == FULL
        assert pb[g].sum() == played[g] and (pb[g, 0] | pb[g, 1] | pb[g, 2] | pb[g, 3]) == played[g]
        assert st.picker[g] == (st.first_picker[g] + st.contract_no[g]) % 4
        assert st.totals[g].max() <= 1000
        if ph == PICK:
            assert played[g] == 0 and (sizes[g] == 8).all()
            want = rng.deal(st.run_seed, st.game_id[g:g + 1], st.contract_no[g:g + 1])[0]
            assert np.array_equal(h[g], want.astype(np.int64)), "deal is not the pure function"
            assert legal[g] != 0 and legal[g] & ~(~st.used[g, st.picker[g]] & 0x7F) == 0
            pick = st.contract_no[g] // 4 + 1
            if pick == 7:
                assert bits(legal[g]) == 1
        elif ph in (PLAY, DECLARE):
            won = st.won[g]
            n = int(st.trick_n[g])
            trick = [int(c) for c in st.trick_cards[g]]
            assert all(c >= 0 for c in trick[:n]) and all(c == -1 for c in trick[n:])
            tmask = sum(1 << c for c in trick[:n])
            assert (won[0] | won[1] | won[2] | won[3] | tmask) == played[g]
            assert sum(bits(w) for w in won) == 4 * st.trick_no[g] == 4 * st.tricks[g].sum()
            assert all(bits(won[s]) == 4 * st.tricks[g, s] for s in range(4))
            in_trick = [(st.leader[g] + k) % 4 for k in range(n)]
            for s in range(4):
                assert sizes[g, s] == 8 - st.trick_no[g] - (s in in_trick)
            assert st.turn[g] == (st.leader[g] + n) % 4
            if ph == DECLARE:
                assert legal[g] == 3 and st.contract[g] in (RAY, GENERAL)
                assert h[g, st.turn[g]] & KH_MASK and pb[g, st.turn[g]] == 0
            else:
                assert legal[g] != 0 and legal[g] & ~h[g, st.turn[g]] == 0
        else:
            assert ph == PLACE and st.contract[g] == TRIX
            assert legal[g] & ~h[g, st.turn[g]] == 0
            assert h[g, st.turn[g]] != 0, "a seat with an empty hand is skipped"
            if legal[g] == 0:
                assert actions[g] == PASS
            assert (sizes[g] == 0).sum() == (st.out_first[g] >= 0)


def reference_points(row: dict[str, object], card: int) -> list[int] | None:
    """Points of a trick contract whose last trick gets ``card``, or None if it goes on.

    ``row`` holds the state before the card is played (docs/rules.md §4-§8).
    """
    trick = [*row["trick_cards"], card]
    led = trick[0] >> 3
    k = max((i for i in range(4) if trick[i] >> 3 == led), key=lambda i: trick[i] & 7)
    winner = (row["leader"] + k) % 4
    won = list(row["won"])
    tricks = list(row["tricks"])
    won[winner] |= sum(1 << c for c in trick)
    tricks[winner] += 1
    played = row["played"] | (1 << card)
    n_tricks = sum(tricks)
    c = row["contract"]
    ended = (n_tricks == 8 or (c == DINERI and played & DIAMOND_MASK == DIAMOND_MASK)
             or (c == DAMET and played & QUEENS == QUEENS) or (c == RAY and played & KH_MASK))
    if not ended:
        return None
    decl = row["declared"]
    out = []
    for s in range(4):
        nd = bits(won[s] & DIAMOND_MASK)
        parts = {
            DINERI: 150 if nd == 8 else 10 * nd,
            DAMET: 20 * bits(won[s] & QUEENS),
            PLI: 150 if tricks[s] == 8 else 10 * tricks[s],
            FARCHA: 100 if (n_tricks == 8 and s == winner) else 0,
            RAY: (200 if decl >= 0 else 100) if won[s] & KH_MASK else 0,
        }
        if c == GENERAL:
            p = 0 if tricks[s] == 8 else sum(parts.values())
        else:
            p = parts[c]
        if s == row["picker"]:
            p *= 4 if row["contract_no"] >= 24 else 2
        if s == decl and not won[s] & KH_MASK:
            p -= 50
        out.append(p)
    return out


class Rescorer:
    """Before/after hooks that rescore every finished contract and check the totals."""

    def __init__(self) -> None:
        self.pending: dict[int, tuple[list[int] | None, list[int], int]] = {}
        self.finished = np.zeros(7, dtype=np.int64)

    def before(self, st: GameState, legal: np.ndarray, actions: np.ndarray) -> None:
        self.pending = {}
        for g in np.flatnonzero((st.phase == PLAY) & (st.trick_n == 3)):
            row = {
                "trick_cards": [int(c) for c in st.trick_cards[g, :3]],
                "leader": int(st.leader[g]), "won": [int(w) for w in st.won[g]],
                "tricks": [int(t) for t in st.tricks[g]], "played": int(st.played[g]),
                "contract": int(st.contract[g]), "declared": int(st.declared[g]),
                "picker": int(st.picker[g]), "contract_no": int(st.contract_no[g]),
            }
            self.pending[int(g)] = (reference_points(row, int(actions[g])),
                                    [int(x) for x in st.totals[g]], int(st.contract[g]))
        for g in np.flatnonzero(st.phase == PLACE):
            t = st.turn[g]
            last = actions[g] != PASS and st.hands[g, t] == (1 << int(actions[g]))
            if last and st.out_first[g] >= 0:
                ref = [0, 0, 0, 0]
                ref[st.out_first[g]] = -100
                ref[t] = -50
            else:
                ref = None
            self.pending[int(g)] = (ref, [int(x) for x in st.totals[g]], TRIX)
        self.contract_no = st.contract_no.copy()

    def after(self, st: GameState) -> None:
        ended = st.contract_no != self.contract_no
        assert set(np.flatnonzero(ended)) <= set(self.pending)
        for g, (ref, before, contract) in self.pending.items():
            if ref is None:
                assert not ended[g]
                continue
            assert ended[g], "the contract should have ended"
            assert [int(p) for p in st.points[g]] == ref
            want = [0 if t + p == 1000 else t + p for t, p in zip(before, ref, strict=True)]
            assert [int(x) for x in st.totals[g]] == want
            self.finished[contract] += 1


@SETTINGS
@given(seed=seeds, first=first_ids, rng_seed=hs.integers(0, 2**32))
def test_random_games_keep_every_invariant(seed: int, first: int, rng_seed: int) -> None:
    rescorer = Rescorer()

    def check(st: GameState, legal: np.ndarray, actions: np.ndarray) -> None:
        check_state(st, legal, actions)
        if len(actions):
            rescorer.before(st, legal, actions)

    st = playout(seed, range(first, first + 4), rng_seed, check=check, after=rescorer.after)
    assert rescorer.finished.sum() == st.contract_no.sum()


@SETTINGS
@given(seed=seeds, target=first_ids, others=hs.lists(first_ids, max_size=5, unique=True))
def test_batch_size_and_composition_do_not_matter(seed: int, target: int,
                                                   others: list[int]) -> None:
    seats = [Strategy()] * 4
    alone = play_batch(seats, seed, [target], game=TRIX_RULES)
    ids = sorted({target, *others, target + 1, max(target - 1, 0)})
    many = play_batch(seats, seed, ids, game=TRIX_RULES)
    row = many.data[ids.index(target)]
    assert np.array_equal(alone.data[0], row)
    assert 1 <= alone.contract_no[0] <= 28


@settings(max_examples=25, deadline=None)
@given(seed=seeds, games=hs.lists(hs.integers(0, 2**31), min_size=1, max_size=12),
       contract=hs.integers(0, 27))
def test_deal_is_a_pure_function_and_valid(seed: int, games: list[int], contract: int) -> None:
    gid = np.array(games, dtype=np.int64)
    cn = np.full(len(games), contract, dtype=np.int64)
    d = rng.deal(seed, gid, cn).astype(np.int64)
    assert (np.bitwise_count(d) == 8).all()
    assert ((d[:, 0] | d[:, 1] | d[:, 2] | d[:, 3]) == FULL).all()
    rev = rng.deal(seed, gid[::-1].copy(), cn)[::-1]
    assert np.array_equal(d, rev.astype(np.int64))
    if contract == 0:
        assert np.array_equal(engine.init(seed, gid).hands, d)
    other = rng.deal(seed, gid, (cn + 1) % 28).astype(np.int64)
    assert not np.array_equal(d, other)


def illegal_action(st: GameState, g: int, legal: int, choice: int) -> int:
    """An action the rules forbid in game ``g`` (``choice`` picks among the candidates)."""
    ph = int(st.phase[g])
    cands = [-1, 33, 64]
    if ph == PICK:
        cands += [k for k in range(7) if not legal >> k & 1] + [7, 31, PASS]
    elif ph == DECLARE:
        cands += [2, PASS]
    else:
        cands += [c for c in range(32) if not legal >> c & 1]
        if legal != 0:
            cands.append(PASS)
    return cands[choice % len(cands)]


@SETTINGS
@given(seed=seeds, steps=hs.integers(0, 900), choice=hs.integers(0, 10**6),
       bad=hs.integers(0, 2))
def test_step_rejects_illegal_actions_unchanged(seed: int, steps: int, choice: int,
                                                bad: int) -> None:
    st = engine.init(seed, [0, 1, 2])
    gen = np.random.default_rng(seed)
    for _ in range(steps):
        if (st.phase == DONE).any():
            break
        engine.step(st, random_actions(st, gen)[1])
    if st.phase[bad] == DONE:
        return
    legal, actions = random_actions(st, gen)
    actions[bad] = illegal_action(st, bad, int(legal[bad]), choice)
    before = st.data.copy()
    with pytest.raises(IllegalActionError) as err:
        engine.step(st, actions)
    assert np.array_equal(st.data, before)
    assert list(err.value.games) == [bad]
    with pytest.raises(IllegalActionError):
        engine.step(st, actions[:2])
    assert np.array_equal(st.data, before)


@SETTINGS
@given(seed=seeds, rng_seed=hs.integers(0, 2**32))
def test_legal_action_exists_and_contract_counts(seed: int, rng_seed: int) -> None:
    """Every seat with a decision has a legal action, except a forced trix pass; each seat
    picks each contract at most once, and a full game gives every seat all seven."""
    picks: list[tuple[int, int, int]] = []

    def check(st: GameState, legal: np.ndarray, actions: np.ndarray) -> None:
        if not len(actions):
            return
        live = st.phase != DONE
        assert (legal[live & (st.phase != PLACE)] != 0).all()
        forced = live & (st.phase == PLACE) & (legal == 0)
        assert (actions[forced] == PASS).all()
        for g in np.flatnonzero(st.phase == PICK):
            picks.append((int(g), int(st.picker[g]), int(actions[g])))

    st = playout(seed, range(8), rng_seed, check=check)
    for g in range(8):
        mine = [(p, c) for gg, p, c in picks if gg == g]
        assert len(mine) == len(set(mine)) == st.contract_no[g]
        if st.contract_no[g] == 28:
            assert sorted(mine) == [(p, c) for p in range(4) for c in range(7)]
