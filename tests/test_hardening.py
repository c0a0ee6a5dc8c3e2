"""Issue 23, the shared parts: no input to ``raw_env``, ``env()``, ``BatchEnv`` or ``SelfPlayEnv`` of
any game ends in anything but its result or a ``ValueError`` that names what was wrong.

- item 1: ``set_state`` runs the game's ``checked.check_state`` before copying anything, so a refused
  row leaves the environment as it was (tested with a stand-in ``checked`` where the game has none);
  ``BatchEnv.set_state`` / ``state`` do the same for one game of a batch;
- item 2: every public ``BatchEnv`` method checks its array arguments (the issue's
  ``random_actions(out=np.empty(1))`` with 300 games wrote past the array);
- item 3: integer-like actions, 0-d arrays included, are accepted in range; options and seeds out of
  range or of the wrong type are ``ValueError``s naming the option;
- item 5: ``SelfPlayEnv`` passes Gymnasium's ``check_env``, and an illegal action ends the learner's
  game as a loss, reported in ``info``;
- item 6: property-based tests (``tests/fuzz_inputs.py``, hypothesis) run in a subprocess per game,
  so that a crash of the interpreter fails the test instead of killing the suite.
"""
import copy
import importlib
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import makabana_env
import makemake_env
import maunakea_env
from pacific_common.aec import ActionOutsideSpace
from pacific_common.options import MAX_TURNS_LIMIT, NUM_ENVS_LIMIT, SEED_LIMIT

PACKAGES = {"makabana": makabana_env, "makemake": makemake_env, "maunakea": maunakea_env}
VARIANTS = [(name, variant) for name, package in PACKAGES.items() for variant in package.raw_env.variants]
TESTS = Path(__file__).resolve().parent


def legal_actions(env):
    return np.flatnonzero(env.observe(env.agent_selection)["action_mask"])


def illegal_action(env):
    return int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"] == 0)[0])


def snapshot(env):
    return (env.state(), list(env.agents), env.agent_selection, dict(env.rewards),
            dict(env._cumulative_rewards), dict(env.terminations), dict(env.truncations),
            {a: dict(i) for a, i in env.infos.items()})


def assert_same(before, after):
    np.testing.assert_array_equal(before[0], after[0])
    assert before[1:] == after[1:]


class RefusingCheck:
    """A stand-in for a game's checked core: refuses every row, and notes what it was shown."""

    def __init__(self, env_state):
        self.env_state = env_state   # how to read the environment's own row at the time of the call
        self.seen = []

    def check_state(self, state):
        self.seen.append((state.copy(), self.env_state().copy()))
        raise ValueError("invalid state: HUT[3] = 1000000: a hut colour is -1 or 0 … 4")


class AcceptingCheck(RefusingCheck):
    def check_state(self, state):
        self.seen.append((state.copy(), self.env_state().copy()))


# -- item 1: set_state validates before copying -------------------------------------------------------
@pytest.mark.parametrize("name", PACKAGES)
def test_raw_env_set_state_refused_by_check_state_changes_nothing(name):
    """Issue 23 item 1: "A rejected row leaves the environment exactly as it was"."""
    env = PACKAGES[name].raw_env(num_players=3)
    env.reset(seed=5)
    env.step(int(legal_actions(env)[0]))
    other = PACKAGES[name].raw_env(num_players=3)
    other.reset(seed=9)
    row = other.state()
    env.checked = RefusingCheck(env.state)
    before = snapshot(env)
    with pytest.raises(ValueError, match="HUT\\[3\\]"):
        env.set_state(row)
    assert_same(before, snapshot(env))
    shown, own = env.checked.seen[0]
    np.testing.assert_array_equal(shown, row)
    np.testing.assert_array_equal(own, before[0])   # asked before anything was copied

    env.checked = AcceptingCheck(env.state)
    env.set_state(row)
    np.testing.assert_array_equal(env.state(), row)
    np.testing.assert_array_equal(env.checked.seen[0][1], before[0])


@pytest.mark.parametrize("name", PACKAGES)
def test_set_state_refuses_rows_an_int64_cannot_hold_and_accepts_written_out_rows(name):
    env = PACKAGES[name].raw_env(num_players=3)
    env.reset(seed=2)
    row = env.state()
    env.reset(seed=3)
    before = snapshot(env)
    too_big = row.astype(np.uint64)
    too_big[-1] = 2**64 - 1
    with pytest.raises(ValueError, match="int64"):
        env.set_state(too_big)
    with pytest.raises(ValueError, match="shape"):
        env.set_state([float(v) for v in row])
    with pytest.raises(ValueError, match="shape"):
        env.set_state(row[:-1].tolist() + [2**70])
    assert_same(before, snapshot(env))
    env.set_state(row.tolist())   # a row written out, as a game record holds it
    np.testing.assert_array_equal(env.state(), row)


@pytest.mark.parametrize("name", PACKAGES)
def test_batch_state_and_set_state_continue_a_game_like_raw_env(name):
    """Brief: ``BatchEnv.set_state(game_index, state)`` and a read-only ``state(game_index)`` copy."""
    package = PACKAGES[name]
    env = package.raw_env(num_players=3)
    env.reset(seed=11)
    for _ in range(5):
        env.step(int(legal_actions(env)[-1]))
    batch = package.BatchEnv(4, seed=0, num_players=3)
    batch.set_state(2, env.state())
    np.testing.assert_array_equal(batch.state(2), env.state())
    assert batch.agent_to_act[2] == env.possible_agents.index(env.agent_selection)
    np.testing.assert_array_equal(batch.action_masks[2], env.observe(env.agent_selection)["action_mask"])
    np.testing.assert_array_equal(batch.observations[2], env.observe(env.agent_selection)["observation"])
    copy = batch.state(2)
    copy[:] = 0
    assert batch.states[2].any()   # state(g) is a copy
    # the same action in both: the first legal one
    actions = np.array([np.flatnonzero(mask)[0] for mask in batch.action_masks])
    batch.step(actions)
    env.step(int(legal_actions(env)[0]))
    np.testing.assert_array_equal(batch.state(2), env.state())


@pytest.mark.parametrize("name", PACKAGES)
def test_a_set_row_keeps_its_own_max_turns_until_the_next_game(name):
    """``MAX_TURNS`` is part of a position (a position text has it too): a row set into an
    environment or a batch is truncated at its own limit, and the next game at the environment's."""
    package = PACKAGES[name]
    core = package.raw_env.core
    short = package.raw_env(num_players=2, max_turns=1)
    short.reset(seed=3)
    env = package.raw_env(num_players=2)
    env.reset(seed=3)
    env.set_state(short.state())
    rng = np.random.default_rng(0)
    while env.state()[core.STATUS] == core.STATUS_RUNNING:
        env.step(int(rng.choice(legal_actions(env))))
    assert env.state()[core.MAX_TURNS] == 1 and env.state()[core.STATUS] == core.STATUS_TRUNCATED
    env.reset(seed=4)
    assert env.state()[core.MAX_TURNS] == env.max_turns > 1

    # a batch restarts a game from its row: with autoreset, the slot would keep the row's limit for good
    batch = package.BatchEnv(2, seed=0, num_players=2)
    before = batch.states.copy()
    with pytest.raises(ValueError, match="state has MAX_TURNS = 1, this batch max_turns=.* make the batch "
                                         "with max_turns=1, or with autoreset=False"):
        batch.set_state(1, short.state())
    np.testing.assert_array_equal(batch.states, before)
    batch = package.BatchEnv(2, seed=0, num_players=2, autoreset=False)
    batch.set_state(1, short.state())
    while not batch.truncated[1]:
        batch.step(batch.random_actions())
    batch.reset(seed=1)
    assert (batch.states[:, core.MAX_TURNS] == batch.max_turns).all()


@pytest.mark.parametrize("name", PACKAGES)
def test_batch_set_state_checks_index_row_and_game_before_changing_anything(name):
    package = PACKAGES[name]
    batch = package.BatchEnv(3, seed=0, num_players=3)
    before = [a.copy() for a in (batch.states, batch.observations, batch.action_masks, batch.agent_to_act)]
    row = package.raw_env(num_players=3).state()
    for bad_index in (3, -1, 2**70, 1.0, "0", np.array([1])):
        with pytest.raises(ValueError, match="game_index"):
            batch.set_state(bad_index, row)
    with pytest.raises(ValueError, match="shape"):
        batch.set_state(0, row[:-1])
    with pytest.raises(ValueError, match="4-player"):
        batch.set_state(0, package.raw_env(num_players=4).state())
    batch.checked = RefusingCheck(lambda: batch.states[0])
    with pytest.raises(ValueError, match="invalid state"):
        batch.set_state(0, row)
    del batch.checked
    finished = package.raw_env(num_players=3, max_turns=1)
    finished.reset(seed=0)
    while finished.agents and not any(finished.terminations.values()) and not any(finished.truncations.values()):
        finished.step(int(legal_actions(finished)[0]))
    with pytest.raises(ValueError, match="autoreset"):
        batch.set_state(1, finished.state())
    for old, new in zip(before, (batch.states, batch.observations, batch.action_masks, batch.agent_to_act)):
        np.testing.assert_array_equal(old, new)
    held = package.BatchEnv(2, seed=0, autoreset=False, num_players=3)
    held.set_state(1, finished.state())   # without autoreset a finished game is a game like any other
    assert held.agent_to_act[1] == -1 and not held.action_masks[1].any()


# -- item 2: array arguments of BatchEnv ----------------------------------------------------------------
@pytest.mark.parametrize("name", PACKAGES)
def test_batch_random_actions_checks_out(name):
    """Issue 23: ``BatchEnv.random_actions(out=np.empty(1, np.int64))`` with 300 games wrote past the array."""
    batch = PACKAGES[name].BatchEnv(300, seed=1, num_players=3)
    read_only = np.empty(300, np.int64)
    read_only.flags.writeable = False
    for out, message in ((np.empty(1, np.int64), "300 entries"), (np.empty(300, np.int32), "int64"),
                         (np.empty((300, 1), np.int64), "1-D"), (np.empty(600, np.int64)[::2], "contiguous"),
                         (read_only, "writeable"), ([0] * 300, "list")):
        with pytest.raises(ValueError, match=message):
            batch.random_actions(out=out)
    out = np.full(300, -7, np.int64)
    assert batch.random_actions(out=out) is out and (out >= 0).all()


@pytest.mark.parametrize("name", PACKAGES)
def test_batch_step_checks_actions_and_observe(name):
    batch = PACKAGES[name].BatchEnv(4, seed=1, num_players=3)
    before = batch.states.copy()
    for actions, message in ((np.full(4, 2**40), "game 0: illegal action 1099511627776"),
                             (np.array([0, 0, 0, 2**64 - 1], np.uint64), "game 3"),
                             (np.array([0, -2, 0, 0]), "game 1"),
                             (np.zeros(4, np.float64), "integer array"), ([[0] * 4], "shape"),
                             (np.array([0, 0, 0, 2**70], dtype=object), "integer array")):
        with pytest.raises(ValueError, match=message):
            batch.step(actions)
    legal = np.array([np.flatnonzero(mask)[0] for mask in batch.action_masks])
    with pytest.raises(ValueError, match="observe"):
        batch.step(legal, observe=np.ones(5, bool))
    with pytest.raises(ValueError, match="num_steps"):
        batch.play_random(-1)
    with pytest.raises(ValueError, match="num_steps"):
        batch.play_random(2**70)
    np.testing.assert_array_equal(before, batch.states)
    batch.step(legal.astype(np.int16))   # any integer dtype that holds the actions


# -- item 3: actions ------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", PACKAGES)
def test_integer_like_actions_are_accepted_everywhere(name):
    """Issue 23: ``env().step(np.array(3))``, an action as stable-baselines3's ``predict`` returns it."""
    package = PACKAGES[name]
    kinds = (np.int64, np.int16, np.uint32, np.array, lambda a: np.array(a, np.uint16), int)
    for factory in (package.raw_env, package.env):
        env, twin = factory(num_players=3), package.raw_env(num_players=3)
        env.reset(seed=4)
        twin.reset(seed=4)
        for kind in kinds:
            action = int(legal_actions(twin)[-1])
            env.step(kind(action))
            twin.step(action)
            np.testing.assert_array_equal(env.state(), twin.state())


@pytest.mark.parametrize("name", PACKAGES)
def test_actions_that_are_not_integers_of_the_space_are_value_errors(name):
    """Issue 23: ``raw_env.step(2**70)`` raised OverflowError or a Numba typing error."""
    package = PACKAGES[name]
    bad = [2**70, -2**70, 2**63, -1, 10**9, 3.0, np.float32(1), "3", b"3", None, [1], np.array([1]),
           np.array([[1]]), np.array(1.0), True, np.bool_(False), object()]
    raw = package.raw_env(num_players=3)
    raw.reset(seed=0)
    wrapped = package.env(num_players=3)
    wrapped.reset(seed=0)
    for action in bad:
        before = raw.state()
        with pytest.raises(ValueError, match="integer action"):
            raw.step(action)
        np.testing.assert_array_equal(before, raw.state())
        with pytest.raises(ActionOutsideSpace, match="not in action space"):
            wrapped.step(action)
        assert not any(wrapped.terminations.values())
    assert issubclass(ActionOutsideSpace, ValueError) and issubclass(ActionOutsideSpace, AssertionError)
    for agent in ("player_7", 0, None, ["player_0"]):
        with pytest.raises(ValueError, match="agent must be one of"):
            raw.observe(agent)


# -- item 3: options and seeds ----------------------------------------------------------------------
BAD_OPTIONS = [
    ("max_turns", 10**30), ("max_turns", MAX_TURNS_LIMIT + 1), ("max_turns", 0), ("max_turns", 1.5),
    ("max_turns", "100"), ("max_turns", None), ("max_turns", True),
    ("num_players", 2**70), ("num_players", [3]), ("num_players", 3.0), ("num_players", None),
    ("variant", ["x"]), ("variant", {"a": 1}), ("variant", None), ("variant", 0),
    ("reward", ["win_loss"]), ("reward", np.array(["score", "margin"])), ("reward", None),
]


@pytest.mark.parametrize("option,value", BAD_OPTIONS, ids=[f"{o}={v!r}"[:40] for o, v in BAD_OPTIONS])
@pytest.mark.parametrize("name", PACKAGES)
def test_bad_options_are_value_errors_naming_the_option(name, option, value):
    """Issue 23: ``BatchEnv(2, max_turns=10**30)`` and ``raw_env(variant=["x"])`` raised raw errors."""
    package = PACKAGES[name]
    for make in (package.raw_env, package.env, lambda **kw: package.BatchEnv(2, **kw)):
        with pytest.raises(ValueError, match=option):
            make(**{option: value})


@pytest.mark.parametrize("name", PACKAGES)
def test_bad_batch_options_and_seeds_are_value_errors_naming_them(name):
    """Issue 23: ``BatchEnv(2, seed=2**64)`` raised OverflowError."""
    package = PACKAGES[name]
    batch_only = [("num_envs", 0), ("num_envs", NUM_ENVS_LIMIT + 1), ("num_envs", 10**30), ("num_envs", 2.0),
                  ("autoreset", "yes"), ("autoreset", 1), ("autoreset", None), ("outputs", ["state"]),
                  ("outputs", "all")]
    for option, value in batch_only:
        with pytest.raises(ValueError, match=option):
            package.BatchEnv(**{"num_envs": 2, option: value})
    for render_mode in ("x", ["ansi"], 1):
        with pytest.raises(ValueError, match="render_mode"):
            package.raw_env(render_mode=render_mode)
    for seed in (2**64, SEED_LIMIT + 1, -1, 1.5, "7", [1]):
        with pytest.raises(ValueError, match="seed"):
            package.BatchEnv(2, seed=seed)
        env = package.raw_env(num_players=3)
        with pytest.raises(ValueError, match="seed"):
            env.reset(seed=seed)
    wrapped = package.env()
    with pytest.raises(ValueError, match="seed"):
        wrapped.reset(seed=-1)
    with pytest.raises(AttributeError, match="cannot be accessed before reset"):   # the refusal reset nothing
        wrapped.agent_selection
    batch = package.BatchEnv(2, seed=SEED_LIMIT)   # the largest seed: games SEED_LIMIT and 0
    raw = package.raw_env()
    raw.reset(seed=0)
    np.testing.assert_array_equal(batch.states[1], raw.state())
    package.BatchEnv(2, seed=np.array(3), num_players=np.int8(3), max_turns=np.uint16(50), autoreset=np.bool_(False))


# -- item 5: SelfPlayEnv -------------------------------------------------------------------------------
@pytest.mark.parametrize("name", PACKAGES)
def test_selfplay_env_passes_gymnasium_check_env(name):
    from gymnasium.utils.env_checker import check_env

    from agents.training.selfplay import SelfPlayEnv
    check_env(SelfPlayEnv(name, 2, opponents=["random"], max_turns=20), skip_render_check=True)


@pytest.mark.parametrize("name", PACKAGES)
def test_selfplay_illegal_action_ends_the_game_as_a_loss(name):
    """Issue 23 item 5: "An illegal action by the learner ends its game as a loss, as PettingZoo's
    TerminateIllegalWrapper does, and is reported in info"."""
    from agents.training.selfplay import ILLEGAL_REWARD, SelfPlayEnv
    env = SelfPlayEnv(name, 3, opponents=["random"], shaping=0.5)
    obs, _ = env.reset(seed=3)
    state = env.state.copy()
    illegal = np.array(int(np.flatnonzero(~env.action_masks())[0]))   # a 0-d array, as predict returns
    obs2, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated) == (ILLEGAL_REWARD, True, False) == (-1.0, True, False)
    assert info["illegal_action"] is True and info["seat"] == env.seat and info["win_share"] == 0.0
    np.testing.assert_array_equal(state, env.state)   # nothing was played
    np.testing.assert_array_equal(obs, obs2)
    assert not env.action_masks().any()
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)
    env.reset()
    legal = int(np.flatnonzero(env.action_masks())[0])
    assert "illegal_action" not in env.step(legal)[4]


# -- item 6: property-based tests, each game in its own interpreter ---------------------------------------
@pytest.mark.parametrize("name", PACKAGES)
def test_fuzzed_actions_options_and_seeds_in_a_subprocess(name):
    """Issue 23 item 6: arbitrary actions, options and seeds either work or raise ValueError; a crash
    of the interpreter (a segmentation fault, say) is this test's failure, not the suite's."""
    code = f"import sys; sys.path.insert(0, {str(TESTS)!r}); import fuzz_inputs; fuzz_inputs.run({name!r})"
    done = subprocess.run([sys.executable, "-c", code], cwd=TESTS.parent, capture_output=True, text=True,
                          timeout=900)
    assert done.returncode == 0, f"exit status {done.returncode}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    assert f"{name}: every property held" in done.stdout


# -- found by probing every public surface again -----------------------------------------------------
@pytest.mark.parametrize("name", PACKAGES)
@pytest.mark.parametrize("how", ["env.set_state", "env.unwrapped.set_state", "before reset: env.set_state",
                                 "before reset: env.unwrapped.set_state", "after an illegal move",
                                 "env.unwrapped.step"])
def test_set_state_through_env_forgets_the_mask_of_the_position_replaced(name, how):
    """``env()``'s illegal-move check keeps the mask the acting agent was shown; after ``set_state`` it
    belonged to another position, and a move legal in the new one ended the game as illegal.  The same
    through ``env.unwrapped`` (the README's ``env.unwrapped.set_state``), which the wrapper did not see;
    before the first ``reset()`` a position set starts the game (the step was "reset() needs to be
    called before step"); after a game ended by an illegal move, a position set plays on."""
    import warnings

    package = PACKAGES[name]
    source = package.raw_env(num_players=2)
    source.reset(seed=5)
    earlier = legal_actions(source)
    for moves in range(1, 41):
        source.step(int(legal_actions(source)[-1]))
        later_legal = set(legal_actions(source)) - set(earlier)
        if later_legal and source.agents:
            break
    assert later_legal, "no position with a move the first one lacks"
    later = source.state()
    env = package.env(num_players=2)
    if not how.startswith("before reset"):
        env.reset(seed=5)
        env.last()                          # the acting agent is shown its mask
    if how == "after an illegal move":
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            env.step(int(np.flatnonzero(env.last()[0]["action_mask"] == 0)[0]))
        assert all(env.terminations.values())
    if how == "env.unwrapped.step":         # the same moves, played behind the wrapper
        for _ in range(moves):
            env.unwrapped.step(int(legal_actions(env.unwrapped)[-1]))
        assert np.array_equal(env.unwrapped.state(), later)
    elif how.endswith("env.set_state"):
        env.set_state(later)
    else:
        env.unwrapped.set_state(later)
    agent = env.agent_selection
    with warnings.catch_warnings():
        warnings.simplefilter("error")      # "Illegal move made" would be a warning
        env.step(int(min(later_legal)))
    assert not any(env.unwrapped.terminations.values()) or env.unwrapped.rewards[agent] != -1
    assert env.unwrapped.position_version > 0


def test_a_read_only_mauna_kea_row_is_read_like_the_others():
    """Mauna Kea's validation walked the legal actions with the row itself as a dummy mask, which Numba
    cannot compile for a read-only array (``np.load(..., mmap_mode="r")``)."""
    env = maunakea_env.raw_env(num_players=2)
    env.reset(seed=3)
    row = env.state()
    row.flags.writeable = False
    maunakea_env.core.check_state(row)
    assert maunakea_env.core.player_to_act(row) == 0
    assert maunakea_env.from_text(maunakea_env.to_text(row)).tolist() == row.tolist()


@pytest.mark.parametrize("name", PACKAGES)
def test_a_masked_array_is_refused_as_a_state(name):
    """The kernels would not see the mask (Numba refused the subclass with its own error)."""
    package = PACKAGES[name]
    env = package.raw_env(num_players=2)
    env.reset(seed=1)
    before = env.state()
    with pytest.raises(ValueError, match="got MaskedArray"):
        env.set_state(np.ma.array(before))
    assert env.state().tolist() == before.tolist()


@pytest.mark.parametrize("name", PACKAGES)
def test_play_random_leaves_the_outputs_of_the_positions_it_reached(name):
    """``play_random`` moved the rows on and left the masks, observations and ``agent_to_act`` of the
    old positions, so the next step's legal move was refused; without autoreset it restarted games."""
    package = PACKAGES[name]
    batch = package.BatchEnv(3, seed=1, num_players=2)
    batch.play_random(7)
    fresh = package.BatchEnv(3, seed=1, num_players=2, outputs="observations")
    for g in range(3):
        fresh.set_state(g, batch.state(g))   # writes the outputs of that row
    np.testing.assert_array_equal(batch.action_masks, fresh.action_masks)
    np.testing.assert_array_equal(batch.observations, fresh.observations)
    np.testing.assert_array_equal(batch.agent_to_act, fresh.agent_to_act)
    assert not batch.terminated.any() and not batch.rewards.any()
    batch.step(np.array([np.flatnonzero(m)[0] for m in batch.action_masks]))

    finished = package.BatchEnv(2, seed=1, num_players=2, autoreset=False)
    assert finished.play_random(100_000) == 2          # each game once, then it stays over
    assert (finished.states[:, package.kernels.STATUS] != package.kernels.STATUS_RUNNING).all()
    assert (finished.agent_to_act == -1).all() and not finished.action_masks.any()
    assert finished.play_random(10) == 0
    finished.step(np.array([-1, -1]))                   # what a finished game accepts


@pytest.mark.parametrize("name", PACKAGES)
def test_random_actions_out_may_not_be_the_batchs_own_array(name):
    batch = PACKAGES[name].BatchEnv(4, seed=0, num_players=2)
    before = batch.states.copy()
    with pytest.raises(ValueError, match="out must be an array of its own"):
        batch.random_actions(out=batch.states[0, :4])
    np.testing.assert_array_equal(batch.states, before)
    # the int64 outputs too: the actions would overwrite the players to act, or the scores
    to_act = batch.agent_to_act.copy()
    for own in (batch.agent_to_act, batch.scores.reshape(-1)[:4]):
        with pytest.raises(ValueError, match="out must be an array of its own"):
            batch.random_actions(out=own)
    np.testing.assert_array_equal(batch.agent_to_act, to_act)
    assert not batch.scores.any()


@pytest.mark.parametrize("name", PACKAGES)
def test_a_masked_array_is_refused_as_actions_or_seats(name):
    """``np.asarray`` drops a masked array's mask: the step used the hidden values."""
    batch = PACKAGES[name].BatchEnv(2, seed=0, num_players=2)
    actions = batch.random_actions()
    before = batch.states.copy()
    with pytest.raises(ValueError, match="actions must be a plain array, not a masked array"):
        batch.step(np.ma.array(actions, mask=[True, False]))
    with pytest.raises(ValueError, match="observe must be a plain array, not a masked array"):
        batch.step(actions, observe=np.ma.array([True, False], mask=[False, True]))
    np.testing.assert_array_equal(batch.states, before)


def test_a_single_duration_is_no_count_nor_seed_anywhere():
    """numpy counts a timedelta64 among its integers and reals: a pool's window of one second was
    taken, to fail as a slice index later."""
    from agents.training.selfplay import OpponentPool
    from pacific_common.options import check_seed, is_integer, is_real

    duration = np.timedelta64(1, "s")
    assert not is_integer(duration) and not is_real(duration) and not is_integer(np.timedelta64(3))
    with pytest.raises(ValueError, match="window"):
        OpponentPool(["random"], [], window=duration)
    with pytest.raises(ValueError, match="seed"):
        check_seed(np.timedelta64(3))


@pytest.mark.parametrize("name", PACKAGES)
def test_durations_are_no_integers_for_actions_states_or_seats(name):
    """numpy counts timedelta64 among its integers: arrays of durations were taken as actions and state
    rows (and a NaT action was an IndexError from inside), though a single duration was refused."""
    from agents.training.batched import BatchedSelfPlayEnv

    package = PACKAGES[name]
    batch = package.BatchEnv(2, seed=0, num_players=2)
    before = batch.states.copy()
    with pytest.raises(ValueError, match="actions must be an integer array"):
        batch.step(batch.random_actions().astype("m8[s]"))
    with pytest.raises(ValueError, match="state must be an integer"):
        batch.set_state(0, before[0].astype("m8[s]"))
    env = package.raw_env(num_players=2)
    env.reset(seed=0)
    with pytest.raises(ValueError, match="state must be an integer"):
        env.set_state(env.state().astype("m8[s]"))
    np.testing.assert_array_equal(batch.states, before)
    learners = BatchedSelfPlayEnv(name, 2, 2, opponents=["random"], seed=0)
    learners.reset()
    actions = np.array([np.flatnonzero(m)[0] for m in learners.action_masks()])
    for bad in (actions.astype("m8"), np.ma.array(actions, mask=[True, False])):
        with pytest.raises(ValueError, match="actions must be an integer array"):
            learners.step_async(bad)
    with pytest.raises(ValueError, match="first_seats must give"):
        BatchedSelfPlayEnv(name, 2, 2, opponents=["random"], first_seats=np.array([0, 1], "m8"))
    learners.step(actions)   # nothing refused was played


@pytest.mark.parametrize("name", PACKAGES)
def test_no_action_for_a_running_game_is_named_as_such(name):
    """-1 in a running game was described as outside the action range of every variant."""
    batch = PACKAGES[name].BatchEnv(2, seed=0, num_players=2)
    with pytest.raises(ValueError, match=r"game 1: illegal action -1 \(no action: only for a finished game\); "
                                         r"the .* decision is asked"):
        batch.step(np.array([batch.random_actions()[0], -1]))


@pytest.mark.parametrize("package,text,message", [
    (maunakea_env, "game: Mauna Kea\nplayers: 2\nremoved artifacts: 9223372036854775808 white\n",
     r"^line 3 \(removed artifacts\): 9223372036854775808 is not in 0 … 9223372036854775807$"),
    (maunakea_env, "game: Mauna Kea\nplayers: 2\nplayer_0 explorer 1:\n",
     r"^line 3 \(player_0 explorer 1\): write the explorer's square or one of unplaced"),
    (makemake_env, "game: Make Make\nplayers: 2\nceremonies: ,\n", r"^line 3 \(ceremonies\): an item is empty"),
    (makemake_env, "game: Make Make\nplayers: 2\nterritories: ,\n", r"^line 3 \(territories\): an item is empty"),
])
def test_a_position_text_that_cannot_be_taken_apart_is_a_value_error(package, text, message):
    """Lines the readers split or matched without a check ended in IndexError, AttributeError or
    OverflowError, then in a ValueError naming no line; the readers check them and name the line."""
    with pytest.raises(ValueError, match=message):
        package.from_text(text)


@pytest.mark.parametrize("name", PACKAGES)
@pytest.mark.parametrize("options,message", [
    (dict(num_players=2.5), "num_players must be an integer from 2 to"),
    (dict(num_players=9), "num_players must be an integer from 2 to"),
    (dict(max_turns=0), "max_turns must be an integer from 1 to"),
    (dict(max_turns=1.5), "max_turns must be an integer from 1 to"),
    (dict(max_turns="10"), "max_turns must be an integer from 1 to"),
])
def test_the_reference_rules_check_their_options_as_the_environments_do(name, options, message):
    """Maka Bana's reference took any max_turns, Make Make's and Mauna Kea's a float, which then
    truncated a game at turn 1.5; they now check them with the environments' own check."""
    reference = importlib.import_module(f"{name}_env.reference")
    with pytest.raises(ValueError, match=message):
        reference.ReferenceGame(**{"num_players": 2, **options})


@pytest.mark.parametrize("name", PACKAGES)
def test_the_reference_rules_take_only_integers_as_actions(name):
    """``int(action)`` played 0.9 as action 0 and "5" as 5, and gave TypeError or OverflowError for None
    and infinity."""
    reference = importlib.import_module(f"{name}_env.reference")
    game = reference.ReferenceGame(num_players=2)   # only Mauna Kea's reference takes a seed
    legal = sorted(game.legal_actions())[0]
    for bad in (legal + 0.5, float(legal), str(legal), True, None, float("inf"), [legal]):
        with pytest.raises(ValueError, match="action must be an integer"):
            game.step(bad)
    assert sorted(game.legal_actions())[0] == legal   # nothing was played
    game.step(np.int64(legal))


def test_margins_need_two_players():
    """One player alone got a margin over nobody: 10**300."""
    out = np.array([1.0, 3.0])
    with pytest.raises(ValueError, match="n must be an integer from 2 to 2"):
        maunakea_env.core.margins(out, 1)
    with pytest.raises(ValueError, match="at least two players"):
        maunakea_env.core.margins(np.array([1.0]), 1)
    maunakea_env.core.margins(out, 2)
    assert out.tolist() == [-2.0, 2.0]


@pytest.mark.parametrize("seed", [1.5, -1, "3", None])
def test_the_mauna_kea_reference_refuses_a_seed_that_is_not_one(seed):
    """``int(seed)`` turned 1.5 into the game of seed 1."""
    from maunakea_env.reference import ReferenceGame
    with pytest.raises(ValueError, match="seed must be an integer from 0 to"):
        ReferenceGame(2, seed=seed)


# ---------------------------------------------------------------------------------------------------
# Found by a probe of the public Python faces: each input below crashed, failed deep inside or was taken
def test_a_game_info_the_rules_do_not_allow_is_refused():
    """A 9-player Make Make GameInfo (``dataclasses.replace``) reached the unchecked kernels: heap
    corruption in ``play_game``, a segfault in ``SelfPlayEnv``."""
    import dataclasses

    from agents import game_info
    game = game_info("makemake", 2)
    for change, message in ((dict(num_players=9), "num_players must be an integer from 2 to 4"),
                            (dict(max_turns=0), "max_turns must be an integer from 1 to"),
                            (dict(variant_id=7), "GameInfo.variant_id of makemake 'standard' is 0, got 7"),
                            (dict(core=None), "GameInfo.core must be the kernels of the game named 'makemake'"),
                            (dict(name="zzz"), "GameInfo.core must be the kernels of the game named 'zzz'"),
                            (dict(num_actions=5), "GameInfo.num_actions of makemake 'standard' is 912, got 5")):
        with pytest.raises(ValueError, match=message):
            dataclasses.replace(game, **change)
    with pytest.raises(ValueError, match="unknown game"):
        game_info(["makabana"])


def test_play_game_checks_what_it_is_given_before_the_first_move():
    from agents import game_info
    from agents.arena.match import play_game
    from agents.baselines.random_agent import RandomAgent
    game = game_info("makemake", 2, max_turns=3)
    two = [RandomAgent(), RandomAgent()]
    for kwargs, message in ((dict(game="makemake"), "game must be a GameInfo"),
                            (dict(agents=["random", "random"]), "agents must be Agent objects"),
                            (dict(agents=iter(two)), "needs a list of 2 agents"),
                            (dict(seats=[0.9, 1.7]), "seats must be a list of 2 player numbers"),
                            (dict(seats="10"), "seats must be a list of 2 player numbers"),
                            (dict(seats=[True, False]), "seats must be a list of 2 player numbers"),
                            (dict(on_step=5), "on_step must be a function")):
        with pytest.raises(ValueError, match=message):
            play_game(**{"game": game, "agents": two, "seed": 1, **kwargs})


def test_ratings_and_intervals_refuse_what_is_not_a_count_or_a_place():
    from agents.arena.ratings import fit_ratings, wilson_interval
    for args in ((0, -5), (3, float("inf")), (3, 10, -1), (3, 10, float("nan")), (True, 3), ("3", 5)):
        with pytest.raises(ValueError, match="must"):
            wilson_interval(*args)
    for games in ([{"a": float("nan"), "b": 1}], ["ab"], [5], [{"a": "1", "b": 2}], "ab"):
        with pytest.raises(ValueError, match="finishing place|list of games"):
            fit_ratings(games)
    with pytest.raises(ValueError, match="prior must be a positive number"):
        fit_ratings([{"a": 1, "b": 2}], prior=float("inf"))
    assert fit_ratings([{1: 1, "b": 2}])  # labels that do not sort are kept in order of appearance


def test_the_opponent_pool_takes_a_lone_name_as_one_entry():
    """``OpponentPool(baselines="random")`` held six opponents, 'r', 'a', 'n', …"""
    from agents.training.selfplay import OpponentPool
    assert OpponentPool(baselines="random").baselines == ["random"]
    for kwargs, message in ((dict(baselines=None), "baselines must be an agent name"),
                            (dict(window=True), "window must be a positive integer"),
                            (dict(baseline_share=True), "baseline_share must be a number"),
                            (dict(baseline_share="0.5"), "baseline_share must be a number")):
        with pytest.raises(ValueError, match=message):
            OpponentPool(**kwargs)
    with pytest.raises(ValueError, match="snapshot must be an agent name"):
        OpponentPool().add(None)
    assert OpponentPool(window=np.int64(3)).window == 3


def test_self_play_refuses_an_npz_that_is_no_policy_and_a_seed_that_is_no_seed(tmp_path):
    from agents import game_info
    from agents.training.batched import BatchedSelfPlayEnv
    from agents.training.selfplay import SelfPlayEnv, make_opponent
    game = game_info("makemake", 2)
    np.savez(tmp_path / "bad.npz", x=np.zeros(3))
    with pytest.raises(ValueError, match="is an .npz archive but not a policy network"):
        make_opponent(str(tmp_path / "bad.npz"), game)
    for seed in (-1, 1.5, "3", True, 2 ** 64):
        with pytest.raises(ValueError, match="seed must be an integer"):
            SelfPlayEnv(game, seed=seed)
        with pytest.raises(ValueError, match="seed must be an integer"):
            BatchedSelfPlayEnv(game, 2).seed(seed)


def test_the_batched_self_play_env_refuses_odd_indices_flags_and_calls():
    from agents import game_info
    from agents.training.batched import BatchedSelfPlayEnv
    game = game_info("makemake", 2)
    with pytest.raises(ValueError, match="autoreset must be True or False"):
        BatchedSelfPlayEnv(game, 2, autoreset=1.0)
    env = BatchedSelfPlayEnv(game, 2, seed=0)
    env.reset()
    with pytest.raises(ValueError, match="indices must be game numbers from 0 to 1"):
        env.env_method("action_masks", indices=[5])
    with pytest.raises(ValueError, match="indices must be game numbers from 0 to 1"):
        env.get_attr("num_players", indices=[5])
    with pytest.raises(RuntimeError, match="step_wait\\(\\) without step_async"):
        env.step_wait()   # it played action 0 in every game, ending them as illegal losses
    env.step(np.array([np.flatnonzero(m)[0] for m in env.action_masks()]))


@pytest.mark.parametrize("name", PACKAGES)
def test_the_core_faces_refuse_an_output_that_shares_memory_with_the_state(name):
    """``player_scores(s, s[:2])`` wrote the scores into the row itself."""
    core = importlib.import_module(f"{name}_env.core")
    state = np.zeros(core.STATE_SIZE, np.int64)
    core.init(state, 2, 0, 50, 3)
    before = state.copy()
    with pytest.raises(ValueError, match="out shares memory with state"):
        core.player_scores(state, state[:2])
    with pytest.raises(ValueError, match="out shares memory with state"):
        core.rewards(state, 0, state[:2].view(np.float64))
    np.testing.assert_array_equal(state, before)
    from agents import game_info
    game = game_info(name, 2)
    buffer = np.zeros(game.obs_size + game.num_actions, np.int8)
    obs, mask = buffer[:game.obs_size], buffer[game.obs_size - 1:-1]   # one entry in common
    with pytest.raises(ValueError, match="mask shares memory with obs"):
        core.observe_player(state, 0, obs, mask)


@pytest.mark.parametrize("name", PACKAGES)
def test_action_and_observation_spaces_of_an_unknown_agent_say_which_agents_there_are(name):
    env = PACKAGES[name].raw_env(num_players=2)
    for ask in (env.action_space, env.observation_space):
        with pytest.raises(ValueError, match=r"agent must be one of \['player_0', 'player_1'\], got 'player_9'"):
            ask("player_9")
        with pytest.raises(ValueError, match="agent must be one of"):
            ask(["player_0"])


def test_agent_names_and_positions_take_ascii_digits_only():
    """``mcts:١٠`` and ``mcts:10_0`` were 10 and 100 simulations; Maka Bana's and Make Make's position
    texts took such numbers too."""
    from agents import game_info, make_agent
    game = game_info("makemake", 2)
    for spec in ("mcts:١٠", "mcts:10_0"):
        with pytest.raises(ValueError, match="positive number of simulations"):
            make_agent(spec, game)
    with pytest.raises(ValueError, match="game must be a GameInfo"):
        make_agent("random", "makemake")
    with pytest.raises(ValueError, match="deterministic must be True or False"):
        make_agent("shipped", game, deterministic="no")
    for name in PACKAGES:
        notation = importlib.import_module(f"{name}_env.notation")
        env = PACKAGES[name].raw_env(num_players=2)
        env.reset(seed=1)
        text = notation.to_text(env.state())
        line = next(l for l in text.splitlines() if l.lower().startswith("max_turns") or "max turns" in l.lower())
        key, _, value = line.partition(":")
        for odd in ("١٠٠", "1_00"):
            with pytest.raises(ValueError):
                notation.from_text(text.replace(line, f"{key}: {odd}"))



@pytest.mark.parametrize("name,field,value", [
    ("makabana", "NUM_COLOURS", 10**9),     # render_rgb and render_ansi read outside the row: a segfault
    ("makabana", "PHASE", 77),
    ("makemake", "NUM_PLAYERS", 10**12),
    ("maunakea", "ARTIFACTS", 10**9),       # render_rgb built a list of a billion artifacts
    ("maunakea", "NUM_PLAYERS", 10**12),    # render_rgb asked for 42 PiB
])
def test_every_drawing_refuses_a_row_the_validator_refuses(name, field, value):
    package = PACKAGES[name]
    render = importlib.import_module(f"{name}_env.render")
    env = package.raw_env(num_players=2)
    env.reset(seed=1)
    row = env.state()
    row[getattr(package.kernels, field)] = value
    for draw in (lambda: render.render_ansi(row, None), lambda: render.render_rgb(row),
                 lambda: render.render_svg(row)):
        with pytest.raises(ValueError, match="state"):
            draw()
    with pytest.raises(ValueError):
        render.render_rgb(row.astype(np.float64))   # was Numba's typing error


def test_the_places_of_the_drawings_are_named_only_for_what_exists():
    """``place_id(-1)`` named the last spot, as Python's indexing does."""
    from makabana_env import render as makabana_render
    from maunakea_env import render as maunakea_render
    for place, count in ((makabana_render.place_id, 39), (maunakea_render.square_place, 324),
                         (maunakea_render.field_place, 81), (maunakea_render.landing_place, 8)):
        assert place(0) != place(count - 1)
        for bad in (-1, count, 1.0, None):
            with pytest.raises(ValueError, match="must be an integer from 0 to"):
                place(bad)


# ---------------------------------------------------------------------------------------------------
# learned players, search prior and policy files called directly: each input below crashed, failed
# deep inside with no file named, or was taken and played as something else
SHIPPED = TESTS.parent / "agents" / "shipped"


def _layers(*shapes, dtype=np.float32, fill=0.1):
    return [(np.full(shape, fill, dtype), np.zeros(shape[0], dtype)) for shape in shapes]


def test_the_search_prior_packs_only_networks_a_snapshot_plays():
    """``prior.pack`` took features='bogus' (played as "none"), NaN and integer weights, which the
    search's Numba pass read as they were; its kernels stay unchecked, the guide is checked where the
    search takes it."""
    from agents import game_info
    from agents.learned.network import SnapshotAgent, read_network
    from agents.search import prior
    from agents.search.mcts import GuidedMCTSAgent
    layers = _layers((8, 5), (3, 8))
    prior.pack(layers, "relu", "log", False)
    with pytest.raises(ValueError, match="features must be one of none, log, got 'bogus'"):
        prior.pack(layers, "relu", "bogus", False)
    with pytest.raises(ValueError, match="layer 0 holds weights that are not finite floating-point numbers"):
        prior.pack(_layers((8, 5), (3, 8), fill=np.nan), "relu", "none", False)
    with pytest.raises(ValueError, match="layer 0 holds weights that are not finite floating-point numbers"):
        prior.pack(_layers((8, 5), (3, 8), dtype=np.int64, fill=1), "relu", "none", False)
    with pytest.raises(ValueError, match="the value network: layer 1 holds weights that are not finite"):
        prior.pack_value(_layers((8, 5)) + _layers((1, 8), fill=np.inf), "relu", "none")
    with pytest.raises(ValueError, match="needs 2-D weights"):
        prior.pack([(np.zeros(5, np.float32), np.zeros(5, np.float32))] + layers, "relu", "none", False)
    # the search's entry point refuses a guide of another game before any Numba pass reads it
    search = GuidedMCTSAgent(SnapshotAgent(*read_network(SHIPPED / "makemake.npz")), simulations=2)
    with pytest.raises(ValueError, match="takes observations of size 586 and has 912 actions; makabana"):
        search.reset(game_info("makabana", 2), 0, 0)


def test_action_features_refuse_a_row_that_is_no_position_and_a_player_not_in_the_game():
    """``ActionFeatures.rows(np.zeros(10, np.int64), 0, [0, 1])`` crashed the interpreter; a player 9
    got feature rows."""
    from agents import game_info
    from agents.learned.scorer import ActionFeatures
    game = game_info("maunakea", 2)
    features = ActionFeatures(game)
    for call in (lambda row: features.candidates(row), lambda row: features.rows(row, 0, [0, 1])):
        with pytest.raises(ValueError, match=r"state must be a 1-D C-contiguous numpy array of int64 with \d+ entries"):
            call(np.zeros(10, np.int64))
        with pytest.raises(ValueError, match="state must be"):
            call(np.zeros(maunakea_env.kernels.STATE_SIZE))   # float
    env = maunakea_env.raw_env(num_players=2)
    env.reset(seed=0)
    row = np.ascontiguousarray(env.state(), np.int64)
    broken = row.copy()
    broken[maunakea_env.kernels.NUM_PLAYERS] = 10**12
    with pytest.raises(ValueError, match="invalid state"):
        features.candidates(broken)
    for player in (9, -1, 0.5, None):
        with pytest.raises(ValueError, match="player must be an integer from 0 to 1"):
            features.rows(row, player, [0, 1])
    for legal in ([-1], [game.num_actions], [0.5]):
        with pytest.raises(ValueError, match=f"legal must be a list of actions from 0 to {game.num_actions - 1}"):
            features.rows(row, 0, legal)
    three = maunakea_env.raw_env(num_players=3)
    three.reset(seed=0)
    with pytest.raises(ValueError, match="3-player game .* not the 2-player basic game"):
        features.candidates(np.ascontiguousarray(three.state(), np.int64))
    with pytest.raises(ValueError, match="game must be a GameInfo"):
        ActionFeatures("maunakea")


def test_scorers_and_snapshots_refuse_layers_variants_and_flags_no_game_plays(tmp_path):
    """``ScorerAgent`` took NaN layers (then played its first candidate) and layers that do not chain;
    ``save_scorer(variant='zzz')`` wrote a file no game loads; ``deterministic='no'`` was True."""
    from agents.learned.network import SnapshotAgent, read_network
    from agents.learned.scorer import ScorerAgent, save_scorer
    scorer = _layers((32, 16), (1, 32))
    assert ScorerAgent(scorer, "maunakea", "advanced").variant == "advanced"
    with pytest.raises(ValueError, match="a maunakea scorer: layer 0 holds weights that are not finite"):
        ScorerAgent(_layers((32, 16), (1, 32), fill=np.nan), "maunakea")
    with pytest.raises(ValueError, match=r"layer 1 has weights \(1, 7\) and bias \(1,\), but takes 32 inputs"):
        ScorerAgent(_layers((32, 16), (1, 7)), "maunakea")
    with pytest.raises(ValueError, match="maunakea's scorers play its basic or advanced game, not 'zzz'"):
        ScorerAgent(scorer, "maunakea", "zzz")
    for variant, message in (("zzz", "maunakea's scorers play its basic or advanced game, not 'zzz'"),
                             (3, "not 3")):
        with pytest.raises(ValueError, match=message):
            save_scorer(tmp_path / "s.npz", "maunakea", scorer, variant=variant)
    with pytest.raises(ValueError, match="makabana's scorers play its haapii game, not 'mao'"):
        save_scorer(tmp_path / "s.npz", "makabana", _layers((8, 19), (1, 8)), variant="mao")
    assert not (tmp_path / "s.npz").exists()
    # no variant: the game's first one with scorers (Maka Bana has no "basic")
    assert ScorerAgent(_layers((8, 19), (1, 8)), "makabana").variant == "haapii"
    with pytest.raises(ValueError, match="deterministic must be True or False, got 'no'"):
        ScorerAgent(scorer, "maunakea", deterministic="no")
    network = read_network(SHIPPED / "makemake.npz")
    with pytest.raises(ValueError, match="deterministic must be True or False, got 'no'"):
        SnapshotAgent(*network, deterministic="no")
    assert SnapshotAgent(*network, deterministic=np.True_).deterministic is True


def test_the_scorer_policy_inputs_refuse_rows_wider_than_the_observation_and_unknown_games():
    """``ScorerInputs`` with rows wider than the observation failed in torch ("negative dimension"),
    and took game='nope'."""
    pytest.importorskip("sb3_contrib")
    import gymnasium

    from agents.learned.features import ScorerInputs, ScorerPolicy
    space = gymnasium.spaces.Box(-128, 127, (40,), np.int8)
    inputs = dict(num_actions=2, num_features=16, game="maunakea", variant="basic")
    assert ScorerInputs(space, **inputs).num_actions == 2
    for change, message in ((dict(num_actions=3), "the observation of 40 numbers cannot hold 3 rows of 16"),
                            (dict(game="nope"), "action scorers exist for makabana, maunakea only, not 'nope'"),
                            (dict(variant="zzz"), "play its basic or advanced game, not 'zzz'"),
                            (dict(num_features=5), "reads 16 or 24 features"),
                            (dict(num_actions=0), "num_actions must be an integer from 1 to 40")):
        with pytest.raises(ValueError, match=message):
            ScorerInputs(space, **{**inputs, **change})
    with pytest.raises(ValueError, match="ScorerInputs has num_actions=2, the action space 7 actions"):
        ScorerPolicy(space, gymnasium.spaces.Discrete(7), lambda _: 1e-3, features_extractor_class=ScorerInputs,
                     features_extractor_kwargs=inputs)


def test_broken_policy_files_are_value_errors_naming_the_file(tmp_path):
    """Through the direct entry points a truncated .npz was a bare ``zipfile.BadZipFile``, an archive
    lacking an array a bare ``KeyError``, and a ``skip`` array "The truth value of an array … is
    ambiguous"; none named the file.  ``make_agent``'s messages stay as they were."""
    from agents import game_info, make_agent
    from agents.learned.network import NotAPolicyFile, SnapshotAgent, load_network
    from agents.learned.scorer import ScorerAgent
    from agents.training.batched import load_network as batched_load_network
    makemake, maunakea = game_info("makemake", 2), game_info("maunakea", 2)
    snapshot_loads = (lambda p: SnapshotAgent.load(p, makemake), lambda p: load_network(p, makemake),
                      lambda p: batched_load_network(p, makemake))
    for name, game, loads in (("makemake", makemake, snapshot_loads),
                              ("maunakea", maunakea, (lambda p: ScorerAgent.load(p, maunakea),
                                                      lambda p: load_network(p, maunakea),
                                                      lambda p: batched_load_network(p, maunakea)))):
        raw = (SHIPPED / f"{name}.npz").read_bytes()
        path = tmp_path / f"{name}_truncated.npz"
        path.write_bytes(raw[:len(raw) // 2])
        for load in loads:
            with pytest.raises(ValueError, match=f"'{path}' is not a readable .npz file"):
                load(path)
        with pytest.raises(ValueError, match="is not an agent file"):
            make_agent(str(path), game)
    with np.load(SHIPPED / "makemake.npz") as data:
        arrays = dict(data)
    cases = [("unrelated.npz", dict(x=np.zeros(3)), NotAPolicyFile, r"\(activation is not a file in the archive\)"),
             ("no_b1.npz", {k: v for k, v in arrays.items() if k != "b1"}, NotAPolicyFile, r"\(b1 is not a file"),
             ("skip_array.npz", dict(arrays, skip=np.array([1, 0])), ValueError,
              r"skip must be one boolean .*, got a int64 array of shape \(2,\)"),
             ("skip_text.npz", dict(arrays, skip=np.array("no")), ValueError, "skip must be one boolean")]
    if any(k.startswith("vw") for k in arrays):
        cases.append(("no_vb0.npz", {k: v for k, v in arrays.items() if k != "vb0"}, NotAPolicyFile,
                      r"\(vb0 is not a file"))
    for file, content, error, message in cases:
        np.savez(tmp_path / file, **content)
        for load in snapshot_loads:
            with pytest.raises(error, match=f"'{tmp_path / file}'.*{message}"):
                load(tmp_path / file)
    with pytest.raises(ValueError, match=r"is an .npz archive but not a policy network or action scorer "
                                         r"\(activation is not a file in the archive\); expected"):
        make_agent(str(tmp_path / "unrelated.npz"), makemake)
    # an archive whose array bytes are damaged: zipfile's CRC check, on reading the array
    weights = np.full((8, 586), 0.5, np.float32)
    np.savez(tmp_path / "damaged.npz", **dict(arrays, w0=weights))
    raw = bytearray((tmp_path / "damaged.npz").read_bytes())
    at = raw.find(weights.tobytes()[:64]) + 100
    raw[at:at + 4] = b"\xff\xff\xff\xff"
    (tmp_path / "damaged.npz").write_bytes(raw)
    with pytest.raises(ValueError, match=r"damaged.npz' is not a readable .npz file: its array 'w0' cannot be read \(Bad CRC-32"):
        SnapshotAgent.load(tmp_path / "damaged.npz", makemake)
    # an array of Python objects, which allow_pickle=False refuses as it is read: numpy's message alone
    np.savez(tmp_path / "objects.npz", **dict(arrays, w0=arrays["w0"].astype(object)))
    for load in snapshot_loads:
        with pytest.raises(ValueError, match=r"objects.npz' is not a readable .npz file: its array 'w0' cannot "
                                             r"be read \(Object arrays cannot be loaded"):
            load(tmp_path / "objects.npz")
    # a scorer's feature names as one string: "iteration over a 0-d array", a TypeError
    with np.load(SHIPPED / "maunakea.npz") as data:
        np.savez(tmp_path / "one_name.npz", **dict(data, feature_names=np.array("margin")))
    for load in (lambda p: ScorerAgent.load(p, maunakea), lambda p: make_agent(str(p), maunakea)):
        with pytest.raises(ValueError, match=r"one_name.npz': feature_names must be a 1-D array .* shape \(\)"):
            load(tmp_path / "one_name.npz")


def test_rllib_policies_refuse_other_games_odd_ids_nan_weights_and_empty_masks(tmp_path):
    """``load_rllib_policy`` loaded an all-NaN checkpoint, took the game's name (and failed after
    loading) and ``module_id=5``; ``greedy_action`` with no legal action said 0."""
    pytest.importorskip("ray.rllib")
    import torch
    from ray.rllib.core.rl_module.default_model_config import DefaultModelConfig

    from agents import game_info
    from agents.learned.rllib_agent import load_rllib_policy
    from agents.learned.rllib_module import MaskedPPOTorchRLModule
    game = game_info("makemake", 2)
    env = makemake_env.env(num_players=2)
    module = MaskedPPOTorchRLModule(observation_space=env.observation_space("player_0"),
                                    action_space=env.action_space("player_0"),
                                    model_config=DefaultModelConfig(fcnet_hiddens=[8]))
    module.save_to_path(tmp_path / "policy")
    agent = load_rllib_policy(tmp_path / "policy", game)
    mask = np.zeros(game.num_actions, np.int8)
    mask[5] = 1
    assert agent.module.greedy_action(np.zeros(game.obs_size, np.int8), mask) == 5
    with pytest.raises(ValueError, match="no legal action"):
        agent.module.greedy_action(np.zeros(game.obs_size, np.int8), np.zeros(game.num_actions, np.int8))
    with pytest.raises(ValueError, match=r"action_mask must have shape \(912,\), got \(3,\)"):
        agent.module.greedy_action(np.zeros(game.obs_size, np.int8), np.ones(3, np.int8))
    with pytest.raises(ValueError, match="game must be a GameInfo"):
        load_rllib_policy(tmp_path / "policy", "makemake")
    for module_id in (5, None, ""):
        with pytest.raises(ValueError, match="module_id is the name of a policy in the checkpoint"):
            load_rllib_policy(tmp_path / "policy", game, module_id=module_id)
    with torch.no_grad():
        next(module.parameters()).fill_(float("nan"))
    module.save_to_path(tmp_path / "nan")
    with pytest.raises(ValueError, match="policy 'main' holds weights that are not finite numbers"):
        load_rllib_policy(tmp_path / "nan", game)


def test_the_kernel_generator_takes_only_what_numpy_generator_takes():
    """``KernelGenerator.integers(2.5)`` was always 0, ``random(-1)`` an empty array, a seed of 2**70
    an OverflowError."""
    from agents.baselines.batched.common import KernelGenerator
    for seed in (2**70, 2**63, -1, 2.5, "7", True):
        with pytest.raises(ValueError, match="seed must be an integer from 0 to 9223372036854775807"):
            KernelGenerator(seed)
    generator = KernelGenerator(np.int64(7))
    for high in (2.5, None, True):
        with pytest.raises(ValueError, match="high must be an integer, got"):
            generator.integers(high)
    for high in (0, -3, 2**63):
        with pytest.raises(ValueError, match="needs high >= 1"):
            generator.integers(high)
    for size, message in ((-1, "size must be a non-negative integer or None, got -1"),
                          (2.5, "size must be an integer"), ("3", "size must be an integer")):
        with pytest.raises(ValueError, match=message):
            generator.random(size)
    assert generator.random(np.int64(3)).shape == (3,) and generator.random(0).shape == (0,)
    assert 0 <= generator.integers(np.int64(3)) < 3 and 0 <= generator.random() < 1


@pytest.mark.parametrize("value", [np.timedelta64(2), np.timedelta64(2, "D"), np.timedelta64(2, "ms"),
                                   np.timedelta64("NaT"), np.datetime64(2, "D"), np.array(np.timedelta64(2))])
def test_durations_and_dates_are_no_counts(value):
    """numpy counts timedelta64 as an integer type: ``env(num_players=np.timedelta64(2))`` played two
    players, and a duration in days or milliseconds was a bare TypeError."""
    from pacific_common.checked import integer, whole_number
    from pacific_common.options import check_seed
    kind = type(value[()] if isinstance(value, np.ndarray) else value).__name__
    with pytest.raises(ValueError, match=f"num_players must be an integer from 2 to 4, got .*\\({kind}\\)"):
        makemake_env.env(num_players=value)
    with pytest.raises(ValueError, match=f"max_turns must be an integer from 1 to {MAX_TURNS_LIMIT}, got"):
        makemake_env.env(max_turns=value)
    with pytest.raises(ValueError, match="seed must be an integer from 0 to"):
        check_seed(value)
    with pytest.raises(ValueError, match=f"action must be an integer, got .*\\({kind}\\)"):
        whole_number("action", value)
    assert integer("n", np.int64(2), 0, 4) == 2


def test_a_masked_array_is_refused_as_rows_as_it_is_as_a_row():
    """``checked.rows`` took a MaskedArray, whose mask the kernels would never see."""
    from pacific_common.checked import rows
    masked = np.ma.array(np.zeros((2, 3), np.int64), mask=[[0, 1, 0], [0, 0, 0]])
    with pytest.raises(ValueError, match=r"states must be a numpy array of int64 and shape \(N, 3\), "
                                         r"got MaskedArray"):
        rows("states", masked, np.int64, 3)
    plain = masked.data
    assert rows("states", plain, np.int64, 3) is plain


def test_the_shared_numba_helpers_say_they_are_unchecked_and_what_the_caller_guarantees():
    """rng, seats and bits check nothing (``seats.margins(a[:2], 3)`` wrote outside the view, ``draw``
    with bound 0 divided by zero): they are inner kernels, as each game's kernels.py, and say so."""
    from pacific_common import bits, rng, seats
    for module, guarantees in ((rng, ("0 <= offset < len(state)", "``bound`` an integer of at least 1",
                                      "an integer from 0 to 2**63 - 1")),
                               (seats, ("at least ``n`` entries and ``n >= 2``", "0 <= seat < n")),
                               (bits, ("``x >= 0``", "``x != 0``", "0 <= r < popcount(x)"))):
        assert "Unchecked, like each game's ``kernels.py``" in module.__doc__
        assert all(words in module.__doc__ for words in guarantees), module.__name__


def test_the_thread_choice_refuses_a_flag_a_side_or_a_time_that_is_none():
    """``ThreadChoice("no")`` chose the pool, ``record(2, …)`` was an IndexError and a NaN time
    "cannot convert float NaN to integer" some steps later."""
    from pacific_common.batch import ThreadChoice
    for flag in ("no", 0, None, 2):
        with pytest.raises(ValueError, match="may_parallel must be True or False, got"):
            ThreadChoice(flag)
    choice = ThreadChoice(np.bool_(True))
    for side in (2, -1, 1, None):
        with pytest.raises(ValueError, match=r"parallel must be True \(the thread pool\) or False \(one thread\)"):
            choice.record(side, 0.001)
    for seconds in (float("nan"), -5.0, float("inf"), "1", None):
        with pytest.raises(ValueError, match="seconds must be a finite number of at least 0, got"):
            choice.record(True, seconds)
    assert choice.samples == [0, 0]   # nothing refused was counted
    choice.record(np.bool_(True), np.float64(0.001))
    choice.record(False, 0)
    assert choice.samples == [1, 1]


# -- found by probing the batched engine and the batched self-play environment ----------------------
def test_a_step_whose_actions_are_a_view_of_the_states_is_checked_as_it_is_played():
    """The kernel checks every action, then steps the games in turn; actions that were a view of the
    states were rewritten by game 0's step after they were checked, and game 1 played a masked action."""
    batch = makemake_env.BatchEnv(2, seed=0, num_players=2)
    for _ in range(8):
        batch.step(batch.random_actions())
    actions = batch.states[0, makemake_env.core.PHASE:makemake_env.core.PHASE + 2]   # [0, 0]: legal in both
    assert list(actions) == [0, 0] and batch.action_masks[:, 0].all() and not batch.action_masks[1, 1]
    reference = copy.deepcopy(batch)
    batch.step(actions)
    reference.step(np.array([0, 0]))
    assert np.array_equal(batch.states, reference.states)    # both games played action 0
    for _ in range(20):                                       # agent_to_act, which the step writes, too
        outcomes = []
        for env, actions in ((batch, batch.agent_to_act), (reference, reference.agent_to_act.copy())):
            try:
                env.step(actions)
                outcomes.append(env.states.copy())
            except ValueError as error:
                outcomes.append(str(error))
        assert str(outcomes[0]) == str(outcomes[1])
        batch.step(batch.random_actions())
        reference.step(reference.random_actions())


def test_a_batched_self_play_seed_leaves_room_for_every_games_seed():
    from agents.training.batched import BatchedSelfPlayEnv
    env = BatchedSelfPlayEnv("makemake", 2, 2, opponents=["random"])
    assert env.seed(SEED_LIMIT - 1) == [SEED_LIMIT - 1, SEED_LIMIT]
    with pytest.raises(ValueError, match=f"seed must be at most {SEED_LIMIT - 1} for 2 games "
                                         rf"\(game i draws from seed \+ i, at most {SEED_LIMIT}\), got {SEED_LIMIT}"):
        env.seed(SEED_LIMIT)


@pytest.mark.parametrize("option", ["seat", "reward", "truncation"])
def test_self_play_mode_options_are_names_not_arrays_of_them(option):
    from agents.training.batched import BatchedSelfPlayEnv
    from agents.training.selfplay import SelfPlayEnv
    value = {"seat": np.array(["rotate", "random"]), "reward": np.array(["win_loss"]),
             "truncation": np.array(["loss"])}[option]
    for make in (lambda: BatchedSelfPlayEnv("makemake", 2, 2, opponents=["random"], **{option: value}),
                 lambda: SelfPlayEnv("makemake", 2, opponents=["random"], **{option: value})):
        with pytest.raises(ValueError, match=f"{option} must be one of "):
            make()
    env = BatchedSelfPlayEnv("makemake", 2, 2, opponents=["random"])
    with pytest.raises(ValueError, match="seat must be one of "):
        env.set_attr("seat_mode", np.array(["rotate"]))


def test_an_opponent_name_with_spaces_around_it_is_played_in_numba_under_its_name():
    from agents.training.batched import BatchedSelfPlayEnv
    padded = BatchedSelfPlayEnv("makemake", 4, 2, opponents=[" heuristic "], seed=3)
    plain = BatchedSelfPlayEnv("makemake", 4, 2, opponents=["heuristic"], seed=3)
    padded.reset(), plain.reset()
    assert np.array_equal(padded.kinds, plain.kinds) and padded.pool.baselines == ["heuristic"]


@pytest.mark.parametrize("name", PACKAGES)
def test_a_position_text_with_a_byte_order_mark_reads_as_without(name):
    """A text saved by an editor that writes a byte-order mark: ``from_text`` said its game line was
    missing (the mark became part of the first key), where the web page takes such a record."""
    package = PACKAGES[name]
    batch = package.BatchEnv(1, seed=3, num_players=2)
    batch.step(batch.random_actions())
    text = package.to_text(batch.state(0))
    np.testing.assert_array_equal(package.from_text("\ufeff" + text), batch.state(0))


@pytest.mark.parametrize("name", PACKAGES)
def test_string_options_are_kept_as_plain_str(name):
    """Options given as numpy strings (``np.str_``, a str subclass) are accepted and kept as plain
    ``str``, so that messages and ``repr`` show ``'haapii'``, not ``np.str_('haapii')``."""
    package = PACKAGES[name]
    variant = np.str_(package.raw_env().variant)
    raw = package.raw_env(variant=variant, reward=np.str_("score"), render_mode=np.str_("ansi"))
    batch = package.BatchEnv(2, seed=0, variant=variant, reward=np.str_("score"), outputs=np.str_("masks"))
    for env in (raw, batch):
        assert type(env.variant) is str and type(env.reward) is str
    assert type(raw.render_mode) is str and type(batch.outputs) is str
    if name != "makemake":  # the reference rules of the games with variants keep theirs the same way
        reference = importlib.import_module(f"{name}_env.reference")
        assert type(reference.ReferenceGame(variant=variant).variant) is str
