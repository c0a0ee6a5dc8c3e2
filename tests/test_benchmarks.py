"""The benchmark suite runs end to end in --quick mode (figures are never asserted: machines are noisy)."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def refusal(module, *options):
    """What a benchmark command says when given bad options (argparse's exit status 2)."""
    bad = subprocess.run([sys.executable, "-m", module, *options], cwd=ROOT, capture_output=True, text=True,
                         timeout=60)
    assert bad.returncode == 2, bad.stderr
    return bad.stderr


def test_quick_benchmark_writes_rows_for_every_implementation(tmp_path):
    out = tmp_path / "rows.json"
    result = subprocess.run([sys.executable, "-m", "benchmarks.throughput", "--quick", "--json", str(out),
                             "--plot", str(tmp_path / "plot.png")],
                            cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    run = json.loads(out.read_text())
    rows = run["rows"]
    ours = {(r["game"], r["implementation"], r["batch_size"]) for r in rows}
    for implementation, batch_size in (("aec", 1), ("core-loop", 1), ("batch", 1), ("batch", 64),
                                       ("batch-masks", 64), ("batch-state", 64), ("batch-busy", 64),
                                       ("reference", 1)):
        assert ("makabana", implementation, batch_size) in ours
    assert all(r["steps_per_second"] > 0 for r in rows)
    assert {s["game"] for s in run["time_split"]} == {"makabana", "makemake", "maunakea"}
    assert "load_at_start" in run["machine"] and "load_at_end" in run["machine"]
    assert "steps/s" in result.stdout and "machine:" in result.stdout and "where a BatchEnv step" in result.stdout
    # the docs' tables come from that JSON
    report = subprocess.run([sys.executable, "-m", "benchmarks.report", str(out)],
                            cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert report.returncode == 0, report.stderr
    assert "| Maka Bana | `env()` AEC loop |" in report.stdout and "Load average" in report.stdout
    # --write replaces the page's report section, --readme the README's speed section, one call for both
    page, readme = tmp_path / "benchmarks.md", tmp_path / "README.md"
    page.write_text("intro\n\n<!-- report:start -->\nold\n<!-- report:end -->\n\nafter\n")
    readme.write_text("top\n<!-- speed:start -->\nold\n<!-- speed:end -->\nbottom\n")
    subprocess.run([sys.executable, "-m", "benchmarks.report", str(out), "--write", str(page), "--readme",
                    str(readme)], cwd=ROOT, check=True, timeout=60)
    for path, first, last, shown in ((page, "intro\n", "after\n", report.stdout.strip()),
                                     (readme, "top\n", "bottom\n", "| `env()` AEC steps/s")):
        text = path.read_text()
        assert text.startswith(first) and text.endswith(last) and "old" not in text and shown in text
    assert "Maka Bana | Make Make | Mauna Kea" in readme.read_text()


def test_the_pages_speed_tables_are_those_of_the_kept_run():
    """README.md and docs/benchmarks.md show what ``benchmarks.report`` writes from docs/benchmarks.json,
    so that no figure there is retyped or left from another run."""
    from benchmarks.report import END, SPEED_END, SPEED_START, START, headline, section

    run = json.loads((ROOT / "docs" / "benchmarks.json").read_text())
    for page, start, end, text in (("docs/benchmarks.md", START, END, section(run)),
                                   ("README.md", SPEED_START, SPEED_END, headline(run))):
        shown = (ROOT / page).read_text().split(start, 1)[1].split(end, 1)[0]
        assert shown.strip() == text.strip(), f"{page} is not the report of docs/benchmarks.json"
    assert (ROOT / "docs" / "images" / "throughput.png").stat().st_size > 10_000


def test_search_speed_reports_every_game(tmp_path):
    out = tmp_path / "search.json"
    result = subprocess.run([sys.executable, "-m", "benchmarks.search_speed", "--positions", "2", "--leaves", "8",
                             "--json", str(out)], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    run = json.loads(out.read_text())
    rows = run["rows"]
    # the guide's forward pass, one leaf a call in Numba and batched in numpy, for both policy networks;
    # no product of more than the 8 leaves (its "256 leaves a product" timed 8 under that name)
    assert {(r["network"], r["forward_pass"]) for r in run["network_rows"]} == {
        (f"shipped {g}", how) for g in ("makabana", "makemake")
        for how in ("Numba, one leaf a call", "numpy, 1 leaf a product")}
    assert all(r["microseconds_per_leaf"] > 0 for r in run["network_rows"])
    assert {r["search"] for r in rows} >= {f"agents.search.mcts on {g}" for g in (
        "makabana", "makabana mao", "makemake", "maunakea", "maunakea advanced")}
    assert all(r["simulations_per_second"] > 0 for r in rows)
    assert "--positions must be at least 2" in refusal("benchmarks.search_speed", "--positions", "1")
    assert "--leaves must be a positive integer" in refusal("benchmarks.search_speed", "--leaves", "0")


def test_soak_plays_every_game_and_counts_no_violation(tmp_path):
    """Issue 23, item 7: the soak run validates every row of random games of every game, variant
    and player count; the suite runs a small N."""
    out = tmp_path / "soak.json"
    result = subprocess.run([sys.executable, "-m", "benchmarks.soak", "--games", "60", "--json", str(out)],
                            cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert result.returncode == 0, result.stdout + result.stderr
    rows = {r["game"]: r for r in json.loads(out.read_text())}
    assert set(rows) == {"makabana", "makemake", "maunakea"}
    for r in rows.values():
        assert r["games"] >= 60 and r["steps"] > r["games"] and r["violations"] == 0


def test_soak_refuses_seeds_its_games_would_run_past(capsys):
    """``--games`` is rounded up to as many games for every setup; the seeds of those extra games
    overflowed int64 inside Numba."""
    from benchmarks import soak
    played = soak.games_played("makabana", 1)
    assert played == len(soak._setups("makabana")) > 1
    for argv, message in ((["--seed", str(2**63 - 1 - 1)], f"from 0 to {2**63 - 1 - played}"),
                          (["--games", "9" * 23], "--games: must be an integer from 1 to"),
                          (["--seed", "-1"], "--seed: must be an integer from 0 to")):
        with pytest.raises(SystemExit):
            soak.main(["--games", "1", "--game", "makabana"] + argv)
        assert message in capsys.readouterr().err


def test_soak_reports_a_violation(monkeypatch):
    """A validator that rejects a row is counted, with the seed, step and field of the first one."""
    import numpy as np
    from numba import njit

    from benchmarks import soak
    from makemake_env import kernels

    @njit
    def rejects_after_ten_turns(state):
        return (1, kernels.TURN) if state[kernels.TURN] > 10 else (0, 0)

    class Patched:
        def __getattr__(self, name):
            return rejects_after_ten_turns if name == "validate" else getattr(kernels, name)

    real = soak._modules
    monkeypatch.setattr(soak, "_modules", lambda game: (real(game)[0], Patched()))
    r = soak.soak_game("makemake", 3, seed=1)
    assert r["violations"] == 3 and r["first_violation"]["field"] == "TURN"
    assert r["first_violation"]["step"] > 10 and np.isfinite(r["seconds"])


def test_update_speed_times_every_setting_of_the_main_jobs_learner(tmp_path):
    pytest.importorskip("sb3_contrib")
    out = tmp_path / "update.json"
    result = subprocess.run([sys.executable, "-m", "benchmarks.update_speed", "--games", "makemake", "--repeats", "1",
                             "--json", str(out)], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    rows = json.loads(out.read_text())
    settings = [(r["knob"], r["batch_size"], r["epochs"], r["net"], r["update_threads"]) for r in rows]
    # the main job's setting first, then each knob changed alone
    assert settings == [("default", 1024, 4, 128, 2), ("batch", 256, 4, 128, 2), ("batch", 512, 4, 128, 2),
                        ("batch", 2048, 4, 128, 2), ("epochs", 1024, 2, 128, 2), ("epochs", 1024, 8, 128, 2),
                        ("threads", 1024, 4, 128, 1), ("net", 1024, 4, 64, 2), ("net", 1024, 4, 256, 2)]
    assert all(r["update_steps_per_second"] > 0 and r["policy"] == "mlp" for r in rows)
    assert "--repeats must be a positive integer" in refusal("benchmarks.update_speed", "--repeats", "0")
    assert "--games takes names from" in refusal("benchmarks.update_speed", "--games", "chess")


def test_training_speed_times_both_paths_side_by_side(tmp_path):
    """One quick run for one game: the old path and the batched one, rollout and whole iterations, and
    the batched rollout's network share (issue 21's JSON rows)."""
    pytest.importorskip("sb3_contrib")
    out = tmp_path / "training.json"
    page = tmp_path / "page.md"
    page.write_text("top\n<!-- training-speed:start -->\nstale\n<!-- training-speed:end -->\nbottom\n")
    result = subprocess.run([sys.executable, "-m", "benchmarks.training_speed", "--quick", "--games", "makemake",
                             "--repeats", "2", "--json", str(out), "--write", str(page)],
                            cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    rows = json.loads(out.read_text())
    assert sorted((r["game"], r["path"], r["phase"], r["repeat"]) for r in rows) == [
        ("makemake", path, phase, repeat) for path in ("batched", "per-game") for phase in ("ppo", "rollout")
        for repeat in (0, 1)]
    assert all(r["learner_steps_per_second"] > 0 for r in rows)
    shares = [r["network_share"] for r in rows if (r["path"], r["phase"]) == ("batched", "rollout")]
    assert len(shares) == 2 and all(0 < share < 1 for share in shares)
    assert all("network_share" not in r for r in rows if (r["path"], r["phase"]) != ("batched", "rollout"))
    assert all("load_at_start" in r["meta"] and "load_at_end" in r["meta"] for r in rows)
    assert "targets over 2 repeat(s)" in result.stdout
    # the page's table is the run's, between its markers, the rest of the page kept
    text = page.read_text()
    assert text.startswith("top\n") and text.endswith("bottom\n") and "stale" not in text
    assert "| batched rollout against the old (target ≥ 4×) |" in text and "2 repeats" in text
    again = subprocess.run([sys.executable, "-m", "benchmarks.training_speed", "--report", str(out)],
                           cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert again.returncode == 0 and "targets over 2 repeat(s)" in again.stdout, again.stderr
    assert "--games takes names from" in refusal("benchmarks.training_speed", "--games", "chess")
    assert "--envs must be a positive integer" in refusal("benchmarks.training_speed", "--envs", "0")
    assert "--repeats: must be an integer from 1 to 100, got '0'" in refusal("benchmarks.training_speed",
                                                                             "--repeats", "0")
    assert "--report takes the JSON a run wrote" in refusal("benchmarks.training_speed", "--report",
                                                            str(tmp_path / "missing.json"))
    (tmp_path / "other.json").write_text('{"rows": []}')
    assert "--report takes the JSON a run wrote" in refusal("benchmarks.training_speed", "--report",
                                                            str(tmp_path / "other.json"))


def test_training_speed_summary_takes_medians_of_paired_ratios():
    """Each repeat's ratio pairs the two paths measured in that repeat; the table shows the median of
    those ratios, the lowest and the highest, and counts the repeats that met each target."""
    from benchmarks.training_speed import summary, summary_table

    def rows(repeat, old, new, share):
        common = dict(game="makemake", repeat=repeat, envs=32, n_steps=64, steps=2048)
        return [dict(common, path="per-game", phase="rollout", learner_steps_per_second=old),
                dict(common, path="batched", phase="rollout", learner_steps_per_second=new, network_share=share),
                dict(common, path="per-game", phase="ppo", learner_steps_per_second=old / 2, update_seconds=1.0),
                dict(common, path="batched", phase="ppo", learner_steps_per_second=new / 2, update_seconds=1.0)]

    run = rows(0, 1000, 5000, 0.9) + rows(1, 2000, 4000, 0.5) + rows(2, 1000, 3000, 0.86)
    s = summary(run)["makemake"]
    assert s["repeats"] == 3 and s["rollout"] == [5.0, 2.0, 3.0] and s["network_share"] == [0.9, 0.5, 0.86]
    table = summary_table(run)
    assert "3.0× [2.0×, 5.0×]: missed, 1 of 3" in table
    assert "0.86 [0.50, 0.90]: met, 2 of 3" in table


def test_the_pages_training_speed_tables_are_those_of_the_kept_run():
    """README.md and docs/training.md show the table ``benchmarks.training_speed`` writes from
    docs/training_speed.json."""
    from benchmarks.training_speed import TABLE_END, TABLE_START, summary_table

    text = summary_table(json.loads((ROOT / "docs" / "training_speed.json").read_text()))
    for page in ("README.md", "docs/training.md"):
        shown = (ROOT / page).read_text().split(TABLE_START, 1)[1].split(TABLE_END, 1)[0]
        assert shown.strip() == text.strip(), f"{page} is not the table of docs/training_speed.json"


@pytest.mark.parametrize("module,options,words", [
    # each of these measured for seconds to minutes (a soak of a million games), then failed
    ("benchmarks.throughput", ["--json", "/nonexistent/x.json"], "--json '/nonexistent/x.json': the folder"),
    ("benchmarks.throughput", ["--plot", "/tmp"], "--plot '/tmp' is a folder"),
    ("benchmarks.search_speed", ["--json", "/nonexistent/x.json"], "the folder '/nonexistent' does not exist"),
    ("benchmarks.update_speed", ["--json", "/nonexistent/x.json"], "the folder '/nonexistent' does not exist"),
    ("benchmarks.update_speed", ["--seed", "5000000000"], "--seed must be an integer from 0 to 4294967295"),
    ("benchmarks.training_speed", ["--json", "/nonexistent/x.json"], "the folder '/nonexistent' does not exist"),
    ("benchmarks.training_speed", ["--write", "pyproject.toml"], "has no <!-- training-speed:start -->"),
    ("benchmarks.training_speed", ["--seed", "5000000000"], "--seed must be an integer from 0 to 4294967295"),
    ("benchmarks.soak", ["--json", "/tmp"], "--json '/tmp' is a folder"),
    ("benchmarks.soak", ["--seed", "99999999999999999999"], "argument --seed: must be an integer from 0 to"),
    ("benchmarks.maunakea_endings", ["--games", "0"], "--games: must be an integer from 1"),
    ("benchmarks.maunakea_endings", ["--max-turns", "-7"], "--max-turns: must be an integer from 1"),
    ("benchmarks.report", ["/nonexistent.json"], "cannot be read as the JSON of a benchmarks.throughput run"),
    ("benchmarks.report", ["docs/training_speed.json"], "is not the JSON of a benchmarks.throughput run"),
    ("benchmarks.report", ["docs/benchmarks.json", "--write", "pyproject.toml"], "has no <!-- report:start -->"),
    ("makabana_env.demo", ["--players", "1"], "--players: must be an integer from 2 to 5"),
    ("maunakea_env.demo", ["--seed", "-1"], "--seed: must be an integer from 0"),
])
def test_outputs_and_numbers_are_checked_before_anything_is_measured(module, options, words):
    assert words in refusal(module, *options)


def test_the_report_refuses_a_json_nested_too_deeply_or_without_rows(tmp_path):
    deep, empty = tmp_path / "deep.json", tmp_path / "empty.json"
    deep.write_text("[" * 200_000 + "]" * 200_000)   # was a RecursionError traceback
    empty.write_text('{"rows": []}')                 # was "max() arg is an empty sequence"
    assert "cannot be read as the JSON of a benchmarks.throughput run" in refusal("benchmarks.report", str(deep))
    assert "is not the JSON of a benchmarks.throughput run" in refusal("benchmarks.report", str(empty))


def test_each_pettingzoo_peer_is_measured_without_the_others(monkeypatch):
    """connect_four is the yardstick of every ratio: a missing chess module skipped it too."""
    import types

    import makemake_env
    from benchmarks import throughput
    stand_in = types.ModuleType("pettingzoo.classic.connect_four_v3")
    stand_in.env = makemake_env.env   # any AEC environment will do for the loop
    monkeypatch.setitem(sys.modules, "pettingzoo.classic.connect_four_v3", stand_in)
    for missing in ("chess_v6", "go_v5", "pyspiel", "pgx"):   # None in sys.modules: "No module named ..."
        monkeypatch.setitem(sys.modules, missing if "_v" not in missing else f"pettingzoo.classic.{missing}", None)
    said = []
    rows = throughput.peer_rows(throughput.Timer(0.05), [1], said.append)
    assert [(r["game"], r["implementation"]) for r in rows] == [("connect_four", "pettingzoo-aec")]
    assert rows[0]["steps_per_second"] > 0
    assert any("skipped PettingZoo's chess" in line for line in said)
    assert any("skipped PettingZoo's go_9x9" in line for line in said)


def refused_here(main, capsys, *options):
    """``refusal`` in this process, for a command checked many times over."""
    with pytest.raises(SystemExit) as stop:
        main(list(options))
    assert stop.value.code == 2
    return capsys.readouterr().err


def test_training_speed_refuses_what_it_cannot_use(tmp_path, capsys):
    """Digits in other scripts, a repeat count with no end, --json over a --write page, options --report
    would drop, and rows no run writes: one line each, exit 2, nothing measured or written."""
    from benchmarks.training_speed import main

    def refused(*options):
        return refused_here(main, capsys, *options)

    page = tmp_path / "p.md"
    page.write_text("x\n<!-- training-speed:start -->\nold\n<!-- training-speed:end -->\n")
    assert "written in the digits 0-9" in refused("--repeats", "١")
    assert "must be an integer from 1 to 100, got '101'" in refused("--repeats", "101")
    assert "written in the digits 0-9" in refused("--seed", "٣")
    # agents.train would refuse the rollout once measuring began, with its own usage line
    assert "--envs must be at most 4096 (agents.train's rollout of at most 262,144 steps" in refused("--envs", "5000")
    assert "name the same file" in refused("--json", str(page), "--write", str(page))
    assert page.read_text().startswith("x\n")
    assert "--json is empty" in refused("--json", "")
    assert "--write is empty" in refused("--write", "")
    rows = json.loads((ROOT / "docs" / "training_speed.json").read_text())
    good = tmp_path / "rows.json"
    good.write_text(json.dumps(rows))
    assert "--report measures nothing, so --json, --seed would do nothing" in refused(
        "--report", str(good), "--json", str(tmp_path / "o.json"), "--seed", "1")
    for key, value, said in (("update_seconds", 0, "update_seconds 0; it must be a finite number above 0"),
                             ("network_share", "abc", "network_share 'abc'; it must be a number from 0 to 1"),
                             ("game", "foo", "game 'foo'; it must be one of makabana"),
                             ("envs", None, "envs None; it must be a whole number of at least 1")):
        bad = tmp_path / f"{key}.json"
        bad.write_text(json.dumps([dict(r, **{key: value}) if key in r else r for r in rows]))
        assert said in refused("--report", str(bad), "--write", str(page))
    assert page.read_text().startswith("x\n")
    bad.write_text(json.dumps(rows[:-1]))
    assert "has no batched ppo row" in refused("--report", str(bad))


def test_report_refuses_rates_no_run_measures(tmp_path, capsys):
    """NaN, 0, -5 and true went into the tables as "nan×" and "missed by 33 %"."""
    from benchmarks.report import main
    run = json.loads((ROOT / "docs" / "benchmarks.json").read_text())
    for rate in (float("nan"), -5, True, "fast", 0):
        bad = tmp_path / "run.json"
        bad.write_text(json.dumps(dict(run, rows=[dict(r, steps_per_second=rate) for r in run["rows"]])))
        assert "not a finite number above 0" in refused_here(main, capsys, str(bad))


def test_soak_refuses_an_empty_json_path():
    assert "--json is empty; give the path of the file to write" in refusal("benchmarks.soak", "--json", "")


def test_a_ratio_just_under_its_target_is_not_shown_as_reaching_it():
    """3.97 printed as "4.0×" beside "missed", and 0.8996 of a 90 % line as "missed by 0 %"."""
    from benchmarks.report import _status
    from benchmarks.training_speed import summary_table

    def rows(repeat, old, new):
        common = dict(game="makemake", repeat=repeat, envs=32, n_steps=64, steps=2048)
        return [dict(common, path="per-game", phase="rollout", learner_steps_per_second=old),
                dict(common, path="batched", phase="rollout", learner_steps_per_second=new, network_share=0.849),
                dict(common, path="per-game", phase="ppo", learner_steps_per_second=old, update_seconds=1.0),
                dict(common, path="batched", phase="ppo", learner_steps_per_second=3 * old, update_seconds=1.0)]

    table = summary_table(rows(0, 1000, 3970))
    assert "3.97×: missed" in table and "0.849: missed" in table and "3.0×: met" in table
    assert "3.9996×: missed" in summary_table(rows(0, 1000, 3999.6))   # as many decimals as it takes
    assert "| 4.0×: met" in summary_table(rows(0, 1000, 4000))
    assert _status(0.8996, 0.9) == "missed by less than 1 %" and _status(0.5, 1) == "missed by 50 %"
    assert _status(0.9, 0.9) == "met"


def test_the_report_names_a_row_the_run_lacks_and_keeps_a_target_it_cannot_judge(tmp_path, capsys):
    """A run without the reference rows was a TypeError about NoneType's format; one without Pgx lost
    the batch targets of Maka Bana and Make Make without a word."""
    from benchmarks.report import headline, main, section
    run = json.loads((ROOT / "docs" / "benchmarks.json").read_text())
    bad = tmp_path / "run.json"
    bad.write_text(json.dumps(dict(run, rows=[r for r in run["rows"] if r["implementation"] != "reference"])))
    assert "it has no 'reference' row for makabana" in refused_here(main, capsys, str(bad))
    bad.write_text(json.dumps(dict(run, rows=[r for r in run["rows"]
                                              if not (r["game"] == "makemake" and r["batch_size"] == 4096)])))
    assert "it has no 'batch' row for makemake at 4096 games" in refused_here(main, capsys, str(bad))
    peers = {"pettingzoo-aec", "pgx-cpu", "openspiel-cpp", "openspiel-python"}
    alone = dict(run, rows=[r for r in run["rows"] if r["implementation"] not in peers])
    text = section(alone)
    assert text.count("≥ 1.5× Pgx c4 | not judged: Pgx not measured (bench extra)") == 6
    assert text.startswith("One run of") and "Random legal play with resets" in text
    assert "connect_four was not measured" in text
    assert "`env()` AEC steps/s, (PettingZoo connect_four not measured)" in headline(alone)


def test_the_aec_loop_counts_decisions_not_the_steps_of_finished_agents():
    """PettingZoo asks step(None) of each agent once its game is over: those are not decisions."""
    from benchmarks.throughput import Timer, aec_loop
    from makemake_env import raw_env

    class Counting:
        """raw_env writing down, at each reset, the actions of the game before: (decisions, Nones)."""

        def __init__(self):
            self.env, self.games, self.actions, self.nones = raw_env(num_players=2, max_turns=40), [], 0, 0

        def __getattr__(self, name):
            return getattr(self.env, name)

        def reset(self, **kwargs):
            self.games.append((self.actions, self.nones))
            self.actions = self.nones = 0
            self.env.reset(**kwargs)

        def step(self, action):
            self.actions += action is not None
            self.nones += action is None
            self.env.step(action)

    env, counts = Counting(), []
    timer = Timer(0.0)
    timer.rate = lambda chunk: counts.append(chunk()) or 1.0   # one timed game
    aec_loop(lambda: env, timer)
    (_, _), (_, untimed_nones), (timed, timed_nones) = env.games   # the first reset, the untimed game, the timed one
    assert untimed_nones == timed_nones == 2 and timed > 0 and counts == [timed]
