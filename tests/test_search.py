"""Search on the public API: worlds built from an observation and a sample of the hidden
cards (checked), played out to the end of the contract; a tiny Monte-Carlo bot on it."""

from __future__ import annotations

import numpy as np
import pytest

from trixsim.games.trix import GAME as TRIX_RULES
from trixsim.games.trix import init, observe, step
from trixsim.games.trix.cards import KH_MASK, SUIT_MASK, cards_of, lowest_card, popcount
from trixsim.games.trix.observation import Observation, shown_voids
from trixsim.games.trix.rules import legal_action_mask
from trixsim.games.trix.search import WorldError, hidden_cards, play_out_contract, world_from
from trixsim.games.trix.state import GameState
from trixsim.games.trix.types import DONE, PLAY
from trixsim.sim import decide, play_batch
from trixsim.strategy import Strategy


class Lowest(Strategy):
    """Deterministic: the lowest legal card, never declares (picks stay random)."""

    name = "lowest"
    observes = frozenset({"legal", "key"})

    def declare(self, obs: Observation) -> np.ndarray:
        return np.zeros(len(obs), dtype=np.int64)

    def play(self, obs: Observation) -> np.ndarray:
        return lowest_card(obs.legal)

    def place(self, obs: Observation) -> np.ndarray:
        return lowest_card(obs.legal)


def sample_hands(obs: Observation, i: int, rng: np.random.Generator,
                 tries: int = 500) -> list[int] | None:
    """Deal the hidden cards to the other seats at random, respecting hand sizes, shown
    voids and a declared K♥ (rejection sampling); None if no sample was found."""
    me = int(obs.seat[i])
    cards = np.array(cards_of(hidden_cards(obs, i)))
    sizes = obs.hand_sizes[i]
    voids = shown_voids(obs.voids[i:i + 1])[0]
    holder = int(obs.declared[i])
    for _ in range(tries):
        rng.shuffle(cards)
        hands, k = [0, 0, 0, 0], 0
        for s in range(4):
            if s == me:
                hands[s] = int(obs.hand[i])
                continue
            for c in cards[k:k + sizes[s]]:
                hands[s] |= 1 << int(c)
            k += sizes[s]
        if any(voids[s, u] and hands[s] & int(SUIT_MASK[u]) for s in range(4) for u in range(4)):
            continue
        if holder >= 0 and not int(obs.played[i]) & KH_MASK and not hands[holder] & KH_MASK:
            continue
        return hands
    return None


class TinyMonteCarlo(Strategy):
    """Plays the card with the fewest own points over a few sampled worlds, each played
    out with random seats; everything through the documented search API."""

    name = "tiny-mc"
    observes = None
    worlds = 3

    def play(self, obs: Observation) -> np.ndarray:
        out = lowest_card(obs.legal)
        for i in range(len(obs)):
            options = cards_of(int(obs.legal[i]))
            if len(options) < 2:
                continue
            rng = np.random.default_rng(int(obs.key[i]) & 0xFFFFFFFF)
            samples = [h for h in (sample_hands(obs, i, rng) for _ in range(self.worlds)) if h]
            if not samples:
                continue
            states = [world_from(obs, i, h) for _ in options for h in samples]
            batch = GameState(np.concatenate([s.data for s in states]))
            step(batch, np.repeat(options, len(samples)))
            points = play_out_contract(batch, [Strategy()] * 4)[:, int(obs.seat[i])]
            out[i] = options[int(np.argmin(points.reshape(len(options), -1).mean(axis=1)))]
        return out


def test_a_tiny_monte_carlo_bot_plays_legal_games() -> None:
    st = play_batch([TinyMonteCarlo(), Strategy(), Strategy(), Strategy()], 1, range(2),
                    game=TRIX_RULES)
    assert (st.contract_no > 0).all()


def _observation_mid_contract() -> tuple[Observation, GameState]:
    """A full observation in the middle of a contract's play, with the real state."""
    st = init(11, [0])
    bots = [Lowest()] * 4
    legal = legal_action_mask(st)
    plays = 0
    while True:
        if st.phase[0] == PLAY:
            plays += 1
            if plays == 9:
                return observe(st, np.array([0]), legal), st.copy()
        legal = step(st, decide(st, bots, legal, game=TRIX_RULES), legal)


def test_the_true_world_plays_out_like_the_real_game() -> None:
    obs, real = _observation_mid_contract()
    hands = [int(x) for x in real.hands[0]]
    world = world_from(obs, 0, hands)
    points = play_out_contract(world, [Lowest()] * 4)
    cn = int(real.contract_no[0])
    legal = legal_action_mask(real)
    while int(real.contract_no[0]) == cn:
        legal = step(real, decide(real, [Lowest()] * 4, legal, game=TRIX_RULES), legal)
    assert points[0].tolist() == real.points[0].tolist()
    assert world.phase[0] == DONE  # no next deal in a world


def test_world_from_refuses_inconsistent_samples() -> None:
    obs, real = _observation_mid_contract()
    hands = [int(x) for x in real.hands[0]]
    me = int(obs.seat[0])
    other = (me + 1) % 4
    wrong = list(hands)
    wrong[me] = hands[other]
    with pytest.raises(WorldError, match="real hand"):
        world_from(obs, 0, wrong)
    moved = list(hands)
    c = int(hands[other]) & -int(hands[other])
    moved[other] &= ~c
    moved[(me + 2) % 4] |= c
    with pytest.raises(WorldError, match="hand sizes"):
        world_from(obs, 0, moved)
    twice = list(hands)
    twice[(me + 2) % 4] = (twice[(me + 2) % 4] & ~(twice[(me + 2) % 4] & -twice[(me + 2) % 4])) | c
    with pytest.raises(WorldError, match="two hands"):
        world_from(obs, 0, twice)
    played = list(hands)
    p = int(obs.played[0]) & -int(obs.played[0])
    played[other] = (played[other] & ~c) | p
    with pytest.raises(WorldError, match="already played"):
        world_from(obs, 0, played)
    assert popcount(np.array(hands, dtype=np.uint32)).tolist() == obs.hand_sizes[0].tolist()


def test_world_from_needs_a_full_observation() -> None:
    st = init(1, [0])
    obs = observe(st, np.array([0]), legal_action_mask(st), frozenset({"legal"}))
    with pytest.raises(ValueError, match="full observation"):
        world_from(obs, 0, [0, 0, 0, 0])


def test_compiled_rollouts_play_as_the_stepwise_ones() -> None:
    from trixsim.games.trix.state import COL
    from trixsim.loading import load_seats

    seats = load_seats("heuristic,random,heuristic,random", "trix")
    st = init(3, range(40))
    legal = legal_action_mask(st)
    for _ in range(9):  # into the first contract's play
        legal = step(st, decide(st, seats, legal, game=TRIX_RULES), legal)
    fast = st.copy()
    points = play_out_contract(fast, seats)
    slow = st.copy()
    slow.data[:, COL["stop_after"]] = 1
    legal = legal_action_mask(slow)
    while (slow.phase != DONE).any():
        legal = step(slow, decide(slow, seats, legal, game=TRIX_RULES), legal)
    assert np.array_equal(fast.data, slow.data) and np.array_equal(points, slow.points)
