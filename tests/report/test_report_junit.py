from __future__ import annotations

from pathlib import Path

import defusedxml.ElementTree as DET
from report_records import XSS, rec

from conformance.report.junit import write_junit


def parse(path: Path):
    return DET.parse(str(path)).getroot()


def test_suite_per_backend_and_testcase_naming(tmp_path: Path, records: list) -> None:
    write_junit(tmp_path / "j.xml", records)
    root = parse(tmp_path / "j.xml")
    assert root.tag == "testsuites" and int(root.get("tests")) == len(records)
    suites = {s.get("name"): s for s in root.findall("testsuite")}
    assert sorted(suites) == sorted({r.backend for r in records})
    for backend, suite in suites.items():
        mine = [r for r in records if r.backend == backend]
        cases = suite.findall("testcase")
        assert int(suite.get("tests")) == len(cases) == len(mine)
        assert {c.get("name") for c in cases} == {r.item_id for r in mine}
        props = {p.get("name"): p.get("value") for p in suite.find("properties")}
        assert int(props["count.pass"]) == sum(r.status == "pass" for r in mine)
        assert "pass_rate" in props and "backend_version" in props
    case = next(c for c in root.iter("testcase") if "2d_ceil_pads" in c.get("name"))
    assert case.get("classname") == "ai.onnx.AveragePool-22"


def test_status_elements(tmp_path: Path) -> None:
    statuses = ["pass", "fail", "xpass", "error", "crash", "timeout", "unsupported", "xfail", "erratum"]
    recs = [rec("MaxPool", 22, s, "float32", "ov", s, reason=f"why {s}", max_abs_err=0.5) for s in statuses]
    write_junit(tmp_path / "j.xml", recs)
    suite = parse(tmp_path / "j.xml").find("testsuite")
    kinds = {}
    for c in suite.findall("testcase"):
        child = [e for e in c if e.tag != "properties"]
        kinds[c.get("name").split("/")[2].split("::")[0]] = (child[0].tag, child[0].get("type")) if child else None
    assert kinds["pass"] is None
    assert kinds["fail"] == ("failure", "fail") and kinds["xpass"] == ("failure", "xpass")
    for s in ("error", "crash", "timeout"):
        assert kinds[s] == ("error", s)
    for s in ("unsupported", "xfail", "erratum"):
        assert kinds[s] == ("skipped", s)
    assert (suite.get("failures"), suite.get("errors"), suite.get("skipped")) == ("2", "3", "3")
    failure = suite.find("testcase/failure")
    assert failure.get("message") == "why fail" and "max_abs_err=0.5" in failure.text
    props = {p.get("name"): p.get("value") for p in suite.find("testcase/properties")}
    assert props["status"] == "pass" and props["max_abs_err"] == "0.5"


def test_hostile_text_stays_well_formed(tmp_path: Path) -> None:
    r = rec("MaxPool", 22, "x", "float32", "ov", "error", reason=f"{XSS} \x1b[31m\x00 ]]> &")
    write_junit(tmp_path / "j.xml", [r])
    err = parse(tmp_path / "j.xml").find("testsuite/testcase/error")
    assert err.get("message").startswith(XSS) and "\x00" not in err.get("message")


def test_every_text_reads_back_as_written_but_what_xml_cannot_carry(tmp_path: Path) -> None:
    """The text writer escapes as ElementTree does: quotes, line ends and tabs in attributes come back as they were;
    control characters and lone surrogates (a backend's raw bytes) become U+FFFD, and the file still parses."""
    reason = 'a "quoted" <b> & \'c\'\r\nline two\tend \x07 \ud800'
    r = rec("MaxPool", 22, 'x"&<', "float32", 'ov"<&', "fail", reason=reason)
    write_junit(tmp_path / "j.xml", [r], name='run "one" <&>')
    root = parse(tmp_path / "j.xml")
    kept = reason.replace("\x07", "\ufffd").replace("\ud800", "\ufffd")
    assert root.get("name") == 'run "one" <&>' and root.find("testsuite").get("name") == 'ov"<&'
    (case,) = root.iter("testcase")
    assert case.get("name") == r.item_id and case.find("failure").get("message") == kept
    assert f"reason: {kept}".replace("\r\n", "\n") in case.find("failure").text  # a parser reads CR LF as LF
