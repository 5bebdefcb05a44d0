"""The README's gridfall commands are ones the CLI takes.  A shown command (`$ gridfall ...` in a
code block) parses whole: its commands, options and values (it is not run; the tour's outputs come
from real runs).  A command named in the prose (`` `gridfall ...` ``, often a synopsis such as
`store list|export|import` or `[--one-turn]`) names commands and options that exist."""

import pathlib
import re
import shlex

import click
import pytest

from gridfall.cli import main

pytestmark = pytest.mark.parallel_safe  # one core, no bot against a clock (machine_sharing.py)

ROOT = pathlib.Path(__file__).resolve().parents[1]
FILES_THE_README_MAKES = ("plan.py", "bot.py", "suggest.py", "new.py", "old.py", "mybot.py")


def readme_commands() -> list[str]:
    """The README's shell lines that run gridfall, without their trailing comments."""
    commands = []
    for block in re.findall(r"```\n(.*?)```", (ROOT / "README.md").read_text(), re.DOTALL):
        for line in block.splitlines():
            line = line.removeprefix("$ ")
            if line.startswith("gridfall ") and "$(" not in line:  # a shell substitution is left out
                commands.append(re.sub(r"\s+#.*$", "", line))
    return commands


def parse(args: list[str]) -> None:
    """Parse ``args`` as `gridfall` would, down to the command, without running it (the README's
    lines give no option before the command's name)."""
    command, name, ctx = main, "gridfall", None
    while isinstance(command, click.Group):
        ctx = click.Context(command, info_name=name, parent=ctx)
        name, *args = args
        command = command.get_command(ctx, name)
        if command is None:
            raise click.UsageError(f"no such command {name!r}")
    command.make_context(name, args, parent=ctx)


def prose_commands() -> list[str]:
    """The prose's `gridfall ...` spans, but for a quoted message (`gridfall bot: ...` is what a bot
    says on stderr, not a command)."""
    spans = re.findall(r"`(gridfall [^`]+)`", (ROOT / "README.md").read_text().replace("\n", " "))
    return sorted({span for span in spans if not span.split()[1].endswith(":")})


def check_names(words: list[str]) -> None:
    """The commands (``a|b`` for either) and the ``--options`` in ``words`` exist."""
    commands, ctx = [main], None
    while words and not words[0].startswith("-") and all(isinstance(c, click.Group) for c in commands):
        names, words = words[0].split("|"), words[1:]
        ctx = click.Context(commands[0], info_name="gridfall", parent=ctx)
        found = [(name, group.get_command(ctx, name)) for group in commands for name in names]
        for name, command in found:
            if command is None:
                raise click.UsageError(f"no such command {name!r}")
        commands = [command for _, command in found]
    for word in words:
        option = re.match(r"\[?(--[a-z0-9-]+)", word)
        if option and not any(option.group(1) in p.opts for c in commands for p in c.params):
            raise click.UsageError(f"no such option {option.group(1)}")


def test_the_readme_shows_commands_of_every_game():
    commands = readme_commands()
    assert len(commands) >= 15
    assert {c.split()[1] for c in commands} >= {"samegame", "connect4", "match3"}


@pytest.mark.parametrize("line", readme_commands())
def test_a_readme_command_parses(line, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # files the README's earlier commands write, and its example board
    for name in FILES_THE_README_MAKES:
        (tmp_path / name).write_text("")
    (tmp_path / "examples").mkdir()
    (tmp_path / "examples" / "match3-board.txt").write_text((ROOT / "examples" / "match3-board.txt").read_text())
    try:
        parse(shlex.split(line)[1:])
    except click.UsageError as e:
        pytest.fail(f"README: {line}\n{e.format_message()}")


@pytest.mark.parametrize("span", prose_commands())
def test_a_command_named_in_the_readmes_prose_exists_with_its_options(span):
    try:
        check_names(span.split()[1:])
    except click.UsageError as e:
        pytest.fail(f"README: `{span}`: {e.format_message()}")


def test_the_exported_connect4_files_size_is_the_one_the_readme_gives():
    """Every change to a bundled module changes it; the README gave a size three changes old."""
    from gridfall.connect4.export import export_source

    text = (ROOT / "README.md").read_text()
    shown = re.search(r"wrote bot\.py: ([\d,]+) characters", text).group(1)
    told = re.search(r"The file is ([\d,]+) characters", text).group(1)
    assert shown == told == f"{len(export_source()):,}"


def test_the_exported_players_sizes_are_about_the_ones_the_readme_gives(tmp_path, monkeypatch):
    """The README's `export --player` example (a factory of gridfall's UCT), its "about N" for
    gridfall.uct:UCTPlayer itself and for a Match-3 player of the first legal swap: a few lines of
    the user's module apart, within 2% of the files made now.  They had drifted from 50,926 to
    57,615 characters, and from 60,000 to 71,533, unnoticed."""
    from gridfall.player_export import export_player

    def number(pattern):
        return int(re.search(pattern, text).group(1).replace(",", ""))

    text = (ROOT / "README.md").read_text()
    made = len(export_player("connect4", "gridfall.uct:UCTPlayer"))
    shown = number(r"wrote bot\.py: ([\d,]+) characters \(CodinGame allows 100,000\), your player")
    about = number(r"gridfall.uct:UCTPlayer` writes gridfall's generic UCT as a file of\s+about ([\d,]+)")
    assert abs(shown - made) <= 0.02 * made and abs(about - made) <= 0.02 * made, (shown, about, made)
    (tmp_path / "first.py").write_text("class First:\n    def act(self, state, seconds):\n"
                                       "        return state.legal_actions()[0]\n")
    monkeypatch.chdir(tmp_path)
    made = len(export_player("match3", "first.py:First", run_seconds=1.0))
    about = number(r"Such a file is about ([\d,]+) characters")
    assert abs(about - made) <= 0.02 * made, (about, made)
