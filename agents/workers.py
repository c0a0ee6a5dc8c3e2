"""Worker processes for the jobs that play many games at once (tournaments, the distillation's teacher
games, expert iteration's self-play), and how they stop when their job is stopped.

- ``spawn_pool(workers, initializer, initargs)``: a ``multiprocessing`` pool of spawned processes (the
  same on every platform; safe with torch) whose workers end themselves within a second once the job's
  process is gone.  A job killed outright (SIGKILL) cannot stop its workers, and a batch of searches
  runs for minutes: without this they would play it out for nobody.
- ``pool_map(function, tasks, workers)``: ``function`` over ``tasks`` on such a pool, results as they
  come (here when ``workers`` is 1).
- Threads: a worker has a core to itself, so its numpy BLAS and OpenMP pools are started with one
  thread (``ONE_THREAD``, set in the workers' environment unless the caller's sets it): two workers
  whose BLAS each spun a thread per core made a policy network's decision in a tournament 15 times
  as slow (Make Make's shipped network, 1.33 ms against 0.09 ms).
- ``one_thread()``: the same for a job's own process while it plays (a tournament on one worker).
- ``ctrl_c_exits(note)``: Ctrl-C ends a job with one line and exit status 130, not a traceback; the
  workers ignore it (the terminal sends it to them too) and the job stops them.
- ``sigterm_as_exit()``: while it holds (a ``with`` block, or a command's ``main`` decorated with
  ``@sigterm_as_exit()``), SIGTERM (``kill``, ``pkill``) raises ``SystemExit(143)`` instead of ending
  the process at once, so that the job leaves its pool's block, which stops the workers, and writes
  what it must on the way out (a tournament its games so far).  Signals are handled in the main thread
  only; elsewhere it does nothing.
"""
import contextlib
import functools
import gc
import multiprocessing
import os
import signal
import sys
import tempfile
import threading
import time
from pathlib import Path

PARENT_POLL_SECONDS = 0.5
MAX_WORKERS = 1024   # a job's --workers: each is a Python with numpy and Numba loaded, 100-300 MB
UNGUARDED = ("the worker processes could not start: the main script starts a pool of workers when it is "
             "imported. Python starts each worker by importing the main script again (the 'spawn' start "
             "method), so a script that plays on several workers must call it under "
             "`if __name__ == \"__main__\":`; or use one worker (workers=1).")


# read by OpenBLAS, OpenMP (torch) and MKL when a worker first imports them
ONE_THREAD = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")


@contextlib.contextmanager
def _one_thread_environment():
    """The environment the pool's workers start with: one thread for each library that reads
    ``ONE_THREAD`` and is not told otherwise already; the caller's environment is restored after."""
    added = [name for name in ONE_THREAD if name not in os.environ]
    os.environ.update({name: "1" for name in added})
    try:
        yield
    finally:
        for name in added:
            os.environ.pop(name, None)


@contextlib.contextmanager
def one_thread():
    """numpy's BLAS and torch on one thread while the block runs, as in a pool's workers; the caller's
    settings are restored after.  A job that plays in its own process (one worker) then times its
    agents as its workers would: with numpy's BLAS on two threads of a busy two-core machine, Make
    Make's shipped network took 3.2 ms a decision in a one-worker tournament against 0.47 ms in a
    two-worker one.  Without threadpoolctl (the ``train`` extra) numpy's BLAS is left as it is."""
    torch = sys.modules.get("torch")   # only where a policy agent loaded it
    threads = torch.get_num_threads() if torch is not None else None
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:
        limits = contextlib.nullcontext()
    else:
        limits = threadpool_limits(1)
    try:
        with limits:
            if torch is not None:
                torch.set_num_threads(1)
            yield
    finally:
        if torch is not None:
            torch.set_num_threads(threads)


def spawn_pool(workers, initializer=None, initargs=()):
    if getattr(multiprocessing.current_process(), "_inheriting", False):
        # a worker importing its job's main script (the flag multiprocessing itself checks)
        _unguarded_note(os.getppid()).write_text(UNGUARDED)
        raise RuntimeError(UNGUARDED)
    note = _unguarded_note(os.getpid())
    note.unlink(missing_ok=True)
    with _one_thread_environment(), _ctrl_c_ignored():
        pool = multiprocessing.get_context("spawn").Pool(workers, _start_worker, (os.getpid(), initializer, initargs))
    try:
        first = pool.apply_async(os.getpid)
        while not first.ready():
            first.wait(0.1)
            if note.exists():
                note.unlink(missing_ok=True)
                raise RuntimeError(UNGUARDED)
    except BaseException:   # SIGTERM's SystemExit too: the caller's block, which would stop them, never began
        pool.terminate()
        raise
    return pool


def _unguarded_note(parent):
    return Path(tempfile.gettempdir()) / f"agents-workers-unguarded-{parent}"


@contextlib.contextmanager
def _ctrl_c_ignored():
    """Ctrl-C ignored while the pool starts its workers, which keep that from birth (an ignored signal
    stays ignored across exec, and Python leaves it so): the terminal sends Ctrl-C to the workers too,
    and a worker still importing the job's modules printed its KeyboardInterrupt's traceback under the
    job's one line (``ctrl_c_exits``).  The job stops them itself.  A worker the pool starts later,
    in place of one that died, ignores it from its start-up on (``_start_worker``), not while it
    imports; a process a worker starts would inherit it (none does)."""
    with _handled(signal.SIGINT, signal.SIG_IGN):
        yield


@contextlib.contextmanager
def _handled(signum, handler):
    """``handler`` for ``signum`` while the block runs, the earlier one put back after.  Elsewhere than
    the main thread signals cannot be set, and a handler set outside Python (``getsignal`` None) could
    not be put back: there it does nothing."""
    if threading.current_thread() is not threading.main_thread() or signal.getsignal(signum) is None:
        yield
        return
    previous = signal.signal(signum, handler)
    try:
        yield
    finally:
        signal.signal(signum, previous)


def _start_worker(parent, initializer, initargs):
    signal.signal(signal.SIGINT, signal.SIG_IGN)   # already so in the first workers; see _ctrl_c_ignored
    if initializer is not None:
        initializer(*initargs)
    threading.Thread(target=_end_with, args=(parent,), name="end-with-job", daemon=True).start()


def _end_with(parent):
    while os.getppid() == parent:
        time.sleep(PARENT_POLL_SECONDS)
    os._exit(1)


def pool_map(function, tasks, workers):
    if workers == 1 or len(tasks) == 1:
        yield from map(function, tasks)
        return
    with spawn_pool(min(workers, len(tasks))) as pool:
        yield from pool.imap_unordered(function, tasks)


def _exit_on_signal(signum, frame):
    raise SystemExit(128 + signum)


@contextlib.contextmanager
def sigterm_as_exit():
    with _handled(signal.SIGTERM, _exit_on_signal):
        yield


def ctrl_c_exits(note):
    """Decorates a command's ``main``: Ctrl-C ends the job with one line, "Stopped. <note>", and exit
    status 130 (the shell's for SIGINT), not a traceback from wherever the job was (torch's autograd,
    a pool's queue); its pools stop their workers on the way out."""
    def decorate(main):
        @functools.wraps(main)
        def run(*args, **kwargs):
            try:
                return main(*args, **kwargs)
            except KeyboardInterrupt:
                pass
            # the traceback is gone here: what it held (a progress bar) closes now, not in a Python
            # shutting down, where tqdm's cleanup printed an error of its own
            gc.collect()
            print(f"\nStopped. {note}", file=sys.stderr)
            raise SystemExit(130)
        return run
    return decorate
