"""Layouts per input: a channels-last instance transposes the inputs its op's entry lays out (``layout_inputs``)
and its outputs; the other inputs (output_size, a shape vector) keep their values."""

from __future__ import annotations

import numpy as np

from conformance import ops
from conformance.oracle import oracle_for
from conformance.suite.expand import expand, inputs_of
from conformance.suite.loader import load_text

BACKWARD = """
op: MaxPoolBackward
domain: onednn
version: 1
cases:
  - id: tiles_2d
    layouts: [NCX, NXC]
    attributes: {kernel: [2, 2], strides: [2, 2], pads_begin: [0, 0], pads_end: [0, 0]}
    inputs:
      src: {shape: [1, 2, 4, 4], random: {seed: 3}}
      diff_dst: {shape: [1, 2, 2, 2], random: {seed: 4}}
"""
ADAPTIVE = """
op: AdaptiveAvgPool
domain: openvino
version: 8
cases:
  - id: sizes
    layouts: [NCX, NXC]
    inputs:
      x: {shape: [1, 3, 4, 6], random: {seed: 2}}
      output_size: {shape: [2], dtype: int64, data: [2, 3]}
"""


def test_every_laid_out_input_is_transposed() -> None:
    assert ops.entry("onednn", "MaxPoolBackward").layout_inputs == (0, 1)
    first, last = expand(load_text(BACKWARD, "b.yaml").cases[0])
    assert (first.layout, last.layout) == ("NCX", "NXC")
    for a, b in zip(inputs_of(first), inputs_of(last)):
        np.testing.assert_array_equal(np.moveaxis(a, 1, -1), b)
    # the reference on the channels-last instance gives the channels-first result transposed
    (ncx,), (nxc,) = oracle_for(first).outputs, oracle_for(last).outputs
    np.testing.assert_array_equal(np.moveaxis(ncx, 1, -1), nxc)


def test_an_input_not_laid_out_keeps_its_values() -> None:
    assert ops.entry("openvino", "AdaptiveAvgPool").layout_inputs == (0,)
    first, last = expand(load_text(ADAPTIVE, "a.yaml").cases[0])
    (x0, size0), (x1, size1) = inputs_of(first), inputs_of(last)
    np.testing.assert_array_equal(np.moveaxis(x0, 1, -1), x1)
    assert size0.tolist() == size1.tolist() == [2, 3]
