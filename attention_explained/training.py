"""Training comparison of attention scalings (filled in by the training experiment work)."""
