"""The annotations reach the users' type checkers (the package ships py.typed): mypy sees the
one interface's types in a researcher's code, and a wrong call to it is an error it reports."""

import subprocess
import sys

import pytest

from tests.adapters.extras import need

pytestmark = pytest.mark.parallel_safe  # one core, no bot against a clock (machine_sharing.py)

need("mypy", "test")

USER_CODE = '''
import gridfall
from gridfall.interface import StateBase
from gridfall.uct import UCTPlayer


def first_legal_playout(state: StateBase) -> list[float]:
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    return state.returns()


game = gridfall.load_game("connect4")
reveal_type(game)
reveal_type(game.new_initial_state().child(3))
print(first_legal_playout(game.new_initial_state()), UCTPlayer(seed=1).act(game.new_initial_state(), 0.01))
game.new_initial_state().apply_action("3")
reveal_type(gridfall.load_player(game, "gridfall:5000").act(game.new_initial_state()))
'''


@pytest.mark.long
def test_mypy_reads_the_interfaces_types_and_reports_a_wrong_call(tmp_path):
    (tmp_path / "user.py").write_text(USER_CODE)
    done = subprocess.run([sys.executable, "-m", "mypy", "--no-incremental", "--cache-dir", str(tmp_path / "cache"),
                           "user.py"], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    out = done.stdout + done.stderr
    assert 'Revealed type is "gridfall.interface.GameBase"' in out, out
    assert 'Revealed type is "gridfall.interface.StateBase"' in out, out
    assert 'Argument 1 to "apply_action" of "StateBase" has incompatible type "str"; expected "int"' in out, out
    assert 'user.py:18: note: Revealed type is "int"' in out, out  # a player's action
    assert "py.typed" not in out and "import-untyped" not in out, out
    assert "Found 1 error in 1 file" in out, out


@pytest.mark.long
def test_the_package_itself_reads_clean_under_mypy(tmp_path):
    """Every module of the package type-checks, the bodies of unannotated functions (the numba
    kernels) included: an Optional used as if set, a wrong argument, a name imported twice under
    one name are findings here, not surprises in a user's run.  (Libraries without types, such as
    pyspiel, are read as Any.)"""
    # by name (-p), as installed: given the installed folder's path, mypy would take site-packages
    # for a source root, and a module there (mypy_extensions) for the user's
    done = subprocess.run([sys.executable, "-m", "mypy", "--no-incremental", "--ignore-missing-imports",
                           "--check-untyped-defs", "--cache-dir", str(tmp_path / "cache"), "-p", "gridfall"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=600)
    out = done.stdout + done.stderr
    assert done.returncode == 0 and "Success: no issues found" in out, out
