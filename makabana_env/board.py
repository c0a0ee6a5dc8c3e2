"""Maka Bana components: the island's spots and the cards (reconstruction, see ``RULES.md``).

This is the one place where the printed board is described.  Everything here is data: anyone who owns
the physical game can correct a coordinate or a name without touching the rules code.

Spots are unit squares at the ``(x, y)`` coordinates of ``shared/RULINGS.md`` (x right, y down); two
spots are neighbours when their squares share a side.  Spot indices follow the order of ``SPOTS``:
beach by beach, area by area, theme by theme.
"""
import numpy as np

BEACHES = ("Azzura", "Bikini", "Coquito", "Diabolo")
AREAS = ("Sand", "Grass", "Rock", "Lagoon")
THEMES = ("Flower", "Fish", "Tattoo")
BIKINI = BEACHES.index("Bikini")

# (beach, area, theme, x, y) -- RULINGS.md, "Board (reconstruction)".
_SPOT_TABLE = (
    ("Azzura", "Grass", "Flower", 3, 1), ("Azzura", "Grass", "Fish", 4, 1),
    ("Azzura", "Grass", "Tattoo", 3, 2), ("Azzura", "Rock", "Flower", 0, 1),
    ("Azzura", "Rock", "Fish", 4, 2), ("Azzura", "Rock", "Tattoo", 0, 2),
    ("Azzura", "Lagoon", "Flower", 2, 4), ("Azzura", "Lagoon", "Fish", 1, 4),
    ("Azzura", "Lagoon", "Tattoo", 1, 2),
    ("Bikini", "Sand", "Flower", 8, 0), ("Bikini", "Sand", "Fish", 9, 0),
    ("Bikini", "Sand", "Tattoo", 10, 0), ("Bikini", "Grass", "Flower", 8, 1),
    ("Bikini", "Grass", "Fish", 9, 1), ("Bikini", "Grass", "Tattoo", 12, 0),
    ("Bikini", "Rock", "Flower", 13, 0), ("Bikini", "Rock", "Fish", 11, 4),
    ("Bikini", "Rock", "Tattoo", 10, 4), ("Bikini", "Lagoon", "Flower", 11, 3),
    ("Bikini", "Lagoon", "Fish", 10, 3), ("Bikini", "Lagoon", "Tattoo", 13, 1),
    ("Coquito", "Sand", "Flower", 4, 9), ("Coquito", "Sand", "Fish", 6, 7),
    ("Coquito", "Sand", "Tattoo", 6, 8), ("Coquito", "Grass", "Flower", 1, 8),
    ("Coquito", "Grass", "Fish", 2, 5), ("Coquito", "Grass", "Tattoo", 3, 5),
    ("Coquito", "Lagoon", "Flower", 3, 9), ("Coquito", "Lagoon", "Fish", 5, 7),
    ("Coquito", "Lagoon", "Tattoo", 3, 6),
    ("Diabolo", "Sand", "Flower", 7, 8), ("Diabolo", "Sand", "Fish", 10, 8),
    ("Diabolo", "Sand", "Tattoo", 11, 8), ("Diabolo", "Grass", "Flower", 10, 5),
    ("Diabolo", "Grass", "Fish", 10, 6), ("Diabolo", "Grass", "Tattoo", 11, 5),
    ("Diabolo", "Rock", "Flower", 11, 6), ("Diabolo", "Rock", "Fish", 7, 7),
    ("Diabolo", "Rock", "Tattoo", 8, 7),
)

NUM_SPOTS = len(_SPOT_TABLE)
NUM_BEACHES = len(BEACHES)
NUM_AREAS = len(AREAS)
NUM_THEMES = len(THEMES)

SPOT_NAMES = tuple(f"{b}-{a}-{t}" for b, a, t, _, _ in _SPOT_TABLE)
SPOT_INDEX = {name: i for i, name in enumerate(SPOT_NAMES)}
SPOT_BEACH = np.array([BEACHES.index(r[0]) for r in _SPOT_TABLE], dtype=np.int64)
SPOT_AREA = np.array([AREAS.index(r[1]) for r in _SPOT_TABLE], dtype=np.int64)
SPOT_THEME = np.array([THEMES.index(r[2]) for r in _SPOT_TABLE], dtype=np.int64)
SPOT_XY = np.array([(r[3], r[4]) for r in _SPOT_TABLE], dtype=np.int64)

# SPOT_AT[beach, area, theme] is the spot those three cards designate, or -1 where the island has none
# (for example there is no Sand area on Azzura).
SPOT_AT = np.full((NUM_BEACHES, NUM_AREAS, NUM_THEMES), -1, dtype=np.int64)
for _s in range(NUM_SPOTS):
    SPOT_AT[SPOT_BEACH[_s], SPOT_AREA[_s], SPOT_THEME[_s]] = _s


def _neighbours():
    """Padded neighbour lists: squares sharing a side (a shared corner does not count)."""
    where = {tuple(xy): s for s, xy in enumerate(SPOT_XY.tolist())}
    lists = []
    for x, y in SPOT_XY.tolist():
        lists.append([where[p] for p in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)) if p in where])
    table = np.full((NUM_SPOTS, 4), -1, dtype=np.int64)
    for s, ns in enumerate(lists):
        table[s, : len(ns)] = sorted(ns)
    return table


NEIGHBOURS = _neighbours()  # NEIGHBOURS[s] lists s's neighbours, padded with -1

# The 13 cards of one colour: 4 beaches, 4 areas, 3 themes and 2 paint cards.
CARD_NAMES = BEACHES + AREAS + THEMES + ("Paint",)
NUM_PAINT_CARDS = 2
HUTS_PER_COLOUR = 10
MAX_COLOURS = 5
COLOUR_NAMES = ("Yellow", "Blue", "Green", "Red", "White")


def spot_in_play(spot: int, num_colours: int) -> bool:
    """With 3 colours the Bikini beach is out of play (rulebook, Setup)."""
    return not (num_colours == 3 and SPOT_BEACH[spot] == BIKINI)
