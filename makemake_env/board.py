"""Make Make components: the hex island of Rapa Nui (reconstruction, see ``RULES.md``).

This is the one place where the board is described.  RULINGS.md gives its shape: a hexagon of radius 3
in axial coordinates ``(q, r)``.  The centre hex is the Ceremonial Center (never a territory); its six
neighbours are the Sacred Territories; 36 territories in all.  Every corner shared by three
territories is a Ceremonial Ground (48).  Territories are numbered ring by ring (sacred ring first),
each ring clockwise from the north-east; grounds are numbered in the order their corners are met
walking the territories in that order.
"""
import math

import numpy as np

RADIUS = 3
AXIAL_DIRECTIONS = ((1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1))  # clockwise, from north-east


def ring(q, r):
    return max(abs(q), abs(r), abs(q + r))


def _territory_coordinates():
    cells = [(q, r) for q in range(-RADIUS, RADIUS + 1) for r in range(-RADIUS, RADIUS + 1)
             if 1 <= ring(q, r) <= RADIUS]

    def clockwise_from_north_east(cell):
        x, y = pixel_centre(*cell)
        return ring(*cell), (math.atan2(x, -y) - math.pi / 6 + 1e-9) % (2 * math.pi)

    return sorted(cells, key=clockwise_from_north_east)


def pixel_centre(q, r):
    """Centre of a pointy-top hex of unit size; x right, y down."""
    return math.sqrt(3) * (q + r / 2), 1.5 * r


TERRITORY_AXIAL = np.array(_territory_coordinates(), dtype=np.int64)
NUM_TERRITORIES = len(TERRITORY_AXIAL)
TERRITORY_RING = np.array([ring(q, r) for q, r in TERRITORY_AXIAL.tolist()], dtype=np.int64)
_RING_NAMES = {1: "Sacred", 2: "Inner", 3: "Coast"}
TERRITORY_NAMES = tuple(
    f"{_RING_NAMES[k]}-{1 + sum(1 for j in range(i) if TERRITORY_RING[j] == k)}"
    for i, k in enumerate(TERRITORY_RING.tolist()))
TERRITORY_INDEX = {name: i for i, name in enumerate(TERRITORY_NAMES)}
SACRED = np.flatnonzero(TERRITORY_RING == 1)
_where = {tuple(c): i for i, c in enumerate(TERRITORY_AXIAL.tolist())}

# NEIGHBOURS[t]: the territories around t, clockwise from north-east; -1 for the centre or the sea.
NEIGHBOURS = np.array([[_where.get((q + dq, r + dr), -1) for dq, dr in AXIAL_DIRECTIONS]
                       for q, r in TERRITORY_AXIAL.tolist()], dtype=np.int64)

# Only a territory with six neighbouring territories can be completely surrounded (RULINGS.md): the
# 12 territories of the second ring, one for each Moai.
MOAI_SITES = np.flatnonzero((NEIGHBOURS >= 0).all(axis=1))
NUM_MOAI = 12


def _grounds():
    """Corners where three territories meet.  A corner of hex t lies between two consecutive neighbour
    directions; it is a ground when both of those neighbours are territories."""
    grounds = []
    seen = set()
    for t in range(NUM_TERRITORIES):
        for i in range(6):
            a, b = NEIGHBOURS[t, i], NEIGHBOURS[t, (i + 1) % 6]
            if a < 0 or b < 0:
                continue
            key = tuple(sorted((t, int(a), int(b))))
            if key not in seen:
                seen.add(key)
                grounds.append(key)
    return np.array(grounds, dtype=np.int64)


GROUND_TERRITORIES = _grounds()           # [ground] its three territories
NUM_GROUNDS = len(GROUND_TERRITORIES)
GROUND_NAMES = tuple(f"Ground-{g + 1}" for g in range(NUM_GROUNDS))
GROUND_INDEX = {name: g for g, name in enumerate(GROUND_NAMES)}
# TERRITORY_GROUNDS[t]: the grounds at the corners of t, padded with -1.
TERRITORY_GROUNDS = np.full((NUM_TERRITORIES, 6), -1, dtype=np.int64)
for _g, _ts in enumerate(GROUND_TERRITORIES.tolist()):
    for _t in _ts:
        _row = TERRITORY_GROUNDS[_t]
        _row[np.argmax(_row < 0)] = _g

# Pieces of one clan, and the common pieces (rulebook, Components and Preparation of the Game).
TOKENS_PER_CLAN = 11
TANGATA_MANU_PER_CLAN = 5
CHIEF_STRENGTH = 3
MAX_CLANS = 4
CLAN_NAMES = ("Red", "Blue", "Green", "Yellow")

assert NUM_TERRITORIES == 36 and len(SACRED) == 6 and NUM_GROUNDS == 48 and len(MOAI_SITES) == NUM_MOAI
