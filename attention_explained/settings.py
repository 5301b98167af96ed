"""Every experiment setting in one place: sizes, seeds, dimensions, scaling names and factors.

Figures, prose numbers, the explorer's reference values and the notebooks all read this
module, so one edit here changes every place that shows the experiment.
"""

from __future__ import annotations

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
