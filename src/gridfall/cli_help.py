"""The help texts several commands share (the platforms' protocols, the referee's promises),
written once and appended to each command's --help by :func:`with_help`."""

from __future__ import annotations

import inspect

PLAYER_EXPORT_HELP = ("Write a file that plays your own player instead, as `bot --player` does: MODULE:NAME or "
                      "FILE.py:NAME, written against gridfall's interface.  The file carries your module, the modules "
                      "of yours beside it that it imports, and gridfall's modules they need (gridfall.uct, say); one "
                      "that needs numba (gridfall's engines and built-in agents) is refused, as CodinGame has none.")

SAMEGAME_PROTOCOL = """\b
The protocol (CodinGame's SameGame):
  each turn the bot reads the board: 15 lines of 15 colours (0-4, -1 empty)
  separated by spaces, the top row first;
  turn flavour: it answers one line "x y [message]" ((0, 0) is the bottom
  left) within 20 s on the first turn and 50 ms on each later one; a
  malformed action, a cell off the board, an empty cell or a lone tile loses;
  one-turn flavour: it answers once, within 20 s, one line of up to 150
  actions "x y;x y;..."; an empty cell or a lone tile is only a warning."""

CONNECT4_PROTOCOL = """\b
The protocol (CodinGame's Connect Four 7x9 with STEAL):
  first turn only: "myId oppId";
  every turn: the turn index; 7 rows of 9 characters ('.', '0', '1'), the top
  row first; the number of valid actions, then one a line (the open columns,
  and -2 for STEAL at turn index 1); the opponent's last action (-1 at the
  start, -2 after a STEAL).
  The bot answers one line: a column or STEAL, then a space and an optional
  message, within 1000 ms on its first turn and 100 ms after.  A timeout, an
  unreadable answer, a full column or STEAL out of turn loses; win 10,
  draw 5, loss 0."""

REFEREE_NOTES = """\b
Every bot runs in a session of its own; when its game ends it is killed with
everything it started (on Linux even a child that called setsid: the referee
is a child subreaper; elsewhere the process group and session only), and so
it is if the referee is killed outright (kill -9): a watcher it started does it.
Ctrl-C, SIGTERM and SIGHUP stop within a second, keep the finished games and
exit 128 + the signal.  Exit code 0 when every game was judged, whatever the
verdicts; 1 if the referee itself failed; 2 for bad usage.  A turn out of time
is lost; its answer is waited for as long again (at most 0.5 s) only to say
how late it came ("answered after 130 ms, over the limit of 100 ms")."""


def with_help(*paragraphs: str):
    """Append ``paragraphs`` to a command's docstring (its --help), so that a text shared by
    several commands is written once."""

    def decorate(command):
        command.__doc__ = inspect.cleandoc(command.__doc__ or "") + "\n\n" + "\n\n".join(paragraphs)
        return command

    return decorate
