"""``observes_by_decision``: a strategy may ask, for some decisions, for fewer fields than
its ``observes`` (the stepwise loop then copies less per decision). Each decision's
method gets exactly its set; a subclass that overrides a method gets ``observes``
everywhere (the sets speak for the class that set them, as ``policy`` does); the loader
and ``check_strategy`` hold strategies to them."""

from __future__ import annotations

from typing import ClassVar

import numpy as np
import pytest

from trixsim.games.trix import GAME as TRIX_RULES
from trixsim.games.trix.cards import lowest_card
from trixsim.games.trix.observation import Observation
from trixsim.sim import play_batch
from trixsim.strategy import Strategy
from trixsim.strategy_find import check_class
from trixsim.strategy_specs import StrategyLoadError
from trixsim.testing import ConformanceError, check_strategy


class Narrow(Strategy):
    """Records the fields each decision's method received; plays its lowest card."""

    name = "narrow"
    game = "trix"
    observes = frozenset({"legal", "key", "hand", "played", "totals", "seat"})
    observes_by_decision: ClassVar = {"play": frozenset({"legal", "played"}),
                                      "place": frozenset({"legal"})}
    seen: ClassVar[dict[str, set[frozenset[str]]]] = {}

    def _note(self, decision: str, obs: Observation) -> None:
        got = frozenset(f for f in TRIX_RULES.observation_fields if f in obs)
        self.seen.setdefault(decision, set()).add(got)

    def pick(self, obs: Observation) -> np.ndarray:
        self._note("pick", obs)
        return lowest_card(obs.legal)

    def declare(self, obs: Observation) -> np.ndarray:
        self._note("declare", obs)
        return np.zeros(len(obs), dtype=np.int64)

    def play(self, obs: Observation) -> np.ndarray:
        self._note("play", obs)
        return lowest_card(obs.legal)

    def place(self, obs: Observation) -> np.ndarray:
        self._note("place", obs)
        return lowest_card(obs.legal)


class Wider(Narrow):
    """Overrides a method: every decision then gets ``observes``."""

    name = "wider"

    def play(self, obs: Observation) -> np.ndarray:
        self._note("play", obs)
        return lowest_card(obs.legal)


def test_each_decision_gets_its_own_fields() -> None:
    Narrow.seen = {}
    play_batch([Narrow()] * 4, 3, range(6), game=TRIX_RULES)
    assert Narrow.seen["play"] == {frozenset({"legal", "played"})}
    assert Narrow.seen["place"] == {frozenset({"legal"})}
    for decision in ("pick", "declare"):
        assert Narrow.seen[decision] == {Narrow.observes}


def test_a_subclass_that_overrides_a_method_gets_observes_everywhere() -> None:
    Wider.seen = {}
    play_batch([Wider()] * 4, 3, range(6), game=TRIX_RULES)
    assert set(Wider.seen) == {"pick", "declare", "play", "place"}
    assert all(s == {Wider.observes} for s in Wider.seen.values())


def test_the_same_games_with_and_without_the_narrower_fields() -> None:
    a = play_batch([Narrow()] * 4, 5, range(20), game=TRIX_RULES)
    b = play_batch([Wider()] * 4, 5, range(20), game=TRIX_RULES)
    assert (a.data == b.data).all()


@pytest.mark.parametrize("by, words", [
    ({"bid": frozenset({"legal"})}, r"names decision\(s\) bid, which trix does not have"),
    ({"play": frozenset({"legal", "trick_n"})}, r"gives 'play' field\(s\) trick_n outside "
                                                r"`observes`"),
])
def test_the_loader_refuses_bad_sets(by: dict, words: str) -> None:
    cls = type("Bad", (Narrow,), {"observes_by_decision": by})
    with pytest.raises(StrategyLoadError, match=words):
        check_class(cls, "Bad", "trix")


def test_unknown_fields_are_refused_where_observes_is_all() -> None:
    cls = type("AllBad", (Narrow,), {"observes": None,
                                     "observes_by_decision": {"play": frozenset({"x"})}})
    with pytest.raises(StrategyLoadError, match=r"unknown observation field\(s\) x"):
        check_class(cls, "AllBad", "trix")


class ReadsOutsideItsSet(Narrow):
    """Reads ``hand`` in play, which its play set leaves out."""

    name = "reads-outside"
    observes_by_decision: ClassVar = {"play": frozenset({"legal", "played"})}

    def play(self, obs: Observation) -> np.ndarray:
        return lowest_card(obs.legal & obs.hand)


def test_check_strategy_gives_each_decision_its_set() -> None:
    check_strategy(Narrow(), games=8, seed=1)
    with pytest.raises(ConformanceError, match=r"failed the observes check: .*'hand' was not "
                                               r"requested.*on decision 'play'"):
        check_strategy(ReadsOutsideItsSet(), games=8, seed=1)


def test_the_heuristic_reads_only_its_sets() -> None:
    check_strategy("heuristic", games=20, seed=2)
