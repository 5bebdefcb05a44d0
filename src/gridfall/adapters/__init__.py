"""gridfall's games in the research frameworks, each an optional extra:

=====================================  ==========================  =============================
module                                 install                     gives
=====================================  ==========================  =============================
:mod:`gridfall.adapters.gym`           ``pip install gridfall[gym]``         ``gridfall/SameGame-v0``,
                                                                   ``gridfall/Match3-v0``,
                                                                   ``gridfall/Connect4-v0``
:mod:`gridfall.adapters.pettingzoo`    ``pip install gridfall[pettingzoo]``  ``connect4_steal_v0``
:mod:`gridfall.adapters.openspiel`     ``pip install gridfall[openspiel]``   ``python_gridfall_*`` games
=====================================  ==========================  =============================

Every adapter drives the games through the one interface (:mod:`gridfall.interface`).
"""

from __future__ import annotations

import importlib


def require(module: str, extra: str):
    """Import ``module``, or fail with the install command that brings it."""
    try:
        return importlib.import_module(module)
    except ImportError as e:
        raise ImportError(f"{e.name or module} is not installed; `pip install gridfall[{extra}]` brings it") from e
