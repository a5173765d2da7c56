"""The conformance kit: it passes for every bundled strategy and for the engine, and each
deliberately broken strategy (or engine call) fails it with a message naming what broke."""

from __future__ import annotations

import sys

import numpy as np
import pytest
from cheats import Peeker

from trixsim.games.trix import GAME as TRIX_RULES
from trixsim.games.trix import GameState, IllegalActionError, Observation
from trixsim.games.trix import conformance as engine_check
from trixsim.games.trix.adapter import adapt
from trixsim.games.trix.cards import KING_OF_HEARTS, choose_uniform, highest_card, lowest_card
from trixsim.games.trix.conformance import check_game_engine
from trixsim.games.trix.policy import C
from trixsim.games.trix.state import COL
from trixsim.games.trix.types import GENERAL, PLAY, RAY
from trixsim.loading import bundled
from trixsim.strategy import Param, Strategy
from trixsim.testing import ConformanceError, check_fair_play, check_strategy

GAMES = 12
"""Enough games for every decision to come up (most broken bots fail at once anyway)."""


# ---------------------------------------------------------------- passing

@pytest.mark.parametrize("name", ["random", "heuristic"])
def test_bundled_strategies_pass_at_the_defaults(name: str) -> None:
    check_strategy(name)


FEW_WORLDS = {"expert": "expert:worlds=4,infer=2"}
"""Searches whose every decision takes milliseconds at the defaults: the API checks do not
depend on how many worlds they deal."""


@pytest.mark.parametrize("name", sorted(set(bundled()) - {"random", "heuristic"}))
def test_every_bundled_variant_passes(name: str) -> None:
    check_strategy(FEW_WORLDS.get(name, name), games=12, seed=3)


class _LowestBot:
    """A one-game bot for the adapter: plays its lowest legal card."""

    def play(self, view) -> int:
        return min(view.legal)


@pytest.mark.parametrize("given", [
    pytest.param(lambda: bundled()["heuristic"], id="class"),
    pytest.param(lambda: bundled()["heuristic"](declare_margin=5.0), id="instance"),
    pytest.param(lambda: "heuristic:trix_by_pick=4,lead_guard=0", id="spec"),
    pytest.param(lambda: adapt(_LowestBot, name="lowest"), id="adapted"),
])
def test_classes_instances_specs_and_adapted_bots_pass(given) -> None:
    check_strategy(given(), games=8, seed=1)


def test_the_game_engine_passes() -> None:
    check_game_engine()


def test_failures_are_assertion_errors() -> None:
    assert issubclass(ConformanceError, AssertionError)


# ---------------------------------------------------------------- broken strategies

class IllegalCard(Strategy):
    """Plays the lowest card it may not play."""

    name = "illegal-card"
    observes = frozenset({"legal", "key"})

    def play(self, obs: Observation) -> np.ndarray:
        return lowest_card(~obs.legal & 0xFFFFFFFF)  # a hand never holds all 32 cards


class WrongShape(Strategy):
    """Answers a column instead of a vector."""

    name = "wrong-shape"

    def play(self, obs: Observation) -> np.ndarray:
        return lowest_card(obs.legal).reshape(-1, 1)


class FloatAnswers(Strategy):
    """Answers floats."""

    name = "float-answers"

    def declare(self, obs: Observation) -> np.ndarray:
        return np.zeros(len(obs))


class Unseeded(Strategy):
    """Draws from its own unseeded generator instead of obs.key."""

    name = "unseeded"

    def __init__(self, **values: object) -> None:
        super().__init__(**values)
        self.gen = np.random.default_rng()

    def play(self, obs: Observation) -> np.ndarray:
        keys = self.gen.integers(0, 2**63, len(obs), dtype=np.uint64)
        return choose_uniform(obs.legal, keys)


class Counting(Strategy):
    """Deterministic per seed, but its answers depend on how often it was called before."""

    name = "counting"

    def __init__(self, **values: object) -> None:
        super().__init__(**values)
        self.calls = 0

    def play(self, obs: Observation) -> np.ndarray:
        self.calls += 1
        return lowest_card(obs.legal) if self.calls % 2 else highest_card(obs.legal)


class BatchSize(Strategy):
    """Plays low or high depending on how many games are in the observation."""

    name = "batch-size"

    def play(self, obs: Observation) -> np.ndarray:
        return lowest_card(obs.legal) if len(obs) % 2 else highest_card(obs.legal)


class BatchPosition(Strategy):
    """Plays low in even rows of the batch, high in odd rows."""

    name = "batch-position"

    def play(self, obs: Observation) -> np.ndarray:
        even = np.arange(len(obs)) % 2 == 0
        return np.where(even, lowest_card(obs.legal), highest_card(obs.legal))


class Mutating(Strategy):
    """Clears the lowest legal bit in the observation it was given (in place)."""

    name = "mutating"

    def play(self, obs: Observation) -> np.ndarray:
        legal = obs.legal
        out = lowest_card(legal)
        legal.flags.writeable = True
        legal &= legal - 1
        return out


class ReadsUndeclared(Strategy):
    """Declares only legal and key but reads its hand in trix."""

    name = "reads-undeclared"
    observes = frozenset({"legal", "key"})

    def place(self, obs: Observation) -> np.ndarray:
        return lowest_card(obs.legal & obs.hand)


class Raises(Strategy):
    """Fails on the first declaration it is asked."""

    name = "raises"

    def declare(self, obs: Observation) -> np.ndarray:
        raise RuntimeError("no idea")


class NoneDefault(Strategy):
    """A parameter whose default (None) gives it no usable type."""

    name = "none-default"
    params = {"depth": Param(None, "search depth")}


class ListDefault(Strategy):
    """A parameter whose default is a list, which no command line or TOML value becomes."""

    name = "list-default"
    params = {"weights": Param([1.0, 2.0], "weights")}


class NoDoc(Strategy):
    """A parameter without documentation."""

    name = "no-doc"
    params = {"margin": Param(3, "")}


@pytest.mark.parametrize(("cls", "message"), [
    (IllegalCard, r"check_strategy\('illegal-card'\) failed the legal actions check: "
                  r"strategy 'illegal-card' \(seat \d\) returned illegal action \d+ \(\w+\) on "
                  r"decision 'play' in game \d+.*\(legal: .*; the strategy in all four seats, "
                  r"one batch, games 0-11, seed 0\. Choose among the set bits of obs\.legal"),
    (WrongShape, r"failed the answer shape and dtype check: it returned shape \(\d+, 1\) for "
                 r"\d+ games on decision 'play' \(first game \d+, actions \["),
    (FloatAnswers, r"failed the answer shape and dtype check: it returned float64 actions, "
                   r"not integers, on decision 'declare' \(game \d+"),
    (Unseeded, r"check_strategy\('unseeded'\) failed the determinism check: in game \d+ the "
               r"strategy answered decision 'play' at ply \d+ \(seat \d\) with \d+ \(\w+\) in "
               r"the first play but with \d+ \(\w+\) in a second play of the same games "
               r"\(seed 0\)\. Draw randomness only from obs\.key"),
    (Counting, r"failed the (determinism|batch independence) check: in game \d+ the strategy "
               r"answered decision 'play'"),
    (BatchSize, r"failed the batch independence check: in game \d+ the strategy answered "
                r"decision 'play' at ply \d+ \(seat \d\) with .* in one batch of \d+ but "
                r"with .* in batches of 7 \(seed 0\)\. Decide each game from its own row"),
    (BatchPosition, r"failed the batch independence check: in game \d+ .* in one batch of \d+ "
                    r"in order but with .* in one batch in shuffled order"),
    (Mutating, r"check_strategy\('mutating'\) failed the observation mutation check: it "
               r"changed observation field 'legal' on decision 'play' in game \d+ \(from \d+ "
               r"to \d+\); the strategy in all four seats, one batch, games 0-11, seed 0\. "
               r"Treat observations as read-only"),
    (ReadsUndeclared, r"failed the observes check: strategy 'reads-undeclared' raised "
                      r"AttributeError: observation field 'hand' was not requested: add it to "
                      r"the strategy's `observes` \(and to this decision's set in its "
                      r"`observes_by_decision`, if it has one\) on decision 'place' \(first "
                      r"game of the "
                      r"batch: \d+\)"),
    (Raises, r"failed the exceptions check: strategy 'raises' raised RuntimeError: no idea on "
             r"decision 'declare'"),
    (NoneDefault, r"check_strategy\('none-default'\) failed the params check: parameter "
                  r"'depth' has default None of type NoneType, which cannot be given on the "
                  r"command line or in TOML\. Declare each parameter as Param\(default, doc\)"),
    (ListDefault, r"failed the params check: parameter 'weights' has default \[1\.0, 2\.0\] of "
                  r"type list"),
    (NoDoc, r"failed the params check: parameter 'margin' has no doc string"),
])
def test_broken_strategies_fail_naming_the_check(cls: type[Strategy], message: str) -> None:
    with pytest.raises(AssertionError, match=message) as err:
        check_strategy(cls, games=GAMES)
    assert "\n" not in str(err.value)


def test_an_undeclared_field_named_in_observes_fails_to_load() -> None:
    class Typo(Strategy):
        name = "typo"
        observes = frozenset({"legal", "key", "hnad"})

    with pytest.raises(AssertionError, match=r"failed the loading check: .*`observes` names "
                                             r"unknown observation fields hnad"):
        check_strategy(Typo)


def test_an_unknown_spec_fails_to_load() -> None:
    with pytest.raises(AssertionError, match=r"failed the loading check: unknown strategy "
                                             r"'no-such-bot'"):
        check_strategy("no-such-bot")


# ---------------------------------------------------------------- broken engine calls

def test_an_engine_that_accepts_illegal_actions_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    real = engine_check._apply

    def lenient(st, actions):
        try:
            return real(st, actions)
        except IllegalActionError:
            return engine_check._legal(st)

    monkeypatch.setattr(engine_check, "_apply", lenient)
    with pytest.raises(AssertionError, match=r"check_game_engine\(games=4, seed=0\) failed the "
                                             r"illegal actions refused check: illegal action "
                                             r".* was accepted in game \d+ at ply 0"):
        check_game_engine(games=4)


def test_a_leaking_observation_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    real = engine_check._observation

    def leaky(st, idx, legal, viewer=None):
        out = real(st, idx, legal, viewer)
        out["hand_sizes"] = st.hands[idx].astype(np.int64)  # the hands, not their sizes
        return out

    monkeypatch.setattr(engine_check, "_observation", leaky)
    with pytest.raises(AssertionError, match=r"failed the scrubbed observations check: field "
                                             r"'hand_sizes' of the observation of the seat to "
                                             r"act changed with the other seats' hands only"):
        check_game_engine(games=4)


def test_totals_off_the_1000_rule_fail(monkeypatch: pytest.MonkeyPatch) -> None:
    real = engine_check._scores

    def off(st):
        done, points, totals = real(st)
        return done, points, np.where(totals == 0, totals, totals + 1)

    monkeypatch.setattr(engine_check, "_scores", off)
    with pytest.raises(AssertionError, match=r"failed the totals check: after contract 1 the "
                                             r"totals are .*, not the previous totals plus the "
                                             r"points .* with the 1000 rule"):
        check_game_engine(games=4)


def test_the_trix_game_passes_the_game_check() -> None:
    from trixsim.games import get_game
    from trixsim.games.trix.events import EventLog
    from trixsim.testing import check_game

    check_game(get_game("trix"), games=12, seed=3, events=EventLog())


def test_a_game_whose_reasons_disagree_with_its_masks_fails() -> None:
    from trixsim.games.trix import TrixGame
    from trixsim.testing import check_game

    class Lenient(TrixGame):
        def why_illegal(self, state, game, action):  # type: ignore[no-untyped-def]
            return None if action == 0 else super().why_illegal(state, game, action)

    with pytest.raises(AssertionError, match=r"check_game\('trix'\) failed the why_illegal "
                                             r"check: game \d+, action 0: the mask says illegal"):
        check_game(Lenient(), games=4)


def test_a_game_whose_advance_plays_a_choice_fails() -> None:
    """A game that ``advances`` but, advancing, also takes a decision that was a seat's
    choice (the lowest legal action) plays other games than stepping: the kit says so."""
    from trixsim.games.trix import TrixGame
    from trixsim.testing import check_game

    class Hasty(TrixGame):
        def step(self, state, actions, events=None, legal=None, advance=False):  # type: ignore[no-untyped-def]
            out = super().step(state, actions, events, legal, advance)
            if advance:
                live = state.phase != 4
                if live.any():
                    m = out.astype(np.int64)
                    low = np.where(m != 0, np.log2(np.maximum(m & -m, 1)).astype(np.int64), 0)
                    out = super().step(state, low, events, out, advance)
            return out

    with pytest.raises(AssertionError, match=r"check_game\('trix'\) failed the advance "
                                             r"check: step\(\.\.\., advance=True\) played "
                                             r"other games"):
        check_game(Hasty(), games=4)


# ---------------------------------------------------------------- fair play

_H, _PB, _SEAT = COL["hands"], COL["played_by"], C["seat"]


def _quiet_counting_observe(real):
    """``observe`` as the engine once made it: ``ply`` also counting a K♥ holder's quiet
    answer, which the other seats never see (their observation then tells whether the
    silent holder has had its turn)."""
    def leaky(st, idx, legal, fields=None, viewer=None):
        obs = real(st, idx, legal, fields, viewer)
        if "ply" not in obs:
            return obs
        rows = st.data[np.asarray(idx)]
        held = rows[:, _H:_H + 4] | rows[:, _PB:_PB + 4]
        holder = ((held >> KING_OF_HEARTS) & 1).argmax(axis=1)
        n = np.arange(len(rows))
        asked = (rows[:, _PB:_PB + 4][n, holder] != 0) | (
            (rows[:, COL["turn"]] == holder) & (rows[:, COL["phase"]] == PLAY))
        quiet = (np.isin(rows[:, COL["contract"]], (RAY, GENERAL))
                 & (rows[:, COL["declared"]] < 0) & asked)
        fields = {k: np.array(v) for k, v in obs._f.items()}
        fields["ply"] = fields["ply"] + quiet
        return Observation(fields)
    return leaky


@pytest.fixture
def quiet_counting_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    """The engine with the old, leaking ``ply`` (for the strategies and for the kit, which
    compares the observations strategies receive)."""
    import trixsim.games.trix.game as game_module

    monkeypatch.setattr(game_module, "observe", _quiet_counting_observe(game_module.observe))


class PlyParity(Strategy):
    """Plays its lowest or highest card by the parity of ``ply``: fair with a public
    ``ply``, a reader of hidden cards where ``ply`` counts a quiet K♥ question."""

    name = "ply-parity"
    observes = frozenset({"legal", "key", "ply"})

    def play(self, obs: Observation) -> np.ndarray:
        return np.where(obs.ply % 2 == 0, lowest_card(obs.legal), highest_card(obs.legal))


class Lowest(Strategy):
    """Always its lowest legal action: reads nothing but ``legal``."""

    name = "lowest"
    observes = frozenset({"legal"})

    def pick(self, obs: Observation) -> np.ndarray:
        return lowest_card(obs.legal)

    def declare(self, obs: Observation) -> np.ndarray:
        return lowest_card(obs.legal)

    def play(self, obs: Observation) -> np.ndarray:
        return lowest_card(obs.legal)

    def place(self, obs: Observation) -> np.ndarray:
        return lowest_card(obs.legal)


class FrameWalker(Strategy):
    """A methods-only bot that walks up the interpreter's frames to the game state and
    plays a heart whenever the next seat holds hearts: it sees the hidden cards."""

    name = "frame-walker"
    observes = frozenset({"legal", "seat", "key"})

    def play(self, obs: Observation) -> np.ndarray:
        frame = sys._getframe(1)
        while frame is not None:
            st, idx = frame.f_locals.get("state"), frame.f_locals.get("idx")
            if isinstance(st, GameState) and idx is not None:
                nxt = st.hands[np.asarray(idx), (obs.seat + 1) % 4].astype(np.int64)
                hearts = obs.legal & np.where(nxt & 0xFF, 0xFF, 0)
                return np.where(hearts != 0, lowest_card(hearts | (hearts == 0)),
                                choose_uniform(obs.legal, obs.key))
            frame = frame.f_back
        return choose_uniform(obs.legal, obs.key)


def test_public_ply_parity_is_fair() -> None:
    check_fair_play(PlyParity())


def test_a_strategy_reading_a_leaking_ply_parity_is_caught(quiet_counting_engine) -> None:
    with pytest.raises(AssertionError, match=r"check_fair_play\('ply-parity'\) failed the "
                                             r"hidden cards check: game \d+ \(seed 0\), "
                                             r"decision 'play' at ply \d+ \(seat \d\): its "
                                             r"methods answered .* in a deal of the hidden "
                                             r"cards with the same public history .*; the "
                                             r"observation itself changed in field\(s\) 'ply'"):
        check_fair_play(PlyParity())


def test_an_engine_leaking_through_ply_fails_even_a_blind_strategy(
        quiet_counting_engine) -> None:
    with pytest.raises(AssertionError, match=r"failed the public observation check: .* field "
                                             r"'ply' of the deciding seat's observation "
                                             r"changed in a deal of the hidden cards"):
        check_fair_play(Lowest())


def test_a_compiled_policy_reading_the_redealt_cards_is_caught() -> None:
    with pytest.raises(AssertionError, match=r"failed the hidden cards check: .* its compiled "
                                             r"policy answered .* in a deal of the hidden "
                                             r"cards with the same public history"):
        check_fair_play(Peeker())


def test_a_methods_only_bot_walking_frames_to_the_hidden_cards_is_caught() -> None:
    with pytest.raises(AssertionError, match=r"check_strategy\('frame-walker'\) failed the "
                                             r"hidden cards check: .* its methods answered .* "
                                             r"in a deal of the hidden cards with the same "
                                             r"public history"):
        check_strategy(FrameWalker, games=GAMES)


def test_an_engine_whose_ply_counts_a_quiet_holder_fails_the_public_history_check(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The engine check's re-deals catch the old ``ply`` (the in-row shuffle of the
    scrubbed-observations check could not: it leaves ``ply`` alone)."""
    from trixsim.games.trix.redeal import History
    from trixsim.sim import play_batch

    monkeypatch.setattr(engine_check, "observe", _quiet_counting_observe(engine_check.observe))
    hist = History(4)
    play_batch([Strategy()] * 4, 0, range(4), observer=hist, game=TRIX_RULES)
    with pytest.raises(AssertionError, match=r"failed the public history check: field 'ply' "
                                             r"of the observation of (the seat to act|waiting "
                                             r"seat \d) changed when the cards hidden from it "
                                             r"were dealt anew consistently with the public "
                                             r"history"):
        engine_check._check_public_history("check_game_engine()", hist, 0)


# ---------------------------------------------------------------- the trix history

def _patched_observe(monkeypatch: pytest.MonkeyPatch, change) -> None:  # type: ignore[no-untyped-def]
    """The engine with ``change(fields, st, idx)`` applied to every observation that has
    the trix history (for the strategies and for the kit)."""
    import trixsim.games.trix.game as game_module

    real = game_module.observe

    def patched(st, idx, legal, fields=None, viewer=None):  # type: ignore[no-untyped-def]
        obs = real(st, idx, legal, fields, viewer)
        if "trix_log" not in obs or "trix_n" not in obs:
            return obs
        f = {k: np.array(v) for k, v in obs._f.items()}
        change(f, st, np.asarray(idx))
        return Observation(f)

    monkeypatch.setattr(game_module, "observe", patched)


def test_a_trix_history_that_reveals_hidden_cards_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    def leak(f, st, idx):  # type: ignore[no-untyped-def]
        f["trix_log"][:, 15] ^= st.hands[idx, (st.turn[idx] + 1) % 4]  # the next hand
    _patched_observe(monkeypatch, leak)
    with pytest.raises(AssertionError, match=r"check_fair_play\('lowest'\) failed the public "
                                             r"observation check: .* field 'trix_log' of the "
                                             r"deciding seat's observation changed in a deal "
                                             r"of the hidden cards"):
        check_fair_play(Lowest())


def test_a_trix_history_that_drops_a_move_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    def drop(f, st, idx):  # type: ignore[no-untyped-def]
        f["trix_n"] = np.maximum(f["trix_n"] - 1, 0)  # the last placement or pass lost
    _patched_observe(monkeypatch, drop)
    with pytest.raises(AssertionError, match=r"check_fair_play\('lowest'\) failed the public "
                                             r"observation check: game \d+, decision 'place' "
                                             r"at ply \d+ \(seat \d\): the observation's trix "
                                             r"history \(trix_log, trix_n\) holds .* but the "
                                             r"contract's placements and passes were"):
        check_fair_play(Lowest())


def test_the_kit_reads_the_trix_history_the_strategies_get() -> None:
    from trixsim.games.trix.redeal import redeal_pairs
    from trixsim.games.trix.types import PLACE
    from trixsim.sim import play_batch
    from trixsim.testing.redeal import History

    hist = History()
    play_batch([Lowest()] * 4, 0, range(8), observer=hist, game=TRIX_RULES)
    r = redeal_pairs(hist.states, hist.actions, np.random.default_rng(0), None)
    placing = r.played.phase == PLACE
    assert not r.problems and placing.sum() > 100
    assert (r.played.trix_n[placing] > 0).mean() > 0.5  # histories of real length checked


def test_the_engine_check_reads_the_trix_history_against_the_moves(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from trixsim.games.trix.redeal import History
    from trixsim.sim import play_batch

    hist = History(3)
    play_batch([Strategy()] * 4, 0, range(3), observer=hist, game=TRIX_RULES)
    engine_check._check_public_history("check_game_engine()", hist, 0)  # as played: fine

    def drop(f, st, idx):  # type: ignore[no-untyped-def]
        f["trix_n"] = np.maximum(f["trix_n"] - 1, 0)
    _patched_observe(monkeypatch, drop)
    with pytest.raises(AssertionError, match=r"check_game_engine\(\) failed the public history "
                                             r"check: game \d+, decision 'place' at ply \d+ "
                                             r"\(seat \d, seed 0\): the observation's trix "
                                             r"history \(trix_log, trix_n\) holds"):
        engine_check._check_public_history("check_game_engine()", hist, 0)
