"""Drawing helpers shared by the games' ``render_rgb`` (numpy only)."""


def outline(mask):
    """The outermost pixels of a boolean mask, so that shapes get a dark outline on any background."""
    inner = mask.copy()
    inner[1:, :] &= mask[:-1, :]
    inner[:-1, :] &= mask[1:, :]
    inner[:, 1:] &= mask[:, :-1]
    inner[:, :-1] &= mask[:, 1:]
    return mask & ~inner
