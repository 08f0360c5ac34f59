"""A record opened from its URL (issue 48): in headless chromium the page shows the linked record, open, with its
details, at the top of the page. The page used to scroll to it, and a headless --screenshot of a scrolled page is
blank; a link naming a record that is not failing opened nothing, or another record."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path
from urllib.parse import quote, urlencode

import pytest
from report_records import failing_record, realistic_records, rec
from test_report_chromium import CHROMIUM, chromium, console_lines

from conformance.records import item_id, write_records
from conformance.report import build_reports

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian chromium not installed: apt-get install chromium")

#: A known failure, so the failing statuses the list starts from do not show it: its link must still open it.
LINKED = replace(failing_record(), id="ai.onnx/AveragePool-22/linked_case[float16]", status="xfail",
                 expectation="rounding of the ceil window (ORT#1)")


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tall page (120 matrix rows above the results) with the linked record last, on two backends."""
    tmp = tmp_path_factory.mktemp("deep")
    tall = [rec("Relu", v, "x", "float32", "onnxruntime", "pass", domain=f"d{v % 7}") for v in range(120)]
    other = replace(LINKED, backend="onnxruntime", status="pass", worst=[], error_grid=None)
    write_records(tmp / "r.jsonl", realistic_records() + tall + [LINKED, other])
    return build_reports([tmp / "r.jsonl"], tmp / "out").html


def dump(page: Path, fragment: str, profile: Path) -> str:
    done = chromium(page.as_uri() + fragment, profile, "--dump-dom", "--window-size=1400,1000")
    assert done.returncode == 0, done.stderr[-2000:]
    assert console_lines(done.stderr) == [] and 'data-ready="1"' in done.stdout
    return done.stdout


def linked_records(html: str) -> list[str]:
    """The records the page shows opened from the link: each one's <details> element, whole."""
    return re.findall(r'<details class="rec linked"[^>]*>.*?</details>', html)


@pytest.mark.parametrize("fragment", [
    "#" + urlencode({"id": LINKED.id, "backend": "openvino", "open": 1}),  # the record's own link
    "#" + quote(item_id(LINKED.id, "openvino"), safe="/:[]") + "&open=1",  # an item id, as pytest shows it
    f"#{LINKED.id}::openvino&open=1",  # the instance id and its backend, typed by hand
    "#" + urlencode({"status": "xfail", "backend": "openvino", "q": LINKED.id, "open": 1}),  # filters, then open
])
def test_a_linked_record_is_open_with_its_details_at_the_top(page: Path, tmp_path: Path, fragment: str) -> None:
    html = dump(page, fragment, tmp_path / "p")
    (shown,) = linked_records(html)
    assert ' open=""' in shown.split(">", 1)[0]  # the <details> is open
    assert f'<span class="id mono">{LINKED.id}</span><span class="muted">openvino</span>' in shown
    # its details came from details/ beside the page: the worst elements, the heatmap, the repro command
    assert 'class="worst mono"' in shown and '<svg class="heat"' in shown and "conformance repro" in shown
    assert "loading details" not in shown
    # at the top of the page, before the first section, and the page is not scrolled
    assert html.index('<section id="linked">') < html.index('<section id="ship">')
    assert re.search(r"<body[^>]*data-scrolled", html) is None and 'data-linked="1"' in html
    # its own link, to share
    own = "#" + urlencode({"id": LINKED.id, "backend": "openvino", "open": 1}, quote_via=quote, safe="")
    assert f'href="{own.replace("&", "&amp;")}">link to this record</a>' in shown


def test_an_id_alone_opens_it_on_every_backend_and_an_unknown_one_is_said(page: Path, tmp_path: Path) -> None:
    shown = linked_records(dump(page, "#" + urlencode({"id": LINKED.id}), tmp_path / "p1"))
    assert [re.search(r'<span class="muted">(\w+)</span>', s).group(1) for s in shown] == ["onnxruntime", "openvino"]
    html = dump(page, "#id=ai.onnx/Nothing-1/x[float32]&open=1", tmp_path / "p2")
    assert linked_records(html) == [] and "No record ai.onnx/Nothing-1/x[float32] in this report." in html
    # a section anchor is no record: nothing opened, the list keeps the failing statuses
    html = dump(page, "#results", tmp_path / "p3")
    assert linked_records(html) == [] and re.search(r"<body[^>]*data-linked", html) is None
    assert "7 of 368 records match" in html


def test_a_linked_record_shows_in_a_headless_screenshot(page: Path, tmp_path: Path) -> None:
    """The link cross-spec.html wrote before (filters and open=1): the page scrolled ~5,000 px down to the record
    and headless chromium's screenshot came out blank (one colour, ~6 kB)."""
    shot = tmp_path / "shot.png"
    fragment = "#" + urlencode({"status": "xfail", "backend": "openvino", "q": LINKED.id, "open": 1})
    done = chromium(page.as_uri() + fragment, tmp_path / "p", f"--screenshot={shot}", "--window-size=1400,1000")
    assert console_lines(done.stderr) == []
    assert shot.exists() and shot.stat().st_size > 40_000
