"""Build, check and measure tools, run from the repository root as `python -m tools.<name>` (Makefile)."""
