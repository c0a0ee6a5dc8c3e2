"""Cross-check of the Make Make Numba rules core against the plain-Python reference.

``makemake_env/reference.py`` was written from the rulebook, RULINGS.md and RULES.md without reading
``makemake_env/kernels.py`` (then ``core.py``); a rule misread in either of them shows up here as a
disagreement.

What is compared, after every step of every game: the legal actions; per territory the owner, the
tokens and the Moai; where each chief stands; the clan holding each Ceremonial Ground; the token and
Tangata Manu supplies; the Moai left; the amulet; the winner; the phase; the clan to act; the clan turns
completed; the status (running, terminated, truncated) and how the game ended (win, stalemate,
truncated).  Every few steps both must reject the same
illegal action.  When a game ends: the player scores and the rewards in all three modes ("win_loss",
"score", "margin"), and both refuse any further action.

Where the games come from:

- over a thousand seeded random games with 2, 3 and 4 clans, moves drawn by ``core.random_action``
  from the game's own generator (4-clan games are cut by ``max_turns`` of 150-300, some games by a
  ``max_turns`` of 1-8 to reach truncation early);
- "builder" games, where the clans mostly try to surround one Inner territory, or two neighbouring
  ones at once, so that Moai get built, several Moai become possible on one move, and Tangata Manu
  run short;
- crafted positions (given to both implementations alike) one move away from each rare event: a
  single Moai built without asking, a choice between two Moai, a ceremony choice with too few Tangata
  Manu, the amulet passing to a third clan, ceremonies ended by an attack, wins on one's own move and
  on another clan's move, stalemates; and, for every Moai site and every ground, whether a Tangata
  Manu there lets the Moai be built.

Every rare event is counted and the tests assert that it actually happened, so that the comparison is
not silently vacuous.

Two core bugs were found this way (in the core of commit 527f135; both fixed since) and each keeps a
test of its own:

- ``test_moai_needs_a_tangata_manu_on_a_ground_near_the_territory``: the bit set of grounds "at a
  corner of T or of a neighbour" was built with ``sum`` over a list naming most grounds two or three
  times; the carries scrambled it, so some Moai the rules forbid were built and some they require
  were not (Ceremonial Phase a; the builder games ran into it too).
- ``test_stalemate_when_a_clan_has_no_tangata_manu_left``: a passing clan with a free protected
  ground but no Tangata Manu in supply counted as "having something to celebrate", so instead of a
  stalemate the passes went round until ``max_turns`` truncated the game (random games with 2 and 3
  clans reach this position, e.g. 2 clans, seed 2332, after 33 steps).
"""
import collections
import random

import numpy as np
import pytest

import makemake_env
from makemake_env import core
from makemake_env.board import (GROUND_NAMES, GROUND_TERRITORIES, MOAI_SITES, NEIGHBOURS,
                                TANGATA_MANU_PER_CLAN, TERRITORY_GROUNDS, TERRITORY_INDEX,
                                TERRITORY_NAMES, TOKENS_PER_CLAN)
from makemake_env.reference import (CEREMONY_BASE, MOAI_BASE, NUM_ACTIONS, NUM_GROUNDS,
                                    NUM_TERRITORIES, WITHDRAW_BASE, ReferenceGame, place_action)
from pacific_common.ends import END_NAMES

PHASE_NAMES = {core.PHASE_DOMINANCE: "dominance", core.PHASE_MOAI: "moai",
               core.PHASE_CEREMONY: "ceremony", core.PHASE_OVER: "over"}
STATUS_NAMES = {core.STATUS_RUNNING: "running", core.STATUS_TERMINATED: "terminated",
                core.STATUS_TRUNCATED: "truncated"}
REWARD_MODES = {"win_loss": core.REWARD_WIN_LOSS, "score": core.REWARD_SCORE,
                "margin": core.REWARD_MARGIN}

LAST_ACTION_NAMES = {core.NO_ACTION: None, core.PASSED: "pass"}

ILLEGAL_PROBE_EVERY = 7   # steps between two checks that an illegal action is refused by both


# -- the two views --------------------------------------------------------------------------------
def none_if_negative(x):
    return None if x < 0 else int(x)


def core_view(state):
    """The core's state in the reference's terms (the clan to act is None once the game is over)."""
    n = int(state[core.NUM_PLAYERS])
    mask = np.zeros(core.NUM_ACTIONS, dtype=np.int8)
    core.legal_action_mask(state, mask)
    status = STATUS_NAMES[int(state[core.STATUS])]
    return {
        "status": status,
        "phase": PHASE_NAMES[int(state[core.PHASE])],
        "legal": np.flatnonzero(mask).tolist(),
        "owner": [none_if_negative(x) for x in state[core.OWNER:core.OWNER + NUM_TERRITORIES]],
        "tokens": state[core.TOKENS:core.TOKENS + NUM_TERRITORIES].tolist(),
        "moai": [bool(x) for x in state[core.MOAI:core.MOAI + NUM_TERRITORIES]],
        "chief_at": [none_if_negative(x) for x in state[core.CHIEF_AT:core.CHIEF_AT + n]],
        "grounds": [none_if_negative(x) for x in state[core.GROUND:core.GROUND + NUM_GROUNDS]],
        "token_supply": state[core.TOKEN_SUPPLY:core.TOKEN_SUPPLY + n].tolist(),
        "manu_supply": state[core.MANU_SUPPLY:core.MANU_SUPPLY + n].tolist(),
        "moai_left": int(state[core.MOAI_LEFT]),
        "amulet": none_if_negative(state[core.AMULET]),
        "winner": none_if_negative(state[core.WINNER]),
        "to_act": int(state[core.TO_ACT]) if status == "running" else None,
        "turns": int(state[core.TURN]),
        "end": END_NAMES[core.end_code(state)],
        "last_action": [LAST_ACTION_NAMES.get(int(x), int(x)) for x in state[core.LAST_ACTION:core.LAST_ACTION + n]],
    }


def reference_view(game):
    status = "terminated" if game.terminated else "truncated" if game.truncated else "running"
    return {
        "status": status,
        "phase": game.phase,
        "legal": game.legal_actions(),
        "owner": list(game.owner),
        "tokens": list(game.tokens),
        "moai": list(game.moai),
        "chief_at": list(game.chief_at),
        "grounds": list(game.grounds),
        "token_supply": list(game.token_supply),
        "manu_supply": list(game.manu_supply),
        "moai_left": game.moai_left,
        "amulet": game.amulet,
        "winner": game.winner,
        "to_act": game.to_act,
        "turns": game.turns,
        "end": game.end,
        "last_action": list(game.last_action),
    }


def assert_same(state, game, where):
    """Both implementations agree on every field; returns the (common) view."""
    core_side, ref_side = core_view(state), reference_view(game)
    for field in core_side:
        assert core_side[field] == ref_side[field], (
            f"{field} differs ({where}): core {core_side[field]}, reference {ref_side[field]}")
    return ref_side


def final_results(state, game):
    """(core, reference): player scores and the rewards in every mode of a finished game."""
    n = game.num_players
    scores = np.zeros(n, dtype=np.int64)
    core.player_scores(state, scores)
    core_side = {"scores": scores.tolist()}
    ref_side = {"scores": game.player_scores()}
    for name, mode in REWARD_MODES.items():
        out = np.zeros(n, dtype=np.float64)
        core.rewards(state, mode, out)
        core_side["rewards_" + name] = out.tolist()
        ref_side["rewards_" + name] = [float(r) for r in game.rewards(name)]
    return core_side, ref_side


# -- positions ------------------------------------------------------------------------------------
def T(name):
    return TERRITORY_INDEX[name]


def ground_of(*names):
    """The Ceremonial Ground between the three named territories."""
    wanted = sorted(T(name) for name in names)
    for g, territories in enumerate(GROUND_TERRITORIES.tolist()):
        if sorted(territories) == wanted:
            return g
    raise KeyError(f"no ground between {names}")


def new_pair(num_players, max_turns, seed):
    state = np.zeros(core.STATE_SIZE, dtype=np.int64)
    core.init(state, num_players, core.VARIANT_STANDARD, max_turns, seed)
    return state, ReferenceGame(num_players, max_turns)


def crafted_pair(num_players, territories, *, to_act=0, chiefs=None, grounds=None, moai=(),
                 amulet=None, turns=None, max_turns=1000, seed=0):
    """Both implementations in the same crafted position, the clan ``to_act`` to play its Dominance
    Phase.  ``territories`` maps a territory name to (clan, tokens); ``chiefs`` a clan to the name of
    the territory its chief stands on; ``grounds`` a ground to the clan holding a ceremony there.
    Supplies are what is not on the board, so every clan still has 11 tokens and 5 Tangata Manu.
    ``turns`` must agree with ``to_act`` (clans play in turn; by default the first round), and the
    amulet goes by default to the clan Spiritual Supremacy gives it to.  The reference is set field by
    field, the core's row is read from the notation; both must then agree."""
    chiefs = chiefs or {}
    grounds = grounds or {}
    game = ReferenceGame(num_players, max_turns)
    for name, (clan, tokens) in territories.items():
        game.owner[T(name)], game.tokens[T(name)] = clan, tokens
    for name in moai:
        game.moai[T(name)] = True
    game.moai_left = 12 - len(moai)
    for clan, name in chiefs.items():
        assert game.owner[T(name)] == clan
        game.chief_at[clan] = T(name)
    for g, clan in grounds.items():
        assert game.ground_protected_for(g, clan), f"crafted ceremony on unprotected ground {g}"
        game.grounds[g] = clan
    for clan in range(num_players):
        on_board = sum(game.tokens[t] for t in range(NUM_TERRITORIES) if game.owner[t] == clan)
        game.token_supply[clan] = TOKENS_PER_CLAN - on_board
        game.manu_supply[clan] = TANGATA_MANU_PER_CLAN - sum(1 for holder in game.grounds if holder == clan)
    if amulet is None:
        counts = [game.sacred_count(c) for c in range(num_players)]
        leaders = [c for c in range(num_players) if counts[c] == max(counts)]
        amulet = leaders[0] if max(counts) >= 3 and len(leaders) == 1 else None
    game.amulet = amulet
    game.to_act = to_act
    game.turns = to_act if turns is None else turns
    # the core's row, written in the notation (RULES.md, Notation), which checks it like every row
    clan_name = ("Red", "Blue", "Green", "Yellow")
    state = makemake_env.from_text("\n".join([
        "game: Make Make", f"players: {num_players}", f"max_turns: {max_turns}", f"seed: {seed}",
        f"to_act: {clan_name[to_act]}", f"turn: {game.turns}",
        "territories: " + (", ".join(f"{name} {clan_name[clan]} {tokens}" + (" chief" if chiefs.get(clan) == name else "")
                                     for name, (clan, tokens) in territories.items()) or "none"),
        "moai: " + (", ".join(moai) or "none"),
        "ceremonies: " + (", ".join(f"{GROUND_NAMES[g]} {clan_name[c]}" for g, c in grounds.items()) or "none"),
        "amulet: " + ("none" if amulet is None else clan_name[amulet])]))
    assert_same(state, game, "crafted position")
    return state, game


# -- events ---------------------------------------------------------------------------------------
def record_events(events, before, game, action):
    """Count the rare things that happened in one step (``before`` is the reference's view before)."""
    actor = before["to_act"]
    chosen_moai = 1 if MOAI_BASE <= action < CEREMONY_BASE else 0
    events["Moai chosen among several"] += chosen_moai
    events["Moai built without asking"] += before["moai_left"] - game.moai_left - chosen_moai
    events["ceremony chosen with too few Tangata Manu"] += action >= CEREMONY_BASE
    events["Moai choice asked"] += game.phase == "moai"
    events["ceremony choice asked"] += game.phase == "ceremony"
    if WITHDRAW_BASE <= action < MOAI_BASE:
        events["withdrawals"] += 1
    if game.amulet != before["amulet"]:
        if before["amulet"] is None:
            events["amulet taken first"] += 1
        else:
            events["amulet changed hands"] += 1
            if game.amulet != actor:
                events["amulet passed to a third clan"] += 1
    for clan, manu in enumerate(before["manu_supply"]):
        if game.manu_supply[clan] > manu and action < WITHDRAW_BASE:
            events["ceremonies ended by an attack"] += 1
    if game.turns - before["turns"] > 1 and not game.truncated:
        events["turns passed automatically"] += game.turns - before["turns"] - 1
    if game.winner is not None:
        events["wins"] += 1
        if game.winner != actor:
            events["wins on another clan's move"] += 1
    if game.terminated and game.winner is None:
        events["stalemates"] += 1
        if any(game.manu_supply[c] == 0 and game.free_grounds_for(c) for c in range(game.num_players)):
            events["stalemates with a free ground but no Tangata Manu"] += 1
    if game.truncated:
        events["truncated"] += 1


# -- playing --------------------------------------------------------------------------------------
def random_move(state, game, rng, legal):
    return int(core.random_action(state))


def builder_move(state, game, rng, legal):
    """Mostly try to surround one Inner territory (the one closest to being surrounded), with the chief
    on it, so that Moai get built; otherwise a random move from the core's generator."""
    if game.phase != "dominance" or rng.random() < 0.2:
        return int(core.random_action(state))
    clan = game.to_act
    legal = set(legal)

    def mine(t):
        return game.counts_as_clans(t, clan)

    sites = [t for t in MOAI_SITES.tolist() if not game.moai[t]]
    if sites:
        target = max(sites, key=lambda t: (sum(mine(u) for u in [t] + neighbours(t)), -t))
        wanted = [u for u in [target] + neighbours(target) if not mine(u)]
        chief = 1 if game.chief_at[clan] is None else 0
        for u in sorted(wanted, key=lambda u: u != target):
            for k in range(1, game.token_supply[clan] + 1):
                for with_chief in ((chief, 0) if u == target else (0, chief)):
                    a = place_action(u, k, with_chief)
                    if a in legal:
                        return a
        # Short of tokens: take some back from territories that do not help.
        helpful = set([target] + neighbours(target))
        for t in range(NUM_TERRITORIES):
            if WITHDRAW_BASE + t in legal and t not in helpful:
                return WITHDRAW_BASE + t
    return int(core.random_action(state))


def pair_builder_move(state, game, rng, legal):
    """Try to surround two neighbouring Inner territories at once: own both and all their neighbours
    but one common neighbour, then take that one with the chief, so that both Moai become possible on
    the same move (a Moai choice); otherwise a random move from the core's generator."""
    if game.phase != "dominance" or rng.random() < 0.1:
        return int(core.random_action(state))
    clan = game.to_act
    legal = set(legal)

    def mine(t):
        return game.counts_as_clans(t, clan)

    sites = [t for t in MOAI_SITES.tolist() if not game.moai[t]]
    pairs = [(a, b) for a in sites for b in neighbours(a) if b in sites and a < b]
    if not pairs:
        return int(core.random_action(state))

    def area(pair):
        a, b = pair
        return set([a, b] + neighbours(a) + neighbours(b))

    a, b = max(pairs, key=lambda pair: (sum(mine(u) for u in area(pair)), -pair[0], -pair[1]))
    union = area((a, b))
    common = sorted(u for u in set(neighbours(a)) & set(neighbours(b)) if not mine(u))
    last = common[0] if common else None
    wanted = sorted(u for u in union if not mine(u) and u != last)
    for u in wanted:
        for k in range(1, game.token_supply[clan] + 1):
            if place_action(u, k, 0) in legal:
                return place_action(u, k, 0)
    if not wanted and last is not None:
        if game.chief_at[clan] is None:
            for k in range(1, game.token_supply[clan] + 1):
                if place_action(last, k, 1) in legal:
                    return place_action(last, k, 1)
        elif WITHDRAW_BASE + game.chief_at[clan] in legal:
            return WITHDRAW_BASE + game.chief_at[clan]   # fetch the chief back for the last move
    for t in range(NUM_TERRITORIES):
        if WITHDRAW_BASE + t in legal and (t not in union or t == game.chief_at[clan]):
            return WITHDRAW_BASE + t
    return int(core.random_action(state))


def neighbours(t):
    return [int(u) for u in NEIGHBOURS[t] if u >= 0]


def play_and_compare(state, game, where, events, policy=random_move, seed=0, max_steps=100_000):
    """Play on from the given (equal) positions through both implementations, asserting agreement
    after every step, and at the end on scores and rewards.  Returns the number of steps."""
    rng = random.Random(seed)
    before = assert_same(state, game, f"{where}, start")
    steps = 0
    while game.phase != "over" and steps < max_steps:
        here = f"{where}, after {steps} steps"
        legal = before["legal"]
        if steps % ILLEGAL_PROBE_EVERY == 0:
            legal_set = set(legal)
            bad = rng.choice([a for a in range(NUM_ACTIONS) if a not in legal_set])
            assert core.step(state, bad) == core.STEP_ILLEGAL, f"core accepted illegal {bad} ({here})"
            with pytest.raises(ValueError):
                game.step(bad)
        action = policy(state, game, rng, legal)
        assert action in legal, f"policy chose illegal {action} ({here})"
        assert core.step(state, action) == core.STEP_OK, f"core refused legal {action} ({here})"
        game.step(action)
        steps += 1
        record_events(events, before, game, action)
        here = f"{where}, after {steps} steps (last action {action})"
        before = assert_same(state, game, here)
    if game.phase == "over":
        core_side, ref_side = final_results(state, game)
        assert core_side == ref_side, f"final results differ ({where}): core {core_side}, " \
                                      f"reference {ref_side}"
        assert core.step(state, 0) == core.STEP_GAME_OVER
        with pytest.raises(ValueError):
            game.step(0)
        events["games finished"] += 1
    return steps


# -- random games ---------------------------------------------------------------------------------
RANDOM_GAMES = {2: 400, 3: 350, 4: 250}


@pytest.mark.parametrize("num_players", sorted(RANDOM_GAMES))
def test_core_matches_reference_on_random_games(num_players):
    """Seeded random games (moves from ``core.random_action``): both agree after every step.  Every
    tenth game has a max_turns of 1-8 (truncation); 4-clan games otherwise have 150-300."""
    events = collections.Counter()
    for i in range(RANDOM_GAMES[num_players]):
        seed = 1_000 * num_players + i
        if i % 10 == 9:
            max_turns = 1 + i % 8
        elif num_players == 4:
            max_turns = 150 + (i * 37) % 151
        else:
            max_turns = 1000
        state, game = new_pair(num_players, max_turns, seed)
        play_and_compare(state, game, f"{num_players} clans, max_turns={max_turns}, seed={seed}",
                         events, seed=seed)
    print(num_players, dict(events))
    assert events["games finished"] >= RANDOM_GAMES[num_players] * 0.9, events
    expected = ["truncated", "amulet taken first", "amulet changed hands", "withdrawals",
                "ceremonies ended by an attack"]
    if num_players == 4:
        expected += ["amulet passed to a third clan", "wins"]
    for event in expected:
        assert events[event] > 0, f"no random game with '{event}': {events}"
    if num_players < 4:
        # With few clans the tokens run out: whole rounds of automatic passes, then a stalemate.
        for event in ["stalemates", "turns passed automatically",
                      "stalemates with a free ground but no Tangata Manu"]:
            assert events[event] > 0, f"no random game with '{event}': {events}"


# -- builder games --------------------------------------------------------------------------------
BUILDER_GAMES = {2: 60, 3: 60, 4: 60}


def mixed_builders(state, game, rng, legal):
    """Even clans surround one Inner territory at a time, odd clans two at once."""
    if game.to_act % 2 == 0:
        return builder_move(state, game, rng, legal)
    return pair_builder_move(state, game, rng, legal)


@pytest.mark.parametrize("num_players", sorted(BUILDER_GAMES))
def test_core_matches_reference_on_builder_games(num_players):
    """Games where the clans try to surround Inner territories (one at a time, two at once, or mixed):
    Moai are built without asking and after a choice, Tangata Manu run short, games are won; both
    agree after every step."""
    events = collections.Counter()
    policies = (builder_move, pair_builder_move, mixed_builders)
    for i in range(BUILDER_GAMES[num_players]):
        seed = 50_000 + 1_000 * num_players + i
        policy = policies[i % 3]
        state, game = new_pair(num_players, 200, seed)
        play_and_compare(state, game, f"{policy.__name__} game, {num_players} clans, seed={seed}",
                         events, policy=policy, seed=seed)
    print(num_players, dict(events))
    for event in ["Moai built without asking", "Moai chosen among several",
                  "ceremony chosen with too few Tangata Manu", "wins", "ceremonies ended by an attack"]:
        assert events[event] > 0, f"no builder game with '{event}': {events}"


# -- crafted positions ----------------------------------------------------------------------------
def scripted(*actions):
    """A policy that plays the given actions first, then random moves from the core's generator."""
    queue = list(actions)

    def policy(state, game, rng, legal):
        if queue:
            return queue.pop(0)
        return int(core.random_action(state))
    return policy


def after_moves(state, game, actions, where, events):
    """Play ``actions`` through both (asserting agreement after each); return the reference."""
    play_and_compare(state, game, where, events, policy=scripted(*actions), max_steps=len(actions))
    return game


def finish_randomly(state, game, where, events, seed=0):
    play_and_compare(state, game, where + ", played on at random", events, seed=seed)


def surrounded_inner_3(amulet=None):
    """Red (clan 0) holds Inner-3 with its chief and five of its six neighbours; Inner-2 is empty.
    Red's Tangata Manu hold every ground between its territories."""
    territories = {name: (0, 1) for name in ("Inner-3", "Coast-3", "Coast-4", "Coast-5", "Inner-4",
                                              "Sacred-2")}
    territories.update({"Coast-12": (1, 2), "Coast-15": (2, 1)})
    grounds = {ground_of("Coast-3", "Coast-4", "Inner-3"): 0,
               ground_of("Coast-4", "Coast-5", "Inner-3"): 0,
               ground_of("Coast-5", "Inner-4", "Inner-3"): 0,
               ground_of("Inner-3", "Inner-4", "Sacred-2"): 0}
    return crafted_pair(3, territories, chiefs={0: "Inner-3"}, grounds=grounds, amulet=amulet)


def test_single_moai_is_built_without_asking_then_ceremony_choice():
    """[Ceremonial Phase a, b] Taking Inner-2 surrounds Inner-3: its Moai is built without a choice
    (the pieces there, chief included, go back); Inner-3 now counts as Red's, so two grounds are free
    for one Tangata Manu: Red chooses.  Both implementations agree throughout, whichever it picks."""
    for pick in range(2):
        events = collections.Counter()
        state, game = surrounded_inner_3()
        after_moves(state, game, [place_action(T("Inner-2"), 1, 0)], "single Moai", events)
        assert game.moai[T("Inner-3")] and game.owner[T("Inner-3")] is None
        assert game.chief_at[0] is None and game.moai_left == 11 and game.token_supply[0] == 5
        assert game.phase == "ceremony" and game.to_act == 0
        free = sorted([ground_of("Coast-3", "Inner-2", "Inner-3"),
                       ground_of("Inner-2", "Inner-3", "Sacred-2")])
        assert game.legal_actions() == [CEREMONY_BASE + g for g in free]
        assert events["Moai built without asking"] == 1 and events["ceremony choice asked"] == 1
        after_moves(state, game, [CEREMONY_BASE + free[pick]], "ceremony choice", events)
        assert game.grounds[free[pick]] == 0 and game.grounds[free[1 - pick]] is None
        assert game.manu_supply[0] == 0 and game.phase == "dominance" and game.to_act == 1
        assert game.winner is None
        finish_randomly(state, game, "single Moai", events, seed=pick)


def test_ceremony_choice_wins_for_the_amulet_holder():
    """[End of the Game] Red holds the amulet: its fifth Tangata Manu, placed by choice, wins."""
    events = collections.Counter()
    state, game = surrounded_inner_3(amulet=0)
    after_moves(state, game, [place_action(T("Inner-2"), 1, 0)], "amulet holder", events)
    g = ground_of("Coast-3", "Inner-2", "Inner-3")
    after_moves(state, game, [CEREMONY_BASE + g], "amulet holder", events)
    assert game.terminated and game.winner == 0 and game.phase == "over" and game.to_act is None
    assert game.player_scores() == [6, 0, 0]
    assert game.rewards("win_loss") == [1.0, -1.0, -1.0]
    assert game.rewards("margin") == [6.0, -6.0, -6.0]
    assert events["wins"] == 1


def two_moai_at_once():
    """Red (clan 0) holds Inner-3, Inner-4 and all their neighbours but Sacred-2 (1 token each), its
    chief and 2 tokens in supply; its five Tangata Manu hold grounds around them."""
    names = ("Inner-3", "Inner-4", "Coast-3", "Coast-4", "Coast-5", "Coast-6", "Inner-2", "Inner-5",
             "Sacred-3")
    territories = {name: (0, 1) for name in names}
    territories["Coast-12"] = (1, 3)
    grounds = {ground_of(*ts): 0 for ts in (("Coast-3", "Coast-4", "Inner-3"),
                                            ("Coast-4", "Coast-5", "Inner-3"),
                                            ("Coast-5", "Inner-3", "Inner-4"),
                                            ("Coast-5", "Coast-6", "Inner-4"),
                                            ("Coast-6", "Inner-4", "Inner-5"))}
    return crafted_pair(2, territories, grounds=grounds)


@pytest.mark.parametrize("first", ["Inner-3", "Inner-4"])
def test_two_moai_possible_at_once_the_clan_chooses_the_order(first):
    """[Ceremonial Phase a] "several Moai can be built simultaneously. You must build them in the
    order you wish": Red takes Sacred-2 with its chief, which surrounds Inner-3 and Inner-4 at once.
    Red is asked which first; after it, the conditions are checked again and the other is built
    without asking (the chief on Sacred-2 is next to both)."""
    events = collections.Counter()
    state, game = two_moai_at_once()
    after_moves(state, game, [place_action(T("Sacred-2"), 1, 1)], "two Moai", events)
    assert game.phase == "moai" and game.to_act == 0
    assert game.legal_actions() == [MOAI_BASE + T("Inner-3"), MOAI_BASE + T("Inner-4")]
    after_moves(state, game, [MOAI_BASE + T(first)], "two Moai", events)
    assert game.moai[T("Inner-3")] and game.moai[T("Inner-4")] and game.moai_left == 10
    assert game.chief_at[0] == T("Sacred-2") and game.token_supply[0] == 1 + 2
    assert game.phase == "dominance" and game.to_act == 1
    assert events["Moai chosen among several"] == 1 and events["Moai built without asking"] == 1
    finish_randomly(state, game, "two Moai", events, seed=1)


def test_moai_made_possible_by_a_chosen_ceremony_waits_for_a_later_turn():
    """[Ceremonial Phase] "You must perform these two actions in the following order": a then b.
    Red surrounds Inner-3 (its chief there) but has no Tangata Manu near it, so no Moai; six grounds
    are free for five Tangata Manu and Red chooses.  The first ceremony makes the Moai possible, but
    part a is over for this turn: the Moai is built in Red's next Ceremonial Phase."""
    events = collections.Counter()
    territories = {name: (0, 1) for name in ("Inner-3", "Coast-3", "Coast-4", "Coast-5", "Inner-4",
                                              "Sacred-2")}
    territories["Coast-15"] = (1, 1)
    state, game = crafted_pair(2, territories, chiefs={0: "Inner-3"})
    after_moves(state, game, [place_action(T("Inner-2"), 1, 0)], "Moai waits", events)
    assert game.phase == "ceremony" and len(game.legal_actions()) == 6 and game.manu_supply[0] == 5
    while game.phase == "ceremony":
        after_moves(state, game, [game.legal_actions()[0]], "Moai waits", events)
        assert game.moai_sites_for(0) == [T("Inner-3")]
    assert not game.moai[T("Inner-3")] and game.manu_supply[0] == 0 and game.to_act == 1
    after_moves(state, game, [place_action(T("Coast-12"), 1, 0), place_action(T("Coast-8"), 1, 0)],
                "Moai waits", events)
    assert game.moai[T("Inner-3")] and game.to_act == 1
    assert events["ceremony chosen with too few Tangata Manu"] == 5
    assert events["Moai built without asking"] == 1
    finish_randomly(state, game, "Moai waits", events, seed=5)


def three_clans_on_the_sacred_ring(green_manu=5):
    """4 clans.  Red (0) holds Sacred-1..3; Green (2) holds Sacred-4..6 and Inner-7..10 with
    ``green_manu`` Tangata Manu in ceremonies there; Blue (1) kept the amulet from earlier."""
    territories = {name: (0, 1) for name in ("Sacred-1", "Sacred-2", "Sacred-3")}
    territories.update({name: (2, 1) for name in ("Sacred-4", "Sacred-5", "Sacred-6", "Inner-7",
                                                  "Inner-8", "Inner-9", "Inner-10")})
    territories.update({"Coast-1": (1, 2), "Coast-7": (3, 1)})
    green = (("Sacred-4", "Inner-7", "Inner-8"), ("Sacred-4", "Sacred-5", "Inner-8"),
             ("Sacred-5", "Inner-8", "Inner-9"), ("Sacred-5", "Inner-9", "Inner-10"),
             ("Sacred-5", "Sacred-6", "Inner-10"))
    grounds = {ground_of(*ts): 2 for ts in green[:green_manu]}
    return crafted_pair(4, territories, to_act=3, grounds=grounds, amulet=1)


def test_attack_hands_the_amulet_to_a_third_clan_who_wins():
    """[Spiritual Supremacy, End of the Game] Yellow (3) takes Sacred-1 from Red: now Green alone has
    3 Sacred Territories and takes the amulet from Blue; with its 5 Tangata Manu on the board, Green
    wins at once, on Yellow's move."""
    events = collections.Counter()
    state, game = three_clans_on_the_sacred_ring()
    after_moves(state, game, [place_action(T("Sacred-1"), 2, 0)], "third clan wins", events)
    assert game.amulet == 2 and game.winner == 2 and game.terminated
    assert game.rewards("win_loss") == [-1.0, -1.0, 1.0, -1.0]
    assert game.rewards("score") == [0.0, 0.0, 6.0, 0.0]
    assert events["amulet passed to a third clan"] == 1 and events["wins on another clan's move"] == 1


def test_attack_hands_the_amulet_to_a_third_clan():
    """[Spiritual Supremacy] As above, with one Green Tangata Manu still in supply: the amulet moves
    from Blue to Green, and the game goes on with Red's turn."""
    events = collections.Counter()
    state, game = three_clans_on_the_sacred_ring(green_manu=4)
    after_moves(state, game, [place_action(T("Sacred-1"), 2, 0)], "third clan", events)
    assert game.amulet == 2 and game.winner is None and game.to_act == 0
    assert events["amulet passed to a third clan"] == 1
    finish_randomly(state, game, "third clan", events, seed=3)


def test_attack_ends_the_ceremonies_it_unprotects():
    """[Dominance Phase b, Tangata Manu Ceremonies] Yellow takes Inner-8 from Green: the three
    ceremonies at its corners end and their Tangata Manu go back to Green's supply."""
    events = collections.Counter()
    state, game = three_clans_on_the_sacred_ring()
    after_moves(state, game, [place_action(T("Inner-8"), 2, 0)], "ceremonies end", events)
    ended = [ground_of(*ts) for ts in (("Sacred-4", "Inner-7", "Inner-8"),
                                       ("Sacred-4", "Sacred-5", "Inner-8"),
                                       ("Sacred-5", "Inner-8", "Inner-9"))]
    assert all(game.grounds[g] is None for g in ended) and game.manu_supply[2] == 3
    assert events["ceremonies ended by an attack"] == 1
    finish_randomly(state, game, "ceremonies end", events, seed=4)


def test_fifth_tangata_manu_placed_without_asking_wins():
    """[End of the Game] Red holds the amulet and 4 Tangata Manu in ceremonies; taking Inner-5
    protects exactly one more ground, which gets the fifth without asking: Red wins on its move."""
    events = collections.Counter()
    territories = {name: (0, 1) for name in ("Sacred-1", "Sacred-2", "Sacred-3", "Inner-2",
                                              "Inner-3", "Inner-4")}
    territories.update({"Coast-10": (1, 1), "Coast-14": (2, 3)})
    grounds = {ground_of(*ts): 0 for ts in (("Inner-2", "Sacred-1", "Sacred-2"),
                                            ("Inner-2", "Inner-3", "Sacred-2"),
                                            ("Inner-3", "Inner-4", "Sacred-2"),
                                            ("Inner-4", "Sacred-2", "Sacred-3"))}
    state, game = crafted_pair(3, territories, grounds=grounds, amulet=0)
    after_moves(state, game, [place_action(T("Inner-5"), 1, 0)], "fifth Tangata Manu", events)
    assert game.grounds[ground_of("Inner-4", "Inner-5", "Sacred-3")] == 0
    assert game.winner == 0 and game.terminated and game.turns == 0
    assert events["wins"] == 1


def stuck_clans(red_manu_grounds, red_extra):
    """2 clans whose every token is on the board, one per territory, chiefs in supply: after Blue
    places its last token neither has a dominance action.  Red (0) holds a cluster around Inner-1 and
    Inner-12 plus ``red_extra``; Blue (1) holds Sacred-2..4, Coast-3 and Coast-11..16 and the amulet."""
    red = ["Inner-1", "Coast-1", "Coast-2", "Coast-18", "Inner-12", "Coast-17", "Sacred-1"]
    red += list(red_extra)
    blue = ["Sacred-2", "Sacred-3", "Sacred-4", "Coast-3", "Coast-11", "Coast-12", "Coast-13",
            "Coast-14", "Coast-15", "Coast-16"]
    territories = {name: (0, 1) for name in red}
    territories.update({name: (1, 1) for name in blue})
    grounds = {ground_of(*ts): 0 for ts in red_manu_grounds}
    return crafted_pair(2, territories, to_act=1, grounds=grounds, amulet=1, turns=11, max_turns=60)


RED_CLUSTER_GROUNDS = (("Coast-1", "Coast-2", "Inner-1"), ("Coast-1", "Coast-18", "Inner-1"),
                       ("Coast-18", "Inner-1", "Inner-12"), ("Coast-17", "Coast-18", "Inner-12"),
                       ("Inner-1", "Inner-12", "Sacred-1"))


def test_stalemate_when_nobody_can_act():
    """[RULES.md, End of the Game: stalemate] Blue places its last token; then Red and Blue have no
    dominance action and nothing to build or celebrate: after one automatic pass each way the game
    ends, terminated with no winner."""
    events = collections.Counter()
    state, game = stuck_clans(RED_CLUSTER_GROUNDS, ["Coast-4", "Coast-6", "Coast-8", "Coast-10"])
    after_moves(state, game, [place_action(T("Coast-5"), 1, 0)], "stalemate", events)
    assert game.terminated and game.winner is None and game.phase == "over"
    assert game.turns == 13  # Blue's turn and Red's pass; Blue's second pass ends the game
    assert game.rewards("win_loss") == [0.0, 0.0]
    assert game.rewards("score") == [5.0, 1.0] and game.rewards("margin") == [4.0, -4.0]
    assert events["stalemates"] == 1


def test_stalemate_after_a_pass_that_still_celebrates():
    """[Ceremonial Phase b, RULES.md] Red cannot act in its Dominance Phase but its pass still runs
    the Ceremonial Phase: two free grounds, two Tangata Manu, both placed without asking.  That resets
    the count of idle clans, so the stalemate comes one pass later."""
    events = collections.Counter()
    state, game = stuck_clans(RED_CLUSTER_GROUNDS[:3], ["Coast-4", "Coast-6", "Coast-8", "Coast-10"])
    after_moves(state, game, [place_action(T("Coast-5"), 1, 0)], "pass with ceremonies", events)
    assert game.manu_supply[0] == 0 and all(game.grounds[ground_of(*ts)] == 0
                                            for ts in RED_CLUSTER_GROUNDS)
    assert game.terminated and game.winner is None and game.turns == 14
    assert events["stalemates"] == 1 and events["turns passed automatically"] == 2


def test_stalemate_when_a_clan_has_no_tangata_manu_left():
    """[RULES.md, End of the Game: stalemate] As ``test_stalemate_when_nobody_can_act``, but Red holds
    Sacred-6 too, so one more ground (Inner-12, Sacred-1, Sacred-6) is free and protected for Red, and
    all five of its Tangata Manu are already on the board.  Red has nothing it can celebrate ("while
    any remain in supply"), nothing can change any more: a stalemate, exactly as before.  (The core
    once counted Red as not idle, and the passes went round until ``max_turns`` truncated the game.)"""
    events = collections.Counter()
    state, game = stuck_clans(RED_CLUSTER_GROUNDS, ["Sacred-6", "Coast-4", "Coast-6", "Coast-8"])
    action = place_action(T("Coast-5"), 1, 0)
    assert core.step(state, action) == core.STEP_OK
    game.step(action)
    assert game.manu_supply[0] == 0 and game.free_grounds_for(0) == [
        ground_of("Inner-12", "Sacred-1", "Sacred-6")]
    assert game.terminated and game.winner is None and game.turns == 13
    assert_same(state, game, "stalemate with no Tangata Manu left")


def test_moai_needs_a_tangata_manu_on_a_ground_near_the_territory():
    """[Ceremonial Phase a] "if the clan's Chief and at least one Tangata Manu is in any of these
    territories or Ceremonial Grounds": for every Moai site T and every ground, Red holds T (with its
    chief) and all but one neighbour, its only Tangata Manu on that ground (and the territories
    protecting it); Red then takes the last neighbour.  The Moai is built exactly when the ground is
    at a corner of T or of a neighbour; both implementations agree in every case.  (The core once
    disagreed in 78 of these positions, its bit set of near grounds being scrambled by carries.)"""
    events = collections.Counter()
    disagreements = []
    checked = 0
    for t in MOAI_SITES.tolist():
        area = [t] + neighbours(t)
        near = {g for u in area for g in TERRITORY_GROUNDS[u].tolist() if g >= 0}
        for g in range(NUM_GROUNDS):
            ground = set(GROUND_TERRITORIES[g].tolist())
            last = next((u for u in neighbours(t) if u not in ground), None)
            if t in ground or last is None:
                continue
            owned = (set(area) | ground) - {last}
            if len(owned) > TOKENS_PER_CLAN - 1:
                continue
            state, game = crafted_pair(2, {TERRITORY_NAMES[u]: (0, 1) for u in owned},
                                       chiefs={0: TERRITORY_NAMES[t]}, grounds={g: 0}, seed=g)
            action = place_action(last, 1, 0)
            assert core.step(state, action) == core.STEP_OK
            game.step(action)
            checked += 1
            assert game.moai[t] == (g in near), (t, g)
            events["Moai built without asking"] += game.moai[t]
            core_side, ref_side = core_view(state), reference_view(game)
            if core_side != ref_side:
                disagreements.append((TERRITORY_NAMES[t], GROUND_NAMES[g], "Moai built: core "
                                      f"{core_side['moai'][t]}, reference {ref_side['moai'][t]}"))
    assert checked > 400 and events["Moai built without asking"] > 100
    assert not disagreements, f"{len(disagreements)} of {checked} positions differ, e.g. " \
                              f"{disagreements[:5]}"


def test_illegal_actions_and_finished_games_are_refused_alike():
    """Out-of-range actions, Moai and ceremony actions in the Dominance Phase, a withdrawal from a
    territory not one's own, and any action after the end are refused by both (the reference raises
    ValueError)."""
    state, game = new_pair(3, 5, 7)
    for action in (-1, NUM_ACTIONS, MOAI_BASE, CEREMONY_BASE, WITHDRAW_BASE):
        assert core.step(state, action) == core.STEP_ILLEGAL
        with pytest.raises(ValueError):
            game.step(action)
    assert_same(state, game, "after illegal actions")
    play_and_compare(state, game, "short game", collections.Counter(), seed=7)
    assert game.truncated and core.step(state, 0) == core.STEP_GAME_OVER
    with pytest.raises(ValueError, match="over"):
        game.step(0)
