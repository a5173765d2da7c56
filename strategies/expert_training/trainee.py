"""The ``trixsim.train.Trainee`` of Trix's ``expert``: what ``trixsim train`` trains."""

from __future__ import annotations

from trixsim.strategies import _expert_kernels as K
from trixsim.strategies.expert import read_model, start_weights, write_model
from trixsim.strategies.expert_training.data import collect, features

from trixsim.games.trix import GAME
from trixsim.train import Trainee

MODEL_NAMES = ("dineri", "damet", "pli", "farcha", "ray", "general", "trix", "pick",
               "declare")
"""The expert's linear models, one per kind of decision (the card play of each contract,
the pick and the K♥ declaration), in the order of its weights' rows."""

TRAINEE = Trainee(game=GAME.name, strategy="expert-policy", model_names=MODEL_NAMES,
                  n_features=K.N_FEATURES, start_weights=start_weights,
                  read_model=read_model, write_model=write_model, collect=collect,
                  features=features, start_label="the start (heuristic's choices)")
"""Trix's learned policy (``expert-policy``, the rollout policy of ``expert``), trained by
imitation of a Trix teacher."""

__all__ = ["MODEL_NAMES", "TRAINEE"]
