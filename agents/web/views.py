"""What one seat of a game may see, as the browser receives it: the board drawn for that seat, the
seat's text board, whose turn it is, the seat's legal actions by name and by place, the log of moves
as the table heard them, and the result.  Never the state row, its notation or its seed: the
drawings and the text come from the game's ``render`` functions for ``viewer_player=seat``, which
show only what that seat may know, and every other entry is public or the seat's own."""
import importlib

import numpy as np

from pacific_common.options import REWARD_MODES

from ..arena.match import finishing_ranks
from ..arena.play import public_words, verdict
from ..games import GAMES, describe_action


def render_module(game):
    """The game's ``render`` module (``render_svg``, ``action_place``, ``render_ansi``)."""
    return importlib.import_module(f"{GAMES[game].package.__name__}.render")


def checked_core(game):
    """The game's checked rules core: the server is a user of the rules, not a hot loop."""
    return GAMES[game].package.core


def legal_actions(info, state, player):
    """The legal actions of ``player`` now, as an array of action numbers (empty when it is not that
    player's turn)."""
    core = checked_core(info.name)
    obs = np.empty(info.obs_size, dtype=np.int8)
    mask = np.zeros(info.num_actions, dtype=np.int8)
    core.observe_player(state, player, obs, mask)
    return mask


def to_act(info, state):
    """The player whose decision is asked, or None once the game is over."""
    core = checked_core(info.name)
    if state[core.STATUS] != core.STATUS_RUNNING:
        return None
    return core.player_to_act(state)


def choices(info, state, seat):
    """The seat's legal actions: number, name and the board place clicked to play it (None: a button)."""
    render = render_module(info.name)
    return [{"action": int(a), "name": describe_action(info, int(a), state), "place": render.action_place(int(a), state)}
            for a in np.flatnonzero(legal_actions(info, state, seat))]


def log_entry(info, names, seat, player, action, before, after):
    """The line a seat reads after ``player`` played ``action`` (None: nothing to announce yet).  The
    seat's own moves are named in full; the others' as ``agents.play`` announces them at the table, so
    a secret decision is heard only as "prepares a project" once it is made."""
    words = describe_action(info, action, before) if player == seat else public_words(info, action, before, after)
    return None if words is None else {"player": int(player), "who": names[player], "words": words}


def result_view(game_name, final_state, result, names, max_turns):
    """The end of a finished game (``result`` as in a game record) in words and numbers.  The places
    come from the game's own verdict, its win_loss rewards at ``final_state``, whatever reward the
    game was played for: the points alone lose Mauna Kea's tie-breaks and a Make Make stalemate."""
    truncated = result["status"] == "truncated"
    verdict_rewards = np.zeros(len(names))
    checked_core(game_name).rewards(final_state, REWARD_MODES.index("win_loss"), verdict_rewards)
    ranks = finishing_ranks(verdict_rewards.tolist(), result["scores"], truncated)
    words = verdict(names, ranks, truncated, max_turns, stalemate=result["end"] == "stalemate")
    return {"status": result["status"], "end": result["end"], "scores": result["scores"],
            "rewards": result["rewards"], "ranks": ranks, "verdict": words}


def seat_view(info, state, seat, names, log, record=None):
    """Everything the page of the human in ``seat`` shows (see the module docstring)."""
    render = render_module(info.name)
    player = to_act(info, state)
    return {
        "game": info.name, "variant": info.variant, "num_players": info.num_players, "seat": seat,
        "players": list(names),
        "board": render.render_svg(state, seat),
        "text": render.render_ansi(state, seat),
        "to_act": player,
        "over": player is None,
        "choices": choices(info, state, seat) if player == seat else [],
        "log": list(log),
        "result": None if record is None else result_view(info.name, state, record.result, names, info.max_turns),
    }


def public_step(game_name, state):
    """A step of a replay as a spectator sees it: board and text for ``viewer_player=None``."""
    render = render_module(game_name)
    return {"board": render.render_svg(state, None), "text": render.render_ansi(state, None)}
