"""``onnx-backend:MODULE``: any onnx.backend.base.Backend module."""
