"""Benchmarks: ``python -m tabletop_gui.bench [--json] [--quick]`` (shared/spec/quality.md)."""
