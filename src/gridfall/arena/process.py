"""Run a bot program as a subprocess and talk to it line by line under deadlines.

The referee must survive any bot: one that never answers, one that dies, one
that prints without end, one that never reads its input.  So:

* stdout is read in chunks with ``select`` and a deadline, never with a
  blocking ``readline``; a line or a backlog over ``max_output`` bytes is a flood;
* stdin is written without blocking, within the same deadline, so a bot that
  does not read cannot stall the referee on a full pipe;
* with ``memory_mb``, the memory the bot's processes hold is measured while the
  referee waits for an answer (:mod:`gridfall.arena.memory`), and a bot over it loses;
* stderr is drained by a thread that keeps its tail (for crash reports) and each
  turn's debug output (:meth:`BotProcess.take_output`), both shown with their
  control characters as escapes (:mod:`gridfall.printable`);
* every wait also watches a wake-up pipe, so :meth:`BotProcess.close` (Ctrl-C,
  SIGTERM) ends a wait at once instead of at the turn's limit;
* and, on Linux, the end of the process it started (a pidfd): a bot that dies while a child
  it started keeps its output open has exited, with its code and stderr, not timed out;
* the bot runs in its own session, and on close everything it started is
  killed, even a child that left the session (:mod:`gridfall.arena.reaper`), and
  so it is if the referee is killed outright (:mod:`gridfall.arena.deadman`);
* with ``one_cpu``, the bot and all it starts run on one CPU, as on CodinGame: the
  least used, or ``cpu`` (:mod:`gridfall.arena.cpus`).

With ``private_channel`` the protocol runs over two pipes of its own, passed to
the child as file descriptors, instead of stdin and stdout: a harness that runs
untrusted code (the Match-3 player) keeps the protocol where that code's prints
cannot reach it; stdout and stderr then both go to the tail.

Times are wall-clock from the first byte sent to the end of the answer line,
which is how the platforms measure a turn.
"""

from __future__ import annotations

import atexit
import errno
import os
import selectors
import subprocess
import threading
import time
from collections import deque

from gridfall.arena import cpus, deadman, job_name, reaper
from gridfall.arena.memory import MB, held_bytes
from gridfall.arena.reaper import kill_tree
from gridfall.arena.signals import signals_held
from gridfall.printable import printable
from gridfall.run_seed import SEED_VARIABLE

_live: set["BotProcess"] = set()
_live_lock = threading.Lock()


def kill_all() -> None:
    """Kill every bot still running (on Ctrl-C, SIGTERM and at exit)."""
    with _live_lock:
        bots = list(_live)
    for bot in bots:
        bot.close()


atexit.register(kill_all)


def kill_bots_of(jobs: set[str]) -> None:
    """Kill the bots of the stopped ``jobs`` (by :mod:`.job_name`): on a Dask worker, other runs'
    games play on beside them.  A bot that such a job starts afterwards is refused (BotStopped),
    so its games end at once."""
    with _live_lock:
        bots = [bot for bot in _live if bot.job in jobs]
    for bot in bots:
        bot.close()


job_name.when_stopped(kill_bots_of)


def kill_strays() -> set[int]:
    """Kill and reap the bots of a referee that died in another process of ours (reaper.kill_strays),
    leaving this process's own live bots alone."""
    return reaper.kill_strays(lambda: {bot.proc.pid for bot in _live}, _live_lock)


def _exit_watch(pid: int) -> int | None:
    """A descriptor that reads ready once process ``pid`` has ended (Linux's pidfd), or None where
    there is none (another system, an old kernel, no descriptor left): a wait then ends at the
    pipe's end of file, as before."""
    try:
        return os.pidfd_open(pid)
    except (AttributeError, OSError):
        return None


class BotFailure(Exception):
    """The bot broke the protocol; ``reason`` is a short referee-style verdict."""

    reason = "Bot failure"

    def __init__(self, detail: str = ""):
        super().__init__(f"{self.reason}: {detail}" if detail else self.reason)
        self.detail = detail


class BotTimeout(BotFailure):
    reason = "Timeout"


NO_LINE = "no answer line in time"
LATE_WAIT = 0.5  # seconds at most that a late answer is waited for, to say how late it came
LATE = "answered after {ms} ms, over the limit of {limit} ms"  # a timeout's detail, when the answer came late


class BotExited(BotFailure):
    reason = "Bot crashed"


class BotFlooded(BotFailure):
    reason = "Output flood"


class BotStopped(BotFailure):
    reason = "Stopped by the referee"


class BotOverMemory(BotFailure):
    reason = "Memory limit exceeded"


class MachineCannotStartBot(Exception):
    """The referee's own machine could not start a bot (out of file descriptors, processes,
    threads or memory): no bot's fault, so no game may be scored for it.  The run stops, and
    what it stored is kept."""


# A start that fails with one of these failed for the machine, not for the bot: what to do.
MACHINE_ERRNOS = {
    errno.EMFILE: "this process's limit of open files: raise it (ulimit -n) or run fewer games at once",
    errno.ENFILE: "the system's limit of open files: close programs or run fewer games at once",
    errno.EAGAIN: "the limit of processes or threads (ulimit -u): raise it or run fewer games at once",
    errno.ENOMEM: "the machine's memory: run fewer games at once",
}


def _is_machines(e: BaseException) -> bool:
    """Whether a start failed for want of the machine's resources, not for the bot."""
    return ((isinstance(e, OSError) and e.errno in MACHINE_ERRNOS)
            or (isinstance(e, RuntimeError) and "can't start new thread" in str(e)))  # threading's words


def _machine_fault(command, e: BaseException) -> MachineCannotStartBot:
    if isinstance(e, OSError) and e.errno in MACHINE_ERRNOS:
        return MachineCannotStartBot(f"cannot start {command!r}: {e.strerror} ({MACHINE_ERRNOS[e.errno]})")
    return MachineCannotStartBot(f"cannot start {command!r}: {e} ({MACHINE_ERRNOS[errno.EAGAIN]})")


MEMORY_CHECK_SECONDS = 0.02  # a bot's memory is measured this often while the referee waits for it
LONGEST_WAIT = 60.0  # one select at most: a limit too long for the OS's clock (1e30 s) is waited out in steps
TURN_OUTPUT_BYTES = 2000  # of a turn's stderr kept for the record (the tail for crash reports is apart)
TAKE_CHUNKS = 64  # reads of 64 KiB at most when a turn's output is taken: a bot that floods stderr ends it


class BotProcess:
    """One running bot.  Use as a context manager so it is always killed.

    ``command`` is a shell command line (run with ``/bin/sh -c``) or an argv list;
    with ``private_channel`` an argv list, to which the two protocol descriptors
    (read requests, write answers) are appended.  With ``seed`` the bot's environment has
    ``GRIDFALL_SEED`` set to it (:mod:`gridfall.run_seed`): a bot that reads it, as the exported
    ones do, makes the same choices again in the same game.
    """

    def __init__(self, command: str | list[str], *, cwd: str | None = None, env: dict | None = None,
                 max_output: int = 1 << 20, private_channel: bool = False, memory_mb: float | None = None,
                 one_cpu: bool = False, cpu: int | None = None, seed: int | None = None):
        if seed is not None:
            env = {**(os.environ if env is None else env), SEED_VARIABLE: str(seed)}
        self.command = command
        self.cpu: int | None = None  # the CPU it is pinned to, with one_cpu: ``cpu``, or the least used
        self._seat: cpus.Seat | None = None
        self.max_output = max_output
        self.memory_mb = memory_mb
        self._next_memory_check = 0.0
        self._buffer = bytearray()
        self._stderr_tail: deque[bytes] = deque()
        self._stderr_size = 0
        self._turn_output = bytearray()  # stderr since the last take_output, its first TURN_OUTPUT_BYTES
        self._turn_output_cut = 0  # bytes of it beyond those
        self._lock = threading.Lock()
        self._closed = False
        self._waiting = 0  # threads inside send or read_line, which close() lets out before closing pipes
        self._quiet = threading.Condition()
        # A stop (Ctrl-C, SIGTERM) that cut the start in two would leave a bot no one can kill,
        # or the registry's lock held and the exit hung on it: it waits for the start to finish.
        with signals_held():
            self._start(command, cwd, env, private_channel, one_cpu, cpu)

    def _start(self, command, cwd, env, private_channel: bool, one_cpu: bool, cpu: int | None) -> None:
        argv = command if isinstance(command, list) else ["/bin/sh", "-c", command]
        pipes: list[int] = []  # every end made here, closed again if the start fails
        try:
            for _ in range(3 if private_channel else 1):
                pipes.extend(os.pipe())
        except OSError as e:
            for fd in pipes:
                os.close(fd)
            if _is_machines(e):
                raise _machine_fault(command, e) from None
            raise
        self._wake_r, self._wake_w = pipes[:2]
        child_ends: tuple[int, ...] = ()
        if private_channel:
            request_r, request_w, answer_r, answer_w = pipes[2:]
            child_ends = (request_r, answer_w)
            argv = [*argv, str(request_r), str(answer_w)]
        # Started, set up and registered under the lock: a close() in another thread that looks
        # for adopted orphans must see this bot as live, never as a stray to kill, and the stop
        # path's kill_all() (the main thread, while workers start bots) must never find a bot
        # half set up (it joined a drain thread not yet started: "cannot join thread before it
        # is started").
        with _live_lock:
            self.job = job_name.current()  # under the lock: a stop then finds it, or it sees the stop
            if job_name.told_to_stop():
                for fd in pipes:
                    os.close(fd)
                raise BotStopped(f"not started: its game was stopped ({command!r})")
            try:
                if one_cpu:
                    self._seat = cpus.take_seat(cpu)
                    self.cpu = self._seat.cpu
                with cpus.born_on(self.cpu):
                    self.proc = subprocess.Popen(
                        argv,
                        stdin=subprocess.DEVNULL if private_channel else subprocess.PIPE,
                        stdout=subprocess.PIPE,
                        stderr=subprocess.STDOUT if private_channel else subprocess.PIPE,
                        cwd=cwd,
                        env=env,
                        start_new_session=True,
                        pass_fds=child_ends,
                    )
            except BaseException as e:
                for fd in pipes:
                    os.close(fd)
                if self._seat is not None:
                    self._seat.release()
                if _is_machines(e):
                    raise _machine_fault(command, e) from None
                if isinstance(e, (OSError, ValueError)):
                    raise BotExited(f"cannot start {command!r}: {e}") from None
                raise
            deadman.started(self.proc.pid)  # killed outright, this process takes its bots with it
            stdin, stdout, stderr = self.proc.stdin, self.proc.stdout, self.proc.stderr
            assert stdout is not None  # a pipe either way
            if private_channel:
                for fd in child_ends:
                    os.close(fd)
                self._stdin_fd, self._stdout_fd = request_w, answer_r
                self._tail_stream = stdout
            else:
                assert stdin is not None and stderr is not None  # pipes without the private channel
                self._stdin_fd, self._stdout_fd = stdin.fileno(), stdout.fileno()
                self._tail_stream = stderr
            self._private = private_channel
            self._exit_fd = _exit_watch(self.proc.pid)
            try:
                os.set_blocking(self._stdin_fd, False)
                self._stderr_thread = threading.Thread(target=self._drain_stderr, daemon=True)
                self._stderr_thread.start()  # fails when the system is out of threads
            except BaseException as e:
                self._unstart(private_channel)
                if _is_machines(e):
                    raise _machine_fault(command, e) from None
                raise
            _live.add(self)

    def _unstart(self, private_channel: bool) -> None:
        """Kill and reap a bot that started but could not be set up (under the registry's lock,
        before it was registered): nothing else knows of it, so nothing else would kill it."""
        kill_tree(self.proc.pid, lambda: {bot.proc.pid for bot in _live})
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        if self.proc.returncode is not None:
            deadman.ended(self.proc.pid)
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            if stream is not None:
                stream.close()
        for fd in (self._wake_r, self._wake_w, *((self._stdin_fd, self._stdout_fd) if private_channel else ())):
            os.close(fd)
        if self._exit_fd is not None:
            os.close(self._exit_fd)
        if self._seat is not None:
            self._seat.release()

    # -- plumbing -------------------------------------------------------------

    def _drain_stderr(self) -> None:
        # The pipe is read only under the lock, and take_output empties it there too: so what the
        # bot wrote before its answer, which is in the pipe once the answer is read, is in that turn.
        fd = self._tail_stream.fileno()
        try:
            os.set_blocking(fd, False)
            with selectors.DefaultSelector() as sel:
                sel.register(fd, selectors.EVENT_READ)
                while True:
                    sel.select()
                    with self._lock:  # a chunk at a time: a flood must not keep the lock from the referee
                        if not self._read_stderr(fd, 1):
                            return
        except (OSError, ValueError):  # the stream was closed under the wait
            return

    def _read_stderr(self, fd: int, chunks: int) -> bool:
        """Read what the pipe holds now, up to ``chunks`` reads (under the lock); False at its end."""
        for _ in range(chunks):
            try:
                chunk = os.read(fd, 65536)
            except BlockingIOError:
                return True
            except OSError:
                return False
            if not chunk:
                return False
            self._stderr_tail.append(chunk)
            self._stderr_size += len(chunk)
            while self._stderr_size > 8192 and len(self._stderr_tail) > 1:
                self._stderr_size -= len(self._stderr_tail.popleft())
            room = max(TURN_OUTPUT_BYTES - len(self._turn_output), 0)
            self._turn_output += chunk[:room]
            self._turn_output_cut += len(chunk) - min(room, len(chunk))
        return True

    def take_output(self) -> str:
        """What the bot wrote to stderr since the last call (with ``private_channel``: everything it
        printed), up to TURN_OUTPUT_BYTES and a note of how much more, control characters escaped.
        Called as an answer is read, it is that turn's debug output, as the platforms' consoles
        show it."""
        with self._lock:
            try:
                self._read_stderr(self._tail_stream.fileno(), TAKE_CHUNKS)
            except ValueError:  # closed with the bot: the drain thread read it to its end
                pass
            data, cut = bytes(self._turn_output), self._turn_output_cut
            self._turn_output.clear()
            self._turn_output_cut = 0
        text = printable(data.decode("utf-8", "replace"))
        return text + (f"\n[... {cut:,} more bytes]" if cut else "")

    def stderr_tail(self, lines: int = 5) -> str:
        with self._lock:
            text = b"".join(self._stderr_tail).decode("utf-8", "replace")
        return printable("\n".join(text.rstrip().splitlines()[-lines:]))

    def _exit_detail(self, output_held: bool = False) -> str:
        try:
            code = self.proc.wait(timeout=0.5)
        except subprocess.TimeoutExpired:
            code = None
        self._stderr_thread.join(timeout=0.5)
        detail = "closed its output" if code is None else f"exited with code {code}"
        if output_held:
            detail += "; a process it started still holds its output (the referee judges the one it started)"
        tail = self.stderr_tail()
        return f"{detail}; stderr: {tail}" if tail else detail

    # -- the protocol ---------------------------------------------------------

    def _enter(self) -> None:
        with self._quiet:
            if self._closed:
                raise BotStopped()
            self._waiting += 1

    def _leave(self) -> None:
        with self._quiet:
            self._waiting -= 1
            self._quiet.notify_all()

    def send(self, text: str, deadline: float) -> None:
        """Write text before ``deadline`` (a time.monotonic() value)."""
        self._enter()
        try:
            self._send(text, deadline)
        finally:
            self._leave()

    def read_line(self, deadline: float) -> str:
        """The next output line (without its newline), read before ``deadline``."""
        self._enter()
        try:
            return self._read_line(deadline)
        finally:
            self._leave()

    def _send(self, text: str, deadline: float) -> None:
        data = memoryview(text.encode())
        with selectors.DefaultSelector() as sel:
            sel.register(self._stdin_fd, selectors.EVENT_WRITE)
            sel.register(self._wake_r, selectors.EVENT_READ)
            while data:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise BotTimeout("did not read its input")
                ready = sel.select(min(remaining, LONGEST_WAIT))
                self._check_stopped(ready)
                if not ready:
                    continue
                try:
                    written = os.write(self._stdin_fd, data)
                except BlockingIOError:
                    continue
                except OSError as e:
                    if e.errno in (errno.EPIPE, errno.EINVAL, errno.EBADF):
                        # The bot stopped reading (it may have exited).  An answer
                        # it already printed still counts: let the read decide.
                        return
                    raise
                data = data[written:]

    def _read_line(self, deadline: float) -> str:
        with selectors.DefaultSelector() as sel:
            sel.register(self._stdout_fd, selectors.EVENT_READ)
            sel.register(self._wake_r, selectors.EVENT_READ)
            if self._exit_fd is not None:
                sel.register(self._exit_fd, selectors.EVENT_READ)
            while True:
                newline = self._buffer.find(b"\n")
                if newline >= 0:
                    if time.monotonic() > deadline:  # read late: the referee cannot tell when it was written
                        raise BotTimeout("answer line completed after the time limit")
                    line = bytes(self._buffer[:newline])
                    del self._buffer[: newline + 1]
                    return line.decode("utf-8", "replace").rstrip("\r")
                if len(self._buffer) > self.max_output:
                    raise BotFlooded(f"more than {self.max_output} bytes without a newline")
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise BotTimeout(NO_LINE)
                ready = sel.select(min(remaining, MEMORY_CHECK_SECONDS if self.memory_mb else LONGEST_WAIT))
                self._check_stopped(ready)
                self._check_memory()
                if not ready:
                    continue
                if not any(key.fd == self._stdout_fd for key, _ in ready):
                    # its process ended, and what it wrote is read: a child it started holds the pipe
                    raise BotExited(self._exit_detail(output_held=True))
                try:
                    chunk = os.read(self._stdout_fd, 65536)
                except OSError:
                    chunk = b""
                if not chunk:
                    raise BotExited(self._exit_detail())
                self._buffer += chunk

    def _check_memory(self) -> None:
        """While it thinks, a bot over its memory limit loses, as the platform's would be killed.
        A measure that took long (a forked tree near the limit: its proportional sets are read)
        waits ten times as long for the next, so the referee spends at most a tenth of a core."""
        start = time.monotonic()
        if not self.memory_mb or start < self._next_memory_check:
            return
        held = held_bytes(self.proc.pid, self.memory_mb * MB)
        took = time.monotonic() - start
        self._next_memory_check = start + max(MEMORY_CHECK_SECONDS, 10 * took)
        if held is not None and held > self.memory_mb * MB:
            raise BotOverMemory(f"its processes held {held / MB:.0f} MB, over the {self.memory_mb:g} MB allowed")

    def _check_stopped(self, ready) -> None:
        if self._closed or any(key.fd == self._wake_r for key, _ in ready):
            raise BotStopped()

    def _how_late(self, start: float, timeout: float) -> str:
        """A bot out of time may still finish its line a little later: how late it was tells a
        margin to widen from a bot that hung.  It is waited for as long again as the limit, at most
        LATE_WAIT seconds, only to say so; the turn is lost either way."""
        try:
            self.read_line(start + timeout + min(timeout, LATE_WAIT))
        except BotStopped:
            raise
        except BotFailure:
            return NO_LINE
        took = time.monotonic() - start
        return LATE.format(ms=f"{took * 1000:.0f}", limit=f"{timeout * 1000:g}")

    def ask(self, text: str, timeout: float, how_late: bool = True) -> tuple[str, float]:
        """Send text, then read one answer line within ``timeout`` seconds in all.

        Returns the line and the seconds it took.  Extra lines a bot printed
        earlier are answers too, in order, as on the platform.  Out of time, the
        BotTimeout says how late the line came (``how_late``: see _how_late).
        """
        start = time.monotonic()
        deadline = start + timeout
        self.send(text, deadline)
        try:
            line = self.read_line(deadline)
        except BotTimeout as e:
            if e.detail != NO_LINE or not how_late:
                raise
            raise BotTimeout(self._how_late(start, timeout)) from None
        if len(self._buffer) > self.max_output:
            raise BotFlooded(f"more than {self.max_output} bytes of unread output")
        return line, time.monotonic() - start

    # -- lifetime -------------------------------------------------------------

    def close(self) -> None:
        """Kill the bot and everything it started; reap it.  Safe to call twice, from any thread:
        a wait in progress in another thread ends at once with BotStopped."""
        with _live_lock, self._quiet:
            if self._closed:
                return
            self._closed = True
            _live.discard(self)
        try:
            os.write(self._wake_w, b"x")
        except OSError:
            pass
        with self._quiet:  # let a wait in another thread see the wake-up before its pipes close
            self._quiet.wait_for(lambda: self._waiting == 0, timeout=2)
        kill_tree(self.proc.pid, lambda: {bot.proc.pid for bot in _live}, _live_lock)
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        if self.proc.returncode is not None:  # reaped: its pid may be another's from now on
            deadman.ended(self.proc.pid)
        self._stderr_thread.join(timeout=1)
        streams = [self.proc.stdin, self.proc.stdout, self.proc.stderr]
        for stream in streams:
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass
        fds = [self._wake_r, self._wake_w] + ([self._stdin_fd, self._stdout_fd] if self._private else []) + \
            ([self._exit_fd] if self._exit_fd is not None else [])
        for fd in fds:
            try:
                os.close(fd)
            except OSError:
                pass
        if self._seat is not None:
            self._seat.release()  # after the kill: the CPU is free only once the bot is gone

    def __enter__(self) -> "BotProcess":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
