"""BatchEnv of every game (Makabana, Make Make, Mauna Kea): the batched engine must play exactly like
single games, reuse its arrays, reject illegal actions without touching any game, and reset finished
games as documented.

The tests are written once and parametrized over ``GAMES``, a table of small per-game records that
hold what differs between the games: the player counts and reward modes to compare, the turn limits
that make games end within a test, how to build an illegal action, which options are refused, and
the per-game checks (final scores, the freshly reset row, the conservation invariants of a state).
Tests only one game has (Mauna Kea's decision names) follow at the end.
"""
from dataclasses import dataclass
from types import ModuleType
from typing import Callable

import numba
import numpy as np
import pytest

import makabana_env
import makemake_env
import maunakea_env
from makemake_env.board import NUM_GROUNDS, NUM_TERRITORIES
from maunakea_env.board import NUM_FIELDS, NUM_ISLAND_TILES, START_TILE_SPACES
from makemake_positions import one_move_before
from maunakea_positions import assert_conserved
from pacific_common.batch import PARALLEL_FROM, seed_action_generators
from pacific_common.ends import END_NONE, END_STALEMATE, END_TRUNCATED, END_WIN
from pacific_common.rng import following_seed


# --- per-game illegal actions -------------------------------------------------------------------

def makabana_illegal_action(batch, g):
    """A project during the tiki decision, else a tiki: never what the game asks for."""
    core = makabana_env.core
    return core.TIKI_BASE if batch.states[g, core.PHASE] == core.PHASE_PROJECT else 0


def first_masked_action(batch, g):
    return int(np.flatnonzero(batch.action_masks[g] == 0)[0])


# --- per-game checks of the final scores reported by the step that ended a game -----------------

def makabana_final_scores(scores):
    assert scores.sum() > 0


def makemake_final_scores(scores):
    assert (scores >= 0).all() and (scores <= 6).all()


def maunakea_final_scores(scores):
    assert (scores >= 0).all() and scores.sum() <= 8 * 3 + 17 + 7 * 2 + 3


# --- per-game checks of a row that autoreset has just filled with a new game --------------------

def makabana_new_game(batch, g):
    assert batch.states[g, makabana_env.core.SEASON] == 0


def makemake_new_game(batch, g):
    core, state = makemake_env.core, batch.states[g]
    assert state[core.TURN] == 0
    assert (state[core.OWNER:core.OWNER + NUM_TERRITORIES] == -1).all()
    assert (state[core.GROUND:core.GROUND + NUM_GROUNDS] == -1).all()


def maunakea_new_game(batch, g):
    core, state = maunakea_env.core, batch.states[g]
    assert state[core.TURN] == 0
    assert state[core.PHASE] == core.PHASE_PLACEMENT and state[core.PLACED] == 0
    fields = state[core.FIELD_TILE:core.FIELD_TILE + NUM_FIELDS]
    assert (np.delete(fields, START_TILE_SPACES) == -1).all() and (fields[START_TILE_SPACES] >= NUM_ISLAND_TILES).all()
    assert (state[core.BOAT_OWNER:core.BOAT_OWNER + 8] == -1).all()
    assert (state[core.TILE_WHERE:core.TILE_WHERE + NUM_ISLAND_TILES] == core.IN_BAG).all()
    assert batch.action_masks[g].sum() == 16
    assert_conserved(state)


# --- per-game conservation invariants of a batch of states --------------------------------------

def makabana_invariants(states, num_players):
    core = makabana_env.core
    on_board = (states[:, core.HUT:core.HUT + 39, None] == np.arange(num_players)).sum(axis=1)
    np.testing.assert_array_equal(on_board + states[:, core.RESERVE:core.RESERVE + num_players], 10)


def makemake_invariants(states, num_players):
    core = makemake_env.core
    owner = states[:, core.OWNER:core.OWNER + NUM_TERRITORIES]
    tokens = states[:, core.TOKENS:core.TOKENS + NUM_TERRITORIES]
    grounds = states[:, core.GROUND:core.GROUND + NUM_GROUNDS]
    for c in range(num_players):
        np.testing.assert_array_equal(np.where(owner == c, tokens, 0).sum(axis=1)
                                      + states[:, core.TOKEN_SUPPLY + c], 11)
        np.testing.assert_array_equal((grounds == c).sum(axis=1) + states[:, core.MANU_SUPPLY + c], 5)
    moai = states[:, core.MOAI:core.MOAI + NUM_TERRITORIES].sum(axis=1)
    np.testing.assert_array_equal(moai + states[:, core.MOAI_LEFT], 12)


def maunakea_invariants(states, num_players):
    for state in states:
        assert_conserved(state)


# --- the table -----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Game:
    name: str
    package: ModuleType
    players: tuple             # player counts whose trajectories are compared with single games
    rewards: tuple             # reward modes whose trajectories are compared with single games
    max_turns: dict            # turn limit per scenario, short enough for games to end in the test
    autoreset_players: int
    steps_to_end: int          # steps within which some game of a small batch must end
    warmup_steps: int          # steps played before the illegal action
    illegal_action: Callable   # (batch, game row) -> an action that row does not accept
    bad_options: tuple         # BatchEnv keyword arguments that must be refused
    final_scores: Callable     # (scores of a finished game) -> checks them
    new_game: Callable         # (batch, game row) -> checks the row holds a fresh game
    invariant_players: tuple
    invariant_steps: int
    invariants: Callable       # (states, num_players) -> checks what every state conserves

    @property
    def BatchEnv(self):
        return self.package.BatchEnv

    @property
    def core(self):
        return self.package.core


COMMON_BAD_OPTIONS = ({"num_envs": 0}, {"num_envs": 2, "reward": "x"}, {"num_envs": 2, "seed": -1})

GAMES = [
    Game(name="makabana", package=makabana_env, players=(2, 3, 5), rewards=("win_loss",),
         # makabana's defaults (max_turns=100 in raw_env and BatchEnv), which its tests relied on
         max_turns={"trajectory": 100, "threads": 100, "autoreset": 100, "arrays": 100, "invariants": 100},
         autoreset_players=4, steps_to_end=10_000, warmup_steps=5, illegal_action=makabana_illegal_action,
         bad_options=COMMON_BAD_OPTIONS + ({"num_envs": 2, "num_players": 6},),
         final_scores=makabana_final_scores, new_game=makabana_new_game,
         invariant_players=(3,), invariant_steps=2000, invariants=makabana_invariants),
    Game(name="makemake", package=makemake_env, players=(2, 3, 4), rewards=("win_loss",),
         max_turns={"trajectory": 120, "threads": 200, "autoreset": 200, "arrays": 100, "invariants": 150},
         autoreset_players=3, steps_to_end=10_000, warmup_steps=5, illegal_action=first_masked_action,
         bad_options=COMMON_BAD_OPTIONS + ({"num_envs": 2, "num_players": 5}, {"num_envs": 2, "num_players": 1},
                                           {"num_envs": 2, "variant": "foo"}, {"num_envs": 2, "max_turns": 0}),
         final_scores=makemake_final_scores, new_game=makemake_new_game,
         invariant_players=(3,), invariant_steps=2000, invariants=makemake_invariants),
    Game(name="maunakea", package=maunakea_env, players=(2, 3, 4), rewards=("win_loss", "score"),
         max_turns={"trajectory": 12, "threads": 30, "autoreset": 60, "arrays": 30, "invariants": 60},
         autoreset_players=3, steps_to_end=20_000, warmup_steps=15, illegal_action=first_masked_action,
         bad_options=COMMON_BAD_OPTIONS + ({"num_envs": 2, "num_players": 5}, {"num_envs": 2, "num_players": 1},
                                           {"num_envs": 2, "variant": "Advanced"}, {"num_envs": 2, "max_turns": 0}),
         final_scores=maunakea_final_scores, new_game=maunakea_new_game,
         invariant_players=(2, 3, 4), invariant_steps=3000, invariants=maunakea_invariants),
]

MAUNAKEA = GAMES[2]


def each_game(*fields):
    """pytest.param per game (and per value of each named tuple field), with readable ids."""
    cases = [((game,), game.name) for game in GAMES]
    for field in fields:
        cases = [(values + (value,), f"{name}-{value}")
                 for values, name in cases for value in getattr(values[0], field)]
    return [pytest.param(*values, id=name) for values, name in cases]


# --- batched play equals single games ------------------------------------------------------------

def single_game_trajectory(game, num_players, seed, num_steps, max_turns, reward):
    """Observations, masks, agents, rewards and final scores of one game through raw_env, restarting
    with unseeded resets (which take core.next_seed, like autoreset), driven by random actions drawn
    as ``BatchEnv.random_actions`` draws them: from a generator apart from the game's own."""
    env = game.package.raw_env(num_players=num_players, max_turns=max_turns, reward=reward)
    env.reset(seed=seed)
    gens = np.zeros(1, dtype=np.int64)
    seed_action_generators(np.array([seed]), gens)
    rows = []
    for _ in range(num_steps):
        agent = env.agent_selection
        action = int(game.package.kernels.random_action_with(env._state, gens, 0))
        env.step(action)
        done = any(env.terminations.values()) or any(env.truncations.values())
        rewards = [env.rewards[a] for a in env.possible_agents]
        scores = list(env.scores().values())
        end = env.infos[env.possible_agents[0]].get("end") if done else None
        if done:
            env.reset()
        obs = env.observe(env.agent_selection)
        rows.append((agent, action, rewards, done, scores, end, obs["observation"].copy(),
                     obs["action_mask"].copy()))
    return rows


@pytest.mark.parametrize("num_envs", [3, PARALLEL_FROM + 1])
@pytest.mark.parametrize("game, num_players, reward", each_game("players", "rewards"))
def test_game_i_plays_like_a_single_game_seeded_seed_plus_i(game, num_players, reward, num_envs):
    seed, num_steps, max_turns = 100, 400, game.max_turns["trajectory"]
    batch = game.BatchEnv(num_envs, seed=seed, num_players=num_players, max_turns=max_turns, reward=reward)
    actions = np.zeros(num_envs, dtype=np.int64)
    checked = [0, num_envs - 1]
    expected = {g: single_game_trajectory(game, num_players, seed + g, num_steps, max_turns, reward)
                for g in checked}
    ends = 0
    for t in range(num_steps):
        agents = batch.agent_to_act.copy()
        batch.random_actions(actions)
        batch.step(actions)
        for g in checked:
            agent, action, rewards, done, scores, end, obs, mask = expected[g][t]
            assert f"player_{agents[g]}" == agent and actions[g] == action
            assert batch.rewards[g].tolist() == rewards
            assert bool(batch.terminated[g] or batch.truncated[g]) == done
            if done:
                assert batch.scores[g].tolist() == scores
            assert batch.END_NAMES[batch.ends[g]] == end
            ends += done
            np.testing.assert_array_equal(batch.observations[g], obs)
            np.testing.assert_array_equal(batch.action_masks[g], mask)
    assert ends > 0, "no game ended: the autoreset path was not compared"


@pytest.mark.parametrize("autoreset", [True, False])
@pytest.mark.parametrize("package, max_turns, names", [
    (makabana_env, 20, {"rules", "truncated"}),                 # makabana_env/RULES.md: no other end
    (maunakea_env, 40, {"rules", "settled", "truncated"}),      # settled: RULINGS.md, or walled in
])
def test_batch_ends_name_every_end_the_game_has(package, max_turns, names, autoreset):
    """``BatchEnv.ends`` in the games without positions of their own below: random 2-player games
    reach every end their rules have, each step's ends are non-zero exactly for the games that ended
    on it (a game left finished reads END_NONE after), "truncated" exactly for the truncated ones, and
    ``set_state`` and ``reset`` clear them (Make Make's: further down)."""
    batch = package.BatchEnv(16, seed=0, autoreset=autoreset, num_players=2, max_turns=max_turns)
    seen = set()
    for _ in range(600):
        batch.step(batch.random_actions())
        done = batch.terminated | batch.truncated
        assert ((batch.ends != END_NONE) == done).all()
        assert ((batch.ends == END_TRUNCATED) == batch.truncated).all()
        seen.update(batch.END_NAMES[code] for code in batch.ends[done])
        if done.any():
            g = int(np.flatnonzero(done)[0])
            batch.set_state(g, batch.state(g))     # the row it holds now: running again, or finished
            assert batch.ends[g] == END_NONE
        if not autoreset and (batch.agent_to_act < 0).all():
            batch.reset(seed=len(seen))
            assert (batch.ends == END_NONE).all()
    assert seen == names


@pytest.mark.parametrize("game", each_game())
def test_same_seed_same_trajectories_whatever_the_number_of_threads(game):
    runs = []
    for threads in (1, numba.config.NUMBA_NUM_THREADS):
        numba.set_num_threads(threads)
        try:
            batch = game.BatchEnv(PARALLEL_FROM * 2, seed=7, max_turns=game.max_turns["threads"])
            batch.play_random(300)
            for _ in range(50):
                batch.step(batch.random_actions())
            runs.append(batch.states.copy())
        finally:
            numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    np.testing.assert_array_equal(runs[0], runs[1])


@pytest.mark.parametrize("game", each_game())
def test_random_play_leaves_each_games_chance_alone(game):
    """``random_actions`` and ``play_random`` draw from the batch's generators, not from the games'
    own: asking for random actions changes no row (it advanced Mauna Kea's generator, which draws its
    tiles, so that the same actions then dealt other tiles than in ``raw_env``), and ``play_random``
    plays the moves that ``random_actions`` would have drawn."""
    batch = game.BatchEnv(3, seed=21, num_players=2, max_turns=game.max_turns["autoreset"])
    twin = game.BatchEnv(3, seed=21, num_players=2, max_turns=game.max_turns["autoreset"])
    for _ in range(3):
        before = batch.states.copy()
        actions = batch.random_actions()
        np.testing.assert_array_equal(batch.states, before)
        assert (actions >= 0).all()
        batch.step(actions)
    twin.play_random(3)
    np.testing.assert_array_equal(twin.states, batch.states)
    for _ in range(game.steps_to_end // 10):
        batch.step(batch.random_actions())
    twin.play_random(game.steps_to_end // 10)
    np.testing.assert_array_equal(twin.states, batch.states)
    np.testing.assert_array_equal(twin.action_masks, batch.action_masks)


@pytest.mark.parametrize("game", each_game())
def test_the_cores_random_play_from_a_generator_of_the_callers(game):
    """``core.random_action_with`` and ``play_random_games_with`` draw as the batch does and leave the
    row's generator alone; their generator argument is checked like every array a face takes."""
    batch = game.BatchEnv(2, seed=5, num_players=2)
    row, gens = batch.state(1), np.zeros(2, dtype=np.int64)
    seed_action_generators(np.array([5, 6]), gens)
    assert game.core.random_action_with(row, gens, 1) == batch.random_actions()[1]
    np.testing.assert_array_equal(row, batch.state(1))
    twin = row.copy()
    game.core.play_random_games_with(row, gens, 1, 10)
    batch.play_random(10)
    np.testing.assert_array_equal(row, batch.state(1))
    assert not np.array_equal(row, twin)
    for bad, message in ((gens.astype(np.int32), "gens must be a 1-D C-contiguous numpy array of int64"),
                         (np.zeros(0, np.int64), "gens must hold at least one generator state"),
                         (np.zeros(2, np.int64), r"gens\[1\] must be a generator state .* got 0"),
                         (row[:2], "gens shares memory with state")):
        with pytest.raises(ValueError, match=message):
            game.core.random_action_with(row, bad, 1)
    with pytest.raises(ValueError, match="g must be an integer from 0 to 1, got 2"):
        game.core.play_random_games_with(row, gens, 2, 1)
    for seeds, out, message in ((np.array([5]), np.zeros(2, np.int64), "out must be .* int64 with 1 entries"),
                                (np.array([5.0]), gens, "seeds must be .* of int64"),
                                (np.array([-1]), np.zeros(1, np.int64), "seeds must be from 0 to 2"),
                                (np.array([5]), np.zeros(1, np.int32), "out must be .* int64")):
        with pytest.raises(ValueError, match=message):
            seed_action_generators(seeds, out)
    frozen = row.copy()
    frozen.flags.writeable = False
    again = gens.copy()
    try:   # Mauna Kea's kernel writes into the row's type (a Numba TypingError was what it raised)
        assert game.core.random_action_with(frozen, gens, 1) == game.core.random_action_with(row.copy(), again, 1)
    except ValueError as error:
        assert game.name == "maunakea" and "state must be writeable" in str(error)


# --- finished games ------------------------------------------------------------------------------

def play_until_a_game_ends(batch, max_steps):
    for _ in range(max_steps):
        batch.step(batch.random_actions())
        if batch.terminated.any() or batch.truncated.any():
            return
    raise AssertionError("no game ended")


@pytest.mark.parametrize("game", each_game())
def test_autoreset_reports_the_finished_game_and_starts_the_next(game):
    core = game.core
    batch = game.BatchEnv(4, seed=3, num_players=game.autoreset_players, reward="score",
                          max_turns=game.max_turns["autoreset"])
    play_until_a_game_ends(batch, game.steps_to_end)
    g = int(np.flatnonzero(batch.terminated | batch.truncated)[0])
    # the step that ended the game still reports its final scores (rewards in score mode) ...
    if batch.terminated[g]:
        assert batch.rewards[g].tolist() == batch.scores[g].tolist()
    else:
        assert not batch.rewards[g].any()
    game.final_scores(batch.scores[g])
    # ... while the row already holds a new game with the next seed
    state = batch.states[g]
    assert state[core.STATUS] == core.STATUS_RUNNING
    assert state[core.SEED] == following_seed(3 + g)
    assert batch.action_masks[g].sum() > 0 and batch.agent_to_act[g] == 0
    game.new_game(batch, g)


@pytest.mark.parametrize("game", each_game())
def test_without_autoreset_a_finished_game_stays_finished(game):
    core = game.core
    batch = game.BatchEnv(4, seed=3, autoreset=False, max_turns=2)
    play_until_a_game_ends(batch, game.steps_to_end)
    done = batch.terminated | batch.truncated
    g = int(np.flatnonzero(done)[0])
    assert batch.states[g, core.STATUS] != core.STATUS_RUNNING
    assert batch.action_masks[g].sum() == 0 and batch.agent_to_act[g] == -1
    frozen = batch.states[g].copy()
    actions = batch.random_actions()
    assert actions[g] == -1
    batch.step(actions)
    np.testing.assert_array_equal(batch.states[g], frozen)
    assert not batch.terminated[g] and not batch.truncated[g] and not batch.rewards[g].any()
    actions = batch.random_actions()
    actions[g] = 0
    with pytest.raises(ValueError, match=f"game {g}: illegal action 0 .*game over.*-1"):
        batch.step(actions)
    batch.reset(seed=3)
    assert (batch.states[:, core.STATUS] == core.STATUS_RUNNING).all()


# --- refused input -------------------------------------------------------------------------------

@pytest.mark.parametrize("num_envs", [5, PARALLEL_FROM])
@pytest.mark.parametrize("game", each_game())
def test_illegal_action_raises_naming_the_game_and_changes_nothing(game, num_envs):
    batch = game.BatchEnv(num_envs, seed=1)
    for _ in range(game.warmup_steps):
        batch.step(batch.random_actions())
    actions = batch.random_actions()
    before = [a.copy() for a in (batch.states, batch.observations, batch.action_masks, batch.rewards)]
    bad = num_envs - 2
    actions[bad] = game.illegal_action(batch, bad)
    with pytest.raises(ValueError, match=f"game {bad}: illegal action {actions[bad]} .*decision is asked"):
        batch.step(actions)
    for old, new in zip(before, (batch.states, batch.observations, batch.action_masks, batch.rewards)):
        np.testing.assert_array_equal(old, new)
    for out_of_range in (-1, game.core.NUM_ACTIONS):
        actions[bad] = out_of_range
        with pytest.raises(ValueError, match=f"game {bad}: illegal action {out_of_range}"):
            batch.step(actions)
    for wrong in (np.zeros(num_envs + 1, dtype=np.int64), np.zeros(num_envs, dtype=np.float64)):
        with pytest.raises(ValueError, match="actions must be an integer array"):
            batch.step(wrong)


@pytest.mark.parametrize("game", each_game())
def test_bad_options_are_refused(game):
    for kwargs in game.bad_options:
        with pytest.raises(ValueError):
            game.BatchEnv(**kwargs)


# --- memory and the numba loop -------------------------------------------------------------------

@pytest.mark.parametrize("game", each_game())
def test_outputs_are_written_into_the_same_arrays_every_step(game):
    batch = game.BatchEnv(8, seed=0, max_turns=game.max_turns["arrays"])
    arrays = (batch.observations, batch.action_masks, batch.rewards, batch.terminated, batch.truncated,
              batch.agent_to_act, batch.scores, batch.states)
    pointers = [a.__array_interface__["data"][0] for a in arrays]
    actions = np.zeros(8, dtype=np.int64)
    for _ in range(300):
        returned = batch.step(batch.random_actions(actions))
        assert returned[0] is batch.observations and returned[1] is batch.action_masks
        assert returned[2] is batch.rewards and returned[3] is batch.terminated
        assert returned[4] is batch.truncated
    assert [a.__array_interface__["data"][0] for a in arrays] == pointers
    batch.close()   # as Gymnasium's vector environments are closed (it has nothing to release)


@pytest.mark.parametrize("game, num_players", each_game("invariant_players"))
def test_random_play_inside_numba_finishes_games_and_keeps_invariants(game, num_players):
    batch = game.BatchEnv(16, seed=0, num_players=num_players, max_turns=game.max_turns["invariants"])
    finished = batch.play_random(game.invariant_steps)
    assert finished >= 16
    game.invariants(batch.states, num_players)
    assert (batch.states[:, game.core.STATUS] == game.core.STATUS_RUNNING).all()


# --- Make Make only ------------------------------------------------------------------------------

@pytest.mark.parametrize("autoreset", [True, False])
def test_makemake_batch_ends_say_how_each_game_ended(autoreset):
    """``BatchEnv.ends`` gives, for each game that ended on the step, the code of its end, which
    ``END_NAMES`` turns into the name raw_env puts in ``infos``; the others read END_NONE (None), on
    that step and on the next one, and after ``reset``."""
    ends = ["win", "stalemate", "truncated"]
    batch = makemake_env.BatchEnv(4, seed=0, autoreset=autoreset, num_players=3, max_turns=50)
    moves = batch.random_actions()
    for g, end in enumerate(ends):
        env = makemake_env.raw_env(num_players=3, max_turns=50)
        moves[g] = one_move_before(end, env)
        batch.states[g] = env.state()
    batch.step(moves)
    assert batch.ends.dtype == np.int8
    assert [batch.END_NAMES[code] for code in batch.ends] == ends + [None]
    assert batch.ends[3] == END_NONE
    assert batch.terminated.tolist() == [True, True, False, False]
    assert batch.truncated.tolist() == [False, False, True, False]
    assert batch.rewards[0].tolist() == [-1, -1, 1] and not batch.rewards[1:].any()
    batch.step(batch.random_actions())
    assert (batch.ends == END_NONE).all()
    batch.reset(seed=0)
    assert (batch.ends == END_NONE).all()
    assert [batch.END_NAMES[c] for c in (END_WIN, END_STALEMATE, END_TRUNCATED)] == ends


# --- Mauna Kea only ------------------------------------------------------------------------------

def test_illegal_action_message_names_the_decision():
    core = MAUNAKEA.core
    batch = MAUNAKEA.BatchEnv(2, seed=0, num_players=2)
    actions = batch.random_actions()
    actions[1] = core.END_TURN
    with pytest.raises(ValueError, match="game 1: illegal action 2039 \\(end the turn\\).*placement decision"):
        batch.step(actions)


@pytest.mark.parametrize("package", [makabana_env, makemake_env, maunakea_env])
def test_a_batch_larger_than_the_machines_memory_is_refused_before_it_is_allocated(package, monkeypatch):
    """numpy's zeros are only promised: 2**20 games of 4-player Mauna Kea (27 GB) were allocated on a
    23 GB machine, and the first reset was killed for memory."""
    import pacific_common.batch as batch_module
    monkeypatch.setattr(batch_module, "physical_memory", lambda: 50_000_000)   # 50 MB
    fits = package.BatchEnv(num_envs=64, seed=0)
    per_game = (fits.states.nbytes + fits.observations.nbytes + fits.action_masks.nbytes) // 64
    most = 50_000_000 // per_game
    with pytest.raises(MemoryError, match=rf"num_envs=100,000 games of {package.__name__} need [\d.]+ GB for "
                                          rf"their arrays, more than this machine's 0.1 GB of memory; play "
                                          rf"fewer at once \(it holds the arrays of [\d,]+ at most\)"):
        package.BatchEnv(num_envs=100_000, seed=0)
    assert most > 1000   # the bookkeeping per game is small beside the rows
    monkeypatch.setattr(batch_module, "physical_memory", lambda: None)   # a system that does not say
    assert package.BatchEnv(num_envs=64, seed=0).num_envs == 64
