"""The cross-spec page from a handful of records: which spec versions share a reading (agree) and which differ,
which reading each runtime reproduces, what cannot be expressed; escaped; written beside index.html."""

from __future__ import annotations

import re
from html.parser import HTMLParser

from report_records import XSS

from conformance.records import ResultRecord, write_records
from conformance.report import build_reports
from conformance.report.crossspec import build_page
from conformance.report.crossspec_html import render_cross_spec

CEIL = {"id": "ceil_in_pad", "family": "avg", "description": "avg x[1, 1, 4], kernel [2], rounding ceil",
        "reason": "ONNX 22 drops the last window",
        "inexpressible": {"ai.onnx/AveragePool-7": "AveragePool-7 has no ceil rounding (it has floor)"}}
SAME = {"id": "floor", "family": "avg", "description": "avg x[1, 1, 4], kernel [2]", "reason": "baseline",
        "inexpressible": {}}


def rec(config: dict, column: str, backend: str, status: str = "pass", **kw: object) -> ResultRecord:
    domain, _, rest = column.partition("/")
    op, _, version = rest.rpartition("-")
    return ResultRecord(id=f"{column}/xspec-avg-{config['id']}[float32]", op=op, domain=domain,
                        version=int(version), dtype="float32", backend=backend, status=status,
                        configuration=config, **kw)  # type: ignore[arg-type]


def ref(config: dict, column: str, values: list) -> ResultRecord:
    return rec(config, column, "reference", expected_shape=[1, 1, len(values)], reference_values=values)


def run(config: dict, column: str, backend: str, values: list, status: str = "pass", **kw) -> ResultRecord:
    return rec(config, column, backend, status, actual_shape=[1, 1, len(values)], actual_values=values, **kw)


def records() -> list[ResultRecord]:
    return [
        ref(CEIL, "ai.onnx/AveragePool-19", [1.5, 3.5, None]),
        ref(CEIL, "ai.onnx/AveragePool-22", [1.5, 3.5]),
        ref(CEIL, "openvino/AvgPool-1", [1.5, 3.5, None]),
        ref(CEIL, "onednn/AvgPool-1", [1.5, 3.5, 7.0]),  # same shape, other values: a third reading
        run(CEIL, "ai.onnx/AveragePool-19", "onnxruntime", [1.5, 3.5], "xfail", reason="2 values",
            expectation="applies the opset-22 rule"),
        run(CEIL, "ai.onnx/AveragePool-22", "onnxruntime", [1.5, 3.5]),
        run(CEIL, "openvino/AvgPool-1", "openvino", [1.5000001, 3.5, float("nan")]),  # unspecified: any value
        run(CEIL, "onednn/AvgPool-1", "onednn", [1.5, 4.0, 9.0], "fail"),  # reproduces no reading
        rec(CEIL, "onednn/AvgPool-1", "onnxruntime", "unsupported", reason="no lowering"),
        ref(SAME, "ai.onnx/AveragePool-19", [1.5, 3.5]),
        ref(SAME, "openvino/AvgPool-1", [1.5, 3.5]),
        run(SAME, "openvino/AvgPool-1", "openvino", [1.5, 3.5]),
    ]


def test_groups_say_where_the_specs_agree_and_differ():
    page = build_page(records())
    ceil, same = (next(r for r in page.rows if r.id == name) for name in ("ceil_in_pad", "floor"))
    groups = {c: s.group for c, s in ceil.semantics.items()}
    assert groups == {"ai.onnx/AveragePool-19": "A", "openvino/AvgPool-1": "A", "ai.onnx/AveragePool-22": "B",
                      "onednn/AvgPool-1": "C"}
    assert [g.columns for g in ceil.groups] == [["ai.onnx/AveragePool-19", "openvino/AvgPool-1"],
                                                ["ai.onnx/AveragePool-22"], ["onednn/AvgPool-1"]]
    assert not ceil.agree and same.agree and len(same.groups) == 1
    assert ceil.missing == {"ai.onnx/AveragePool-7": "AveragePool-7 has no ceil rounding (it has floor)"}
    assert page.columns["avg"] == ["ai.onnx/AveragePool-7", "ai.onnx/AveragePool-19", "ai.onnx/AveragePool-22",
                                   "onednn/AvgPool-1", "openvino/AvgPool-1"]


def test_each_runtime_follows_the_reading_it_reproduces():
    ceil = next(r for r in build_page(records()).rows if r.id == "ceil_in_pad")
    follows = {(c, b): runs[0].follows for (c, b), runs in ceil.runs.items()}
    assert follows[("ai.onnx/AveragePool-19", "onnxruntime")] == "B"  # ONNX 19's case, ONNX 22's reading
    assert follows[("ai.onnx/AveragePool-22", "onnxruntime")] == "B"
    assert follows[("openvino/AvgPool-1", "openvino")] == "A"  # within the threshold; NaN where unspecified
    assert follows[("onednn/AvgPool-1", "onednn")] == ""
    assert follows[("onednn/AvgPool-1", "onnxruntime")] == ""


class _Cells(HTMLParser):
    """(row, column) -> data-group of every spec cell; row -> tr class; every chip's text."""

    def __init__(self) -> None:
        super().__init__()
        self.row, self.groups, self.rows, self.missing, self.chips, self._chip = "", {}, {}, {}, [], False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "tr" and "data-row" in a:
            self.row = a["data-row"]
            self.rows[self.row] = a["class"]
        elif tag == "td" and "data-col" in a and self.row:
            if "data-group" in a:
                self.groups[(self.row, a["data-col"])] = a["data-group"]
            elif "nx" in a.get("class", ""):
                self.missing[(self.row, a["data-col"])] = a["title"]
        self._chip = tag == "a" and "chip" in a.get("class", "") and bool(self.row)

    def handle_data(self, data):
        if self._chip:
            self.chips.append(data)
            self._chip = False

    def handle_endtag(self, tag):
        if tag == "tbody":
            self.row = ""


def test_page_cells_show_the_groups():
    html = render_cross_spec(records())
    cells = _Cells()
    cells.feed(html)
    assert cells.groups[("avg/ceil_in_pad", "ai.onnx/AveragePool-19")] == "A"
    assert cells.groups[("avg/ceil_in_pad", "openvino/AvgPool-1")] == "A"
    assert cells.groups[("avg/ceil_in_pad", "ai.onnx/AveragePool-22")] == "B"
    assert cells.groups[("avg/ceil_in_pad", "onednn/AvgPool-1")] == "C"
    assert cells.groups[("avg/floor", "ai.onnx/AveragePool-19")] == cells.groups[("avg/floor", "openvino/AvgPool-1")]
    assert cells.rows == {"avg/ceil_in_pad": "differ", "avg/floor": "agree"}
    assert "no ceil rounding" in cells.missing[("avg/ceil_in_pad", "ai.onnx/AveragePool-7")]
    assert "onnxruntime → B" in cells.chips and "onednn ≠" in cells.chips
    assert "n/a: onnxruntime" in html  # unsupported runs are one muted line
    assert "[1.5, 3.5, U]" in html and "the specs differ on 1" in html


def test_no_configuration_records_no_page_and_strings_are_escaped():
    assert render_cross_spec([ResultRecord(id="x[float32]", op="A", domain="ai.onnx", version=1,
                                           dtype="float32", backend="b")]) is None
    hostile = dict(CEIL, id=XSS, description=XSS, reason=XSS, inexpressible={"ai.onnx/AveragePool-7": XSS})
    html = render_cross_spec([ref(hostile, "ai.onnx/AveragePool-19", [1.0]),
                              run(hostile, "ai.onnx/AveragePool-19", "onnxruntime", [1.0], reason=XSS)])
    assert XSS not in html and "&lt;script&gt;" in html
    assert "<script" not in html  # the page has no script at all


def test_build_reports_writes_the_page_beside_index(tmp_path):
    write_records(tmp_path / "r.jsonl", records())
    summary = build_reports([tmp_path / "r.jsonl"], tmp_path / "out")
    assert summary.cross_spec == tmp_path / "out" / "cross-spec.html" and summary.cross_spec.is_file()
    assert 'href="cross-spec.html"' in summary.html.read_text(encoding="utf-8")
    link = re.search(r'href="(index\.html#[^"]+)"', summary.cross_spec.read_text(encoding="utf-8"))
    assert link and "backend=" in link.group(1) and "open=1" in link.group(1)
    write_records(tmp_path / "plain.jsonl", [ResultRecord(id="x[f]", op="A", domain="d", version=1, dtype="f",
                                                          backend="b", status="pass")])
    again = build_reports([tmp_path / "plain.jsonl"], tmp_path / "out")
    assert again.cross_spec is None and not (tmp_path / "out" / "cross-spec.html").exists()


def test_each_family_gets_its_own_section_in_page_order():
    lp = {"id": "ceil_in_pad", "family": "lp", "p": 2, "description": "lp x[1, 1, 4], p=2", "reason": "L2",
          "inexpressible": {"ai.onnx/GlobalLpPool-7": "GlobalLpPool's one window is the whole unpadded input"}}
    mx = {**SAME, "family": "max"}
    html = render_cross_spec([ref(lp, "ai.onnx/LpPool-18", [5 ** 0.5, 5.0, 0.0]), ref(lp, "ai.onnx/LpPool-22",
                              [5 ** 0.5, 5.0]), ref(mx, "onednn/MaxPool-1", [2.0, 4.0]),
                              ref(SAME, "ai.onnx/AveragePool-19", [1.5, 3.5])]) or ""
    sections = re.findall(r'<section id="fam-(\w+)"><h2>([^<]+)<small>([^<]+)</small>', html)
    assert [(f, name.strip()) for f, name, _ in sections] == [
        ("avg", "average pooling"), ("max", "max pooling"), ("lp", "Lp pooling")]
    assert "1 configurations, the specs differ on 1" in sections[2][2]  # 18 keeps the window, 22 drops it
    assert "cannot express" in html and "GlobalLpPool-7" in html
    assert not re.search(r'(?:src|href)="(?:https?:)?//', html) and "<script" not in html  # self-contained
