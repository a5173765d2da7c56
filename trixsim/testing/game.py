"""``check_game``: any rule set behind the ``Game`` interface, checked through it alone.

Random play (uniform over each mask's actions) through ``init``, ``legal_action_mask``,
``step``, ``decision``, ``to_act``, ``observe``, ``why_illegal`` and ``action_name``, and
nothing else, so a second rule set is checked by the same code:

- a game's mask is empty exactly when it is over, and ``step`` returns the masks that
  ``legal_action_mask`` gives;
- ``why_illegal`` is None exactly for the mask's actions and names a reason otherwise;
- an illegal action is refused with the state unchanged;
- every legal action has a name;
- play is deterministic (same seed and actions, same states) and asking for events
  changes nothing;
- every game ends within ``max_steps``;
- for a game that ``advances`` (``step(..., advance=True)`` plays the actions nobody
  chooses), advancing plays the same games as stepping every action: the same choices at
  the same decisions end in the same states.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from trixsim.game import Game, mask_actions
from trixsim.testing._common import ConformanceError, _fail


def check_game(game: Game, games: int = 40, seed: int = 0, max_steps: int = 5000,
               events: Any = None) -> None:
    """Play ``games`` random games of ``game`` and check the interface's contract.

    ``events``: an event log the game's ``init``/``step`` accept, to check that asking for
    events changes nothing (skipped when None). Raises ConformanceError.
    """
    who = f"check_game({game.name!r})"
    rng = np.random.default_rng(seed)
    ids = np.arange(games)
    st = game.init(seed, ids)
    twin = game.init(seed, ids, events=events) if events is not None else game.init(seed, ids)
    if getattr(game, "advances", False):
        _check_advance(who, game, seed, ids, max_steps)
    legal = game.legal_action_mask(st)
    for n in range(max_steps):
        decision = game.decision(st)
        live = decision >= 0
        if not live.any():
            return
        if ((legal != 0) != live).any():
            g = int(np.flatnonzero((legal != 0) != live)[0])
            raise _fail(who, "masks", f"game {g}: mask {int(legal[g]):#x} with decision "
                        f"{int(decision[g])} (an empty mask must mean the game is over)")
        g = int(rng.choice(np.flatnonzero(live)))
        _check_reasons(who, game, st, g, int(legal[g]), int(decision[g]))
        _check_refused(who, game, st, g, int(legal[g]))
        actions = _random_actions(rng, legal, live)
        legal = game.step(st, actions)
        again = game.step(twin, actions, events=events) if events is not None else \
            game.step(twin, actions)
        if not np.array_equal(legal, again) or not _same(st, twin):
            raise _fail(who, "determinism", f"after step {n + 1} the same seed and actions "
                        "gave different states" + (" (one with events)" if events else ""))
        if not np.array_equal(legal, game.legal_action_mask(st)):
            raise _fail(who, "masks", f"step {n + 1} returned masks that differ from "
                        "legal_action_mask")
    raise _fail(who, "termination", f"games still running after {max_steps} steps")


def _play_choices(game: Game, seed: int, ids: np.ndarray, advance: bool,
                  max_steps: int) -> tuple[Any, int]:
    """Play games where each choice depends only on the game and how many choices it made
    before (a lone legal action is no choice): the final state and the steps taken."""
    st = game.init(seed, ids)
    legal = game.legal_action_mask(st)
    made = np.zeros(len(ids), dtype=np.int64)
    for n in range(max_steps):
        live = game.decision(st) >= 0
        if not live.any():
            return st, n
        actions = np.zeros(len(ids), dtype=np.int64)
        for g in np.flatnonzero(live):
            acts = mask_actions(int(legal[g]))
            if len(acts) > 1:
                pick = (int(ids[g]) * 7919 + int(made[g]) * 104729 + seed) % len(acts)
                actions[g] = acts[pick]
                made[g] += 1
            else:
                actions[g] = acts[0]
        legal = game.step(st, actions, **({"advance": True} if advance else {}))
        if advance and not np.array_equal(legal, game.legal_action_mask(st)):
            raise _fail(f"check_game({game.name!r})", "advance",
                        f"step {n + 1} with advance returned masks that differ from "
                        "legal_action_mask")
    raise _fail(f"check_game({game.name!r})", "termination",
                f"games still running after {max_steps} steps")


def _check_advance(who: str, game: Game, seed: int, ids: np.ndarray, max_steps: int) -> None:
    """Advancing plays the same games as stepping every action, in no more steps."""
    stepped, n_stepped = _play_choices(game, seed, ids, False, max_steps)
    advanced, n_advanced = _play_choices(game, seed, ids, True, max_steps)
    if not _same(stepped, advanced) or n_advanced > n_stepped:
        raise _fail(who, "advance", "step(..., advance=True) played other games than "
                    "stepping every action (the same choices at the same decisions)"
                    if not _same(stepped, advanced) else
                    f"advancing took {n_advanced} steps, more than the {n_stepped} of "
                    "stepping every action")


def _random_actions(rng: np.random.Generator, legal: np.ndarray,
                    live: np.ndarray) -> np.ndarray:
    actions = np.zeros(len(legal), dtype=np.int64)
    for g in np.flatnonzero(live):
        actions[g] = rng.choice(mask_actions(int(legal[g])))
    return actions


def _check_reasons(who: str, game: Game, st: Any, g: int, mask: int, decision: int) -> None:
    """why_illegal agrees with the mask on every action; legal actions have names."""
    for a in range(-1, game.n_actions + 1):
        why = game.why_illegal(st, g, a)
        allowed = 0 <= a < game.n_actions and (mask >> a) & 1 == 1
        if (why is None) != allowed or (why is not None and not why.strip()):
            raise _fail(who, "why_illegal", f"game {g}, action {a}: the mask says "
                        f"{'legal' if allowed else 'illegal'} but why_illegal said {why!r}")
        if allowed and not game.action_name(decision, a).strip():
            raise _fail(who, "action_name", f"action {a} of decision {decision} has no name")


def _check_refused(who: str, game: Game, st: Any, g: int, mask: int) -> None:
    """An illegal action is refused and leaves every game as it was."""
    illegal = [a for a in range(game.n_actions) if not (mask >> a) & 1]
    if not illegal:
        return
    probe = st.copy()
    actions = np.zeros(len(game.decision(st)), dtype=np.int64)
    live = game.decision(st) >= 0
    for k in np.flatnonzero(live):
        actions[k] = mask_actions(int(game.legal_action_mask(st)[k]))[0]
    actions[g] = illegal[0]
    try:
        game.step(probe, actions)
    except Exception:  # noqa: BLE001 - any refusal will do; what matters is nothing changed
        if not _same(probe, st):
            raise _fail(who, "refusal", f"game {g}: refusing action {illegal[0]} changed the "
                        "state") from None
        return
    raise ConformanceError(f"{who} failed the refusal check: game {g} accepted illegal "
                           f"action {illegal[0]}")


def _same(a: Any, b: Any) -> bool:
    data_a, data_b = getattr(a, "data", None), getattr(b, "data", None)
    if data_a is not None and data_b is not None:
        return bool(np.array_equal(data_a, data_b))
    return a == b


__all__ = ["check_game"]
