"""Issue 23 for Maka Bana: the validator (``kernels.validate``, ``core.check_state``) and the checked
faces of ``makabana_env.core``.

The validator must accept every row play can reach -- after every step of random games of both
variants and every player count, and the rows the search's determinizations build -- and refuse, with
a ``ValueError`` naming the entry, every row of the issue's examples.
"""
import os

import numpy as np
import pytest
from numba.core.registry import CPUDispatcher

import makabana_env
from agents.search import makabana as search
from makabana_env import core, kernels
from makabana_env.board import BIKINI, SPOT_BEACH

GAMES = int(os.environ.get("VALIDATE_GAMES", "12"))
SETUPS = [(p, v) for v in (kernels.VARIANT_HAAPII, kernels.VARIANT_MAO) for p in (2, 3, 4, 5)]


def started(num_players=4, variant=kernels.VARIANT_HAAPII, seed=0, steps=0):
    state = np.zeros(kernels.STATE_SIZE, dtype=np.int64)
    kernels.init(state, num_players, variant, 100, seed)
    for _ in range(steps):
        if state[kernels.STATUS] != kernels.STATUS_RUNNING:
            break
        kernels.step(state, kernels.random_action(state))
    return state


def assert_valid(state, where):
    code, offset = kernels.validate(state)
    assert code == kernels.VALID, f"{where}: {kernels.REASONS[code]} at {offset}"


# ---------------------------------------------------------------------------------------------------
# Every reachable row is valid
@pytest.mark.parametrize("num_players,variant", SETUPS)
def test_validate_accepts_every_state_of_random_games(num_players, variant):
    """Issue 23, What 1: the validator holds after every step of random games."""
    state = np.zeros(kernels.STATE_SIZE, dtype=np.int64)
    for game in range(GAMES):
        kernels.init(state, num_players, variant, 100, 1000 * num_players + game)
        assert_valid(state, "after init")
        steps = 0
        while state[kernels.STATUS] == kernels.STATUS_RUNNING:
            assert kernels.step(state, kernels.random_action(state)) == kernels.STEP_OK
            steps += 1
            assert_valid(state, f"game {game}, step {steps}")


@pytest.mark.parametrize("num_players,variant", SETUPS)
def test_validate_accepts_the_searchs_determinizations(num_players, variant):
    """Issue 23, What 1: the rows the search builds (agents.search.makabana.determinize, every belief)
    are positions too, and stay positions when the search plays on from them."""
    state = np.zeros(kernels.STATE_SIZE, dtype=np.int64)
    checked = 0
    for game in range(max(GAMES // 3, 2)):
        kernels.init(state, num_players, variant, 100, 77 + game)
        while state[kernels.STATUS] == kernels.STATUS_RUNNING:
            player = kernels.player_to_act(state)
            for belief in (search.BELIEF_UNIFORM, search.BELIEF_PLAUSIBLE, search.BELIEF_WEIGHTED):
                row = state.copy()
                search.determinize(row, player, 1 + checked, belief)
                assert_valid(row, f"determinized for player {player}, belief {belief}")
                for _ in range(8):
                    if row[kernels.STATUS] != kernels.STATUS_RUNNING:
                        break
                    kernels.step(row, search.rollout_action(row))
                    assert_valid(row, "a rollout from a determinization")
                checked += 1
            kernels.step(state, kernels.random_action(state))
    assert checked > 0


@pytest.mark.parametrize("num_players,seed", [(2, 35), (3, 3), (4, 8), (5, 51)])
def test_a_determinized_project_of_a_repainted_colour_is_asked_in_full(num_players, seed):
    """A denounced Mao colour whose visible card was paint, eliminated, and repainted down to no paint
    card: its hidden hand counts -1 paint cards, which the rules count as none.  The search's
    determinization added the -1, so that every row it built for another player in the rest of that
    season had PROJECT_NEXT one short of "every card asked" and was no position (1 row in about 2,800
    of random Mao games, each of these seeds' games the first of its player count to reach it)."""
    state = np.zeros(kernels.STATE_SIZE, dtype=np.int64)
    kernels.init(state, num_players, kernels.VARIANT_MAO, 100, seed)
    reached = 0
    while state[kernels.STATUS] == kernels.STATUS_RUNNING:
        player = kernels.player_to_act(state)
        repainted = [c for c in range(state[kernels.NUM_COLOURS]) if state[kernels.ELIMINATED + c]
                     and state[kernels.PROJECT_TOP + c] == kernels.PAINT_CARD and state[kernels.PAINTS + c] == 0
                     and kernels.owner(state, c) != player]
        if repainted and state[kernels.PHASE] in (kernels.PHASE_TIKI, kernels.PHASE_EXECUTE):
            for belief in (search.BELIEF_UNIFORM, search.BELIEF_PLAUSIBLE, search.BELIEF_WEIGHTED):
                row = state.copy()
                search.determinize(row, player, 1 + reached, belief)
                assert_valid(row, f"determinized for player {player}, belief {belief}")
                assert row[kernels.PROJECT_NEXT + repainted[0]] == state[kernels.PROJECT_NEXT + repainted[0]]
            reached += 1
        kernels.step(state, kernels.random_action(state))
    assert reached > 0


# ---------------------------------------------------------------------------------------------------
# The tables
def test_fields_cover_the_row_once_with_the_kernels_names():
    covered = np.zeros(kernels.STATE_SIZE, dtype=np.int64)
    for name, start, length in kernels.FIELDS:
        assert getattr(kernels, name) == start
        covered[start:start + length] += 1
    assert np.all(covered == 1)


def test_every_reason_is_a_message():
    assert kernels.REASONS[kernels.VALID] == "valid"
    assert all(isinstance(r, str) and r for r in kernels.REASONS)
    assert core.REASONS is kernels.REASONS and core.FIELDS is kernels.FIELDS


# ---------------------------------------------------------------------------------------------------
# Issue 23, "Why": each example gives a clear ValueError
def refused(state, match):
    with pytest.raises(ValueError, match=match):
        core.check_state(state)


def test_issue_23_a_hut_out_of_range_is_refused():
    """``s[HUT] = 10**6`` crashed the interpreter through set_state."""
    state = makabana_env.raw_env().state()
    state[core.HUT] = 10 ** 6
    refused(state, r"invalid state: HUT\[0\] = 1000000: a hut is -1 \(none\) or a colour in play")


@pytest.mark.parametrize("entry,value,match", [
    ("STATUS", 3, r"STATUS = 3: STATUS must be 0 \(running\)"),
    ("STATUS", kernels.STATUS_TERMINATED, r"PHASE = 0: PHASE must be 2 \(over\) exactly when"),
    ("PHASE", 6, r"PHASE = 6: PHASE must be 0 to 2 in Haapii"),
    ("PHASE", kernels.PHASE_OVER, r"PHASE = 2: PHASE must be 2 \(over\) exactly when"),
    ("TO_ACT", 4, r"TO_ACT = 4: TO_ACT must be a colour in play"),
    ("TO_ACT", 1, r"TO_ACT = 1: TO_ACT must be the colour DECIDED seats clockwise from FIRST"),
    ("TO_ACT", -1, r"TO_ACT = -1"),
])
def test_issue_23_a_bad_status_phase_or_colour_to_act_is_refused(entry, value, match):
    """A bad STATUS or PHASE gave a game that could never move; a bad TO_ACT an IndexError after the
    row was copied in."""
    state = makabana_env.raw_env().state()
    state[getattr(core, entry)] = value
    refused(state, match)


def test_issue_23_a_mao_phase_in_a_haapii_game_and_a_stuck_mao_game_are_refused():
    state = started(4, kernels.VARIANT_HAAPII)
    state[core.PHASE] = core.PHASE_DENOUNCE
    refused(state, "PHASE = 3")
    state = started(4, kernels.VARIANT_MAO, steps=14)   # the visible card, then 13 cards asked
    assert state[core.PROJECT_KIND + 0] == core.MAO_PROJECT
    state[core.PROJECT_NEXT + 0] = 0   # a ready project that has asked nothing
    refused(state, r"PROJECT_NEXT\[0\] = 0")


def test_issue_23_huts_and_reserve_not_adding_up_to_10_are_refused():
    state = started(3)
    state[core.HUT + 0] = 1  # a hut of colour 1 appears without leaving the reserve
    refused(state, r"RESERVE\[1\] = 10: huts in reserve plus huts on the board must be 10 per colour")


def test_issue_23_more_consistency_the_rules_keep():
    """Tikis before the tiki phase, a take-back without paint, a project on a spot out of play."""
    state = started(4)
    state[core.TIKI + 5] = 0
    refused(state, r"TIKI\[5\] = 0: tikis stand only from the tiki phase")
    state = started(4, steps=1)
    state[core.PAINTS + 0] = 0
    state[core.PROJECT_KIND + 0] = core.TAKE_BACK
    refused(state, r"PROJECT_KIND\[0\] = 1: a take-back project needs a paint card")
    state = started(3, steps=1)
    state[core.PROJECT_SPOT + 0] = int(np.flatnonzero(SPOT_BEACH == BIKINI)[0])
    refused(state, r"PROJECT_SPOT\[0\] = 9: a project names a spot in play")


def test_issue_23_core_init_on_a_short_array_is_refused():
    """``core.init(np.zeros(10, np.int64), 4, 0, 100, 0)`` crashed."""
    with pytest.raises(ValueError, match=r"state must be a 1-D C-contiguous numpy array of int64 with "
                                         rf"{core.STATE_SIZE} entries, got a int64 array of shape \(10,\)"):
        core.init(np.zeros(10, np.int64), 4, 0, 100, 0)


@pytest.mark.parametrize("args,match", [
    ((1, 0, 100, 0), "num_players must be an integer from 2 to 5, got 1"),
    ((4, 2, 100, 0), "variant must be an integer from 0 to 1, got 2"),
    ((4, 0, 0, 0), "max_turns must be an integer from 1"),
    ((4, 0, 100, -3), "seed must be an integer from 0"),
    ((4, 0, 10 ** 30, 0), "max_turns must be an integer from 1"),
    ((4.0, 0, 100, 0), r"num_players must be an integer from 2 to 5, got 4.0 \(float\)"),
])
def test_core_init_names_a_bad_option(args, match):
    with pytest.raises(ValueError, match=match):
        core.init(np.zeros(core.STATE_SIZE, np.int64), *args)


# ---------------------------------------------------------------------------------------------------
# The checked faces
def test_every_public_kernel_has_a_checked_face_of_the_same_name():
    public = [name for name, value in vars(kernels).items()
              if isinstance(value, CPUDispatcher) and not name.startswith("_")
              and value.py_func.__module__ == kernels.__name__]
    assert len(public) > 20
    for name in public:
        face = getattr(core, name)
        assert face is not getattr(kernels, name) and not isinstance(face, CPUDispatcher), name
    assert core.check_state(started()) is None


def test_checked_faces_refuse_bad_arrays_naming_them():
    state = started(4, kernels.VARIANT_MAO)
    with pytest.raises(ValueError, match=r"mask must be .* with 343 entries"):
        core.legal_action_mask(state, np.zeros(core.NUM_ACTIONS, np.int8))
    with pytest.raises(ValueError, match=r"obs must be .* of int8"):
        core.observe_player(state, 0, np.zeros(core.OBS_SIZE_MAO, np.int16), np.zeros(343, np.int8))
    with pytest.raises(ValueError, match="non-contiguous"):
        core.step(np.zeros((core.STATE_SIZE, 2), np.int64)[:, 0], 0)
    read_only = state.copy()
    read_only.flags.writeable = False
    with pytest.raises(ValueError, match="state must be writeable"):
        core.step(read_only, 0)
    assert core.legal_action_mask(read_only, np.zeros(343, np.int8)) is None  # reading is fine
    with pytest.raises(ValueError, match=r"out must be .* with 4 entries"):
        core.rewards(state, 0, np.zeros(3))
    with pytest.raises(ValueError, match="player must be an integer from 0 to 3, got 4"):
        core.observe_player(state, 4, np.zeros(core.OBS_SIZE_MAO, np.int8), np.zeros(343, np.int8))
    with pytest.raises(ValueError, match="colour must be an integer from 0 to 3"):
        core.huts_of(state, 7)
    with pytest.raises(ValueError, match="spot must be an integer from 0 to 38"):
        core.shown_card(39, 0)


def test_checked_faces_take_integer_like_actions_and_refuse_others():
    """Issue 23, What 3: numpy integers and 0-d arrays are actions; 2**70, floats and bools are not."""
    state = started(4)
    assert core.step(state.copy(), np.array(3)) == core.STEP_OK
    assert core.step(state.copy(), np.int16(3)) == core.STEP_OK
    assert core.step(state.copy(), core.TIKI_BASE) == core.STEP_ILLEGAL
    for bad in (2 ** 70, 3.0, True, "3", None):
        with pytest.raises(ValueError, match="action must be an integer"):
            core.step(state.copy(), bad)


def test_checked_faces_agree_with_the_kernels():
    state = started(5, kernels.VARIANT_MAO, seed=3, steps=40)
    mask_core, mask_kernel = np.zeros(343, np.int8), np.zeros(343, np.int8)
    core.legal_action_mask(state, mask_core)
    kernels.legal_action_mask(state, mask_kernel)
    assert np.array_equal(mask_core, mask_kernel)
    copy = state.copy()
    assert core.random_action(state) == kernels.random_action(copy)
    assert np.array_equal(state, copy)


def test_raw_env_and_batch_env_name_core_for_their_checks():
    """The contract with pacific_common's set_state: it calls ``self.checked.check_state``."""
    assert makabana_env.raw_env.checked is core
    assert makabana_env.BatchEnv.checked is core
