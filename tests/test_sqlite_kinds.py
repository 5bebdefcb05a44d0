"""A run database and a solution store never write their tables into each other's file, or into
another program's database; the viewer tells the two apart by the same tables."""

import sqlite3
from pathlib import Path

import pytest

from gridfall.arena.database import SCHEMA as RUN_SCHEMA
from gridfall.arena.database import RunDatabase, RunDatabaseError
from gridfall.samegame.store import SCHEMA as STORE_SCHEMA
from gridfall.samegame.store import SolutionStore, StoreError
from gridfall.sqlite_kinds import TABLES, damaged, tables
from gridfall.viewer.records import kind_of_file
from tests.sqlite_files import changing, rows

pytestmark = pytest.mark.parallel_safe  # one core, no bot against a clock (machine_sharing.py)


def made(path: Path, script: str) -> Path:
    with changing(path) as connection:
        connection.executescript(script)
    connection.close()
    return path


def table_names(path: Path) -> set[str]:
    with changing(path) as connection:
        found = tables(connection)
    connection.close()
    return found


def test_each_schema_makes_exactly_its_kinds_tables(tmp_path):
    assert table_names(made(tmp_path / "r.sqlite", RUN_SCHEMA)) == TABLES["run"]
    assert table_names(made(tmp_path / "s.sqlite", STORE_SCHEMA)) == TABLES["store"]


def test_the_store_refuses_a_run_database_and_a_stranger_leaving_them_as_they_were(tmp_path):
    run = made(tmp_path / "run.sqlite", RUN_SCHEMA)
    other = made(tmp_path / "other.sqlite", "CREATE TABLE notes (x)")
    with pytest.raises(StoreError, match=r"run\.sqlite: holds a run database, not a solution store; give another"):
        SolutionStore(run)
    with pytest.raises(StoreError, match=r"other\.sqlite: holds the tables of another program \(notes\)"):
        SolutionStore(other)
    assert table_names(run) == TABLES["run"] and table_names(other) == {"notes"}


def test_a_run_refuses_a_store_and_a_stranger_leaving_them_as_they_were(tmp_path):
    store = made(tmp_path / "store.sqlite", STORE_SCHEMA)
    other = made(tmp_path / "other.sqlite", "CREATE TABLE notes (x)")
    with pytest.raises(RunDatabaseError, match=r"store\.sqlite: holds a solution store, not a run database; give"):
        RunDatabase(store, "connect4 league", {})
    with pytest.raises(RunDatabaseError, match=r"holds the tables of another program \(notes\)"):
        RunDatabase(other, "connect4 league", {})
    assert table_names(store) == TABLES["store"] and table_names(other) == {"notes"}


def test_an_empty_file_or_a_half_made_one_is_taken_and_finished(tmp_path):
    empty = tmp_path / "empty.sqlite"
    empty.touch()
    SolutionStore(empty).close()
    assert table_names(empty) == TABLES["store"]
    half = made(tmp_path / "half.sqlite", "CREATE TABLE run (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
    RunDatabase(half, "connect4 league", {}).close()
    assert table_names(half) == TABLES["run"]


def test_the_viewer_tells_the_kinds_apart_by_the_same_tables(tmp_path):
    assert kind_of_file(made(tmp_path / "r.sqlite", RUN_SCHEMA)) == "run"
    assert kind_of_file(made(tmp_path / "s.sqlite", STORE_SCHEMA)) == "store"
    with pytest.raises(ValueError, match="neither a run database nor a solution store"):
        kind_of_file(made(tmp_path / "o.sqlite", "CREATE TABLE notes (x)"))


def test_a_bad_file_is_told_from_a_full_disk(tmp_path):
    garbage = tmp_path / "garbage.sqlite"
    garbage.write_bytes(b"not a database" * 1000)
    with pytest.raises(sqlite3.DatabaseError) as bad:
        rows(garbage, "SELECT * FROM sqlite_master")
    assert damaged(bad.value)
    with pytest.raises(RunDatabaseError, match="not a gridfall run database, or a damaged one"):
        RunDatabase(garbage, "connect4 league", {})
    connection = sqlite3.connect(tmp_path / "sound.sqlite")
    connection.execute("CREATE TABLE t (x TEXT)")
    connection.execute("PRAGMA max_page_count = 2")
    with pytest.raises(sqlite3.OperationalError) as full:
        connection.execute("INSERT INTO t VALUES (?)", ("x" * 20000,))
    assert "full" in str(full.value) and not damaged(full.value)
    connection.close()
