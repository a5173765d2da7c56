"""Chance as an explicit input: the state holds no seed, deals can be imposed."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as hs

from trixsim import rng
from trixsim.games.trix import GAME as TRIX_RULES
from trixsim.games.trix import Chance, init, legal_action_mask, observe, step
from trixsim.games.trix.state import COL
from trixsim.games.trix.types import DONE
from trixsim.sim import decide, play_batch
from trixsim.strategy import Strategy

GOLDEN_0 = ["0x8221a90", "0x30046403", "0xc0d90004", "0x7008168"]
GOLDEN_1 = ["0xa840040e", "0x518a1080", "0x52370", "0x630c801"]


class Lowest(Strategy):
    """Deterministic whatever the seed: the lowest legal action everywhere."""

    name = "lowest"
    observes = frozenset({"legal"})

    def _low(self, obs: object) -> np.ndarray:
        m = np.asarray(obs.legal, dtype=np.int64)  # type: ignore[attr-defined]
        return np.array([(int(x) & -int(x)).bit_length() - 1 for x in m], dtype=np.int64)

    pick = declare = play = place = _low


def test_the_state_holds_no_seed() -> None:
    assert "seed" not in COL
    a, b = init(1, [0, 1]), init(2, [0, 1])
    assert a.run_seed == 1 and b.run_seed == 2 and a.chance != b.chance


def test_imposed_deals_are_played() -> None:
    """Imposing the deals of seed 9 on a seed-1 batch plays the seed-9 games exactly
    (the strategies here ignore the seed, the first pickers are imposed too)."""
    ids = np.arange(6)
    fps = [rng.first_picker(9, g) for g in ids]
    deals = {(b, k): [int(x) for x in rng.deal(9, np.array([g]), np.array([k]))[0]]
             for b, g in enumerate(ids) for k in range(28)}
    imposed = init(Chance.impose(1, len(ids), deals), ids, first_pickers=fps)
    natural = init(9, ids)
    for st in (imposed, natural):
        legal = legal_action_mask(st)
        while (st.phase != DONE).any():
            legal = step(st, decide(st, [Lowest()] * 4, legal, game=TRIX_RULES), legal)
    assert np.array_equal(imposed.data, natural.data)
    assert imposed.run_seed == 1


def test_strategy_keys_follow_the_chance_seed_not_the_state() -> None:
    st = init(5, [0, 1, 2])
    obs = observe(st, np.arange(3), legal_action_mask(st))
    other = st.copy()
    other.chance = Chance(6)
    assert not np.array_equal(obs.key, observe(other, np.arange(3),
                                               legal_action_mask(other)).key)
    assert np.array_equal(play_batch([Strategy()] * 4, 5, range(3), game=TRIX_RULES).totals,
                          play_batch([Strategy()] * 4, 5, range(3), game=TRIX_RULES).totals)


@settings(max_examples=300, deadline=None)
@given(seed=hs.integers(0, 2**63 - 1), game=hs.integers(0, 2**62), contract=hs.integers(0, 27))
def test_a_deal_is_the_shuffle_of_the_pack_dealt_in_eights(seed: int, game: int,
                                                           contract: int) -> None:
    """``deal_one`` writes out ``shuffle``'s steps (to deal faster): seat s holds the cards
    the shuffle leaves at positions 8s .. 8s+7, for any coordinates."""
    perm = np.arange(32)
    rng.shuffle(np.uint64(rng.hash4(seed, rng.STREAM_DEAL, game, contract)), perm)
    want = [sum(1 << int(c) for c in perm[8 * s:8 * s + 8]) for s in range(4)]
    got = np.zeros(4, dtype=np.int64)
    rng.deal_one(seed, game, contract, got)
    assert [int(x) for x in got] == want


def test_deals_are_the_same_as_ever() -> None:
    """Golden hands (taken before ``deal_one`` was written out): seed 0, game 0, its first
    contract; seed 12345, game 99, contract 27."""
    got = np.zeros(4, dtype=np.int64)
    rng.deal_one(0, 0, 0, got)
    assert [hex(int(x)) for x in got] == GOLDEN_0
    rng.deal_one(12345, 99, 27, got)
    assert [hex(int(x)) for x in got] == GOLDEN_1
