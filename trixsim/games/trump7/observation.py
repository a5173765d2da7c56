"""Per-seat trump7 observations: what docs/rules-trump7.md lets a player know, no more.

An Observation holds private copies of the public columns of its games (every state
field except ``hands`` and ``stock``) plus the seat's own hand, and no reference to the
state, so the other hands and the order of the stock cannot be reached from it. The
seed is not in the state at all (``chance``); ``key`` comes from a one-way function of it.
"""

from __future__ import annotations

import functools

import numpy as np

from trixsim import rng
from trixsim.gamekit import observation as gamekit
from trixsim.gamekit.observation import Plan, gather_own, plan
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
_EXTRA = (COL["turn"], COL["stock_n"], COL["game_id"], COL["ply"])
"""The columns the derived fields are built from (seat to act, stock left, key)."""


@functools.lru_cache(maxsize=256)
def _plan(fields: frozenset[str]) -> Plan:
    """The gather for a set of fields, worked out once."""
    return plan(PUBLIC, sorted((f for f in fields if f in PUBLIC and f != "seat"),
                               key=lambda f: PUBLIC[f][0]), _EXTRA)


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
    legal = np.asarray(legal).astype(np.int64)
    if viewer is not None:
        viewer = np.broadcast_to(np.asarray(viewer, dtype=np.int64), idx.shape)
        if ((viewer < 0) | (viewer > 3)).any():
            raise ValueError("viewer seats must be 0-3")
        viewer = viewer.copy()
    want = FIELDS if fields is None else fields
    # one compiled pass: the public columns, and apart from them the seat, its own hand,
    # the hand sizes and the columns the derived fields need (never another hand)
    got = gather_own(st.data, idx, _plan(frozenset(want)), COL["turn"], COL["hands"], 4,
                     "hand" in want, "hand_sizes" in want, viewer)
    turn, stock_n, gid, ply = got.extra
    if viewer is not None:
        legal = np.where(viewer == turn, legal, 0)
    out: dict[str, np.ndarray] = {"legal": legal, **got.fields}
    if "seat" in want:
        out["seat"] = got.seats
    if got.hand is not None:
        out["hand"] = got.hand
    if got.sizes is not None:
        out["hand_sizes"] = got.sizes
    if "stock_left" in want:
        out["stock_left"] = 24 - stock_n
    if "key" in want:
        out["key"] = rng.hash_keys(strategy_subkey(st.run_seed), rng.STREAM_STRATEGY,
                                   gid, ply)
    return Observation(out)


__all__ = ["FIELDS", "PUBLIC", "Observation", "describe", "observe", "suit_cards"]
