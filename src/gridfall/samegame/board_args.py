"""BOARDS as the commands that take many read them: specs, with a set's name for every board of the
set and a set's numbers listed as ``--boards`` takes them (``standard:1-5,8``).  Apart from
:mod:`~gridfall.samegame.boards`, which the exported bot carries and which must need nothing
outside the standard library: the number lists are :mod:`gridfall.cli_options`'.
"""

from __future__ import annotations

from gridfall.cli_options import number_list
from gridfall.samegame.boards import SETS, BoardError, set_specs


def expand_specs(specs: list[str]) -> list[str]:
    """Specs with bare set names (``standard``) expanded to every board of the set, and a set's
    numbers (``standard:1-5,8``) to one spec each; BoardError naming a list that is not one."""
    out: list[str] = []
    for spec in specs:
        kind, _, arg = spec.partition(":")
        if spec in SETS:
            out.extend(set_specs(spec))
        elif kind in SETS and ("-" in arg or "," in arg):
            try:
                out.extend(f"{kind}:{number}" for number in number_list(arg))
            except ValueError as e:
                raise BoardError(f"{spec}: {e}") from None
        else:
            out.append(spec)
    return out
