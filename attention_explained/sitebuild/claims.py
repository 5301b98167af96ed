"""Check the ``<!-- claim: name -->`` markers of a page against the build's verdicts."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

CLAIM_MARKER = re.compile(r"<!--\s*claim:\s*([^\s>]+)\s*-->")


class ClaimError(ValueError):
    """A page states a claim that is unknown or that its numbers contradict."""


def check_claim_names(
    names: Iterable[str], verdicts: Mapping[str, Mapping[str, Any]], where: str
) -> None:
    """Raise :class:`ClaimError` naming ``where`` if any claim in ``names`` is unknown or false.

    ``verdicts`` is what :func:`attention_explained.claims.evaluate_all` returned.
    """
    failures = []
    for name in names:
        verdict = verdicts.get(name)
        if verdict is None:
            failures.append(f"unknown claim {name!r} (known: {', '.join(sorted(verdicts))})")
        elif not verdict["holds"]:
            read = ", ".join(f"{k} = {v:.6g}" for k, v in sorted(verdict["numbers"].items()))
            failures.append(f"claim {name!r} does not hold: {verdict['statement']} ({read})")
    if failures:
        raise ClaimError(f"{where}: " + "; ".join(failures))


def check_claims(markdown: str, verdicts: Mapping[str, Mapping[str, Any]], where: str) -> str:
    """Return ``markdown`` without its claim markers; raise if any marked claim fails."""
    check_claim_names(CLAIM_MARKER.findall(markdown), verdicts, where)
    return CLAIM_MARKER.sub("", markdown)
