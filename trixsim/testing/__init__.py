"""Conformance checks a strategy author (or the engine's own tests) can call from pytest.

``check_strategy`` plays real games with a strategy and fails with one ``AssertionError``
paragraph naming the check, the decision and the game if the strategy breaks a rule of the
strategy API: answers of the wrong shape or dtype, illegal actions, answers that change
between two plays of the same games, answers that depend on the batch (its size, order or
the other games in it), changes to the observation, reads of undeclared observation fields,
malformed ``params``. ``check_game_engine`` plays random games through the engine's public
calls and checks its contract with every driver (legal masks, refusal of illegal actions,
determinism, hidden cards kept out of observations, totals). ``check_policy`` (part of
``check_strategy``) plays a strategy's compiled policy against its methods.
``check_fair_play`` (part of both) re-deals the hidden cards of many decisions consistently
with the public history (played cards, shown voids, a declared K♥, trix passes), replays
the contract through the rules to the same decision, and fails if the deciding seat's
observation or the strategy's answer (methods or compiled policy) changes.

Use it from a plug-in's own tests::

    # tests/test_my_bot.py
    from trixsim.testing import check_strategy

    from my_package.bots import Quiet


    def test_quiet_conforms() -> None:
        check_strategy(Quiet)                       # the class, built with its defaults


    def test_quiet_with_parameters_conforms() -> None:
        check_strategy("my_package.bots:Quiet:margin=3", games=100, seed=7)   # any spec


    def test_an_instance_conforms() -> None:
        check_strategy(Quiet(margin=5))

Running the kit does not require a run folder or any file: it plays in memory, a few
seconds for the bundled ``heuristic`` at the defaults.
"""

from __future__ import annotations

from trixsim.testing._common import ConformanceError
from trixsim.testing.engine import check_game_engine
from trixsim.testing.fairness import check_fair_play
from trixsim.testing.game import check_game
from trixsim.testing.policy import check_policy
from trixsim.testing.strategy import check_strategy

__all__ = ["ConformanceError", "check_fair_play", "check_game", "check_game_engine",
           "check_policy", "check_strategy"]
