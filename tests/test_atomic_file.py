"""A file gridfall writes is written whole or not at all: a full disk leaves the old one."""

import errno
import os
import stat

import pytest
from click.testing import CliRunner

from gridfall import atomic_file
from gridfall.cli import main
from tests.sqlite_files import changing


@pytest.fixture
def full_disk(monkeypatch):
    """Every write of a whole file fails as on a full disk, after the text went to the page cache."""

    def no_space(fd):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(atomic_file.os, "fsync", no_space)


def test_a_failed_write_leaves_the_old_file_and_no_partial_one(tmp_path, full_disk):
    path = tmp_path / "bot.py"
    path.write_text("the bot that works\n")
    with pytest.raises(OSError, match="No space left on device"):
        atomic_file.write_text(path, "a new bot, cut short by the disk")
    assert path.read_text() == "the bot that works\n"
    assert os.listdir(tmp_path) == ["bot.py"]


def test_a_folder_that_is_missing_is_named_by_the_file_asked_for(tmp_path):
    """Not by the hidden partial file gridfall writes first (a user never named that one)."""
    asked = tmp_path / "no such folder" / "page.html"
    with pytest.raises(FileNotFoundError) as raised:
        atomic_file.write_text(asked, "x")
    assert raised.value.filename == str(asked) and ".partial" not in str(raised.value)
    assert os.listdir(tmp_path) == []


def test_an_error_inside_the_block_writes_nothing(tmp_path):
    path = tmp_path / "results.txt"
    with pytest.raises(RuntimeError):
        with atomic_file.replacing(path) as stream:
            stream.write("half of it")
            raise RuntimeError("stopped half-way")
    assert os.listdir(tmp_path) == []


def test_a_replaced_file_keeps_its_permissions_and_a_new_one_gets_the_usual_ones(tmp_path):
    old = tmp_path / "bot.py"
    old.write_text("v1")
    old.chmod(0o750)
    atomic_file.write_text(old, "v2")
    assert old.read_text() == "v2" and stat.S_IMODE(old.stat().st_mode) == 0o750
    umask = os.umask(0o022)
    os.umask(umask)
    new = tmp_path / "new.py"
    atomic_file.write_text(new, "v1")
    assert stat.S_IMODE(new.stat().st_mode) == 0o666 & ~umask  # not tempfile's 0600


@pytest.mark.parametrize("command", [["connect4", "export"], ["match3", "export"]])
def test_an_export_on_a_full_disk_names_the_reason_and_keeps_the_last_export(tmp_path, full_disk, command):
    out = tmp_path / "bot.py"
    yesterday = "# Exported by gridfall yesterday\nprint('the exported bot of yesterday')\n"
    out.write_text(yesterday)
    result = CliRunner().invoke(main, [*command, str(out)])
    assert result.exit_code == 1
    assert f"{out}: cannot write it: No space left on device" in result.output
    assert out.read_text() == yesterday
    assert os.listdir(tmp_path) == ["bot.py"]


def test_a_campaign_that_cannot_write_its_results_file_keeps_the_old_one_and_exits_1(tmp_path, full_disk):
    out = tmp_path / "results.txt"
    out.write_text("# campaign: an earlier one\n")
    result = CliRunner().invoke(main, ["samegame", "campaign", "--set", "standard", "--boards", "1", "--rounds", "",
                                       "--store", str(tmp_path / "s.sqlite"), "--out", str(out)])
    assert result.exit_code == 1, result.output
    assert f"cannot write {out}: No space left on device; it is left as it was" in result.output
    assert out.read_text() == "# campaign: an earlier one\n"


def test_a_symlink_is_written_through_and_a_pipe_in_place(tmp_path):
    target = tmp_path / "real.py"
    target.write_text("old")
    link = tmp_path / "link.py"
    link.symlink_to(target)
    atomic_file.write_text(link, "new")
    assert link.is_symlink() and target.read_text() == "new"
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    reader = os.open(pipe, os.O_RDONLY | os.O_NONBLOCK)  # so that opening it to write does not block
    atomic_file.write_text(pipe, "through the pipe")
    assert os.read(reader, 100) == b"through the pipe"
    os.close(reader)
    assert stat.S_ISFIFO(os.stat(pipe).st_mode)  # still the pipe: not replaced by a file


def test_an_output_never_replaces_a_database_or_a_file_that_is_not_its_own(tmp_path):
    # `view run.sqlite -o run.sqlite` replaced the run's games with the page; `store export` over the
    # store, an export over the user's own bot, `--replay` over the suggest file: each lost its file

    def invoke(*args):
        return CliRunner().invoke(main, [str(a) for a in args])

    db = tmp_path / "run.sqlite"
    with changing(db) as connection:
        connection.execute("CREATE TABLE t (x)")
    connection.close()
    before = db.read_bytes()
    for args in (["view", db, "-o", db], ["samegame", "store", "export", db, "--store", db],
                 ["connect4", "export", db]):
        result = invoke(*args)
        assert result.exit_code == 2 and "it is an SQLite database" in result.output, (args, result.output)
    assert db.read_bytes() == before
    mine = tmp_path / "mine.py"
    mine.write_text("def suggest(board):\n    return '1 1 R'\n")
    result = invoke("connect4", "export", mine)
    assert result.exit_code == 2 and "mine.py: it is not a bot file that gridfall wrote" in result.output
    result = invoke("match3", "referee", mine, "--replay", mine)  # refused before any board is played
    assert result.exit_code == 2 and "mine.py: it is not a replay page that gridfall wrote" in result.output
    assert mine.read_text() == "def suggest(board):\n    return '1 1 R'\n"
    bot = tmp_path / "bot.py"
    assert invoke("connect4", "export", bot).exit_code == 0
    assert invoke("connect4", "export", bot).exit_code == 0  # its own export: replaced, as every time
    (tmp_path / "empty.py").write_text("")
    assert invoke("match3", "export", tmp_path / "empty.py").exit_code == 0


def test_an_output_where_no_file_can_be_made_is_refused_before_the_work(tmp_path):
    # the replay of a whole league, or a campaign's results file, failed only at the end
    result = CliRunner().invoke(main, ["connect4", "referee", "--p1", "random", "--p2", "random", "--games", "2",
                                       "--replay", "/proc/replay.html"])
    assert result.exit_code == 2 and "/proc/replay.html: cannot write in /proc" in result.output
    result = CliRunner().invoke(main, ["samegame", "campaign", "--rounds", "nrpa:1", "--boards", "1", "--store",
                                       str(tmp_path / "s.sqlite"), "--out", str(tmp_path / "no" / "r.txt")])
    assert result.exit_code == 2 and "the folder" in result.output and "does not exist" in result.output
    assert not (tmp_path / "s.sqlite").exists()
    assert CliRunner().invoke(main, ["match3", "export", str(tmp_path / "plan.py")]).exit_code == 0
    assert os.listdir(tmp_path) == ["plan.py"]  # the check's probe file is gone
    # a link to a disk not mounted: "cannot write in TMP: No such file or directory", of a folder that is there
    (tmp_path / "bot.py").symlink_to(tmp_path / "unmounted" / "bot.py")
    result = CliRunner().invoke(main, ["connect4", "export", str(tmp_path / "bot.py")])
    assert result.exit_code == 2 and f"a link to {tmp_path / 'unmounted' / 'bot.py'}, and the folder " \
                                     f"{tmp_path / 'unmounted'} does not exist" in result.output, result.output
    (tmp_path / "bot.py").unlink()
    for args, message in [(["connect4", "export", ""], "'': an empty path; name the file to write (or - for "),
                          (["view", str(tmp_path / "plan.py"), "-o", "  "],
                           "'  ': a path of spaces only; name the file to write"),
                          (["connect4", "referee", "--p1", "random", "--p2", "random", "--replay", ""],
                           "'': an empty path; name the file to write\n")]:  # was "Is a directory", at the end
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 2 and message in result.output, (args, result.output)
