"""trump7's ``heuristic``: a rule-of-thumb player of trump7 and trump7-bid, compiled.

Every choice is a threshold of a parameter (tunable with ``trixsim tune --game trump7``,
within the bounds each parameter declares: the ranges where its threshold changes play):

- bid: trumps, side aces and side kings of the seven cards, each weighted, scaled to
  thirteen tricks and shaded down;
- lead: trumps when holding at least ``lead_trumps`` of them (the top one when nobody can
  beat it), else a side card nobody can beat, else low from the longest side suit;
- follow: the lowest winning card when last, the top card when nobody can take it, else
  low;
- void: trump when the trick's worth (1 + honour points in it) minus ``overtrump_risk``
  per seat still to play reaches ``trump_threshold``, with the cheapest winning trump,
  and a trump honour (jack, queen) only when at most ``honour_guard`` unseen trumps
  outrank it or nobody plays after; else discard the lowest side card.

The decisions live in one compiled function (strategies/_trump7_kernels.py) that both the
compiled policy and the methods call, so the two paths play the same games.
"""

from __future__ import annotations

import numpy as np
from trixsim.strategies import _trump7_kernels as K

from trixsim.games.trump7.observation import PUBLIC, Observation
from trixsim.games.trump7.state import WIDTH
from trixsim.strategy import Param, Strategy

_ORDER = ("bid_trump", "bid_ace", "bid_king", "bid_scale", "bid_shade", "trump_threshold",
          "overtrump_risk", "honour_guard", "lead_trumps", "lead_boss")
"""The parameters in the kernels' vector order (``K.P_*``)."""


BID_PARAMS = {
    "bid_trump": Param(0.8, "bid: tricks a trump of the seven cards is worth",
                       bounds=(0.0, 1.5)),
    "bid_ace": Param(0.7, "bid: tricks a side ace is worth", bounds=(0.0, 1.5)),
    "bid_king": Param(0.3, "bid: tricks a side king is worth", bounds=(0.0, 1.0)),
    "bid_scale": Param(1.5, "bid: the seven cards' estimate times this (cards drawn later "
                            "win tricks too)", bounds=(0.5, 3.0)),
    "bid_shade": Param(1.0, "bid: tricks taken off the estimate (a short bid costs 2 a "
                            "trick, one above it only 1)", bounds=(0.0, 4.0)),
}
"""The bid's parameters (trump7-bid's heuristic only)."""


class Trump7Heuristic(Strategy):
    """Rule-of-thumb trump7 play, every threshold a parameter."""

    name = "heuristic"
    game = "trump7"
    description = ("rule-of-thumb trump7 player: draws trumps when long, cashes sure "
                   "winners, trumps when the trick is worth it, saves the trump honours")
    params = {
        "trump_threshold": Param(1.0, "void in the suit led: trump when the trick's worth "
                                      "(1 + honour points in it) minus the over-trump risk "
                                      "reaches this", bounds=(0.0, 8.0)),
        "overtrump_risk": Param(0.3, "points taken off a trick's worth per seat still to "
                                     "play after (it may over-trump)", bounds=(0.0, 3.0)),
        "honour_guard": Param(0, "play the trump jack or queen to a trick only when at most "
                                 "this many unseen trumps outrank it (or nobody plays after)",
                              bounds=(0, 3)),
        "lead_trumps": Param(4, "lead trumps when holding at least this many (8: never, a "
                                "hand has at most 7 cards)", bounds=(1, 8)),
        "lead_boss": Param(1.0, "above 0.5: lead a side card nobody can beat when there is "
                                "one", bounds=(0.0, 1.0)),
    }
    observes = frozenset({"legal", "hand", *PUBLIC})
    policy = K.heuristic_policy

    def policy_params(self) -> np.ndarray:
        """The parameters in the kernels' order (the bid's defaults where it has none)."""
        return np.array([float(getattr(self, n, BID_PARAMS[n].default if n in BID_PARAMS
                                       else 0.0)) for n in _ORDER])

    def _decide(self, obs: Observation) -> np.ndarray:
        """Each game's action from its public state rebuilt from the observation."""
        n = len(obs)
        rows = np.zeros((n, WIDTH), dtype=np.int64)
        for name, (col, width, _) in PUBLIC.items():
            rows[:, col:col + width] = np.asarray(getattr(obs, name)).reshape(n, width)
        out = np.empty(n, dtype=np.int64)
        K.decide_rows(rows, np.ascontiguousarray(obs.legal, dtype=np.int64),
                      np.ascontiguousarray(obs.hand, dtype=np.int64), self.policy_params(),
                      out)
        return out

    def play(self, obs: Observation) -> np.ndarray:
        """A card: lead, follow or trump as the module docstring says."""
        return self._decide(obs)


class Trump7BidHeuristic(Trump7Heuristic):
    """The same play in trump7-bid, and a bid from the hand."""

    name = "heuristic"
    game = "trump7-bid"
    description = ("rule-of-thumb trump7-bid player: bids from trumps and side aces and "
                   "kings, then plays as trump7's heuristic")
    params = {**BID_PARAMS, **Trump7Heuristic.params}
    policy = K.heuristic_policy  # speaks for the bid below

    def bid(self, obs: Observation) -> np.ndarray:
        """Tricks announced, from the hand's trumps, aces and kings."""
        return self._decide(obs)
