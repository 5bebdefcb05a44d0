"""`.ci/oldest` holds every requirement at its lower bound (`.ci/oldest_pins.py`): a name given
twice gets the higher bound, the extras the test extra names are read too, and every requirement
of the project has a bound to pin."""

import pathlib
import re
import subprocess
import sys

import pytest

pytestmark = pytest.mark.parallel_safe  # one core, no bot against a clock (machine_sharing.py)
tomllib = pytest.importorskip("tomllib", reason="Python 3.11 reads pyproject.toml (.ci runs on it)")

ROOT = pathlib.Path(__file__).resolve().parents[1]


def pins(*pyproject: pathlib.Path) -> dict[str, str]:
    done = subprocess.run([sys.executable, str(ROOT / ".ci" / "oldest_pins.py"), *map(str, pyproject)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return dict(line.split("==") for line in done.stdout.split())


def test_a_name_given_twice_gets_its_higher_bound_and_named_extras_are_read(tmp_path):
    (tmp_path / "pyproject.toml").write_text(
        '[project]\ndependencies = ["Alpha_Lib>=1.9", "free"]\n'
        '[project.optional-dependencies]\nfast = ["beta>=2.0,<3"]\n'
        'test = ["gridfall[fast]", "alpha-lib>=1.10", "gamma>=0.5; python_version < \'3.12\'"]\n')
    assert pins(tmp_path / "pyproject.toml") == {"alpha-lib": "1.10", "beta": "2.0", "gamma": "0.5"}


def test_every_requirement_of_the_project_has_a_bound_to_pin():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    extras = project["optional-dependencies"]
    (named,) = [r for r in extras["test"] if r.startswith("gridfall[")]
    assert set(named[len("gridfall["):-1].split(",")) == set(extras) - {"test"}, "the test extra names every extra"
    requirements = project["dependencies"] + [r for extra in extras.values() for r in extra if "gridfall[" not in r]
    names = {re.match(r"[A-Za-z0-9_.-]+", r)[0].lower().replace("_", "-") for r in requirements}
    assert set(pins()) == names, "a requirement without a lower bound"


def test_the_oldest_python_is_read_from_requires_python(tmp_path):
    """`.ci/oldest` runs the suite on it, where the machine has it."""
    script = str(ROOT / ".ci" / "oldest_pins.py")
    (tmp_path / "pyproject.toml").write_text('[project]\nrequires-python = ">=3.12"\ndependencies = []\n')
    done = subprocess.run([sys.executable, script, "--python", str(tmp_path / "pyproject.toml")],
                          capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout) == (0, "3.12\n"), done.stderr
    (tmp_path / "pyproject.toml").write_text('[project]\nrequires-python = "~=3.12"\ndependencies = []\n')
    done = subprocess.run([sys.executable, script, "--python", str(tmp_path / "pyproject.toml")],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and "requires-python is not '>=3.N'" in done.stderr
    done = subprocess.run([sys.executable, script, "--python"], capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["requires-python"][2:]


def test_a_bound_the_package_gives_its_users_is_the_one_the_oldest_run_pins():
    """The test extra may not raise a user's requirement (`click>=8.1` beside the tests' `click>=8.2`
    left 8.1 declared and never run): each bound outside it is pinned as written."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    extras = project["optional-dependencies"]
    declared = project["dependencies"] + [r for name, extra in extras.items() if name != "test" for r in extra]
    pinned = pins()
    for requirement in declared:
        if "gridfall[" in requirement:
            continue
        name = re.match(r"[A-Za-z0-9_.-]+", requirement)[0].lower().replace("_", "-")
        bound = re.search(r">=\s*([0-9][0-9.]*)", requirement)[1]
        assert pinned[name] == bound, f"{requirement!r} is run at {name}=={pinned[name]} only"
