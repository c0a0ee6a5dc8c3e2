"""pacific_common.numba_cache: a change to any source of a game package drops its cached Numba code,
so that kernels never run rules older than the sources."""
from pacific_common.numba_cache import drop_stale_cache


def test_changed_sources_drop_the_cache_and_unchanged_sources_keep_it(tmp_path):
    package = tmp_path / "somegame_env"
    cache = package / "__pycache__"
    cache.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "core.py").write_text("RULE = 1\n")
    (cache / "core.step-10.py311.nbi").write_text("old")
    drop_stale_cache(package / "__init__.py")
    assert not (cache / "core.step-10.py311.nbi").exists()

    (cache / "core.step-10.py311.nbi").write_text("compiled from RULE = 1")
    drop_stale_cache(package / "__init__.py")
    assert (cache / "core.step-10.py311.nbi").exists()

    (package / "core.py").write_text("RULE = 2\n")
    drop_stale_cache(package / "__init__.py")
    assert not (cache / "core.step-10.py311.nbi").exists()


def test_a_nested_folder_counts_as_the_package(tmp_path):
    """agents/baselines/batched calls the strategies of agents/baselines: a change to either drops the
    cached kernels of both, and a nested folder's own change drops them too."""
    package = tmp_path / "room"
    nested = package / "batched"
    (nested / "__pycache__").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "strategy.py").write_text("WEIGHT = 1\n")
    (nested / "__init__.py").write_text("")
    (nested / "kernels.py").write_text("from ..strategy import WEIGHT\n")
    kernel = nested / "__pycache__" / "kernels.advance-10.py311.nbc"
    drop_stale_cache(package / "__init__.py")

    kernel.write_text("compiled with WEIGHT = 1")
    drop_stale_cache(package / "__init__.py")
    assert kernel.exists()

    (package / "strategy.py").write_text("WEIGHT = 2\n")
    drop_stale_cache(package / "__init__.py")
    assert not kernel.exists()

    kernel.write_text("compiled with WEIGHT = 2")
    drop_stale_cache(package / "__init__.py")
    (nested / "kernels.py").write_text("from ..strategy import WEIGHT as W\n")
    drop_stale_cache(package / "__init__.py")
    assert not kernel.exists()
