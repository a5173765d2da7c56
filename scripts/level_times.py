"""How long each difficulty level's bot thinks about one move at the table.

For every game with levels (or those named), seats the level's bot in all four seats of
a ``trixsim.table.Table`` (as ``trixsim play`` and ``trixsim serve`` do) and times each
decision it is asked (forced moves are not asked), over GAMES games. Prints per level the
decisions timed, the median and the worst milliseconds. The first game of each level is
played once untimed, so compiling is not counted.

    python scripts/level_times.py [--games 3] [--seed 1] [--game trix ...]
"""

from __future__ import annotations

import argparse
import statistics
import time

from trixsim.games import game_names, get_game
from trixsim.levels import levels_of
from trixsim.loading import load_strategy
from trixsim.table import Table


def times_ms(game_name: str, spec: str, games: int, seed: int) -> list[float]:
    """Milliseconds of every asked decision of ``spec`` in ``games`` games."""
    game = get_game(game_name)
    bot = load_strategy(spec, game_name)
    out: list[float] = []
    for g in range(games + 1):
        table = Table(seed, game_id=g, game=game)
        bots = {s: bot for s in range(game.n_seats)}
        while table.pass_forced(bots) is not None:
            think = table.thinker(bot)
            t0 = time.perf_counter()
            action = think()
            if g:  # game 0 warms the compiled code up
                out.append((time.perf_counter() - t0) * 1000)
            table.act(action)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=3, help="timed games per level")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--game", action="append", help="a game (repeat; default: all)")
    args = ap.parse_args()
    names = args.game or [n for n in game_names() if levels_of(get_game(n))]
    print(f"{'game':<11} {'level':<7} {'spec':<18} {'moves':>6} {'median ms':>10} "
          f"{'worst ms':>9}")
    for name in names:

        for level in levels_of(get_game(name)):
            ms = times_ms(name, level.spec, args.games, args.seed)
            print(f"{name:<11} {level.name:<7} {level.spec:<18} {len(ms):>6} "
                  f"{statistics.median(ms):>10.2f} {max(ms):>9.2f}", flush=True)


if __name__ == "__main__":
    main()
