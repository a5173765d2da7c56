"""``check_fair_play``: a strategy decides only from what its seat may know, in any game.

Every decision of a few games is asked again in states that differ only in what the
deciding seat cannot see: the hidden cards dealt anew consistently with the public
history and checked by replaying that history through the rules, which is each game's own
(``Game.redeal_pairs``; Trix: the other seats' unplayed cards with its shown voids, a
declared K♥ and trix passes; trump7: the other hands and the stock's order with its
voids, the turned card's holder, the bids and the seat's own draws). The seat's whole
observation must be the same in both (else the engine leaks), and so must the strategy's
answer, from its methods and from its compiled policy (else the strategy finds hidden
cards by some other way: reading the hands in the state row, or walking the
interpreter's frames to the game state).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from trixsim.game import Game, Redeals
from trixsim.policykit import strategy_subkey
from trixsim.sim import decide, play_batch
from trixsim.strategy import Strategy
from trixsim.testing._common import GameLike, _action_text, _fail, _tag, game_for
from trixsim.testing.redeal import History, check_redeals

FAIR_GAMES = 8
"""Games whose decisions are re-dealt (the strategy in all four seats)."""
FAIR_DECISIONS = 300
"""Decisions re-dealt at most (the game chooses which; Trix: every one where the K♥
question is open, then others at random)."""

_SAME_HISTORY = ("in a deal of the hidden cards with the same public history (the cards "
                 "hidden from the seat dealt anew consistently with what it saw, and the "
                 "game replayed through the rules to the same decision)")


@dataclass(frozen=True)
class FairPlay:
    """What ``check_fair_play`` checked: in ``game``, ``decisions`` re-dealt, ``pairs`` of
    states compared, and re-deals the game ``rejected`` because they did not fit the public
    history when replayed (``reasons``: why, one line per kind with its count)."""

    game: str
    decisions: int
    pairs: int
    rejected: int
    reasons: tuple[str, ...] = ()


def offers_redeals(game: Game) -> bool:
    """Whether the game deals hidden cards anew for the fair-play check (a game without
    ``redeal_pairs``, or with it set to None, opts out)."""
    return callable(getattr(game, "redeal_pairs", None))


def check_fair_play(strategy: Strategy, games: int = FAIR_GAMES, seed: int = 0,
                    who: str | None = None, limit: int = FAIR_DECISIONS,
                    game: GameLike | None = None) -> FairPlay:
    """Re-deal the hidden cards of up to ``limit`` decisions of ``games`` games played by
    ``strategy`` in all four seats, and fail unless, for each re-deal:

    - ``hidden cards``: the strategy's methods, and its compiled policy if it has one (and
      the game plays compiled policies), give the same answer as in the game played;
    - ``public observation``: the deciding seat's whole observation (every field) is the
      same (a difference is a leak of the engine, which every strategy could exploit), and
      no field the game checks against the public history disagrees with it (Trix: its
      trix history);
    - ``re-deals``: the pairs are sound (same game, decision and seat, the seat's own
      hand kept, some hidden card moved) and not every re-deal drawn was rejected.

    ``game``: a Game or a registered name; None: the game the strategy is tagged with, and
    for a strategy of any game (``game = None``, like ``random``) the first registered game
    (``trix``), as before the kit took a game. A game without ``redeal_pairs`` cannot be
    checked (``re-deals`` fails). Raises an AssertionError naming the check, the game and
    the decision; returns what was checked.
    """
    who = who or f"check_fair_play({strategy.label!r})"
    rules = game_for(_tag(strategy), game, who)
    if not offers_redeals(rules):
        raise _fail(who, "re-deals", f"{rules.name} offers no re-deals of its hidden cards "
                    f"(Game.redeal_pairs), so fair play cannot be checked",
                    "See docs/adding-a-game.md, 'The conformance kit'")
    hist = History()
    play_batch([strategy] * 4, seed, range(games), observer=hist, game=rules)
    r = rules.redeal_pairs(hist.states, hist.actions, np.random.default_rng(seed), limit)
    check_redeals(rules, r, who)
    done = FairPlay(rules.name, r.asked, len(r), r.rejected, r.reasons)
    if not len(r):
        return done
    sa, sb = r.played, r.redealt
    la, lb = rules.legal_action_mask(sa), rules.legal_action_mask(sb)
    changed = _changed_fields(rules, sa, la, sb, lb)
    lineup = [strategy] * rules.n_seats
    answers = [("its methods", decide(sa, lineup, la, rules), decide(sb, lineup, lb, rules))]
    compiled = strategy.compiled()
    ask = getattr(rules, "policy_answers", None)
    if compiled is not None and ask is not None:
        policy, params = compiled
        subkey = strategy_subkey(seed)
        answers.append(("its compiled policy", ask(policy, params, sa, subkey),
                        ask(policy, params, sb, subkey)))
    decision = rules.decision(sa)
    for how, x, y in answers:
        bad = np.flatnonzero(np.asarray(x) != np.asarray(y))
        if bad.size:
            i = int(bad[0])
            leak = (f"; the observation itself changed in field(s) "
                    f"{', '.join(map(repr, changed[i]))}, so the engine reveals hidden "
                    f"information" if changed[i] else "")
            d = int(decision[i])
            raise _fail(who, "hidden cards",
                        f"{_where(r, i, seed)}: {how} answered "
                        f"{_action_text(rules, d, int(x[i]))} in the game played and "
                        f"{_action_text(rules, d, int(y[i]))} {_SAME_HISTORY}{leak}",
                        "A strategy may decide only from its observation, and a compiled "
                        "policy only from the public columns of the state row (its game's "
                        "policy module names them) and its own hand; neither may look for "
                        "the game state or the other seats' cards by other means")
    for i, fields in enumerate(changed):
        if fields:
            raise _fail(who, "public observation",
                        f"{_where(r, i, seed)}: field {fields[0]!r} of the deciding seat's "
                        f"observation changed {_SAME_HISTORY}",
                        "The engine reveals hidden information to every strategy: an "
                        "observation field must derive from public events only")
    return done


def _where(r: Redeals, i: int, seed: int) -> str:
    """The game and decision of pair ``i``, for messages."""
    return f"game {int(r.played.game_id[i])} (seed {seed}), {r.where[i]}"


def _changed_fields(game: Game, sa: Any, la: np.ndarray, sb: Any,
                    lb: np.ndarray) -> list[list[str]]:
    """Per pair, the fields of the deciding seat's observation (as strategies receive it)
    that differ."""
    idx = np.arange(sa.batch_size)
    oa = game.strategy_view(sa, idx, la, None)
    ob = game.strategy_view(sb, idx, lb, None)
    diff = {}
    for k in game.observation_fields:
        x, y = getattr(oa, k, None), getattr(ob, k, None)
        if x is None and y is None:
            continue
        if x is None or y is None or np.shape(x) != np.shape(y):
            diff[k] = np.ones(len(idx), dtype=bool)
            continue
        diff[k] = (np.asarray(x) != np.asarray(y)).reshape(len(idx), -1).any(axis=1)
    return [[k for k in diff if diff[k][i]] for i in range(len(idx))]


__all__ = ["FAIR_DECISIONS", "FAIR_GAMES", "FairPlay", "check_fair_play", "offers_redeals"]
