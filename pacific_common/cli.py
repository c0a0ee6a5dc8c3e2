"""Command-line options shared by the library's commands (the agents' jobs, the benchmarks, the demos):
numbers checked as argparse reads them, and output paths checked before any work is done, so that a
typo costs nothing."""
import argparse
import os
from pathlib import Path


def integer_option(low, high=None):
    """An argparse ``type``: an integer from ``low`` to ``high`` (no upper bound for None).  argparse
    names the option in its error, e.g. "argument --seed: must be an integer from 0 to …, got '-3'"."""
    allowed = f"an integer from {low} to {high}" if high is not None else f"an integer of at least {low}"

    def parse(text):
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be {allowed}, got {text!r}") from None
        if value < low or (high is not None and value > high):
            raise argparse.ArgumentTypeError(f"must be {allowed}, got {text!r}")
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
    turned into the ValueError every other refusal of a path is."""
    def checked(option, path, *args, **kwargs):
        try:
            return check(option, path, *args, **kwargs)
        except OSError as error:
            raise ValueError(f"{option} {str(path)!r}: {error.strerror or error}") from None
    checked.__doc__, checked.__name__ = check.__doc__, check.__name__
    return checked


@_path_os_error
def output_file(option, path):
    """``path`` as a ``Path`` where a file can be written, else ValueError naming ``option``: its folder
    must exist and be writeable, and it must not be a folder itself."""
    path = Path(path)
    folder = path.parent
    if path.is_dir():
        raise ValueError(f"{option} {str(path)!r} is a folder; give the path of the file to write")
    if not folder.is_dir():
        raise ValueError(f"{option} {str(path)!r}: the folder {str(folder)!r} does not exist")
    if not os.access(folder, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise ValueError(f"{option} {str(path)!r} cannot be written (no permission)")
    return path


@_path_os_error
def output_folder(option, path, create=True):
    """``path`` as a ``Path`` to an existing, writeable folder (created if missing, with its parents),
    else ValueError naming ``option``.  With ``create=False`` nothing is made: a missing folder must
    be one that could be, below a writeable folder."""
    path = Path(path)
    if path.exists() and not path.is_dir():
        raise ValueError(f"{option} {str(path)!r} is a file; name a folder")
    if not create:
        existing = next(p for p in (path, *path.absolute().parents) if p.exists())
        if not existing.is_dir():
            raise ValueError(f"{option} {str(path)!r}: the folder cannot be created ({str(existing)!r} is a file)")
        if not os.access(existing, os.W_OK):
            raise ValueError(f"{option} {str(path)!r} cannot be written (no permission)")
        return path
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise ValueError(f"{option} {str(path)!r}: the folder cannot be created ({error.strerror})") from None
    if not os.access(path, os.W_OK):
        raise ValueError(f"{option} {str(path)!r} cannot be written (no permission)")
    return path
