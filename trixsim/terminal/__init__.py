"""The terminal table: one person against three bots, one text line at a time.

``text`` turns cards, hands, the trix layout and the game's events into lines and reads
what the person types; ``session`` runs the game on a ``trixsim.table.Table`` (whose turn,
the bots' moves, the "last trick" counter, the commands) through two callables, one that
asks for a line and one that prints, so tests drive it with scripted input. The click
command (``trixsim play``) only wires it to the terminal.

The names below load on first use: the games' narrators import ``trixsim.terminal.names``,
and importing the session here at once would import a narrator half-made.
"""

from __future__ import annotations

import importlib
from typing import Any

_FROM = {"OVER": "session", "QUIT": "session", "Session": "session",
         "game_record": "session", "load_save": "session", "Style": "text"}


def __getattr__(name: str) -> Any:
    """``trixsim.terminal.Session`` and the rest, imported when first asked for."""
    if name not in _FROM:
        raise AttributeError(f"module 'trixsim.terminal' has no attribute {name!r}")
    return getattr(importlib.import_module(f"trixsim.terminal.{_FROM[name]}"), name)


__all__ = ["OVER", "QUIT", "Session", "Style", "game_record", "load_save"]
