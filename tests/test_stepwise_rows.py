"""The stepwise loop drops finished games from the rows it steps, and asks no strategy
where one action is legal: the same games, tables and events as before, and an audit that
still sees every game."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from trixsim import sim
from trixsim.games import get_game
from trixsim.loading import load_seats
from trixsim.sim import IntegrityError, play_batch
from trixsim.strategy import Strategy
from trixsim.testing.policy import _Events

GAMES = {"trix": "heuristic,random,heuristic-nodeclare,random",
         "trump7": "heuristic,random,heuristic,random"}


def _play(game: str, monkeypatch: pytest.MonkeyPatch, below: float) -> tuple:
    """Final state, outcome tables and events by game, with ``COMPACT_BELOW`` = below;
    and the sizes the loop's audit was cut to (one per drop of finished games)."""
    g = get_game(game)
    takes: list[int] = []
    audit_type = type(g.audit(g.init(1, np.arange(1))))
    take = audit_type.take

    def counted(self, idx):
        takes.append(len(idx))
        return take(self, idx)
    ids = np.arange(100, 500)
    log = g.outcomes(len(ids))
    events = _Events(g)

    class Both:
        event_kinds = None

        def events(self, st, rows):
            events.events(st, rows)
            if hasattr(log, "events"):
                log.events(st, rows)
    seats = load_seats(GAMES[game], game)
    with monkeypatch.context() as m:
        m.setattr(sim, "COMPACT_BELOW", below)
        m.setattr(audit_type, "take", counted)
        st = play_batch(seats, 7, ids, observer=Both(), path="stepwise", game=g)
    return st, log.tables(st, [s.label for s in seats]), events.by_game(), takes


@pytest.mark.parametrize("game", sorted(GAMES))
def test_dropping_finished_games_changes_nothing(game: str,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """Never dropping, dropping as the loop does, and cutting the rows at every look
    (1.01: even when every game is live) give the same states, tables and events."""
    st0, tables0, events0, takes0 = _play(game, monkeypatch, 0.0)
    assert not takes0
    for below in (sim.COMPACT_BELOW, 1.01):
        st1, tables1, events1, takes1 = _play(game, monkeypatch, below)
        assert takes1 or game == "trump7"  # its games all last about as long
        assert np.array_equal(st0.data, st1.data)
        assert all(tables0[k].equals(tables1[k]) for k in tables0)
        assert events0 == events1
    assert len(takes1) >= 3  # a look every 16 steps


LATE_CHEAT = '''
import sys
from trixsim.games.trix.types import DONE
from trixsim.strategy import Strategy


class LateCheat(Strategy):
    """Once most games are over, walks up to the loop's whole batch and takes 300 off a
    finished game's totals."""
    name = "late-cheat"
    calls = 0

    def play(self, obs):
        LateCheat.calls += 1
        if LateCheat.calls == 400:
            frame = sys._getframe(1)
            while frame is not None and "st" not in frame.f_locals:
                frame = frame.f_back
            st = frame.f_locals["st"]
            done = (st.phase == DONE).nonzero()[0]
            st.totals[done[0], 0] -= 300
        return super().play(obs)
'''


def test_tampering_with_a_dropped_game_is_still_caught(tmp_path: Path) -> None:
    """A game the loop no longer steps keeps its account: the last check covers it."""
    bot = tmp_path / "late_cheat.py"
    bot.write_text(LATE_CHEAT)
    sys.modules.pop("late_cheat", None)
    with pytest.raises(IntegrityError, match="changed outside the rules"):
        play_batch(load_seats(f"{bot}:LateCheat,random,random,random", "trix"), 1,
                   range(200), game=get_game("trix"))


def test_no_strategy_is_asked_where_one_action_is_legal() -> None:
    """The only legal action is played without asking (as on the compiled path)."""
    asked: list[int] = []

    class Watching(Strategy):
        name = "watching"

        def play(self, obs):
            asked.extend(int(m).bit_count() for m in obs.legal)
            return super().play(obs)

    seats = [Watching()] + load_seats("random", "trix")[1:]
    play_batch(seats, 3, range(50), game=get_game("trix"))
    assert asked and min(asked) >= 2
