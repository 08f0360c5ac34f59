"""OpenVINO builder of FakeQuantize-1: X and its four limits all Parameters (the CPU plugin's constant-limit fast
path is another kernel; a case may give the limits as Constants through ``constant_ports`` some day)."""

from __future__ import annotations

from typing import Any

from conformance import ops
from conformance.backends.base import Unsupported
from conformance.backends.openvino.families._inputs import GivenInputs, schema_dtypes
from conformance.backends.openvino.opset import OpsetBuilder
from conformance.model import CaseInstance


def _build(opset: Any, inputs: list[Any], case: CaseInstance) -> Any:
    schema = ops.entry(case.domain, case.op).schema
    unknown = sorted(set(case.attributes) - schema.attribute_names(case.version))
    if unknown or "levels" not in case.attributes:
        raise Unsupported(f"the opset API cannot build FakeQuantize-{case.version} with attribute(s) {unknown} or "
                          "without levels")
    mode = str(case.attributes.get("auto_broadcast", "numpy")).upper()
    return opset.fake_quantize(*inputs, int(case.attributes["levels"]), auto_broadcast=mode)



#: openvino-domain op -> its builder
BUILDERS: dict[str, OpsetBuilder] = {
    "FakeQuantize": GivenInputs(opsets={1: "openvino.opset1"}, build=_build, dtypes_at=schema_dtypes("FakeQuantize")),
}
