"""The MCTS agent: legal choices, reproducibility, and above all that its determinization never uses
information its player could not have (the hidden parts of the state row it is handed)."""
import math

import numpy as np
import pytest

from agents.games import game_info
from agents.search.mcts import DEFAULTS, MCTSAgent, random_positions
from makabana_env import kernels as mb  # the search works on rows it builds: the unchecked kernels
from makabana_env.board import SPOT_NAMES
from maunakea_env import kernels as mk  # likewise

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


@pytest.mark.parametrize("name,players,variant", [(g, 2, None) for g in GAMES] + [
    ("makabana", 4, None), ("makemake", 3, None), ("maunakea", 4, None), ("maunakea", 2, "advanced"),
    ("maunakea", 3, "advanced"), ("makabana", 2, "mao"), ("makabana", 3, "mao"), ("makabana", 5, "mao")])
def test_chooses_only_legal_actions(name, players, variant):
    game = game_info(name, num_players=players, variant=variant)
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


def advanced_position(seed, setup=False):
    """A two-player Mauna Kea position of the rules for advanced players: in the set-up's card removal
    (``setup``) after the first player's first removal, or later in the game."""
    game = game_info("maunakea", num_players=2, variant="advanced")
    rng = np.random.default_rng(seed)
    state = np.zeros(mk.STATE_SIZE, dtype=np.int64)
    while True:
        mk.init(state, 2, game.variant_id, game.max_turns, int(rng.integers(1 << 31)))
        steps = 1 if setup else int(rng.integers(20, 80))
        for _ in range(steps):
            if state[mk.STATUS] != mk.STATUS_RUNNING:
                break
            mk.step(state, mk.random_action(state))
        mask = np.zeros(game.num_actions, dtype=np.int8)
        mk.legal_action_mask(state, mask)
        if state[mk.STATUS] == mk.STATUS_RUNNING and mask.sum() > 1 and (
                not setup or state[mk.PHASE] == mk.PHASE_CARDS):
            return game, state


def other_hand(state, player, rng):
    """``state`` with the other player's cards swapped for others it could hold as far as ``player``
    can tell: as many cards, out of those that are neither in ``player``'s hand, nor removed by
    ``player`` at set-up, nor played; what the other removed, hidden too, is left unnamed."""
    from maunakea_env.board import CARD_KIND_COPIES, FIRST_ACTION_KIND, NUM_CARD_KINDS
    other = 1 - player
    cards = lambda p: state[mk.CARDS + p * NUM_CARD_KINDS:mk.CARDS + (p + 1) * NUM_CARD_KINDS]
    free = CARD_KIND_COPIES - cards(player) - \
        state[mk.REMOVED_CARDS + player * NUM_CARD_KINDS:mk.REMOVED_CARDS + (player + 1) * NUM_CARD_KINDS]
    for p in range(2):
        played = state[mk.PLAYED + p * mk.NUM_ACTION_KINDS:mk.PLAYED + (p + 1) * mk.NUM_ACTION_KINDS]
        free[FIRST_ACTION_KIND:] -= played
    deck = np.repeat(np.arange(NUM_CARD_KINDS), free)
    changed = state.copy()
    while True:
        pick = rng.choice(deck, size=int(cards(other).sum()), replace=False)
        hand = np.bincount(pick, minlength=NUM_CARD_KINDS)
        if not np.array_equal(hand, cards(other)):
            changed[mk.CARDS + other * NUM_CARD_KINDS:mk.CARDS + (other + 1) * NUM_CARD_KINDS] = hand
            changed[mk.REMOVE_FROM + other] = 0
            changed[mk.REMOVED_CARDS + other * NUM_CARD_KINDS:mk.REMOVED_CARDS + (other + 1) * NUM_CARD_KINDS] = 0
            changed[mk.RNG] ^= 0x2545F4914F6CDD1D
            return changed


@pytest.mark.parametrize("setup", [True, False])
def test_maunakea_advanced_search_ignores_the_other_players_cards(setup):
    """Rules for advanced players: the other players' cards are hidden (only how many each holds and
    the action cards played are public).  Another hand for the opponent, of as many cards, and
    another bag order leave the search exactly as it was -- also during the set-up, while the
    opponent removes its dealt cards."""
    rng = np.random.default_rng(4)
    for seed in range(3):
        game, state = advanced_position(seed, setup)
        player = int(mk.player_to_act(state))
        changed = other_hand(state, player, rng)
        assert np.array_equal(search_visits(game, changed, sims=150), search_visits(game, state, sims=150))


def test_maunakea_advanced_search_does_use_its_own_cards():
    """Control: the searching player's own cards are its to use (another own hand, another search)."""
    game, state = advanced_position(1, setup=True)
    player = int(mk.player_to_act(state))
    swapped = other_hand(state, 1 - player, np.random.default_rng(0))
    swapped[mk.RNG] = state[mk.RNG]
    assert not np.array_equal(search_visits(game, swapped), search_visits(game, state))


def settled_position():
    """A two-player Mauna Kea game between heuristic players, at the first position where ``settled``
    holds (a known seed where every explorer left is walled off from the boats)."""
    from agents.baselines.heuristic import HeuristicAgent
    from agents.search.maunakea import settled
    game = game_info("maunakea", num_players=2)
    state = np.zeros(mk.STATE_SIZE, dtype=np.int64)
    mk.init(state, 2, game.variant_id, game.max_turns, 7)
    agents = [HeuristicAgent(), HeuristicAgent()]
    for p, agent in enumerate(agents):
        agent.reset(game, p, p)
    obs = np.zeros(game.obs_size, dtype=np.int8)
    mask = np.zeros(game.num_actions, dtype=np.int8)
    while state[mk.STATUS] == mk.STATUS_RUNNING:
        if settled(state):
            return game, state
        p = int(mk.player_to_act(state))
        mk.observe_player(state, p, obs, mask)
        mk.step(state, agents[p].act(obs, mask))
    return game, None


def test_maunakea_settled_positions_keep_their_points():
    """``settled``: once no explorer can reach a boat, no sequence of moves changes anybody's points
    (random play to the end from there, several times); the search then answers without searching."""
    from agents.search.maunakea import settled
    game, state = settled_position()
    assert state is not None, "no settled position in this game: pick another seed"
    points = [mk.score(state, p) for p in range(2)]
    for seed in range(5):
        row = state.copy()
        row[mk.RNG] ^= seed
        while row[mk.STATUS] == mk.STATUS_RUNNING:
            assert settled(row) or row[mk.PHASE] != mk.PHASE_TURN
            mk.step(row, mk.random_action(row))
        assert [mk.score(row, p) for p in range(2)] == points
    action, mask, agent = decide(game, state, seed=0)
    assert mask[action] == 1 and agent.last_visits is None


def test_a_fresh_game_is_not_settled():
    from agents.search.maunakea import settled
    game = game_info("maunakea", num_players=2)
    for state in random_positions(game, 5, seed=3, max_steps=60):
        assert not settled(state)


def mao_positions(phase, count, seed, players=2):
    """Maka Bana Mao positions of random games in ``phase`` where the player to act has a choice and
    some colour of another player has finished a project that is not revealed yet (its cards are
    hidden from the player to act)."""
    game = game_info("makabana", num_players=players, variant="mao")
    rng = np.random.default_rng(seed)
    state = np.zeros(mb.STATE_SIZE, dtype=np.int64)
    mask = np.zeros(game.num_actions, dtype=np.int8)
    found = []
    while len(found) < count:
        mb.init(state, players, game.variant_id, game.max_turns, int(rng.integers(1 << 31)))
        for _ in range(int(rng.integers(5, 120))):
            if state[mb.STATUS] != mb.STATUS_RUNNING:
                break
            mb.step(state, mb.random_action(state))
            if state[mb.STATUS] != mb.STATUS_RUNNING or state[mb.PHASE] != phase:
                continue
            mb.legal_action_mask(state, mask)
            me = mb.owner(state, state[mb.TO_ACT])
            hidden = [c for c in range(state[mb.NUM_COLOURS]) if mb.owner(state, c) != me and
                      state[mb.PROJECT_KIND + c] == mb.MAO_PROJECT and state[mb.REVEALED_NOW + c] == 0]
            if mask.sum() > 1 and hidden:
                found.append((state.copy(), hidden))
                break
    return game, found


def other_mao_project(state, c, rng, keep_top, keep_count):
    """``state`` with colour c's project replaced by another set of cards from its hand, keeping its
    visible card (``keep_top``) and its card count (``keep_count``) where the searching player has
    seen them; None if no other set of cards would do (a single card that shows)."""
    n = state[mb.NUM_COLOURS]
    hand = [k for k in range(mb.PAINT_CARD) if (mb.HAND_CARDS[n] >> k) & 1]
    top, count = state[mb.PROJECT_TOP + c], mb.card_count(state, c)
    for _ in range(1000):
        size = count if keep_count else int(rng.integers(1, 6))
        paint = int(rng.integers(0, min(state[mb.PAINTS + c], size) + 1))
        if keep_top and top == mb.PAINT_CARD:
            paint = max(paint, 1)
        if size - paint > len(hand):
            continue
        cards = [int(k) for k in rng.choice(hand, size=size - paint, replace=False)]
        if keep_top and top != mb.PAINT_CARD and top not in cards:
            if not cards:
                continue
            cards[0] = int(top)
        new_top = top if keep_top else int(rng.choice(cards + [mb.PAINT_CARD] * paint))
        bits = sum(1 << k for k in set(cards))
        if mb.popcount(bits) + paint != size:
            continue
        if bits == state[mb.PROJECT_CARDS + c] and paint == state[mb.PROJECT_PAINT + c] and new_top == top:
            continue
        changed = state.copy()
        changed[mb.PROJECT_CARDS + c] = bits
        changed[mb.PROJECT_PAINT + c] = paint
        changed[mb.PROJECT_TOP + c] = new_top
        changed[mb.PROJECT_NEXT + c] = mb._hand_asked(changed, c)  # a ready project has asked its whole hand
        changed[mb.RNG] ^= 0x5DEECE66D
        return changed
    return None


@pytest.mark.parametrize("phase,players", [(mb.PHASE_PROJECT, 2), (mb.PHASE_DENOUNCE, 2), (mb.PHASE_TIKI, 2),
                                           (mb.PHASE_TIKI, 3), (mb.PHASE_EXECUTE, 2)])
def test_makabana_mao_search_ignores_hidden_projects(phase, players):
    """Maka Bana Mao: while an opponent colour's project is unrevealed, another set of cards in its
    place -- with the same visible card once the hints are shown, and the same count once a
    denunciation has shown it -- and another generator state leave the search exactly as it was."""
    game, found = mao_positions(phase, 3, seed=phase * 10 + players, players=players)
    rng = np.random.default_rng(phase)
    compared = 0
    for state, hidden in found:
        reference = search_visits(game, state, sims=150)
        for c in hidden:
            denounced = c in (state[mb.DENOUNCER], state[mb.DENOUNCED])
            changed = other_mao_project(state, c, rng, keep_top=phase != mb.PHASE_PROJECT, keep_count=denounced)
            if changed is not None:
                assert np.array_equal(search_visits(game, changed, sims=150), reference)
                compared += 1
    assert compared > 0


def test_makabana_mao_search_does_use_its_own_project():
    """Control: the searching player's own project is its own to see (another one, another search)."""
    game, found = mao_positions(mb.PHASE_TIKI, 3, seed=1)
    differs = 0
    rng = np.random.default_rng(0)
    for state, _ in found:
        me = mb.owner(state, state[mb.TO_ACT])
        for c in range(state[mb.NUM_COLOURS]):
            if mb.owner(state, c) == me and state[mb.PROJECT_KIND + c] == mb.MAO_PROJECT:
                changed = other_mao_project(state, c, rng, keep_top=True, keep_count=False)
                if changed is None:
                    continue
                changed[mb.RNG] = state[mb.RNG]
                differs += not np.array_equal(search_visits(game, changed), search_visits(game, state))
    assert differs > 0


def test_simulations_per_second_is_measured():
    agent = MCTSAgent(simulations=32)
    rate = agent.simulations_per_second(game_info("makemake", num_players=2), positions=2)
    assert rate > 0


def test_maunakea_search_skips_only_pointless_pick_ups_and_drops():
    """The moves Mauna Kea's search considers are the legal ones less the free moves that change
    nothing worth having: a pick-up of anything but the most valuable colour lying there, and a drop
    unless a full explorer makes room for a more valuable artifact lying on its square."""
    from agents.search.maunakea import search_mask
    game = game_info("maunakea", num_players=2)
    legal = np.zeros(game.num_actions, dtype=np.int8)
    searched = np.zeros(game.num_actions, dtype=np.int8)
    pruned = 0
    for state in random_positions(game, 300, seed=17, max_steps=400):
        mk.legal_action_mask(state, legal)
        search_mask(state, searched)
        assert np.all(searched <= legal) and searched.sum() > 0
        player = int(state[mk.TO_ACT])
        for a in np.flatnonzero(legal != searched):
            assert mk.PICK_BASE <= a < mk.BOARD_BASE, f"a move that is not free was dropped: {a}"
            drop = a >= mk.DROP_BASE
            e, colour = divmod(int(a) - (mk.DROP_BASE if drop else mk.PICK_BASE), mk.NUM_COLOURS)
            x = mk.explorer_index(player, e)
            here = state[mk.ARTIFACTS + state[mk.EXPLORER_SQUARE + x] * mk.NUM_COLOURS:][:mk.NUM_COLOURS]
            best_here = max((c for c in range(mk.NUM_COLOURS) if here[c] > 0), default=-1)
            if drop:
                full = mk.carried_total(state, player, e) >= mk.MAX_CARRIED
                assert not (full and colour < best_here and all(
                    state[mk.CARRIED + x * mk.NUM_COLOURS + c] == 0 for c in range(colour)))
            else:
                assert colour < best_here
            pruned += 1
    assert pruned > 0


def test_makabana_mao_determinization_survives_a_repaint_after_the_count():
    """A denounced colour holding its whole hand and both paint cards (12 cards shown) loses a paint
    card to the repaint that follows: its count can no longer be met, and the determinization must
    deal what it can rather than fail."""
    from agents.search.makabana import determinize
    state = np.zeros(mb.STATE_SIZE, dtype=np.int64)
    mb.init(state, 3, mb.VARIANT_MAO, 20, 5)
    state[mb.PHASE], state[mb.TO_ACT] = mb.PHASE_TIKI, 0
    for c in range(3):
        state[mb.PROJECT_KIND + c], state[mb.PROJECT_TOP + c] = mb.MAO_PROJECT, 0
        state[mb.PROJECT_CARDS + c] = 0b1110001
    state[mb.DENOUNCER], state[mb.DENOUNCED], state[mb.ELIMINATED + 1] = 2, 1, 1
    state[mb.PROJECT_TOP + 1], state[mb.PROJECT_CARDS + 1] = mb.PAINT_CARD, mb.HAND_CARDS[3]
    state[mb.PROJECT_PAINT + 1], state[mb.PAINTS + 1] = 2, 1
    for seed in range(20):
        row = state.copy()
        determinize(row, 0, seed, 2)
        assert row[mb.PROJECT_TOP + 1] == mb.PAINT_CARD and mb.card_count(row, 1) >= 11


def test_makabana_mao_rollout_prepares_honest_projects_through_the_add_or_keep_sequence():
    """The rollout policy in Mao (agents.search.makabana): after the visible card it answers add or keep
    for each hand card asked, and ends with the three cards naming one spot, plus a paint card exactly
    when the paint card is the visible one (a take-back)."""
    from agents.search.makabana import rollout_action
    game = game_info("makabana", num_players=3, variant="mao")
    state = np.zeros(mb.STATE_SIZE, dtype=np.int64)
    spot_cards = set(int(x) for x in mb.SPOT_CARDS)
    checked = 0
    for seed in range(20):
        mb.init(state, 3, game.variant_id, game.max_turns, seed)
        while state[mb.PHASE] == mb.PHASE_PROJECT:
            assert mb.step(state, int(rollout_action(state))) == mb.STEP_OK
        for c in range(3):
            cards, paint = int(state[mb.PROJECT_CARDS + c]), int(state[mb.PROJECT_PAINT + c])
            assert cards in spot_cards
            assert paint == (1 if state[mb.PROJECT_TOP + c] == mb.PAINT_CARD else 0)
            checked += 1
    assert checked == 60


# ---------------------------------------------------------------------------------------------------
# The guided search (issue 22): a learned policy's probabilities rank and bias the root's actions.
class FavouriteGuide:
    """A guide that is sure of one legal action: the ``k``-th in the mask's order."""

    name = "favourite"

    def __init__(self, k):
        self.k = k

    def reset(self, game, player, seed=None):
        pass

    def action_probabilities(self, observation, action_mask, state=None):
        legal = np.flatnonzero(action_mask)
        out = np.zeros(len(action_mask))
        out[legal[self.k % legal.size]] = 1.0
        return out


def guided_decision(game, state, guide, sims):
    from agents.search.mcts import GuidedMCTSAgent

    player = int(game.core.player_to_act(state))
    agent = GuidedMCTSAgent(guide, simulations=sims, pw_k=1.0, pw_alpha=0.0)
    agent.reset(game, player, 0)
    obs = np.zeros(game.obs_size, dtype=np.int8)
    mask = np.zeros(game.num_actions, dtype=np.int8)
    game.core.observe_player(state, player, obs, mask)
    return agent.act(obs, mask.copy(), state.copy()), mask, agent


@pytest.mark.parametrize("name", GAMES)
def test_the_guided_search_expands_what_its_guide_prefers(name):
    """With progressive widening held to one child, the root's only child is the guide's favourite:
    whichever legal action the guide prefers is the one searched and played (the game's own prior
    would pick the same one for every guide)."""
    game = game_info(name, num_players=2)
    for i, state in enumerate(random_positions(game, 3, seed=21)):
        legal = np.flatnonzero(_mask(game, state))
        for k in (0, 1, legal.size - 1):
            action, mask, agent = guided_decision(game, state, FavouriteGuide(k), sims=24)
            assert action == legal[k % legal.size]
            assert agent.last_visits[action] == agent.last_visits.sum() == 24


def _mask(game, state):
    mask = np.zeros(game.num_actions, dtype=np.int8)
    game.core.legal_action_mask(state, mask)
    return mask


@pytest.mark.parametrize("name", GAMES)
def test_the_shipped_policy_guides_the_search_by_name(name):
    """``mcts:N+shipped`` is the search with the shipped policy as its guide: its root prior is the
    policy's probabilities over the legal actions, and it plays legal moves."""
    from agents.registry import make_agent
    from agents.search.mcts import GuidedMCTSAgent

    game = game_info(name, num_players=2)
    agent = make_agent("mcts:16+shipped", game)
    assert isinstance(agent, GuidedMCTSAgent) and agent.name == "mcts:16+shipped"
    assert agent.options["simulations"] == 16
    for i, state in enumerate(random_positions(game, 3, seed=33)):
        player = int(game.core.player_to_act(state))
        agent.reset(game, player, i)
        obs = np.zeros(game.obs_size, dtype=np.int8)
        mask = np.zeros(game.num_actions, dtype=np.int8)
        game.core.observe_player(state, player, obs, mask)
        prior = agent.root_policy(obs, mask, state.copy())
        assert prior.shape == (game.num_actions,) and prior.sum() == pytest.approx(1.0)
        assert np.all(prior[mask == 0] == 0) and np.all(prior >= 0)
        assert np.argmax(prior) == agent.guide.act(obs, mask, state.copy())
        assert mask[agent.act(obs, mask.copy(), state.copy())] == 1
    # the game's root bias unless one is given
    assert agent.settings["bias"] == DEFAULTS[name]["bias"]
    given = make_agent("mcts+shipped", game, bias=0.25)
    given.reset(game, 0, 0)
    assert given.settings["bias"] == 0.25


@pytest.mark.parametrize("spec,message", [
    ("mcts+", "mcts+<policy>"), ("mcts:0+shipped", "positive number of simulations"),
    ("mcts+random", "policy network or an action scorer"), ("mcts+heuristic", "policy network or an action scorer"),
    ("mctsx+shipped", "mcts+<policy>"), ("mcts+nowhere.npz", "nowhere.npz")])
def test_a_bad_guided_search_name_says_what_is_allowed(spec, message):
    from agents.registry import make_agent

    with pytest.raises(ValueError, match=message.replace("+", r"\+")):
        make_agent(spec, game_info("makemake", num_players=2))


# ---------------------------------------------------------------------------------------------------
# The guide below the root: a policy network evaluated inside the search (agents.search.prior).
def _random_network(game, rng, width, activation, features, skip):
    from agents.learned.network import SnapshotAgent

    sizes = [(width, game.obs_size), (width, width), (game.num_actions, width + (game.obs_size if skip else 0))]
    layers = [(rng.normal(0, 0.3, s).astype(np.float32), rng.normal(0, 0.3, s[0]).astype(np.float32)) for s in sizes]
    return SnapshotAgent(layers, activation, features, skip)


@pytest.mark.parametrize("name,variant,activation,features,skip", [
    ("makabana", None, "relu", "log", True), ("makabana", "mao", "tanh", "none", False),
    ("makemake", None, "tanh", "log", True), ("maunakea", None, "relu", "none", False)])
def test_the_search_network_gives_the_numpy_policys_probabilities(name, variant, activation, features, skip):
    """``agents.search.prior.policy`` (sparse inputs, legal actions only, inside Numba) gives the
    probabilities that ``SnapshotAgent`` computes densely with numpy, for every input transform,
    activation and head."""
    from agents.search import prior

    game = game_info(name, num_players=2, variant=variant)
    snapshot = _random_network(game, np.random.default_rng(len(name)), 16, activation, features, skip)
    network = prior.pack(snapshot.layers, *snapshot.network_settings())
    obs = np.zeros(game.obs_size, dtype=np.int8)
    mask = np.zeros(game.num_actions, dtype=np.int8)
    out = np.zeros(game.num_actions)
    for state in random_positions(game, 10, seed=8):
        game.core.observe_player(state, int(game.core.player_to_act(state)), obs, mask)
        expected = snapshot.action_probabilities(obs, mask)
        top = prior.policy(network, obs, mask, out)
        np.testing.assert_allclose(out, expected, atol=1e-5)
        assert top == pytest.approx(expected.max(), abs=1e-5)


def test_the_search_network_refuses_layers_it_cannot_play():
    from agents.search import prior

    w = lambda *s: (np.zeros(s, np.float32), np.zeros(s[0], np.float32))
    with pytest.raises(ValueError, match="hidden layer and a head"):
        prior.pack([w(4, 3)], "relu", "none", False)
    with pytest.raises(ValueError, match="equal width"):
        prior.pack([w(8, 3), w(4, 8), w(5, 4)], "relu", "none", False)
    with pytest.raises(ValueError, match="activations"):
        prior.pack([w(4, 3), w(5, 4)], "sigmoid", "none", False)
    # layers that do not fit would be read out of bounds inside Numba
    with pytest.raises(ValueError, match="the head must read 7 values"):
        prior.pack([w(4, 3), w(5, 4)], "relu", "none", True)
    with pytest.raises(ValueError, match="do not fit together"):
        prior.pack([w(4, 3), (np.zeros((5, 4), np.float32), np.zeros(3, np.float32))], "relu", "none", False)


def _favourite_network(game, action):
    """A network sure of ``action`` wherever it is legal, indifferent among the legal actions elsewhere."""
    from agents.learned.network import SnapshotAgent

    layers = [(np.zeros((4, game.obs_size), np.float32), np.zeros(4, np.float32)),
              (np.zeros((4, 4), np.float32), np.zeros(4, np.float32)),
              (np.zeros((game.num_actions, 4), np.float32), np.zeros(game.num_actions, np.float32))]
    layers[-1][1][action] = 30.0
    return SnapshotAgent(layers, "relu", "none", False)


def _tree_disagreements(game, root_state, agent, favourite):
    """Walk the searched tree (one shared tree, one child per node) from the root's child down, replaying
    its moves: the nodes whose child is not what the favourite network expands (``favourite`` if legal,
    else the first legal action), and the nodes checked."""
    from agents.search import ismcts

    key, first, nxt = agent._arrays[:3]
    state = root_state.copy()
    mask = np.zeros(game.num_actions, dtype=np.int8)
    node, depth, wrong, checked = 0, 0, 0, 0
    while first[node] >= 0:
        child = first[node]
        assert nxt[child] < 0, "progressive widening held every node to one child"
        action = int(key[child])
        assert action < ismcts.EVENT_BASE
        if depth > 0:
            game.core.legal_action_mask(state, mask)
            expected = favourite if mask[favourite] else int(np.flatnonzero(mask)[0])
            wrong += action != expected
            checked += 1
        game.core.step(state, action)
        node, depth = child, depth + 1
    return wrong, checked


def test_the_guided_search_expands_what_its_network_prefers_below_the_root():
    """Below the root, a network guide chooses what every node expands (Make Make: one shared tree and
    no hidden information, so the tree can be replayed move by move).  The same guide at the root only
    leaves the expansions to the rollout policy, which differs: the check can fail."""
    from agents.search.mcts import GuidedMCTSAgent

    game = game_info("makemake", num_players=2)
    checked = disagreements_root_only = 0
    for i, state in enumerate(random_positions(game, 4, seed=5)):
        player = int(game.core.player_to_act(state))
        obs = np.zeros(game.obs_size, dtype=np.int8)
        mask = np.zeros(game.num_actions, dtype=np.int8)
        game.core.observe_player(state, player, obs, mask)
        favourite = int(np.flatnonzero(mask)[-1])
        guide = _favourite_network(game, favourite)
        for in_tree in (True, False):
            agent = GuidedMCTSAgent(guide, in_tree=in_tree, simulations=30, pw_k=1.0, pw_alpha=0.0, max_depth=30)
            agent.reset(game, player, i)
            assert agent.act(obs, mask.copy(), state.copy()) == favourite
            wrong, n = _tree_disagreements(game, state, agent, favourite)
            if in_tree:
                assert wrong == 0 and n > 0
                checked += n
            else:
                disagreements_root_only += wrong
    assert checked >= 20 and disagreements_root_only > 0


def test_a_guiding_network_of_another_game_is_refused():
    """The search writes the observation into the network's input inside Numba, so a network sized for
    another game is refused before any search, with the sizes."""
    from agents.search.mcts import GuidedMCTSAgent

    other = game_info("makabana", num_players=2)
    agent = GuidedMCTSAgent(_favourite_network(other, 0), simulations=8)
    with pytest.raises(ValueError, match="observations of size 935 and has 273 actions; makemake"):
        agent.reset(game_info("makemake", num_players=2), 0, 0)


def test_a_network_in_the_tree_takes_the_guided_defaults():
    """Make Make's guided search widens its tree as measured best with a network below the root
    (``GUIDED_TREE_DEFAULTS``), unless told otherwise; guided at the root only, it keeps the game's."""
    from agents.search.mcts import GUIDED_TREE_DEFAULTS, GuidedMCTSAgent

    game = game_info("makemake", num_players=2)
    guide = _favourite_network(game, 0)
    settings = {}
    for label, agent in (("tree", GuidedMCTSAgent(guide)), ("root", GuidedMCTSAgent(guide, in_tree=False)),
                         ("given", GuidedMCTSAgent(guide, pw_k=3.0))):
        agent.reset(game, 0, 0)
        settings[label] = agent.settings["pw_k"]
    assert settings == {"tree": GUIDED_TREE_DEFAULTS[("makemake", "standard")]["pw_k"], "root": DEFAULTS["makemake"]["pw_k"],
                        "given": 3.0}
    assert settings["tree"] != settings["root"]


def test_each_variant_takes_its_own_guided_tree():
    """Maka Bana's widening was measured per variant: Haapii's guided tree is narrower than Mao's,
    whose network is weaker."""
    from agents.search.mcts import GuidedMCTSAgent

    widths = {}
    for variant in ("haapii", "mao"):
        game = game_info("makabana", num_players=2, variant=variant)
        agent = GuidedMCTSAgent(_favourite_network(game, 0), simulations=8)
        agent.reset(game, 0, 0)
        widths[variant] = agent.settings["pw_k"]
    assert widths == {"haapii": 0.5, "mao": 1.0}


def _random_value(game, rng, width=16):
    sizes = [(width, game.obs_size), (width, width), (1, width)]
    return [(rng.normal(0, 0.3, s).astype(np.float32), rng.normal(0, 0.3, s[0]).astype(np.float32)) for s in sizes]


@pytest.mark.parametrize("name,variant,activation,features", [
    ("makabana", None, "relu", "log"), ("makabana", "mao", "tanh", "none"), ("makemake", None, "tanh", "log")])
def test_the_search_value_network_gives_the_numpy_value(name, variant, activation, features):
    """``agents.search.prior.value`` (sparse inputs, inside Numba) gives the value that
    ``SnapshotAgent.value`` computes densely with numpy."""
    from agents.search import prior

    game = game_info(name, num_players=2, variant=variant)
    rng = np.random.default_rng(len(name))
    snapshot = _random_network(game, rng, 16, activation, features, False)
    snapshot.value_layers = _random_value(game, rng)
    packed = prior.pack_value(snapshot.value_layers, activation, features)
    obs = np.zeros(game.obs_size, dtype=np.int8)
    mask = np.zeros(game.num_actions, dtype=np.int8)
    values = []
    for state in random_positions(game, 10, seed=8):
        game.core.observe_player(state, int(game.core.player_to_act(state)), obs, mask)
        values.append(snapshot.value(obs))
        assert prior.value(packed, obs) == pytest.approx(values[-1], abs=1e-5)
    assert np.ptp(values) > 0.01   # the positions are told apart: the comparison can fail
    with pytest.raises(ValueError, match="a value network ends in one output"):
        prior.pack_value(snapshot.layers, activation, features)


def test_a_value_network_is_written_read_and_checked(tmp_path):
    """A network file may carry a value network; ``SnapshotAgent.load`` reads it and refuses one whose
    input is not the game's observation."""
    from agents.learned.network import SnapshotAgent, read_value, write_network

    game = game_info("makemake", num_players=2)
    rng = np.random.default_rng(3)
    snapshot = _random_network(game, rng, 8, "relu", "none", False)
    path = tmp_path / "net.npz"
    write_network(path, snapshot.layers, "relu", "none", False)
    assert read_value(path) is None and SnapshotAgent.load(path, game).value_layers is None
    value = _random_value(game, rng)
    write_network(path, snapshot.layers, "relu", "none", False, value=value)
    loaded = SnapshotAgent.load(path, game)
    assert all(np.array_equal(a, b) for (a, _), (b, _) in zip(loaded.value_layers, value))
    wrong = [(np.zeros((4, 10), np.float32), np.zeros(4, np.float32)), (np.zeros((1, 4), np.float32), np.zeros(1, np.float32))]
    write_network(path, snapshot.layers, "relu", "none", False, value=wrong)
    with pytest.raises(ValueError, match="the value network of snapshot .* observations of size 10 and has 1 outputs"):
        SnapshotAgent.load(path, game)


def test_the_value_network_values_the_leaves():
    """With ``value_mix`` 1 a leaf is worth what the value network says, with no playout: after one
    simulation the root's only child holds the network's value of the position after its move, read
    from the mover's observation (Make Make: nothing hidden, so the leaf can be replayed).  With
    ``value_mix`` 0 the search is the one without a value network, visit for visit."""
    from agents.search.mcts import GuidedMCTSAgent

    game = game_info("makemake", num_players=2)
    rng = np.random.default_rng(4)
    for i, state in enumerate(random_positions(game, 3, seed=6)):
        player = int(game.core.player_to_act(state))
        obs = np.zeros(game.obs_size, dtype=np.int8)
        mask = np.zeros(game.num_actions, dtype=np.int8)
        game.core.observe_player(state, player, obs, mask)
        guide = _random_network(game, rng, 8, "tanh", "log", False)
        guide.value_layers = _random_value(game, rng)
        agent = GuidedMCTSAgent(guide, value_mix=1.0, simulations=1)
        agent.reset(game, player, i)
        agent.search(state.copy(), 1, i, guide.action_probabilities(obs, mask))
        key, first, nxt, visits, avail, value = agent._arrays[:6]
        child = first[0]
        assert child >= 0 and nxt[child] < 0 and visits[child] == 1
        after = state.copy()
        game.core.step(after, int(key[child]))
        game.core.observe_player(after, player, obs, mask)
        assert value[child] == pytest.approx(guide.value(obs), abs=1e-4)

        visits_of = {}
        for mix, value_layers in ((0.0, guide.value_layers), (None, None)):
            guide.value_layers = value_layers
            agent = GuidedMCTSAgent(guide, value_mix=mix, simulations=200)
            agent.reset(game, player, i)
            agent.search(state.copy(), 200, i)
            visits_of[mix] = agent.last_visits
        assert np.array_equal(visits_of[0.0], visits_of[None])
    with pytest.raises(ValueError, match="value_mix is the value network's share"):
        GuidedMCTSAgent(guide, value_mix=1.5)


def _end_turn_scorer():
    """An action scorer that wants to end the turn whenever it may (feature 12, "kind: end turn")."""
    w0 = np.zeros((1, 16)); w0[0, 12] = 10.0
    return [(w0, np.ones(1)), (np.ones((1, 1)), np.zeros(1))]


def test_the_search_scorer_gives_the_numpy_probabilities():
    """``agents.search.prior.scorer_policy`` (inside Numba, from the feature rows) gives the softmax that
    the shipped Mauna Kea scorer computes with numpy as a root prior."""
    from agents.learned.scorer import ActionFeatures
    from agents.registry import make_agent
    from agents.search.prior import pack_scorer, scorer_policy

    game = game_info("maunakea", num_players=2)
    scorer = make_agent("shipped", game)
    width = scorer.num_features   # the shipped basic scorer reads the turn features too
    features = ActionFeatures(game, width)
    packed = pack_scorer(scorer.layers, width)
    for i, state in enumerate(random_positions(game, 4, seed=8)):
        player = int(game.core.player_to_act(state))
        scorer.reset(game, player, i)
        mask = np.zeros(game.num_actions, dtype=np.int8)
        game.core.legal_action_mask(state, mask)
        expected = scorer.action_probabilities(None, mask, state)
        legal = features.candidates(state)
        search_mask = np.zeros_like(mask)
        search_mask[legal] = 1
        rows = np.zeros((game.num_actions, width))
        rows[legal] = features.rows(state, player, legal)
        out = np.zeros(game.num_actions)
        top = scorer_policy(packed, rows, search_mask, out)
        assert np.allclose(out, expected, atol=1e-9) and top == pytest.approx(expected.max())


def _scorer_disagreements(agent, game, state, player, scorer):
    """For the root's children where the searching player acts again (no draw between), whether the
    child's first expansion is the action ``scorer`` plays there: (disagreements, children checked)."""
    from agents.search import ismcts

    agent.reset(game, player, 0)
    mask = np.zeros(game.num_actions, dtype=np.int8)
    game.core.legal_action_mask(state, mask)
    agent.act(None, mask, state.copy())
    key, first, nxt = agent._arrays[:3]
    wrong = checked = 0
    for child in _children(0, first, nxt):
        expanded = [int(key[c]) for c in _children(child, first, nxt)]   # the newest first
        if not expanded or expanded[-1] >= ismcts.EVENT_BASE:
            continue
        after = state.copy()
        game.core.step(after, int(key[child]))
        mover = int(game.core.player_to_act(after))
        game.core.legal_action_mask(after, mask)
        scorer.reset(game, mover, 0)
        wrong += expanded[-1] != scorer.act(None, mask, after)
        checked += 1
    return wrong, checked


def _children(node, first, nxt):
    child = first[node]
    while child >= 0:
        yield child
        child = nxt[child]


def test_an_action_scorer_orders_the_expansions_of_well_visited_nodes():
    """Mauna Kea's scorer guides the tree too: a node with ``scorer_after`` visits expands the action
    the scorer prefers (here a scorer of random weights, checked below the root's children).  With
    ``scorer_after`` beyond the budget, or the scorer at the root only, the expansions are the
    rollout policy's, which differ: the check can fail."""
    from agents.learned.scorer import ScorerAgent
    from agents.search.mcts import GuidedMCTSAgent

    game = game_info("maunakea", num_players=2)
    rng = np.random.default_rng(3)
    layers = [(rng.normal(size=(8, 16)), rng.normal(size=8)), (rng.normal(size=(1, 8)), rng.normal(size=1))]
    guide, scorer = ScorerAgent(layers, "maunakea"), ScorerAgent(layers, "maunakea")
    checked = {}
    wrong = {}
    for i, state in enumerate(random_positions(game, 6, seed=4, max_steps=100)):
        player = int(game.core.player_to_act(state))
        for label, options in (("every node", dict(scorer_after=1)), ("never", dict(scorer_after=10_000)),
                               ("root only", dict(in_tree=False))):
            agent = GuidedMCTSAgent(guide, simulations=300, **options)
            w, n = _scorer_disagreements(agent, game, state, player, scorer)
            wrong[label] = wrong.get(label, 0) + w
            checked[label] = checked.get(label, 0) + n
    assert checked["every node"] >= 20 and wrong["every node"] == 0, (wrong, checked)
    assert wrong["never"] > 0 and wrong["root only"] > 0, (wrong, checked)


def test_scorer_after_is_a_positive_whole_number():
    from agents.learned.scorer import ScorerAgent
    from agents.search.mcts import GuidedMCTSAgent

    guide = ScorerAgent(_end_turn_scorer(), "maunakea")
    for bad in (0, -3, 2.5):
        with pytest.raises(ValueError, match="scorer_after is the visits a node has"):
            GuidedMCTSAgent(guide, scorer_after=bad)


def test_a_scorer_in_the_tree_takes_the_guided_defaults():
    """Mauna Kea's scorer in the tree narrows it and plays its playouts a turn further, as measured
    (``GUIDED_TREE_DEFAULTS``); at the root only, or in the advanced game, where no setting was
    measured, the game's widening and horizon stay."""
    from agents.registry import make_agent
    from agents.search.mcts import GUIDED_TREE_DEFAULTS, GuidedMCTSAgent

    settings = {}
    for variant in ("basic", "advanced"):
        game = game_info("maunakea", num_players=2, variant=variant)
        for in_tree in (True, False):
            agent = GuidedMCTSAgent(make_agent("shipped", game), in_tree=in_tree)
            agent.reset(game, 0, 0)
            settings[variant, in_tree] = agent.settings["pw_k"], agent.settings["horizon"]
    guided = GUIDED_TREE_DEFAULTS[("maunakea", "basic")]
    plain = DEFAULTS["maunakea"]["pw_k"], DEFAULTS["maunakea"]["horizon"]
    assert settings == {("basic", True): (guided["pw_k"], guided["horizon"]), ("basic", False): plain,
                        ("advanced", True): plain, ("advanced", False): plain}
    assert guided["pw_k"] != plain[0] and guided["horizon"] != plain[1]
    # a horizon given in the name still wins over the guided tree's
    game = game_info("maunakea", num_players=2)
    agent = make_agent("mcts+shipped@horizon=1", game)
    agent.reset(game, 0, 0)
    assert agent.settings["horizon"] == 1 and agent.settings["pw_k"] == guided["pw_k"]


def test_a_scorer_whose_layers_do_not_chain_is_refused_before_any_search():
    """The search's Numba pass indexes the scorer's layers by their widths unchecked, so a scorer over
    other features, or whose layers do not chain, is refused before any search, with the shapes."""
    from agents.learned.scorer import ScorerAgent
    from agents.search.mcts import GuidedMCTSAgent

    with pytest.raises(ValueError, match=r"reads 16 or 24 features .*, not 20"):
        ScorerAgent([(np.zeros((4, 20)), np.zeros(4)), (np.zeros((1, 4)), np.zeros(1))], "maunakea")
    for width in (16, 24):
        layers = [(np.zeros((4, width)), np.zeros(4)), (np.zeros((1, 5)), np.zeros(1))]
        with pytest.raises(ValueError, match=r"layer 1 has weights \(1, 5\) and bias \(1,\), but takes 4 inputs"):
            GuidedMCTSAgent(ScorerAgent(layers, "maunakea"))


def _mctx_considered_visits(m, sims):
    """mctx's ``get_sequence_of_considered_visits`` (``mctx/_src/seq_halving.py``), the published
    sequence that the search's ``considered_visits`` follows."""
    if m <= 1:
        return list(range(sims))
    log2max = int(math.ceil(math.log2(m)))
    sequence, visits, considered = [], [0] * m, m
    while len(sequence) < sims:
        for _ in range(max(1, int(sims / (log2max * considered)))):
            sequence.extend(visits[:considered])
            for i in range(considered):
                visits[i] += 1
        considered = max(2, considered // 2)
    return sequence[:sims]


def _halving_visits(m, sims):
    """The visits the m considered actions end with, sorted: which action each simulation of the
    sequence goes to is the scores' choice, but not how many visits they end with."""
    visits = [0] * m
    for want in _mctx_considered_visits(m, sims):
        visits[visits.index(want)] += 1
    return sorted(visits)


@pytest.mark.parametrize("m", [1, 2, 3, 5, 8, 16, 31])
def test_sequential_halving_follows_mctxs_sequence_of_visits(m):
    from agents.search.ismcts import considered_visits

    for sims in (1, 2, 7, 100, 1000, 3000):
        assert list(considered_visits(m, sims)) == _mctx_considered_visits(m, sims), (m, sims)


@pytest.mark.parametrize("name,halving", [("maunakea", 4), ("maunakea", 16), ("makemake", 8), ("makabana", 3)])
def test_sequential_halving_visits_the_guides_favourites_and_plays_the_most_visited(name, halving):
    """With ``halving`` m the root visits exactly its m best legal actions by the guide's probabilities
    (up to the search's tie noise, a thousandth of the favourite's), as many times each as the
    sequence of halving rounds gives, and the chosen action is one of the most visited."""
    from agents.registry import make_agent
    from agents.search.mcts import GuidedMCTSAgent

    game = game_info(name, num_players=2)
    if name == "maunakea":
        guide = make_agent("shipped", game)      # an action scorer
    else:
        guide = _random_network(game, np.random.default_rng(halving), 8, "relu", "log", False)
    sims = 300
    for i, state in enumerate(random_positions(game, 3, seed=20 + halving)):
        player = int(game.core.player_to_act(state))
        obs = np.zeros(game.obs_size, dtype=np.int8)
        mask = np.zeros(game.num_actions, dtype=np.int8)
        game.core.observe_player(state, player, obs, mask)
        agent = GuidedMCTSAgent(guide, simulations=sims, halving=halving)
        agent.reset(game, player, i)
        probs = guide.action_probabilities(obs, mask, state)
        action = agent.search(state.copy(), sims, i, probs)
        visits = agent.last_visits
        visited = np.flatnonzero(visits)
        candidates = np.flatnonzero(probs > 0)   # the legal actions (Mauna Kea: the search's candidates)
        assert visits.sum() == sims and len(visited) == min(halving, len(candidates))
        assert sorted(visits[visited]) == _halving_visits(len(visited), sims)
        unvisited = np.setdiff1d(candidates, visited)
        if len(unvisited):
            assert probs[visited].min() >= probs[unvisited].max() - 1e-3 * probs.max()
        assert visits[action] == visits.max()
        # ... the one of them with the best log prior + sigma(Q) (mctx's value transform): each score
        # known up to the tie noise of its prior
        key, first, nxt, node_visits, _avail, value = agent._arrays[:6]
        root = player if agent._num_trees > 1 else 0
        q, ch = {}, first[root]
        while ch >= 0:
            q[int(key[ch])] = value[ch] / node_visits[ch]
            ch = nxt[ch]
        lo, hi = min(q.values()), max(q.values())
        top = visits.max()
        low, high = {}, {}
        for a in q:
            rel = probs[a] / probs.max()
            sigma = (50 + top) * 0.1 * ((q[a] - lo) / (hi - lo) if hi > lo else 0.0)
            low[a], high[a] = np.log(rel) + sigma, np.log(rel + 1e-3) + sigma
        assert all(high[action] >= low[a] for a in q if visits[a] == top)


@pytest.mark.parametrize("setting,bad,allowed", [
    ("max_depth", 0, "a whole number from 1 to 100000"),       # chose no action at all: "action -1"
    ("max_depth", 10**9, "a whole number from 1 to 100000"),
    ("value_scale", 0.0, "a number above 0"),                   # divided by zero at the first leaf
    ("value_scale", -5.0, "a number above 0"),
    ("c", -1.0, "a number of at least 0"),
    ("rollout_depth", -1, "a whole number from 0 to 1000000000"),
    ("rollout_depth", 10**23, "a whole number from 0 to 1000000000"),   # overflowed int64 inside Numba
    ("horizon", -1, "a whole number from 0 to 1000000000"),            # was taken silently as no limit
    ("horizon", 1.5, "a whole number from 0 to 1000000000"),
    ("horizon", 2**63 - 1, "a whole number from 0 to 1000000000"),    # the root's clock plus it overflowed
    ("halving", 10**20, "a whole number from 0 to 1000000000"),
    ("value_weight", 1.5, "a number from 0 to 1"),
    ("pw_k", -1.0, "a number of at least 0"),
    ("pw_alpha", 2.0, "a number from 0 to 1"),
    ("bias", float("nan"), "a number of at least 0"),
    ("bias", "0.5", "a number of at least 0"),
    ("simulations", 10**7, "a whole number from 1 to 1000000"),
])
def test_every_numeric_setting_is_checked_before_a_search(setting, bad, allowed):
    """A setting the search cannot use is a ValueError, when the agent is made, that names it and says
    what it may be: not a search that plays nonsense, ignores it or fails inside."""
    game = game_info("makabana", num_players=2)
    with pytest.raises(ValueError, match=rf"^{setting} is .*: {allowed}; got {bad!r}$"):
        MCTSAgent(**{setting: bad}).reset(game, 0, 0)


def test_the_settings_edges_are_allowed_and_play():
    game = game_info("makemake", num_players=2)
    state = random_positions(game, 1, seed=5)[0]
    player = int(game.core.player_to_act(state))
    obs = np.zeros(game.obs_size, dtype=np.int8)
    mask = np.zeros(game.num_actions, dtype=np.int8)
    game.core.observe_player(state, player, obs, mask)
    agent = MCTSAgent(simulations=20, c=0, rollout_depth=0, horizon=0, value_weight=1, max_depth=1, pw_k=0,
                      pw_alpha=0, bias=0, halving=0)
    agent.reset(game, player, 0)
    assert mask[agent.act(obs, mask.copy(), state.copy())] == 1


def test_halving_is_checked_and_the_plain_search_halves_too():
    game = game_info("makemake", num_players=2)
    for bad in (-1, 2.5, "4", True, float("nan")):
        with pytest.raises(ValueError, match="halving is how many of the root's actions sequential halving considers"):
            MCTSAgent(halving=bad).reset(game, 0, 0)
    state = random_positions(game, 1, seed=3)[0]
    agent = MCTSAgent(simulations=60, halving=4)   # unguided: the game's own prior ranks the root
    agent.reset(game, int(game.core.player_to_act(state)), 0)
    action = agent.search(state.copy(), 60, 0)
    assert np.count_nonzero(agent.last_visits) == 4 and agent.last_visits[action] == agent.last_visits.max()


@pytest.mark.parametrize("name", GAMES)
def test_puct_keeps_the_root_prior_in_play_as_the_visits_grow(name):
    """With ``puct`` the root's progressive bias grows with the square root of the root's visits (the
    form of AlphaZero's PUCT), where without it the bias of a child fades with its own visits alone: a
    guide sure of one action sends more of the root's visits to it."""
    from agents.search.mcts import GuidedMCTSAgent

    game = game_info(name, num_players=2)
    favoured = {False: 0, True: 0}
    for i, state in enumerate(random_positions(game, 4, seed=40)):
        player = int(game.core.player_to_act(state))
        obs = np.zeros(game.obs_size, dtype=np.int8)
        mask = np.zeros(game.num_actions, dtype=np.int8)
        game.core.observe_player(state, player, obs, mask)
        if np.count_nonzero(mask) < 3:
            continue
        guide = FavouriteGuide(1)
        action = int(np.flatnonzero(mask)[1])
        for puct in (False, True):
            agent = GuidedMCTSAgent(guide, simulations=200, bias=1.0, puct=puct, in_tree=False)
            agent.reset(game, player, i)
            assert mask[agent.act(obs, mask.copy(), state.copy())] == 1
            assert agent.last_visits.sum() == 200
            favoured[puct] += int(agent.last_visits[action])
    assert favoured[True] > favoured[False] > 0


def test_puct_is_checked_and_named_like_the_other_settings():
    from agents.registry import make_agent

    game = game_info("makemake", num_players=2)
    for bad in ("yes", 2, 0.5, 1.0, 0):   # 1.0 == True in Python: a number is no flag all the same
        with pytest.raises(ValueError, match="puct is true or false"):
            MCTSAgent(puct=bad).reset(game, 0, 0)
    for name, bad in (("belief", ["uniform"]), ("trees", ["multi"])):   # no name, and unhashable
        with pytest.raises(ValueError, match=f"{name} must be"):
            MCTSAgent(**{name: bad}).reset(game, 0, 0)
    agent = make_agent("mcts:16@puct=1", game)
    agent.reset(game, 0, 0)
    assert agent.settings["puct"] is True and MCTSAgent().options["puct"] is None
    plain = MCTSAgent()
    plain.reset(game, 0, 0)
    assert plain.settings["puct"] is False
    with pytest.raises(ValueError, match="puct"):
        make_agent("mcts@puct=2", game)
