"""Drawing helpers shared by the games' renderers: ``outline`` and ``hatch`` for ``render_rgb``
(numpy only), ``hatch_stripes`` for ``render_svg``, and ``text_lines`` and ``plural`` for
``render_ansi``'s text."""
import textwrap

import numpy as np

TEXT_WIDTH = 100   # render_ansi's lines stay within this many characters


def plural(count, noun):
    """``"1 card"``, ``"2 cards"``: a count and its noun, which takes an s unless the count is one."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def text_lines(lines, width=TEXT_WIDTH):
    """``lines`` joined into one text, each line longer than ``width`` wrapped at its spaces, its
    continuation indented four spaces past the line's own indentation."""
    out = []
    for line in "\n".join(lines).split("\n"):
        if len(line) <= width:
            out.append(line)
            continue
        indent = " " * (len(line) - len(line.lstrip(" ")) + 4)
        out.extend(textwrap.wrap(line, width, subsequent_indent=indent, break_long_words=False,
                                 break_on_hyphens=False, drop_whitespace=True))
    return "\n".join(out)


def outline(mask):
    """The outermost pixels of a boolean mask, so that shapes get a dark outline on any background."""
    # the shifts below need two axes, and ``~`` is a logical not only on booleans
    if not isinstance(mask, np.ndarray) or mask.ndim != 2 or mask.dtype != bool:
        got = f"{mask.dtype} array of shape {mask.shape}" if isinstance(mask, np.ndarray) else repr(mask)
        raise ValueError(f"mask must be a 2-D numpy array of bools (rows, columns), got {got}")
    # beyond the array is outside the shape: a shape that fills its stamp to the edge is outlined there
    inner = mask.copy()
    inner[0, :] = inner[-1, :] = inner[:, 0] = inner[:, -1] = False
    inner[1:, :] &= mask[:-1, :]
    inner[:-1, :] &= mask[1:, :]
    inner[:, 1:] &= mask[:, :-1]
    inner[:, :-1] &= mask[:, 1:]
    return mask & ~inner


HATCH_PERIOD, HATCH_STRIPE = 12, 4   # a finished game's top bar: a dark stripe of 4 pixels every 12


def hatch(height, width):
    """The pixels of a ``height`` x ``width`` bar that take a finished game's dark stripes: those with
    (row + column) % 12 < 4."""
    return np.add.outer(np.arange(height), np.arange(width)) % HATCH_PERIOD < HATCH_STRIPE


def hatch_stripes(height, width):
    """The same stripes as parallelograms ``[(x, y), ...]`` for an SVG: the pixel centres with
    x + y from 12 k + 1 to 12 k + 4."""
    stripes = []
    for k in range(-1, (width + height) // HATCH_PERIOD + 1):
        a, b = HATCH_PERIOD * k + 0.5, HATCH_PERIOD * k + HATCH_STRIPE + 0.5
        stripes.append([(a, 0), (b, 0), (b - height, height), (a - height, height)])
    return stripes
