"""Every experiment setting in one place: sizes, seeds, dimensions, scaling names and factors.

Figures, prose numbers, the explorer's reference values and the notebooks all read this
module, so one edit here changes every place that shows the experiment.
"""

from __future__ import annotations
