"""The smallest valid case file the harness's own tests write when they need any case at all (one ai.onnx
AveragePool-22 case, 4x4 input, ceil mode): one text, imported by the tests that only need something to run."""

CASE = """\
op: AveragePool
domain: ai.onnx
versions: [22]
cases:
  - id: ceil
    attributes: {kernel_shape: [3, 3], strides: [2, 2], ceil_mode: 1}
    inputs:
      x: {shape: [1, 1, 4, 4], dtype: float32, arange: {start: 1}}
"""
