"""The MCTS agent: legal choices, reproducibility, and above all that its determinization never uses
information its player could not have (the hidden parts of the state row it is handed)."""
import numpy as np
import pytest

from agents.games import game_info
from agents.mcts import MCTSAgent, random_positions
from makabana_env import core as mb
from makabana_env.board import SPOT_NAMES
from maunakea_env import core as mk

GAMES = ("makabana", "makemake", "maunakea")
SIMS = 48


def decide(game, state, seed, sims=SIMS):
    """The agent of the player to act, reset with ``seed``, deciding at ``state``."""
    core = game.core
    player = int(core.player_to_act(state))
    agent = MCTSAgent(simulations=sims)
    agent.reset(game, player, seed)
    obs = np.zeros(game.obs_size, dtype=np.int8)
    mask = np.zeros(game.num_actions, dtype=np.int8)
    core.observe_player(state, player, obs, mask)
    action = agent.act(obs, mask.copy(), state.copy())
    return action, mask, agent


@pytest.mark.parametrize("name,players", [(g, 2) for g in GAMES] + [("makabana", 4), ("makemake", 3),
                                                                      ("maunakea", 4)])
def test_chooses_only_legal_actions(name, players):
    game = game_info(name, num_players=players)
    for i, state in enumerate(random_positions(game, 12, seed=players * 100 + len(name))):
        action, mask, _ = decide(game, state, seed=i)
        assert mask[action] == 1, f"{name}: illegal action {action}"


@pytest.mark.parametrize("name", GAMES)
def test_same_seed_same_choices(name):
    game = game_info(name, num_players=2)
    for i, state in enumerate(random_positions(game, 4, seed=7)):
        a1, _, agent1 = decide(game, state, seed=(3, i))
        a2, _, agent2 = decide(game, state, seed=(3, i))
        assert a1 == a2
        assert np.array_equal(agent1.last_visits, agent2.last_visits)


def search_visits(game, state, seed=11, sims=200):
    """Root visit counts of one search from ``state`` for the player to act."""
    agent = MCTSAgent(simulations=sims)
    agent.reset(game, int(game.core.player_to_act(state)), 0)
    agent.search(state.copy(), sims, seed)
    return agent.last_visits.copy()


def makabana_state(phase, seed=5):
    """A two-player Maka Bana game in ``phase`` with some huts built and the colour to act not the
    first of the season (so that an opponent colour has a project already)."""
    game = game_info("makabana", num_players=2)
    rng = np.random.default_rng(seed)
    state = np.zeros(mb.STATE_SIZE, dtype=np.int64)
    while True:
        mb.init(state, 2, game.variant_id, game.max_turns, int(rng.integers(1 << 31)))
        for _ in range(int(rng.integers(20, 60))):
            if state[mb.STATUS] != mb.STATUS_RUNNING:
                break
            mb.step(state, mb.random_action(state))
        if state[mb.STATUS] != mb.STATUS_RUNNING or state[mb.PHASE] != phase:
            continue
        me = mb.owner(state, state[mb.TO_ACT])
        others = [c for c in range(4) if mb.owner(state, c) != me and state[mb.PROJECT_KIND + c] >= 0]
        if others:
            return game, state, others


def test_makabana_search_ignores_hidden_projects_before_the_reveal():
    """While projects are chosen, an opponent's project is only known to exist: any other project in
    its place -- other spot, kind and shown card -- and another generator state leave the search of
    the player to act exactly as it was."""
    game, state, others = makabana_state(mb.PHASE_PROJECT)
    reference = search_visits(game, state)
    for c in others:
        changed = state.copy()
        changed[mb.PROJECT_KIND + c] = 1 - state[mb.PROJECT_KIND + c] if state[mb.PAINTS + c] > 0 else 0
        changed[mb.PROJECT_SPOT + c] = (state[mb.PROJECT_SPOT + c] + 7) % len(SPOT_NAMES)
        changed[mb.PROJECT_SHOWN + c] = (state[mb.PROJECT_SHOWN + c] + 1) % 3
        changed[mb.RNG] ^= 0x5DEECE66D
        assert not np.array_equal(changed, state)
        assert np.array_equal(search_visits(game, changed), reference)


def test_makabana_search_ignores_hidden_spots_after_the_reveal():
    """Once the hints are revealed, an opponent's spot is known only through its shown card and
    kind: another spot showing the same card leaves the search exactly as it was."""
    game, state, others = makabana_state(mb.PHASE_TIKI)
    reference = search_visits(game, state)
    swapped = 0
    for c in others:
        spot, shown = state[mb.PROJECT_SPOT + c], state[mb.PROJECT_SHOWN + c]
        card = mb.shown_card(spot, shown)
        for other in range(len(SPOT_NAMES)):
            if other != spot and mb.spot_in_play(state, other) and mb.shown_card(other, shown) == card:
                changed = state.copy()
                changed[mb.PROJECT_SPOT + c] = other
                assert np.array_equal(search_visits(game, changed), reference)
                swapped += 1
                break
    assert swapped > 0


def test_makabana_search_does_use_what_the_player_sees():
    """Control for the tests above: the player's own project is not hidden from it, and another own
    project changes the search."""
    game, state, _ = makabana_state(mb.PHASE_TIKI)
    me = mb.owner(state, state[mb.TO_ACT])
    own = [c for c in range(4) if mb.owner(state, c) == me and state[mb.PROJECT_KIND + c] == mb.CONSTRUCT]
    if not own:
        pytest.skip("no own construction in this position")
    changed = state.copy()
    for s in range(len(SPOT_NAMES)):
        if state[mb.HUT + s] < 0 and s != state[mb.PROJECT_SPOT + own[0]]:
            changed[mb.PROJECT_SPOT + own[0]] = s
            break
    assert not np.array_equal(search_visits(game, changed), search_visits(game, state))


@pytest.mark.parametrize("name", ["makemake", "maunakea"])
def test_search_ignores_the_generator(name):
    """Mauna Kea's only secret is the order of the bag, which is the state's generator (the next
    draws); Make Make has none, and its generator only drives random play: another generator state
    leaves the search exactly as it was."""
    game = game_info(name, num_players=2)
    core = game.core
    for state in random_positions(game, 3, seed=13, max_steps=120):
        changed = state.copy()
        changed[core.RNG] ^= 0x2545F4914F6CDD1D
        assert np.array_equal(search_visits(game, changed, sims=120), search_visits(game, state, sims=120))


def test_maunakea_bag_order_changes_the_draws_but_not_the_search():
    """Control: the generator really is the bag's order (another one draws other tiles)."""
    game = game_info("maunakea", num_players=2)
    state = random_positions(game, 1, seed=21, max_steps=40)[0]
    changed = state.copy()
    changed[mk.RNG] ^= 0x2545F4914F6CDD1D
    draws = []
    for row in (state, changed):
        row = row.copy()
        draws.append([mk._draw_from_bag(row) for _ in range(6)])
    assert draws[0] != draws[1]


def test_unsupported_variants_are_refused():
    agent = MCTSAgent(simulations=8)
    with pytest.raises(ValueError, match="mao"):
        agent.reset(game_info("makabana", num_players=3, variant="mao"), 0, 0)


def test_simulations_per_second_is_measured():
    agent = MCTSAgent(simulations=32)
    rate = agent.simulations_per_second(game_info("makemake", num_players=2), positions=2)
    assert rate > 0
