"""Batched execution (docs/backends.md, "Batched execution"): the harness's side of ``run_batch`` (dispatch.py) and
the ONNX-model backends' batches, many cases' models side by side in one graph (onnx_graph.py).

``Batched`` is the answer a plugin's ``run_batch`` returns (batch_answer.py); it is importable from here, the path
the plugin guide documents."""

from conformance.backends.batch_answer import Batched

__all__ = ["Batched"]
