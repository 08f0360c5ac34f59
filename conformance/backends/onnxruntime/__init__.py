"""onnxruntime: the CPU (or any) execution provider, and onnxruntime-openvino's OpenVINO EP (openvino_ep.py)."""
