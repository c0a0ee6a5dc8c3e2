"""Maka Bana's action features (``agents.search.makabana.action_features``), which its action scorer
reads (``agents.learned.scorer``): what each feature is, on positions written as the rulebook's, and
that they know only what the colour to act knows."""
import numpy as np
import pytest

import agents
from agents.arena.match import play_game
from agents.baselines.random_agent import RandomAgent
from agents.games import game_info
from agents.learned.scorer import ActionFeatures, ScorerAgent, save_scorer
from agents.search import makabana as rules
from agents.search.mcts import random_positions
from makabana_env import core
from makabana_env.board import NUM_SPOTS, SPOT_INDEX

from makabana_positions import (
    BLUE, GREEN, RED, YELLOW, act, construct, new_game, position, spots_of, take_back, tiki,
)

K = rules.NUM_ACTION_FEATURES
WIDE = len(rules.FEATURE_NAMES)   # with the season played out
COLUMN = {name: i for i, name in enumerate(rules.FEATURE_NAMES)}


def features_of(state, width=K):
    state = np.ascontiguousarray(state, dtype=np.int64)
    mask = np.zeros(core.NUM_ACTIONS, np.int8)
    rules.search_mask(state, mask)
    out = np.full((core.NUM_ACTIONS, width), 7.0)
    rules.action_features(state, int(core.player_to_act(state)), mask, out)
    return mask, out


def feature(out, action, name):
    return out[action, COLUMN[name]]


def test_every_legal_action_has_one_kind_and_the_rollout_probabilities_sum_to_one():
    game = game_info("makabana", 2)
    phases = set()
    for state in random_positions(game, 16, seed=4, max_steps=80):
        before = state.copy()
        mask, out = features_of(state)
        assert np.array_equal(state, before)
        assert not out[mask == 0].any()
        rows = out[mask == 1]
        assert np.array_equal(rows[:, :3].sum(axis=1), np.ones(len(rows)))
        assert rows[:, COLUMN["the rollout policy's probability"]].sum() == pytest.approx(1.0)
        phases.add(int(state[core.PHASE]))
    assert phases == {core.PHASE_PROJECT, core.PHASE_TIKI}


def test_a_shown_card_is_suspected_on_every_spot_it_names():
    """Rulebook 2 (Revealing hints): the others see the card on top, not the spot.  On an empty island
    every first hut is worth the same (1 point and the beach's 4), so a project showing the Azzura
    beach card is one of Azzura's 9 spots to them, one showing the Flower theme one of 13, and one
    showing the Grass area one of 12 (every beach has a Grass area)."""
    env = position(new_game(2))
    mask, out = features_of(env.state())
    share, count = "share of the suspects of the shown card", "log2 suspects of the shown card"
    assert feature(out, construct("Azzura-Rock-Flower", "beach"), share) == pytest.approx(1 / 9)
    assert feature(out, construct("Azzura-Rock-Flower", "beach"), count) == pytest.approx(np.log2(10))
    assert feature(out, construct("Azzura-Rock-Flower", "theme"), share) == pytest.approx(1 / 13)
    assert feature(out, construct("Azzura-Grass-Fish", "area"), share) == pytest.approx(1 / 12)
    gain = feature(out, construct("Azzura-Rock-Flower"), "margin gain if it succeeds")
    assert gain == 5.0 and feature(out, construct("Bikini-Sand-Fish"), "margin gain if it succeeds") == 5.0
    # a take-back with no opponent's hut on the island fails wherever it is aimed (rulebook 4.b)
    assert feature(out, take_back("Azzura-Rock-Flower"), "fails on the board as it is") == 1.0
    assert feature(out, construct("Azzura-Rock-Flower"), "fails on the board as it is") == 0.0
    assert feature(out, construct("Azzura-Rock-Flower"), "paint cards in hand") == 2.0
    assert feature(out, construct("Azzura-Rock-Flower"), "colours still to choose after it") == 3.0


def test_a_spot_next_to_ones_own_huts_is_the_one_the_others_suspect():
    """Final scoring: a hut joining two of its colour's huts scores 3 rather than 1, so among the
    spots an Azzura beach card names, the one beside Yellow's group is the likeliest to the others."""
    next_to = "Azzura-Rock-Tattoo"   # beside Azzura-Rock-Flower, which is beside Azzura-Lagoon-Tattoo
    env = position(new_game(2), huts={"Azzura-Rock-Flower": YELLOW, "Azzura-Lagoon-Tattoo": YELLOW})
    mask, out = features_of(env.state())
    share = "share of the suspects of the shown card"
    azzura = [SPOT_INDEX[name] for name in spots_of("Azzura")]
    shares = {s: feature(out, 3 * s + 0, share) for s in azzura}
    assert max(shares, key=shares.get) == SPOT_INDEX[next_to]
    assert shares[SPOT_INDEX["Azzura-Rock-Flower"]] == 0.0   # taken: a construction there fails
    assert sum(shares.values()) == pytest.approx(1.0)


def test_last_seasons_failure_and_the_partners_project_are_marked():
    """Rulebook 4.a: a construction fails on a spot with a tiki; the next season the colour sees where
    it failed.  With two players a colour also knows its partner colour's project (Maka Bana for 2
    players: both colours are the same player's)."""
    env = position(new_game(2))
    blocked = "Coquito-Sand-Fish"
    act(env, construct(blocked))                 # Yellow
    act(env, construct("Diabolo-Grass-Flower"))  # Blue
    act(env, construct("Azzura-Grass-Fish"))     # Green
    act(env, construct("Bikini-Rock-Flower"))    # Red
    act(env, tiki(blocked))                      # Yellow's own tiki would stop it: Blue's stops it
    for name in ("Coquito-Lagoon-Fish", "Diabolo-Sand-Fish", "Azzura-Lagoon-Fish"):
        if env.decision() != "tiki":
            break
        act(env, tiki(name))
    state = env.state()
    assert state[core.HUT + SPOT_INDEX[blocked]] == -1 and state[core.LAST_SUCCESS + YELLOW] == 0
    assert int(state[core.TO_ACT]) == BLUE        # the first player card passed on
    act(env, construct("Bikini-Sand-Flower"))      # Blue, the season's first
    assert int(env.state()[core.TO_ACT]) == GREEN
    act(env, construct("Diabolo-Rock-Fish"))       # Green: Yellow's partner colour
    act(env, construct("Coquito-Grass-Fish"))      # Red
    mask, out = features_of(env.state())           # Yellow to choose
    assert int(env.state()[core.TO_ACT]) == YELLOW
    assert feature(out, construct(blocked), "failed there last season") == 1.0
    assert feature(out, construct("Coquito-Grass-Flower"), "failed there last season") == 0.0
    assert feature(out, construct("Diabolo-Rock-Fish"), "partner colour's construction there") == 1.0
    assert feature(out, construct("Coquito-Grass-Flower"), "partner colour's construction there") == 0.0
    assert feature(out, construct(blocked), "colours still to choose after it") == 0.0


def test_tiki_features_are_the_search_priors_harm():
    """Rulebook 3: the features of a tiki are ``_tiki_harm``'s expected saving, as the search's prior
    ranks tikis, and a tiki on one's own player's construction is marked (it would stop it)."""
    game = game_info("makabana", 2)
    checked = 0
    for state in random_positions(game, 30, seed=6, max_steps=80):
        if state[core.PHASE] != core.PHASE_TIKI:
            continue
        mask, out = features_of(state)
        prior = np.zeros(core.NUM_ACTIONS)
        rules.prior(state, int(core.player_to_act(state)), mask, prior)
        legal = np.flatnonzero(mask)
        harm = out[legal, COLUMN["tiki: margin it is expected to save"]]
        assert np.allclose(harm, prior[legal])
        assert np.allclose(out[legal, COLUMN["tiki: that, less the best spot's"]], harm - harm.max())
        own = {int(state[core.PROJECT_SPOT + c]) for c in range(4)
               if c % 2 == core.player_to_act(state) and state[core.PROJECT_KIND + c] == core.CONSTRUCT}
        for a in legal:
            assert out[a, COLUMN["tiki: on its own player's construction"]] == (a - core.TIKI_BASE in own)
        checked += 1
    assert checked >= 5


@pytest.mark.parametrize("width", rules.FEATURE_SET_SIZES)
def test_the_features_ignore_what_the_others_hide(width):
    """Rulebook 2: before the hints are revealed a project is only "submitted"; after, its top card
    is known and not its spot.  Another hidden project (another spot showing the same card, in the
    tiki phase) leaves the features as they were."""
    game = game_info("makabana", 2)
    rng = np.random.default_rng(1)
    checked = 0
    for state in random_positions(game, 30, seed=9, max_steps=80):
        player = int(core.player_to_act(state))
        changed = state.copy()
        for c in range(4):
            if c % 2 == player or state[core.PROJECT_KIND + c] == core.NO_PROJECT:
                continue
            kind = int(state[core.PROJECT_KIND + c])
            if state[core.PHASE] == core.PHASE_PROJECT:
                changed[core.PROJECT_SPOT + c] = rng.integers(NUM_SPOTS)
                changed[core.PROJECT_SHOWN + c] = rng.integers(3)
            else:
                card = core.shown_card(int(state[core.PROJECT_SPOT + c]), int(state[core.PROJECT_SHOWN + c]))
                same = [(s, k) for s in range(NUM_SPOTS) for k in range(3) if core.shown_card(s, k) == card]
                s, k = same[rng.integers(len(same))]
                changed[core.PROJECT_SPOT + c], changed[core.PROJECT_SHOWN + c] = s, k
            changed[core.PROJECT_KIND + c] = kind
            checked += 1
        changed[core.RNG] ^= 0x2545F4914F6CDD1D
        assert np.array_equal(features_of(changed, width)[1], features_of(state, width)[1])
    assert checked >= 10


def test_the_season_is_played_out_for_the_best_candidates():
    """The three season features: for the ``SEASON_CANDIDATES`` best candidates by ``_season_ranking``,
    the candidate and the rest of the season played by the rollout policy on ``SEASON_PLAYOUTS`` fixed
    determinizations, recomputed here step by step; the other candidates keep zeros, and the first 19
    features are those of the one-step set."""
    game = game_info("makabana", 2)
    phases = set()
    for state in random_positions(game, 6, seed=12, max_steps=80):
        player = int(core.player_to_act(state))
        colour = int(state[core.TO_ACT])
        mask, out = features_of(state, WIDE)
        assert np.array_equal(out[:, :K], features_of(state)[1])
        legal = np.flatnonzero(mask)
        rank = np.array([rules._season_ranking(out[a]) for a in legal])
        played = legal[np.argsort(-rank, kind="mergesort")[:rules.SEASON_CANDIDATES]]
        assert set(np.flatnonzero(out[:, K + 2] == 1)) == set(played)
        vals = np.zeros(core.MAX_COLOURS)
        rules.evaluate(state, vals)
        now = vals[player] - vals[1 - player]
        for a in played[:3]:
            margins, built = [], []
            for seed in rules.SEASON_SEEDS:
                row = state.copy()
                rules.determinize(row, player, seed, rules.BELIEF_WEIGHTED)
                assert core.step(row, a) == core.STEP_OK
                season = int(state[core.SEASON])
                while row[core.STATUS] == core.STATUS_RUNNING and row[core.SEASON] < season + 1:
                    core.step(row, rules.rollout_action(row))
                rules.evaluate(row, vals)
                margins.append(vals[player] - vals[1 - player])
                built.append(a < core.TIKI_BASE and row[core.LAST_SUCCESS + colour] == 1)
            assert out[a, K] == pytest.approx(np.mean(margins) - now)
            assert out[a, K + 1] == pytest.approx(np.mean(built))
        phases.add(int(state[core.PHASE]))
    assert phases == {core.PHASE_PROJECT, core.PHASE_TIKI}


def test_mao_has_no_action_features():
    with pytest.raises(ValueError, match="action features exist for its haapii game only, not mao"):
        ActionFeatures(game_info("makabana", 2, "mao"))


def test_feature_rows_of_another_width_are_refused_not_written_past():
    state = random_positions(game_info("makabana", 2), 1, seed=1)[0]
    mask = np.zeros(core.NUM_ACTIONS, np.int8)
    rules.search_mask(state, mask)
    for width in (16, 20, 23):
        with pytest.raises(ValueError, match="out needs a row per action and 19 or 22 columns"):
            rules.action_features(state, 0, mask, np.zeros((core.NUM_ACTIONS, width)))
    with pytest.raises(ValueError, match="mask needs an entry per action"):
        rules.action_features(state, 0, mask[:100], np.zeros((core.NUM_ACTIONS, K)))


def test_a_scorer_plays_legal_games_and_guides_the_search(tmp_path):
    rng = np.random.default_rng(0)
    layers = [(rng.normal(size=(8, K)), rng.normal(size=8)), (rng.normal(size=(1, 8)), rng.normal(size=1))]
    path = save_scorer(tmp_path / "scorer.npz", "makabana", layers, "haapii")
    game = game_info("makabana", 2, max_turns=4)
    scorer = agents.make_agent(str(path), game)
    assert isinstance(scorer, ScorerAgent)
    play_game(game, [scorer, RandomAgent()], seed=0)
    guided = agents.make_agent(f"mcts:40+{path}", game)
    assert guided.tree_scorer()[0][0].size > 0   # the scorer orders the tree's expansions too
    play_game(game, [guided, RandomAgent()], seed=1)
