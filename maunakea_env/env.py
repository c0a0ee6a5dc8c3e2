"""PettingZoo AEC environment for Mauna Kea (the basic game, and the rules for advanced players).

=====================  ==========================================================================
Import                 ``from maunakea_env import env, raw_env``
Agents                 ``player_0`` … ``player_{n-1}``; n = ``num_players`` in 2 … 4
Action space           ``Discrete(2040)`` — every decision kind in one space (below)
Observation space      ``Dict(observation=Box(-100, 100, (OBS_SIZE,), int8),
                       action_mask=Box(0, 1, (2040,), int8))``
Rewards                at the end only: ``win_loss`` (default) +1 sole winner after the tie-breaks,
                       0 for players still tied, −1 others; ``score``: victory points; ``margin``:
                       points − best other
Termination            a player has no explorer left on the island, or the island is settled or
                       (basic) walled in (RULES.md); that turn and one more turn of every other
                       player are played, then scoring.  Advanced: also the bag used up; scoring
                       right after that turn
Truncation             after ``max_turns`` player turns (default 300); rewards 0
Render modes           ``ansi`` returns the text board, ``human`` prints it, ``rgb_array`` returns an
                       H × W × 3 uint8 picture; each a spectator's view (no one's hidden cards)
=====================  ==========================================================================

Actions
-------
=============  ================================================================================
0 … 323        placement phase: put the next explorer on square ``a`` (a free starting space)
324 … 1943     lay hand tile ``h`` on field ``f`` turned ``r`` quarter turns: ``324 + 4 (81 h + f) + r``
1944 … 1948    spend hand tile ``a − 1944`` for its movement points
1949 … 1968    move explorer ``e`` one square N/E/S/W: ``1949 + 4 e + d``
1969 … 1983    pick up an artifact (white, gray, black): ``1969 + 3 e + c``
1984 … 1998    drop an artifact: ``1984 + 3 e + c``
1999 … 2038    board the boat at landing ``l``: ``1999 + 8 e + l``
2039           end the turn (only with no tile left in hand); the environment then draws, and
               places every lava tile drawn
=============  ================================================================================

Squares, fields and landings are numbered and named in ``maunakea_env.board``; explorer ``e`` is the
player's ``e``-th explorer in placement order. Chance (dealing, the bag, lava) happens inside the step
from the game's own generator, so ``state()`` copies replay identically.

Observation (int8, from the observing player's point of view; relative player k = k seats clockwise)
-----------------------------------------------------------------------------------------------------
========================  ===========  =======================================================
block                     size         content
========================  ===========  =======================================================
``OBS_TERRAIN``           6 × 324      one-hot terrain per square: no tile, jungle, water,
                                       mountain, lava, volcano
``OBS_EXPLORERS``         4 × 324      explorer of relative player k
``OBS_ARTIFACTS``         3 × 324      white / gray / black artifacts lying on the square
``OBS_BOAT_ENTRY``        324          entry square of a landing whose boat is still there
``OBS_PLAYER_EXPLORERS``  4 × 5 × 8    explorer e of relative player k: on island, in boat, lost,
                                       x, y, carried white / gray / black; k = 0, the viewer's
                                       own, is ``OBS_OWN_EXPLORERS``
``OBS_HANDS``             4 × 5 × 14   tiles in front of relative player k: present, points, and
                                       the terrain of its 4 squares (one-hot)
``OBS_PLAYERS``           4 × 5        present, to act, explorers on island, boats, score
``OBS_LANDINGS``          8            artifact places of the boat at each landing (0: gone)
``OBS_LANDING_COLOURS``   8 × 4        colour of the boat at each landing, one-hot green / brown /
                                       orange / pink (0: gone)
``OBS_BOATS``             8 × 7        boat b (``board.BOAT_NAMES[b]``) once taken: by relative
                                       player k (one-hot 4), white / gray / black aboard
``OBS_BAG``               7            tiles in the bag: terrain worth 1 / 2 / 3, lava per flow
``OBS_BAG_TILES``         17 + 4 × 4   tiles in the bag by terrain kind (``board.TERRAIN_KIND_NAMES``),
                                       then lava by flow and shape (``board.LAVA_SHAPE_NAMES``)
``OBS_LAVA``              4 × 2 × 6    lava branches: open, length since the fork, direction
``OBS_LAVA_ENDS``         4 × 2 × 2    the field an open branch ends on: column + 1, row + 1
                                       (``board.FIELD_XY``; 0 for a closed branch)
``OBS_PHASE``, …          7            phase (placement / turn / over; all 0 in the advanced
                                       game's other phases, which ``OBS_A_PHASE`` names), movement pool,
                                       pick-ups and drops left this turn, end triggered, turns
                                       played (capped at 100)
========================  ===========  =======================================================

Everything in Mauna Kea is public except the order of the tiles in the bag.

``infos`` at the end: ``scores``; ``boats``, the names of the boats each player took
(``board.BOAT_NAMES``); ``boat_loads``, for each player each of those boats by name with what it
carries, e.g. ``{"brown boat (3 places)": {"white": 2, "gray": 1, "black": 0}}``; ``end``, how the
game ended as in every game (``pacific_common.ends``): ``"rules"``, ``"settled"`` or ``"truncated"``;
``end_trigger``, what triggered the end: ``"no explorer left"``, ``"supply used up"`` (advanced),
``"settled"`` or ``"walled in"`` (basic), empty for a truncated game whose end was never triggered (a
game truncated in its final round names its trigger); in the advanced game also ``task_points``.

Rules for advanced players (``variant="advanced"``)
---------------------------------------------------
``Discrete(3052)`` and an observation of ``kernels.OBS_SIZE_ADVANCED`` values: the basic observation
followed by an advanced block (phase, own cards by kind, the cards the viewer removed at set-up by
kind, cards held and action cards played by each
player, helicopter rescues, the movement card or earthquake tile in progress, the supply flag, and
everyone's cards once the game is over).  Card kinds are ``board.CARD_KIND_NAMES``.

=============  ================================================================================
2040 … 2057    set-up: remove a dealt card of kind ``a − 2040`` (twice; the second kind ≥ the first)
2058 … 2072    play jungle / water / mountain movement ``k`` with explorer ``e``: ``2058 + 5 k + e``
2073 … 2396    that movement's destination square ``a − 2073``
2397 … 2401    play helicopter rescue on explorer ``a − 2397``
2402 … 2725    play earthquake: turn the tile on field ``f`` to rotation ``r``: ``2402 + 4 f + r``
2726, 2727     after the earthquake: draw a tile / do not draw
2728 … 3051    lay the tile the earthquake drew on field ``f`` turned ``r``: ``2728 + 4 f + r``
=============  ================================================================================

The game also ends when the bag is empty; in the advanced game scoring follows right after the turn
of the player whose turn it is. Rulings: ``maunakea_env/RULES.md``, "Rules for advanced players".

Illegal actions
---------------
``raw_env`` raises ``ValueError`` naming the action and the decision asked, and changes nothing.
``env()`` is wrapped like PettingZoo's classic games.

Version history
---------------
* v0: the basic game for 2 – 4 players; the rules for advanced players as ``variant="advanced"``.
  The hand block grew one feature; the observation gained every player's explorers with their loads,
  the colour of the boat at each landing and every boat taken.  The settled and walled-in ends
  (RULES.md) were added; ``end`` became ``"rules"``, ``"settled"`` or ``"truncated"``, and ``infos``
  gained ``end_trigger`` and ``boat_loads``.
  ``OBS_LAVA_ENDS`` (where each open lava branch ends, which the board's arrows show) was added after
  ``OBS_LAVA``; the observation grew from 5154 to 5170 values.  The advanced block gained
  ``OBS_A_REMOVED``, the cards the viewer removed at set-up (the state row, ``REMOVED_CARDS``).
  ``OBS_BAG_TILES`` (the bag's tiles by terrain kind and by lava flow and shape, which every player
  can count, since tiles leave and enter the bag face up) was added after ``OBS_BAG``; the observation
  grew from 5170 to 5203 values (the advanced one from 5353 to 5386).  The walled-in end (RULES.md)
  no longer ends an advanced game, whose end always comes when the bag is used up.
  ``render()`` showed the text as the player to act sees it (his own cards, advanced), until it
  showed every mode as a spectator's view.
"""
from pacific_common.aec import CoreAECEnv, wrap
from pacific_common.ends import END_NAMES

from . import core as checked_core
from . import kernels
from .board import BOAT_NAMES
from .notation import describe_action  # noqa: F401  (also maunakea_env.env.describe_action)
from .render import render_ansi, render_rgb

_COLOURS = ("white", "gray", "black")


def env(**kwargs):
    """The Mauna Kea AEC environment, wrapped like PettingZoo's classic games."""
    return wrap(raw_env(**kwargs))


class raw_env(CoreAECEnv):
    """Mauna Kea as a PettingZoo AEC environment; see the module docstring."""

    metadata = {"name": "maunakea_v0", "render_modes": ["human", "ansi", "rgb_array"],
                "is_parallelizable": False, "render_fps": 1}
    core = kernels
    checked = checked_core   # the checked faces: set_state validates a row with checked.check_state
    players = (2, 4)
    variants = {"basic": kernels.VARIANT_BASIC, "advanced": kernels.VARIANT_ADVANCED}
    decisions = ("placement", "turn", "over", "card choice", "movement card destination",
                 "earthquake draw", "earthquake tile")

    def __init__(self, num_players=4, variant="basic", max_turns=300, render_mode=None, reward="win_loss"):
        super().__init__(num_players, variant, max_turns, render_mode, reward)

    describe_action = staticmethod(describe_action)
    render_ansi = staticmethod(render_ansi)
    render_rgb = staticmethod(render_rgb)

    def final_info(self):
        state = self._state
        taken = {a: [b for b in range(kernels.NUM_BOATS) if state[kernels.BOAT_OWNER + b] == i]
                 for i, a in enumerate(self.possible_agents)}
        boats = {a: [BOAT_NAMES[b] for b in bs] for a, bs in taken.items()}
        loads = {a: {BOAT_NAMES[b]: {colour: int(state[kernels.BOAT_LOAD + b * kernels.NUM_COLOURS + c])
                                     for c, colour in enumerate(_COLOURS)} for b in bs}
                 for a, bs in taken.items()}
        # "end_trigger" says what triggered the end (kernels.END_REASON_NAMES), empty for a truncated
        # game whose end never came
        info = {"scores": self.scores(), "boats": boats, "boat_loads": loads,
                "end": END_NAMES[kernels.end_code(state)],
                "end_trigger": kernels.END_REASON_NAMES[state[kernels.END_REASON]]}
        if state[kernels.VARIANT] == kernels.VARIANT_ADVANCED:
            info["task_points"] = [int(kernels.task_points(state, p)) for p in range(self.num_players)]
        return info
