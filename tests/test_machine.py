"""The cores gridfall counts: those this process may use (its CPU affinity), not the machine's."""

import json
import os
import subprocess
import sys

import pytest

pytestmark = [
    pytest.mark.parallel_safe,  # one core, no bot against a clock (machine_sharing.py)
    pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="a process's CPUs are set on Linux"),
]


def on_one_cpu(*args: str) -> str:
    """stdout of ``python args`` run on one CPU of this process's, as `taskset -c N` runs it."""
    return run_on_one_cpu(*args).stdout


def run_on_one_cpu(*args: str) -> subprocess.CompletedProcess:
    one_cpu = min(os.sched_getaffinity(0))
    done = subprocess.run([sys.executable, *args], capture_output=True, text=True, timeout=120,
                          preexec_fn=lambda: os.sched_setaffinity(0, {one_cpu}))
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    return done


def test_on_one_cpu_every_default_count_of_workers_is_one():
    counts = on_one_cpu("-c", "from gridfall.cli_options import all_cores; from gridfall.machine import "
                              "usable_cores; print(usable_cores(), all_cores())")
    assert counts.split() == ["1", "1"]


def test_on_one_cpu_solve_searches_with_one_worker():
    """solve's --workers defaults to the cores: under taskset on two cores it started two searches
    that shared one, each with half of it."""
    out = on_one_cpu("-m", "gridfall", "samegame", "solve", "standard:1", "--time", "0.2", "--no-store", "--json")
    assert json.loads(out)["workers"] == 1


def test_the_machine_line_says_how_many_cores_may_be_used_where_fewer_than_the_machines():
    line = on_one_cpu("-c", "from gridfall.machine import machine_line; print(machine_line())")
    cores = os.cpu_count() or 1
    assert f", {cores} cores{' (1 usable)' if cores > 1 else ''}, Python " in line, line


@pytest.mark.parametrize("workers, said", [(2, True), (1, False)])
def test_more_games_at_once_than_usable_cores_is_said_and_played(workers, said):
    """Two games at once on one CPU share it, and a bot against the clock thinks less in its time:
    the referee says so on stderr, and plays them as asked."""
    done = run_on_one_cpu("-m", "gridfall", "connect4", "referee", "--p1", "greedy", "--p2", "random",
                          "--games", "2", "--workers", str(workers), "--json")
    warning = "gridfall: --workers 2: 2 games at once on 1 core (those this process may use): they share cores"
    assert (warning in done.stderr) == said, done.stderr
    played = json.loads(done.stdout)
    assert played["wins"] + played["draws"] + played["losses"] == 2, played


@pytest.mark.parametrize("workers, jobs, threads, said", [
    (3, 2, 1, "gridfall: --workers 3: 2 boards at once on 1 core"),  # a campaign of two boards
    (3, 1, 1, ""),  # one board: its passes run one after another
    (1, 5, 1, ""),
    (1, 5, 2, "gridfall: --workers 1: 1 board of 2 threads at once on 1 core"),
])
def test_the_arena_says_more_jobs_at_once_than_cores_by_what_they_are(monkeypatch, capsys, workers, jobs, threads,
                                                                      said):
    import gridfall.machine
    from gridfall.arena.runs import open_executor

    monkeypatch.setattr(gridfall.machine, "usable_cores", lambda: 1)
    executor = open_executor(workers, None, None, "board", jobs, threads)
    executor.close()
    err = capsys.readouterr().err
    assert (said in err) if said else err == "", err


def test_searches_at_once_beyond_the_cores_are_said():
    done = run_on_one_cpu("-m", "gridfall", "samegame", "solve", "standard:1", "--time", "0.05", "--algo", "beam",
                          "--workers", "2", "--no-store")
    assert "gridfall: --workers 2: 2 searches at once on 1 core" in done.stderr, done.stderr
    assert done.stdout.startswith("standard:1: score "), done.stdout


def test_a_campaigns_boards_at_once_default_to_the_cores_over_its_threads(monkeypatch, tmp_path):
    """Eight cores and --threads 2: four boards at once, each on two cores, not eight on sixteen."""
    from click.testing import CliRunner

    import gridfall.machine
    from gridfall.cli import main

    monkeypatch.setattr(gridfall.machine, "usable_cores", lambda: 8)
    result = CliRunner().invoke(main, ["samegame", "campaign", "--boards", "1-3", "--rounds", "beam:0.05",
                                       "--threads", "2", "--store", str(tmp_path / "s"),
                                       "--db", str(tmp_path / "c")])
    assert result.exit_code == 0, result.output
    assert "4 local workers" in result.output and "at once on" not in result.output, result.output
    usage = CliRunner().invoke(main, ["samegame", "campaign", "--help"], terminal_width=200).output
    assert "Jobs at once on this machine (default: the cores it may use over --threads)" in usage, usage
