"""Trix's check of its outcome tables: every contract row re-derived by the rules.

``trixsim check`` reads a chunk's tables and asks the game for the rows that break its
rules (``check_rows``). Each row is checked on its own and against the rows of its game:
who picked (the turn order from the first picker), the pick number, the multiplier and the
forced flag; a contract picked once per seat, trix only with a jack before pick 6 and by pick
6 at the latest; tricks that add up to the tricks played (all 8 in pli, farcha and general,
none in trix), the cards each seat took (4 per trick, no card twice, K♥ where ``kh_taker``
says, every diamond / queen / K♥ taken when dineri / damet / ray ended); the declaration (ray
and general only); and each seat's points recomputed from the cards taken, the tricks, the
last trick, the K♥ taker and declaration and the trix exits, with the multiplier and the
-50. Rows of runs written before the tables held the cards taken (``won_*``) and the last
trick's taker (format trixsim-run/1) are checked without them: their dineri, damet, farcha
and general points are then not recomputed (``LIMITS`` says so).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from trixsim.games.trix.cards import DIAMOND_MASK, JACKS, KH_MASK, QUEENS, popcount
from trixsim.games.trix.types import CONTRACT_NAMES, DAMET, DINERI, FARCHA, GENERAL, PLI, RAY, TRIX

Columns = Mapping[str, np.ndarray]
LIMITS = ("rows without the cards taken (runs of format trixsim-run/1): the points of "
          "dineri, damet, farcha and general are not recomputed")


def _quad(c: Columns, name: str) -> np.ndarray:
    return np.stack([np.asarray(c[f"{name}_{s}"], dtype=np.int64) for s in range(4)], axis=1)


def _trick_points(contract: np.ndarray, won: np.ndarray, tricks: np.ndarray,
                  last: np.ndarray, kh_taker: np.ndarray, declared: np.ndarray
                  ) -> np.ndarray:
    """Each seat's points before the multiplier and the -50 (§4-§8), by contract."""
    seat = np.arange(4)[None, :]
    nd = popcount(won & DIAMOND_MASK).astype(np.int64)
    dineri = np.where(nd == 8, 150, 10 * nd)
    damet = 20 * popcount(won & QUEENS).astype(np.int64)
    pli = np.where(tricks == 8, 150, 10 * tricks)
    farcha = np.where(last[:, None] == seat, 100, 0)
    ray = np.where(kh_taker[:, None] == seat, np.where(declared[:, None], 200, 100), 0)
    general = np.where(tricks == 8, 0, dineri + damet + pli + farcha + ray)
    table = np.stack([dineri, damet, pli, farcha, ray, general, np.zeros_like(pli)])
    return table[np.clip(contract, 0, 6), np.arange(len(contract))]


def check_rows(c: Columns, first_picker: np.ndarray, first_game: int,
               limit: int = 10) -> list[str]:
    """The rows of one chunk's contract table that break the rules, one line each
    (``game G, contract N (name): the rule``), at most ``limit``. ``c`` holds the table's
    columns as arrays with ``contract`` as ids 0-6; ``first_picker[k]`` is game
    ``first_game + k``'s first picker; rows are in (game, number) order."""
    n = len(c["game"])
    if n == 0:
        return []
    col = {k: np.asarray(v, dtype=np.int64) for k, v in c.items()}
    game, number, picker, pick = col["game"], col["number"], col["picker"], col["pick"]
    contract, mult, declared = col["contract"], col["multiplier"], col["declared"] != 0
    holder, kh_taker, played = col["kh_holder"], col["kh_taker"], col["tricks_played"]
    tricks, points = _quad(c, "tricks"), _quad(c, "points")
    hand = col["picker_hand"]
    has_won = "won_0" in c
    rows = np.arange(n)
    trix = contract == TRIX
    checks: list[tuple[np.ndarray, str]] = []

    def rule(bad: np.ndarray, text: str) -> None:
        checks.append((np.asarray(bad, dtype=bool), text))

    # who picks what (§3, §4)
    k = np.clip(game - first_game, 0, len(first_picker) - 1)
    rule((contract < 0) | (contract > 6), "unknown contract")
    rule(picker != (np.asarray(first_picker, dtype=np.int64)[k] + number - 1) % 4,
         "picker is not the seat whose turn it was to choose (§3)")
    rule(pick != (number - 1) // 4 + 1, "pick number does not follow the contract number (§3)")
    rule(mult != np.where(trix, 1, np.where(pick == 7, 4, 2)),
         "multiplier is not 2, 4 on the 7th pick, 1 in trix (§4)")
    key = (game * 4 + picker) * 8 + contract
    order = np.argsort(key, kind="stable")
    dup = np.zeros(n, dtype=bool)
    dup[order[1:]] = key[order[1:]] == key[order[:-1]]
    rule(dup, "the picker chose this contract before in the game (§3)")
    rule(trix & (pick <= 5) & ((hand & JACKS) == 0),
         "trix chosen before the 6th pick without a jack (§3)")
    seat_trix = np.zeros((int(game.max() - game.min()) + 1, 4), dtype=np.int64) + 99
    g0 = game - game.min()
    np.minimum.at(seat_trix, (g0[trix], picker[trix]), pick[trix])
    rule((pick == 6) & ~trix & (seat_trix[g0, picker] > 6),
         "trix still unused at the picker's 6th pick, where it is the only choice (§3)")
    rule((col["forced"] != 0) != ((pick == 7) | ((pick == 6) & trix)),
         "forced flag: only the 7th pick and trix at the 6th are forced (§3)")
    rule(((hand & KH_MASK) != 0) != (holder == picker),
         "K♥ holder does not match the picker's hand as dealt")
    rule(declared & (contract != RAY) & (contract != GENERAL),
         "K♥ declared outside ray and general (§5)")

    # tricks and cards taken
    trick_rows = ~trix
    rule(trix & ((played != 0) | (tricks != 0).any(axis=1) | declared | (kh_taker != -1)),
         "trix has no tricks, no K♥ taker and no declaration (§11)")
    rule(trick_rows & (tricks.sum(axis=1) != played),
         "the seats' tricks do not add up to the tricks played")
    rule(trick_rows & ((played < 1) | (played > 8) | (tricks < 0).any(axis=1)),
         "tricks played outside 1..8")
    rule(np.isin(contract, (PLI, FARCHA, GENERAL)) & (played != 8),
         "pli, farcha and general play all 8 tricks (§6)")
    if has_won:
        won, last = _quad(c, "won"), col["last_trick"]
        union = np.bitwise_or.reduce(won, axis=1)
        rule((popcount(won).astype(np.int64) != 4 * tricks).any(axis=1)
             | (popcount(union).astype(np.int64) != 4 * played),
             "the cards taken are not 4 per trick, each card once")
        taker = np.where((won & KH_MASK) != 0, np.arange(4)[None, :], -1).max(axis=1)
        rule(taker != kh_taker, "kh_taker is not the seat whose cards taken hold K♥")
        rule(trick_rows & ((last < 0) | (last > 3)
                           | (tricks[rows, np.clip(last, 0, 3)] < 1)),
             "the last trick's taker took no trick")
        rule(trix & ((won != 0).any(axis=1) | (last != -1)), "trix takes no cards (§11)")
        rule((contract == DINERI) & ((union & DIAMOND_MASK) != DIAMOND_MASK),
             "dineri ended before every diamond was taken (§6)")
        rule((contract == DAMET) & ((union & QUEENS) != QUEENS),
             "damet ended before every queen was taken (§6)")
    rule((contract == RAY) & (kh_taker < 0), "ray ended before K♥ was taken (§6)")

    # points
    seat = np.arange(4)[None, :]
    if has_won:
        base = _trick_points(contract, won, tricks, last, kh_taker, declared)
        derived = np.ones(n, dtype=bool)
    else:  # pli and ray only: the others need the cards taken
        dummy = np.zeros((n, 4), dtype=np.int64)
        base = _trick_points(contract, dummy, tricks, np.full(n, -1), kh_taker, declared)
        derived = np.isin(contract, (PLI, RAY))
    want = np.where(seat == picker[:, None], base * mult[:, None], base)
    minus = declared & (holder != kh_taker) & (holder >= 0) & (holder <= 3)
    want[rows[minus], holder[minus]] -= 50
    first, second = col["trix_first"], col["trix_second"]
    ok_out = (first >= 0) & (first <= 3) & (second >= 0) & (second <= 3) & (first != second)
    trix_want = np.zeros((n, 4), dtype=np.int64)
    trix_want[rows[trix & ok_out], first[trix & ok_out]] = -100
    trix_want[rows[trix & ok_out], second[trix & ok_out]] = -50
    rule(trix & ~ok_out, "trix needs two different seats out, first and second (§11)")
    rule(~trix & ((first != -1) | (second != -1)), "seats out of cards outside trix")
    rule(trix & ok_out & (points != trix_want).any(axis=1),
         "points are not -100 to the first out, -50 to the second, 0 to the others (§11)")
    for cid, text in _POINT_RULES.items():
        rule((contract == cid) & derived & (points != want).any(axis=1),
             f"points {{points}} are not the rules' {{want}} ({text})")

    bad_any = np.zeros(n, dtype=bool)
    for bad, _ in checks:
        bad_any |= bad
    out: list[str] = []
    for r in np.flatnonzero(bad_any)[:limit]:
        text = next(t for bad, t in checks if bad[r])
        text = text.format(points=points[r].tolist(), want=want[r].tolist())
        name = CONTRACT_NAMES[contract[r]] if 0 <= contract[r] <= 6 else str(contract[r])
        out.append(f"game {game[r]}, contract {number[r]} ({name}): {text}")
    return out


_POINT_RULES = {
    DINERI: "dineri: +10 a diamond taken, 150 for all 8; the picker's x2, x4 on pick 7",
    DAMET: "damet: +20 a queen taken; the picker's x2, x4 on pick 7",
    PLI: "pli: +10 a trick, 150 for all 8; the picker's x2, x4 on pick 7",
    FARCHA: "farcha: +100 for the last trick; the picker's x2, x4 on pick 7",
    RAY: "ray: +100 for taking K♥, +200 if declared, -50 unmultiplied to a declared holder "
         "who did not take it; the picker's x2, x4 on pick 7",
    GENERAL: "general: the five contracts' points together, 0 for taking all 8 tricks, the "
             "holder's -50; the picker's x2, x4 on pick 7",
}

__all__ = ["LIMITS", "check_rows"]
