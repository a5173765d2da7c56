"""Search shared by every game: sampled worlds and perfect-information Monte-Carlo.

- ``trixsim.search.deal``: deal the cards a seat cannot see from constraints its game
  supplies (holders, how many cards each takes, which it may take, which it is known to
  hold), compiled;
- ``trixsim.search.pimc``: the PIMC driver every game's ``pimc`` calls with its own
  world sampler, rollout and utility, compiled.

Each game's constraints live in its package (``trixsim.games.trix.worlds``,
``trixsim.games.trump7.worlds``). Trix's public-API search (``world_from``,
``hidden_cards``, ``play_out_contract``, ``WorldError``) now lives in
``trixsim.games.trix.search``; the names are still readable from here, loaded on first
use so that the generic modules import no game.
"""

from __future__ import annotations

from typing import Any

_TRIX_NAMES = ("CardMask", "WorldError", "hidden_cards", "play_out_contract", "world_from")


def __getattr__(name: str) -> Any:
    """Trix's search names, from their new home, on first use."""
    if name in _TRIX_NAMES:
        from trixsim.games.trix import search as trix_search

        return getattr(trix_search, name)
    raise AttributeError(f"module 'trixsim.search' has no attribute {name!r}")


__all__ = list(_TRIX_NAMES)
