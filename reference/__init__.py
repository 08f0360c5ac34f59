"""NumPy reference kernels for the pooling specs (our oracle). No dependency on ``conformance``."""
