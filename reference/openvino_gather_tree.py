"""OpenVINO GatherTree-1: beam search's token IDs reordered by their parent beams, the page's pseudocode line by line
(``final_ids`` filled with ``end_token``; per batch and beam, from ``min(MAX_TIME, max_seq_len[batch]) - 1`` back to
0 following ``parent_ids``; past the first ``end_token`` of a beam, ``end_token``).

Inputs "should have integer values only", of one "any supported numeric type" T: step_ids and parent_ids
``[MAX_TIME, BATCH, BEAM]``, max_seq_len ``[BATCH]``, end_token a scalar. Where the text leaves the value open it is
unspecified: a parent id outside ``[0, BEAM)`` (the pseudocode would index outside the beams) and everything of
that beam it reaches; a non-integral value; with ``max_seq_len`` 0 (or negative, ``min`` gives it), the last time
step, which the pseudocode writes at index ``max_sequence_in_beam - 1 = -1`` (Python's last element, C's out of
range); the batch's other steps stay ``end_token``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._elementwise import attributes_of
from ._errors import SpecViolation
from .schema import OV_FLOATS, OV_INTEGERS, Port, Schema

SCHEMA = Schema("openvino", "GatherTree", (1,),
                inputs=(Port("step_ids"), Port("parent_ids"), Port("max_seq_len"), Port("end_token")),
                outputs=(Port("final_ids"),), types=((0, (*OV_FLOATS, *OV_INTEGERS)),))
VERSIONS = SCHEMA.versions


def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                  input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
    attributes_of(SCHEMA, since, attributes)
    label = f"GatherTree-{since}"
    if len(input_shapes) != 4:
        raise SpecViolation(f"{label} takes four inputs, got {len(input_shapes)}")
    steps, parents, lengths, end = (tuple(s) for s in input_shapes)
    if len(steps) != 3 or parents != steps or lengths != (steps[1],) or end not in ((), (1,)):
        raise SpecViolation(f"{label}: step_ids and parent_ids [MAX_TIME, BATCH, BEAM], max_seq_len [BATCH], "
                            f"end_token a scalar; got {[list(s) for s in input_shapes]}")
    return [steps]


def evaluate(since: int, inputs: list[Any], attributes: dict[str, Any]
             ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    output_shapes(since, [np.shape(x) for x in inputs], attributes)
    kinds = {("bfloat16" if x.dtype.name == "bfloat16" else str(x.dtype)) for x in inputs}
    if len(kinds) != 1 or next(iter(kinds)) not in SCHEMA.supported_dtypes(since):
        raise SpecViolation(f"GatherTree-{since}: every input is one numeric type T, got {sorted(kinds)}")
    step_ids, parent_ids, max_seq_len, end_token = (np.asarray(x).astype(np.float64) for x in inputs)
    end = float(end_token.reshape(-1)[0])
    time_steps, batches, beams = step_ids.shape
    final = np.full(step_ids.shape, end)
    mask = np.zeros(step_ids.shape, bool)
    integral = all(np.array_equal(x[np.isfinite(x)], np.round(x[np.isfinite(x)])) and np.isfinite(x).all()
                   for x in (step_ids, parent_ids, max_seq_len, end_token))
    for batch in range(batches):
        length = int(min(time_steps, max(0, max_seq_len[batch]))) if np.isfinite(max_seq_len[batch]) else 0
        for beam in range(beams):
            if length == 0:  # the pseudocode then writes step_ids at index -1: Python's last step, C's out of range
                mask[time_steps - 1, batch, beam] = True
                continue
            parent = parent_ids[length - 1, batch, beam]
            final[length - 1, batch, beam] = step_ids[length - 1, batch, beam]
            broken = False
            for level in reversed(range(length - 1)):
                if broken or not 0 <= parent < beams or parent != int(parent):
                    broken = True
                    mask[level, batch, beam] = True
                    continue
                final[level, batch, beam] = step_ids[level, batch, int(parent)]
                parent = parent_ids[level, batch, int(parent)]
            finished = False
            for time in range(length):  # past the first end_token: end_token (an open element may hide one)
                if finished:
                    final[time, batch, beam] = end
                elif mask[time, batch, beam]:
                    mask[time:length, batch, beam] = True
                    break
                elif final[time, batch, beam] == end:
                    finished = True
    if not integral:
        mask[:] = True
    out = np.where(mask, 0, final).astype(inputs[0].dtype)
    return [out], [mask if mask.any() else None]
