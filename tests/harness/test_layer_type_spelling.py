"""An op whose page spells its <layer> type otherwise than its name (PReLU's examples: type="Prelu"; OpenVINO's
type: PRelu): the loader takes the example case-insensitively, and the IR writer writes the registry's ir_layer."""

from __future__ import annotations

import numpy as np
import pytest

from conformance.suite.expand import expand
from conformance.suite.loader import load_text

FILE = """
op: PReLU
domain: openvino
version: 1
cases:
  - id: spec_example
    source: spec-example
    inputs: {data: {}, slope: {data: [0.25]}}
    ir_xml: |
      <layer ... type="LAYER">
          <input>
              <port id="0"><dim>4</dim></port>
              <port id="1"><dim>1</dim></port>
          </input>
          <output><port id="2"><dim>4</dim></port></output>
      </layer>
"""


def test_the_layer_type_is_compared_without_case() -> None:
    (case,) = load_text(FILE.replace("LAYER", "Prelu"), "x.yaml").cases
    assert case.spec_example.layer_type == "Prelu" and case.spec_example.input_dims == ((4,), (1,))
    refused = load_text(FILE.replace("LAYER", "Relu"), "x.yaml")  # another op still is no example of PReLU
    assert not refused.cases and "is not the file's op" in str(refused.errors[0])


def test_the_ir_writer_writes_the_registry_layer_type() -> None:
    pytest.importorskip("openvino")
    from conformance.backends.openvino.ir import build_ir

    (case,) = load_text(FILE.replace("LAYER", "Prelu"), "x.yaml").cases
    (instance,) = [i for i in expand(case) if i.dtype == "float32"]
    xml, _ = build_ir(instance, [np.ones(4, np.float32), np.array([0.25], np.float32)])
    assert 'type="PRelu"' in xml and 'type="Prelu"' not in xml and 'type="PReLU"' not in xml
