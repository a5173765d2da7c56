"""Plain-int vocabularies shared by the engine, the strategies and the records."""

from __future__ import annotations

Contract = int
"""A contract id, 0..6 (see CONTRACT_NAMES)."""
Decision = int
"""What the seat to act must decide (PICK, DECLARE, PLAY, PLACE), or DONE."""
Action = int
"""An action: a contract id (PICK), 0/1 (DECLARE), a card (PLAY, PLACE) or PASS (PLACE)."""

DINERI, DAMET, PLI, FARCHA, RAY, GENERAL, TRIX = range(7)
CONTRACT_NAMES = ("dineri", "damet", "pli", "farcha", "ray", "general", "trix")
CONTRACT_BY_NAME = {name: i for i, name in enumerate(CONTRACT_NAMES)}
ALL_CONTRACTS = 0x7F
TRICK_CONTRACTS = (DINERI, DAMET, PLI, FARCHA, RAY, GENERAL)

PICK, DECLARE, PLAY, PLACE, DONE = range(5)
DECISION_NAMES = ("pick", "declare", "play", "place", "done")

PASS: Action = 32
"""The trix pass. It is the only action when the legal mask is empty in PLACE."""

N_SEATS = 4
N_CONTRACTS = 28
