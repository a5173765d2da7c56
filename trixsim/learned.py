"""Learned policies' models as arrays: what a trained strategy loads and ``trixsim train``
fits (``trixsim.train.fit``), apart from the training machinery, so that loading such a
strategy imports numpy alone.

Model ``m`` scores a candidate of features ``x`` as ``u_m · x + v_m · max(0, W_mᵀ x + b_m)``:
a linear part and a hidden layer of rectified units (of width 0 for linear models).
"""

from __future__ import annotations

import numpy as np

Weights = dict[str, np.ndarray]
"""A policy's models: ``u`` (models, features), the linear part; ``W`` (models, features,
hidden), ``b`` and ``v`` (models, hidden), the hidden layer (``hidden`` may be 0: linear
models)."""


def start_weights(models: int, features: int, hidden: int, linear: np.ndarray,
                  seed: int = 0) -> Weights:
    """Models whose linear part is ``linear`` (models, features) and whose hidden layer
    is random but weighs nothing yet (``v = 0``): they score exactly as ``linear`` until
    fitted. The layer's random start is seeded (the same start everywhere)."""
    gen = np.random.default_rng(seed)
    return {"u": np.array(linear, dtype=np.float64).reshape(models, features),
            "W": gen.normal(0.0, 1.0 / np.sqrt(features), (models, features, hidden)),
            "b": np.zeros((models, hidden)), "v": np.zeros((models, hidden))}


def linear(u: np.ndarray) -> Weights:
    """Linear models (no hidden layer) of weights ``u`` (models by features)."""
    u = np.array(u, dtype=np.float64)
    return {"u": u, "W": np.zeros((*u.shape, 0)), "b": np.zeros((u.shape[0], 0)),
            "v": np.zeros((u.shape[0], 0))}


def scores(X: np.ndarray, w: Weights, m: int) -> np.ndarray:
    """Model ``m``'s scores of the rows of ``X`` (candidates by features)."""
    return X @ w["u"][m] + np.maximum(X @ w["W"][m] + w["b"][m], 0.0) @ w["v"][m]


__all__ = ["Weights", "linear", "scores", "start_weights"]
