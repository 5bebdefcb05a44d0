"""Print pip constraints that hold every requirement of pyproject.toml (the dependencies, and the
test extra with the extras it names) at its lower bound: `name>=1.2` becomes `name==1.2`.  A name
given twice is held at the higher of its bounds; a requirement without one is left free.
`.ci/oldest` installs with these, so that the bounds the package declares are versions the suite
has passed on.  With `--python`, print the oldest Python instead (`requires-python`'s bound: 3.10).
An argument names another pyproject.toml (the tests')."""

import pathlib
import re
import sys
import tomllib

here = pathlib.Path(__file__).resolve().parents[1] / "pyproject.toml"
words = sys.argv[1:]
python = "--python" in words
paths = [word for word in words if word != "--python"]
pyproject = pathlib.Path(paths[0]) if paths else here
project = tomllib.loads(pyproject.read_text())["project"]
extras = project.get("optional-dependencies", {})

if python:
    found = re.fullmatch(r"\s*>=\s*(3\.\d+)\s*", project.get("requires-python", ""))
    if found is None:
        sys.exit(f"{pyproject}: requires-python is not '>=3.N'")
    print(found[1])
    sys.exit(0)


def requirements(extra: str) -> list[str]:
    """The extra's requirements, with those of the project's extras it names (`gridfall[a,b]`)."""
    found = []
    for requirement in extras[extra]:
        named = re.fullmatch(r"\s*gridfall\[([^\]]+)\]\s*", requirement)
        found += [r for name in named[1].split(",") for r in requirements(name.strip())] if named else [requirement]
    return found


lowest: dict[str, tuple[tuple[int, ...], str]] = {}
for requirement in project["dependencies"] + requirements("test"):
    found = re.fullmatch(r"\s*([A-Za-z0-9_.-]+)\s*(.*)", requirement.split(";")[0])
    if found is None:
        sys.exit(f"pyproject.toml: cannot read the requirement {requirement!r}")
    name = found[1].lower().replace("_", "-")
    for bound in re.findall(r">=\s*([0-9][0-9.]*)", found[2]):
        key = tuple(int(part) for part in bound.split("."))
        if name not in lowest or key > lowest[name][0]:
            lowest[name] = (key, bound)
for name, (_, bound) in sorted(lowest.items()):
    print(f"{name}=={bound}")
