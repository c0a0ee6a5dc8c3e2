"""Where agents meet: one game between agents (``match``), seat-rotated tournaments (``tournament``)
with win rates and Plackett–Luce ratings (``ratings``), and a human against agents in the terminal
(``play``)."""
