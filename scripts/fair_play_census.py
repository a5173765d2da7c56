"""Count re-dealt decision pairs whose observation or answer differs: a fair-play census.

    python scripts/fair_play_census.py                      # trix, 40 games, random x4, seed 0
    python scripts/fair_play_census.py --games 200 --strategy heuristic --seed 3
    python scripts/fair_play_census.py --game trump7-bid --strategy pimc:worlds=4

Plays the games with the strategy in all four seats, then has the game deal the hidden
cards of every decision anew consistently with what the deciding seat saw, checked by
replaying through the rules (``Game.redeal_pairs``; Trix: ``trixsim.games.trix.redeal``,
once at random and, in the first trick of ray and general while the K♥ is hidden and
undeclared, once with the K♥ at each other seat; trump7: ``trixsim.games.trump7.redeal``),
and compares the deciding seat's whole observation and the strategy's answer. A fair
engine gives 0 differing observations; a fair strategy then gives 0 differing answers.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter

import numpy as np

from trixsim.games import get_game
from trixsim.loading import load_strategy
from trixsim.sim import decide, play_batch
from trixsim.testing.redeal import History


def census(spec: str, games: int, seed: int, game: str = "trix") -> dict[str, object]:
    """The counts for ``games`` games of ``game`` with ``spec`` in all four seats."""
    rules = get_game(game)
    strategy = load_strategy(spec, game)
    hist = History()
    play_batch([strategy] * 4, seed, range(games), observer=hist, game=rules)
    r = rules.redeal_pairs(hist.states, hist.actions, np.random.default_rng(seed), None)
    sa, sb = r.played, r.redealt
    la, lb = rules.legal_action_mask(sa), rules.legal_action_mask(sb)
    idx = np.arange(len(r))
    oa = rules.strategy_view(sa, idx, la, None)
    ob = rules.strategy_view(sb, idx, lb, None)
    fields: Counter[str] = Counter()
    differ = np.zeros(len(r), dtype=bool)
    for k in rules.observation_fields:
        d = (np.asarray(getattr(oa, k)) != np.asarray(getattr(ob, k))).reshape(len(r), -1)
        d = d.any(axis=1)
        fields[k] = int(d.sum())
        differ |= d
    lineup = [strategy] * rules.n_seats
    answers = decide(sa, lineup, la, rules) != decide(sb, lineup, lb, rules)
    return {"game": game, "decisions": r.asked, "pairs": len(r),
            "re-deals rejected": r.rejected, "why": list(r.reasons),
            "observation differs": int(differ.sum()),
            "fields": {k: v for k, v in fields.items() if v},
            "answer differs": int(answers.sum()),
            "answer differs, observation same": int((answers & ~differ).sum())}


def main() -> int:
    """Command line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="trix")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--strategy", default="random")
    args = parser.parse_args()
    for key, value in census(args.strategy, args.games, args.seed, args.game).items():
        print(f"{key}: {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
