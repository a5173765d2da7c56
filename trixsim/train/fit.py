"""Fitting a learned policy: softmax regression over each decision's legal candidates.

Each decision is a choice among its candidates; model ``m`` scores candidate ``a`` as
``z_a = u_m · x_a + v_m · max(0, W_mᵀ x_a + b_m)`` (a linear part and, when the hidden
layer has units, a layer of rectified units), gives it the probability
``exp(z_a) / Σ exp(z_b)``, and the fit maximises the log-likelihood of the teacher's
choices, with an L2 penalty, by Adam on mini-batches of decisions drawn in a seeded order
(the same data give the same weights). numpy only: a million decisions fit in minutes, so
no learning framework is needed at training or at run time. Nothing here knows a game:
the candidates and their features are the trainee's (``Trainee.features``).
"""

from __future__ import annotations

import numpy as np

from trixsim.learned import Weights, scores

Decisions = dict[str, np.ndarray]
"""Labelled decisions, one entry per decision in every array: at least ``action`` (the
teacher's choice) and ``game`` (the deal), with whatever else the trainee's features
read."""
Candidates = dict[str, np.ndarray]
"""``X`` (candidates, features) float64, ``group`` (its decision, sorted), ``chosen``
(bool: the teacher's), ``model`` (per decision: which model scores it)."""
BATCH = 2048
"""Decisions per optimiser step."""


def join(parts: list[Decisions]) -> Decisions:
    """Decisions of several jobs, in the order given."""
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}


def _decisions(group: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """First candidate and number of candidates of each decision (``group`` sorted)."""
    starts = np.flatnonzero(np.r_[True, group[1:] != group[:-1]])
    return starts, np.diff(np.r_[starts, len(group)])


def fit(t: Candidates, w0: Weights, steps: int = 3000, lr: float = 0.003,
        l2: float = 1e-5, seed: int = 0) -> Weights:
    """Models fitted to the teacher's choices, from ``w0``: per model, ``steps`` Adam
    steps on mini-batches of ``BATCH`` decisions (a seeded shuffle of its decisions,
    epoch after epoch), the step size cut to a third for the last fifth."""
    w = {k: np.array(v, dtype=np.float64) for k, v in w0.items()}
    starts, sizes = _decisions(t["group"])
    dec_model = t["model"][t["group"][starts]]
    gen = np.random.default_rng(seed)
    for m in range(w["u"].shape[0]):
        mine = np.flatnonzero(dec_model == m)
        if not mine.size:
            continue
        p = {k: w[k][m].copy() for k in w}
        mom = {k: np.zeros_like(v) for k, v in p.items()}
        vel = {k: np.zeros_like(v) for k, v in p.items()}
        order = gen.permutation(mine)
        at = 0
        for k in range(1, steps + 1):
            if at >= len(order):
                order, at = gen.permutation(mine), 0
            batch = np.sort(order[at:at + BATCH])
            at += BATCH
            grad = _gradient(t, starts[batch], sizes[batch], p, l2)
            rate = lr if k <= 0.8 * steps else lr / 3
            for name, g in grad.items():
                mom[name] = 0.9 * mom[name] + 0.1 * g
                vel[name] = 0.999 * vel[name] + 0.001 * g * g
                p[name] -= rate * (mom[name] / (1 - 0.9 ** k)) / \
                    (np.sqrt(vel[name] / (1 - 0.999 ** k)) + 1e-8)
        for name in w:
            w[name][m] = p[name]
    return w


def _gradient(t: Candidates, first: np.ndarray, sizes: np.ndarray, p: Weights,
              l2: float) -> Weights:
    """The penalised negative log-likelihood's gradient, per decision, over the decisions
    whose candidates start at ``first`` (``sizes`` each)."""
    rows = np.repeat(first - np.r_[0, np.cumsum(sizes)[:-1]], sizes) + np.arange(sizes.sum())
    X, y = t["X"][rows], t["chosen"][rows]
    local = np.r_[0, np.cumsum(sizes)[:-1]]
    pre = X @ p["W"] + p["b"]
    h = np.maximum(pre, 0.0)
    z = X @ p["u"] + h @ p["v"]
    e = np.exp(z - np.repeat(np.maximum.reduceat(z, local), sizes))
    dz = (e / np.repeat(np.add.reduceat(e, local), sizes) - y) / len(first)
    dh = np.outer(dz, p["v"]) * (pre > 0)
    return {"u": X.T @ dz + l2 * p["u"], "v": h.T @ dz + l2 * p["v"],
            "W": X.T @ dh + l2 * p["W"], "b": dh.sum(axis=0)}


def agreement(t: Candidates, w: Weights) -> dict[int, list[float | int]]:
    """Per model: the share of decisions with more than one candidate where the model's
    best candidate is the teacher's, and how many such decisions there are."""
    starts, sizes = _decisions(t["group"])
    dec_model = t["model"][t["group"][starts]]
    z = np.empty(len(t["group"]))
    cand_model = np.repeat(dec_model, sizes)
    for m in range(w["u"].shape[0]):
        sel = cand_model == m
        if sel.any():
            z[sel] = scores(t["X"][sel], w, m)
    best = np.array([s + int(np.argmax(z[s:s + n])) for s, n in zip(starts, sizes, strict=True)])
    hit = t["chosen"][best]
    out: dict[int, list[float | int]] = {}
    for m in range(w["u"].shape[0]):
        sel = (dec_model == m) & (sizes > 1)
        if sel.any():
            out[m] = [float(hit[sel].mean()), int(sel.sum())]
    return out
