"""The measured-figures section of docs/benchmarks.md and the README's speed table, from the JSON of one
throughput run.

    python -m benchmarks.throughput --json run.json --plot docs/images/throughput.png
    python -m benchmarks.report run.json                               # print the section
    python -m benchmarks.report run.json --write docs/benchmarks.md --readme README.md

Every figure and ratio comes from that one run, so the pages cannot mix runs or be retyped wrong.
``--write`` replaces what lies between the ``<!-- report:start -->`` and ``<!-- report:end -->`` lines
of a page, ``--readme`` what lies between ``<!-- speed:start -->`` and ``<!-- speed:end -->``
(``headline``: a few figures per game).  The tests compare both pages with ``docs/benchmarks.json``.
"""
import argparse
import json
import os
import reprlib
import sys
from pathlib import Path

from pacific_common.options import is_finite

NAMES = {"makabana": "Maka Bana", "makemake": "Make Make", "maunakea": "Mauna Kea"}
START, END = "<!-- report:start -->", "<!-- report:end -->"
SPEED_START, SPEED_END = "<!-- speed:start -->", "<!-- speed:end -->"
NOISE = 0.9   # "does not fall as the batch grows": each size keeps at least 90 % of the smaller one's rate
OUTPUTS = {"batch": "observations + masks", "batch-masks": "masks only", "batch-state": "neither",
           "batch-busy": "observations + masks"}


def _status(value, target):
    if value >= target:
        return "met"
    shown = f"{100 * (1 - value / target):.0f}"   # the text decides: 0.5 rounds to "0"
    return f"missed by {shown} %" if shown != "0" else "missed by less than 1 %"


def _machine_line(m):
    versions = ", ".join(f"{label} {m[key]}" for key, label in (
        ("python", "Python"), ("numpy", "NumPy"), ("numba", "Numba"), ("pettingzoo", "PettingZoo"),
        ("pyspiel", "OpenSpiel"), ("pgx", "Pgx"), ("jax", "JAX")) if key in m)
    return (f"{m['cores']} cores ({m['cpu']}), {m['numba_threads']} Numba threads; {versions}. "
            f"Load average (1, 5, 15 min) {m['load_at_start']} at the start of the run and "
            f"{m['load_at_end']} at its end.")


def check_rates(run):
    """ValueError for a row whose rate no run measures (NaN, 0, -5, ``true``), which the tables
    would print as "nan×" or "missed by 33 %"."""
    for i, row in enumerate(run["rows"]):
        rate = row["steps_per_second"]
        if isinstance(rate, bool) or not isinstance(rate, (int, float)) or not is_finite(rate) or rate <= 0:
            raise ValueError(f"row {i} ({row.get('game')}, {row.get('implementation')}) has steps_per_second "
                             f"{reprlib.repr(rate)}, not a finite number above 0")


# The rows every table reads, per game: (implementation, batch size); "batch" at the run's largest size.
NEEDED = (("aec", 1), ("aec-raw", 1), ("core-loop", 1), ("reference", 1), ("batch", None))


def check_rows(run):
    """ValueError naming the first row a table needs that the run lacks (a run cut short, or edited)."""
    have = {(r["game"], r["implementation"], r["batch_size"]) for r in run["rows"]}
    sizes = [n for (_, i, n) in have if i == "batch"]
    if not sizes:
        raise ValueError("it has no batch rows")
    for game in NAMES:
        for implementation, n in NEEDED:
            if (game, implementation, max(sizes) if n is None else n) not in have:
                size = f" at {max(sizes)} games" if n is None else ""
                raise ValueError(f"it has no {implementation!r} row for {game}{size}")


def section(run):
    rows = run["rows"]
    rate = {(r["game"], r["implementation"], r["batch_size"]): r["steps_per_second"] for r in rows}
    c4 = rate.get(("connect_four", "pettingzoo-aec", 1))
    pgx = rate.get(("connect_four", "pgx-cpu", 4096))
    spiel = rate.get(("connect_four", "openspiel-cpp", 1))
    biggest = max(n for (_, i, n) in rate if i == "batch")
    yardstick = (f"Ratios are to PettingZoo `connect_four_v3` ({c4:,.0f} steps/s in this run) unless stated."
                 if c4 else "PettingZoo's connect_four was not measured (it needs the bench extra), so no "
                            "ratios to it.")
    lines = [
        f"One run of `python -m benchmarks.throughput --json PATH`, tables written by "
        f"`python -m benchmarks.report PATH`. Machine: {_machine_line(run['machine'])} Random legal play "
        f"with resets, 4 players. {yardstick}",
        "",
        "| game | implementation | writes | steps/s | ratio | target | |",
        "|---|---|---|---:|---:|---|---|",
    ]

    def row(game, what, writes, steps, ratio="", target="—", status=""):
        steps = f"{steps:,.0f}" if isinstance(steps, (int, float)) else steps
        lines.append(f"| {NAMES[game]} | {what} | {writes} | {steps} | {ratio} | {target} | {status} |")

    for game in NAMES:
        get = lambda implementation, n=1: rate.get((game, implementation, n))  # noqa: E731
        aec, raw, core = get("aec"), get("aec-raw"), get("core-loop")
        if c4:
            row(game, "`env()` AEC loop", "observation + mask", aec, f"{aec / c4:.2f}×", "≥ 4×",
                _status(aec / c4, 4))
            row(game, "`raw_env` AEC loop", "observation + mask", raw, f"{raw / c4:.2f}×")
        else:  # the peer needs the bench extra: the figures without their ratio
            row(game, "`env()` AEC loop", "observation + mask", aec)
            row(game, "`raw_env` AEC loop", "observation + mask", raw)
        if spiel:
            row(game, "core, random play in Numba, 1 thread", "—", core, f"{core / spiel:.2f}× OpenSpiel C++ c4")
        else:
            row(game, "core, random play in Numba, 1 thread", "—", core)
        for implementation in ("batch", "batch-masks", "batch-state"):
            steps = get(implementation, biggest)
            if steps is None:
                continue
            what = f"`BatchEnv`, {biggest} games"
            if game == "maunakea":
                row(game, what, OUTPUTS[implementation], steps, f"{steps / core:.2f}× its core loop",
                    "≥ 1× its core loop", _status(steps / core, 1))
            elif pgx and biggest == 4096:
                row(game, what, OUTPUTS[implementation], steps, f"{steps / pgx:.2f}× Pgx c4 ({pgx:,.0f})",
                    "≥ 1.5× Pgx c4", _status(steps / pgx, 1.5))
            elif biggest == 4096:   # the target stays on the page, unjudged: its yardstick needs the bench extra
                row(game, what, OUTPUTS[implementation], steps, "", "≥ 1.5× Pgx c4",
                    "not judged: Pgx not measured (bench extra)")
            else:
                row(game, what, OUTPUTS[implementation], steps)
        for implementation, label in (("batch", "`BatchEnv` 64 / 1024 / 4096 games"),
                                      ("batch-busy", "the same, one core kept busy")):
            sizes = [n for n in (64, 1024, 4096) if get(implementation, n)]
            if len(sizes) < 2:
                continue
            figures = [get(implementation, n) for n in sizes]
            worst = min(later / earlier for earlier, later in zip(figures, figures[1:]))
            row(game, label, OUTPUTS[implementation], " / ".join(f"{f:,.0f}" for f in figures),
                f"{worst:.2f}× (worst step up)", f"each ≥ {NOISE:.0%} of the smaller",
                _status(worst, NOISE))
        reference = get("reference")
        steps = get("batch", biggest)
        row(game, f"`BatchEnv` {biggest} / plain-Python reference ({reference:,.0f})", "observations + masks",
            "", f"{steps / reference:.0f}×", "≥ 300×", _status(steps / reference, 300))

    if run.get("time_split"):
        lines += ["", "Where a `BatchEnv` step's time goes, in µs per game-step, from the three output modes "
                      "of the same run (rules = `outputs=\"state\"`, including the random action and the "
                      "legality check; masks and observations = the differences):", "",
                  "| game | games | rules | masks | observations | total |", "|---|---:|---:|---:|---:|---:|"]
        for s in run["time_split"]:
            lines.append(f"| {NAMES[s['game']]} | {s['batch_size']} | {s['rules_us']:.3f} | {s['masks_us']:.3f} | "
                         f"{s['observations_us']:.3f} | {s['total_us']:.3f} |")
    return "\n".join(lines)


def headline(run):
    """The README's speed table: per game, ``env()`` against PettingZoo's connect_four and the largest
    batch against Pgx's connect_four (Mauna Kea: against its own core loop), from the same run."""
    rate = {(r["game"], r["implementation"], r["batch_size"]): r["steps_per_second"] for r in run["rows"]}
    c4 = rate.get(("connect_four", "pettingzoo-aec", 1))
    pgx = rate.get(("connect_four", "pgx-cpu", 4096))
    biggest = max(n for (_, i, n) in rate if i == "batch")

    def millions(x):
        return f"{x / 1e6:.2f} M"

    aec, batch, ratio = [], [], []
    for game in NAMES:
        aec.append(f"{rate[game, 'aec', 1] / c4:.1f}×" if c4 else f"{rate[game, 'aec', 1]:,.0f}")
        full, masks = rate[game, "batch", biggest], rate.get((game, "batch-masks", biggest))
        batch.append(millions(full) + (f" / {millions(masks)}" if masks else ""))
        if game == "maunakea":
            ratio.append(f"{full / rate[game, 'core-loop', 1]:.2f}× its core loop (target ≥ 1×)")
        elif pgx and biggest == 4096:
            ratio.append(f"{full / pgx:.2f}× Pgx (target ≥ 1.5×)")
        else:
            ratio.append("—")
    load = run["machine"].get("load_at_start", "?")
    yardstick = "ratio to PettingZoo connect_four (target ≥ 4×)" if c4 else "(PettingZoo connect_four not measured)"
    lines = [
        f"| one run of `python -m benchmarks.throughput` ({run['machine']['cores']} cores, load {load} at its "
        f"start; [benchmarks](docs/benchmarks.md)) | {' | '.join(NAMES.values())} |",
        "|---|---|---|---|",
        f"| `env()` AEC steps/s, {yardstick} | {' | '.join(aec)} |",
        f"| `BatchEnv`, {biggest} games, steps/s, observations + masks / masks only | {' | '.join(batch)} |",
        f"| the same, observations + masks, as a ratio to its target's yardstick (Pgx connect_four at 4096 "
        f"games: {millions(pgx) if pgx else 'not measured'}) | {' | '.join(ratio)} |",
    ]
    return "\n".join(lines)


def check_page(option, path, start=START, end=END):
    """ValueError naming ``option`` unless ``path`` is a writeable text file with the ``start`` … ``end``
    lines: checked for every page before any is written, and before a benchmark measures anything."""
    if not str(path):   # Path('') is '.', a folder: "cannot be read (Is a directory)" said nothing useful
        raise ValueError(f"{option} is empty; give the page to write into")
    try:
        page = Path(path).read_text()
    except (OSError, UnicodeDecodeError) as error:
        raise ValueError(f"{option} {str(path)!r} cannot be read ({error})") from None
    if start not in page or end not in page:
        raise ValueError(f"{option} {str(path)!r} has no {start} … {end} lines to replace")
    if not os.access(path, os.W_OK):
        raise ValueError(f"{option} {str(path)!r} cannot be written (no permission)")


def write(path, text, start=START, end=END):
    with open(path) as f:
        page = f.read()
    if start not in page or end not in page:
        raise SystemExit(f"{path} has no {start} … {end} lines to replace")
    head, rest = page.split(start, 1)
    _, tail = rest.split(end, 1)
    with open(path, "w") as f:
        f.write(f"{head}{start}\n{text}\n{end}{tail}")


def main(argv=None):
    parser = argparse.ArgumentParser(description="docs/benchmarks.md's tables and the README's speed table "
                                                 "from a throughput run's JSON")
    parser.add_argument("json", help="the file written by python -m benchmarks.throughput --json")
    parser.add_argument("--write", metavar="PAGE", help="replace the section between the report markers in PAGE")
    parser.add_argument("--readme", metavar="PAGE", help="replace the section between the speed markers in PAGE "
                                                         "with the headline table")
    args = parser.parse_args(argv)
    try:
        for option, page, start, end in (("--write", args.write, START, END),
                                         ("--readme", args.readme, SPEED_START, SPEED_END)):
            if page is not None:
                check_page(option, page, start, end)
        try:
            with open(args.json) as f:
                run = json.load(f)
        except (OSError, ValueError, RecursionError) as error:   # RecursionError: nested too deeply
            raise ValueError(f"{args.json!r} cannot be read as the JSON of a benchmarks.throughput run "
                             f"({error})") from None
    except (OSError, ValueError) as error:
        parser.error(str(error))
    try:
        check_rates(run)
        check_rows(run)
        text = section(run)
        headline_text = headline(run) if args.readme else None
    except (KeyError, TypeError, AttributeError, IndexError, ZeroDivisionError, ValueError) as error:
        # ValueError: max() of no rows, where a run has its batch rows
        parser.error(f"{args.json!r} is not the JSON of a benchmarks.throughput run "
                     f"({type(error).__name__}: {error})")
    if args.write:
        write(args.write, text)
    if args.readme:
        write(args.readme, headline_text, SPEED_START, SPEED_END)
    if not (args.write or args.readme):
        print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
