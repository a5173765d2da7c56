"""A strategy that thinks for seconds a game keeps a run's chunks small, so that an
interrupted comparison loses minutes of search, not a whole lineup's hour; the games are
the same whatever the chunks."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
from trixsim.reports.compare import lineups

from trixsim.loading import load_seats
from trixsim.runner import RunConfig, RunWriter, chunk_limit, read_run, run

SMALL_CHUNKS_BOT = '''
from trixsim.strategy import Strategy

class SmallChunks(Strategy):
    """Random play, asking for chunks of at most 7 games (a class attribute over the
    base's property)."""
    name = "small-chunks"
    chunk_games = 7
'''


def test_a_comparison_with_expert_is_planned_in_chunks_of_minutes(tmp_path: Path) -> None:
    cfg = RunConfig(games=2000, seed=3, lineups=lineups("expert", "pimc"), game="trix",
                    workers=2, batch_size=2000)
    writer = RunWriter.create(cfg, tmp_path / "c")
    writer.lock.release()
    chunks = read_run(tmp_path / "c")["plan"]
    assert max(stop - start for _, start, stop in chunks) == 250  # 32,000 / 128 worlds
    for lu in range(5):
        covered = [g for lu2, a, b in chunks if lu2 == lu for g in range(a, b)]
        assert covered == list(range(2000))


def test_limits_follow_the_search_s_size() -> None:
    trix = "trix"
    assert chunk_limit([["random"] * 4, ["heuristic"] * 4], trix) is None
    assert chunk_limit([["pimc"] * 4], trix) == 10_000
    assert chunk_limit([["pimc:worlds=200", "heuristic", "random", "pimc"]], trix) == 1200
    assert chunk_limit([["expert:worlds=256"] + ["pimc"] * 3], trix) == 125


def test_a_subclass_asking_for_small_chunks_plays_compiled_and_the_same_games(
        tmp_path: Path) -> None:
    bot = tmp_path / "small.py"
    bot.write_text(SMALL_CHUNKS_BOT)
    spec = f"{bot}:SmallChunks"
    assert load_seats(spec, "trix")[0].compiled() is not None
    run(RunConfig(games=20, seed=5, lineups=(spec,), game="trix"), tmp_path / "small")
    run(RunConfig(games=20, seed=5, lineups=("random",), game="trix"), tmp_path / "plain")
    assert [c["stop"] - c["start"] for c in read_run(tmp_path / "small")["chunks"]] == \
        [7, 7, 6]
    assert len(read_run(tmp_path / "plain")["chunks"]) == 1
    for table in ("games", "contracts"):
        a = pd.read_parquet(tmp_path / "small" / table)
        b = pd.read_parquet(tmp_path / "plain" / table)
        keep = [c for c in a.columns if not c.startswith("strategy")]
        pd.testing.assert_frame_equal(a[keep], b[keep])
