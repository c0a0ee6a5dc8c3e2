"""Property-based checks of issue 23 item 6, run by ``tests/test_hardening.py`` in a subprocess per game
(``run(game)``), so that a crash of the interpreter is a failed test rather than a dead suite.

Each property throws arbitrary values -- huge and negative integers, floats, strings, None, lists,
numpy arrays of odd shapes and dtypes, 0-d arrays -- at one entry point, and requires that the call
either works or raises ``ValueError``.  Where a call works, the environment must still play on.
"""
import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import makabana_env
import makemake_env
import maunakea_env

PACKAGES = {"makabana": makabana_env, "makemake": makemake_env, "maunakea": maunakea_env}
SETTINGS = settings(max_examples=40, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow])

NON_INTEGERS = st.one_of(
    st.floats(allow_nan=True), st.text(max_size=5), st.none(), st.booleans(), st.binary(max_size=3),
    st.lists(st.integers(-5, 5), max_size=3), st.dictionaries(st.text(max_size=2), st.integers(), max_size=2))
SCALARS = st.one_of(st.integers(-2**80, 2**80), st.integers(-3, 3100), NON_INTEGERS)
DTYPES = st.sampled_from([np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint64, np.float32,
                          np.float64, np.bool_, np.complex64])
ARRAYS = hnp.arrays(DTYPES, hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=4))
ANYTHING = st.one_of(SCALARS, ARRAYS, st.integers(0, 3100).map(np.array),
                     st.integers(0, 3100).map(np.int64))


def works_or_value_error(call, *args, **kwargs):
    """``call(...)``'s result, or None when it raised ValueError; any other exception propagates."""
    try:
        return call(*args, **kwargs)
    except ValueError:
        return None


def play_on(env, steps=3):
    """A few legal moves, to see the environment still works."""
    for _ in range(steps):
        if not env.agents or env.terminations[env.agent_selection] or env.truncations[env.agent_selection]:
            return
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(np.flatnonzero(mask)[0]))


def properties(package):
    raw_env, env, BatchEnv = package.raw_env, package.env, package.BatchEnv

    @SETTINGS
    @given(action=ANYTHING, warmup=st.integers(0, 4))
    def raw_env_step(action, warmup):
        e = raw_env(num_players=3)
        e.reset(seed=warmup)
        play_on(e, warmup)
        works_or_value_error(e.step, action)
        play_on(e)

    @SETTINGS
    @given(action=ANYTHING)
    def wrapped_env_step(action):
        e = env(num_players=3)
        e.reset(seed=1)
        works_or_value_error(e.step, action)   # ActionOutsideSpace is a ValueError
        for agent in e.agent_iter(5):
            done = e.terminations[agent] or e.truncations[agent]
            mask = e.observe(agent)["action_mask"]
            e.step(None if done else int(np.flatnonzero(mask)[0]))

    @SETTINGS
    @given(actions=st.one_of(ARRAYS, SCALARS, hnp.arrays(np.int64, 4, elements=st.integers(-2**63, 2**63 - 1)),
                             hnp.arrays(np.int64, 4, elements=st.integers(-2, 3100))),
           out=st.one_of(st.none(), ARRAYS))
    def batch_step(actions, out):
        b = BatchEnv(4, seed=0, num_players=3)
        works_or_value_error(b.step, actions)
        works_or_value_error(b.random_actions, out)
        b.step(b.random_actions())

    options = st.fixed_dictionaries({}, optional={
        "num_players": st.one_of(SCALARS, st.integers(0, 6), st.integers(0, 6).map(np.array)),
        "variant": st.one_of(SCALARS, st.sampled_from(sorted(raw_env.variants))),
        "max_turns": st.one_of(SCALARS, st.integers(-2, 2**31), st.integers(1, 50).map(np.int32)),
        "reward": st.one_of(SCALARS, st.sampled_from(["win_loss", "score", "margin"])),
        "render_mode": st.one_of(SCALARS, st.sampled_from(["ansi", "human", "rgb_array"])),
    })
    seeds = st.one_of(SCALARS, st.integers(-2**70, 2**70), st.integers(0, 2**63 - 1), ARRAYS)

    @SETTINGS
    @given(kwargs=options, seed=seeds)
    def raw_env_options(kwargs, seed):
        e = works_or_value_error(raw_env, **kwargs)
        if e is not None and works_or_value_error(e.reset, seed=seed) is None:
            e.reset(seed=0)
        if e is not None:
            e.render_mode = None
            play_on(e)

    @SETTINGS
    @given(kwargs=options, seed=seeds,
           # valid counts stay small: a million games would take gigabytes
           num_envs=st.one_of(NON_INTEGERS, st.integers(-2**70, 64), st.integers(0, 64).map(np.array),
                              st.integers(2**20 + 1, 2**70)),
           autoreset=st.one_of(SCALARS, st.booleans()),
           outputs=st.one_of(SCALARS, st.sampled_from(["observations", "masks", "state"])))
    def batch_options(kwargs, seed, num_envs, autoreset, outputs):
        kwargs.pop("render_mode", None)   # not a BatchEnv option
        b = works_or_value_error(BatchEnv, num_envs, seed=seed, autoreset=autoreset, outputs=outputs, **kwargs)
        if b is not None:
            b.step(b.random_actions())
            works_or_value_error(b.reset, seed=seed)

    return [raw_env_step, wrapped_env_step, batch_step, raw_env_options, batch_options]


def run(name):
    for prop in properties(PACKAGES[name]):
        prop()
        print(f"{name}: {prop.__name__} held", flush=True)
    print(f"{name}: every property held", flush=True)
