"""Keep Numba's on-disk cache honest.

Numba's ``cache=True`` checks only the source file of the function it compiles.  A kernel in
``batch.py`` that calls the core, or a core function that reads a board table, keeps its cached
machine code when ``core.py`` or ``board.py`` changes -- and would go on running the old rules.  Each
game package therefore calls ``drop_stale_cache`` before importing its Numba modules: when any source
file the package's compiled code depends on has changed since the cache was written, the package's
cached functions are deleted and compiled afresh.  A package's folders nested in it (such as
``agents/baselines/batched``, whose kernels call the strategies one folder up) count as its own: their
sources are in its fingerprint and their caches are dropped with its.
"""
import hashlib
from pathlib import Path

_COMMON = Path(__file__).resolve().parent


def _fingerprint(folders):
    digest = hashlib.sha256()
    for folder in folders:
        for path in sorted(folder.rglob("*.py")):
            digest.update(path.relative_to(folder).as_posix().encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def drop_stale_cache(package_file, depends_on=()):
    """Delete the package's cached Numba functions if its sources, the shared ones or those of the
    packages it ``depends_on`` (their ``__init__`` files, e.g. the game packages whose cores the agents
    call) changed."""
    package = Path(package_file).resolve().parent
    cache = package / "__pycache__"
    stamp = cache / "numba-sources.sha256"
    fingerprint = _fingerprint([package, _COMMON] + [Path(f).resolve().parent for f in depends_on])
    try:
        if stamp.read_text() == fingerprint:
            return
    except OSError:
        pass
    try:
        cache.mkdir(exist_ok=True)
        for folder in [cache, *package.rglob("__pycache__")]:
            for pattern in ("*.nbi", "*.nbc"):
                for path in folder.glob(pattern):
                    path.unlink()
        stamp.write_text(fingerprint)
    except OSError:  # a read-only installation: Numba then compiles in memory or uses its own cache dir
        pass
