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
from trixsim.testing import check_game

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
