"""The ``iree`` backend: ONNX models imported by IREE's ONNX importer, compiled for llvm-cpu, run by the IREE
runtime (run_iree.py), compiled modules cached per model content (cache.py)."""
