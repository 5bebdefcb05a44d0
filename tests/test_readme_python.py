"""The README's "Use from Python" examples run as written."""

import pathlib
import re

import pytest

from tests.adapters.extras import need

pytestmark = pytest.mark.parallel_safe  # one core, no bot against a clock (machine_sharing.py)

README = pathlib.Path(__file__).resolve().parents[1] / "README.md"


def python_examples():
    text = README.read_text()
    section = text.split("## Use from Python", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```python\n(.*?)```", section, re.DOTALL)


def test_the_section_has_one_example_per_framework():
    examples = python_examples()
    assert len(examples) == 4
    assert [("gymnasium" in e, "pettingzoo" in e, "pyspiel" in e) for e in examples[1:]] == [
        (True, False, False), (False, True, False), (False, False, True)]


@pytest.mark.parametrize("number", range(4))
def test_example_runs(number, capsys):
    example = python_examples()[number]
    for module, extra in (("gymnasium", "gym"), ("pettingzoo", "pettingzoo"), ("pyspiel", "openspiel")):
        if f"import {module}" in example or f"adapters.{extra}" in example:
            need(module, extra)
    exec(compile(example, f"README example {number + 1}", "exec"), {})
    assert capsys.readouterr().out.strip()
