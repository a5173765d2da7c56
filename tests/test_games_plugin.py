"""Games as plug-ins: the registry, the protocol every registered game keeps, strategies
tagged by game, and a run of a second game through run and check."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from trixsim.cli import cli
from trixsim.games import UnknownGameError, game_names, get_game
from trixsim.loading import StrategyLoadError, load_strategy
from trixsim.sim import play_batch
from trixsim.strategy import Strategy
from trixsim.testing import check_game


@pytest.mark.parametrize("name", game_names())
def test_every_registered_game_keeps_the_protocol(name: str) -> None:
    game = get_game(name)
    check_game(game, games=12, seed=4, events=game.event_log())
    assert isinstance(game.higher_is_better, bool)
    assert "games" in game.table_schemas
    assert {"legal", "key"} <= set(game.observation_fields)
    assert set(game.describe_observation()) == set(game.observation_fields)
    assert all(d.id == i for i, d in enumerate(game.decisions))
    rnd = load_strategy("random", name)
    outcomes = game.outcomes(8)
    st = play_batch([rnd] * 4, 3, range(8), observer=outcomes, game=game)
    tables = outcomes.tables(st, ["random"] * 4)
    assert set(tables) == set(game.table_schemas)
    scores = game.final_scores(st)
    assert scores.shape == (8, game.n_seats)
    win, lose = game.winners_losers(scores)
    best = scores.max(axis=1) if game.higher_is_better else scores.min(axis=1)
    assert (scores[win] == np.repeat(best, win.sum(axis=1))).all()
    frames = {t: tables[t].to_pandas() for t in tables}
    assert game.verify_tables(frames, 0, 8, {t: len(f) for t, f in frames.items()}) == []


def test_unknown_game_is_one_line() -> None:
    with pytest.raises(UnknownGameError, match=r"unknown game 'trump8'; did you mean"):
        get_game("trump8")


def test_the_base_strategy_answers_any_decision_stepwise() -> None:
    """trump7-bid's ``bid`` decision, which the base class has no method for, is answered
    uniformly; a strategy that defines ``bid`` is asked for it."""

    class AlwaysZero(Strategy):
        name = "zero-bidder"
        game = "trump7-bid"
        policy = None

        def bid(self, obs: object) -> np.ndarray:
            return np.zeros(len(obs), dtype=np.int64)  # type: ignore[arg-type]

    game = get_game("trump7-bid")
    st = play_batch([AlwaysZero()] * 4, 1, range(6), path="stepwise", game=game)
    assert (st.bids == 0).all()
    plain = play_batch([Strategy()] * 4, 1, range(6), path="stepwise", game=game)
    fast = play_batch([Strategy()] * 4, 1, range(6), path="compiled", game=game)
    assert np.array_equal(plain.points, fast.points)


def test_a_strategy_of_another_game_is_refused_in_one_line(tmp_path: Path) -> None:
    bot = tmp_path / "trixbot.py"
    bot.write_text("from trixsim.strategy import Strategy\n\n\n"
                   "class TrixBot(Strategy):\n    name = 'trixbot'\n    game = 'trix'\n")
    with pytest.raises(StrategyLoadError, match=r"^strategy '.*trixbot.py:TrixBot' plays "
                                                 r"trix, not trump7 \(strategies of trump7: "
                                                 r"trixsim strategies --game trump7\)$"):
        load_strategy(f"{bot}:TrixBot", "trump7")
    with pytest.raises(StrategyLoadError, match=r"^strategy 'heuristic' exists for several "
                                                 r"games \(trix, trump7, trump7-bid\): name "
                                                 r"the game \(--game\)$"):
        load_strategy("heuristic")

    class TrixOnly(Strategy):
        name = "untagged"

        def pick(self, obs: object) -> object:
            return super().pick(obs)  # type: ignore[arg-type]

    from trixsim.loading import check_class

    with pytest.raises(StrategyLoadError, match="answers decision.s. pick, which trump7"):
        check_class(TrixOnly, "strategy 'untagged'", "trump7")


def test_strategies_lists_a_games_bots() -> None:
    res = CliRunner().invoke(cli, ["strategies", "--game", "trump7", "--json"])
    assert res.exit_code == 0, res.output
    listed = json.loads(res.output)
    assert [(s["name"], s["game"]) for s in listed] == [("heuristic", "trump7"),
                                                         ("pimc", "trump7"),
                                                         ("random", None)]
    res = CliRunner().invoke(cli, ["strategies", "--game", "chess"])
    assert res.exit_code == 2 and "unknown game 'chess'" in res.output


def test_a_trump7_run_names_its_game_and_checks_by_its_rules(tmp_path: Path) -> None:
    out = tmp_path / "t7"
    runner = CliRunner()
    res = runner.invoke(cli, ["run", "--game", "trump7", "-n", "300", "-j", "1", "-q",
                               "-o", str(out)])
    assert res.exit_code == 0, res.output
    assert "(higher is better)" in res.output and "games/" in res.output
    meta = json.loads((out / "run.json").read_text())
    assert meta["game"] == "trump7" and meta["format"] == "trixsim-run/3"
    assert sorted(p.name for p in out.iterdir() if p.is_dir()) == ["games"]
    res = runner.invoke(cli, ["check", str(out)])
    assert res.exit_code == 0, res.output
    assert "points from tricks, honours and bids" in res.output
    # a tampered points column, with its checksum made to match, is found by the rules
    from trixsim.runfolder import data_digest, encode_table, read_run, write_run_json

    chunk = meta["chunks"][0]
    path = out / chunk["games_file"]
    table = pq.read_table(path).to_pandas()
    table.loc[0, "points_0"] += 1
    import pyarrow as pa

    blob = encode_table(pa.Table.from_pandas(table, preserve_index=False))
    path.write_bytes(blob)
    meta = read_run(out)
    meta["chunks"][0]["sha256"]["games"] = data_digest(blob)
    meta["chunks"][0]["bytes"]["games"] = len(blob)
    write_run_json(out, meta)
    res = runner.invoke(cli, ["check", str(out)])
    assert res.exit_code == 1
    assert f"game {chunk['start']}: points are not tricks" in res.output


def test_check_with_game_names_the_folders_game(tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "t7"
    res = runner.invoke(cli, ["run", "--game", "trump7", "-n", "20", "-j", "1", "-q",
                              "-o", str(out)])
    assert res.exit_code == 0, res.output
    assert runner.invoke(cli, ["check", str(out), "--game", "trump7"]).exit_code == 0
    res = runner.invoke(cli, ["check", str(out), "--game", "trix"])
    assert res.exit_code == 2 and f"{out} plays trump7, not trix" in res.output
    res = runner.invoke(cli, ["check", str(out), "--game", "chess"])
    assert res.exit_code == 2 and "unknown game 'chess'" in res.output


def test_a_trump7_run_folder_is_replaced_with_force(tmp_path: Path) -> None:
    """A run folder without a contracts table (trump7) is recognised as the tool's own and
    replaced with --force (it used to fail with a KeyError traceback)."""
    out = tmp_path / "t7"
    runner = CliRunner()
    for extra in ([], ["--force"]):
        res = runner.invoke(cli, ["run", "--game", "trump7", "-n", "20", "-j", "1", "-q",
                                  "-o", str(out), *extra])
        assert res.exit_code == 0, res.output
