"""The strategy API: overriding one decision, hidden information, and bad answers."""

from __future__ import annotations

import numpy as np
import pytest

from trixsim.games.trix import GAME as TRIX_RULES
from trixsim.games.trix import GameState, Observation, init, legal_action_mask, observe, step
from trixsim.games.trix.adapter import adapt
from trixsim.games.trix.cards import lowest_card
from trixsim.games.trix.observation import FIELDS
from trixsim.games.trix.types import DECLARE, DONE, PICK, PLACE, PLAY
from trixsim.sim import StrategyError, decide, play_batch
from trixsim.strategy import Strategy

SEED = 11


class LowestPick(Strategy):
    """Picks the lowest legal contract; every other decision is the inherited random one."""

    name = "lowest-pick"
    observes = frozenset({"legal", "key", "decision"})

    def __init__(self) -> None:
        super().__init__()
        self.decisions_seen: set[int] = set()
        self.calls = 0

    def pick(self, obs: Observation) -> np.ndarray:
        """The lowest legal contract id."""
        self.calls += 1
        self.decisions_seen |= set(obs.decision.tolist())
        return lowest_card(obs.legal)


class Recorder:
    """Observer keeping (decision, legal mask, action) of every decided row."""

    def __init__(self) -> None:
        self.rows: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []

    def before_step(self, st: GameState, actions: np.ndarray, legal: np.ndarray) -> None:
        live = st.phase != DONE
        self.rows.append((st.phase[live].copy(), legal_action_mask(st)[live].astype(np.int64),
                          actions[live].copy()))

    def after_step(self, st: GameState) -> None:
        pass


def test_override_one_decision_inherits_the_others(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = {m: 0 for m in ("pick", "declare", "play", "place")}
    for method in calls:
        base = getattr(Strategy, method)

        def spy(self: Strategy, obs: Observation, _m: str = method, _b=base) -> np.ndarray:
            calls[_m] += 1
            return _b(self, obs)

        monkeypatch.setattr(Strategy, method, spy)
    bot = LowestPick()
    rec = Recorder()
    st = play_batch([bot] * 4, SEED, range(40), observer=rec, game=TRIX_RULES)
    assert (st.phase == DONE).all()
    assert bot.calls > 0 and bot.decisions_seen == {PICK}
    assert calls["pick"] == 0  # never falls back for the decision it overrides
    assert calls["declare"] > 0 and calls["play"] > 0 and calls["place"] > 0
    phase, legal, actions = (np.concatenate(x) for x in zip(*rec.rows, strict=True))
    picks = phase == PICK
    assert (actions[picks] == lowest_card(legal[picks])).all()


# ---------------------------------------------------------------- hidden information

def _midgame(n: int, steps: int) -> GameState:
    """Games after ``steps`` random decisions (some mid-trick, some in trix)."""
    st = init(SEED, range(n))
    strategies = [Strategy()] * 4
    for _ in range(steps):
        legal = legal_action_mask(st)
        step(st, decide(st, strategies, legal, game=TRIX_RULES))
    return st


def _reshuffle_others(st: GameState, seed: int) -> GameState:
    """A copy where the cards of the seats not to act are redistributed among them,
    each keeping its hand size: states that differ only in other seats' hands."""
    other = st.copy()
    rng = np.random.default_rng(seed)
    for g in range(st.batch_size):
        turn = int(st.turn[g])
        seats = [s for s in range(4) if s != turn]
        hands = [int(st.hands[g, s]) for s in seats]
        pool = [c for h in hands for c in range(32) if h >> c & 1]
        rng.shuffle(pool)
        k = 0
        for s, h in zip(seats, hands, strict=True):
            size = bin(h).count("1")
            other.hands[g, s] = sum(1 << c for c in pool[k:k + size])
            k += size
    return other


def _root(a: np.ndarray) -> np.ndarray:
    while isinstance(a.base, np.ndarray):
        a = a.base
    return a


@pytest.mark.parametrize("steps", [0, 1, 37, 300])
def test_observation_does_not_reveal_other_hands(steps: int) -> None:
    st = _midgame(64, steps)
    live = np.flatnonzero(st.phase != DONE)
    other = _reshuffle_others(st, steps)
    assert (other.hands != st.hands).any()
    legal_a, legal_b = legal_action_mask(st), legal_action_mask(other)
    assert (legal_a == legal_b).all()
    a = observe(st, live, legal_a[live], None)
    b = observe(other, live, legal_b[live], None)
    for name in FIELDS:
        fa, fb = getattr(a, name), getattr(b, name)
        assert np.array_equal(fa, fb), name
        # no field, nor the buffer it is a view of, holds or shares the state
        assert not np.shares_memory(fa, st.data)
        assert np.array_equal(_root(fa), _root(fb)), name


@pytest.mark.parametrize("fields", [{"totals"}, {"totals", "hand"},
                                    {"hand_sizes", "trick_cards", "key"}])
def test_a_declared_observation_does_not_reveal_other_hands(fields: set[str]) -> None:
    """A strategy that declares its fields gets them gathered: no buffer behind a field
    may hold the hands gathered along with them."""
    st = _midgame(64, 37)
    live = np.flatnonzero(st.phase != DONE)
    other = _reshuffle_others(st, 37)
    legal = legal_action_mask(st)[live]
    a = observe(st, live, legal, frozenset(fields | {"legal"}))
    b = observe(other, live, legal, frozenset(fields | {"legal"}))
    for name in fields:
        assert np.array_equal(getattr(a, name), getattr(b, name)), name
        assert np.array_equal(_root(getattr(a, name)), _root(getattr(b, name))), name


def test_observations_through_the_driver_do_not_reveal_other_hands() -> None:
    seen: list[list[Observation]] = [[], []]

    class Spy(Strategy):
        name = "spy"
        observes = None

        def __init__(self, out: list[Observation]) -> None:
            super().__init__()
            self.out = out

        def play(self, obs: Observation) -> np.ndarray:
            self.out.append(obs)
            return super().play(obs)

        pick = declare = place = play

    st = _midgame(32, 50)
    other = _reshuffle_others(st, 1)
    for state, out in ((st, seen[0]), (other, seen[1])):
        decide(state, [Spy(out)] * 4, legal_action_mask(state), game=TRIX_RULES)
    assert len(seen[0]) == len(seen[1]) > 0
    for a, b in zip(*seen, strict=True):
        for name in FIELDS:
            assert np.array_equal(getattr(a, name), getattr(b, name)), name


def test_unrequested_fields_are_not_reachable() -> None:
    st = init(SEED, range(4))
    obs = observe(st, np.arange(4), legal_action_mask(st)[:4], frozenset({"legal"}))
    with pytest.raises(AttributeError, match="was not requested"):
        obs.hand  # noqa: B018
    with pytest.raises(AttributeError, match="read-only"):
        obs.legal = obs.legal  # type: ignore[misc]
    with pytest.raises(ValueError):
        obs.legal[0] = 0


# ---------------------------------------------------------------- bad answers stop the run

def _bad(method: str, answer, name: str = "bad") -> Strategy:
    """A strategy answering ``method`` with ``answer(obs)`` (others random)."""
    cls = type("Bad", (Strategy,), {"name": name, "observes": frozenset({"legal", "key", "game"}),
                                    method: lambda self, obs: answer(obs)})
    return cls()


def _boom(obs: Observation) -> np.ndarray:
    raise ValueError("boom")


def _illegal_in_game_3(obs: Observation) -> np.ndarray:
    out = lowest_card(obs.legal)
    not_legal = lowest_card(~obs.legal & 0xFFFFFFFF)
    return np.where(obs.game == 3, not_legal, out)


@pytest.mark.parametrize(("method", "answer", "message"), [
    ("play", _illegal_in_game_3,
     r"strategy 'bad' \(seat \d\) returned illegal action \d+ \(\w+\) on decision 'play' in "
     r"game 3: seat \d (must follow \w+|does not hold \w+) .*\(legal: "),
    ("pick", lambda obs: np.full(len(obs), 7),
     r"strategy 'bad' \(seat \d\) returned illegal action 7 on decision 'pick' in game \d+: "
     r"7 is not a contract id \(0-6\) \(legal: (dineri|damet)"),
    ("declare", lambda obs: np.full(len(obs), 2),
     r"returned illegal action 2 on decision 'declare' in game \d+: the answer must be 0 "
     r"\(keep quiet\) or 1 \(declare the king of hearts\) \(legal: keep quiet declare\)"),
    ("place", lambda obs: np.full(len(obs), -1),
     r"returned illegal action -1 on decision 'place' in game \d+: -1 is not a card"),
    ("play", lambda obs: lowest_card(obs.legal)[:-1],
     r"strategy 'bad' on decision 'play' returned shape \(\d+,\) for \d+ games \(first game "
     r"\d+, actions \["),
    ("play", lambda obs: lowest_card(obs.legal).reshape(-1, 1),
     r"returned shape \(\d+, 1\) for \d+ games"),
    ("play", lambda obs: None, r"returned shape \(\) for \d+ games .*actions None"),
    ("play", lambda obs: lowest_card(obs.legal).astype(float),
     r"strategy 'bad' on decision 'play' returned float64 actions, not integers \(game \d+, "
     r"action "),
    ("declare", lambda obs: np.zeros(len(obs), dtype=bool), r"returned bool actions"),
    ("play", lambda obs: [[1, 2], [3]] + [0] * (len(obs) - 2),
     r"strategy 'bad' on decision 'play' returned .*not an action array \(first game \d+"),
    ("play", _boom,
     r"strategy 'bad' raised ValueError: boom on decision 'play' \(first game of the batch: "
     r"\d+\)"),
])
def test_bad_answers_raise_strategy_error(method: str, answer, message: str) -> None:
    bad = _bad(method, answer)
    with pytest.raises(StrategyError, match=message) as err:
        play_batch([bad, Strategy(), bad, Strategy()], SEED, range(16), game=TRIX_RULES)
    assert "\n" not in str(err.value)


def test_every_decision_occurs_in_the_error_batch() -> None:
    """The cases above rely on each decision really occurring in those 16 games."""
    rec = Recorder()
    play_batch([Strategy()] * 4, SEED, range(16), observer=rec, game=TRIX_RULES)
    for decision in (PICK, DECLARE, PLAY, PLACE):
        assert any((p == decision).any() for p, _, _ in rec.rows)


# ---------------------------------------------------------------- through the adapter

class _OneGame:
    """A one-game bot misbehaving in game 5 (and fine elsewhere)."""

    def __init__(self, mode: str = "ok") -> None:
        self.mode = mode

    def play(self, view) -> object:
        if view.game != 5:
            return min(view.legal)
        if self.mode == "raise":
            raise KeyError("oops")
        if self.mode == "illegal":
            return next(c for c in range(32) if c not in view.legal)
        if self.mode == "str":
            return "QS"
        if self.mode == "none":
            return None
        return 2**70


@pytest.mark.parametrize(("mode", "message"), [
    ("raise", r"strategy 'per-game-bad' raised KeyError: 'oops' on decision 'play' in game 5$"),
    ("illegal", r"strategy 'per-game-bad' \(seat \d\) returned illegal action \d+ \(\w+\) on "
                r"decision 'play' in game 5: seat \d .*\(legal: "),
    ("str", r"strategy 'per-game-bad' returned 'QS' \(str\) on decision 'play' in game 5, "
            r"not an integer action"),
    ("none", r"returned None \(NoneType\) on decision 'play' in game 5"),
    ("huge", r"returned 1180591620717411303424 \(int\) on decision 'play' in game 5"),
])
def test_adapter_errors_name_the_game(mode: str, message: str) -> None:
    cls = adapt(_OneGame, name="per-game-bad")
    bot = cls()
    bot.bot.mode = mode
    with pytest.raises(StrategyError, match=message):
        play_batch([bot] * 4, SEED, range(8), game=TRIX_RULES)


# ---------------------------------------------------------------- the random key


_M = 2**64 - 1
_K = (0x9E3779B97F4A7C15, 0xD6E8FEB86659FD93, 0xA0761D6478BD642F, 0xE7037ED1A0B428DB)


def _unmix(x: int) -> int:
    """Invert SplitMix64's finaliser (the mixer of trixsim.rng)."""
    def unxorshift(v: int, s: int) -> int:
        r = v
        for _ in range(64 // s + 1):
            r = v ^ (r >> s)
        return r & _M
    x = unxorshift(x, 31)
    x = (x * pow(0x94D049BB133111EB, -1, 2**64)) & _M
    x = unxorshift(x, 27)
    x = (x * pow(0xBF58476D1CE4E5B9, -1, 2**64)) & _M
    return unxorshift(x, 30)


def test_the_random_key_does_not_give_away_the_seed() -> None:
    """Undoing the mixer on ``key`` gives back a one-way subkey, not the seed, so a bot
    cannot recompute the deals from its observation."""
    from trixsim import rng
    from trixsim.games.trix import init, legal_action_mask, observe

    seed = 987654321123
    st = init(seed, [5])
    obs = observe(st, np.array([0]), legal_action_mask(st))
    key, game, ply = int(obs.key[0]), int(obs.game[0]), int(obs.ply[0])
    x = _unmix(key) ^ ((ply * _K[3]) & _M)
    x = _unmix(x) ^ ((game * _K[2]) & _M)
    x = _unmix(x) ^ ((rng.STREAM_STRATEGY * _K[1]) & _M)
    recovered = (_unmix(x) * pow(_K[0], -1, 2**64)) & _M
    assert recovered != seed
    hands = np.zeros(4, dtype=np.int64)
    rng.deal_one(recovered, game, int(obs.contract_no[0]), hands)
    assert not np.array_equal(hands, st.hands[0])


def test_every_field_is_int64_whether_all_or_some_are_asked() -> None:
    """The fields a strategy declares are gathered in one compiled pass, and all of them
    are as ``observe`` with every field gives them: int64 (``key`` uint64), the same
    values (``hand_sizes`` was uint8 when every field was asked)."""
    st = _midgame(48, 300)
    live = np.flatnonzero(st.phase != DONE)
    legal = legal_action_mask(st)[live]
    every = observe(st, live, legal, None)
    for name in FIELDS:
        assert getattr(every, name).dtype == (np.uint64 if name == "key" else np.int64), name
        some = observe(st, live, legal, frozenset({name, "legal"}))
        assert np.array_equal(getattr(some, name), getattr(every, name)), name
        assert getattr(some, name).dtype == getattr(every, name).dtype, name
