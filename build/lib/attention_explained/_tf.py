"""The one place that imports TensorFlow, with its start-up banners turned down.

TF_CPP_MIN_LOG_LEVEL=2 hides the C++ INFO/WARNING lines (oneDNN, CPU-feature notices) but
keeps ERROR, so real failures still reach the terminal. A value the user set wins.

TensorFlow ≥ 2.19 logs some of them through absl before it reads that variable
(tensorflow/tensorflow#100442), so on CPUs where oneDNN is on, every import printed
"oneDNN custom operations are on" twice, also into the notebooks' outputs. So the import
runs with the process's stderr captured, and everything but those INFO lines is written
back: warnings, errors and Python's own messages still reach the terminal.
"""

import os
import re
import sys
import tempfile

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

_QUIET = os.environ["TF_CPP_MIN_LOG_LEVEL"] not in ("0", "")
# absl's INFO lines ("I0000 00:00:…] …") and its notice that logging is not set up yet.
_INFO_LINE = re.compile(
    rb"^(?:I\d{4} [\d:.]+ +\d+ [^\]]+\] |"
    rb"WARNING: All log messages before absl::InitializeLog\(\) is called are written to STDERR)"
)


def _import_tensorflow():
    if not _QUIET:
        import tensorflow

        return tensorflow
    sys.stderr.flush()
    saved = os.dup(2)
    with tempfile.TemporaryFile() as captured:
        os.dup2(captured.fileno(), 2)
        try:
            import tensorflow
        finally:
            os.dup2(saved, 2)
            os.close(saved)
            captured.seek(0)
            kept = [
                line
                for line in captured.read().splitlines(keepends=True)
                if not _INFO_LINE.match(line)
            ]
            if kept:
                sys.stderr.write(b"".join(kept).decode(errors="replace"))
                sys.stderr.flush()
    return tensorflow


tf = _import_tensorflow()

__all__ = ["tf"]
