"""The public history in observations: completed tricks in playing order and the suits
each seat has shown out of, checked against an independent record of the cards played."""

from __future__ import annotations

import numpy as np

from tests.conftest import act, deal, table
from trixsim.games.trix import GAME as TRIX_RULES
from trixsim.games.trix import observe
from trixsim.games.trix.cards import parse_card
from trixsim.games.trix.observation import completed_tricks, shown_voids
from trixsim.games.trix.rules import legal_action_mask
from trixsim.games.trix.types import PLAY
from trixsim.loading import load_seats
from trixsim.sim import play_batch


class History:
    """Observer: every card played, per game and contract, with its seat, in order."""

    def __init__(self) -> None:
        self.plays: dict[tuple[int, int], list[tuple[int, int]]] = {}
        self.checked = 0

    def before_step(self, st, actions, legal) -> None:  # type: ignore[no-untyped-def]
        self._check(st)
        for g in np.flatnonzero(st.phase == PLAY):
            key = (int(st.game_id[g]), int(st.contract_no[g]))
            self.plays.setdefault(key, []).append((int(st.turn[g]), int(actions[g])))

    def after_step(self, st) -> None:  # type: ignore[no-untyped-def]
        pass

    def _check(self, st) -> None:  # type: ignore[no-untyped-def]
        live = np.flatnonzero(st.phase == PLAY)
        if not live.size:
            return
        obs = observe(st, live, legal_action_mask(st)[live])
        cards, leaders = completed_tricks(obs.trick_log)
        voids = shown_voids(obs.voids)
        for i, g in enumerate(live):
            plays = self.plays.get((int(st.game_id[g]), int(st.contract_no[g])), [])
            n_done = len(plays) // 4
            want_void = np.zeros((4, 4), dtype=bool)
            for k, (seat, card) in enumerate(plays):
                led = plays[k - k % 4][1] >> 3
                if card >> 3 != led:
                    want_void[seat, led] = True
            assert (voids[i] == want_void).all()
            for t in range(8):
                if t < n_done:
                    trick = plays[4 * t:4 * t + 4]
                    assert leaders[i, t] == trick[0][0]
                    assert [c for _, c in trick] == cards[i, t].tolist()
                    assert [s for s, _ in trick] == [(trick[0][0] + k) % 4 for k in range(4)]
                else:
                    assert leaders[i, t] == -1 and (cards[i, t] == -1).all()
            self.checked += 1


def test_history_matches_the_cards_played() -> None:
    hist = History()
    play_batch(load_seats("heuristic,random,random,heuristic", "trix"), 4, range(12),
               observer=hist, game=TRIX_RULES)
    assert hist.checked > 1000


def test_a_seat_that_fails_to_follow_is_shown_void() -> None:
    hands = deal("7H 8H 9H 10H QH KH AH 7C", "8C 9C 10C QC KC AC 7D 8D",
                 "JH JC JD JS 9D 10D QD KD", "AD 7S 8S 9S 10S QS KS AS")
    st = table(hands, picker=0)
    act(st, "pli", "AH", "8C", "JH", "7S")
    obs = observe(st, np.array([0]), legal_action_mask(st))
    voids = shown_voids(obs.voids)[0]
    assert voids[1, 0] and voids[3, 0]  # seats 1 and 3 showed out of hearts
    assert voids.sum() == 2
    cards, leaders = completed_tricks(obs.trick_log)
    assert leaders[0, 0] == 0 and leaders[0, 1] == -1
    assert cards[0, 0].tolist() == [parse_card(c) for c in ("AH", "8C", "JH", "7S")]
