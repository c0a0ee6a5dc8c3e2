"""PettingZoo AEC environment for Make Make.

=====================  ==========================================================================
Import                 ``from makemake_env import env, raw_env``
Agents                 ``player_0`` … ``player_{n-1}`` (clan c is player_c); n = ``num_players``
                       in 3 … 4 (2 as an unofficial option)
Action space           ``Discrete(912)`` — every decision kind in one space (below)
Observation space      ``Dict(observation=Box(0, 100, (OBS_SIZE,), int8),
                       action_mask=Box(0, 1, (912,), int8))``
Rewards                at the end only: ``win_loss`` (default) +1 winner, −1 others, 0 for all in a
                       stalemate; ``score``: Tangata Manu in ceremonies + 1 for the amulet;
                       ``margin``: score − best other score
Termination            a clan has the amulet and its 5 Tangata Manu on the board; or a stalemate
Truncation             after ``max_turns`` clan turns (default 1000); rewards 0
Final ``infos``        ``scores``, ``winner`` (an agent or None) and ``end``: ``"win"``,
                       ``"stalemate"`` or ``"truncated"`` (``pacific_common.ends``)
Render modes           ``ansi`` returns the text board, ``human`` prints it, ``rgb_array`` returns an
                       H × W × 3 uint8 picture; each a spectator's view (the game hides nothing)
=====================  ==========================================================================

Actions
-------
=============  ================================================================================
0 … 791        dominance: ``a = 22 t + 2 (k − 1) + chief`` places k tokens (1 … 11) on territory t,
               with the chief if ``chief`` is 1 — on a neutral territory, or to take another clan's
792 … 827      dominance: withdraw from territory ``a − 792``, leaving one token
828 … 863      ceremonial phase: build the next Moai on territory ``a − 828``
864 … 911      ceremonial phase: start a ceremony on ground ``a − 864``
=============  ================================================================================

Territories and grounds are numbered as in ``makemake_env.board`` (``TERRITORY_NAMES``,
``GROUND_NAMES``). The Moai and ceremony decisions are asked only when there is a real choice (several
Moai possible, or more free grounds than Tangata Manu in supply); everything forced happens inside
the step. A clan with no legal dominance action passes without being asked.

Observation (int8, from the observing clan's point of view; relative clan k = k seats clockwise)
------------------------------------------------------------------------------------------------
==================  =======  ==================================================================
block               size     content
==================  =======  ==================================================================
``OBS_CONTROL``     4 × 36   territory controlled by relative clan k
``OBS_TOKENS``      36       dominance tokens on the territory (0 … 11)
``OBS_CHIEF``       4 × 36   chief of relative clan k on the territory
``OBS_MOAI``        36       Moai on the territory
``OBS_MANU``        4 × 48   Tangata Manu of relative clan k in a ceremony on the ground
``OBS_CLAN``        4 × 7    present, to act, amulet, tokens in supply, chief in supply,
                             Tangata Manu in supply, sacred territories controlled
``OBS_PHASE``       4        dominance / Moai choice / ceremony choice / game over
``OBS_MOAI_LEFT``   1        Moai not yet built
``OBS_TURN``        1        share of ``max_turns`` played, in percent (0 … 100, rounded down)
==================  =======  ==================================================================

Make Make has no hidden information.  The state row also records each clan's last action, passes
included (``makemake_env.last_actions``); the observation leaves it out (RULES.md, Last actions).

Illegal actions
---------------
``raw_env`` raises ``ValueError`` naming the action and the decision asked, and changes nothing.
``env()`` is wrapped like PettingZoo's classic games: an illegal action ends the game with −1 for the
offender and 0 for the others, an action outside the space fails an assertion, and calls out of order
are caught.

Version history
---------------
* v0: the complete game for 2 – 4 clans.  ``OBS_TURN`` was the clan turns played, capped at 100, until
  it became the share of ``max_turns`` played; the final ``infos`` gained ``end``.  The state row
  gained each clan's last action (``LAST_ACTION``); the spaces did not change.
  ``render()``'s text named the clan to act as "you", until every mode showed a spectator's view.
"""
from pacific_common.aec import CoreAECEnv, wrap
from pacific_common.ends import END_NAMES

from . import core as checked_core
from . import kernels
from .notation import describe_action
from .render import render_ansi, render_rgb


def env(**kwargs):
    """The Make Make AEC environment, wrapped like PettingZoo's classic games."""
    return wrap(raw_env(**kwargs))


class raw_env(CoreAECEnv):
    """Make Make as a PettingZoo AEC environment; see the module docstring."""

    metadata = {"name": "makemake_v0", "render_modes": ["human", "ansi", "rgb_array"],
                "is_parallelizable": False, "render_fps": 1}
    core = kernels
    checked = checked_core     # the checked faces: set_state validates a row with checked.check_state
    players = (2, 4)
    variants = {"standard": kernels.VARIANT_STANDARD}
    decisions = ("dominance", "Moai", "ceremony", "over")

    def __init__(self, num_players=4, variant="standard", max_turns=1000, render_mode=None,
                 reward="win_loss"):
        super().__init__(num_players, variant, max_turns, render_mode, reward)

    describe_action = staticmethod(describe_action)
    render_ansi = staticmethod(render_ansi)
    render_rgb = staticmethod(render_rgb)

    def final_info(self):
        winner = int(self._state[kernels.WINNER])
        return {"scores": self.scores(), "winner": None if winner < 0 else self.possible_agents[winner],
                "end": END_NAMES[kernels.end_code(self._state)]}
