"""The run profile: the build's seeds in float32, or the independent rerun's."""

from __future__ import annotations

import pytest

from attention_explained import runs, settings


def test_using_switches_the_run_for_a_block_and_restores_it():
    assert runs.current() is runs.BUILD
    with runs.using(runs.RERUN):
        assert runs.current() is runs.RERUN
    assert runs.current() is runs.BUILD
    with pytest.raises(RuntimeError), runs.using(runs.RERUN):
        raise RuntimeError("a failing block still restores the run")
    assert runs.current() is runs.BUILD


def test_the_rerun_shares_no_experiment_seed_with_the_build_and_uses_float64():
    build = {
        *settings.TRAINING_SEEDS,
        *settings.AFTER_SEEDS,
        *settings.SWEEP_SEEDS,
        *settings.PROSE_SEEDS,
    }
    assert not build & set(runs.RERUN.seeds(build))
    assert runs.BUILD.seeds(build) == tuple(build)
    assert (runs.BUILD.dtype, runs.RERUN.dtype) == ("float32", "float64")
    assert any("float64" in line for line in runs.describe(runs.RERUN))
