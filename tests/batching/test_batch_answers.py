"""Every field of a batch's answer is checked where it enters the harness (backends/batch_answer.py): an entry
whose ``lowering`` is no str, whose ``seconds`` are NaN or negative, or whose outputs are masked costs its own
instance an ``error`` record naming the field. It never became an INTERNALERROR that lost every backend's records,
nor a results file its own reader refuses."""

from __future__ import annotations

import json
import textwrap

import numpy as np
import pytest

from conformance.backends import answers
from conformance.backends.batch_answer import Batched, Refused, checked, fields
from conformance.records import read_records

CASE = textwrap.dedent("""\
    op: AveragePool
    domain: ai.onnx
    versions: [22]
    cases:
""") + "".join(textwrap.indent(textwrap.dedent(f"""\
      - id: k{k}
        attributes: {{kernel_shape: [{k}, {k}]}}
        inputs:
          x: {{shape: [1, 1, 5, 5], dtype: float32, arange: {{start: 1}}}}
"""), "  ") for k in (1, 2, 3))

FAKES = textwrap.dedent("""\
    import numpy as np
    import conformance_reference as reference
    from conformance.backends.base import Backend
    from conformance.backends.batch_answer import Batched

    class Good(Backend):
        name = "good"
        def version(self):
            return "1"
        def run(self, case, inputs):
            return list(reference.evaluate(case.domain, case.op, case.version, inputs, case.attributes).outputs)

    class Batching(Good):
        name = "batching"
        FIELDS = {}
        def run_batch(self, instances, inputs_list):
            return [Batched(self.run(c, i), **self.FIELDS) for c, i in zip(instances, inputs_list)]

    class ObjectLowering(Batching):
        FIELDS = {"lowering": object()}

    class DictLowering(Batching):
        FIELDS = {"lowering": {}}

    class NanSeconds(Batching):
        FIELDS = {"seconds": float("nan")}

    class NegativeSeconds(Batching):
        FIELDS = {"seconds": -1.0}

    class StringSeconds(Batching):
        FIELDS = {"seconds": "0.1"}
""")

BAD = {"ObjectLowering": "Batched.lowering is <object object> (object), not a str",
       "DictLowering": "Batched.lowering is {} (dict), not a str",
       "NanSeconds": "Batched.seconds is nan (float), not a finite number of seconds >= 0",
       "NegativeSeconds": "Batched.seconds is -1.0 (float), not a finite number of seconds >= 0",
       "StringSeconds": "Batched.seconds is '0.1' (str), not a finite number of seconds >= 0"}


@pytest.mark.parametrize("isolation", ["process", "none"])
@pytest.mark.parametrize("backend", sorted(BAD))
def test_a_bad_field_costs_its_own_records_and_no_other_backends(pytester, backend, isolation):
    pytester.makefile(".yaml", cases=CASE)
    pytester.makepyfile(fakes=FAKES)
    results = pytester.path / "r.jsonl"
    result = pytester.runpytest_subprocess("--no-default-cases", "--no-default-expectations", "-p",
                                           "no:cacheprovider", "-p", "no:randomly", "--cases=.",
                                           f"--backend=fakes:{backend}", "--backend=fakes:Good",
                                           f"--isolation={isolation}", "--no-reference", f"--results={results}")
    assert result.ret == pytest.ExitCode.TESTS_FAILED, result.stdout.str()[-2000:]
    assert "INTERNALERROR" not in result.stdout.str() + result.stderr.str()
    records = list(read_records(results))  # the run's own reader takes its file
    by_backend = {b: [r for r in records if r.backend == b] for b in ("batching", "good")}
    assert [r.status for r in by_backend["good"]] == ["pass"] * 3
    assert [r.status for r in by_backend["batching"]] == ["error"] * 3
    assert all(r.reason == f"backend fakes:{backend} run_batch() {BAD[backend]}" for r in by_backend["batching"])


class _Plugin:
    name = "plugin"


def test_checked_rebuilds_good_entries_and_refuses_bad_ones_one_by_one():
    out = [np.ones((1, 1, 2, 2), np.float32)]
    answer = checked(_Plugin(), [Batched(out, "lowered", 0.25), None, Batched(out, lowering=7),
                                 Batched([np.ma.masked_array(out[0])]), Batched(out, "x" * 10_000)], 5)
    good, none, bad_lowering, masked, long = answer
    assert type(good) is Batched and good.lowering == "lowered" and good.seconds == 0.25 and none is None
    assert isinstance(bad_lowering, Refused) and "Batched.lowering is 7 (int), not a str" in bad_lowering.reason
    assert isinstance(masked, Refused) and "(Batched.outputs) returned output 0 as a masked array" in masked.reason
    assert len(long.lowering) == answers.LOWERING_LIMIT
    with pytest.raises(answers.BadAnswer, match="Batched.lowering is 7"):
        fields(_Plugin(), bad_lowering)
    with pytest.raises(answers.BadAnswer, match="one entry per instance"):
        checked(_Plugin(), [None], 2)


def test_a_refused_entry_is_an_error_record_where_it_is_judged():
    from conformance.backends.base import Backend
    from conformance.model import Case, CaseInstance, TensorSpec
    from conformance.pipeline import runner

    case = Case(id="t", op="AveragePool", domain="ai.onnx", versions=(22,), source="edge",
                attributes={"kernel_shape": [2, 2]}, inputs=(TensorSpec("x", (1, 1, 4, 4), None, arange={"start": 1}),),
                outputs=(TensorSpec("y", None, None),), dtypes=("float32",))
    instance = CaseInstance(id="ai.onnx/AveragePool-22/t[float32]", case=case, version=22, dtype="float32",
                            layout=None, attributes={"kernel_shape": [2, 2]},
                            inputs=(TensorSpec("x", (1, 1, 4, 4), "float32", arange={"start": 1}),),
                            outputs=(TensorSpec("y", None, None),))
    record = runner.run_backend(instance, Backend(), Refused([], reason="backend x run_batch() Batched.seconds is nan"))
    assert record.status == "error" and record.reason == "backend x run_batch() Batched.seconds is nan"
    assert json.loads(record.to_json())["status"] == "error"
