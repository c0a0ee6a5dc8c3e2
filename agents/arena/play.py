r"""Play a game in the terminal against machine players.

    python -m agents.play --game makabana [--players 4] [--against heuristic] [--seat 0] [--seed S] \
        [--record game.json]

You play one seat; the machines play the others (``--against``: any agent name of
``agents.registry``, e.g. ``heuristic``, ``mcts:200``, ``mcts+shipped``, ``shipped`` or a checkpoint path).  Before each of your decisions the board
is drawn from your point of view (``render_ansi`` with you as the viewer hides what you may not
know) and the legal actions are listed in words; type a number, or ``q`` to quit.  The machines'
moves are announced as you would see them at the table: in Maka Bana a project is chosen in secret,
so you only hear that a player "prepares a project" (in Mao, not even how many cards it took); the
hints show on the board once every colour has chosen, and the projects at execution.  In advanced
Mauna Kea the cards a player removes at the set-up stay unseen.  Everything else is public.  The
game's seed is said once the game is over or left, not before: it deals the whole game, the hidden
cards and the bag's order included (``--seed S`` deals that game again).

``--record PATH`` writes the game, finished or left, as a game record (``pacific_common.record``;
``python -c "from pacific_common.record import load, play_back; print(play_back(load('PATH'))[1])"``
plays it again).  The path is checked before the game starts.
"""
import argparse
import sys

import numpy as np

from pacific_common.checked import is_decimal
from pacific_common.cli import integer_option, output_file, reader_left
from pacific_common.options import MAX_TURNS_LIMIT, SEED_LIMIT, is_integer
from pacific_common.record import end_name, record_game, save

from ..base import Agent
from ..games import GAMES, describe_action, game_info, game_info_or_error, render_ansi
from ..registry import ALLOWED, make_agent
from .match import IllegalActionError, game_seeds, play_game


class Quit(Exception):
    """The human typed q (or closed the input)."""


class HumanAgent(Agent):
    """Asks a person, through ``input_fn`` / ``print_fn``, for every decision of its seat."""

    name = "you"
    needs_state = True  # to draw the board (from this player's point of view only)

    def __init__(self, input_fn=input, print_fn=print):
        self.input_fn = input_fn
        self.print_fn = print_fn

    def act(self, observation, action_mask, state=None):
        legal = np.flatnonzero(action_mask)
        say = self.print_fn
        say("")
        say(render_ansi(self.game, state, self.player))
        say(f"\nYour move (player {self.player}):")
        entries = [f"{number:>4}. {describe_action(self.game, int(a), state)}" for number, a in enumerate(legal, 1)]
        for line in columns(entries):
            say(line)
        return int(legal[self._ask(len(legal)) - 1])

    def _ask(self, count):
        """A number from 1 to ``count``, asked again until one comes."""
        while True:
            try:
                answer = self.input_fn(f"Choose 1-{count} (q to quit): ")
            except EOFError:
                raise Quit from None
            if not isinstance(answer, str):
                raise TypeError(f"input_fn must return the line typed, a str, got {answer!r}")
            answer = answer.strip()
            if answer.lower() in ("q", "quit"):
                raise Quit
            if not answer:
                self.print_fn(f"Please type the number of an action, 1 to {count}, or q to quit.")
                continue
            shown = answer if len(answer) <= 20 else answer[:12] + "..."
            if is_decimal(answer) and 1 <= int(answer) <= count:
                return int(answer)
            if is_decimal(answer) or (answer.isascii() and answer.lstrip("+-").isdigit()):
                # (is_decimal takes at most 4,300 digits, as int() does)
                self.print_fn(f"There is no action {shown}: choose from 1 to {count}.")
            else:   # int() would also read '1_0' and other scripts' digits
                self.print_fn(f"{shown!r} is not a number: type 1 to {count}, or q to quit.")


def columns(entries, width=100):
    """Lines of ``entries`` in as many columns as fit ``width``, numbered down each column (a Maka Bana
    project offers over 200 actions)."""
    cell = max(len(e) for e in entries) + 2
    rows = -(-len(entries) // max(1, width // cell))
    return ["".join(e.ljust(cell) for e in entries[r::rows]).rstrip() for r in range(rows)]


# Decisions taken in secret (RULES.md of each game): (game, phase constant of its core) -> what the
# other players hear once the player is done with them.
SECRET_DECISIONS = {
    ("makabana", "PHASE_PROJECT"): "prepares a project",          # Haapii and Mao
    ("maunakea", "PHASE_CARDS"): "chooses the cards to keep",   # advanced: removed cards stay unseen
}


def public_words(game, action, before, after):
    """What the other players learn from ``action`` (None: nothing to announce yet)."""
    core = game.core
    phase = int(before[core.PHASE])
    for (name, constant), words in SECRET_DECISIONS.items():
        if name == game.name and phase == getattr(core, constant, None):
            if after[core.PHASE] == phase and after[core.TO_ACT] == before[core.TO_ACT]:
                return None  # still choosing: even the number of decisions stays secret
            return words
    if game.name == "makabana" and phase == core.PHASE_DENOUNCE and action != core.MAO_PASS:
        # the action counts seats from the denouncer; name the colour for the human
        from makabana_env.board import COLOUR_NAMES
        return f"denounces {COLOUR_NAMES[after[core.DENOUNCED]]}"
    return describe_action(game, action, before)


def seat_names(agent_names, seat):
    """How every seat is called, at the table and in the game record: "player 1 (heuristic)", and
    "player 0 (you)" for the human's ``seat``."""
    return [f"player {p} ({'you' if p == seat else name})" for p, name in enumerate(agent_names)]


def verdict(names, ranks, truncated, max_turns, stalemate=False):
    """Who won, in words, from the finishing places (``match.finishing_ranks``)."""
    winners = [names[p] for p, rank in enumerate(ranks) if rank == 1]
    if truncated:
        return f"No winner: the game reached its limit, max_turns={max_turns}. Ahead on points: {', '.join(winners)}"
    if stalemate:
        return "No winner: stalemate, nothing could change any more."
    if len(winners) == 1:
        return f"Winner: {winners[0]}"
    return "Tied for first: " + ", ".join(winners)


def play(game, players=None, against="heuristic", seat=0, seed=None, variant=None, max_turns=None,
         input_fn=input, print_fn=print, record=None):
    """Play one game with a human in ``seat``; returns the ``GameResult``, or None if they quit.
    ``record``: a path to write the game to as a game record (also a game left unfinished)."""
    info = game_info(game, players, variant, max_turns)
    n = info.num_players
    if not is_integer(seat) or not 0 <= seat < n:
        raise ValueError(f"seat must be a player number from 0 to {n - 1}, got {seat!r}")
    if seed is not None and (not is_integer(seed) or not 0 <= seed <= SEED_LIMIT):
        raise ValueError(f"seed must be an integer from 0 to {SEED_LIMIT}, got {seed!r}")
    if record is not None:
        record = output_file("record", record)
    if seed is None:
        seed = int(np.random.SeedSequence().entropy) & 0x7FFFFFFFFFFFFFFF
    human = HumanAgent(input_fn, print_fn)
    agents = [human if p == seat else make_agent(against, info) for p in range(n)]
    names = seat_names([agent.name for agent in agents], seat)
    # not the seed: it deals the whole game, the others' hidden cards and the bag included
    print_fn(f"{game} ({info.variant}), {n} players: you are player {seat}; the others are {against}.")
    dealt_again = f"The game's seed was {seed}: --seed {seed} deals it again."
    final = {}
    actions = []

    def announce(player, action, before, after):
        final["state"] = after
        actions.append(action)
        if player != seat:
            words = public_words(info, action, before, after)
            if words:
                print_fn(f"{names[player]}: {words}")

    try:
        result = play_game(info, agents, seed=seed, on_step=announce)
    except (Quit, KeyboardInterrupt):   # q, the end of the input, or Ctrl-C: the game so far is kept
        print_fn("You left the game.")
        print_fn(dealt_again)
        _write_record(record, info, seed, actions, names, print_fn)
        return None
    print_fn(dealt_again)
    _write_record(record, info, seed, actions, names, print_fn)

    print_fn("")
    print_fn(render_ansi(info, final["state"], seat))
    print_fn("\nFinal scores:")
    for p in range(n):
        print_fn(f"  {names[p]}: {result.scores[p]}")
    # a Make Make stalemate has no winner
    stalemate = end_name(info.name, final["state"]) == "stalemate"
    print_fn(verdict(names, result.ranks, result.truncated, info.max_turns, stalemate=stalemate))
    return result


def _write_record(path, info, seed, actions, names, print_fn):
    if path is None:
        return
    game = record_game(info.name, game_seeds(seed, info.num_players)[0], actions, num_players=info.num_players,
                       variant=info.variant, max_turns=info.max_turns, players=names)
    try:
        save(game, path)
    except OSError as error:   # checked before the game, but a disk fills and a folder goes meanwhile
        raise RecordNotWritten(f"could not write the game record to {path}: {error.strerror or error}") from None
    print_fn(f"The game record is in {path}")


class RecordNotWritten(Exception):
    """The game was played but its record could not be written."""


def main(argv=None):
    description, _, epilog = __doc__.partition("\n")   # the first line once, above the options
    parser = argparse.ArgumentParser(description=description, formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog=epilog)
    parser.add_argument("--game", required=True, choices=sorted(GAMES))
    parser.add_argument("--players", type=integer_option(1), default=None,
                        help="number of players (default: the game's)")
    parser.add_argument("--against", default="heuristic",
                        help="the machine players (default: heuristic), any agent name: " + "; ".join(ALLOWED))
    parser.add_argument("--seat", type=integer_option(0), default=0, help="your player number (default: 0)")
    parser.add_argument("--seed", type=integer_option(0, SEED_LIMIT), default=None,
                        help="replay a game by its seed")
    parser.add_argument("--variant", default=None, help="game variant (default: the game's)")
    parser.add_argument("--max-turns", type=integer_option(1, MAX_TURNS_LIMIT), default=None,
                        help="truncation limit (default: the game's)")
    parser.add_argument("--record", metavar="PATH", help="write the game as a game record (JSON) to PATH")
    args = parser.parse_args(argv)
    try:  # options and the record's path are checked before the game starts
        info = game_info_or_error(args.game, args.players, args.variant, args.max_turns)
        if args.seat >= info.num_players:
            raise ValueError(f"--seat: a player number from 0 to {info.num_players - 1}, got {args.seat}")
        if args.record is not None:
            output_file("--record", args.record)
    except ValueError as error:
        parser.error(str(error))
    try:
        play(args.game, args.players, args.against, args.seat, args.seed, args.variant, args.max_turns,
             record=args.record)
    except KeyboardInterrupt:
        print("\nYou left the game.")
    except IllegalActionError:
        raise  # a broken machine player: the traceback helps
    except (ValueError, ImportError) as error:
        parser.error(str(error))
    except RecordNotWritten as error:
        print(error, file=sys.stderr)
        sys.exit(1)
    except BrokenPipeError:
        reader_left()


if __name__ == "__main__":
    main()
