"""The kit's side of re-dealing: recording played games for a game's ``redeal_pairs``, and
checking that the pairs it returns are what the fair-play check needs.

What the hidden cards are, and how to deal them anew consistently with what a seat saw,
is each game's own (``Game.redeal_pairs``: Trix's ``trixsim.games.trix.redeal``, trump7's
``trixsim.games.trump7.redeal``). The kit only trusts a pair after checking, through the
protocol, that both states are the same game at the same decision of the same seat, with
that seat's own hand unchanged, and that the re-deals as a whole moved some hidden card.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from trixsim.game import Game, Redeals
from trixsim.testing._common import _fail

_REDEAL_HINT = ("The game's redeal_pairs must return, per pair, the same decision of the "
                "same game with the hidden cards dealt anew and the deciding seat's own "
                "cards kept")


class History:
    """An observer (``play_batch(..., observer=History())``) keeping the state before each
    step and the actions applied (copies), as ``Game.redeal_pairs`` takes them."""

    def __init__(self) -> None:
        self.states: list[Any] = []
        self.actions: list[np.ndarray] = []

    def before_step(self, st: Any, actions: np.ndarray, legal: np.ndarray) -> None:
        """Keep this step's state and actions."""
        self.states.append(st.copy())
        self.actions.append(np.asarray(actions, dtype=np.int64).copy())


def check_redeals(game: Game, r: Redeals, who: str) -> None:
    """Fail (``re-deals``) unless the pairs keep the game, the decision, the seat to act
    (the viewer) and its own hand, and some re-deal moved a hidden hand; fail (``public
    observation``) on a problem the game found in its observations; fail (``re-deals``)
    when every re-deal the game drew was rejected."""
    if r.problems:
        raise _fail(who, "public observation", r.problems[0],
                    "The engine's observation must follow from the public history alone, "
                    "as it happened")
    if not len(r):
        if r.rejected:
            raise _fail(who, "re-deals",
                        f"every one of the {r.rejected} re-deals {game.name} drew for "
                        f"{r.asked} decisions was rejected ({'; '.join(r.reasons)})",
                        "The game's sampling of the hidden cards misses a rule its replay "
                        "enforces")
        return
    sa, sb = r.played, r.redealt
    n = len(r)
    ha, hb = np.asarray(game.own_hands(sa)), np.asarray(game.own_hands(sb))
    same = [("game", np.asarray(sa.game_id), np.asarray(sb.game_id)),
            ("decision", game.decision(sa), game.decision(sb)),
            ("seat to act", game.to_act(sa), game.to_act(sb)),
            ("viewer", np.asarray(r.viewers), game.to_act(sa)),
            ("viewer's own hand", ha[np.arange(n), r.viewers], hb[np.arange(n), r.viewers])]
    for what, x, y in same:
        bad = np.flatnonzero(np.asarray(x) != np.asarray(y))
        if bad.size:
            i = int(bad[0])
            raise _fail(who, "re-deals", f"pair {i} of {game.name} (game "
                        f"{int(sa.game_id[i])}, {r.where[i]}): the {what} differs between "
                        f"the state played and the re-dealt one", _REDEAL_HINT)
    if (game.decision(sa) < 0).any():
        raise _fail(who, "re-deals", f"a pair of {game.name} is of a finished game",
                    _REDEAL_HINT)
    if (ha == hb).all():
        raise _fail(who, "re-deals", f"none of the {n} re-deals of {game.name} moved a "
                    f"card of another seat's hand", _REDEAL_HINT)


__all__ = ["History", "check_redeals"]
