"""A stored run is not resumed, nor its results shown as new, after a bot's file was edited."""

import sys

import pytest

from gridfall.arena.bot_files import changed, files_named, fingerprints
from tests.arena.arena_cli import BOTS, gridfall, gridfall_json
from tests.sqlite_files import changing

# The bots here answer at once, far inside their clocks: the tests share the machine (machine_sharing.py).
pytestmark = pytest.mark.parallel_safe
QUIT = "def suggest(board):\n    return 1, 1, 'Q'\n"  # ends each board at once: total 0
FIRST = ("def suggest(board):\n    n = len(board)\n    for r in range(n):\n        for c in range(n - 1):\n"
         "            b = [list(x) for x in board]\n            b[r][c], b[r][c + 1] = b[r][c + 1], b[r][c]\n"
         "            for y in range(n):\n                for x in range(n - 2):\n"
         "                    if b[y][x] == b[y][x + 1] == b[y][x + 2]:\n                        return c + 1, r + 1, 'R'\n"
         "    return 1, 1, 'Q'\n")


def test_the_files_of_a_command_are_the_words_that_name_files(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bot.py").write_text("x")
    (tmp_path / "mine.py").write_text("y")
    # the interpreter is not the bot (a Python update must not refuse a league); a program alone is
    assert files_named(f"{sys.executable} -I bot.py --depth 3") == [str(tmp_path / "bot.py")]
    assert files_named("python3 -m gridfall connect4 bot --player mine.py:make") == [str(tmp_path / "mine.py")]
    assert files_named("./bot.py 3") == [str(tmp_path / "bot.py")] and files_named(sys.executable) == [sys.executable]
    assert files_named("greedy") == [] and files_named("python3 'unclosed") == []
    # `env`'s settings come before the program, which is not the bot either
    assert files_named(f"env -u X A=1 {sys.executable} bot.py") == [str(tmp_path / "bot.py")]
    assert files_named(f"env A=1 {sys.executable}") == [sys.executable]
    # so does a project runner's `run` (`uv run`), and a module run through it is read as one
    assert files_named("uv run python3 bot.py") == [str(tmp_path / "bot.py")]
    assert files_named("env A=1 poetry run ./bot.py") == [str(tmp_path / "bot.py")]
    assert files_named("uv run python3 -m bot") == [str(tmp_path / "bot.py")]
    # the shell's ~ and $NAME, read as the shell reads them
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("BOTS", str(tmp_path))
    assert files_named("python3 ~/bot.py") == files_named("python3 ${BOTS}/bot.py") == [str(tmp_path / "bot.py")]
    assert files_named("python3 $HOME/bot.py") == files_named("~/bot.py") == [str(tmp_path / "bot.py")]
    kept = fingerprints({"a": ["bot.py"], "b": ["mine.py"]})
    (tmp_path / "bot.py").write_text("x2")
    assert changed(kept, fingerprints({"a": ["bot.py"], "b": ["mine.py"]})) == [("a", "bot.py")]
    (tmp_path / "mine.py").unlink()  # a file gone is a file changed
    assert ("b", "mine.py") in changed(kept, fingerprints({"a": ["bot.py"], "b": ["mine.py"]}))
    assert changed(kept, fingerprints({"c": ["bot.py"]})) == []  # a bot the run did not keep


def test_a_python_bot_brings_the_modules_of_its_folder_it_imports(tmp_path, monkeypatch):
    """bot.py imports helpers.py, which imports deep.py: each is the bot's, as an export bundles
    them; a standard module's name, a module elsewhere and a file that is not Python are not."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bot.py").write_text("import json, helpers\nfrom gridfall import load_game\n")
    (tmp_path / "helpers.py").write_text("from deep import x\nimport bot  # a loop\n")
    (tmp_path / "deep.py").write_text("x = 1\n")
    (tmp_path / "json.py").write_text("shadow = 1\n")  # `import json` is the standard module's (export refuses a shadow)
    (tmp_path / "unused.py").write_text("")
    found = files_named(f"{sys.executable} bot.py")
    assert found == [str(tmp_path / name) for name in ("bot.py", "helpers.py", "deep.py")]
    (tmp_path / "broken.py").write_text("import helpers\ndef (:\n")  # the bot will say so when it runs
    assert files_named("python3 broken.py") == [str(tmp_path / "broken.py")]
    assert files_named("python3 -m gridfall connect4 bot --player bot.py:make")[1:] == found[1:]


def test_a_python_bot_brings_the_packages_of_its_folder_it_imports(tmp_path, monkeypatch):
    """bot.py imports the package tools/: every file under it is the bot's, and what they import
    from the bot's folder (the path's first entry, not theirs); an edit to one is an edited bot."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bot.py").write_text("from tools.search import best\n")
    (tmp_path / "tools" / "sub").mkdir(parents=True)
    (tmp_path / "tools" / "__init__.py").write_text("")
    (tmp_path / "tools" / "search.py").write_text("from . import sub\nimport weights\n")
    (tmp_path / "tools" / "sub" / "__init__.py").write_text("")
    (tmp_path / "tools" / "sub" / "deep.py").write_text("x = 1\n")
    (tmp_path / "tools" / "weights.py").write_text("")  # the package's; `import weights` finds the one beside bot.py
    (tmp_path / "weights.py").write_text("w = 3\n")
    (tmp_path / "data").mkdir()  # no __init__.py: a namespace package, and only if nothing on the path is `data`
    (tmp_path / "data" / "table.py").write_text("")
    (tmp_path / "other.py").write_text("import data\n")
    found = files_named("python3 bot.py")
    assert found[0] == str(tmp_path / "bot.py") and str(tmp_path / "weights.py") in found
    assert sorted(found[1:]) == sorted(str(tmp_path / name) for name in (
        "tools/__init__.py", "tools/search.py", "tools/weights.py", "tools/sub/__init__.py", "tools/sub/deep.py",
        "weights.py"))
    assert files_named("python3 other.py") == [str(tmp_path / "other.py")]
    kept = fingerprints({"a": found})
    (tmp_path / "tools" / "sub" / "deep.py").write_text("x = 2\n")
    assert changed(kept, fingerprints({"a": files_named("python3 bot.py")})) == [("a", str(tmp_path / "tools/sub/deep.py"))]


def test_an_edited_match3_file_is_refused_and_the_earlier_one_resumes(tmp_path):
    # editing a bot and running the same compare again printed the earlier file's results as new
    a, b, db = tmp_path / "a.py", tmp_path / "b.py", str(tmp_path / "m.sqlite")
    a.write_text(QUIT)
    b.write_text(FIRST)
    args = ["match3", "compare", "--bot", f"a={a}", "--bot", f"b={b}", "--seeds", "1-2", "--db", db]
    assert gridfall_json(*args)["comparison"]["losses"] == 2
    a.write_text(FIRST)
    again = gridfall(*args)
    assert again.returncode == 2 and f"{a} (bot a) has changed since the games stored in {db}" in again.stderr
    assert "Another --db starts a clean run" in again.stderr, again.stderr
    listed = gridfall_json("runs", db)["runs"][0]  # the listing says so too, before any resume
    assert listed["edited"] == [{"bot": "a", "file": str(a)}]
    assert "edited since its games:" in gridfall("runs", db).stdout  # the path, wrapped to the table's width
    assert gridfall_json(*args[:-1], str(tmp_path / "new.sqlite"))["comparison"]["ties"] == 2
    a.write_text(QUIT)  # the earlier file back: the run is its own again, and grows
    assert gridfall_json(*args[:7], "1-3", *args[8:])["comparison"]["losses"] == 3
    with changing(db) as connection:  # damaged digests: a usage error naming --db, no traceback
        connection.execute("UPDATE run SET value = '{bad' WHERE key = 'extra bot files'")
    damaged = gridfall(*args[:7], "1-3", *args[8:])
    assert damaged.returncode == 2 and "Invalid value for --db" in damaged.stderr
    assert "its run's bot files are damaged" in damaged.stderr, damaged.stderr


def test_an_edited_bot_in_a_league_is_refused_unless_it_retired(tmp_path):
    bot, db = tmp_path / "mine.py", str(tmp_path / "league.sqlite")
    bot.write_text((BOTS / "pick.py").read_text())
    mine = f"{sys.executable} -I {bot} centre 0"
    league = ["connect4", "league", "--bot", f"mine={mine}", "--bot", "greedy", "--db", db,
              "--first-turn-ms", "3000", "--turn-ms", "1000"]
    assert gridfall(*league, "--games", "2").returncode == 0
    bot.write_text(bot.read_text() + "\n# edited\n")
    again = gridfall(*league, "--games", "4")
    assert again.returncode == 2 and "(bot mine) has changed" in again.stderr, again.stderr
    # the new version under a name of its own, the earlier one retired: its stored games stay its own
    joined = gridfall(*league, "--bot", f"mine2={mine}", "--retire", "mine", "--games", "4", "--json")
    assert joined.returncode == 0, joined.stderr
    sprt = ["connect4", "sprt", "--new", mine, "--base", "greedy", "--max-games", "2", "--db",
            str(tmp_path / "sprt.sqlite"), "--first-turn-ms", "3000", "--turn-ms", "1000"]
    assert gridfall(*sprt).returncode == 0
    bot.write_text(bot.read_text() + "\n# again\n")
    again = gridfall(*sprt[:7], "4", *sprt[8:])
    assert again.returncode == 2 and "(bot new) has changed" in again.stderr, again.stderr
    helper = tmp_path / "helper.py"  # a module of its folder that the bot imports is the bot's too
    helper.write_text("")
    bot.write_text("import helper\n" + bot.read_text())
    fresh = [*sprt[:3], f"{sys.executable} {bot} centre 0", *sprt[4:9], str(tmp_path / "fresh.sqlite"), *sprt[10:]]
    played = gridfall_json(*fresh, "--json")
    assert played["games"] == 2 and played["faults"] == []  # it found its module
    helper.write_text("# edited\n")
    again = gridfall(*fresh[:7], "4", *fresh[8:])
    assert again.returncode == 2 and f"{helper} (bot new) has changed" in again.stderr, again.stderr


def test_a_module_run_with_python_m_brings_its_files_from_where_python_finds_it(tmp_path, monkeypatch):
    """``python -m NAME`` runs NAME from the working folder, then from PYTHONPATH (the command's own
    through ``env``, or inherited): the module's file, or every file of its package, is the bot;
    -I drops both folders, -E and -P one each, and a module Python finds elsewhere is not seen."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PYTHONPATH", raising=False)
    (tmp_path / "variant" / "engine").mkdir(parents=True)
    for name in ("__init__.py", "__main__.py", "search.py"):
        (tmp_path / "variant" / "engine" / name).write_text("import tables\n")
    (tmp_path / "variant" / "tables.py").write_text("")  # imported from the folder Python found the package in
    (tmp_path / "solo.py").write_text("")
    package = [str(tmp_path / "variant" / name) for name in
               ("engine/__init__.py", "engine/__main__.py", "engine/search.py", "tables.py")]
    assert files_named("env PYTHONPATH=variant python3 -m engine play --depth 3") == package
    assert files_named("env PYTHONPATH=variant python3 -m engine.search") == package  # a submodule: its package
    assert files_named(f"env -u X PYTHONPATH=/nowhere:variant {sys.executable} -Wignore -m engine") == package
    assert files_named("env PYTHONPATH=variant pypy3 -Bm engine") == package  # joined short options
    assert files_named("env PYTHONPATH=variant python3 -I -m engine") == []  # isolated: no PYTHONPATH, no cwd
    assert files_named("env PYTHONPATH=variant python3 -E -m engine") == []  # the environment ignored
    assert files_named("env -C variant python3 -m engine") == package  # the working folder moved
    assert files_named("python3 -m engine") == []  # neither here nor on the path: installed, not the bot's
    monkeypatch.setenv("PYTHONPATH", "variant")  # inherited by the bot unless its command clears it
    assert files_named("python3 -m engine") == package
    assert files_named("env -i python3 -m engine") == files_named("env -u PYTHONPATH python3 -m engine") == []
    assert files_named("python3 -m solo") == [str(tmp_path / "solo.py")]  # the working folder comes first
    assert files_named("python3 -P -m solo") == [] and files_named("python3 -c 'import engine'") == []
    assert files_named("python3 -m json.tool") == [] and files_named("env PYTHONPATH=variant ls -m engine") == []
    kept = fingerprints({"a": package})
    (tmp_path / "variant" / "engine" / "search.py").write_text("import tables  # edited\n")
    now = fingerprints({"a": files_named("env PYTHONPATH=variant python3 -m engine")})
    assert changed(kept, now) == [("a", package[2])]


def test_an_edited_package_run_with_python_m_is_refused(tmp_path):
    # the form docs/connect4-experiments.md uses to play one copy of a package against another
    (tmp_path / "mybot").mkdir()
    (tmp_path / "mybot" / "__init__.py").write_text("")
    (tmp_path / "mybot" / "__main__.py").write_text((BOTS / "pick.py").read_text())
    mine = f"env PYTHONPATH={tmp_path} {sys.executable} -m mybot centre 0"
    sprt = ["connect4", "sprt", "--new", mine, "--base", "greedy", "--max-games", "2", "--db",
            str(tmp_path / "sprt.sqlite"), "--first-turn-ms", "3000", "--turn-ms", "1000"]
    played = gridfall_json(*sprt)
    assert played["games"] == 2 and played["faults"] == []
    (tmp_path / "mybot" / "__init__.py").write_text("# edited\n")
    again = gridfall(*sprt[:7], "4", *sprt[8:])
    assert again.returncode == 2 and f"{tmp_path / 'mybot' / '__init__.py'} (bot new) has changed" in again.stderr, \
        again.stderr


def test_a_python_file_brings_what_it_imports_from_the_commands_pythonpath(tmp_path, monkeypatch):
    """``env PYTHONPATH=lib python3 bot.py``: bot.py's imports are looked for in its folder, then in
    lib; what is found in lib (a module, a package) is the bot's, unless -I or -E drops the path."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PYTHONPATH", raising=False)
    (tmp_path / "lib" / "tools").mkdir(parents=True)
    (tmp_path / "lib" / "tools" / "__init__.py").write_text("import weights\n")
    (tmp_path / "lib" / "weights.py").write_text("")
    (tmp_path / "lib" / "helpers.py").write_text("")  # beside bot.py too: Python takes that one
    (tmp_path / "helpers.py").write_text("")
    (tmp_path / "bot.py").write_text("import helpers, tools, json\n")
    own = [str(tmp_path / name) for name in ("bot.py", "helpers.py")]
    lib = [str(tmp_path / "lib" / name) for name in ("tools/__init__.py", "weights.py")]
    assert files_named("env PYTHONPATH=lib python3 bot.py") == own + lib
    assert files_named("env PYTHONPATH=lib python3 -E bot.py") == files_named("python3 bot.py") == own
    assert files_named(f"env PYTHONPATH={tmp_path / 'lib'} ./bot.py") == own  # not run by python: no path known
    kept = fingerprints({"a": files_named("env PYTHONPATH=lib python3 bot.py")})
    (tmp_path / "lib" / "weights.py").write_text("w = 2\n")
    assert changed(kept, fingerprints({"a": files_named("env PYTHONPATH=lib python3 bot.py")})) == [("a", lib[1])]


def test_a_name_in_two_pythonpath_folders_is_the_first_ones(tmp_path, monkeypatch):
    """Python imports a name from the first PYTHONPATH folder that has it: the copy in a later
    folder is not the bot's, and editing it does not refuse the run."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PYTHONPATH", raising=False)
    for folder in ("new", "old"):
        (tmp_path / folder / "tools").mkdir(parents=True)
        (tmp_path / folder / "tools" / "__init__.py").write_text("")
        (tmp_path / folder / "weights.py").write_text("")
    (tmp_path / "old" / "extra.py").write_text("")  # only in the later folder: found there
    (tmp_path / "bot.py").write_text("import tools, weights, extra\n")
    command = "env PYTHONPATH=new:old python3 bot.py"
    assert files_named(command) == [str(tmp_path / name) for name in
                                    ("bot.py", "new/weights.py", "new/tools/__init__.py", "old/extra.py")]
    kept = fingerprints({"a": files_named(command)})
    (tmp_path / "old" / "weights.py").write_text("w = 2\n")
    (tmp_path / "old" / "tools" / "__init__.py").write_text("w = 2\n")
    assert changed(kept, fingerprints({"a": files_named(command)})) == []
    (tmp_path / "new" / "weights.py").write_text("w = 2\n")
    assert changed(kept, fingerprints({"a": files_named(command)})) == [("a", str(tmp_path / "new" / "weights.py"))]
