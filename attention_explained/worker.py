"""One process that computes every stale asset, so TensorFlow is imported once per build.

The main process computes each figure's data (TensorFlow) and hands the drawing to a pool
of matplotlib-only processes, so figures are drawn while later data is still computed.
It prints ``data-ready`` as soon as the prose numbers exist, so pages need not wait for
the figures.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

DATA_READY = "data-ready"


def _warm_up() -> None:
    """Import matplotlib and the figure modules while the parent imports TensorFlow."""
    from attention_explained.figures import load_all

    load_all()


def _draw(figure_id: str, data, out: Path) -> str:
    from attention_explained.figures.render import render

    render([figure_id], out, data={figure_id: data})
    return figure_id


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m attention_explained.worker")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--data", action="store_true", help="prose numbers + explorer reference")
    parser.add_argument("--figures", nargs="*", default=[])
    parser.add_argument("--jobs", type=int, default=2, help="drawing processes")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    pool = None
    try:
        drawings = []
        if args.figures:
            pool = ProcessPoolExecutor(
                max_workers=max(1, args.jobs),
                mp_context=multiprocessing.get_context("spawn"),  # never fork TensorFlow
                initializer=_warm_up,
            )
            from attention_explained.figures import get

            for figure_id in args.figures:
                out = args.out / "figures" / figure_id
                drawings.append(pool.submit(_draw, figure_id, get(figure_id).data(), out))
        if args.data:
            from attention_explained.claims import evaluate_all
            from attention_explained.explorer import reference_cases
            from attention_explained.quantities import compute, values

            data = args.out / "data"
            data.mkdir(parents=True)
            payload = json.dumps(compute(), ensure_ascii=False, indent=1)
            (data / "numbers.json").write_text(payload, encoding="utf-8")
            reference = json.dumps(reference_cases(), indent=1)
            (data / "explorer-reference.json").write_text(reference, encoding="utf-8")
            verdicts = json.dumps(evaluate_all(values()), ensure_ascii=False, indent=1)
            (data / "claims.json").write_text(verdicts, encoding="utf-8")
            print(DATA_READY, flush=True)
        for drawing in drawings:
            drawing.result()
    except Exception as exc:
        print(f"error: {exc}", flush=True)
        return 1
    finally:
        if pool is not None:
            pool.shutdown(cancel_futures=True)
    print(f"done in {time.perf_counter() - start:.1f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
