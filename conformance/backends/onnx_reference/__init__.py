"""onnx.reference.ReferenceEvaluator, the ONNX project's Python evaluator."""
