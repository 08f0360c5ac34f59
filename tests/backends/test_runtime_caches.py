"""A record is a function of its case: the runtimes' process-wide kernel caches are off, so a case never runs a
kernel an earlier case of the same shape created (docs/backends.md, "State that crosses cases").

Each check runs one case twice in a fresh interpreter with oneDNN's verbose log on and reads whether the second
primitive creation was a cache hit: with the cache on, it is (checked by the control below).
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent

PROBE = textwrap.dedent("""
    import sys
    sys.path.insert(0, {here!r})
    from backend_instances import instance
    from conformance.backends.registry import create
    from conformance.suite.tensors import materialize

    name = sys.argv[1]
    attributes = {{"kernel": [2, 2], "strides": [1, 1], "pads_begin": [0, 0], "pads_end": [0, 0]}}
    if name == "onednn":
        case = instance("onednn", "MaxPool", 1, {{**attributes, "data_format": "NCX"}}, [1, 1, 4, 4])
    else:  # the opset API's MaxPool-1: a model whose pooling node is a oneDNN primitive in the CPU plugin
        case = instance("openvino", "MaxPool", 1, attributes, [1, 1, 4, 4])
    backend = create(name)
    inputs = [materialize(t, t.dtype or case.dtype) for t in case.inputs]
    for _ in range(2):
        backend.run(case, inputs)
""")


def creations(backend: str, env: dict[str, str] | None = None) -> list[str]:
    """The primitive creations oneDNN logged while ``backend`` ran one case twice (create:cache_hit/miss)."""
    done = subprocess.run([sys.executable, "-c", PROBE.format(here=str(HERE)), backend], capture_output=True,
                          text=True, timeout=300, env={**os.environ, "ONEDNN_VERBOSE": "all", **(env or {})})
    assert done.returncode == 0, done.stderr[-2000:]
    return [part for line in done.stdout.splitlines() for part in line.split(",") if part.startswith("create:")]


def _installed(backend: str) -> bool:
    from conformance.backends.discovery import installed

    return backend in installed.installed_names()


@pytest.mark.parametrize("backend", ["onednn", "openvino"])
def test_second_case_compiles_its_own_kernel(backend):
    if not _installed(backend):
        pytest.skip(f"{backend} is not installed")
    seen = creations(backend)
    assert seen == ["create:cache_miss", "create:cache_miss"], seen


def test_onednn_reports_every_cache_at_capacity_zero():
    if not _installed("onednn"):
        pytest.skip("onednn is not installed")
    from conformance.backends.onednn import _lib

    assert _lib.cache_capacities() == {"dnnl_primitive_cache_capacity": 0,
                                       "dnnl_graph_compiled_partition_cache_capacity": 0}


def test_openvino_compiles_with_its_runtime_cache_off():
    from conformance.backends.openvino import runtime

    class Core:
        def compile_model(self, model, device, config):
            self.seen = (model, device, dict(config))
            return "compiled"

    core = Core()
    assert runtime.compile_model(core, "m", "CPU") == "compiled"
    assert core.seen == ("m", "CPU", {"CPU_RUNTIME_CACHE_CAPACITY": "0", "INFERENCE_PRECISION_HINT": "f32"})
    assert os.environ["ONEDNN_PRIMITIVE_CACHE_CAPACITY"] == "0"
    runtime.compile_model(core, "m", "GPU", None)  # another device's plugin does not know the CPU plugin's key
    assert core.seen[2] == {}
    runtime.compile_model(core, "m", "CPU", None)  # the default-precision column sets no hint
    assert core.seen[2] == {"CPU_RUNTIME_CACHE_CAPACITY": "0"}


def test_openvino_columns_say_their_inference_precision():
    pytest.importorskip("openvino")
    from conformance.backends.openvino.backend import OpenVinoBackend, OpenVinoDefaultPrecisionBackend
    from conformance.backends.openvino.runtime import default_precision

    assert OpenVinoBackend().precision() == "f32"
    column = OpenVinoDefaultPrecisionBackend()
    native = default_precision(column._core, "CPU")
    assert native in ("f32", "bf16", "f16")  # the hint's name, not openvino.Type's repr
    assert column.precision() == native
    # where the default is f32 the column would repeat the openvino column's records: it says so instead
    from one_case import CASE

    from conformance.suite.expand import expand
    from conformance.suite.loader import load_text

    (instance,) = expand(load_text(CASE, "one.yaml").cases[0])
    support = column.supports(instance)
    assert bool(support) == (native != "f32")
    if native == "f32":
        assert "default inference precision is f32" in support.reason


def test_the_default_precision_column_is_not_in_all():
    pytest.importorskip("openvino")
    from conformance.backends.discovery import installed

    assert "openvino" in installed.installed_names()
    assert "openvino-default-precision" not in installed.installed_names()
    assert "openvino-default-precision" in installed.parse_selection(["openvino-default-precision"])
