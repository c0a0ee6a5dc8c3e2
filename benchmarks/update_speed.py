"""The PPO update's speed against its settings: minibatch, epochs, hidden width and torch threads.

    python -m benchmarks.update_speed [--games makabana,makemake,maunakea] [--repeats 5] [--json PATH]

Self-play training on the batched engine is bound by PPO's update (``benchmarks.training_speed``,
docs/training.md), so the main job's ``--batch-size``, ``--epochs``, ``--net`` and ``--update-threads``
are chosen by measuring it. For each game (2 players) this builds the main job's learner
(``agents.training.train``: the game's policy and games at once, against the heuristic), collects one
rollout of 2048 learner steps and times SB3's ``train()`` on it, the best of ``--repeats`` calls, for
the main job's setting and for each knob changed alone:

- a minibatch of 256, 512, 1024 or 2048 instead of the game's (Maka Bana 256, the others 1024);
- 2 or 8 passes over the rollout instead of 4;
- hidden layers of 64 or 256 instead of 128 (a learner of that width, its own rollout; Mauna Kea's
  action scorer keeps its width of 32, ``SCORER_HIDDEN``, so there only its value network changes);
- the update on one torch thread instead of ``UPDATE_THREADS``.

A row's ``update_steps_per_second`` is the rollout's learner steps over the update's seconds, the
``update/s`` column of ``benchmarks.training_speed``. What a setting does to the strength of a run is
not measured here: docs/training.md has the runs.
"""
import argparse
import json
import platform
import sys
import tempfile
import time
from pathlib import Path

from pacific_common.cli import check_ranges, checked_output_file, integer_option, parsed_names

GAMES = ("makabana", "makemake", "maunakea")
# the best of a hundred update calls has long settled (each call takes a second or more, nine settings a game):
# more is a typo that would run for days
REPEATS_MAX = 100
BATCH_SIZES = (256, 512, 1024, 2048)
EPOCHS = (2, 8)
WIDTHS = (64, 256)


def learner(game, args, width, folder):
    """The main job's learner (of hidden width ``width``, if given), with one rollout collected."""
    from stable_baselines3.common.vec_env import VecMonitor

    from agents.training.batched import BatchedSelfPlayEnv, learner_env
    from benchmarks.training_speed import collection_callback
    from agents.training.train import _learner, parse_args

    train_args = parse_args(["--game", game, "--players", "2", "--seed", str(args.seed)]
                            + (["--net", str(width)] if width else []))
    envs = VecMonitor(learner_env(BatchedSelfPlayEnv(game, train_args.envs, 2, opponents=["heuristic"],
                                                     seed=args.seed * 1000),
                                  "features" if train_args.policy == "scorer" else "observation"))
    model = _learner(train_args, envs, folder, None)
    model.collect_rollouts(model.env, collection_callback(model), model.rollout_buffer, model.n_steps)
    return model, envs, train_args


def time_update(model, batch_size, epochs, threads, repeats):
    """Learner steps per second of ``train()`` on the collected rollout, the best of ``repeats``."""
    import torch

    from agents.training.train import torch_threads

    model.batch_size, model.n_epochs = batch_size, epochs
    best = float("inf")
    for _ in range(repeats):
        started = time.perf_counter()
        with torch_threads(torch, threads):
            model.train()
        best = min(best, time.perf_counter() - started)
    return model.rollout_buffer.buffer_size * model.n_envs / best


def run_game(game, args, folder):
    rows = []

    def row(model, train_args, knob, batch_size, epochs, width, threads):
        speed = time_update(model, batch_size, epochs, threads, args.repeats)
        rows.append(dict(game=game, policy=train_args.policy, knob=knob, batch_size=batch_size, epochs=epochs,
                         net=width, update_threads=threads, update_steps_per_second=speed))
        print(f"  {game:<9} {knob:<8} batch {batch_size:>4}, {epochs} epochs, net {width:>3}, {threads} "
              f"thread{'s' if threads > 1 else ''}: {speed:>9,.0f} learner steps/s", flush=True)

    model, envs, a = learner(game, args, None, folder)
    width, batch_size, epochs, threads = a.net, a.batch_size, a.epochs, a.update_threads
    row(model, a, "default", batch_size, epochs, width, threads)
    for b in BATCH_SIZES:
        if b != batch_size:
            row(model, a, "batch", b, epochs, width, threads)
    for e in EPOCHS:
        row(model, a, "epochs", batch_size, e, width, threads)
    row(model, a, "threads", batch_size, epochs, width, 1)
    envs.close()
    for w in WIDTHS:
        model, envs, a = learner(game, args, w, folder)
        row(model, a, "net", batch_size, epochs, w, threads)
        envs.close()
    return rows


def print_table(rows):
    print(f"\n{'game':<10} {'setting':<28} {'update/s':>9} {'x default':>9}")
    for game in dict.fromkeys(r["game"] for r in rows):
        mine = [r for r in rows if r["game"] == game]
        base = mine[0]["update_steps_per_second"]
        for r in mine:
            setting = (f"batch {r['batch_size']}, {r['epochs']} ep, net {r['net']}, "
                       f"{r['update_threads']} thr")
            print(f"{game:<10} {setting:<28} {r['update_steps_per_second']:>9,.0f} "
                  f"{r['update_steps_per_second'] / base:>9.2f}")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    parser.add_argument("--games", default=",".join(GAMES), help="comma-separated (default: all three)")
    # the digits here, the ranges below with the messages they have always had
    parser.add_argument("--repeats", type=integer_option(None), default=5,
                        help=f"update calls timed per setting, the best kept, 1 to {REPEATS_MAX} "
                             f"(default: %(default)s)")
    parser.add_argument("--seed", type=integer_option(None), default=0)
    parser.add_argument("--json", metavar="PATH", help="write the rows to this file")
    args = parser.parse_args(argv)
    games = parsed_names(parser, "--games", args.games, unique=True)
    unknown = [g for g in games if g not in GAMES]
    if unknown or not games:
        parser.error(f"--games takes names from {', '.join(GAMES)}, got {args.games!r}")
    from agents.training.train import SEED_MAX, quiet_openmp_waits
    check_ranges(parser, args, (   # the seed here, not in agents.train's own parser with its usage line
        ("repeats", f"a positive integer of at most {REPEATS_MAX}", lambda v: 1 <= v <= REPEATS_MAX),
        ("seed", f"an integer from 0 to {SEED_MAX}", lambda v: 0 <= v <= SEED_MAX)))
    args.json = checked_output_file(parser, "--json", args.json)   # '' too: refused, not taken for "no file"
    quiet_openmp_waits()   # as the main job runs its update
    try:
        import torch
    except ImportError:
        sys.exit('the update benchmark needs the train extra: pip install -e ".[train]"')
    from agents.training.train import _single_threaded
    _single_threaded(torch)
    import makabana_env.core  # noqa: F401  (agents.games reads <package>.core)
    import makemake_env.core  # noqa: F401
    import maunakea_env.core  # noqa: F401

    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for game in games:
            rows += run_game(game, args, Path(folder))
    print_table(rows)
    if args.json is not None:
        meta = dict(machine=platform.machine(), python=platform.python_version(), torch=torch.__version__,
                    repeats=args.repeats)
        args.json.write_text(json.dumps([dict(r, meta=meta) for r in rows], indent=1))
        print(f"wrote {args.json}")


if __name__ == "__main__":
    main()
