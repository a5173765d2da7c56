"""The registry of rule sets, each behind the ``trixsim.game.Game`` interface.

Games are found through the ``trixsim.games`` entry-point group (entry name = game name,
value = ``module:attribute`` of a ``Game`` object), as strategies are through
``trixsim.strategies``: a package that declares one adds a game without changing trixsim.
This project declares its own (``trix``, ``trump7``, ``trump7-bid``) in pyproject.toml;
``BUILTIN`` names the same objects, so an install whose metadata predates a game still
finds it. Nothing below the command line assumes a game: callers name one.
"""

from __future__ import annotations

import difflib
import functools
import importlib
from importlib.metadata import entry_points

from trixsim.game import Game

ENTRY_POINT_GROUP = "trixsim.games"
BUILTIN: dict[str, str] = {
    "trix": "trixsim.games.trix:GAME",
    "trump7": "trixsim.games.trump7:GAME",
    "trump7-bid": "trixsim.games.trump7:BID_GAME",
}
"""This project's games, as its entry points declare them."""


class UnknownGameError(ValueError):
    """A game name nobody registered, or a registered game that fails to load."""


@functools.cache
def _targets() -> dict[str, str]:
    """Every registered game name -> ``module:attribute`` (entry points first, then the
    built-in ones they do not name)."""
    out: dict[str, str] = {}
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        out.setdefault(ep.name, ep.value)
    for name, target in BUILTIN.items():
        out.setdefault(name, target)
    return dict(sorted(out.items()))


def game_names() -> list[str]:
    """Every registered game's name, sorted."""
    return list(_targets())


@functools.cache
def get_game(name: str) -> Game:
    """The registered game called ``name``; UnknownGameError (one line) otherwise."""
    targets = _targets()
    if name not in targets:
        close = difflib.get_close_matches(str(name), list(targets), n=1, cutoff=0.6)
        mean = f"; did you mean {close[0]!r}?" if close else ""
        raise UnknownGameError(f"unknown game {name!r}{mean} (known: {', '.join(targets)})")
    module, _, attr = targets[name].partition(":")
    try:
        obj = importlib.import_module(module)
        for part in attr.split("."):
            obj = getattr(obj, part)
    except Exception as exc:
        raise UnknownGameError(f"game {name!r} ({targets[name]}) failed to load: "
                               f"{type(exc).__name__}: {exc}") from None
    if getattr(obj, "name", None) != name:
        raise UnknownGameError(f"game {name!r} ({targets[name]}) is not a Game named "
                               f"{name!r} (its name: {getattr(obj, 'name', None)!r})")
    return obj  # type: ignore[return-value]


def __getattr__(attr: str) -> object:
    if attr == "GAMES":  # the registered names, read when asked (entry points may change)
        return tuple(game_names())
    raise AttributeError(attr)


__all__ = ["BUILTIN", "ENTRY_POINT_GROUP", "GAMES", "UnknownGameError", "game_names",
           "get_game"]
