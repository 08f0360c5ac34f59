"""tract: the harness's ONNX models (and lowered ones) through tract's own Python API."""

from __future__ import annotations

import pytest
from backend_instances import instance

from conformance.pipeline.runner import run_backend

pytest.importorskip("tract")

from conformance.backends.tract.backend import BF16_REASON, TractBackend  # noqa: E402


@pytest.fixture(scope="module")
def backend():
    return TractBackend()


def test_maxpool_values_and_whole_tensor_indices_match_the_reference(backend):
    case = instance("ai.onnx", "MaxPool", 12, {"kernel_shape": [2, 2], "strides": [1, 2]}, [2, 3, 5, 6],
                    outputs={"Y": {}, "Indices": {}})
    record = run_backend(case, backend)
    assert record.status == "pass", record.reason
    assert [o["name"] for o in record.outputs] == ["Y", "Indices"]


def test_an_openvino_case_runs_through_the_exact_lowering(backend):
    case = instance("openvino", "AvgPool", 14, {"kernel": [3], "strides": [2], "pads_begin": [1], "pads_end": [1],
                                                "exclude-pad": True, "rounding_type": "floor"}, [1, 2, 9])
    record = run_backend(case, backend)
    assert record.status == "pass", record.reason
    assert record.lowered.startswith("openvino AvgPool-14 -> ai.onnx AveragePool")


def test_bfloat16_is_unsupported_with_tracts_reason(backend):
    record = run_backend(instance("ai.onnx", "AveragePool", 22, {"kernel_shape": [2]}, [1, 1, 6], "bfloat16"),
                         backend)
    assert record.status == "unsupported"
    assert "Bfloat16" in record.reason


def test_cases_differing_only_in_values_share_one_prepared_model(backend):
    before = backend._prepared.misses, backend._prepared.hits
    for seed_shape in ([1, 1, 7, 7], [1, 1, 7, 7]):
        assert run_backend(instance("ai.onnx", "AveragePool", 19, {"kernel_shape": [3, 3]}, seed_shape),
                           backend).status == "pass"
    assert (backend._prepared.misses - before[0], backend._prepared.hits - before[1]) == (1, 1)


def test_a_panic_in_tract_is_a_crash_record_under_isolation():
    from conformance.backends.isolation.isolated_backend import IsolatedBackend

    with IsolatedBackend("tract", timeout=60) as isolated:
        record = run_backend(instance("ai.onnx", "MaxPool", 12, {"kernel_shape": [0, 2]}, [1, 1, 4, 4],
                                      expect="error", reason="kernel 0"), isolated)
        assert record.status == "crash", record.reason
        assert "SIGABRT" in record.reason
        # the next case gets a fresh worker
        assert run_backend(instance("ai.onnx", "MaxPool", 12, {"kernel_shape": [2, 2]}, [1, 1, 4, 4]),
                           isolated).status == "pass"


def test_a_process_that_dies_inside_tracts_loader_leaves_no_model_file(tmp_path):
    """tract loads from a path; a crash while it reads (deliberate crash cases) must not leave the file behind."""
    import subprocess
    import sys

    script = ("import os, sys, tempfile\n"
              "tempfile.tempdir = sys.argv[1]\n"
              "import conformance.backends.tract.backend as tract_backend\n"
              "tract_backend.load = lambda tract, path: os._exit(3 if os.path.exists(path) else 4)\n"
              "tract_backend.TractBackend().prepare(None, b'model bytes')\n")
    done = subprocess.run([sys.executable, "-c", script, str(tmp_path)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 3, done.stderr  # died inside the loader, the model readable at its path
    assert list(tmp_path.iterdir()) == []


def test_an_op_tract_does_not_implement_is_refused_once_known_with_one_reason():
    """The first LpPool case pays tract's model load to learn it is unimplemented; the next ones are refused by
    supports() with the same reason, whichever ran first (records do not depend on the order)."""
    from conformance.backends.tract.backend import TractBackend, unimplemented_reason
    from conformance.suite.expand import expand
    from conformance.suite.loader import load_text

    text = """op: LpPool
domain: ai.onnx
versions: [22]
cases:
  - id: a
    dtypes: [float32, bfloat16]
    attributes: {kernel_shape: [2], p: 2}
    inputs: {x: {shape: [1, 1, 4], random: {seed: 1}}}
"""
    backend = TractBackend()
    f32, bf16 = expand(load_text(text, "lp.yaml").cases[0])
    assert backend.supports(f32)
    first = run_backend(f32, backend)
    assert (first.status, first.reason) == ("unsupported", unimplemented_reason("LpPool")), first.reason
    assert not backend.supports(f32) and backend.supports(f32).reason == first.reason
    assert backend.supports(bf16)  # a bfloat16 case fails on its type first: not refused for its op
    assert run_backend(bf16, backend).status == "unsupported" and not backend.supports(bf16)


def test_a_refused_model_s_reason_holds_no_backtrace_whatever_rust_backtrace_says(monkeypatch):
    """With RUST_BACKTRACE=1, each of tract's errors captured a stack backtrace (~90 ms) and carried it (this
    machine's build paths) into the record's reason: the record depended on the user's environment."""
    from conformance.backends.isolation.isolated_backend import IsolatedBackend

    monkeypatch.setenv("RUST_BACKTRACE", "1")
    monkeypatch.delenv("RUST_LIB_BACKTRACE", raising=False)  # the worker's own backend must set it
    with IsolatedBackend("tract", timeout=60) as isolated:
        record = run_backend(instance("ai.onnx", "AveragePool", 1, {"kernel_shape": [-1, 2]}, [1, 1, 4, 4],
                                      expect="error", reason="negative kernel"), isolated)
    assert record.status == "pass", record.reason
    assert "TractError" in record.reason and "backtrace" not in record.reason.lower(), record.reason


def test_a_learnt_refusal_never_replaces_our_own_lowerings_reason():
    """A bfloat16 case our lowering cannot express (a ceil window overhanging the padded input, counted) is
    refused by the lowering before tract sees it: the same reason before and after tract taught the backend that
    it has no bfloat16 (a whole run gave 2 records the other reason when a bfloat16 case had run first)."""
    from conformance.suite.expand import expand
    from conformance.suite.loader import load_text

    text = """op: AvgPool
domain: onednn
versions: [1]
cases:
  - id: overhang
    dtypes: [bfloat16]
    layouts: [NCX]
    attributes: {kernel: [3], strides: [2], pads_begin: [0], pads_end: [0], rounding_type: ceil,
                 exclude_pad: false, data_format: NCX}
    inputs: {x: {shape: [1, 1, 6], random: {seed: 1}}}
"""
    backend = TractBackend()
    (case,) = expand(load_text(text, "overhang.yaml").cases[0])
    alone = run_backend(case, backend)
    assert alone.status == "unsupported" and alone.reason.startswith("no exact ONNX lowering"), alone.reason
    taught = run_backend(instance("ai.onnx", "AveragePool", 22, {"kernel_shape": [2]}, [1, 1, 6], "bfloat16"),
                         backend)
    assert taught.status == "unsupported" and backend._no_bfloat16
    after = run_backend(case, backend)
    assert (after.status, after.reason) == (alone.status, alone.reason)


def test_a_bfloat16_constant_is_unsupported_for_the_same_reason_whichever_ran_first():
    """A lowering holding a bfloat16 constant (float FloorMod) fails on that constant ("Unknown DatumType"), not
    on its input: the same cause, tract has no bfloat16, and the same record alone and after another bfloat16 case
    taught the backend (a whole run gave it unsupported or a rejection depending on which case its worker ran
    first)."""
    from conformance.suite.expand import expand
    from conformance.suite.loader import load_text

    text = """op: FloorMod
domain: openvino
versions: [1]
cases:
  - id: float_signs
    dtypes: [bfloat16]
    inputs: {a: {shape: [2], data: [5.5, -5.5]}, b: {shape: [2], data: [2.0, 2.0]}}
"""
    backend = TractBackend()
    (case,) = expand(load_text(text, "floormod.yaml").cases[0])
    alone = run_backend(case, backend)
    assert (alone.status, alone.reason) == ("unsupported", BF16_REASON), alone.reason
    taught = run_backend(instance("ai.onnx", "AveragePool", 22, {"kernel_shape": [2]}, [1, 1, 6], "bfloat16"),
                         backend)
    assert taught.status == "unsupported" and backend._no_bfloat16
    after = run_backend(case, backend)
    assert (after.status, after.reason) == (alone.status, alone.reason)
