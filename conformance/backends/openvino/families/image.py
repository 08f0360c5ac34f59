"""OpenVINO builders of Interpolate-1, -4 and -11: the image a Parameter, target_spatial_shape/sizes/scales/axes
Constants (shape inference reads them). The Python API has no Interpolate-4 factory (``opset4.interpolate`` is
opset1's, which builds Interpolate-1): -1 is ``opset1.interpolate`` with its attributes as a dict, -4 is created by
name through the opset4 node factory, -11 by ``opset11.interpolate``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from conformance.backends.openvino.families.normalization import builder
from conformance.backends.openvino.opset import CONSTANT, PARAMETER, OpInput, OpsetBuilder
from conformance.model import CaseInstance

DEFAULTS = {"coordinate_transformation_mode": "half_pixel", "nearest_mode": "round_prefer_floor",
            "antialias": False, "pads_begin": [0], "pads_end": [0], "cube_coeff": -0.75}


@dataclass(frozen=True)
class ImageBuilder(OpsetBuilder):
    """The first input a Parameter, every other one the case gives (two or three) a Constant."""

    def op_inputs(self, case: CaseInstance, inputs: list[np.ndarray]) -> list[OpInput]:
        names = case.input_names
        return [OpInput(port, PARAMETER if port == 0 else CONSTANT, x,
                        names[port] if port < len(names) else f"input{port}") for port, x in enumerate(inputs)]


def _interpolate(opset: Any, inputs: list[Any], a: dict[str, Any]) -> Any:
    if opset.__name__.endswith("opset1"):  # the case's attributes as written: the factory fills the page's defaults
        return opset.interpolate(inputs[0], inputs[1], {k: (list(v) if isinstance(v, list | tuple) else v)
                                                        for k, v in a.items()})
    attrs = {**DEFAULTS, **a}
    if opset.__name__.endswith("opset11"):
        return opset.interpolate(inputs[0], inputs[1], str(attrs["mode"]), str(attrs["shape_calculation_mode"]),
                                 list(attrs["pads_begin"]), list(attrs["pads_end"]),
                                 str(attrs["coordinate_transformation_mode"]), str(attrs["nearest_mode"]),
                                 bool(attrs["antialias"]), float(attrs["cube_coeff"]),
                                 inputs[2] if len(inputs) > 2 else None)
    from openvino.utils.node_factory import NodeFactory

    attrs = {k: (list(v) if isinstance(v, list | tuple) else v) for k, v in attrs.items()}
    attrs["cube_coeff"] = float(attrs["cube_coeff"])
    return NodeFactory("opset4").create("Interpolate", [i.output(0) for i in inputs], attrs)


def _builder() -> OpsetBuilder:
    base = builder("Interpolate", {1: "openvino.opset1", 4: "openvino.opset4", 11: "openvino.opset11"}, (PARAMETER,),
                   _interpolate)
    return ImageBuilder(opsets=base.opsets, build=base.build, dtypes_at=base.dtypes_at, dtype_note=base.dtype_note)


#: openvino-domain op -> its builder (builders.BUILDERS takes them all)
BUILDERS: dict[str, OpsetBuilder] = {"Interpolate": _builder()}
