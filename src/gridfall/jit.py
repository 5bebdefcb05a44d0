"""Shared numba machinery: the compile cache, bit intrinsics and a tiny seeded RNG.

Every fast engine imports numba through this module, so the cache directory is chosen
(:mod:`gridfall.numba_cache`) before numba reads its configuration.
"""

from __future__ import annotations

import sys
from typing import Any, Callable

from gridfall.numba_cache import CACHE_DIR  # first: it sets the folder numba reads

import numba  # noqa: E402  (must come after the cache directory is set)

# numba reads its environment when it is first imported, and again only at its next compile.  A
# program that imported numba before gridfall (for kernels of its own) had it read too early: the
# cache locator, chosen as each kernel below is defined, then put gridfall's kernels beside their
# source files, where an edit to one module leaves another's cached kernel stale.  Read it now.
numba.core.config.reload_config()

from gridfall import compile_stops, splitmix  # noqa: E402
from llvmlite import ir  # noqa: E402
from numba import types, uint64  # noqa: E402,F401  (uint64: for the engines, which import numba only from here)
from numba.core import caching as _caching  # noqa: E402
from numba.extending import intrinsic  # noqa: E402

compile_stops.install()  # a Ctrl-C during a compile in the caller's main thread is never lost

# --- a cache that cannot be written or read never stops a kernel -------------
# On Linux numba lets an OSError of its cache through: a full disk under the
# cache folder made every command, and every bot, fail while saving a kernel
# it had just compiled.  Saving is a saving of time only, and so is loading:
# a cache file that cannot be read (damaged, cut short) is compiled again.
_save_overload: Callable[..., Any] | None = getattr(getattr(_caching, "Cache", None), "save_overload", None)
_load_overload: Callable[..., Any] | None = getattr(getattr(_caching, "Cache", None), "load_overload", None)
_CACHE_WARNED: list[str] = []


def _cache_trouble(doing: str, error: BaseException) -> None:
    if not _CACHE_WARNED:  # once a process: a bot's debug output is not to be flooded
        _CACHE_WARNED.append(doing)
        reason = getattr(error, "strerror", None) or f"{type(error).__name__}: {error}"
        print(f"gridfall: cannot {doing} the numba cache in {CACHE_DIR} ({reason}); kernels are compiled "
              "in memory instead (slower starts, same results; a damaged cache mends once that folder is "
              "deleted)", file=sys.stderr, flush=True)


def _save_or_go_on(self, sig, data):
    assert _save_overload is not None  # installed only when numba has one
    try:
        _save_overload(self, sig, data)
    except Exception as e:  # noqa: BLE001 - a full disk (OSError), or a damaged index read before writing
        _cache_trouble("write", e)


def _load_or_compile(self, sig, target_context):
    assert _load_overload is not None
    try:
        return _load_overload(self, sig, target_context)
    except Exception as e:  # noqa: BLE001 - whatever a bad file raises, compiling again is right
        _cache_trouble("read", e)
        return None


if _save_overload and _load_overload:  # a numba that moved its cache keeps its own behaviour (tests/test_jit.py notices)
    _caching.Cache.save_overload = _save_or_go_on  # type: ignore[method-assign]
    _caching.Cache.load_overload = _load_or_compile  # type: ignore[method-assign]


def njit(*args, **kwargs):
    """``numba.njit`` with the project's defaults: cached and without bounds checks."""
    kwargs.setdefault("cache", True)
    return numba.njit(*args, **kwargs)


def kernel_intrinsic(define: Callable[..., Any]) -> Callable[..., Any]:
    """numba's ``intrinsic``, typed as kernels call it: without the typing context, which numba
    passes to ``define`` itself."""
    return intrinsic(define)


@kernel_intrinsic
def popcount(typingctx, x):
    """Number of set bits of a uint64 (one POPCNT instruction)."""
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return sig, codegen


@kernel_intrinsic
def ctz(typingctx, x):
    """Index of the lowest set bit of a uint64 (64 for zero)."""
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))

    return sig, codegen


# --- a seeded random generator usable inside kernels -----------------------
# State is a uint64[1] array owned by the caller, so that every search is
# reproducible from its seed and parallel workers never share a stream.
# splitmix64: one add, three xor-shift-multiplies; passes BigCrush.


def new_rng(seed: int):
    """A generator state for ``seed``.

    Every splitmix64 stream is the same cycle entered at a different point, and
    each draw steps the state by the golden gamma; so the seed is *mixed* into
    the starting point.  (Starting at ``seed * gamma`` would make seed 9 the
    stream of seed 3 shifted by six draws.)
    """
    import numpy as np

    return np.array([splitmix.mix64((seed * splitmix.GAMMA + 0x632BE59BD9B4E019) & splitmix.MASK)], dtype=np.uint64)


@njit(inline="always")
def mix_u64(z):
    """splitmix64's finaliser on a uint64 (the same steps as :func:`gridfall.splitmix.mix64`)."""
    z = (z ^ (z >> numba.uint64(30))) * numba.uint64(splitmix.MIX1)
    z = (z ^ (z >> numba.uint64(27))) * numba.uint64(splitmix.MIX2)
    return z ^ (z >> numba.uint64(31))


@njit(inline="always")
def next_u64(rng):
    rng[0] += numba.uint64(splitmix.GAMMA)
    return mix_u64(rng[0])


@njit(inline="always")
def below(rng, n):
    """A uniform integer in [0, n) (Lemire's multiply-shift, bias < 2**-32 for small n)."""
    return numba.int64(((next_u64(rng) >> numba.uint64(32)) * numba.uint64(n)) >> numba.uint64(32))


@njit(inline="always")
def uniform(rng):
    """A uniform float in [0, 1)."""
    return numba.float64(next_u64(rng) >> numba.uint64(11)) * (1.0 / 9007199254740992.0)


# --- a clock inside kernels ----------------------------------------------------
# numba cannot call time.monotonic(); LLVM's readcyclecounter is the CPU's time
# stamp counter on x86 (constant rate on every CPU of the last fifteen years).
# Python calibrates it once against time.perf_counter(); kernels compare ticks.


@kernel_intrinsic
def cycle_counter(typingctx):
    """The CPU's cycle/time-stamp counter (0 where the CPU has none)."""
    sig = types.uint64()

    def codegen(context, builder, signature, args):
        fnty = ir.FunctionType(ir.IntType(64), [])
        fn = builder.module.declare_intrinsic("llvm.readcyclecounter", fnty=fnty)
        return builder.call(fn, [])

    return sig, codegen


@numba.njit(cache=True)
def _ticks():
    return cycle_counter()


_TICKS_PER_SECOND: list[float] = []


def ticks_per_second() -> float:
    """Counter ticks per second, measured once (0.0 if the counter does not run)."""
    if not _TICKS_PER_SECOND:
        import time

        _ticks()
        t0, c0 = time.perf_counter(), int(_ticks())
        while time.perf_counter() - t0 < 0.02:
            pass
        t1, c1 = time.perf_counter(), int(_ticks())
        rate = (c1 - c0) / (t1 - t0)
        _TICKS_PER_SECOND.append(rate if rate > 1e6 else 0.0)
    return _TICKS_PER_SECOND[0]


def deadline_ticks(seconds_from_now: float) -> int:
    """The counter value ``seconds_from_now`` from now; 2**64-1 (never) without a counter, or past
    what its 64 bits count (centuries, and an infinite product that int() refuses)."""
    rate = ticks_per_second()
    ahead = seconds_from_now * rate
    if rate == 0.0 or not ahead < 2**63:
        return 2**64 - 1
    return int(_ticks()) + int(ahead)
