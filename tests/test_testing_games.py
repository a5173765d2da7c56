"""The conformance kit on every game: it passes the honest bundled strategies of Trix and
trump7, catches a strategy that reads hidden cards in both, checks a strategy in the game
it is tagged with (an untagged one in the first registered game, trix), and trusts a
game's re-deals only once they replay to the same public state."""

from __future__ import annotations

import numpy as np
import pytest
from cheats import FrameWalker, Peeker, Trump7FrameWalker, Trump7Peeker, Trump7StockPeeker

from trixsim.games import get_game
from trixsim.games.trump7 import redeal as trump7_redeal
from trixsim.games.trump7.state import COL, HIDDEN, LAYOUT
from trixsim.loading import load_strategy
from trixsim.sim import play_batch
from trixsim.strategy import Strategy
from trixsim.testing import ConformanceError, check_fair_play, check_policy, check_strategy
from trixsim.testing.redeal import History

HONEST = [("trix", "random"), ("trix", "heuristic"), ("trix", "pimc"),
          # a search with inference; fewer worlds than its 64 (fairness does not depend on
          # how many it deals), still minutes
          pytest.param("trix", "expert:worlds=16", marks=pytest.mark.slow),
          ("trix", "expert-policy"), ("trump7", "random"), ("trump7", "heuristic"),
          ("trump7", "pimc"), ("trump7-bid", "random"), ("trump7-bid", "heuristic"),
          ("trump7-bid", "pimc")]


@pytest.mark.parametrize(("game", "spec"), HONEST)
def test_honest_bundled_strategies_play_fair(game: str, spec: str) -> None:
    done = check_fair_play(load_strategy(spec, game), game=game)
    assert done.game == game and done.pairs > 150  # a real check, not an empty one


@pytest.mark.parametrize("game", ["trump7", "trump7-bid"])
@pytest.mark.parametrize("spec", ["random", "heuristic"])
def test_trump7_strategies_keep_the_whole_api(game: str, spec: str) -> None:
    check_strategy(spec, games=40, seed=2, game=game)


def test_trump7_pimc_keeps_the_whole_api() -> None:
    check_strategy(load_strategy("pimc:worlds=2", "trump7"), games=8, seed=1)


@pytest.mark.parametrize(("cheat", "how"), [
    (Trump7Peeker, "its compiled policy"),
    (Trump7StockPeeker, "its compiled policy"),
    (Trump7FrameWalker, "its methods"),
])
def test_a_trump7_strategy_reading_hidden_cards_is_caught(cheat: type[Strategy],
                                                         how: str) -> None:
    with pytest.raises(AssertionError, match=rf"check_fair_play\('{cheat.name}'\) failed the "
                                             rf"hidden cards check: game \d+ \(seed 0\), "
                                             rf"decision 'play' at ply \d+ \(seat \d\): {how} "
                                             rf"answered .* in a deal of the hidden cards "
                                             rf"with the same public history"):
        check_fair_play(cheat())


def test_check_strategy_catches_a_trump7_cheat_too() -> None:
    with pytest.raises(AssertionError, match=r"check_strategy\('peeker7'\) failed the "
                                             r"(compiled policy agreement|hidden cards) check"):
        check_strategy(Trump7Peeker, games=12)
    with pytest.raises(AssertionError, match=r"check_policy\('stock-peeker7'\) failed the "
                                             r"(compiled policy agreement|hidden cards) check"):
        check_policy(Trump7StockPeeker(), games=12)


@pytest.mark.parametrize("game", ["trix", "trump7", "trump7-bid"])
def test_a_cheat_of_any_game_is_caught_in_each(game: str) -> None:
    with pytest.raises(AssertionError, match=r"failed the hidden cards check: .* its methods "
                                             r"answered"):
        check_fair_play(FrameWalker(), game=game)


def test_trix_cheats_are_still_caught() -> None:
    with pytest.raises(AssertionError, match=r"hidden cards check: .* its compiled policy"):
        check_fair_play(Peeker())


# ---------------------------------------------------------------- which game

def test_a_tagged_strategy_is_checked_in_its_game_an_untagged_one_in_trix() -> None:
    assert check_fair_play(load_strategy("heuristic", "trump7"), games=2).game == "trump7"
    assert check_fair_play(Strategy(), games=2).game == "trix"  # the first registered game
    assert check_fair_play(Strategy(), games=2, game="trump7-bid").game == "trump7-bid"
    assert check_fair_play(Strategy(), games=2, game=get_game("trump7")).game == "trump7"


def test_a_strategy_checked_in_another_game_than_its_own_fails_in_one_line() -> None:
    with pytest.raises(ConformanceError, match=r"failed the game check: the strategy plays "
                                               r"trump7, not trix"):
        check_fair_play(load_strategy("heuristic", "trump7"), game="trix")
    with pytest.raises(ConformanceError, match=r"check_strategy\(.*\) failed the game check: "
                                               r"the strategy plays trump7, not trix"):
        check_strategy(type(load_strategy("heuristic", "trump7")), game="trix")
    with pytest.raises(ConformanceError, match=r"failed the loading check"):
        check_strategy("heuristic:bid_scale=2", game="trump7")  # a trump7-bid parameter


# ---------------------------------------------------------------- trump7's re-deals

def _history(game: str, games: int = 6, seed: int = 3) -> History:
    hist = History()
    play_batch([load_strategy("heuristic", game)] * 4, seed, range(games), observer=hist,
               game=get_game(game))
    return hist


@pytest.mark.parametrize("game", ["trump7", "trump7-bid"])
def test_trump7_redeals_keep_what_the_seat_saw_and_move_what_it_did_not(game: str) -> None:
    g = get_game(game)
    hist = _history(game)
    r = g.redeal_pairs(hist.states, hist.actions, np.random.default_rng(0), None)
    assert r.asked == sum(int((s.phase != 2).sum()) for s in hist.states) and len(r) > 0.9 * r.asked
    a, b = r.played.data, r.redealt.data
    public = [c for name, width, _, _ in LAYOUT.fields if name not in HIDDEN
              for c in range(COL[name], COL[name] + width)]
    assert (a[:, public] == b[:, public]).all()  # bids, plays, voids, the turned card's holder
    n = np.arange(len(a))
    me = a[:, COL["turn"]]
    assert (a[n, COL["hands"] + me] == b[n, COL["hands"] + me]).all()
    assert (a[:, COL["hands"]:COL["hands"] + 4] != b[:, COL["hands"]:COL["hands"] + 4]) \
        .any(axis=1).mean() > 0.8
    for i in range(len(a)):  # the seat's own draws are the ones it saw
        k = a[i, COL["stock_n"]]
        for p in range(k):
            rnd, off = divmod(p, 4)
            nxt = COL["trick_log"] + rnd + 1
            w = a[i, nxt] & 0xFF if rnd + 1 < a[i, COL["trick_no"]] else a[i, COL["leader"]]
            if (w + off) % 4 == me[i]:
                assert a[i, COL["stock"] + p] == b[i, COL["stock"] + p]


def _careless_world(s, me, hand, seed, prm, W, work) -> None:  # type: ignore[no-untyped-def]
    """A sampler that ignores voids and the turned card's holder: each other seat gets
    any unseen cards, the stock the rest."""
    gen = np.random.default_rng(int(seed) % 2**32)
    W[0] = s
    pool = [c for c in range(52) if not (int(hand) | int(s[COL["played"]])) >> c & 1]
    gen.shuffle(pool)
    k = 0
    for p in range(4):
        if p == me:
            continue
        size = 7 + int(s[COL["stock_n"]]) // 4 - bin(int(s[COL["played_by"] + p])).count("1")
        W[0, COL["hands"] + p] = sum(1 << c for c in pool[k:k + size])
        k += size
    for j, c in enumerate(pool[k:]):
        W[0, COL["stock"] + int(s[COL["stock_n"]]) + j] = c


def test_redeals_that_do_not_fit_the_public_history_are_rejected_and_counted(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(trump7_redeal, "sample_world", _careless_world)
    g = get_game("trump7")
    hist = _history("trump7", games=4)
    r = g.redeal_pairs(hist.states, hist.actions, np.random.default_rng(1), None)
    assert r.rejected > 50 and any("no order of draws fits" in why for why in r.reasons)
    public = [c for name, width, _, _ in LAYOUT.fields if name not in HIDDEN
              for c in range(COL[name], COL[name] + width)]
    assert len(r) > 0 and (r.played.data[:, public] == r.redealt.data[:, public]).all()


def test_a_game_whose_redeals_all_fail_fails_the_kit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(trump7_redeal, "_replay", lambda start, pack, actions: (False, start))
    with pytest.raises(ConformanceError, match=r"failed the re-deals check: every one of the "
                                               r"\d+ re-deals trump7 drew for \d+ decisions "
                                               r"was rejected \(\d+ x the game replayed "
                                               r"through the rules"):
        check_fair_play(load_strategy("random", "trump7"), games=2, game="trump7")


def test_a_trump7_observation_that_leaks_fails_the_public_observation_check(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import trixsim.games.trump7.game as game_module

    real = game_module.observe

    def leaky(st, idx, legal, fields=None, viewer=None):  # type: ignore[no-untyped-def]
        obs = real(st, idx, legal, fields, viewer)
        if "stock_left" not in obs:
            return obs
        f = {k: np.array(v) for k, v in obs._f.items()}
        nxt = st.stock[np.asarray(idx), np.minimum(st.stock_n[np.asarray(idx)], 23)]
        f["stock_left"] = f["stock_left"] + 100 * (nxt // 13 == st.trump[np.asarray(idx)])
        return type(obs)(f)

    monkeypatch.setattr(game_module, "observe", leaky)
    with pytest.raises(AssertionError, match=r"failed the (public observation|hidden cards) "
                                             r"check: .*'stock_left'"):
        check_fair_play(Strategy(), game="trump7")


def _broken_redeals(monkeypatch: pytest.MonkeyPatch, breaks) -> None:  # type: ignore[no-untyped-def]
    """trump7 whose ``redeal_pairs`` is spoiled by ``breaks(redeals)`` afterwards."""
    from trixsim.games.trump7.game import Trump7Game

    real = Trump7Game.redeal_pairs

    def spoiled(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        return breaks(real(self, *args, **kwargs))

    monkeypatch.setattr(Trump7Game, "redeal_pairs", spoiled)


def test_the_kit_refuses_redeals_that_change_what_the_seat_holds(
        monkeypatch: pytest.MonkeyPatch) -> None:
    def swap(r):  # type: ignore[no-untyped-def]
        b = r.redealt
        me = b.turn.copy()
        n = np.arange(b.batch_size)
        mine, theirs = b.hands[n, me].copy(), b.hands[n, (me + 1) % 4].copy()
        b.hands[n, me], b.hands[n, (me + 1) % 4] = theirs, mine
        return r
    _broken_redeals(monkeypatch, swap)
    with pytest.raises(ConformanceError, match=r"failed the re-deals check: pair 0 of trump7 "
                                               r"\(game \d+, decision 'play' at ply \d+ "
                                               r"\(seat \d\)\): the viewer's own hand differs"):
        check_fair_play(Strategy(), games=2, game="trump7")


def test_the_kit_refuses_redeals_that_move_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    import dataclasses

    _broken_redeals(monkeypatch, lambda r: dataclasses.replace(r, redealt=r.played.copy()))
    with pytest.raises(ConformanceError, match=r"failed the re-deals check: none of the \d+ "
                                               r"re-deals of trump7 moved a card of another "
                                               r"seat's hand"):
        check_fair_play(Strategy(), games=2, game="trump7")
