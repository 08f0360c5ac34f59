"""Batched execution's fallbacks through the plugin (conformance/plugin/batching.py,
backends/batching/dispatch.py), with a small fake backend: a batch that crashes its worker, one that fails as a
whole (a compile failure) and one that answers only some of its cases all leave every record as the alone run
makes it; and batches do run."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

CASE = textwrap.dedent("""\
    op: AveragePool
    domain: ai.onnx
    versions: [22]
    cases:
""") + "".join(textwrap.indent(textwrap.dedent(f"""\
      - id: k{k}_s{s}
        attributes: {{kernel_shape: [{k}, {k}], strides: [{s}, {s}]}}
        inputs:
          x: {{shape: [1, 2, 6, 6], dtype: float32, random: {{seed: {k * 10 + s}}}}}
"""), "  ") for k in (1, 2, 3) for s in (1, 2)) + textwrap.indent(textwrap.dedent("""\
  - id: negative
    expect: error
    reason: kernel larger than the input
    attributes: {kernel_shape: [9, 9]}
    inputs:
      x: {shape: [1, 1, 4, 4], dtype: float32, arange: {start: 1}}
"""), "  ")

FAKES = textwrap.dedent("""\
    import os
    import conformance_reference as reference
    from conformance.backends.base import Backend, Rejected
    from conformance.backends.batch_answer import Batched

    def log(what):
        with open(os.environ["FAKE_LOG"], "a") as f:
            f.write(what + "\\n")

    class Good(Backend):
        name = "fake"
        def version(self):
            return "1"
        def run(self, case, inputs):
            log("run")
            try:
                return list(reference.evaluate(case.domain, case.op, case.version, inputs, case.attributes).outputs)
            except Exception as exc:
                raise Rejected(str(exc)) from None
        def run_batch(self, instances, inputs_list):
            log(f"batch {len(instances)}")
            return [Batched(self.run(c, i)) for c, i in zip(instances, inputs_list)]

    class SmallBatches(Good):
        batch_size = 4  # its own preferred size

    class TypeLogging(Good):
        def run_batch(self, instances, inputs_list):
            log("types " + " ".join(sorted({c.dtype for c in instances})))
            return super().run_batch(instances, inputs_list)

    class CrashInBatch(Good):
        def run_batch(self, instances, inputs_list):
            log("batch crash")
            os.abort()

    class FailInBatch(Good):
        def run_batch(self, instances, inputs_list):
            log("batch fail")
            raise RuntimeError("the batch's model does not compile")

    class Partial(Good):
        def run_batch(self, instances, inputs_list):
            answers = super().run_batch(instances, inputs_list)
            return [a if i % 2 else None for i, a in enumerate(answers)]

    class Wrong(Good):
        def run_batch(self, instances, inputs_list):
            log("batch wrong")
            return [None]  # not one answer per instance: the whole batch is refused
""")


def records(path: Path) -> dict[str, dict]:
    out = {}
    for line in path.read_text().splitlines():
        record = json.loads(line)
        if "id" in record and record["backend"] != "reference":
            for key in ("duration_s", "runtime_s", "repro"):
                record.pop(key, None)
            out[record["id"]] = record
    return out


@pytest.fixture
def pytester(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    pytester.monkeypatch_env = monkeypatch.setenv  # type: ignore[attr-defined]
    return pytester


def run(pytester: pytest.Pytester, backend: str, *args: str, case: str = CASE) -> tuple[dict[str, dict], list[str]]:
    pytester.makefile(".yaml", cases=case)
    pytester.makepyfile(fakes=FAKES)
    log = pytester.path / f"log-{backend}-{len(args)}.txt"
    log.write_text("")
    pytester.monkeypatch_env("FAKE_LOG", str(log))  # type: ignore[attr-defined]  # the workers read it
    results = pytester.path / f"r-{backend}-{'-'.join(a.strip('-') for a in args)}.jsonl"
    result = pytester.runpytest_subprocess("--no-default-cases", "--no-default-expectations", "-p",
                                           "no:cacheprovider", "-p", "no:randomly", "--cases=.",
                                           f"--backend=fakes:{backend}", "--isolation=process",
                                           f"--results={results}", *args)
    assert result.ret in (0, 1), result.stdout.str()[-3000:]
    return records(results), log.read_text().splitlines()


@pytest.mark.parametrize("backend", ["Good", "CrashInBatch", "FailInBatch", "Partial", "Wrong"])
def test_records_from_batches_and_fallbacks_equal_the_alone_run(pytester, backend):
    alone, alone_log = run(pytester, backend, "--no-batch")
    batched, log = run(pytester, backend)
    assert len(alone) == 7 and all(r["status"] == "pass" for r in alone.values())
    assert batched == alone
    assert not any(line.startswith("batch") for line in alone_log)
    assert any(line.startswith("batch") for line in log)
    runs = log.count("run")
    if backend == "Good":
        assert runs == 6 + 1  # every valid case inside the batch, the negative one alone
        assert "batch 6" in log
    elif backend == "Partial":
        assert runs == 6 + 3 + 1  # the batch ran all six, answered three: the others and the negative run alone
    else:
        assert runs >= 6 + 1  # the batch gave nothing: every case ran alone (after the crash: in a fresh worker)


def test_batches_under_xdist_give_the_same_records(pytester):
    alone, _ = run(pytester, "Good", "--no-batch")
    # xdist's default distribution hands this small run out an item or two at a time: a worker batches what it
    # holds, perhaps nothing; the records are the same either way
    assert run(pytester, "Good", "-n", "2")[0] == alone
    # whole case files per worker (as conformance run distributes): the worker holds the file's items and batches
    batched, log = run(pytester, "Good", "-n", "2", "--dist", "loadfile")
    assert batched == alone
    assert any(line.startswith("batch") for line in log)


def test_a_backend_declares_its_batch_size_and_the_option_overrides_it(pytester):
    alone, _ = run(pytester, "SmallBatches", "--no-batch")
    batched, log = run(pytester, "SmallBatches")
    assert batched == alone
    assert [line for line in log if line.startswith("batch")] == ["batch 4", "batch 2"]
    batched, log = run(pytester, "SmallBatches", "--batch-size=3")
    assert batched == alone
    assert [line for line in log if line.startswith("batch")] == ["batch 3", "batch 3"]
    _, log = run(pytester, "Good", "--batch-size=5")  # none declared: the option still applies
    assert [line for line in log if line.startswith("batch")] == ["batch 5"]


def test_a_batch_holds_the_element_type_of_the_item_that_leads_it(pytester):
    """A backend compiles one model per element type of a batch: the items of other types wait for a batch of
    their own instead of costing this one another compilation; the records are the alone run's."""
    mixed = CASE.replace("dtype: float32, random", "random").replace("    attributes:", "    dtypes: [float32, "
                                                                         "float64]\n    attributes:")
    alone, _ = run(pytester, "TypeLogging", "--no-batch", case=mixed)
    batched, log = run(pytester, "TypeLogging", case=mixed)
    assert batched == alone and {r["dtype"] for r in alone.values()} == {"float32", "float64"}
    assert sorted(line for line in log if line.startswith("types")) == ["types float32", "types float64"]
