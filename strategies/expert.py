"""``expert`` and ``expert-policy``: a policy trained by ``trixsim train`` to copy what
search plays, and pimc's search rolled out with that policy for every seat.

``expert-policy`` scores every legal candidate (card, contract, declare or not) from
features the heuristic ignores (voids, unseen cards per suit, the trick in progress, a
declared K♥, the totals, who is known not to hold a trix card from the trix history, and
which candidate the heuristic would choose) and plays the best
(strategies/_expert_kernels.py, compiled). Each kind of decision has its model: a linear
part plus a hidden layer of rectified units. ``expert`` searches as ``pimc`` does, with
that policy as its rollout and its model of the other seats, and draws its worlds by how
likely that policy makes what the other seats did (strategies/_expert_search_kernels.py).
The weights come from a ``model.npz`` file written by ``trixsim train``:
``expert@DIR/model.npz`` or ``expert-policy@DIR/model.npz`` loads one; without ``@`` both
load the bundled weights (``expert_model.npz`` beside this module).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
from trixsim.strategies import _expert_kernels as K

from trixsim.games.trix.observation import Observation
from trixsim.learned import Weights, linear
from trixsim.learned import start_weights as fit_start
from trixsim.strategy import Param, Strategy, overrides_below

BUNDLED_MODEL = Path(__file__).with_name("expert_model.npz")
"""The shipped weights (see the README for the ``trixsim train`` command that made them)."""
MODEL_FORMAT = "trixsim-expert-3"
"""Weights files: ``u``, ``W``, ``b``, ``v`` (``trixsim.learned.Weights``)."""
LINEAR_FORMAT = "trixsim-expert-linear-2"
"""Older weights files, read too: ``weights``, linear models (no hidden layer)."""
MAX_HIDDEN = 1024


class ModelError(ValueError):
    """A model file that is not a readable expert model."""


def read_model(path: str | Path) -> Weights:
    """The models of a ``model.npz``; ModelError with a one-line reason."""
    try:
        with np.load(path, allow_pickle=False) as z:
            fmt = str(z["format"]) if "format" in z else ""
            if fmt == LINEAR_FORMAT:
                w = linear(np.asarray(z["weights"], dtype=np.float64))
            else:
                w = {k: np.asarray(z[k], dtype=np.float64) for k in ("u", "W", "b", "v")}
    except FileNotFoundError:
        raise ModelError(f"model file {str(path)!r} not found") from None
    except (OSError, ValueError, KeyError) as exc:
        raise ModelError(f"model file {str(path)!r} is not an expert model ({exc})") from None
    hidden = w["W"].shape[-1] if w["W"].ndim == 3 else -1
    shapes = {"u": (K.N_MODELS, K.N_FEATURES), "W": (K.N_MODELS, K.N_FEATURES, hidden),
              "b": (K.N_MODELS, hidden), "v": (K.N_MODELS, hidden)}
    if fmt not in (MODEL_FORMAT, LINEAR_FORMAT) or not 0 <= hidden <= MAX_HIDDEN \
            or any(w[k].shape != shape for k, shape in shapes.items()) \
            or not all(np.isfinite(a).all() for a in w.values()):
        raise ModelError(f"model file {str(path)!r} is not an expert model of format "
                         f"{MODEL_FORMAT}: {K.N_MODELS} models of {K.N_FEATURES} features "
                         f"and at most {MAX_HIDDEN} hidden units, finite weights")
    return w


def start_weights(hidden: int = 0) -> Weights:
    """The models a training starts from: the heuristic's choice and nothing else (so the
    untrained model plays exactly as heuristic), and a hidden layer of ``hidden`` units
    that weighs nothing yet."""
    u = np.zeros((K.N_MODELS, K.N_FEATURES))
    u[:, K.HEUR] = 3.0
    return fit_start(K.N_MODELS, K.N_FEATURES, hidden, u)


def policy_vector(w: Weights) -> np.ndarray:
    """The models as the compiled scorer reads them: the hidden width, then each model's
    W, b, v and u (``_expert_kernels``' layout)."""
    hidden = w["W"].shape[2]
    parts = [np.array([hidden], dtype=np.float64)]
    for m in range(K.N_MODELS):
        parts += [w["W"][m].ravel(), w["b"][m], w["v"][m], w["u"][m]]
    return np.ascontiguousarray(np.concatenate(parts))


def heuristic_params() -> np.ndarray:
    """The bundled heuristic's compiled-policy parameters (its defaults)."""
    from trixsim.strategies.heuristic import HeuristicStrategy

    return np.ascontiguousarray(HeuristicStrategy().policy_params(), dtype=np.float64)


def write_model(path: str | Path, w: Weights) -> None:
    """Write models in the format ``read_model`` reads."""
    arrays = {k: np.asarray(w[k], dtype=np.float64) for k in ("u", "W", "b", "v")}
    with open(path, "wb") as f:
        np.savez_compressed(f, format=np.array(MODEL_FORMAT), **arrays)


class ExpertPolicy(Strategy):
    """The learned policy over (state, candidate) features, without search."""

    name = "expert-policy"
    game = "trix"
    description = ("expert's learned policy alone, no search: copies pimc:worlds=200 from "
                   "voids, unseen cards, the trick, a declared K♥, totals and the trix "
                   "history (trixsim train); as fast as heuristic")
    observes = None  # the whole public state row, for the compiled scorer
    policy = K.expert_policy
    takes_data_file = True
    """``expert-policy@FILE.npz`` loads weights from FILE (``trixsim.loading``)."""

    def __init__(self, **values: object) -> None:
        super().__init__(**values)
        self._vector: np.ndarray | None = None
        self.weights = read_model(BUNDLED_MODEL) if BUNDLED_MODEL.exists() \
            else start_weights()

    @property
    def weights(self) -> Weights:
        """The models it plays."""
        return self._weights

    @weights.setter
    def weights(self, w: Weights) -> None:
        self._weights = w
        self._vector = None

    def with_data_file(self, path: str) -> ExpertPolicy:
        """This strategy playing the weights of ``path``."""
        self.weights = read_model(path)
        return self

    def policy_params(self) -> np.ndarray:
        """The compiled policy's vector: the models (``policy_vector``), then the
        heuristic's parameters (its choice is one of the features)."""
        if self._vector is None:
            self._vector = np.concatenate([policy_vector(self.weights), heuristic_params()])
        return self._vector

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


class ExpertStrategy(ExpertPolicy):
    """Search over sampled worlds, rolled out with the learned policy for every seat; each
    world the likeliest-weighted of ``infer`` deals that fit what the seat saw, by how
    likely the policy makes the other seats' actions of the contract so far."""

    name = "expert"
    description = ("the strongest bot: pimc's search rolled out with the learned policy "
                   "(expert-policy) as the model of every seat, its worlds weighted by how "
                   "likely that policy makes the others' actions")
    params = {
        "worlds": Param(128, "sampled deals of the hidden cards per decision", limit=(1, 256)),
        "win_bonus": Param(300.0, "value of ending the game with the lowest total"),
        "lose_penalty": Param(600.0, "cost of ending the game with the highest total"),
        "prune": Param(2.0, "after 8 worlds and at each half as many more, drop the actions "
                            "that trail the best by more than this many standard errors "
                            "(0: play every action in every world)"),
        "infer": Param(4, "candidate deals per world, one drawn by how likely the learned "
                          "policy makes the other seats' actions so far (1: pimc's worlds, "
                          "no inference)", limit=(1, 16)),
        "sharp": Param(1.0, "weight of that likelihood: a candidate is drawn with "
                            "probability likelihood ** sharp"),
    }
    policy = None  # the search kernel, imported (and on a first run compiled) on first use
    """``expert@FILE.npz`` searches with the weights of FILE."""

    def __init__(self, **values: object) -> None:
        super().__init__(**values)
        if self.worlds < 1 or not self.prune >= 0 or self.infer < 1 or not self.sharp >= 0:
            raise ValueError("strategy 'expert' needs worlds and infer of at least 1, prune "
                             f"and sharp of at least 0, got worlds={self.worlds}, "
                             f"prune={self.prune}, infer={self.infer}, sharp={self.sharp}")

    @property
    def chunk_games(self) -> int | None:
        """A run's chunks of at most 32,000 / ``worlds`` games (250 at 128 worlds: about
        2.5 minutes of one core for a lineup with one expert seat, ten with four), so an
        interrupted comparison loses minutes, not the hour a 2,000-game chunk takes."""
        return max(10, 32_000 // self.worlds)

    def policy_params(self) -> np.ndarray:
        """Worlds, bonus, penalty, pruning, inference, then the learned policy's vector."""
        head = np.array([self.worlds, self.win_bonus, self.lose_penalty, self.prune,
                         self.infer, self.sharp], dtype=float)
        return np.concatenate([head, super().policy_params()])

    def compiled(self) -> tuple[Any, np.ndarray] | None:
        """The search kernel as a compiled policy (imported, and compiled, on first use),
        unless a subclass answers with methods of its own."""
        if overrides_below(type(self), ExpertStrategy):
            return None
        from trixsim.strategies import _expert_search_kernels as S

        return S.search_policy, np.ascontiguousarray(self.policy_params(), dtype=np.float64)

    def _answer(self, obs: Observation) -> np.ndarray:
        from trixsim.strategies import _expert_search_kernels as S

        out = np.empty(len(obs), dtype=np.int64)
        S.search_batch(obs.state_rows(), np.ascontiguousarray(obs.legal, dtype=np.int64),
                       np.ascontiguousarray(obs.hand, dtype=np.int64),
                       np.ascontiguousarray(obs.key), self.policy_params(), out)
        return out
