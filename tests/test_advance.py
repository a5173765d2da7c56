"""Trix's step with ``advance``: each game goes on by itself through the actions nobody
chooses (the trix pass, the only legal action) and stops where its seat to act has a
choice, the game ends or its contract ends. The same games, events and tables as stepping
every action, with fewer steps; the stepwise loop asks the strategies the same decisions."""

from __future__ import annotations

import numpy as np
import pytest

from trixsim.games import get_game
from trixsim.games.trix.events import CONTRACT_END, DEAL, GAME_END, PICK
from trixsim.games.trix.types import DONE, PASS
from trixsim.games.trump7.state import DONE as T7_DONE
from trixsim.loading import load_seats
from trixsim.sim import play_batch
from trixsim.strategy import Strategy
from trixsim.testing.policy import _Events

GAME = get_game("trix")
BRIEF = frozenset({DEAL, PICK, CONTRACT_END, GAME_END})


def _choose(st, legal: np.ndarray) -> np.ndarray:
    """A legal action per game that depends only on the game and its ply (so stepping
    every action and advancing choose alike): the k-th legal card or contract, the pass
    where nothing else is legal."""
    m = legal.astype(np.int64) & 0xFFFFFFFF
    k = (st.game_id * 7919 + st.ply * 104729) % np.maximum(np.bitwise_count(m), 1)
    out = np.full(len(m), PASS, dtype=np.int64)
    seen = np.zeros(len(m), dtype=np.int64)
    for b in range(32):
        has = ((m >> b) & 1) == 1
        out[has & (seen == k) & (out == PASS)] = b
        seen += has
    return out


def _play(advance: bool, kinds: frozenset[int] | None) -> tuple:
    """Final rows, events by game and steps of 300 games, stepped with ``advance``."""
    log = GAME.event_log()
    log.kinds = kinds
    events = _Events(GAME)
    st = GAME.init(11, np.arange(300), events=log)
    events.events(st, log.rows)
    legal = GAME.legal_action_mask(st)
    steps = 0
    while (st.phase != DONE).any():
        before = st.contract_no.copy()
        legal = GAME.step(st, _choose(st, legal), events=log, legal=legal, advance=advance)
        events.events(st, log.rows)
        steps += 1
        if advance and kinds == BRIEF:
            live = st.phase != DONE
            choice = np.bitwise_count(legal.astype(np.int64) & 0xFFFFFFFF) >= 2
            # where the game goes on, its seat to act has a choice, unless the step
            # ended a contract (the next one's seventh pick may be forced)
            assert (choice | ~live | (st.contract_no != before)).all()
            assert (st.contract_no - before <= 1).all()  # at most one contract a step
    return st.data.copy(), events.by_game(), steps


def test_advancing_plays_the_same_games_in_fewer_steps() -> None:
    rows0, events0, steps0 = _play(False, BRIEF)
    rows1, events1, steps1 = _play(True, BRIEF)
    assert np.array_equal(rows0, rows1)
    assert events0 == events1
    assert steps1 < 0.8 * steps0


def test_no_advance_with_a_log_of_every_event() -> None:
    """A log that keeps every event could not hold a step's worth of advanced actions:
    the step then applies one action per game, as without ``advance``."""
    rows0, events0, steps0 = _play(False, None)
    rows1, events1, steps1 = _play(True, None)
    assert np.array_equal(rows0, rows1) and events0 == events1 and steps1 == steps0


class _Asked(Strategy):
    """Another strategy's choices, noting the key of every decision it is asked."""

    name = "asked"
    game = "trix"
    observes = None  # every field (the wrapped strategy reads its own)

    def __init__(self, inner: Strategy, asked: list) -> None:
        super().__init__()
        self.inner, self.asked = inner, asked

    def _note(self, method: str, obs) -> np.ndarray:
        self.asked.extend(obs.key.tolist())  # unique to the decision
        return getattr(self.inner, method)(obs)

    def pick(self, obs):
        return self._note("pick", obs)

    def declare(self, obs):
        return self._note("declare", obs)

    def play(self, obs):
        return self._note("play", obs)

    def place(self, obs):
        return self._note("place", obs)


@pytest.mark.parametrize("advances", [False, True])
def test_the_loop_asks_the_same_decisions(advances: bool,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """The stepwise loop with and without advancing: the same decisions asked, the same
    outcome tables."""
    got = {}
    for flag in (False, advances):
        asked: list = []
        seats = [_Asked(s, asked) for s in load_seats("heuristic,random,heuristic,random",
                                                      "trix")]
        log = GAME.outcomes(200)
        with monkeypatch.context() as m:
            m.setattr(type(GAME), "advances", flag)
            st = play_batch(seats, 5, np.arange(200), observer=log, path="stepwise",
                            game=GAME)
        tables = log.tables(st, [s.label for s in seats])
        got[flag] = (sorted(asked), tables["contracts"], tables["games"])
    (a0, c0, g0), (a1, c1, g1) = got[False], got[advances]
    assert a0 == a1 and len(a0) > 1000
    assert c0.equals(c1) and g0.equals(g1)


def test_trump7_advances_through_lone_cards(monkeypatch: pytest.MonkeyPatch) -> None:
    """trump7's step plays lone legal cards by itself (no event log): the same games and
    tables in fewer steps, and every step after the first leaves a choice."""
    game = get_game("trump7")
    plain_step = type(game).step
    got = {}
    for flag in (False, True):
        steps = []
        seats = load_seats("heuristic,random,heuristic,random", "trump7")

        with monkeypatch.context() as m:
            m.setattr(type(game), "advances", flag)

            def counted(self, st, actions, *args, seen=steps, **kwargs):
                out = plain_step(self, st, actions, *args, **kwargs)
                live = st.phase != T7_DONE
                seen.append(bool((np.bitwise_count(out.astype(np.int64)) >= 2)[live].all()))
                return out
            m.setattr(type(game), "step", counted)
            log = game.outcomes(200)
            st = play_batch(seats, 9, np.arange(200), observer=log, path="stepwise", game=game)
        tables = log.tables(st, [s.label for s in seats])
        got[flag] = (st.data.copy(), tables, steps)
    (d0, t0, s0), (d1, t1, s1) = got[False], got[True]
    assert np.array_equal(d0, d1)
    assert all(t0[k].equals(t1[k]) for k in t0)
    assert len(s1) < len(s0)  # the last trick's cards, mostly
    assert all(s1) and not all(s0)
