"""Drawing helpers shared by the games' ``render_rgb`` (numpy only)."""
import numpy as np


def outline(mask):
    """The outermost pixels of a boolean mask, so that shapes get a dark outline on any background."""
    # the shifts below need two axes, and ``~`` is a logical not only on booleans
    if not isinstance(mask, np.ndarray) or mask.ndim != 2 or mask.dtype != bool:
        got = f"{mask.dtype} array of shape {mask.shape}" if isinstance(mask, np.ndarray) else repr(mask)
        raise ValueError(f"mask must be a 2-D numpy array of bools (rows, columns), got {got}")
    inner = mask.copy()
    inner[1:, :] &= mask[:-1, :]
    inner[:-1, :] &= mask[1:, :]
    inner[:, 1:] &= mask[:, :-1]
    inner[:, :-1] &= mask[:, 1:]
    return mask & ~inner
