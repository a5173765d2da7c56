"""``pimc``: worlds consistent with what the seat has seen, the same choices on both
paths, and its parameters checked."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from trixsim.games.trix import GAME as TRIX_RULES
from trixsim.games.trix import init, legal_action_mask, step
from trixsim.games.trix.cards import KH_MASK, SUIT_MASK
from trixsim.games.trix.observation import shown_voids
from trixsim.games.trix.rules import placeable_one
from trixsim.games.trix.state import COL
from trixsim.games.trix.types import DONE, PASS, PLACE
from trixsim.games.trix.worlds import sample_hands, trix_excluded
from trixsim.loading import StrategyLoadError, load_seats, load_strategy
from trixsim.sim import decide, play_batch
from trixsim.testing import check_strategy


def _states(seed: int, games: int = 30):
    """Snapshots of heuristic games (ray and general included), every few steps."""
    seats = load_seats("heuristic", "trix")
    st = init(seed, range(games))
    legal = legal_action_mask(st)
    k = 0
    while (st.phase != DONE).any():
        if k % 5 == 0:
            yield st.data.copy(), legal.copy()
        legal = step(st, decide(st, seats, legal, game=TRIX_RULES), legal)
        k += 1


def test_sampled_worlds_respect_what_the_seat_has_seen() -> None:
    checked = passes = 0
    for S, legal in _states(4):
        for g in range(S.shape[0]):
            s = S[g]
            if s[COL["phase"]] == DONE or (s[COL["phase"]] == PLACE and legal[g] == 0):
                continue
            me = int(s[COL["turn"]])
            real = [int(x) for x in s[COL["hands"]:COL["hands"] + 4]]
            out = np.zeros(4, dtype=np.int64)
            assert sample_hands(s, me, real[me], 1000 * checked + 7, out)
            got = [int(x) for x in out]
            assert got[me] == real[me]
            assert [bin(h).count("1") for h in got] == [bin(h).count("1") for h in real]
            union = 0
            for h in got:
                assert not union & h
                union |= h
            assert union == sum(real)  # exactly the cards still in hands
            voids = shown_voids(np.array([s[COL["voids"]]]))[0]
            for p in range(4):
                for suit in range(4):
                    if voids[p, suit]:
                        assert not got[p] & int(SUIT_MASK[suit])
            holder = int(s[COL["declared"]])
            if holder >= 0 and real[holder] & KH_MASK:
                assert got[holder] & KH_MASK
            excluded = trix_excluded(s)
            assert not any(int(excluded[p]) & real[p] for p in range(4))  # the real deal fits
            assert not any(int(excluded[p]) & got[p] for p in range(4)), "a pass contradicted"
            checked += 1
            passes += bool(excluded.any())
    assert checked > 500 and passes > 20


def _trix_states(seed: int) -> list[np.ndarray]:
    """Every state of a trix contract met in a few heuristic games where a seat must
    place or pass, after at least one pass was seen."""
    out = []
    for S, _legal in _states(seed, games=8):
        for g in range(S.shape[0]):
            if S[g, COL["phase"]] == PLACE and trix_excluded(S[g]).any():
                out.append(S[g])
    return out


@given(seed=hs.integers(0, 2**20), key=hs.integers(0, 2**62))
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_no_world_gives_a_seat_a_card_its_trix_passes_rule_out(seed: int, key: int) -> None:
    """At a pass a seat held nothing placeable; every sampled world keeps it so, on every
    trix position of random games (the trix history read from the public row alone)."""
    for s in _trix_states(seed)[:25]:
        me = int(s[COL["turn"]])
        real = [int(x) for x in s[COL["hands"]:COL["hands"] + 4]]
        # the exclusions, read the long way from the trix log: what was placeable at
        # each pass, seat by seat
        placed, ruled_out = 0, [0, 0, 0, 0]
        for k in range(int(s[COL["trix_n"]])):
            b = (int(s[COL["trix_log"] + k // 8]) >> (8 * (k % 8))) & 0xFF
            if b & 63 == PASS:
                ruled_out[b >> 6] |= int(placeable_one(placed))
            else:
                placed |= 1 << (b & 63)
        assert [int(x) for x in trix_excluded(s)] == ruled_out
        out = np.zeros(4, dtype=np.int64)
        assert sample_hands(s, me, real[me], key, out)
        assert all(not int(out[p]) & ruled_out[p] for p in range(4))
        assert sorted(bin(int(h)).count("1") for h in out) == \
            sorted(bin(h).count("1") for h in real)


def test_worlds_differ_between_seeds_and_repeat_for_one() -> None:
    S, _ = next(_states(2))
    s = S[0]
    me = int(s[COL["turn"]])
    hand = int(s[COL["hands"] + me])
    a, b, c = (np.zeros(4, dtype=np.int64) for _ in range(3))
    sample_hands(s, me, hand, 1, a)
    sample_hands(s, me, hand, 1, b)
    sample_hands(s, me, hand, 2, c)
    assert np.array_equal(a, b) and not np.array_equal(a, c)


@pytest.mark.parametrize("spec", ["pimc:worlds=3", "pimc:worlds=2,rollout=random,ties=heuristic",
                                  "pimc:worlds=2,search=play+place",
                                  "pimc:worlds=10,prune=1,ties=heuristic"])
def test_pimc_keeps_the_strategy_api_on_both_paths(spec: str) -> None:
    check_strategy(spec, games=24, seed=5)  # includes check_policy: same choices both ways


def _decisions(games: int) -> tuple[np.ndarray, ...]:
    """Public rows, legal masks, hands and keys of every decision with a choice in
    ``games`` heuristic games."""
    from trixsim.games.trix.observation import observe

    got: list[list[np.ndarray]] = [[], [], [], []]

    class Collect:
        def before_step(self, st, actions, lm) -> None:  # noqa: ANN001
            m = (np.asarray(lm) & 0xFFFFFFFF).astype(np.int64)
            idx = np.flatnonzero((np.bitwise_count(m) > 1) & (st.phase != DONE))
            if idx.size:
                obs = observe(st, idx, m[idx])
                for out, x in zip(got, (obs.state_rows(), m[idx], obs.hand, obs.key),
                                  strict=True):
                    out.append(np.array(x))

    play_batch(load_seats("heuristic", "trix"), 3, range(games), observer=Collect(),
               path="stepwise", game=TRIX_RULES)
    return tuple(np.concatenate(x) for x in got)


def test_pruning_changes_few_choices_and_prune_0_plays_every_action() -> None:
    """Default pruning keeps the full search's choice almost always (its strength, on
    2,000 duplicate deals, is in the README); every choice is legal."""
    from trixsim.strategies._pimc_kernels import pimc_batch

    rows, legal, hands, keys = _decisions(6)
    outs = []
    for spec in ("pimc", "pimc:prune=0"):
        out = np.empty(len(rows), dtype=np.int64)
        pimc_batch(rows, legal, hands, keys, load_strategy(spec, "trix").policy_params(),
                   out)
        assert ((legal >> out) & 1).all()
        outs.append(out)
    assert len(rows) > 1000 and (outs[0] == outs[1]).mean() > 0.99


def test_pimc_beats_heuristic() -> None:
    """A small duplicate match (the README's ladder has the 2,000-deal figures)."""
    pimc, heur = load_strategy("pimc:worlds=8", "trix"), load_strategy("heuristic", "trix")
    diffs = []
    for seat in range(4):
        seats = [heur] * 4
        seats[seat] = pimc
        st = play_batch(seats, 9, range(60), game=TRIX_RULES)
        base = play_batch([heur] * 4, 9, range(60), game=TRIX_RULES)
        diffs.append(st.totals[:, seat] - base.totals[:, seat])
    d = np.mean(diffs, axis=0)
    assert d.mean() + 3 * d.std(ddof=1) / np.sqrt(len(d)) < 0  # lower totals: better


@pytest.mark.parametrize("spec, words", [
    ("pimc:worlds=0", "at least 1"),
    ("pimc:rollout=greedy", "heuristic or random"),
    ("pimc:search=play+bid", "unknown decisions"),
    ("pimc:ties=random", "lowest or heuristic"),
    ("pimc:prune=-1", "at least 0"),
])
def test_bad_parameters_are_refused_in_one_line(spec: str, words: str) -> None:
    with pytest.raises(StrategyLoadError, match=words):
        load_strategy(spec, "trix")


def test_search_kernels_release_the_interpreter_lock() -> None:
    """A table's bots think in threads and a run's workers call the policy from compiled
    loops: every entry point of the search is compiled with ``nogil``."""
    from trixsim.strategies import _pimc_kernels as K

    for kernel in (K.pimc_batch, K.pimc_decide, K.pimc_policy):
        assert kernel.targetoptions.get("nogil") is True, kernel
