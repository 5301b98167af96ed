// explorer: filled in by the explorer work
