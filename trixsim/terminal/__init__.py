"""The terminal table: one person against three bots, one text line at a time.

``text`` turns cards, hands, the trix layout and the game's events into lines and reads
what the person types; ``session`` runs the game on a ``trixsim.table.Table`` (whose turn,
the bots' moves, the "last trick" counter, the commands) through two callables, one that
asks for a line and one that prints, so tests drive it with scripted input. The click
command (``trixsim play``) only wires it to the terminal.
"""

from __future__ import annotations

from trixsim.terminal.session import OVER, QUIT, Session, game_record, load_save
from trixsim.terminal.text import Style

__all__ = ["OVER", "QUIT", "Session", "Style", "game_record", "load_save"]
