"""An RLlib checkpoint (``agents.training.train_rllib``) as an agent, played greedily over the legal actions.

``agents.make_agent(path, game)`` accepts either
- an algorithm checkpoint: a folder holding ``rllib_checkpoint.json`` (``DIR/final``,
  ``DIR/checkpoints/iter_NNNN``); the shared policy "main" plays, or
- one policy of it: a folder holding ``class_and_ctor_args.pkl`` and ``module_state.pkl``
  (``.../learner_group/learner/rl_module/snapshot_0`` plays a frozen snapshot).

Recognising a checkpoint needs nothing but the file system; loading one needs the ``distributed``
extra (Ray RLlib and torch), imported only then, and no running Ray instance.
"""
import contextlib
import logging
from pathlib import Path

from ..base import Agent, check_game_info

DISTRIBUTED_EXTRA = 'pip install -e ".[distributed]"'
ALGORITHM_FILE = "rllib_checkpoint.json"
MODULE_FILES = ("class_and_ctor_args.pkl", "module_state.pkl")
MODULES_DIR = Path("learner_group", "learner", "rl_module")
MAIN = "main"

# RLModule.__init__ (Ray 2.5x) still builds an RLModuleConfig for old custom models, a class Ray marks
# deprecated, so every module loaded warned "RLModule(config=[RLModuleConfig object]) has been
# deprecated" (once a process): a notice about Ray's own code, which no user of ours can act on
RLMODULE_CONFIG_NOTICE = "RLModule(config=[RLModuleConfig object])"


@contextlib.contextmanager
def _without_ray_notice(text):
    """Ray's deprecation notices that contain ``text`` dropped while the block runs."""
    logger = logging.getLogger("ray._common.deprecation")

    def keep(record):
        return text not in record.getMessage()

    logger.addFilter(keep)
    try:
        yield
    finally:
        logger.removeFilter(keep)


def is_rllib_checkpoint(path) -> bool:
    """Whether ``path`` is a folder that ``load_rllib_policy`` can read."""
    try:
        path = Path(path)
        return path.is_dir() and ((path / ALGORITHM_FILE).is_file()
                                  or all((path / name).is_file() for name in MODULE_FILES))
    except (TypeError, OSError):
        return False


def module_dir(path, module_id=MAIN) -> Path:
    """The folder of policy ``module_id`` inside an algorithm checkpoint, or ``path`` if it is one
    policy's folder already."""
    path = Path(path)
    if not (path / ALGORITHM_FILE).is_file():
        return path
    folder = path / MODULES_DIR / module_id
    if not folder.is_dir():
        found = sorted(p.name for p in (path / MODULES_DIR).iterdir() if p.is_dir()) \
            if (path / MODULES_DIR).is_dir() else []
        raise ValueError(f"RLlib checkpoint {str(path)!r} has no policy {module_id!r} (it has "
                         f"{', '.join(found) or 'none'})")
    return folder


class RLlibAgent(Agent):
    """Plays the most likely legal action of a masked RLlib policy
    (``agents.learned.rllib_module.MaskedPPOTorchRLModule``)."""

    name = "rllib"

    def __init__(self, module, name=None):
        self.module = module
        if name is not None:
            self.name = name

    def act(self, observation, action_mask, state=None):
        self.legal_actions(observation, action_mask, state)
        return self.module.greedy_action(observation, action_mask)


def load_rllib_policy(path, game, module_id=MAIN, name=None) -> RLlibAgent:
    """Load policy ``module_id`` of an RLlib checkpoint for ``game`` (a ``GameInfo``), checking that
    its spaces fit the game."""
    check_game_info(game)   # before the minutes of loading, not after (a game's name has no sizes)
    if not isinstance(module_id, str) or not module_id:
        raise ValueError(f"module_id is the name of a policy in the checkpoint (a string such as {MAIN!r}), "
                         f"got {module_id!r}")
    path = Path(path)
    if not is_rllib_checkpoint(path):
        raise ValueError(f"{str(path)!r} is not an RLlib checkpoint folder (no {ALGORITHM_FILE}, nor "
                         f"{' and '.join(MODULE_FILES)})")
    folder = module_dir(path, module_id)
    try:
        import torch
        from ray.rllib.core.rl_module.rl_module import RLModule
    except ImportError as error:
        raise ImportError(f"loading the RLlib checkpoint {str(path)!r} needs Ray RLlib and torch: "
                          f"{DISTRIBUTED_EXTRA}") from error
    try:
        with _without_ray_notice(RLMODULE_CONFIG_NOTICE):
            module = RLModule.from_checkpoint(folder.resolve())
    except Exception as error:   # Ray's unpickling of the module's files: any of its errors
        raise ValueError(f"RLlib checkpoint {str(path)!r}: policy {module_id!r} cannot be read "
                         f"({type(error).__name__}: {str(error).splitlines()[0][:120]})") from error
    if not hasattr(module, "greedy_action"):
        raise ValueError(f"the policy in {str(folder)!r} is a {type(module).__name__}, not the masked "
                         f"policy agents.training.train_rllib trains")
    # a training run that diverged saves NaN weights, which played the first legal action every time
    for key, tensor in module.state_dict().items():
        if tensor.is_floating_point() and not torch.isfinite(tensor).all():
            raise ValueError(f"RLlib checkpoint {str(path)!r}: policy {module_id!r} holds weights that are not "
                             f"finite numbers (NaN or infinite in {key})")
    obs_space, action_space = module.observation_space, module.action_space
    obs_shape, actions = obs_space["observation"].shape, getattr(action_space, "n", None)
    if obs_shape != (game.obs_size,) or actions != game.num_actions:
        raise ValueError(f"RLlib checkpoint {str(path)!r} was trained on observations of shape {obs_shape} "
                         f"and {actions} actions; {game.name} ({game.variant}) has ({game.obs_size},) and "
                         f"{game.num_actions}")
    module.eval()
    return RLlibAgent(module, name=name or checkpoint_label(path))


def checkpoint_label(path) -> str:
    """A short name for a checkpoint: ``final``, ``iter_0010``, or ``<checkpoint>/<policy>``."""
    path = Path(path)
    if (path / ALGORITHM_FILE).is_file():
        return path.name
    if path.parent.name == MODULES_DIR.name and len(path.parents) >= 4:
        return f"{path.parents[3].name}/{path.name}"
    return path.name
