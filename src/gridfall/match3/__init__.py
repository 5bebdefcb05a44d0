"""Match-3 "Jewels", CodeAbbey problem 370."""

PORTABLE_AGENTS = ("greedy", "fast", "plan")  # pure Python, exportable (gridfall.match3.portable)
AGENTS = PORTABLE_AGENTS + ("strong",)  # strong runs on the numba engine (gridfall.match3.agents)
