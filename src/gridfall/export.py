"""One-file exports: a few of the package's own pure-Python modules, bundled for a platform.

The platforms take one source file (CodinGame: 100,000 characters, Python 3.11 with the standard
library and NumPy; CodeAbbey: Python 3.6).  :func:`bundle` writes each module's source into the
file as text and, when the file runs, executes it as a module of its own name (``sys.modules``
first, so that ``from gridfall.connect4.rules import Game`` inside a bundled module finds the
bundled one).  Nothing is copied by hand: a fix to the rules of record is in the next export.
Nothing is rewritten either, but for Python 3.6 the annotations, which become strings
(:mod:`gridfall.python36`).  No temporary file is written when it runs.

Before writing, the bundle is checked: every import must be of the standard library (as the
platform's Python has it), of a bundled module, or of a declared extra (NumPy); the file must
fit the size limit; and it must parse under the platform's Python version.  A check that fails
raises ExportError naming it.
"""

from __future__ import annotations

import ast
import importlib.util
import sys
from pathlib import Path

from gridfall.python36 import for_python_36, newer_module

CODINGAME_LIMIT = 100_000  # characters of a CodinGame submission


class ExportError(ValueError):
    """The export would not be accepted by the platform: the message says why, and ``module``
    names the bundled module at fault, if one is."""

    def __init__(self, message: str, module: str | None = None):
        super().__init__(message)
        self.module = module


def module_source(name: str) -> str:
    spec = importlib.util.find_spec(name)
    if spec is None or spec.origin is None or not spec.origin.endswith(".py"):
        raise ExportError(f"{name} is not a pure-Python module of the package")
    return Path(spec.origin).read_text(encoding="utf-8")


def imports_of(tree: ast.AST) -> list[tuple[str, int, list[str]]]:
    """Every module a source imports (anywhere, at any depth), with the line and the names taken
    from it (``from M import a, b``; none for ``import M``)."""
    found: list[tuple[str, int, list[str]]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(alias.name, node.lineno, []) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.module, node.lineno, [alias.name for alias in node.names]))
    return found


def lazy_import_lines(tree: ast.AST) -> set[int]:
    """The lines of the imports made inside a function: run when it is called, not when the
    module loads."""
    return {node.lineno for function in ast.walk(tree) if isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef)
            for node in ast.walk(function) if isinstance(node, ast.Import | ast.ImportFrom)}


def folder_modules(tree: ast.AST, folder: Path, reserved: set[str] | frozenset[str] = frozenset()) -> list[Path]:
    """The modules of ``folder`` that a source imports: ``NAME.py`` beside it for each import
    whose first part is NAME, when NAME is not a standard module (nor one of ``reserved``): what
    Python finds first when the source's folder is on its path."""
    found: list[Path] = []
    for imported, _, _ in imports_of(tree):
        top = imported.split(".")[0]
        beside = folder / f"{top}.py"
        if top not in reserved and top not in sys.stdlib_module_names and beside.is_file() and beside not in found:
            found.append(beside)
    return found


def is_package(name: str) -> bool:
    """Whether ``name`` is a package (False for a module, or for no such thing)."""
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):  # a parent that is a module, not a package
        return False
    return spec is not None and spec.submodule_search_locations is not None


def package_closure(sources: list[str], start: tuple[str, ...] = ()) -> list[str]:
    """The package's modules that ``sources`` (texts) and the modules ``start`` import, directly or
    through each other (at any depth of the code, as :func:`bundle` checks), each after the
    modules it imports: an order :func:`bundle` takes.  ``from gridfall import uct`` counts
    ``gridfall.uct``; what is not a module of the package (``from gridfall import load_game``) is
    left for :func:`bundle` to refuse."""
    order: list[str] = []
    seen: set[str] = set()

    def visit(name: str) -> None:
        if name in seen:
            return
        seen.add(name)  # before the imports: a module imported back at run time is no loop here
        for module in package_imports(ast.parse(module_source(name))):
            visit(module)
        order.append(name)

    for name in start:
        visit(name)
    for source in sources:
        for module in package_imports(ast.parse(source)):
            visit(module)
    return order


def package_imports(tree: ast.AST) -> list[str]:
    """The package's modules a source imports (``from gridfall import uct`` is ``gridfall.uct``)."""
    found = []
    for module, _, names in imports_of(tree):
        if module.split(".")[0] != "gridfall":
            continue
        if not is_package(module):
            found.append(module)
        else:  # a package's modules taken by name; the package itself the bundle makes, empty
            found += [f"{module}.{n}" for n in names if importlib.util.find_spec(f"{module}.{n}") is not None]
    return found


def _missing(name: str, names: list[str], bundled: set[str], extras: set[str]) -> str | None:
    """What of ``from name import names`` the bundle would not have (None if it has it all)."""
    top = name.split(".")[0]
    if name in bundled or top in extras or top in sys.stdlib_module_names or top == "__future__":
        return None
    # a package whose modules are bundled (``gridfall``, ``gridfall.connect4``) is made by the bundle,
    # empty: what is taken from it must be one of its bundled modules (``from gridfall import words``)
    if any(module.startswith(name + ".") for module in bundled):
        return next((f"{name}.{n}" for n in names if f"{name}.{n}" not in bundled), None)
    return name


def bundle(modules: list[str], main: str, *, title: str, prelude: str = "", extras: tuple[str, ...] = (),
           limit: int = CODINGAME_LIMIT, python: tuple[int, int] = (3, 11), given: dict[str, str] | None = None,
           lazy_absent: tuple[str, ...] = ()) -> str:
    """The one-file program: ``prelude`` (say, a clock read first), ``modules`` (in an order where
    each comes after those it imports at the top), then ``main``.  A module named in ``given`` has
    that source (a user's file), any other the package's own.  A package module may import one of
    ``lazy_absent`` inside a function although the platform lacks it (the states'
    ``observation_planes`` import NumPy, which no player on CodeAbbey calls: there the call raises
    ImportError).  ExportError if it would not be accepted."""
    given = given or {}
    bundled = set(modules)
    sources = {}
    # checked from the last (the ones that import the others) to the first: the fault named is the
    # one nearest the code that reaches it (jit.py's numba, not the platformdirs of the module that
    # jit.py imports to choose numba's cache)
    for name in reversed(modules):
        source = given[name] if name in given else module_source(name)
        try:
            if python < (3, 7):
                source = for_python_36(source)
            tree = ast.parse(source, feature_version=python)
        except SyntaxError as e:
            raise ExportError(f"{name}, line {e.lineno}: not Python {python[0]}.{python[1]}: {e.msg}") from None
        lazy = set() if name in given else lazy_import_lines(tree)
        for module, line, names in imports_of(tree):
            if line in lazy and module.split(".")[0] in lazy_absent:
                continue
            taken = [module] + [f"{module}.{n}" for n in names]  # from importlib import resources: a module too
            newer = [(m, added) for m in taken if (added := newer_module(m))] if python < (3, 7) else []
            if newer:
                raise ExportError(f"{name}, line {line}: imports {newer[0][0]}, which Python {python[0]}.{python[1]} "
                                  f"does not have (added in {newer[0][1]})", module=name)
            imported = _missing(module, names, bundled, set(extras))
            if imported:
                raise ExportError(f"{name}, line {line}: imports {imported}, which is neither in the standard "
                                  f"library nor bundled" + (f" nor a declared extra ({', '.join(extras)})" if extras else ""),
                                  module=name)
        sources[name] = source
    packages = sorted({".".join(name.split(".")[:i]) for name in modules for i in range(1, name.count(".") + 1)})
    own = ", ".join(name for name in modules if name not in given)
    yours = f" and yours ({', '.join(name for name in modules if name in given)})" if given else ""
    parts = [
        f'"""{title}\n\nGenerated by gridfall from its own modules ({own}){yours}: do not edit by hand;\n'
        f'run the export again instead."""\n',
        prelude.strip() + "\n" if prelude else "",
        "import sys as _sys\nimport types as _types\n",
        "_SOURCES = {\n" + "".join(f"    {name!r}: {sources[name]!r},\n" for name in modules) + "}\n",
        "\n\ndef _load(name, source=None):\n"
        "    module = _types.ModuleType(name)\n"
        "    module.__file__ = globals().get('__file__', '<gridfall export>')  # none where the file is exec'd\n"
        "    if source is None:\n"
        "        module.__path__ = []  # a package: its modules come from this file\n"
        "    _sys.modules[name] = module\n"
        "    parent, _, child = name.rpartition('.')\n"
        "    if parent:  # as the import system does: 'import a.b as c' reads b from a before Python 3.7\n"
        "        setattr(_sys.modules[parent], child, module)\n"
        "    if source is not None:\n"
        "        exec(compile(source, '<gridfall ' + name + '>', 'exec'), module.__dict__)\n"
        "    return module\n\n\n"
        f"for _name in {packages!r}:\n"
        "    _load(_name)\n"
        "for _name, _source in _SOURCES.items():\n"
        "    _load(_name, _source)\n\n",
        main.strip() + "\n",
    ]
    text = "".join(parts)
    if len(text) > limit:
        raise ExportError(f"the export has {len(text):,} characters, over the platform's {limit:,}")
    try:
        ast.parse(text, feature_version=python)
    except SyntaxError as e:
        raise ExportError(f"the export does not parse as Python {python[0]}.{python[1]}: line {e.lineno}: {e.msg}") from None
    return text
