"""Tests of the Maka Bana PettingZoo environment (``makabana_env.env`` / ``raw_env``).

They cover what is Maka Bana's own: hidden information, illegal moves, game invariants under random
play and what rendering shows and hides; the checks all three environments share are in
``test_env.py``.  Random play always draws from
the action mask with a seeded ``numpy.random.Generator``, so every test is deterministic.
"""
import numpy as np
import pytest

import makabana_env
from makabana_env import core
from makabana_env.board import BIKINI, COLOUR_NAMES, HUTS_PER_COLOUR, NUM_SPOTS, SPOT_BEACH, SPOT_INDEX, SPOT_NAMES
from test_env import assert_illegal_raises, assert_obs_equal, assert_snapshot_equal, play_out, snapshot

PLAYER_COUNTS = [2, 3, 4, 5]
SHOW_BEACH, SHOW_AREA, SHOW_THEME = core.SHOWN_BEACH, core.SHOWN_AREA, core.SHOWN_THEME


# ---------------------------------------------------------------------------------------------------
# helpers
def construct(name, shown):
    return 3 * SPOT_INDEX[name] + shown


def take_back(name, shown):
    return core.TAKE_BACK_BASE + 3 * SPOT_INDEX[name] + shown


def tiki(name):
    return core.TIKI_BASE + SPOT_INDEX[name]


def num_colours(num_players):
    return 4 if num_players == 2 else num_players


def random_legal(mask, rng, only_constructions=False):
    legal = np.flatnonzero(mask)
    if only_constructions:
        legal = legal[(legal < core.TAKE_BACK_BASE) | (legal >= core.TIKI_BASE)]
    assert legal.size > 0
    return int(rng.choice(legal))


# ---------------------------------------------------------------------------------------------------
# 0. Defaults and spaces
def test_defaults_and_spaces():
    """docs/makabana.md's options table and RULES.md ("max_turns (default 100)"): 4 players, Haapii,
    ``max_turns`` 100 seasons, win/loss rewards by default; the state row keeps that truncation limit."""
    e = makabana_env.raw_env()
    assert e.num_players == 4 and e.max_turns == 100 and e.variant == "haapii" and e.reward == "win_loss"
    e.reset(seed=0)
    assert e.state()[core.MAX_TURNS] == 100
    for agent in e.possible_agents:
        assert e.action_space(agent).n == core.NUM_ACTIONS
        space = e.observation_space(agent)
        assert space["observation"].shape == (core.OBS_SIZE,)
        assert space["action_mask"].shape == (core.NUM_ACTIONS,)


# ---------------------------------------------------------------------------------------------------
# 1. Hidden information
def _pair_of_games(num_players, warmup_seasons, target_offset, seed):
    """Two raw games played identically up to the project decision of the target colour in season
    ``warmup_seasons``.  The target colour makes only constructions before, so it keeps its paint."""
    a, b = makabana_env.raw_env(num_players=num_players), makabana_env.raw_env(num_players=num_players)
    a.reset(seed=seed)
    b.reset(seed=seed)
    rng = np.random.default_rng(seed)
    n = num_colours(num_players)
    target = (warmup_seasons + target_offset) % n  # the first player card moves on every season
    while True:
        s = a.state()
        assert s[core.STATUS] == core.STATUS_RUNNING, "warm-up ended the game; pick another seed"
        if s[core.SEASON] == warmup_seasons and s[core.TO_ACT] == target:
            assert s[core.PHASE] == core.PHASE_PROJECT and s[core.FIRST] == warmup_seasons % n
            assert s[core.PAINTS + target] == 2
            return a, b, rng, target
        mask = a.observe(a.agent_selection)["action_mask"]
        action = random_legal(mask, rng, only_constructions=(s[core.TO_ACT] == target))
        a.step(action)
        b.step(action)


def _compare_until(a, b, rng, others, stop):
    """Step both games with the same random actions, comparing the observations of ``others`` at
    every decision until ``stop(state)``.  Returns the phases at which comparisons were made."""
    phases = []
    while not stop(a.state()):
        assert a.agent_selection == b.agent_selection
        for agent in others:
            assert_obs_equal(a.observe(agent), b.observe(agent), f"{agent} sees the hidden project")
        phases.append(int(a.state()[core.PHASE]))
        mask = a.observe(a.agent_selection)["action_mask"]
        np.testing.assert_array_equal(mask, b.observe(b.agent_selection)["action_mask"])
        action = random_legal(mask, rng)
        a.step(action)
        b.step(action)
    return phases


SAME_HINT_PAIRS = {
    "construct-beach": (construct("Azzura-Rock-Flower", SHOW_BEACH), construct("Azzura-Grass-Fish", SHOW_BEACH)),
    "construct-theme": (construct("Azzura-Grass-Flower", SHOW_THEME), construct("Coquito-Sand-Flower", SHOW_THEME)),
    "takeback-area": (take_back("Coquito-Grass-Flower", SHOW_AREA), take_back("Diabolo-Grass-Tattoo", SHOW_AREA)),
    "takeback-beach": (take_back("Azzura-Rock-Flower", SHOW_BEACH), take_back("Azzura-Lagoon-Fish", SHOW_BEACH)),
}


@pytest.mark.parametrize("pair", sorted(SAME_HINT_PAIRS))
@pytest.mark.parametrize("target_offset", ["first", "last"])
@pytest.mark.parametrize("warmup_seasons", [0, 2])
@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_hidden_project_same_hint(num_players, warmup_seasons, target_offset, pair):
    n = num_colours(num_players)
    offset = 0 if target_offset == "first" else n - 1
    a, b, rng, target = _pair_of_games(num_players, warmup_seasons, offset, seed=11 + num_players)
    owner = target % num_players
    me = f"player_{owner}"
    others = [p for p in a.possible_agents if p != me]
    season = a.state()[core.SEASON]
    action_a, action_b = SAME_HINT_PAIRS[pair]
    assert a.observe(me)["action_mask"][action_a] and b.observe(me)["action_mask"][action_b]
    a.step(action_a)
    b.step(action_b)
    # the swap is real: the owner's own view differs (full project of its own colour)
    assert not np.array_equal(a.observe(me)["observation"], b.observe(me)["observation"])
    phases = _compare_until(a, b, rng, others, lambda s: s[core.SEASON] != season or s[core.STATUS] != 0)
    assert core.PHASE_TIKI in phases, "the tiki phase was never compared"
    if offset == 0:
        assert core.PHASE_PROJECT in phases, "later players' project decisions were never compared"


DIFFERENT_HINTS = (construct("Azzura-Rock-Flower", SHOW_BEACH), take_back("Coquito-Sand-Fish", SHOW_THEME))


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_shown_card_hidden_until_everybody_has_chosen(num_players):
    """A later player does not see an earlier player's shown card (nor its paint card) while the
    projects are being chosen; all hints appear together in the tiki phase."""
    a, b, rng, target = _pair_of_games(num_players, 0, 0, seed=5)
    me = f"player_{target % num_players}"
    others = [p for p in a.possible_agents if p != me]
    a.step(DIFFERENT_HINTS[0])
    b.step(DIFFERENT_HINTS[1])
    phases = _compare_until(a, b, rng, others, lambda s: s[core.PHASE] != core.PHASE_PROJECT)
    assert phases and set(phases) == {core.PHASE_PROJECT}
    # revealed together: now every other player sees the differing hints
    for agent in others:
        assert not np.array_equal(a.observe(agent)["observation"], b.observe(agent)["observation"])


NUM_SHOWN_CARDS = 11  # 4 beaches, 4 areas, 3 themes
# The shown-card one-hot as far as it fits in a colour block (see test_colour_block_fits_shown_card).
SHOWN_SLOTS = min(NUM_SHOWN_CARDS, core.COLOUR_FEATURES - core.CF_SHOWN_CARD)


def _colour_block(obs, k):
    base = core.OBS_COLOUR + k * core.COLOUR_FEATURES
    return obs[base: base + core.COLOUR_FEATURES]


def _shown_cards(obs, k):
    base = core.OBS_COLOUR + k * core.COLOUR_FEATURES + core.CF_SHOWN_CARD
    return obs[base: base + SHOWN_SLOTS]


def _own_block(obs, k):
    base = core.OBS_OWN_PROJECT + k * (NUM_SPOTS + 1)
    return obs[base: base + NUM_SPOTS + 1]


def _shown_index(name, shown):
    return int(core.shown_card(SPOT_INDEX[name], shown))


def test_two_player_sees_both_own_projects_not_the_opponents():
    e = makabana_env.raw_env(num_players=2)
    e.reset(seed=0)
    plan = [  # colour: (action, spot, take-back, shown)
        (construct("Azzura-Rock-Flower", SHOW_BEACH), "Azzura-Rock-Flower", 0, SHOW_BEACH),
        (take_back("Coquito-Sand-Fish", SHOW_AREA), "Coquito-Sand-Fish", 1, SHOW_AREA),
        (take_back("Diabolo-Rock-Tattoo", SHOW_AREA), "Diabolo-Rock-Tattoo", 1, SHOW_AREA),
        (construct("Bikini-Sand-Flower", SHOW_THEME), "Bikini-Sand-Flower", 0, SHOW_THEME),
    ]
    for colour in range(3):
        assert e.agent_selection == f"player_{colour % 2}"
        e.step(plan[colour][0])
    # colour 3 (player_1) to act; player_0 looks from colour 0, player_1 from colour 3
    for agent, view in (("player_0", 0), ("player_1", 3)):
        obs = e.observe(agent)["observation"]
        player = int(agent[-1])
        for colour in range(4):
            k = (colour - view) % 4
            own, block = _own_block(obs, k), _colour_block(obs, k)
            submitted = colour < 3
            assert block[core.CF_SUBMITTED] == submitted
            assert block[core.CF_MINE] == (colour % 2 == player)
            if colour % 2 == player and submitted:
                _, name, flag, shown = plan[colour]
                expected = np.zeros(NUM_SPOTS + 1, np.int8)
                expected[SPOT_INDEX[name]] = 1
                expected[NUM_SPOTS] = flag
                np.testing.assert_array_equal(own, expected, err_msg=f"{agent} own colour {colour}")
                cards = np.zeros(SHOWN_SLOTS, np.int8)
                cards[_shown_index(name, shown)] = 1
                np.testing.assert_array_equal(_shown_cards(obs, k), cards)
                assert block[core.CF_PAINT_SHOWN] == flag
            else:
                assert not own.any(), f"{agent} sees colour {colour}'s project"
                assert not _shown_cards(obs, k).any(), f"{agent} sees colour {colour}'s shown card"
                assert block[core.CF_PAINT_SHOWN] == 0
    e.step(plan[3][0])
    assert e.decision() == "tiki"
    # now every shown card is public, the hidden cards of the opponent still are not
    for agent in e.possible_agents:
        player = int(agent[-1])
        obs = e.observe(agent)["observation"]
        view = core.viewpoint(e.state(), player)
        assert view % 2 == player
        for colour in range(4):
            k = (colour - view) % 4
            _, name, flag, shown = plan[colour]
            block = _colour_block(obs, k)
            cards = np.zeros(SHOWN_SLOTS, np.int8)
            cards[_shown_index(name, shown)] = 1
            np.testing.assert_array_equal(_shown_cards(obs, k), cards)
            assert block[core.CF_PAINT_SHOWN] == flag
            own = _own_block(obs, k)
            assert own.any() == (colour % 2 == player)


def test_colour_block_fits_shown_card():
    """The env docstring promises an 11-way one-hot of the shown card inside each colour block;
    CF_SHOWN_CARD + 11 must not run into the next block."""
    assert core.CF_SHOWN_CARD + NUM_SHOWN_CARDS <= core.COLOUR_FEATURES


@pytest.mark.parametrize("num_players", [3, 4, 5])
def test_tattoo_hint_stays_in_its_colour_block(num_players):
    """A revealed Tattoo hint (the 11th card) of the last relative colour must be written in that
    colour's block, not in the next one: with fewer than 5 colours it must not mark an absent colour
    as present, with 5 colours it must not add a spot to the viewer's own project."""
    e = makabana_env.raw_env(num_players=num_players)
    e.reset(seed=0)
    for _ in range(num_players - 1):
        e.step(construct("Coquito-Sand-Fish", SHOW_BEACH))
    e.step(construct("Diabolo-Rock-Tattoo", SHOW_THEME))  # the last colour shows the Tattoo theme
    assert e.decision() == "tiki" and e.agent_selection == "player_0"
    obs = e.observe("player_0")["observation"]
    for k in range(core.MAX_COLOURS):
        assert obs[core.OBS_COLOUR + k * core.COLOUR_FEATURES + core.CF_PRESENT] == (k < num_players), \
            f"relative colour {k} present flag wrong"
    own = _own_block(obs, 0)
    assert np.flatnonzero(own[:NUM_SPOTS]).tolist() == [SPOT_INDEX["Coquito-Sand-Fish"]], \
        "the viewer's own project names more than one spot"
    # and the Tattoo card itself is visible in the last colour's block
    last = core.OBS_COLOUR + (num_players - 1) * core.COLOUR_FEATURES
    tattoo = _shown_index("Diabolo-Rock-Tattoo", SHOW_THEME)
    assert tattoo == NUM_SHOWN_CARDS - 1
    assert last + core.CF_SHOWN_CARD + tattoo < last + core.COLOUR_FEATURES, \
        "the Tattoo one-hot slot lies outside the colour block"


# ---------------------------------------------------------------------------------------------------
# 2. Illegal moves


def test_raw_illegal_actions_raise_and_leave_state_unchanged():
    e = makabana_env.raw_env(num_players=3)
    e.reset(seed=2)
    assert_illegal_raises(e, tiki("Azzura-Grass-Flower"), "project")  # tiki during the project phase
    assert_illegal_raises(e, construct("Bikini-Sand-Flower", SHOW_BEACH), "project")  # out of play
    # take-back without paint
    state = e.state()
    state[core.PAINTS + 0] = 0
    e.set_state(state)
    mask = e.observe("player_0")["action_mask"]
    assert not mask[core.TAKE_BACK_BASE:core.TIKI_BASE].any() and mask[:core.TAKE_BACK_BASE].any()
    assert_illegal_raises(e, take_back("Azzura-Rock-Flower", SHOW_AREA), "project")
    # None for a live agent
    before = snapshot(e)
    with pytest.raises(ValueError, match="None"):
        e.step(None)
    assert_snapshot_equal(before, snapshot(e))
    # tiki phase: projects and occupied spots are illegal
    e.step(construct("Azzura-Rock-Flower", SHOW_BEACH))
    e.step(construct("Coquito-Sand-Fish", SHOW_BEACH))
    e.step(construct("Diabolo-Rock-Tattoo", SHOW_BEACH))
    assert e.decision() == "tiki" and e.agent_selection == "player_0"
    assert_illegal_raises(e, construct("Azzura-Rock-Flower", SHOW_BEACH), "tiki")
    assert_illegal_raises(e, take_back("Azzura-Rock-Flower", SHOW_BEACH), "tiki")
    assert_illegal_raises(e, tiki("Bikini-Sand-Flower"), "tiki")
    e.step(tiki("Azzura-Grass-Flower"))
    assert_illegal_raises(e, tiki("Azzura-Grass-Flower"), "tiki")  # already has a tiki
    # own hut without a paint card shown: not protectable
    state = e.state()
    state[core.HUT + SPOT_INDEX["Coquito-Lagoon-Fish"]] = 1
    state[core.RESERVE + 1] -= 1
    e.set_state(state)
    assert_illegal_raises(e, tiki("Coquito-Lagoon-Fish"), "tiki")


# ---------------------------------------------------------------------------------------------------
# 3. Invariants under random play
def _check_invariants(e, state, previous):
    n, p = int(state[core.NUM_COLOURS]), e.num_players
    huts, tikis = state[core.HUT:core.HUT + NUM_SPOTS], state[core.TIKI:core.TIKI + NUM_SPOTS]
    assert ((huts >= -1) & (huts < n)).all() and ((tikis >= -1) & (tikis < n)).all()
    for c in range(n):
        assert (huts == c).sum() + state[core.RESERVE + c] == HUTS_PER_COLOUR
        assert 0 <= state[core.RESERVE + c] <= HUTS_PER_COLOUR
        assert (tikis == c).sum() <= 1, f"colour {c} has more than one tiki"
        assert 0 <= state[core.PAINTS + c] <= 2
        assert state[core.PAINTS + c] <= previous[core.PAINTS + c], "paint cards increased"
    for c in range(n, core.MAX_COLOURS):
        assert state[core.RESERVE + c] == 0 and state[core.PAINTS + c] == 0
    if n == 3:
        bikini = SPOT_BEACH == BIKINI
        assert (huts[bikini] == -1).all() and (tikis[bikini] == -1).all()
    for agent in e.possible_agents:
        obs = e.observe(agent)
        assert e.observation_space(agent).contains(obs), f"observation of {agent} outside its space"
        if agent != e.agent_selection or state[core.STATUS] != core.STATUS_RUNNING:
            assert not obs["action_mask"].any()
    if state[core.STATUS] == core.STATUS_RUNNING:
        assert e.agent_selection == f"player_{state[core.TO_ACT] % p}"
        assert e.observe(e.agent_selection)["action_mask"].any()
        assert not any(e.terminations.values()) and not any(e.truncations.values())


@pytest.mark.parametrize("max_turns", [100, 3])
@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_invariants_random_games(num_players, seed, max_turns):
    e = makabana_env.raw_env(num_players=num_players, max_turns=max_turns)
    e.reset(seed=seed)
    rng = np.random.default_rng(1000 * num_players + seed)
    previous = e.state()
    _check_invariants(e, previous, previous)
    steps = 0
    while e.state()[core.STATUS] == core.STATUS_RUNNING:
        e.step(random_legal(e.observe(e.agent_selection)["action_mask"], rng))
        state = e.state()
        _check_invariants(e, state, previous)
        previous = state
        steps += 1
        assert steps < 10_000
    status = state[core.STATUS]
    assert state[core.PHASE] == core.PHASE_OVER
    assert all(e.terminations.values()) or all(e.truncations.values())
    assert all(e.terminations[a] == (status == core.STATUS_TERMINATED) for a in e.agents)
    assert all(e.truncations[a] == (status == core.STATUS_TRUNCATED) for a in e.agents)
    if max_turns == 3 and status == core.STATUS_TRUNCATED:
        assert state[core.SEASON] == 3
    scores = e.scores()
    for agent in e.possible_agents:
        assert e.infos[agent]["scores"] == scores
        # rulebook "Game Ends" or max_turns, named as in every game (pacific_common.ends)
        assert e.infos[agent]["end"] == ("truncated" if status == core.STATUS_TRUNCATED else "rules")
    best = max(scores.values())
    winners = [a for a, v in scores.items() if v == best]
    for agent in e.possible_agents:
        if status == core.STATUS_TRUNCATED:
            expected = 0
        elif scores[agent] == best:
            expected = 1 if len(winners) == 1 else 0
        else:
            expected = -1
        assert e.rewards[agent] == expected
        assert e._cumulative_rewards[agent] == expected
    # the agents then leave with None
    while e.agents:
        e.step(None)


# ---------------------------------------------------------------------------------------------------
# 4. Rendering
@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_render_ansi(num_players):
    e = makabana_env.env(num_players=num_players, render_mode="ansi")
    e.reset(seed=0)
    text = e.render()
    assert isinstance(text, str)
    for name in SPOT_NAMES:
        assert name in text
    play_out(e, np.random.default_rng(0))
    assert isinstance(e.render(), str)



@pytest.mark.parametrize("num_players", [3, 5])
def test_mao_text_shows_the_projects_revealed_before_this_season(num_players):
    """Haapii's text showed last season's projects and Mao's did not, though they were turned face up
    at their execution (the observation's OBS_M_REVEALED and OBS_M_DONE, the notation's "last project"
    line): every colour's latest project revealed before this season, and the spots it executed on,
    for every viewer, until the game is over."""
    from makabana_env import kernels

    e = makabana_env.raw_env(num_players=num_players, variant="mao", render_mode="ansi")
    e.reset(seed=2)
    rng = np.random.default_rng(0)
    shown = 0
    while e.agents and not all(e.terminations.values()) and not all(e.truncations.values()):
        state = e.state()
        expected = []
        for c in range(num_players):
            line = next(line for line in makabana_env.to_text(state).splitlines()
                        if line.startswith(f"{COLOUR_NAMES[c]} last project: "))
            cards, done = line.split(": ", 1)[1].split("; done ")
            if cards != "cards -" and not state[kernels.REVEALED_NOW + c]:
                expected.append(f"  {COLOUR_NAMES[c]:<7} {cards}; executed: "
                                f"{'nothing' if done == '-' else done}")
        for viewer in [None, *range(num_players)]:
            text = " ".join(e.render_ansi(state, viewer).split())    # the long lines are wrapped
            for line in expected:
                assert " ".join(line.split()) in text, (viewer, line)
            assert ("Projects revealed before this season" in text) == bool(expected)
        shown += bool(expected)
        e.step(int(rng.choice(np.flatnonzero(e.observe(e.agent_selection)["action_mask"]))))
    assert shown > 10

@pytest.mark.parametrize("num_players", [2, 3, 5])
def test_render_rgb(num_players):
    e = makabana_env.env(num_players=num_players, render_mode="rgb_array")
    e.reset(seed=0)
    img = e.render()
    assert isinstance(img, np.ndarray) and img.dtype == np.uint8
    assert img.ndim == 3 and img.shape[2] == 3 and img.shape[0] > 0 and img.shape[1] > 0
    state = e.state()
    rng = np.random.default_rng(0)
    for _ in range(10):
        e.step(random_legal(e.last()[0]["action_mask"], rng))
    img2 = e.render()
    assert img2.shape == img.shape and img2.dtype == np.uint8
    assert not np.array_equal(state, e.state())


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_render_rgb_shows_the_colour_asked_and_the_winner_in_its_top_bar(num_players):
    """The picture was the same whoever was asked, and the same once the game was over; like the other
    games', its top bar now shows the colour asked, then the sole winner's colour (gray for none, or
    for the two-player game, where the winner plays two colours), hatched."""
    from makabana_env.render import BAR, _DARK, _HATCH_RGB, _PLAYER_RGB, render_rgb
    ties = 0
    for seed in range(7):   # 4 players, seed 6: a tie for first, 15 15 14 4
        e = makabana_env.raw_env(num_players=num_players)
        e.reset(seed=seed)
        rng = np.random.default_rng(seed)
        while e.agents and not all(e.terminations.values()) and not all(e.truncations.values()):
            bar = render_rgb(e.state())[:BAR]
            assert (bar == _PLAYER_RGB[e.state()[core.TO_ACT]]).all()
            e.step(random_legal(e.observe(e.agent_selection)["action_mask"], rng))
        bar = render_rgb(e.state())[:BAR]
        dark = (bar == _DARK).all(axis=2)
        assert 0.3 < dark.mean() < 0.4           # a stripe of 4 pixels in every 12
        scores = np.array(list(e.scores().values()))
        sole = (num_players > 2 and e.state()[core.STATUS] == core.STATUS_TERMINATED
                and np.count_nonzero(scores == scores.max()) == 1)
        ties += num_players > 2 and not sole
        assert (bar[~dark] == (_PLAYER_RGB[int(np.argmax(scores))] if sole else _HATCH_RGB)).all()
    assert ties == (num_players == 4)


def _without_project(state, colour):
    state = state.copy()
    state[core.PROJECT_KIND + colour] = core.NO_PROJECT
    state[core.PROJECT_SPOT + colour] = -1
    state[core.PROJECT_SHOWN + colour] = -1
    return state


def _check_ansi_hides_projects(render_ansi, state, num_players):
    """For every viewer (and a spectator), a colour's current project adds its spot's name to the
    text only if the viewer owns that colour.  This does not depend on the layout of the text: the
    text is compared with the text of the same state without that project."""
    from makabana_env.render import unchecked_ansi

    for viewer in list(range(num_players)) + [None]:
        text = render_ansi(state, viewer)
        assert isinstance(text, str)
        for colour in range(num_colours(num_players)):
            if state[core.PROJECT_KIND + colour] == core.NO_PROJECT:
                continue
            name = SPOT_NAMES[state[core.PROJECT_SPOT + colour]]
            plain = unchecked_ansi(_without_project(state, colour), viewer)   # a row play cannot reach
            if viewer is not None and colour % num_players == viewer:
                assert text.count(name) > plain.count(name), "own project not shown (check is void)"
            else:
                assert text.count(name) == plain.count(name), \
                    f"viewer {viewer} sees colour {colour}'s project spot {name}:\n{text}"


@pytest.mark.parametrize("pair", sorted(SAME_HINT_PAIRS))
@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_render_ansi_hides_other_projects(num_players, pair):
    from makabana_env.render import render_ansi

    a, b, rng, target = _pair_of_games(num_players, 1, 0, seed=31)
    owner = target % num_players
    season = a.state()[core.SEASON]
    action_a, action_b = SAME_HINT_PAIRS[pair]
    a.step(action_a)
    b.step(action_b)
    phases = set()
    while a.state()[core.SEASON] == season:
        state_a, state_b = a.state(), b.state()
        phases.add(int(state_a[core.PHASE]))
        _check_ansi_hides_projects(render_ansi, state_a, num_players)
        _check_ansi_hides_projects(render_ansi, state_b, num_players)
        for viewer in list(range(num_players)) + [None]:
            if viewer != owner:
                assert render_ansi(state_a, viewer) == render_ansi(state_b, viewer), \
                    f"viewer {viewer} can tell the two projects apart"
        action = random_legal(a.observe(a.agent_selection)["action_mask"], rng)
        a.step(action)
        b.step(action)
    assert core.PHASE_TIKI in phases and core.PHASE_PROJECT in phases
