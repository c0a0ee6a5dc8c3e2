"""PettingZoo AEC environment for Maka Bana.

=====================  ==========================================================================
Import                 ``from makabana_env import env, raw_env``
Agents                 ``player_0`` … ``player_{n-1}``; n = ``num_players`` in 2 … 5
Action space           ``Discrete(273)`` — every decision kind in one space (below); Mao: 343
Observation space      ``Dict(observation=Box(0, 100, (OBS_SIZE,), int8),
                       action_mask=Box(0, 1, (273,), int8))``; Mao: ``OBS_SIZE_MAO`` and 343
Rewards                at the end only: ``win_loss`` (default) +1 sole winner, 0 tied winners,
                       −1 others; ``score``: final points; ``margin``: points − best other
Termination            out of huts, or the season after a beach fills up (rulebook "Game Ends")
Truncation             after ``max_turns`` seasons (default 100); rewards 0, scores still reported
Infos                  ``colour`` for the agent to act: the colour asked (two per player with 2)
Infos at the end       ``scores``, ``colour_scores``, ``end`` (``"rules"`` or ``"truncated"``)
Render modes           ``ansi`` returns the text board, ``human`` prints it, ``rgb_array`` returns an
                       H × W × 3 uint8 picture; each a spectator's view (no one's hidden projects)
=====================  ==========================================================================

Actions
-------
=============  ================================================================================
0 … 116        construction project: spot ``a // 3``, shown card ``a % 3`` (0 beach, 1 area, 2 theme)
117 … 233      take-back project: spot ``(a − 117) // 3``, shown card ``(a − 117) % 3`` plus paint
234 … 272      place the tiki on spot ``a − 234``
=============  ================================================================================

The mask offers only the actions of the decision being asked (projects, or tiki placements).
Spots are numbered as in ``makabana_env.board.SPOT_NAMES``.

Observation (int8, from the acting colour's point of view; relative colour k = k seats clockwise
from the viewer, so the viewer's own pieces come first; ``makabana_env.core`` holds the offsets)
-------------------------------------------------------------------------------------------------
==========================  =======  ===========================================================
block                       size     content
==========================  =======  ===========================================================
``OBS_HUT``                 5 × 39   hut of relative colour k on each spot
``OBS_TIKI``                5 × 39   tiki of relative colour k on each spot
``OBS_IN_PLAY``             39       spot is in play (Bikini is out with 3 players)
``OBS_COLOUR``              5 × 19   present, mine, first player, to act, huts in reserve, paint
                                     cards, project prepared, paint shown, shown card (11 one-hot)
``OBS_OWN_PROJECT``         5 × 40   full project (spot one-hot, take-back flag) of own colours
``OBS_LAST``                5 × 41   last season's revealed projects: spot, take-back, success
``OBS_PHASE``               3        project / tiki / game over (all 0 in Mao's other
                                     phases: ``OBS_M_PHASE`` names every phase)
``OBS_LAST_SEASON``         1        a full beach has made this the last season
``OBS_TWO_PLAYER``          1        two-player game (each player has two colours)
``OBS_SEASON``              1        seasons played, capped at 100
==========================  =======  ===========================================================

Other players' projects are hidden except their shown cards, which appear once every colour has
chosen (the rulebook reveals hints simultaneously).  In Mao a colour's own visible card is seen by its
player from the moment it is chosen.

Maka Bana Mao (``variant="mao"``)
--------------------------------
``Discrete(343)`` and an observation of ``kernels.OBS_SIZE_MAO`` values: the Haapii observation followed
by a Mao block (phase, own project cards, known card counts, revealed projects, the denunciation, the
paint case, the execution).  A project is the visible card, then add or keep for each other card of
the hand, in increasing card number (a fixed number of decisions, so the turn order shows nothing);
then a denunciation round, the paint case of a valid denunciation, tikis and an execution that asks
only where there is a choice.

=============  ================================================================================
234 … 272      place the tiki on spot ``a − 234``
273 … 284      project: card ``a − 273`` on top, visible (cards: 4 beaches, 4 areas, 3 themes, paint)
285 … 296      project: add card ``a − 285`` (the card asked), hidden
297            project: keep the card asked in hand
298 … 301      denounce the colour ``a − 297`` seats clockwise
302            do not denounce
303 … 341      spot ``a − 303``: build or take back there, repaint that hut, accept that repaint
342            stop executing / decline the payback / keep the paint card
=============  ================================================================================

The decision sequence and every ruling are in ``makabana_env/RULES.md`` ("Maka Bana Mao").

Illegal actions
---------------
``raw_env`` raises ``ValueError`` naming the action and the decision asked. ``env()`` wraps it the
way PettingZoo's classic games are wrapped: an illegal action ends the game with reward −1 for the
offender and 0 for everybody else, an action outside the space fails an assertion, and calling
methods out of order is caught: PettingZoo's ``TerminateIllegalWrapper``, ``AssertOutOfBoundsWrapper``
and ``OrderEnforcingWrapper``, done by one layer (``pacific_common.aec.CheckedEnv``).

Version history
---------------
* v0: Haapii Maka Bana (the basic game) for 2 – 5 players; Maka Bana Mao as ``variant="mao"``.  Mao's
  observation showed a colour's own visible card only once its stack was finished, until it showed it
  from the moment the card is chosen.  The shown-card block of a colour wrote into the next colour's
  block until it was fixed.  ``infos`` gained ``colour`` (the colour asked) and, at the end, ``end``.
  ``render()`` showed the text as the player to act sees it (his own projects), until it showed every
  mode as a spectator's view.
"""
from pacific_common.aec import CoreAECEnv, wrap
from pacific_common.ends import END_NAMES

from . import core as checked_faces  # not `core`: the class body's `core` names the kernels
from . import kernels
from .board import COLOUR_NAMES
from .notation import describe_action
from .render import render_ansi, render_rgb


def env(**kwargs):
    """The Maka Bana AEC environment, wrapped like PettingZoo's classic games."""
    return wrap(raw_env(**kwargs))


class raw_env(CoreAECEnv):
    """Maka Bana as a PettingZoo AEC environment; see the module docstring."""

    metadata = {"name": "makabana_v0", "render_modes": ["human", "ansi", "rgb_array"],
                "is_parallelizable": False, "render_fps": 1}
    core = kernels
    checked = checked_faces  # makabana_env.core: argument and state checks (set_state: check_state)
    players = (2, 5)
    variants = {"haapii": kernels.VARIANT_HAAPII, "mao": kernels.VARIANT_MAO}
    decisions = ("project", "tiki", "over", "denunciation", "payback", "repaint offer", "execution")

    def __init__(self, num_players=4, variant="haapii", max_turns=100, render_mode=None, reward="win_loss"):
        super().__init__(num_players, variant, max_turns, render_mode, reward)

    describe_action = staticmethod(describe_action)
    render_ansi = staticmethod(render_ansi)
    render_rgb = staticmethod(render_rgb)

    def _sync_agents(self):
        super()._sync_agents()
        self._name_colour_to_act()

    def step(self, action):
        super().step(action)
        self._name_colour_to_act()

    def _name_colour_to_act(self):
        """``infos[agent]["colour"]``: the colour the agent to act plays now -- with 2 players each
        player has two colours, and the observation alone does not say which one is asked.  New dicts,
        not changed ones: an info that ``last()`` handed out keeps what it said."""
        for agent, info in self.infos.items():
            if "colour" in info:
                self.infos[agent] = {key: value for key, value in info.items() if key != "colour"}
        colour = int(self._state[kernels.TO_ACT])
        if colour >= 0 and self.agents:
            agent = self.agent_selection
            self.infos[agent] = {**self.infos[agent], "colour": COLOUR_NAMES[colour]}

    def final_info(self):
        return {"scores": self.scores(), "colour_scores": self.colour_scores(),
                "end": END_NAMES[kernels.end_code(self._state)]}

    def colour_scores(self):
        """Points per colour as the board stands (two colours per player in the two-player game)."""
        return [int(kernels.colour_score(self._state, c)) for c in range(self._state[kernels.NUM_COLOURS])]
