"""Trix's paired aspects (part of Trix's report aspects, ``trix_aspects``): what the
duplicate pairing (``pairing``) reads of the contracts tables for a block of deals, and
the differences it takes of them on the same deal and seat, A − B.

- *contracts picked*: the picker's points per game in each contract it picks itself, the
  other three seats' points in it, and the seat's points in the contracts the others pick;
- *trix timing*: the pick number at which each of A and B took trix, and the final total
  on the deals where one took it earlier, at the same pick or later;
- *K♥ declaration*: ray and general contracts with the same contract number in both games
  of a pair and K♥ in the compared seat, split by the two decisions (declared or not).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from trixsim.reports.tables import RunFolder, RunReadError, batches, decode

from trixsim.games.trix.types import CONTRACT_NAMES

N_C = len(CONTRACT_NAMES)
RAY, GENERAL, TRIX = (CONTRACT_NAMES.index(c) for c in ("ray", "general", "trix"))
DECISIONS = ("both declare", "only A declares", "only B declares", "neither declares")
TIMINGS = ("A earlier", "same pick", "A later")
Add = Callable[..., None]
"""``add(aspect, cell, measure, values, weights)``: one paired measure's per-deal values."""
Rows = Callable[[dict], tuple[np.ndarray, np.ndarray]]
"""A table batch's (lineup row, deal) indices in a block, checked to lie in it."""


@dataclass
class DealData:
    """Trix's data of every game in a block of deals, by (lineup row, deal, seat).

    ``own[r, d, s, c]`` is seat s's points in contract c it picked itself (multipliers
    included, 0 if not played), ``table`` the other three seats' summed points in it;
    ``other`` seat s's points in contracts the others picked. ``trix_pick`` is the pick
    number of seat s's trix (0: not played). ``kh[r, d, k]`` codes contract number k+1
    when it is ray or general: ``which * 8 + holder * 2 + declared`` (-1 otherwise), with
    the holder's points (``kh_own``) and the other seats' summed points (``kh_table``).
    """

    own: np.ndarray
    table: np.ndarray
    other: np.ndarray
    trix_pick: np.ndarray
    kh: np.ndarray
    kh_own: np.ndarray
    kh_table: np.ndarray


def deal_data(lineups: int, deals: int) -> DealData:
    """Empty data for ``lineups`` lineup rows and ``deals`` deals."""
    n, h = lineups, deals
    return DealData(np.zeros((n, h, 4, N_C), dtype=np.int16),
                    np.zeros((n, h, 4, N_C), dtype=np.int16),
                    np.zeros((n, h, 4), dtype=np.int32), np.zeros((n, h, 4), dtype=np.int8),
                    np.full((n, h, 28), -1, dtype=np.int8),
                    np.zeros((n, h, 28), dtype=np.int16), np.zeros((n, h, 28), dtype=np.int16))


def read_deals(run: RunFolder, t: DealData, games: tuple[int, int], rows: Rows) -> None:
    """Read the contracts of games ``games`` (lo, hi) of ``run`` into ``t``."""
    names = {c: i for i, c in enumerate(CONTRACT_NAMES)}
    cols = ["game", "lineup", "number", "picker", "pick", "contract", "kh_holder", "declared",
            *(f"points_{s}" for s in range(4))]
    for b in batches(run, "contracts", cols, games=games):
        r, g = rows(b)
        c = decode(b["contract"], names)
        if c.size and c.max() >= N_C:
            raise RunReadError(f"{run.path}: unknown contract name in the contracts table")
        p = b["picker"].astype(np.int64)
        pts = np.stack([b[f"points_{s}"] for s in range(4)], axis=1).astype(np.int64)
        at = np.arange(len(r))
        total = pts.sum(axis=1)
        t.own[r, g, p, c] = pts[at, p]
        t.table[r, g, p, c] = total - pts[at, p]
        for s in range(4):
            np.add.at(t.other[:, :, s], (r, g), np.where(p != s, pts[:, s], 0))
        trix = c == TRIX
        t.trix_pick[r[trix], g[trix], p[trix]] = b["pick"][trix]
        holder = b["kh_holder"].astype(np.int64)
        kh = ((c == RAY) | (c == GENERAL)) & (holder >= 0) & (holder < 4)
        k = np.clip(b["number"].astype(np.int64), 1, 28)[kh] - 1
        h = holder[kh]
        code = (c[kh] == GENERAL) * 8 + h * 2 + b["declared"][kh].astype(np.int64)
        ri, gi = r[kh], g[kh]
        t.kh[ri, gi, k] = code
        t.kh_own[ri, gi, k] = pts[kh][np.arange(h.size), h]
        t.kh_table[ri, gi, k] = total[kh] - t.kh_own[ri, gi, k]


def pair_deals(t: DealData, i: int, j: int, s: int, ok: np.ndarray, diff: np.ndarray,
               add: Add) -> None:
    """Per-deal differences of row i (strategy A in seat s) minus row j (B), by aspect
    (``ok``: 1 where both games were played; ``diff``: A − B final totals)."""
    own = t.own[i, :, s].astype(np.float64) - t.own[j, :, s]
    table = (t.table[i, :, s].astype(np.float64) - t.table[j, :, s]) / 3
    for c, name in enumerate(CONTRACT_NAMES):
        add("contract", name, "picker", own[:, c], ok)
        add("contract", name, "table", table[:, c], ok)
    add("contract", "all own contracts", "picker", own.sum(axis=1), ok)
    add("contract", "all own contracts", "table", table.sum(axis=1), ok)
    add("contract", "contracts the others pick", "picker",
        t.other[i, :, s].astype(np.float64) - t.other[j, :, s], ok)
    # trix timing: which of A and B took trix earlier on the same deal and seat
    pa, pb = t.trix_pick[i, :, s].astype(np.int64), t.trix_pick[j, :, s].astype(np.int64)
    both = ok * ((pa > 0) & (pb > 0))
    rel = np.sign(pa - pb)
    add("trix", "", "A pick", pa, both)
    add("trix", "", "B pick", pb, both)
    add("trix", "", "pick diff", pa - pb, both)
    trix_pts = own[:, TRIX]
    for cell, r in zip(TIMINGS, (-1, 0, 1), strict=True):
        hit = both * (rel == r)
        add("trix", cell, "share", rel == r, both)
        add("trix", cell, "final", diff, hit)
        add("trix", cell, "trix points", trix_pts, hit)
        add("trix", cell, "per game", np.where(rel == r, diff, 0.0), both)
    add("trix", "timing differs", "share", rel != 0, both)
    add("trix", "timing differs", "final", diff, both * (rel != 0))
    _kh(t, i, j, s, ok, add)


def _kh(t: DealData, i: int, j: int, s: int, ok: np.ndarray, add: Add) -> None:
    """K♥: the same contract number is ray (or general) in both games and seat s holds
    K♥."""
    ka, kb = t.kh[i].astype(np.int64), t.kh[j].astype(np.int64)
    same = (ka >= 0) & (kb >= 0) & ((ka >> 3) == (kb >> 3)) & (((ka >> 1) & 3) == s)
    same &= ok[:, None] > 0
    da, db = ka & 1, kb & 1
    hold = t.kh_own[i].astype(np.float64) - t.kh_own[j]
    tab = (t.kh_table[i].astype(np.float64) - t.kh_table[j]) / 3
    for w, wname in ((0, "ray"), (1, "general")):
        in_w = same & ((ka >> 3) == w)
        n_w = in_w.sum(axis=1)
        for cell, (x, y) in zip(DECISIONS, ((1, 1), (1, 0), (0, 1), (0, 0)), strict=True):
            m = in_w & (da == x) & (db == y)
            cnt = m.sum(axis=1)
            name = f"{wname}: {cell}"
            add("kh", name, "share", cnt, n_w)
            add("kh", name, "holder", (hold * m).sum(axis=1), cnt)
            add("kh", name, "table", (tab * m).sum(axis=1), cnt)
            add("kh", name, "per game", (hold * m).sum(axis=1), ok)
    differ = same & (da != db)
    add("kh", "decisions differ", "per game", (hold * differ).sum(axis=1), ok)
