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
# The two-logit softmax counts as saturated where its slope p(1 − p) is below this (the
# softmax-curve figure's shading; the gradients page's flat region, |z| > 4.6).
SATURATED_SLOPE = 0.01
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

# The reader's own vectors: at most this many keys and numbers per vector, each |x| at most
# EXPLORER_MAX_ABS; "scale up" repeats the vectors to these multiples of their width (so the
# widest is 16 · 256 = EXPLORER_MAX_DIM). The one-row view scales the logits by 1, 1/√d_k and
# 1/d_k, d_k being the repeated width (or the d_k a reader gives with bare logits).
EXPLORER_MAX_KEYS, EXPLORER_MAX_WIDTH, EXPLORER_MAX_ABS = 16, 256, 1e6
EXPLORER_REPEATS = (1, 2, 4, 8, 16)
EXPLORER_ROW_SCALES = ("none", "sqrt", "dk")
# Inputs on which the browser test checks the page's JavaScript against the package.
EXPLORER_VECTOR_INPUTS = [
    {
        "query": [1.0, 2.0, -1.0, 0.5],
        "keys": [
            [1.0, 1.0, 0.0, 0.0],
            [0.0, 2.0, -1.0, 1.0],
            [-1.0, 0.0, 1.0, 2.0],
            [2.0, -1.0, 0.0, 1.0],
        ],
        "repeat": 1,
    },
    {
        "query": [1.0, 2.0, -1.0, 0.5],
        "keys": [
            [1.0, 1.0, 0.0, 0.0],
            [0.0, 2.0, -1.0, 1.0],
            [-1.0, 0.0, 1.0, 2.0],
            [2.0, -1.0, 0.0, 1.0],
        ],
        "repeat": 16,
    },
    {"query": [0.3, -1.7, 2.25], "keys": [[0.1, 0.2, 0.3], [-2.5, 1.5, 0.0]], "repeat": 4},
    {
        "query": [-3.0, 3.0] * 128,
        "keys": [[3.0, -3.0] * 128, [1.0, 0.5] * 128, [-0.25, 2.0] * 128],
        "repeat": 16,
    },
    {"logits": [2.0, -1.0, 0.5, 0.0, 7.5], "dim": 64, "repeat": 1},
    {"logits": [120.0, 100.0, -40.0], "dim": 4096, "repeat": 8},
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
# One query and three keys with ±1 components at two head dimensions, d_k and 4·d_k. A product
# q_m·k_m is +1 where the signs agree and −1 where they differ, so q·k = 2·agreements − d_k.
# The keys agree with the query in d_k/2 + (√d_k/2)·(1, 0, −1) places: one standard deviation
# of q·k (√d_k, the variance law with unit components) above the mean, at it, and below it.
# The raw spread doubles from d_k to 4·d_k; ÷√d_k keeps it, ÷d_k halves it, a fixed divisor
# (2) keeps doubling.
PENCIL_AGREEMENTS = {4: (3, 2, 1), 16: (10, 8, 6)}  # d_k → agreements of keys 1, 2, 3
PENCIL_FIXED_DIVISOR = 2
PENCIL_EXERCISE_AGREEMENTS = {64: (36, 32, 28)}  # the same pattern at d_k = 64 (exercise 2)
# Exercise 4: Keras 3.15's glorot_uniform query/key kernels, (d_model, h, key_dim) with
# fan_in = d_model and fan_out = h·key_dim, give Var(q_m) = 2·d_model/(d_model + h·key_dim)
# for unit-variance inputs; at d_model = 512 and h = 8 heads, two key_dims.
PENCIL_GLOROT_HEADS = 8
PENCIL_GLOROT_KEY_DIMS = (64, 128)
# Exercise 3: the paper's base model, d_model = 512 split over h = 8 heads.
PENCIL_PAPER_D_MODEL, PENCIL_PAPER_HEADS = 512, 8

# -- Beyond √d_k: many keys, causal masks, precision, kernels (docs/beyond.md, multi-head.md) --
# Many keys: rows of one query against n keys, components uniform[−a, a] at one head dimension.
MANY_KEYS_D_K = 64
MANY_KEYS_LENGTHS = tuple(2**k for k in range(2, 13))  # n = 4 … 4096 keys per row
MANY_KEYS_QUERIES = 64  # queries (rows) per seed
MANY_KEYS_SEEDS = tuple(range(8))
# Component half-widths: √3 gives unit variance (footnote 4: ÷√d_k logits of std 1); 3 is the
# note's uniform[−3, 3] (variance 3, so ÷√d_k logits of std 3).
MANY_KEYS_HALF_WIDTHS = {"unit": math.sqrt(3.0), "note": 3.0}
# Causal mask: entropy of each row against log n and against log of its own number of keys.
CAUSAL_LENGTH = 256
CAUSAL_D_K = 64
# float16: at what component size does q·k at d_k = 128 overflow (largest finite 65504)?
FP16_D_K = 128
FP16_LENGTH = 30
FP16_MAX = 65504.0
FP16_SEEDS = tuple(range(4))
FP16_SIZES = tuple(2 ** (k / 32) for k in range(0, 32 * 8 + 1))  # component std 1 … 256
# Double scaling (q pre-scaled and a kernel's default 1/√d_k kept): unit-variance components.
DOUBLE_SCALE_D_K = 128
# A head whose query-key width differs from its value width (Keras value_dim).
VALUE_DIM_CASE = {"num_heads": 2, "key_dim": 16, "value_dim": 64, "d_model": 32, "length": 12}
VALUE_DIM_INPUT_STD = 3.0  # inputs larger than unit size, so the two candidate scales differ
# Gemma 2 27B (its config: hidden_size, num_attention_heads, head_dim, query_pre_attn_scalar).
GEMMA2_27B = {"d_model": 4608, "heads": 32, "head_dim": 128, "query_pre_attn_scalar": 144}

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
