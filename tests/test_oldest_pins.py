"""`.ci/oldest` holds every requirement at its lower bound: each requirement of the package and of
its test extra (with the extras that names) has one, and a name given twice is held at the
higher bound."""

import pathlib
import re
import subprocess
import sys

import pytest

pytestmark = pytest.mark.parallel_safe  # one core, no bot against a clock (machine_sharing.py)
tomllib = pytest.importorskip("tomllib", reason="Python 3.11 reads pyproject.toml (.ci runs on it)")

ROOT = pathlib.Path(__file__).resolve().parents[1]


def pins() -> dict[str, str]:
    done = subprocess.run([sys.executable, str(ROOT / ".ci" / "oldest_pins.py")], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    return dict(line.split("==") for line in done.stdout.split())


def test_every_requirement_is_pinned_at_its_highest_lower_bound():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    extras = project["optional-dependencies"]
    named = [extra.strip() for requirement in extras["test"] if requirement.startswith("gridfall[")
             for extra in requirement[len("gridfall["):-1].split(",")]
    assert set(named) == set(extras) - {"test"}, "the test extra names every other extra"
    requirements = project["dependencies"] + [r for extra in extras.values() for r in extra if "gridfall[" not in r]
    bounds: dict[str, list[str]] = {}
    for requirement in requirements:
        name = re.match(r"[A-Za-z0-9_.-]+", requirement)[0].lower().replace("_", "-")
        bounds.setdefault(name, []).extend(re.findall(r">=([0-9.]+)", requirement))
    pinned = pins()
    assert set(pinned) == set(bounds) and all(bounds.values()), "a requirement without a lower bound"
    assert any(len(found) > 1 for found in bounds.values())  # click: the package's bound and the tests'
    for name, found in bounds.items():
        assert pinned[name] == max(found, key=lambda v: tuple(map(int, v.split(".")))), name
