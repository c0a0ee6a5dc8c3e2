"""Command-line options shared by the library's commands (the agents' jobs, the benchmarks, the demos):
numbers checked as argparse reads them, and output paths checked before any work is done, so that a
typo costs nothing."""
import argparse
import os
import sys
import tempfile
from pathlib import Path

from .checked import is_decimal


def integer_option(low, high=None):
    """An argparse ``type``: an integer from ``low`` to ``high`` (no bound for None), written in ASCII
    digits.  argparse names the option in its error, e.g. "argument --seed: must be an integer from 0
    to …, got '-3'".  A command whose range check must word its own message (``check_ranges``) takes
    ``integer_option(None)`` for the digits alone."""
    if low is None:
        allowed = "an integer" if high is None else f"an integer of at most {high}"
    else:
        allowed = f"an integer from {low} to {high}" if high is not None else f"an integer of at least {low}"

    def parse(text):
        # a typo of thousands of digits is shown by its start, not repeated in full
        shown = repr(text)
        if isinstance(text, str) and len(text) > 60:
            shown = f"{text[:60]!r}… ({len(text)} characters)"
        # int() alone would take '١٠', ' 7 ', '1_0' and '７', forms that no reader of ours takes
        if not is_decimal(text):
            raise argparse.ArgumentTypeError(f"must be {allowed}, written in the digits 0-9, got {shown}")
        value = int(text)
        if (low is not None and value < low) or (high is not None and value > high):
            raise argparse.ArgumentTypeError(f"must be {allowed}, got {shown}")
        return value

    parse.__name__ = "integer"  # what argparse calls the type in its own messages
    return parse


def check_ranges(parser, args, rules):
    """``parser.error`` for the first option outside its range: ``rules`` are ``(name, allowed, ok)``,
    ``--name`` (dashes for underscores) being refused with "must be <allowed>" unless ``ok(value)``.
    An option left at None passes; NaN fails every comparison, so it is refused."""
    for name, allowed, ok in rules:
        value = getattr(args, name)
        if value is not None and not ok(value):
            parser.error(f"--{name.replace('_', '-')} must be {allowed}, got {value}")


def checked_output_file(parser, option, path):
    """``output_file`` for a command's ``option``, checked before any work: ``parser.error`` instead of a
    ValueError; None (not given) stays None."""
    try:
        return None if path is None else output_file(option, path)
    except ValueError as error:
        parser.error(str(error))


def _path_os_error(check):
    """``check`` as it is, with the system's refusal to look at a path at all (a name too long, say)
    turned into the ValueError every other refusal of a path is.  A path holding a NUL byte is refused
    first: ``Path.exists`` and ``is_dir`` answer False for it instead of failing, so it would pass every
    check and fail only when written, after the work."""
    def checked(option, path, *args, **kwargs):
        if isinstance(path, (str, os.PathLike)) and "\0" in str(path):
            raise ValueError(f"{option} {str(path)!r} holds a NUL byte, which no file name can hold")
        try:
            return check(option, path, *args, **kwargs)
        except OSError as error:
            raise ValueError(f"{option} {str(path)!r}: {error.strerror or error}") from None
    checked.__doc__, checked.__name__ = check.__doc__, check.__name__
    return checked


@_path_os_error
def output_file(option, path, *, create_folder=False):
    """``path`` as a ``Path`` where a file can be written, else ValueError naming ``option``: its folder
    must exist and be writeable, and it must not be a folder itself.  With ``create_folder`` the folder
    may also be missing where it could be created (``output_folder(..., create=False)``): for a command
    that makes it before writing."""
    if isinstance(path, str) and not path:   # Path('') is '.', which would be reported as a folder
        raise ValueError(f"{option} is empty; give the path of the file to write")
    if not isinstance(path, (str, os.PathLike)):
        raise ValueError(f"{option} must be the path of the file to write (a str or a Path), got {path!r}")
    path = Path(path)
    if path.is_symlink():   # written through: the file it names is the one to check
        target = os.path.realpath(path)
        if Path(target).is_symlink():   # realpath stops where links lead round in a circle
            raise ValueError(f"{option} {str(path)!r} is a link that leads round in a circle to no file")
        output_file(option, target, create_folder=create_folder)
        return path
    folder = path.parent
    if path.is_dir():
        raise ValueError(f"{option} {str(path)!r} is a folder; give the path of the file to write")
    if create_folder and not folder.is_dir():
        output_folder(option, folder, create=False)
        return path   # nothing in a folder still to be made exists to be read-only
    if not folder.is_dir():
        # the nearest part of the path that exists says why: a file where a folder should be, or nothing
        existing = next(p for p in (folder, *folder.absolute().parents) if p.exists())
        if not existing.is_dir():
            raise ValueError(f"{option} {str(path)!r}: {str(existing)!r} is a file, not a folder")
        raise ValueError(f"{option} {str(path)!r}: the folder {str(folder)!r} does not exist")
    if not os.access(folder, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise ValueError(f"{option} {str(path)!r} cannot be written (no permission)")
    if not path.exists():   # os.access says yes to root, and knows nothing of /proc or a read-only disk
        _try_to_make(option, str(path), lambda: (path.open("x").close(), path.unlink()), "written")
    return path


def _try_to_make(option, shown, make, what):
    """Make (and remove again) what a command will write, else ValueError naming ``option``: the one
    sure test that it can be, before the work that would end in it."""
    try:
        make()
    except OSError as error:
        raise ValueError(f"{option} {shown!r} cannot be {what} ({error.strerror or error})") from None


@_path_os_error
def output_folder(option, path, create=True):
    """``path`` as a ``Path`` to an existing, writeable folder (created if missing, with its parents),
    else ValueError naming ``option``.  With ``create=False`` nothing is made: a missing folder must
    be one that could be, below a writeable folder."""
    if isinstance(path, str) and not path:   # Path('') is '.': the files would land where the command runs
        raise ValueError(f"{option} is empty; give the folder to write into")
    path = Path(path)
    if path.exists() and not path.is_dir():
        raise ValueError(f"{option} {str(path)!r} is a file; name a folder")
    if not create:
        existing = next(p for p in (path, *path.absolute().parents) if p.exists())
        if not existing.is_dir():
            raise ValueError(f"{option} {str(path)!r}: the folder cannot be created ({str(existing)!r} is a file)")
        if not os.access(existing, os.W_OK):
            raise ValueError(f"{option} {str(path)!r} cannot be written (no permission)")
        if not path.exists():   # as in output_file: a folder made there, and removed
            _try_to_make(option, str(path), lambda: os.rmdir(tempfile.mkdtemp(dir=existing)), "created")
        return path
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise ValueError(f"{option} {str(path)!r}: the folder cannot be created ({error.strerror})") from None
    if not os.access(path, os.W_OK):
        raise ValueError(f"{option} {str(path)!r} cannot be written (no permission)")
    return path


def made_folder(option, path):
    """``output_folder`` for a job that makes its folder once the checks are done: SystemExit with its
    message where the system still refuses (a folder removed or locked meanwhile)."""
    try:
        return output_folder(option, path)
    except ValueError as error:
        raise SystemExit(str(error)) from None


def name_list(option, text, *, unique=False):
    """The names of the comma-separated ``text``, stripped; ``[]`` for commas alone (the caller says what
    it needs).  A comma at the end is taken as Python takes one (``"heuristic," * 3`` names three), but
    an empty name among others (``random,,heuristic``) is a ValueError naming ``option``, and with
    ``unique`` so is a name given twice: neither is dropped without a word."""
    names = [name.strip() for name in text.split(",")]
    if not any(names):
        return []
    if len(names) > 1 and names[-1] == "":
        names.pop()
    if "" in names:
        raise ValueError(f"{option} {text!r} has an empty name between commas: separate the names by single commas")
    twice = next((name for name in names if names.count(name) > 1), None) if unique else None
    if twice is not None:
        raise ValueError(f"{option} {text!r} names {twice} twice: name each once")
    return names


def parsed_names(parser, option, text, *, unique=False):
    """``name_list`` for an argparse ``parser``: a bad list is its usage error."""
    try:
        return name_list(option, text, unique=unique)
    except ValueError as error:
        parser.error(str(error))


def no_other_run(option, folder, marks):
    """ValueError naming ``option`` where ``folder`` holds one of ``marks`` (``{file name: whose}``),
    the files another job leaves: a job of ours writing there would replace or mix with its run."""
    other = next((name for name in marks if (Path(folder) / name).exists()), None)
    if other is not None:
        raise ValueError(f"{option} {str(folder)!r} holds another job's run ({other}, {marks[other]}); "
                         f"choose another {option}")


def different_files(outputs):
    """Refuse two of ``outputs``, ``(option, path)`` pairs (a path of None: not given), that name the same
    file, however written (``x.json`` and ``./x.json``, a link): the second written would replace the
    first without a word."""
    seen = {}
    for option, path in outputs:
        if path is None:
            continue
        where = Path(path).resolve()
        for other, (other_path, other_where) in seen.items():
            if where == other_where or (where.exists() and other_where.exists()
                                        and os.path.samefile(where, other_where)):
                raise ValueError(f"{other} {str(other_path)!r} and {option} {str(path)!r} name the same "
                                 f"file; give each its own path")
        seen[option] = (path, where)


def reader_left():
    """What a command does on BrokenPipeError, when the reader of its output has left (``| head``):
    exit saying nothing more, as other command-line tools do (Python's documentation, "Note on
    SIGPIPE"); stdout goes to devnull first, or Python's own flush at exit would raise again."""
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    sys.exit(1)
