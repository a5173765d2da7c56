"""The per-game adapter: one-game bots wrapped as batched strategies."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from trixsim.games.trix import GAME as TRIX_RULES
from trixsim.games.trix import Observation, init, legal_action_mask, observe, step
from trixsim.games.trix.adapter import (
    VIEW_FIELDS,
    GameView,
    PerGameStrategy,
    RandomOneGameBot,
    _Rows,
    adapt,
    bits,
)
from trixsim.games.trix.cards import cards_of, lowest_card
from trixsim.games.trix.types import DECLARE, DONE
from trixsim.loading import load_strategy
from trixsim.sim import StrategyError, decide, play_batch
from trixsim.strategy import Param, Strategy

SEED = 5
GAMES = range(24)


RandomBot = RandomOneGameBot


class LowestPlay(Strategy):
    """Batched reference: plays its lowest legal card, random otherwise."""

    name = "lowest-play"

    def play(self, obs: Observation) -> np.ndarray:
        return lowest_card(obs.legal)


def _totals(strategies: list[Strategy]) -> np.ndarray:
    st = play_batch(strategies, SEED, GAMES, game=TRIX_RULES)
    assert (st.phase == DONE).all()
    return st.totals.copy()


def test_adapted_random_plays_the_same_games_as_batched_random() -> None:
    adapted = adapt(RandomBot, name="random-per-game")
    assert issubclass(adapted, PerGameStrategy) and adapted.name == "random-per-game"
    assert adapted.description == "Every decision uniform at random, one game at a time."
    assert np.array_equal(_totals([adapted()] * 4), _totals([Strategy()] * 4))
    assert np.array_equal(_totals([adapted() for _ in range(4)]), _totals([Strategy()] * 4))


def test_missing_methods_fall_back_to_the_batched_random_choice() -> None:
    only_play = adapt(play=lambda view: min(view.legal), name="lowest")
    assert np.array_equal(_totals([only_play()] * 4), _totals([LowestPlay()] * 4))
    mixed = [only_play(), Strategy(), LowestPlay(), Strategy()]
    assert np.array_equal(_totals(mixed), _totals([LowestPlay(), Strategy()] * 2))


def test_subclassing_per_game_strategy_with_params() -> None:
    class Lowest(PerGameStrategy):
        name = "lowest-sub"
        params = {"offset": Param(0, "ignored")}
        observes = frozenset({"hand"})

        def play_one(self, view: GameView) -> int:
            assert view.legal == [c for c in view.hand if c in view.legal]
            return view.legal[0]

        def declare_one(self, view: GameView) -> bool:
            return False

    assert Lowest.observes == frozenset({"hand", "legal", "key", "game"})
    s = Lowest(offset=3)
    assert s.offset == 3 and s.label == "lowest-sub:offset=3"
    declares: list[np.ndarray] = []

    class Watch:
        def before_step(self, st, actions, legal) -> None:
            declares.append(actions[st.phase == DECLARE])

        def after_step(self, st) -> None:
            pass

    st = play_batch([s] * 4, SEED, GAMES, observer=Watch(), game=TRIX_RULES)
    assert (st.phase == DONE).all()
    seen = np.concatenate(declares)
    assert seen.size > 0 and (seen == 0).all()


def test_bot_class_gets_the_parameters_and_declare_may_return_bool() -> None:
    made: list[dict] = []

    class Declarer:
        """Always declares."""

        params = {"loud": Param(True, "declare or not")}

        def __init__(self, loud: bool) -> None:
            made.append({"loud": loud})
            self.loud = loud

        def declare(self, view: GameView) -> bool:
            assert view.decision == DECLARE
            return self.loud and 1 in view.legal

    cls = adapt(Declarer, name="declarer")
    loud, quiet = cls(), cls(loud=False)
    assert made == [{"loud": True}, {"loud": False}]
    st_loud = play_batch([loud] * 4, SEED, range(64), game=TRIX_RULES)
    st_quiet = play_batch([quiet] * 4, SEED, range(64), game=TRIX_RULES)
    assert (st_loud.phase == DONE).all() and (st_quiet.phase == DONE).all()
    assert not np.array_equal(st_loud.totals, st_quiet.totals)


def test_view_matches_the_observation() -> None:
    st = init(SEED, range(48))
    for _ in range(45):
        step(st, decide(st, [Strategy()] * 4, legal_action_mask(st), game=TRIX_RULES))
    live = np.flatnonzero(st.phase != DONE)
    obs = observe(st, live, legal_action_mask(st)[live], None)
    rows = _Rows(obs)
    for i in range(len(obs)):
        v = GameView(rows, i)
        assert v.hand == cards_of(obs.hand[i]) and v.hand_mask == obs.hand[i]
        assert v.legal == cards_of(obs.legal[i]) and v.legal_mask == obs.legal[i]
        assert v.played == cards_of(obs.played[i])
        assert v.played_by == tuple(cards_of(m) for m in obs.played_by[i])
        assert v.won == tuple(cards_of(m) for m in obs.won[i])
        assert v.used == tuple(cards_of(m) for m in obs.used[i])
        assert v.totals == tuple(obs.totals[i].tolist()) and v.tricks == tuple(obs.tricks[i])
        assert v.hand_sizes == tuple(obs.hand_sizes[i].tolist())
        seats = [(int(obs.leader[i]) + k) % 4 for k in range(int(obs.trick_n[i]))]
        assert v.trick == list(zip(seats, obs.trick_cards[i][:len(seats)].tolist(),
                                   strict=True))
        for name in ("game", "seat", "decision", "contract", "picker", "pick", "declared",
                     "contract_no", "trick_no", "ply", "key", "leader", "out_first"):
            value = getattr(v, name)
            assert type(value) is int and value == getattr(obs, name)[i], name
        assert set(v.as_dict()) == set(VIEW_FIELDS)
        with pytest.raises(AttributeError, match="read-only"):
            v.hand = []  # type: ignore[misc]
    assert any(v for v in (GameView(rows, i).trick for i in range(len(obs))))


def test_bits() -> None:
    for mask in (0, 1, 0x80000000, 0xFFFFFFFF, 0x12345678):
        assert bits(mask) == cards_of(mask)


def test_unrequested_view_field_stops_the_run_with_the_game() -> None:
    cls = adapt(play=lambda view: min(view.legal) + 0 * view.totals[0], name="narrow",
                observes={"hand"})
    with pytest.raises(StrategyError, match=r"'narrow' raised AttributeError: observation "
                                            r"field 'totals' was not requested.* in game \d+"):
        play_batch([cls()] * 4, SEED, GAMES, game=TRIX_RULES)


def test_adapt_rejects_nonsense() -> None:
    with pytest.raises(TypeError, match="unknown decisions"):
        adapt(lead=lambda v: 0)
    with pytest.raises(TypeError, match="needs a bot"):
        adapt()


def test_adapted_bot_in_a_file_loads_by_path(tmp_path: Path) -> None:
    path = tmp_path / "one_game_bot.py"
    path.write_text(
        "from trixsim.games.trix.adapter import adapt\n"
        "from trixsim.strategy import Param\n"
        "class Highest:\n"
        "    '''Plays its highest legal card.'''\n"
        "    params = {'k': Param(1, 'unused')}\n"
        "    def __init__(self, k):\n"
        "        self.k = k\n"
        "    def play(self, view):\n"
        "        return max(view.legal)\n"
        "HighestStrategy = adapt(Highest, name='highest')\n")
    s = load_strategy(f"{path}:k=4", "trix")
    assert s.name == "highest" and s.bot.k == 4 and s.label == "highest:k=4"
    st = play_batch([s] * 4, SEED, range(4), game=TRIX_RULES)
    assert (st.phase == DONE).all()
