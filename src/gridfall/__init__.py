"""gridfall: exact rules, fast engines, strong players and faithful referees
for three gravity grid games (SameGame, Match-3 Jewels, Connect Four 7x9 with STEAL)."""

__version__ = "0.1.0"
