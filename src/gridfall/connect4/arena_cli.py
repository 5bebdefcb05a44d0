"""``gridfall connect4 league`` and ``gridfall connect4 sprt``: many games between bots, stored, resumable;
``gridfall connect4 standings``, such a run read while it plays; and ``check_program``, the check of
a bot's command that every Connect Four command makes."""

from __future__ import annotations

import shlex
import sys

import click

from gridfall.arena.bot_files import files_named
from gridfall.arena.compare_cli import check_name
from gridfall.arena.database import RunDatabaseError, job_order
from gridfall.arena.executor import JobFailed, drive
from gridfall.arena.limits import Limits
from gridfall.arena.runs import RUN_NOTES, grows_note, open_executor, open_run, plays_here, run_options
from gridfall.arena.signals import exit_code
from gridfall.arena.sprt import ELO_LIMIT
from gridfall.cli_help import CONNECT4_PROTOCOL, with_help
from gridfall.cli_options import FloatRange, limit_options, refuse_unplayable_command
from gridfall.cli_output import console
from gridfall.connect4.agents import AGENT_NAMES, check_spec
from gridfall.connect4.arena_report import (
    caveats_of,
    league_json,
    leaderboard,
    print_league,
    print_sprt,
    rated,
    retired_of,
    sprt_conclusion,
    sprt_json,
    sprt_test,
)
from gridfall.connect4.match import PairJob, game_rows, name_unfitted, opening, play_pair, points_of
from gridfall.connect4.protocol import FIRST_TURN_SECONDS, TURN_SECONDS
from gridfall.viewer.options import replay_option, write_run_replay
from gridfall.words import counted

MAX_OPENING_PLIES = 8


def _limit_options(command):
    command = limit_options(FIRST_TURN_SECONDS, TURN_SECONDS)(command)
    command = click.option("--opening-plies", type=click.IntRange(0, MAX_OPENING_PLIES), default=2, show_default=True,
                           help="Random first moves played for both games of a pair (0: the bots play the whole "
                                "game, STEAL included; 1: the second seat still decides STEAL).")(command)
    return click.option("--seed", type=int, default=0, show_default=True,
                        help="Seed of the openings, the schedule and the bots: pair K's games give both bots "
                             "SEED + 2K and SEED + 2K + 1 (built-in bots as --seed, commands as GRIDFALL_SEED).")(command)


def _even(ctx, param, games: int) -> int:
    """A number of games, refused if odd: games are played in seat-swapped pairs."""
    if games % 2:
        raise click.BadParameter(f"{games}: games are played in seat-swapped pairs, give an even number")
    return games


def check_program(spec: str, hint: str, *, here: bool = True) -> None:
    """A bot's command, refused (naming ``hint``) if empty or, played ``here``, if it cannot start
    (:func:`~gridfall.cli_options.refuse_unplayable_command`), or a built-in agent's name with bad
    parameters."""
    if spec.partition(":")[0] not in AGENT_NAMES:
        refuse_unplayable_command(spec, hint, here=here, built_in=AGENT_NAMES)
    else:
        try:
            check_spec(spec)
        except ValueError as e:
            raise click.BadParameter(str(e), param_hint=hint) from None


def _parse_bots(values: tuple[str, ...], here: bool, retired: tuple[str, ...] = ()) -> list[tuple[str, str]]:
    """``NAME=COMMAND`` (or a built-in agent's name alone) -> [(name, command)], names unique;
    each command checked as :func:`check_program` checks it, except that a ``retired`` bot's is
    not asked to start (it plays no more: its program may be gone)."""
    bots = []
    for value in values:
        name, sep, command = value.partition("=")
        if not sep:
            if value.partition(":")[0] not in AGENT_NAMES:
                raise click.BadParameter(f"{value!r}: give NAME=COMMAND (a built-in agent may go by its name alone: "
                                         f"{', '.join(AGENT_NAMES)})", param_hint="--bot")
            name, command = value, value
        name, command = name.strip(), command.strip()
        if not name:
            raise click.BadParameter(f"{value!r}: the name before '=' is empty", param_hint="--bot")
        check_name(name, value)
        check_program(command, f"--bot {name}", here=here and name not in retired)
        bots.append((name, command))
    names = [n for n, _ in bots]
    duplicates = sorted({n for n in names if names.count(n) > 1})
    if duplicates:
        name = duplicates[0]
        commands = {c for n, c in bots if n == name}
        command = shlex.quote(commands.pop())
        hint = (f"; to play a bot against itself, name each copy (--bot {name}-a={command} --bot {name}-b={command})"
                if not commands else "")
        raise click.BadParameter(f"the name {name!r} is given twice{hint}", param_hint="--bot")
    if len(bots) < 2:
        raise click.BadParameter("a league needs at least two bots", param_hint="--bot")
    return bots


def _ready_bots(executor, commands: list[str], limits: Limits) -> None:
    """Before the games, name here a command of gridfall's bot that lacks the time options of
    tighter limits (:mod:`gridfall.arena.own_time`), and warm the kernels the bots need where the
    games run (:mod:`gridfall.arena.warm_bots`).  ``commands``: the bots with games left to play
    (one retired, or all of a finished run's, are neither named nor warmed)."""
    from gridfall.arena.warm_bots import warm_where_they_play

    if not commands:
        return
    name_unfitted(commands, limits)
    warm_where_they_play(executor, "connect4", commands, AGENT_NAMES)


def _run_pairs(executor, jobs, db, on_pair, stop=lambda: False) -> bool:
    """Play the pairs and store each as it finishes; True if interrupted."""

    def stored(job, records):
        db.add(*game_rows(job, records))
        on_pair(job, records)

    try:
        return drive(executor, jobs, play_pair, stored, stop)
    except JobFailed as e:
        raise click.ClickException(f"a game could not be played: {e} (the games stored so far are kept in {db.path})")
    finally:
        executor.close()


@click.command()
@click.option("--bot", "bots", multiple=True, required=True, metavar="NAME=COMMAND",
              help="A bot: its name and the command that runs it, or a built-in agent's name alone "
                   "(gridfall, mcts, greedy, alphabeta:4, ...), which thinks within --turn-ms and --first-turn-ms "
                   "where they are tighter than CodinGame's.  Twice or more.")
@click.option("--games", type=click.IntRange(min=2), default=100, show_default=True, callback=_even,
              help="The league's total number of games (even: seat-swapped pairs).")
@click.option("--matchmaking", type=click.Choice(["fewest", "round-robin"]), default="fewest", show_default=True,
              help="fewest: each pair goes to the bot with fewest games (psyleague's rule); round-robin: every "
                   "pairing in turn.")
@click.option("--retire", multiple=True, metavar="NAME",
              help="A bot of the league that plays no more games from the next pair on (its games still rate it); "
                   "again for more.  A bot left out of --retire next time plays again.")
@click.option("--json", "as_json", is_flag=True, help='Print {"leaderboard": [...]}, best first, instead of the tables.')
@replay_option
@_limit_options
@run_options
@with_help(RUN_NOTES, grows_note("--games"), CONNECT4_PROTOCOL)
def league(bots, games, matchmaking, retire, as_json, replay_path, seed, opening_plies, limits, db, workers, cluster):
    """A league between two or more Connect Four bots, rated as it plays.

    Games come in seat-swapped pairs from one opening.  The leaderboard
    (openskill's Weng-Lin ratings, ordered by mu - 3 sigma) updates live;
    at the end it is printed with the Elo difference and its 95% interval
    for every pairing that played.

    A bot can join a stored league: run it again with --db naming the run,
    the bots it has (in any order) and the new ones, and a larger --games.
    The new bots join at the pair after the last one stored and, with
    fewest, play until they have as many games as the others.  --retire
    NAME stops a bot's games the same way (list it still, among --bot).
    """
    from rich.live import Live

    from gridfall.arena.schedule import schedule

    bots = _parse_bots(bots, here=plays_here(cluster), retired=retire)
    given = [name for name, _ in bots]  # every bot of a stored league is among them, or the run refuses them
    unknown = [name for name in retire if name not in given]
    if unknown:
        raise click.BadParameter(f"{unknown[0]!r} is not among the --bot names ({', '.join(given)}): a bot to "
                                 "retire is listed too", param_hint="--retire")
    if len(set(given) - set(retire)) < 2:
        raise click.BadParameter("a league needs at least two bots that play", param_hint="--retire")
    settings = {"bots": bots, "games": games, "matchmaking": matchmaking, "seed": seed,
                "opening_plies": opening_plies, "limits": limits.setting()}
    run = open_run(db, "connect4 league", settings, grows=("games", "bots"),
                   bot_files={name: files_named(command) for name, command in bots if name not in retire})
    bots = [(name, command) for name, command in run.settings["bots"]]  # the run's order: first bots, then joiners
    names = [n for n, _ in bots]
    table = rated(names, run.rows())
    done = run.done()
    changes = _changes(run, done, games // 2, retire)
    commands = dict(bots)

    def plan():  # the schedule, made as it is walked: a league of a billion games starts at once
        return schedule(len(names), games // 2, matchmaking, seed, changes)

    plan()  # its settings are checked here
    jobs = (PairJob(f"pair {k}", (names[i], names[j]), (commands[names[i]], commands[names[j]]),
                    opening(seed, k, opening_plies), limits, seed + 2 * k)
            for k, (i, j) in enumerate(plan()) if f"pair {k} game 0" not in done)
    executor = open_executor(workers, cluster, run)
    err = console(stderr=True)
    err.print(f"league of {len(bots)} bots, {counted(games, 'game')} ({len(done)} stored in {run.path}), {executor.describe()}")
    _ready_bots(executor, list(dict.fromkeys(commands[names[b]] for b in _bots_left(plan(), done, changes))), limits)
    # transient: the table printed at the end is rated in the schedule's order, the live one in the
    # order games finished, so keeping both on screen showed two sets of slightly different ratings
    retired = set(retire)
    with Live(leaderboard(table, games, retired), console=err, transient=True, auto_refresh=False) as live:
        def on_pair(job, records):
            for record in records:
                winner = record.winner
                table.add(record.seats[0], record.seats[1], 0.5 if winner is None else 1.0 - winner)
            live.update(leaderboard(table, games, retired), refresh=True)

        interrupted = _run_pairs(executor, jobs, run, on_pair)
    rows = run.rows()  # read once for the ratings and the caveats
    table = rated(names, rows)  # in the schedule's order: the same games give the same ratings
    caveats = caveats_of(rows)
    write_run_replay(replay_path, run.path, f"gridfall connect4 league: {', '.join(names)}")
    if as_json:
        click.echo(league_json(table, caveats, str(run.path), interrupted, retired))
    else:
        out = console()
        print_league(out, table, games, caveats, retired)
        out.print(f"games stored in {run.path}" + ("; interrupted: run the same command to resume" if interrupted else ""))
    sys.exit(exit_code(interrupted))


def _bots_left(plan, done: set[str], changes: list[tuple[int, tuple[int, ...]]]) -> list[int]:
    """The bots with a pair left to play, in the order they first play in ``plan`` (the league's
    schedule), which is walked only as far as it must be: past the last pair stored and the last
    change of who plays, every pair is left and only that change's bots play, so the walk ends
    once each of them has been seen.  Before that, a pair lost in flight may hold a bot that has
    retired since."""
    settled = max([1 + max((job_order(job)[1] for job in done), default=-1), *(at for at, _ in changes)])
    last = set(sorted(changes, key=lambda change: change[0])[-1][1]) if changes else set()
    seen: dict[int, None] = {}
    for k, pair in enumerate(plan):
        if k >= settled and last <= seen.keys():
            break
        if f"pair {k} game 0" not in done:
            seen.update(dict.fromkeys(pair))
    return list(seen)


def _changes(run, done: set[str], pairs: int, retire: tuple[str, ...]) -> list[tuple[int, tuple[int, ...]]]:
    """Where the bots that play changed: [(pair, bot numbers), ...], kept with the run by name.
    The bots of the run less ``retire`` play from the pair after the last one stored, so every
    stored pair keeps its pairing; a bot that joins or comes back plays until it catches up."""
    names = [name for name, _ in run.settings["bots"]]
    try:
        kept = run.extra("playing")
        if kept is None:  # the league began with the bots it had before this command added any
            kept = [[0, [name for name, _ in run.grew.get("bots", (run.settings["bots"],))[0]]]]
        kept = [[int(at), [str(name) for name in playing]] for at, playing in kept]
        index = {name: i for i, name in enumerate(names)}
        changes = [(at, tuple(index[name] for name in playing)) for at, playing in kept]
    except (RunDatabaseError, TypeError, ValueError, KeyError) as e:
        raise click.ClickException(f"{run.path}: the pairs where its bots joined or retired cannot be read ({e}); "
                                   "give another --db") from None
    playing = [name for name in names if name not in retire]
    before = kept[-1][1]
    if sorted(playing) != sorted(before):
        at = 1 + max((job_order(job)[1] for job in done), default=-1)  # "pair 7 game 1": 7
        kept.append([at, playing])
        run.keep_extra("playing", kept)
        run.keep_command(sys.argv)  # with its --retire: the one that resumes the league as it is now
        changes.append((at, tuple(index[name] for name in playing)))
        joined, left = [n for n in playing if n not in before], [n for n in before if n not in playing]
        said = "; ".join(f"{', '.join(who)} {verb}{'s' if len(who) == 1 else ''}"
                         for who, verb in ((joined, "play"), (left, "no longer play")) if who)
        click.echo(f"gridfall: {run.path}: from pair {at}, {said}", err=True)
        if at >= pairs:
            click.echo(f"gridfall: {run.path}: all {pairs * 2} games are stored: give a larger --games for the "
                       "change to play", err=True)
    return changes


HYPOTHESIS = FloatRange(-ELO_LIMIT, ELO_LIMIT)  # --elo0 and --elo1: see ELO_LIMIT


@click.command()
@click.option("--new", "new", required=True, help="The candidate: a command, or a built-in agent's name.")
@click.option("--base", "base", required=True, help="The baseline: the same.")
@click.option("--elo0", type=HYPOTHESIS, default=0.0, show_default=True, help="H0: the candidate is this much better.")
@click.option("--elo1", type=HYPOTHESIS, default=10.0, show_default=True, help="H1: the candidate is this much better.")
@click.option("--alpha", type=FloatRange(0, 1, min_open=True, max_open=True), default=0.05, show_default=True,
              help="The chance of accepting H1 when H0 holds.")
@click.option("--beta", type=FloatRange(0, 1, min_open=True, max_open=True), default=0.05, show_default=True,
              help="The chance of accepting H0 when H1 holds.")
@click.option("--max-games", type=click.IntRange(min=2), default=20000, show_default=True, callback=_even,
              help="Stop undecided after this many games (even: seat-swapped pairs).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of the block.")
@replay_option
@_limit_options
@run_options
@with_help(RUN_NOTES, grows_note("--max-games"))
def sprt(new, base, elo0, elo1, alpha, beta, max_games, as_json, replay_path, seed, opening_plies, limits, db,
         workers, cluster):
    """A sequential test: is NEW at least ELO1 better than BASE, or not ELO0?

    It plays game pairs (one opening, seats swapped), counts them in
    pentanomial form and computes the generalised log-likelihood ratio on
    those counts with logistic Elo, as fishtest does; it stops as soon as the
    LLR leaves Wald's bounds log(beta / (1 - alpha)) and log((1 - beta) /
    alpha), and prints Elo with its 95% interval, the LLR with its bounds,
    the games and the pentanomial counts.  Exit code 0 whatever the verdict.
    """
    from rich.live import Live
    from rich.text import Text

    check_program(new, "--new", here=plays_here(cluster))
    check_program(base, "--base", here=plays_here(cluster))
    if elo1 <= elo0:
        raise click.BadParameter(f"elo1 ({elo1:g}) must be above elo0 ({elo0:g})", param_hint="--elo1")
    if alpha + beta >= 1:
        raise click.BadParameter(f"alpha + beta ({alpha:g} + {beta:g}) must be below 1: Wald's bounds would cross, "
                                 "and the test would decide before a game", param_hint="--alpha/--beta")
    settings = {"new": new, "base": base, "elo0": elo0, "elo1": elo1, "alpha": alpha, "beta": beta,
                "max_games": max_games, "seed": seed, "opening_plies": opening_plies,
                "limits": limits.setting()}
    run = open_run(db, "connect4 sprt", settings, grows=("max_games",),
                   bot_files={"new": files_named(new), "base": files_named(base)})
    stored = run.done()
    test = sprt_test(settings, run.rows())
    pairs = max_games // 2
    decided = test.verdict() is not None
    left = (k for k in range(0 if decided else pairs) if f"pair {k} game 0" not in stored)  # walked as played
    jobs = (PairJob(f"pair {k}", ("new", "base"), (new, base), opening(seed, k, opening_plies), limits, seed + 2 * k)
            for k in left)
    playing = not decided and any(f"pair {k} game 0" not in stored for k in range(pairs))  # stops at the first
    executor = open_executor(workers, cluster, run)
    err = console(stderr=True)
    err.print(f"sprt [{elo0:g}, {elo1:g}] alpha {alpha:g} beta {beta:g} "
              f"({counted(len(stored), 'game')} stored in {run.path}), {executor.describe()}")
    _ready_bots(executor, [new, base] if playing else [], limits)
    with Live(Text(test.report()), console=err, transient=True, auto_refresh=False) as live:
        def on_pair(job, records):
            test.add_pair(*(points_of(row, "new") for row in game_rows(job, records)))
            live.update(Text(test.report()), refresh=True)

        interrupted = False if decided else _run_pairs(executor, jobs, run, on_pair,
                                                       stop=lambda: test.verdict() is not None)
    caveats = caveats_of(run.rows())
    write_run_replay(replay_path, run.path, f"gridfall connect4 sprt: new = {new}, base = {base}")
    if as_json:
        click.echo(sprt_json(test, caveats, str(run.path), interrupted))
    else:
        print_sprt(console(), test, caveats, sprt_conclusion(test, settings, interrupted))
    sys.exit(exit_code(interrupted))


@click.command()
@click.argument("db", type=click.Path(exists=True, dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print the JSON that the league or sprt command prints.")
def standings(db, as_json):
    """The standings of a Connect Four league or SPRT from its run database DB.

    Reads DB without writing or locking it, so it works while the run plays
    on this machine, in another terminal or in the background (the league's
    own leaderboard is on the terminal that started it), and after: the
    leaderboard, every pairing's Elo difference, the games lost by a fault and
    those a bot played on its pure-Python fallback for a league; the Elo, LLR and pentanomial block and the verdict so far
    for an SPRT.  Nothing is played: the league or sprt command resumes a run.
    """
    from pathlib import Path

    from gridfall.arena.database import read_run

    try:
        stored = read_run(Path(db))
    except ValueError as e:
        raise click.BadParameter(str(e), param_hint="DB") from None
    if stored.kind not in ("connect4 league", "connect4 sprt"):
        raise click.BadParameter(f"{db}: holds a {stored.kind!r} run; standings read a 'connect4 league' or "
                                 "'connect4 sprt' run (`gridfall standings` reads every kind)", param_hint="DB")
    print_standings(db, stored, as_json)


def print_standings(db: str, stored, as_json: bool) -> None:
    """A league's or an SPRT's standings from its StoredRun; BadParameter if its settings or games are damaged."""
    kind, settings, rows = stored.kind, stored.settings, stored.rows
    try:
        if kind == "connect4 league":
            names = [name for name, _ in settings["bots"]]
            table, games, retired = rated(names, rows), settings["games"], retired_of(names, stored.extras.get("playing"))
        else:
            test = sprt_test(settings, rows)
    except (ValueError, KeyError, TypeError, IndexError) as e:  # settings or results of another shape: damaged
        detail = str(e) if isinstance(e, ValueError) else repr(e)
        raise click.BadParameter(f"{db}: its run's settings or games are damaged ({detail})", param_hint="DB") from None
    caveats = caveats_of(rows)
    if kind == "connect4 league":
        if as_json:
            click.echo(league_json(table, caveats, db, False, retired))
        else:
            print_league(console(), table, games, caveats, retired)
    elif as_json:
        click.echo(sprt_json(test, caveats, db, False))
    else:
        print_sprt(console(), test, caveats, sprt_conclusion(test, settings, False, playing=True))
