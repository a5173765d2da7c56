"""The web table: ``trixsim serve`` seats people and bots at any number of tables.

``tables`` holds the tables, seats, seat tokens and the game logic (no network);
``wire`` builds what each seat is sent, and only that; ``app`` is the Starlette
application (pages, the table API, one WebSocket per browser tab); ``static/`` is the
page itself (plain HTML, CSS and JavaScript, no build step).
"""

from __future__ import annotations
