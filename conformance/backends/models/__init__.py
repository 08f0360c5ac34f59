"""The models the harness builds for a runtime from a case instance: what each output declares (shapes.py), the
single-node ONNX model (single_node.py), the exact ONNX lowerings of OpenVINO and oneDNN ops (lowering/) and the
cache of prepared models keyed by an ONNX model's bytes (cache.py)."""
