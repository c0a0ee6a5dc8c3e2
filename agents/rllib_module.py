"""RLlib checkpoints of ``agents.train_rllib`` written before the network moved to
``agents.learned.rllib_module`` name its class by this path (RLlib pickles it by reference): they load
through it."""
from agents.learned.rllib_module import MaskedPPOTorchRLModule

__all__ = ["MaskedPPOTorchRLModule"]
