"""The report's ULP figures where 0 or a subnormal is expected (issue 48: a Relu record read "ulp 6.974e+44"),
checked in Debian's chromium on records from the real comparison (tests/harness/test_ulp_figure.py has the figures
themselves)."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from test_report_chromium import CHROMIUM
from test_report_exact import dom

from conformance.compare.tolerance import Policy
from conformance.compare.values import compare
from conformance.records import ResultRecord
from conformance.report.html import write_html

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian chromium not installed: apt-get install chromium")


def relu(case: str, expected: np.ndarray, actual: np.ndarray) -> ResultRecord:
    c = compare(expected, actual, Policy(window=1, dtype="float32", model="exact"), name="Y")
    return ResultRecord(id=f"ai.onnx/Relu-14/{case}[float32]", op="Relu", domain="ai.onnx", version=14,
                        dtype="float32", backend="acme", status="fail", reason=c.reason, mismatches=c.mismatches,
                        elements=c.elements, max_abs_err=c.max_abs_err, max_rel_err=c.max_rel_err,
                        max_ulp=c.max_ulp, worst=c.worst, error_grid=c.error_grid, error_grid_at=c.grid_at,
                        expected_shape=list(expected.shape), actual_shape=list(actual.shape))


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    expected = np.zeros((2, 3), np.float32)
    zeros = expected.copy()
    zeros[1, 2] = np.float32(0.9773)  # 6.974e+44 ULPs of 0
    mixed = zeros.copy()
    expected_mixed = expected.copy()
    expected_mixed[0, 0], mixed[0, 0] = 1.0, np.nextafter(np.float32(1), np.float32(2))
    records = [relu("zero_expected", expected, zeros), relu("zero_and_one", expected_mixed, mixed)]
    return write_html(tmp_path_factory.mktemp("ulp") / "index.html", records)


def opened(page: Path, case: str, profile: Path) -> str:
    html = dom(page, f"#id=ai.onnx/Relu-14/{case}[float32]", profile)
    return re.search(r'<details class="rec linked".*?</details>', html).group(0)


def max_ulp(shown: str) -> str:
    return re.search(r"<dt>max ulp</dt><dd>(.*?)</dd>", shown).group(1)


def ulp_cells(shown: str) -> dict[str, str]:
    """index -> the worst table's ulp cell."""
    rows = re.findall(r"<tr><td>(\[[\d,]+\])</td>(.*?)</tr>", shown)
    return {index: re.findall(r"<td[^>]*>(.*?)</td>", cells)[4] for index, cells in rows}


def test_no_ulp_figure_where_zero_is_expected(page: Path, tmp_path: Path) -> None:
    shown = opened(page, "zero_expected", tmp_path / "p")
    assert "e+44" not in shown
    assert max_ulp(shown) == "— (errors only where 0 or a subnormal is expected: see max abs err)"
    assert ulp_cells(shown) == {"[1,2]": "—"}
    assert "<td>[1,2]</td><td>0</td><td>0.9773</td><td>0.9773</td>" in shown  # |err| is the figure
    assert "— where 0 or a subnormal is expected" in shown  # the legend says why


def test_the_max_ulp_of_an_output_is_its_normal_elements(page: Path, tmp_path: Path) -> None:
    shown = opened(page, "zero_and_one", tmp_path / "p")
    assert max_ulp(shown) == "1" and ulp_cells(shown) == {"[1,2]": "—", "[0,0]": "1"}
