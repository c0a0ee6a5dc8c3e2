"""Trained players and their file formats: policy networks as ``.npz`` files played by numpy
(``network``), action scorers distilled from the search (``scorer``), MaskablePPO checkpoints
(``policy``, with the input layer of ``features``) and RLlib checkpoints (``rllib_agent``, with the
network of ``rllib_module``).  Torch and Ray are imported only by the modules that need them."""
