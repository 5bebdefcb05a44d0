"""The README's Python examples (all under "Use from Python") run as written, each in a fresh
interpreter, and print what they are there to show: a user copies them first."""

import pathlib
import re
import subprocess
import sys

import pytest

from tests.adapters.extras import need

pytestmark = pytest.mark.parallel_safe  # one core each, a few seconds, no bot against a clock

ROOT = pathlib.Path(__file__).resolve().parents[1]
# the framework an example needs (its module, the extra that installs it), and the imports that need it
EXTRAS = {("gymnasium", "gym"): r"gymnasium|gridfall\.adapters\.gym",
          ("pettingzoo", "pettingzoo"): r"pettingzoo|gridfall\.adapters\.pettingzoo",
          ("pyspiel", "openspiel"): r"pyspiel|open_spiel|gridfall\.adapters\.openspiel"}


def readme_examples() -> list[str]:
    return re.findall(r"```python\n(.*?)```", (ROOT / "README.md").read_text(), re.DOTALL)


def needs(example: str) -> list[tuple[str, str]]:
    """The (module, extra) pairs of the frameworks ``example`` imports, directly or by its adapter."""
    return [pair for pair, imports in EXTRAS.items()
            if re.search(rf"^\s*(import|from) ({imports})\b", example, re.MULTILINE)]


def test_the_readme_has_an_example_for_the_interface_and_each_framework():
    examples = readme_examples()
    assert any(not needs(e) and "import gridfall" in e for e in examples)
    assert {pair for e in examples for pair in needs(e)} == set(EXTRAS)


@pytest.mark.parametrize("example", readme_examples(), ids=lambda e: e.splitlines()[0][:40])
def test_a_readme_example_runs_as_written(example, tmp_path):
    for module, extra in needs(example):
        need(module, extra)  # skipped without it, failed under CI=true
    done = subprocess.run([sys.executable, "-c", example], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip(), "the example prints nothing"
    if "connect4_steal_v0" in example:  # each player's reward for the game, not the emptied env.rewards
        assert re.fullmatch(r"player_0 (-?1|0)\.0\nplayer_1 (-?1|0)\.0\n", done.stdout), done.stdout
