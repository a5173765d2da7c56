"""Per-seat observations: exactly what docs/rules.md §12 lets a player know, nothing more.

An Observation keeps a private copy of the state rows of its games with the hidden part
scrubbed (other seats' hands; the seed is not in the state at all: see ``chance``), and
no reference to the state, so other seats' hidden cards cannot be reached from it.
Fields are read-only views of that copy, made on first use.
"""

from __future__ import annotations

import functools

import numpy as np

from trixsim import rng
from trixsim.gamekit import observation as gamekit
from trixsim.gamekit.observation import Plan, gather_own, plan
from trixsim.games.trix.policy import DECLARE_TAG
from trixsim.games.trix.state import COL, WIDTH, GameState
from trixsim.games.trix.types import DECLARE, PLAY
from trixsim.policykit import strategy_subkey

_H = COL["hands"]

# field name -> (column, width, meaning); every public field of the state
_PUBLIC: dict[str, tuple[int, int, str]] = {
    "game": (COL["game_id"], 1, "global game index"),
    "seat": (COL["turn"], 1, "the seat deciding"),
    "decision": (COL["phase"], 1, "PICK, DECLARE, PLAY or PLACE"),
    "contract_no": (COL["contract_no"], 1, "0-based contract index in the game (0..27)"),
    "first_picker": (COL["first_picker"], 1, "seat that picked first in the game"),
    "picker": (COL["picker"], 1, "picker of this contract"),
    "contract": (COL["contract"], 1, "contract id, -1 while picking"),
    "used": (COL["used"], 4, "(n, 4): contracts each seat has used (bit per id)"),
    "totals": (COL["totals"], 4, "(n, 4): running totals"),
    "played_by": (COL["played_by"], 4, "(n, 4): cards each seat played/placed this contract"),
    "played": (COL["played"], 1, "all cards played/placed this contract"),
    "won": (COL["won"], 4, "(n, 4): cards each seat took in completed tricks"),
    "tricks": (COL["tricks"], 4, "(n, 4): tricks taken this contract"),
    "trick_no": (COL["trick_no"], 1, "completed tricks this contract"),
    "trick_cards": (COL["trick_cards"], 4, "(n, 4): current trick in playing order, -1 empty"),
    "trick_n": (COL["trick_n"], 1, "cards in the current trick"),
    "leader": (COL["leader"], 1, "leader of the current trick"),
    "best_card": (COL["best_card"], 1, "card winning the current trick, -1 none"),
    "best_seat": (COL["best_seat"], 1, "seat winning the current trick, -1 none"),
    "last_winner": (COL["last_winner"], 1, "winner of the last completed trick, -1 none"),
    "declared": (COL["declared"], 1, "seat that declared the king of hearts, -1 none"),
    "out_first": (COL["out_first"], 1, "trix: first seat out, -1 none"),
    "ply": (COL["ply"], 1, "public actions so far in the game: picks, cards, trix passes "
                           "and K♥ declarations (a holder keeping quiet is not counted)"),
    "voids": (COL["voids"], 1, "bit seat*4 + suit: the seat showed out of that suit this "
                               "contract (see shown_voids)"),
    "trick_log": (COL["trick_log"], 8, "(n, 8): completed tricks this contract, packed "
                                       "(see completed_tricks)"),
    "trix_log": (COL["trix_log"], 16, "(n, 16): trix moves this contract in order, with "
                                      "their seats, packed (see trix_history)"),
    "trix_n": (COL["trix_n"], 1, "trix: moves in trix_log"),
}
FIELDS = (*_PUBLIC, "legal", "hand", "hand_sizes", "key", "pick")
_OWN = ("legal", "hand", "hand_sizes", "key", "pick")


class Observation(gamekit.Observation):
    """What the acting seat knows, for ``n`` games at once (one row per game).

    Every field is an int64 array of length n, or (n, 4) indexed by seat; card sets are
    32-bit masks (trixsim.games.trix.cards). Besides the public fields of the state (see ``FIELDS``
    and ``describe()``): ``legal`` (the legal-action mask), ``hand`` (own cards),
    ``hand_sizes`` ((n, 4) cards each seat holds), ``pick`` (the picker's pick number,
    1..7) and ``key`` (a uint64 random key unique to this decision, for reproducible bots).

    A strategy that declares the fields it reads gets only those (they are gathered
    eagerly, so it pays for nothing else); reading an undeclared field is an error.
    """

    __slots__ = ()
    FIELDS = FIELDS

    def state_rows(self) -> np.ndarray:
        """Each game's state row rebuilt from the public fields, hands zeroed: what a
        compiled search kernel reads (``trixsim.games.trix.policy.C``). Needs every
        public field (a strategy with ``observes = None``)."""
        n = len(self)
        out = np.zeros((n, WIDTH), dtype=np.int64)
        for name, (col, width, _) in _PUBLIC.items():
            out[:, col:col + width] = np.asarray(getattr(self, name)).reshape(n, width)
        return out


def shown_voids(voids: np.ndarray) -> np.ndarray:
    """A (n, 4, 4) bool array from ``obs.voids``: [game, seat, suit] is True once that
    seat has failed to follow that suit in this contract (so it holds none of it)."""
    v = np.asarray(voids, dtype=np.int64)
    return ((v[:, None] >> np.arange(16)) & 1).astype(bool).reshape(-1, 4, 4)


def completed_tricks(trick_log: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """From ``obs.trick_log``: (cards (n, 8, 4) in playing order, leaders (n, 8)); tricks
    not yet completed hold -1. Seat of card k of a trick = (leader + k) % 4."""
    log = np.asarray(trick_log, dtype=np.int64)
    done = log >= 0
    cards = np.where(done[..., None], (log[..., None] >> (8 * np.arange(1, 5))) & 0xFF, -1)
    return cards, np.where(done, log & 0xFF, -1)


def trix_history(trix_log: np.ndarray, trix_n: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """From ``obs.trix_log`` and ``obs.trix_n``: (seats (n, 128), actions (n, 128)) of this
    contract's trix moves in order; an action is the card placed or PASS (32); entries
    after the last move hold -1."""
    log = np.asarray(trix_log, dtype=np.int64)
    b = ((log[..., None] >> (8 * np.arange(8))) & 0xFF).reshape(len(log), -1)
    done = np.arange(b.shape[1]) < np.asarray(trix_n, dtype=np.int64).reshape(-1, 1)
    return np.where(done, b >> 6, -1), np.where(done, b & 63, -1)


def describe() -> dict[str, str]:
    """Every observation field with its meaning."""
    out = {k: doc for k, (_, _, doc) in _PUBLIC.items()}
    out.update(legal="legal-action mask of this decision", hand="the seat's own cards",
               hand_sizes="(n, 4): cards each seat still holds",
               key="uint64 random key unique to this decision",
               pick="the picker's pick number, 1..7")
    return out


def observe(st: GameState, idx: np.ndarray, legal: np.ndarray,
            fields: frozenset[str] | None = None,
            viewer: np.ndarray | None = None) -> Observation:
    """The acting seat's observation for the games at ``idx`` (``legal`` is their mask).

    ``fields`` limits it to those fields (``legal`` is always there); None means all.
    ``viewer`` asks for other seats' views instead (a table showing a waiting player
    their hand): ``seat`` and ``hand`` are then the viewer's, ``legal`` is empty
    wherever the viewer is not the seat to act, and a K♥ holder's declaration question
    shows as ``decision`` PLAY (whether the seat to act holds the K♥ is hidden).
    """
    if fields is None:
        return _observe_all(st, idx, legal, viewer)
    idx = np.asarray(idx, dtype=np.int64)
    legal = np.asarray(legal, dtype=np.int64)
    if viewer is not None:
        viewer = _viewers(viewer, len(idx))
    # one compiled pass: the requested public columns (column-major, each field a
    # contiguous view), and apart from them the seat, its own hand, the hand sizes and
    # the columns the derived fields need; the other seats' hands are never copied out
    what, names = _plan(frozenset(fields), viewer is not None)
    got = gather_own(st.data, idx, what, _TURN, _H, 4, "hand" in fields,
                     "hand_sizes" in fields, viewer)
    ex = dict(zip(names, got.extra, strict=True))
    phase = ex.get("phase")
    if viewer is not None:
        waiting = viewer != ex["turn"]
        legal = np.where(waiting, 0, legal)
        phase = np.where(waiting & (phase == DECLARE), PLAY, phase)
    out: dict[str, np.ndarray] = {"legal": legal, **got.fields}
    if got.hand is not None:
        out["hand"] = got.hand
    if got.sizes is not None:
        out["hand_sizes"] = got.sizes
    if "key" in fields:
        out["key"] = _keys(st, ex["game_id"], ex["ply"], phase)
    if "pick" in fields:
        out["pick"] = ex["contract_no"] // 4 + 1
    if "seat" in fields:
        out["seat"] = got.seats
    if "decision" in fields:
        out["decision"] = phase.copy() if viewer is None else phase
    return Observation(out)


_TURN = COL["turn"]
_DERIVED = frozenset({"seat", "decision"})
"""Public fields built from other columns (the seat, the phase) rather than gathered."""


@functools.lru_cache(maxsize=256)
def _plan(fields: frozenset[str], viewing: bool) -> tuple[Plan, tuple[str, ...]]:
    """The gather for a set of fields (public ones in the state's column order), worked
    out once, and the names of the extra columns it copies for the derived fields."""
    need = ["turn", "phase"] if viewing else (
        ["phase"] if fields & {"key", "decision"} else [])
    if "key" in fields:
        need += ["ply", "game_id"]
    if "pick" in fields:
        need.append("contract_no")
    public = sorted((f for f in fields if f in _PUBLIC and f not in _DERIVED),
                    key=lambda f: _PUBLIC[f][0])
    return plan(_PUBLIC, public, [COL[k] for k in need]), tuple(need)


def _viewers(viewer: np.ndarray, n: int) -> np.ndarray:
    """The viewing seats, one per game; ValueError outside 0-3."""
    viewer = np.broadcast_to(np.asarray(viewer, dtype=np.int64), (n,))
    if ((viewer < 0) | (viewer > 3)).any():
        raise ValueError("viewer seats must be 0-3")
    return viewer.copy()


def _keys(st: GameState, game_id: np.ndarray, ply: np.ndarray,
          phase: np.ndarray) -> np.ndarray:
    """Each decision's random key (``policy.key_counter``, over arrays)."""
    counter = ply + np.where(phase == DECLARE, DECLARE_TAG, 0)
    return rng.hash_keys(strategy_subkey(st.run_seed), rng.STREAM_STRATEGY, game_id,
                         counter)


def _observe_all(st: GameState, idx: np.ndarray, legal: np.ndarray,
                 viewer: np.ndarray | None) -> Observation:
    """``observe`` with every field, and the scrubbed rows a search rebuilds worlds from."""
    data = st.data
    legal = np.asarray(legal, dtype=np.int64)
    seats = data[idx, COL["turn"]]
    phase = data[idx, COL["phase"]]
    if viewer is not None:
        viewer = _viewers(viewer, len(seats))
        waiting = viewer != seats
        legal = np.where(waiting, 0, legal)
        phase = np.where(waiting & (phase == DECLARE), PLAY, phase)
        seats = viewer
    out: dict[str, np.ndarray] = {"legal": legal}
    rows = data[idx]
    for name, (col, width, _) in _PUBLIC.items():
        out[name] = rows[:, col] if width == 1 else rows[:, col:col + width]
    hands = rows[:, _H:_H + 4]
    out["hand"] = hands[np.arange(len(seats)), seats].copy()
    out["hand_sizes"] = np.bitwise_count(hands).astype(np.int64)
    out["key"] = _keys(st, data[idx, COL["game_id"]], data[idx, COL["ply"]], phase)
    out["pick"] = data[idx, COL["contract_no"]] // 4 + 1
    out["seat"] = seats
    out["decision"] = phase
    hands[:] = 0  # the gathered rows must not carry other seats' hands
    rows[:, COL["phase"]] = phase  # nor a waiting viewer the declaration question
    out["_rows"] = rows  # for trixsim.games.trix.search.world_from: public columns only
    return Observation(out)
