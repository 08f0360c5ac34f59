"""The pytest plugin end to end, on scratch case folders (real onnxruntime; subprocess pytest runs)."""

from __future__ import annotations

import json
import textwrap

import pytest

GOOD = textwrap.dedent("""\
    op: AveragePool
    domain: ai.onnx
    versions: [11, 22]
    cases:
      - id: ceil
        source: onnx-example
        attributes: {kernel_shape: [3, 3], strides: [2, 2], ceil_mode: 1}
        inputs:
          x: {shape: [1, 1, 4, 4], dtype: float32, arange: {start: 1}}
        outputs:
          y: {shape: [1, 1, 2, 2], data: [6, 7.5, 12, 13.5]}
      - id: seeded
        dtypes: [float32, float16]
        attributes: {kernel_shape: [2]}
        inputs:
          x: {shape: [2, 3, 9], random: {seed: 4}}
""")

WRONG = GOOD.replace("data: [6, 7.5, 12, 13.5]", "data: [6, 7.5, 12, 13.7]")
WRONG = WRONG.replace("source: onnx-example", "source: edge")


def run(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    return pytester.runpytest_subprocess("--no-default-cases", "-p", "no:cacheprovider", *args)


def records(path) -> list[dict]:
    return [r for r in map(json.loads, path.read_text().splitlines()) if "meta" not in r]  # the run's meta line


def test_items_ids_and_records(pytester: pytest.Pytester):
    pytester.makefile(".yaml", good=GOOD)
    out = pytester.path / "out.jsonl"
    result = run(pytester, "--cases", ".", "--backend=onnxruntime", f"--results={out}", "--collect-only", "-q")
    ids = [line for line in result.outlines if "::" in line]
    assert ids[:3] == [
        "good.yaml::ai.onnx/AveragePool-11/ceil::reference[float32]",
        "good.yaml::ai.onnx/AveragePool-11/ceil::onnxruntime[float32]",
        "good.yaml::ai.onnx/AveragePool-22/ceil::reference[float32]",
    ]
    assert "good.yaml::ai.onnx/AveragePool-22/seeded::onnxruntime[float16]" in ids
    assert len(ids) == 2 * 2 + 2 * 2
    result = run(pytester, "--cases", ".", "--backend=onnxruntime", f"--results={out}")
    result.assert_outcomes(passed=8)
    recs = records(out)
    assert {r["backend"] for r in recs} == {"onnxruntime", "reference"}
    assert all(r["status"] == "pass" and r["max_ulp"] is not None for r in recs)
    assert "conformance summary" in result.stdout.str()


def test_wrong_expected_value_fails_with_the_worst_element(pytester: pytest.Pytester):
    pytester.makefile(".yaml", scratch=WRONG)
    result = run(pytester, "--cases", ".", "--backend=onnxruntime", "-k", "ceil and AveragePool-22")
    result.assert_outcomes(passed=1, failed=1)
    text = result.stdout.str()
    assert "ai.onnx/AveragePool-22/ceil::reference[float32]: FAIL" in text
    # the summary line is a node id that pytest accepts back verbatim
    assert "FAILED scratch.yaml::ai.onnx/AveragePool-22/ceil::reference[float32]" in text
    assert "expected shape [1, 1, 2, 2] float32, actual [1, 1, 2, 2] float32" in text
    assert "at [0, 0, 1, 1]: expected 13.7" in text and "actual 13.5" in text
    assert "mismatches: 1/4" in text


def test_yaml_syntax_error_is_one_collection_error_and_others_run(pytester: pytest.Pytester):
    pytester.makefile(".yaml", good=GOOD, broken="op: AveragePool\ndomain: ai.onnx\nversions: [22\ncases: []\n")
    result = run(pytester, "--cases", ".", "--backend=onnxruntime")
    result.assert_outcomes(passed=8, errors=1)
    assert result.ret == 1
    assert "broken.yaml:4: YAML syntax error" in result.stdout.str()


def test_invalid_case_errors_alone(pytester: pytest.Pytester):
    bad = GOOD.replace("  - id: seeded\n", "  - id: seeded\n    atributes: {}\n")
    pytester.makefile(".yaml", good=bad)
    result = run(pytester, "--cases", ".", "--backend=onnxruntime")
    result.assert_outcomes(passed=4, errors=1)
    assert "good.yaml:12: case 'seeded': unknown key(s): atributes" in result.stdout.str()


def test_xdist_gives_the_same_items_and_outcomes(pytester: pytest.Pytester):
    scratch = WRONG.replace("id: ceil", "id: wrong").replace("id: seeded", "id: s2")
    pytester.makefile(".yaml", good=GOOD, scratch=scratch)
    serial_out, xdist_out = pytester.path / "serial.jsonl", pytester.path / "xdist.jsonl"
    serial = run(pytester, "--cases", ".", "--backend=onnxruntime", f"--results={serial_out}")
    parallel = run(pytester, "--cases", ".", "--backend=onnxruntime", "-n", "2", f"--results={xdist_out}")
    assert serial.parseoutcomes() == parallel.parseoutcomes()
    key = lambda r: (r["id"], r["backend"], r["status"], r["max_abs_err"])  # noqa: E731
    assert sorted(map(key, records(serial_out))) == sorted(map(key, records(xdist_out)))
    assert len(records(xdist_out)) == 16


def test_backend_option_forms(pytester: pytest.Pytester):
    pytester.makefile(".yaml", good=GOOD)
    both = run(pytester, "--cases", ".", "--backend=onnxruntime,openvino", "--collect-only", "-q")
    repeated = run(pytester, "--cases", ".", "--backend=onnxruntime", "--backend", "openvino", "--collect-only", "-q")
    ids = [line for line in both.outlines if "::" in line]
    assert ids == [line for line in repeated.outlines if "::" in line]
    assert any(line.endswith("::openvino[float32]") for line in ids)
    everything = run(pytester, "--cases", ".", "--backend=all", "--collect-only", "-q")
    assert any(line.endswith("::onnxruntime[float32]") for line in everything.outlines)
    missing = run(pytester, "--cases", ".", "--backend=nosuchruntime")
    assert missing.ret == 4 and "no backend named 'nosuchruntime'" in missing.stderr.str()


def test_plugin_is_inert_without_conformance_options(pytester: pytest.Pytester):
    pytester.makefile(".yaml", good=GOOD)
    pytester.makepyfile(test_plain="def test_one():\n    assert True\n")
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(passed=1)
    assert "conformance summary" not in result.stdout.str()


def test_an_expected_failure_is_reported_by_its_record_not_a_traceback(pytester: pytest.Pytester):
    """pytest formats an xfail like a failure: the default traceback (every frame's source parsed) cost up to
    0.6 s per xfail item; the item's own text is the record's, like a failure's."""
    pytester.makefile(".yaml", wrong=WRONG)
    expected = pytester.path / "exp.txt"
    expected.write_text("entries:\n- id: ai.onnx/AveragePool-22/ceil::reference[float32]\n"
                        "  reason: the case's literal is wrong on purpose\n")
    reprec = pytester.inline_run("--no-default-cases", "-p", "no:cacheprovider", "--cases", "wrong.yaml",
                                 "--backend=onnxruntime", f"--expectations={expected}", "--no-default-expectations",
                                 f"--results={pytester.path / 'out.jsonl'}", "-k", "AveragePool-22 and ceil")
    calls = [r for r in reprec.getreports("pytest_runtest_logreport")
             if r.when == "call" and r.nodeid.endswith("reference[float32]")]
    assert len(calls) == 1 and calls[0].wasxfail
    text = str(calls[0].longrepr)
    assert "ai.onnx/AveragePool-22/ceil::reference[float32]: XFAIL" in text and "reproduce: pytest" in text
    assert "Traceback" not in text and "runner.py" not in text


def test_collect_only_leaves_the_previous_results_alone(pytester: pytest.Pytester):
    """A `--collect-only` writes no results: removing the last run's file would leave reports/ without the records
    its HTML and JUnit were built from."""
    pytester.makefile(".yaml", good=GOOD)
    previous = pytester.path / "reports" / "results.jsonl"
    previous.parent.mkdir()
    previous.write_text('{"meta": {}}\n')
    result = run(pytester, "--cases", "good.yaml", "--backend=onnxruntime", "--collect-only", "-q")
    assert result.ret == 0 and previous.read_text() == '{"meta": {}}\n'


def test_junitxml_is_written_from_the_records_by_the_one_junit_writer(pytester: pytest.Pytester):
    """``--junitxml`` in a conformance run: one testsuite per column, testcases named by item id (pytest's own
    writer would split the name at its '[' and name suites after pytest), the same file under -n 2."""
    import xml.etree.ElementTree as ET

    pytester.makefile(".yaml", wrong=WRONG)
    for workers in ((), ("-n", "2")):
        xml = pytester.path / f"junit{len(workers)}.xml"
        result = run(pytester, "--cases", ".", "--backend=onnxruntime", f"--junitxml={xml}", *workers)
        assert result.ret == 1 and f"JUnit XML: {xml}" in result.stdout.str()
        root = ET.parse(xml).getroot()
        suites = {s.get("name"): s for s in root.iter("testsuite")}
        assert sorted(suites) == ["onnxruntime", "reference"]
        names = {c.get("name") for c in suites["onnxruntime"].iter("testcase")}
        assert "ai.onnx/AveragePool-22/ceil::onnxruntime[float32]" in names
        failed = [c for c in root.iter("testcase") if c.find("failure") is not None]
        assert {c.get("classname") for c in failed} == {"ai.onnx.AveragePool-11", "ai.onnx.AveragePool-22"}
        assert root.get("tests") == "8" and root.get("failures") == str(len(failed)) and failed
