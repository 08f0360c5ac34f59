"""A record from a batch is the record of the same case run alone (timings aside), on the real backends that
batch: a sample of the corpus through ``dispatch.run_batch`` and the runner, against the runner alone."""

from __future__ import annotations

import dataclasses
import importlib.util
import re
from pathlib import Path

import pytest

from conformance.backends.batching import dispatch
from conformance.expectations import Expectations
from conformance.oracle import oracle_for
from conformance.pipeline import runner
from conformance.records import item_id
from conformance.suite.expand import expand
from conformance.suite.loader import load_file
from conformance.suite.sources import imported_cases

CASES = Path(__file__).resolve().parents[2] / "cases"
EXPECTATIONS = CASES.parent / "expectations"
SAMPLES = {  # backend -> case files whose instances it runs (the sample: every valid instance, up to a bound)
    "openvino": ["openvino/AvgPool-14.yaml", "openvino/MaxPool-8.yaml", "onnx/AveragePool-examples.yaml",
                 "onednn/AvgPool.yaml", "onnx-backend/node.yaml"],  # the last: whole models, batched as read
    "openvino-ir": ["openvino/AvgPool-14.yaml", "openvino/MaxPool-8.yaml", "openvino/AdaptiveAvgPool-8.yaml"],
    "tract": ["onnx/AveragePool-examples.yaml", "onnx/MaxPool-examples.yaml", "onednn/AvgPool.yaml"],
}
NEEDS = {"openvino": "openvino", "openvino-ir": "openvino", "tract": "tract"}
PER_FILE = 24


def _instances(files: list[str]) -> list:
    out = []
    for name in files:
        path = CASES / name
        if not path.exists():
            continue
        loaded = load_file(path)
        valid = [i for case in [*loaded.cases, *imported_cases(loaded)] for i in expand(case) if not i.expect_error]
        out += valid[:PER_FILE]
    return out


def _comparable(record) -> dict:
    data = dataclasses.asdict(record)
    for key in ("duration_s", "runtime_s"):
        data.pop(key)
    # OpenVINO numbers the nodes it creates (AvgPool_741980): a count of the process's nodes, not the case's
    data["reason"] = re.sub(r"\b([A-Za-z]+)_\d+\b", r"\1_N", data["reason"] or "")
    return data


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_batched_records_equal_alone_records(name):
    if importlib.util.find_spec(NEEDS[name]) is None:
        pytest.skip(f"{NEEDS[name]} is not installed")
    from conformance.backends.isolation import isolated_backend

    # in a worker, as a run has it: a case that kills the runtime costs its record, not the test process
    backend = isolated_backend.IsolatedBackend(name, 120.0)
    # as the plugin offers them: not the cases the expectations say crash or error (a crash costs the batch,
    # tests/batching/test_batch_faults.py)
    expected = Expectations.load([EXPECTATIONS / f"{name}.yaml"])
    version, isa = backend.version(), backend.isa_level()

    def offered(i) -> bool:
        entry = expected.find(item_id(i.id, name), version, isa)
        return (entry is None or entry.status == "fail") and bool(backend.supports(i)) and (
            oracle_for(i).expected() is not None)

    instances = [i for i in _instances(SAMPLES[name]) if offered(i)]
    assert len(instances) >= 20
    if any(f.startswith("onnx-backend/") for f in SAMPLES[name]):
        assert sum(i.model is not None for i in instances) >= 12  # whole models among them
    answers = dispatch.run_batch(backend, instances, [[x.copy() for x in oracle_for(i).inputs] for i in instances])
    answered = sum(a is not None for a in answers)
    assert answered >= len(instances) // 2, f"only {answered} of {len(instances)} answered by the batch"
    for instance, answer in zip(instances, answers):
        alone = runner.run_backend(instance, backend)
        batched = runner.run_backend(instance, backend, answer)
        assert _comparable(batched) == _comparable(alone), instance.id
    backend.close()
