"""Count re-dealt decision pairs whose observation or answer differs: a fair-play census.

    python scripts/fair_play_census.py                      # 40 games, random x4, seed 0
    python scripts/fair_play_census.py --games 200 --strategy heuristic --seed 3

Plays the games with the strategy in all four seats, then for every decision deals the
hidden cards anew consistently with the public history (trixsim.games.trix.redeal: once at
random and, in the first trick of ray and general while the K♥ is hidden and undeclared,
once with the K♥ at each other seat), replays the contract to the same decision, and
compares the deciding seat's whole observation and the strategy's answer. A fair engine
gives 0 differing observations; a fair strategy then gives 0 differing answers.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter

import numpy as np

from trixsim.games.trix import GAME, GameState, legal_action_mask
from trixsim.games.trix.chance import Chance
from trixsim.games.trix.observation import FIELDS, observe
from trixsim.games.trix.redeal import History, pairs
from trixsim.loading import load_strategy
from trixsim.sim import decide, play_batch


def census(spec: str, games: int, seed: int) -> dict[str, object]:
    """The counts for ``games`` games of ``spec`` in all four seats."""
    strategy = load_strategy(spec, "trix")
    hist = History(games)
    play_batch([strategy] * 4, seed, range(games), observer=hist, game=GAME)
    decisions = hist.decisions()
    a, b, _ = pairs(decisions, np.random.default_rng(seed))
    sa, sb = GameState(a, Chance(seed)), GameState(b, Chance(seed))
    la, lb = legal_action_mask(sa), legal_action_mask(sb)
    idx = np.arange(len(a))
    oa, ob = observe(sa, idx, la), observe(sb, idx, lb)
    fields: Counter[str] = Counter()
    differ = np.zeros(len(a), dtype=bool)
    for k in FIELDS:
        d = (np.asarray(getattr(oa, k)) != np.asarray(getattr(ob, k))).reshape(len(a), -1)
        d = d.any(axis=1)
        fields[k] = int(d.sum())
        differ |= d
    answers = decide(sa, [strategy] * 4, la, GAME) != decide(sb, [strategy] * 4, lb, GAME)
    return {"decisions": len(decisions), "pairs": len(a),
            "observation differs": int(differ.sum()),
            "fields": {k: v for k, v in fields.items() if v},
            "answer differs": int(answers.sum()),
            "answer differs, observation same": int((answers & ~differ).sum())}


def main() -> int:
    """Command line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--strategy", default="random")
    args = parser.parse_args()
    for key, value in census(args.strategy, args.games, args.seed).items():
        print(f"{key}: {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
