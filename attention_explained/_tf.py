"""The one place that imports TensorFlow, with its start-up banners turned down.

TF_CPP_MIN_LOG_LEVEL=2 hides the C++ INFO/WARNING lines (oneDNN, CPU-feature notices) but
keeps ERROR, so real failures still reach the terminal. A value the user set wins.
"""

import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import tensorflow as tf

__all__ = ["tf"]
