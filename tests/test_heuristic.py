"""The bundled heuristic strategy and its single-aspect variants."""

from __future__ import annotations

import numpy as np
import pytest
from trixsim.strategies.heuristic import (
    FIXED_ORDER,
    DeclareHeuristic,
    EarlyTrixHeuristic,
    FixedOrderHeuristic,
    HeuristicStrategy,
    LateTrixHeuristic,
    NoDeclareHeuristic,
)
from trixsim.strategies.random_bot import RandomStrategy

from trixsim.games.trix import GAME as TRIX_RULES
from trixsim.games.trix import GameState, legal_action_mask, observe
from trixsim.games.trix.cards import card_name, mask_of, parse_card
from trixsim.games.trix.observation import Observation
from trixsim.games.trix.types import (
    DAMET,
    DECLARE,
    DINERI,
    DONE,
    FARCHA,
    GENERAL,
    PICK,
    PLACE,
    PLAY,
    PLI,
    RAY,
    TRIX,
)
from trixsim.sim import play_batch

VARIANTS = (NoDeclareHeuristic, DeclareHeuristic, EarlyTrixHeuristic, LateTrixHeuristic,
            FixedOrderHeuristic)


class Recorder:
    """Records (decision, legal mask, action) of every decision taken in a batch."""

    def __init__(self) -> None:
        self.rows: list[np.ndarray] = []

    def before_step(self, st: GameState, actions: np.ndarray, legal: np.ndarray) -> None:
        live = st.phase != DONE
        legal = legal_action_mask(st).astype(np.int64)
        self.rows.append(np.stack([st.phase[live], legal[live], actions[live]], axis=1))

    def after_step(self, st: GameState) -> None:
        pass

    def table(self) -> np.ndarray:
        return np.concatenate(self.rows)


def H(names: str) -> int:
    """A card mask from names, e.g. H('KH 7H AS')."""
    return mask_of(parse_card(n) for n in names.split())


def obs(**fields: object) -> Observation:
    """A one-game observation with the heuristic's fields (defaults: an empty trick)."""
    base = dict(legal=0, hand=0, pick=1, seat=1, picker=0, contract=DAMET, played=0,
                best_card=-1, trick_n=0, trick_no=0, declared=-1, totals=[0, 0, 0, 0])
    base.update(fields)
    if base["legal"] == 0:
        base["legal"] = base["hand"]
    return Observation({k: np.array([v], dtype=np.int64) for k, v in base.items()})


def test_heuristic_and_variants_play_legal_full_games() -> None:
    """The driver checks every action: full mixed games raise nothing, and all end."""
    seats = [HeuristicStrategy(), *[cls() for cls in VARIANTS], RandomStrategy()]
    for k in range(4):
        st = play_batch([seats[(k + j) % len(seats)] for j in range(4)], 5 + k, range(150),
                        game=TRIX_RULES)
        assert (st.phase == DONE).all()


def test_observes_is_enough_and_actions_have_the_right_shape() -> None:
    """Every decision returns one int per game using only the declared fields."""
    h = HeuristicStrategy()
    # would raise if an undeclared field were read
    st = play_batch([h] * 4, 2, range(40), game=TRIX_RULES)
    assert st.batch_size == 40
    samples = {
        "pick": obs(hand=H("JH QH KH JS 9S 8S JC QC"), legal=0x7F),
        "declare": obs(contract=RAY, hand=H("KH 7S 8S"), legal=3),
        "play": obs(hand=H("7S JS AS 9H"), legal=H("7S JS AS"), best_card=parse_card("KS"),
                    trick_n=1, played=H("KS")),
        "place": obs(hand=H("JS 9H"), legal=H("JS")),
    }
    for method, o in samples.items():
        out = getattr(h, method)(o)
        assert out.shape == (1,) and np.issubdtype(out.dtype, np.integer)
        assert (int(o.legal[0]) >> int(out[0])) & 1


def test_variants_decide_like_heuristic_outside_their_aspect() -> None:
    """On the same observations each variant answers like heuristic except in its decision.

    All are built with trix_by_pick=3: with the default 1, heuristic itself takes trix
    wherever legal, so the early-trix variant could not differ from it."""
    h = HeuristicStrategy(trix_by_pick=3)
    variants = [cls(trix_by_pick=3) for cls in VARIANTS]
    overridden = {NoDeclareHeuristic: {"declare"}, DeclareHeuristic: {"declare"},
                  EarlyTrixHeuristic: {"pick"}, LateTrixHeuristic: {"pick"},
                  FixedOrderHeuristic: {"pick"}}
    differs = {type(v): set() for v in variants}

    class Compare(Recorder):
        def before_step(self, st: GameState, actions: np.ndarray, legal: np.ndarray) -> None:
            legal = legal_action_mask(st)
            for phase, method in ((PICK, "pick"), (DECLARE, "declare"), (PLAY, "play"),
                                  (PLACE, "place")):
                idx = np.flatnonzero((st.phase == phase) & ((legal != 0) | (phase != PLACE)))
                if not idx.size:
                    continue
                o = observe(st, idx, legal[idx], h.observes)
                ref = getattr(h, method)(o)
                for v in variants:
                    if not np.array_equal(getattr(v, method)(o), ref):
                        differs[type(v)].add(method)

    play_batch([h] * 4, 9, range(200), Compare(), game=TRIX_RULES)
    for cls, methods in differs.items():
        assert methods <= overridden[cls], cls.name
        assert methods == overridden[cls], f"{cls.name} never differed"


def test_nodeclare_never_declares_and_declare_always_does() -> None:
    for cls, expected in ((NoDeclareHeuristic, 0), (DeclareHeuristic, 1)):
        rec = Recorder()
        play_batch([cls()] * 4, 3, range(200), rec, game=TRIX_RULES)
        t = rec.table()
        decl = t[t[:, 0] == DECLARE]
        assert len(decl) > 20
        assert (decl[:, 2] == expected).all()


def test_heuristic_declares_sometimes_but_not_always() -> None:
    rec = Recorder()
    play_batch([HeuristicStrategy()] * 4, 3, range(200), rec, game=TRIX_RULES)
    t = rec.table()
    decl = t[t[:, 0] == DECLARE][:, 2]
    assert 0 < decl.mean() < 1


def test_trix_timing_variants() -> None:
    """early-trix takes trix whenever legal; late-trix only when it is the only choice."""
    trix = 1 << TRIX
    for cls in (EarlyTrixHeuristic, LateTrixHeuristic, HeuristicStrategy):
        rec = Recorder()  # heuristic from pick 3 on (its default, 1, is early-trix's rule)
        play_batch([cls(trix_by_pick=3)] * 4, 4, range(200), rec, game=TRIX_RULES)
        t = rec.table()
        picks = t[t[:, 0] == PICK]
        can = (picks[:, 1] & trix) != 0
        took = picks[:, 2] == TRIX
        assert (took <= can).all()
        if cls is EarlyTrixHeuristic:
            assert (took == can).all()
        elif cls is LateTrixHeuristic:
            assert (took == (picks[:, 1] == trix)).all()
        else:  # sometimes early, sometimes later
            assert (can & ~took).any() and (took & (picks[:, 1] != trix)).any()


def test_fixed_order_picks_first_legal_of_the_order() -> None:
    rec = Recorder()
    play_batch([FixedOrderHeuristic()] * 4, 6, range(100), rec, game=TRIX_RULES)
    t = rec.table()
    picks = t[(t[:, 0] == PICK) & (t[:, 2] != TRIX)]
    for legal, action in picks[:, 1:3]:
        first = next(k for k in FIXED_ORDER if (legal >> k) & 1)
        assert action == first


@pytest.mark.parametrize("values", [{"nonsense": 1}, {"declare_margin": "high"},
                                    {"trix_by_pick": 2.5}, {"trix_by_pick": True},
                                    {"lead_guard": None}])
def test_parameter_validation(values: dict) -> None:
    with pytest.raises(ValueError):
        HeuristicStrategy(**values)


def test_parameters_are_documented_and_accepted() -> None:
    h = HeuristicStrategy(declare_margin=5, trix_by_pick=4)
    assert h.declare_margin == 5.0 and isinstance(h.declare_margin, float)
    assert h.label == "heuristic:declare_margin=5.0,trix_by_pick=4"
    assert all(p.doc for p in HeuristicStrategy.params.values())
    assert {"declare_margin", "trix_by_pick", "trix_min_score"} <= set(HeuristicStrategy.params)


def test_ducks_under_the_winning_card() -> None:
    h = HeuristicStrategy()
    o = obs(contract=DINERI, hand=H("7S JS AS 9H"), legal=H("7S JS AS"),
            best_card=parse_card("KS"), trick_n=1, played=H("KS"))
    assert h.play(o)[0] == parse_card("JS")


def test_drops_queen_under_a_higher_card_in_damet() -> None:
    h = HeuristicStrategy()
    o = obs(contract=DAMET, hand=H("7S QS KS 9H"), legal=H("7S QS KS"),
            best_card=parse_card("AS"), trick_n=2, played=H("AS 8S"))
    assert h.play(o)[0] == parse_card("QS")


@pytest.mark.parametrize("contract,hand,expected", [
    (RAY, "KH 7H AS 8D", "KH"),
    (DAMET, "QH 7H AS 8D", "QH"),
    (DINERI, "7D AD 7H AS", "AD"),
])
def test_sheds_the_danger_card_when_void(contract: int, hand: str, expected: str) -> None:
    h = HeuristicStrategy()
    o = obs(contract=contract, hand=H(hand), best_card=parse_card("9C"), trick_n=1,
            played=H("9C"))
    assert h.play(o)[0] == parse_card(expected)


def test_leads_a_card_that_must_be_beaten() -> None:
    """With 7S only 8S..AS above it unseen, leading 7S loses the trick for sure."""
    h = HeuristicStrategy()
    o = obs(contract=DAMET, hand=H("7S AC 10D"), trick_no=5)
    assert h.play(o)[0] == parse_card("7S")


def test_takes_trix_with_a_strong_hand_only() -> None:
    """Before pick ``trix_by_pick`` only a strong hand takes trix; the tuned default, 1,
    takes it wherever legal."""
    assert HeuristicStrategy().pick(obs(hand=H("JH 7S AS 7C AC 7D AD 8D"), legal=0x7F,
                                        pick=1))[0] == TRIX
    h = HeuristicStrategy(trix_by_pick=3)
    strong = obs(hand=H("JH QH KH JS 9S 8S JC QC"), legal=0x7F, pick=1)
    weak = obs(hand=H("JH 7S AS 7C AC 7D AD 8D"), legal=0x7F, pick=1)
    assert h.pick(strong)[0] == TRIX
    assert h.pick(weak)[0] != TRIX
    forced = obs(hand=H("7S AS 7C AC 7D AD 8D 7H"), legal=1 << TRIX, pick=6)
    assert h.pick(forced)[0] == TRIX


def test_picks_the_contract_the_hand_suits() -> None:
    """All low cards: a trick contract is cheap; K♥ alone with high hearts out: not ray."""
    h = HeuristicStrategy()
    o = obs(hand=H("7H 8H 7S 8S 7C 8C 7D 8D"), legal=0x3F, pick=1)
    assert h.pick(o)[0] in (0, 2, 3, 5)
    o = obs(hand=H("KH 7S 8S 7C 8C 7D 8D 9D"), legal=(1 << RAY) | (1 << PLI), pick=1)
    assert h.pick(o)[0] == PLI


def test_declares_when_the_king_can_be_dropped() -> None:
    h = HeuristicStrategy()
    drop = obs(contract=RAY, hand=H("KH 7S 8S"), legal=3, best_card=parse_card("AH"),
               trick_n=1, played=H("AH"))
    stuck = obs(contract=RAY, hand=H("KH 7S 8S 9S 7C 8C 7D 8D"), legal=3,
                best_card=parse_card("7H"), trick_n=1, played=H("7H"))
    assert h.declare(drop)[0] == 1
    assert h.declare(stuck)[0] == 0


def test_trix_placement_prefers_aces_and_own_chains() -> None:
    h = HeuristicStrategy()
    ace = obs(hand=H("AS 9H"), legal=H("AS 9H"), played=H("JS QS KS 10S JH"))
    assert h.place(ace)[0] == parse_card("AS")
    chain = obs(hand=H("QH KH 9C"), legal=H("QH 9C"), played=H("JH JC"))
    assert h.place(chain)[0] == parse_card("QH")


def test_beats_random_by_many_standard_errors() -> None:
    """heuristic in one seat (rotated over all four) against three random seats."""
    h, r = HeuristicStrategy(), RandomStrategy()
    diffs = []
    for seat in range(4):
        seats = [r] * 4
        seats[seat] = h
        st = play_batch(seats, 2024, range(seat * 500, seat * 500 + 500), game=TRIX_RULES)
        tot = st.totals.astype(float)
        diffs.append(tot[:, seat] - np.delete(tot, seat, axis=1).mean(axis=1))
    d = np.concatenate(diffs)
    se = d.std(ddof=1) / np.sqrt(len(d))
    assert d.mean() < -6 * se


def test_farcha_sheds_by_rank_not_by_card_index() -> None:
    """Early in farcha the heuristic leads its highest-ranked card (an ace), not its
    highest card index (a low spade, which the old rule took for a high card)."""
    h = HeuristicStrategy()
    o = obs(contract=FARCHA, hand=H("AH 7S 8S"), legal=H("AH 7S 8S"))
    assert card_name(int(h.play(o)[0])) == "AH"
    old = HeuristicStrategy(farcha_by_rank=False)
    assert card_name(int(old.play(o)[0])) == "8S"


def test_avoids_a_contract_that_would_take_it_over_1000() -> None:
    """On 100 the picker takes general (pick 5: the seventh pick's pull); on 900 the
    expected points of general would end the game against it, so it takes dineri."""
    hand = H("AH 9C KC 8D JD 7S QS 10S")
    low = obs(hand=hand, legal=0x3F, pick=5, seat=0, picker=0, totals=[100, 0, 0, 0])
    high = obs(hand=hand, legal=0x3F, pick=5, seat=0, picker=0, totals=[900, 0, 0, 0])
    h = HeuristicStrategy(seventh_weight=1.0, over_1000_penalty=150.0, trix_by_pick=3)
    assert int(h.pick(low)[0]) == GENERAL
    assert int(h.pick(high)[0]) == DINERI
    blind = HeuristicStrategy(seventh_weight=1.0, over_1000_penalty=0.0, trix_by_pick=3)
    assert int(blind.pick(high)[0]) == GENERAL
