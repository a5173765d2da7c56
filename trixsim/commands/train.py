"""``trixsim train DIR``: train Trix's learned ``expert`` policy by imitating search (the
generic loop ``trixsim.train`` with the expert's plug-in,
``trixsim.strategies.expert_training``)."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import click

from trixsim.commands import Interrupted, write_failed
from trixsim.commands.options import Count, backend_options, open_backend


def register(group: click.Group) -> None:
    """Add ``train`` to the CLI group."""

    @group.command("train")
    @click.argument("out", metavar="DIR", type=click.Path(path_type=Path))
    @click.option("--teacher", default="pimc:worlds=200", show_default=True,
                  help="The strategy whose decisions the model learns to copy.")
    @click.option("--opponent", default="heuristic", show_default=True,
                  help="Each iteration is verified against this strategy.")
    @click.option("--seed", type=int, default=1, show_default=True,
                  help="Seed of the training deals and of the verification deals.")
    @click.option("--iterations", type=click.IntRange(1, 1000), default=3, show_default=True)
    @click.option("--deals", type=Count(min=10), default=40, show_default=True,
                  help="Self-play deals per iteration (whole games, 4 seats labelled).")
    @click.option("--verify", type=Count(min=50), default=200, show_default=True,
                  help="Fresh duplicate deals verifying each iteration.")
    @click.option("--steps", type=click.IntRange(1, 1000000), default=3000,
                  show_default=True,
                  help="Optimiser steps of each fit, per model (2,048 decisions a step).")
    @click.option("--hidden", type=click.IntRange(0, 1024), default=64, show_default=True,
                  help="Hidden units of each model (0: linear models).")
    @click.option("-j", "--workers", type=click.IntRange(1, 512), default=1,
                  show_default=True, help="Local worker processes.")
    @click.option("--resume", is_flag=True,
                  help="Continue DIR's training (same options) after its last iteration "
                       "whose files still match their recorded digests.")
    @click.option("-q", "--quiet", is_flag=True, help="No progress bar.")
    @backend_options()
    def train_cmd(out: Path, teacher: str, opponent: str, seed: int, iterations: int,
                  deals: int, verify: int, steps: int, hidden: int, workers: int,
                  resume: bool,
                  quiet: bool, scheduler: str | None, backend: str | None) -> None:
        """Train expert's learned policy by expert iteration.

        Self-play deals labelled by the teacher (search), a softmax fit of the model to
        its choices, each iteration verified on fresh duplicate deals. Writes DIR/model.npz
        (play it as expert@DIR/model.npz, the search, or expert-policy@DIR/model.npz, the
        policy alone), train.json, history.json, strength.png and
        agreement.png. Ctrl-C keeps the finished iterations (exit 130); --resume continues."""
        from trixsim.loading import StrategyLoadError, load_strategy
        from trixsim.pool import WorkerDied
        from trixsim.sim import StrategyError
        from trixsim.strategies.expert_training.trainee import TRAINEE
        from trixsim.train import TrainConfig, TrainError, train

        for spec, hint in ((teacher, "--teacher"), (opponent, "--opponent")):
            try:
                load_strategy(spec, TRAINEE.game)
            except StrategyLoadError as exc:
                raise click.BadParameter(str(exc), param_hint=hint) from None
        cfg = TrainConfig(teacher=teacher, opponent=opponent, seed=seed,
                          iterations=iterations, deals=deals, verify=verify, steps=steps,
                          hidden=hidden)
        where = open_backend(scheduler, backend, workers, quiet=quiet)
        show = sys.stderr.isatty() and not quiet
        bar = click.progressbar(length=1, label="training", file=sys.stderr) if show else None

        def progress(label: str, done: int, total: int) -> None:
            if bar is not None:
                bar.label, bar.length = label, total
                bar.pos = 0
                bar.update(done)

        again = f"trixsim train {shlex.quote(str(out))} --resume (with the same options)"
        try:
            with where:
                if bar is not None:
                    with bar:
                        hist = train(cfg, out, where, resume, progress,
                                     log=lambda s: click.echo("\n" + s, err=True),
                                     trainee=TRAINEE)
                else:
                    hist = train(cfg, out, where, resume, None,
                                 log=lambda s: click.echo(s, err=True), trainee=TRAINEE)
        except TrainError as exc:
            raise click.UsageError(str(exc)) from None
        except (StrategyError, WorkerDied) as exc:
            raise click.ClickException(f"{exc}; the finished iterations are kept: continue "
                                       f"with `{again}`") from None
        except KeyboardInterrupt:
            raise Interrupted(f"interrupted; the finished iterations are kept in {out}: "
                              f"continue with `{again}`") from None
        except OSError as exc:
            raise write_failed(out, exc) from None
        last = hist[-1]["verify"] if hist else None
        click.echo(f"{len(hist)} iterations in {out}/ (model.npz, history.json, "
                   f"strength.png, agreement.png); play it as expert@{out}/model.npz (the "
                   f"search) or expert-policy@{out}/model.npz (the policy alone)")
        if last:
            click.echo(f"last iteration against {last['opponent']} on {verify:,} fresh "
                       f"deals: {last['mean']:+.1f} per game, 95% [{last['lo']:+.1f}, "
                       f"{last['hi']:+.1f}]")
