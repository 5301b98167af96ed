"""Every experiment setting in one place: sizes, seeds, dimensions, scaling names and factors.

Figures, prose numbers, the explorer's reference values and the notebooks all read this
module, so one edit here changes every place that shows the experiment. It imports nothing
from the package (and neither TensorFlow nor matplotlib), so anything may import it.

A new experiment appends its own section at the END of this file, headed by a comment
naming the experiment.
"""

from __future__ import annotations

import math
from collections.abc import Callable

# -- the site's languages: every figure is drawn, and every page written, in each -------------
LANGS = ("ko", "en")

# -- the study note's experiment: logits A·Bᵀ of uniform[−3, 3] matrices ----------------------
LENGTH = 30  # n: queries and keys per matrix (A and B are [n, d]), as in the note
UNIFORM_MIN, UNIFORM_MAX = -3.0, 3.0  # components of A and B are uniform on [min, max]

# -- scaling rules: name → the factor the logits q·k are multiplied by ------------------------
# ``logit_std`` is the standard deviation of q·k for the inputs at hand (3·√d_k for the
# note's uniform[−3, 3]); only "unit" needs it.
SCALE_FACTORS: dict[str, Callable[[int, float | None], float]] = {
    "none": lambda d_k, logit_std: 1.0,
    "sqrt": lambda d_k, logit_std: 1.0 / math.sqrt(d_k),
    "unit": lambda d_k, logit_std: 1.0 / logit_std,
}
SCALES = tuple(SCALE_FACTORS)  # ("none", "sqrt", "unit"): every figure and table, in order


def scale_factor(scale: str, d_k: int, *, logit_std: float | None = None) -> float:
    """The factor for scaling rule ``scale`` at width ``d_k``: 1, 1/√d_k or 1/std(q·k)."""
    if scale not in SCALE_FACTORS:
        raise ValueError(f"scale must be one of {', '.join(SCALES)}, got {scale!r}")
    if scale == "unit" and logit_std is None:
        raise ValueError("scale 'unit' needs logit_std, the standard deviation of q·k (> 0)")
    return float(SCALE_FACTORS[scale](d_k, logit_std))


# -- heatmaps (saturation page, heatmaps notebook) ---------------------------------------------
HEATMAP_DIMS = (10, 1024)  # the note's two widths
HEATMAP_SEED = 0

# -- sweep over widths (figures) ----------------------------------------------------------------
SWEEP_DIMS = tuple(2**k for k in range(13))  # 1 … 4096
SWEEP_SEEDS = tuple(range(8))

# -- numbers quoted in the prose -----------------------------------------------------------------
PROSE_DIMS = (10, 1024)
PROSE_SEEDS = tuple(range(8))
SELF_ATTENTION_DIM = 1024  # queries = keys (X·Xᵀ): the diagonal example
SELF_ATTENTION_SEED = 0

# -- temperature figure: one query's weights at several temperatures ------------------------------
TEMPERATURE_D_K = 64  # the paper's per-head width
TEMPERATURE_KEYS = 16
TEMPERATURE_SEED = 3

# -- training comparison (training page) -----------------------------------------------------------
TRAINING_SCALINGS = ("none", "sqrt", "qknorm")
TRAINING_DKS = (16, 128, 1024)  # the SGD grid
TRAINING_ADAM_DKS = (1024,)  # Adam, at the widest d_k only
TRAINING_SEEDS = (0, 1, 2)
TRAINING_STEPS = 300
TRAINING_BATCH = 64
TRAINING_N_ITEMS = 16
TRAINING_D_MODEL = 16
TRAINING_NOISE = 0.5
TRAINING_READOUT = 5.0
TRAINING_LEARNING_RATES = {"sgd": 0.5, "adam": 0.01}  # SGD: good for ÷√d_k; Adam: its usual range
TRAINING_POOL = 4096  # examples per seed; mini-batches are drawn from it at random
TRAINING_STARVED_BELOW = 1e-3  # per-example ‖∂ℓ/∂z‖ under this counts as "no gradient"
ADAM_BETAS = (0.9, 0.999)
ADAM_EPSILON = 1e-8
TRAINING_SMOOTH = 10  # steps in the moving average of the training curves
TRAINING_EVERY = 5  # plot every 5th smoothed step: the curves stay smooth, the SVGs small
TRAINING_FINAL = 30  # "final" = mean of the last 30 steps of each seed, then median over seeds
TRAINING_QUIET = 100  # the last 100 steps: how many of them had a gradient norm below …
TRAINING_QUIET_BELOW = 1e-3  # … this, i.e. one that has all but vanished

# -- explorer (in-browser page): limits and the cases the browser checks itself against ----------
EXPLORER_MAX_DIM, EXPLORER_MAX_LENGTH = 4096, 64
EXPLORER_REFERENCE_INPUTS = [
    {"seed": 0, "dim": 4, "length": 16, "scale": "none", "minval": -3.0, "maxval": 3.0},
    {"seed": 0, "dim": 64, "length": 30, "scale": "sqrt", "minval": -3.0, "maxval": 3.0},
    {"seed": 7, "dim": 1024, "length": 30, "scale": "none", "minval": -3.0, "maxval": 3.0},
    {"seed": 7, "dim": 1024, "length": 30, "scale": "unit", "minval": -3.0, "maxval": 3.0},
    {"seed": 123, "dim": 4096, "length": 64, "scale": "sqrt", "minval": -1.0, "maxval": 2.0},
    {"seed": 4294967295, "dim": 1, "length": 4, "scale": "unit", "minval": 0.5, "maxval": 1.5},
]

# -- After training (attention_explained/after_training.py; docs/after-training.md) ---------
# The key-retrieval task of the training page, trained with AdamW.
AFTER_SEEDS = (0, 1, 2)
AFTER_STEPS = 100
AFTER_BATCH = 32
AFTER_EVAL = 256  # held-out examples per seed for the spread probes
AFTER_N_ITEMS = 16
AFTER_D_MODEL = 16
AFTER_NOISE = 0.5
AFTER_READOUT = 5.0
AFTER_WEIGHT_DECAY = 0.01  # AdamW's decoupled decay, multiplied by the learning rate
AFTER_ADAM_BETAS = (0.9, 0.999)
AFTER_ADAM_EPSILON = 1e-8
# (1) learning-rate sensitivity: 6 rates over 2.5 decades × scalings × d_k × seeds
AFTER_LEARNING_RATES = (1e-3, 3e-3, 1e-2, 3e-2, 1e-1, 3e-1)
AFTER_SWEEP_DKS = (16, 256)
AFTER_SWEEP_SCALINGS = ("none", "sqrt", "qknorm")
# (2) the spread before and after training, d_k = 16 … 1024, ÷√d_k and μP's ÷d_k
AFTER_SPREAD_DKS = (16, 64, 256, 1024)
AFTER_SPREAD_SCALINGS = ("sqrt", "mup")
AFTER_SPREAD_LR = 1e-2
AFTER_FINAL = 20  # "final" = mean of a seed's last 20 steps, then the median over seeds
AFTER_LOW_LR = 1e-2  # the "low" learning rate of the largest-logit figure (the high one: max)

# -- the home page's pencil-sized example (docs/index.md) ---------------------------------------
# One query and three keys at d_k = 4 with small integer components, so a reader can redo
# every logit, weight and p(1 − p) by hand (√4 = 2); the raw logits are 8, 4 and 0.
PENCIL_QUERY = (2, 1, 0, 1)
PENCIL_KEYS = ((2, 2, 1, 2), (1, 1, 2, 1), (1, -1, 1, -1))

# -- Initialisation (attention_explained/initialisation.py; docs/initialisation.md) ----------
# What real layers start with: Keras' MultiHeadAttention built with its defaults, PyTorch's
# nn.MultiheadAttention initialiser (in NumPy), and the note's uniform[−3, 3] components, on
# inputs of unit variance (as after LayerNorm), n = LENGTH tokens per sequence.
INIT_SCHEMES = ("note", "keras", "torch", "keras314")  # figure and table order
INIT_HEADS = 8  # the paper's h
INIT_KEY_DIMS = (8, 16, 32, 64)  # d_k of the figure, each with d_model = h·d_k
INIT_HEAD_COUNTS = (2, 4)  # other h at key_dim = 64, d_model = h·64
INIT_ACROSS_D_MODEL = 512  # key_dim varied at a fixed d_model (and h = INIT_HEADS) …
INIT_ACROSS_KEY_DIMS = (16, 256)  # … to these (64 is the figure's point)
INIT_BATCH = 16  # sequences per measurement
INIT_SEEDS = (0, 1)

# -- dropping ÷√d_k as a change of initialisation and learning rate (training page) ----------
# equivalence.scaling_equivalence: the ÷√d_k head with weights × d_k^¼ and learning rate
# × d_k^p against the unscaled head, logits compared step by step on the same mini-batches.
EQUIV_D_K = 128  # a width of the SGD grid; 128^¼ is no power of two, so rounding shows
EQUIV_STEPS = 10
EQUIV_SEEDS = (0, 1)
EQUIV_TOLERANCE = 1e-8  # max |Δz| / max |z| allowed for "the same run" (float64 runs)
