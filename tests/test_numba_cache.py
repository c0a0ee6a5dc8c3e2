"""pacific_common.numba_cache: a change to any source of a game package drops its cached Numba code,
so that kernels never run rules older than the sources, wherever Numba keeps that code."""
import hashlib

import pytest
from numba.core import config

from pacific_common.numba_cache import STAMP, cache_folder, drop_stale_cache


@pytest.fixture(params=["in the source tree", "NUMBA_CACHE_DIR"])
def where(request, tmp_path, monkeypatch):
    """Numba's cache folder: each source folder's ``__pycache__``, or the folder ``NUMBA_CACHE_DIR``
    names (``numba.config.CACHE_DIR`` is read from it when Numba is imported)."""
    monkeypatch.setattr(config, "CACHE_DIR", "" if request.param == "in the source tree" else str(tmp_path / "nc"))
    return request.param


def test_the_cache_folder_is_numbas(tmp_path, where):
    folder = tmp_path / "somegame_env"
    folder.mkdir()
    expected = tmp_path / "nc" / f"somegame_env_{hashlib.sha1(str(folder).encode()).hexdigest()}"
    assert cache_folder(folder) == (folder / "__pycache__" if where == "in the source tree" else expected)


def test_changed_sources_drop_the_cache_and_unchanged_sources_keep_it(tmp_path, where):
    package = tmp_path / "somegame_env"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "core.py").write_text("RULE = 1\n")
    cache = cache_folder(package)
    cache.mkdir(parents=True, exist_ok=True)
    (cache / "core.step-10.py311.nbi").write_text("old")
    drop_stale_cache(package / "__init__.py")
    assert not (cache / "core.step-10.py311.nbi").exists()
    assert (cache / STAMP).exists()
    # the stamp lies beside the cache: with NUMBA_CACHE_DIR nothing is written into the sources
    assert (package / "__pycache__").exists() == (where == "in the source tree")

    (cache / "core.step-10.py311.nbi").write_text("compiled from RULE = 1")
    drop_stale_cache(package / "__init__.py")
    assert (cache / "core.step-10.py311.nbi").exists()

    (package / "core.py").write_text("RULE = 2\n")
    drop_stale_cache(package / "__init__.py")
    assert not (cache / "core.step-10.py311.nbi").exists()


def test_a_nested_folder_counts_as_the_package(tmp_path, where):
    """agents/baselines/batched calls the strategies of agents/baselines: a change to either drops the
    cached kernels of both, and a nested folder's own change drops them too."""
    package = tmp_path / "room"
    nested = package / "batched"
    nested.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "strategy.py").write_text("WEIGHT = 1\n")
    (nested / "__init__.py").write_text("")
    (nested / "kernels.py").write_text("from ..strategy import WEIGHT\n")
    cache = cache_folder(nested)
    cache.mkdir(parents=True, exist_ok=True)
    kernel = cache / "kernels.advance-10.py311.nbc"
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
