"""``trixsim train``: expert iteration by imitation, for a learned policy of any
game (a ``Trainee``: Trix's ``expert`` is ``trixsim.strategies.expert_training``).

Iteration k plays ``deals`` deals (numbers ``k * deals ..``) of the seed in self-play: the
teacher in iteration 0, the model of iteration k-1 afterwards. At each decision the
teacher (a strategy spec of the trainee's game) is asked what it would play; the model is
then refitted on the decisions of all iterations so far (softmax regression of a linear
part and a hidden layer, ``fit``, numpy), so
it learns to answer like the teacher in the positions it reaches itself. Every iteration
is verified on fresh duplicate deals (numbers from ``VERIFY_BASE``, never trained on):
the model in one seat against the opponent in the other three, minus the opponent in all
four, with a 95% interval, in the game's own score direction.

What is learnt and how its data are labelled is the trainee's (its game, its strategy,
its models and features, its weight files, its labelling job); the loop, the fit, the
verification, the folder, resume and the plots are here, for every trainee.

The folder holds ``train.json`` (settings and provenance), ``history.json`` (one entry per
finished iteration: file digests, the agreement with the teacher, the verification),
``iterations/NNN.npz`` (weights) and ``data/NNN.npz`` (the labelled decisions),
``model.npz`` (the last iteration's weights) and the plots. Data are reproducible from the
seed whatever the worker count: each job's data depend only on its deals. ``resume``
trusts an iteration only when its files still have the digests the history recorded.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from trixsim import __version__
from trixsim.learned import Weights
from trixsim.pool import Backend
from trixsim.train import verify as V
from trixsim.train.fit import Candidates, Decisions, agreement, fit, join

VERIFY_BASE = 1_000_000_000
"""First deal number of the verification deals (training uses 0 ..)."""
JOB_DEALS = 10
"""Deals per data job (the unit of work and of reproducibility)."""


@dataclass(frozen=True)
class Trainee:
    """What ``train`` trains: a learned policy of one game (a plug-in beside the
    strategy it trains). The functions are module-level ones, so that a backend's
    workers can be sent them."""

    game: str
    """The registered game its deals are played in; teacher and opponent are its."""
    strategy: str
    """The strategy that plays a weights file: ``{strategy}@{file}``."""
    model_names: tuple[str, ...]
    """One model per kind of decision, by name (in the order of the weights)."""
    n_features: int
    """Features per candidate."""
    start_weights: Callable[[int], Weights]
    """The models a training starts from, with a hidden layer of that many units."""
    read_model: Callable[[Path], Weights]
    """The models of a weights file (ValueError when it is none)."""
    write_model: Callable[[Path, Weights], None]
    """Write models as a file its strategy reads."""
    collect: Callable[[str, str | None, int, int, int], Decisions]
    """``collect(teacher, actor, seed, start, stop)``: the decisions of deals ``start ..
    stop - 1`` in self-play by ``actor`` (None: the teacher), each labelled by the
    teacher's choice (``action``) with its deal (``game``), in an order that depends
    only on the arguments."""
    features: Callable[[Decisions], Candidates]
    """The candidates of every decision with their features (see ``fit``)."""
    start_label: str = "the start"
    """What the start weights play, as the agreement plot calls them."""


class TrainError(RuntimeError):
    """A training folder that cannot be used (one-line reason)."""


@dataclass(frozen=True)
class TrainConfig:
    """What a training run does; stored in ``train.json`` and checked on resume."""

    teacher: str = "pimc:worlds=200"
    opponent: str = "heuristic"
    seed: int = 1
    iterations: int = 3
    deals: int = 40
    verify: int = 200
    steps: int = 3000
    hidden: int = 64


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _write_json(path: Path, doc: Any) -> None:
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(doc, indent=2) + "\n")
    tmp.replace(path)


def trusted_history(out: Path, cfg: TrainConfig) -> list[dict[str, Any]]:
    """The finished iterations of ``out`` whose files match their recorded digests, in
    order, stopping at the first that does not; TrainError when the settings differ."""
    try:
        meta = json.loads((out / "train.json").read_text())
    except (OSError, ValueError) as exc:
        raise TrainError(f"{out}/train.json cannot be read: {exc}") from None
    same = {k: v for k, v in asdict(cfg).items() if k != "iterations"}
    if isinstance(meta, dict) and isinstance(meta.get("config"), dict):
        meta["config"].setdefault("hidden", 0)  # folders from before the hidden layer
    if not isinstance(meta, dict) or not isinstance(meta.get("config"), dict) or \
            {k: v for k, v in meta["config"].items() if k != "iterations"} != same:
        raise TrainError(f"{out} was trained with other settings ({meta.get('config')}); "
                         "resume with the same options or use a new folder")
    hist_path = out / "history.json"
    try:
        hist = json.loads(hist_path.read_text()) if hist_path.exists() else []
    except ValueError:
        hist = []
    if not isinstance(hist, list):
        hist = []
    good: list[dict[str, Any]] = []
    for k, h in enumerate(hist):
        w, d = out / "iterations" / f"{k:03d}.npz", out / "data" / f"{k:03d}.npz"
        if h.get("iteration") != k or not w.exists() or not d.exists() \
                or _sha(w) != h.get("weights_sha256") or _sha(d) != h.get("data_sha256"):
            break
        good.append(h)
    return good


def _recorded(out: Path) -> int:
    """How many iterations ``history.json`` lists (0 when unreadable)."""
    try:
        hist = json.loads((out / "history.json").read_text())
    except (OSError, ValueError):
        return 0
    return len(hist) if isinstance(hist, list) else 0


def _load_data(path: Path) -> Decisions:
    with np.load(path, allow_pickle=False) as z:
        return {k: z[k] for k in z.files}


def train(cfg: TrainConfig, out: Path, backend: Backend, resume: bool = False,
          progress: Callable[[str, int, int], None] | None = None,
          log: Callable[[str], None] = print, *, trainee: Trainee) -> list[dict[str, Any]]:
    """Run (or resume) the iterations of ``trainee`` into ``out``; the history of finished
    iterations. A KeyboardInterrupt leaves every finished iteration in place."""
    names = trainee.model_names
    out = Path(out)
    if resume:
        if not (out / "train.json").exists():
            raise TrainError(f"{out} holds no training to resume (no train.json)")
        hist = trusted_history(out, cfg)
        if len(hist) < _recorded(out):
            log(f"resume: iterations {len(hist)}.. no longer match their recorded digests "
                f"and are trained again")
        meta = json.loads((out / "train.json").read_text())
        meta["config"] = asdict(cfg)
        _write_json(out / "train.json", meta)
    else:
        if out.exists() and any(out.iterdir()):
            raise TrainError(f"{out} exists and is not empty; give a new folder or --resume")
        out.mkdir(parents=True, exist_ok=True)
        _write_json(out / "train.json", {
            "format": "trixsim-train/1", "config": asdict(cfg), "trixsim": __version__,
            "features": trainee.n_features, "models": list(names),
            "command": (f"trixsim train {out} --teacher {cfg.teacher} --opponent "
                        f"{cfg.opponent} --seed {cfg.seed} --iterations {cfg.iterations} "
                        f"--deals {cfg.deals} --verify {cfg.verify} --steps {cfg.steps} "
                        f"--hidden {cfg.hidden}")})
        hist = []
    (out / "iterations").mkdir(exist_ok=True)
    (out / "data").mkdir(exist_ok=True)
    _write_json(out / "history.json", hist)
    parts = [_load_data(out / "data" / f"{k:03d}.npz") for k in range(len(hist))]
    w = trainee.read_model(out / "iterations" / f"{len(hist) - 1:03d}.npz") if hist \
        else trainee.start_weights(cfg.hidden)
    for k in range(len(hist), cfg.iterations):
        t0 = time.monotonic()
        actor = None if k == 0 else \
            f"{trainee.strategy}@{out / 'iterations' / f'{k - 1:03d}.npz'}"
        lo = k * cfg.deals
        jobs = [(cfg.teacher, actor, cfg.seed, a, min(a + JOB_DEALS, lo + cfg.deals))
                for a in range(lo, lo + cfg.deals, JOB_DEALS)]
        got: dict[int, Decisions] = {}

        def keep(res: Decisions, _got: dict[int, Decisions] = got,
                 _k: int = k, _n: int = len(jobs)) -> None:
            _got[int(res["game"][0])] = res
            if progress:
                progress(f"iteration {_k}: data", len(_got), _n)

        backend.map_unordered(trainee.collect, jobs, keep,
                              specs=[cfg.teacher] + ([actor] if actor else []))
        new = join([got[key] for key in sorted(got)])
        # what the model before this iteration predicts well, on positions it never saw
        new_cands = trainee.features(new)
        seen = agreement(new_cands, w)  # 0: the start
        parts.append(new)
        w = fit(trainee.features(join(parts)), w, steps=cfg.steps)
        fitted = agreement(new_cands, w)
        wpath, dpath = out / "iterations" / f"{k:03d}.npz", out / "data" / f"{k:03d}.npz"
        trainee.write_model(wpath, w)
        with open(dpath, "wb") as f:
            np.savez_compressed(f, **new)
        if progress:
            progress(f"iteration {k}: verify", 0, 1)
        est = V.verify(trainee.game, f"{trainee.strategy}@{wpath}", cfg.opponent, cfg.seed,
                       VERIFY_BASE + k * cfg.verify, cfg.verify, backend)
        entry = {"iteration": k, "decisions": int(len(new["action"])),
                 "decisions_total": int(sum(len(p["action"]) for p in parts)),
                 "actor": actor or cfg.teacher,
                 "weights_sha256": _sha(wpath), "data_sha256": _sha(dpath),
                 "agreement_new_data_before_fit": {names[m]: v for m, v in seen.items()},
                 "agreement_after_fit": {names[m]: v for m, v in fitted.items()},
                 "verify": {"opponent": cfg.opponent, "seed": cfg.seed,
                            "deals": [VERIFY_BASE + k * cfg.verify,
                                      VERIFY_BASE + (k + 1) * cfg.verify], **est},
                 "seconds": round(time.monotonic() - t0, 1)}
        hist.append(entry)
        shutil.copyfile(wpath, out / "model.npz")
        _write_json(out / "history.json", hist)
        log(f"iteration {k}: {entry['decisions']:,} decisions; vs {cfg.opponent}: "
            f"{est['mean']:+.1f} [{est['lo']:+.1f}, {est['hi']:+.1f}] per game "
            f"({cfg.verify} deals)")
    from trixsim.train.plots import plot_history

    plot_history(hist, out, trainee.strategy, trainee.game, trainee.start_label)
    return hist
