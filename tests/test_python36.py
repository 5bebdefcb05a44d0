"""gridfall.python36: annotations made strings, as ``from __future__ import annotations`` makes
them, so that the package's modules run on CodeAbbey's Python 3.6; every other line as written."""

import ast

import pytest

from gridfall.python36 import for_python_36, newer_calls, newer_module
from tests.adapters.extras import need

SOURCE = '''from __future__ import annotations

import os  # a comment stays


def f(x: int | None, *rest: list[str], key: dict[str, "Foo"] = None, **more: set[int]) -> tuple[int, ...]:
    total: list[int] = []
    seen: set[str]
    return (x, os.sep)


class C:
    size: int = 3
    name: "str"  # a string already: left as it is

    async def g(self) -> list[int]:
        return [lambda y: y]
'''


def test_every_annotation_becomes_its_own_text_and_the_import_goes():
    lowered = for_python_36(SOURCE)
    assert lowered.count("\n") == SOURCE.count("\n")  # the same lines: tracebacks point where the source does
    assert lowered.splitlines()[0] == "" and "import os  # a comment stays" in lowered
    assert ("def f(x: 'int | None', *rest: 'list[str]', key: 'dict[str, \"Foo\"]' = None, **more: 'set[int]') -> "
            "'tuple[int, ...]':") in lowered
    assert "    total: 'list[int]' = []\n    seen: 'set[str]'\n" in lowered
    assert "    size: 'int' = 3\n    name: \"str\"  # a string already" in lowered
    assert "async def g(self) -> 'list[int]':" in lowered
    tree = ast.parse(lowered, feature_version=(3, 6))
    assert not any(isinstance(node, ast.ImportFrom) and node.module == "__future__" for node in ast.walk(tree))
    namespace: dict = {}
    exec(compile(lowered, "<lowered>", "exec"), namespace)
    assert namespace["f"].__annotations__["return"] == "tuple[int, ...]"  # what the future import would give


def test_other_future_features_stay():
    assert for_python_36("from __future__ import annotations, division\n") == "from __future__ import division\n"


def test_columns_are_found_after_text_that_is_not_ascii():
    """ast counts columns in UTF-8 bytes: an annotation after "é" must still be found whole."""
    lowered = for_python_36('def f(a="é", b: list[int] = None) -> dict[str, int]: pass\n')
    assert lowered == "def f(a=\"é\", b: 'list[int]' = None) -> 'dict[str, int]': pass\n"


def test_an_annotation_over_several_lines_keeps_them():
    source = "def f(x: dict[\n        str, int]) -> None:\n    return x\n"
    lowered = for_python_36(source)
    assert lowered.count("\n") == source.count("\n")
    namespace: dict = {}
    exec(compile(lowered, "<lowered>", "exec"), namespace)
    assert namespace["f"].__annotations__["x"] == "dict[\n        str, int]"


def test_what_it_cannot_lower_is_left_for_the_bundle_to_refuse():
    with pytest.raises(SyntaxError):
        for_python_36("def (:\n")
    lowered = for_python_36("if (n := 1):\n    pass\n")  # syntax newer than 3.6: unchanged, and refused later
    with pytest.raises(SyntaxError):
        ast.parse(lowered, feature_version=(3, 6))


@pytest.mark.parametrize("module, added", [("dataclasses", "3.7"), ("importlib.resources", "3.7"),
                                           ("importlib.metadata.foo", "3.8"), ("zoneinfo", "3.9"),
                                           ("importlib", None), ("json", None), ("os.path", None)])
def test_the_modules_python_3_6_lacks_are_named_with_the_version_that_added_them(module, added):
    assert newer_module(module) == added


def test_calls_of_what_python_3_6_lacks_are_found_by_vermin():
    need("vermin", "test")
    found = newer_calls({"ok": "x: int | None = 1\n",  # an annotation made a string is not read
                         "mine": "import math\n\n\ndef f(x):\n    return math.prod(x), 'a'.removeprefix('b')\n"})
    assert found == ["mine, line 5: 'math.prod' member needs Python 3.8",
                     "mine, line 5: 'str.removeprefix' member needs Python 3.9"]
    assert newer_calls({"ok": for_python_36("x: int | None = 1\n")}) == []
