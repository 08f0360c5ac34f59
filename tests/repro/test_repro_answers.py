"""`conformance repro` checks a backend's supports() answer like the runner does (issue 23 #1): None is refused
with what the plugin returned, never an AttributeError traceback, and nothing is written."""

from __future__ import annotations

import pytest

from conformance.backends import registry
from conformance.backends.base import Backend
from conformance.repro import ReproError, write_repro
from conformance.suite.expand import expand
from conformance.suite.loader import load_text

CASE = """\
op: AveragePool
domain: ai.onnx
versions: [22]
cases:
  - id: ceil
    attributes: {kernel_shape: [3, 3], strides: [2, 2], ceil_mode: 1}
    inputs:
      x: {shape: [1, 1, 4, 4], dtype: float32, arange: {start: 1}}
"""


class Forgetful(Backend):
    name = "forgetful"

    def supports(self, case):
        super().supports(case)  # the answer is not returned


def test_a_supports_answer_of_the_wrong_type_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(registry, "create", lambda spec: Forgetful())
    (instance,) = expand(load_text(CASE, "c.yaml").cases[0])
    with pytest.raises(ReproError, match=r"supports\(\) returned None \(NoneType\), not a Support"):
        write_repro(instance, "forgetful", tmp_path / "out")
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())
