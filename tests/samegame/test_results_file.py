"""The offline results file: the committed one replays to the scores it claims; campaigns keep its history."""

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from gridfall.samegame import rules
from gridfall.samegame.boards import load_board
from gridfall.samegame.store import campaign_history, results_row
from tests.sqlite_files import rows

RESULTS = Path(__file__).resolve().parents[2] / "results" / "samegame-standard.txt"
BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
# The campaigns here search on one worker, or not at all, and time no bot: they share the machine
# (machine_sharing.py).
pytestmark = pytest.mark.parallel_safe
CAMPAIGN = [sys.executable, "-m", "gridfall", "samegame", "campaign"]


@pytest.mark.skipif(not RESULTS.exists(), reason="no results file in this checkout")
def test_results_file_replays_to_its_claims_and_header_total():
    lines = RESULTS.read_text().splitlines()
    rows = [results_row(line, "standard") for line in lines if line.strip() and not line.startswith("#")]
    assert sorted(spec for spec, _, _ in rows) == sorted(f"standard:{n}" for n in range(1, 21))
    total = 0
    for spec, score, moves in rows:
        judged = rules.judge(load_board(spec), rules.split_one_turn(moves), strict=True)
        assert judged.ok and judged.score == score, spec
        total += judged.score
    assert f"total {total}" in next(line for line in lines if line.startswith("# gridfall standard"))


def test_campaign_history_rewords_the_newest_campaign_and_keeps_the_older_ones():
    text = ("# campaign: offline --seed 2 (machine)\n"
            "# before it, run beside it: campaign: offline --seed 1\n"
            "# gridfall standard board solutions: 1 boards, total 9\n"
            "# 1: nrpa x1, 10 s search, seed 1, found 2026-01-01T00:00:00\n"
            "1\t9\t0 0\n")
    assert campaign_history(text) == ["# before it: campaign: offline --seed 2 (machine)",
                                      "# before it, run beside it: campaign: offline --seed 1"]


def test_a_campaign_carries_the_replaced_files_campaign_lines_forward(tmp_path):
    """Each rewrite keeps the file's earlier campaign lines, once each: over two passes of one
    campaign, and when a second campaign writes the same file after it."""
    out = tmp_path / "results.txt"
    out.write_text("# campaign: offline --seed 2 (machine)\n# before it: campaign: offline --seed 1\n"
                   "# gridfall standard board solutions: 0 boards, total 0\n")
    def campaign(*flags):
        done = subprocess.run([*CAMPAIGN, "--rounds", "", *flags,
                               "--store", str(tmp_path / "store.sqlite"), "--out", str(out)],
                              capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        return [line for line in out.read_text().splitlines() if line.startswith(("# campaign", "# before"))]

    header = campaign("--seed", "3", "--passes", "2", "--note", "a test")
    assert header[0].startswith("# campaign: gridfall samegame campaign --rounds  --threads")
    assert "--seed 3 --passes 2" in header[0] and ", a test;" in header[0]
    assert header[1:] == ["# before it: campaign: offline --seed 2 (machine)", "# before it: campaign: offline --seed 1"]
    later = campaign("--seed", "4")
    assert "--seed 4" in later[0] and later[1] == "# before it: " + header[0][2:] and later[2:] == header[1:]


def test_a_campaign_round_reports_each_score_that_beats_the_stored_best_while_it_runs(tmp_path):
    done = subprocess.run([*CAMPAIGN, "--set", "tuning", "--boards", "1", "--rounds", "nrpa:1:level=1",
                           "--workers", "1", "--store", str(tmp_path / "store.sqlite"), "--db", str(tmp_path / "run.sqlite")],
                          capture_output=True, text=True, timeout=300, env={**os.environ, "COLUMNS": "200"})
    assert done.returncode == 0, done.stderr
    progress = [line.split() for line in done.stdout.splitlines() if line.startswith("  tuning:1: ")]
    scores = [int(words[1]) for words in progress]
    assert scores and scores == sorted(set(scores)) and all(words[-1] == "none)" for words in progress)
    assert f"found {scores[-1]} in" in done.stdout
    groups = re.search(r"\(largest groups ((?:\d+/\d+ *)+)\)", done.stdout)
    assert groups, done.stdout
    sizes = [int(group.split("/")[0]) for group in groups[1].split()]
    assert len(sizes) == 4 and sizes == sorted(sizes, reverse=True) and sizes[-1] >= 2


@pytest.mark.alone  # two campaigns at once
def test_campaigns_side_by_side_into_one_file_keep_both_lines(tmp_path):
    out = tmp_path / "results.txt"
    out.write_text("# campaign: offline --seed 1\n# gridfall standard board solutions: 0 boards, total 0\n")
    runs = [subprocess.Popen([*CAMPAIGN, "--rounds", "", "--seed", str(seed),
                              "--store", str(tmp_path / "store.sqlite"), "--out", str(out)],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True) for seed in (5, 6)]
    for run in runs:
        _, errors = run.communicate(timeout=300)
        assert run.returncode == 0, errors
    header = [line for line in out.read_text().splitlines() if line.startswith(("# campaign", "# before"))]
    assert len(header) == 3 and header[2] == "# before it: campaign: offline --seed 1"
    assert sorted(" --seed 5 " in line for line in header[:2]) == [False, True]
    assert sorted(" --seed 6 " in line for line in header[:2]) == [False, True]
    assert not list(tmp_path.glob("*.tmp"))


def test_a_campaign_stopped_by_a_term_signal_writes_where_it_stopped_and_resumes(tmp_path):
    """A stopped campaign keeps what it found: the results file is rewritten after each board pass
    that improved and once more on the signal, its campaign line saying where it stopped, exit
    128 + SIGTERM; the same command again plays only the board passes not yet done."""
    out = tmp_path / "results.txt"
    out.write_text("# campaign: offline --seed 1\n# gridfall standard board solutions: 0 boards, total 0\n")
    args = [*CAMPAIGN, "--rounds", "nrpa:1", "--workers", "1", "--seed", "7", "--boards", "1,2,3,4", "--passes",
            "2", "--store", str(tmp_path / "store.sqlite"), "--out", str(out), "--db", str(tmp_path / "run.sqlite")]
    run = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           env={**os.environ, "PYTHONUNBUFFERED": "1", "COLUMNS": "200"})
    try:
        for line in run.stdout:
            if line.startswith("standard:2:"):
                break
        run.send_signal(signal.SIGTERM)
        assert run.wait(timeout=120) == 128 + signal.SIGTERM, run.stderr.read()
    finally:
        run.kill()
        run.communicate()  # reaped, its pipes closed
    lines = out.read_text().splitlines()
    header = [line for line in lines if line.startswith(("# campaign", "# before"))]
    assert len(header) == 2 and header[1] == "# before it: campaign: offline --seed 1"
    assert "--seed 7 --passes 2 --boards 1,2,3,4" in header[0]
    assert ", stopped after " in header[0] and "last written" not in header[0]
    found = [results_row(line, "standard") for line in lines if line.strip() and not line.startswith("#")]
    assert {"standard:1", "standard:2"} <= {spec for spec, _, _ in found}
    assert not list(tmp_path.glob("*.tmp"))
    done_before = rows(tmp_path / "run.sqlite", "SELECT job FROM games")
    assert 2 <= len(done_before) < 8
    resumed = subprocess.run(args, capture_output=True, text=True, timeout=300)
    assert resumed.returncode == 0, resumed.stderr
    jobs = [job for (job,) in rows(tmp_path / "run.sqlite", "SELECT job FROM games")]
    assert sorted(jobs) == sorted(f"pass {p} standard:{b}" for p in (1, 2) for b in (1, 2, 3, 4))
    rounds_run = [line for line in resumed.stdout.splitlines() if line.startswith("standard:") and " found " in line]
    assert len(rounds_run) == 8 - len(done_before)  # only the board passes not stored


@pytest.mark.parametrize("signals", [1, 2])
def test_a_campaign_stopped_in_a_round_stores_that_rounds_best_line(tmp_path, signals):
    """SIGTERM in the middle of a round: the round stops within a second with its best line so far,
    which is stored and written to the results file before the campaign exits 128 + SIGTERM.

    A second SIGTERM while it stops (GNU timeout sends one to the process, then one to its group)
    changes nothing: it cut the stop short ("Aborted!", exit 1, no results file, the round's
    line lost)."""
    out = tmp_path / "results.txt"
    out.write_text("# campaign: offline --seed 1\n# gridfall standard board solutions: 0 boards, total 0\n")
    run = subprocess.Popen([*CAMPAIGN, "--rounds", "nrpa:60", "--workers", "1", "--seed", "8",
                            "--boards", "1", "--store", str(tmp_path / "store.sqlite"), "--out", str(out),
                            "--db", str(tmp_path / "run.sqlite")],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           env={**os.environ, "PYTHONUNBUFFERED": "1", "COLUMNS": "200"})
    try:
        for line in run.stdout:
            if line.startswith("  standard:1: "):  # the round is under way
                break
        signalled = time.monotonic()
        run.send_signal(signal.SIGTERM)
        if signals == 2:
            time.sleep(0.02)  # while the round is stopping
            run.send_signal(signal.SIGTERM)
        # a second signal that comes once all is kept may find the interpreter exiting, with the
        # default handler back: killed by it, having kept everything
        assert run.wait(timeout=120) in (128 + signal.SIGTERM, -signal.SIGTERM)[:signals], run.stderr.read()
        assert time.monotonic() - signalled < 10
        assert "stored its best line so far" in run.stdout.read()
    finally:
        run.kill()
        run.communicate()  # reaped, its pipes closed
    lines = out.read_text().splitlines()
    assert ", stopped " in lines[0]
    rows = [results_row(line, "standard") for line in lines if line.strip() and not line.startswith("#")]
    assert [spec for spec, _, _ in rows] == ["standard:1"]


@pytest.mark.skipif(not RESULTS.exists(), reason="no results file in this checkout")
def test_anatomy_script_splits_each_line_into_its_largest_group_the_clear_bonus_and_the_rest():
    script = BENCHMARKS / "samegame_anatomy.py"
    done = subprocess.run([sys.executable, str(script), str(RESULTS)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    expected = 0
    for line in RESULTS.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            spec, score, moves = results_row(line, "standard")
            board = load_board(spec)
            groups = rules.removed_groups(board, [rules.parse_action(a) for a in rules.split_one_turn(moves)])
            final, _ = rules.play_sequence(board, [(g.x, g.y) for g in groups])
            expected += score - max(g.points for g in groups) - (rules.CLEAR_BONUS if final.is_cleared() else 0)
    assert f"rest over all boards: {expected}" in done.stdout


def test_anatomy_script_names_the_file_and_line_of_a_bad_row(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("# a campaign line\n1\t5\t0 0;x\n")
    script = BENCHMARKS / "samegame_anatomy.py"
    done = subprocess.run([sys.executable, str(script), str(bad)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 2 and f"{bad}, line 2:" in done.stderr and "Traceback" not in done.stderr


def test_a_campaign_will_not_overwrite_a_file_that_is_not_a_results_file(tmp_path):
    # --out naming some other text file replaced it with the store's lines, and the text was lost
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\nstandard:1\t10\t0 0\n")
    done = subprocess.run([*CAMPAIGN, "--rounds", "", "--store", str(tmp_path / "store.sqlite"), "--out", str(notes)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 2 and "notes.txt:1: not a results file's line" in done.stderr
    assert notes.read_text() == "my notes\nstandard:1\t10\t0 0\n"


def test_a_campaign_announces_its_results_file_once(tmp_path):
    # the file is rewritten after every improved board pass; "wrote FILE" was printed each time
    out = tmp_path / "results.txt"
    done = subprocess.run([*CAMPAIGN, "--set", "tuning", "--boards", "1-3",
                           "--rounds", "beam:0.2", "--workers", "1", "--store", str(tmp_path / "store.sqlite"),
                           "--out", str(out), "--db", str(tmp_path / "run.sqlite")],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.count(f"wrote {out}") == 1 and done.stdout.rstrip().endswith(f"wrote {out}")
    assert len([line for line in out.read_text().splitlines() if line.startswith(("1\t", "2\t", "3\t"))]) == 3
    assert sorted(p.name for p in tmp_path.iterdir()) == ["results.txt", "run.sqlite", "store.sqlite"]  # no .lock


def test_a_campaign_writes_its_results_to_a_pipe_in_place(tmp_path):
    # --out /dev/stdout on a pipe: the campaign read its own output to check it, and waited for ever
    done = subprocess.run([*CAMPAIGN, "--rounds", "", "--store", str(tmp_path / "store.sqlite"), "--out", "/dev/stdout"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "\n# campaign: " in done.stdout and "\n# gridfall standard board solutions: 0 boards" in done.stdout


def test_standings_of_a_campaign_give_each_boards_passes_and_best_from_its_run_alone(tmp_path):
    from gridfall.samegame.store import SolutionStore

    store, db = tmp_path / "store.sqlite", tmp_path / "run.sqlite"
    done = subprocess.run([*CAMPAIGN, "--set", "tuning", "--boards", "2,1", "--rounds", "nrpa:0.2:level=1,beam:0.2",
                           "--passes", "2", "--workers", "1", "--store", str(store), "--db", str(db)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    store.rename(tmp_path / "elsewhere.sqlite")  # read from the run alone
    standing = subprocess.run([sys.executable, "-m", "gridfall", "standings", str(db), "--json"], capture_output=True,
                              text=True, timeout=120)
    assert standing.returncode == 0, standing.stderr
    data = json.loads(standing.stdout)
    assert data["board_passes"] == data["planned"] == 4 and [b["board"] for b in data["boards"]] == ["tuning:1", "tuning:2"]
    with SolutionStore(tmp_path / "elsewhere.sqlite") as kept:
        for board in data["boards"]:
            assert board["passes"] == 2 and len(board["rounds"]) == 2
            assert board["best"] == kept.best(load_board(board["board"])).score >= max(board["rounds"])
    assert data["total"] == sum(board["best"] for board in data["boards"])
    text = subprocess.run([sys.executable, "-m", "gridfall", "standings", str(db)], capture_output=True, text=True,
                          timeout=120, env={**os.environ, "COLUMNS": "200"})
    assert text.returncode == 0 and "4 of 4 board passes done" in text.stdout
    assert f"total of the boards' best after their last pass: {data['total']}" in text.stdout
