"""Tab completion of board specs, in Python and in a real bash that splits words at colons."""

import os
import pty
import select
import shutil
import signal
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from gridfall.cli import main
from gridfall.shell_completion import open_quote_at
from gridfall.samegame.spec_completion import complete_board


def values(incomplete: str) -> list[tuple[str, str]]:
    return [(item.type, item.value) for item in complete_board(None, None, incomplete)]


def test_a_board_completes_its_kind_then_its_number_and_anything_else_is_a_file():
    assert [v for _, v in values("")] == ["standard:", "codingame:", "tuning:", "random:", "balanced:",
                                          "dominant:", "rows:"]
    assert values("st") == [("plain", "standard:")]
    assert [v for _, v in values("standard:")] == [f"standard:{i}" for i in range(1, 21)]
    assert [v for _, v in values("standard:1")] == ["standard:1"] + [f"standard:{i}" for i in range(10, 20)]
    assert [v for _, v in values("tuning:25")] == ["tuning:25", "tuning:250"]
    assert values("codingame:51") == [] and values("standard:x") == []
    assert values("random:") == [] and values("rows:0") == []  # a seed, the rows: nothing to offer
    assert values("./b") == [("file", "./b")] and values("boards/x") == [("file", "boards/x")]
    assert values("results:1") == [("file", "results:1")]  # not a kind: a path with a colon


def bash_offers(line: str, point: int | None = None, breaks: str = " \t\n\"'><=;|&(:") -> list[str]:
    """What gridfall answers the bash script for the line typed so far."""
    env = {"_GRIDFALL_COMPLETE": "bash_complete", "COMP_LINE": line, "COMP_POINT": str(len(line) if point is None
                                                                                         else point),
           "COMP_WORDBREAKS": breaks, "COMP_WORDS": "", "COMP_CWORD": "0"}
    result = CliRunner().invoke(main, [], env=env, prog_name="gridfall")
    assert result.exit_code == 0, result.output
    return [line.split(",", 1)[1] for line in result.output.splitlines()]


def test_bash_is_answered_only_what_follows_the_last_colon():
    assert bash_offers("gridfall samegame solve sta") == ["standard:"]
    assert bash_offers("gridfall samegame solve standard:1") == ["1"] + [str(i) for i in range(10, 20)]
    assert bash_offers("gridfall samegame solve 'standard:1") == ["standard:1"] + [f"standard:{i}" for i in
                                                                                   range(10, 20)]  # one word
    assert bash_offers("gridfall samegame solve standard:1", breaks=" \t\n") == bash_offers(
        "gridfall samegame solve 'standard:1")  # a COMP_WORDBREAKS without a colon keeps the word whole
    # the words before the cursor are the line's, a colon and all, and what follows it is not read
    assert {"--time", "--algo"} <= set(bash_offers("gridfall samegame solve standard:1 --"))
    typed = "gridfall samegame referee --bot x standard:1 cod"
    assert bash_offers(typed + " --json", point=len(typed)) == ["codingame:"]
    assert bash_offers("gridfall view --board tuning:24") == ["24"] + [str(i) for i in range(240, 250)]
    assert bash_offers("gridfall samegame so") == ["solve"]


def test_bash_keeps_the_option_of_a_value_written_after_an_equals_sign():
    # bash replaces what follows the word's last break, the "=" or the colon
    assert bash_offers("gridfall view r.json --board=sta") == ["standard:"]
    assert bash_offers("gridfall view r.json --board=standard:2") == ["2", "20"]
    assert bash_offers("gridfall samegame solve standard:1 --algo=nr") == ["nrpa"]
    # without "=" among the breaks, bash replaces the whole word: the option goes in front
    assert bash_offers("gridfall samegame solve standard:1 --algo=nr", breaks=" \t\n:") == ["--algo=nrpa"]
    assert bash_offers("gridfall view r.json --board=standard:2", breaks=" \t\n") == ["--board=standard:2",
                                                                                   "--board=standard:20"]
    # inside an open quote bash breaks nothing: it replaces what follows the quote
    assert bash_offers('gridfall view r.json --board="standard:2') == ["standard:2", "standard:20"]
    assert bash_offers("gridfall view r.json '--board=standard:2") == ["--board=standard:2", "--board=standard:20"]


def test_fish_is_answered_for_the_word_unquoted():
    def fish_offers(line: str, word: str) -> list[str]:
        env = {"_GRIDFALL_COMPLETE": "fish_complete", "COMP_WORDS": line, "COMP_CWORD": word}
        result = CliRunner().invoke(main, [], env=env, prog_name="gridfall")
        assert result.exit_code == 0, result.output
        return [line.split(",", 1)[1].split("\t")[0] for line in result.output.splitlines()]

    # click answers for the value; the fish script puts the option back in front of each answer
    assert fish_offers('gridfall view r.json "--board=sta', '"--board=sta') == ["standard:"]
    assert fish_offers('gridfall samegame solve "', '"') == fish_offers("gridfall samegame solve ", "")
    assert fish_offers("gridfall samegame solve 'tuning:24", "'tuning:24") == ["tuning:24"] + [
        f"tuning:{i}" for i in range(240, 250)]


def test_the_open_quote_is_found_as_a_shell_reads_the_line():
    assert open_quote_at('a "b') == 2 and open_quote_at("a 'b") == 2
    assert open_quote_at('a "b" c') is None and open_quote_at('a \\"b') is None  # closed, escaped
    assert open_quote_at('a "b\\"c') == 2 and open_quote_at("a 'b\\'") is None  # no escape in single quotes
    assert open_quote_at("a \"it's") == 2  # an apostrophe inside double quotes opens nothing


# How each shell starts with no user settings, loads gridfall's completion, and makes ``gridfall`` a
# function that prints its arguments: what the shell would have run.  ('' splits the markers the
# test waits for, so that the shell's echo of the typed line does not hold them.)
SHELLS = {
    "bash": (["bash", "--norc", "--noprofile", "-i"],
             'eval "$(_GRIDFALL_COMPLETE=bash_source gridfall)"; '
             "gridfall() { printf 'ARG<%s>' \"$@\"; echo ' E''ND'; }; echo LOA''DED"),
    "zsh": (["zsh", "-f", "-i"],
            'autoload -Uz compinit && compinit -u -D; eval "$(_GRIDFALL_COMPLETE=zsh_source gridfall)"; '
            "gridfall() { printf 'ARG<%s>' \"$@\"; echo ' E''ND'; }; echo LOA''DED"),
    "fish": (["fish", "--no-config", "-i"],
             "_GRIDFALL_COMPLETE=fish_source gridfall | source; "
             "function gridfall; printf 'ARG<%s>' $argv; echo ' E''ND'; end; echo LOA''DED"),
}


def typed_in(shell: str, keys: str, tmp_path: Path) -> str:
    """What ``shell`` prints, from the loaded completion on, when ``keys`` are typed on its terminal."""
    bin_dir = Path(sys.executable).parent
    if shutil.which(shell) is None or not (bin_dir / "gridfall").exists():
        if os.environ.get("CI", "").lower() == "true":  # .ci/run installs the shells
            pytest.fail(f"CI=true and {shell} or the gridfall command is missing", pytrace=False)
        pytest.skip(f"needs {shell} and an installed gridfall command")
    argv, setup = SHELLS[shell]
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}", "HOME": str(tmp_path),
           "INPUTRC": "/dev/null", "TERM": "dumb", "PS1": "> "}
    pid, fd = pty.fork()
    if pid == 0:  # the child: the shell, on the pseudo-terminal
        os.execvpe(argv[0], argv, env)
    seen = b""

    def read_until(marker: bytes, seconds: float = 60) -> None:
        nonlocal seen
        end = time.monotonic() + seconds
        while marker not in seen and time.monotonic() < end:
            if select.select([fd], [], [], 0.2)[0]:
                try:
                    seen += os.read(fd, 65536)
                except OSError:  # the shell has gone
                    break
        assert marker in seen, seen.decode(errors="replace")[-2000:]

    try:
        os.write(fd, setup.encode() + b"\n")
        read_until(b"LOADED")
        os.write(fd, keys.encode())  # typed ahead: the shell reads each key once the last completion is done
        read_until(b" END")
        return seen.decode(errors="replace").rsplit("LOADED", 1)[1]
    finally:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        os.close(fd)


@pytest.mark.parametrize("shell", sorted(SHELLS))
@pytest.mark.parametrize("keys, ran", [
    ("gridfall samegame referee --bot x stan\t9\tcodi\t50\t--js\t\n",
     "ARG<samegame>ARG<referee>ARG<--bot>ARG<x>ARG<standard:9>ARG<codingame:50>ARG<--json> END"),
    # a value written after "=": zsh wrote "standard:9" without its option, fish offered nothing
    ("gridfall view r.json --board=stan\t9\t--set=tu\t\n",
     "ARG<view>ARG<r.json>ARG<--board=standard:9>ARG<--set=tuning> END"),
    # in quotes: bash wrote the whole word inside them, fish offered nothing
    ('gridfall view r.json --board="standard:1\t7\t\n', "ARG<view>ARG<r.json>ARG<--board=standard:17> END"),
], ids=["words", "option=value", "quoted"])
def test_a_real_shell_completes_board_specs_whole(shell, keys, ran, tmp_path):
    out = typed_in(shell, keys, tmp_path)
    assert ran in out, out
