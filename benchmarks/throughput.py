"""Steps per second of every game, side by side with PettingZoo, OpenSpiel and Pgx, in one run.

    python -m benchmarks.throughput [--quick] [--json PATH] [--plot PATH]
    python -m benchmarks.report PATH [--write docs/benchmarks.md]     # the docs' tables from that JSON

Every row is random legal play with resets.  A "step" is one decision of one game: the AEC loops do
not count the ``step(None)`` of an agent whose game is over, and Pgx's games are reset as they end
(``pgx.experimental.auto_reset``; its own ``step`` leaves a finished game as it is).  Numba compile
time is measured on the first call and reported apart; it is excluded from the throughput.  Peers come
with the optional extra ``bench`` (``pip install -e ".[bench]"``) and are skipped with a message when
missing.  Implementations:

==================  ==============================================================================
aec                 the game's PettingZoo AEC env, ``env()``: ``agent_iter``/``last``/``step``, masked random
aec-raw             the same loop on ``raw_env``, without PettingZoo's three wrappers
core-loop           the Numba core playing random games inside one Numba call, one thread
batch               ``BatchEnv.step`` called from Python with random legal actions, per batch size; it
                    writes every game's observation and mask (``outputs="observations"``, the default)
batch-masks         the same, writing masks only (``outputs="masks"``)
batch-state         the same, writing neither (``outputs="state"``: rewards, flags, player to act)
batch-busy          ``batch`` while another process keeps one core busy (a Python loop spinning)
reference           the plain-Python reference rules, random legal actions
pettingzoo-aec      a PettingZoo classic game, the same loop as ``aec``
openspiel-python    OpenSpiel game driven from Python (``legal_actions``/``apply_action``)
openspiel-cpp       OpenSpiel's C++ random play (``pyspiel.evaluate_bots`` with uniform random bots)
pgx-cpu             Pgx ``jit(vmap(step))`` on the CPU, per batch size (its step computes the
                    observation and the mask of every game)
==================  ==============================================================================

The three ``batch`` modes also say where a step's time goes: ``batch-state`` is the rules (with the
random action and the legality check), ``batch-masks`` − ``batch-state`` the masks and ``batch`` −
``batch-masks`` the observations; the run prints that split per batch size.
"""
import argparse
import importlib
import inspect
import itertools
import json
import os
import platform
import subprocess
import sys
import time

import numpy as np

from pacific_common.cli import different_files, output_file

BATCH_SIZES = (1, 64, 1024, 4096)
MODE_SIZES = (64, 1024, 4096)     # batch sizes of the masks / state modes and of the busy-core rows
BATCH_MODES = {"batch": "observations", "batch-masks": "masks", "batch-state": "state"}


class Timer:
    """Run ``chunk()`` (which returns the steps it made) until ``seconds`` have passed."""

    def __init__(self, seconds):
        self.seconds = seconds

    def rate(self, chunk):
        steps = 0
        start = time.perf_counter()
        while True:
            steps += chunk()
            elapsed = time.perf_counter() - start
            if elapsed >= self.seconds:
                return steps / elapsed


def aec_loop(make_env, timer, seed=0):
    """Masked random play through the AEC API; the same loop for our games and PettingZoo's."""
    env = make_env()
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)

    def chunk():
        steps = 0
        for agent in env.agent_iter():
            observation, reward, termination, truncation, info = env.last()
            if termination or truncation:   # PettingZoo's step(None) for each agent done: not a decision
                env.step(None)
                continue
            mask = observation["action_mask"]
            legal = np.flatnonzero(mask)
            env.step(int(legal[rng.integers(len(legal))]))
            steps += 1
        env.reset()
        return steps

    chunk()  # a first game outside the clock: compiles or loads the Numba functions it meets
    return timer.rate(chunk)


# ---------------------------------------------------------------------------------------------------
# Our games: every package has the same parts, so one builder measures any of them.
GAMES = {"makabana": ("makabana_env", {"num_players": 4}),
         "makemake": ("makemake_env", {"num_players": 4}),
         "maunakea": ("maunakea_env", {"num_players": 4})}


def game_parts(package_name, options):
    package = importlib.import_module(package_name)
    core = importlib.import_module(f"{package_name}.core")
    reference_game = importlib.import_module(f"{package_name}.reference").ReferenceGame
    defaults = {name: p.default for name, p in inspect.signature(package.raw_env).parameters.items()}
    variant = package.raw_env.variants[defaults["variant"]]

    def core_loop(timer):
        state = np.zeros(core.STATE_SIZE, dtype=np.int64)
        core.init(state, options["num_players"], variant, defaults["max_turns"], 0)
        started = time.perf_counter()
        core.play_random_games(state, 10)
        compile_s = time.perf_counter() - started
        n = 100_000
        return timer.rate(lambda: (core.play_random_games(state, n), n)[1]), compile_s

    def reference(timer):
        rng = np.random.default_rng(0)
        dealt = "seed" in inspect.signature(reference_game).parameters   # Mauna Kea's tiles: a new bag a game
        games = itertools.count()

        def chunk():
            seed = {"seed": next(games)} if dealt else {}
            game = reference_game(num_players=options["num_players"], **seed)
            steps = 0
            while game.phase != "over" and steps < 2000:
                legal = game.legal_actions()
                game.step(legal[rng.integers(len(legal))])
                steps += 1
            return steps

        return timer.rate(chunk)

    return {
        "aec": lambda timer: aec_loop(lambda: package.env(**options), timer),
        "aec-raw": lambda timer: aec_loop(lambda: package.raw_env(**options), timer),
        "core-loop": core_loop,
        "batch_env": lambda n, outputs="observations": package.BatchEnv(n, seed=0, outputs=outputs,
                                                                        **options),
        "reference": reference,
    }


def batch_rate(make_batch, batch_size, timer, outputs="observations"):
    env = make_batch(batch_size, outputs)
    actions = np.zeros(batch_size, dtype=np.int64)
    started = time.perf_counter()
    env.step(env.random_actions(actions))
    compile_s = time.perf_counter() - started

    def chunk():
        for _ in range(8):
            env.step(env.random_actions(actions))
        return 8 * batch_size

    return timer.rate(chunk), compile_s


# ---------------------------------------------------------------------------------------------------
# Peers
def peer_rows(timer, batch_sizes, say):
    rows = []
    # one at a time: without the chess module, connect_four (the yardstick of every ratio) was lost too
    for name, module, make in (("connect_four", "connect_four_v3", lambda m: m.env()),
                               ("chess", "chess_v6", lambda m: m.env()),
                               ("go_9x9", "go_v5", lambda m: m.env(board_size=9))):
        try:
            peer = importlib.import_module(f"pettingzoo.classic.{module}")
        except ImportError as error:
            say(f"skipped PettingZoo's {name} ({error}); install the 'bench' extra")
            continue
        rows.append(dict(game=name, implementation="pettingzoo-aec", batch_size=1,
                         steps_per_second=aec_loop(lambda peer=peer, make=make: make(peer), timer)))
    try:
        import pyspiel

        for name, spiel_name in (("connect_four", "connect_four"), ("go_9x9", "go(board_size=9)")):
            game = pyspiel.load_game(spiel_name)
            rng = np.random.default_rng(0)

            def python_chunk(game=game, rng=rng):
                state = game.new_initial_state()
                steps = 0
                while not state.is_terminal():
                    legal = state.legal_actions()
                    state.apply_action(legal[rng.integers(len(legal))])
                    steps += 1
                return steps

            rows.append(dict(game=name, implementation="openspiel-python", batch_size=1,
                             steps_per_second=timer.rate(python_chunk)))
        # evaluate_bots plays a whole game in C++ and reports only the returns, so the moves per game
        # are taken from random games replayed in Python with the same uniform bots.
        game = pyspiel.load_game("connect_four")
        lengths = []
        for seed in range(300):
            state = game.new_initial_state()
            replay_bots = [pyspiel.make_uniform_random_bot(p, 2 * seed + p) for p in range(2)]
            while not state.is_terminal():
                state.apply_action(replay_bots[state.current_player()].step(state))
            lengths.append(state.move_number())
        moves_per_game = float(np.mean(lengths))
        bots = [pyspiel.make_uniform_random_bot(p, 1234 + p) for p in range(2)]

        def cpp_chunk():
            for _ in range(20):
                pyspiel.evaluate_bots(game.new_initial_state(), bots, 0)
            return 20 * moves_per_game

        rows.append(dict(game="connect_four", implementation="openspiel-cpp", batch_size=1,
                         steps_per_second=timer.rate(cpp_chunk)))
    except ImportError as error:
        say(f"skipped OpenSpiel peers ({error}); install the 'bench' extra")
    try:
        import jax
        import pgx
        from pgx.experimental import auto_reset

        for name, env_id in (("connect_four", "connect_four"), ("go_9x9", "go_9x9")):
            env = pgx.make(env_id)
            init = jax.jit(jax.vmap(env.init))
            # Pgx's step leaves a finished game as it is; auto_reset starts a new one, as our batches do
            step = jax.jit(jax.vmap(auto_reset(env.step, env.init)))

            @jax.jit
            def random_actions(key, mask):
                logits = jax.numpy.where(mask, 0.0, -1e9)
                return jax.random.categorical(key, logits, axis=-1)

            for n in batch_sizes:
                key = jax.random.PRNGKey(0)
                keys = jax.random.split(key, n)
                state = init(keys)

                def chunk(n=n):
                    nonlocal state, key
                    for _ in range(8):
                        key, k1, k2 = jax.random.split(key, 3)
                        action = random_actions(k1, state.legal_action_mask)
                        state = step(state, action, jax.random.split(k2, n))
                    state.observation.block_until_ready()
                    return 8 * n

                chunk()  # compile
                rows.append(dict(game=name, implementation="pgx-cpu", batch_size=n,
                                 steps_per_second=timer.rate(chunk)))
    except ImportError as error:
        say(f"skipped Pgx peers ({error}); install the 'bench' extra")
    return rows


# ---------------------------------------------------------------------------------------------------
def cpu_name():
    """The processor's model name where Linux tells it, else what ``platform`` knows."""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def load_average():
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def machine():
    import numba

    info = {"python": platform.python_version(), "numpy": np.__version__, "numba": numba.__version__,
            "cores": os.cpu_count(), "numba_threads": numba.get_num_threads(),
            "platform": platform.platform(), "cpu": cpu_name(), "load_at_start": load_average()}
    for name in ("pettingzoo", "pyspiel", "pgx", "jax"):
        try:
            module = __import__(name)
            info[name] = getattr(module, "__version__", "installed")
        except ImportError:
            pass
    return info


class BusyCore:
    """Another process spinning in a Python loop for as long as the ``with`` block lasts: one core
    taken, as on a machine shared with other work."""

    def __enter__(self):
        self.process = subprocess.Popen([sys.executable, "-c", "while True: pass"])
        time.sleep(0.5)  # let the scheduler place it
        return self

    def __exit__(self, *exc):
        self.process.kill()
        self.process.wait()


def run(quick=False, say=print):
    timer = Timer(0.2 if quick else 2.0)
    batch_sizes = (1, 64) if quick else BATCH_SIZES
    mode_sizes = (64,) if quick else MODE_SIZES
    rows, compile_times = [], {}
    parts = {game: game_parts(package_name, options) for game, (package_name, options) in GAMES.items()}
    for game, game_part in parts.items():
        say(f"measuring {game} ...")
        for implementation in ("aec", "aec-raw"):
            rows.append(dict(game=game, implementation=implementation, batch_size=1,
                             steps_per_second=game_part[implementation](timer)))
        rate, compile_times[f"{game} core-loop"] = game_part["core-loop"](timer)
        rows.append(dict(game=game, implementation="core-loop", batch_size=1, steps_per_second=rate))
        for implementation, outputs in BATCH_MODES.items():
            for n in (batch_sizes if outputs == "observations" else mode_sizes):
                rate, compile_s = batch_rate(game_part["batch_env"], n, timer, outputs)
                compile_times.setdefault(f"{game} batch", compile_s)
                rows.append(dict(game=game, implementation=implementation, batch_size=n, outputs=outputs,
                                 steps_per_second=rate))
        rows.append(dict(game=game, implementation="reference", batch_size=1,
                         steps_per_second=game_part["reference"](timer)))
    say("measuring the batches with one core kept busy by another process ...")
    with BusyCore():
        for game, game_part in parts.items():
            for n in mode_sizes:
                rate, _ = batch_rate(game_part["batch_env"], n, timer)
                rows.append(dict(game=game, implementation="batch-busy", batch_size=n,
                                 outputs="observations", busy_cores=1, steps_per_second=rate))
    say("measuring peers ...")
    rows += peer_rows(timer, batch_sizes, say)
    return rows, compile_times


def time_split(rows):
    """Microseconds per game-step of the rules, the masks and the observations, per game and batch
    size, from the three batch modes of one run."""
    rate = {(r["game"], r["implementation"], r["batch_size"]): r["steps_per_second"] for r in rows}
    split = []
    for game in GAMES:
        for n in sorted({r["batch_size"] for r in rows if r["implementation"] == "batch-state"}):
            try:
                us = [1e6 / rate[game, implementation, n] for implementation in ("batch-state", "batch-masks", "batch")]
            except KeyError:
                continue
            split.append(dict(game=game, batch_size=n, rules_us=us[0], masks_us=us[1] - us[0],
                              observations_us=us[2] - us[1], total_us=us[2]))
    return split


def table(rows):
    base = next((r["steps_per_second"] for r in rows
                 if r["game"] == "connect_four" and r["implementation"] == "pettingzoo-aec"), None)
    lines = [f"{'game':<14}{'implementation':<18}{'batch':>6}{'steps/s':>14}{'µs/step':>10}"
             f"{'× PZ connect_four':>19}"]
    for r in rows:
        ratio = f"{r['steps_per_second'] / base:.2f}" if base else "n/a"
        lines.append(f"{r['game']:<14}{r['implementation']:<18}{r['batch_size']:>6}"
                     f"{r['steps_per_second']:>14,.0f}{1e6 / r['steps_per_second']:>10.3f}{ratio:>19}")
    split = time_split(rows)
    if split:
        lines += ["", "where a BatchEnv step's time goes, µs per game-step (rules include the random action "
                      "and the legality check):",
                  f"{'game':<14}{'batch':>6}{'rules':>9}{'masks':>9}{'observations':>14}{'total':>9}"]
        lines += [f"{s['game']:<14}{s['batch_size']:>6}{s['rules_us']:>9.3f}{s['masks_us']:>9.3f}"
                  f"{s['observations_us']:>14.3f}{s['total_us']:>9.3f}" for s in split]
    return "\n".join(lines)


def plot(rows, path):
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("no plot: matplotlib is not installed (it comes with the 'bench' extra)")
        return
    fig, ax = plt.subplots(figsize=(10, 5.5))
    series = {}
    for r in rows:
        series.setdefault((r["game"], r["implementation"]), []).append((r["batch_size"], r["steps_per_second"]))
    # one colour per series and a marker per implementation, so that no two series look alike
    markers = {"aec": "s", "aec-raw": "D", "core-loop": "*", "batch": "o", "batch-masks": "P",
               "batch-state": "X", "batch-busy": "h", "reference": "v",
               "pettingzoo-aec": "s", "openspiel-python": "^", "openspiel-cpp": "*", "pgx-cpu": "o"}
    colours = plt.cm.tab20(np.linspace(0, 1, max(len(series), 2)))
    for colour, ((game, impl), points) in zip(colours, sorted(series.items())):
        points.sort()
        xs, ys = zip(*points)
        ax.plot(xs, ys, marker=markers.get(impl, "o"), color=colour, markersize=7,
                linestyle="-" if len(xs) > 1 else "none", label=f"{game} {impl}")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("batch size (games stepped per call)")
    ax.set_ylabel("steps per second")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7, loc="center left", bbox_to_anchor=(1.01, 0.5))
    fig.tight_layout()
    fig.savefig(path, dpi=110, format="png")  # whatever the name ends with
    print(f"plot written to {path}")


def main(argv=None):
    parser = argparse.ArgumentParser(description="Environment throughput, side by side with peers.")
    parser.add_argument("--quick", action="store_true", help="short measurements, batch sizes 1 and 64")
    parser.add_argument("--json", metavar="PATH",
                        help="write the machine, the rows and the time split as JSON (for benchmarks.report)")
    parser.add_argument("--plot", metavar="PATH", default="benchmarks/results/throughput.png",
                        help="PNG of throughput against batch size (default: %(default)s)")
    args = parser.parse_args(argv)
    try:   # before the measurement, which takes minutes; '' is refused, not taken for "no file"
        if args.json is not None:
            output_file("--json", args.json)
        if args.plot is not None:
            output_file("--plot", args.plot, create_folder=True)   # the default's folder is made below
        different_files((("--json", args.json), ("--plot", args.plot)))   # the PNG would replace the JSON
    except ValueError as error:
        parser.error(str(error))
    info = machine()
    print("machine: " + ", ".join(f"{k}={v}" for k, v in info.items()))
    rows, compile_times = run(args.quick)
    info["load_at_end"] = load_average()
    print(table(rows))
    print("Numba compile (first call, excluded above): "
          + ", ".join(f"{k} {v:.2f}s" for k, v in compile_times.items()))
    print(f"load average (1, 5, 15 min) at the start {info['load_at_start']}, at the end {info['load_at_end']}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"machine": info, "compile_seconds": compile_times, "rows": rows,
                       "time_split": time_split(rows)}, f, indent=1)
        print(f"rows written to {args.json}")
    if args.plot:
        os.makedirs(os.path.dirname(args.plot) or ".", exist_ok=True)
        plot(rows, args.plot)
    return 0


if __name__ == "__main__":
    sys.exit(main())
