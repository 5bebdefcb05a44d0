"""A player's exception is told with the line of the player's code it came through."""

import importlib.util

import pytest

from gridfall.player_fault import described

pytestmark = pytest.mark.parallel_safe  # one core, no bot against a clock (machine_sharing.py)


def _load(path):
    spec = importlib.util.spec_from_file_location("mybot", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _error(call):
    with pytest.raises(Exception) as caught:
        call()
    return caught.value


def test_the_players_line_not_the_librarys(tmp_path):
    path = tmp_path / "mybot.py"
    path.write_text("import json\n\n\ndef act(state):\n    return json.loads('{bad')\n")
    text = described(_error(lambda: _load(path).act(None)))
    assert text.startswith("JSONDecodeError: Expecting property name") and text.endswith(" at mybot.py:5 in act"), text


def test_a_call_into_gridfall_is_placed_at_the_players_call(tmp_path):
    import gridfall

    path = tmp_path / "mybot.py"
    path.write_text("def act(state):\n    state.apply_action(99)\n")
    state = gridfall.load_game("connect4").new_initial_state()
    assert described(_error(lambda: _load(path).act(state))).endswith(" at mybot.py:2 in act")


def test_in_an_exported_file_a_module_is_told_by_its_name():
    source = "def act():\n    return {}['missing']\n"
    namespace: dict = {}
    exec(compile(source, "<gridfall helpers.moves>", "exec"), namespace)
    assert described(_error(namespace["act"])) == "KeyError: 'missing' at helpers/moves.py:2 in act"
    exec(compile(source, "<gridfall gridfall.uct>", "exec"), namespace)  # gridfall's own: its caller's line
    call_line = _error.__code__.co_firstlineno + 2  # `call()`, two lines into _error
    assert described(_error(namespace["act"])).endswith(f" at test_player_fault.py:{call_line} in _error")
    assert described(KeyError("never raised")) == "KeyError: 'never raised'"  # no line of a player's: none
    assert described(ValueError()) == "ValueError"  # no message: no colon after the type


def test_a_players_file_that_fails_as_it_is_made_names_the_line(tmp_path):
    from gridfall.user_player import TargetError, make_player

    (tmp_path / "mine.py").write_text("class Make:\n    def __init__(self, game):\n        raise ValueError('no')\n")
    with pytest.raises(TargetError, match=r"Make\(game\) raised ValueError: no at mine.py:3 in __init__"):
        make_player(f"{tmp_path / 'mine.py'}:Make", None, 0)
    (tmp_path / "broken.py").write_text("import json\njson.loads('{')\n")
    with pytest.raises(TargetError, match=r"loading .*broken.py raised JSONDecodeError: .* at broken.py:2 in <module>"):
        make_player(f"{tmp_path / 'broken.py'}:Make", None, 0)
