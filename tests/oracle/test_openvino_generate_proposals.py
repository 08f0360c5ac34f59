"""OpenVINO GenerateProposals-9 (reference/openvino_generate_proposals.py): the shapes at their largest with every
element open (the op's judge reads the real counts), the counts' type, and what the text forbids."""

from __future__ import annotations

import numpy as np
import pytest

import conformance_reference as reference

ATTRIBUTES = {"min_size": 0.0, "nms_threshold": 0.7, "pre_nms_count": 8, "post_nms_count": 5}
SHAPES = [(2, 3), (2, 3, 2, 4), (2, 8, 2, 3), (2, 2, 2, 3)]


def test_the_largest_shapes_every_element_open():
    inputs = [np.ones(s, np.float32) for s in SHAPES]
    found = reference.evaluate("openvino", "GenerateProposals", 9, inputs, ATTRIBUTES)
    assert [o.shape for o in found.outputs] == [(10, 4), (10,), (2,)]  # 2 images x min(5, 8, 12 anchors)
    assert found.outputs[2].dtype == np.int64 and all(m.all() for m in found.unspecified)
    i32 = reference.evaluate("openvino", "GenerateProposals", 9, inputs, {**ATTRIBUTES, "roi_num_type": "i32"})
    assert i32.outputs[2].dtype == np.int32
    tight = reference.output_shapes("openvino", "GenerateProposals", 9, SHAPES, {**ATTRIBUTES, "pre_nms_count": 3})
    assert tight[0] == (6, 4)


@pytest.mark.parametrize(("change", "shapes"), [
    ({}, [(2, 5), *SHAPES[1:]]),
    ({}, [SHAPES[0], (2, 3, 2, 3), *SHAPES[2:]]),
    ({}, [*SHAPES[:3], (2, 3, 2, 3)]),
    ({}, [SHAPES[0], SHAPES[1], (2, 6, 2, 3), SHAPES[3]]),
    ({"nms_eta": 1.5}, SHAPES),
    ({"post_nms_count": -1}, SHAPES),
    ({"roi_num_type": "i16"}, SHAPES),
])
def test_what_the_text_forbids(change, shapes):
    with pytest.raises(reference.SpecViolation):
        reference.output_shapes("openvino", "GenerateProposals", 9, shapes, {**ATTRIBUTES, **change})
