"""Check the measured results a figure's alt text states, wherever a page shows the figure.

Each figure module's ``ALT_CLAIMS`` lists the claims (checked in
``attention_explained/content/figures.py``) its alt text states. The plugin notes each
``![](figures/<id>.svg)`` that leaves the alt text to the package and calls
:func:`check_alt_claims` once the verdicts exist, so a figure whose numbers no longer bear
out its alt text stops the build, naming the figure and the page.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from attention_explained.sitebuild._internal.claims import ClaimError, claim_failures


def check_alt_claims(
    figure_id: str,
    verdicts: Mapping[str, Mapping[str, Any]],
    where: str,
    alt_claims: Mapping[str, tuple[str, ...]] | None = None,
) -> None:
    """Raise :class:`ClaimError` if a claim of ``figure_id``'s alt text is unknown or false.

    ``verdicts`` is what :func:`attention_explained.content.pages.evaluate_all` returned.
    """
    if alt_claims is None:
        from attention_explained.figures.strings import alt_claims as claims_of

        alt_claims = {figure_id: claims_of(figure_id)}
    failures = claim_failures(alt_claims.get(figure_id, ()), verdicts, known=False)
    if failures:
        raise ClaimError(
            f"{where}: the alt text of figure {figure_id!r} states: " + "; ".join(failures)
        )
