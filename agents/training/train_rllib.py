r"""Multi-agent PPO self-play on Ray RLlib, on one machine or on a Ray cluster.

    python -m agents.train_rllib --game makemake [--players 2] [--address ADDR] \
        [--num-env-runners 2] [--iterations 20] [--out DIR]

What it does, top to bottom:
1. Ray: a local instance by default; ``--address auto`` joins the cluster this machine belongs to
   (started with ``ray start``), ``--address ray://HOST:10001`` connects to one through Ray Client.
2. Environment: the game's PettingZoo AEC environment (``<game>_env.env(...)``) behind RLlib's
   ``PettingZooEnv`` wrapper, one per env runner, each runner seeded ``--seed`` + its index.
3. Policies: "main", the shared policy that learns, and ``--snapshots`` frozen copies of it
   ("snapshot_0", ...) that only play: ``agents.learned.rllib_module.MaskedPPOTorchRLModule``, PPO's default
   actor-critic with the legal-action mask applied to its logits (illegal actions are never sampled).
4. Self-play: in every game one seat (drawn per game) is "main"; every other seat is "main" as well
   with probability ``--self-share`` (its moves train "main" too), otherwise one of the snapshots.
   Every ``--snapshot-every`` iterations the oldest snapshot becomes a copy of "main", so opponents
   are earlier versions of the learner, a few iterations behind.
5. Every iteration one line goes to ``DIR/progress.csv``; every ``--checkpoint-every`` iterations, and
   at the end, an RLlib checkpoint goes to ``DIR/checkpoints/iter_NNNN`` (``DIR/final`` at the end).
6. At the end the final checkpoint and the ``--eval-opponents`` play ``--eval-games`` seat-rotated games
   of ``agents.arena.tournament.run_tournament``, whose tables rotate through the agents (with more
   agents than seats, some games are the opponents' own); the table is printed and written to
   ``DIR/evaluation.json``.  A checkpoint is an agent like any other:
   ``python -m agents.tournament --game makemake --players 2 --agents DIR/final,random``.

Options:

=========================  ==========================================================================
``--game``                 makabana, makemake or maunakea
``--players``              number of players (default 2)
``--variant``              game variant (default: the game's)
``--address``              Ray cluster to use: ``auto`` or ``ray://HOST:10001`` (default: a local Ray)
``--num-env-runners``      processes playing games, one CPU each (default 2; 0: sample in this process)
``--envs-per-runner``      games each runner steps together, one forward pass for all (default 8)
``--num-learners``         learner processes (default 0: learn in this process)
``--learner-threads``      torch threads of the learner in this process (default 1)
``--iterations``           PPO iterations (default 20, a few minutes on two cores for Make Make)
``--train-batch-size``     environment steps per iteration (default 4000)
``--minibatch-size``       SGD minibatch (default 500); ``--epochs`` passes over each batch (default 4)
``--lr``                   Adam learning rate, a finite positive number (default 3e-4)
``--hidden``               width of the two hidden layers (default 256)
``--snapshots``            frozen opponents (default 3); ``--snapshot-every`` iterations apart (default 5)
``--self-share``           share of opponent seats played by "main" itself (default 0.5)
``--checkpoint-every``     iterations between checkpoints (default 10)
``--eval-games``           final evaluation games (default 100; 0 to skip)
``--eval-opponents``       comma-separated agents for the final evaluation, at least players - 1 (default
                           random,heuristic, cycled up to players - 1: random,heuristic,random for 4)
``--out``                  output folder (default runs/rllib-<game>-<players>p-s<seed>)
``--seed``                 seed of the env runners, the networks and the evaluation (default 0; runner i
                           uses seed + i, which numpy's global seed limits to 2**32 - 1)
=========================  ==========================================================================

On a cluster every node needs this package and the extra installed (``pip install -e
".[distributed]"``), since env runners build the environments and load this module's classes there.
"""
import argparse
import csv
import json
import math
import os
import random
import re
import socket
import sys
import time
import zlib
from pathlib import Path

from pacific_common.cli import check_ranges, integer_option, made_folder, no_other_run, output_folder, parsed_names

from ..games import GAMES, game_info_or_error
from ..registry import make_agent
from ..workers import ctrl_c_exits

DISTRIBUTED_EXTRA = 'pip install -e ".[distributed]"'
MAIN = "main"
DEFAULT_EVAL_OPPONENTS = ("random", "heuristic")
# RLlib seeds numpy's global generator (np.random.seed, at most 2**32 - 1) in env runner i with seed + i,
# the local runner being 0 and the remote ones 1 .. --num-env-runners.
SEED_MAX = 2**32 - 1
UPPER_BOUNDS = dict(num_env_runners=1024, num_learners=1024, learner_threads=256, envs_per_runner=65_536,
                    hidden=4096, train_batch_size=2**22, minibatch_size=2**22, eval_games=10**6)
# HOST:PORT, or ray://HOST with the Ray Client's port 10001 taken when none is given; an IPv6 HOST in brackets
HOST = r"(\[[0-9a-fA-F:.]+\]|[^\s:/\[\]]+)"
ADDRESS = re.compile(rf"ray://{HOST}(:\d{{1,5}})?|{HOST}:\d{{1,5}}")
# what the other jobs leave in their folders: a run of theirs is no place for this one's
OTHER_JOBS_FILES = {"config.json": "agents.train's", "state.json": "agents.expert_iteration's",
                    "decisions.npz": "agents.distill's"}
# what a run of this job leaves: a second run there mixed its checkpoints with the first's (old
# snapshots inside the new final checkpoint, the old evaluation.json kept)
OWN_FILES = ("args.json", "checkpoints", "final", "evaluation.json")
CSV_FIELDS = ["iteration", "seconds", "env_steps", "env_steps_per_s", "episodes",
              "episode_len_mean", "policy_loss", "vf_loss", "entropy", "snapshots_taken"]


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description="Self-play PPO on Ray RLlib.",
                                     formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    add = parser.add_argument
    whole = integer_option(None)   # digits 0-9 only ('١', '1_0' are refused); ranges below
    add("--game", required=True, choices=sorted(GAMES))
    add("--players", type=whole, default=2, help="number of players (default: %(default)s)")
    add("--variant", default=None, help="game variant (default: the game's)")
    add("--address", default=None,
        help="Ray cluster: 'auto' or 'ray://HOST:10001' (default: start a local Ray instance)")
    add("--num-env-runners", type=whole, default=2, help="env runner processes (default: %(default)s)")
    add("--envs-per-runner", type=whole, default=8,
        help="games each env runner steps at once, one batched forward pass for all (default: %(default)s)")
    add("--num-learners", type=whole, default=0, help="learner processes, 0: this one (default: %(default)s)")
    add("--learner-threads", type=whole, default=1,
        help="torch threads of the learner in this process (default: %(default)s)")
    add("--iterations", type=whole, default=20, help="training iterations (default: %(default)s)")
    add("--train-batch-size", type=whole, default=4000, help="env steps per iteration (default: %(default)s)")
    add("--minibatch-size", type=whole, default=500, help="SGD minibatch size (default: %(default)s)")
    add("--epochs", type=whole, default=4, help="passes over each batch (default: %(default)s)")
    add("--lr", type=float, default=3e-4, help="Adam learning rate, finite and positive (default: %(default)s)")
    add("--hidden", type=whole, default=256, help="width of the two hidden layers (default: %(default)s)")
    add("--snapshots", type=whole, default=3, help="frozen snapshot opponents (default: %(default)s)")
    add("--snapshot-every", type=whole, default=5, help="iterations between snapshots (default: %(default)s)")
    add("--self-share", type=float, default=0.5,
        help="share of opponent seats played by the learning policy itself (default: %(default)s)")
    add("--checkpoint-every", type=whole, default=10, help="iterations between checkpoints (default: %(default)s)")
    add("--eval-games", type=whole, default=100, help="final evaluation games, 0 to skip (default: %(default)s)")
    add("--eval-opponents", default=None,
        help="comma-separated agents of the final evaluation's tournament with the checkpoint, at least players - 1 "
             "(default: random,heuristic, cycled up to players - 1, e.g. random,heuristic,random for 4)")
    add("--out", default=None, help="output folder (default: runs/rllib-<game>-<players>p-s<seed>)")
    add("--seed", type=integer_option(0, SEED_MAX), default=0,
        help="seed; env runner i uses seed + i, at most %d (default: %%(default)s)" % SEED_MAX)
    args = parser.parse_args(argv)
    for key in ("envs_per_runner", "learner_threads", "iterations", "train_batch_size", "minibatch_size",
                "epochs", "hidden", "snapshots", "snapshot_every", "checkpoint_every"):
        if getattr(args, key) < 1:
            parser.error(f"--{key.replace('_', '-')} must be a positive integer, got {getattr(args, key)}")
    for key in ("num_env_runners", "num_learners", "eval_games"):
        if getattr(args, key) < 0:
            parser.error(f"--{key.replace('_', '-')} must be a non-negative integer, got {getattr(args, key)}")
    for key, most in UPPER_BOUNDS.items():   # more only failed in Ray or torch, or exhausted memory, once started
        if getattr(args, key) > most:
            parser.error(f"--{key.replace('_', '-')} must be at most {most:,}, got {getattr(args, key)}")
    if args.minibatch_size > args.train_batch_size:
        parser.error(f"--minibatch-size ({args.minibatch_size}) must not exceed --train-batch-size "
                     f"({args.train_batch_size})")
    if args.seed + args.num_env_runners > SEED_MAX:
        parser.error(f"--seed {args.seed} is too large with --num-env-runners {args.num_env_runners}: runner i uses "
                     f"seed + i, at most {SEED_MAX}, so --seed must be at most {SEED_MAX - args.num_env_runners}")
    # inf or nan passes PPO's setup and only surfaces an iteration later as NaN action probabilities
    check_ranges(parser, args, [("self_share", "between 0 and 1", lambda v: 0.0 <= v <= 1.0),
                                ("lr", "a finite positive number", lambda v: math.isfinite(v) and v > 0)])
    if args.address is not None and not (args.address == "auto" or ADDRESS.fullmatch(args.address)):
        parser.error(f"--address takes 'auto', 'HOST:PORT' or 'ray://HOST:10001', got {args.address!r}")
    port = re.search(r":(\d+)$", args.address or "")
    if port and not 1 <= int(port[1]) <= 65535:   # the system would take it modulo 65536
        parser.error(f"--address takes a port from 1 to 65535, got {args.address!r}")
    try:  # the game's own checks of players and variant, with its messages
        game = game_info_or_error(args.game, args.players, args.variant)
    except ValueError as error:
        parser.error(str(error))
    # the evaluation runs after training: what it needs is checked now, not after the hours
    if args.eval_opponents is None:
        # the default is a pool to rotate through; with more seats than it has agents it repeats
        count = max(len(DEFAULT_EVAL_OPPONENTS), game.num_players - 1)
        args.eval_opponents = [DEFAULT_EVAL_OPPONENTS[i % len(DEFAULT_EVAL_OPPONENTS)] for i in range(count)]
    else:
        args.eval_opponents = parsed_names(parser, "--eval-opponents", args.eval_opponents)
    if args.eval_games and len(args.eval_opponents) < game.num_players - 1:
        parser.error(f"--eval-opponents: {game.num_players} players need {game.num_players - 1} opponents for "
                     f"the final checkpoint, got {len(args.eval_opponents)}; name one several times, or give "
                     f"--eval-games 0")
    for spec in args.eval_opponents if args.eval_games else ():
        try:
            make_agent(spec, game)
        except (ValueError, ImportError, OSError) as error:
            parser.error(f"--eval-opponents: {error}")
    try:  # checked, not created: train() makes it, so that a refused or failed start leaves nothing behind
        default = f"runs/rllib-{args.game}-{args.players}p-s{args.seed}"
        args.out = output_folder("--out", default if args.out is None else args.out, create=False)
    except ValueError as error:
        parser.error(str(error))
    try:   # its checkpoints and progress.csv would be mixed with this run's
        no_other_run("--out", args.out, OTHER_JOBS_FILES)
    except ValueError as error:
        parser.error(str(error))
    earlier = next((name for name in OWN_FILES if (args.out / name).exists()), None)
    if earlier is not None:
        parser.error(f"--out {str(args.out)!r} holds a run already ({earlier}); a run cannot be continued, so "
                     f"choose another --out, or remove that one")
    return args


def require_ray():
    """Import RLlib, or stop with the command that installs it."""
    try:
        import ray  # noqa: F401
        import ray.rllib  # noqa: F401
        import torch  # noqa: F401
    except ImportError as error:
        sys.exit(f"agents.training.train_rllib needs Ray RLlib and torch ({error.name} is missing): "
                 f"{DISTRIBUTED_EXTRA}")


# ---------------------------------------------------------------------------------------------------
# 2. The environment, as RLlib builds it on every env runner
def make_env(env_config):
    """RLlib's ``PettingZooEnv`` over ``<game>_env.env(...)``; ``env_config`` holds the game's name and
    options.  A module-level function so that Ray ships it to other nodes by reference."""
    from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv

    options = {k: v for k, v in env_config.items() if k != "game" and v is not None}
    return PettingZooEnv(GAMES[env_config["game"]].package.env(**options))


def env_name(game):
    return f"pacific-{game}"


# ---------------------------------------------------------------------------------------------------
# 4. Self-play: who plays which seat
def snapshot_ids(count):
    return [f"snapshot_{k}" for k in range(count)]


class SelfPlayMapping:
    """RLlib's ``policy_mapping_fn``: agent id -> module id, the same for all seats of one game.

    The learner's seat and the opponents are drawn from the episode's id (RLlib asks once per agent
    and episode, possibly in another order or on another runner), so every draw of one game agrees."""

    def __init__(self, num_players, snapshots, self_share):
        self.num_players, self.snapshots, self.self_share = num_players, snapshot_ids(snapshots), self_share

    def __call__(self, agent_id, episode, **kwargs):
        draw = random.Random(zlib.crc32(str(episode.id_).encode()))
        learner_seat = draw.randrange(self.num_players)
        # one draw per seat, in seat order, so that seat k's module does not depend on who asks first
        modules = [MAIN if draw.random() < self.self_share or seat == learner_seat else draw.choice(self.snapshots)
                   for seat in range(self.num_players)]
        return modules[int(str(agent_id).rpartition("_")[2])]


# ---------------------------------------------------------------------------------------------------
# 3. The algorithm
def build_config(args):
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.default_model_config import DefaultModelConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.tune.registry import register_env

    from ..learned.rllib_module import MaskedPPOTorchRLModule

    register_env(env_name(args.game), make_env)
    module = RLModuleSpec(module_class=MaskedPPOTorchRLModule,
                          model_config=DefaultModelConfig(fcnet_hiddens=[args.hidden, args.hidden],
                                                          fcnet_activation="relu"))
    modules = [MAIN] + snapshot_ids(args.snapshots)
    return (
        PPOConfig()
        # RLlib's env pre-check steps an unmasked action_space.sample(), often an illegal move (in Mauna
        # Kea nearly always), and the game's "[WARNING]: Illegal move made" at the start of a run then
        # reads as the policy's doing; what the check covers is tested in tests/test_rllib.py instead.
        .environment(env_name(args.game), env_config={"game": args.game, "num_players": args.players,
                                                      "variant": args.variant},
                     disable_env_checking=True)
        .env_runners(num_env_runners=args.num_env_runners, num_envs_per_env_runner=args.envs_per_runner,
                     num_cpus_per_env_runner=1)
        .learners(num_learners=args.num_learners)
        .multi_agent(policies=set(modules), policies_to_train=[MAIN],
                     policy_mapping_fn=SelfPlayMapping(args.players, args.snapshots, args.self_share))
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={m: module for m in modules}))
        .training(train_batch_size_per_learner=args.train_batch_size, minibatch_size=args.minibatch_size,
                  num_epochs=args.epochs, lr=args.lr, gamma=0.99, entropy_coeff=0.01)
        .debugging(seed=args.seed)
    )


def copy_main_to(algo, module_id):
    """Freeze the current "main" into ``module_id``; ``Algorithm.set_state`` then hands the new weights
    to every env runner (the iteration's own sync only covers the modules it trained)."""
    state = algo.learner_group.get_state(components=f"learner/rl_module/{MAIN}")
    weights = state["learner"]["rl_module"][MAIN]
    algo.set_state({"learner_group": {"learner": {"rl_module": {module_id: weights}}}})


# ---------------------------------------------------------------------------------------------------
# 5. Progress
def _get(result, *keys, default=float("nan")):
    for key in keys:
        if not isinstance(result, dict) or key not in result:
            return default
        result = result[key]
    return result


def progress_row(result, seconds, snapshots_taken):
    runners = result.get("env_runners", {})
    iteration_s = result.get("time_this_iter_s") or float("nan")
    sampled = _get(runners, "num_env_steps_sampled", default=0)
    learner = _get(result, "learners", MAIN, default={})
    return {"iteration": result.get("training_iteration"), "seconds": round(seconds, 1),
            "env_steps": _get(runners, "num_env_steps_sampled_lifetime", default=0),
            "env_steps_per_s": round(sampled / iteration_s, 1),
            "episodes": _get(runners, "num_episodes", default=0),
            "episode_len_mean": round(_get(runners, "episode_len_mean"), 1),
            "policy_loss": round(_get(learner, "policy_loss"), 4), "vf_loss": round(_get(learner, "vf_loss"), 4),
            "entropy": round(_get(learner, "entropy"), 4), "snapshots_taken": snapshots_taken}


def progress_line(row, iterations):
    """The console line of one ``progress_row``."""
    # with several runners and a small batch an iteration can end before any game has
    games = ("no game finished in this iteration" if math.isnan(row["episode_len_mean"])
             else f"mean game {row['episode_len_mean']} steps")
    return (f"iteration {row['iteration']}/{iterations}: {row['env_steps']} env steps, "
            f"{row['env_steps_per_s']} steps/s, {games}")


# ---------------------------------------------------------------------------------------------------
def init_ray(address, num_env_runners):
    import ray

    if address is None:
        # A local instance: as many CPU slots as runners need even on a smaller machine (they then
        # share its cores), so that asking for more runners than cores is slow rather than stuck.
        ray.init(num_cpus=max(os.cpu_count() or 1, num_env_runners), include_dashboard=False,
                 log_to_driver=False)
    else:
        _reachable(address)
        try:
            ray.init(address=address, log_to_driver=False)
        except (ConnectionError, TimeoutError) as error:   # 'auto' with no cluster, a Ray Client timeout
            sys.exit(f"--address {address}: no Ray cluster to join ({_first_line(error)}); start one with "
                     f"'ray start --head', or leave --address out for a local Ray")


def _reachable(address, seconds=5.0):
    """Exit with one line unless something listens at ``address``'s host and port: Ray itself tries a
    GCS address that nothing answers again and again without end."""
    if address == "auto":
        return
    host_port = address.removeprefix("ray://")
    if host_port.endswith("]") or ":" not in host_port:   # ray://HOST: Ray Client's default port
        host, port = host_port, "10001"
    else:
        host, _, port = host_port.rpartition(":")
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=seconds).close()
    except OSError as error:
        sys.exit(f"--address {address}: nothing answers at {host}:{port} ({error.strerror or error}); start a "
                 f"Ray cluster there with 'ray start --head', or leave --address out for a local Ray")


def _first_line(error):
    return str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__


def train(args, log=print):
    """Run the training described by ``args`` (``parse_args``); Ray must be initialized.  Returns the
    path of the final checkpoint."""
    out = args.out
    made_folder("--out", out / "checkpoints")
    (out / "args.json").write_text(json.dumps({k: str(v) if isinstance(v, Path) else v
                                               for k, v in vars(args).items()}, indent=1))
    import torch

    # Measured on two shared cores: with torch's default two threads an iteration took 30 s instead
    # of 6 s, the threads waiting on each other while env runners and other jobs held the cores.
    torch.set_num_threads(args.learner_threads)
    algo = build_config(args).build_algo()
    try:
        for slot in snapshot_ids(args.snapshots):  # opponents start as the untrained learner
            copy_main_to(algo, slot)
        start, taken = time.perf_counter(), 0
        with open(out / "progress.csv", "w", newline="") as handle:
            writer = csv.DictWriter(handle, CSV_FIELDS)
            writer.writeheader()
            for iteration in range(1, args.iterations + 1):
                result = algo.train()
                if iteration % args.snapshot_every == 0:
                    copy_main_to(algo, snapshot_ids(args.snapshots)[taken % args.snapshots])
                    taken += 1
                row = progress_row(result, time.perf_counter() - start, taken)
                writer.writerow(row)
                handle.flush()
                log(progress_line(row, args.iterations))
                if iteration % args.checkpoint_every == 0 and iteration < args.iterations:
                    algo.save_to_path((out / "checkpoints" / f"iter_{iteration:04d}").resolve())
        final = (out / "final").resolve()
        algo.save_to_path(final)
        log(f"wrote {final}")
        return final
    finally:
        algo.stop()


def evaluate(args, checkpoint, log=print):
    """The final checkpoint against ``--eval-opponents`` in the tournament; its report, also in
    ``DIR/evaluation.json``."""
    from ..arena.tournament import run_tournament, table_text

    report = run_tournament(args.game, args.players, [str(checkpoint)] + args.eval_opponents,
                            args.eval_games, seed=args.seed, variant=args.variant)
    log(table_text(report))
    (args.out / "evaluation.json").write_text(json.dumps({k: v for k, v in report.items() if k != "records"},
                                                         indent=1))
    return report


@ctrl_c_exits("The checkpoints written so far are in --out's checkpoints folder; each plays as an agent.")
def main(argv=None):
    args = parse_args(argv)
    require_ray()
    import ray

    init_ray(args.address, args.num_env_runners)
    try:
        checkpoint = train(args)
    finally:
        ray.shutdown()
    if args.eval_games:
        evaluate(args, checkpoint)


if __name__ == "__main__":
    main()
