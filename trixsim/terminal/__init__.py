"""The terminal table: one person against three bots, one text line at a time, in any
game that names a terminal plug-in (``Game.terminal``).

``session`` runs the game on a ``trixsim.table.Table`` (whose turn, the bots' moves, the
commands, the save) through two callables, one that asks for a line and one that prints,
so tests drive it with scripted input; ``text`` reads what the person types and
``names`` names the seats and paints words. Each game's plug-in (``trix``, ``trump7``)
says the rest in its own words. The click command (``trixsim play``) only wires it to
the terminal.

The names below load on first use: the games' narrators import ``trixsim.terminal.names``,
and importing the session here at once could import a narrator half-made.
"""

from __future__ import annotations

import importlib
from typing import Any

_FROM = {"OVER": "session", "QUIT": "session", "Session": "session", "damaged": "session",
         "game_record": "session", "load_save": "session", "terminal_of": "session",
         "Style": "names"}


def __getattr__(name: str) -> Any:
    """``trixsim.terminal.Session`` and the rest, imported when first asked for."""
    if name not in _FROM:
        raise AttributeError(f"module 'trixsim.terminal' has no attribute {name!r}")
    return getattr(importlib.import_module(f"trixsim.terminal.{_FROM[name]}"), name)


__all__ = ["OVER", "QUIT", "Session", "Style", "damaged", "game_record", "load_save",
           "terminal_of"]
