"""Issue 23 item 4 and issue 25 item 3: the command lines ``agents.tournament`` and ``agents.play``.
A tournament of searches runs for hours (issue 22's 400-game measurements), so ``--json`` is written as
it goes and ``--resume`` continues it.

- Output paths are checked before any game is played; a plot or JSON is written only where asked, to
  exactly the path given; errors name the option.
- Every numeric option is checked as it is read, and its error names it (``agents.play --seed -3``).
- A file given as an agent that is not one says what was expected and what was found (it said "needs
  sb3_contrib").
- ``--record`` writes game records that play back.
- A search's settings in its name (``mcts:20@c=1``) reach the search, and the table names them.
- A tournament stopped by SIGTERM writes the games it finished and stops its workers; the workers of
  a tournament killed outright stop within seconds, and so do those of ``agents.workers.pool_map``.
- A script that starts workers when imported (no ``__main__`` guard) fails at once and says why,
  instead of having its workers fail and be replaced for ever.
"""
import io
import json
import os
import signal
import subprocess
import sys
import threading
import time
import zipfile
from pathlib import Path

import numpy as np
import pytest

from agents.arena import play as play_module
from agents.arena import tournament
from agents.games import game_info
from agents.registry import make_agent
from agents.search.mcts import MCTSAgent
from agents.workers import pool_map
from pacific_common.cli import name_list
from pacific_common.record import load, play_back

SMALL = ["--game", "makemake", "--players", "2", "--agents", "random,random", "--games", "4", "--workers", "1",
         "--max-turns", "8"]


def fails(main, argv, capsys):
    """The message of the argparse error ``main(argv)`` ends with."""
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    return capsys.readouterr().err


def refuse(*args, **kwargs):
    raise AssertionError("a game was played before the options were checked")


@pytest.fixture
def no_games(monkeypatch):
    """Any game played fails the test: the checks must come first."""
    monkeypatch.setattr(tournament, "play_game", refuse)
    monkeypatch.setattr(play_module, "play_game", refuse)


@pytest.mark.parametrize("option", ["--plot", "--json"])
def test_outputs_in_a_missing_folder_fail_before_any_game(tmp_path, capsys, no_games, option):
    """Issue 23: "--plot or --json pointing into a missing folder fails with a traceback after every
    game has run, and the results are lost"."""
    message = fails(tournament.main, SMALL + [option, str(tmp_path / "missing" / "out")], capsys)
    assert option in message and "does not exist" in message
    message = fails(tournament.main, SMALL + [option, str(tmp_path)], capsys)
    assert option in message and "is a folder" in message


def test_record_folder_that_is_a_file_fails_before_any_game(tmp_path, capsys, no_games):
    (tmp_path / "taken").write_text("x")
    message = fails(tournament.main, SMALL + ["--record", str(tmp_path / "taken")], capsys)
    assert "--record" in message and "is a file" in message



@pytest.mark.parametrize("extra, words", [
    (["--json", "{d}/x.out", "--plot", "{d}/x.out"], "--json '{d}/x.out' and --plot '{d}/x.out' name the same file"),
    (["--record", "{d}/rec", "--plot", "{d}/rec/game-00000.json"], "is the name of a game record in --record"),
    (["--record", ""], "--record is empty; give the folder to write into"),
    (["--json", "{d}/p.json"], "'{d}/p.json.partial', where the games so far are written first, is a folder"),
    (["--agents", "random,random,{d}/random#2.npz"], "two agents get the label 'random#2'"),
])
def test_tournament_outputs_and_labels_that_would_clash_fail_before_any_game(tmp_path, capsys, no_games, extra,
                                                                              words):
    """Found by probing: the PNG replaced the JSON (or a game record), the report was written through a
    '.partial' file that was a folder, '--record ""' wrote into the working folder, and a file named as
    another agent's numbered label failed only after every game, at the ratings."""
    (tmp_path / "p.json.partial").mkdir()
    (tmp_path / "rec").mkdir()
    (tmp_path / "random#2.npz").write_bytes((Path(__file__).resolve().parents[1] / "agents" / "shipped"
                                             / "makemake.npz").read_bytes())
    argv = ["--game", "makemake", "--players", "2", "--agents", "random,heuristic", "--games", "2"]
    given = [part.format(d=tmp_path) for part in extra]
    if "--agents" in given:
        argv = argv[:4] + argv[6:]
    message = fails(tournament.main, argv + given, capsys)
    assert words.format(d=tmp_path) in message


def test_a_tournament_stopped_with_ctrl_c_says_how_to_go_on(tmp_path, capsys, monkeypatch):
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt
    monkeypatch.setattr(tournament, "run_tournament", interrupted)
    path = tmp_path / "t.json"
    with pytest.raises(SystemExit) as stop:
        tournament.main(SMALL + ["--json", str(path)])
    assert stop.value.code == 130
    err = capsys.readouterr().err
    assert f"Stopped; the games so far are in {path}: the same command with --resume goes on." in err
    assert "Traceback" not in err

@pytest.mark.parametrize("option,value", [("--games", "0"), ("--games", "many"), ("--seed", "-3"),
                                          ("--seed", str(2**63)), ("--workers", "0"), ("--players", "9"),
                                          ("--players", "0"), ("--max-turns", "0"), ("--max-turns", "1e3"),
                                          ("--variant", "expert")])
def test_tournament_numeric_options_are_named_in_their_errors(capsys, no_games, option, value):
    argv = [a for a in SMALL]
    if option in argv:
        argv[argv.index(option) + 1] = value
    else:
        argv += [option, value]
    assert option in fails(tournament.main, argv, capsys)


def test_plot_and_json_written_only_where_asked_to_exactly_that_path(tmp_path, monkeypatch, capsys):
    """Issue 23: "With --plot DIR it reports writing DIR but writes DIR.png. Without --plot it writes
    tournament.png into the working directory"."""
    monkeypatch.chdir(tmp_path)
    tournament.main(SMALL)
    assert sorted(p.name for p in tmp_path.iterdir()) == []
    tournament.main(SMALL + ["--plot", "results", "--json", "report"])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report", "results"]
    assert (tmp_path / "results").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert json.loads((tmp_path / "report").read_text())["games"] == 4
    out = capsys.readouterr().out
    assert "wrote report" in out and "wrote results" in out


def test_a_search_with_settings_in_its_name_plays_a_tournament_under_that_name(tmp_path, capsys, monkeypatch):
    """The settings reach the search that plays, and the table names them."""
    argv = SMALL[:]
    argv[argv.index("--agents") + 1] = "mcts:20@c=1@pw_k=2,random"
    argv[argv.index("--games") + 1] = "2"
    settings = []
    reset = MCTSAgent.reset

    def spy(agent, *args, **kwargs):
        reset(agent, *args, **kwargs)
        settings.append((agent.settings["c"], agent.settings["pw_k"]))
    monkeypatch.setattr(MCTSAgent, "reset", spy)
    tournament.main(argv + ["--json", str(tmp_path / "r.json")])
    assert set(json.loads((tmp_path / "r.json").read_text())["agents"]) == {"mcts:20@c=1@pw_k=2", "random"}
    assert "mcts:20@c=1@pw_k=2" in capsys.readouterr().out
    assert settings and set(settings) == {(1.0, 2.0)}


def test_a_bad_setting_in_a_name_fails_before_any_game(capsys, no_games):
    argv = SMALL[:]
    argv[argv.index("--agents") + 1] = "mcts:20@c=1@c=2,random"
    assert "setting 'c' is given twice in 'mcts:20@c=1@c=2'" in fails(tournament.main, argv, capsys)


def test_a_setting_the_search_cannot_use_fails_before_any_game(capsys, no_games):
    argv = SMALL[:]
    argv[argv.index("--agents") + 1] = "mcts:20@max_depth=0,random"
    assert "max_depth is the tree's depth cap: a whole number from 1 to 100000; got 0" in fails(
        tournament.main, argv, capsys)


def test_tournament_record_writes_one_record_per_game_that_plays_back(tmp_path, capsys):
    """Issue 25 item 3: "agents.tournament --record DIR writes one record per game"."""
    folder = tmp_path / "new" / "records"
    tournament.main(SMALL + ["--record", str(folder), "--json", str(tmp_path / "r.json")])
    files = sorted(folder.iterdir())
    assert [f.name for f in files] == [f"game-{i:05d}.json" for i in range(4)]
    report = json.loads((tmp_path / "r.json").read_text())
    for entry, path in zip(report["records"], files):
        record = load(path)
        assert entry["record"] == path.name and record.players == entry["agents"]
        final, result = play_back(record, "batch")
        assert final.tolist() == record.final_state
        assert result["scores"] == [entry["scores"][entry["agents"].index(p)] for p in record.players]
    assert f"wrote 4 game records into {folder}" in capsys.readouterr().out


def test_a_record_folder_of_an_earlier_tournament_is_refused_unless_it_resumes(tmp_path, capsys):
    """A second tournament into the same --record folder mixed its records with the first's (its
    game 3 replaced theirs, their games 4 … stayed): refused before any game, unless --resume."""
    folder, report = tmp_path / "records", tmp_path / "r.json"
    tournament.main(SMALL + ["--record", str(folder), "--json", str(report)])
    written = {f.name: f.read_bytes() for f in folder.iterdir()}
    capsys.readouterr()
    message = fails(tournament.main, SMALL + ["--record", str(folder), "--seed", "9"], capsys)
    assert (f"--record {str(folder)!r} already holds 4 game record(s) (game-00000.json …); give an empty or "
            f"new folder, or, to continue that tournament, --resume it (with its --json)") in message
    assert {f.name: f.read_bytes() for f in folder.iterdir()} == written
    with pytest.raises(ValueError, match="already holds 4 game record"):
        tournament.run_tournament("makemake", 2, ["random", "random"], 2, workers=1, record_dir=folder)
    argv = SMALL[:]
    argv[argv.index("--games") + 1] = "6"
    tournament.main(argv + ["--record", str(folder), "--json", str(report), "--resume"])
    assert "wrote 2 game records" in capsys.readouterr().out and len(list(folder.iterdir())) == 6
    # stopped before its first --json was written: --resume plays again the games whose records are there
    lost = tmp_path / "lost"
    lost.mkdir()
    (lost / "game-00000.json").write_bytes((folder / "game-00000.json").read_bytes())
    tournament.main(SMALL + ["--record", str(lost), "--json", str(tmp_path / "lost.json"), "--resume"])
    assert (lost / "game-00000.json").read_bytes() == (folder / "game-00000.json").read_bytes()
    assert len(list(lost.iterdir())) == 4
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "notes.txt").write_text("mine")   # other files are the user's business
    tournament.main(SMALL + ["--record", str(tmp_path / "other")])
    assert len(list((tmp_path / "other").iterdir())) == 5


def test_a_resumed_tournament_says_which_kept_games_have_no_record(tmp_path, capsys):
    """Played without --record, then resumed with it: "wrote 2 game records" and nothing more, while
    --record's help promises every game.  The kept games' lack is said, at the start and at the end."""
    report, folder = tmp_path / "t.json", tmp_path / "records"
    tournament.main(SMALL + ["--json", str(report)])
    argv = SMALL[:]
    argv[argv.index("--games") + 1] = "6"
    capsys.readouterr()
    tournament.main(argv + ["--json", str(report), "--resume", "--record", str(folder)])
    out = capsys.readouterr().out
    assert sorted(f.name for f in folder.iterdir()) == ["game-00004.json", "game-00005.json"]
    note = (f"note: 4 game(s) kept from the earlier run have no record in {folder} (games 0, 1, 2, 3): that run "
            f"played them without --record, or their files were removed; only the games played now are recorded")
    assert out.count(note) == 2 and "wrote 2 game records" in out


def test_a_json_path_that_is_a_link_writes_the_file_it_names(tmp_path, capsys):
    target, link = tmp_path / "results" / "t.json", tmp_path / "latest.json"
    target.parent.mkdir()
    target.write_text("{}")
    link.symlink_to(target)
    tournament.main(SMALL + ["--json", str(link)])
    assert link.is_symlink() and json.loads(target.read_text())["games"] == 4
    assert sorted(p.name for p in tmp_path.iterdir()) == ["latest.json", "results"]
    dangling = tmp_path / "dangling.json"   # its target's folder is missing: refused before the games
    dangling.symlink_to(tmp_path / "nowhere" / "t.json")
    message = fails(tournament.main, SMALL + ["--json", str(dangling)], capsys)
    assert f"the folder {str(tmp_path / 'nowhere')!r} does not exist" in message


RESUMABLE = ["--game", "makemake", "--players", "2", "--agents", "heuristic,random", "--games", "8",
             "--workers", "1", "--max-turns", "30", "--seed", "5"]


played_games = tournament.games_only


def test_a_stopped_tournament_resumes_to_the_report_of_one_run(tmp_path, capsys, monkeypatch):
    """``--json`` is written as the games are played; ``--resume`` keeps those games, plays the
    others, and ends with what one uninterrupted run reports."""
    monkeypatch.setattr(tournament, "CHECKPOINT_SECONDS", 0.0)  # after every batch of games
    whole, stopped = tmp_path / "whole.json", tmp_path / "stopped.json"
    tournament.main(RESUMABLE + ["--json", str(whole)])
    one_run = json.loads(whole.read_text())
    assert one_run["complete"] and len(one_run["records"]) == 8

    play, calls = tournament.Table.play, []

    def stop_after_three_batches(table, seed, games):
        if len(calls) == 3:
            raise KeyboardInterrupt  # the run is stopped
        calls.append([g for g, _ in games])
        return play(table, seed, games)
    monkeypatch.setattr(tournament.Table, "play", stop_after_three_batches)
    with pytest.raises(SystemExit) as stop:   # "Stopped; the games so far are in ...", no traceback
        tournament.main(RESUMABLE + ["--json", str(stopped)])
    assert stop.value.code == 130
    partial = json.loads(stopped.read_text())
    assert partial["complete"] is False
    assert [r["game"] for r in partial["records"]] == [g for batch in calls for g in batch] == [0, 1, 2]
    assert played_games(partial["records"]) == played_games(one_run["records"][:3])

    calls.clear()
    monkeypatch.setattr(tournament.Table, "play", lambda table, seed, games: calls.append(
        [g for g, _ in games]) or play(table, seed, games))
    tournament.main(RESUMABLE + ["--json", str(stopped), "--resume"])
    assert [g for batch in calls for g in batch] == [3, 4, 5, 6, 7]  # the kept games are not played again
    resumed = json.loads(stopped.read_text())
    assert played_games(resumed) == played_games(one_run)
    assert resumed["seconds"] > partial["seconds"]
    assert "3/8 games kept from the earlier run" in capsys.readouterr().out

    calls.clear()
    tournament.main(RESUMABLE + ["--json", str(stopped), "--resume"])  # complete: nothing left to play
    assert calls == [] and played_games(json.loads(stopped.read_text())) == played_games(one_run)
    tournament.main(RESUMABLE + ["--json", str(stopped), "--resume", "--games", "10"])  # --games may grow
    assert [g for batch in calls for g in batch] == [8, 9]


def _children(pid):
    with open(f"/proc/{pid}/task/{pid}/children") as f:
        return [int(child) for child in f.read().split()]


def _running(pid):
    """Whether ``pid`` is a process that has not ended (a zombie has ended)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def _wait_for(condition, seconds, what):
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"{what} after {seconds} s"
        time.sleep(0.1)


def _tournament_argv(agents, max_turns, games, workers, path):
    return ["--game", "makemake", "--players", "2", "--agents", agents, "--games", str(games), "--workers",
            str(workers), "--max-turns", str(max_turns), "--seed", "7", "--json", str(path)]


def _tournament_in_background(path, agents, max_turns):
    """A long tournament of 5,000 games on 2 workers, in another process, writing ``path`` after every
    batch of 25 games.  Returns the process and its children's ids once they are all started."""
    script = ("import sys; from agents.arena import tournament as t; t.CHECKPOINT_SECONDS = 0.0; "
              "t.main(sys.argv[1:])")
    argv = _tournament_argv(agents, max_turns, 5000, 2, path)
    process = subprocess.Popen([sys.executable, "-c", script, *argv], stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE)
    # the pool's two workers, and multiprocessing's resource tracker
    _wait_for(lambda: len(_children(process.pid)) >= 3 or process.poll() is not None, 300, "no workers")
    assert process.poll() is None, process.stderr.read().decode()
    return process, _children(process.pid)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads the process table in /proc")
def test_a_tournament_stopped_by_sigterm_stops_its_workers_and_keeps_its_games(tmp_path):
    path = tmp_path / "stopped.json"
    process, workers = _tournament_in_background(path, "mcts:30,random", 8)
    _wait_for(lambda: path.exists() or process.poll() is not None, 300, "no games were written")
    process.send_signal(signal.SIGTERM)
    assert process.wait(timeout=60) == 128 + signal.SIGTERM, process.stderr.read().decode()
    _wait_for(lambda: not any(_running(w) for w in workers), 30, "workers still running")
    stopped = json.loads(path.read_text())
    assert stopped["complete"] is False and 0 < len(stopped["records"]) < 5000
    assert [r["game"] for r in stopped["records"]] == list(range(len(stopped["records"])))

    kept = len(stopped["records"])  # --resume plays only the rest, here two more games, on 1 worker
    tournament.main(_tournament_argv("mcts:30,random", 8, kept + 2, 1, path) + ["--resume"])
    resumed = json.loads(path.read_text())
    assert resumed["complete"] and resumed["records"][:kept] == stopped["records"]
    assert len(resumed["records"]) == kept + 2


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads the process table in /proc")
def test_workers_of_a_killed_tournament_stop_within_seconds(tmp_path):
    """SIGKILL leaves the tournament no say: its workers must notice.  Killed as the first batch comes
    back, one worker has just begun its second, 25 games of this search (4 s or more), which it
    would play out if it did not."""
    path = tmp_path / "killed.json"
    process, workers = _tournament_in_background(path, "mcts:3000,random", 30)
    _wait_for(lambda: path.exists() or process.poll() is not None, 300, "no games were written")
    os.kill(process.pid, signal.SIGKILL)
    process.wait(timeout=30)
    _wait_for(lambda: not any(_running(w) for w in workers), 3, "workers still running")


def _thread_names(_):
    return [thread.name for thread in threading.enumerate()]


def test_the_workers_of_distillation_and_expert_iteration_watch_for_their_job_too():
    """Their games run through ``pool_map``, on the tournament's kind of pool: every worker carries the
    thread that ends it once its job is gone."""
    assert all("end-with-job" in names for names in pool_map(_thread_names, [0, 1], 2))


def _blas_threads(_):
    import numpy  # noqa: F401  (loads the BLAS whose threads are counted)
    from threadpoolctl import threadpool_info
    return os.environ.get("OPENBLAS_NUM_THREADS"), sorted({pool["num_threads"] for pool in threadpool_info()})


def test_each_worker_runs_numpy_on_one_thread(monkeypatch):
    """A worker has a core to itself: its BLAS starts with one thread, and the job's own environment
    is left as it was (threaded, two workers' BLAS made a network's decision 15 times as slow)."""
    pytest.importorskip("threadpoolctl")
    monkeypatch.delenv("OPENBLAS_NUM_THREADS", raising=False)
    assert all(result == ("1", [1]) for result in pool_map(_blas_threads, [0, 1], 2))
    assert "OPENBLAS_NUM_THREADS" not in os.environ
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "2")   # a caller's own setting is kept
    assert all(result[0] == "2" for result in pool_map(_blas_threads, [0, 1], 2))


def test_docstrings_that_break_a_line_with_a_backslash_are_raw():
    """A command's usage line broken with '\\' in its module docstring (its --help) was joined into one
    line by Python unless the docstring is raw."""
    import ast
    import tokenize

    root = Path(__file__).resolve().parent.parent
    joined = []
    for package in ("agents", "benchmarks", "pacific_common", "makabana_env", "makemake_env", "maunakea_env"):
        for path in sorted((root / package).rglob("*.py")):
            body = ast.parse(path.read_text(encoding="utf-8")).body
            if not (body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)
                    and isinstance(body[0].value.value, str)):
                continue
            with path.open("rb") as source:
                first = next(t for t in tokenize.tokenize(source.readline) if t.type == tokenize.STRING)
            prefix = first.string[:first.string.index(first.string.lstrip("rRbBuUfF")[0])]
            if "\\\n" in first.string and "r" not in prefix.lower():
                joined.append(str(path.relative_to(root)))
    assert not joined


def _ctrl_c_handling(_):
    import signal
    return signal.getsignal(signal.SIGINT)


def test_a_worker_started_in_place_of_a_dead_one_ignores_ctrl_c_too():
    """The pool starts its first workers with Ctrl-C ignored from birth; one it starts later, when a
    worker dies, ignores it from its start-up on."""
    from agents.workers import spawn_pool

    pool = spawn_pool(1)
    try:
        first = pool.apply_async(os.getpid).get(timeout=120)
        pool.apply_async(os._exit, (3,))   # its result never comes: the worker is gone
        replaced = pool.apply_async(os.getpid).get(timeout=120)
        handling = pool.apply_async(_ctrl_c_handling, (0,)).get(timeout=120)
    finally:
        pool.terminate()
    assert replaced != first and handling == signal.SIG_IGN


def test_ctrl_c_stops_a_job_with_one_line_and_its_workers_with_none(capsys):
    """Ctrl-C in agents.train, distill and expert_iteration printed tracebacks from torch's autograd, a
    pool's queue and every worker (the terminal sends it to them too, some still importing)."""
    import signal

    from agents.workers import ctrl_c_exits
    before = signal.getsignal(signal.SIGINT)
    assert {handling for handling in pool_map(_ctrl_c_handling, [0, 1], 2)} == {signal.SIG_IGN}
    assert signal.getsignal(signal.SIGINT) is before   # the job's own Ctrl-C is back

    class ProgressBar:   # what the interrupted frames hold is closed before the line, not at shutdown
        def __del__(self):
            print("closed", file=sys.stderr)

    @ctrl_c_exits("The rounds so far are kept.")
    def job():
        bar = ProgressBar()   # noqa: F841
        raise KeyboardInterrupt

    with pytest.raises(SystemExit) as stop:
        job()
    assert stop.value.code == 130 and capsys.readouterr().err == "closed\n\nStopped. The rounds so far are kept.\n"
    assert ctrl_c_exits("unused")(lambda: 7)() == 7


def test_a_one_worker_tournament_plays_on_one_thread_and_gives_the_threads_back(monkeypatch):
    """Played in the job's own process, the games get what a worker has, one BLAS and one torch
    thread (threaded BLAS made Make Make's network 3.2 ms a decision there against 0.47 ms on two
    workers); the caller's threads come back afterwards."""
    pytest.importorskip("threadpoolctl")
    torch = pytest.importorskip("torch")
    from threadpoolctl import threadpool_limits
    seen = []
    original = tournament.Table.play

    def play(table, *args):
        seen.append((_blas_threads(0)[1], torch.get_num_threads()))
        return original(table, *args)

    monkeypatch.setattr(tournament.Table, "play", play)
    threads = torch.get_num_threads()
    try:
        torch.set_num_threads(2)
        with threadpool_limits(2):
            tournament.run_tournament("makemake", 2, ["random", "random"], 2, workers=1)
            assert _blas_threads(0)[1] == [2] and torch.get_num_threads() == 2
    finally:
        torch.set_num_threads(threads)
    assert seen and all(blas == [1] and torch_threads == 1 for blas, torch_threads in seen)


POOL_SCRIPT = """from agents.workers import pool_map
{guard}print(sorted(pool_map(abs, [-1, -2, -3], 2)))
"""


@pytest.mark.parametrize("guard", [True, False])
def test_a_script_that_starts_workers_when_imported_fails_at_once_and_says_why(tmp_path, guard):
    """Python spawns a worker by importing the main script again.  Unguarded, each worker started the
    pool again and failed, and the pool replaced it for ever (a screenful of tracebacks a second)."""
    script = tmp_path / "script.py"
    script.write_text(POOL_SCRIPT.format(guard='if __name__ == "__main__":\n    ' if guard else ""))
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    result = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120,
                            cwd=tmp_path, env=dict(os.environ, PYTHONPATH=root))
    if guard:
        assert result.returncode == 0 and result.stdout == "[1, 2, 3]\n", result.stderr
    else:
        assert result.returncode == 1 and result.stdout == ""
        assert result.stderr.strip().endswith("or use one worker (workers=1).")
        assert 'under `if __name__ == "__main__":`' in result.stderr
        assert result.stderr.count("Traceback") <= 8   # the parent's, and a few workers' at most


def test_resume_without_its_file_starts_afresh(tmp_path, capsys):
    """And says so, as ``agents.expert_iteration`` does: a mistyped path would otherwise lose the games
    already played without a word."""
    path = tmp_path / "new.json"
    tournament.main(RESUMABLE + ["--json", str(path), "--resume"])
    assert json.loads(path.read_text())["complete"] and len(json.loads(path.read_text())["records"]) == 8
    assert capsys.readouterr().out.startswith(f"--resume: no {path} yet, starting afresh\n")


def test_a_list_of_names_drops_none_without_a_word():
    """``--agents``, ``--opponents``, ``--eval-opponents`` and the benchmarks' ``--games``: an empty name
    among others was dropped, a game named twice measured twice."""
    assert name_list("--x", " random , heuristic,") == ["random", "heuristic"]   # a comma at the end, as in Python
    assert name_list("--x", "random,random") == ["random", "random"]
    assert name_list("--x", " , ") == []
    for text in ("random,,heuristic", ",random", "random, ,heuristic"):
        with pytest.raises(ValueError, match=f"--x {text!r} has an empty name between commas"):
            name_list("--x", text)
    with pytest.raises(ValueError, match="--x 'makemake,makemake' names makemake twice"):
        name_list("--x", "makemake,makemake", unique=True)


def test_no_agents_at_all_get_a_whole_example(capsys, no_games):
    """``--agents ,`` names none: the hint ended "e.g. --agents " with nothing after it."""
    error = fails(tournament.main, ["--game", "makemake", "--players", "2", "--agents", ","], capsys)
    assert error.strip().endswith("2 players need at least 2 agents, got 0; name an agent several times to "
                                  "fill the seats, e.g. --agents random,random")
    # an empty name among others was dropped, and the table played the agents left
    error = fails(tournament.main, ["--game", "makemake", "--players", "2", "--agents", "random,,random,random"],
                  capsys)
    assert "--agents 'random,,random,random' has an empty name between commas" in error


@pytest.mark.parametrize("change,message", [
    (["--seed", "6"], "holds a tournament with seed 5, not 6"),
    (["--agents", "heuristic,heuristic"], "holds a tournament with specs ['heuristic', 'random'], not "
                                          "['heuristic', 'heuristic']"),
    (["--max-turns", "31"], "holds a tournament with max_turns 30, not 31"),
    (["--games", "2"], "holds game 7, beyond --games 2; give --games 8 or more"),
])
def test_resume_refuses_another_tournament_before_any_game(tmp_path, capsys, monkeypatch, change, message):
    path = tmp_path / "t.json"
    tournament.main(RESUMABLE + ["--json", str(path)])
    before = path.read_text()
    argv = RESUMABLE[:]
    argv[argv.index(change[0]) + 1] = change[1]
    monkeypatch.setattr(tournament, "play_game", refuse)
    error = fails(tournament.main, argv + ["--json", str(path), "--resume"], capsys)
    assert f"--resume: {str(path)!r} {message}" in error
    assert path.read_text() == before


def test_resume_needs_the_json_of_a_tournament(tmp_path, capsys, no_games):
    assert "give --json PATH" in fails(tournament.main, RESUMABLE + ["--resume"], capsys)
    path = tmp_path / "other.json"
    for text, message in (("{not json", "cannot be read as a tournament's JSON"),
                          ('{"games": 3}', "is not the JSON of a tournament (it has no 'records')"),
                          ('{"records": [{"agents": []}]}', "holds a record without one of"),
                          ('{"records": [{"game": -1}]}', "or with a negative game number")):
        path.write_text(text)
        assert message in fails(tournament.main, RESUMABLE + ["--json", str(path), "--resume"], capsys)


@pytest.mark.parametrize("edit,message", [
    (lambda records: records[1]["agents"].reverse(), "its agents are ['heuristic', 'random'], not "
                                                    "['random', 'heuristic']; it was changed after --json wrote it"),
    (lambda records: records.append(dict(records[0])), "holds game 0 twice"),
    (lambda records: records[2].update(scores=["12", 3]), "game 2 that this tournament would not have "
                                                          "played: its 'scores' must be 2 integers from "
                                                          "-9223372036854775808 to 9223372036854775807"),
    (lambda records: records[2].update(scores=[10**400, 3]), "its 'scores' must be 2 integers"),  # no OverflowError
    (lambda records: records[2].update(scores=[2**63, 3]), "its 'scores' must be 2 integers"),
    (lambda records: records[2].update(scores=[2.0, 3]), "its 'scores' must be 2 integers"),
    (lambda records: records[1].update(rewards=[float("nan"), 0.0]), "game 1 that this tournament would not "
                                                                     "have played: its 'rewards' must be 2 "
                                                                     "rewards, each -1, 0 or 1, got [nan, 0.0]"),
    (lambda records: records[1].update(rewards=[0.5, 0.0]), "its 'rewards' must be 2 rewards, each -1, 0 or 1"),
    (lambda records: records[0].update(ranks=[1, 3]), "its 'ranks' must be 2 places from 1 to 2, got [1, 3]"),
    (lambda records: records[0].update(ranks=[1.0, 2]), "its 'ranks' must be 2 places from 1 to 2"),
    (lambda records: records[0].update(ranks=[2, 2], win_shares=[1, 0]),  # the ranks no game gives
     "game 0 that this tournament would not have played: its 'ranks' [2, 2] are not the places its 'rewards' "
     "and 'scores' give"),
    (lambda records: records[2].update(win_shares=[1.0, 1.0]), "its 'win_shares' [1.0, 1.0] are not the shares "
                                                               "its 'ranks' give"),
    (lambda records: records[2].update(win_shares=[1.0, 0.0] if records[2]["ranks"] == [1, 1] else [0.5, 0.5]),
     "game 2 that this tournament would not have played: its 'win_shares'"),  # a whole win, wrongly shared
    (lambda records: records[2].update(win_shares=[float("inf"), 0.0]), "its 'win_shares' must be 2 numbers "
                                                                        "from 0 to 1, got [inf, 0.0]"),
    (lambda records: records[0].update(truncated="no"), "its 'truncated' must be true or false, got 'no'"),
    (lambda records: records[0].update(decisions=-1), "its 'decisions' must be a count"),
    (lambda records: records[0].update(decisions=True), "its 'decisions' must be a count"),
    (lambda records: records[0].update(agent_decisions=[records[0]["decisions"], 1]),
     "its 'agent_decisions' [%s, 1] do not add up to its 'decisions'"),
    (lambda records: records[0].update(agent_decisions=[-1, 1]), "its 'agent_decisions' must be 2 counts"),
    (lambda records: records[0].update(agent_seconds=[0.1]), "its 'agent_seconds' must be 2 numbers of seconds"),
    (lambda records: records[0].update(agent_seconds=[float("nan"), 0.1]),
     "its 'agent_seconds' must be 2 numbers of seconds, 0 or more, got [nan, 0.1]"),
    (lambda records: records[0].update(agent_seconds=[-0.1, 0.1]), "its 'agent_seconds' must be 2 numbers"),
])
def test_resume_refuses_a_record_changed_after_it_was_written(tmp_path, capsys, resumable_report, no_games,
                                                              edit, message):
    """The report is computed from the kept records, so an edited one would be reported as played."""
    report = json.loads(json.dumps(resumable_report))
    edit(report["records"])
    path = tmp_path / "t.json"
    path.write_text(json.dumps(report))
    message = message.replace("%s", str(report["records"][0]["decisions"]))
    error = fails(tournament.main, RESUMABLE + ["--json", str(path), "--resume"], capsys)
    assert f"--resume: {str(path)!r} holds" in error and message in error


@pytest.mark.parametrize("seconds", [None, "abc", "12", float("nan"), float("inf"), -1.0, True, [3.0]])
def test_resume_refuses_edited_seconds(tmp_path, capsys, resumable_report, no_games, seconds):
    """The earlier runs' seconds are added to this run's: null was a TypeError, "abc" an error naming
    neither the file nor the key, and NaN was reported as "in nan s"."""
    path = tmp_path / "t.json"
    path.write_text(json.dumps(dict(resumable_report, seconds=seconds)))
    error = fails(tournament.main, RESUMABLE + ["--json", str(path), "--resume"], capsys)
    assert f"--resume: {str(path)!r} holds 'seconds' {seconds!r}, not the time the games took (a number, " \
           f"0 or more)" in error


def test_resume_keeps_a_file_without_seconds(tmp_path, capsys, resumable_report):
    """Counted as 0: the games are what matters."""
    path = tmp_path / "t.json"
    path.write_text(json.dumps({k: v for k, v in resumable_report.items() if k != "seconds"}))
    tournament.main(RESUMABLE + ["--json", str(path), "--resume"])
    assert "3/8 games kept from the earlier run" in capsys.readouterr().out


@pytest.fixture(scope="module")
def resumable_report(tmp_path_factory):
    """Three games of the RESUMABLE tournament, as --json writes them."""
    path = tmp_path_factory.mktemp("resumable") / "t.json"
    tournament.main(RESUMABLE + ["--json", str(path), "--games", "3"])
    return json.loads(path.read_text())


def test_a_long_tournament_is_planned_without_listing_it():
    """Two hundred agents at four seats make 64,684,950 groups; game g's seats are found directly."""
    assert tournament.seating_cycle(200, 4) == 258_739_800
    assert tournament.seating(10**9 - 1, 200, 4) == (81, 187, 48, 28)
    assert tournament.schedule(5, 3, 300) == [tournament.seating(g, 5, 3) for g in range(300)]


@pytest.mark.parametrize("argv,option", [(["--seed", "-3"], "--seed"), (["--seat", "9"], "--seat"),
                                         (["--seat", "-1"], "--seat"), (["--players", "7"], "--players"),
                                         (["--max-turns", "0"], "--max-turns")])
def test_play_options_are_named_in_their_errors(capsys, no_games, argv, option):
    """Issue 23: "agents.play --seed -3 does not name the option"."""
    assert option in fails(play_module.main, ["--game", "maunakea"] + argv, capsys)


def test_play_record_path_is_checked_before_the_game(tmp_path, capsys, no_games):
    message = fails(play_module.main, ["--game", "makemake", "--record", str(tmp_path / "no" / "g.json")], capsys)
    assert "--record" in message and "does not exist" in message


@pytest.mark.parametrize("quit_after,leave", [(None, "q"), (1, "q"), (1, "ctrl-c")])
def test_play_writes_the_humans_game(tmp_path, quit_after, leave):
    """Issue 25 item 3: "agents.play writes the human's game" -- finished, or left with q or Ctrl-C."""
    answers = iter(["1"] * (quit_after or 10**6) + [leave])

    def answer(prompt):
        given = next(answers)
        if given == "ctrl-c":
            raise KeyboardInterrupt
        return given

    said = []
    path = tmp_path / "mine.json"
    result = play_module.play("makemake", players=2, against="random", seed=12, max_turns=6,
                              input_fn=answer, print_fn=said.append, record=path)
    assert f"The game record is in {path}" in said
    record = load(path)
    assert record.players == ["player 0 (you)", "player 1 (random)"]
    final, replayed = play_back(record, "reference")
    if quit_after is None:
        assert result is not None and replayed == record.result and replayed["scores"] == result.scores
    else:
        assert result is None and record.result is None and replayed is None   # still running
        assert "You left the game." in said and len(record.actions) >= 1



def test_play_says_so_when_the_record_cannot_be_written_after_the_game(tmp_path, capsys, monkeypatch):
    """A disk that fills (or a folder removed) during the game was an OSError traceback at its end."""
    monkeypatch.setattr("sys.stdin", io.StringIO("q\n"))
    path = tmp_path / "gone" / "game.json"
    path.parent.mkdir()
    real_save = play_module.save

    def save_after_the_folder_went(record, where):
        path.parent.rmdir()
        real_save(record, where)

    monkeypatch.setattr(play_module, "save", save_after_the_folder_went)
    with pytest.raises(SystemExit) as stop:
        play_module.main(["--game", "makemake", "--against", "random", "--record", str(path)])
    assert stop.value.code == 1
    err = capsys.readouterr().err
    assert err.startswith(f"could not write the game record to {path}: ") and "Traceback" not in err


def test_play_stops_quietly_when_its_reader_goes(tmp_path):
    """``agents.play ... | head``: the reader leaves, and the game stops without a BrokenPipeError traceback."""
    command = (f"printf '1\\n1\\n1\\n' | {sys.executable} -m agents.play --game makemake --players 2 "
               f"--against random --seed 1 | head -c 10")
    done = subprocess.run(["bash", "-c", command], capture_output=True, text=True, timeout=120,
                          cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    assert "Traceback" not in done.stderr and "BrokenPipeError" not in done.stderr, done.stderr


def test_play_says_a_make_make_stalemate_has_no_winner():
    """The board said "No winner: stalemate" and the last line "Tied for first: ..." (the web page's
    verdict was right)."""
    import random
    import re
    said, choose = [], random.Random(0)
    result = play_module.play("makemake", players=3, against="random", seat=0, seed=0, print_fn=said.append,
                              input_fn=lambda prompt: str(choose.randint(1, int(re.search(r"1-(\d+)", prompt).group(1)))))
    assert result is not None and not result.truncated
    assert said[-1] == "No winner: stalemate, nothing could change any more."

# -- agent files ----------------------------------------------------------------------------------------
def agent_files(folder):
    (folder / "notes.txt").write_text("hello\n")
    np.savez(folder / "arrays.npz", x=np.zeros(3))
    (folder / "broken.zip").write_bytes(b"PK\x03\x04 not really")
    with zipfile.ZipFile(folder / "other.zip", "w") as archive:
        archive.writestr("readme.md", "not a checkpoint")
    (folder / "empty.bin").write_bytes(b"")
    return {"notes.txt": "text beginning 'hello'", "arrays.npz": "not a policy network",
            "broken.zip": "found", "other.zip": "zip archive holding 'readme.md'", "empty.bin": "an empty file"}


def test_a_path_the_system_will_not_look_at_is_a_clear_error(tmp_path, capsys, no_games):
    """A name over the system's length limit was an OSError traceback, as an agent and as an output."""
    long_name = str(tmp_path / ("a" * 300))
    game = game_info("makemake", 2)
    for spec in (long_name, long_name + ".npz", long_name + ".zip", long_name + "@c=1"):
        with pytest.raises(ValueError, match="names no file that can be read: File name too long"):
            make_agent(spec, game)
    for option in ("--json", "--plot"):
        argv = SMALL + [option, long_name + ".out"]
        assert f"{option} '{long_name}.out': File name too long" in fails(tournament.main, argv, capsys)
    assert "--record" in fails(tournament.main, SMALL + ["--record", long_name], capsys)


def test_a_search_refuses_a_seed_it_could_not_use_when_made():
    """A default seed was checked only by a reset that had no seed of its own, which play_game never does."""
    for seed in ("x", -1, 1.5, True, ()):
        with pytest.raises(ValueError, match="seed must be a non-negative integer"):
            MCTSAgent(seed=seed)
        with pytest.raises(ValueError, match="seed must be a non-negative integer"):
            make_agent("mcts", game_info("makemake", 2), seed=seed)


def test_a_file_that_is_no_agent_says_what_was_expected_and_found(tmp_path, capsys, no_games):
    """Issue 23: "An existing file that is not a checkpoint, given as an agent, gets 'needs sb3_contrib'"."""
    game = game_info("makemake", 2)
    for name, found in agent_files(tmp_path).items():
        with pytest.raises(ValueError) as error:
            make_agent(str(tmp_path / name), game)
        message = str(error.value)
        assert "sb3_contrib" not in message and found in message and "MaskablePPO checkpoint" in message
    argv = SMALL[:]
    argv[argv.index("--agents") + 1] = f"random,{tmp_path / 'notes.txt'}"
    assert "is not an agent file" in fails(tournament.main, argv, capsys)


@pytest.fixture
def no_measurement(monkeypatch):
    """Any measurement of the three benchmarks fails the test: their options must be checked first."""
    from benchmarks import search_speed, throughput, update_speed
    for module, names in ((search_speed, ("our_rates", "openspiel_rate", "network_rates")),
                          (throughput, ("run",)), (update_speed, ("run_game",))):
        for name in names:
            monkeypatch.setattr(module, name, refuse)
    return search_speed, throughput, update_speed


@pytest.mark.parametrize("command,option,value,words", [
    # accepted before, and failed only after the minutes-long search timing (leaves) or never ended
    ("search_speed", "--leaves", str(10**30), "--leaves must be a positive integer of at most 10000"),
    ("search_speed", "--positions", str(10**30), "--positions must be at least 2 (the first search is not "
                                                 "timed) and at most 10000"),
    ("update_speed", "--repeats", str(10**30), "--repeats must be a positive integer of at most 100"),
    # the lower bounds keep their messages
    ("search_speed", "--positions", "1", "--positions must be at least 2"),
    ("search_speed", "--leaves", "0", "--leaves must be a positive integer"),
    ("update_speed", "--repeats", "0", "--repeats must be a positive integer"),
    ("update_speed", "--seed", "-1", "--seed must be an integer from 0 to 4294967295"),
    # int() took these; no reader of ours writes them
    ("search_speed", "--leaves", "\u0661\u0660", "argument --leaves: must be an integer, written in the digits 0-9"),
    ("search_speed", "--positions", " 7 ", "argument --positions: must be an integer, written in the digits"),
    ("update_speed", "--repeats", "1_0", "argument --repeats: must be an integer, written in the digits 0-9"),
    ("update_speed", "--seed", "\uff17", "argument --seed: must be an integer, written in the digits 0-9"),
])
def test_benchmark_numbers_have_bounds_and_digits_checked_before_any_measurement(capsys, no_measurement, command,
                                                                                 option, value, words):
    module = dict(zip(("search_speed", "throughput", "update_speed"), no_measurement))[command]
    argv = [option, value] + (["--games", "makemake"] if command == "update_speed" else [])
    assert words in fails(module.main, argv, capsys)


def test_throughput_refuses_json_and_plot_naming_the_same_file(tmp_path, monkeypatch, capsys, no_measurement):
    """The PNG was written over the JSON of the run, without a word."""
    _, throughput, _ = no_measurement
    monkeypatch.chdir(tmp_path)
    (tmp_path / "run.json").write_text("{}")
    os.symlink(tmp_path / "run.json", tmp_path / "link.json")
    for json_path, plot_path in (("run.json", "run.json"), ("run.json", "./run.json"),
                                 ("new.out", str(tmp_path / "new.out")), ("run.json", "link.json")):
        message = fails(throughput.main, ["--json", json_path, "--plot", plot_path], capsys)
        assert f"--json '{json_path}' and --plot '{plot_path}' name the same file" in message
    assert (tmp_path / "run.json").read_text() == "{}"


@pytest.mark.parametrize("command,option", [("search_speed", "--json"), ("throughput", "--json"),
                                            ("throughput", "--plot"), ("update_speed", "--json")])
def test_an_empty_output_path_is_refused_not_taken_for_no_file(capsys, no_measurement, command, option):
    """search_speed and throughput measured for minutes, then wrote nothing, for ``--json ''``."""
    module = dict(zip(("search_speed", "throughput", "update_speed"), no_measurement))[command]
    assert f"{option} is empty; give the path of the file to write" in fails(module.main, [option, ""], capsys)


def test_integer_options_take_ascii_digits_only():
    """int() took '١٠', ' 7 ', '1_0' and '７', forms that checked.is_decimal says no reader takes."""
    import argparse

    from pacific_common.cli import integer_option
    parse = integer_option(0, 100)
    assert parse("7") == 7 and parse("+7") == 7 and parse("100") == 100
    for text in ("\u0661\u0660", " 7 ", "1_0", "\uff17", "7.0", "0x7", "", "1" * 5000):
        with pytest.raises(argparse.ArgumentTypeError, match="must be an integer from 0 to 100, written in the "
                                                             "digits 0-9, got"):
            parse(text)
    with pytest.raises(argparse.ArgumentTypeError, match=r"got '1111.*\(5000 characters\)"):
        parse("1" * 5000)   # shown by its start
    with pytest.raises(argparse.ArgumentTypeError, match="must be an integer from 0 to 100, got '101'"):
        parse("101")
    assert integer_option(None)("-12") == -12


def test_output_paths_say_a_file_is_no_folder_and_refuse_a_nul_byte(tmp_path):
    """'x/afile/y.json' said "the folder 'x/afile' does not exist"; a NUL byte passed every check."""
    from pacific_common.cli import output_file, output_folder
    (tmp_path / "afile").write_text("")
    for below in ("y.json", "sub/y.json"):
        with pytest.raises(ValueError, match=f"{tmp_path / 'afile'}' is a file, not a folder"):
            output_file("--json", tmp_path / "afile" / below)
    with pytest.raises(ValueError, match="the folder .* does not exist"):
        output_file("--json", tmp_path / "missing" / "y.json")
    for check in (output_file, output_folder):
        with pytest.raises(ValueError, match="--out '.*a\\\\x00b' holds a NUL byte"):
            check("--out", str(tmp_path / "a\0b"))
    with pytest.raises(ValueError, match="--json is empty"):
        output_file("--json", "")
    with pytest.raises(ValueError, match=r"record must be the path of the file to write \(a str or a Path\), got 123"):
        output_file("record", 123)   # agents.arena.play.play(record=123): was a TypeError from Path


def test_output_paths_are_tried_where_permissions_say_nothing(tmp_path, monkeypatch):
    """As root, os.access said yes to /proc/s.json and /proc/foo: the run was played, then failed with a
    traceback when it wrote.  A file or folder is now made there and removed, before the work."""
    from pacific_common.cli import output_file, output_folder
    monkeypatch.setattr(os, "access", lambda *args, **kwargs: True)   # what root is told
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        if os.geteuid() == 0:   # root writes into it anyway: a folder of /proc then
            locked = Path("/proc")
            if not locked.is_dir():
                pytest.skip("no /proc, and root writes everywhere else")
        with pytest.raises(ValueError, match=r"--json '.*s\.json' cannot be written \("):
            output_file("--json", locked / "s.json")
        with pytest.raises(ValueError, match=r"--out '.*foo' cannot be created \("):
            output_folder("--out", locked / "foo", create=False)
    finally:
        (tmp_path / "locked").chmod(0o700)
    assert output_file("--json", tmp_path / "r.json") == tmp_path / "r.json"
    assert output_folder("--out", tmp_path / "new" / "run", create=False) == tmp_path / "new" / "run"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["locked"]   # tried, and nothing left behind
    # a link is checked at the file it names; a circle of links names none
    (tmp_path / "to-nowhere.json").symlink_to(tmp_path / "missing" / "t.json")
    with pytest.raises(ValueError, match="the folder .*missing' does not exist"):
        output_file("--json", tmp_path / "to-nowhere.json")
    (tmp_path / "a").symlink_to(tmp_path / "b")
    (tmp_path / "b").symlink_to(tmp_path / "a")
    with pytest.raises(ValueError, match="is a link that leads round in a circle"):
        output_file("--json", tmp_path / "a")


def test_a_demo_says_nothing_when_its_reader_leaves_and_names_its_command():
    """`python -m makabana_env.demo | true` ended in a BrokenPipeError traceback; its usage said demo.py."""
    root = Path(__file__).resolve().parents[1]
    demo = subprocess.Popen([sys.executable, "-m", "makemake_env.demo", "--players", "2"], cwd=root,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    demo.stdout.close()   # gone before the demo writes a line
    _, err = demo.communicate(timeout=120)
    assert demo.returncode == 1 and err == b""
    usage = subprocess.run([sys.executable, "-m", "maunakea_env.demo", "--players", "9"], cwd=root,
                           capture_output=True, text=True, timeout=120)
    assert usage.returncode == 2 and usage.stderr.splitlines()[-1].startswith("python -m maunakea_env.demo: error:")


def test_a_demo_defaults_to_a_player_count_its_game_allows(capsys):
    """The default was 4 whatever the game's range: (2, 3) played 4 players."""
    import makemake_env
    from pacific_common.demo import main
    main(makemake_env.env, "Make Make", (2, 3), argv=[])
    scores = capsys.readouterr().out.split("Final scores:")[1]
    assert "player_2:" in scores and "player_3:" not in scores


def test_the_shared_demo_run_by_itself_points_to_the_games_demos():
    """``python -m pacific_common.demo --players 99`` printed nothing and exited 0."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    result = subprocess.run([sys.executable, "-m", "pacific_common.demo", "--players", "99"], cwd=root,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode != 0 and "python -m makemake_env.demo" in result.stderr


def test_the_tournament_refuses_more_workers_than_any_machine_could_start(capsys):
    """--workers 100000 with as many games started that many Pythons of 100-300 MB each."""
    assert "argument --workers: must be an integer from 1 to 1024, got '100000'" in fails(
        tournament.main, SMALL[:SMALL.index("--workers")] + ["--workers", "100000"], capsys)
    with pytest.raises(ValueError, match="workers must be an integer from 1 to 1024"):
        tournament.run_tournament("makemake", 2, ["random", "random"], 2, workers=100_000)
