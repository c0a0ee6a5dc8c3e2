"""Checkpoints of ``agents.train`` written before the policy classes moved to ``agents.learned.features``
name them by this path (MaskablePPO pickles its policy's classes by reference): they load through it."""
from agents.learned.features import LogFeatures, SkipMlpExtractor, SkipPolicy

__all__ = ["LogFeatures", "SkipMlpExtractor", "SkipPolicy"]
