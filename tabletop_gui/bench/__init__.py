"""Benchmarks: ``python -m tabletop_gui.bench [--json | --markdown] [--quick]``.

The cases and their targets: docs/benchmark.md and ``targets.py``.
"""
