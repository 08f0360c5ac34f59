"""Benchmarks (run as python -m benchmarks.NAME)."""
