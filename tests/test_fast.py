"""The compiled whole-game path: same games and tables as the stepwise loop, policies
checked against their methods and against peeking, failures named."""

from __future__ import annotations

import numpy as np
import pytest
from cheats import Peeker
from numba import njit

from trixsim.games.trix import GAME as TRIX_RULES
from trixsim.games.trix.fast import compiled_lineup
from trixsim.games.trix.outcomes import OutcomeLog, games_table
from trixsim.games.trix.policy import POLICY_SIG
from trixsim.games.trix.transcript import Recorder
from trixsim.loading import bundled, load_seats
from trixsim.sim import StrategyError, play_batch
from trixsim.strategy import Strategy
from trixsim.testing import check_policy

LINEUPS = ["random", "heuristic", "heuristic,random,heuristic-nodeclare,random",
           "heuristic-declare,heuristic-early-trix,heuristic-late-trix,heuristic-fixed-order"]


def _tables(specs: str, path: str, ids: np.ndarray, seed: int = 11) -> tuple:
    log = OutcomeLog(len(ids))
    st = play_batch(load_seats(specs, "trix"), seed, ids, observer=log, path=path, game=TRIX_RULES)
    return st, log.contracts(), games_table(st, 0, specs.split(",") * (4 // len(specs.split(","))))


@pytest.mark.parametrize("specs", LINEUPS)
def test_both_paths_give_the_same_games_and_tables(specs: str) -> None:
    ids = np.arange(300, 600)
    fast = _tables(specs, "compiled", ids)
    slow = _tables(specs, "stepwise", ids)
    assert np.array_equal(fast[0].data, slow[0].data)
    assert fast[1].equals(slow[1]) and fast[2].equals(slow[2])
    assert fast[1].num_rows >= 300 * 4  # some lineups end games early (a total over 1000)


def test_auto_takes_the_compiled_path_only_when_every_seat_has_a_policy() -> None:
    class Methodical(Strategy):
        name = "methodical"

        def play(self, obs):  # overrides a method without a policy of its own
            return super().play(obs)

    assert Methodical().compiled() is None
    assert compiled_lineup([Methodical()] + load_seats("random", "trix")[:3]) is None
    assert compiled_lineup(load_seats("heuristic,random,random,random", "trix")) is not None
    with pytest.raises(ValueError, match="compiled path needs"):
        play_batch([Methodical()] * 4, 1, range(2), path="compiled", game=TRIX_RULES)


def test_unordered_game_ids_give_rows_sorted_by_game() -> None:
    ids = np.array([9, 3, 7, 1])
    fast = _tables("heuristic", "compiled", ids)[1].to_pandas()
    slow = _tables("heuristic", "stepwise", ids)[1].to_pandas()
    assert fast.equals(slow) and list(fast.game.unique()) == [1, 3, 7, 9]


def test_records_are_the_same_on_both_paths() -> None:
    out = []
    for path in ("compiled", "stepwise"):
        rec = Recorder(5, ["heuristic", "random", "heuristic", "random"])
        st = play_batch(load_seats("heuristic,random,heuristic,random", "trix"), 5, range(6),
                        observer=rec, path=path, game=TRIX_RULES)
        out.append([r.to_json() if hasattr(r, "to_json") else repr(r)
                    for r in rec.records(st)])
    assert out[0] == out[1]


SMALLER = {"expert": ({"worlds": 2, "infer": 2}, 12)}
"""Searches whose every decision takes milliseconds at the defaults: checked with fewer
worlds and inference candidates (the check does not depend on how many they deal) and
games."""


def test_bundled_policies_pass_the_policy_check() -> None:
    for name, cls in bundled().items():
        values, games = SMALLER.get(name, ({}, 60))
        s = cls(**values)
        if s.compiled() is not None:
            check_policy(s, games=games, seed=3)


def test_a_policy_that_reads_hidden_hands_is_caught() -> None:
    with pytest.raises(AssertionError, match="compiled policy agreement|hidden cards"):
        check_policy(Peeker(), games=30)


@njit(POLICY_SIG, cache=True)
def _always_zero(row: int, legal: int, hand: int, subkey: int, params: int, n: int) -> int:
    return 0


class Stubborn(Strategy):
    name = "stubborn"
    policy = _always_zero


def test_an_illegal_action_from_a_compiled_policy_names_strategy_decision_and_game() -> None:
    with pytest.raises(StrategyError) as err:
        play_batch([Stubborn()] * 4, 3, range(5), path="compiled", game=TRIX_RULES)
    msg = str(err.value)
    assert "'stubborn'" in msg and "decision" in msg and "in game" in msg and "legal:" in msg


def test_a_first_run_says_it_is_compiling(monkeypatch: pytest.MonkeyPatch) -> None:
    from trixsim import warmup

    heard: list[tuple[str, bool]] = []
    real = warmup.kernels_cached
    monkeypatch.setattr(warmup, "kernels_cached", lambda game: False)
    monkeypatch.setattr(warmup, "_WARM", set())
    warmup.warm_up(["heuristic"] * 4, 1, "trix",
                   lambda text, replace: heard.append((text, replace)))
    assert heard[0] == ("compiling the game kernels (once after installing)...", False)
    assert heard[-1][0].startswith("compiled the game kernels in")
    heard.clear()
    warmup.warm_up(["heuristic"] * 4, 1, "trix",
                   lambda text, replace: heard.append((text, replace)))
    assert heard == []  # loaded once per process
    assert real("trix")  # and the loop is now in the on-disk cache


def test_contract_rows_name_games_of_any_id_and_keep_32_bit_masks() -> None:
    """The row arrays hold batch positions and int32 bits: the tables still give each
    contract its game's id (large, unsorted ids included) in game order, the same on
    both paths, and the hand and trick masks as the full 32-bit values (an ace of the
    fourth suit is bit 31)."""
    ids = np.array([50, 7, 2**40 + 3, 3], dtype=np.int64)
    seats = load_seats("heuristic", "trix")
    tables = []
    for path in ("compiled", "stepwise"):
        log = OutcomeLog(len(ids))
        play_batch(seats, 5, ids, observer=log, path=path)
        tables.append(log.contracts())
    compiled, stepwise = tables
    assert compiled.equals(stepwise)
    games = compiled.column("game").to_numpy()
    assert list(np.unique(games)) == sorted(ids.tolist())
    assert (np.diff(games) >= 0).all()
    hands = compiled.column("picker_hand").to_numpy()
    assert compiled.schema.field("picker_hand").type == "uint32"
    assert (hands >> 31).any() and (hands <= 0xFFFFFFFF).all()
    assert all(bin(int(h)).count("1") == 8 for h in hands)
