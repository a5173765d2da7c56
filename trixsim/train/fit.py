"""Fitting a linear policy: softmax regression over each decision's legal candidates.

Each decision is a choice among its candidates; the model gives candidate ``a`` the
probability ``exp(w_m · x_a) / Σ exp(w_m · x_b)`` (``m``: the decision's model) and the
fit maximises the log-likelihood of the teacher's choices, with an L2 penalty, by full-batch
Adam from the previous weights. numpy only: a few hundred thousand candidates fit in
seconds, so no learning framework is needed. Nothing here knows a game: the candidates
and their features are the trainee's (``Trainee.features``); the weights are a matrix of
models by features.
"""

from __future__ import annotations

import numpy as np

Decisions = dict[str, np.ndarray]
"""Labelled decisions, one entry per decision in every array: at least ``action`` (the
teacher's choice) and ``game`` (the deal), with whatever else the trainee's features
read."""
Candidates = dict[str, np.ndarray]
"""``X`` (candidates, features) float64, ``group`` (its decision, sorted), ``chosen``
(bool: the teacher's), ``model`` (per decision: which row of the weights scores it)."""


def join(parts: list[Decisions]) -> Decisions:
    """Decisions of several jobs, in the order given."""
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}


def _softmax_parts(X: np.ndarray, group: np.ndarray, w: np.ndarray
                   ) -> tuple[np.ndarray, np.ndarray]:
    """Per candidate, its probability within its decision (``group`` sorted)."""
    z = X @ w
    starts = np.flatnonzero(np.r_[True, group[1:] != group[:-1]])
    zmax = np.maximum.reduceat(z, starts)
    sizes = np.diff(np.r_[starts, len(z)])
    e = np.exp(z - np.repeat(zmax, sizes))
    tot = np.add.reduceat(e, starts)
    return e / np.repeat(tot, sizes), starts


def fit(t: Candidates, w0: np.ndarray, steps: int = 300, lr: float = 0.05,
        l2: float = 1e-4) -> np.ndarray:
    """Weights (models, features), from ``w0`` of that shape, maximising the teacher's
    choices' likelihood."""
    w = np.array(w0, dtype=np.float64).copy()
    cand_model = t["model"][t["group"]]
    for m in range(w.shape[0]):
        sel = np.flatnonzero(cand_model == m)
        if not sel.size:
            continue
        X, g, y = t["X"][sel], t["group"][sel], t["chosen"][sel].astype(np.float64)
        n_dec = max(1, len(np.unique(g)))
        wm = w[m].copy()
        mom, vel = np.zeros_like(wm), np.zeros_like(wm)
        for k in range(1, steps + 1):
            p, _ = _softmax_parts(X, g, wm)
            grad = X.T @ (p - y) / n_dec + l2 * wm
            mom = 0.9 * mom + 0.1 * grad
            vel = 0.999 * vel + 0.001 * grad * grad
            wm -= lr * (mom / (1 - 0.9 ** k)) / (np.sqrt(vel / (1 - 0.999 ** k)) + 1e-8)
        w[m] = wm
    return w


def agreement(t: Candidates, w: np.ndarray) -> dict[int, list[float | int]]:
    """Per model (a row of ``w``, models by features): the share of decisions with more
    than one candidate where the model's best candidate is the teacher's, and how many
    such decisions there are."""
    w = np.asarray(w)
    z = np.einsum("ij,ij->i", t["X"], w[t["model"][t["group"]]])
    g = t["group"]
    starts = np.flatnonzero(np.r_[True, g[1:] != g[:-1]])
    sizes = np.diff(np.r_[starts, len(z)])
    out: dict[int, list[float | int]] = {}
    best = np.array([s + int(np.argmax(z[s:s + n])) for s, n in zip(starts, sizes, strict=True)])
    hit = t["chosen"][best]
    dec_model = t["model"][g[starts]]
    for m in range(w.shape[0]):
        sel = (dec_model == m) & (sizes > 1)
        if sel.any():
            out[m] = [float(hit[sel].mean()), int(sel.sum())]
    return out
