"""The benchmark suite runs end to end in --quick mode (figures are never asserted: machines are noisy)."""
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_quick_benchmark_writes_rows_for_every_implementation(tmp_path):
    out = tmp_path / "rows.json"
    result = subprocess.run([sys.executable, "-m", "benchmarks.throughput", "--quick", "--json", str(out),
                             "--plot", str(tmp_path / "plot.png")],
                            cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    rows = json.loads(out.read_text())
    ours = {(r["game"], r["implementation"], r["batch_size"]) for r in rows}
    for implementation, batch_size in (("aec", 1), ("core-loop", 1), ("batch", 1), ("batch", 64),
                                       ("reference", 1)):
        assert ("makabana", implementation, batch_size) in ours
    assert all(r["steps_per_second"] > 0 for r in rows)
    assert "steps/s" in result.stdout and "machine:" in result.stdout


def test_search_speed_reports_every_game(tmp_path):
    out = tmp_path / "search.json"
    result = subprocess.run([sys.executable, "-m", "benchmarks.search_speed", "--positions", "2", "--json", str(out)],
                            cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    rows = json.loads(out.read_text())["rows"]
    assert {r["search"] for r in rows} >= {f"agents.search.mcts on {g}" for g in (
        "makabana", "makabana mao", "makemake", "maunakea", "maunakea advanced")}
    assert all(r["simulations_per_second"] > 0 for r in rows)
    bad = subprocess.run([sys.executable, "-m", "benchmarks.search_speed", "--positions", "1"],
                         cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "--positions must be at least 2" in bad.stderr
