"""OpenVINO RandomUniform-8 (reference/openvino_random_uniform.py holds the semantics): the page defines the draw
word for word (Philox 4x32-10 or MT19937, the conversions, the affine map in the output type), so a seeded draw is
judged exactly; both seeds 0 (non-deterministic) and a bf16 TENSORFLOW draw (no rule on the page) are unspecified."""

from __future__ import annotations

from conformance.ops.spec import OpEntry
from conformance_reference import openvino_random_uniform

ENTRY = OpEntry(schema=openvino_random_uniform.SCHEMA, error_models={"output": "exact"}, ir_layer="RandomUniform",
                summary="a seeded uniform draw in [minval, maxval), Philox or Mersenne-Twister as the page defines")
