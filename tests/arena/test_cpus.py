"""One CPU a bot: seats on CPUs are counted across every gridfall process of the machine."""

import os
import signal
import subprocess
import sys

import pytest

from gridfall.arena import cpus

pytestmark = pytest.mark.skipif(not cpus.SUPPORTED, reason="one CPU per bot needs Linux")
TWO_CPUS = pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="needs two CPUs to choose between")


@pytest.fixture
def ledger(tmp_path, monkeypatch):
    # a ledger of the test's own, and TMPDIR so that a child process finds the same one
    monkeypatch.setattr(cpus, "LEDGER", str(tmp_path / f"gridfall-cpus-{os.getuid()}"))
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    return cpus.LEDGER


def _holder(seats: int) -> subprocess.Popen:
    """Another process that takes ``seats`` seats, says on which CPUs, and holds them."""
    code = ("import sys\nfrom gridfall.arena import cpus\n"
            f"seats = [cpus.take_seat() for _ in range({seats})]\n"
            "print(' '.join(str(s.cpu) for s in seats), flush=True)\nsys.stdin.read()\n")
    holder = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    return holder


@TWO_CPUS
def test_a_seat_another_process_holds_is_counted_and_freed_when_it_dies(ledger):
    lowest = min(os.sched_getaffinity(0))
    holder = _holder(1)
    try:
        assert holder.stdout.readline().split() == [str(lowest)]
        mine = cpus.take_seat()
        assert mine.cpu != lowest  # the workers of --cluster local:N each counted only their own: all on CPU 0
        mine.release()
    finally:
        holder.send_signal(signal.SIGKILL)  # dies holding its seat: the kernel lets go of the lock
        holder.wait()
        holder.stdin.close()
        holder.stdout.close()
    again = cpus.take_seat()
    assert again.cpu == lowest
    again.release()


@TWO_CPUS
def test_seats_spread_over_the_cpus_and_a_named_cpu_is_taken_as_asked(ledger):
    allowed = sorted(os.sched_getaffinity(0))
    seats = [cpus.take_seat() for _ in allowed]
    assert sorted(s.cpu for s in seats) == allowed  # one on each before any CPU gets a second
    joined = cpus.take_seat(seats[0].cpu)  # a game's second bot joins its opponent
    assert joined.cpu == seats[0].cpu
    for seat in [*seats, joined]:
        seat.release()
    seats[0].release()  # twice is harmless
    again = cpus.take_seat()
    assert again.cpu == allowed[0]
    again.release()


@TWO_CPUS
def test_without_a_usable_ledger_the_count_is_this_processs_own(tmp_path, monkeypatch):
    blocker = tmp_path / "a file"
    blocker.write_text("")
    monkeypatch.setattr(cpus, "LEDGER", str(blocker / "ledger"))  # cannot be made: falls back
    first, second = cpus.take_seat(), cpus.take_seat()
    assert first.cpu != second.cpu
    first.release()
    again = cpus.take_seat()
    assert again.cpu == first.cpu
    again.release()
    second.release()


def test_a_ledger_someone_else_could_have_made_is_not_trusted(ledger, tmp_path):
    os.symlink(tmp_path, ledger)  # not a directory of its own: a link
    seat = cpus.take_seat()
    assert seat.cpu in os.sched_getaffinity(0)
    assert not any(name.startswith("cpu") for name in os.listdir(tmp_path))
    seat.release()
