"""OpenVINO SpaceToBatch-2 (movement/space-to-batch-2.rst): ``[batch, D1, ..., D_{N-1}]`` (rank N >= 2) zero-padded
by ``pads_begin``/``pads_end``, each spatial dim cut into blocks of ``block_shape``, the block offsets moved ahead
of the batch: ``x' = [batch, D1'/B1, B1, ...]``, ``transpose([2, 4, ..., 2(N-1), 0, 1, 3, ..., 2N-3])``, output
``[batch * prod(B), D1'/B1, ...]``. (The text's transpose ends in "N + (N - 1)", one past x''s last axis, 2N - 2:
docs/spec-notes.md.) block_shape >= 1 with block_shape[0] = 1, pads >= 0 with pads[0] = 0, B_i | D_i + P_i.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._errors import SpecViolation
from ._movement import ANY_SUPPORTED, INDEX_TYPES, movement, one_d
from .openvino_batch_to_space import check_blocks
from .schema import Port, Schema

SCHEMA = Schema("openvino", "SpaceToBatch", (2,),
                inputs=(Port("data"), Port("block_shape", dtype="int64", dtypes=INDEX_TYPES),
                        Port("pads_begin", dtype="int64", dtypes=INDEX_TYPES),
                        Port("pads_end", dtype="int64", dtypes=INDEX_TYPES)),
                outputs=(Port("output"),), types=((0, ANY_SUPPORTED),))
VERSIONS = SCHEMA.versions


def _compute(since: int, data: list[np.ndarray], ints: list[np.ndarray | None], attrs: dict[str, Any]
             ) -> list[np.ndarray]:
    label = f"SpaceToBatch-{since}"
    x = data[0]
    block, begin, end = (one_d(label, name, v) for name, v in zip(("block_shape", "pads_begin", "pads_end"), ints))
    check_blocks(label, x.ndim, block, begin, end, "pads")
    padded = np.zeros([d + b + e for d, b, e in zip(x.shape, begin, end)], dtype=x.dtype)
    padded[tuple(slice(b, b + d) for b, d in zip(begin, x.shape))] = x
    blocks, spatial = block[1:], list(padded.shape[1:])
    if any(d % s for d, s in zip(spatial, blocks)):
        raise SpecViolation(f"{label}: padded dims {spatial} are not divisible by block_shape {block}")
    k = len(blocks)
    xp = padded.reshape([padded.shape[0]] + [a for d, s in zip(spatial, blocks) for a in (d // s, s)])
    order = [2 + 2 * i for i in range(k)] + [0] + [1 + 2 * i for i in range(k)]
    batch = padded.shape[0] * int(np.prod(blocks))
    return [xp.transpose(order).reshape([batch] + [d // s for d, s in zip(spatial, blocks)])]


output_shapes, evaluate = movement(SCHEMA, _compute)
