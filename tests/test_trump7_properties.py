"""Properties of trump7 over random games (hypothesis draws seeds, game indices, the
variant and every choice): 13 tricks, every card played exactly once, legal moves follow
suit, points conserved at 25 without the bid, the bid's formula, honest deals."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as hs

from trixsim.games import get_game, trump7
from trixsim.games.trump7.cards import ACE, JACK, QUEEN, SUIT_MASK
from trixsim.games.trump7.chance import packs
from trixsim.games.trump7.state import DONE, PLAY

FULL = (1 << 52) - 1
seeds = hs.integers(0, 2**32 - 1)
firsts = hs.integers(0, 10**9)


def bid_points(tricks: int, bid: int) -> int:
    """The rule text's formula, written independently of the engine."""
    if bid < 0:
        return tricks
    if tricks >= bid:
        return bid * 2 + (tricks - bid)
    return tricks - (bid - tricks) * 2


def honours_of(won: int, trump: int) -> int:
    return sum(v for r, v in ((ACE, 5), (JACK, 4), (QUEEN, 3)) if won >> (13 * trump + r) & 1)


def play_checked(st: trump7.GameState, choose: np.random.Generator) -> None:
    """Random play to the end, checking the follow rule at every card."""
    legal = trump7.legal_action_mask(st)
    while (st.phase != DONE).any():
        actions = np.zeros(st.batch_size, dtype=np.int64)
        for g in np.flatnonzero(st.phase != DONE):
            lm = int(legal[g])
            if st.phase[g] == PLAY:
                hand = int(st.hands[g, st.turn[g]])
                if st.trick_n[g]:
                    suit = (SUIT_MASK << (13 * (int(st.trick_cards[g, 0]) // 13))) & hand
                    assert lm == (suit or hand)
                else:
                    assert lm == hand
            else:
                assert lm == (1 << 14) - 1
            actions[g] = choose.choice([a for a in range(52) if lm >> a & 1])
        legal = trump7.step(st, actions, legal)


@settings(max_examples=25, deadline=None)
@given(seed=seeds, first=firsts, bidding=hs.booleans(), pick=hs.integers(0, 2**32 - 1))
def test_random_games_keep_the_rules(seed: int, first: int, bidding: bool, pick: int) -> None:
    ids = np.arange(first, first + 6)
    st = trump7.init(seed, ids, bidding=bidding)
    for g in range(6):  # 7 cards each, 24 in the stock, all 52 once
        hands = [int(h) for h in st.hands[g]]
        assert all(bin(h).count("1") == 7 for h in hands)
        stock = [int(c) for c in st.stock[g]]
        allc = set(stock)
        for h in hands:
            allc |= {c for c in range(52) if h >> c & 1}
        assert len(allc) == 52 and len(set(stock)) == 24
        assert stock[-1] == st.turned[g] and st.trump[g] == st.turned[g] // 13
        assert st.dealer[g] == ids[g] % 4 and st.turn[g] == (ids[g] + 1) % 4
    play_checked(st, np.random.default_rng(pick))
    assert (st.trick_no == 13).all() and (st.tricks.sum(axis=1) == 13).all()
    assert (st.played == FULL).all() and (st.hands == 0).all()
    for g in range(6):
        by = [int(x) for x in st.played_by[g]]
        assert all(bin(m).count("1") == 13 for m in by)
        assert by[0] | by[1] | by[2] | by[3] == FULL
        won = [int(x) for x in st.won[g]]
        assert sum(bin(m).count("1") for m in won) == 52
        trump = int(st.trump[g])
        assert [honours_of(w, trump) for w in won] == st.honours[g].tolist()
        assert st.honours[g].sum() == 12
        bids = st.bids[g].tolist()
        assert all(0 <= b <= 13 for b in bids) if bidding else bids == [-1] * 4
        expect = [bid_points(int(t), b) + int(h)
                  for t, b, h in zip(st.tricks[g], bids, st.honours[g], strict=True)]
        assert st.points[g].tolist() == expect
        if not bidding:
            assert st.points[g].sum() == 25
        assert 0 <= st.turned_holder[g] <= 3
        assert st.won[g, st.turned_holder[g]] | st.played_by[g, st.turned_holder[g]]


@settings(max_examples=20, deadline=None)
@given(seed=seeds, first=firsts)
def test_packs_depend_only_on_seed_and_game_index(seed: int, first: int) -> None:
    ids = np.arange(first, first + 5)
    whole = packs(seed, ids)
    assert all(sorted(p.tolist()) == list(range(52)) for p in whole)
    assert np.array_equal(packs(seed, ids[::-1]), whole[::-1])
    alone = trump7.init(seed, ids[2:3])
    batch = trump7.init(seed, ids)
    assert np.array_equal(alone.data[0], batch.data[2])


@settings(max_examples=15, deadline=None)
@given(seed=seeds, bidding=hs.booleans(), pick=hs.integers(0, 2**32 - 1))
def test_observations_do_not_depend_on_hidden_cards(seed: int, bidding: bool,
                                                     pick: int) -> None:
    """A seat's view is the same whatever the other hands and the stock order are."""
    game = get_game("trump7-bid" if bidding else "trump7")
    st = game.init(seed, np.arange(4))
    choose = np.random.default_rng(pick)
    for _ in range(int(choose.integers(0, 50))):
        legal = game.legal_action_mask(st)
        game.step(st, np.array([choose.choice([a for a in range(52) if int(m) >> a & 1])
                                for m in legal]))
    seat = int(choose.integers(0, 4))
    other = st.copy()
    for s in range(4):
        if s != seat:
            other.hands[:, s] = choose.integers(0, 2**52, size=4)
    other.stock[:] = choose.integers(0, 52, size=other.stock.shape)
    a = game.observe(st, np.arange(4), seat)
    b = game.observe(other, np.arange(4), seat)
    for name in game.observation_fields:
        if name != "hand_sizes":  # counted from the hands we scrambled
            assert np.array_equal(getattr(a, name), getattr(b, name)), name
