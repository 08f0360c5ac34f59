"""Tests of the NumPy reference (the oracle). The folder is not called ``reference``: pytest puts ``tests/`` on
sys.path, and a ``tests/reference`` folder would shadow the ``reference`` package."""
