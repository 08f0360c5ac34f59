"""tract, Sonos' Rust ONNX engine."""
