"""A backend's reason reaches the terminal with its control characters escaped (conformance/terminal.py): the
failure text and its headline, the skip and xfail reasons. Records keep the text as the backend gave it."""

from __future__ import annotations

import json
import textwrap

import pytest
from test_plugin import records, run

from conformance.plugin.failure_text import failure_text
from conformance.records import ResultRecord
from conformance.terminal import printable

HOSTILE = "boom \x1b[2J\x1b]0;title\x07 after \u202e\x08"

PLUGIN = textwrap.dedent('''\
    from conformance.backends.base import Backend, Unsupported

    class Hostile(Backend):
        name = "hostile"

        def version(self):
            return "1"

        def run(self, case, inputs):
            if "skipped" in case.id:
                raise Unsupported("not here \\x1b[2J\\x1b]0;title\\x07")
            raise RuntimeError("boom \\x1b[2J\\x1b]0;title\\x07 after\\nsecond line \\x1b[31mred")
''')

CASES = textwrap.dedent("""\
    op: AveragePool
    domain: ai.onnx
    versions: [22]
    cases:
      - id: failing
        attributes: {kernel_shape: [2]}
        inputs: {x: {shape: [1, 1, 4], arange: {start: 0}}}
        dtypes: [float32]
      - id: skipped
        attributes: {kernel_shape: [2]}
        inputs: {x: {shape: [1, 1, 4], arange: {start: 0}}}
        dtypes: [float32]
""")


def test_printable_escapes_controls_and_keeps_what_it_is_told():
    assert printable("plain text ü") == "plain text ü"
    assert printable(HOSTILE + "\r") == "boom \\x1b[2J\\x1b]0;title\\x07 after \\u202e\\x08\\r"
    assert printable("a\n\tb\x1b", keep="\n\t") == "a\n\tb\\x1b"


def test_the_failure_text_shows_a_reason_escaped_line_by_line():
    record = ResultRecord(id="ai.onnx/AveragePool-22/c[float32]", op="AveragePool", domain="ai.onnx", version=22,
                          dtype="float32", backend="hostile", status="error", reason=HOSTILE + "\nline two\x1b[0m")
    text = failure_text(record)
    headline = text.splitlines()[0]
    assert headline == "ai.onnx/AveragePool-22/c::hostile[float32]: ERROR: " + printable(HOSTILE)
    assert "\x1b" not in text and "\x07" not in text and "\x08" not in text and "\u202e" not in text
    assert "\n  line two\\x1b[0m" in text  # lines are kept, each escaped


def test_a_plugins_escapes_never_reach_the_terminal(pytester: pytest.Pytester):
    pytester.makepyfile(hostile_backend=PLUGIN)
    pytester.makefile(".yaml", cases=CASES)
    out = pytester.path / "out.jsonl"
    result = run(pytester, "--cases", ".", "--backend=hostile_backend:Hostile", f"--results={out}", "-rA", "-n", "0")
    text = result.stdout.str() + result.stderr.str()
    result.assert_outcomes(failed=1, skipped=1)
    assert "\x1b" not in text and "\x07" not in text
    assert "FAILED" in text and "boom \\x1b[2J\\x1b]0;title\\x07 after" in text  # the headline, escaped
    assert "unsupported: not here \\x1b[2J\\x1b]0;title\\x07" in text  # the skip reason, escaped
    reasons = {r["id"].split("/")[-1]: r["reason"] for r in records(out)}
    assert "\x1b[2J" in reasons["failing[float32]"] and json.dumps(reasons)  # the record keeps the text as given


def test_the_failure_text_shows_worst_values_exactly_and_the_failing_output():
    import numpy as np

    from conformance.compare.indices import compare_indices
    from conformance.compare.tolerance import Policy
    from conformance.compare.values import compare

    expected = np.full((2, 3), 0.1, np.float32)
    actual = expected.copy()
    actual[1, 2] = np.nextafter(np.float32(0.1), np.float32(1))
    c = compare(expected, actual, Policy(window=1, dtype="float32", model="exact"))
    one = ResultRecord(id="ai.onnx/Relu-14/x[float32]", op="Relu", domain="ai.onnx", version=14, dtype="float32",
                       backend="b", status="fail", reason=c.reason, mismatches=c.mismatches, elements=c.elements,
                       max_abs_err=c.max_abs_err, max_rel_err=c.max_rel_err, max_ulp=c.max_ulp, worst=c.worst)
    assert "at [1, 2]: expected 0.1 actual 0.10000001 |err| 7.45e-09 allowed 0 (1 ulp)" in failure_text(one)

    want = np.arange(8, dtype=np.int64).reshape(1, 1, 2, 4)
    got = want.copy()
    got[0, 0, 1, 3] = 0
    i = compare_indices(want, got, None, None, name="Indices")
    # the top-level figures are the clean values output's: only Indices failed
    two = ResultRecord(id="ai.onnx/MaxPool-22/x[float32]", op="MaxPool", domain="ai.onnx", version=22,
                       dtype="float32", backend="b", status="fail", reason=i.reason, mismatches=0, elements=8,
                       outputs=[{"name": "Y", "ok": True, "mismatches": 0, "elements": 8},
                                {"name": "Indices", "ok": False, "mismatches": 1, "elements": 8, "max_abs_err": 7.0,
                                 "tolerance": "index", "worst": i.worst}])
    text = failure_text(two)
    assert "output Indices: mismatches: 1/8  max abs err 7  max rel err -  max ulp -" in text
    assert "at [0, 0, 1, 3]: expected 7 actual 0 |err| 7 allowed 0" in text
