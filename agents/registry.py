"""Agents by name: what the tournament's ``--agents`` and human play's ``--against`` accept.

=======================  ====================================================================
``random``               uniform over the legal actions (``agents.baselines.random_agent``)
``heuristic``            the game's hand-written strategy (``agents.baselines.heuristic``)
``mcts``, ``mcts:200``   Monte-Carlo tree search, optionally with its number of simulations
``mcts+shipped``         the search guided by a learned policy: its probabilities are the root's
                         prior, and a policy network also chooses every expansion below the root
                         (``agents.search.mcts.GuidedMCTSAgent``; a value network in the file
                         also values the leaves); ``mcts:200+shipped``, and after the ``+`` also
                         the path of a policy network or action scorer (``.npz``)
``mcts@c=0.5``           the search with other settings: any search name may end with ``@<setting>=<value>``
                         (``mcts:1000@pw_k=1@pw_alpha=0.4``, ``mcts+shipped@pw_k=0.5@value_mix=0``), the
                         keyword arguments of ``MCTSAgent`` and, guided, of ``GuidedMCTSAgent``, but
                         ``simulations``, which is ``mcts:N`` (``SETTINGS``); they begin at the first ``@``
                         after the name's last ``/`` (a guide's folder may hold an ``@``, its file name not);
                         ``@root=shipped`` ranks the root by the shipped policy and the tree by the guide
``lookahead``            one step of look-ahead with the search's evaluation: the action after which
                         the player's points margin is highest (Mauna Kea; ``agents.learned.scorer``)
``shipped``              the policy shipped with the package for the game and variant
                         (``agents/shipped/<game>.npz``; ``<game>_<variant>.npz`` for another variant);
                         ``mcts+shipped`` is guided by ``<that file's name>-guide.npz`` where one is
                         shipped (``shipped_guide_path``)
a path to a ``.zip``     a ``sb3_contrib.MaskablePPO`` checkpoint, played greedily
a path to a ``.npz``     a policy network (``agents.learned.network.save_snapshot``) or an action scorer
                         (``agents.learned.scorer``), played greedily by numpy
a checkpoint folder      an RLlib checkpoint of ``agents.training.train_rllib`` (``rllib_checkpoint.json``
                         inside; or one policy's folder in it), played greedily
=======================  ====================================================================

``.zip`` and RLlib checkpoints are pickles: loading one runs whatever code it names, so load only those
of a trusted source.  ``.npz`` files are read without pickle (``allow_pickle=False``).

The heuristic and search agents, and Ray with torch for RLlib checkpoints, are imported only when
asked for, so that the others work without them (and without their dependencies).
"""
import importlib
import math
import re
import zipfile
from pathlib import Path

import numpy as np

from pacific_common.checked import is_decimal

from .base import GameInfo
from .baselines.random_agent import RandomAgent
from .games import default_variant, game_info
from .learned.network import NotAPolicyFile, load_network
from .learned.policy import load_policy
from .learned.rllib_agent import is_rllib_checkpoint, load_rllib_policy

SHIPPED_DIR = Path(__file__).resolve().parent / "shipped"
ALLOWED = ("random", "heuristic", "mcts", "mcts:<simulations>", "mcts+shipped", "mcts:<simulations>+<policy .npz>",
           "any of these mcts names followed by @<setting>=<value> (mcts:200@c=0.5)",
           "lookahead (Mauna Kea)", "shipped",
           "the path of a MaskablePPO checkpoint (.zip)",
           "the path of a policy network or action scorer (.npz)",
           "the path of an RLlib checkpoint folder (agents.training.train_rllib)")


# ASCII digits only, as mcts:N: float() and int() would also read '٣', '1_0' and ' 1'
_NUMBER = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?")


def _number(text):
    if not _NUMBER.fullmatch(text) or not math.isfinite(float(text)):
        raise ValueError(text)
    return float(text)


def _whole(text):
    if not is_decimal(text):
        raise ValueError(text)
    return int(text)


FLAGS = {"true": True, "1": True, "false": False, "0": False}


def _flag(text):
    if text.lower() not in FLAGS:
        raise ValueError(text)
    return FLAGS[text.lower()]


# The settings a search's name may carry after '@' (``mcts@c=0.5``), each with how its text is read:
# the keyword arguments of agents.search.mcts.MCTSAgent but simulations, which ``mcts:N`` gives, and
# those of GuidedMCTSAgent.  The agents check the values themselves (trees, belief, value_mix).
SETTINGS = dict(c=_number, rollout_depth=_whole, horizon=_whole, value_scale=_number, value_weight=_number,
                trees=str, belief=str, max_depth=_whole, pw_k=_number, pw_alpha=_number, bias=_number,
                puct=_flag, halving=_whole)
GUIDED_SETTINGS = dict(in_tree=_flag, value_mix=_number, scorer_after=_whole, root=str)
ROOT_GUIDES = ("guide", "shipped")   # what ``@root=`` may name: the guide itself, or the shipped policy
WHAT = {_number: "a number", _whole: "a whole number", str: "a value", _flag: "true, false, 1 or 0"}


def is_search(spec):
    """Whether ``spec`` names a search, guided or not (``mcts``, ``mcts:N``, ``mcts+<policy>``, ``mcts@...``)."""
    return re.split(r"[:+@]", spec.strip(), maxsplit=1)[0] == "mcts"


def is_guided(spec):
    """Whether ``spec`` names a guided search (``mcts+<policy>``, ``mcts:<simulations>+<policy>``)."""
    return spec.strip().startswith("mcts") and "+" in split_settings(spec.strip())[0]


def split_settings(spec):
    """``spec`` before its ``@key=value`` settings, and their text after the first '@' (None where there is
    no '@').  They begin at the first '@' after the last '/', so that a guide's path may run through a
    folder whose name holds an '@' (a guide whose file name holds one is read whole by ``make_agent``
    where that file exists)."""
    at = spec.find("@", spec.rfind("/") + 1)
    return (spec, None) if at < 0 else (spec[:at], spec[at + 1:])


def split_search(spec):
    """``split_settings``, but a guided search whose guide is a file with an '@' in its name
    (``mcts+net@1.npz``) is all name, read whole as a plain file is."""
    base, text = split_settings(spec)
    if text is not None and is_guided(spec) and _is_file(spec.partition("+")[2]):
        return spec, None
    return base, text


def _path_is(spec, test):
    """``test(Path(spec))``; a path the system will not look at (a name too long) is a ValueError."""
    try:
        return test(Path(spec))
    except OSError as error:
        raise ValueError(f"agent {spec!r} names no file that can be read: {error.strerror or error}") from None


def _is_file(text):
    """Whether ``text`` names a file; False for what the system will not look at (a name too long)."""
    try:
        return Path(text).is_file()
    except OSError:
        return False


def make_agent(spec, game, **kwargs):
    """A fresh agent for ``spec`` (see the module docstring) playing ``game`` (a ``GameInfo``);
    ``kwargs`` go to the agent's constructor (a setting both there and in the name is a ValueError).
    Unknown names raise ValueError listing what is allowed."""
    if not isinstance(spec, str) or not spec.strip():
        raise ValueError(f"an agent is named by a non-empty string, got {spec!r}; use one of "
                         f"{', '.join(ALLOWED)}")
    if not isinstance(game, GameInfo):
        raise ValueError(f"game must be a GameInfo (agents.game_info(name, ...)), got {game!r}")
    if not isinstance(kwargs.get("deterministic", False), (bool, np.bool_)):
        raise ValueError(f"deterministic must be True or False, got {kwargs['deterministic']!r}")
    if not isinstance(kwargs.get("name", ""), str):
        raise ValueError(f"name must be a string, got {kwargs['name']!r}")
    spec = spec.strip()
    base, text = split_search(spec)
    if text is not None and is_search(base):
        settings = _settings(text, spec, is_guided(base))
        clash = sorted(set(settings) & set(kwargs))
        if clash:  # neither silently wins: an experiment's setting must be the one it reports
            raise ValueError(f"{', '.join(clash)} given both in the name {spec!r} and as an argument; "
                             f"give each setting once")
        kwargs.update(settings)
    elif text is not None and not _path_is(spec, Path.exists):
        raise ValueError(f"@<setting>=<value> settings are only for a search (mcts, mcts:N, mcts+<policy>), "
                         f"got {spec!r}")
    else:
        base = spec  # no settings, or an agent's file or folder whose name holds an '@'
    name, colon, argument = base.partition(":")
    if name in ("random", "heuristic", "lookahead", "shipped") and colon:
        raise ValueError(f"agent {name!r} takes no ':' argument, got {spec!r}")
    if is_guided(base):
        agent = _guided(base, game, **kwargs)
    elif name == "random":
        agent = RandomAgent(**kwargs)
    elif name == "heuristic":
        agent = _lazy("agents.baselines.heuristic", "HeuristicAgent", spec)(**kwargs)
    elif name == "mcts":
        if colon:
            kwargs["simulations"] = _simulations(argument, spec, kwargs)
        agent = _lazy("agents.search.mcts", "MCTSAgent", spec)(**kwargs)
    elif name == "lookahead":
        agent = _lookahead(game, **kwargs)
    elif name == "shipped":
        return _shipped(game, **kwargs)
    elif _path_is(spec, Path.is_file):
        return _from_file(Path(spec), game, **kwargs)
    elif spec.endswith(".npz"):
        return _network(spec, game, **kwargs)  # which says that no such file exists
    elif spec.endswith(".zip"):
        return load_policy(spec, game, **kwargs)  # idem
    elif is_rllib_checkpoint(spec):
        return load_rllib_policy(spec, game, **kwargs)
    elif _path_is(spec, Path.is_dir):
        raise ValueError(f"{spec!r} is a folder but not an RLlib checkpoint (it holds neither "
                         f"rllib_checkpoint.json nor a policy's class_and_ctor_args.pkl and "
                         f"module_state.pkl)")
    else:
        raise ValueError(f"unknown agent {spec!r}; use one of {', '.join(ALLOWED)}")
    if name == "mcts" or is_guided(base):
        agent.check_game(game)   # a setting that would do nothing in this game
    agent.name = spec
    return agent


def load(game, num_players=None, variant=None, max_turns=None):
    """The policy shipped with the package for ``game`` (a name such as "makabana")."""
    return make_agent("shipped", game_info(game, num_players, variant, max_turns))


def shipped_path(game):
    """Where the shipped policy of ``game``'s variant lives (whether or not it exists): each variant has
    its own spaces, so its own policy; the default variant's file carries the game's name alone."""
    default = default_variant(game.name)
    return SHIPPED_DIR / (f"{game.name}.npz" if game.variant == default else f"{game.name}_{game.variant}.npz")


def shipped_guide_path(game):
    """The guide of ``mcts+shipped`` for ``game``'s variant: ``<shipped file>-guide.npz`` where the
    package ships one, else the shipped policy itself.  The best guide is not always the best player:
    Mauna Kea's scorer fitted to the search's visit shares orders the search's tree, and the one fitted
    to its most visited actions plays better alone (docs/training.md)."""
    path = shipped_path(game)
    guide = path.with_name(f"{path.stem}-guide.npz")
    return guide if guide.is_file() else path


NO_SHIPPED = "no shipped policy exists yet"   # how a missing shipped file's error begins


def _shipped(game, path=None, **kwargs):
    # agents.learned.network.save_snapshot files, or action scorers of agents.learned.scorer: played
    # without torch, so that the shipped opponents need no training extra.
    path = shipped_path(game) if path is None else path
    if not path.is_file():
        raise ValueError(f"{NO_SHIPPED} for {game.name} ({game.variant}) (looked for "
                         f"{path}); use another agent or the path of a checkpoint")
    kwargs.setdefault("name", "shipped")
    return _network(path, game, **kwargs)


def _lookahead(game, **kwargs):
    from .learned.scorer import LOOKAHEAD_GAMES, ScorerAgent, lookahead_layers

    if game.name not in LOOKAHEAD_GAMES:
        raise ValueError(f"agent 'lookahead' plays {', '.join(LOOKAHEAD_GAMES)} only (it needs the search's "
                         f"action features), not {game.name}")
    return ScorerAgent(lookahead_layers(game.name), game.name, game.variant, **kwargs)


def _network(path, game, **kwargs):
    kwargs.setdefault("deterministic", True)  # greedy, as trained policies are evaluated
    return load_network(path, game, **kwargs)


AGENT_FILES = ("a MaskablePPO checkpoint (a .zip archive holding 'data' and 'policy.pth', as "
               "stable-baselines3 saves it) or a policy network / action scorer (an .npz archive of "
               "agents.learned.network.save_snapshot or agents.learned.scorer)")


def _from_file(path, game, **kwargs):
    """The agent in the file ``path``, by what the file holds; a file that is no agent is a ValueError
    saying what was expected and what was found."""
    names = zip_members(path)
    if names is not None and "data" in names and "policy.pth" in names:
        return load_policy(path, game, **kwargs)
    if names is not None and names and all(n.endswith(".npy") for n in names):
        try:
            return _network(path, game, **kwargs)
        except NotAPolicyFile as error:
            raise ValueError(f"{error}; expected {AGENT_FILES}") from None
    raise ValueError(f"{str(path)!r} is not an agent file: expected {AGENT_FILES}; found {_describe(path, names)}")


def zip_members(path):
    """The names inside a zip archive (an .npz is one), or None for a file of another kind."""
    try:
        with zipfile.ZipFile(path) as archive:
            return archive.namelist()
    except (zipfile.BadZipFile, OSError):
        return None


def _describe(path, names):
    if names is not None:
        shown = ", ".join(repr(n) for n in names[:4]) + (", …" if len(names) > 4 else "")
        return f"a zip archive holding {shown or 'nothing'}"
    with open(path, "rb") as file:
        head = file.read(40)
    if not head:
        return "an empty file"
    try:
        return f"text beginning {head.decode('utf-8').splitlines()[0][:30]!r}"
    except UnicodeDecodeError:
        return f"{path.stat().st_size} bytes of binary data"


def _guided(spec, game, **kwargs):
    search, _, guide_spec = spec.partition("+")
    name, colon, argument = search.partition(":")
    if name != "mcts" or not guide_spec or guide_spec != guide_spec.strip():
        raise ValueError(f"a guided search is named mcts+<policy> or mcts:<simulations>+<policy>, without spaces "
                         f"around the '+', got {spec!r}")
    if colon:
        kwargs["simulations"] = _simulations(argument, spec, kwargs)
    guide = _shipped(game, shipped_guide_path(game)) if guide_spec == "shipped" else make_agent(guide_spec, game)
    root = kwargs.pop("root", "guide")
    if root not in ROOT_GUIDES:
        raise ValueError(f"setting 'root' names the policy that ranks the root's actions, one of "
                         f"{', '.join(ROOT_GUIDES)}; got {root!r}")
    if root == "shipped":
        kwargs["root_guide"] = _shipped(game)
    return _lazy("agents.search.mcts", "GuidedMCTSAgent", spec)(guide, **kwargs)


def _settings(text, spec, guided):
    """The keyword arguments that the settings ``text`` (``pw_k=1@pw_alpha=0.4``) of ``spec`` give."""
    allowed = {**SETTINGS, **GUIDED_SETTINGS} if guided else SETTINGS
    settings = {}
    for item in text.split("@"):
        key, equals, value = item.partition("=")
        if not equals:
            raise ValueError(f"a search's setting is written @<setting>=<value>, got {'@' + item!r} in {spec!r}")
        if key == "simulations":
            raise ValueError(f"the number of simulations is given as mcts:N (mcts:200@c=0.5), not as "
                             f"@simulations=, in {spec!r}")
        if key not in allowed:
            raise ValueError(_unknown_setting(key, spec))
        if key in settings:
            raise ValueError(f"setting {key!r} is given twice in {spec!r}")
        if not value:
            raise ValueError(f"setting {key!r} has no value in {spec!r}")
        try:
            settings[key] = allowed[key](value)
        except ValueError:
            raise ValueError(f"setting {key!r} takes {WHAT[allowed[key]]}, got {value!r} in {spec!r}") from None
    return settings


def _unknown_setting(key, spec):
    guided = ", ".join(GUIDED_SETTINGS)
    allowed = f"a search takes {', '.join(SETTINGS)}; a guided search (mcts+<policy>) also {guided}"
    if key in GUIDED_SETTINGS:
        return f"setting {key!r} applies only to a guided search (mcts+<policy>), not {spec!r}: {allowed}"
    return f"unknown setting {key!r} in {spec!r}: {allowed}"


def _simulations(argument, spec, kwargs):
    simulations = int(argument) if is_decimal(argument) else 0
    if simulations < 1:
        raise ValueError(f"'mcts:N' takes a positive number of simulations, got {spec!r}")
    if "simulations" in kwargs:   # as every other setting: neither silently wins
        raise ValueError(f"simulations given both in the name {spec!r} and as an argument; give each setting once")
    return simulations


def _lazy(module, cls, spec):
    """Import ``module.cls`` now; a module that does not exist (yet) is a clear error, not a trace."""
    try:
        return getattr(importlib.import_module(module), cls)
    except ModuleNotFoundError as error:
        if error.name != module:
            raise  # the module exists but something it needs is missing: show that
        raise ImportError(f"agent {spec!r} needs {module}, which is not available in this "
                          f"installation") from error
