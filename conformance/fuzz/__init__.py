"""Differential fuzzing of backends against the reference (``conformance fuzz``)."""
