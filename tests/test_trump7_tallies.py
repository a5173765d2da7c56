"""trump7's counts of play in the games table (``games/trump7/tallies.py``): worked out by
hand on the golden game, equal to a re-derivation from the events, the same on the
compiled and the stepwise path, and checked by ``trixsim check``."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner
from test_trump7_golden import HANDS, STOCK, play_all
from trump7_helpers import table

from trixsim.cli import cli
from trixsim.games import get_game
from trixsim.games.trump7 import events as ev
from trixsim.games.trump7.cards import ACE, JACK, N_RANKS, QUEEN
from trixsim.games.trump7.fast import play_random
from trixsim.games.trump7.outcomes import GAME_COLUMNS, games_table
from trixsim.games.trump7.tallies import LOW_TOP, TALLIES, tally
from trixsim.games.trump7.verify import verify_games
from trixsim.loading import load_strategy
from trixsim.sim import play_batch

HONOUR = {ACE: 5, JACK: 4, QUEEN: 3}
GOLDEN = {  # per seat, worked out trick by trick from test_trump7_golden.TRICKS
    "leads": [3, 2, 2, 6],  # 0: tricks 1, 9, 13; 1: 5, 6; 2: 4, 11; 3: the other six
    "lead_wins": [0, 1, 0, 2],  # 1: AD (5); 3: AH (2), QH (7)
    "lead_points": [0, 1, 0, 10],  # 3: 1 + 5 (AH) and 1 + 3 (QH)
    "lead_trumps": [1, 0, 0, 2],  # 0: 4H (9); 3: AH, QH
    "lead_trump_wins": [0, 0, 0, 2],
    "lead_aces": [1, 1, 1, 0],  # AC (1), AD (5), AS (4)
    "lead_ace_wins": [0, 1, 0, 0],
    "lead_lows": [0, 0, 0, 4],  # 3: 7C (3), 6C (8), 3S (10), 2C (12); KD, QS, JC are high
    "lead_low_wins": [0, 0, 0, 0],
    "ruffs": [0, 1, 1, 4],  # 1: 5H (4); 2: 6H (3); 3: 8H (1), 9H (6), 10H (11), KH (13)
    "ruff_wins": [0, 1, 1, 4],
    "ruff_chances": [1, 1, 1, 6],  # 0: trick 6 (held 4H 3H); 3: also 5D (4) and 4S (5)
    "discards": [4, 9, 4, 2],
    "honours_lost": [0, 0, 0, 0],  # seat 3 played all three honours and won them
}


def test_the_golden_game_counts_as_worked_out_by_hand() -> None:
    assert set(GOLDEN) == set(TALLIES)
    st = table(HANDS, STOCK, game_id=3)
    play_all(st)
    got = tally(st)
    for k, name in enumerate(TALLIES):
        assert got[4 * k:4 * k + 4, 0].tolist() == GOLDEN[name], name


def reference(events: list[ev.Event]) -> dict[int, dict[str, list[int]]]:
    """The counts re-derived from the events alone: hands from the deal and the draws."""
    out: dict[int, dict[str, list[int]]] = {}
    hands: dict[int, list[set[int]]] = {}
    trump: dict[int, int] = {}
    for e in events:
        t = out.setdefault(e.game, {k: [0] * 4 for k in TALLIES})
        if isinstance(e, ev.Deal):
            hands[e.game] = [{c for c in range(52) if (h >> c) & 1} for h in e.hands]
            trump[e.game] = e.turned // N_RANKS
        elif isinstance(e, ev.Draw):
            for k, c in enumerate(e.cards):
                hands[e.game][(e.first + k) % 4].add(c)
        elif isinstance(e, ev.Trick):
            tr, lead, w = trump[e.game], e.leader, e.winner
            led = e.cards[0] // N_RANKS
            honours = [HONOUR.get(c % N_RANKS, 0) if c // N_RANKS == tr else 0
                       for c in e.cards]
            won = int(w == lead)
            t["leads"][lead] += 1
            t["lead_wins"][lead] += won
            t["lead_points"][lead] += won * (1 + sum(honours))
            rank = e.cards[0] % N_RANKS
            kind = ("trump" if led == tr else "ace" if rank == ACE
                    else "low" if rank <= LOW_TOP else None)
            if kind:
                t[f"lead_{kind}s"][lead] += 1
                t[f"lead_{kind}_wins"][lead] += won
            for k, c in enumerate(e.cards):
                s = (lead + k) % 4
                if k and c // N_RANKS != led:
                    ruff = c // N_RANKS == tr
                    t["ruffs" if ruff else "discards"][s] += 1
                    t["ruff_wins"][s] += int(ruff and w == s)
                    if led != tr and any(x // N_RANKS == tr for x in hands[e.game][s]):
                        t["ruff_chances"][s] += 1
                if w != s:
                    t["honours_lost"][s] += honours[k]
                hands[e.game][s].discard(c)
    return out


@pytest.mark.parametrize("bidding", [False, True])
def test_the_counts_are_those_the_events_show(bidding: bool) -> None:
    st, rows = play_random(5, np.arange(400), bidding, keep_events=True)
    ref = reference(ev.decode(rows, st.game_id))
    got = tally(st)
    for g in range(st.batch_size):
        for k, name in enumerate(TALLIES):
            assert got[4 * k:4 * k + 4, g].tolist() == ref[int(st.game_id[g])][name]
    assert got[4 * TALLIES.index("honours_lost")].any()  # the case is met


@pytest.mark.parametrize("name", ["trump7", "trump7-bid"])
def test_compiled_and_stepwise_paths_give_the_same_table(name: str) -> None:
    game = get_game(name)
    seats = [load_strategy("heuristic", name), load_strategy("random", name)] * 2
    specs = ["heuristic", "random"] * 2
    tables = [games_table(play_batch(seats, 4, range(300), path=path, game=game), 0, specs)
              for path in ("compiled", "stepwise")]
    assert tables[0].equals(tables[1])
    for k in TALLIES:
        assert f"{k}_0..{k}_3" in GAME_COLUMNS
        assert f"{k}_3" in tables[0].column_names
    d = tables[0].to_pandas()
    assert verify_games(d, game.bidding) == []
    leads = d[[f"leads_{s}" for s in range(4)]].to_numpy()
    assert (leads.sum(axis=1) == 13).all()


TAMPER = [  # column, change, what check says
    ("lead_wins_1", lambda d: d["leads_1"] + 1, "more tricks led and won than led or won"),
    ("leads_2", lambda d: d["leads_2"] + 1, "the tricks led do not add up to 13"),
    ("ruffs_0", lambda d: d["ruff_chances_0"] + 1, "the ruffs and discards do not fit"),
    ("honours_lost_3", lambda d: d["honours_lost_3"] * 0 + 2,
     "the honour points lost are not"),
    ("lead_points_0", lambda d: d["lead_wins_0"] + 1, "the points of the tricks led and won"),
    ("lead_ace_wins_1", lambda d: d["lead_aces_1"] + 1, "the leads by kind do not fit"),
]


@pytest.mark.parametrize("column, change, message", TAMPER)
def test_verify_finds_counts_that_break_the_rules(column: str, change, message: str) -> None:
    st, _ = play_random(2, np.arange(50))
    d = games_table(st, 0, ["random"] * 4).to_pandas()
    assert verify_games(d, False) == []
    d.loc[7, column] = change(d).loc[7]
    problems = verify_games(d, False)
    assert problems and problems[0].startswith("game 7: " + message), problems


def test_check_catches_a_tampered_count(tmp_path) -> None:
    from trixsim.runfolder import data_digest, encode_table, read_run, write_run_json

    out = tmp_path / "t7"
    runner = CliRunner()
    res = runner.invoke(cli, ["run", "--game", "trump7", "-n", "40", "-s", "random", "-j",
                              "1", "-q", "-o", str(out)])
    assert res.exit_code == 0, res.output
    assert runner.invoke(cli, ["check", str(out)]).exit_code == 0
    meta = read_run(out)
    chunk = meta["chunks"][0]
    path = out / chunk["games_file"]
    d = pq.read_table(path).to_pandas()
    d.loc[3, "ruff_wins_2"] = d.loc[3, "ruffs_2"] + 1  # a ruff won that was never played
    blob = encode_table(pa.Table.from_pandas(d, preserve_index=False))
    path.write_bytes(blob)
    chunk["sha256"]["games"] = data_digest(blob)
    chunk["bytes"]["games"] = len(blob)
    write_run_json(out, meta)
    res = runner.invoke(cli, ["check", str(out)])
    assert res.exit_code == 1
    assert f"game {chunk['start'] + 3}: the ruffs and discards do not fit" in res.output
