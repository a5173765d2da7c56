"""The terminal table: one person against three bots, one text line at a time, in any
game that names a terminal plug-in (``Game.terminal``).

``session`` runs the game on a ``trixsim.table.Table`` (whose turn, the bots' moves, the
commands, the save) through two callables, one that asks for a line and one that prints,
so tests drive it with scripted input; ``text`` reads what the person types and
``names`` names the seats and paints words. Each game's plug-in (``trix``, ``trump7``)
says the rest in its own words. The click command (``trixsim play``) only wires it to
the terminal.
"""

from __future__ import annotations

from trixsim.terminal.names import Style
from trixsim.terminal.session import (
    OVER,
    QUIT,
    Session,
    damaged,
    game_record,
    load_save,
    terminal_of,
)

__all__ = ["OVER", "QUIT", "Session", "Style", "damaged", "game_record", "load_save",
           "terminal_of"]
