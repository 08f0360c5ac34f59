"""The ``torch`` backend: PyTorch's pooling functions, with a per-op builder table (builders.py)."""
