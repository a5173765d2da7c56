"""Conformance: fixed games and move-tree counts that any rule change must reproduce exactly.

``tests/data/conformance.json`` holds, for fixed (seed, game ids) played by four copies of
the base (uniform random) strategy, a digest of every game: first picker, contracts
played, final totals, decisions taken, a SHA-256 of the whole action sequence, a SHA-256
of every finished contract (picker, contract, points, totals) and the sum of the number
of legal actions over all decisions (a forced trix pass counts 1). It also holds "perft"
counts: the number of distinct legal action sequences of depth 1..N from fixed states
(game starts, and states reached at fixed decision numbers of those games).

A difference means the rules, the deals, the random keys or the base strategy changed.
If the change is intended (and docs/rules.md says so), regenerate the data and review the diff:

    TRIXSIM_REGEN=1 .venv/bin/pytest tests/test_conformance.py

which rewrites the file (the test then passes); commit it together with the rule change.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from trixsim.games import trix as engine
from trixsim.games.trix import GAME as TRIX_RULES
from trixsim.games.trix import GameState
from trixsim.games.trix.types import DONE, PASS, PICK, PLACE
from trixsim.sim import play_batch
from trixsim.strategy import Strategy

DATA = Path(__file__).parent / "data" / "conformance.json"
REGEN = os.environ.get("TRIXSIM_REGEN") == "1"

CASES: list[tuple[int, list[int]]] = [
    (0, list(range(12))),
    (12345, [7, 1000, 123456789, 2**31 - 1]),
    (2**40 + 3, list(range(100, 108))),
]
PERFT_SEED = 2024
PERFT_GAMES = [0, 1, 2]
PERFT_PLIES = [0, 1, 9, 60, 200, 415]
PERFT_DEPTH = 6


class Digest:
    """An observer that hashes every game's actions and finished contracts."""

    def __init__(self, batch: int) -> None:
        self.actions = [hashlib.sha256() for _ in range(batch)]
        self.contracts = [hashlib.sha256() for _ in range(batch)]
        self.legal_sum = np.zeros(batch, dtype=np.int64)
        self.picked = np.full(batch, -1, dtype=np.int64)
        self.picker = np.full(batch, -1, dtype=np.int64)
        self.before = np.zeros(batch, dtype=np.int64)
        self.decisions = np.zeros(batch, dtype=np.int64)

    def before_step(self, st: GameState, actions: np.ndarray, legal: np.ndarray) -> None:
        legal = engine.legal_action_mask(st)
        n = np.bitwise_count(legal).astype(np.int64)
        n[(st.phase == PLACE) & (legal == 0)] = 1
        live = st.phase != DONE
        self.legal_sum += np.where(live, n, 0)
        self.decisions += live
        for g in np.flatnonzero(live):
            self.actions[g].update(f"{int(actions[g])},".encode())
        pick = st.phase == PICK
        self.picked[pick] = actions[pick]
        self.picker[pick] = st.picker[pick]
        self.before = st.contract_no.copy()

    def after_step(self, st: GameState) -> None:
        for g in np.flatnonzero(st.contract_no != self.before):
            rec = [int(self.before[g]), int(self.picker[g]), int(self.picked[g]),
                   *map(int, st.points[g]), *map(int, st.totals[g])]
            self.contracts[g].update(json.dumps(rec).encode())


def game_digests(seed: int, game_ids: list[int]) -> list[dict[str, Any]]:
    """The digest of every game of one case, played by the base strategy."""
    d = Digest(len(game_ids))
    st = play_batch([Strategy()] * 4, seed, game_ids, observer=d, game=TRIX_RULES)
    return [{
        "game_id": int(st.game_id[g]),
        "first_picker": int(st.first_picker[g]),
        "contracts": int(st.contract_no[g]),
        "totals": [int(x) for x in st.totals[g]],
        "decisions": int(d.decisions[g]),
        "legal_sum": int(d.legal_sum[g]),
        "actions_sha256": d.actions[g].hexdigest(),
        "contracts_sha256": d.contracts[g].hexdigest(),
    } for g in range(len(game_ids))]


def children(st: GameState) -> GameState:
    """Every state one legal action away from the states of ``st`` (one row each)."""
    legal = engine.legal_action_mask(st).astype(np.int64)
    live = st.phase != DONE
    rows, acts = np.nonzero((legal[:, None] >> np.arange(32)) & 1)
    passing = np.flatnonzero(live & (st.phase == PLACE) & (legal == 0))
    rows = np.concatenate([rows, passing])
    acts = np.concatenate([acts, np.full(passing.size, PASS)])
    out = st.take(rows)
    if out.batch_size:
        engine.step(out, acts.astype(np.int64))
    return out


def perft(st: GameState, depth: int) -> list[int]:
    """Numbers of legal action sequences of length 1..depth from a one-game state."""
    counts = []
    nodes = st
    for _ in range(depth):
        nodes = children(nodes)
        counts.append(nodes.batch_size)
    return counts


def states_at_plies(seed: int, game_id: int, plies: list[int]) -> list[GameState]:
    """Copies of one base-strategy game's state at the given decision numbers."""
    out: dict[int, GameState] = {}

    class Snap:
        def before_step(self, st: GameState, actions: np.ndarray, legal: np.ndarray) -> None:
            if int(st.ply[0]) in plies and st.phase[0] != DONE:
                out[int(st.ply[0])] = st.copy()

        def after_step(self, st: GameState) -> None:
            pass

    play_batch([Strategy()] * 4, seed, [game_id], observer=Snap(), game=TRIX_RULES)
    return [out[p] for p in plies if p in out]


def perft_table() -> list[dict[str, Any]]:
    """Perft counts from fixed states along fixed games."""
    table = []
    for g in PERFT_GAMES:
        for st in states_at_plies(PERFT_SEED, g, PERFT_PLIES):
            table.append({"seed": PERFT_SEED, "game_id": g, "ply": int(st.ply[0]),
                          "phase": int(st.phase[0]), "counts": perft(st, PERFT_DEPTH)})
    return table


def compute() -> dict[str, Any]:
    """The whole conformance data."""
    return {
        "about": "regenerate with TRIXSIM_REGEN=1 pytest tests/test_conformance.py",
        "games": [{"seed": seed, "game_ids": ids, "digests": game_digests(seed, ids)}
                  for seed, ids in CASES],
        "perft": perft_table(),
    }


def dump(data: dict[str, Any]) -> str:
    """JSON with one game digest or perft row per line (readable diffs)."""
    lines = ["{", f' "about": {json.dumps(data["about"])},', ' "games": [']
    for i, case in enumerate(data["games"]):
        lines.append(f'  {{"seed": {case["seed"]}, "game_ids": {json.dumps(case["game_ids"])},')
        rows = [f"   {json.dumps(d)}" for d in case["digests"]]
        lines.append('   "digests": [\n' + ",\n".join(rows) + "\n  ]}"
                     + ("," if i + 1 < len(data["games"]) else ""))
    lines.append(" ],")
    rows = [f"  {json.dumps(r)}" for r in data["perft"]]
    lines.append(' "perft": [\n' + ",\n".join(rows) + "\n ]")
    lines.append("}")
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def golden() -> dict[str, Any]:
    """The stored data (rewritten first when TRIXSIM_REGEN=1)."""
    if REGEN:
        DATA.parent.mkdir(parents=True, exist_ok=True)
        data = compute()
        text = dump(data)
        assert json.loads(text) == data
        DATA.write_text(text)
    return json.loads(DATA.read_text())


@pytest.mark.parametrize("case", range(len(CASES)))
def test_games_match_the_stored_digests(golden: dict[str, Any], case: int) -> None:
    seed, ids = CASES[case]
    stored = golden["games"][case]
    assert (stored["seed"], stored["game_ids"]) == (seed, ids)
    got = game_digests(seed, ids)
    for want, have in zip(stored["digests"], got, strict=True):
        assert have == want, f"game {want['game_id']} of seed {seed} differs"


def test_perft_counts_match(golden: dict[str, Any]) -> None:
    assert perft_table() == golden["perft"]


def test_stored_data_is_plausible(golden: dict[str, Any]) -> None:
    """The stored games themselves respect the rules' outer limits."""
    for case in golden["games"]:
        for d in case["digests"]:
            assert 1 <= d["contracts"] <= 28 and 1000 not in d["totals"]
            assert d["contracts"] == 28 or max(d["totals"]) > 1000
            assert d["legal_sum"] >= d["decisions"]
    for row in golden["perft"]:
        assert all(c > 0 for c in row["counts"])
