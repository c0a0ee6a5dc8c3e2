r"""Expert iteration: the search, guided by the network, teaches the network.

    python -m agents.expert_iteration --game makemake [--players 2] [--variant V] [--rounds R] \
        [--games N] [--labelled-games N] [--simulations 1000] [--temperature T] [--keep K] [--guide G] \
        [--features turn] \
        [--value-width 64] [--value-mix 0] [--gate-games 40] [--measure-games 20] [--workers 2] \
        [--out DIR] [--seed 0] [--resume]

Defaults in ``DEFAULTS``, overridden per game by ``GAME_DEFAULTS`` and per variant by ``VARIANT_DEFAULTS``.

The network starts as the guide of ``mcts+shipped`` (``agents.registry.shipped_guide_path``: the shipped
policy, or a guide shipped beside it; ``--init`` names another ``.npz``): a policy network over
the player's observation (Maka Bana, Make Make) or an action scorer over its candidate actions'
features (Mauna Kea).  ``--features turn`` widens a scorer that reads the 16 one-step features to
the 24 of ``agents.search.maunakea.FEATURE_SETS`` (the rest of the turn played out for the best
candidates), the new inputs' weights zero, so that it plays as before until the first fit.  Each
round, top to bottom:

1. Self-play: ``--games`` games in which every seat is the search guided by the current network, or in
   every round by the network ``--guide`` names (``mcts:<--simulations>+<network>``,
   ``agents.search.mcts.GuidedMCTSAgent``: the network's probabilities rank and bias the root's actions,
   and a policy network chooses every expansion below the root).  At every decision it searched, the
   player's observation and mask (or its candidates' features), the root's visit counts and the player's
   result in the game are kept (``DIR/round-<r>.npz``).  Then ``--labelled-games`` (DAgger): the network
   plays the heuristic, seats rotated, and the search, run at each of the network's decisions, labels
   it; those decisions are kept too.  The search determinizes what the player cannot know, as it always
   does, and the network reads only what the player sees.
2. Fit: a copy of the current network learns the search's choices (cross-entropy, Adam) at the
   decisions of the last ``--window`` rounds: the visit shares sharpened by ``--temperature``
   (``visits ** (1 / T)``; 0 is the most visited action alone, 1 the shares as
   AlphaZero fits them).  A policy network is fitted ``--epochs`` passes in minibatches at ``--lr``
   to those targets mixed with the share ``--keep`` of the starting network's policy
   (``DIR/init.npz``: what PPO taught it stays an anchor however many rounds pass), an action
   scorer as ``agents.distill`` fits it (300 full-batch steps at 1e-2).
3. Gate: the fitted network and the current one, both played greedily, each meet the heuristic and
   ``mcts:<--gate-simulations>`` (``--gate-games`` each, seats rotated, the same deals for both).
   The fitted one becomes current only if its mean win share is higher (``DIR/network-<r>.npz``
   either way; ``DIR/current.npz`` is the current one).  Not a match between the two: two greedy
   networks play Make Make's fixed board the same way on every deal, so such a match is one or two
   games played many times.
4. Measure (``--measure-games`` per row, 0 for none): the current network against the heuristic and
   against plain ``mcts:<--measure-simulations>``, and the guided search against plain ``mcts`` at
   equal simulations.  ``DIR/progress.csv``, and ``DIR/curve.png`` with the gate's and the
   measurements' win rates (none while a run has neither).

Each round also fits a value network (``--value-width``, 0 for none) to the outcomes of the games in
the window (+1 a win, -1 a loss, 0 a tie, for the player at each decision; mean squared error of its
``tanh``), kept in the network file beside the policy whatever the gate says (the gate judges the
greedy policy, which the value does not touch).  A guided search whose network has a value mixes
it into its leaves' values (``GuidedMCTSAgent``'s ``value_mix``, half by default): so do the measurement
rows and any later ``mcts+<network>``.  The self-play's own search keeps its playouts unless
``--value-mix`` says otherwise (the default runs were measured that way).

``--resume`` goes on from the last finished round of ``DIR`` (``DIR/state.json``); ``--rounds`` then counts
the rounds to add.
"""
import argparse
import csv
import importlib.util
import json
import shutil
import time
import zipfile
from pathlib import Path

import numpy as np

from pacific_common.cli import check_ranges, integer_option, made_folder, no_other_run, output_folder
from pacific_common.options import is_integer

from ..arena.match import play_game
from ..base import Agent
from ..games import GAMES, default_variant, game_info, game_info_or_error, run_label
from ..learned.network import read_network, read_value, write_network
from ..learned.policy import TRAIN_EXTRA
from ..learned.scorer import ActionFeatures, ScorerAgent, feature_set_size, is_scorer_file, save_scorer
from ..registry import make_agent, shipped_guide_path
from ..search.mcts import MAX_SIMULATIONS
from ..workers import MAX_WORKERS, ctrl_c_exits, pool_map, sigterm_as_exit
from .distill import fit as fit_scorer

SCORER_STEPS, SCORER_LR = 300, 1e-2   # an action scorer is fitted as agents.distill fits it: full batch
VALUE_EPOCHS, VALUE_LR = 10, 1e-3     # the value network's fit (mean squared error, Adam, minibatches of 256)
# Defaults per game (docs/training.md, "Expert iteration", has the measurements behind them).  Make
# Make's network starts near the search's strength, and a fit to the search's most visited action,
# half the target the network's own policy, was the least harmful of those measured; with the tree
# guided, six rounds (30 minutes on 2 cores) took its network from 39% to 58.5% against the search.  Maka
# Bana's network loses every game to the search: it learns the visit shares themselves, over more
# games and epochs, and keeps a tenth of the starting policy (what PPO taught it against the heuristic;
# kept from the current network instead, the tenth thinned round after round, and the third round's
# network lost to the heuristic).  Mauna Kea's rounds are of 24 games: on 2 cores, with the scorer in
# the tree, their self-play takes about 6 minutes and the gate and measurements against the search 9
# to 14 more, so its default run is of three rounds (52 minutes, timed; a fourth would take it to
# about 70, and none of its fits has passed the gate yet; the advanced game's three took 58, timed).
# Its scorer learns the visit shares, as agents.distill fits it.
MAX_WIDTH = 4096     # as agents.train's --net and agents.distill's --hidden: wider exhausts memory in torch
# what the other jobs leave in their folders: a run of theirs is no place for this one's
OTHER_JOBS_FILES = {"config.json": "agents.train's", "args.json": "agents.train_rllib's",
                    "checkpoints": "agents.train's or agents.train_rllib's",
                    "decisions.npz": "agents.distill's", "scorer.npz": "agents.distill's"}
DEFAULTS = dict(rounds=4, games=96, labelled_games=0, epochs=3, lr=1e-4, temperature=0.0, keep=0.5)
GAME_DEFAULTS = {"makabana": dict(rounds=3, games=384, epochs=30, lr=3e-4, temperature=1.0, keep=0.1),
                 "makemake": dict(rounds=6),
                 "maunakea": dict(rounds=3, games=24, temperature=1.0)}
# A variant's own, over its game's.  A two-player Mao game of the search against the guided search
# takes ten times a Haapii game's time: 366 decisions against 88, each 2.5 times as costly (0.14 s at
# 2,000 simulations against 0.055 s).  Haapii's 384 games a round would take hours on the 2 cores;
# two rounds of 32 games, each with its gate and 20-game measurements, about an hour.
VARIANT_DEFAULTS = {("makabana", "mao"): dict(rounds=2, games=32)}


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description="Expert iteration: the guided search teaches the network.",
                                     formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    add = parser.add_argument
    whole = integer_option(None)   # digits 0-9 only ('١', '1_0' are refused); ranges below
    add("--game", required=True, choices=sorted(GAMES))
    add("--players", type=whole, default=2, help="number of players (default: %(default)s)")
    add("--variant", default=None, help="the game's variant (default: the game's default)")
    add("--init", default=None, help="the network to start from, an .npz (default: the guide of mcts+shipped, "
                                     "the shipped policy unless the game ships a guide of its own)")
    add("--guide", default=None, help="the network that guides the self-play's search in every round, an "
                                      ".npz of --init's kind (default: the current network)")
    add("--features", default=None, help="the feature set of an action scorer (agents.search.<game>.FEATURE_SETS: "
                                         "one-step, turn; default: --init's; a resumed run keeps its own)")
    add("--rounds", type=whole, default=None, help="rounds to play (default: the game's, GAME_DEFAULTS)")
    add("--games", type=whole, default=None, help="self-play games per round (default: the game's)")
    add("--labelled-games", type=whole, default=None,
        help="games per round in which the network plays the heuristic and the search labels its "
             "decisions, as DAgger does (default: the game's)")
    add("--simulations", type=whole, default=1000, help="the guided search's simulations per decision "
                                                     "(default: %(default)s)")
    add("--window", type=whole, default=3, help="rounds of decisions each fit learns from (default: %(default)s)")
    add("--epochs", type=whole, default=None, help="passes over the decisions per fit (default: the game's)")
    add("--lr", type=float, default=None, help="Adam's learning rate (default: the game's)")
    add("--temperature", type=float, default=None, help="the fit's targets: visits ** (1 / T), 0 for the most "
                                                        "visited action alone (default: the game's)")
    add("--keep", type=float, default=None, help="share of the starting network's policy mixed into a policy "
                                                 "network's targets (default: the game's)")
    add("--value-width", type=whole, default=64, help="hidden width of the value network fitted to the "
                                                    "games' outcomes, 0 for none (default: %(default)s)")
    add("--value-mix", type=float, default=0.0, help="the value network's share of a leaf's value in the "
                                                       "self-play's search, 0 for none (default: %(default)s)")
    add("--gate-games", type=whole, default=40, help="games of the gate against each of its two opponents "
                                                   "(default: %(default)s)")
    add("--gate-simulations", type=whole, default=300, help="the gate's mcts opponent's simulations "
                                                          "(default: %(default)s)")
    add("--measure-games", type=whole, default=20, help="games per measurement row, 0 for none "
                                                      "(default: %(default)s)")
    add("--measure-simulations", type=whole, default=None, help="plain mcts's simulations when the network "
                                                              "meets it (default: the search's default)")
    add("--out", default=None, help="output folder (default: runs/<game>-exit-<players>p-s<seed>)")
    add("--seed", type=whole, default=0, help="seed of games and fits (default: %(default)s)")
    add("--workers", type=whole, default=2, help="processes playing games (default: %(default)s)")
    add("--resume", action="store_true", help="go on from DIR's last finished round (--rounds then counts the "
                                              "rounds to add)")
    args = parser.parse_args(argv)
    variant = default_variant(args.game) if args.variant is None else args.variant
    for name, value in {**DEFAULTS, **GAME_DEFAULTS.get(args.game, {}),
                        **VARIANT_DEFAULTS.get((args.game, variant), {})}.items():
        if getattr(args, name) is None:
            setattr(args, name, value)
    if args.labelled_games < 0:
        parser.error(f"--labelled-games must be non-negative, got {args.labelled_games}")
    if not 0 <= args.value_mix <= 1:
        parser.error(f"--value-mix is a share of a leaf's value, in [0, 1]; got {args.value_mix}")
    if not 0 <= args.value_width <= MAX_WIDTH:   # wider ran out of memory at the first value fit, hours in
        parser.error(f"--value-width must be from 0 (no value network) to {MAX_WIDTH}, got {args.value_width}")
    if args.workers > MAX_WORKERS:
        parser.error(f"--workers must be at most {MAX_WORKERS}, got {args.workers}")
    for name in ("rounds", "games", "simulations", "window", "epochs", "gate_games", "gate_simulations", "workers"):
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} must be a positive integer, got {getattr(args, name)}")
    if args.measure_games < 0:
        parser.error(f"--measure-games must be non-negative (0 for no measurement), got {args.measure_games}")
    if args.measure_simulations is not None and args.measure_simulations < 1:
        parser.error(f"--measure-simulations must be a positive integer, got {args.measure_simulations}")
    for name in ("simulations", "gate_simulations", "measure_simulations"):
        if (getattr(args, name) or 0) > MAX_SIMULATIONS:
            parser.error(f"--{name.replace('_', '-')} is at most {MAX_SIMULATIONS}, got {getattr(args, name)}")
    check_ranges(parser, args, (("lr", "in (0, 1)", lambda v: 0 < v < 1),
                                ("temperature", "in [0, 100)", lambda v: 0 <= v < 100),
                                ("keep", "in [0, 1)", lambda v: 0 <= v < 1),
                                # a round's games take seeds up to --seed + 1000 + its number
                                ("seed", "an integer from 0 to 2**63 - 2**32", lambda v: 0 <= v <= 2 ** 63 - 2 ** 32)))
    if importlib.util.find_spec("torch") is None:   # fitting needs it: say so before any game
        parser.error(f"fitting the network needs torch: {TRAIN_EXTRA}")
    try:
        game = game_info_or_error(args.game, args.players, args.variant)   # checks players and variant
    except ValueError as error:
        parser.error(str(error))
    args.init_given = args.init is not None
    init = Path(args.init) if args.init else shipped_guide_path(game)   # the network that guides mcts+shipped
    if not init.is_file():
        parser.error(f"--init: no network at {init}" + ("" if args.init else
                                                      f"; {game.name} ({game.variant}) ships none, name one"))
    try:
        make_agent(f"mcts+{init}", game)   # a network the search can be guided by, checked here
    except ValueError as error:
        parser.error(f"--init: {error}")
    args.init = init
    if args.features is not None:
        if not is_scorer_file(init):
            parser.error(f"--features: {init} is a policy network; only action scorers read feature sets")
        try:
            width = feature_set_size(game.name, args.features)
        except ValueError as error:
            parser.error(f"--features: {error}")
        if width < ScorerAgent.load(init).num_features:
            parser.error(f"--features: {init} reads {ScorerAgent.load(init).num_features} features, more than "
                         f"{args.features!r}'s {width}; a scorer is only widened")
    if args.guide is not None:
        guide = Path(args.guide)
        if not guide.is_file():
            parser.error(f"--guide: no network at {guide}")
        try:
            same_kind = is_scorer_file(guide) == is_scorer_file(init)
        except ValueError:   # no .npz archive: make_agent says better what it is
            same_kind = True
        if not same_kind:
            parser.error(f"--guide: {guide} and --init {init} must both be action scorers or both policy networks")
        try:
            make_agent(f"mcts+{guide}", game)
        except ValueError as error:
            parser.error(f"--guide: {error}")
        args.guide = guide
    try:
        default = f"runs/{run_label(args.game, game.variant)}-exit-{game.num_players}p-s{args.seed}"
        args.out = output_folder("--out", default if args.out is None else args.out, create=False)
        no_other_run("--out", args.out, OTHER_JOBS_FILES)   # its progress.csv and curve.png would be replaced
    except ValueError as error:
        parser.error(str(error))
    return args


# ---------------------------------------------------------------------------------------------------
# 1. Self-play
class Recorder(Agent):
    """Plays the guided search and keeps, at each decision it searched, what the network reads and
    the root's visit counts: the observation and mask, or the candidates' features (``scorer``, the
    number of features the scorer reads; 0 for a policy network).  With ``plays`` (the network
    itself) the search only labels the decision and ``plays`` makes the move."""

    needs_state = True

    def __init__(self, search, scorer, plays=None):
        self.search, self.scorer, self.plays = search, scorer, plays
        self.name = search.name
        self.decisions = []

    def reset(self, game, player, seed=None):
        super().reset(game, player, seed)
        self.search.reset(game, player, seed)
        if self.plays is not None:
            self.plays.reset(game, player, seed)
        self.features = ActionFeatures(game, self.scorer) if self.scorer else None

    def act(self, observation, action_mask, state=None):
        action = self.search.act(observation, action_mask, state)
        if self.plays is not None:   # the search labels the decision; the network makes the move
            action = self.plays.act(observation, action_mask, state)
        visits = self.search.last_visits
        if visits is None:   # one legal action, or a settled position: nothing was searched
            return action
        if self.scorer:
            row = np.ascontiguousarray(state, dtype=np.int64)
            legal = self.features.candidates(row)
            if visits[legal].sum() > 0:
                self.decisions.append((self.features.rows(row, self.player, legal).astype(np.float32),
                                       visits[legal].astype(np.float32)))
        else:
            self.decisions.append((np.asarray(observation, np.int8).copy(), np.asarray(action_mask, np.int8).copy(),
                                   visits.astype(np.int32)))
        return action

    def outcomes(self, result, index):
        """The decisions with the game's result for this recorder (agent ``index`` of ``result``: +1 a
        win, -1 a loss, 0 a tie or a truncated game) appended, the value network's target."""
        return [d + (result.rewards[index],) for d in self.decisions]


def _self_play_game(task):
    game_args, network, simulations, scorer, seed, labelled, value_mix = task
    game = game_info(*game_args)
    n = game.num_players
    search = f"mcts:{simulations}+{network}"
    if labelled:   # the network against the heuristic, the search labelling the network's decisions
        recorders = [Recorder(make_agent(search, game, value_mix=value_mix), scorer, plays=make_agent(network, game))]
        players = recorders + [make_agent("heuristic", game) for _ in range(n - 1)]
        seats = [(seed[-1] + k) % n for k in range(n)]   # seats rotated, as agents.distill's teacher games
    else:          # every seat the same search: no need to rotate
        recorders = players = [Recorder(make_agent(search, game, value_mix=value_mix), scorer) for _ in range(n)]
        seats = None
    result = play_game(game, players, seed, seats=seats)
    return seed[-1], [d for i, r in enumerate(recorders) for d in r.outcomes(result, i)]


def self_play(game, network, args, round_number, scorer, log=print):
    """The decisions of one round's games, as arrays (see ``Recorder``): ``--games`` of self-play, then
    ``--labelled-games`` in which the network plays the heuristic and the search labels its decisions."""
    game_args = (game.name, game.num_players, game.variant, game.max_turns)
    total = args.games + args.labelled_games
    tasks = [(game_args, str(network), args.simulations, scorer, (args.seed, round_number, index),
              index >= args.games, args.value_mix) for index in range(total)]
    games = [None] * total
    start = time.perf_counter()
    for done, (index, decisions) in enumerate(pool_map(_self_play_game, tasks, args.workers), 1):
        games[index] = decisions
        if done % max(1, total // 4) == 0 or done == total:
            log(f"  games {done}/{total}, {time.perf_counter() - start:.0f} s")
    decisions = [d for g in games for d in g]
    if scorer:
        sizes = [len(f) for f, _, _ in decisions]
        return dict(x=np.concatenate([f for f, _, _ in decisions]),
                    visits=np.concatenate([v for _, v, _ in decisions]),
                    decision=np.repeat(np.arange(len(decisions)), sizes))
    return dict(observation=np.stack([d[0] for d in decisions]), mask=np.stack([d[1] for d in decisions]),
                visits=np.stack([d[2] for d in decisions]), outcome=np.array([d[3] for d in decisions], np.float32))


def window_data(out, last_round, window, scorer):
    """The decisions of rounds ``last_round - window + 1 … last_round``, joined."""
    parts = [dict(np.load(out / f"round-{r}.npz")) for r in range(max(1, last_round - window + 1), last_round + 1)]
    if scorer:
        offsets = np.cumsum([0] + [int(p["decision"].max()) + 1 for p in parts[:-1]])
        return dict(x=np.concatenate([p["x"] for p in parts]), visits=np.concatenate([p["visits"] for p in parts]),
                    decision=np.concatenate([p["decision"] + o for p, o in zip(parts, offsets)]))
    keys = ("observation", "mask", "visits") + (("outcome",) if all("outcome" in p for p in parts) else ())
    return {k: np.concatenate([p[k] for p in parts]) for k in keys}


# ---------------------------------------------------------------------------------------------------
# 2. Fit
def _inputs(observation, features):
    """The observations as the network reads them: float32, through the input transform ``features``."""
    import torch

    x = torch.as_tensor(observation, dtype=torch.float32)
    return torch.sign(x) * torch.log1p(torch.abs(x)) if features == "log" else x


def _minibatch_adam(params, loss_of_rows, n, epochs, lr, seed, batch):
    """``epochs`` passes of Adam at ``lr`` over ``n`` rows in shuffled minibatches of ``batch``,
    minimising ``loss_of_rows(rows)``."""
    import torch

    optimizer = torch.optim.Adam(params, lr=lr)
    generator = torch.Generator().manual_seed(seed)
    for _ in range(epochs):
        for rows in torch.randperm(n, generator=generator).split(batch):
            loss = loss_of_rows(rows)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


def fit_network(network, data, epochs, lr, seed, batch=256, keep=0.0, anchor=None, log=print):
    """A copy of ``network`` (``(layers, activation, features, skip)``, as ``read_network`` reads it)
    fitted to the visit shares of ``data``, mixed with the share ``keep`` of the policy of ``anchor``
    (a network of the same form; ``network`` itself if None) at each decision; returns it in the same
    form, and the cross-entropy before and after (over all of ``data``)."""
    import torch

    torch.manual_seed(seed)
    layers, activation_name, features, skip = network
    activation = {"relu": torch.relu, "tanh": torch.tanh}[activation_name]

    def tensors(layers):
        return [torch.nn.Parameter(torch.as_tensor(np.asarray(a, np.float32).copy())) for layer in layers for a in layer]

    params = tensors(layers)
    weights, biases = params[0::2], params[1::2]
    x_all = _inputs(data["observation"], features)
    legal_all = torch.as_tensor(data["mask"] > 0)
    visits = torch.as_tensor(data["visits"], dtype=torch.float32) * legal_all
    share_all = visits / visits.sum(1, keepdim=True)

    def log_policy(x, legal, weights=weights, biases=biases):
        h = x
        for w, b in zip(weights[:-1], biases[:-1]):
            h = activation(h @ w.T + b)
        logits = (torch.cat([h, x], 1) if skip else h) @ weights[-1].T + biases[-1]
        return torch.log_softmax(logits.masked_fill(~legal, -1e9), 1)

    def loss_of(x, legal, share):
        return -(share * log_policy(x, legal).masked_fill(~legal, 0.0)).sum(1).mean()

    with torch.no_grad():
        if keep > 0:
            kept = params if anchor is None else tensors(anchor[0])
            own = torch.exp(log_policy(x_all, legal_all, kept[0::2], kept[1::2])) * legal_all
            share_all = (1 - keep) * share_all + keep * own
        before = float(loss_of(x_all, legal_all, share_all))
    n = len(x_all)
    _minibatch_adam(params, lambda rows: loss_of(x_all[rows], legal_all[rows], share_all[rows]), n, epochs, lr,
                    seed, batch)
    with torch.no_grad():
        after = float(loss_of(x_all, legal_all, share_all))
    if log:
        log(f"  fit on {n} decisions: cross-entropy {before:.4f} -> {after:.4f}")
    fitted = [(w.detach().numpy().copy(), b.detach().numpy().copy()) for w, b in zip(weights, biases)]
    return (fitted, activation_name, features, skip), before, after


def fit_value(value, network, data, width, seed, epochs=VALUE_EPOCHS, lr=VALUE_LR, batch=256, log=print):
    """A value network fitted to the game outcomes of ``data`` (``observation``, ``outcome``: +1 a win,
    -1 a loss, 0 a tie) by the mean squared error of its ``tanh``: ``value`` (layers, as
    ``read_value`` reads them) fitted further, or a new one of one hidden layer of ``width`` when
    None.  It reads the observation as ``network`` (``read_network``'s form) does: the same activation
    and input transform.  Returns the layers and the error before and after (over all of ``data``)."""
    import torch

    torch.manual_seed(seed)
    _layers, activation_name, features, _skip = network
    activation = {"relu": torch.relu, "tanh": torch.tanh}[activation_name]
    x_all = _inputs(data["observation"], features)
    y_all = torch.as_tensor(data["outcome"], dtype=torch.float32)
    if value is None:   # torch's default initialisation of a fresh layer
        value = [(m.weight.detach().numpy(), m.bias.detach().numpy())
                 for m in (torch.nn.Linear(x_all.shape[1], width), torch.nn.Linear(width, 1))]
    params = [torch.nn.Parameter(torch.as_tensor(np.asarray(a, np.float32).copy())) for layer in value for a in layer]
    weights, biases = params[0::2], params[1::2]

    def error(x, y):
        h = x
        for w, b in zip(weights[:-1], biases[:-1]):
            h = activation(h @ w.T + b)
        return ((torch.tanh(h @ weights[-1].T + biases[-1])[:, 0] - y) ** 2).mean()

    with torch.no_grad():
        before = float(error(x_all, y_all))
    _minibatch_adam(params, lambda rows: error(x_all[rows], y_all[rows]), len(x_all), epochs, lr, seed, batch)
    with torch.no_grad():
        after = float(error(x_all, y_all))
    if log:
        log(f"  value fit on {len(x_all)} decisions: squared error {before:.4f} -> {after:.4f}")
    return [(w.detach().numpy().copy(), b.detach().numpy().copy()) for w, b in zip(weights, biases)], before, after


def sharpen(visits, temperature, decision=None):
    """The fit's targets from root visit counts: ``visits ** (1 / temperature)``, and for temperature 0
    the most visited action (the first of ties) alone.  ``visits`` is one row per decision, or (an
    action scorer's) one entry per candidate with ``decision`` numbering them, candidates of a
    decision together."""
    v = np.asarray(visits, np.float64)
    if decision is None:
        top = v.max(1, keepdims=True)
    else:
        starts = np.flatnonzero(np.r_[True, decision[1:] != decision[:-1]])
        top = np.repeat(np.maximum.reduceat(v, starts), np.diff(np.r_[starts, len(v)]))
    if temperature > 0:
        return ((v / top) ** (1.0 / temperature)).astype(np.float32)
    if decision is None:
        out = np.zeros_like(v, dtype=np.float32)
        out[np.arange(len(v)), v.argmax(1)] = 1.0
        return out
    at_top = np.flatnonzero(v == top)
    _, first = np.unique(decision[at_top], return_index=True)
    out = np.zeros(len(v), np.float32)
    out[at_top[first]] = 1.0
    return out


def fit_round(current_path, data, args, round_number, scorer, out, log=print):
    """Fit a copy of the current network to ``data``; returns the fitted file and the losses."""
    seed = args.seed + round_number
    data = dict(data, visits=sharpen(data["visits"], args.temperature, data["decision"] if scorer else None))
    path = out / f"network-{round_number}.npz"
    if scorer:
        current = ScorerAgent.load(current_path)
        losses = []
        layers = fit_scorer(data["x"], data["visits"], data["decision"], None, SCORER_STEPS, SCORER_LR, seed,
                            log=None, init=current.layers, losses=losses)
        before, after = losses
        log(f"  fit on {int(data['decision'].max()) + 1} decisions: cross-entropy {before:.4f} -> {after:.4f}")
        save_scorer(path, current.game_name, layers, current.variant)
    else:
        current = read_network(current_path)
        fitted, before, after = fit_network(current, data, args.epochs, args.lr, seed,
                                            keep=args.keep, anchor=read_network(out / "init.npz"), log=log)
        value = read_value(current_path)
        if args.value_width and "outcome" in data:
            value, _, _ = fit_value(value, current, data, args.value_width, seed, log=log)
        write_network(path, *fitted, value=value)
    return path, before, after


def keep_value(fitted, current):
    """Give the ``current`` network file the value network of the ``fitted`` one.  The gate judges the
    greedy policy, which the value does not touch, so the value learnt from a round's games is kept
    whichever policy the gate keeps."""
    value = read_value(fitted)
    if value is not None:
        write_network(current, *read_network(current), value=value)


# ---------------------------------------------------------------------------------------------------
# 3. Gate and 4. measure
def win_rate(game, specs, games, seed, workers):
    """The first agent's win rate and 95% interval in seat-rotated games against the others."""
    from ..arena.tournament import run_tournament

    report = run_tournament(game.name, game.num_players, specs, games, seed=seed, workers=workers,
                            variant=game.variant, max_turns=game.max_turns, warm_up=False)  # no times read
    entry = report["agents"][next(iter(report["agents"]))]
    return entry["win_rate"], entry["win_rate_ci95"]


def gate_score(game, network, args, round_number):
    """The mean win share of ``network`` (greedy) against the heuristic and ``mcts:<--gate-simulations>``,
    ``--gate-games`` each, on the round's gate deals."""
    others = game.num_players - 1
    seed = args.seed + 500 + round_number
    return float(np.mean([win_rate(game, [str(network)] + [opponent] * others, args.gate_games, seed,
                                   args.workers)[0]
                          for opponent in ("heuristic", f"mcts:{args.gate_simulations}")]))


def measure(game, network, args, round_number, log=print):
    """The measurement rows of one round (``--measure-games`` each)."""
    n, seed = args.measure_games, args.seed + 1000 + round_number   # deals apart from self-play and gate
    plain = "mcts" if args.measure_simulations is None else f"mcts:{args.measure_simulations}"
    others = game.num_players - 1
    rows = {}
    for label, specs in (("network_vs_heuristic", [str(network)] + ["heuristic"] * others),
                         ("network_vs_mcts", [str(network)] + [plain] * others),
                         ("guided_vs_mcts", [f"mcts:{args.simulations}+{network}"]
                          + [f"mcts:{args.simulations}"] * others)):
        rate, interval = win_rate(game, specs, n, seed, args.workers)
        rows[label] = rate
        log(f"  {label.replace('_', ' ')}: {rate:.1%} [{interval[0]:.1%}, {interval[1]:.1%}] ({n} games)")
    return rows


def resumed_state(out, game, window):
    """The ``state.json`` of the run in ``out``, once everything the next round reads is known to be there
    (else SystemExit saying what is missing): a missing round file was found only after a round's
    self-play, which takes minutes to hours."""
    path = out / "state.json"
    try:
        state = json.loads(path.read_text())
    except (OSError, ValueError) as error:
        raise SystemExit(f"--resume: {path} cannot be read as an expert-iteration state ({error})") from None
    keys = {"game", "players", "variant", "round", "init", "history"}
    if not isinstance(state, dict) or not keys <= state.keys() or not is_integer(state["round"]) \
            or state["round"] < 0 or not isinstance(state["history"], list):
        raise SystemExit(f"--resume: {path} is not an expert-iteration state (it needs {sorted(keys)}, the round "
                         f"a count and the history a list)")
    if (state["game"], state["players"], state["variant"]) != (game.name, game.num_players, game.variant):
        raise SystemExit(f"--resume: {out} holds a run of {state['game']} ({state['variant']}, "
                         f"{state['players']} players), not of {game.name} ({game.variant}, {game.num_players})")
    needed = [out / "current.npz"] + [out / f"round-{r}.npz"
                                      for r in range(max(1, state["round"] + 2 - window), state["round"] + 1)]
    needed.append(out / "init.npz" if (out / "init.npz").is_file() else Path(str(state["init"])))
    missing = [str(p) for p in needed if not p.is_file()]
    if missing:
        raise SystemExit(f"--resume: {out} lacks {', '.join(missing)}, which the next round reads")
    for path in needed:   # a copy cut short (current.npz) failed at once; a round file, after the self-play
        try:
            with np.load(path) as archive:
                archive.files
        except (OSError, ValueError, EOFError, zipfile.BadZipFile) as error:   # EOFError: an empty file
            raise SystemExit(f"--resume: {path}, which the next round reads, is damaged ({error}); put back a "
                             f"whole copy, or start another run with another --out") from None
    return state


PLOTTED = (("network_vs_heuristic", "network vs heuristic", "-"),
           ("network_vs_mcts", "network vs mcts", "-"),
           ("guided_vs_mcts", "guided search vs mcts, equal simulations", "-"),
           ("gate_fitted", "gate: the fitted network", "--"),
           ("gate_current", "gate: the current network", "--"))


def plot(history, path):
    """The measurements and the gate's two win rates per round; nothing is drawn while the rounds
    have neither (``--measure-games 0`` and no gate)."""
    series = [(key, label, style) for key, label, style in PLOTTED if any(key in h for h in history)]
    if not series:
        return
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 3.5))
    rounds = [h["round"] for h in history]
    for key, label, style in series:
        ax.plot(rounds, [h.get(key, np.nan) for h in history], marker="o", ls=style, label=label)
    ax.axhline(0.5, color="gray", lw=0.8, ls=":")
    ax.set(xlabel="round", ylabel="win rate", ylim=(0, 1), xticks=rounds)
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1))
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


# ---------------------------------------------------------------------------------------------------
@sigterm_as_exit()  # kill stops the self-play, gate and measurement workers too
@ctrl_c_exits("The rounds finished are kept in --out; the same command with --resume goes on after the last, "
              "with --rounds counting the rounds to add: lower it by the rounds finished to stop where this "
              "run would have.")
def main(argv=None, log=print):
    args = parse_args(argv)
    game = game_info(args.game, args.players, args.variant)
    out = args.out
    state_path = out / "state.json"
    if args.resume and state_path.is_file():
        state = resumed_state(out, game, args.window)
        if args.init_given and Path(args.init).resolve() != Path(state["init"]).resolve():
            raise SystemExit(f"--init {args.init}: the run in {out} started from {state['init']} and goes on from "
                             f"its current network; --init names a new run's first network: leave it out, or "
                             f"choose another --out")
        log(f"resuming after round {state['round']} of {out}")
        if not (out / "init.npz").is_file():   # a run from before init.npz was kept
            shutil.copyfile(state["init"], out / "init.npz")
    else:
        if args.resume:
            log(f"--resume: no {state_path} yet, starting afresh")
        elif state_path.is_file():   # its networks and history would be replaced by a new start
            raise SystemExit(f"{out} already holds a run: pass --resume to continue it, or choose another --out")
        made_folder("--out", out)
        if args.features is not None:   # the scorer widened: the new inputs' weights zero
            start = ScorerAgent.load(args.init)
            width = feature_set_size(game.name, args.features)
            (w, b), rest = start.layers[0], start.layers[1:]
            wide = np.concatenate([w, np.zeros((w.shape[0], width - w.shape[1]))], axis=1)
            save_scorer(out / "current.npz", game.name, [(wide, b)] + rest, game.variant)
            shutil.copyfile(out / "current.npz", out / "init.npz")
        else:
            shutil.copyfile(args.init, out / "current.npz")
            shutil.copyfile(args.init, out / "init.npz")   # the policy that --keep keeps, every round
        state = dict(game=game.name, players=game.num_players, variant=game.variant, round=0,
                     init=str(args.init), history=[])
    current = out / "current.npz"
    # what the self-play keeps at each decision: a scorer's features (as many as it reads) or observations
    scorer = ScorerAgent.load(current).num_features if is_scorer_file(current) else 0
    for r in range(state["round"] + 1, state["round"] + args.rounds + 1):
        started = time.perf_counter()
        guide = current if args.guide is None else args.guide
        log(f"round {r}: self-play of mcts:{args.simulations} guided by "
            f"{'the current network' if args.guide is None else guide}")
        data = self_play(game, guide, args, r, scorer, log)
        np.savez_compressed(out / f"round-{r}.npz", **data)
        candidate, before, after = fit_round(current, window_data(out, r, args.window, scorer), args, r, scorer,
                                             out, log)
        scores = [gate_score(game, network, args, r) for network in (candidate, current)]
        accepted = scores[0] > scores[1]
        log(f"  gate: mean win share against the heuristic and mcts:{args.gate_simulations}, the fitted network "
            f"{scores[0]:.1%}, the current one {scores[1]:.1%}: {'accepted' if accepted else 'rejected'}")
        if accepted:
            shutil.copyfile(candidate, current)
        elif not scorer:
            keep_value(candidate, current)
        entry = dict(round=r, decisions=int(len(data["visits"]) if not scorer else data["decision"].max() + 1),
                     loss_before=before, loss_after=after, gate_fitted=scores[0], gate_current=scores[1],
                     accepted=accepted)
        if args.measure_games:
            entry.update(measure(game, current, args, r, log))
        entry["seconds"] = time.perf_counter() - started
        state["history"].append(entry)
        state["round"] = r
        state_path.write_text(json.dumps(state, indent=1) + "\n")
        with open(out / "progress.csv", "w", newline="") as f:
            columns = list(dict.fromkeys(k for h in state["history"] for k in h))
            writer = csv.DictWriter(f, columns)
            writer.writeheader()
            writer.writerows(state["history"])
        plot(state["history"], out / "curve.png")
        log(f"  round {r} took {entry['seconds']:.0f} s")
    log(f"the current network: {current}")
    return state


if __name__ == "__main__":
    main()
