"""conformance: operator conformance test harness for ONNX, OpenVINO and oneDNN Graph runtimes."""

__version__ = "0.1.0"
