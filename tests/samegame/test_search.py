"""Searches return legal lines that score what they claim, reproduce from seeds and meet deadlines."""

import math
import time

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gridfall.samegame import engine, rules
from gridfall.samegame.boards import load_board
from gridfall.samegame.search import SOFT_CONTINUATION, continuation, solve
from gridfall.samegame.search import colours
from gridfall.samegame.search.beam import beam_solve
from gridfall.samegame.search.mcbs import mcbs_solve
from gridfall.samegame.search.nmcs import nmcs_solve
from gridfall.samegame.search.portfolio import nrpa_solve

from .fake_clock import clock_moved_by_work
from .strategies import settled_boards

pytestmark = pytest.mark.parallel_safe  # one core, no bot against a clock (machine_sharing.py)

FAR = 1e9  # a deadline that never comes: the work budget decides


def replayed_score(board, line):
    judged = rules.judge(board, [f"{x} {y}" for x, y in line], strict=True)
    assert judged.ok, judged.detail
    assert judged.board.is_over(), "a line must play the game to its end"
    return judged.score


@pytest.mark.parametrize("algo, params", [("beam", {}), ("nmcs", {"level": 1}), ("nrpa", {"level": 2}), ("mcbs", {}),
                                          ("auto", {})])
def test_solve_returns_a_legal_line_scoring_what_it_claims(algo, params):
    for spec in ("tuning:5", "codingame:3"):
        board = load_board(spec)
        solution = solve(board, 0.3, algo=algo, **params)
        assert solution.score == replayed_score(board, solution.moves) > 0
        assert solution.cleared == rules.play_sequence(board, solution.moves)[0].is_cleared()


def test_kernels_claim_exact_scores_on_many_boards():
    for n in range(1, 13):
        board = load_board(f"random:{n}")
        start = engine.from_board(board)
        score, line, _ = nrpa_solve(start, FAR, seed=n, level=2, iterations=12, max_runs=1)
        assert score == replayed_score(board, line)
        score, line, _ = nmcs_solve(start, time.monotonic() + 0.01, seed=n, level=1)
        assert score == replayed_score(board, line)
        score, line, _ = beam_solve(start, FAR, seed=n, max_width=16)
        assert score == replayed_score(board, line)
        score, line, _ = mcbs_solve(start, time.monotonic() + 0.02, seed=n, width=4, playouts=1, widen=False)
        assert score == replayed_score(board, line)


SMALL_BUDGETS = [  # each solver with a budget of work, and the most cells it searches in milliseconds
    ("beam", {"max_width": 4}, 225),
    ("nmcs", {"level": 2, "max_runs": 1}, 40),  # a level-2 search of a full board takes seconds
    ("nmcs", {"level": 3, "max_runs": 1}, 16),
    ("nrpa", {"level": 2, "iterations": 4, "max_runs": 1}, 225),
    ("mcbs", {"width": 4, "playouts": 1, "max_runs": 1}, 225),
    ("anneal", {"max_edits": 300, "sweep": 100}, 225),
]


@settings(max_examples=40, deadline=None)
@given(settled_boards(), st.integers(0, 2**16))
def test_every_solver_claims_its_lines_score_on_boards_of_any_shape(board, seed):
    """Small, sparse, single-colour, finished and empty boards too, where a solver meets a move
    that ends the game at once or a position with no move: NMCS valued such a move a point low
    (an IndexError where its only move was a pair that ended the game)."""
    from gridfall.samegame.search import solver

    start = engine.from_board(board)
    for name, budget, most_cells in SMALL_BUDGETS:
        if board.cell_count() > most_cells:
            continue
        found = solver(name)(start, FAR, seed=seed, **budget)
        judged = rules.judge(board, [f"{x} {y}" for x, y in found.moves], strict=True)
        assert judged.ok and judged.board.is_over(), (name, judged.detail)
        assert found.score == judged.score, name


def test_nrpa_seed_reproduces_and_seeds_differ():
    start = engine.from_board(load_board("tuning:7"))
    runs = [nrpa_solve(start, FAR, seed=s, level=2, iterations=30, max_runs=1) for s in (4, 4, 5)]
    assert runs[0] == runs[1]
    assert runs[0][1] != runs[2][1]


def test_nrpa_portfolio_is_the_best_of_its_colour_choices():
    """By default NRPA searches with the most common colour kept for last, then with the second:
    the answer is the better of the two searches, each seeded as documented."""
    from gridfall.samegame.search.portfolio import STAGE_SEED_STEP, TABU_PORTFOLIO

    assert [rank for rank, _ in TABU_PORTFOLIO] == [0, 1]
    assert sum(share for _, share in TABU_PORTFOLIO) == pytest.approx(1.0)
    start = engine.from_board(load_board("tuning:3"))
    reports = []
    both = nrpa_solve(start, FAR, seed=6, level=2, iterations=12, max_runs=1, rescue=0, on_improve=reports.append)
    first = nrpa_solve(start, FAR, seed=6, level=2, iterations=12, max_runs=1, tabu_rank=0)
    second = nrpa_solve(start, FAR, seed=6 + STAGE_SEED_STEP, level=2, iterations=12, max_runs=1, tabu_rank=1)
    assert first[1] != second[1]
    best = max(first, second, key=lambda run: run[0])
    assert both == (best[0], best[1], first[2] + second[2])
    assert reports == sorted(set(reports)) and reports[-1] == best[0]  # the second stage never reports less


def test_nrpa_keeps_a_leading_colour_for_last_alone():
    """A colour LEAD cells ahead of the others (65 against 40 here) is kept for last with the whole
    portfolio's time; a smaller lead (``lead`` raised past it) shares it between two choices."""
    import math

    from gridfall.samegame.search.portfolio import LEAD

    start = engine.from_board(load_board("dominant:2"))
    counts = sorted(load_board("dominant:2").colour_counts())
    assert counts[-1] - counts[-2] >= LEAD
    run = dict(seed=6, level=2, iterations=12, max_runs=1, rescue=0)
    alone = nrpa_solve(start, FAR, **run)
    assert alone == nrpa_solve(start, FAR, tabu_rank=0, **run)
    shared = nrpa_solve(start, FAR, lead=math.inf, **run)
    assert shared[2] > alone[2]  # a second stage's playouts


def _rescue_stage(start, rank, guide, **run):
    """The rescue stage of ``nrpa_solve(start, FAR, **run)`` run on its own, as documented."""
    from gridfall.samegame.search.portfolio import STAGE_SEED_STEP

    return nrpa_solve(start, FAR, **dict(run, seed=run["seed"] + 2 * STAGE_SEED_STEP, tabu_rank=rank, guide=guide))


def test_nrpa_rescue_tries_the_third_colour_when_no_choice_cleared():
    """A board that neither colour choice cleared gets the held-back time with the third most
    common colour kept for last; the answer is the best of the three stages."""
    board = load_board("tuning:3")
    start = engine.from_board(board)
    run = dict(seed=6, level=1, iterations=10, max_runs=1)
    portfolio = nrpa_solve(start, FAR, rescue=0, **run)
    assert not rules.play_sequence(board, portfolio[1])[0].is_cleared()
    third = _rescue_stage(start, 2, None, **run)
    best = third if third[0] > portfolio[0] else portfolio
    assert nrpa_solve(start, FAR, **run) == (best[0], best[1], portfolio[2] + third[2])


def test_nrpa_rescue_share_must_leave_the_portfolio_time():
    start = engine.from_board(load_board("tuning:2"))
    for share in (-0.1, 1.0):
        with pytest.raises(ValueError, match="rescue must be a share"):
            nrpa_solve(start, FAR, rescue=share, max_runs=1)


@pytest.mark.long
def test_nrpa_rescue_continues_a_line_that_cleared():
    """Once a colour choice has cleared the board, the held-back time continues from the best
    line with the choice that found it, so the answer is never worse than the portfolio's."""
    from gridfall.samegame.search.portfolio import STAGE_SEED_STEP

    board = load_board("tuning:2")
    start = engine.from_board(board)
    run = dict(seed=6, level=2, iterations=40, max_runs=1)
    first = nrpa_solve(start, FAR, **dict(run, tabu_rank=0))
    second = nrpa_solve(start, FAR, **dict(run, seed=6 + STAGE_SEED_STEP, tabu_rank=1))
    rank, portfolio = (1, second) if second[0] > first[0] else (0, first)
    assert rules.play_sequence(board, portfolio[1])[0].is_cleared()
    more = _rescue_stage(start, rank, portfolio[1], **run)
    assert more[0] >= portfolio[0]
    best = more if more[0] > portfolio[0] else portfolio
    assert nrpa_solve(start, FAR, **run) == (best[0], best[1], first[2] + second[2] + more[2])


def test_a_level_1_nrpa_search_is_cut_at_the_deadline_and_the_split_changes_no_line(monkeypatch):
    """A whole level-1 search (100 playouts, about 5 ms from a full board) ran past the deadline:
    NRPA given 5 ms took 26.  It is now run some iterations a kernel call, sized to the time left by the
    rate measured, on a clock here that moves 200 us an iteration only when they are run; and
    however a level-1 search is split, NRPA gives the same line."""
    from gridfall.samegame.search import nrpa

    start = engine.from_board(load_board("standard:5"))
    whole = nrpa_solve(start, FAR, seed=4, level=2, iterations=20, max_runs=1)
    with monkeypatch.context() as patch:
        patch.setattr(nrpa, "work_for_call", lambda *args: 1)
        patch.setattr(nrpa, "FIRST_ITERATIONS", 3)
        assert nrpa_solve(start, FAR, seed=4, level=2, iterations=20, max_runs=1) == whole
    now = clock_moved_by_work(monkeypatch, nrpa, "level1", lambda args, _: args[9] * 200e-6)  # its iterations
    for deadline in (0.0005, 0.005, 0.05):  # within the first call, the first level-1 search, the tenth or so
        now[0] = 0.0
        search = nrpa.NRPA(start, seed=4)
        search.run(2, nrpa.new_policy(), deadline)
        first_call = nrpa.FIRST_ITERATIONS * 200e-6  # before any rate is measured
        assert search.best_score > 0 and deadline <= now[0] <= max(deadline + 200e-6, first_call) + 1e-9
        assert replayed_score(load_board("standard:5"), search.best_line) == search.best_score


@pytest.mark.parametrize("colour_rate", [0.0, 0.5])
def test_nrpa_adapt_follows_the_update_rule(colour_rate):
    """Adapting twice towards a recorded line: each step moves the chosen weight up by alpha and
    every candidate down by alpha times its probability under the policy before the update.
    A candidate's probability comes from its code's and its colour-phase weight's sum; the
    colour-phase weights move colour_rate times as far (not at all with 0)."""
    import math

    import numpy as np

    from gridfall.samegame.search import nrpa

    start = engine.from_board(load_board("tuning:5"))
    search = nrpa.NRPA(start, seed=3, bias=0.3, colour_rate=colour_rate)
    policy = nrpa.new_policy()
    search.run(1, policy, FAR)  # a policy that is no longer uniform
    line = search._current
    _, _, length = nrpa.playout(start, policy, search.ranks, 0.0, 0, search.biases, search.gains, search.rng, search._moves,
                             search._board, search._seeds, search._weights, line)
    assert (np.flatnonzero(policy[0][nrpa.FEATURE_BASE:]).size > 0) == (colour_rate > 0)
    expected = {int(i): float(policy[0, i]) for i in np.flatnonzero(policy[0])}
    for _ in range(2):
        old = dict(expected)
        for step in range(length):
            lo, hi = line.offsets[step], line.offsets[step + 1]
            weights = [math.exp(old.get(int(line.codes[t]), 0.0) + old.get(int(line.features[t]), 0.0)) * line.priors[t]
                       for t in range(lo, hi)]
            for t, w in zip(range(lo, hi), weights):
                expected[int(line.codes[t])] = expected.get(int(line.codes[t]), 0.0) - w / sum(weights)
                if colour_rate:
                    feature = int(line.features[t])
                    expected[feature] = expected.get(feature, 0.0) - colour_rate * w / sum(weights)
            expected[int(line.chosen[step])] = expected.get(int(line.chosen[step]), 0.0) + 1.0
            if colour_rate:
                feature = int(line.chosen_features[step])
                expected[feature] = expected.get(feature, 0.0) + colour_rate
        nrpa.adapt(policy, line, length, 1.0, colour_rate, search._idx, search._delta)
    for code, logit in expected.items():
        assert policy[0, code] == pytest.approx(logit, abs=1e-9)
        assert policy[1, code] == pytest.approx(math.exp(logit), rel=1e-12)
    untouched = np.ones(policy.shape[1], dtype=bool)
    untouched[list(expected)] = False
    assert (policy[0, untouched] == 0.0).all() and (policy[1, untouched] == 1.0).all()


def test_nrpa_spare_lets_the_kept_colours_pairs_be_played_any_time():
    """With spare=2 a playout's candidates are the free colours' groups plus the kept colour's
    pairs, never its bigger groups while a free move exists; without it, no kept-colour move."""
    from gridfall.samegame.search import nrpa

    board = load_board("tuning:6")
    start = engine.from_board(board)
    for spare in (0, 2):
        search = nrpa.NRPA(start, seed=5, bias=0.3, tabu_rank=0, spare=spare)
        tabu = int(np.argmax(search.ranks))
        kept_pairs = 0
        for _ in range(40):
            line = search._current
            _, _, length = nrpa.playout(start, nrpa.new_policy(), search.ranks, 0.0, spare, search.biases, search.gains, search.rng,
                                     search._moves, search._board, search._seeds, search._weights, line)
            b = board
            for t in range(length):
                x, y = int(line.cells[t]) >> 4, int(line.cells[t]) & 15
                region = b.region(x, y)
                if b[(x, y)] == tabu and any(g.colour != tabu for g in b.groups()):
                    assert spare == 2 and len(region) == 2, (spare, t, len(region))
                    kept_pairs += 1
                b, _ = b.play(x, y)
        assert (kept_pairs > 0) == (spare == 2)


def test_nrpa_replay_records_a_line_as_its_playout_did():
    """Replaying a playout's own line gives back its record: candidates, priors, choices and score;
    a line the colour ranks forbid (another colour kept for last) is refused."""
    import numpy as np

    from gridfall.samegame.search import nrpa

    start = engine.from_board(load_board("tuning:6"))
    search = nrpa.NRPA(start, seed=2, bias=0.3, tabu_rank=0)
    line = search._current
    score, shaped, length = nrpa.playout(start, nrpa.new_policy(), search.ranks, 0.0, 0, search.biases, search.gains, search.rng,
                                 search._moves, search._board, search._seeds, search._weights, line)
    moves = [(int(c) >> 4, int(c) & 15) for c in line.cells[:length]]
    board = load_board("tuning:6")
    for t, (x, y) in enumerate(moves):  # each choice's colour-phase weight: its colour, moves 8t..8t+7
        assert line.chosen_features[t] == nrpa.FEATURE_BASE + board[(x, y)] * nrpa.PHASES + min(t // 8, nrpa.PHASES - 1)
        board, _ = board.play(x, y)
    known = search.replay(moves)
    assert shaped == score  # no colour favoured: the search climbs the score itself
    assert known is not None and known[0] == score and known[2] == length
    n = line.offsets[length]
    for field in ("cells", "chosen", "chosen_features"):
        assert np.array_equal(getattr(known[1], field)[:length], getattr(line, field)[:length])
    assert np.array_equal(known[1].offsets[:length + 1], line.offsets[:length + 1])
    assert np.array_equal(known[1].codes[:n], line.codes[:n]) and np.allclose(known[1].priors[:n], line.priors[:n])
    assert np.array_equal(known[1].features[:n], line.features[:n])
    assert search.best_score == score and search.best_line == moves
    assert nrpa.NRPA(start, tabu_rank=1).replay(moves) is None
    board = load_board("tuning:6")
    single = next((x, y) for x in range(15) for y in range(15) if len(board.region(x, y)) == 1)
    assert nrpa.NRPA(start, tabu_rank=0).replay([single]) is None  # a cell alone is no move
    assert nrpa.NRPA(start, tabu_rank=0).replay([(-1, 3)]) is None and nrpa.NRPA(start).replay([(3, 15)]) is None


def test_nrpa_favour_shapes_what_the_search_climbs_but_reports_the_true_score():
    """With ``favour`` the most common free colour's groups count 1 + favour times in the shaped
    score (the clear bonus does not), and a search still reports a line's true score."""
    from gridfall.samegame.search import nrpa

    board = load_board("tuning:6")
    start = engine.from_board(board)
    search = nrpa.NRPA(start, seed=4, bias=0.3, tabu_rank=0, favour=1.5)
    kept, favoured = colours.colours_by_count(start)[:2]
    assert search.gains[favoured] == 2.5 and search.gains[kept] == 1.0 and sorted(search.gains)[:-1] == [1.0] * 4
    assert nrpa.NRPA(start, tabu_rank=1, favour=1.5).gains[kept] == 2.5  # kept: the second; favoured: the first
    third = colours.colours_by_count(start)[2]  # favour_rank=1: the second most common free colour
    assert nrpa.NRPA(start, tabu_rank=0, favour=1.5, favour_rank=1).gains[third] == 2.5
    with pytest.raises(ValueError, match="favour_rank=4"):
        nrpa.NRPA(start, tabu_rank=0, favour=1.0, favour_rank=4)  # 5 colours, one kept: ranks 0-3
    assert (nrpa.NRPA(start, tabu_rank=0, favour_rank=4).gains == 1).all()  # no favour: the rank says nothing
    for _ in range(5):
        score, shaped, length = nrpa.playout(start, nrpa.new_policy(), search.ranks, 0.0, 0, search.biases, search.gains,
                                             search.rng, search._moves, search._board, search._seeds, search._weights,
                                             search._current)
        b, expected = board, 0.0
        for c in search._current.cells[:length]:
            x, y = int(c) >> 4, int(c) & 15
            colour, size = b[(x, y)], len(b.region(x, y))
            b, points = b.play(x, y)
            expected += points + (1.5 if colour == favoured else 0.0) * (size - 2) ** 2
        assert shaped == expected and rules.play_sequence(board, [(int(c) >> 4, int(c) & 15) for c in search._current.cells[:length]])[1] == score
    search.run(2, nrpa.new_policy(), FAR)
    assert rules.play_sequence(board, search.best_line)[1] == search.best_score


def test_nrpa_guided_never_answers_below_its_guide_and_falls_back_when_it_cannot_play_it():
    board = load_board("tuning:4")
    start = engine.from_board(board)
    first = nrpa_solve(start, FAR, seed=1, level=1, iterations=20, max_runs=1, tabu_rank=0)
    guided = nrpa_solve(start, FAR, seed=2, level=1, iterations=20, max_runs=3, tabu_rank=0, guide=first[1])
    assert guided[0] >= first[0] and guided[0] == replayed_score(board, guided[1])
    assert guided[2] == 20 * 20 + 2 * 20  # one level-2 run of 20 level-1 runs, then two level-1 runs
    # a colour choice that could not have played the guide searches as it would without one
    other = dict(seed=3, level=2, iterations=8, max_runs=1, tabu_rank=1)
    assert nrpa_solve(start, FAR, guide=first[1], **other) == nrpa_solve(start, FAR, **other)


def test_solve_continues_a_guide_with_the_colour_choice_that_played_it():
    board = load_board("tuning:4")
    start = engine.from_board(board)
    _, line, _ = nrpa_solve(start, FAR, seed=1, level=1, iterations=20, max_runs=1, tabu_rank=1)
    guide_score = rules.play_sequence(board, line)[1]
    solution = solve(board, 0.3, algo="nrpa", level=1, guide=line)
    assert solution.notes == {"guided": True, "tabu_rank": 1, "spare": 0, "soft": 0.0} and solution.score >= guide_score
    named = solve(board, 0.1, algo="nrpa", level=1, guide=line, tabu_rank=0)  # a choice that cannot play it
    assert named.notes == {"guided": False, "tabu_rank": 0, "spare": 0, "soft": 0.0}
    assert solve(board, 0.1, algo="beam", guide=line).notes == {"guided": False}


def test_solve_continues_a_guide_that_gave_up_kept_pairs_with_spare():
    """A line that took a pair of its kept colour while free moves were left is continued with
    spare=2 (unless the caller says spare=0: then no guide)."""
    board = load_board("tuning:6")
    start = engine.from_board(board)
    tabu = max(range(5), key=lambda c: (board.colour_counts()[c], -c))
    for seed in range(1, 30):
        _, line, _ = nrpa_solve(start, FAR, seed=seed, level=1, iterations=10, max_runs=1, tabu_rank=0, spare=2)
        b, early_pair = board, False
        for x, y in line:
            early_pair |= b[(x, y)] == tabu and any(g.colour != tabu for g in b.groups())
            b, _ = b.play(x, y)
        if early_pair:
            break
    assert early_pair
    assert solve(board, 0.2, algo="nrpa", level=1, guide=line).notes == {"guided": True, "tabu_rank": 0, "spare": 2,
                                                                         "soft": 0.0}
    assert solve(board, 0.1, algo="nrpa", level=1, guide=line, spare=0, soft=0.0).notes["guided"] is False


def test_solve_continues_a_line_no_hard_colour_choice_could_play_under_a_soft_tabu():
    """A line that removes a big group of its kept colour while other groups are left (as
    annealed lines do) is continued with that colour kept for last, softly; the answer is
    never below the line."""
    from gridfall.samegame.search.colours import colours_by_count
    from gridfall.samegame.search.portfolio import tabu_rank_of

    board = load_board("tuning:6")
    start = engine.from_board(board)
    kept = colours_by_count(start)[0]
    b, line = board, []
    while not any(g.colour == kept and g.size >= 4 for g in b.groups()):  # free moves until the kept colour has a group
        g = max((g for g in b.groups() if g.colour != kept), key=lambda g: g.size)
        line.append((g.x, g.y))
        b, _ = b.play(g.x, g.y)
    g = max((g for g in b.groups() if g.colour == kept), key=lambda g: g.size)
    line.append((g.x, g.y))  # while free groups are left
    b, _ = b.play(g.x, g.y)
    while not b.is_over():
        g = max(b.groups(), key=lambda g: (g.colour != kept, g.size))
        line.append((g.x, g.y))
        b, _ = b.play(g.x, g.y)
    assert all(tabu_rank_of(start, line, 1, spare) is None for spare in (0, 2))
    params, guide = continuation(start, line, {})
    assert guide == line and params["soft"] == SOFT_CONTINUATION and params["tabu_rank"] == 0
    solution = solve(board, 0.2, algo="nrpa", level=1, guide=line)
    assert solution.notes["guided"] and solution.notes["soft"] == SOFT_CONTINUATION
    assert solution.score >= rules.play_sequence(board, line)[1]
    assert continuation(start, line, {"tabu_rank": 0}) == ({"tabu_rank": 0}, None)  # a named choice: no guide


def test_colour_ranks_pick_the_tabu_colour():
    from gridfall.samegame.search.colours import colour_ranks

    start = engine.from_board(load_board("standard:16"))  # colour 1 has 65 cells, the others 40
    assert list(colour_ranks(start, 1)) == [0, 1, 0, 0, 0]
    assert list(colour_ranks(start, 0)) == [0, 0, 0, 0, 0]
    second = colour_ranks(start, 1, tabu_rank=1)
    assert second[1] == 0 and sum(second) == 1


def test_nmcs_seed_reproduces():
    start = engine.from_board(load_board("tuning:8"))
    from gridfall.samegame.search.nmcs import NMCS

    lines = [NMCS(start, seed=s).search(start, 1, FAR) for s in (3, 3, 9)]
    assert lines[0] == lines[1] != lines[2]


def test_a_level_1_nmcs_search_is_cut_at_the_deadline_and_the_split_changes_no_line(monkeypatch):
    """A whole level-1 NMCS search (a playout for each move of each step) from a full board took
    13-20 ms, and ran that far past its deadline.  It is now run some moves of playouts a kernel
    call, sized to the time left by the rate measured, on a clock here that moves 5 us a move only
    when they are played; and however a level-1 search is split, NMCS gives the same line."""
    from gridfall.samegame.search import nmcs

    start = engine.from_board(load_board("standard:6"))
    whole = nmcs_solve(start, FAR, seed=5, level=2, max_runs=1)
    with monkeypatch.context() as patch:
        patch.setattr(nmcs, "work_for_call", lambda *args: 1)  # a playout a call
        patch.setattr(nmcs, "FIRST_MOVES", 1)
        assert nmcs_solve(start, FAR, seed=5, level=2, max_runs=1) == whole
    now = clock_moved_by_work(monkeypatch, nmcs, "level1", lambda _, result: result[1] * 5e-6)  # the moves it played
    playout = nmcs.MAX_MOVES * 5e-6  # the longest a playout can be
    for deadline in (0.0005, 0.005, 0.05):  # within the first call, the first level-1 search, the tenth or so
        now[0] = 0.0
        found = nmcs_solve(start, deadline, seed=5)
        first_call = nmcs.FIRST_MOVES * 5e-6 + playout  # before any rate is measured
        assert found.score > 0 and deadline <= now[0] <= max(deadline, first_call) + playout + 1e-9
        assert replayed_score(load_board("standard:6"), found.moves) == found.score


@pytest.mark.parametrize("bottom_row, score", [([0, 0, 1, 2], 0), ([0, 0, 0, 1, 2], 1)])
@pytest.mark.parametrize("level", [1, 2, 3])
def test_nmcs_values_a_move_that_ends_the_game_at_its_points(bottom_row, score, level):
    """A level-1 search from a finished position scored -1 (no line), so one level up a move that
    ended the game was worth a point less: a pair that ends it (0 points) left NMCS with no line
    (an IndexError from `samegame solve --algo nmcs`), and a level-2 search reported 2,635 for a
    line that scores 2,636."""
    from gridfall.samegame.search import nmcs

    board = rules.Board.from_rows([[-1] * 15] * 14 + [bottom_row + [-1] * (15 - len(bottom_row))])
    start = engine.from_board(board)
    found = nmcs_solve(start, FAR, seed=1, level=level, max_runs=1)
    assert found.score == score == replayed_score(board, found.moves)
    over = engine.from_board(rules.Board.from_rows([[-1] * 15] * 14 + [[0, 1, 2] + [-1] * 12]))
    assert nmcs.NMCS(over).search(over, level, FAR) == (0, [])


def test_mcbs_seed_reproduces_when_the_work_is_fixed():
    start = engine.from_board(load_board("tuning:10"))
    runs = [mcbs_solve(start, 0.0, seed=s, width=8, playouts=2, widen=False) for s in (1, 1, 2)]
    assert runs[0] == runs[1] != runs[2]


@pytest.mark.parametrize("algo, budget", [("nmcs", {"level": 1, "max_runs": 3}),
                                           ("mcbs", {"width": 4, "playouts": 1, "max_runs": 3}),
                                           ("nrpa", {"level": 2, "max_playouts": 3000}),
                                           ("anneal", {"max_edits": 30_000}), ("beam", {"max_width": 16})])
def test_a_work_budget_gives_the_same_line_whatever_the_time_left(algo, budget):
    # only the budget may bound the work: mcbs widened by the time left, so its runs differed
    board = load_board("tuning:3")
    lines = [solve(board, seconds, algo=algo, seed=5, **budget) for seconds in (40, 80)]
    assert lines[0].moves == lines[1].moves and lines[0].seconds < 20


def test_beam_seed_reproduces():
    start = engine.from_board(load_board("tuning:9"))
    assert beam_solve(start, FAR, seed=2, max_width=64) == beam_solve(start, FAR, seed=2, max_width=64)


def test_a_beam_level_is_cut_at_the_deadline_and_the_split_changes_no_line(monkeypatch):
    """A whole level of 2,048 parents (73 ms) ran past a deadline that came while it was
    expanded.  A level is now expanded a few parents a call, sized to the time left by the rate
    measured, on a clock here that moves 50 us a parent only when they are expanded; and however a
    level is split, the search gives the same line."""
    from gridfall.samegame.search import beam

    start = engine.from_board(load_board("standard:4"))
    whole = beam_solve(start, FAR, seed=3, max_width=32)
    with monkeypatch.context() as patch:
        patch.setattr(beam, "work_for_call", lambda *args: 1)
        patch.setattr(beam, "FIRST_PARENTS", 1)
        assert beam_solve(start, FAR, seed=3, max_width=32) == whole
    now = clock_moved_by_work(monkeypatch, beam, "expand", lambda args, _: (args[3] - args[2]) * 50e-6)  # its parents
    found = beam_solve(start, 0.5, seed=3)
    assert found.score > 0 and 0.5 <= now[0] <= 0.5 + 50e-6 + 1e-9  # one parent past it at most
    assert replayed_score(load_board("standard:4"), found.moves) == found.score


def test_wider_beams_do_not_lose():
    # beam_solve keeps the best over its widths, so a larger budget never scores less
    start = engine.from_board(load_board("tuning:11"))
    assert beam_solve(start, FAR, max_width=256)[0] >= beam_solve(start, FAR, max_width=16)[0]


def test_nrpa_learns_beyond_random_playouts():
    board = load_board("tuning:12")
    start = engine.from_board(board)
    import numpy as np

    from gridfall.jit import new_rng

    moves = engine.new_moves()
    rng = new_rng(1)
    best_random = max(engine.random_playout(start.copy(), rng, colours.most_common_colour(start), moves) for _ in range(3000))
    assert nrpa_solve(start, FAR, seed=1, level=2, iterations=50, max_runs=1)[0] > best_random
    assert np.all(start == engine.from_board(board))  # the start position is never modified


@pytest.mark.parametrize("algo, params", [("beam", {}), ("nmcs", {"level": 2}), ("nrpa", {"level": 3}),
                                          ("mcbs", {}), ("auto", {})])
@pytest.mark.parametrize("workers", [1, pytest.param(2, marks=pytest.mark.alone)])  # two processes: two cores
def test_deadline_is_respected(algo, params, workers):
    board = load_board("tuning:13")
    solve(board, 0.05, algo=algo, workers=workers, **params)  # first call may load kernels
    started = time.monotonic()
    solution = solve(board, 1.0, algo=algo, workers=workers, **params)
    elapsed = time.monotonic() - started
    assert 0.95 <= elapsed < 1.5, elapsed
    assert solution.score == replayed_score(board, solution.moves)


@pytest.mark.alone  # it times how far past its deadline the search runs: a shared core would stretch that
@pytest.mark.parametrize("width, playouts", [(2048, 4), (64, 4096)])
def test_mcbs_stops_in_the_middle_of_a_wide_level_or_a_long_child(width, playouts):
    """At width 2,048 one beam level is some 400,000 playouts (many seconds), and at 4,096
    playouts a child four blocks of parents were 15 s; the deadline still holds, because the
    clock is read every 1,024 playouts and between any two children, and the answer is a real line."""
    board = load_board("tuning:13")
    start = engine.from_board(board)
    mcbs_solve(start, 0.0, width=4, playouts=1, widen=False)  # kernels loaded outside the clock
    started = time.monotonic()
    score, line, _ = mcbs_solve(start, started + 0.5, width=width, playouts=playouts, widen=False)
    assert time.monotonic() - started < 1.0
    assert score == replayed_score(board, line) > 0


@pytest.mark.alone  # two worker processes
def test_workers_report_improvements_in_order():
    seen = []
    solve(load_board("tuning:14"), 0.6, algo="nrpa", workers=2, level=2, on_improve=seen.append)
    assert seen and seen == sorted(seen) and len(set(seen)) == len(seen)


def test_auto_picks_beam_for_tiny_budgets_and_nrpa_otherwise():
    from gridfall.samegame.search import resolve_algo

    assert resolve_algo("auto", 0.02) == "beam"
    assert resolve_algo("auto", 5) == "nrpa"
    with pytest.raises(ValueError):
        resolve_algo("astar", 1)


def test_solve_refuses_a_parameter_no_algorithm_of_it_takes():
    board = load_board("tuning:2")
    with pytest.raises(ValueError, match="nrpa takes no parameter 'levl'; it takes .*level"):
        solve(board, 0.05, algo="nrpa", levl=2)
    with pytest.raises(ValueError, match="beam takes no parameter 'level'"):
        solve(board, 0.05, algo="beam", level=2)
    assert solve(board, 0.05, algo="auto", level=1).score > 0  # auto at 0.05 s runs beam; nrpa takes level
    for seconds in (float("nan"), float("inf")):  # a deadline that never comes: solve ran forever
        with pytest.raises(ValueError, match="give a finite time"):
            solve(board, seconds, algo="nrpa")
    for polish in (1.0, -0.1, float("nan")):
        with pytest.raises(ValueError, match=r"polish must be a share of the time in \[0, 1\)"):
            solve(board, 0.05, algo="nrpa", polish=polish)


def test_every_solver_has_one_shape():
    import inspect

    from gridfall.samegame.search import SOLVERS, solver
    from gridfall.samegame.search.found import Found

    start = engine.from_board(load_board("tuning:3"))
    for algo in SOLVERS:
        names = list(inspect.signature(solver(algo)).parameters)
        assert names[:4] == ["start", "deadline", "seed", "on_improve"], algo
        small = {"beam": {"max_width": 2}, "nmcs": {"level": 1}, "nrpa": {"level": 1, "iterations": 5, "max_runs": 1},
                 "mcbs": {"width": 2, "playouts": 1, "widen": False}, "anneal": {"max_edits": 100}}[algo]
        found = solver(algo)(start, time.monotonic() + 0.05, seed=1, **small)
        assert isinstance(found, Found) and found.score == rules.play_sequence(engine.to_board(start), found.moves)[1]


@pytest.mark.parametrize("algo, params, says", [
    ("mcbs", {"width": 0}, "mcbs: width=0 is not a whole number from 1 to 65,536"),  # wrote past its arrays: free() died
    ("nmcs", {"level": 0}, "nmcs: level=0 is not a whole number"),  # an IndexError mid-campaign
    ("nrpa", {"level": 10}, "nrpa: level=10 is not a whole number from 1 to 6"),
    ("auto", {"level": -1}, "nrpa: level=-1"),  # auto runs nrpa: its range holds
    ("anneal", {"sweep": 10**20}, "anneal: sweep=100000000000000000000 is not a whole number"),  # OverflowError
    ("beam", {"max_width": 0.5}, "beam: max_width=0.5 is not a whole number"),  # an AssertionError on the line
    ("mcbs", {"widen": 2}, "mcbs: widen=2 is not true or false"),
    ("nrpa", {"rescue": 1.0}, r"nrpa: rescue=1.0 is not a share from \[0, 1\)"),
    ("nrpa", {"bias": math.nan}, "nrpa: bias=nan is not a number"),
    # one kernel call each, which no deadline cuts: a 1.5 s search ran past a minute
    ("mcbs", {"playouts": 10**6}, "mcbs: playouts=1000000 is not a whole number from 1 to 4,096"),
    ("nrpa", {"iterations": 10**6}, "nrpa: iterations=1000000 is not a whole number from 1 to 4,096"),
])
def test_a_parameter_out_of_its_range_is_refused_before_any_search(algo, params, says):
    from gridfall.samegame.search import check_request

    with pytest.raises(ValueError, match=says):
        check_request(algo, 1.0, params)


def test_the_defaults_and_the_campaigns_own_rounds_are_in_range():
    import inspect

    from gridfall.samegame.search import check_request, parameters, solver
    from gridfall.samegame.search.ranges import RANGES

    for algo in RANGES:
        signature = inspect.signature(solver(algo)).parameters
        assert set(RANGES[algo]) <= set(parameters(algo)), algo  # no range for a name it does not take
        check_request(algo, 1.0, {name: signature[name].default for name in RANGES[algo]})
    check_request("nrpa", 1.0, {"level": 6, "spare": 2, "colour_rate": 0.3, "tabu_rank": 2, "protect": 2, "favour": 2})


def test_learning_rates_far_past_their_use_still_play_legal_lines():
    # alpha 1000 overflowed exp(): a sample with no defined weights picked move -1 and the
    # process died (SIGSEGV); colour_rate 1000 divided by zero.  In a child process, so that
    # a crash fails this test and not the session.
    import subprocess
    import sys

    code = ("from gridfall.samegame.boards import load_board\n"
            "from gridfall.samegame.search import solve\n"
            "for params in ({'alpha': 1000.0}, {'colour_rate': 1000.0}, {'alpha': 1000.0, 'bias': 1000.0, 'level': 1}):\n"
            "    s = solve(load_board('tuning:3'), 0.4, algo='nrpa', seed=1, **params)\n"
            "    print(s.score, ';'.join(f'{x} {y}' for x, y in s.moves))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    board = load_board("tuning:3")
    for row in done.stdout.splitlines():
        score, moves = row.split(" ", 1)
        assert int(score) == replayed_score(board, [tuple(map(int, m.split())) for m in moves.split(";")]) > 0


@pytest.mark.parametrize("rate, left, expected", [
    (10_000.0, 1.0, 200),  # 20 ms of work: the time left is longer
    (10_000.0, 0.005, 50),  # the 5 ms left
    (10_000.0, math.inf, 200),  # no deadline (a budget of work)
    (10_000.0, -0.5, 10),  # past the deadline: the least
    (1e9, 1.0, 1000),  # the most
])
def test_a_kernel_call_is_sized_to_20_ms_or_the_time_left(rate, left, expected):
    from gridfall.samegame.search.clock import CALL_SECONDS, work_for_call

    assert CALL_SECONDS == 0.02
    assert work_for_call(rate, left, 10, 1000) == expected


def test_mcbs_sizes_its_calls_to_the_time_left_and_the_split_changes_no_line(monkeypatch):
    """1,024 playouts between two looks at the clock ran 20 ms past a deadline 5 ms away.  The
    calls are now sized by the rate measured, on a clock here that moves 20 us a playout only when
    they are played; and however the work is split, a budget of work gives the same line."""
    from gridfall.samegame.search import mcbs

    start = engine.from_board(load_board("standard:3"))
    whole = mcbs_solve(start, math.inf, seed=2, width=16, max_runs=2)
    with monkeypatch.context() as patch:
        patch.setattr(mcbs, "PLAYOUTS_PER_CHECK", 3)
        patch.setattr(mcbs, "FIRST_CHECK", 1)
        assert mcbs_solve(start, math.inf, seed=2, width=16, max_runs=2) == whole
    now = clock_moved_by_work(monkeypatch, mcbs, "expand", lambda args, _: args[5] * 20e-6)  # its budget of playouts
    found = mcbs_solve(start, 0.005, seed=2)
    assert found.score > 0 and 0.005 <= now[0] <= 0.005 + 20e-6 + 1e-9  # one playout past it at most
