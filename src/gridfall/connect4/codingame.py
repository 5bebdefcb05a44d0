"""The CodinGame Connect Four referee for any two programs (the protocol: :mod:`.protocol`).

Limits: 1000 ms for a player's first turn, 100 ms for the others, timed from
the first byte sent to the end of the answer, with the bot's start-up inside
its first turn.  Timeouts, unparsable answers, a column outside 0..8, a full
column, or -2 outside turn index 1 lose the game.  Win 10, draw 5, loss 0.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

from gridfall.arena.elo import MatchScore
from gridfall.arena.limits import CODINGAME_MEMORY_MB, Limits
from gridfall.arena.process import BotFailure, BotProcess
from gridfall.connect4.protocol import FIRST_TURN_SECONDS, HEIGHT, TURN_SECONDS, WIDTH, turn_input
from gridfall.connect4.rules import Game, IllegalAction, Outcome, parse_action

LIMITS = Limits(FIRST_TURN_SECONDS, TURN_SECONDS, CODINGAME_MEMORY_MB)


MESSAGE_LIMIT = 200  # characters of a bot's debug message kept in the record


@dataclass
class GameRecord:
    """One refereed game: who sat where, who won and why, and every turn."""

    seats: tuple[str, str]  # the names of the programs playing player 0 and player 1
    winner: int | None = None  # 0, 1 or None for a draw
    reason: str = ""  # "four in a row", "draw", "timeout", "invalid action ...", "crashed ..."
    moves: list[int] = field(default_factory=list)  # the opening's moves first, then the bots'
    slowest: tuple[float, float] = (0.0, 0.0)  # slowest later turn of each seat, seconds
    opening: int = 0  # how many of the moves the referee played before the bots started
    seed: int | None = None  # both programs' GRIDFALL_SEED, if the referee gave one: the game can be played again
    times: list[float] = field(default_factory=list)  # seconds of each bot turn (opening moves excluded)
    messages: list[str] = field(default_factory=list)  # each bot turn's debug text (after the action)
    # each bot turn's stderr (BotProcess.take_output); one past the moves made is the turn that lost
    output: list[str] = field(default_factory=list)

    def points(self, seat: int) -> int:
        if self.winner is None:
            return Outcome.DRAW.points
        return (Outcome.WIN if self.winner == seat else Outcome.LOSS).points

    def to_json(self) -> dict:
        return asdict(self)


def tally(records: list[GameRecord], is_ours) -> tuple[MatchScore, int, int]:
    """Our wins, draws and losses over the records, and the points of both sides.

    ``is_ours(name)`` picks our seat in each record by the program's name.
    """
    score, ours, theirs = MatchScore(), 0, 0
    for r in records:
        seat = 0 if is_ours(r.seats[0]) else 1
        if r.winner is None:
            score.draws += 1
        elif r.winner == seat:
            score.wins += 1
        else:
            score.losses += 1
        ours += r.points(seat)
        theirs += r.points(1 - seat)
    return score, ours, theirs


@dataclass
class Turn:
    """A bot's answer to one turn: its legal action, or the fault that loses it the game."""

    action: int | None
    seconds: float = 0.0
    message: str = ""  # the debug text after the action
    fault: str = ""  # "" or the verdict ("timeout (...)", "invalid action '9': ...")
    answered: bool = True  # False when the bot gave no line at all
    output: str = ""  # what the bot wrote to stderr during the turn


def ask_turn(bot: BotProcess, game: Game, seat: int, first: bool, previous: int, limit: float) -> Turn:
    """One turn under the protocol: send the position, read and check the answer (not applied)."""
    try:
        line, took = bot.ask(turn_input(game, seat, first, previous), limit)
    except BotFailure as e:
        return Turn(None, fault=e.reason.lower() + (f" ({e.detail})" if e.detail else ""), answered=False,
                    output=bot.take_output())
    message, output = line.strip().partition(" ")[2][:MESSAGE_LIMIT], bot.take_output()
    try:
        action = parse_action(line)
        game.check(action)
    except (ValueError, IllegalAction) as e:
        return Turn(None, took, message, f"invalid action {line[:40]!r}: {e}", output=output)
    return Turn(action, took, message, output=output)


def referee_game(commands: tuple[str, str], names: tuple[str, str], limits: Limits | tuple[Limits, Limits] = LIMITS,
                 width: int = WIDTH, height: int = HEIGHT, opening: tuple[int, ...] = (),
                 seed: int | None = None) -> GameRecord:
    """Play one game between two programs (commands[0] moves first), the ``opening`` moves
    played for them first (the bots see a game already under way, as a protocol position).

    ``limits`` may be one per seat, to give one program more time than the other.  ``seed``
    is given to both programs as GRIDFALL_SEED (:class:`BotProcess`)."""
    seat_limits = limits if isinstance(limits, tuple) else (limits, limits)
    record = GameRecord(names, opening=len(opening), seed=seed)
    game = Game(width, height, steal=True)
    for action in opening:
        game.apply_action(action)  # IllegalAction for an opening that is not a legal start
        record.moves.append(action)
    bots: list[BotProcess | None] = [None, None]
    slowest = [0.0, 0.0]
    try:
        previous = opening[-1] if opening else -1
        first = [True, True]
        while not game.is_terminal():
            seat = game.current_player()
            bot = bots[seat]
            if bot is None:  # started at its first turn: a bot's start-up is inside that turn,
                try:  # and two bots starting at once would slow each other's
                    opponent = bots[1 - seat]  # with one CPU a bot, a game's bots share one (cpus.py)
                    bot = bots[seat] = BotProcess(commands[seat], memory_mb=seat_limits[seat].memory_mb,
                                                  one_cpu=seat_limits[seat].one_cpu,
                                                  cpu=opponent.cpu if opponent else None, seed=seed)
                except BotFailure as e:
                    record.winner, record.reason = 1 - seat, f"{names[seat]} could not start: {e.detail}"
                    return record
            turn = ask_turn(bot, game, seat, first[seat], previous,
                            seat_limits[seat].first_turn if first[seat] else seat_limits[seat].turn)
            if turn.answered:
                if not first[seat]:
                    slowest[seat] = max(slowest[seat], turn.seconds)
                record.times.append(round(turn.seconds, 4))
                record.messages.append(turn.message)
            record.output.append(turn.output)
            first[seat] = False
            if turn.fault:
                record.winner, record.reason = 1 - seat, f"{names[seat]}: {turn.fault}"
                return record
            assert turn.action is not None  # a turn without a fault holds a legal action
            action = turn.action
            game.apply_action(action)
            record.moves.append(action)
            previous = action
        record.winner = game.winner
        record.reason = "four in a row" if game.winner is not None else "draw (board full)"
        return record
    finally:
        for bot in bots:
            if bot is not None:
                bot.close()
        record.slowest = (slowest[0], slowest[1])
