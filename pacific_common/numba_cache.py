"""Keep Numba's on-disk cache honest.

Numba's ``cache=True`` checks only the source file of the function it compiles.  A kernel in
``batch.py`` that calls the core, or a core function that reads a board table, keeps its cached
machine code when ``core.py`` or ``board.py`` changes -- and would go on running the old rules.  Each
game package therefore calls ``drop_stale_cache`` before importing its Numba modules: when any source
file the package's compiled code depends on has changed since the cache was written, the package's
cached functions are deleted and compiled afresh.  A package's folders nested in it (such as
``agents/baselines/batched``, whose kernels call the strategies one folder up) count as its own: their
sources are in its fingerprint and their caches are dropped with its.  The caches are found where
Numba puts them, ``NUMBA_CACHE_DIR`` included.
"""
import hashlib
import tempfile
from pathlib import Path

from numba.core import config
from numba.core.caching import UserProvidedCacheLocator
from numba.misc.appdirs import AppDirs

_COMMON = Path(__file__).resolve().parent
STAMP = "numba-sources.sha256"


def _fingerprint(folders):
    digest = hashlib.sha256()
    for folder in folders:
        for path in sorted(folder.rglob("*.py")):
            digest.update(path.relative_to(folder).as_posix().encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def _writable(folder):
    try:
        folder.mkdir(parents=True, exist_ok=True)
        tempfile.TemporaryFile(dir=folder).close()
        return True
    except OSError:
        return False


def cache_folder(source_folder):
    """Where Numba keeps the cached functions of the modules in ``source_folder``, chosen as its
    locators choose: ``NUMBA_CACHE_DIR`` when set, else the folder's ``__pycache__`` when it can be
    written, else the user's cache directory (a read-only installation)."""
    subpath = UserProvidedCacheLocator.get_suitable_cache_subpath(str(source_folder / "module.py"))
    if config.CACHE_DIR:
        return Path(config.CACHE_DIR) / subpath
    in_tree = source_folder / "__pycache__"
    if _writable(in_tree):
        return in_tree
    return Path(AppDirs(appname="numba", appauthor=False).user_cache_dir) / subpath


def drop_stale_cache(package_file, depends_on=()):
    """Delete the package's cached Numba functions if its sources, the shared ones or those of the
    packages it ``depends_on`` (their ``__init__`` files, e.g. the game packages whose cores the agents
    call) changed.  The stamp of the sources lies beside the package's own cached functions."""
    package = Path(package_file).resolve().parent
    stamp = cache_folder(package) / STAMP
    fingerprint = _fingerprint([package, _COMMON] + [Path(f).resolve().parent for f in depends_on])
    try:
        if stamp.read_text() == fingerprint:
            return
    except OSError:
        pass
    # only now: every import in every process gets here, and finding a folder's cache writes a file in it
    caches = [cache_folder(folder) for folder in sorted({path.parent for path in package.rglob("*.py")})]
    try:
        for folder in caches:
            for pattern in ("*.nbi", "*.nbc"):
                for path in folder.glob(pattern):
                    path.unlink()
        stamp.parent.mkdir(parents=True, exist_ok=True)
        stamp.write_text(fingerprint)
    except OSError:  # no cache folder can be written: Numba then compiles in memory
        pass
