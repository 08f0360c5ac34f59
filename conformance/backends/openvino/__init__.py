"""The OpenVINO backends' own folder: one opset builder per op (``builders.BUILDERS``), the IR writer, the
compiled-model runner shared with exported reproductions, and the two backend classes.

``openvino`` builds openvino-domain cases with the Python opset API and ai.onnx cases through the ONNX frontend;
``openvino-ir`` writes openvino-domain cases as IR v11 XML for ``Core.read_model``. Both find an op's builder in
one table, so adding an op to both is adding one builder (docs/backends.md, "Adding an op to a native backend").
Nothing here imports openvino at import time: listing backends must work where it is not installed.
"""

from conformance.backends.discovery import presence


def check_installed() -> None:
    """Both backends' ``check_installed``: the package, its Python binding and the core library (``libs/``)."""
    presence.require("openvino", presence.extra("openvino"), extensions=("_pyopenvino",),
                     libraries=("libs/libopenvino.so*",))
