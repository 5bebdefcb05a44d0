"""The bundler: a file of the package's own modules that runs alone, or a clear refusal."""

import subprocess

import pytest

from gridfall.export import ExportError, bundle


def test_a_bundle_runs_alone_in_a_bare_interpreter(tmp_path, bare_python):
    source = bundle(["gridfall.actions", "gridfall.connect4.rules"],
                    "from gridfall.connect4.rules import Game\ng = Game.from_moves('4455')\nprint(g.legal_actions())",
                    title="a test bundle")
    path = tmp_path / "b.py"
    path.write_text(source)
    run = subprocess.run([bare_python, "-I", str(path)], capture_output=True, text=True, cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == str(list(range(9)))
    assert not list(tmp_path.iterdir())[1:]  # no file written beside it


def test_it_refuses_an_import_outside_the_standard_library():
    with pytest.raises(ExportError, match=r"gridfall.connect4.engine, line \d+: imports numpy"):
        bundle(["gridfall.connect4.engine"], "", title="t")


def test_it_refuses_a_module_taken_from_a_bundled_package_but_not_bundled(monkeypatch):
    from gridfall import export

    # the bundle makes the package ``gridfall`` empty: ``from gridfall import json_text`` passed
    # the check and the exported bot died at its first line (ImportError)
    real = export.module_source
    monkeypatch.setattr(export, "module_source", lambda name: real(name) + (
        "\nfrom gridfall import json_text, connect4\n" if name == "gridfall.connect4.rules" else ""))
    with pytest.raises(ExportError, match=r"gridfall.connect4.rules, line \d+: imports gridfall.json_text, "
                                          "which is neither in the standard library nor bundled"):
        bundle(["gridfall.actions", "gridfall.connect4.rules"], "", title="t")
    monkeypatch.setattr(export, "module_source", lambda name: real(name) + (
        "\nfrom gridfall import actions\n" if name == "gridfall.connect4.rules" else ""))
    bundle(["gridfall.actions", "gridfall.connect4.rules"], "", title="t")  # a bundled module is there


def test_it_refuses_a_file_over_the_size_limit():
    with pytest.raises(ExportError, match="characters, over the platform's 1,000"):
        bundle(["gridfall.actions"], "", title="t", limit=1000)


def test_it_refuses_syntax_the_platform_python_does_not_have(monkeypatch):
    from gridfall import export

    monkeypatch.setattr(export, "module_source", lambda name: "if (n := 3):\n    pass\n")
    with pytest.raises(ExportError, match="gridfall.walrus, line 1: not Python 3.6"):
        bundle(["gridfall.walrus"], "", title="t", python=(3, 6))


def test_a_change_to_the_rules_shows_up_in_the_next_export(monkeypatch):
    from gridfall import export

    real = export.module_source
    monkeypatch.setattr(export, "module_source",
                        lambda name: real(name) + ("\nEDITED = True\n" if name == "gridfall.connect4.rules" else ""))
    from gridfall.connect4.export import export_source

    assert "EDITED = True" in export_source()


def test_the_match3_export_runs_in_a_bare_interpreter_within_codeabbeys_second(tmp_path, bare_python):
    import json
    import sys

    out = tmp_path / "fast.py"
    made = subprocess.run([sys.executable, "-m", "gridfall", "match3", "export", str(out)], capture_output=True, text=True)
    assert made.returncode == 0, made.stderr
    run = subprocess.run([sys.executable, "-m", "gridfall", "match3", "referee", str(out), "--python", bare_python,
                          "--json"], capture_output=True, text=True, timeout=120)
    report = json.loads(run.stdout)
    assert run.returncode == 0 and not report["failed"] and report["seconds"] <= 1.0 and report["total"] > 0
    assert not any(g["error"] for g in report["games"])
