"""PettingZoo environments (AEC), in the style of PettingZoo's classic games:

    from gridfall.adapters.pettingzoo import connect4_steal_v0
    env = connect4_steal_v0.env()
"""

from gridfall.adapters.pettingzoo import connect4_steal_v0

__all__ = ["connect4_steal_v0"]
