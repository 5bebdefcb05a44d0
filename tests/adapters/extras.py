"""An optional framework for a test module: skipped on a user's machine without it, a failure
under CI=true (CI installs every extra, so there a missing one is a broken install)."""

import importlib
import os

import pytest


def need(module: str, extra: str):
    try:
        return importlib.import_module(module)
    except ImportError as e:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"CI=true and {module} is missing ({e}): .ci/run installs gridfall[{extra}]", pytrace=False)
        pytest.skip(f"{module} is not installed (pip install gridfall[{extra}])", allow_module_level=True)
