"""The jobs that make the learned players: self-play environment and opponent pool (``selfplay``),
MaskablePPO training (``train``), training on Ray RLlib (``train_rllib``) and the distillation of the
search into an action scorer (``distill``).  Run them as ``python -m agents.train`` and so on."""
