"""docs/adding-a-game.md's worked example, a third game (docs/examples/highcard.py), goes
through the registry, the protocol's checks, play, run, check, compare and report with no
change to trixsim."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from trixsim import games
from trixsim.cli import cli
from trixsim.loading import load_strategy
from trixsim.sim import play_batch
from trixsim.testing import check_fair_play, check_game, check_strategy

EXAMPLE = Path(__file__).resolve().parents[1] / "docs" / "examples" / "highcard.py"
CHEAP = f"{EXAMPLE}:CheapWinner"


@pytest.fixture
def highcard(monkeypatch: pytest.MonkeyPatch) -> Iterator[object]:
    """highcard registered as its entry point would register it (``BUILTIN`` stands in for
    the installed metadata)."""
    monkeypatch.syspath_prepend(str(EXAMPLE.parent))
    monkeypatch.setitem(games.BUILTIN, "highcard", "highcard:GAME")
    games._targets.cache_clear()
    games.get_game.cache_clear()
    yield games.get_game("highcard")
    monkeypatch.delitem(games.BUILTIN, "highcard")
    games._targets.cache_clear()
    games.get_game.cache_clear()


def test_the_example_keeps_the_protocol(highcard: object) -> None:
    assert "highcard" in games.game_names()
    check_game(highcard, games=30, seed=2, events=highcard.event_log())  # type: ignore[attr-defined]
    seats = [load_strategy(CHEAP, "highcard"), load_strategy("random", "highcard")] * 2
    st = play_batch(seats, 5, range(100), game=highcard)  # type: ignore[arg-type]
    points = highcard.final_scores(st)  # type: ignore[attr-defined]
    assert (points.sum(axis=1) == 3).all()
    assert points[:, 0].mean() > points[:, 1].mean()  # keeping high cards pays


def test_the_example_builds_on_the_shared_helpers(highcard: object) -> None:
    """The page's claim that a game writes only its own rules: the state, observation and
    Game boilerplate come from trixsim.gamekit, and an observation has only what was asked."""
    from trixsim.gamekit.game import CompiledGame
    from trixsim.gamekit.state import BatchState

    assert isinstance(highcard, CompiledGame)
    st = highcard.init(3, np.arange(5))  # type: ignore[attr-defined]
    assert isinstance(st, BatchState) and st.take(np.array([1, 3])).batch_size == 2
    legal = highcard.legal_action_mask(st)  # type: ignore[attr-defined]
    obs = highcard.strategy_view(st, np.arange(5), legal,  # type: ignore[attr-defined]
                                 frozenset({"legal", "table", "hand"}))
    assert (obs.table == -1).all() and (obs.hand == st.hands[:, 0]).all()
    with pytest.raises(AttributeError, match="was not requested"):
        obs.points  # noqa: B018
    assert highcard.decision(st).tolist() == [0] * 5  # type: ignore[attr-defined]


def test_run_check_compare_and_report_play_the_example(highcard: object,
                                                       tmp_path: Path) -> None:
    runner = CliRunner()
    res = runner.invoke(cli, ["run", "--game", "highcard", "-n", "60", "-j", "1", "-q",
                              "-s", "random", "-o", str(tmp_path / "run")])
    assert res.exit_code == 0, res.output
    assert json.loads((tmp_path / "run" / "run.json").read_text())["game"] == "highcard"
    res = runner.invoke(cli, ["check", str(tmp_path / "run")])
    assert res.exit_code == 0 and "60 games, points, winners and losers by the rules" in res.output
    res = runner.invoke(cli, ["compare", "--game", "highcard", CHEAP, "random", "-n", "200",
                              "-j", "1", "-q", "--no-plots", "-o", str(tmp_path / "cmp")])
    assert res.exit_code == 0, res.output
    assert "CheapWinner is better (higher points)" in res.output
    res = runner.invoke(cli, ["report", str(tmp_path / "cmp"), "-o", str(tmp_path / "rep")])
    assert res.exit_code == 0, res.output
    assert "# highcard strategy report" in (tmp_path / "rep" / "report.md").read_text()


def test_a_strategy_of_the_example_is_refused_elsewhere(highcard: object) -> None:
    from trixsim.loading import StrategyLoadError

    with pytest.raises(StrategyLoadError, match="plays highcard, not trump7"):
        load_strategy(CHEAP, "trump7")
    assert np.array_equal(highcard.winners_losers(np.array([[1, 2, 0, 0]]))[0],  # type: ignore[attr-defined]
                          [[False, True, False, False]])


def test_the_kit_checks_the_example_s_strategies_and_their_fair_play(highcard: object) -> None:
    """The conformance kit plays highcard through the protocol: CheapWinner (tagged
    highcard) and random keep the strategy API and play fair; a bot that walks the frames
    to the other hands is caught."""
    from cheats import FrameWalker

    check_strategy(CHEAP, games=30, game="highcard")
    check_strategy("random", games=30, game=highcard)
    done = check_fair_play(load_strategy(CHEAP, "highcard"))
    assert done.game == "highcard" and done.pairs > 30 and done.rejected == 0
    with pytest.raises(AssertionError, match=r"check_fair_play\('frame-walker'\) failed the "
                                             r"hidden cards check: game \d+ \(seed 0\), "
                                             r"decision 'play' at ply \d+ \(seat \d\): its "
                                             r"methods answered"):
        check_fair_play(FrameWalker(), game="highcard")


def test_a_game_without_redeals_opts_out_of_fair_play_in_words(highcard: object) -> None:
    """A game may leave out ``redeal_pairs``: check_strategy then checks the rest and
    warns, and check_fair_play fails in one line naming the missing method."""
    opted_out = type(highcard)()
    opted_out.redeal_pairs = None  # type: ignore[attr-defined]
    with pytest.warns(UserWarning, match=r"highcard offers no re-deals of its hidden cards "
                                         r"\(Game.redeal_pairs\), so fair play was not "
                                         r"checked"):
        check_strategy(CHEAP, games=20, game=opted_out)
    with pytest.raises(AssertionError, match=r"failed the re-deals check: highcard offers no "
                                             r"re-deals"):
        check_fair_play(load_strategy(CHEAP, "highcard"), game=opted_out)
