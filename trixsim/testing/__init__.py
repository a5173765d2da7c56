"""Conformance checks a strategy author (or the engine's own tests) can call from pytest.

The strategy checks run on any registered game: ``check_strategy``, ``check_policy`` and
``check_fair_play`` take ``game=`` (a ``Game`` or a registered name); without it a
strategy is checked in the game it is tagged with, and a strategy of any game (``game =
None``, like ``random``) or a spec in the first registered game, ``trix``, as before they
took a game. What is game-specific (which cards are hidden, how to deal them anew
consistently with what a seat saw) is the game's own (``Game.redeal_pairs``,
``Game.own_hands``, ``Game.policy_answers``; docs/adding-a-game.md).

``check_strategy`` plays real games with a strategy and fails with one ``AssertionError``
paragraph naming the check, the decision and the game if the strategy breaks a rule of the
strategy API: answers of the wrong shape or dtype, illegal actions, answers that change
between two plays of the same games, answers that depend on the batch (its size, order or
the other games in it), changes to the observation, reads of undeclared observation fields,
malformed ``params``. ``trixsim.games.trix.conformance.check_game_engine`` plays random
games through Trix's engine's public calls and checks its contract with every driver
(legal masks, refusal of illegal actions, determinism, hidden cards kept out of
observations, totals); ``check_game`` plays any game through the ``Game`` protocol
alone. ``check_policy`` (part of ``check_strategy``) plays a strategy's compiled policy
against its methods.
``check_fair_play`` (part of both) has the game re-deal the hidden cards of many decisions
consistently with the public history (Trix: played cards, shown voids, a declared K♥,
trix passes; trump7: played cards, shown voids, the turned card's holder, the bids, the
seat's own draws), replayed through the rules to the same decision, and fails if the
deciding seat's observation or the strategy's answer (methods or compiled policy) changes.

Use it from a plug-in's own tests::

    # tests/test_my_bot.py
    from trixsim.loading import load_strategy
    from trixsim.testing import check_fair_play, check_strategy

    from my_package.bots import Quiet


    def test_quiet_conforms() -> None:
        check_strategy(Quiet)                       # the class, built with its defaults


    def test_quiet_with_parameters_conforms() -> None:
        check_strategy("my_package.bots:Quiet:margin=3", games=100, seed=7)   # any spec


    def test_an_instance_conforms() -> None:
        check_strategy(Quiet(margin=5))


    def test_it_plays_fair_in_trump7() -> None:
        check_fair_play(load_strategy("heuristic", "trump7"), game="trump7")

Running the kit does not require a run folder or any file: it plays in memory, a few
seconds for the bundled ``heuristic`` at the defaults.
"""

from __future__ import annotations

from trixsim.testing._common import ConformanceError
from trixsim.testing.fairness import FairPlay, check_fair_play
from trixsim.testing.game import check_game
from trixsim.testing.policy import check_policy
from trixsim.testing.strategy import check_strategy

__all__ = ["ConformanceError", "FairPlay", "check_fair_play", "check_game", "check_policy",
           "check_strategy"]
