"""Mauna Kea: games that could never end.  RULINGS.md, Mauna Kea, "Settled end" (and RULES.md, End of the
game, "Settled end" and "Settled end with cards"): as soon as no explorer still on the island can ever
reach a boat, or every player keeps an explorer that can never leave the island while no lava can fall
any more, the end is triggered as if the last explorer had left the island.

Positions are crafted with ``maunakea_positions``.  A "pocket" is an explorer on A5 (west edge) or
I5 (east edge), laid with jungle, with lava on the fields north and south of it: its only way out is
the field towards the middle (B5 or H5), open while that field is empty.
"""
import numpy as np
import pytest

from maunakea_env import core
from maunakea_env.board import ACTION_EARTHQUAKE, ACTION_HELICOPTER, ACTION_MOUNTAIN, BOAT_NAMES
from pacific_common.rng import draw

from maunakea_positions import (
    END_TURN, LEFT_BEND, NORTH_FLOW, SOUTH_FLOW, STRAIGHT, WEST_FLOW, act, bag_tile, board, boat_to_landing, commit,
    entry_squares, field, field_terrain, give_artifacts, give_boat, hand, lava_tile, lay, lay_lava,
    lay_terrain, lose_explorer, only_in_bag, pass_turn, put_explorer, rewrite, running, set_hand, spend,
    square, started_game, to_act,
)
from test_maunakea_advanced import advanced_game, give_cards

POCKETS = {"west": ("A5", "A4", "A6", "B5", NORTH_FLOW), "east": ("I5", "I4", "I6", "H5", SOUTH_FLOW)}


def craft(num_players=2, seed=0, **options):
    env = started_game(num_players, seed, **options)
    s = env.state()
    for p in range(num_players):
        set_hand(s, p, [])
    return env, s


def pocket(s, player, e, side, door=None):
    """Explorer ``e`` of ``player`` into the pocket on ``side``; ``door``: the terrain laid on its way
    out ("MM/MM" closes it, "lava" covers it), or None to leave that field empty."""
    home, north, south, way_out, flow = POCKETS[side]
    lay_terrain(s, home, "JJ/JJ")
    put_explorer(s, player, e, f"{home}-nw")
    lay_lava(s, north, lava_tile(flow, STRAIGHT, 0))
    lay_lava(s, south, lava_tile(flow, STRAIGHT, 1))
    if door == "lava":
        lay_lava(s, way_out, lava_tile(flow, STRAIGHT, 2))
    elif door is not None:
        lay_terrain(s, way_out, door)


def keep_on_island(s, player, explorers):
    for e in range(s[core.EXPLORERS_EACH]):
        if e not in explorers:
            lose_explorer(s, player, e)


def no_lava_left(s):
    only_in_bag(s, [t for t in range(core.NUM_ISLAND_TILES)
                    if s[core.TILE_WHERE + t] == core.IN_BAG and t < core.FIRST_LAVA_TILE])


def pockets(s, keep0=(0,), keep1=(0,)):
    """Explorer 0 of player_0 walled in behind mountains (the east pocket), explorer 0 of player_1
    behind lava (the west pocket); of their other explorers only those in ``keep0`` / ``keep1`` stay
    on the island, where ``started_game`` put them (free to reach a boat)."""
    pocket(s, 0, 0, "east", door="MM/MM")
    pocket(s, 1, 0, "west", door="lava")
    keep_on_island(s, 0, list(keep0))
    keep_on_island(s, 1, list(keep1))


def walled_in(s, lava_in_bag=False):
    """Each player keeps an explorer walled in (player_0's behind mountains, player_1's behind lava)
    and another that can still board; no lava is left in the bag unless ``lava_in_bag`` (one tile of
    the north flow, whose branch is open)."""
    pockets(s, keep0=(0, 1), keep1=(0, 1))
    no_lava_left(s)
    if lava_in_bag:
        s[core.TILE_WHERE + lava_tile(NORTH_FLOW, LEFT_BEND)] = core.IN_BAG


def end(env):
    st = env.state()
    return core.END_REASON_NAMES[st[core.END_REASON]] if st[core.END_TRIGGERED] else None


def test_settled_end_explorers_walled_in_by_lava_end_the_game_like_the_last_explorer_leaving():
    """RULINGS.md "Settled end": player_0's explorer is walled in (lava north and south, mountains on
    its way out); player_1's has one way out, an empty field, which counts as jungle: not settled, and
    a tile laid elsewhere changes nothing.  When player_1 lays a massif there, no explorer can ever
    reach a boat: the end is triggered.  He finishes his turn without drawing, player_0 has one more
    turn, then scoring: no points, and the tie goes to the explorer carrying an artifact [Resolving
    ties]."""
    env, s = craft(2)
    pocket(s, 0, 0, "east", door="MM/MM")
    pocket(s, 1, 0, "west")
    keep_on_island(s, 0, [0])
    keep_on_island(s, 1, [0])
    give_artifacts(s, 0, 0, white=1)
    set_hand(s, 1, ["jungle", "massif", "lake"])
    set_hand(s, 0, ["jungle", "lagoon"])
    commit(env, s, player=1, pool=0)
    assert not core.settled(env.state())
    act(env, lay(0, "E2"))                          # elsewhere: the empty B5 still leads out
    assert end(env) is None
    act(env, lay(0, "B5"))                          # the massif closes the last way out
    assert end(env) == "settled" and running(env) and to_act(env) == 1
    assert core.settled(env.state())
    rng = env.state()[core.RNG]
    act(env, spend(0))
    act(env, END_TURN)
    assert to_act(env) == 0 and env.state()[core.RNG] == rng   # no draw after the trigger
    pass_turn(env)                                  # player_0's one more turn
    assert not running(env) and all(env.terminations.values())
    assert env.scores() == {"player_0": 0, "player_1": 0}
    assert {a: env.rewards[a] for a in env.agents} == {"player_0": 1, "player_1": -1}
    assert env.infos["player_0"]["end"] == "settled" and env.infos["player_0"]["end_trigger"] == "settled"


def test_settled_end_the_last_boat_taken_settles_the_island():
    """RULINGS.md "Settled end": "ever" needs a boat still waiting at some landing.  Seven boats are
    taken; player_1 boards the last one with one explorer and keeps another on the island, player_0
    keeps one: nobody has left the island, but no boat is left, so the end is triggered."""
    env, s = craft(2)
    last = boat_to_landing(s, "green boat (2 places) #1", "B1-C1")
    others = [name for name in BOAT_NAMES if name != "green boat (2 places) #1"]
    for e, name in zip((0, 1, 2, 3), others[:4]):
        give_boat(s, 0, e, name)
    for e, name in zip((2, 3, 4), others[4:]):
        give_boat(s, 1, e, name)
    lay_terrain(s, "B1", "JJ/JJ")
    put_explorer(s, 1, 0, entry_squares("B1-C1")[0])
    commit(env, s, player=1, pool=1)
    assert not core.settled(env.state())
    act(env, board(0, "B1-C1"))
    assert env.state()[core.BOAT_OWNER + last] == 1
    assert end(env) == "settled" and to_act(env) == 1
    act(env, END_TURN)
    pass_turn(env)
    assert not running(env)
    assert env.infos["player_1"]["end"] == "settled" and env.infos["player_1"]["end_trigger"] == "settled"


def test_settled_end_explorers_are_no_walls():
    """RULINGS.md "Settled end" / RULES.md: explorers move on, so a square counts whoever stands on it.
    player_1's explorer in the west pocket can leave only across B5-nw, where player_0's explorer
    stands (B5's other square towards the pocket is mountain); player_0 also keeps an explorer walled
    in, and no lava is left.  Counting explorers as walls would end the game ("walled in"): it does
    not, until B5 is mountain instead."""
    def position(door, blocker):
        env, s = craft(2)
        pocket(s, 0, 0, "east", door="MM/MM")
        pocket(s, 1, 0, "west", door=door)
        if blocker:
            put_explorer(s, 0, 1, "B5-nw")
        keep_on_island(s, 0, [0, 1])
        keep_on_island(s, 1, [0])
        no_lava_left(s)
        set_hand(s, 1, ["jungle", "jungle"])
        commit(env, s, player=1, pool=0)
        act(env, lay(0, "E2"))                      # any change of the island checks the end
        return env

    env = position("JJ/MM", blocker=True)
    assert end(env) is None and not core.settled(env.state())
    env = position("MM/MM", blocker=False)
    assert end(env) == "walled in"


def test_walled_in_every_player_keeps_an_explorer_that_can_never_leave_once_no_lava_can_fall():
    """RULES.md "Settled end", decision: each player has an explorer walled in and another that can
    still board.  While lava is left in the bag (its flow open) a lava tile could still take the
    walled-in explorers, so the game goes on; once none can fall (the last lava tile is placed, or
    the flows of those left are closed), nobody can ever be left without an explorer: the end is
    triggered, and the free explorers may still board in the final round."""
    def position(lava_in_bag, close_flows=False):
        env, s = craft(2)
        walled_in(s, lava_in_bag)
        if close_flows:
            rewrite(s, "flow single arrow: E4 north 0 closed; - north 0 closed")
        set_hand(s, 1, ["jungle", "jungle"])
        commit(env, s, player=1, pool=0)
        act(env, lay(0, "E2"))
        return env

    assert end(position(lava_in_bag=True)) is None
    assert end(position(lava_in_bag=True, close_flows=True)) == "walled in"
    env = position(lava_in_bag=False)
    assert end(env) == "walled in" and not core.settled(env.state())
    act(env, lay(0, "E8"))
    act(env, END_TURN)
    pass_turn(env)
    assert not running(env)
    assert env.infos["player_0"]["end"] == "settled" and env.infos["player_0"]["end_trigger"] == "walled in"


def test_settled_end_triggered_by_lava_while_drawing_the_player_plays_his_tiles():
    """RULINGS.md "Settled end" and Ending: the lava drawn at the end of player_1's turn covers his
    explorer's last way out (B5, next on the west flow, which has reached C5); the end is triggered
    while he draws, so his turn goes on with the tile drawn before the lava; then player_0 has one
    more turn."""
    env, s = craft(2)
    pocket(s, 0, 0, "east", door="MM/MM")
    pocket(s, 1, 0, "west")
    keep_on_island(s, 0, [0])
    keep_on_island(s, 1, [0])
    rewrite(s, "tile C5: L18 turned 3 (open arrow straight)",            # the west flow has reached C5
            "flow open arrow: C5 west 1 open; - north 0 closed")
    lava = lava_tile(WEST_FLOW, STRAIGHT, 1)
    drawn = bag_tile(s, points=1)
    rest = [t for t in range(core.FIRST_LAVA_TILE) if s[core.TILE_WHERE + t] == core.IN_BAG and t != drawn][:6]
    only_in_bag(s, rest + [drawn, lava])
    rng = np.zeros(1, dtype=np.int64)
    for candidate in range(1, 1_000_000):   # a generator state that draws the 1-point tile, then the lava
        rng[0] = candidate
        if draw(rng, 0, 8) == sorted(rest + [drawn, lava]).index(drawn) and \
                draw(rng, 0, 7) == sorted(rest + [lava]).index(lava):
            break
    s[core.RNG] = candidate
    commit(env, s, player=1, pool=0)
    turn = env.state()[core.TURN]
    assert not core.settled(env.state())
    act(env, END_TURN)
    assert end(env) == "settled" and field_terrain(env, "B5") == [core.LAVA] * 4
    assert to_act(env) == 1 and hand(env, 1) == [drawn] and env.state()[core.TURN] == turn
    act(env, spend(0))
    act(env, END_TURN)
    assert to_act(env) == 0 and hand(env, 1) == []
    pass_turn(env)
    assert not running(env) and all(env.terminations.values()) and env.state()[core.TURN] == turn + 2


def test_settled_end_in_the_advanced_game_counts_the_cards_still_held():
    """RULES.md "Settled end with cards": both explorers are walled in, so nothing but cards could
    free them.  An earthquake held by anybody, a helicopter rescue held by a player with two
    explorers on the island, or a mountain movement card held by the owner of an explorer behind
    mountains keeps the island unsettled; behind lava the mountain card does not help, nor does a
    helicopter with a single explorer on the island (it may not fly the last one out)."""
    def settled(cards0=(), cards1=(), door0="MM/MM", door1="MM/MM", keep1=(0,)):
        env = advanced_game()
        s = env.state()
        pocket(s, 0, 0, "east", door=door0)
        pocket(s, 1, 0, "west", door=door1)
        if len(keep1) > 1:
            put_explorer(s, 1, 1, "I5-se")
        keep_on_island(s, 0, [0])
        keep_on_island(s, 1, list(keep1))
        give_cards(s, 0, *cards0)
        give_cards(s, 1, *cards1)
        commit(env, s, player=1, pool=0)
        return core.settled(env.state())

    assert settled()
    assert not settled(cards0=[ACTION_EARTHQUAKE])
    assert not settled(cards1=[ACTION_MOUNTAIN])
    assert settled(cards1=[ACTION_MOUNTAIN], door1="lava")
    assert not settled(cards0=[ACTION_MOUNTAIN])
    assert settled(cards0=[ACTION_MOUNTAIN], door0="lava")     # only the holder's explorers climb
    assert settled(cards1=[ACTION_HELICOPTER])
    assert not settled(cards1=[ACTION_HELICOPTER], keep1=(0, 1))


def test_settled_end_in_the_advanced_game_the_last_earthquake_played_ends_the_game_after_this_turn():
    """RULES.md "Settled end with cards" and [Rules for Advanced Players, End of the Game]: player_1
    plays the only earthquake on a tile far away; with it gone the walled-in island is settled, the
    end is triggered and, as in the advanced game's end, the game is scored right after his turn."""
    env = advanced_game()
    s = env.state()
    pockets(s)
    lay_terrain(s, "E2", "JW/MM")
    give_cards(s, 0)
    give_cards(s, 1, ACTION_EARTHQUAKE)
    set_hand(s, 1, [])
    set_hand(s, 0, [])
    commit(env, s, player=1, pool=0)
    assert not core.settled(env.state())
    rotation = (int(env.state()[core.FIELD_ROTATION + field("E2")]) + 1) % 4
    act(env, core.EARTHQUAKE_BASE + 4 * field("E2") + rotation)
    assert end(env) == "settled" and env.decision() == "turn"   # no tile drawn after the trigger
    act(env, END_TURN)
    assert not running(env)
    assert env.infos["player_0"]["end"] == "settled" and env.infos["player_0"]["end_trigger"] == "settled"


def test_walled_in_is_no_end_in_the_advanced_game_whose_bag_always_runs_out():
    """RULES.md "Settled end", decision, and [Rules for Advanced Players, End of the Game]: each player
    keeps an explorer walled in and another that can still board, and no lava is left to fall.  The
    basic game would end walled in, the others having one last turn; the advanced game ends when the
    bag is used up, so it plays on, and player_0 (whose free explorer can still reach a boat) keeps
    his turns, as at the table.  The walled-in end is refused in a position of the advanced game."""
    def position(env):
        s = env.state()
        walled_in(s)
        set_hand(s, 1, ["jungle"])
        set_hand(s, 0, [])
        return s

    basic, _ = craft(2)
    commit(basic, position(basic), player=1, pool=0)
    act(basic, lay(0, "E2"))
    assert end(basic) == "walled in"

    env = advanced_game()
    s = position(env)
    give_cards(s, 0)
    give_cards(s, 1)
    commit(env, s, player=1, pool=0)
    act(env, lay(0, "E2"))
    assert end(env) is None and not core.settled(env.state())
    act(env, END_TURN)
    assert running(env) and to_act(env) == 0 and end(env) is None
    s = env.state()
    s[core.END_TRIGGERED], s[core.END_REASON], s[core.FINAL_TURNS_LEFT] = 1, core.END_BY_WALLED_IN, 1
    with pytest.raises(ValueError, match="walled in only in the basic game"):
        env.set_state(s)


def test_settled_end_is_checked_after_a_helicopter_rescue():
    """RULES.md "Settled end", decision: the check runs after a helicopter rescue too.  player_1 flies
    out his one explorer that could still reach a boat; his other explorer and player_0's are walled
    in and nobody holds a card that could free them, so the island is settled at once (before any
    tile is laid), and, as in the advanced game's end, the game is scored right after his turn."""
    env = advanced_game()
    s = env.state()
    pockets(s, keep1=(0, 1))
    give_cards(s, 0)
    give_cards(s, 1, ACTION_HELICOPTER)
    set_hand(s, 1, [])
    set_hand(s, 0, [])
    commit(env, s, player=1, pool=0)
    assert end(env) is None and not core.settled(env.state())
    act(env, core.HELICOPTER_BASE + 1)     # his explorer 1, the free one
    assert end(env) == "settled" and env.decision() == "turn"
    act(env, END_TURN)
    assert not running(env)
    assert env.infos["player_0"]["end"] == "settled" and env.infos["player_0"]["end_trigger"] == "settled"


def test_a_game_truncated_in_its_final_round_names_its_trigger():
    """RULES.md "Settled end" (infos): ``end`` is "truncated" whenever ``max_turns`` cuts a game short,
    and ``end_trigger`` names the trigger of a game cut short in its final round ("walled in" here,
    player_0's last turn never played); it is empty for a game truncated before any trigger."""
    def position(lava_in_bag):
        env, s = craft(2)
        walled_in(s, lava_in_bag)
        set_hand(s, 1, ["jungle"])
        s[core.MAX_TURNS] = s[core.TURN] + 1      # player_1's turn is the last one played
        commit(env, s, player=1, pool=0)
        act(env, lay(0, "E2"))
        act(env, END_TURN)
        return env

    env = position(lava_in_bag=False)
    assert not running(env) and all(env.truncations.values())
    assert env.infos["player_0"]["end"] == "truncated" and env.infos["player_0"]["end_trigger"] == "walled in"
    env = position(lava_in_bag=True)      # the seeded draw at the end of the turn leaves the lava in the bag
    assert env.state()[core.TILE_WHERE + lava_tile(NORTH_FLOW, LEFT_BEND)] == core.IN_BAG
    assert not running(env) and all(env.truncations.values())
    assert env.infos["player_0"]["end"] == "truncated" and env.infos["player_0"]["end_trigger"] == ""


def test_walled_in_is_checked_when_lava_leaves_the_board():
    """RULES.md "Settled end", decision: the check runs after a lava tile is discarded off the board
    too.  The island is walled in but for one lava tile in the bag whose flow's open branch points off
    the board (west from A4).  player_1 ends his turn and draws it: the lava leaves the board and
    closes the branch, no lava can fall any more, and the end is triggered while he draws; his turn
    goes on (he drew nothing else), then player_0 has his last turn."""
    env, s = craft(2)
    walled_in(s, lava_in_bag=True)
    lava = lava_tile(NORTH_FLOW, LEFT_BEND)
    only_in_bag(s, [lava])
    rewrite(s, "flow single arrow: A4 west 1 open; - north 0 closed")
    set_hand(s, 1, [])
    commit(env, s, player=1, pool=0)
    assert end(env) is None
    act(env, END_TURN)
    s = env.state()
    assert s[core.TILE_WHERE + lava] == core.REMOVED and s[core.BRANCH_OPEN + 2 * NORTH_FLOW] == 0
    assert end(env) == "walled in" and to_act(env) == 1 and env.decision() == "turn"
    act(env, END_TURN)
    assert running(env) and to_act(env) == 0
    pass_turn(env)
    assert not running(env) and env.infos["player_0"]["end_trigger"] == "walled in"


def test_settled_end_is_checked_after_a_movement_card():
    """RULES.md "Settled end", decision: the check runs after a movement card too.  player_0's only
    explorer is behind mountains (the east pocket) and he holds the only mountain movement card, so
    the island is not settled; he plays it to cross the mountains back into his own pocket (I5-nw to
    I5-sw).  With the card spent, no explorer can ever reach a boat: the end is triggered at once and,
    in the advanced game, scored right after his turn."""
    env = advanced_game()
    s = env.state()
    pockets(s)
    give_cards(s, 0, ACTION_MOUNTAIN)
    give_cards(s, 1)
    set_hand(s, 0, [])
    set_hand(s, 1, [])
    commit(env, s, player=0, pool=0)
    assert end(env) is None and not core.settled(env.state())
    act(env, core.CARD_MOVE_BASE + 5 * 2 + 0)      # mountain movement (k = 2) with explorer 0
    act(env, core.DESTINATION_BASE + square("I5-sw"))
    assert end(env) == "settled" and env.decision() == "turn" and to_act(env) == 0
    act(env, END_TURN)
    assert not running(env) and env.infos["player_1"]["end_trigger"] == "settled"
