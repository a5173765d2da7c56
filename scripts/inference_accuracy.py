"""How often ``expert``'s sampled worlds give a hidden card to the seat really holding it,
with and without inference (``infer``), on positions of games a given lineup played.

    python scripts/inference_accuracy.py                    # pimc's games, trick contracts
    python scripts/inference_accuracy.py --players expert-policy --infer 1 4 8 16

Positions: every ``--every``-th decision from the contract's ``--from``-th public action
on, in ``--games`` games of ``--seed`` (four seats of ``--players``); ``--worlds`` worlds
per position, each drawn as ``expert:infer=K`` draws it.
"""

from __future__ import annotations

import argparse

import numpy as np

from trixsim.games.trix import GAME, init, legal_action_mask, step
from trixsim.games.trix.replay import n_moves
from trixsim.games.trix.state import COL, WIDTH
from trixsim.games.trix.types import DONE, TRIX
from trixsim.loading import load_seats, load_strategy
from trixsim.search.pimc import SAMPLE_WORK
from trixsim.sim import decide

_HANDS, _TURN = COL["hands"], COL["turn"]


def positions(players: str, seed: int, games: int, start: int, every: int,
              trix: bool) -> list[np.ndarray]:
    """The state rows of the chosen decisions."""
    seats = load_seats(players, "trix")
    st = init(seed, range(games))
    legal = legal_action_mask(st)
    out = []
    while (st.phase != DONE).any():
        for s in st.data:
            if s[COL["phase"]] != DONE and n_moves(s) >= start \
                    and (s[COL["contract"]] == TRIX) == trix:
                out.append(s.copy())
        legal = step(st, decide(st, seats, legal, game=GAME), legal)
    return out[::every]


def placed_right(infer: int, states: list[np.ndarray], worlds: int) -> float:
    """The share of hidden cards the sampled worlds give to the seat holding them."""
    from trixsim.strategies import _expert_search_kernels as S

    prm = np.ascontiguousarray(load_strategy(f"expert:infer={infer}", "trix").policy_params(),
                               dtype=np.float64)
    W = np.zeros((1, WIDTH), dtype=np.int64)
    right = total = 0
    for i, s in enumerate(states):
        me = int(s[_TURN])
        public = s.copy()
        for q in range(4):
            if q != me:
                public[_HANDS + q] = 0
        work = np.zeros(SAMPLE_WORK, dtype=np.int64)  # one decision's working space
        for w in range(worlds):
            S._sample(public, me, int(s[_HANDS + me]), 7919 * i + w, prm, W, work)
            for q in range(4):
                if q != me:
                    right += bin(int(W[0, _HANDS + q]) & int(s[_HANDS + q])).count("1")
                    total += bin(int(s[_HANDS + q])).count("1")
    return right / total


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", default="pimc")
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--games", type=int, default=6)
    ap.add_argument("--from", dest="start", type=int, default=9)
    ap.add_argument("--every", type=int, default=5)
    ap.add_argument("--worlds", type=int, default=8)
    ap.add_argument("--infer", type=int, nargs="+", default=[1, 2, 4, 8])
    ap.add_argument("--trix", action="store_true", help="trix positions instead of tricks")
    a = ap.parse_args()
    states = positions(a.players, a.seed, a.games, a.start, a.every, a.trix)
    print(f"{len(states)} positions of {a.games} {a.players} games (seed {a.seed})")
    for k in a.infer:
        print(f"infer={k:<3} {placed_right(k, states, a.worlds):.1%} of hidden cards "
              "with the seat holding them")


if __name__ == "__main__":
    main()
