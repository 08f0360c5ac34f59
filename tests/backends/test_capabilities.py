"""Capabilities come from the op registry and the builder tables, and the optional backend members are declared
once, on ``Backend``, and read through ``optional()`` (also for plugins that implement only the protocol)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from conformance import ops
from conformance.backends import registry
from conformance.backends.base import OPTIONAL, Backend, BackendProtocol, Unsupported, optional
from conformance.backends.models import lowering
from conformance.backends.onednn import builders as onednn_builders
from conformance.backends.openvino import builders as openvino_builders

ONNX_BACKENDS = ["onnxruntime", "onnx-reference", "openvino", "onnx-backend:onnxruntime.backend", "tract", "iree"]


def _create(name: str) -> Backend:
    module = {"onnx-reference": "onnx", "onnx-backend:onnxruntime.backend": "onnxruntime",
              "openvino-ir": "openvino"}.get(name, name)
    if importlib.util.find_spec(module) is None:
        pytest.skip(f"{name} not installed")
    return registry.create(name)


@pytest.mark.parametrize("name", ONNX_BACKENDS)
def test_onnx_backends_list_every_registered_ai_onnx_op(name):
    assert _create(name).capabilities()["ai.onnx"] == ops.names("ai.onnx")
    assert "MaxPool" in ops.names("ai.onnx")


@pytest.mark.parametrize("name", ["onnxruntime", "onnx-reference", "onnx-backend:onnxruntime.backend", "tract",
                                  "iree"])
def test_onnx_only_backends_list_the_registry_entries_they_lower(name):
    lowered = _create(name).capabilities()["lowered"]
    assert len(lowered) == len(lowering.LOWERINGS)
    assert "openvino AvgPool-1/14/16 -> ai.onnx/AveragePool" in lowered


def test_native_backends_list_their_builder_tables():
    assert _create("openvino").capabilities()["openvino"] == openvino_builders.capabilities()
    assert _create("openvino-ir").capabilities()["openvino"] == openvino_builders.capabilities()
    assert "AdaptiveAvgPool-8" in openvino_builders.capabilities()
    from conformance.backends.onednn.backend import OneDnnBackend

    assert OneDnnBackend().capabilities() == {"onednn": list(onednn_builders.BUILDERS)}


def test_a_new_registry_entry_shows_up_without_editing_a_backend(monkeypatch):
    from conformance_reference.schema import Schema

    extra = ops.OpEntry(schema=Schema("ai.onnx", "MaxRoiPool", (1,)))
    real = ops.entries()
    monkeypatch.setattr(ops, "entries", lambda: [*real, extra])
    for name in ("onnxruntime", "onnx-reference", "openvino"):
        assert "MaxRoiPool" in _create(name).capabilities()["ai.onnx"], name


class ProtocolOnly:
    """A vendor plugin written against BackendProtocol alone."""

    name = "protocol-only"

    def version(self) -> str:
        return "1"

    def supports(self, case):
        return True

    def run(self, case, inputs):
        return []


def test_optional_members_fall_back_to_the_base_class_defaults():
    plugin = ProtocolOnly()
    assert isinstance(plugin, BackendProtocol)
    assert optional(plugin, "tolerance_scale") == 1.0 and optional(plugin, "description") == ""
    assert optional(plugin, "isolate") is False and optional(plugin, "capabilities")() == {}
    with pytest.raises(Unsupported, match="cannot export a reproduction"):
        optional(plugin, "export")(None, [], Path("."))
    with pytest.raises(AttributeError, match="not an optional backend member"):
        optional(plugin, "tolerance_scal")


def test_every_optional_member_is_declared_on_the_base_class():
    for member in OPTIONAL:
        assert hasattr(Backend, member), member


class Declared(Backend):
    name = "declared"
    tolerance_scale = 2.0
    isolate = True


def test_optional_reads_what_a_subclass_declares():
    backend = Declared()
    assert optional(backend, "tolerance_scale") == 2.0 and optional(backend, "isolate") is True
    backend.batch_size = 7
    assert optional(backend, "batch_size") == 7
