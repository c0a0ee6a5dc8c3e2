r"""Tournament: agents play many games with rotated seats; win rates with confidence intervals, ratings.

    python -m agents.tournament --game makabana --players 4 --agents heuristic,mcts:200,random,random \
        --games 400 [--seed 0] [--workers 8] [--json results.json] [--plot tournament.png] [--record DIR]

Agents are named as in ``agents.registry`` (``random``, ``heuristic``, ``mcts:200``, ``mcts:200@c=0.5``,
a checkpoint path, ...); an agent named twice gets two labels (``random#1``, ``random#2``) and is rated
twice.

Seating: with more agents than seats, game g takes the g-th group of agents (all groups in turn);
within a group the seats rotate, and then the order around the table changes, so after
``groups x players`` games every agent has sat in every seat equally often (after ``groups x
players!`` games, every seating has been played once).  Seat matters in all three games (who starts,
who acts last in a season), so an unbalanced count is reported.

Seeds: game g is played with seed (S, g) -- the deal, the game's chance and the agents' own
randomness -- so results are the same for the same ``--seed`` whatever the number of workers.

Scoring: a win is split evenly between the players tied for first (a game truncated by
``--max-turns`` is ranked by the points as they stand); win rates come with Wilson 95% intervals,
ratings from a Plackett–Luce fit of the finishing orders on the Elo scale with ``random`` at 1000
(``agents.arena.ratings``).

Timing: every game times each agent's decisions (its ``act`` calls: what it costs to choose, not
the game's own steps); the table's ``ms/decision`` is an agent's mean over all its games, measured
where they were played (with several workers, on cores they share).  Each process that plays first
warms its agents up in untimed games (``Table.warm_up``, at most ``WARM_UP_SECONDS``), so that
Numba's compiling and cache loading are not counted as the agents' thinking.

Output: the table is printed; ``--json PATH`` and ``--plot PATH`` (a PNG) are written to exactly the
paths given, and only when asked; ``--record DIR`` writes every game as a game record
(``pacific_common.record``), ``DIR/game-00000.json`` and so on, which ``pacific_common.record.replay``
plays again; a ``DIR`` that holds game records already is refused unless the run ``--resume``s
their tournament (which records the games it plays, and names the kept games that have none there).  Every path is checked, and ``DIR`` created, before the first game is played.

Resuming: with ``--json PATH`` the games so far are written to ``PATH`` as they are played (every 30 s
at most; ``"complete": false`` until the end), so a tournament of searches that runs for hours can be
stopped and continued: ``--resume`` reads ``PATH``, keeps its games and plays only the others.  Game
g is the same game whenever it is played, so a resumed tournament reports exactly what one run would
(its ``seconds`` add up the runs).  The file must hold the same tournament (game, players, variant,
``max_turns``, seed and agents), each kept game once, with the agents in the seats this tournament
gives it and a result a game can have; ``--games`` may grow.  A run stopped by Ctrl-C or SIGTERM writes every
game it finished and stops its workers; the workers of a tournament killed outright (SIGKILL) stop
within a second (``agents.workers``).
"""
import argparse
import json
import math
import os
import re
import reprlib
import sys
import time
from collections import Counter
from itertools import islice
from math import comb, factorial
from pathlib import Path

from pacific_common.checked import integer
from pacific_common.cli import different_files, integer_option, output_file, output_folder, parsed_names
from pacific_common.options import MAX_TURNS_LIMIT, SEED_LIMIT
from pacific_common.record import record_game, save

from ..games import GAMES, game_info, game_info_or_error
from ..learned.rllib_agent import checkpoint_label, is_rllib_checkpoint
from ..registry import ALLOWED, is_guided, is_search, make_agent, split_search
from ..workers import MAX_WORKERS, one_thread, sigterm_as_exit, spawn_pool
from .match import IllegalActionError, finishing_ranks, play_game, win_shares
from .ratings import ANCHOR_RATING, fit_ratings, wilson_interval


# ---------------------------------------------------------------------------------------------------
# Who plays, where
def _name(spec):
    base, settings = split_search(spec) if is_search(spec) else (spec, None)
    search, plus, guide = base.partition("+") if is_guided(base) else ("", "", base)
    if guide.endswith((".zip", ".npz")):
        return search + plus + Path(guide).stem + ("" if settings is None else "@" + settings)
    return checkpoint_label(spec) if is_rllib_checkpoint(spec) else spec


def agent_labels(specs):
    """One label per agent: its name (a checkpoint's file or folder name; a guided search keeps its
    ``mcts...+`` in front, so it is not mistaken for its guide), numbered when it repeats."""
    names = [_name(s) for s in specs]
    repeats, seen = Counter(names), Counter()
    labels = []
    for name in names:
        seen[name] += 1
        labels.append(f"{name}#{seen[name]}" if repeats[name] > 1 else name)
    return labels


def seating_cycle(num_agents, num_players):
    """Games until seats are balanced: every group of agents once per seat rotation."""
    return comb(num_agents, num_players) * num_players


def _group(rank, num_agents, size):
    """The ``rank``-th of the groups of ``size`` agents in ``combinations(range(num_agents), size)``'s
    order, found without listing them: two hundred agents have 64 million groups of four."""
    group, first = [], 0
    for left in range(size, 0, -1):
        while comb(num_agents - first - 1, left - 1) <= rank:  # not in a group that starts at ``first``
            rank -= comb(num_agents - first - 1, left - 1)
            first += 1
        group.append(first)
        first += 1
    return tuple(group)


def seating(game, num_agents, num_players):
    """The agent index in each seat of game ``game`` (see the module docstring)."""
    n, groups = num_players, comb(num_agents, num_players)
    group = _group(game % groups, num_agents, n)
    rotation = (game // groups) % n
    orders = factorial(n - 1)  # every order up to rotation: (0,) + a permutation of the others
    order = (0,) + _nth_permutation(game // (groups * n) % orders, range(1, n))
    return tuple(group[order[(seat - rotation) % n]] for seat in range(n))


def _nth_permutation(rank, items):
    """``list(permutations(items))[rank]`` without the list."""
    items, chosen = list(items), []
    while items:
        block = factorial(len(items) - 1)
        chosen.append(items.pop(rank // block))
        rank %= block
    return tuple(chosen)


def schedule(num_agents, num_players, games):
    """For each game, the agent index in each seat (a list; ``seating`` gives one game's)."""
    return [seating(g, num_agents, num_players) for g in range(games)]


# ---------------------------------------------------------------------------------------------------
# Playing (in this process or in worker processes)
WARM_UP_SECONDS = 60.0  # the most an untimed warm-up takes, per process that plays


class _WarmUpOver(Exception):
    pass


class Table:
    """One process's game and agents: every worker builds its own from the specs."""

    def __init__(self, game_args, specs, labels, record_dir=None, warm_up=True):
        self.game = game_info(*game_args)
        self.record_dir = record_dir
        self.agents = [make_agent(spec, self.game) for spec in specs]
        for agent, label in zip(self.agents, labels):
            agent.name = label
        self.warm = not warm_up
        self.warm_up_seconds = 0.0

    def warm_up(self):
        """Play untimed, unrecorded games until every agent has played once, stopping after
        ``WARM_UP_SECONDS``.  Numba compiles a kernel (or loads it from its cache) at its first call
        in a process: on a fresh install, 8 games of Make Make reported the heuristic at 47.5
        ms/decision instead of 0.4, which was the compiling.  The games change no result, since an agent
        forgets everything at ``reset``."""
        self.warm = True
        started = time.perf_counter()
        deadline = started + WARM_UP_SECONDS

        def stop_when_due(*_):
            if time.perf_counter() > deadline:
                raise _WarmUpOver

        n, count = self.game.num_players, len(self.agents)
        for first in range(0, count, n):   # agents first … first + n - 1, the last group filled from the start
            seats = [(first + i) % count for i in range(n)]
            try:
                play_game(self.game, [self.agents[i] for i in seats], seed=0, on_step=stop_when_due)
            except _WarmUpOver:
                break
        self.warm_up_seconds = time.perf_counter() - started

    def play(self, seed, games):
        """Records of the games ``[(index, seating), ...]``."""
        if not self.warm:
            self.warm_up()
        records = []
        for index, seating in games:
            result = play_game(self.game, [self.agents[i] for i in seating], seed=(seed, index))
            records.append({"game": index, "agents": [self.agents[i].name for i in seating],
                            "scores": result.scores, "rewards": result.rewards, "ranks": result.ranks,
                            "win_shares": result.win_shares, "truncated": result.truncated,
                            "decisions": result.decisions, "agent_decisions": result.agent_decisions,
                            "agent_seconds": [round(t, 6) for t in result.agent_seconds]})
            if self.record_dir is not None:
                records[-1]["record"] = self._write_record(index, seating, result)
        return records

    def _write_record(self, index, seating, result):
        """Write game ``index`` as a game record (replayed once on the environment, which checks it);
        returns the file's name."""
        game = self.game
        record = record_game(game.name, result.core_seed, result.actions, num_players=game.num_players,
                             variant=game.variant, max_turns=game.max_turns,
                             players=[self.agents[i].name for i in seating], final_state=result.final_state)
        name = f"game-{index:05d}.json"
        save(record, Path(self.record_dir) / name)
        return name


_table = None  # the worker's Table
RECORD_NAME = re.compile(r"game-\d+\.json")   # Table._write_record's names


def unrecorded(record_dir, games):
    """Which of ``games`` (game numbers) have no record in ``record_dir``, and a line that says so
    ("" where none lacks one): a resumed tournament writes the records of the games it plays, not of
    those it keeps, which an earlier run played without ``--record`` or whose files were removed."""
    missing = sorted(g for g in games if not (Path(record_dir) / f"game-{g:05d}.json").is_file())
    if not missing:
        return missing, ""
    listed = ", ".join(map(str, missing[:5])) + (", …" if len(missing) > 5 else "")
    return missing, (f"note: {len(missing)} game(s) kept from the earlier run have no record in {record_dir} "
                     f"(games {listed}): that run played them without --record, or their files were removed; "
                     f"only the games played now are recorded")


def no_earlier_records(option, folder, resume):
    """Refuse a record folder that holds game records already, unless the tournament resumes: a new
    tournament's records would mix with them, and its game 5 replace their game 5."""
    earlier = sorted(p.name for p in Path(folder).glob("game-*.json") if RECORD_NAME.fullmatch(p.name))
    if earlier:
        raise ValueError(f"{option} {str(folder)!r} already holds {len(earlier)} game record(s) ({earlier[0]} "
                         f"…); give an empty or new folder, or, to continue that tournament, {resume}")


def _start_worker(game_args, specs, labels, record_dir, warm_up):
    global _table
    _table = Table(game_args, specs, labels, record_dir, warm_up)
    if "torch" in sys.modules:  # a policy agent: one thread per worker, the workers fill the cores
        sys.modules["torch"].set_num_threads(1)


def _play_chunk(task):
    """The chunk's records, and the seconds this call spent warming up first (0 after the first)."""
    seed, games = task
    warm = _table.warm
    records = _table.play(seed, games)
    return records, 0.0 if warm else _table.warm_up_seconds


CHECKPOINT_SECONDS = 30.0  # how often a run with --json writes the games so far


def run_tournament(game, num_players, specs, games, seed=0, workers=None, variant=None,
                   max_turns=None, log=None, record_dir=None, done=None, on_progress=None, warm_up=True,
                   check_records=True):
    """Play the tournament and return its report (a dict; see ``summarize``).  ``workers`` processes
    play in parallel (default: one per CPU); ``log`` (e.g. ``print``) hears about progress;
    ``record_dir`` (created if missing) receives one game record per game.  ``done`` is an earlier
    report of the same tournament (``resume_from``): its games are kept, not played again, and its
    ``seconds`` counted.  ``on_progress(partial)`` hears the games so far (the report's header and
    ``records``, ``"complete"`` false) after a batch of games, every ``CHECKPOINT_SECONDS`` at most.
    ``warm_up=False`` plays no untimed games first (``Table.warm_up``), for a caller who reads only the
    results, not the agents' times; the report's ``seconds`` leave the warm-up out (each worker warms
    up at its first games, all at once: the longest warm-up is taken off), and ``warm_up_seconds`` say
    how long it was.  ``check_records=False``: records already in ``record_dir`` are this tournament's,
    whose report was lost, and are written again the same."""
    specs = [s.strip() for s in specs]
    info = game_info(game, num_players, variant, max_turns)
    n = info.num_players
    if len(specs) < n:
        named = specs or ["random"]  # none named (--agents ,): the example still needs one
        filled = ",".join(named + named[-1:] * (n - len(named)))
        raise ValueError(f"{n} players need at least {n} agents, got {len(specs)}; name an agent "
                         f"several times to fill the seats, e.g. --agents {filled}")
    games = integer("games", games, 1, 10**9)
    seed = integer("seed", seed, 0, SEED_LIMIT)
    workers = integer("workers", (os.cpu_count() or 1) if workers is None else workers, 1, MAX_WORKERS)
    if record_dir is not None:
        record_dir = str(output_folder("record_dir", record_dir))
        if done is None and check_records:
            no_earlier_records("record_dir", record_dir, "pass the earlier report as done")
    labels = agent_labels(specs)
    twice = next((label for label in labels if labels.count(label) > 1), None)
    if twice is not None:   # a file named as another agent's numbered label: the ratings need distinct ones
        raise ValueError(f"two agents get the label {twice!r} ({', '.join(s for s, l in zip(specs, labels) if l == twice)}); "
                         f"rename one of their files")
    game_args = (game, n, info.variant, info.max_turns)
    table = Table(game_args, specs, labels, record_dir, warm_up)  # also checks every spec before any worker starts

    header = dict(game=game, players=n, variant=info.variant, max_turns=info.max_turns, seed=seed, specs=specs)
    kept = {} if done is None else {r["game"]: r for r in _same_tournament(done, header, games, labels)}
    earlier = 0.0 if done is None else _seconds_so_far(done)
    # the plan is made as it is played, never listed: a long tournament's would not fit in memory
    plan = ((g, seating(g, len(specs), n)) for g in range(games) if g not in kept)
    size = max(1, min(25, (games - len(kept)) // (50 * workers)))  # small batches: a stopped run loses little
    chunks = ((seed, batch) for batch in _batches(plan, size))
    workers = max(1, min(workers, -(-(games - len(kept)) // size)))
    anchor = next((label for label, spec in zip(labels, specs) if spec == "random"), None)
    start = time.perf_counter()
    records = list(kept.values())
    last_saved = start
    warmed = 0.0   # the longest warm-up of a process that played

    def save():
        nonlocal last_saved
        last_saved = time.perf_counter()  # the games so far, without the ratings' fit: enough to resume from
        on_progress(dict(header, games=games, seconds=earlier + last_saved - start - warmed, complete=False,
                         records=sorted(records, key=lambda r: r["game"])))

    def add(chunk_records):
        _progress(log, len(records), len(records) + len(chunk_records), games)
        records.extend(chunk_records)
        due = time.perf_counter() - last_saved >= CHECKPOINT_SECONDS
        if on_progress is not None and len(records) < games and due:
            save()

    if kept and log:
        log(f"  {len(kept)}/{games} games kept from the earlier run")
        if record_dir is not None and unrecorded(record_dir, kept)[1]:
            log(unrecorded(record_dir, kept)[1])
    try:
        if workers == 1:
            with one_thread():
                for chunk in chunks:
                    chunk_records = table.play(*chunk)
                    warmed = table.warm_up_seconds
                    add(chunk_records)
        else:
            with spawn_pool(workers, _start_worker, (game_args, specs, labels, record_dir, warm_up)) as pool:
                for window in _batches(chunks, 64 * workers):  # imap would queue every chunk at once
                    for chunk_records, chunk_warm_up in pool.imap(_play_chunk, window):
                        warmed = max(warmed, chunk_warm_up)
                        add(chunk_records)
    except BaseException:  # stopped (Ctrl-C, SIGTERM) or failed: a stopped run loses no game it finished
        if on_progress is not None and len(records) > len(kept):
            save()
        raise
    report = summarize(sorted(records, key=lambda r: r["game"]), labels, specs, anchor)
    report.update(header, games=games, workers=workers, seconds=earlier + time.perf_counter() - start - warmed,
                  warm_up_seconds=warmed,
                  balanced=games % seating_cycle(len(specs), n) == 0, complete=True)
    return report


def _batches(items, size):
    """``items`` in lists of ``size`` (the last may be shorter), taken from the iterator as needed."""
    items = iter(items)
    while batch := list(islice(items, size)):
        yield batch


class ResumeError(ValueError):
    """The ``--json`` file given to ``--resume`` holds another tournament, or none."""


def _same_tournament(done, header, games, labels):
    """The records of ``done`` if it is a report of the tournament ``header`` describes (its agents
    labelled ``labels``), with no game beyond ``games``, each game once and as it would be played;
    else ResumeError saying what differs."""
    if not isinstance(done, dict) or not isinstance(done.get("records"), list):
        raise ResumeError("is not the JSON of a tournament (it has no 'records')")
    fields = {"game", "agents", "scores", "rewards", "ranks", "win_shares", "truncated", "decisions"}
    if not all(isinstance(r, dict) and fields <= r.keys() and type(r["game"]) is int and r["game"] >= 0
               for r in done["records"]):
        raise ResumeError(f"holds a record without one of {sorted(fields)} or with a negative game "
                          f"number; it was not written by --json")
    for key, value in header.items():
        if done.get(key) != value:
            raise ResumeError(f"holds a tournament with {key} {done.get(key)!r}, not {value!r}; give the "
                              f"same options to resume it, or another --json path to start afresh")
    last = max((r["game"] for r in done["records"]), default=-1)
    if last >= games:
        raise ResumeError(f"holds game {last}, beyond --games {games}; give --games {last + 1} or more")
    seen = set()
    for record in done["records"]:
        g = record["game"]
        if g in seen:
            raise ResumeError(f"holds game {g} twice; it was not written by --json")
        seen.add(g)
        problem = _record_problem(record, [labels[i] for i in seating(g, len(labels), header["players"])])
        if problem:
            raise ResumeError(f"holds a game {g} that this tournament would not have played: {problem}; "
                              f"it was changed after --json wrote it")
    return done["records"]


def _seconds_so_far(done):
    """The seconds the earlier runs of ``done`` took (0 in a file without them); else ResumeError."""
    seconds = done.get("seconds", 0.0)
    if not _real(0, math.inf)(seconds):
        raise ResumeError(f"holds 'seconds' {reprlib.repr(seconds)}, not the time the games took (a number, "
                          f"0 or more); it was changed after --json wrote it")
    return float(seconds)


INT64 = (-2**63, 2**63 - 1)  # the cores keep scores and counts in int64: nothing larger was played


def _whole(low, high):
    return lambda value: type(value) is int and low <= value <= high


def _real(low, high):
    # an int too large for a float is compared exactly: math.isfinite would raise OverflowError on it
    return lambda value: ((type(value) is int or type(value) is float and math.isfinite(value))
                          and low <= value <= high)


def _record_problem(record, agents):
    """What is wrong with a kept game's record, whose seats should hold ``agents``; "" if nothing.
    The report is computed from these records, so one that was edited would be reported as played."""
    n = len(agents)
    if record["agents"] != agents:
        return f"its agents are {record['agents']!r}, not {agents!r}"
    lists = {"scores": (f"integers from {INT64[0]} to {INT64[1]}", _whole(*INT64)),
             "rewards": ("rewards, each -1, 0 or 1", lambda value: type(value) in (int, float)
                         and value in (-1, 0, 1)),
             "ranks": (f"places from 1 to {n}", _whole(1, n)),
             "win_shares": ("numbers from 0 to 1", _real(0, 1)),
             "agent_decisions": ("counts (integers, 0 or more)", _whole(0, INT64[1])),
             "agent_seconds": ("numbers of seconds, 0 or more", _real(0, math.inf))}
    for key, (allowed, fits) in lists.items():
        values = record.get(key)  # the timing's keys are absent from files written before it
        if key in record and not (isinstance(values, list) and len(values) == n and all(map(fits, values))):
            return f"its {key!r} must be {n} {allowed}, got {reprlib.repr(values)}"
    if type(record["truncated"]) is not bool:
        return f"its 'truncated' must be true or false, got {reprlib.repr(record['truncated'])}"
    if not _whole(0, INT64[1])(record["decisions"]):
        return f"its 'decisions' must be a count (an integer, 0 or more), got {reprlib.repr(record['decisions'])}"
    ranks = finishing_ranks(record["rewards"], record["scores"], record["truncated"])
    if record["ranks"] != ranks:
        return f"its 'ranks' {record['ranks']} are not the places its 'rewards' and 'scores' give, {ranks}"
    if record["win_shares"] != win_shares(ranks):
        return f"its 'win_shares' {record['win_shares']} are not the shares its 'ranks' give, {win_shares(ranks)}"
    if "agent_decisions" in record and sum(record["agent_decisions"]) != record["decisions"]:
        return (f"its 'agent_decisions' {record['agent_decisions']} do not add up to its 'decisions', "
                f"{record['decisions']}")
    return ""


def resume_from(path):
    """The report in ``path`` (written by ``--json``), or None if there is no such file yet."""
    path = Path(path)
    if not path.exists():
        return None
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError) as error:
        raise ResumeError(f"cannot be read as a tournament's JSON ({error})") from None


def write_json(report, path):
    """Write ``report`` to ``path`` whole or not at all (a run stopped mid-write keeps the last file).
    A link is written through, to the file it names, not replaced by a file of its own."""
    path = Path(os.path.realpath(path))
    partial = path.with_name(path.name + ".partial")
    partial.write_text(json.dumps(report, indent=1))
    os.replace(partial, path)


def _progress(log, before, after, total):
    step = max(1, total // 10)  # about ten lines per tournament
    if log and after // step != before // step:
        log(f"  {after}/{total} games")


# ---------------------------------------------------------------------------------------------------
# Results
def summarize(records, labels, specs, anchor=None):
    """Per-agent games, wins (win shares), win rate with Wilson 95% interval, mean score, rating, and
    the milliseconds an agent took per decision (``ms_per_decision``, over the games that timed it:
    a ``--json`` file written before the timing existed has none, and its games count for nothing)."""
    agents = {label: {"spec": spec, "games": 0, "wins": 0.0, "score_sum": 0, "timed": 0, "seconds": 0.0}
              for label, spec in zip(labels, specs)}
    for record in records:
        for label, share, score in zip(record["agents"], record["win_shares"], record["scores"]):
            agents[label]["games"] += 1
            agents[label]["wins"] += share
            agents[label]["score_sum"] += score
        for label, count, seconds in zip(record["agents"], record.get("agent_decisions", ()),
                                         record.get("agent_seconds", ())):
            agents[label]["timed"] += count
            agents[label]["seconds"] += seconds
    ratings = fit_ratings([dict(zip(r["agents"], r["ranks"])) for r in records], labels, anchor)
    for label, row in agents.items():
        played = row["games"]
        row["win_rate"] = row["wins"] / played if played else 0.0
        row["win_rate_ci95"] = list(wilson_interval(row["wins"], played))
        score_sum = row.pop("score_sum")
        row["mean_score"] = score_sum / played if played else 0.0
        row["rating"] = ratings[label]
        timed, seconds = row.pop("timed"), row.pop("seconds")
        row["ms_per_decision"] = 1000.0 * seconds / timed if timed else None
    return {"agents": agents, "ratings": ratings, "rating_anchor": anchor,
            "truncated": sum(r["truncated"] for r in records),
            "decisions": sum(r["decisions"] for r in records), "records": records}


def games_only(report):
    """``report`` (or a list of its records) without what depends on the run rather than on the games:
    the seconds, the workers and the agents' decision times.  Two runs of one tournament, with any
    workers, stopped and resumed or not, give the same ``games_only``."""
    if isinstance(report, list):
        return [{k: v for k, v in r.items() if k != "agent_seconds"} for r in report]
    kept = {k: v for k, v in report.items() if k not in ("seconds", "warm_up_seconds", "workers", "agents", "records")}
    if "agents" in report:
        kept["agents"] = {label: {k: v for k, v in row.items() if k != "ms_per_decision"}
                          for label, row in report["agents"].items()}
    if "records" in report:
        kept["records"] = games_only(report["records"])
    return kept


def table_text(report):
    width = max([20] + [len(label) for label in report["agents"]])  # names with settings run long
    rows = [f"{'agent':<{width}} {'games':>6} {'wins':>8} {'win rate [95% CI]':>23} {'mean score':>11} "
            f"{'rating':>7} {'ms/decision':>11}"]
    # an agent that played no game (--games under the seating cycle) has figures of the prior alone: '-'
    ranked = sorted(report["agents"].items(), key=lambda item: (item[1]["games"] == 0, -item[1]["rating"]))
    for label, row in ranked:
        low, high = row["win_rate_ci95"]
        played = row["games"] > 0
        rate = f"{row['win_rate']:.3f} [{low:.3f}, {high:.3f}]" if played else "-"
        mean = f"{row['mean_score']:.2f}" if played else "-"
        rating = f"{row['rating']:.0f}" if played else "-"
        ms = row.get("ms_per_decision")
        ms = "-" if ms is None else f"{ms:.3f}"
        rows.append(f"{label:<{width}} {row['games']:>6} {row['wins']:>8.2f} {rate:>23} "
                    f"{mean:>11} {rating:>7} {ms:>11}")
    return "\n".join(rows)


def plot(report, path):
    """Win rates with their 95% intervals, and ratings, side by side, as a PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ranked = sorted(report["agents"].items(), key=lambda item: -item[1]["rating"])
    labels = [label for label, _ in ranked]
    rates = [row["win_rate"] for _, row in ranked]
    errors = [[row["win_rate"] - row["win_rate_ci95"][0] for _, row in ranked],
              [row["win_rate_ci95"][1] - row["win_rate"] for _, row in ranked]]
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 1.5 + 0.5 * len(labels)), sharey=True)
    positions = range(len(labels))
    left.barh(positions, rates, xerr=errors, capsize=4, color="tab:blue")
    left.axvline(1 / report["players"], color="gray", linestyle="--", label="1 / players")
    left.set_xlim(0, 1)
    left.set_xlabel("win rate (ties split), 95% Wilson interval")
    left.set_yticks(list(positions), labels)
    left.invert_yaxis()
    left.legend(loc="lower right")
    # ratings only mean something relative to each other: bars start at the anchor's 1000
    ratings = [row["rating"] for _, row in ranked]
    right.barh(positions, [r - ANCHOR_RATING for r in ratings], left=ANCHOR_RATING, color="tab:orange")
    for y, r in zip(positions, ratings):
        right.annotate(f"{r:.0f}", (r, y), xytext=(3 if r >= ANCHOR_RATING else -3, 0),
                       textcoords="offset points", va="center", ha="left" if r >= ANCHOR_RATING else "right")
    span = max(100.0, max(abs(r - ANCHOR_RATING) for r in ratings) * 1.25)
    right.set_xlim(ANCHOR_RATING - span, ANCHOR_RATING + span)
    right.axvline(ANCHOR_RATING, color="gray", linewidth=0.8)
    anchor = report["rating_anchor"]
    right.set_xlabel(f"rating (Plackett–Luce, Elo scale, {anchor or 'mean'} = 1000)")
    fig.suptitle(f"{report['game']}, {report['players']} players, {report['games']} games")
    fig.tight_layout()
    fig.savefig(path, dpi=100, format="png")  # a format given: matplotlib adds no ".png" to the path
    plt.close(fig)


@sigterm_as_exit()  # a tournament stopped by kill writes its games so far and stops its workers
def main(argv=None):
    parser = argparse.ArgumentParser(description="Rate agents in seat-rotated games.",
                                     formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    parser.add_argument("--game", required=True, choices=sorted(GAMES))
    parser.add_argument("--players", type=integer_option(1), default=None,
                        help="number of players (default: the game's)")
    parser.add_argument("--agents", required=True,
                        help="comma-separated agents, each one of: " + "; ".join(ALLOWED))
    parser.add_argument("--games", type=integer_option(1, 10**9), default=100,
                        help="games to play (default: %(default)s)")
    parser.add_argument("--seed", type=integer_option(0, SEED_LIMIT), default=0,
                        help="tournament seed (default: %(default)s)")
    parser.add_argument("--workers", type=integer_option(1, MAX_WORKERS), default=None,
                        help="processes (default: one per CPU)")
    parser.add_argument("--variant", default=None, help="game variant (default: the game's)")
    parser.add_argument("--max-turns", type=integer_option(1, MAX_TURNS_LIMIT), default=None,
                        help="truncation limit (default: the game's)")
    parser.add_argument("--json", metavar="PATH", help="write the results and every game's result as JSON")
    parser.add_argument("--plot", metavar="PATH", help="write a PNG of win rates and ratings to PATH")
    parser.add_argument("--record", metavar="DIR",
                        help="write every game as a game record (pacific_common.record) into DIR")
    parser.add_argument("--resume", action="store_true",
                        help="keep the games already in the --json file (written as the games are "
                             "played) and play only the others")
    args = parser.parse_args(argv)
    specs = parsed_names(parser, "--agents", args.agents)
    try:  # every output is checked before the first game: an error after hours of play loses them all
        for option, path in (("--json", args.json), ("--plot", args.plot)):
            if path is not None:
                output_file(option, path)
        different_files([("--json", args.json), ("--plot", args.plot)])
        partial = None if args.json is None else os.path.realpath(args.json) + ".partial"
        if partial is not None and Path(partial).is_dir():   # written there, then renamed (write_json)
            raise ValueError(f"--json {args.json!r}: {partial!r}, where the games so far are "
                             f"written first, is a folder; remove it or give another --json path")
        if args.record is not None:
            folder = output_folder("--record", args.record)
            if not args.resume:
                no_earlier_records("--record", args.record, "--resume it (with its --json)")
            for option, path in (("--json", args.json), ("--plot", args.plot)):
                if path is not None and Path(path).resolve().parent == folder.resolve() \
                        and RECORD_NAME.fullmatch(Path(path).name):
                    raise ValueError(f"{option} {path!r} is the name of a game record in --record {args.record!r}; "
                                     f"give it another name")
        game_info_or_error(args.game, args.players, args.variant, args.max_turns)
        if args.resume and args.json is None:
            raise ValueError("--resume continues the tournament in the --json file; give --json PATH")
        done = resume_from(args.json) if args.resume else None
    except ResumeError as error:
        parser.error(f"--resume: {args.json!r} {error}")
    except ValueError as error:
        parser.error(str(error))
    if args.resume and done is None:
        print(f"--resume: no {args.json} yet, starting afresh")  # as agents.expert_iteration says it
    checkpoint = None if args.json is None else (lambda partial: write_json(partial, args.json))
    try:
        report = run_tournament(args.game, args.players, specs, args.games, args.seed, args.workers,
                                args.variant, args.max_turns, log=print, record_dir=args.record,
                                done=done, on_progress=checkpoint, check_records=False)   # checked above
    except IllegalActionError:
        raise  # a broken agent: the traceback helps
    except KeyboardInterrupt:   # Ctrl-C: the games so far were written (with --json), not a traceback
        kept = f"; the games so far are in {args.json}: the same command with --resume goes on" if args.json else ""
        print(f"\nStopped{kept}.", file=sys.stderr)
        sys.exit(130)
    except ResumeError as error:
        parser.error(f"--resume: {args.json!r} {error}")
    except (ValueError, ImportError) as error:
        parser.error(str(error))
    print()
    print(table_text(report))
    print(f"\n{report['games']} games of {report['game']} ({report['variant']}, {report['players']} "
          f"players) in {report['seconds']:.1f} s on {report['workers']} worker(s) after a warm-up of "
          f"{report['warm_up_seconds']:.1f} s, {report['decisions'] / max(report['seconds'], 1e-9):,.0f} decisions/s")
    if report["truncated"]:
        print(f"{report['truncated']} game(s) reached max_turns={report['max_turns']} and were ranked by "
              f"the points as they stood")
    if not report["balanced"]:
        print(f"note: seats are balanced only when --games is a multiple of "
              f"{seating_cycle(len(specs), report['players'])}")
    if args.record is not None:
        kept = [] if done is None else [r["game"] for r in done["records"]]   # recorded before, if at all
        print(f"wrote {report['games'] - len(kept)} game records into {args.record}")
        if unrecorded(args.record, kept)[1]:
            print(unrecorded(args.record, kept)[1])
    if args.json is not None:
        write_json(report, args.json)
        print(f"wrote {args.json}")
    if args.plot is not None:
        plot(report, args.plot)
        print(f"wrote {args.plot}")


if __name__ == "__main__":
    main()
