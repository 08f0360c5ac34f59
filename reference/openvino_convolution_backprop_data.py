"""OpenVINO ConvolutionBackpropData-1 (convolution/convolution-backprop-data-1.rst): the transposed convolution, each
input element spread over the output by the kernel, then cropped by pads_begin/pads_end or aligned to an
``output_shape`` input (T2, any integer type) with the page's padding formulas; ``output_padding`` unlocks elements
at the end. reference/_convolution.py holds the geometry and the sums, docs/spec-notes.md what the page leaves open.
"""

from __future__ import annotations

from ._backprop import backprop_members, backprop_schema

SCHEMA = backprop_schema("ConvolutionBackpropData")
VERSIONS = SCHEMA.versions

output_shapes, window_elements, evaluate = backprop_members(SCHEMA, grouped=False)
