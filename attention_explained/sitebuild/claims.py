"""Check the ``<!-- claim: name -->`` markers of a page against the build's verdicts."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from attention_explained.content.registry import describe_numbers

CLAIM_MARKER = re.compile(r"<!--\s*claim:\s*([^\s>]+)\s*-->")


class ClaimError(ValueError):
    """A page states a claim that is unknown or that its numbers contradict."""


def claim_failures(
    names: Iterable[str], verdicts: Mapping[str, Mapping[str, Any]], known: bool = True
) -> list[str]:
    """Why each claim in ``names`` is unknown or false, with the numbers it was judged on.

    ``verdicts`` is what :func:`attention_explained.content.registry.evaluate_all` returned;
    ``known`` lists the known claims in the message about an unknown one.
    """
    failures = []
    for name in names:
        verdict = verdicts.get(name)
        if verdict is None:
            listed = f" (known: {', '.join(sorted(verdicts))})" if known else ""
            failures.append(f"unknown claim {name!r}{listed}")
        elif not verdict["holds"]:
            read = describe_numbers(verdict["numbers"])
            failures.append(f"claim {name!r} does not hold: {verdict['statement']} ({read})")
    return failures


def check_claim_names(
    names: Iterable[str], verdicts: Mapping[str, Mapping[str, Any]], where: str
) -> None:
    """Raise :class:`ClaimError` naming ``where`` if any claim in ``names`` is unknown or false."""
    failures = claim_failures(names, verdicts)
    if failures:
        raise ClaimError(f"{where}: " + "; ".join(failures))


def take_claims(markdown: str) -> tuple[str, list[str]]:
    """``markdown`` without its claim markers, and the claims they named, in order."""
    return CLAIM_MARKER.sub("", markdown), CLAIM_MARKER.findall(markdown)


def check_claims(markdown: str, verdicts: Mapping[str, Mapping[str, Any]], where: str) -> str:
    """Return ``markdown`` without its claim markers; raise if any marked claim fails."""
    markdown, names = take_claims(markdown)
    check_claim_names(names, verdicts, where)
    return markdown
