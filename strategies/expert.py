"""``expert``: a learned policy, trained by ``trixsim train`` to copy what search plays.

Each decision scores every legal candidate (card, contract, declare or not) by a linear
function of features the heuristic ignores (voids, unseen cards per suit, the trick in
progress, a declared K♥, the totals, who is known not to hold a trix card from the trix
history, and which candidate the heuristic would choose) and plays the best
(strategies/_expert_kernels.py, compiled). The weights come
from a ``model.npz`` file written by ``trixsim train``: ``expert@DIR/model.npz`` loads
one; plain ``expert`` loads the bundled weights (``expert_model.npz`` beside this module).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from trixsim.strategies import _expert_kernels as K

from trixsim.games.trix.observation import Observation
from trixsim.strategy import Strategy

BUNDLED_MODEL = Path(__file__).with_name("expert_model.npz")
"""The shipped weights (see the README for the ``trixsim train`` command that made them)."""
MODEL_FORMAT = "trixsim-expert-linear-2"


class ModelError(ValueError):
    """A model file that is not a readable expert model."""


def read_model(path: str | Path) -> np.ndarray:
    """The flat float64 weights of a ``model.npz``; ModelError with a one-line reason."""
    try:
        with np.load(path, allow_pickle=False) as z:
            fmt = str(z["format"]) if "format" in z else ""
            w = np.asarray(z["weights"], dtype=np.float64)
    except FileNotFoundError:
        raise ModelError(f"model file {str(path)!r} not found") from None
    except (OSError, ValueError, KeyError) as exc:
        raise ModelError(f"model file {str(path)!r} is not an expert model ({exc})") from None
    if fmt != MODEL_FORMAT or w.shape != (K.N_MODELS, K.N_FEATURES) \
            or not np.isfinite(w).all():
        raise ModelError(f"model file {str(path)!r} is not an expert model of format "
                         f"{MODEL_FORMAT} with {K.N_MODELS}x{K.N_FEATURES} finite weights")
    return np.ascontiguousarray(w.ravel())


def start_weights() -> np.ndarray:
    """The weights a training starts from: the heuristic's choice and nothing else (so the
    untrained model plays exactly as heuristic)."""
    w = np.zeros((K.N_MODELS, K.N_FEATURES))
    w[:, K.HEUR] = 3.0
    return w.ravel()


def heuristic_params() -> np.ndarray:
    """The bundled heuristic's compiled-policy parameters (its defaults)."""
    from trixsim.strategies.heuristic import HeuristicStrategy

    return np.ascontiguousarray(HeuristicStrategy().policy_params(), dtype=np.float64)


def write_model(path: str | Path, weights: np.ndarray) -> None:
    """Write weights (N_MODELS × N_FEATURES) in the format ``read_model`` reads."""
    w = np.asarray(weights, dtype=np.float64).reshape(K.N_MODELS, K.N_FEATURES)
    with open(path, "wb") as f:
        np.savez_compressed(f, format=np.array(MODEL_FORMAT), weights=w)


class ExpertStrategy(Strategy):
    """The learned linear policy over (state, candidate) features."""

    name = "expert"
    game = "trix"
    description = ("learned policy copying search (pimc) from voids, unseen cards, the "
                   "trick, a declared K♥, totals and the trix history; trixsim train")
    observes = None  # the whole public state row, for the compiled scorer
    policy = K.expert_policy
    takes_data_file = True
    """``expert@FILE.npz`` loads weights from FILE (``trixsim.loading``)."""

    def __init__(self, **values: object) -> None:
        super().__init__(**values)
        self.weights = read_model(BUNDLED_MODEL) if BUNDLED_MODEL.exists() \
            else start_weights()

    def with_data_file(self, path: str) -> ExpertStrategy:
        """This strategy playing the weights of ``path``."""
        self.weights = read_model(path)
        return self

    def policy_params(self) -> np.ndarray:
        """The compiled policy's vector: the flat weights, then the heuristic's
        parameters (its choice is one of the features)."""
        return np.concatenate([self.weights, heuristic_params()])

    def _answer(self, obs: Observation) -> np.ndarray:
        out = np.empty(len(obs), dtype=np.int64)
        K.batch_actions(obs.state_rows(), np.ascontiguousarray(obs.hand, dtype=np.int64),
                        np.ascontiguousarray(obs.legal, dtype=np.int64),
                        self.policy_params(), out)
        return out

    def pick(self, obs: Observation) -> np.ndarray:
        """The best-scoring legal contract."""
        return self._answer(obs)

    def declare(self, obs: Observation) -> np.ndarray:
        """Declare K♥ where declaring scores above keeping quiet."""
        return self._answer(obs)

    def play(self, obs: Observation) -> np.ndarray:
        """The best-scoring legal card."""
        return self._answer(obs)

    def place(self, obs: Observation) -> np.ndarray:
        """The best-scoring trix card."""
        return self._answer(obs)
