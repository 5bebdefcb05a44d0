"""``FILE.lock``: one holder at a time, who deletes it as it lets go, and a late opener is not fooled."""

import threading
import time

import pytest

from gridfall import lock_file

pytestmark = pytest.mark.parallel_safe  # one core, no bot against a clock (machine_sharing.py)


def test_one_holder_at_a_time_named_to_the_next_and_nothing_left_after(tmp_path):
    path = tmp_path / "run.sqlite"
    held = lock_file.take(path, wait=False)
    assert (tmp_path / "run.sqlite.lock").read_text() == lock_file.me()
    with pytest.raises(lock_file.HeldElsewhere) as refused:
        lock_file.take(path, wait=False)
    assert refused.value.owner == lock_file.me()
    lock_file.let_go(held)
    assert list(tmp_path.iterdir()) == []


def test_a_late_opener_takes_the_new_lock_not_the_deleted_one(tmp_path):
    path = tmp_path / "run.sqlite"
    first = lock_file.take(path, wait=False)
    late = open(f"{path}.lock", "a+")  # opened just before its holder lets go and deletes it
    lock_file.let_go(first)
    assert not lock_file.still_there(late, f"{path}.lock")  # its lock would hold nothing: take takes a new one
    newer = lock_file.take(path, wait=False)
    assert not lock_file.still_there(late, f"{path}.lock") and lock_file.still_there(newer, f"{path}.lock")
    with pytest.raises(lock_file.HeldElsewhere):  # the new lock holds
        lock_file.take(path, wait=False)
    late.close()
    lock_file.let_go(newer)


def test_holding_waits_its_turn(tmp_path):
    path = tmp_path / "results.txt"
    order = []

    def second():
        with lock_file.holding(path):
            order.append("second")

    with lock_file.holding(path):
        waiting = threading.Thread(target=second)
        waiting.start()
        time.sleep(0.2)
        order.append("first")  # the other thread is still waiting: flock holds between descriptors
    waiting.join(10)
    assert order == ["first", "second"]
    assert list(tmp_path.iterdir()) == []


def test_a_folder_that_cannot_take_the_lock_file_is_an_oserror(tmp_path):
    with pytest.raises(OSError):
        lock_file.take(tmp_path / "missing" / "run.sqlite", wait=False)


def test_the_lock_of_a_link_lies_beside_the_file_it_names(tmp_path):
    # --out /dev/stdout, redirected to a file: the lock went into /dev, where a user cannot write
    (tmp_path / "real").mkdir()
    (tmp_path / "real" / "results.txt").write_text("")
    (tmp_path / "link.txt").symlink_to(tmp_path / "real" / "results.txt")
    with lock_file.holding(tmp_path / "link.txt"):
        assert (tmp_path / "real" / "results.txt.lock").exists() and not (tmp_path / "link.txt.lock").exists()
    assert not (tmp_path / "real" / "results.txt.lock").exists()
