r"""Distil the search agent into an action scorer (``agents.learned.scorer``): the shipped Mauna Kea policy.

    python -m agents.distill --game maunakea [--players 2] [--games 80] [--simulations 1000] \
        [--opponent heuristic] [--features SET] [--out DIR] [--seed 0] [--workers 2] [--hidden 32] [--epochs 300]

Top to bottom:
1. Teacher games: ``--games`` games of the search agent (``mcts:--simulations``) against
   ``--opponent`` agents, seats rotated, on ``--workers`` processes.  At every decision the search
   actually searched, the features of its candidate actions (``agents.search.<game>.action_features``,
   the set ``--features`` of ``FEATURE_SETS``: the one-step features unless named), its root visit
   counts and the action it played are kept (``DIR/decisions.npz``; ``--reuse`` fits on them again).
2. Fit: the scorer's logits, softmaxed over each decision's candidates, learn the search's visit
   shares (cross-entropy, Adam, full batch).  The last tenth of the games is held out: the printed
   agreement is how often the scorer, played greedily, plays the search's action on those decisions
   (the ones with two candidates or more), next to how often the search played its rollout policy's
   choice there.
3. ``DIR/scorer.npz`` (``agents.make_agent(path, game)`` loads it; ``agents/shipped/maunakea.npz``
   is one), then a tournament of the scorer against random and against heuristic opponents
   (``--final-games`` each, seats rotated; 0 skips it) and ``DIR/result.json``.

Only games whose search module computes ``action_features`` can be distilled (``SCORER_GAMES``).
Install what fitting needs with ``pip install -e ".[train]"`` (torch).
"""
import argparse
import importlib.util
import json
import sys
import time
import zipfile
from pathlib import Path

import numpy as np

from pacific_common.cli import integer_option, made_folder, output_folder
from pacific_common.options import SEED_LIMIT

from ..arena.match import play_game
from ..base import Agent
from ..games import GAMES, game_info, game_info_or_error, run_label
from ..learned.policy import TRAIN_EXTRA
from ..learned.scorer import (
    SCORER_GAMES, ActionFeatures, ScorerAgent, feature_names, feature_set_size, features_module, save_scorer,
)
from ..registry import make_agent
from ..search.mcts import MAX_SIMULATIONS
from ..workers import MAX_WORKERS, ctrl_c_exits, pool_map, sigterm_as_exit

HELD_OUT = 0.1   # share of the teacher games kept out of the fit


TEACHER_DEFAULTS = dict(games=80, simulations=1000, opponent="heuristic")


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description="Distil the search agent into an action scorer.",
                                     formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    add = parser.add_argument
    add("--game", required=True, choices=sorted(GAMES))
    add("--players", type=integer_option(None), default=2, help="number of players (default: %(default)s)")
    add("--variant", default=None, help="the game's variant (default: the game's default)")
    # the teacher's games: None until given, so that --reuse (which plays none) can refuse them
    add("--games", type=integer_option(2, 10**6), default=None,
        help=f"teacher games, 2 at least: one is held out to measure the fit (default: {TEACHER_DEFAULTS['games']})")
    add("--simulations", type=integer_option(1, MAX_SIMULATIONS), default=None,
        help=f"the teacher's simulations per decision (default: {TEACHER_DEFAULTS['simulations']})")
    add("--opponent", default=None, help=f"the teacher's opponents (default: {TEACHER_DEFAULTS['opponent']})")
    add("--out", default=None, help="output folder (default: runs/<game>-distill-<players>p-s<seed>, with "
                                    "-<variant> after the game for another than the default)")
    # the closing games take --seed + 1
    add("--seed", type=integer_option(0, SEED_LIMIT - 1), default=0, help="seed of games and fit (default: %(default)s)")
    add("--workers", type=integer_option(1, MAX_WORKERS), default=2,
        help="processes playing teacher games (default: %(default)s)")
    add("--hidden", type=integer_option(1, 4096), default=32,
        help="width of the scorer's two hidden layers (default: %(default)s)")
    add("--epochs", type=integer_option(1, 10**6), default=300, help="full-batch Adam steps (default: %(default)s)")
    add("--lr", type=float, default=1e-2, help="Adam's learning rate, in (0, 1) (default: %(default)s)")
    add("--final-games", type=integer_option(0, 10**6), default=200,
        help="tournament games per opponent at the end, 0 for none (default: %(default)s)")
    add("--features", default=None, help="the feature set the scorer reads (agents.search.<game>.FEATURE_SETS; "
                                          "default: the first, the one-step features)")
    add("--reuse", action="store_true", help="fit on DIR/decisions.npz instead of playing teacher games")
    args = parser.parse_args(argv)
    given = [f"--{k}" for k in TEACHER_DEFAULTS if getattr(args, k) is not None]
    if args.reuse and given:
        parser.error(f"--reuse fits on the decisions of DIR/decisions.npz, whose teacher games were played "
                     f"before: {', '.join(given)} would change nothing; leave {'it' if len(given) == 1 else 'them'} out")
    for key, value in TEACHER_DEFAULTS.items():
        if getattr(args, key) is None:
            setattr(args, key, value)
    if args.game not in SCORER_GAMES:
        parser.error(f"--game: action scorers exist for {', '.join(SCORER_GAMES)} only (their search "
                     f"modules compute action_features), not {args.game}")
    if not 0 < args.lr < 1:   # as agents.train's: 1e30 diverged, and failed only when the scorer was saved
        parser.error(f"--lr must be in (0, 1), got {args.lr}")
    if importlib.util.find_spec("torch") is None:   # fitting needs it: say so before the teacher games
        parser.error(f"fitting the scorer needs torch: {TRAIN_EXTRA}")
    try:
        game = game_info_or_error(args.game, args.players, args.variant)   # checks players and variant
        ActionFeatures(game)                                                # and that the variant has features
    except ValueError as error:
        parser.error(str(error))
    try:
        feature_set_size(args.game, args.features)
    except ValueError as error:
        parser.error(f"--features: {error}")
    try:
        make_agent(args.opponent, game)   # here, before any worker starts
    except (ValueError, ImportError, OSError) as error:
        parser.error(f"--opponent: {error}")
    label = run_label(args.game, game.variant)
    try:   # made by main, once it has something to write: a run refused there leaves no empty folder
        default = f"runs/{label}-distill-{game.num_players}p-s{args.seed}"
        args.out = str(output_folder("--out", default if args.out is None else args.out, create=False))
    except ValueError as error:
        parser.error(str(error))
    return args


# ---------------------------------------------------------------------------------------------------
# 1. Teacher games
class Recorder(Agent):
    """Plays the teacher and keeps, at each decision it searched, its candidates' features and visits,
    and which candidate it played."""

    needs_state = True

    def __init__(self, teacher, num_features=None):
        self.teacher = teacher
        self.num_features = num_features
        self.name = teacher.name
        self.features, self.visits, self.chosen = [], [], []

    def reset(self, game, player, seed=None):
        super().reset(game, player, seed)
        self.teacher.reset(game, player, seed)
        self.action_features = ActionFeatures(game, self.num_features)

    def act(self, observation, action_mask, state=None):
        action = self.teacher.act(observation, action_mask, state)
        visits = self.teacher.last_visits
        if visits is not None:   # None: one candidate, or a settled position (no search)
            row = np.ascontiguousarray(state, dtype=np.int64)
            legal = self.action_features.candidates(row)
            if visits[legal].sum() > 0 and action in legal:
                self.features.append(self.action_features.rows(row, self.player, legal).astype(np.float32))
                self.visits.append(visits[legal].astype(np.float32))
                self.chosen.append(int(np.searchsorted(legal, action)))
        return action


def _teacher_game(task):
    game_args, simulations, opponent, seed, index, num_features = task
    game = game_info(*game_args)
    teacher = Recorder(make_agent(f"mcts:{simulations}", game), num_features)
    agents = [teacher] + [make_agent(opponent, game) for _ in range(game.num_players - 1)]
    seats = [(index + k) % game.num_players for k in range(game.num_players)]   # seats rotated
    result = play_game(game, agents, (seed, index), seats=seats)
    return index, (teacher.features, teacher.visits, teacher.chosen), result.win_shares[0]


def teacher_games(game, args, log=print):
    """Play the teacher games; returns per game the lists of feature rows, of visit counts and of the
    candidates played, and the teacher's win share."""
    game_args = (game.name, game.num_players, game.variant, game.max_turns)
    num_features = feature_set_size(game.name, args.features)
    tasks = [(game_args, args.simulations, args.opponent, args.seed, i, num_features) for i in range(args.games)]
    games, shares = [None] * args.games, []
    start = time.perf_counter()
    for done, (index, record, share) in enumerate(pool_map(_teacher_game, tasks, args.workers), 1):
        games[index] = record
        shares.append(share)
        log(f"  teacher game {done}/{args.games}: {len(record[0])} decisions, teacher win share "
            f"{np.mean(shares):.2f} so far, {time.perf_counter() - start:.0f} s")
    return games, float(np.mean(shares))


def pack(games):
    """Decisions of ``games`` as flat arrays: feature rows, visit counts, each row's decision number;
    per decision its game number and the row it played."""
    rows, visits, decision, game_of, played = [], [], [], [], []
    start = 0
    for g, (features, counts, chosen) in enumerate(games):
        for f, v, c in zip(features, counts, chosen):
            decision.append(np.full(len(f), len(game_of), np.int64))
            game_of.append(g)
            played.append(start + c)
            rows.append(f)
            visits.append(v)
            start += len(f)
    return dict(x=np.concatenate(rows), visits=np.concatenate(visits), decision=np.concatenate(decision),
                game_of=np.asarray(game_of, np.int64), played=np.asarray(played, np.int64))


# ---------------------------------------------------------------------------------------------------
# 2. Fit
def fit(x, visits, decision, hidden, epochs, lr, seed, log=print, init=None, losses=None):
    """Layers ``[(w, b), …]`` of the scorer whose per-decision softmax best matches the visit shares,
    fitted from fresh weights or from the layers ``init`` (then ``hidden`` is theirs).  ``losses``, a
    list, receives the cross-entropy before and after."""
    import torch

    torch.manual_seed(seed)
    x_t = torch.as_tensor(x, dtype=torch.float32)
    seg = torch.as_tensor(decision)
    n = int(decision.max()) + 1
    v = torch.as_tensor(visits, dtype=torch.float32)
    share = v / torch.zeros(n).index_add(0, seg, v)[seg]
    if init is not None:
        hidden = len(init[0][1])
    net = torch.nn.Sequential(torch.nn.Linear(x.shape[1], hidden), torch.nn.ReLU(),
                              torch.nn.Linear(hidden, hidden), torch.nn.ReLU(), torch.nn.Linear(hidden, 1))
    linears = [m for m in net if isinstance(m, torch.nn.Linear)]
    if init is not None:
        with torch.no_grad():
            for m, (w, b) in zip(linears, init):
                m.weight.copy_(torch.as_tensor(np.asarray(w, np.float32)))
                m.bias.copy_(torch.as_tensor(np.asarray(b, np.float32)))
    optimizer = torch.optim.Adam(net.parameters(), lr=lr)
    for epoch in range(epochs):
        logits = net(x_t)[:, 0]
        loss = -(share * log_softmax_by(logits, seg, n)).sum() / n
        if losses is not None and epoch == 0:
            losses.append(loss.item())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if log and (epoch + 1) % max(1, epochs // 5) == 0:
            log(f"  fit step {epoch + 1}/{epochs}: cross-entropy {loss.item():.4f}")
    if losses is not None:
        with torch.no_grad():
            losses.append(float(-(share * log_softmax_by(net(x_t)[:, 0], seg, n)).sum() / n))
    return [(m.weight.detach().numpy().copy(), m.bias.detach().numpy().copy()) for m in linears]


def log_softmax_by(logits, seg, n):
    """``logits`` minus the log-sum-exp of their decision (``seg``): a softmax per decision."""
    import torch

    top = torch.full((n,), -torch.inf).scatter_reduce(0, seg, logits.detach(), "amax")
    total = torch.zeros(n).index_add(0, seg, torch.exp(logits - top[seg]))
    return logits - (top + torch.log(total))[seg]


def agreement(scores, decision, played):
    """Share of the decisions with two candidates or more (``decision``: each row's decision number,
    rows of a decision together and in action order) where the row a greedy player of ``scores``
    picks -- the first of the highest, as ``ScorerAgent`` does -- is the row the teacher played
    (``played``, by row number); and how many such decisions there were."""
    starts = np.flatnonzero(np.r_[True, decision[1:] != decision[:-1]])
    sizes = np.diff(np.r_[starts, len(decision)])
    best = np.maximum.reduceat(scores, starts)
    top_rows = np.flatnonzero(scores == np.repeat(best, sizes))
    _, first = np.unique(decision[top_rows], return_index=True)
    picked = top_rows[first]
    choice = sizes >= 2
    return float(np.mean(picked[choice] == played[choice])) if choice.any() else float("nan"), int(choice.sum())


def load_decisions(path, setting):
    """The recorded decisions of an earlier run (``--reuse``), checked against this run's setting."""
    if not path.is_file():
        raise SystemExit(f"--reuse: no {path}; run without --reuse first")
    keys = ("x", "visits", "decision", "game_of", "played", "games", "teacher_share", "setting")
    try:
        with np.load(path, allow_pickle=False) as data:
            arrays = {k: data[k] for k in keys}
        recorded = json.loads(str(arrays.pop("setting")))
        if not isinstance(recorded, dict):
            raise ValueError(f"its setting is {type(recorded).__name__}, not an object")
    # an .npz is a zip archive; EOFError: an empty file; JSONDecodeError is a ValueError
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as error:
        raise SystemExit(f"--reuse: {path} is not a decisions file of this version of agents.training.distill "
                         f"({error}); run without --reuse") from None
    differ = [k for k in setting if recorded.get(k) != setting[k]]
    if differ:
        said = ", ".join(f"{k}={recorded.get(k)!r}" if k != "feature_names" else "other features" for k in differ)
        asked = ", ".join(f"{k}={setting[k]!r}" if k != "feature_names" else "this version's" for k in differ)
        raise SystemExit(f"--reuse: {path} was recorded with {said}, not {asked}")
    return arrays, float(arrays.pop("teacher_share"))


# ---------------------------------------------------------------------------------------------------
@sigterm_as_exit()  # kill stops the teacher games' workers too
@ctrl_c_exits("The teacher games are kept (--out's decisions.npz) once all are played; with them kept, "
              "the same command with --reuse fits again without playing them.")
def main(argv=None):
    args = parse_args(argv)
    game = game_info(args.game, args.players, args.variant)
    out = Path(args.out)
    started = time.perf_counter()
    data_path = out / "decisions.npz"
    setting = dict(game=game.name, players=game.num_players, variant=game.variant,
                   feature_names=list(feature_names(game.name, feature_set_size(game.name, args.features))))
    if args.reuse:
        data, teacher_share = load_decisions(data_path, setting)
    else:
        made_folder("--out", out)
        print(f"teacher: mcts:{args.simulations} against {args.opponent}, {args.games} games")
        games, teacher_share = teacher_games(game, args)
        data = dict(pack(games), games=len(games))
        np.savez_compressed(data_path, teacher_share=teacher_share, setting=json.dumps(setting), **data)
    x, visits, decision, game_of, played = (data[k] for k in ("x", "visits", "decision", "game_of", "played"))
    total = int(data["games"])
    held = game_of >= min(total - 1, int(np.ceil(total * (1 - HELD_OUT))))   # the last games, one at least
    if held.all() or not held.any():
        raise SystemExit(f"the teacher's decisions come from too few games to hold some out ({total} games, "
                         f"decisions in {len(np.unique(game_of))}); play more games")
    first = int(np.flatnonzero(held)[0])             # games in order: the held-out decisions are the tail
    row = int(np.flatnonzero(decision == first)[0])
    print(f"fitting on {first} decisions ({row} candidate actions), {len(game_of) - first} held out")
    layers = fit(x[:row], visits[:row], decision[:row], args.hidden, args.epochs, args.lr, args.seed)
    if not all(np.isfinite(w).all() and np.isfinite(b).all() for w, b in layers):
        raise SystemExit(f"the fit diverged (its weights are no longer finite numbers) at --lr {args.lr}; "
                         f"a smaller --lr, with --reuse to keep the teacher's games")
    scorer = ScorerAgent(layers, game.name, game.variant)
    test_decision, test_played = decision[row:] - first, played[first:] - row
    rollout_column = setting["feature_names"].index(features_module(game.name).ROLLOUT_FEATURE)
    fit_agreement, counted = agreement(scorer.logits(x[row:].astype(np.float64)), test_decision, test_played)
    rollout_agreement, _ = agreement(x[row:, rollout_column], test_decision, test_played)
    print(f"held out: of {counted} decisions with a choice, the scorer plays the search's action in "
          f"{fit_agreement:.1%}, the rollout policy in {rollout_agreement:.1%}")
    path = save_scorer(out / "scorer.npz", game.name, layers, game.variant)
    result = dict(game=game.name, players=game.num_players, variant=game.variant, seed=args.seed,
                  teacher_games=total, decisions=len(game_of), teacher_win_share=teacher_share,
                  held_out_decisions=counted, held_out_agreement=fit_agreement,
                  rollout_policy_agreement=rollout_agreement,
                  scorer=str(path))
    if args.final_games:
        from ..arena.tournament import run_tournament, table_text

        for opponent in ("random", "heuristic"):
            report = run_tournament(args.game, game.num_players, [str(path)] + [opponent] * (game.num_players - 1),
                                    args.final_games, seed=args.seed + 1, workers=args.workers,
                                    variant=game.variant)
            print(f"\n{path.name} against {opponent} ({args.final_games} games, seats rotated):")
            print(table_text(report))
            entry = report["agents"][next(iter(report["agents"]))]
            result[f"win_rate_{opponent}"] = entry["win_rate"]
            result[f"win_rate_{opponent}_ci95"] = entry["win_rate_ci95"]
            result[f"truncated_{opponent}"] = report["truncated"]
            if report["truncated"]:
                print(f"{report['truncated']} game(s) reached max_turns={game.max_turns} and were ranked "
                      f"by the points as they stood")
    result["seconds"] = time.perf_counter() - started
    (out / "result.json").write_text(json.dumps(result, indent=2) + "\n")
    print(f"\nwrote {path} and {out / 'result.json'} ({result['seconds']:.0f} s)")
    return result


if __name__ == "__main__":
    sys.exit(0 if main() else 1)
