"""A backend's reason reaches the terminal with its control characters escaped (conformance/terminal.py): the
failure text and its headline, the skip and xfail reasons. Records keep the text as the backend gave it."""

from __future__ import annotations

import json
import textwrap

import pytest
from test_plugin import records, run

from conformance.plugin.items import failure_text
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
