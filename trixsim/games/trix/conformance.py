"""``check_game_engine``: random play through the Trix engine's calls, every property
checked at every step (Trix's own engine conformance; ``trixsim.testing.check_game``
checks any game through the ``Game`` protocol alone)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from trixsim.choice import choose_uniform
from trixsim.games.trix import (
    GAME,
    GameState,
    IllegalActionError,
    init,
    legal_action_mask,
    observe,
    step,
)
from trixsim.games.trix.chance import Chance
from trixsim.games.trix.observation import FIELDS
from trixsim.games.trix.redeal import History, pairs, trix_history_problems
from trixsim.games.trix.state import COL
from trixsim.games.trix.transitions import add_points
from trixsim.games.trix.types import DECISION_NAMES, DECLARE, DONE, PASS, PICK, PLACE
from trixsim.testing._common import (
    _action_text,
    _fail,
)

# ====================================================================== check_game_engine
# The engine calls the check makes, each in one small function, so that they can be
# switched to the Game interface when it comes.

def _new_games(seed: int, ids: np.ndarray) -> GameState:
    """Fresh games, dealt and waiting for the first decision."""
    return init(seed, ids)


def _legal(st: GameState) -> np.ndarray:
    """The legal-action mask of every game (int64; 0 for finished games)."""
    return legal_action_mask(st).astype(np.int64)


def _apply(st: GameState, actions: np.ndarray) -> np.ndarray:
    """Apply one action per game (IllegalActionError refuses them all); the new masks."""
    return step(st, actions).astype(np.int64)


def _to_act(st: GameState) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per game: the decision (DONE when finished), the seat to act, the game id, the ply."""
    return st.phase.copy(), st.turn.copy(), st.game_id.copy(), st.ply.copy()


def _snapshot(st: GameState) -> np.ndarray:
    """The whole state of every game, one row per game (to compare states)."""
    return st.data.copy()


def _copy(st: GameState) -> GameState:
    """An independent copy of the games."""
    return st.copy()


def _observation(st: GameState, idx: np.ndarray, legal: np.ndarray,
                 viewer: np.ndarray | None = None) -> dict[str, np.ndarray]:
    """Every field of the observation of the seat to act (or of ``viewer``) in games idx."""
    obs = observe(st, idx, legal[idx], None, viewer)
    return {k: np.array(getattr(obs, k)) for k in FIELDS}


def _hidden_variant(st: GameState, keep: np.ndarray, rng: np.random.Generator) -> GameState:
    """A copy in which the cards of the seats other than ``keep`` (one seat per game) are
    dealt anew among those seats, each keeping its number of cards: a state that differs
    only in what seat ``keep`` cannot see."""
    out = st.copy()
    hands = st.hands.astype(np.int64)
    n = st.batch_size
    others = np.arange(4)[None, :] != keep[:, None]
    pool = np.bitwise_or.reduce(np.where(others, hands, 0), axis=1)
    bits = (pool[:, None] >> np.arange(32)) & 1
    keys = rng.random((n, 32))
    keys[bits == 0] = 2.0
    order = np.argsort(keys, axis=1)  # the pool's cards first, in random order
    cum = np.cumsum(np.where(others, np.bitwise_count(hands), 0), axis=1)
    pos = np.arange(32)
    seat_of = (cum[:, None, :] <= pos[None, :, None]).sum(axis=2)
    valid = pos[None, :] < cum[:, -1:]
    cards = np.int64(1) << order
    for s in range(4):
        dealt = np.where(valid & (seat_of == s), cards, 0).sum(axis=1)
        out.hands[:, s] = np.where(others[:, s], dealt, hands[:, s])
    return out


def _seed_variant(st: GameState) -> GameState:
    """A copy played from another run seed (deals to come would differ, nothing seen now)."""
    out = st.copy()
    out.chance = Chance(out.chance.seed ^ 0x5DEECE66D)
    return out


def _scores(st: GameState) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per game: contracts finished, the last finished contract's points, the totals."""
    return st.contract_no.copy(), st.points.astype(np.int64), st.totals.astype(np.int64)


# ----------------------------------------------------------------------------------

def _nth_legal(legal: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Per game, the k-th legal action (ascending) and whether there is one."""
    bits = (legal[:, None] >> np.arange(32)) & 1
    sel = (np.cumsum(bits, axis=1) == k + 1) & (bits == 1)
    return sel.argmax(axis=1), sel.any(axis=1)


def _illegal_candidates(decision: int, legal: int) -> list[int]:
    """Actions the engine must refuse for a decision with this legal mask."""
    out = [-1, 33, 64, 2**40]
    if decision == PICK:
        out += [k for k in range(8) if not legal >> k & 1] + [31, PASS]
    elif decision == DECLARE:
        out += [k for k in range(2, 32) if not legal >> k & 1] + [PASS]
    else:
        out += [c for c in range(32) if not legal >> c & 1]
        if legal:
            out.append(PASS)
    return out


def _fingerprint(rows: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """One int64 per game that changes with any field of its row (wrapping arithmetic)."""
    return (rows * weights[None, :]).sum(axis=1)


def check_game_engine(games: int = 100, seed: int = 0) -> None:
    """Play ``games`` games with uniformly random legal actions through the engine's public
    calls and fail (AssertionError naming the check, the game and the ply) unless:

    - a live decision always has a legal action, except a forced trix pass (PLACE with an
      empty mask, whose action is PASS); finished games have an empty mask, and the mask
      ``step`` returns is the one ``legal_action_mask`` gives for the new state;
    - every legal action is accepted, and an illegal one (or a wrong number of actions) is
      refused, leaving every game unchanged;
    - stepping is deterministic: the same seed and actions give identical states at every
      step, also with the games in reverse order in the batch;
    - observations are scrubbed: states that differ only in cards the observing seat cannot
      see (other seats' hands; the run seed, except through ``key``) give identical
      observations, for the seat to act and for a waiting seat;
    - ``public history``: so do states reached by the same public history (picks, cards,
      trix passes, K♥ declarations) from deals that differ only in the cards hidden from
      the observing seat (re-dealt consistently with what was shown and replayed through
      the rules; ``trixsim.games.trix.redeal``), in a few of the games: no field, ``ply`` and
      ``key`` included, tells another seat what it did not see (a K♥ holder keeping quiet);
      and the trix history in the deciding seat's observation (``trix_log``, ``trix_n``)
      is the contract's placements and passes, in order, with their seats;
    - the totals are, after every contract, the previous totals plus its points with the
      1000 rule (``trixsim.games.trix.transitions.add_points``); games end when a total passes 1000
      or after 28 contracts, and never before.
    """
    if games < 1:
        raise ValueError("games must be at least 1")
    who = f"check_game_engine(games={games}, seed={seed})"
    rng = np.random.default_rng(seed)
    ids = np.arange(games, dtype=np.int64)
    st = _new_games(seed, ids)
    if not np.array_equal(_snapshot(_new_games(seed, ids)), _snapshot(st)):
        raise _fail(who, "determinism", "two inits with the same seed and games differ")
    width = _snapshot(st).shape[1]
    weights = np.random.default_rng(12345).integers(-2**62, 2**62, width, dtype=np.int64)
    history: list[np.ndarray] = []
    prints: list[np.ndarray] = [_fingerprint(_snapshot(st), weights)]
    account = _scores(st)[2].copy()
    counted = _scores(st)[0].copy()
    returned: np.ndarray | None = None
    hist = History(min(games, _HISTORY_GAMES))
    for _ in range(100_000):
        decision, turn, gid, ply = _to_act(st)
        live = decision != DONE
        if not live.any():
            break
        legal = _legal(st)

        def where(g: int, _d=decision, _t=turn, _gid=gid, _p=ply) -> str:
            return (f"game {int(_gid[g])} at ply {int(_p[g])} (decision "
                    f"{DECISION_NAMES[int(_d[g])]!r}, seat {int(_t[g])}, seed {seed})")

        _check_masks(who, decision, legal, returned, where)
        keys = rng.integers(0, 2**63, size=len(ids), dtype=np.uint64) * np.uint64(2)
        actions = choose_uniform(legal, keys)
        actions[(decision == PLACE) & (legal == 0)] = PASS
        actions[~live] = 0
        _check_every_legal_accepted(who, st, legal, actions, where)
        _check_illegal_refused(who, st, decision, legal, actions, rng, where)
        _check_scrubbed(who, st, decision, turn, legal, rng, where)
        hist.before_step(st, actions, legal)
        returned = _apply(st, actions)
        history.append(actions)
        prints.append(_fingerprint(_snapshot(st), weights))
        _check_totals(who, st, account, counted, where)
        _check_goes_on(who, st, where)
    else:
        raise _fail(who, "termination", "games did not finish within 100,000 steps")
    _check_end(who, st, seed)
    _check_replay(who, seed, ids, history, prints, weights)
    _check_public_history(who, hist, seed)


_HISTORY_GAMES = 6
"""Games whose decisions ``_check_public_history`` re-deals."""


def _check_public_history(who: str, hist: History, seed: int) -> None:
    """Same public history, same observation: for the seat to act and each waiting seat;
    and the trix history of the deciding seat's observation is the public one."""
    decisions = hist.decisions()
    where = tuple(f"decision {DECISION_NAMES[int(d.row[COL['phase']])]!r} at ply "
                  f"{int(d.row[COL['ply']])} (seat {d.seat}, seed {seed})" for d in decisions)
    problems = trix_history_problems(decisions, where)
    if problems:
        raise _fail(who, "public history", problems[0])
    for shift in range(4):
        a, b, viewers = pairs(decisions, np.random.default_rng(seed + shift), 150, shift)
        if not len(a):
            continue
        sa, sb = GameState(a, Chance(seed)), GameState(b, Chance(seed))
        idx = np.arange(len(a))
        oa = _observation(sa, idx, _legal(sa), viewers)
        ob = _observation(sb, idx, _legal(sb), viewers)
        for k in FIELDS:
            diff = (oa[k] != ob[k]).reshape(len(idx), -1).any(axis=1)
            if diff.any():
                i = int(np.flatnonzero(diff)[0])
                seen = "the seat to act" if shift == 0 else f"waiting seat {int(viewers[i])}"
                raise _fail(who, "public history",
                            f"field {k!r} of the observation of {seen} changed when the "
                            f"cards hidden from it were dealt anew consistently with the "
                            f"public history and the contract replayed to the same "
                            f"decision, in game {int(a[i, COL['game_id']])} at ply "
                            f"{int(a[i, COL['ply']])} (decision "
                            f"{DECISION_NAMES[int(a[i, COL['phase']])]!r}, seat "
                            f"{int(a[i, COL['turn']])}, seed {seed}): it reveals hidden "
                            f"information")


def _check_masks(who: str, decision: np.ndarray, legal: np.ndarray,
                 returned: np.ndarray | None, where: Callable[[int], str]) -> None:
    """Live decisions have legal actions (but forced trix passes); done games have none."""
    empty = (decision != DONE) & (decision != PLACE) & (legal == 0)
    if empty.any():
        raise _fail(who, "legal mask", f"the legal mask is empty in "
                                       f"{where(int(np.flatnonzero(empty)[0]))}: only a trix "
                                       f"seat with nothing to place may have no legal action")
    done = (decision == DONE) & (legal != 0)
    if done.any():
        raise _fail(who, "legal mask", f"a finished game has legal actions "
                                       f"({where(int(np.flatnonzero(done)[0]))})")
    if returned is not None and not np.array_equal(returned, legal):
        g = int(np.flatnonzero(returned != legal)[0])
        raise _fail(who, "legal mask", f"step returned mask {int(returned[g]):#x} but "
                                       f"legal_action_mask gives {int(legal[g]):#x} in {where(g)}")


def _check_every_legal_accepted(who: str, st: GameState, legal: np.ndarray,
                                actions: np.ndarray, where: Callable[[int], str]) -> None:
    """Each legal action of each game is accepted (tried on copies, k-th action of all
    games at once)."""
    most = int(np.bitwise_count(legal).max(initial=0))
    for k in range(most):
        pick, has = _nth_legal(legal, k)
        trial_actions = np.where(has, pick, actions)
        try:
            _apply(_copy(st), trial_actions)
        except IllegalActionError as exc:
            g = int(exc.games[0]) if len(getattr(exc, "games", ())) else 0
            d = int(_to_act(st)[0][g])
            raise _fail(who, "legal actions accepted",
                        f"the legal action {_action_text(GAME, d, int(trial_actions[g]))} was "
                        f"refused in {where(g)}: {exc}") from None


def _check_illegal_refused(who: str, st: GameState, decision: np.ndarray, legal: np.ndarray,
                           actions: np.ndarray, rng: np.random.Generator,
                           where: Callable[[int], str]) -> None:
    """An illegal action in one live game (or a wrong number of actions) is refused, and
    no game changes."""
    live = np.flatnonzero(decision != DONE)
    g = int(rng.choice(live))
    cands = _illegal_candidates(int(decision[g]), int(legal[g]))
    bad = actions.copy()
    bad[g] = cands[int(rng.integers(len(cands)))]
    trials = ((bad, f"illegal action {_action_text(GAME, int(decision[g]), int(bad[g]))}"),
              (actions[:-1], f"{len(actions) - 1} actions for {len(actions)} games"))
    for trial_actions, what in trials:
        trial = _copy(st)
        before = _snapshot(trial)
        try:
            _apply(trial, trial_actions)
        except IllegalActionError as exc:
            if trial_actions is bad and g not in np.asarray(getattr(exc, "games", [g])):
                raise _fail(who, "illegal actions refused",
                            f"the refusal of {what} in {where(g)} names other games "
                            f"({exc})") from None
        else:
            raise _fail(who, "illegal actions refused", f"{what} was accepted in {where(g)}")
        changed = (_snapshot(trial) != before).any(axis=1)
        if changed.any():
            raise _fail(who, "illegal actions refused",
                        f"refusing {what} in {where(g)} still changed "
                        f"{where(int(np.flatnonzero(changed)[0]))}")


def _check_scrubbed(who: str, st: GameState, decision: np.ndarray, turn: np.ndarray,
                    legal: np.ndarray, rng: np.random.Generator,
                    where: Callable[[int], str]) -> None:
    """Observations do not depend on what the observing seat cannot see."""
    idx = np.flatnonzero(decision != DONE)
    waiting = (turn + 1 + rng.integers(0, 3, len(turn))) % 4
    cases = (
        ("the other seats' hands", _hidden_variant(st, turn, rng), None, ()),
        ("the hands of the seats other than a waiting viewer",
         _hidden_variant(st, waiting, rng), waiting[idx], ()),
        ("the run seed", _seed_variant(st), None, ("key",)),
    )
    own: dict[str, np.ndarray] | None = None
    for what, variant, viewer, exempt in cases:
        other_legal = _legal(variant)
        if viewer is None and not np.array_equal(other_legal[idx], legal[idx]):
            g = int(idx[np.flatnonzero(other_legal[idx] != legal[idx])[0]])
            raise _fail(who, "scrubbed observations",
                        f"the legal mask changed with {what} in {where(g)}")
        if viewer is None:
            own = own if own is not None else _observation(st, idx, legal)
            a = own
        else:
            a = _observation(st, idx, legal, viewer)
        b = _observation(variant, idx, other_legal, viewer)
        shown = [k for k in FIELDS if k not in exempt]
        if b"".join(a[k].tobytes() for k in shown) == b"".join(b[k].tobytes() for k in shown):
            continue
        seen = "the seat to act" if viewer is None else "a waiting seat"
        for k in shown:
            if a[k].shape != b[k].shape:
                raise _fail(who, "scrubbed observations",
                            f"field {k!r} of the observation of {seen} changed shape with "
                            f"{what} only, in {where(int(idx[0]))}")
            diff = (a[k] != b[k]).reshape(len(idx), -1).any(axis=1)
            if diff.any():
                g = int(idx[np.flatnonzero(diff)[0]])
                raise _fail(who, "scrubbed observations",
                            f"field {k!r} of the observation of {seen} changed with {what} "
                            f"only, in {where(g)}: it reveals hidden information")


def _check_totals(who: str, st: GameState, account: np.ndarray, counted: np.ndarray,
                  where: Callable[[int], str]) -> None:
    """Each finished contract adds its points to the totals with the 1000 rule."""
    done_contracts, points, totals = _scores(st)
    for g in np.flatnonzero(done_contracts != counted):
        if done_contracts[g] != counted[g] + 1:
            raise _fail(who, "totals", f"{int(done_contracts[g] - counted[g])} contracts "
                                       f"ended in one step in {where(int(g))}")
        counted[g] = done_contracts[g]
        for s in range(4):
            account[g, s] = add_points(int(account[g, s]), int(points[g, s]))
        if not np.array_equal(totals[g], account[g]):
            raise _fail(who, "totals", f"after contract {int(counted[g])} the totals are "
                                       f"{totals[g].tolist()}, not the previous totals plus "
                                       f"the points {points[g].tolist()} with the 1000 rule "
                                       f"({account[g].tolist()}), in {where(int(g))}")
    if not np.array_equal(totals, account):
        g = int(np.flatnonzero((totals != account).any(axis=1))[0])
        raise _fail(who, "totals", f"the totals changed to {totals[g].tolist()} without a "
                                   f"contract ending (expected {account[g].tolist()}) in "
                                   f"{where(g)}")


def _check_goes_on(who: str, st: GameState, where: Callable[[int], str]) -> None:
    """A game still being played has no total above 1000 and fewer than 28 contracts."""
    contracts, _, totals = _scores(st)
    on = _to_act(st)[0] != DONE
    wrong = on & ((totals > 1000).any(axis=1) | (contracts >= 28))
    if wrong.any():
        g = int(np.flatnonzero(wrong)[0])
        raise _fail(who, "game end", f"a game goes on after {int(contracts[g])} contracts with "
                                     f"totals {totals[g].tolist()}, in {where(g)}")


def _check_end(who: str, st: GameState, seed: int) -> None:
    """Games end exactly when a total passes 1000 or after 28 contracts."""
    contracts, _, totals = _scores(st)
    over = (totals > 1000).any(axis=1)
    ok = (contracts <= 28) & (over | (contracts == 28)) & (totals != 1000).all(axis=1)
    if not ok.all():
        g = int(np.flatnonzero(~ok)[0])
        raise _fail(who, "game end", f"game {int(_to_act(st)[2][g])} (seed {seed}) ended after "
                                     f"{int(contracts[g])} contracts with totals "
                                     f"{totals[g].tolist()}")


def _check_replay(who: str, seed: int, ids: np.ndarray, history: list[np.ndarray],
                  prints: list[np.ndarray], weights: np.ndarray) -> None:
    """The same actions from the same seed give the same states at every step, with the
    games in the same order and in reverse order."""
    for order, what in ((np.arange(len(ids)), "in the same order"),
                        (np.arange(len(ids))[::-1], "in reverse order")):
        st = _new_games(seed, ids[order])
        for k in range(len(prints)):
            now = _fingerprint(_snapshot(st), weights)
            diff = np.flatnonzero(now != prints[k][order])
            if diff.size:
                g = int(ids[order][diff[0]])
                raise _fail(who, "determinism", f"replaying the same actions from the same "
                                                f"seed with the games {what} gave a different "
                                                f"state in game {g} after {k} steps")
            if k < len(history):
                _apply(st, history[k][order])
