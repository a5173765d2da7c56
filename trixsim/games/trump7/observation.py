"""Per-seat trump7 observations: what docs/rules-trump7.md lets a player know, no more.

An Observation holds private copies of the public columns of its games (every state
field except ``hands`` and ``stock``) plus the seat's own hand, and no reference to the
state, so the other hands and the order of the stock cannot be reached from it. The
seed is not in the state at all (``chance``); ``key`` comes from a one-way function of it.
"""

from __future__ import annotations

import numpy as np

from trixsim import rng
from trixsim.gamekit import observation as gamekit
from trixsim.gamekit.observation import gather, own_hand
from trixsim.games.trump7.cards import SUIT_MASK
from trixsim.games.trump7.state import COL, HIDDEN, GameState
from trixsim.games.trump7.state import FIELDS as STATE_FIELDS
from trixsim.policykit import strategy_subkey

# field name -> (column, width, meaning): every public field of the state
PUBLIC: gamekit.Columns = {
    name: (COL[name], width, doc) for name, width, _, doc in STATE_FIELDS if name not in HIDDEN
}
PUBLIC["game"] = PUBLIC.pop("game_id")
PUBLIC["seat"] = (COL["turn"], 1, "the seat deciding (the viewer)")
PUBLIC["decision"] = PUBLIC.pop("phase")
_OWN: dict[str, str] = {
    "legal": "legal-action mask of this decision (cards in PLAY, bids 0-13 in BID)",
    "hand": "the seat's own cards (a 52-bit mask)",
    "hand_sizes": "(n, 4): cards each seat holds (public: 7 + draws - plays)",
    "stock_left": "cards left in the stock, the turned card included",
    "key": "uint64 random key unique to this decision",
}
FIELDS = (*PUBLIC, *_OWN)


class Observation(gamekit.Observation):
    """What a seat knows, for ``n`` games at once (int64 arrays of length n, or (n, 4)
    indexed by seat); read-only. A strategy that declares the fields it reads gets only
    those; reading an undeclared one is an error."""

    __slots__ = ()
    FIELDS = FIELDS
    what = "trump7 observations"


def describe() -> dict[str, str]:
    """Every observation field with its meaning."""
    return {**{k: doc for k, (_, _, doc) in PUBLIC.items()}, **_OWN}


def suit_cards(mask: np.ndarray, suit: np.ndarray | int) -> np.ndarray:
    """The cards of ``suit`` in each mask (e.g. ``suit_cards(obs.hand, obs.trump)``)."""
    return np.asarray(mask, dtype=np.int64) & (SUIT_MASK << (13 * np.asarray(suit)))


def observe(st: GameState, idx: np.ndarray, legal: np.ndarray,
            fields: frozenset[str] | None = None,
            viewer: np.ndarray | None = None) -> Observation:
    """The acting seats' observations of the games at ``idx`` (``legal``: their masks).

    ``fields`` limits it to those (``legal`` always comes); None means all. ``viewer``
    asks for other seats' views: ``seat`` and ``hand`` are then the viewer's, and
    ``legal`` is empty wherever the viewer is not the seat to act.
    """
    idx = np.asarray(idx, dtype=np.int64)
    data = st.data
    legal = np.asarray(legal).astype(np.int64)
    seats = data[idx, COL["turn"]]
    if viewer is not None:
        viewer = np.broadcast_to(np.asarray(viewer, dtype=np.int64), seats.shape)
        if ((viewer < 0) | (viewer > 3)).any():
            raise ValueError("viewer seats must be 0-3")
        legal = np.where(viewer == seats, legal, 0)
        seats = viewer.copy()
    want = FIELDS if fields is None else fields
    out: dict[str, np.ndarray] = {"legal": legal}
    out.update(gather(data, idx, PUBLIC, want))
    if "seat" in want:
        out["seat"] = seats
    if "hand" in want or "hand_sizes" in want:
        hand, hands = own_hand(data, idx, COL["hands"], seats)
        if "hand" in want:
            out["hand"] = hand
        if "hand_sizes" in want:
            out["hand_sizes"] = np.bitwise_count(hands).astype(np.int64)
    if "stock_left" in want:
        out["stock_left"] = 24 - data[idx, COL["stock_n"]]
    if "key" in want:
        out["key"] = rng.hash_keys(strategy_subkey(st.run_seed), rng.STREAM_STRATEGY,
                                   data[idx, COL["game_id"]], data[idx, COL["ply"]])
    return Observation(out)


__all__ = ["FIELDS", "PUBLIC", "Observation", "describe", "observe", "suit_cards"]
