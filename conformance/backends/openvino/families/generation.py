"""OpenVINO builders of the generation ops: RandomUniform-8 (shape, minval and maxval as Constants: the output
shape is the shape input's value), Multinomial-13 (probs a Parameter, num_samples a Constant), RandomPoisson-17
(the rates a Parameter; the installed Python API has no factory: the opset column answers unsupported, the IR column
writes the layer for OpenVINO's reader)."""

from __future__ import annotations

from typing import Any

from conformance import ops
from conformance.backends.base import Unsupported
from conformance.backends.openvino.families._inputs import GivenInputs
from conformance.model import CaseInstance

_TYPES = {"float32": "f32", "float16": "f16", "bfloat16": "bf16", "float64": "f64", "int32": "i32", "int64": "i64"}


def _known(case: CaseInstance) -> dict[str, Any]:
    attributes = dict(case.attributes)
    unknown = sorted(set(attributes) - ops.entry(case.domain, case.op).schema.attribute_names(case.version))
    if unknown:
        raise Unsupported(f"the opset API has no {case.op}-{case.version} attribute(s) {unknown}")
    return attributes


def _random_uniform(opset: Any, inputs: list[Any], case: CaseInstance) -> Any:
    a = _known(case)
    return opset.random_uniform(inputs[0], inputs[1], inputs[2], a["output_type"], a.get("global_seed", 0),
                                a.get("op_seed", 0), str(a.get("alignment", "TENSORFLOW")).lower())


def _multinomial(opset: Any, inputs: list[Any], case: CaseInstance) -> Any:
    a = _known(case)
    return opset.multinomial(inputs[0], inputs[1], a["convert_type"], a["with_replacement"], a["log_probs"],
                             a.get("global_seed", 0), a.get("op_seed", 0))


def _random_poisson(opset: Any, inputs: list[Any], case: CaseInstance) -> Any:
    a = _known(case)
    make = getattr(opset, "random_poisson", None)
    if make is None:
        raise Unsupported(f"the installed OpenVINO's Python {opset.__name__} has no random_poisson "
                          f"({case.op}-{case.version} is read from IR only)")
    return make(inputs[0], a.get("global_seed", 0), a.get("op_seed", 0), str(a.get("alignment", "TENSORFLOW")).lower())


#: openvino-domain op -> its builder
BUILDERS = {
    "RandomUniform": GivenInputs(opsets={8: "openvino.opset8"}, build=_random_uniform, constant_ports=(0, 1, 2),
                                 dtypes=_TYPES, dtype_note="draws the types output_type names"),
    "Multinomial": GivenInputs(opsets={13: "openvino.opset13"}, build=_multinomial, constant_ports=(1,)),
    "RandomPoisson": GivenInputs(opsets={17: "openvino.opset17"}, build=_random_poisson),
}
