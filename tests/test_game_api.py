"""The ``Game`` interface for Trix: masks cover every action (the trix pass included),
``why_illegal`` agrees with the mask everywhere and says why, names read well."""

from __future__ import annotations

import numpy as np

from tests.conftest import act, deal, table
from trixsim.game import mask_actions
from trixsim.games import get_game
from trixsim.games.trix.cards import card_name, choose_uniform, parse_card
from trixsim.games.trix.types import PASS, PICK, PLACE
from trixsim.strategy import Strategy

GAME = get_game("trix")


def test_the_game_describes_itself() -> None:
    assert GAME.name == "trix" and GAME.n_seats == 4 and GAME.n_actions == 33
    assert [d.id for d in GAME.decisions] == list(range(4))
    for d in GAME.decisions:
        assert callable(getattr(Strategy, d.method))


def test_why_illegal_agrees_with_the_mask_in_random_games() -> None:
    """Every action of every sampled state: None exactly when the mask allows it, else a
    non-empty reason; forced passes are the only bit of their mask."""
    st = GAME.init(3, np.arange(24))
    rng = np.random.default_rng(0)
    legal = GAME.legal_action_mask(st)
    checked = passes = 0
    while (GAME.decision(st) >= 0).any():
        for g in rng.choice(st.batch_size, 3, replace=False):
            if GAME.decision(st)[g] < 0:
                assert legal[g] == 0 and GAME.why_illegal(st, g, 0) == "the game is over"
                continue
            mask = int(legal[g])
            for a in range(-1, GAME.n_actions + 1):
                why = GAME.why_illegal(st, int(g), a)
                assert (why is None) == (0 <= a < 33 and (mask >> a) & 1 == 1), (g, a, why)
                assert why is None or why.strip()
            if mask == 1 << PASS:
                passes += 1
                assert GAME.decision(st)[g] == PLACE
            checked += 1
        cards = legal & np.uint64(0xFFFFFFFF)
        keys = rng.integers(0, 2**62, st.batch_size)
        actions = np.where(legal == np.uint64(1 << PASS), PASS,
                           choose_uniform(cards.astype(np.uint32), keys)).astype(np.int64)
        actions[GAME.decision(st) < 0] = 0
        legal = GAME.step(st, actions)
    assert checked > 500 and passes > 0


def _trix_pick_state() -> object:
    hands = deal("7H 8H 9H 10H QH KH AH 7C", "8C 9C 10C QC KC AC 7D 8D",
                 "JH JC JD JS 9D 10D QD KD", "AD 7S 8S 9S 10S QS KS AS")
    return table(hands, picker=0)


def test_reasons_name_the_rule() -> None:
    st = _trix_pick_state()
    assert GAME.why_illegal(st, 0, 6) == "trix needs a jack in hand on picks 1-5 (pick 1)"
    assert GAME.why_illegal(st, 0, 9) == "9 is not a contract id (0-6)"
    act(st, "pli")
    assert GAME.why_illegal(st, 0, parse_card("8C")) == "seat 0 does not hold 8C"
    act(st, "AH")
    # seat 1 holds no heart: anything goes; seat 2 must follow with its only heart, JH
    act(st, "8C")
    assert GAME.why_illegal(st, 0, parse_card("JC")) == "seat 2 must follow hearts with JH"
    assert GAME.action_name(PICK, 2) == "pli"
    assert GAME.action_name(PLACE, PASS) == "pass"
    assert GAME.action_name(2, 7) == card_name(7)
    assert GAME.action_name(1, 1) == "declare" and GAME.action_name(1, 0) == "keep quiet"


def test_a_pass_is_refused_while_a_card_fits() -> None:
    hands = deal("JH 7H 8H 9H 10H QH KH AH", "8C 9C 10C QC KC AC 7D 8D",
                 "7C JC JD JS 9D 10D QD KD", "AD 7S 8S 9S 10S QS KS AS")
    st = table(hands, picker=0)
    act(st, "trix")
    mask = int(GAME.legal_action_mask(st)[0])
    assert [card_name(a) for a in mask_actions(mask)] == ["JH"]
    assert GAME.why_illegal(st, 0, PASS) == "seat 0 cannot pass: it can place JH"
