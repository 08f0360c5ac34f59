"""Interpolate-4's detailed description - the page's own Python (operation-specs/image/interpolate-4.rst) - loaded
from the page itself as the loop oracle of tests/oracle/test_openvino_interpolate.py. Two edits, each asserted to
apply: ``np.float`` (removed from NumPy) read as ``float``, and ``onnx_linear_interpolation`` returns its result
(the text's drops it)."""

from __future__ import annotations

from pathlib import Path

PAGE = Path("/work/shared/specs/openvino-opset/operation-specs/image/interpolate-4.rst")
_DROPPED = """        if rank in [2, 4]:
            self.onnx_linear_interpolation4D(input_data)
        else:
            self.onnx_linear_interpolation5D(input_data)"""
_RETURNED = """        if rank in [2, 4]:
            return self.onnx_linear_interpolation4D(input_data)
        else:
            return self.onnx_linear_interpolation5D(input_data)"""


def _code() -> str:
    block = PAGE.read_text().split(".. code-block:: py\n   :force:\n\n", 1)[1].split("\n\n\n\n**Example**", 1)[0]
    code = "\n".join(line[3:] if line.startswith("   ") else line for line in block.split("\n"))
    assert "np.float)" in code and code.count(_DROPPED) == 1, "the page's code changed: review the two edits"
    return code.replace("np.float)", "float)").replace(_DROPPED, _RETURNED)


_namespace: dict = {"__name__": "interpolate_text_page"}
exec(compile(_code(), str(PAGE), "exec"), _namespace)  # noqa: S102 - the spec's own reference code, read-only input
InterpolateCalculation = _namespace["InterpolateCalculation"]
