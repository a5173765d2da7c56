"""Fitting the linear policy: softmax regression over each decision's legal candidates.

Each decision is a choice among its candidates; the model gives candidate ``a`` the
probability ``exp(w_m · x_a) / Σ exp(w_m · x_b)`` (``m``: the decision's model) and the
fit maximises the log-likelihood of the teacher's choices, with an L2 penalty, by full-batch
Adam from the previous weights. numpy only: a few hundred thousand candidates fit in
seconds, so no learning framework is needed.
"""

from __future__ import annotations

import numpy as np

from trixsim.strategies import _expert_kernels as K
from trixsim.train.data import Decisions

Table = dict[str, np.ndarray]
"""``X`` (candidates, N_FEATURES) float64, ``group`` (its decision), ``chosen`` (bool),
``model`` (per decision)."""


def features(d: Decisions) -> Table:
    """The candidates of every decision with their features (compiled)."""
    n = K.count_candidates(d["legal"], d["rows"][:, K._DECISION].copy())
    X = np.zeros((n, K.N_FEATURES), dtype=np.float64)
    group = np.zeros(n, dtype=np.int64)
    chosen = np.zeros(n, dtype=np.bool_)
    model = np.zeros(len(d["legal"]), dtype=np.int64)
    from trixsim.strategies.expert import heuristic_params

    K.fill_features(d["rows"], d["hand"], d["legal"], d["action"], heuristic_params(), X,
                    group, chosen, model)
    return {"X": X, "group": group, "chosen": chosen, "model": model}


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


def fit(t: Table, w0: np.ndarray, steps: int = 300, lr: float = 0.05,
        l2: float = 1e-4) -> np.ndarray:
    """Weights (N_MODELS, N_FEATURES) maximising the teacher's choices' likelihood."""
    w = np.array(w0, dtype=np.float64).reshape(K.N_MODELS, K.N_FEATURES).copy()
    cand_model = t["model"][t["group"]]
    for m in range(K.N_MODELS):
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


def agreement(t: Table, w: np.ndarray) -> dict[int, list[float | int]]:
    """Per model: the share of decisions with more than one candidate where the model's
    best candidate is the teacher's, and how many such decisions there are."""
    w = np.asarray(w).reshape(K.N_MODELS, K.N_FEATURES)
    z = np.einsum("ij,ij->i", t["X"], w[t["model"][t["group"]]])
    g = t["group"]
    starts = np.flatnonzero(np.r_[True, g[1:] != g[:-1]])
    sizes = np.diff(np.r_[starts, len(z)])
    out: dict[int, list[float | int]] = {}
    best = np.array([s + int(np.argmax(z[s:s + n])) for s, n in zip(starts, sizes, strict=True)])
    hit = t["chosen"][best]
    dec_model = t["model"][g[starts]]
    for m in range(K.N_MODELS):
        sel = (dec_model == m) & (sizes > 1)
        if sel.any():
            out[m] = [float(hit[sel].mean()), int(sel.sum())]
    return out
