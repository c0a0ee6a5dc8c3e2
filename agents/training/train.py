r"""Self-play training of a MaskablePPO agent for one game, on a few CPU cores.

    python -m agents.train --game makabana [--players 2] [--variant mao] [--timesteps T] [--out DIR] \
        [--seed 0] [--envs N] [--resume]

Top to bottom:
0. The policy (``--policy``): ``mlp``, an MLP over the observation vector; or, for Mauna Kea,
   ``scorer``, an action scorer (``agents.learned.features.ScorerPolicy``): the logit of every
   candidate action is one small MLP applied to that action's features (``agents.learned.scorer``:
   the points margin one step ahead on the search's evaluation, the changes in the players' values,
   the kind of action...), and the value an MLP over the observation.  An MLP over Mauna Kea's 18 x 18
   board has to find shortest paths by itself and does not on a few cores; the scorer is given them.
   Its snapshots and ``final.npz`` are scorer files, played like ``agents/shipped/maunakea.npz``.
1. Warm start (``--imitate N``, skipped with 0): the network first imitates the ``--teacher`` agent
   (the heuristic, or for a scorer the ``lookahead`` agent) on N of its decisions (its action as the
   policy's target, its game's outcome as the value's), a few passes of supervised learning.  Policy
   gradients teach each of the hundreds of actions only when that action is tried; imitation teaches
   every action at every decision, so the learner starts from sensible play -- build on free spots,
   claim free territories -- instead of finding it by chance.
2. Self-play (``--timesteps``): the learner plays one seat in each of ``--envs`` games at once
   (``agents.training.batched.BatchedSelfPlayEnv``: one state array, the opponents played in batch;
   ``--vec-env dummy`` steps one ``agents.training.selfplay.SelfPlayEnv`` per game instead, the old
   path); the other seats are drawn at every game from a pool that holds the random and heuristic
   agents and a snapshot of the learner every ``--snapshot-every`` steps.
3. Every ``--eval-every`` steps the greedy learner plays ``--eval-games`` games against random and
   against heuristic opponents (every other seat, seats rotated; all games at once on the batched
   engine); the win rates go to
   ``DIR/progress.csv`` and TensorBoard (``tensorboard --logdir DIR/tb``), a checkpoint to
   ``DIR/checkpoints/``.
4. At the end: ``DIR/final.zip`` (``agents.make_agent(path, game)`` loads it) and the same policy as
   ``DIR/final.npz`` for numpy alone (what ``agents/shipped/`` holds for Maka Bana and Make Make), the
   win rates of ``--final-games`` games against random and heuristic opponents (batched as well;
   ``--final-table`` adds ``agents.arena.tournament``'s full table), and the learning curve ``DIR/curve.png``.
   ``DIR/best.zip`` is the policy of the best evaluation against the heuristic (measure it again with
   ``agents.arena.tournament`` and other seeds before trusting that number: it was picked for being high).

``--resume`` continues from DIR's latest checkpoint up to ``--timesteps`` in all, with the opponent
pool and the curve as they were at that checkpoint.  ``DIR/config.json`` keeps the first start's warm
start (``--imitate``, ``--teacher``: only a fresh start imitates) and lists each resume under
``resumes``: the steps it started from and the options it changed, with their values before.  Files in ``DIR/pool`` not named
``snapshot_<steps>.npz`` (a copy, say) are left out of the pool, with a note; a damaged last row of
``progress.csv`` (what an interrupted write leaves) is dropped with a warning, a damaged earlier row
refused.

Defaults (per game, ``GAME_DEFAULTS``) are sized for about ten minutes on two CPU cores.  Install what
training needs with ``pip install -e ".[train]"``.
"""
import argparse
import contextlib
import csv
import json
import math
import os
import re
import sys
import time
from pathlib import Path

import numpy as np

from pacific_common.cli import check_ranges, integer_option, made_folder, name_list, output_folder, parsed_names

from ..arena.match import play_game
from ..arena.ratings import wilson_interval
from ..base import Agent
from ..games import GAMES, default_variant, game_info, run_label
from ..learned.network import save_snapshot
from ..learned.scorer import BATCHED_FEATURE_GAMES
from ..registry import make_agent, zip_members
from ..workers import ctrl_c_exits
from .selfplay import OpponentPool, SelfPlayEnv

# Per game, sized for about ten minutes on the 2-core machine (measured; the rollouts take one core,
# the update both, see UPDATE_THREADS): learner steps, the teacher's decisions imitated first, discount
# (Mauna Kea games are long), points-margin shaping (``SelfPlayEnv(shaping=)``), hidden-layer width, whether the action
# head reads the observation too, the evaluations (Mauna Kea's steps and heuristic are slow), the
# learning rate and where it ends, the opponent pool, the policy and the teacher.  Maka Bana's
# pool leans on the heuristic: with random and heuristic drawn alike half the time (the old default)
# its final policies won 29-53% against the heuristic; with the heuristic three times in four of the
# baseline draws and the baselines three draws in four, 76% (docs/training.md has the runs).
# The minibatch (``batch_size``): PPO takes one gradient step per minibatch, so Maka Bana's 256 takes
# eight a pass over each rollout of 2048 steps where 1024 took two.  With 256 its runs won 95.0, 85.3
# and 90.5% of 1,000 games against the heuristic (training seeds 0, 1, 2), with 1024 66.5, 86.2 and
# 76.5%, at half the update's speed (benchmarks.update_speed; docs/training.md, "The update's
# settings").  Make Make's runs beat the heuristic in nearly every game either way, and with 256 won
# 36.2% of 200 games against mcts where 1024's won 59.5%; Mauna Kea's scorer did no better with 256
# or 512 (76.9 and 75.8% of 400 games against the heuristic, 1024's 80.9%): both keep 1024.
# Mauna Kea's learner is an action scorer: an MLP over its observation never got near the heuristic
# (1.5%), and the scorer imitating the heuristic agreed with half its choices and won 19% against it,
# imitating the lookahead agent (67% against the heuristic by itself) 90% of its choices.  Each of
# its decisions evaluates every candidate action (about 5 ms), hence few steps, and few evaluation
# games: its games are long (100 against random took 6.5 minutes).  PPO at 3e-4 took the evaluations
# against the heuristic from 70% after the imitation to 79% at 30,000 steps (40 games each).
GAME_DEFAULTS = {
    "makabana": dict(timesteps=1_000_000, imitate=100_000, gamma=0.99, shaping=0.02, net=128, skip=1,
                     eval_every=100_000, eval_games=100, final_games=200, lr=1e-4, lr_end=1e-5,
                     opponents="random,heuristic,heuristic,heuristic", baseline_share=0.75, policy="mlp",
                     teacher="heuristic", batch_size=256),
    "makemake": dict(timesteps=300_000, imitate=50_000, gamma=0.99, shaping=0.0, net=128, skip=1,
                     eval_every=50_000, eval_games=100, final_games=200, lr=3e-4, lr_end=None,
                     opponents="random,heuristic", baseline_share=0.5, policy="mlp", teacher="heuristic",
                     batch_size=1024),
    "maunakea": dict(timesteps=40_000, imitate=4_000, gamma=0.995, shaping=0.02, net=128, skip=0,
                     eval_every=20_000, eval_games=10, final_games=50, lr=3e-4, lr_end=None,
                     opponents="random,heuristic", baseline_share=0.5, policy="scorer", teacher="lookahead",
                     batch_size=1024),
}
# Games at once and steps per game between updates: 2048 learner steps per update either way.  Batched,
# the learner's forward pass is the rollout's main cost, and over 256 games it costs little more than
# over 32 (benchmarks.training_speed, 2-core machine, Maka Bana: 1,553 learner steps/s collected with
# 32 games x 64 steps, 2,629 with 128 x 16, 3,180 with 256 x 8).  The old path steps its games one by
# one, so more games only make each step longer.
VEC_DEFAULTS = {"batched": dict(envs=256, n_steps=8), "per-game": dict(envs=32, n_steps=64)}
# Maka Bana learns more from fewer games seen longer: its learner makes about 90 decisions in a
# two-player game, and 8 steps per game leave the advantages to a value estimate bootstrapped after a
# tenth of one; with 64 games x 32 steps its runs ended at 76% and 82% against the heuristic, with
# 256 x 8 at 67.5% (docs/training.md).
# Mauna Kea's action scorer (--policy scorer) the same: each step costs about 5 ms a game whatever the
# batch, so a longer view of fewer games for the same 2048 steps.
GAME_VEC_DEFAULTS = {("makabana", "batched", "mlp"): dict(envs=64, n_steps=32),
                     ("maunakea", "batched", "scorer"): dict(envs=64, n_steps=32)}
# The update is dense arithmetic over 2048 steps and the only work in the process while it runs, so it
# takes the machine's second core: on the quiet 2-core machine, 1.6x the update's speed and a third
# more whole PPO iterations per second (benchmarks.training_speed, Maka Bana and Mauna Kea).  The
# rollouts' small forward passes stay on one thread.  On a shared machine, see quiet_openmp_waits.
UPDATE_THREADS = 2
SCORER_HIDDEN = 32   # the action scorer's hidden width (--policy scorer), as agents.training.distill's default
EVAL_OPPONENTS = ("random", "heuristic")  # the curve and the final table
EVAL_SEED = 7_000_000                     # the evaluations' games: apart from the training games' seeds
MAX_ENVS = 65_536                         # a Mauna Kea batch of them holds 1.1 GB of state rows alone
MAX_NET = 4096                            # as agents.distill's --hidden: wider exhausts memory in torch
MAX_UPDATE_THREADS = 256                  # torch takes a C int; more than any machine here has cores
MAX_ROLLOUT = 2 ** 18                     # learner steps a rollout (--envs x --n-steps): Mauna Kea's buffer 7.6 GB
MAX_EVAL_GAMES = 100_000                  # games per opponent and evaluation, all on one batch
SEED_MAX = 2 ** 32 - 1                    # stable-baselines3 seeds numpy's legacy generator: 32 bits
CSV_FIELDS = ["timesteps", "seconds", "win_rate_random", "win_rate_heuristic", "snapshots"]


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description="Train a MaskablePPO agent by self-play.",
                                     formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    add = parser.add_argument
    whole = integer_option(None)   # digits 0-9 only ('١٠٠', '1_0', ' 2 ' are refused); ranges below
    add("--game", required=True, choices=sorted(GAMES))
    add("--players", type=whole, default=2, help="number of players (default: %(default)s)")
    add("--variant", default=None, help="the game's variant (default: the game's default)")
    add("--timesteps", type=whole, default=None,
        help="learner steps in all (default: the game's, times 2 / players: each step plays more "
             "opponents' moves with more players)")
    add("--out", default=None, help="output folder (default: runs/<game>-<players>p-s<seed>, with "
                                    "-<variant> after the game for another than the default)")
    add("--seed", type=whole, default=0, help="seed of games, network and evaluations (default: %(default)s)")
    add("--envs", type=whole, default=None,
        help="games played at once (default: 256 batched, 64 for Maka Bana and for Mauna Kea's scorer "
             "policy, 32 for the old path; see VEC_DEFAULTS, GAME_VEC_DEFAULTS)")
    add("--resume", action="store_true", help="continue from the latest checkpoint in --out")
    add("--vec-env", choices=["batched", "dummy", "subproc"], default="batched",
        help="batched: all games in one state array, the opponents played in batch "
             "(agents.training.batched); dummy, subproc: one SelfPlayEnv per game, in this process or a "
             "process each, the old path (benchmarks.training_speed compares them) (default: %(default)s)")
    add("--imitate", type=whole, default=None, help="heuristic decisions to imitate first, 0 for none "
                                                  "(default: the game's)")
    add("--teacher", default=None, help="the agent imitated (an agents.registry name or a policy file) "
                                       "(default: the game's: heuristic, for Mauna Kea lookahead)")
    add("--imitate-epochs", type=whole, default=8, help="passes over the imitation data (default: %(default)s)")
    add("--imitate-lr", type=float, default=1e-3, help="learning rate of imitation (default: %(default)s)")
    add("--n-steps", type=whole, default=None,
        help="steps per game per update (default: 8 batched, 32 for Maka Bana and for Mauna Kea's "
             "scorer policy, 64 for the old path: 2048 in all)")
    add("--batch-size", type=whole, default=None,
        help="minibatch size (default: the game's: 256 for Maka Bana, 1024 for the others)")
    add("--epochs", type=whole, default=4, help="passes over each rollout (default: %(default)s)")
    add("--update-threads", type=whole, default=UPDATE_THREADS,
        help="torch threads for PPO's update and the imitation; the rollouts keep one (default: %(default)s)")
    add("--lr", type=float, default=None, help="Adam learning rate (default: the game's)")
    add("--lr-end", type=float, default=None,
        help="learning rate reached linearly at --timesteps (default: the game's: 1e-5 for Maka Bana, --lr "
             "throughout for the others)")
    add("--ent-coef", type=float, default=0.0, help="entropy bonus (default: %(default)s)")
    add("--gamma", type=float, default=None, help="discount (default: the game's)")
    add("--shaping", type=float, default=None,
        help="points-margin shaping coefficient, 0 for win/loss alone (default: the game's)")
    add("--truncation", choices=["draw", "loss", "standings"], default="loss",
        help="the learner's reward for a game cut by max_turns (SelfPlayEnv); draw rewards stalling "
             "when behind (default: %(default)s)")
    add("--net", type=whole, default=None, help="width of the two hidden layers (default: the game's)")
    add("--policy", choices=["mlp", "scorer"], default=None,
        help="mlp: an MLP over the observation; scorer: an action scorer over per-action features "
             "(agents.learned.features.ScorerPolicy, games with agents.learned.scorer features only, "
             "batched) (default: the game's)")
    add("--skip", type=whole, choices=[0, 1], default=None,
        help="1: the action head also reads the observation (agents.learned.features.SkipPolicy); 0: plain MLP "
             "(default: the game's; too large for Mauna Kea's 5203 x 2040)")
    add("--opponents", default=None,
        help="baseline opponents in the pool, comma-separated agent names; a name given twice is drawn "
             "twice as often (default: the game's, random,heuristic or for Maka Bana "
             "random,heuristic,heuristic,heuristic)")
    add("--baseline-share", type=float, default=None,
        help="share of opponents drawn from the baselines, the rest from the latest snapshots "
             "(default: the game's, 0.5 or for Maka Bana 0.75)")
    add("--snapshot-every", type=whole, default=50_000, help="steps between snapshots (default: %(default)s)")
    add("--window", type=whole, default=5, help="latest snapshots opponents come from (default: %(default)s)")
    add("--eval-every", type=whole, default=None, help="steps between evaluations (default: the game's)")
    add("--eval-games", type=whole, default=None, help="games per opponent and evaluation (default: the game's)")
    add("--final-games", type=whole, default=None, help="games per opponent played at the end, on the "
                                                      "batched engine (default: the game's)")
    add("--final-table", action="store_true",
        help="also play the closing games as agents.arena.tournament does, one at a time, for its full table")
    args = parser.parse_args(argv)
    path = "batched" if args.vec_env == "batched" else "per-game"
    for key, value in GAME_DEFAULTS[args.game].items():
        if getattr(args, key) is None:
            setattr(args, key, value if key != "timesteps" else value * 2 // max(args.players, 2))
    for key, value in GAME_VEC_DEFAULTS.get((args.game, path, args.policy), VEC_DEFAULTS[path]).items():
        if getattr(args, key) is None:
            setattr(args, key, value)
    for key in ("timesteps", "envs", "imitate_epochs", "n_steps", "batch_size", "epochs", "update_threads",
                "net", "snapshot_every", "window", "eval_every", "eval_games", "final_games"):
        if getattr(args, key) < 1:
            parser.error(f"--{key.replace('_', '-')} must be a positive integer, got {getattr(args, key)}")
    if args.envs > MAX_ENVS:   # each game's rows and rollout buffers: more would exhaust memory in sb3
        parser.error(f"--envs must be at most {MAX_ENVS}, got {args.envs}")
    rollout = args.envs * args.n_steps
    if rollout > MAX_ROLLOUT:   # sb3 allocates the whole rollout buffer at the start
        parser.error(f"--envs x --n-steps is the rollout's learner steps, at most {MAX_ROLLOUT:,}; got "
                     f"{args.envs} x {args.n_steps} = {rollout:,}")
    for key in ("eval_games", "final_games"):
        if getattr(args, key) > MAX_EVAL_GAMES:
            parser.error(f"--{key.replace('_', '-')} must be at most {MAX_EVAL_GAMES:,}, got {getattr(args, key)}")
    check_ranges(parser, args, (
        ("lr", "in (0, 1)", lambda v: 0 < v < 1), ("lr_end", "in [0, 1)", lambda v: 0 <= v < 1),
        ("imitate_lr", "in (0, 1)", lambda v: 0 < v < 1), ("gamma", "in [0, 1]", lambda v: 0 <= v <= 1),
        ("ent_coef", "a non-negative number", lambda v: 0 <= v < math.inf),
        ("shaping", "a non-negative number", lambda v: 0 <= v < math.inf),
        ("baseline_share", "in [0, 1]", lambda v: 0 <= v <= 1),
        ("net", f"at most {MAX_NET}", lambda v: v <= MAX_NET),
        ("update_threads", f"at most {MAX_UPDATE_THREADS}", lambda v: v <= MAX_UPDATE_THREADS)))
    if args.policy == "scorer" and (args.game not in BATCHED_FEATURE_GAMES or args.vec_env != "batched"):
        parser.error(f"--policy scorer: action features of a batch exist for {', '.join(BATCHED_FEATURE_GAMES)} only, and "
                     f"are computed on the batched engine (--vec-env batched)")
    if not 0 <= args.seed <= SEED_MAX:   # stable-baselines3 seeds numpy with it, which takes 32 bits
        parser.error(f"--seed must be an integer from 0 to {SEED_MAX}, got {args.seed}")
    if args.imitate < 0:
        parser.error(f"--imitate must be a non-negative integer, got {args.imitate}")
    if args.batch_size < 2:   # advantages are normalised over a minibatch: one sample gives NaN
        parser.error(f"--batch-size must be at least 2, got {args.batch_size}")
    if not args.resume and args.timesteps % rollout:   # sb3 learns whole rollouts
        print(f"note: PPO collects whole rollouts of --envs x --n-steps = {rollout:,} learner steps, so "
              f"--timesteps {args.timesteps:,} trains {-(-args.timesteps // rollout) * rollout:,}", file=sys.stderr)
    if rollout % args.batch_size == 1:   # the rollout's last minibatch would be that one sample
        parser.error(f"--envs x --n-steps ({args.envs} x {args.n_steps} = {rollout:,} learner steps a rollout) "
                     f"leaves a last minibatch of one step after minibatches of --batch-size {args.batch_size}, "
                     f"and one step normalises to NaN; change one of them")
    low, high = GAMES[args.game].raw_env.players
    if not low <= args.players <= high:
        parser.error(f"--players must be from {low} to {high} for {args.game}, got {args.players}")
    try:
        game = game_info(args.game, args.players, args.variant)
    except ValueError as error:
        parser.error(f"--variant: {error}")
    args.variant = game.variant
    try:   # with --imitate 0 too: config.json records it
        make_agent(args.teacher, game)   # here, not after the model is built
    except (ValueError, ImportError, OSError) as error:
        parser.error(f"--teacher: {error}")
    baselines = parsed_names(parser, "--opponents", args.opponents)
    if not baselines:
        parser.error("--opponents: name at least one agent, e.g. random,heuristic")
    for name in baselines:   # each is drawn at some game's start: a wrong one would stop training there
        try:
            make_agent(name, game)
        except (ValueError, ImportError, OSError) as error:
            parser.error(f"--opponents: {error}")
    try:
        default = f"runs/{run_label(args.game, args.variant)}-{args.players}p-s{args.seed}"
        args.out = output_folder("--out", default if args.out is None else args.out, create=False)
    except ValueError as error:
        parser.error(str(error))
    return args


# ---------------------------------------------------------------------------------------------------
# 1. Warm start: imitate the heuristic
class Recorder(Agent):
    """Plays like ``agent`` and writes down every decision: observation, mask, action, and with
    ``states`` the state row too (what an action scorer's features are computed from)."""

    def __init__(self, agent, log, states=False):
        self.agent, self.log, self.name = agent, log, agent.name
        self.states = states
        self.needs_state = agent.needs_state or states

    def reset(self, game, player, seed=None):
        self.agent.reset(game, player, seed)
        self.player = player
        self.first = len(self.log)  # where this game's decisions start

    def act(self, observation, action_mask, state=None):
        action = self.agent.act(observation, action_mask, state if self.agent.needs_state else None)
        self.log.append((observation.copy(), action_mask.copy(), action) +
                        ((state, self.player) if self.states else ()))
        return action


class Decisions:
    """The teacher's decisions as the learner reads them; ``batch(rows)`` gives observations,
    masks, actions and value targets as arrays.  With ``features`` (an action-scorer learner), each
    decision's candidates and their feature rows are kept sparse and made into
    ``agents.training.batched.ScorerFeaturesEnv``'s observations per batch: dense, Mauna Kea's would
    take 150 KB a decision."""

    def __init__(self, observations, masks, actions, returns, features=None, num_actions=None):
        # with features, masks is None: each decision's candidates are its feature rows' actions
        self.observations, self.masks, self.actions, self.returns = observations, masks, actions, returns
        self.features = features   # None, or per decision (candidates, their feature rows)
        self.num_actions = num_actions

    def __len__(self):
        return len(self.actions)

    def batch(self, rows):
        if self.features is None:
            return self.observations[rows], self.masks[rows], self.actions[rows], self.returns[rows]
        actions_count, width = self.num_actions, self.features[0][1].shape[1]
        observations = np.zeros((len(rows), actions_count * width + self.observations.shape[1]), np.float32)
        masks = np.zeros((len(rows), actions_count), bool)
        for j, r in enumerate(rows):
            candidates, values = self.features[r]
            observations[j, :actions_count * width].reshape(actions_count, width)[candidates] = values
            masks[j, candidates] = True
        observations[:, actions_count * width:] = self.observations[rows]
        return observations, masks, self.actions[rows], self.returns[rows]


def teacher_decisions(game, teacher, decisions, gamma, seed, features=False):
    """``decisions`` decisions of the ``teacher`` agent (a name or path for ``make_agent``), from games
    against heuristic agents and against random ones (the learner meets both), as ``Decisions``:
    observations, masks, actions and value targets (the player's win/loss, discounted by its decisions
    still to come).  With ``features``, as an action scorer reads them: the candidates
    (``search_mask``) and their features; the few decisions whose action is not a candidate are left
    out."""
    n = game.num_players
    log, returns = [], []
    g = 0
    while len(log) < decisions:
        recorder = Recorder(make_agent(teacher, game), log, states=features)
        others = [make_agent("heuristic" if g % 2 else "random", game) for _ in range(n - 1)]
        seat = g % n
        result = play_game(game, [recorder] + others, seed=(seed, 11, g),
                           seats=[seat] + [p for p in range(n) if p != seat])
        k = len(log) - recorder.first
        returns += list(result.rewards[0] * gamma ** np.arange(k - 1, -1, -1))
        g += 1
    returns = np.array(returns, dtype=np.float32)
    if not features:
        obs, masks, actions = (np.array(column) for column in zip(*log))
        return Decisions(obs, masks.astype(bool), actions, returns)
    from ..learned.scorer import ActionFeatures

    action_features, kept, rows = ActionFeatures(game), [], []
    for i, (_, _, action, state, player) in enumerate(log):
        state = np.ascontiguousarray(state, dtype=np.int64)
        candidates = action_features.candidates(state)
        if action in candidates:
            rows.append((candidates, action_features.rows(state, player, candidates).astype(np.float32)))
            kept.append(i)
    obs = np.array([log[i][0] for i in kept])
    return Decisions(obs, None, np.array([log[i][2] for i in kept]), returns[kept], rows, game.num_actions)


def imitate(model, data, epochs, batch_size, lr, seed):
    """Supervised passes over ``data`` (``Decisions``): the teacher's action as the policy's target
    (cross-entropy under the mask), the outcome as the value's.  Returns the policy's final agreement
    with the teacher."""
    import torch

    policy = model.policy
    rng = np.random.default_rng(seed)
    for group in policy.optimizer.param_groups:
        group["lr"] = lr  # PPO sets its own rate again at every update
    policy.set_training_mode(True)
    for _ in range(epochs):
        order = rng.permutation(len(data))
        for start in range(0, len(order), batch_size):
            obs, masks, actions, returns = data.batch(order[start:start + batch_size])
            values, log_prob, _ = policy.evaluate_actions(torch.as_tensor(obs), torch.as_tensor(actions),
                                                          action_masks=masks)
            loss = -log_prob.mean() + 0.5 * torch.nn.functional.mse_loss(values.flatten(), torch.as_tensor(returns))
            policy.optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(policy.parameters(), 0.5)
            policy.optimizer.step()
    policy.set_training_mode(False)
    agree = 0
    with torch.no_grad():
        sample = np.arange(min(len(data), 20_000))
        for start in range(0, sample.size, batch_size):
            obs, masks, actions, _ = data.batch(sample[start:start + batch_size])
            greedy = policy.get_distribution(torch.as_tensor(obs), action_masks=masks).mode()
            agree += int((greedy == torch.as_tensor(actions)).sum())
    return agree / max(sample.size, 1)


# ---------------------------------------------------------------------------------------------------
# 3. Evaluation: the greedy learner against one kind of opponent in every other seat
def evaluate(model, game, opponent, games, seed):
    """Win rate (ties for first split) of ``model``'s greedy policy with ``opponent`` ("random" or
    "heuristic") in every other seat, over ``games`` games with the learner's seat rotated, all played at
    once on the batched engine (``agents.training.batched.evaluate``).  The same seeds every time, so
    that the curve's changes come from the learner, not from the deals."""
    from .batched import evaluate as evaluate_batched, model_network

    network = model_network(model, game)
    return evaluate_batched(network, game, opponent, games, EVAL_SEED + 1000 * seed)


# ---------------------------------------------------------------------------------------------------
# Files: checkpoints, the curve
def latest_checkpoint(out, before=None):
    """``(path, timesteps)`` of the newest checkpoint in ``out/checkpoints`` (of fewer than ``before``
    steps, if given), or ``(None, 0)``."""
    found = [(int(m.group(1)), p) for p in (out / "checkpoints").glob("model_*.zip")
             if (m := re.fullmatch(r"model_(\d+)\.zip", p.name)) and (before is None or int(m.group(1)) < before)]
    return max(found)[::-1] if found else (None, 0)


def snapshot_steps(path):
    """The steps of a snapshot named ``snapshot_<steps>.npz``, or None for any other name."""
    match = re.fullmatch(r"snapshot_(\d+)\.npz", Path(path).name)
    return int(match.group(1)) if match else None


def read_csv(path):
    """The rows of ``progress.csv``, or SystemExit naming the first damaged one.  A damaged last row
    is dropped with a warning instead: the file is rewritten after every evaluation, and a run
    interrupted meanwhile leaves part of its last line."""
    if not path.is_file():
        return []
    with open(path, newline="") as f:
        reader = csv.DictReader(f)
        rows = [(reader.line_num, row) for row in reader]
    for index, (line, row) in enumerate(rows):
        try:   # what the curve and a resumed run read of it
            int(row["timesteps"]), float(row["seconds"])
            float(row["win_rate_random"]), float(row["win_rate_heuristic"])
        except (KeyError, TypeError, ValueError):   # TypeError: a short row's missing fields are None
            problem = f"{path}, line {line}, is not a row of {','.join(CSV_FIELDS)}: {row}"
            if index < len(rows) - 1:
                sys.exit(f"--resume: {problem}; repair or delete the file")
            print(f"warning: {problem}; dropped, as an interrupted write leaves it", file=sys.stderr)
            rows.pop()
    return [row for _, row in rows]


def write_csv(path, rows):
    with open(path, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=CSV_FIELDS)
        writer.writeheader()
        writer.writerows(rows)


def save_policy(model, path):
    """Save ``model`` without its optimizer's state: a third of the size, for playing, not resuming."""
    optimizer = model.policy.optimizer
    model.policy.optimizer = type(optimizer)(model.policy.parameters(), **optimizer.defaults)
    try:
        model.save(path)
    finally:
        model.policy.optimizer = optimizer


def plot_curve(rows, path, title, players):
    """Win rate against random and heuristic opponents over training steps, from the CSV rows."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    steps = [int(r["timesteps"]) for r in rows]
    fig, ax = plt.subplots(figsize=(7, 4))
    for opponent, colour in (("random", "tab:blue"), ("heuristic", "tab:orange")):
        ax.plot(steps, [float(r[f"win_rate_{opponent}"]) for r in rows], "o-", color=colour,
                label=f"vs {opponent}")
    ax.axhline(1 / players, color="gray", linestyle="--", linewidth=0.8, label="1 / players")
    ax.set_ylim(0, 1)
    ax.set_xlabel("learner steps (0: after imitation)")
    ax.set_ylabel("win rate (ties split)")
    ax.set_title(title)
    ax.grid(alpha=0.3)
    ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def quiet_openmp_waits():
    """Let torch's OpenMP threads sleep, not spin, between parallel regions; call before torch is
    imported (OpenMP reads the setting once).  The update runs on two threads (``UPDATE_THREADS``);
    spinning, they took a core a shared machine needed, and on the 2-core machine with one core busy
    the update ran at 1,490 learner steps/s on two threads against 2,481 on one; sleeping, at 2,257,
    and at 3,680 on the quiet machine against 2,407 on one (``benchmarks.training_speed``, Maka Bana).
    A user's own setting wins."""
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")


@contextlib.contextmanager
def torch_threads(torch, threads):
    """Run the block (an update, the imitation) on ``threads`` torch threads, then go back to one."""
    torch.set_num_threads(threads)
    try:
        yield
    finally:
        torch.set_num_threads(1)


def _single_threaded(torch):
    # One thread: the networks are small, and a second thread only fights the games for the cores.
    torch.set_num_threads(1)
    try:  # numpy's BLAS too: the snapshots' matrix-vector products ran 30x slower threaded on 2 busy cores
        from threadpoolctl import threadpool_limits
        threadpool_limits(1)
    except ImportError:
        print("threadpoolctl is missing (pip install -e \".[train]\"): numpy's BLAS threads may slow "
              "the snapshot opponents down", file=sys.stderr)


def _start_point(args, out, config_path, csv_path):
    """Where to start: afresh, or the latest checkpoint with its pool and curve.  Returns the checkpoint
    (None: afresh), its steps, the pool's snapshots and the curve's rows up to it, and the seconds the
    run had taken by then."""
    checkpoint, start_steps = latest_checkpoint(out) if args.resume else (None, 0)
    config = {k: str(v) if isinstance(v, Path) else v for k, v in vars(args).items() if k != "resume"}
    if args.resume:
        if checkpoint is None:
            sys.exit(f"--resume: no checkpoint in {out / 'checkpoints'}")
        saved = _saved_config(config_path)
        # runs from before --variant existed were of the default variant
        saved.setdefault("variant", default_variant(args.game))
        if (saved["game"], saved["players"], saved["variant"]) != (args.game, args.players, args.variant):
            sys.exit(f"--resume: {out} holds a {saved['game']} run ({saved['variant']}) with "
                     f"{saved['players']} players")
        # the checkpoint keeps the network and the hyperparameters it was trained with: another value
        # would be written into config.json and never used
        given = vars(args)
        changed = [k for k in CHECKPOINT_KEEPS if k in saved and given[k] != saved[k]]
        if changed:
            sys.exit("--resume: the run was trained with " + ", ".join(
                f"--{k.replace('_', '-')} {saved[k]}" for k in changed) + " (not " + ", ".join(
                f"{given[k]}" for k in changed) + "); give the same, or start another run with another --out")
        if not {"data", "policy.pth"} <= set(zip_members(checkpoint) or ()):
            earlier = latest_checkpoint(out, before=start_steps)[0]   # checkpoint() keeps two
            sys.exit(f"--resume: {checkpoint} is not a MaskablePPO checkpoint (a zip with 'data' and 'policy.pth')"
                     + (f"; remove it to resume from {earlier.name}, the one before" if earlier else ""))
        print(f"resuming from {checkpoint} at {start_steps:,} steps")
        # config.json tells what the run did: the warm start was the first start's, and an option
        # given otherwise now (--timesteps, --opponents, …) is kept with the value it had before
        config.update({k: saved[k] for k in FRESH_START_ONLY if k in saved})
        before = {k: saved[k] for k in config if k in saved and saved[k] != config[k]}
        config["resumes"] = saved.get("resumes", []) + [{"timesteps": start_steps, "before": before}]
        # a lowered --timesteps trains nothing, and config.json would say it; the run's own --timesteps
        # is fine even where its last checkpoint went past it (steps come whole rollouts at a time)
        if args.timesteps < start_steps and args.timesteps != saved.get("timesteps"):
            sys.exit(f"--resume: the run is at {start_steps:,} steps, past --timesteps {args.timesteps:,}; "
                     f"give at least {start_steps:,}")
    elif latest_checkpoint(out)[0] is not None:
        sys.exit(f"{out} already holds a run: pass --resume to continue it, or choose another --out")
    elif config_path.exists():   # a run that ended before its first checkpoint: its final policy is there
        sys.exit(f"{out} already holds a run (its config.json), which has no checkpoint to resume: remove it, "
                 f"or choose another --out")
    for snapshot in (out / "pool").glob("snapshot_*.npz"):   # a file cut short: a traceback at its first game
        steps = snapshot_steps(snapshot)
        if steps is not None and steps <= start_steps and not {"w0.npy", "b0.npy"} <= set(zip_members(snapshot) or ()):
            sys.exit(f"--resume: {snapshot}, an opponent of the pool, is damaged (not a network's .npz); put back "
                     f"a whole copy, or remove it and the run goes on without that opponent")
    made_folder("--out", out)
    config_path.write_text(json.dumps(config, indent=1))
    # whatever was written after the checkpoint is dropped: the run goes on as it was then.  A file
    # of another name (a copy a user made) was never a snapshot of the run: left where it is, unused
    steps = {p: snapshot_steps(p) for p in (out / "pool").glob("snapshot_*.npz")}
    for stray in sorted(p for p, n in steps.items() if n is None):
        print(f"note: {stray} is not named snapshot_<steps>.npz; left out of the pool", file=sys.stderr)
    snapshots = sorted((p for p, n in steps.items() if n is not None and n <= start_steps), key=steps.get)
    rows = [r for r in read_csv(csv_path) if int(r["timesteps"]) <= start_steps] if checkpoint else []
    write_csv(csv_path, rows)
    seconds_before = float(rows[-1]["seconds"]) if rows else 0.0
    return checkpoint, start_steps, snapshots, rows, seconds_before


# The options a MaskablePPO checkpoint keeps (``MaskablePPO.load`` restores them): a resumed run goes on
# with them whatever is given, so another value is refused rather than written into config.json unused.
CHECKPOINT_KEEPS = ("net", "policy", "skip", "lr", "lr_end", "gamma", "n_steps", "batch_size", "epochs",
                    "ent_coef")
# The warm start's options: only a fresh start imitates, so a resumed run keeps the first start's in
# config.json whatever is given now.
FRESH_START_ONLY = ("imitate", "teacher", "imitate_epochs", "imitate_lr")


def _saved_config(path):
    """The ``config.json`` of the run being resumed, or SystemExit saying why it is not one."""
    try:
        saved = json.loads(path.read_text())
    except (OSError, ValueError) as error:
        sys.exit(f"--resume: {path} cannot be read as the config of an agents.train run ({error})")
    missing = {"game", "players"} - set(saved) if isinstance(saved, dict) else {"game", "players"}
    if missing:
        sys.exit(f"--resume: {path} is not the config of an agents.train run (it has no {sorted(missing)})")
    return saved


def _training_envs(game, args, baselines, pool, start_steps):
    """``args.envs`` self-play games: one ``BatchedSelfPlayEnv`` (``--vec-env batched``), or one
    ``SelfPlayEnv`` each, drawing its opponents from its own copy of the pool.  Game ``i`` is seeded
    alike either way."""
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecMonitor

    if args.vec_env == "batched":
        from .batched import BatchedSelfPlayEnv, learner_env
        return VecMonitor(learner_env(BatchedSelfPlayEnv(
            game, args.envs, shaping=args.shaping, truncation=args.truncation,
            opponents=OpponentPool(baselines, list(pool.snapshots), args.baseline_share, args.window),
            seed=args.seed * 1000 + start_steps), "features" if args.policy == "scorer" else "observation"))

    def make_env(rank):
        return lambda: SelfPlayEnv(game.name, args.players, variant=args.variant, shaping=args.shaping,
                                   truncation=args.truncation,
                                   opponents=OpponentPool(baselines, list(pool.snapshots),
                                                          args.baseline_share, args.window),
                                   seed=args.seed * 1000 + rank + start_steps)

    vec_cls = DummyVecEnv if args.vec_env == "dummy" else SubprocVecEnv
    return VecMonitor(vec_cls([make_env(i) for i in range(args.envs)]))


def _learner(args, envs, out, checkpoint):
    """The MaskablePPO model: the checkpoint's, or a fresh one with the run's hyperparameters."""
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.utils import LinearSchedule

    from ..learned.features import LogFeatures, MlpPolicy, OneCopyRolloutBuffer, ScorerInputs, ScorerPolicy, SkipPolicy

    if checkpoint is not None:
        return MaskablePPO.load(checkpoint, env=envs, device="cpu", tensorboard_log=str(out / "tb"))
    if args.policy == "scorer":
        game = game_info(args.game, args.players, args.variant)
        inputs = dict(num_actions=game.num_actions, num_features=envs.venv.num_features, game=game.name,
                      variant=game.variant, hidden=SCORER_HIDDEN)
        policy, policy_kwargs = ScorerPolicy, dict(net_arch=dict(pi=[], vf=[args.net, args.net]),
                                                   activation_fn=torch.nn.ReLU, features_extractor_class=ScorerInputs,
                                                   features_extractor_kwargs=inputs)
    else:
        policy = SkipPolicy if args.skip else MlpPolicy
        policy_kwargs = dict(net_arch=dict(pi=[args.net, args.net], vf=[args.net, args.net]),
                             activation_fn=torch.nn.ReLU, features_extractor_class=LogFeatures)
    return MaskablePPO(
        policy, envs, n_steps=args.n_steps, batch_size=args.batch_size,
        learning_rate=args.lr if args.lr_end is None else LinearSchedule(args.lr, args.lr_end, 1.0),
        n_epochs=args.epochs, gamma=args.gamma, gae_lambda=0.95, clip_range=0.2,
        ent_coef=args.ent_coef, vf_coef=0.5, max_grad_norm=0.5,
        policy_kwargs=policy_kwargs, rollout_buffer_class=OneCopyRolloutBuffer, tensorboard_log=str(out / "tb"),
        seed=args.seed, device="cpu", verbose=0)


def _warm_start(model, game, args, out, started):
    """Imitate the heuristic; the logger of the imitation, for the evaluation that follows it."""
    from stable_baselines3.common.logger import configure

    print(f"imitating {args.imitate:,} decisions of {args.teacher} ...", flush=True)
    data = teacher_decisions(game, args.teacher, args.imitate, args.gamma, args.seed,
                             features=args.policy == "scorer")
    agreement = imitate(model, data, args.imitate_epochs, 256, args.imitate_lr, args.seed)
    print(f"  the greedy policy agrees with the teacher on {agreement:.1%} of its decisions "
          f"({time.perf_counter() - started:.0f} s)")
    logger = configure(str(out / "tb" / "imitation"), ["tensorboard"])
    logger.record("imitation/agreement", agreement)
    return logger


def _final_report(model, args, out, rows, csv_path):
    """The result: final policy, tournament table, learning curve."""
    final = out / "final.zip"
    save_policy(model, final)
    save_snapshot(model, out / "final.npz")  # the same policy for numpy alone, as agents/shipped/ holds it
    print(f"wrote {final} and {out / 'final.npz'}")
    from .batched import evaluate as evaluate_batched, load_network

    n, game = args.players, game_info(args.game, args.players, args.variant)
    network = load_network(out / "final.npz", game)
    for opponent in EVAL_OPPONENTS:
        started = time.perf_counter()
        rate = evaluate_batched(network, game, opponent, args.final_games, args.seed + 1)
        low, high = wilson_interval(rate * args.final_games, args.final_games)
        print(f"\n{args.game}, {n} players: the final policy against {opponent} ({args.final_games} games, "
              f"seats rotated, greedy): wins {rate:.1%} [{low:.1%}, {high:.1%}] (95% interval, ties split; "
              f"{time.perf_counter() - started:.1f} s)")
        if args.final_table:
            from ..arena.tournament import run_tournament, table_text
            report = run_tournament(args.game, n, [str(final)] + [opponent] * (n - 1),
                                    games=args.final_games, seed=args.seed + 1, workers=1,
                                    variant=args.variant)
            print(table_text(report))
    if rows:
        plot_curve(rows, out / "curve.png", f"{args.game} ({args.variant}), {n} players, seed {args.seed}", n)
        print(f"\nwrote {out / 'curve.png'} and {csv_path}")


# The evaluation and the callback stay inside: they are closures over the run's model, pool and curve.
@ctrl_c_exits("The run's checkpoints, snapshots and curve are kept in --out; the same command with "
              "--resume goes on from the latest checkpoint.")
def main(argv=None):
    args = parse_args(argv)
    quiet_openmp_waits()
    try:
        import torch
        from sb3_contrib import MaskablePPO  # noqa: F401 (the extra's check; _learner uses it)
        from stable_baselines3.common.callbacks import BaseCallback
    except ImportError as error:
        sys.exit(f"training needs the train extra ({error.name} is missing): pip install -e \".[train]\"")
    _single_threaded(torch)
    started = time.perf_counter()
    game = game_info(args.game, args.players, args.variant)
    out = args.out
    csv_path, config_path = out / "progress.csv", out / "config.json"
    checkpoint, start_steps, snapshots, rows, seconds_before = _start_point(args, out, config_path, csv_path)
    for sub in ("checkpoints", "pool"):   # after the checks: a folder that is no run is left as it was
        (out / sub).mkdir(parents=True, exist_ok=True)

    # ---- the training games: each env draws its opponents from its own copy of the pool ----------
    baselines = name_list("--opponents", args.opponents)
    pool = OpponentPool(baselines, [str(p) for p in snapshots], args.baseline_share, args.window)
    envs = _training_envs(game, args, baselines, pool, start_steps)

    model = _learner(args, envs, out, checkpoint)

    evaluation_seconds = [0.0]

    def evaluate_and_log(steps, logger):
        # greedy, as the saved policy plays (agents.learned.policy), but through numpy: faster
        began = time.perf_counter()
        rates = {o: evaluate(model, game, o, args.eval_games, args.seed) for o in EVAL_OPPONENTS}
        evaluation_seconds[0] += time.perf_counter() - began
        for opponent, rate in rates.items():
            logger.record(f"eval/win_rate_{opponent}", rate)
        logger.dump(steps)
        best = max(((float(r["win_rate_heuristic"]), float(r["win_rate_random"])) for r in rows), default=None)
        rows.append({"timesteps": steps, "seconds": round(seconds_before + time.perf_counter() - started, 1),
                     "win_rate_random": round(rates["random"], 4),
                     "win_rate_heuristic": round(rates["heuristic"], 4), "snapshots": len(pool.snapshots)})
        write_csv(csv_path, rows)
        if best is None or (rates["heuristic"], rates["random"]) > best:
            save_policy(model, out / "best.zip")  # the best evaluation so far against the heuristic

    # ---- 1. warm start: imitate the heuristic (fresh runs only) --------------------------------------
    if checkpoint is None and args.imitate:
        with torch_threads(torch, args.update_threads):
            logger = _warm_start(model, game, args, out, started)
        evaluate_and_log(0, logger)

    # ---- 2./3. self-play, with snapshots, evaluations and checkpoints every so many steps ------------
    class SelfPlayCallback(BaseCallback):
        def _on_rollout_start(self):
            torch.set_num_threads(1)

        def _on_rollout_end(self):
            torch.set_num_threads(args.update_threads)  # the update follows

        def _on_training_end(self):
            torch.set_num_threads(1)  # the closing games

        def _on_training_start(self):
            self.next_snapshot = (start_steps // args.snapshot_every + 1) * args.snapshot_every
            self.next_eval = (start_steps // args.eval_every + 1) * args.eval_every

        def _on_step(self):
            steps = self.num_timesteps
            if steps >= self.next_snapshot:
                self.next_snapshot += args.snapshot_every
                path = save_snapshot(self.model, out / "pool" / f"snapshot_{steps:09d}.npz")
                self.training_env.env_method("add_opponent", str(path))
                pool.add(str(path))  # this process's list: the CSV, and the envs of a resumed run
                self.checkpoint(steps)
            if steps >= self.next_eval:
                self.next_eval += args.eval_every
                evaluate_and_log(steps, self.logger)
                self.checkpoint(steps)
            return True

        def checkpoint(self, steps):
            self.model.save(out / "checkpoints" / f"model_{steps:09d}.zip")
            for old in sorted((out / "checkpoints").glob("model_*.zip"))[:-2]:  # keep the last two
                old.unlink()

    # sb3 counts total_timesteps from where a loaded model stands: ask for what is left of --timesteps
    model.learn(total_timesteps=max(0, args.timesteps - model.num_timesteps), callback=SelfPlayCallback(),
                progress_bar=True, reset_num_timesteps=checkpoint is None, tb_log_name="ppo")
    envs.close()
    # CPU time too: on a shared machine it is what the run would take on cores of its own
    seconds = time.perf_counter() - started
    print(f"\ntrained to {model.num_timesteps:,} steps in {seconds:.0f} s "
          f"({time.process_time():.0f} s of CPU) in this session, of which the evaluations "
          f"{evaluation_seconds[0]:.0f} s ({evaluation_seconds[0] / max(seconds, 1e-9):.1%})")

    # ---- 4. the result: final policy, tournament table, learning curve ------------------------------
    _final_report(model, args, out, rows, csv_path)


if __name__ == "__main__":
    main()
