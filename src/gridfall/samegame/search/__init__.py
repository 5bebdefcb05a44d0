"""SameGame players and solvers on the engine.

:func:`solve` is the one entry point: a board, a time budget, an algorithm,
workers and a seed in; the best legal line found out, replayed on the rules of
record before it is returned.

Algorithms (one module each):

* ``beam``: beam search with transposition elimination, widths doubling
  until the deadline (:mod:`.beam`);
* ``nmcs``: Nested Monte-Carlo Search, level 2, restarted (:mod:`.nmcs`);
* ``nrpa``: Nested Rollout Policy Adaptation, level 3, restarted, its time shared
  between colour choices for the tabu colour (:mod:`.nrpa`, :mod:`.portfolio`);
* ``mcbs``: Monte Carlo beam search, children ranked by playouts (:mod:`.mcbs`);
  at long budgets it finds lines NRPA does not, so the offline campaign runs both;
* ``anneal``: simulated annealing on a whole line (:mod:`.anneal`), from the
  guide (else from the greedy line): it improves lines NRPA has converged on;
* ``auto``: ``beam`` for budgets under a second (re-planning inside a 50 ms
  turn), else ``nrpa`` with the last ``AUTO_POLISH`` of its time spent annealing
  its line, the strongest at the online budget (``benchmarks/samegame_search.py`` measures
  them; docs/samegame-experiments.md has the figures).

With ``workers > 1`` that many independent searches run in threads (the
kernels release the GIL) with seeds ``seed, seed + 1, ...``; the best line wins.

Given a ``guide`` (a line found before, such as the store's best), ``nrpa``
continues from it instead of starting afresh: each worker runs a search one
level up (level 4 by default) that starts from the guide, with the colour kept
for last that could have played it (:func:`continuation`); docs/samegame-experiments.md
has what it gains over a fresh run.
"""

from __future__ import annotations

import math
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import wait as wait_futures
from dataclasses import dataclass, field

from gridfall.arena import job_name
from gridfall.arena.signals import signals_held
from gridfall.samegame import engine, rules
from gridfall.samegame.line import Line
from gridfall.samegame.search import clock
from gridfall.samegame.search.ranges import check_value

ALGORITHMS = ("auto", "beam", "nmcs", "nrpa", "mcbs", "anneal")
AUTO_BEAM_BELOW = 1.0  # seconds
# The share of its time ``auto`` gives to annealing NRPA's line: NRPA finds the shape of a
# line (which colour goes last), annealing its details (docs/samegame-experiments.md).
AUTO_POLISH = 0.3
# The weight of a kept colour's move while other moves exist, when NRPA continues a line
# that removes its big group early (as annealed lines do): the policy can learn to overrule it.
SOFT_CONTINUATION = 0.05


@dataclass
class Solution:
    """A line of play and what it scores under the rules of record."""

    score: int
    moves: list[tuple[int, int]]
    cleared: bool
    algo: str
    seconds: float
    seed: int
    workers: int = 1
    notes: dict = field(default_factory=dict)
    interrupted: bool = False  # Ctrl-C or a signal stopped the search early: the line is its best so far

    def actions(self) -> str:
        """The moves as the one-turn protocol line ``x y;x y;...``."""
        return Line(self.moves).text()


def resolve_algo(algo: str, seconds: float) -> str:
    if algo not in ALGORITHMS:
        raise ValueError(f"unknown algorithm {algo!r}; choose from {', '.join(ALGORITHMS)}")
    if algo == "auto":
        return "beam" if seconds < AUTO_BEAM_BELOW else "nrpa"
    return algo


SOLVERS = {  # algorithm -> "module:function"; every solver has the shape of .found
    "beam": "beam:beam_solve",
    "nmcs": "nmcs:nmcs_solve",
    "nrpa": "portfolio:nrpa_solve",
    "mcbs": "mcbs:mcbs_solve",
    "anneal": "anneal:anneal_solve",
}
_SHARED = ("seed", "on_improve")  # given by solve() itself


def solver(algo: str):
    """The solve function of an algorithm (its module loads on first use)."""
    import importlib

    module, _, name = SOLVERS[algo].partition(":")
    return getattr(importlib.import_module(f"gridfall.samegame.search.{module}"), name)


def parameters(algo: str) -> list[str]:
    """The parameters an algorithm takes beyond the shared ones."""
    import inspect

    names = list(inspect.signature(solver(algo)).parameters)[2:]  # after start and deadline
    return [n for n in names if n not in _SHARED]


def check_params(algo: str, chosen: str, params: dict, polish: float) -> None:
    """Refuse a ``polish`` share outside [0, 1), a parameter that no algorithm of this search
    takes (naming the ones that are taken), and a value outside its range (:mod:`.ranges`).

    ``auto`` may run beam, nrpa and anneal: a parameter is fine if one of those it runs takes it.
    """
    if not 0 <= polish < 1:
        raise ValueError(f"polish must be a share of the time in [0, 1), not {polish}")
    runs = [chosen] + (["anneal"] if polish and chosen != "anneal" else [])
    if algo == "auto":
        runs = ["beam", "nrpa", "anneal"]
    taken = {name for run in runs for name in parameters(run)} - {"guide"}  # solve()'s own argument, a line
    for name, value in params.items():
        if name not in taken:
            raise ValueError(f"{algo} takes no parameter {name!r}; it takes {', '.join(sorted(taken))}")
        for run in runs:
            check_value(run, name, value)


def check_request(algo: str, seconds: float, params: dict) -> tuple[str, float]:
    """The algorithm that ``solve(board, seconds, algo=algo, **params)`` runs and its polish share,
    or the ValueError it would raise: an unknown algorithm, a parameter none of it takes, a polish
    share outside [0, 1), a time that is not finite.  A campaign or a benchmark asks before any
    board is searched."""
    if not math.isfinite(seconds):  # its deadline would never come
        raise ValueError(f"seconds={seconds!r}: give a finite time")
    own = dict(params)
    polish = own.pop("polish", None)
    chosen = resolve_algo(algo, seconds)
    if polish is None:
        polish = AUTO_POLISH if algo == "auto" and chosen == "nrpa" else 0.0
    check_params(algo, chosen, own, polish)
    return chosen, polish


def continuation(start, guide: list[tuple[int, int]] | None, params: dict) -> tuple[dict, list | None]:
    """NRPA params and guide for continuing from ``guide``: the colour choice that played it,
    unless params name one (then the guide only if that choice could have played it).

    A guide that gave up pairs of its kept colour early (found with ``spare=2``)
    is continued with ``spare=2`` unless params say otherwise.  A guide that no
    colour choice could have played (an annealed line that removes its big group
    while other groups are left, say) is continued with its largest group's colour
    kept for last under a soft tabu (``soft``, :data:`SOFT_CONTINUATION`), unless
    params name a ``soft`` or a ``tabu_rank`` of their own."""
    from gridfall.samegame.search.colours import colours_by_count
    from gridfall.samegame.search.portfolio import can_play, tabu_rank_of

    if not guide:
        return params, None
    if params.get("soft", 0.0) > 0:  # every move is a candidate: any colour choice can play it
        if params.get("tabu_rank") is not None:
            return params, guide
        groups = rules.removed_groups(engine.to_board(start), guide)
        kept = max(groups, key=lambda g: g.size).colour
        return {**params, "tabu_rank": colours_by_count(start).index(kept)}, guide
    protect = params.get("protect", 1)
    named = params.get("tabu_rank")
    for spare in [params["spare"]] if "spare" in params else [0, 2]:
        if named is None:
            rank = tabu_rank_of(start, guide, protect, spare)
        else:
            rank = named if can_play(start, guide, named, protect, spare) else None
        if rank is not None:
            return {**params, "tabu_rank": rank, **({"spare": spare} if spare else {})}, guide
    if "soft" in params or named is not None:
        return params, None
    return continuation(start, guide, {**params, "soft": SOFT_CONTINUATION, "spare": params.get("spare", 2)})


def _run_one(algo: str, start, deadline: float, seed: int, on_improve, params: dict):
    """One search; each algorithm gets the parameters it takes (``auto`` passes one set to several)."""
    own = parameters(algo)
    return solver(algo)(start, deadline, seed=seed, on_improve=on_improve,
                        **{k: v for k, v in params.items() if k in own})


WAIT_STEP = 0.2  # seconds: how long Ctrl-C may wait for the main thread to notice it


def _run_all(algo: str, start, deadline: float, seed: int, workers: int, on_improve, params: dict):
    """One search per worker thread (seeds seed, seed + 1, ...): the best Found, and whether Ctrl-C
    (or SIGTERM, SIGHUP) stopped them.  The searches run in threads even alone, so that the main
    thread can take the interrupt and tell them to stop (:mod:`.clock`): each then returns its best."""
    pool = ThreadPoolExecutor(max_workers=max(1, workers))
    futures = [pool.submit(job_name.carried(_run_one, algo, start, deadline, seed + w, on_improve, params))
               for w in range(workers)]
    interrupted = False
    try:
        while True:
            try:
                # the interrupt lands between the waits, never inside one (as in arena.executor.drive)
                with signals_held():
                    wait_futures(futures, timeout=WAIT_STEP)
                if all(f.done() for f in futures):
                    results = [f.result() for f in futures]
                    break
            except KeyboardInterrupt:
                interrupted = True
                clock.stop()
    finally:
        pool.shutdown(wait=True)
    return max(results, key=lambda r: r[0]), interrupted


def solve(board: rules.Board, seconds: float, *, algo: str = "auto", workers: int = 1, seed: int = 0,
          on_improve=None, guide: list[tuple[int, int]] | None = None, polish: float | None = None,
          **params) -> Solution:
    """Search ``board`` for ``seconds`` and return the best line found.

    Ctrl-C (KeyboardInterrupt, or SIGTERM and SIGHUP under
    :func:`~gridfall.arena.signals.stopping_on_signals`) stops every worker within one kernel
    call, and ``solve`` returns the best line so far with ``interrupted`` set.

    ``on_improve(score)`` is called (from any worker thread) whenever the best
    score over all workers improves.  ``params`` go to the algorithm (for
    example ``level=2`` for NRPA or NMCS); one that it does not take is refused
    with a ValueError, except that ``auto`` passes each of beam, nrpa and anneal
    the ones it takes.
    ``guide``: a line to continue from (``nrpa``, see :func:`continuation`, and ``anneal``);
    ``notes["guided"]`` says whether the search used it, ``notes["tabu_rank"]``
    the colour choice it searched and ``notes["spare"]`` whether the kept colour
    could give up pairs.

    ``polish`` (a share of the time, 0 to 1) ends the search early and anneals
    its best line for the rest of the time (:mod:`.anneal`), one annealer per
    worker; ``notes["polished"]`` says how much that added.  By default ``auto``
    polishes with ``AUTO_POLISH`` of the time when it runs NRPA, and no other does.
    """
    chosen, polish = check_request(algo, seconds, {**params, "polish": polish})
    if board.is_over():  # its one line is the empty one: `solve --time 20` waited 20 s to say so
        return Solution(0, [], board.is_cleared(), chosen, 0.0, seed, workers, {"guided": False, "over": True})
    if chosen == "anneal":
        polish = 0.0  # annealing an annealed line: the whole time goes to the one run
    started = time.monotonic()
    deadline = started + seconds
    start = engine.from_board(board)
    notes: dict[str, object] = {"guided": False}
    if chosen == "nrpa":
        params, guide = continuation(start, guide, params)
        notes = {"guided": guide is not None, "tabu_rank": params.get("tabu_rank"), "spare": params.get("spare", 0),
                 "soft": params.get("soft", 0.0)}
        params["guide"] = guide
    elif chosen == "anneal" and guide:
        notes = {"guided": True}
        params["guide"] = guide
    lock = threading.Lock()
    best = [-1]

    def improved(score: int) -> None:
        with lock:
            if score <= best[0]:
                return
            best[0] = score
        if on_improve is not None:
            on_improve(score)

    search_deadline = deadline - polish * seconds
    with clock.running():
        (score, moves, _), interrupted = _run_all(chosen, start, search_deadline, seed, workers, improved, params)
        if polish and not interrupted:
            found = score
            (score, moves, _), interrupted = _run_all("anneal", start, deadline, seed, workers, improved,
                                                      {"guide": moves})
            notes["polished"] = score - found
            chosen += "+anneal"
    final, replayed = rules.play_sequence(board, moves)
    if replayed != score:
        raise AssertionError(f"{chosen} claimed {score} but its line scores {replayed} under the rules")
    return Solution(replayed, moves, final.is_cleared(), chosen, time.monotonic() - started, seed, workers, notes,
                    interrupted)
