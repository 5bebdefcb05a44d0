"""splitmix64 in plain Python: the one home of its constants (Steele, Lea and Flood, 2014).

Each draw adds the golden gamma to the state and scrambles the sum with two xor-shift-multiplies.
:mod:`gridfall.jit` compiles the same steps for the kernels; the random boards use this one, so
a board from a seed is the same on every machine, with or without numba.
"""

from __future__ import annotations

from typing import Iterator

GAMMA = 0x9E3779B97F4A7C15  # 2**64 / the golden ratio, odd
MIX1 = 0xBF58476D1CE4E5B9
MIX2 = 0x94D049BB133111EB
MASK = 2**64 - 1


def mix64(z: int) -> int:
    """The finaliser: a 64-bit value scrambled so that every input bit moves every output bit."""
    z = ((z ^ (z >> 30)) * MIX1) & MASK
    z = ((z ^ (z >> 27)) * MIX2) & MASK
    return z ^ (z >> 31)


def stream(seed: int) -> Iterator[int]:
    """The 64-bit draws of splitmix64 from ``seed``."""
    state = seed & MASK
    while True:
        state = (state + GAMMA) & MASK
        yield mix64(state)
