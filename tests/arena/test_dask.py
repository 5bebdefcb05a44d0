"""Arena runs on a real Dask cluster (a LocalCluster: a scheduler and worker processes on
loopback) give the results of the local pool, and a killed worker costs only its jobs in flight."""

import logging
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from contextlib import contextmanager, suppress

import pytest

from tests.adapters.extras import need
from tests.arena.arena_cli import Output, gridfall_json, pick, start, stored_games, wait_for_games
from tests.processes import running, stat_fields, stopped
from tests.sqlite_files import rows

distributed = need("distributed", "dask")

FAST = ["--first-turn-ms", "3000", "--turn-ms", "1000"]
# The tests marked parallel_safe mostly wait (for a scheduler that is not there, a worker that is
# gone), and their bots answer at once or never: they share the machine (machine_sharing.py).
# Those that compare a cluster's games with the local pool's, or pin CPUs, run alone.


def _games(db):
    return sorted(rows(db, "SELECT job, seats, moves, result FROM games"))


def _league(db, where):
    # deterministic bots (fixed rules, and alphabeta at a fixed depth): the same seeds, the same games
    return ["connect4", "league", "--bot", f"first={pick('first')}", "--bot", f"centre={pick('centre')}",
            "--bot", "alphabeta:2", "--games", "8", "--seed", "4", "--db", str(db), *FAST, *where]


def test_a_league_on_a_dask_local_cluster_plays_the_local_pools_games(tmp_path):
    local = gridfall_json(*_league(tmp_path / "local.sqlite", ["--workers", "2"]))
    dask = gridfall_json(*_league(tmp_path / "dask.sqlite", ["--cluster", "local:2"]))
    assert _games(tmp_path / "local.sqlite") == _games(tmp_path / "dask.sqlite")
    assert local["leaderboard"] == dask["leaderboard"]


def test_a_killed_worker_costs_only_its_jobs_in_flight(tmp_path):
    from gridfall.arena.dask_executor import DaskExecutor, DropAllExit
    from gridfall.arena.executor import drive
    from gridfall.arena.limits import Limits
    from gridfall.connect4.match import PairJob, opening, play_pair

    limits = Limits(3.0, 1.0)
    jobs = [PairJob(f"pair {k}", ("a", "b"), (pick("first", 0.01), pick("centre", 0.01)), opening(1, k, 2), limits, k)
            for k in range(12)]
    expected = {job.key: [r.moves for r in play_pair(job)] for job in jobs[:3]}
    executor = DaskExecutor("local:2")
    try:
        assert any(isinstance(f, DropAllExit) for f in logging.getLogger("asyncio").filters)
        pids = list(executor.client.run(os.getpid).values())
        results = {}
        killed = []

        def on_result(job, records):
            results[job.key] = [r.moves for r in records]
            if len(results) == 2 and not killed:  # a pair is in flight on each worker: kill one worker
                os.kill(pids[0], signal.SIGKILL)
                killed.append(time.monotonic())

        interrupted = drive(executor, iter(jobs), play_pair, on_result)
    finally:
        executor.close()
    assert not interrupted and killed
    # the killed worker's bots were adopted by this process; closing killed and reaped them
    assert _adopted_bots() == []
    assert sorted(results) == sorted(job.key for job in jobs)  # every pair finished, none lost
    for key, moves in expected.items():
        assert results[key] == moves
    assert all(len(r) == 2 for r in results.values())


ABANDONED_WAITS = """
import asyncio, gc, logging, sys
from distributed.client import AllExit
from gridfall.arena.dask_executor import DropAllExit
if sys.argv[1] == "filtered":
    logging.getLogger("asyncio").addFilter(DropAllExit(AllExit))
async def fails(error):
    raise error
async def main():  # two tasks whose exceptions nobody retrieves, as a fetch abandoned by a stop leaves them
    tasks = [asyncio.ensure_future(fails(AllExit())), asyncio.ensure_future(fails(ValueError("a real one")))]
    await asyncio.sleep(0.05)
    tasks.clear()
    gc.collect()
asyncio.run(main())
"""


@pytest.mark.parallel_safe
def test_an_abandoned_fetch_leaves_no_traceback_and_real_errors_still_show():
    """A league stopped by SIGTERM while a result's fetch waited for a worker printed distributed's
    AllExit as "Task exception was never retrieved" with a traceback (seen once in a full run of
    the test below); the executor's filter drops that report, and only that one."""
    plain, filtered = (subprocess.run([sys.executable, "-c", ABANDONED_WAITS, mode], capture_output=True, text=True,
                                      timeout=60) for mode in ("plain", "filtered"))
    assert "exception=AllExit()" in plain.stderr and "distributed.client.AllExit" in plain.stderr
    assert "AllExit" not in filtered.stderr
    assert "exception=ValueError('a real one')" in filtered.stderr and "ValueError: a real one" in filtered.stderr


CLOSED_COMM = """
import logging, sys
import distributed  # its own logging: INFO and up of "distributed" to stderr
from distributed.client import AllExit
from gridfall.arena.dask_executor import quiet_client_logs
if sys.argv[1] == "quiet":
    quiet_client_logs(AllExit)
try:
    raise OSError("stream closed")
except OSError:  # as distributed's BatchedSend logs a comm the scheduler closed
    logging.getLogger("distributed.batched").info("Batched Comm Closed <TCP remote>", exc_info=True)
logging.getLogger("distributed.core").warning("Event loop was unresponsive in Client for 3.2s")
"""


@pytest.mark.parallel_safe
def test_the_clients_info_lines_and_their_tracebacks_stay_out_of_a_runs_stderr():
    """Seen once in a loaded full run: as the scheduler was killed, the league's stderr held
    distributed's "Batched Comm Closed" INFO line with its traceback, beside the run's one line."""
    plain, quiet = (subprocess.run([sys.executable, "-c", CLOSED_COMM, mode], capture_output=True, text=True,
                                   timeout=60) for mode in ("plain", "quiet"))
    assert "Batched Comm Closed" in plain.stderr and "Traceback" in plain.stderr
    assert "Batched Comm Closed" not in quiet.stderr and "Traceback" not in quiet.stderr
    assert "Event loop was unresponsive" in quiet.stderr  # its warnings still show


def _adopted_bots():
    """Our children, live or zombies, in a session not ours: bots whose referee died."""
    found = []
    for name in filter(str.isdigit, os.listdir("/proc")):
        try:
            fields = stat_fields(name)
        except OSError:
            continue
        if int(fields[1]) == os.getpid() and int(fields[3]) != os.getsid(0):
            found.append((int(name), fields[0]))
    return found


def test_a_campaign_on_a_dask_local_cluster_finds_the_local_pools_lines(tmp_path):
    from tests.arena.arena_cli import gridfall

    def campaign(name, where):
        done = gridfall("samegame", "campaign", "--set", "tuning", "--boards", "1,2,3", "--rounds",
                        "beam:60:max_width=8,beam:60:max_width=4", "--passes", "2", "--fresh",
                        "--store", str(tmp_path / f"{name}.store"), "--db", str(tmp_path / f"{name}.sqlite"), *where)
        assert done.returncode == 0, done.stderr
        return sorted(rows(tmp_path / f"{name}.sqlite", "SELECT job, moves, result FROM games"))

    local = campaign("local", ["--workers", "2"])
    dask = campaign("dask", ["--cluster", "local:2"])
    assert len(local) == 6 and local == dask


@contextmanager
def _tcp_cluster(worker_env=None):
    """A `dask scheduler` and a `dask worker` (two nannies, a worker process each) on loopback."""
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    address = f"tcp://127.0.0.1:{port}"
    dask = [sys.executable, "-m", "distributed.cli.dask_scheduler"]
    scheduler = subprocess.Popen([*dask, "--host", "127.0.0.1", "--port", str(port), "--dashboard-address", ":0"],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    worker = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", address, "--nthreads", "1",
                               "--nworkers", "2", "--no-dashboard"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              env=worker_env)
    try:
        yield address, scheduler, worker
    finally:
        for process in (worker, scheduler):
            process.terminate()
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()


def test_a_league_through_a_dask_scheduler_on_tcp(tmp_path):
    """The multi-machine path of the README: a `dask scheduler`, a `dask worker`, --cluster tcp://."""
    with _tcp_cluster() as (address, *_):
        out = gridfall_json(*_league(tmp_path / "tcp.sqlite", ["--cluster", address]))
        assert sum(b["games"] for b in out["leaderboard"]) == 16
        local = gridfall_json(*_league(tmp_path / "local.sqlite", ["--workers", "2"]))
        assert _games(tmp_path / "tcp.sqlite") == _games(tmp_path / "local.sqlite")
        assert out["leaderboard"] == local["leaderboard"]


@pytest.mark.parallel_safe
def test_workers_that_run_another_gridfall_are_refused_before_any_game(tmp_path):
    """A worker's gridfall differs from this one by a comment: same version, another checkout."""
    import shutil

    import gridfall
    from tests.arena.arena_cli import gridfall as run_gridfall

    other = tmp_path / "other"
    shutil.copytree(os.path.dirname(gridfall.__file__), other / "gridfall", ignore=shutil.ignore_patterns("__pycache__"))
    with open(other / "gridfall" / "words.py", "a") as f:
        f.write("# edited on one machine only\n")
    env = {**os.environ, "PYTHONPATH": str(other)}
    with _tcp_cluster(worker_env=env) as (address, *_):
        with distributed.Client(address, timeout="30s") as client:
            client.wait_for_workers(2, timeout=60)  # both there when the run starts: it checks them then
        done = run_gridfall(*_league(tmp_path / "x.sqlite", ["--cluster", address]), timeout=120)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert f"this machine runs gridfall {gridfall.__version__}+" in done.stderr
    assert f"but 2 workers run {gridfall.__version__}+" in done.stderr
    assert "install the same gridfall on every worker" in done.stderr
    assert not os.path.exists(tmp_path / "x.sqlite") or not stored_games(tmp_path / "x.sqlite")


@pytest.mark.parallel_safe
def test_a_job_on_a_worker_that_runs_another_gridfall_fails_by_name():
    """A worker that joins after the start was not checked then: each job checks where it runs."""
    import pytest

    from gridfall.fingerprint import OtherGridfall, fingerprint, run_checked

    assert run_checked(fingerprint(), len, "abc") == 3
    with pytest.raises(OtherGridfall, match="this worker runs gridfall .*, the run's coordinator 0.0.0"):
        run_checked("0.0.0+000000000000", len, "abc")


@pytest.mark.parallel_safe
def test_a_remote_worker_killed_mid_game_leaves_no_bot_running(tmp_path):
    """The worker's nanny adopts the bots of its dead worker and kills them (dask_nanny)."""
    from gridfall.arena.dask_executor import DaskExecutor
    from gridfall.arena.limits import Limits
    from gridfall.connect4.match import PairJob, opening, play_pair

    hung = tmp_path / "hung.py"  # writes its pid, then never answers and ignores the end of its input
    hung.write_text("import os, signal, sys, time\nsignal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
                    "open(sys.argv[1] + '.' + str(os.getpid()), 'w').close()\ntime.sleep(1000)\n")
    bot = f"{sys.executable} -I {hung} {tmp_path / 'pid'}"
    with _tcp_cluster() as (address, *_):
        executor = DaskExecutor(address)
        try:
            job = PairJob("pair 0", ("hung", "first"), (bot, pick("first")), opening(1, 0, 2), Limits(60.0, 60.0), 0)
            future = executor.submit(play_pair, job)
            deadline = time.monotonic() + 60
            while not list(tmp_path.glob("pid.*")) and time.monotonic() < deadline:
                time.sleep(0.05)
            (pid_file,) = tmp_path.glob("pid.*")
            pid = int(pid_file.suffix[1:])
            # kill the worker whose game holds the bot: the parent of the bot's session leader
            session = int(stat_fields(pid)[3])
            os.kill(int(stat_fields(session)[1]), signal.SIGKILL)
            deadline = time.monotonic() + 30
            while os.path.exists(f"/proc/{pid}") and time.monotonic() < deadline:
                time.sleep(0.1)
            assert not os.path.exists(f"/proc/{pid}"), "the dead worker's bot is still running"
            # the game runs again on the restarted worker; this time the cluster stops mid-game
            deadline = time.monotonic() + 60
            while len(list(tmp_path.glob("pid.*"))) < 2 and time.monotonic() < deadline:
                time.sleep(0.05)
            (again,) = {int(p.suffix[1:]) for p in tmp_path.glob("pid.*")} - {pid}
            executor.cancel([future])
        finally:
            executor.close()
    deadline = time.monotonic() + 30
    while os.path.exists(f"/proc/{again}") and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not os.path.exists(f"/proc/{again}"), "a bot outlived the cluster's workers"


@pytest.mark.parallel_safe
def test_no_scheduler_at_the_address_is_a_usage_error(tmp_path):
    from tests.arena.arena_cli import gridfall

    done = gridfall(*_league(tmp_path / "x.sqlite", ["--cluster", "tcp://127.0.0.1:9"]), timeout=120)
    assert done.returncode == 2 and "no Dask scheduler answered" in done.stderr and "Traceback" not in done.stderr
    bad = gridfall(*_league(tmp_path / "y.sqlite", ["--cluster", "local:zero"]))
    assert bad.returncode == 2 and "local:N wants a number of workers" in bad.stderr
    squared = gridfall(*_league(tmp_path / "v.sqlite", ["--cluster", "local:\u00b2"]))  # '²': an internal error
    assert squared.returncode == 2 and "local:N wants a number of workers" in squared.stderr
    garbage = gridfall(*_league(tmp_path / "z.sqlite", ["--cluster", "garbage"]))  # was told of local:N
    assert garbage.returncode == 2 and "neither a scheduler's address (tcp://HOST:PORT) nor local:N" in garbage.stderr
    many = gridfall(*_league(tmp_path / "w.sqlite", ["--cluster", "local:100000"]))  # a typo's zeros: a process each
    assert many.returncode == 2 and "local:N wants a number of workers from 1 to 256" in many.stderr
    both = gridfall(*_league(tmp_path / "u.sqlite", ["--cluster", "local:1", "--workers", "2"]))  # one is ignored
    assert both.returncode == 2 and "--workers: not with --cluster" in both.stderr
    wrapped = gridfall(*_league(tmp_path / "t.sqlite", ["--cluster", "tcp://127.0.0.1:99999"]))  # port 34463 to a socket
    assert wrapped.returncode == 2 and "port 99999 is not one of 1-65535" in wrapped.stderr
    with socket.create_server(("127.0.0.1", 0)) as listener:  # not a scheduler: was numpy asking for 2.82 EiB
        def banner():
            connection, _ = listener.accept()
            with connection:
                connection.sendall(b"SSH-2.0-OpenSSH_9.2\r\n")
                with suppress(OSError):  # reset by the probe: it hangs up with the banner unread
                    connection.recv(1)
        threading.Thread(target=banner, daemon=True).start()
        ssh = gridfall(*_league(tmp_path / "s.sqlite", ["--cluster", f"tcp://127.0.0.1:{listener.getsockname()[1]}"]))
    assert ssh.returncode == 2 and "Traceback" not in ssh.stderr and "internal error" not in ssh.stderr
    assert "what answers there is not a Dask scheduler: it began with b'SSH-2.0-'" in ssh.stderr
    assert "8787 is its dashboard" in ssh.stderr
    # what can be checked without a scheduler is checked before the run's database is made, and a
    # database made for a run that could not start is deleted: nothing is left behind
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parallel_safe
def test_local_workers_that_cannot_start_are_one_message(monkeypatch):
    """distributed raises RuntimeError("Nanny failed to start.") when a worker process cannot start
    (run from a script on stdin, say): the run says so in one line, not an internal error."""
    from gridfall.arena.dask_executor import DaskExecutor
    from gridfall.arena.executor import ExecutorError

    def cannot_start(*args, **kwargs):
        raise RuntimeError("Nanny failed to start.")

    monkeypatch.setattr(distributed, "LocalCluster", cannot_start)
    with pytest.raises(ExecutorError, match=r"--cluster local:2: Dask could not start its local workers "
                                            r"\(RuntimeError: Nanny failed to start.\)"):
        DaskExecutor("local:2")


def _slow_league(db, address):
    """A league of many quick games, each move a little slow: under way for as long as a test needs."""
    return ["connect4", "league", "--bot", f"a={pick('first', 0.02)}", "--bot", f"b={pick('centre', 0.02)}",
            "--games", "400", "--db", str(db), "--cluster", address, *FAST]


@pytest.mark.parallel_safe
def test_a_lost_scheduler_ends_the_run_in_one_message_with_its_games_kept(tmp_path):
    """The scheduler dies mid-league: one line says so and how to resume (it was distributed's
    tracebacks, then "internal error: FuturesCancelledError"), and the games stored stay."""
    db = tmp_path / "lost.sqlite"
    with _tcp_cluster() as (address, scheduler, _):
        league = start(*_slow_league(db, address))
        stored = wait_for_games(db, 2)
        scheduler.kill()
        _, err = league.communicate(timeout=120)
    assert league.returncode == 1, err
    assert f"lost the Dask scheduler at {address}" in err and "run the same command again" in err
    assert "Traceback" not in err and "internal error" not in err
    assert stored_games(db) >= stored >= 2


@pytest.mark.parallel_safe
def test_a_cluster_left_without_workers_says_so_and_stops_on_sigterm_with_its_games_kept(tmp_path):
    """Every worker gone: the games wait for one to join, as Dask does, and the run says so once
    instead of sitting silent; SIGTERM then stops it as it stops any run."""
    db = tmp_path / "alone.sqlite"
    with _tcp_cluster() as (address, _, worker):
        league = start(*_slow_league(db, address))
        output = Output(league)
        stored = wait_for_games(db, 2)
        worker.terminate()  # the `dask worker` closes its nannies, and they sweep their bots (dask_nanny)
        worker.wait(timeout=30)
        said = output.wait_for(f"no Dask worker at {address} for 10 s; the games wait for one to join", 60)
        league.send_signal(signal.SIGTERM)
        _, err = output.finish()
    assert said, err
    assert league.returncode == 128 + signal.SIGTERM, err
    assert "Traceback" not in err
    assert stored_games(db) >= stored >= 2


def test_one_cpu_spreads_the_games_of_a_clusters_workers(tmp_path, monkeypatch):
    # each worker process counted only its own bots: every game of local:2 went to CPU 0
    if not hasattr(os, "sched_setaffinity") or len(os.sched_getaffinity(0)) < 2:
        pytest.skip("needs Linux and two CPUs")
    record = tmp_path / "cpus.txt"
    monkeypatch.setenv("PICK_RECORD_CPUS", str(record))
    gridfall_json("connect4", "league", "--bot", f"first={pick('first', 0.05)}", "--bot", f"centre={pick('centre', 0.05)}",
                  "--games", "8", "--db", str(tmp_path / "league.sqlite"), "--cluster", "local:2", "--one-cpu", *FAST)
    masks = record.read_text().split("\n")[:-1]
    assert len(masks) == 16 and all(len(mask.split()) == 1 for mask in masks)
    assert len(set(masks)) > 1


@pytest.mark.parallel_safe
def test_a_failed_fetch_is_asked_again_and_only_the_jobs_own_error_fails_the_job(monkeypatch):
    """The scheduler killed mid-fetch reset the connection before the client knew it was gone: the
    fetch's OSError ended the league as a job's failure ("pair 3: ... reset by peer", once in a
    CI run of the test above) instead of "lost the Dask scheduler"."""
    from gridfall.arena import dask_executor as ex

    monkeypatch.setattr(ex, "POLL_SECONDS", 0.001)

    class Client:
        status = "running"

    class Handle:
        key = "a job"

        def __init__(self, status, errors):
            self.status, self.errors, self.asked = status, list(errors), 0

        def result(self, timeout):
            self.asked += 1
            if self.errors:
                raise self.errors.pop(0)
            return "result"

    dask = ex.DaskExecutor.__new__(ex.DaskExecutor)
    dask.distributed, dask.client, dask.address, dask.names = distributed, Client(), "tcp://10.0.0.1:8786", {}
    reset = ConnectionResetError("Connection reset by peer")
    once = Handle("finished", [reset])  # a fetch that failed once is asked again
    assert dask.result(once) == "result" and once.asked == 2
    with pytest.raises(ex.ExecutorLost, match=r"lost the Dask scheduler at tcp://10.0.0.1:8786 \(Connection reset"):
        dask.result(Handle("finished", [reset] * ex.FETCH_TRIES))
    with pytest.raises(ValueError, match="the job's own"):  # a job that raised: its error, at once
        dask.result(Handle("error", [ValueError("the job's own")]))
    dask.client.status = "connecting"  # the client knows the scheduler is gone: lost at once
    gone = Handle("finished", [reset, reset])
    with pytest.raises(ex.ExecutorLost):
        dask.result(gone)
    assert gone.asked == 1


def _pie_jobs():
    from gridfall.connect4.pie import PieGame, play_pie_game

    endless = [PieGame(column, 0, 0, ("gridfall", "mcts-solver"), 2, 1e9, 0, 1e9, 0) for column in (0, 1)]
    return play_pie_game, endless, PieGame(2, 0, 0, ("greedy", "random"), 0, 0.001, 0, 0.1, 0)


def _campaign_jobs():
    from gridfall.samegame.campaign import BoardPass, Round, play_board_pass

    def board_pass(n, round_):
        return BoardPass(f"pass 1 tuning:{n}", f"tuning:{n}", (round_,), 0, 1, None, None, False, False)

    return play_board_pass, [board_pass(n, Round("nrpa", 1e6)) for n in (1, 2)], board_pass(3, Round("beam", 0.5))


@pytest.mark.parametrize("jobs", [_pie_jobs, _campaign_jobs], ids=["pie-rule games", "campaign board passes"])
def test_a_stopped_run_frees_the_workers_of_the_jobs_in_their_threads(jobs):
    """A pie-rule game, or a campaign's board pass, runs in the worker's thread, not in a bot:
    cancelled while it ran, it went on there for as long as its turns or its rounds (for good
    with --turn-ms 1e300: the worker lost to later runs)."""
    from gridfall.arena import job_name
    from gridfall.arena.dask_executor import DaskExecutor
    from gridfall.arena.executor import drive

    work, endless, quick = jobs()
    with _tcp_cluster() as (address, *_):
        executor = DaskExecutor(address)
        try:
            start = time.monotonic()

            def both_under_way() -> bool:  # on the two workers, each in its thread
                names = [name for names in executor.client.run(job_name.under_way).values() for name in names]
                assert time.monotonic() - start < 60, f"the jobs did not start: {names}"
                return len(names) == 2

            drive(executor, endless, work, lambda job, result: None, stop=both_under_way)
            assert executor.submit(work, quick).result(timeout=60)  # a worker is free for it
        finally:
            executor.close()


def test_a_campaign_stopped_on_a_cluster_stores_the_lines_its_workers_were_searching(tmp_path):
    """A stop drains a campaign on a cluster as it does a local one: each board pass under way
    stops where it runs and sends back its round's best line, which is stored.  The run cancelled
    them, and the minutes they had searched were lost ("total ... 0")."""
    from gridfall.arena import job_name

    store = tmp_path / "store.sqlite"
    with _tcp_cluster() as (address, *_):
        command = [sys.executable, "-m", "gridfall", "samegame", "campaign", "--set", "tuning", "--boards", "1,2",
                   "--rounds", "nrpa:100000", "--store", str(store), "--db", str(tmp_path / "run.sqlite"),
                   "--cluster", address]
        with open(tmp_path / "out.txt", "w") as printed:
            campaign = subprocess.Popen(command, stdout=printed, stderr=subprocess.PIPE, text=True)
        try:
            with distributed.Client(address, timeout=30) as client:
                start = time.monotonic()
                while len([n for names in client.run(job_name.under_way).values() for n in names]) < 2:
                    assert time.monotonic() - start < 60 and campaign.poll() is None, "the passes did not start"
                    time.sleep(0.2)
        finally:
            err, took = stopped(campaign, signal.SIGTERM, settle=1.0)  # each pass has a line by then
        out = (tmp_path / "out.txt").read_text()
    assert campaign.returncode == 128 + signal.SIGTERM, err
    assert took < 15, took
    for board in ("tuning:1", "tuning:2"):
        assert f"{board}: stopped; the round under way stored its best line so far" in out, out
    stored = rows(store, "SELECT score FROM solutions")
    assert len(stored) == 2 and all(score > 0 for (score,) in stored), stored
    assert "Traceback" not in err


def test_a_stopped_league_kills_the_bots_of_its_games_on_the_workers(tmp_path):
    """A cancelled game that runs goes on in its worker's thread: its bots were killed only in the
    coordinating process, so a bot that hangs under turns of 1e300 ms held the worker for good."""
    from tests.processes import live_commands

    hang = tmp_path / "hang.py"
    hang.write_text("import sys, time\nsys.stdin.readline()\ntime.sleep(10**6)\n")
    with _tcp_cluster() as (address, *_):
        command = [sys.executable, "-m", "gridfall", "connect4", "league", "--bot", f"hang={sys.executable} {hang}",
                   "--bot", "random", "--games", "4", "--first-turn-ms", "1e300", "--turn-ms", "1e300",
                   "--db", str(tmp_path / "league.sqlite"), "--cluster", address]
        league = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            start = time.monotonic()
            while len([c for c in live_commands(str(hang)) if "gridfall" not in c]) < 2:  # a game on each worker
                assert time.monotonic() - start < 60 and league.poll() is None, "the games did not start"
                time.sleep(0.2)
        finally:
            err, _ = stopped(league, signal.SIGTERM, settle=0)
        assert league.returncode == 128 + signal.SIGTERM, err
        start = time.monotonic()
        while [c for c in live_commands(str(hang)) if "gridfall" not in c]:  # the cluster still runs
            assert time.monotonic() - start < 15, live_commands(str(hang))
            time.sleep(0.2)


def _children(pid: int) -> list[int]:
    with open(f"/proc/{pid}/task/{pid}/children") as f:
        return [int(child) for child in f.read().split()]


def test_a_campaign_stopped_while_its_workers_warm_closes_its_cluster_and_says_so(tmp_path):
    """SIGTERM while a local cluster's workers compiled their kernels killed the campaign on the
    spot, with no word, and its cluster was left to the exit: "leaked semaphore" warnings, and,
    under Ctrl-C, the scheduler's ERROR lines after "Aborted!"."""
    command = [sys.executable, "-m", "gridfall", "samegame", "campaign", "--set", "tuning", "--boards", "1",
               "--rounds", "nrpa:10", "--store", str(tmp_path / "store.sqlite"), "--db", str(tmp_path / "run.sqlite"),
               "--cluster", "local:1"]
    log = tmp_path / "err.txt"
    with open(log, "w") as err:  # a cold cache: the worker compiles for a minute
        campaign = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=err, text=True,
                                    env={**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cold")})
    try:
        start = time.monotonic()
        while "compiling the samegame kernels" not in log.read_text():
            assert time.monotonic() - start < 60 and campaign.poll() is None, log.read_text()
            time.sleep(0.1)
        workers = _children(campaign.pid)
        campaign.send_signal(signal.SIGTERM)
        campaign.wait(timeout=60)
    finally:
        campaign.kill()
    said = log.read_text()
    assert campaign.returncode == 128 + signal.SIGTERM, said
    assert said.splitlines()[-1] == "Aborted!" and "ERROR" not in said and "leaked" not in said, said
    start = time.monotonic()
    while any(running(pid) for pid in workers):
        assert time.monotonic() - start < 10, "the cluster's processes outlived the campaign"
        time.sleep(0.2)
