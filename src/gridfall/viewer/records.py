"""Replays from what gridfall stores: a run database's rows, a solution store's lines, a results
file, and the JSON a referee prints (``--json``).

Each function turns stored records into the page's games through the rules of record; a record
that does not replay raises ValueError naming it.
"""

from __future__ import annotations

from pathlib import Path

from gridfall import json_text
from gridfall.arena.database import GameRow, job_order, read_only, stored_rows
from gridfall.sqlite_kinds import is_sqlite, kind_of, tables
from gridfall.text_file import NotText, read_text

MAX_GAMES = 100  # games in one page when none are named: a larger run gets a note and --job


def kind_of_file(path: Path) -> str:
    """``run``, ``store``, ``referee`` (a JSON object) or ``results``, from the file's content;
    ValueError if an SQLite file is neither of gridfall's."""
    if is_sqlite(path):
        with read_only(path) as connection:
            kind = kind_of(tables(connection))
        if kind:
            return kind
        raise ValueError(f"{path}: an SQLite file that is neither a run database nor a solution store")
    try:
        start = read_text(path).lstrip()[:200].lower()
    except NotText:
        start = ""  # results_games names what is wrong with it
    if start.startswith(("<!doctype html", "<html")):
        raise ValueError(f"{path}: an HTML page (a replay already? open it in a browser); RECORD is what a "
                         "page is made from")
    return "referee" if start.startswith("{") or path.suffix.lower() == ".json" else "results"


def replay_rows(rows: list[GameRow]) -> tuple[str, list[dict]]:
    """(game kind, page games) for rows of one run database."""
    kinds = {row.game for row in rows}
    if len(kinds) != 1:
        raise ValueError(f"the rows hold {', '.join(sorted(kinds)) or 'no'} games: give --job for rows of one game")
    kind = kinds.pop()
    games = []
    for row in rows:
        try:
            games += _replay_row(kind, row)
        except (ValueError, KeyError, IndexError, TypeError) as e:
            raise ValueError(f"game {row.job!r} does not replay: {e}") from None
    return kind, games


def _replay_row(kind: str, row: GameRow) -> list[dict]:
    if kind == "connect4":
        from gridfall.connect4.replay import replay_game as connect4_game

        title = f"{row.job}: {row.seats[0]} vs {row.seats[1]}"
        return [connect4_game(_listed(row.moves), row.seats, title, opening=row.result.get("opening", 0),
                              times=row.times, messages=row.messages, output=row.result.get("output"),
                              reason=row.reason)]
    if kind == "samegame":
        from gridfall.samegame.boards import load_board
        from gridfall.samegame.line import Line
        from gridfall.samegame.replay import replay_game as samegame_game
        from gridfall.samegame.replay import verdict

        board = row.result.get("board") or row.seats[0]
        played = row.result.get("cells") or board  # a file's board is stored as it was played
        if not isinstance(played, str) or not isinstance(board, str):
            raise ValueError(f"its board is {played!r:.40}, not a board spec")
        turns = isinstance(row.moves, list)  # a bot's game, turn by turn; a campaign's times are its rounds'
        moves = row.moves if isinstance(row.moves, list) else [row.moves]
        line = list(Line.from_text(";".join(moves))) if moves and moves != [""] else []
        outcome, _, detail = row.reason.partition(": ")  # samegame.match stores "verdict: detail"
        return [samegame_game(load_board(played), line, f"{row.job}: {row.seats[0]} on {board}",
                              output=row.result.get("output"), times=row.times if turns else None,
                              messages=row.messages if turns else None,
                              result=verdict(outcome, detail))]
    if kind == "match3":
        from gridfall.match3.replay import replay_run

        moves, printed, output = _listed(row.moves), row.result.get("output", []), []
        for calls in row.result.get("calls", []):  # stored one list for the run: each board's calls in turn
            output.append(printed[:calls])
            printed = printed[calls:]
        times, took = [], list(row.times)  # one list for the run too: a time for each move's call
        for board_moves in moves:
            times.append(took[:len(board_moves)])
            took = took[len(board_moves):]
        ends = row.messages if len(row.messages) == len(moves) else None  # match3.match stores each game's end
        return replay_run(row.result["seed"], moves, f"{row.job}: {row.seats[0]}", output=output, times=times,
                          ends=ends, failed=None if row.reason == "ok" else row.reason)  # match3.match's reason
    raise ValueError(f"no replay for {kind!r} games")


def _listed(moves: list | str) -> list:
    """A game's moves, which only a SameGame campaign stores as text."""
    if not isinstance(moves, list):
        raise ValueError("its moves are not a list")
    return moves


def run_games(path: Path, jobs: tuple[str, ...]) -> tuple[str, list[dict], str]:
    """(kind, page games, note) for the named jobs of a run database (all, up to MAX_GAMES, if none)."""
    with read_only(path) as connection:
        rows = stored_rows(connection, path)
    note = ""
    if jobs:
        by_job = {row.job: row for row in rows}
        missing = [job for job in jobs if job not in by_job]
        if missing:
            known = ", ".join(sorted(by_job, key=job_order)[:5])
            raise ValueError(f"{path}: no game {missing[0]!r} (games are named like: {known})")
        rows = [by_job[job] for job in jobs]
    else:  # the schedule's order, whatever order the games finished in: the same page every time
        rows = sorted(rows, key=lambda row: job_order(row.job))
        if len(rows) > MAX_GAMES:
            note = f"the first {MAX_GAMES} of {len(rows)} games (--job names others)"
            rows = rows[:MAX_GAMES]
    if not rows:
        raise ValueError(f"{path}: the run has no finished game yet")
    kind, games = replay_rows(rows)
    return kind, games, note


def store_games(path: Path, boards: tuple[str, ...]) -> list[dict]:
    """Page games for the store's best lines of ``boards`` (board specs)."""
    from gridfall.samegame.boards import load_board
    from gridfall.samegame.replay import replay_game
    from gridfall.samegame.store import SolutionStore

    if not boards:
        raise ValueError("name the boards to replay from a store with --board (e.g. --board standard:1)")
    games = []
    with SolutionStore(str(path)) as store:
        for spec in boards:
            board = load_board(spec)
            entry = store.best(board)
            if entry is None:
                raise ValueError(f"{path}: no line for {spec}")
            games.append(replay_game(board, entry.line(), f"{spec}: {entry.score} ({entry.algo})"))
    return games


RECORD_KINDS = " (RECORD is a run database, a solution store, a results file or a referee's JSON)"


def results_games(path: Path, boards: tuple[str, ...], set_name: str) -> list[dict]:
    """Page games for rows of a results file (all rows, or the rows of ``boards``)."""
    from gridfall.samegame.boards import load_board
    from gridfall.samegame.line import Line
    from gridfall.samegame.replay import replay_game
    from gridfall.samegame.store import results_row

    try:
        lines = read_text(path).splitlines()
    except NotText as e:
        raise ValueError(f"{path}: neither a results file (text) nor an SQLite database ({e})") from None
    games = []
    read_a_row = False  # until a row reads, a file that is no results file may be no record at all
    for number, text in enumerate(lines, start=1):
        if not text.strip() or text.startswith("#"):
            continue
        try:
            spec, score, moves = results_row(text, set_name)
            read_a_row = True
        except ValueError as e:
            what = "" if read_a_row else RECORD_KINDS
            raise ValueError(f"{path}: line {number} is not a results row (board, score, moves): {e}{what}") from None
        if boards and spec not in boards:
            continue
        board = load_board(spec)
        game = replay_game(board, list(Line.from_text(moves)), f"{spec}: {score}")
        if game["score"] != score:
            raise ValueError(f"{path}: line {number}: {spec} claims {score} but replays to {game['score']}")
        games.append(game)
    if not read_a_row:  # an empty file, or comments only
        raise ValueError(f"{path}: no results row (board, score, moves) in it{RECORD_KINDS}")
    if not games:
        raise ValueError(f"{path}: no row for {', '.join(boards)}")
    return games


class NoSuchGame(ValueError):
    """--job or --board names a game the record does not hold."""


# A referee's JSON, told apart by its keys: (the keys, the game, the command that prints it, how
# its games are picked)
REFEREE_JSON = (({"p1", "p2", "games"}, "connect4", "connect4 referee --json", '--job "game 3"'),
                ({"boards", "total"}, "samegame", "samegame referee --json or bench --json", "--board standard:1"),
                ({"seed", "games", "total"}, "match3", "match3 referee or play --json", '--job "board 2"'))


def referee_games(path: Path, jobs: tuple[str, ...], boards: tuple[str, ...]) -> tuple[str, list[dict], str]:
    """(kind, page games, note) for the JSON a referee printed: a Connect Four match's games (all,
    up to MAX_GAMES, or ``jobs`` such as ``game 3``), a SameGame referee's boards (all, or
    ``boards``), or a Match-3 run's boards (all, or ``jobs`` such as ``board 2``)."""
    try:
        data = json_text.loads(read_text(path))
    except NotText as e:
        raise ValueError(f"{path}: not text ({e})") from None
    except ValueError as e:
        raise ValueError(f"{path}: not JSON ({e})") from None
    found = next((entry for entry in REFEREE_JSON if isinstance(data, dict) and entry[0] <= data.keys()), None)
    if found is None:
        printers = "; ".join(entry[2] for entry in REFEREE_JSON)
        raise ValueError(f"{path}: JSON, but not what a referee prints ({printers}); a league's, an SPRT's or a "
                         "comparison's games are in its --db: view that")
    _, kind, _, picks = found
    if boards if kind != "samegame" else jobs:  # the option that picks another kind's records
        raise ValueError(f"{path}: holds a {kind} referee's games: {picks} picks them")
    try:
        games, note = _referee_record_games(kind, data, jobs, boards, path)
    except NoSuchGame:
        raise
    except (KeyError, IndexError, TypeError, ValueError) as e:  # a BoardError or an IllegalMove is a ValueError
        raise ValueError(f"{path}: a damaged referee's JSON: {type(e).__name__}: {e}") from None
    if not games:  # a referee stopped (Ctrl-C, SIGTERM) before its first game ended prints none
        raise ValueError(f"{path}: holds no finished game: its referee was stopped before the first one ended")
    return kind, games, note


def _referee_record_games(kind: str, data: dict, jobs: tuple[str, ...], boards: tuple[str, ...],
                          path: Path) -> tuple[list[dict], str]:
    """(page games, note) for a referee's JSON of ``kind``."""
    if kind == "connect4":
        from gridfall.connect4.replay import replay_record as connect4_game

        games = [(f"game {number}", record) for number, record in enumerate(data["games"], start=1)]
        picked, note = _picked(games, jobs, path)
        return [connect4_game(int(key.split()[1]), record) for key, record in picked], note
    if kind == "samegame":
        from gridfall.samegame.replay import replay_record as samegame_game

        picked, _ = _picked([(record["board"], record) for record in data["boards"]], boards, path, limit=None)
        return [samegame_game(record) for _, record in picked], ""
    from gridfall.match3.replay import replay_report

    run = replay_report(data, path.name)  # every board: each one's refills follow the last one's
    picked, _ = _picked([(f"board {number}", game) for number, game in enumerate(run, start=1)], jobs, path)
    return [game for _, game in picked], ""


def _picked(games: list[tuple[str, dict]], keys: tuple[str, ...], path: Path,
            limit: int | None = MAX_GAMES) -> tuple[list[tuple[str, dict]], str]:
    """The (key, game) pairs named by ``keys``, in their order (all, up to ``limit``, if none), and
    a note when the limit left some out."""
    if keys:
        by_key = dict(games)
        missing = next((key for key in keys if key not in by_key), None)
        if missing is not None:
            known = ", ".join(key for key, _ in games[:5])
            raise NoSuchGame(f"{path}: no game {missing!r} (games are named like: {known})")
        return [(key, by_key[key]) for key in keys], ""
    if limit is not None and len(games) > limit:
        return games[:limit], f"the first {limit} of {len(games)} games (--job names others)"
    return games, ""
