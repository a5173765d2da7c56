"""What the conformance checks share: the failure type and how they word things."""

from __future__ import annotations

import numpy as np

from trixsim.games.trix import GAME
from trixsim.games.trix.types import DECLARE, PICK, PLACE, PLAY

_METHODS = ((PICK, "pick"), (DECLARE, "declare"), (PLAY, "play"), (PLACE, "place"))
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


def _action_text(decision: int, action: int) -> str:
    """An action as a number with its meaning, e.g. ``9 (9H)`` or ``2 (pli)``."""
    name = GAME.action_name(decision, action)
    return f"{action} ({name})" if name != str(action) else str(action)


def _ids_text(ids: np.ndarray) -> str:
    """Game ids as ``0-199`` when consecutive ascending, else a short list."""
    ids = np.asarray(ids)
    if len(ids) > 1 and (np.diff(ids) == 1).all():
        return f"games {int(ids[0])}-{int(ids[-1])}"
    shown = ", ".join(str(int(g)) for g in ids[:8])
    return f"games {shown}{', ...' if len(ids) > 8 else ''}"


