"""The shared numba helpers: seeded streams and bit intrinsics."""

import numpy as np
from numba import njit

from gridfall.jit import below, ctz, new_rng, next_u64, popcount, uniform


@njit
def draws(rng, k):
    out = np.zeros(k, dtype=np.uint64)
    for i in range(k):
        out[i] = next_u64(rng)
    return out


def test_seeds_give_unrelated_streams():
    streams = [set(draws(new_rng(seed), 200).tolist()) for seed in range(20)]
    for i in range(20):
        for j in range(i + 1, 20):
            assert not streams[i] & streams[j], (i, j)


def test_state_advances_in_the_callers_array():
    rng = new_rng(5)
    first = draws(rng, 3)
    assert not np.array_equal(first, draws(rng, 3))
    assert np.array_equal(first, draws(new_rng(5), 3))


@njit
def bounded(rng, n, k):
    out = np.zeros(k, dtype=np.int64)
    for i in range(k):
        out[i] = below(rng, n)
    return out


@njit
def unit(rng, k):
    out = np.zeros(k)
    for i in range(k):
        out[i] = uniform(rng)
    return out


def test_below_and_uniform_ranges():
    values = bounded(new_rng(1), 7, 7000)
    assert values.min() == 0 and values.max() == 6
    assert abs(np.bincount(values).astype(float) / 1000 - 1).max() < 0.15
    u = unit(new_rng(2), 5000)
    assert 0 <= u.min() and u.max() < 1 and abs(u.mean() - 0.5) < 0.02


@njit
def bits(x):
    return popcount(x), ctz(x)


def test_bit_intrinsics():
    assert bits(np.uint64(0b101000)) == (2, 3)
    assert bits(np.uint64(1 << 63)) == (1, 63)
    assert bits(np.uint64(0))[0] == 0
