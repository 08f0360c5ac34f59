"""The report shows small errors exactly (issue 35, item 8), checked in Debian's chromium: worst values with every
digit and their ULPs, the heatmap of the worst element's slice, the failing output in the summary, and a fragment
that scrolls to what it selects. The records come from the real comparison (compare/), not hand-written."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from report_records import rec
from test_report_chromium import CHROMIUM, chromium, console_lines

from conformance.compare.indices import compare_indices
from conformance.compare.tolerance import Policy
from conformance.compare.values import compare
from conformance.records import ResultRecord
from conformance.report.html import write_html

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian chromium not installed: apt-get install chromium")


def one_ulp_record() -> ResultRecord:
    expected = np.full((1, 1, 2, 3), 0.1, np.float32)
    actual = expected.copy()
    actual[0, 0, 1, 2] = np.nextafter(np.float32(0.1), np.float32(1))  # 0.10000001: num() printed 0.1 for both
    c = compare(expected, actual, Policy(window=1, dtype="float32", model="exact"))
    return rec("Relu", 14, "exact_one_ulp", "float32", "openvino", "fail", reason=c.reason, worst=c.worst,
               error_grid=c.error_grid, error_grid_at=c.grid_at, mismatches=c.mismatches, elements=c.elements,
               max_ulp=c.max_ulp)


def far_slice_record() -> ResultRecord:
    expected = np.zeros((1, 3, 40, 30), np.float32)
    actual = expected.copy()
    actual[0, 2, 29, 19] = 0.5  # the worst element, far from the first slice's first 24x24
    actual[0, 0, 0, 0] = 1e-3
    c = compare(expected, actual, Policy(window=1, dtype="float32"))
    return rec("AveragePool", 22, "exact_far_slice", "float32", "openvino", "fail", reason=c.reason, worst=c.worst,
               error_grid=c.error_grid, error_grid_at=c.grid_at, mismatches=c.mismatches, elements=c.elements)


def indices_record() -> ResultRecord:
    values = np.arange(8, dtype=np.float32).reshape(1, 1, 2, 4)
    want = np.arange(8, dtype=np.int64).reshape(1, 1, 2, 4)
    got = want.copy()
    got[0, 0, 1, 3] = 0
    y = compare(values, values.copy(), Policy(window=4, dtype="float32", model="exact"), name="Y")
    i = compare_indices(want, got, None, None, name="Indices")
    entry = [{"name": n, "error_model": m, "ok": c.ok, "reason": c.reason, "max_abs_err": c.max_abs_err,
              "mismatches": c.mismatches, "elements": c.elements, "tolerance": t, "worst": c.worst,
              "error_grid": c.error_grid, "error_grid_at": c.grid_at}
             for n, m, t, c in (("Y", "exact", "exact (float32)", y), ("Indices", "index", "index", i))]
    # the top-level figures are output 0's (the record contract): a clean values output
    return rec("MaxPool", 22, "exact_indices_only", "float32", "openvino", "fail", reason=i.reason, outputs=entry,
               max_abs_err=0.0, mismatches=0, elements=8, worst=i.worst, error_grid=i.error_grid,
               error_grid_at=i.grid_at, expected_shape=[1, 1, 2, 4], actual_shape=[1, 1, 2, 4])


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    records = [one_ulp_record(), far_slice_record(), indices_record()]
    records += [rec("Relu", 14, f"pass{n}", "float32", "openvino", "pass") for n in range(60)]  # a tall page
    return write_html(tmp_path_factory.mktemp("exact") / "index.html", records)


def dom(page: Path, fragment: str, profile: Path) -> str:
    done = chromium(page.as_uri() + fragment, profile, "--dump-dom", "--window-size=1200,700")
    assert done.returncode == 0, done.stderr[-2000:]
    assert console_lines(done.stderr) == []
    assert 'data-ready="1"' in done.stdout
    return done.stdout


def test_small_errors_read_exactly(page: Path, tmp_path: Path) -> None:
    html = dom(page, "#status=fail&q=exact_&open=3", tmp_path / "p")
    # the 1-ULP element: the expected and actual values differ on the page, with their ULP distance
    assert "<td>[0,0,1,2]</td><td>0.1</td><td>0.10000001</td>" in html
    row = re.search(r"<td>\[0,0,1,2\]</td>(.*?)</tr>", html).group(1)
    assert re.findall(r"<td>(.*?)</td>", row)[4] == "1"  # the ulp column
    # the heatmap is the worst element's slice, the window around it, with the element outlined
    assert "Error heatmap of slice [0,2,:,:], rows 16–39, columns 6–29 of 40×30" in html
    assert "worst element [0,2,29,19] outlined" in html and 'class="worst-cell"' in html
    assert "<title>[0,2,29,19] |err|/allowed = " in html
    assert "[0,0,:,:]: 1 mismatch(es)" in html and "[0,2,:,:]: 1 mismatch(es) (shown)" in html
    # the summary names the failing output and shows its figures, not the clean values output's
    summary = re.search(r'<div class="out-sum">(.*?)</dl></div>', html.split("exact_indices_only")[1]).group(1)
    assert "Output Indices (fails; output 2 of 2)" in summary and "shape of Y" in summary
    assert "<dd class=\"mismatch\">1 / 8 (12.5%)</dd>" in summary


@pytest.mark.parametrize("fragment", ["#status=fail", "#op=ai.onnx/Relu-14&status=pass"])
def test_a_filter_fragment_scrolls_to_the_results(page: Path, tmp_path: Path, fragment: str) -> None:
    html = dom(page, fragment, tmp_path / "p")
    scrolled = re.search(r'<body[^>]*data-scrolled="(\d+)"', html)
    assert scrolled is not None and int(scrolled.group(1)) > 200  # below the header and the matrix


@pytest.mark.parametrize("fragment", ["", "#results", "#open=2&scroll=0", "#status=fail&open=1"])
def test_no_scroll_without_a_filter_nor_to_opened_records(page: Path, tmp_path: Path, fragment: str) -> None:
    """Records a link opens are shown at the top of the page (test_report_deep_link.py): nothing to scroll to."""
    html = dom(page, fragment, tmp_path / "p")
    assert re.search(r"<body[^>]*data-scrolled", html) is None
    assert ('data-linked="' in html) == ("open=" in fragment)
