"""What the conformance checks share: the failure type, the game a check plays, and how
they word things."""

from __future__ import annotations

import numpy as np

from trixsim.game import Game
from trixsim.strategy import Strategy

GameLike = Game | str
"""A game as the checks take it: a ``Game`` object or a registered name."""

_PARAM_TYPES = (bool, int, float, str)
"""Types the loader converts command-line and TOML values to (trixsim.loading)."""
_SEVENS_GAMES = 28
"""Games replayed in batches of 7 (4 batches; each batch costs as much as a batch of
200, since a batch takes as many steps as its longest game)."""
_SINGLE_GAMES = 8
"""Games replayed one per batch (the slowest way to play, so few)."""


class ConformanceError(AssertionError):
    """A conformance check failed (an AssertionError, so pytest reports it as a failure)."""


def _fail(who: str, check: str, detail: str, hint: str = "") -> ConformanceError:
    """One paragraph: who failed which check, where, and what to do about it."""
    text = f"{who} failed the {check} check: {detail}"
    if hint:
        text += f". {hint}"
    return ConformanceError(" ".join(text.split()))


def default_game() -> str:
    """The game a check plays when neither the caller nor the strategy's tag names one:
    the first game registered (``trixsim.games.BUILTIN``'s first entry, ``trix``), the
    game the kit checked before it took a game."""
    from trixsim.games import BUILTIN

    return next(iter(BUILTIN))


def game_for(tag: str | None, game: GameLike | None, who: str) -> Game:
    """The game a check plays: ``game`` (a Game or a registered name) if given, else the
    game the strategy's tag names, else ``default_game()``. A strategy tagged with another
    game than the one given fails the ``game`` check."""
    from trixsim.games import get_game

    rules = get_game(game) if isinstance(game, str) else game
    if rules is None:
        return get_game(tag if tag is not None else default_game())
    if tag is not None and tag != rules.name:
        raise _fail(who, "game", f"the strategy plays {tag}, not {rules.name}",
                    "Check a strategy in the game it is tagged with (its `game`)")
    return rules


def _tag(strategy: Strategy) -> str | None:
    """The game a strategy's class is tagged with (None: any game)."""
    return getattr(strategy, "game", None)


def _action_text(game: Game, decision: int, action: int) -> str:
    """An action as a number with its meaning, e.g. ``9 (9H)`` or ``2 (pli)``."""
    name = game.action_name(decision, action)
    return f"{action} ({name})" if name != str(action) else str(action)


def _decision_name(game: Game, decision: int) -> str:
    """The name of a decision id of ``game`` (``play``, ``bid``)."""
    return game.decisions[decision].name if 0 <= decision < len(game.decisions) \
        else str(decision)


def _ids_text(ids: np.ndarray) -> str:
    """Game ids as ``0-199`` when consecutive ascending, else a short list."""
    ids = np.asarray(ids)
    if len(ids) > 1 and (np.diff(ids) == 1).all():
        return f"games {int(ids[0])}-{int(ids[-1])}"
    shown = ", ".join(str(int(g)) for g in ids[:8])
    return f"games {shown}{', ...' if len(ids) > 8 else ''}"
