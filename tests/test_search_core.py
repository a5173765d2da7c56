"""The game-generic search core: the constrained dealer keeps every constraint it is
given, and the driver, bound to a toy game, scores each action by its utility."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as hs
from numba import njit

from trixsim.search.deal import deal_hidden, shuffle_cards
from trixsim.search.pimc import MAX_ACTIONS, best_action, specialise

SUITS = np.array([((1 << 13) - 1) << (13 * x) for x in range(4)], dtype=np.int64)


@settings(max_examples=60, deadline=None)
@given(data=hs.data())
def test_the_dealer_keeps_sizes_allowed_cards_caps_and_fixed_cards(data: hs.DataObject) -> None:
    gen = np.random.default_rng(data.draw(hs.integers(0, 2**32)))
    cards = gen.permutation(52)[:data.draw(hs.integers(4, 40))]
    # a true deal, then constraints it satisfies: the dealer must then find one
    holders = 4
    owner = gen.integers(0, holders, size=len(cards))
    truth = np.zeros(holders, dtype=np.int64)
    for c, h in zip(cards, owner, strict=True):
        truth[h] |= np.int64(1) << int(c)
    unknown = int(np.bitwise_or.reduce(truth))
    need = np.array([bin(int(t)).count("1") for t in truth], dtype=np.int64)
    allowed = np.full(holders, (1 << 52) - 1, dtype=np.int64)
    caps = np.full((holders, 4), 52, dtype=np.int64)
    fixed = np.zeros(holders, dtype=np.int64)
    for h in range(holders):
        for x in range(4):
            n = bin(int(truth[h] & SUITS[x])).count("1")
            if n == 0 and gen.random() < 0.4:
                allowed[h] &= ~SUITS[x]  # a void
            elif gen.random() < 0.3:
                caps[h, x] = n  # at most what it has
        if truth[h] and gen.random() < 0.3:
            fixed[h] = truth[h] & -truth[h]  # a card known to be there
    out = np.zeros(holders, dtype=np.int64)
    seed = data.draw(hs.integers(0, 2**62))
    if not deal_hidden(unknown, holders, need, allowed, fixed, seed, out, SUITS, caps):
        return  # 64 dead ends (rare): the caller rejects such a world
    seen = 0
    for h in range(holders):
        assert not seen & out[h]
        seen |= int(out[h])
        assert bin(int(out[h])).count("1") == need[h]
        assert out[h] & ~allowed[h] == 0
        assert out[h] & fixed[h] == fixed[h]
        for x in range(4):
            assert bin(int(out[h] & SUITS[x])).count("1") <= caps[h, x]
    assert seen == unknown


def test_shuffles_are_permutations_and_depend_on_the_seed() -> None:
    out, other = np.zeros(64, dtype=np.int64), np.zeros(64, dtype=np.int64)
    n = shuffle_cards(0b1011011101, 5, out)
    assert n == 7 and sorted(out[:n]) == [0, 2, 3, 4, 6, 7, 9]
    shuffle_cards(0b1011011101, 6, other)
    assert not np.array_equal(out[:n], other[:n])


@njit(cache=False)
def _toy_sample(s, me, hand, wkey, prm, W, work):  # noqa: ANN001, ANN202
    W[0, :] = s
    W[0, 1] = wkey & 1  # a hidden coin


@njit(cache=False)
def _toy_apply(W, a):  # noqa: ANN001, ANN202
    W[0, 0] = a


@njit(cache=False)
def _toy_rollout(W, prm, wkey):  # noqa: ANN001, ANN202
    pass


@njit(cache=False)
def _toy_utility(W, me, prm):  # noqa: ANN001, ANN202
    a = W[0, 0]
    if a == 3:
        return 2.0
    if a == 5 and W[0, 1]:
        return 4.0
    return 0.0


def test_the_driver_sums_each_actions_utility_over_the_worlds() -> None:
    """Action 3 earns 2 in every world, action 5 earns 4 when the hidden coin is up:
    5 wins when the coin is up in more than half the worlds."""
    scores = specialise(__name__, "_toy_scores", sample=_toy_sample, apply=_toy_apply,
                        rollout=_toy_rollout, utility=_toy_utility)
    s = np.zeros(2, dtype=np.int64)
    score = np.zeros(MAX_ACTIONS)
    lg = (1 << 3) | (1 << 5) | (1 << 7)
    assert scores(s, 0, lg, 0, 99, 40, np.zeros(1), score, 0.0, 0.0, False) == lg
    assert score[3] == 80.0 and score[7] == 0.0
    assert score[5] % 4 == 0 and 0 < score[5] < 160
    assert best_action(lg, score) == (5 if score[5] > 80 else 3)
    tie = np.zeros(MAX_ACTIONS)
    assert best_action(lg, tie) == 3  # ties: the lowest action id


@njit(cache=False)
def _coin_sample(s, me, hand, wkey, prm, W, work):  # noqa: ANN001, ANN202
    W[0, :] = s
    W[0, 1] = wkey & 1  # a hidden coin: only two worlds exist
    W[0, 2] = 0


@njit(cache=False)
def _counting_rollout(W, prm, wkey):  # noqa: ANN001, ANN202
    prm[0] += 1  # rollouts played, counted in the parameter vector


def test_a_world_drawn_again_is_not_played_again_and_scores_the_same() -> None:
    scores = specialise(__name__, "_coin_scores", sample=_coin_sample, apply=_toy_apply,
                        rollout=_counting_rollout, utility=_toy_utility)
    s = np.zeros(3, dtype=np.int64)
    lg = (1 << 3) | (1 << 5) | (1 << 7)
    once, again = np.zeros(MAX_ACTIONS), np.zeros(MAX_ACTIONS)
    played, replayed = np.zeros(1), np.zeros(1)
    scores(s, 0, lg, 0, 99, 40, played, once, 0.0, 0.0, True)
    scores(s, 0, lg, 0, 99, 40, replayed, again, 0.0, 0.0, False)
    assert np.array_equal(once, again)
    assert played[0] == 2 * 3 and replayed[0] == 40 * 3  # two worlds, three actions


def test_pruning_drops_a_clearly_losing_action_and_keeps_close_ones() -> None:
    """Action 7 scores 0 in every world, action 3 scores 2: with a floor of 0.1 on the
    spread, 7 trails by far more than two standard errors after 8 worlds and is dropped;
    with a floor of 10 it is kept (8 equal differences of 2 are no certainty)."""
    scores = specialise(__name__, "_toy_scores2", sample=_toy_sample, apply=_toy_apply,
                        rollout=_toy_rollout, utility=_toy_utility)
    s = np.zeros(2, dtype=np.int64)
    lg = (1 << 3) | (1 << 7)
    score = np.zeros(MAX_ACTIONS)
    alive = scores(s, 0, lg, 0, 99, 40, np.zeros(1), score, 2.0, 0.1, False)
    assert alive == 1 << 3 and score[3] == 2.0 * 8 and score[7] == 0.0  # stopped at 8
    score = np.zeros(MAX_ACTIONS)
    assert scores(s, 0, lg, 0, 99, 40, np.zeros(1), score, 2.0, 10.0, False) == lg
    assert score[3] == 80.0
