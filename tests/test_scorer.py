"""The action scorer (``agents.learned.scorer``) and its distillation from the search
(``agents.training.distill``): the per-action features, what they may know, the file format, the fit,
and a tiny distillation run."""
import hashlib
import json

import numpy as np
import pytest

import agents
from agents.arena.match import play_game
from agents.baselines.random_agent import RandomAgent
from agents.games import game_info
from agents.learned.scorer import ScorerAgent, save_scorer
from agents.search import maunakea as rules
from agents.search.mcts import random_positions
from agents.training.distill import agreement, main as distill_main, pack
from maunakea_env import core as mk
from maunakea_env.board import IS_TILE_FIELD, JUNGLE, MOVE_COST, NO_TILE, SQUARE_FIELD, WATER

from test_mcts import advanced_position, other_hand

K = rules.NUM_ACTION_FEATURES
WIDE = len(rules.FEATURE_NAMES)   # with the turn features


def features_of(game, state, player=None, width=K):
    mask = np.zeros(game.num_actions, np.int8)
    rules.search_mask(state.copy(), mask)
    out = np.full((game.num_actions, width), 7.0)
    rules.action_features(state, int(mk.player_to_act(state)) if player is None else player, mask, out)
    return mask, out


def read_fields(fields):
    """What the evaluation reads of the distance fields: all but the scratch row, and the nearest
    artifact only where one can be reached (elsewhere that row keeps what it held)."""
    reached = fields[rules.ARTIFACT_FIELD] < rules.INF
    return np.concatenate([fields[:rules.NEAREST_ARTIFACT].ravel(), np.where(reached, fields[rules.NEAREST_ARTIFACT], -1)])


def random_scorer(seed=0, hidden=8, width=K):
    rng = np.random.default_rng(seed)
    return [(rng.normal(size=(hidden, width)), rng.normal(size=hidden)),
            (rng.normal(size=(1, hidden)), rng.normal(size=1))]


def test_action_features_describe_every_candidate_and_nothing_else():
    game = game_info("maunakea", 2)
    for state in random_positions(game, 6, seed=3):
        before = state.copy()
        mask, out = features_of(game, state)
        assert np.array_equal(state, before)   # computed on copies
        assert not out[mask == 0].any()
        rows = out[mask == 1]
        kinds = rows[:, 5:14]
        assert np.array_equal(kinds.sum(axis=1), np.ones(len(rows)))
        assert rows[:, 0].max() == 0.0 and (rows[:, 0] <= 0).all()   # margin less the best candidate's
        assert rows[:, 3].sum() <= 1                                  # one rollout choice at most
        assert set(np.unique(rows[:, 4])) <= {0.0, 1.0}
        lay = (kinds[:, 1] == 1)
        assert not rows[~lay, 4].any()                                # "far" is about laid tiles only
        assert np.allclose(rows[:, 15], state[mk.POOL] / 10.0)


def test_action_features_agree_with_the_search_prior():
    """The search's root prior is built from the same one-step evaluation: on ordinary candidates
    it is the features' margin plus one constant; the rollout policy's choice comes first, tiles laid
    away from the player's explorers last."""
    game = game_info("maunakea", 2)
    checked = 0
    for state in random_positions(game, 8, seed=5):
        mask, out = features_of(game, state)
        prior = np.zeros(game.num_actions)
        rules.prior(state, int(mk.player_to_act(state)), mask, prior)
        legal = mask == 1
        plain = legal & (out[:, 3] == 0) & (out[:, 4] == 0)
        if plain.sum() > 1:
            offset = prior[plain] - out[plain, 0]
            assert np.allclose(offset, offset[0])
            checked += 1
        if out[:, 3].any():
            assert prior[np.argmax(out[:, 3])] == prior[legal].max()
        if out[:, 4].any():
            assert prior[out[:, 4] == 1].max() < prior[plain].min() if plain.any() else True
    assert checked


@pytest.mark.parametrize("width", rules.FEATURE_SET_SIZES)
def test_action_features_ignore_the_bag_order(width):
    """Mauna Kea's one secret in the basic game is the order of the bag (the row's generator): the
    features are the same whatever it is (the turn features' playouts too)."""
    game = game_info("maunakea", 2)
    for state in random_positions(game, 4, seed=8, max_steps=120):
        changed = state.copy()
        changed[mk.RNG] ^= 0x2545F4914F6CDD1D
        assert np.array_equal(features_of(game, changed, width=width)[1], features_of(game, state, width=width)[1])


@pytest.mark.parametrize("setup", [True, False])
@pytest.mark.parametrize("width", rules.FEATURE_SET_SIZES)
def test_action_features_ignore_the_other_players_cards(setup, width):
    """Rules for advanced players: another hand for the opponent (as many cards, of those the player
    cannot account for) leaves the features as they were."""
    rng = np.random.default_rng(2)
    for seed in range(3):
        game, state = advanced_position(seed, setup)
        player = int(mk.player_to_act(state))
        changed = other_hand(state, player, rng)
        assert np.array_equal(features_of(game, changed, width=width)[1], features_of(game, state, width=width)[1])


@pytest.mark.parametrize("players,variant", [(2, "basic"), (3, "basic"), (2, "advanced")])
def test_turn_features_play_out_the_best_candidates(players, variant):
    """The eight turn features (``TURN_FEATURE_NAMES``), recomputed here from their definition: the
    ``TURN_PLAYOUTS`` best candidates by ``TURN_RANKING`` (the first of equal ones) played to the
    end of the turn by the rollout policy on the prior's determinization and evaluated; the others
    at the lowest of those margins with their one-step changes; the shares of candidates ahead; the
    facts of the position.  The first 16 columns are the one-step features unchanged."""
    game = game_info("maunakea", players, variant)
    checked = unplayed = 0
    for state in random_positions(game, 10, seed=11 + players, max_steps=300):
        player = int(mk.player_to_act(state))
        mask, narrow = features_of(game, state, player)
        _, out = features_of(game, state, player, width=WIDE)
        legal = np.flatnonzero(mask)
        if legal.size == 0:
            continue
        assert np.array_equal(out[:, :K], narrow) and not out[mask == 0].any()
        rows = out[legal]
        rank = np.zeros(legal.size)
        for k in range(K):   # summed in the core's order, so that near ties fall alike
            rank += rules.TURN_RANKING[k] * narrow[legal, k]
        played = legal[np.argsort(-rank, kind="stable")[:rules.TURN_PLAYOUTS]]
        det = state.copy()
        rules.determinize(det, player, rules.PRIOR_SEED, 0)
        vals = np.zeros(mk.MAX_PLAYERS)
        rules.evaluate(det, vals)
        now = rules._margin(vals, player, players)
        own_now = vals[player]
        turn = {}
        for a in played:
            work = det.copy()
            mk.step(work, int(a))
            rules.playout(work, 64, det[mk.TURN] + 1)
            rules.evaluate(work, vals)
            turn[a] = rules._margin(vals, player, players)
            assert np.isclose(out[a, K + 1], vals[player] - own_now)
            assert np.isclose(out[a, K + 2], (vals[player] - turn[a]) - (own_now - now))
        best, worst = max(turn.values()), min(turn.values())
        margins = np.array([turn.get(a, worst) for a in legal])
        assert np.allclose(rows[:, K], margins - best)
        for i, a in enumerate(legal):
            if a not in turn:
                assert np.array_equal(out[a, K + 1:K + 3], narrow[a, 1:3])
                unplayed += 1
            others = max(1, legal.size - 1)
            assert np.isclose(rows[i, K + 3], (narrow[legal, 0] > narrow[a, 0]).sum() / others)
            assert np.isclose(rows[i, K + 4], (margins > margins[i]).sum() / others)
        bag = (state[mk.TILE_WHERE:mk.TILE_WHERE + mk.NUM_TILES] == mk.IN_BAG).sum()
        assert np.allclose(rows[:, K + 5:], [np.log(legal.size) / 4, bag / mk.NUM_ISLAND_TILES, now / 10])
        checked += 1
    assert checked >= 5 and unplayed > 0


@pytest.mark.parametrize("players,variant", [(2, "basic"), (3, "basic"), (4, "basic"), (2, "advanced")])
def test_the_fields_repaired_after_a_tile_are_those_searched_from_scratch(players, variant):
    """The features' look-ahead repairs each landing's distances after a candidate tile
    (``_fields_after_lay``) instead of searching them again: for every tile of every position, the
    same distances and nearest artifacts as ``_fields`` finds."""
    game = game_info("maunakea", players, variant=variant)
    fields, queue, inq, _assigned, _danger = rules._buffers()
    lost = np.zeros(mk.NUM_SQUARES, dtype=bool)
    stack = np.empty(2 * len(lost) + 4, dtype=np.int64)
    mask = np.zeros(game.num_actions, np.int8)
    kept = slice(0, rules.SCRATCH)   # the scratch row means nothing
    tiles = 0
    for state in random_positions(game, 30, seed=players, max_steps=400):
        if state[mk.PHASE] != mk.PHASE_TURN:
            continue
        rules._fields(state, fields, queue, inq)
        before = fields[:1 + rules.NUM_LANDINGS].copy()
        mk.legal_action_mask(state, mask)
        for a in np.flatnonzero(mask[mk.LAY_BASE:mk.SPEND_BASE]) + mk.LAY_BASE:
            after = state.copy()
            mk.step(after, int(a))
            rules._fields_after_lay(after, ((a - mk.LAY_BASE) // 4) % rules.NUM_FIELDS, before, fields, queue,
                                    inq, lost, stack)
            repaired = fields[kept].copy()
            rules._fields(after, fields, queue, inq)
            assert np.array_equal(repaired, fields[kept]), f"action {a}"
            assert not lost.any()
            tiles += 1
    assert tiles > 50


@pytest.mark.parametrize("players,variant", [(2, "basic"), (3, "basic"), (2, "advanced")])
def test_a_playout_that_says_its_fields_are_exact_has_the_fields_of_its_last_position(players, variant):
    """The turn features evaluate a playout's last position with the playout's own fields when
    ``_playout`` says nothing has changed them since they were searched (a spend changes no cost,
    anything else may): those are then the fields ``_fields`` finds there, the playout plays as
    ``playout`` does, and it says so often enough to be worth it."""
    game = game_info("maunakea", players, variant=variant)
    fields, queue, inq, assigned, danger = rules._buffers()
    fresh, fresh_queue, fresh_inq, _assigned, _danger = rules._buffers()
    exact = plays = 0
    for state in random_positions(game, 40, seed=7 + players, max_steps=400):
        if state[mk.STATUS] != mk.STATUS_RUNNING:
            continue
        given = state.copy()
        rules._fields(given, fields, queue, inq)
        said = rules._playout(given, 64, given[mk.TURN] + 1, fields, queue, inq, assigned, danger, True)
        plain = state.copy()
        rules.playout(plain, 64, plain[mk.TURN] + 1)
        assert np.array_equal(given, plain)
        plays += 1
        if said:
            rules._fields(given, fresh, fresh_queue, fresh_inq)
            assert np.array_equal(read_fields(fields), read_fields(fresh))
            exact += 1
    assert plays >= 20 and exact >= 3


def test_enter_costs_are_the_terrains_the_tile_spaces_and_the_explorers():
    """``_enter_cost`` (tables rather than branches, for speed) against its definition, on every
    square of positions of random games: jungle and water cost twice their movement points, an empty
    tile space ``EMPTY_FIELD_COST``, any other square is a wall (-1), and an explorer standing on a
    walkable square adds ``OCCUPIED_EXTRA``."""
    game = game_info("maunakea", 2)
    costs = np.empty(mk.NUM_SQUARES, dtype=np.int64)
    seen = set()
    for state in random_positions(game, 12, seed=4, max_steps=400):
        rules._enter_costs(state, costs)
        for sq in range(mk.NUM_SQUARES):
            terrain = state[mk.TERRAIN + sq]
            field = SQUARE_FIELD[sq]
            if terrain in (JUNGLE, WATER):
                expected = 2 * MOVE_COST[terrain]
            elif terrain == NO_TILE and IS_TILE_FIELD[field] and state[mk.FIELD_TILE + field] < 0:
                expected = rules.EMPTY_FIELD_COST
            else:
                expected = -1
            if expected > 0 and state[mk.OCCUPANT + sq] >= 0:
                expected += rules.OCCUPIED_EXTRA
            assert costs[sq] == expected, f"square {sq}"
            seen.add(int(expected))
    assert len(seen) >= 5   # walls, empty spaces, jungle and water, occupied ones


@pytest.mark.parametrize("players,variant", [(2, "basic"), (2, "advanced")])
def test_lays_that_leave_their_field_alike_have_the_same_fields(players, variant):
    """The look-ahead repairs the fields once for all the tiles that leave their field alike
    (``_field_key``: the same costs and artifacts on its squares) and lets them all read those: every
    two tiles on one field with the same key have the same fields searched from scratch (the nearest
    artifact where one can be reached: elsewhere that row keeps what it held, and nobody reads it),
    and some tiles do share a key (else nothing would be saved)."""
    game = game_info("maunakea", players, variant=variant)
    fields, queue, inq, _assigned, _danger = rules._buffers()
    mask = np.zeros(game.num_actions, np.int8)
    shared = 0

    for state in random_positions(game, 20, seed=11, max_steps=400):
        if state[mk.PHASE] != mk.PHASE_TURN:
            continue
        mk.legal_action_mask(state, mask)
        first = {}
        for a in np.flatnonzero(mask[mk.LAY_BASE:mk.SPEND_BASE]) + mk.LAY_BASE:
            after = state.copy()
            mk.step(after, int(a))
            f = ((a - mk.LAY_BASE) // 4) % rules.NUM_FIELDS
            rules._fields(after, fields, queue, inq)
            key = (f, rules._field_key(after, f))
            if key in first:
                assert np.array_equal(first[key], read_fields(fields)), f"action {a}"
                shared += 1
            else:
                first[key] = read_fields(fields)
    assert shared > 20


@pytest.mark.parametrize("width,digest", [
    (K, "041dbb7eca8a9eed38c8d2376d056a5fc9f7ca94e3ca4a596e34c177fb8c69f0"),
    (WIDE, "694e08cb0732e41296527ecbc57ad75469fe5118388677812734efb000eafa14"),
])
def test_the_features_are_those_the_shipped_scorers_learnt(width, digest):
    """A fingerprint of the features and the root prior on positions of seeded random games (2, 3, 4
    players and the advanced game), the 16 features taken before the look-ahead was made faster (the
    guide and the advanced scorer read them) and all 24 since ``TURN_RANKING`` picks the candidates
    whose turn is played (the basic scorer reads them): the shipped scorers read exactly what they
    were trained on.  A change meant to change the features changes this digest, and the scorers
    must then be trained again."""
    h = hashlib.sha256()
    for players, variant in ((2, "basic"), (3, "basic"), (4, "basic"), (2, "advanced")):
        game = game_info("maunakea", players, variant=variant)
        for state in random_positions(game, 12, seed=players, max_steps=400):
            mask, out = features_of(game, state, width=width)
            out[mask == 0] = 0.0
            prior = np.zeros(game.num_actions)
            rules.prior(state, int(mk.player_to_act(state)), mask, prior)
            h.update(out.tobytes())
            h.update(prior.tobytes())
    assert h.hexdigest() == digest


def test_scorer_file_round_trip_and_errors(tmp_path):
    path = save_scorer(tmp_path / "s.npz", "maunakea", random_scorer())
    game = game_info("maunakea", 2)
    agent = agents.make_agent(str(path), game)
    assert isinstance(agent, ScorerAgent) and agent.name == "s" and agent.deterministic and agent.needs_state
    with pytest.raises(ValueError, match="trained for maunakea, not makemake"):
        agents.make_agent(str(path), game_info("makemake", 2))
    with pytest.raises(ValueError, match="the last layer must give 1 logit, got 8"):
        save_scorer(tmp_path / "bad.npz", "maunakea", random_scorer()[:1])
    with pytest.raises(ValueError, match="reads 16 or 24 features .*, not 15"):
        save_scorer(tmp_path / "bad.npz", "maunakea", [(np.zeros((8, 15)), np.zeros(8))] + random_scorer()[1:])
    with pytest.raises(ValueError, match="not finite"):
        save_scorer(tmp_path / "bad.npz", "maunakea", [(np.full((8, K), np.nan), np.zeros(8))] + random_scorer()[1:])
    with pytest.raises(ValueError, match=r"trained for maunakea's basic game, not advanced"):
        agents.make_agent(str(path), game_info("maunakea", 2, "advanced"))
    with pytest.raises(ValueError, match="exist for makabana, maunakea only, not 'makemake'"):
        save_scorer(tmp_path / "bad.npz", "makemake", random_scorer())
    with np.load(path) as data:
        arrays = dict(data)
    arrays["feature_names"] = np.array(["something else"] * K)
    np.savez(tmp_path / "old.npz", **arrays)
    with pytest.raises(ValueError, match="was trained on the features"):
        agents.make_agent(str(tmp_path / "old.npz"), game)
    np.savez(tmp_path / "plain.npz", w0=np.zeros((1, 1)))
    with pytest.raises(ValueError, match="not an action scorer"):
        ScorerAgent.load(tmp_path / "plain.npz")
    # damaged files: a layer missing, a key missing, not an archive at all
    damaged = dict(arrays, feature_names=np.array(rules.ACTION_FEATURE_NAMES))
    del damaged["w1"]
    np.savez(tmp_path / "cut.npz", **damaged)
    with pytest.raises(ValueError, match="last layer must give 1 logit"):
        agents.make_agent(str(tmp_path / "cut.npz"), game)
    del damaged["variant"]
    np.savez(tmp_path / "old.npz", **damaged)
    with pytest.raises(ValueError, match="lacks variant"):
        agents.make_agent(str(tmp_path / "old.npz"), game)
    (tmp_path / "text.npz").write_text("not an archive")
    with pytest.raises(ValueError, match="not a readable .npz file"):
        ScorerAgent.load(tmp_path / "text.npz")
    np.save(tmp_path / "single.npy", np.zeros(3))
    with pytest.raises(ValueError, match="single array"):
        ScorerAgent.load(tmp_path / "single.npy")
    agent.reset(game, 0, 0)
    with pytest.raises(ValueError, match="needs the state row"):
        agent.act(np.zeros(game.obs_size, np.int8), np.ones(game.num_actions, np.int8))


def test_a_scorer_of_the_turn_features_is_saved_played_and_guides_the_search(tmp_path):
    """A scorer's first layer says which feature set it reads: 24 inputs are the turn features, named
    so in its file, computed so when it plays and when it guides the search, at the root and in the
    tree (``pack_scorer``)."""
    path = save_scorer(tmp_path / "t.npz", "maunakea", random_scorer(3, width=WIDE))
    with np.load(path) as data:
        assert tuple(data["feature_names"]) == rules.FEATURE_NAMES
    game = game_info("maunakea", 2, max_turns=12)
    agent = agents.make_agent(str(path), game)
    assert agent.num_features == WIDE
    search = agents.make_agent(f"mcts:40+{path}", game, scorer_after=2)
    result = play_game(game, [agent, search], seed=4)
    assert result.decisions > 0
    state = random_positions(game, 1, seed=6)[0]
    agent.reset(game, int(mk.player_to_act(state)), 0)
    mask_s, out = features_of(game, state, width=WIDE)
    legal = np.flatnonzero(mask_s)
    mask = np.zeros(game.num_actions, np.int8)
    mk.legal_action_mask(state, mask)
    assert agent.act(None, mask, state) == (legal[np.argmax(agent.logits(out[legal]))] if legal.size > 1 else legal[0])
    # a file naming the 24 features in another order, or only some of them, is refused
    with np.load(path) as data:
        arrays = dict(data)
    for names in (rules.FEATURE_NAMES[::-1], rules.FEATURE_NAMES[:20]):
        np.savez(tmp_path / "odd.npz", **dict(arrays, feature_names=np.array(names)))
        with pytest.raises(ValueError, match="was trained on the features"):
            agents.make_agent(str(tmp_path / "odd.npz"), game)


@pytest.mark.parametrize("players,variant", [(2, "basic"), (3, "basic"), (2, "advanced")])
def test_scorer_plays_legal_games(tmp_path, players, variant):
    path = save_scorer(tmp_path / "s.npz", "maunakea", random_scorer(1), variant)
    game = game_info("maunakea", players, variant, max_turns=40)
    for deterministic in (True, False):
        scorer = agents.make_agent(str(path), game, deterministic=deterministic)
        result = play_game(game, [scorer] + [RandomAgent() for _ in range(players - 1)], seed=players)
        assert result.decisions > 0   # every move legal (play_game checks)


def test_the_scorer_plays_its_highest_logit():
    """Greedy play is the candidate whose feature row scores highest."""
    game = game_info("maunakea", 2)
    agent = ScorerAgent(random_scorer(2), "maunakea")
    for state in random_positions(game, 4, seed=9):
        agent.reset(game, int(mk.player_to_act(state)), 0)
        mask = np.zeros(game.num_actions, np.int8)
        mk.legal_action_mask(state, mask)
        mask_s, out = features_of(game, state)
        legal = np.flatnonzero(mask_s)
        expected = legal[np.argmax(agent.logits(out[legal]))] if legal.size > 1 else legal[0]
        assert agent.act(np.zeros(game.obs_size, np.int8), mask, state) == expected


def test_fit_learns_which_feature_the_teacher_follows():
    """Synthetic teacher that always plays the candidate with the largest feature 3: the fit finds
    it, also on decisions it never saw (a test that fails if the loss or its per-decision softmax is
    wrong)."""
    pytest.importorskip("torch")
    from agents.training.distill import fit
    rng = np.random.default_rng(0)
    games = []
    for g in range(60):
        features, visits, chosen = [], [], []
        for _ in range(30):
            x = rng.normal(size=(int(rng.integers(2, 12)), K)).astype(np.float32)
            v = np.ones(len(x), np.float32)
            v[np.argmax(x[:, 3])] = 91
            features.append(x)
            visits.append(v)
            chosen.append(int(np.argmax(x[:, 3])))
        games.append((features, visits, chosen))
    data = pack(games)
    x, v, decision, played = data["x"], data["visits"], data["decision"], data["played"]
    row = int(np.flatnonzero(decision == 1500)[0])   # 50 games to fit on, 10 held out
    layers = fit(x[:row], v[:row], decision[:row], hidden=16, epochs=300, lr=1e-2, seed=0, log=None)
    scorer = ScorerAgent(layers, "maunakea")
    on_fit, counted = agreement(scorer.logits(x[:row].astype(np.float64)), decision[:row], played[:1500])
    assert counted == 1500 and on_fit > 0.95
    # held out: far above chance (about 1 in 7), though 15 columns of noise cost some
    held_out, counted = agreement(scorer.logits(x[row:].astype(np.float64)), decision[row:] - 1500, played[1500:] - row)
    assert counted == 300 and held_out > 0.75
    assert agreement(-x[row:, 3], decision[row:] - 1500, played[1500:] - row)[0] < 0.2   # control


def test_agreement_is_the_greedy_pick_against_the_teachers_move():
    """The first of tied top scores is what a greedy scorer plays; decisions with one candidate
    do not count."""
    decision = np.array([0, 0, 1, 1, 1, 2])
    played = np.array([0, 3, 5])
    assert agreement(np.array([1.0, 0.0, 0.0, 2.0, 1.0, 0.0]), decision, played) == (1.0, 2)
    assert agreement(np.array([0.0, 1.0, 0.0, 2.0, 1.0, 0.0]), decision, played) == (0.5, 2)
    assert agreement(np.zeros(6), decision, played) == (0.5, 2)          # ties: the first row
    assert agreement(np.zeros(6), decision, np.array([1, 3, 5])) == (0.0, 2)


def test_tiny_distillation_run(tmp_path, capsys):
    """``agents.training.distill`` end to end on two short teacher games: a scorer file that plays legal moves,
    the recorded decisions, a result file; ``--reuse`` fits again on the same decisions."""
    pytest.importorskip("torch")
    out = tmp_path / "run"
    args = ["--game", "maunakea", "--games", "2", "--simulations", "30", "--epochs", "5", "--final-games", "2",
            "--workers", "1", "--out", str(out)]
    result = distill_main(args)
    assert (out / "scorer.npz").is_file() and (out / "decisions.npz").is_file()
    saved = json.loads((out / "result.json").read_text())
    assert saved["teacher_games"] == 2 and saved["decisions"] > 0 and "win_rate_heuristic" in saved
    assert result["decisions"] == saved["decisions"]
    with np.load(out / "decisions.npz") as data:
        assert data["x"].shape[1] == K and len(data["x"]) == len(data["visits"]) == len(data["decision"])
        assert len(data["played"]) == len(data["game_of"]) == saved["decisions"] and data["games"] == 2
        # every decision's played row is one of its own rows, and the search visited it
        assert np.array_equal(data["decision"][data["played"]], np.arange(saved["decisions"]))
        assert (data["visits"][data["played"]] > 0).all()
    scorer = agents.make_agent(str(out / "scorer.npz"), game_info("maunakea", 2))
    play_game(game_info("maunakea", 2, max_turns=30), [scorer, RandomAgent()], seed=0)
    again = distill_main(["--game", "maunakea", "--epochs", "5", "--final-games", "0", "--out", str(out), "--reuse"])
    assert again["decisions"] == saved["decisions"] and "win_rate_heuristic" not in again
    with pytest.raises(SystemExit, match="recorded with players=2, not players=3"):
        distill_main(["--game", "maunakea", "--players", "3", "--out", str(out), "--reuse"])
    with pytest.raises(SystemExit):   # the teacher's options with --reuse, which plays no teacher game, did nothing
        distill_main(["--game", "maunakea", "--out", str(out), "--reuse", "--games", "50", "--simulations", "7"])
    assert "--games, --simulations would change nothing; leave them out" in capsys.readouterr().err
    from agents.training import distill
    fit = distill.fit   # a fit gone to NaN was a traceback from the scorer's writer
    diverged = lambda *args, **kwargs: [(w * np.nan, b) for w, b in fit(*args, **kwargs)]   # noqa: E731
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(distill, "fit", diverged)
        with pytest.raises(SystemExit, match=r"the fit diverged .* at --lr 0.01; a smaller --lr"):
            distill_main(["--game", "maunakea", "--epochs", "2", "--final-games", "0", "--out", str(out), "--reuse"])
    (out / "decisions.npz").write_text("not an archive")   # was a zipfile.BadZipFile traceback
    with pytest.raises(SystemExit, match="is not a decisions file"):
        distill_main(["--game", "maunakea", "--out", str(out), "--reuse"])
    (out / "decisions.npz").write_bytes(b"")               # was an EOFError traceback
    with pytest.raises(SystemExit, match="is not a decisions file"):
        distill_main(["--game", "maunakea", "--out", str(out), "--reuse"])
    np.savez(out / "decisions.npz", **{k: np.zeros(1) for k in ("x", "visits", "decision", "game_of", "played",
                                                                 "games", "teacher_share")}, setting="{not json")
    with pytest.raises(SystemExit, match="is not a decisions file"):   # was a JSONDecodeError traceback
        distill_main(["--game", "maunakea", "--out", str(out), "--reuse"])


@pytest.mark.parametrize("args,message", [
    (["--game", "makemake"], "action scorers exist for makabana, maunakea only"),
    (["--game", "makabana", "--variant", "mao"], "action features exist for its haapii game only, not mao"),
    (["--game", "makabana", "--features", "turn"], "--features: makabana's scorers read haapii, season, not 'turn'"),
    (["--game", "maunakea", "--players", "7"], "--players: num_players must be"),
    (["--game", "maunakea", "--players", "١"], "argument --players: must be an integer, written in the digits 0-9"),
    (["--game", "maunakea", "--variant", "bogus"], "--variant: variant must be one of"),
    (["--game", "maunakea", "--out", ""], "--out is empty"),   # was the default folder
    (["--game", "maunakea", "--opponent", "nobody"], "unknown agent 'nobody'"),
    (["--game", "maunakea", "--games", "1"], "--games: must be an integer from 2 to 1000000, got '1'"),
    (["--game", "maunakea", "--simulations", "2000000"], "--simulations: must be an integer from 1 to 1000000"),
    (["--game", "maunakea", "--hidden", "100000000"], "--hidden: must be an integer from 1 to 4096"),
    (["--game", "maunakea", "--epochs", "0"], "--epochs: must be an integer from 1 to 1000000"),
    (["--game", "maunakea", "--final-games", "-1"], "--final-games: must be an integer from 0"),
    (["--game", "maunakea", "--lr", "0"], "--lr must be in (0, 1), got 0.0"),
    (["--game", "maunakea", "--lr", "inf"], "--lr must be in (0, 1), got inf"),
    (["--game", "maunakea", "--lr", "1e30"], "--lr must be in (0, 1), got 1e+30"),   # diverged, then a traceback
    (["--game", "maunakea", "--seed", str(2 ** 64)], "--seed: must be an integer from 0 to 9223372036854775806"),
])
def test_distill_refuses_bad_arguments_clearly(capsys, args, message):
    with pytest.raises(SystemExit):
        distill_main(args)
    assert message in capsys.readouterr().err


def test_a_scorer_can_join_the_self_play_opponent_pool(tmp_path):
    from agents.training.selfplay import make_opponent
    path = save_scorer(tmp_path / "s.npz", "maunakea", random_scorer())
    assert isinstance(make_opponent(str(path), game_info("maunakea", 2)), ScorerAgent)


def test_distill_checks_its_output_folder_and_torch(tmp_path, capsys, monkeypatch):
    (tmp_path / "file").write_text("")
    with pytest.raises(SystemExit):
        distill_main(["--game", "maunakea", "--out", str(tmp_path / "file")])
    assert "is a file; name a folder" in capsys.readouterr().err
    with pytest.raises(SystemExit):   # before the teacher games, not when their decisions are written
        distill_main(["--game", "maunakea", "--out", str(tmp_path / "file" / "out")])
    assert "the folder cannot be created" in capsys.readouterr().err
    with pytest.raises(SystemExit, match="--reuse: no"):   # refused, and no empty folder left behind
        distill_main(["--game", "maunakea", "--reuse", "--out", str(tmp_path / "new")])
    assert not (tmp_path / "new").exists()
    import importlib.util
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "torch" else real(name, *a))
    with pytest.raises(SystemExit):
        distill_main(["--game", "maunakea"])
    assert 'needs torch: pip install -e ".[train]"' in capsys.readouterr().err


@pytest.mark.parametrize("width", [8, 15, 20])
def test_feature_rows_of_another_width_are_refused_not_written_past(width):
    """Numba does not check bounds: ``action_features`` and both batched kernels refuse rows of a
    width that is no feature set (or too few rows) with a ValueError instead of writing past them."""
    game = game_info("maunakea", 2)
    state = random_positions(game, 1, seed=1)[0]
    mask = np.zeros(game.num_actions, np.int8)
    rules.search_mask(state.copy(), mask)
    message = "out needs a row per action and 16 or 24 columns"
    with pytest.raises(ValueError, match=message):
        rules.action_features(state, 0, mask, np.zeros((game.num_actions, width)))
    with pytest.raises(ValueError, match=message):
        rules.action_features(state, 0, mask, np.zeros((game.num_actions - 1, K)))
    for kernel in (rules.candidate_features, rules.candidate_features_parallel):
        with pytest.raises(ValueError, match=message):
            kernel(state[None].copy(), np.zeros(1, np.int64), np.zeros(1, np.int64),
                   np.zeros((1, game.num_actions), np.int8), np.zeros((1, game.num_actions, width)))
