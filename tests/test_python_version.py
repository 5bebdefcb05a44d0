"""The package runs on the oldest Python it declares (`requires-python`).  CI runs the suite on
that Python where the machine has one (`.ci/oldest`); here, in every run and on any Python, vermin
reads every module for syntax and standard-library names (tomllib, datetime.UTC, ...) newer than
that, which a newer Python would take without a word."""

import ast
import pathlib
import re
import subprocess
import sys

import pytest

import gridfall
from tests.adapters.extras import need

pytestmark = pytest.mark.parallel_safe  # one core, no bot against a clock (machine_sharing.py)

need("vermin", "test")

PYPROJECT = pathlib.Path(__file__).resolve().parents[1] / "pyproject.toml"


def oldest_python() -> str:
    found = re.search(r'^requires-python = ">=(3\.\d+)"$', PYPROJECT.read_text(), re.MULTILINE)
    assert found, "pyproject.toml: requires-python is not '>=3.N'"
    return found[1]


def vermin(target: str, path: pathlib.Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", "import sys, vermin; sys.exit(vermin.main())", "--no-tips",
                           "--violations", f"-t={target}-", "--eval-annotations", str(path)],
                          capture_output=True, text=True, timeout=300)


def test_no_module_needs_a_python_newer_than_requires_python():
    done = vermin(oldest_python(), pathlib.Path(gridfall.__file__).parent)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_check_sees_a_name_of_a_newer_python(tmp_path):
    (tmp_path / "newer.py").write_text("import datetime\n\nWHEN = datetime.UTC\n")
    done = vermin("3.10", tmp_path)
    assert done.returncode != 0 and "'datetime.UTC' member requires !2, 3.11" in done.stdout, done.stdout


def test_no_string_of_the_package_holds_a_lone_surrogate():
    """Python 3.13 encodes a docstring to UTF-8 as it compiles it: one that showed ``"\\udcff"``
    unescaped stopped the import of the Match-3 referee, and every Match-3 command with it."""
    found = []
    for path in sorted(pathlib.Path(gridfall.__file__).parent.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                try:
                    node.value.encode("utf-8")
                except UnicodeEncodeError:
                    found.append(f"{path}:{node.lineno}")
    assert not found, "a string with a lone surrogate (write it as \\\\udcff): " + ", ".join(found)
