"""The shared numba helpers: seeded streams and bit intrinsics."""

import os
import shutil

import numpy as np
import pytest
from numba import njit

from gridfall.jit import below, ctz, new_rng, next_u64, popcount, uniform

# One core, each cache in a folder of its own, no clock (machine_sharing.py).
pytestmark = pytest.mark.parallel_safe


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


def _call_kernel(tmp_path, cache, prelude=""):
    """A fresh process that compiles (or loads) a cached kernel of its own and calls it."""
    import subprocess
    import sys

    (tmp_path / "kern.py").write_text("from gridfall.jit import njit\n\n@njit\ndef add(a, b):\n    return a + b\n")
    script = f"import sys\nsys.path.insert(0, {str(tmp_path)!r})\n{prelude}\nimport kern\nprint(kern.add(2, 3))\n"
    return subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300,
                          env={**os.environ, "NUMBA_CACHE_DIR": str(cache)})


def test_a_cache_that_cannot_be_written_or_read_costs_a_compile_never_the_run(tmp_path):
    # a full disk under the cache made every command and bot fail with "No space left on device"
    full = _call_kernel(tmp_path, tmp_path / "full", prelude=(
        "import errno, os\nimport gridfall.jit\nfrom numba.core import caching\n"
        "def no_space(self, path):\n    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))\n"
        "caching.IndexDataCacheFile._open_for_write = no_space"))
    assert full.returncode == 0 and full.stdout == "5\n", full.stderr
    assert full.stderr.count("cannot write the numba cache") == 1 and "No space left on device" in full.stderr
    cache = tmp_path / "cache"
    first = _call_kernel(tmp_path, cache)
    assert first.returncode == 0 and first.stdout == "5\n" and first.stderr == ""
    files = [f for f in cache.rglob("kern.add*") if f.suffix in (".nbi", ".nbc")]
    assert files
    for f in files:  # damaged, as a disk error or a copy cut short leaves them
        f.write_bytes(b"garbage")
    damaged = _call_kernel(tmp_path, cache)
    assert damaged.returncode == 0 and damaged.stdout == "5\n", damaged.stderr
    assert "cannot read the numba cache" in damaged.stderr and "Traceback" not in damaged.stderr


def test_without_a_cache_directory_each_user_gets_a_temporary_one_and_a_process_cleans_its_own(tmp_path):
    # the shared /tmp/gridfall-cache was the first user's: every other user compiled afresh at every
    # start, into a folder of its own that was never deleted
    import subprocess
    import sys

    (tmp_path / "no-cache").write_text("")  # a file where the user's cache directory should be
    (tmp_path / "tmp").mkdir()
    env = {**{k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"},
           "XDG_CACHE_HOME": str(tmp_path / "no-cache"), "TMPDIR": str(tmp_path / "tmp")}

    def cache_dir() -> str:
        done = subprocess.run([sys.executable, "-c", "import gridfall.jit as j; print(j.CACHE_DIR)"],
                              capture_output=True, text=True, timeout=120, env=env)
        assert done.returncode == 0, done.stderr
        return done.stdout.strip()

    assert cache_dir().startswith(str(tmp_path / "tmp" / f"gridfall-cache-{os.getuid()}" / "numba"))
    shutil.rmtree(tmp_path / "tmp" / f"gridfall-cache-{os.getuid()}")
    (tmp_path / "tmp" / f"gridfall-cache-{os.getuid()}").write_text("")  # that one cannot be made either
    own = cache_dir()
    assert own.startswith(str(tmp_path / "tmp" / "gridfall-numba-")) and not os.path.exists(own)


def test_numba_imported_before_gridfall_still_caches_in_gridfalls_folder(tmp_path):
    # numba read its environment before gridfall set NUMBA_CACHE_DIR: every kernel was cached beside
    # its source (src/gridfall/__pycache__), out of reach of the folder per version of the source
    import subprocess
    import sys

    (tmp_path / "kern.py").write_text("from gridfall.jit import njit\n\n@njit\ndef add(a, b):\n    return a + b\n")
    script = (f"import numba, sys\nsys.path.insert(0, {str(tmp_path)!r})\nimport kern\nimport gridfall.jit as j\n"
              "print(kern.add(2, 3), numba.config.CACHE_DIR == j.CACHE_DIR)\n")
    env = {**{k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300, env=env)
    assert done.returncode == 0 and done.stdout == "5 True\n", done.stderr
    assert list((tmp_path / "cache" / "gridfall" / "numba").rglob("kern.add*.nbi"))
    assert not (tmp_path / "__pycache__").exists() or not list((tmp_path / "__pycache__").glob("*.nb*"))


def test_a_numba_cache_dir_that_cannot_be_written_is_named_and_gridfalls_own_folder_used(tmp_path):
    # numba skipped such a folder in silence and cached every kernel beside its source file (out of
    # reach of the folder per version of the source), while the bots said "compiling" at each start
    import subprocess
    import sys

    (tmp_path / "kern.py").write_text("from gridfall.jit import njit\n\n@njit\ndef add(a, b):\n    return a + b\n")
    (tmp_path / "a-file").write_text("")
    script = (f"import sys\nsys.path.insert(0, {str(tmp_path)!r})\nimport kern\nimport gridfall.jit as j\n"
              "print(kern.add(2, 3), j.CACHE_DIR)\n")
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "a-file" / "numba"), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300, env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"5 {tmp_path / 'cache' / 'gridfall' / 'numba'}"), done.stdout
    assert f"NUMBA_CACHE_DIR={tmp_path / 'a-file' / 'numba'} cannot be written" in done.stderr
    assert list((tmp_path / "cache" / "gridfall" / "numba").rglob("kern.add*.nbi"))
    assert not (tmp_path / "__pycache__").exists() or not list((tmp_path / "__pycache__").glob("*.nb*"))
