"""Check the ``<!-- claim: name -->`` markers of a page against the build's verdicts."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from attention_explained.content.registry import describe_numbers

CLAIM_MARKER = re.compile(r"<!--\s*claim:\s*([^\s>]+)\s*-->")


class ClaimError(ValueError):
    """A page states a claim that is unknown or that its numbers contradict."""


def claim_failures(
    names: Iterable[str], verdicts: Mapping[str, Mapping[str, Any]], known: bool = True
) -> list[str]:
    """Why each claim in ``names`` is unknown or false, with the numbers it was judged on.

    ``verdicts`` is what :func:`attention_explained.content.pages.evaluate_all` returned;
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


def cached_verdicts(cache) -> dict[str, dict[str, Any]]:
    """Every claim's verdict over the numbers in ``cache`` (an ``AssetCache``), judged once.

    The verdicts have their own key (``ImportGraph.claims_key``: the numbers' key and every
    claim's code), so after a claim's check is edited they are judged again over the cached
    values and no experiment reruns. Judging runs in a fresh Python, so ``mkdocs serve``
    judges with the code on disk, and needs no TensorFlow.
    """
    cached = cache.load_cached_claims()
    if cached is not None:
        return cached
    package_root = str(Path(__file__).resolve().parents[3])  # the package this build imports
    env = dict(
        os.environ, PYTHONPATH=os.pathsep.join([package_root, os.environ.get("PYTHONPATH", "")])
    )
    result = subprocess.run(
        [sys.executable, "-m", __name__, str(cache.values_path)],
        capture_output=True,
        text=True,
        check=False,
        env=env,
    )
    if result.returncode == JUDGING_FAILED:  # a check raised: the message names it
        raise ClaimError(f"judging the claims failed: {result.stderr.strip()[-4000:]}")
    if result.returncode != 0:
        raise ClaimError(f"judging the claims failed:\n{result.stderr[-4000:]}")
    cache.install_claims(result.stdout.encode("utf-8"))
    return json.loads(result.stdout)


JUDGING_FAILED = 3  # the judge's exit code when a claim's check raised


def main(argv: list[str] | None = None) -> int:
    """``python -m attention_explained.sitebuild._internal.claims VALUES``: the verdicts as JSON.

    A check that raises is reported on stderr in one line naming the claim and its check's
    module (exit code ``JUDGING_FAILED``); any other failure keeps its traceback."""
    from attention_explained.content.pages import evaluate_all
    from attention_explained.content.registry import ClaimCheckError

    (values_path,) = sys.argv[1:] if argv is None else argv
    values = json.loads(Path(values_path).read_text(encoding="utf-8"))
    try:
        verdicts = evaluate_all(values)
    except ClaimCheckError as exc:
        print(exc, file=sys.stderr)
        return JUDGING_FAILED
    sys.stdout.write(json.dumps(verdicts, ensure_ascii=False, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
