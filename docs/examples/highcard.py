"""``highcard``: a third game in about 290 lines, the worked example of docs/adding-a-game.md.

Twelve cards, ranks 0-11, three to each of four seats. Three rounds: seat 0 plays first,
then seats 1, 2, 3; each plays one card of its hand; the highest card of the round scores
1 point. Higher is better. Every method below is what ``trixsim.game.Game`` asks of a
game; the registry finds it through the ``trixsim.games`` entry point group. The parts
every game shares come from ``trixsim.gamekit``: the batch state's row layout, the
read-only observation and its field gathering, and the ``Game`` boilerplate.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import numpy as np
import pyarrow as pa

from trixsim import rng
from trixsim.errors import IllegalActionError
from trixsim.game import Action, ActionMask, Decision, DecisionId, Redeals
from trixsim.gamekit.events import EventLog
from trixsim.gamekit.game import CompiledGame
from trixsim.gamekit.observation import Columns, Observation, gather, own_hand
from trixsim.gamekit.state import BatchState, Layout, SeedChance
from trixsim.policykit import strategy_subkey
from trixsim.strategy import Strategy

N_CARDS, ROUNDS = 12, 3
PLAY, DONE = 0, 1
LAYOUT = Layout((  # name, width, initial value, meaning: one int64 row per game
    ("phase", 1, PLAY, "PLAY, or DONE once the game is over"),
    ("turn", 1, 0, "the seat to act"),
    ("round", 1, 0, "rounds finished (0-2)"),
    ("ply", 1, 0, "cards played so far (the key of the strategies' draws)"),
    ("hands", 4, 0, "per seat: its cards (12-bit masks; hidden)"),
    ("table", 4, -1, "per seat: the card it played this round, -1 none"),
    ("points", 4, 0, "per seat: points so far"),
    ("game_id", 1, 0, "the game's index in the run"),
))
COL = LAYOUT.col
PUBLIC: Columns = {"round": (COL["round"], 1, "rounds finished (0-2)"),
                   "table": (COL["table"], 4, "(n, 4) cards played this round, -1 none"),
                   "points": (COL["points"], 4, "(n, 4) points so far")}
FIELDS = {"legal": "legal-action mask (cards of the hand)", "key": "random key",
          "hand": "the seat's cards (12-bit mask)", "seat": "the seat deciding",
          **{name: doc for name, (_, _, doc) in PUBLIC.items()}}
GAMES_COLUMNS = {"game": "game index", "lineup": "lineup index",
                 "strategy_0..strategy_3": "each seat's strategy spec",
                 "points_0..points_3": "final points (rounds won)",
                 "winner_0..winner_3": "seat had the most points",
                 "loser_0..loser_3": "seat had the fewest points"}


class State(BatchState):
    """A batch of games, one row each: named views ``st.hands`` (B, 4), ``st.turn`` (B,),
    ...; ``copy``, ``take``, ``batch_size`` and ``run_seed`` come with BatchState."""

    __slots__ = ()
    layout = LAYOUT
    chance_type = SeedChance


class View(Observation):
    """What a seat sees in some games (fields as in FIELDS), one row per game; read-only."""

    __slots__ = ()
    FIELDS = tuple(FIELDS)
    what = "highcard observations"


class Events(EventLog):
    """highcard reports no events (its outcome is all in the final state)."""

    width, per_step = 4, 1


def observe(st: State, games: np.ndarray, legal: Any, fields: Any = None,
            viewer: Any = None) -> View:
    """What the seat to act (or ``viewer``) sees in ``games``: the public columns gathered
    as every game gathers them, its own hand apart, its random key."""
    seats = st.turn[games] if viewer is None else np.asarray(viewer, dtype=np.int64)
    legal = np.where(st.turn[games] == seats, np.asarray(legal).astype(np.int64), 0)
    out = gather(st.data, games, PUBLIC, FIELDS if fields is None else fields)
    out["hand"] = own_hand(st.data, games, COL["hands"], seats)[0]
    out["key"] = rng.hash_keys(strategy_subkey(st.run_seed), rng.STREAM_STRATEGY,
                               st.game_id[games], st.ply[games])
    return View({**out, "legal": legal, "seat": np.array(seats)})


def describe() -> dict[str, str]:
    """Every observation field with its meaning."""
    return dict(FIELDS)


class HighCard(CompiledGame):
    """The rules of highcard behind the Game protocol (CompiledGame gives ``decision``,
    ``to_act``, ``observe``, ``describe_observation`` and ``event_log``)."""

    done, observe_fn, describe_fn, event_log_type = DONE, observe, describe, Events

    name = "highcard"
    n_seats, n_actions = 4, N_CARDS
    decisions = (Decision(0, "play", "play"),)
    higher_is_better = True
    table_schemas = {"games": GAMES_COLUMNS}
    score_prefix = score_word = "points"
    observation_fields = tuple(FIELDS)
    events_module = SimpleNamespace(decode=lambda rows, ids: [], visible_to=lambda e, s: True)
    record_fields: tuple[str, ...] = ()
    check_summary = "points, winners and losers by the rules"

    # -- the rules -------------------------------------------------------------------
    def init(self, seed: int, game_ids: Any, first_pickers: Any = None,
             events: Any = None) -> State:
        st = State(LAYOUT.rows(game_ids), SeedChance(int(seed)))
        keys = rng.hash_keys(int(seed), 7, st.game_id, np.zeros_like(st.game_id))
        for g, key in enumerate(keys):  # a shuffle that depends on (seed, game) alone
            order = np.arange(N_CARDS)
            rng.shuffle(key, order)
            for s in range(4):
                st.hands[g, s] = sum(1 << int(c) for c in order[3 * s:3 * s + 3])
        return st

    def legal_action_mask(self, st: State) -> ActionMask:
        live = st.phase != DONE
        mask = st.hands[np.arange(st.batch_size), st.turn]
        return np.where(live, mask, 0).astype(np.uint64)

    def raw_legal(self, st: State) -> ActionMask:
        return self.legal_action_mask(st)

    def step(self, st: State, actions: np.ndarray, events: Any = None,
             legal: Any = None) -> ActionMask:
        a = np.asarray(actions, dtype=np.int64)
        mask = self.legal_action_mask(st).astype(np.int64)
        live = st.phase != DONE
        ok = ~live | ((a >= 0) & (a < N_CARDS) & ((mask >> np.clip(a, 0, 63)) & 1 == 1))
        if not ok.all():
            raise IllegalActionError("not a card of the hand", np.flatnonzero(~ok))
        for g in np.flatnonzero(live):
            t = st.turn[g]
            st.hands[g, t] &= ~(1 << a[g])
            st.table[g, t] = a[g]
            st.ply[g] += 1
            if t < 3:
                st.turn[g] = t + 1
                continue
            st.points[g, int(np.argmax(st.table[g]))] += 1
            st.table[g] = -1
            st.turn[g] = 0
            st.round[g] += 1
            st.phase[g] = DONE if st.round[g] == ROUNDS else PLAY
        return self.legal_action_mask(st)

    def why_illegal(self, st: State, game: int, action: Action) -> str | None:
        if st.phase[game] == DONE:
            return "the game is over"
        if 0 <= action < N_CARDS and (int(self.legal_action_mask(st)[game]) >> action) & 1:
            return None
        return f"seat {st.turn[game]} does not hold card {action}"

    def action_name(self, decision: DecisionId, action: Action) -> str:
        return f"card {action}"

    # -- what strategies see (``observe`` is any seat's view) ---------------------------
    def strategy_view(self, st: State, games: np.ndarray, legal: ActionMask,
                      fields: Any) -> Any:
        return observe(st, np.asarray(games, dtype=np.int64), legal, fields)

    # -- the loop's helpers ------------------------------------------------------------
    def pending(self, st: State, legal: ActionMask) -> tuple[np.ndarray, ...]:
        return (self.decision(st).astype(np.int64), st.turn.astype(np.int64),
                np.full(st.batch_size, -1, dtype=np.int64))

    def audit(self, st: State) -> Any:
        return SimpleNamespace(after_step=lambda s: (None, bool((s.phase != DONE).any())))

    def play_compiled(self, strategies: Any, seed: Any, game_ids: Any,
                      observer: Any = None) -> None:
        return None  # no compiled loop: the strategies' methods are asked

    # -- results and tables ------------------------------------------------------------
    def final_scores(self, st: State) -> np.ndarray:
        return st.points.copy()

    def winners_losers(self, scores: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        s = np.asarray(scores)
        return s == s.max(axis=1, keepdims=True), s == s.min(axis=1, keepdims=True)

    def outcomes(self, batch: int, lineup: int = 0) -> Any:
        def tables(st: State, specs: list[str]) -> dict[str, pa.Table]:
            win, lose = self.winners_losers(st.points)
            cols: dict[str, Any] = {"game": st.game_id,
                                    "lineup": np.full(st.batch_size, lineup, dtype=np.int8)}
            for s in range(4):
                cols[f"strategy_{s}"] = pa.array([specs[s]] * st.batch_size).dictionary_encode()
            for name, arr in (("points", st.points), ("winner", win), ("loser", lose)):
                for s in range(4):
                    cols[f"{name}_{s}"] = arr[:, s].astype(np.int8 if name == "points" else bool)
            return {"games": pa.table(cols)}
        return SimpleNamespace(tables=tables)

    def verify_tables(self, tables: dict[str, Any], start: int, stop: int,
                      rows: dict[str, int]) -> list[str]:
        g = tables["games"]
        pts = g[[f"points_{s}" for s in range(4)]].to_numpy(np.int64)
        win, lose = self.winners_losers(pts)
        problems = [f"game {int(x)}: points do not sum to {ROUNDS}"
                    for x in g["game"][pts.sum(axis=1) != ROUNDS]]
        for name, want in (("winner", win), ("loser", lose)):
            got = g[[f"{name}_{s}" for s in range(4)]].to_numpy(bool)
            problems += [f"game {int(x)}: {name}s are not by the rules"
                         for x in g["game"][(got != want).any(axis=1)]]
        return problems

    def legacy_tables(self, tables: dict[str, Any]) -> dict[str, Any]:
        return tables

    # -- for the conformance kit (trixsim.testing): fair play --------------------------
    def own_hands(self, st: State) -> np.ndarray:
        return st.hands.copy()

    def redeal_pairs(self, states: list[State], actions: list[np.ndarray],
                     gen: np.random.Generator, limit: int | None = None) -> Redeals:
        """Decisions with the other seats' cards dealt anew (each keeping its number),
        checked by replaying the game from that deal through ``step``: kept when it
        arrives at the same public state."""
        spots = [(k, g) for k, st in enumerate(states) for g in np.flatnonzero(st.phase != DONE)]
        spots = [spots[i] for i in sorted(gen.permutation(len(spots))[:limit].tolist())]
        public = [c for c in range(LAYOUT.width) if not COL["hands"] <= c < COL["hands"] + 4]
        pairs, rejected = [], 0
        for k, g in spots:
            row, me = states[k].data[g], int(states[k].turn[g])
            hands = [int(h) for h in row[COL["hands"]:COL["hands"] + 4]]
            pool = [c for s in range(4) if s != me for c in range(N_CARDS) if hands[s] >> c & 1]
            gen.shuffle(pool)
            for s in (s for s in range(4) if s != me):
                n = bin(hands[s]).count("1")
                hands[s], pool = sum(1 << c for c in pool[:n]), pool[n:]
            for j in range(k):  # back to the deal: each card played so far to its seat
                hands[int(states[j].turn[g])] |= 1 << int(actions[j][g])
            replay = State(LAYOUT.rows(row[COL["game_id"]:COL["game_id"] + 1]), states[0].chance)
            replay.hands[0] = hands
            try:
                for j in range(k):
                    self.step(replay, actions[j][g:g + 1])
            except IllegalActionError:
                rejected += 1
                continue
            if (replay.data[0, public] != row[public]).any():
                rejected += 1
            elif (replay.data[0] != row).any():
                pairs.append((row, replay.data[0]))
        a = np.array([x for x, _ in pairs], dtype=np.int64).reshape(-1, LAYOUT.width)
        b = np.array([y for _, y in pairs], dtype=np.int64).reshape(-1, LAYOUT.width)
        where = tuple(f"decision 'play' at ply {int(r[COL['ply']])} (seat {int(r[COL['turn']])})"
                      for r in a)
        return Redeals(State(a, states[0].chance), State(b, states[0].chance),
                       a[:, COL["turn"]].copy(), where, len(spots), rejected)


GAME = HighCard()


class CheapWinner(Strategy):
    """Wins a round as cheaply as it can, else throws its lowest card (keeping the high
    ones for later rounds)."""

    name = "cheap"
    game = "highcard"
    description = "the lowest card that beats the table so far, else the lowest card"
    observes = frozenset({"legal", "table"})
    policy = None  # no compiled policy: the method is asked

    def play(self, obs: Any) -> np.ndarray:
        """Per game, the lowest card of the hand above every card on the table, else the
        lowest card."""
        out = np.empty(len(obs), dtype=np.int64)
        for g, (mask, table) in enumerate(zip(obs.legal, obs.table, strict=True)):
            cards = [c for c in range(N_CARDS) if (int(mask) >> c) & 1]
            above = [c for c in cards if c > table.max()]
            out[g] = (above or cards)[0]
        return out
