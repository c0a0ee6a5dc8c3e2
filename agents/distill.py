"""Distil the search agent into an action scorer (``agents.scorer``): the shipped Mauna Kea policy.

    python -m agents.distill --game maunakea [--players 2] [--games 80] [--simulations 1000] \
        [--opponent heuristic] [--out DIR] [--seed 0] [--workers 2] [--hidden 32] [--epochs 300]

Top to bottom:
1. Teacher games: ``--games`` games of the search agent (``mcts:--simulations``) against
   ``--opponent`` agents, seats rotated, on ``--workers`` processes.  At every decision the search
   actually searched, the features of its candidate actions (``agents.mcts_<game>.action_features``)
   and its root visit counts are kept (``DIR/decisions.npz``; ``--reuse`` fits on them again).
2. Fit: the scorer's logits, softmaxed over each decision's candidates, learn the search's visit
   shares (cross-entropy, Adam, full batch).  The last tenth of the games is held out: the printed
   agreement is how often the scorer's top action is the search's on decisions it never saw, next to
   how often the search simply played its rollout policy's choice there.
3. ``DIR/scorer.npz`` (``agents.make_agent(path, game)`` loads it; ``agents/shipped/maunakea.npz``
   is one), then a tournament of the scorer against random and against heuristic opponents
   (``--final-games`` each, seats rotated; 0 skips it) and ``DIR/result.json``.

Only games whose search module computes ``action_features`` can be distilled (``SCORER_GAMES``).
Install what fitting needs with ``pip install -e ".[train]"`` (torch).
"""
import argparse
import json
import multiprocessing
import sys
import time
from pathlib import Path

import numpy as np

from .base import Agent
from .games import GAMES, game_info
from .match import play_game
from .registry import make_agent
from .scorer import SCORER_GAMES, ScorerAgent, features_module, save_scorer

HELD_OUT = 0.1   # share of the teacher games kept out of the fit


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description="Distil the search agent into an action scorer.",
                                     formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    add = parser.add_argument
    add("--game", required=True, choices=sorted(GAMES))
    add("--players", type=int, default=2, help="number of players (default: %(default)s)")
    add("--variant", default=None, help="the game's variant (default: the game's default)")
    add("--games", type=int, default=80, help="teacher games (default: %(default)s)")
    add("--simulations", type=int, default=1000, help="the teacher's simulations per decision "
                                                      "(default: %(default)s)")
    add("--opponent", default="heuristic", help="the teacher's opponents (default: %(default)s)")
    add("--out", default=None, help="output folder (default: runs/<game>-distill-<players>p-s<seed>)")
    add("--seed", type=int, default=0, help="seed of games and fit (default: %(default)s)")
    add("--workers", type=int, default=2, help="processes playing teacher games (default: %(default)s)")
    add("--hidden", type=int, default=32, help="width of the scorer's two hidden layers (default: %(default)s)")
    add("--epochs", type=int, default=300, help="full-batch Adam steps (default: %(default)s)")
    add("--lr", type=float, default=1e-2, help="Adam's learning rate (default: %(default)s)")
    add("--final-games", type=int, default=200, help="tournament games per opponent at the end, 0 for "
                                                     "none (default: %(default)s)")
    add("--reuse", action="store_true", help="fit on DIR/decisions.npz instead of playing teacher games")
    args = parser.parse_args(argv)
    if args.game not in SCORER_GAMES:
        parser.error(f"--game: action scorers exist for {', '.join(SCORER_GAMES)} only (their search "
                     f"modules compute action_features), not {args.game}")
    for name in ("games", "simulations", "workers", "hidden", "epochs"):
        if getattr(args, name) < 1:
            parser.error(f"--{name} must be a positive integer, got {getattr(args, name)}")
    if args.games < 2:
        parser.error("--games must be at least 2 (one game is held out to measure the fit)")
    if args.final_games < 0 or args.seed < 0 or not args.lr > 0:
        parser.error("--final-games and --seed must be non-negative and --lr positive")
    game_info(args.game, args.players, args.variant)   # checks players and variant
    return args


# ---------------------------------------------------------------------------------------------------
# 1. Teacher games
class Recorder(Agent):
    """Plays the teacher and keeps, at each decision it searched, its candidates' features and visits."""

    needs_state = True

    def __init__(self, teacher):
        self.teacher = teacher
        self.name = teacher.name
        self.features, self.visits = [], []

    def reset(self, game, player, seed=None):
        super().reset(game, player, seed)
        self.teacher.reset(game, player, seed)
        self.scorer = ScorerAgent([(np.zeros((1, len(features_module(game.name).ACTION_FEATURE_NAMES))),
                                    np.zeros(1))], game.name)
        self.scorer.reset(game, player)

    def act(self, observation, action_mask, state=None):
        action = self.teacher.act(observation, action_mask, state)
        visits = self.teacher.last_visits
        if visits is not None:   # None: one candidate, or a settled position (no search)
            legal = self.scorer.candidates(state)
            if visits[legal].sum() > 0:
                self.features.append(self.scorer.features(state, legal).astype(np.float32))
                self.visits.append(visits[legal].astype(np.float32))
        return action


def _teacher_game(task):
    game_args, simulations, opponent, seed, index = task
    game = game_info(*game_args)
    teacher = Recorder(make_agent(f"mcts:{simulations}", game))
    agents = [teacher] + [make_agent(opponent, game) for _ in range(game.num_players - 1)]
    seats = [(index + k) % game.num_players for k in range(game.num_players)]   # seats rotated
    result = play_game(game, agents, (seed, index), seats=seats)
    return index, teacher.features, teacher.visits, result.win_shares[0]


def teacher_games(game, args, log=print):
    """Play the teacher games; returns per game the lists of feature rows and of visit counts."""
    game_args = (game.name, game.num_players, game.variant, game.max_turns)
    tasks = [(game_args, args.simulations, args.opponent, args.seed, i) for i in range(args.games)]
    games, shares = [None] * args.games, []
    start = time.perf_counter()
    if args.workers == 1:
        results = map(_teacher_game, tasks)
        pool = None
    else:
        pool = multiprocessing.get_context("spawn").Pool(min(args.workers, args.games))
        results = pool.imap_unordered(_teacher_game, tasks)
    try:
        for done, (index, features, visits, share) in enumerate(results, 1):
            games[index] = (features, visits)
            shares.append(share)
            log(f"  teacher game {done}/{args.games}: {len(features)} decisions, teacher win share "
                f"{np.mean(shares):.2f} so far, {time.perf_counter() - start:.0f} s")
    finally:
        if pool is not None:
            pool.close()
            pool.join()
    return games, float(np.mean(shares))


def pack(games):
    """Decisions of ``games`` as flat arrays: feature rows, visit counts, each row's decision number,
    and each decision's game number."""
    rows, visits, decision, game_of = [], [], [], []
    for g, (features, counts) in enumerate(games):
        for f, v in zip(features, counts):
            decision.append(np.full(len(f), len(game_of), np.int64))
            game_of.append(g)
            rows.append(f)
            visits.append(v)
    return (np.concatenate(rows), np.concatenate(visits), np.concatenate(decision),
            np.asarray(game_of, np.int64))


# ---------------------------------------------------------------------------------------------------
# 2. Fit
def fit(x, visits, decision, hidden, epochs, lr, seed, log=print):
    """Layers ``[(w, b), …]`` of the scorer whose per-decision softmax best matches the visit shares."""
    import torch

    torch.manual_seed(seed)
    x_t = torch.as_tensor(x, dtype=torch.float32)
    seg = torch.as_tensor(decision)
    n = int(decision.max()) + 1
    v = torch.as_tensor(visits, dtype=torch.float32)
    share = v / torch.zeros(n).index_add(0, seg, v)[seg]
    net = torch.nn.Sequential(torch.nn.Linear(x.shape[1], hidden), torch.nn.ReLU(),
                              torch.nn.Linear(hidden, hidden), torch.nn.ReLU(), torch.nn.Linear(hidden, 1))
    optimizer = torch.optim.Adam(net.parameters(), lr=lr)
    for epoch in range(epochs):
        logits = net(x_t)[:, 0]
        loss = -(share * log_softmax_by(logits, seg, n)).sum() / n
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if log and (epoch + 1) % max(1, epochs // 5) == 0:
            log(f"  fit step {epoch + 1}/{epochs}: cross-entropy {loss.item():.4f}")
    return [(m.weight.detach().numpy().copy(), m.bias.detach().numpy().copy())
            for m in net if isinstance(m, torch.nn.Linear)]


def log_softmax_by(logits, seg, n):
    """``logits`` minus the log-sum-exp of their decision (``seg``): a softmax per decision."""
    import torch

    top = torch.full((n,), -torch.inf).scatter_reduce(0, seg, logits.detach(), "amax")
    total = torch.zeros(n).index_add(0, seg, torch.exp(logits - top[seg]))
    return logits - (top + torch.log(total))[seg]


def agreement(scores, visits, decision, n):
    """Share of decisions whose top-scored row is the most visited one."""
    best_score = np.full(n, -np.inf)
    np.maximum.at(best_score, decision, scores)
    best_visits = np.zeros(n)
    np.maximum.at(best_visits, decision, visits)
    hit = np.zeros(n, bool)
    rows = (scores == best_score[decision]) & (visits == best_visits[decision])
    hit[decision[rows]] = True
    return float(hit.mean())


# ---------------------------------------------------------------------------------------------------
def main(argv=None):
    args = parse_args(argv)
    game = game_info(args.game, args.players, args.variant)
    out = Path(args.out or f"runs/{args.game}-distill-{game.num_players}p-s{args.seed}")
    out.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    data_path = out / "decisions.npz"
    if args.reuse:
        if not data_path.is_file():
            raise SystemExit(f"--reuse: no {data_path}; run without --reuse first")
        with np.load(data_path) as data:
            x, visits, decision, game_of = (data[k] for k in ("x", "visits", "decision", "game_of"))
            teacher_share = float(data["teacher_share"])
    else:
        print(f"teacher: mcts:{args.simulations} against {args.opponent}, {args.games} games")
        games, teacher_share = teacher_games(game, args)
        x, visits, decision, game_of = pack(games)
        np.savez_compressed(data_path, x=x, visits=visits, decision=decision, game_of=game_of,
                            teacher_share=teacher_share)
    n = len(game_of)
    total = int(game_of.max()) + 1
    held = game_of >= min(total - 1, int(np.ceil(total * (1 - HELD_OUT))))   # at least one game out
    train_rows, test_rows = held[decision] == 0, held[decision]
    renumber = np.cumsum(~held) - 1
    print(f"fitting on {int((~held).sum())} decisions ({int(train_rows.sum())} candidate actions), "
          f"{int(held.sum())} held out")
    layers = fit(x[train_rows], visits[train_rows], renumber[decision[train_rows]], args.hidden, args.epochs,
                 args.lr, args.seed)
    scorer = ScorerAgent(layers, game.name)
    test_decision = (np.cumsum(held) - 1)[decision[test_rows]]
    rollout_column = list(features_module(game.name).ACTION_FEATURE_NAMES).index("the rollout policy's choice")
    fit_agreement = agreement(scorer.logits(x[test_rows].astype(np.float64)), visits[test_rows], test_decision,
                              int(held.sum()))
    rollout_agreement = agreement(x[test_rows, rollout_column], visits[test_rows], test_decision, int(held.sum()))
    print(f"held-out decisions: the scorer's choice is the search's in {fit_agreement:.1%}; the rollout "
          f"policy's choice is in {rollout_agreement:.1%}")
    path = save_scorer(out / "scorer.npz", game.name, layers)
    result = dict(game=game.name, players=game.num_players, variant=game.variant, seed=args.seed,
                  teacher_games=total, decisions=n, teacher_win_share=teacher_share,
                  held_out_agreement=fit_agreement, rollout_policy_agreement=rollout_agreement,
                  scorer=str(path))
    if args.final_games:
        from .tournament import run_tournament, table_text

        for opponent in ("random", "heuristic"):
            report = run_tournament(args.game, game.num_players, [str(path)] + [opponent] * (game.num_players - 1),
                                    args.final_games, seed=args.seed + 1, workers=args.workers,
                                    variant=game.variant)
            print(f"\n{path.name} against {opponent} ({args.final_games} games, seats rotated):")
            print(table_text(report))
            row = report["agents"][next(iter(report["agents"]))]
            result[f"win_rate_{opponent}"] = row["win_rate"]
            result[f"win_rate_{opponent}_ci95"] = row["win_rate_ci95"]
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
