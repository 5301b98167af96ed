"""One process that computes every stale asset, so TensorFlow is imported once per build."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m attention_explained.worker")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--data", action="store_true", help="prose numbers + explorer reference")
    parser.add_argument("--figures", nargs="*", default=[])
    args = parser.parse_args(argv)
    start = time.perf_counter()
    try:
        if args.data:
            from attention_explained.explorer import reference_cases
            from attention_explained.quantities import compute

            data = args.out / "data"
            data.mkdir(parents=True)
            payload = json.dumps(compute(), ensure_ascii=False, indent=1)
            (data / "numbers.json").write_text(payload, encoding="utf-8")
            reference = json.dumps(reference_cases(), indent=1)
            (data / "explorer-reference.json").write_text(reference, encoding="utf-8")
        if args.figures:
            from attention_explained.figures.render import render

            for figure_id in args.figures:
                render([figure_id], args.out / "figures" / figure_id)
    except Exception as exc:
        print(f"error: {exc}", flush=True)
        return 1
    print(f"done in {time.perf_counter() - start:.1f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
