"""Learner steps per second of self-play training, the old path and the batched one side by side in one run.

    python -m benchmarks.training_speed [--quick] [--repeats N] [--json PATH] [--write PAGE ...]
                                        [--games makabana,makemake,maunakea]
    python -m benchmarks.training_speed --report PATH --write README.md --write docs/training.md   # no measuring

For each game (2 players) both paths train the same MaskablePPO learner, built as the main job builds it
(``agents.training.train``'s defaults: minibatches of 1024 (Maka Bana 256), 4 epochs, 128 x 128, the update on
``UPDATE_THREADS`` torch threads and the rollouts on one; games at once and steps per game as
``VEC_DEFAULTS`` and ``GAME_VEC_DEFAULTS`` have them: 32 x 64 for the old path, 256 x 8 batched, 64 x 32
for Maka Bana batched, 2048 learner steps per iteration either way), against the same pool: the
heuristic and a network snapshot of the learner (``save_snapshot``), drawn half and half.

- ``per-game``: one ``SelfPlayEnv`` per game in a ``DummyVecEnv``, every opponent move one Python call.
- ``batched``: ``BatchedSelfPlayEnv``, the heuristic in Numba, the snapshot one forward pass per batch.

Every PPO iteration is timed in two parts, SB3's ``collect_rollouts`` (the ``rollout`` rows) and
``train`` (the update); the ``ppo`` rows are whole iterations, collection plus update.  Before the
timing every game plays 160 learner steps (64 with ``--quick``) of random legal moves: the first moves
of a game cost the heuristic several times what later ones do, and both paths must be timed on games
as far along.  For the batched rollout the
run also times every network forward pass -- the learner's (``policy.forward``, sampling included) and
the snapshots' (``BatchedSelfPlayEnv.network_seconds``) -- and reports their share of the rollout time
(``network_share``); the rest is stepping, masks, observations, the Numba opponents, the rollout buffer
and bookkeeping.

On a shared machine these figures move by half from one run to the next, so the run measures both
paths ``--repeats`` times (3 by default, 1 with ``--quick``), back to back within each repeat and in
alternating order, and judges the targets on the median over the repeats of each repeat's ratio (the
two paths of one repeat measured within a minute or two of each other), with the lowest and highest
beside it.

JSON: a list of rows ``{"game", "path", "phase", "repeat", "learner_steps_per_second"}``, the batched
rollout rows with ``network_share``, every row with the seconds and steps measured and the machine
(``meta``: processor, load average at the start and end of the run).  The targets of issue 21 are
printed beside the figures: batched rollout >= 4x the old, its network share >= 0.85, the whole PPO
iteration >= 2x the old.  ``--write PAGE`` (as often as needed) writes the summary table between the
``<!-- training-speed:start -->`` and ``<!-- training-speed:end -->`` lines of PAGE, and ``--report
PATH`` rebuilds it from a run's JSON without measuring; the tests compare the README and
docs/training.md with ``docs/training_speed.json``.
"""
import argparse
import json
import os
import platform
import reprlib
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from benchmarks.report import NAMES, check_page, write
from benchmarks.throughput import cpu_name, load_average
from pacific_common.cli import check_ranges, different_files, integer_option, output_file, parsed_names
from pacific_common.options import is_finite

GAMES = ("makabana", "makemake", "maunakea")
TARGETS = {"rollout": 4.0, "network_share": 0.85, "ppo": 2.0}
TABLE_START, TABLE_END = "<!-- training-speed:start -->", "<!-- training-speed:end -->"
REPEATS_MAX = 100


def build(game_name, path, pool, args, folder):
    """The learner and its training games for one path, as ``agents.training.train`` builds them."""
    from stable_baselines3.common.vec_env import DummyVecEnv, VecMonitor

    from agents.training.batched import BatchedSelfPlayEnv
    from agents.training.selfplay import OpponentPool, SelfPlayEnv
    from agents.training.train import _learner

    def fresh_pool():
        return OpponentPool(["heuristic"], [pool], baseline_share=0.5)

    if path == "batched":
        envs = BatchedSelfPlayEnv(game_name, args.envs, 2, opponents=fresh_pool(), shaping=args.shaping,
                                  truncation=args.truncation, seed=args.seed * 1000)
    else:
        envs = DummyVecEnv([lambda rank=rank: SelfPlayEnv(game_name, 2, opponents=fresh_pool(),
                                                          shaping=args.shaping, truncation=args.truncation,
                                                          seed=args.seed * 1000 + rank)
                            for rank in range(args.envs)])
    model = _learner(args, VecMonitor(envs), folder, None)
    return model, envs


class ForwardTimer:
    """Adds up the time of the learner's forward passes (``policy.forward``) while installed."""

    def __init__(self, policy):
        self.policy, self.seconds = policy, 0.0
        self.plain = policy.forward

        def timed(*args, **kwargs):
            started = time.perf_counter()
            try:
                return self.plain(*args, **kwargs)
            finally:
                self.seconds += time.perf_counter() - started

        policy.forward = timed


def collection_callback(model):
    """What ``model.collect_rollouts`` needs outside ``learn()``: SB3's set-up of a run (its logger,
    counters and first observation) and the started callback it returns."""
    callback = model._setup_learn(10 ** 12, None, True, "benchmark", False)[1]
    callback.on_training_start({}, {})
    return callback


def warm_up(model, steps_per_game, seed=0):
    """Play ``steps_per_game`` learner steps in every game (uniformly random legal moves, no update)."""
    from sb3_contrib.common.maskable.utils import get_action_masks

    rng = np.random.default_rng(seed)
    obs, dones = model._last_obs, model._last_episode_starts
    for _ in range(steps_per_game):
        masks = get_action_masks(model.env)
        actions = np.argmax(np.where(masks, rng.random(masks.shape), -1.0), axis=1)
        obs, _, dones, _ = model.env.step(actions)
    model._last_obs, model._last_episode_starts = obs, dones


def measure(model, envs, iterations, warmup, update_threads=1):
    """Seconds of collection and of update over ``iterations`` PPO iterations, the learner's and the
    snapshots' forward seconds during collection, and the learner steps collected.  Every game first
    plays ``warmup`` learner steps: a game's first moves cost the heuristic several times what later
    ones do (Mauna Kea: 5x), and 256 games x 8 steps timed from the start would be nearly all first
    moves, 32 x 64 far fewer.  The warm-up also loads or compiles the Numba code.  The update runs on
    ``update_threads`` torch threads and the collection on one, as the main job runs them."""
    import torch

    from agents.training.train import torch_threads

    callback = collection_callback(model)
    warm_up(model, warmup)
    timer = ForwardTimer(model.policy)
    collect = update = learner_net = snapshot_net = 0.0
    for _ in range(iterations):
        timer.seconds = 0.0
        snapshot_before = getattr(envs, "network_seconds", 0.0)
        started = time.perf_counter()
        model.collect_rollouts(model.env, callback, model.rollout_buffer, model.n_steps)
        collected = time.perf_counter()
        with torch_threads(torch, update_threads):
            model.train()
        done = time.perf_counter()
        collect += collected - started
        update += done - collected
        learner_net += timer.seconds
        snapshot_net += getattr(envs, "network_seconds", 0.0) - snapshot_before
    return dict(collect=collect, update=update, learner_net=learner_net, snapshot_net=snapshot_net,
                steps=iterations * model.n_steps * model.n_envs, envs=model.n_envs, n_steps=model.n_steps)


def run_game(game_name, args, order=("per-game", "batched")):
    import torch
    from stable_baselines3.common.vec_env import VecMonitor

    from agents.learned.network import save_snapshot
    from agents.training.batched import BatchedSelfPlayEnv
    from agents.training.train import _learner, _single_threaded, parse_args

    _single_threaded(torch)
    results = {}
    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        # the snapshot opponent: a fresh learner's network, as big as the learner's
        probe = VecMonitor(BatchedSelfPlayEnv(game_name, 1, 2, opponents=["random"], seed=0))
        snapshot = None
        for path in order:
            # each path at the main job's defaults for it (agents.training.train.VEC_DEFAULTS)
            # the MLP over the observation on both paths (Mauna Kea's default action scorer is batched only)
            train_args = parse_args(["--game", game_name, "--players", "2", "--seed", str(args.seed),
                                     "--vec-env", "batched" if path == "batched" else "dummy", "--policy", "mlp"]
                                    + (["--envs", str(args.envs)] if args.envs else []))
            if snapshot is None:
                snapshot = str(save_snapshot(_learner(train_args, probe, folder, None), folder / "snapshot_0.npz"))
            model, envs = build(game_name, path, snapshot, train_args, folder)
            threads = args.update_threads or train_args.update_threads
            results[path] = measure(model, envs, args.iterations, args.warmup, threads)
            results[path]["update_threads"] = threads
            envs.close()
    return results


def rows_of(game_name, results, repeat=0):
    rows = []
    for path, r in results.items():
        shape = dict(repeat=repeat, envs=r["envs"], n_steps=r["n_steps"], update_threads=r["update_threads"])
        rollout = dict(game=game_name, path=path, phase="rollout", **shape,
                       learner_steps_per_second=r["steps"] / r["collect"], seconds=r["collect"], steps=r["steps"])
        if path == "batched":
            rollout["network_share"] = (r["learner_net"] + r["snapshot_net"]) / r["collect"]
            rollout["learner_network_seconds"] = r["learner_net"]
            rollout["snapshot_network_seconds"] = r["snapshot_net"]
        rows.append(rollout)
        rows.append(dict(game=game_name, path=path, phase="ppo", **shape,
                         learner_steps_per_second=r["steps"] / (r["collect"] + r["update"]),
                         seconds=r["collect"] + r["update"], update_seconds=r["update"], steps=r["steps"]))
    return rows


def check_rows(rows):
    """ValueError unless ``rows`` are a run's rows as ``rows_of`` writes them, each repeat of each game
    with both paths' rollout and PPO rows: a hand-edited file with a zero time or a share of "abc"
    failed deep in the table with a traceback, and an unknown game wrote a table of no games."""
    if not isinstance(rows, list) or not rows:
        raise ValueError("no list of rows")
    paths, phases = ("per-game", "batched"), ("rollout", "ppo")

    def check(row, where, key, ok, allowed):
        value = row.get(key)
        if isinstance(value, bool) or not ok(value):
            raise ValueError(f"{where} has {key} {reprlib.repr(value)}; it must be {allowed}")

    whole = lambda low: lambda v: isinstance(v, int) and v >= low   # noqa: E731
    positive = lambda v: isinstance(v, (int, float)) and is_finite(v) and v > 0   # noqa: E731
    share = lambda v: isinstance(v, (int, float)) and is_finite(v) and 0 <= v <= 1   # noqa: E731
    for i, row in enumerate(rows):
        where = f"row {i}"
        if not isinstance(row, dict):
            raise ValueError(f"{where} is not an object")
        check(row, where, "game", lambda v: v in GAMES, f"one of {', '.join(GAMES)}")
        check(row, where, "path", lambda v: v in paths, f"one of {', '.join(paths)}")
        check(row, where, "phase", lambda v: v in phases, f"one of {', '.join(phases)}")
        check(row, where, "repeat", whole(0), "a whole number")
        for key in ("envs", "n_steps", "steps"):
            check(row, where, key, whole(1), "a whole number of at least 1")
        for key in ("learner_steps_per_second", "seconds") + (("update_seconds",) if row["phase"] == "ppo" else ()):
            check(row, where, key, positive, "a finite number above 0")
        if row["path"] == "batched" and row["phase"] == "rollout":
            check(row, where, "network_share", share, "a number from 0 to 1")
        check(row, where, "meta", lambda v: v is None or isinstance(v, dict), "an object")
    present = {(r["game"], r["path"], r["phase"], r["repeat"]) for r in rows}
    for game, repeat in {(r["game"], r["repeat"]) for r in rows}:
        missing = [f"{path} {phase}" for path in paths for phase in phases if (game, path, phase, repeat) not in present]
        if missing:
            raise ValueError(f"{game}'s repeat {repeat} has no {' or '.join(missing)} row")


def summary(rows):
    """Per game: the number of repeats, each path's games x steps, and every figure and ratio as the list
    of its values, one per repeat."""
    by = {(r["game"], r["path"], r["phase"], r.get("repeat", 0)): r for r in rows}
    out = {}
    for game in dict.fromkeys(r["game"] for r in rows):
        repeats = sorted({k[3] for k in by if k[0] == game})
        per = {key: [] for key in ("old_rollout", "new_rollout", "old_update", "new_update", "old_ppo", "new_ppo",
                                   "rollout", "network_share", "ppo")}
        for i in repeats:
            old_r, new_r = by[(game, "per-game", "rollout", i)], by[(game, "batched", "rollout", i)]
            old_p, new_p = by[(game, "per-game", "ppo", i)], by[(game, "batched", "ppo", i)]
            per["old_rollout"].append(old_r["learner_steps_per_second"])
            per["new_rollout"].append(new_r["learner_steps_per_second"])
            per["old_update"].append(old_p["steps"] / old_p["update_seconds"])
            per["new_update"].append(new_p["steps"] / new_p["update_seconds"])
            per["old_ppo"].append(old_p["learner_steps_per_second"])
            per["new_ppo"].append(new_p["learner_steps_per_second"])
            per["rollout"].append(new_r["learner_steps_per_second"] / old_r["learner_steps_per_second"])
            per["network_share"].append(new_r["network_share"])
            per["ppo"].append(new_p["learner_steps_per_second"] / old_p["learner_steps_per_second"])
        old, new = (by[(game, path, "rollout", repeats[0])] for path in ("per-game", "batched"))
        out[game] = dict(repeats=len(repeats), shape_old=(old["envs"], old["n_steps"]),
                         shape_new=(new["envs"], new["n_steps"]), **per)
    return out


def _median(values):
    return float(np.median(values))


def _spread(values, fmt):
    """The median of a figure's values, with the lowest and highest beside it when there are several."""
    median = fmt(_median(values))
    return median if len(values) == 1 else f"{median} [{fmt(min(values))}, {fmt(max(values))}]"


def _telling(fmt, values, target):
    """``fmt`` (a number, maybe followed by "×"), or the same with as many more decimals as it takes
    (up to 6) for no value to be rounded across ``target``: 3.97 shown as "4.0×" beside "missed"."""
    unit = "×" if fmt(target).endswith("×") else ""
    decimals = len(fmt(target).rstrip("×").partition(".")[2])
    figures = list(values) + [_median(values)]
    for more in range(decimals, 7):
        if all((round(v, more) >= target) == (v >= target) for v in figures):
            break
    return fmt if more == decimals else (lambda x: f"{x:.{more}f}{unit}")


def _verdict(values, target):
    met = sum(v >= target for v in values)
    return ("met" if _median(values) >= target else "missed") + ("" if len(values) == 1 else
                                                                 f", {met} of {len(values)}")


def print_table(rows):
    print(f"\n{'game':<10} {'path':<9} {'games x steps':>13} {'rollout/s':>10} {'update/s':>9} {'ppo/s':>8}"
          f"   (medians over the repeats)")
    for game, s in summary(rows).items():
        for path, key, shape in (("per-game", "old", s["shape_old"]), ("batched", "new", s["shape_new"])):
            print(f"{game:<10} {path:<9} {f'{shape[0]} x {shape[1]}':>13} {_median(s[key + '_rollout']):>10,.0f} "
                  f"{_median(s[key + '_update']):>9,.0f} {_median(s[key + '_ppo']):>8,.0f}")
        ratio = lambda x: f"x{x:.2f}"  # noqa: E731
        share = lambda x: f"{x:.2f}"  # noqa: E731
        print(f"{'':<10} targets over {s['repeats']} repeat(s), median [lowest, highest]: "
              f"rollout {_spread(s['rollout'], ratio)} (>= 4: {_verdict(s['rollout'], TARGETS['rollout'])}), "
              f"network share {_spread(s['network_share'], share)} "
              f"(>= 0.85: {_verdict(s['network_share'], TARGETS['network_share'])}), "
              f"ppo {_spread(s['ppo'], ratio)} (>= 2: {_verdict(s['ppo'], TARGETS['ppo'])})")


def summary_table(rows):
    """The pages' table (README, docs/training.md): per game, the medians over the repeats, their
    spread, and the targets."""
    stats = summary(rows)
    games = [g for g in NAMES if g in stats]
    meta = rows[0].get("meta", {})
    repeats = max(s["repeats"] for s in stats.values())

    def line(label, cell):
        return f"| {label} | " + " | ".join(cell(stats[g]) for g in games) + " |"

    def ratio(x):
        return f"{x:.1f}×"

    def share(x):
        return f"{x:.2f}"

    def judged(s, key, fmt):
        return f"{_spread(s[key], _telling(fmt, s[key], TARGETS[key]))}: {_verdict(s[key], TARGETS[key])}"

    head = (f"| one run of `python -m benchmarks.training_speed` ({repeats} repeat{'s' if repeats > 1 else ''}, "
            f"{meta.get('cores', '?')} cores, load {meta.get('load_at_start', '?')} at its start and "
            f"{meta.get('load_at_end', '?')} at its end; median [lowest, highest] of the repeats) | "
            + " | ".join(NAMES[g] for g in games) + " |")
    return "\n".join([
        head,
        "|---" * (len(games) + 1) + "|",
        line("learner steps/s collecting rollouts, old path / batched (games x steps: "
             + ", ".join(f"{NAMES[g]} {stats[g]['shape_old'][0]} x {stats[g]['shape_old'][1]} / "
                         f"{stats[g]['shape_new'][0]} x {stats[g]['shape_new'][1]}" for g in games) + ")",
             lambda s: f"{_median(s['old_rollout']):,.0f} / {_median(s['new_rollout']):,.0f}"),
        line("batched rollout against the old (target ≥ 4×)", lambda s: judged(s, "rollout", ratio)),
        line("the networks' share of the batched rollout (target ≥ 0.85)",
             lambda s: judged(s, "network_share", share)),
        line("learner steps/s of the update, old path / batched",
             lambda s: f"{_median(s['old_update']):,.0f} / {_median(s['new_update']):,.0f}"),
        line("learner steps/s of whole PPO iterations (rollout and update), old path / batched",
             lambda s: f"{_median(s['old_ppo']):,.0f} / {_median(s['new_ppo']):,.0f}"),
        line("whole PPO iteration, batched against the old (target ≥ 2×)", lambda s: judged(s, "ppo", ratio)),
    ])


def write_page(path, text):
    write(path, text, TABLE_START, TABLE_END)


def machine_meta():
    return dict(machine=platform.machine(), python=platform.python_version(), cores=os.cpu_count(), cpu=cpu_name(),
                load_at_start=load_average())


MEASURING = ("quick", "repeats", "json", "games", "envs", "seed", "update_threads")   # what --report has no use for


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    parser.add_argument("--quick", action="store_true", default=None,
                        help="2 measured iterations per path instead of 6, after 64 warm-up steps per game "
                             "instead of 160, and 1 repeat unless --repeats says otherwise")
    parser.add_argument("--repeats", type=integer_option(1, REPEATS_MAX), default=None,
                        help="measurements of both paths per game, back to back, alternating which goes "
                             f"first, 1 to {REPEATS_MAX} (default: 3, or 1 with --quick)")
    parser.add_argument("--json", metavar="PATH", help="write the rows to this file")
    parser.add_argument("--write", metavar="PAGE", action="append", default=[],
                        help="write the summary table between the training-speed markers of PAGE (repeatable)")
    parser.add_argument("--report", metavar="PATH",
                        help="measure nothing: print (and with --write write) the tables of this run's JSON")
    parser.add_argument("--games", default=None, help="comma-separated (default: all three)")
    # the digits here, the ranges below with agents.train's bounds
    parser.add_argument("--envs", type=integer_option(None), default=None,
                        help="games at once on both paths (default: each path's main-job default)")
    parser.add_argument("--seed", type=integer_option(None), default=None, help="(default: 0)")
    parser.add_argument("--update-threads", type=integer_option(None), default=None,
                        help="torch threads of the update on both paths (default: the main job's)")
    args = parser.parse_args(argv)
    try:   # every output before the measurement, and every page before one is written
        for page in args.write:
            check_page("--write", page, TABLE_START, TABLE_END)
        if args.json is not None:
            output_file("--json", args.json)
            different_files([("--json", args.json)] + [("--write", page) for page in args.write])
    except ValueError as error:
        parser.error(str(error))
    if args.report is not None:
        given = [f"--{name.replace('_', '-')}" for name in MEASURING if getattr(args, name) is not None]
        if given:
            parser.error(f"--report measures nothing, so {', '.join(given)} would do nothing; leave "
                         f"{'it' if len(given) == 1 else 'them'} out")
        if not args.report:
            parser.error("--report is empty; give the JSON a run wrote with --json")
        try:
            rows = json.loads(Path(args.report).read_text())
            check_rows(rows)
        except (OSError, ValueError, RecursionError) as error:
            parser.error(f"--report takes the JSON a run wrote with --json; {args.report} is not one "
                         f"({type(error).__name__}: {error})")
        print_table(rows)
        for page in args.write:
            write_page(page, summary_table(rows))
        return
    args.games = ",".join(GAMES) if args.games is None else args.games
    args.seed = 0 if args.seed is None else args.seed
    games = parsed_names(parser, "--games", args.games, unique=True)
    unknown = [g for g in games if g not in GAMES]
    if unknown or not games:
        parser.error(f"--games takes names from {', '.join(GAMES)}, got {args.games!r}")
    # agents.train's bounds, checked here: its own parser would answer with its usage line
    from agents.training.train import MAX_ENVS, MAX_ROLLOUT, MAX_UPDATE_THREADS, SEED_MAX, VEC_DEFAULTS
    most_steps = max(shape["n_steps"] for shape in VEC_DEFAULTS.values())   # the old path's 64 a game
    check_ranges(parser, args, (("update_threads", "a positive integer", lambda v: v >= 1),
                                ("update_threads", f"at most {MAX_UPDATE_THREADS}", lambda v: v <= MAX_UPDATE_THREADS),
                                ("envs", "a positive integer", lambda v: v >= 1),
                                ("envs", f"at most {MAX_ENVS}", lambda v: v <= MAX_ENVS),
                                ("envs", f"at most {MAX_ROLLOUT // most_steps} (agents.train's rollout of at most "
                                         f"{MAX_ROLLOUT:,} steps, at {most_steps} steps a game on the old path)",
                                 lambda v: v * most_steps <= MAX_ROLLOUT)))
    if not 0 <= args.seed <= SEED_MAX:
        parser.error(f"--seed must be an integer from 0 to {SEED_MAX}, got {args.seed}")
    repeats = args.repeats or (1 if args.quick else 3)
    args.iterations = 2 if args.quick else 6
    args.warmup = 64 if args.quick else 160
    from agents.training.train import quiet_openmp_waits
    quiet_openmp_waits()   # as the main job runs its update
    try:
        import sb3_contrib  # noqa: F401
    except ImportError:
        sys.exit('the training benchmark needs the train extra: pip install -e ".[train]"')
    import makabana_env.core  # noqa: F401  (agents.games reads <package>.core)
    import makemake_env.core  # noqa: F401
    import maunakea_env.core  # noqa: F401

    meta = dict(machine_meta(), iterations=args.iterations, warmup_steps_per_game=args.warmup, repeats=repeats)
    rows = []
    for repeat in range(repeats):
        # the paths alternate which goes first, so that a machine growing busier or quieter over the
        # run does not favour one of them
        order = ("per-game", "batched") if repeat % 2 == 0 else ("batched", "per-game")
        for game in games:
            started = time.perf_counter()
            rows += rows_of(game, run_game(game, args, order), repeat)
            print(f"{game}, repeat {repeat + 1} of {repeats}: measured in {time.perf_counter() - started:.0f} s",
                  flush=True)
    meta["load_at_end"] = load_average()
    rows = [dict(r, meta=meta) for r in rows]
    print_table(rows)
    if args.json is not None:
        Path(args.json).write_text(json.dumps(rows, indent=1))
        print(f"wrote {args.json}")
    for page in args.write:
        write_page(page, summary_table(rows))
        print(f"wrote the table into {page}")


if __name__ == "__main__":
    main()
