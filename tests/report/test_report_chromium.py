"""The HTML report in a real browser: the JS runs from file:// without console errors and renders the views."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from dataclasses import replace
from pathlib import Path

import pytest
from report_records import XSS, realistic_records

from conformance.records import write_records
from conformance.report import build_reports

CHROMIUM = Path("/usr/bin/chromium")
# Screenshots are kept only where CI asks for them (tests.yml uploads that folder); tests never write into the
# repository's reports/, which belongs to the user's own `conformance run`.
ARTIFACTS_ENV = "CONFORMANCE_TEST_ARTIFACTS"
pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian chromium not installed: apt-get install chromium")


def chromium(url: str, profile: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    args = [
        str(CHROMIUM),
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        f"--user-data-dir={profile}",
        "--enable-logging=stderr",
        "--v=0",
        *extra,
        url,
    ]
    return subprocess.run(args, capture_output=True, text=True, timeout=120)


def console_lines(stderr: str) -> list[str]:
    # Chromium logs every console message (and uncaught exceptions) as ":CONSOLE" lines; the page logs nothing.
    return [line for line in stderr.splitlines() if ":CONSOLE" in line or "Uncaught" in line]


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("html")
    records = realistic_records()
    records[0] = replace(records[0], max_abs_err=float("nan"))  # non-finite numbers must survive into the page
    write_records(tmp / "r.jsonl", records)
    return build_reports([tmp / "r.jsonl"], tmp / "out", title="Pooling conformance — nightly").html


def test_dom_renders_without_console_errors(report: Path, tmp_path: Path) -> None:
    done = chromium(report.as_uri() + "#open=7", tmp_path / "profile", "--dump-dom")
    assert done.returncode == 0, done.stderr[-2000:]
    dom = done.stdout
    assert console_lines(done.stderr) == []
    assert 'data-ready="1"' in dom  # set by the script's last line: the JS ran to the end
    assert "7 of 246 records match" in dom  # failing statuses by default
    assert len(re.findall(r'<details class="rec"', dom)) == 7
    assert 'class="worst mono"' in dom and '<svg class="heat"' in dom and "<rect" in dom  # drill-down built
    assert (
        "conformance repro &apos;ai.onnx/AveragePool-22/2d_ceil_pads[float16]&apos;" in dom
        or "conformance repro 'ai.onnx/AveragePool-22/2d_ceil_pads[float16]'" in dom
    )
    assert 'class="matrix"' in dom
    # The hostile id was rendered as text by the browser, never as a tag.
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in dom and dom.count(XSS) == 0


def test_hash_filters(report: Path, tmp_path: Path) -> None:
    url = report.as_uri() + "#status=pass,unsupported&backend=onnxruntime&op=openvino/AvgPool-1"
    done = chromium(url, tmp_path / "profile", "--dump-dom")
    assert console_lines(done.stderr) == []
    assert "3 of 246 records match" in done.stdout
    done = chromium(report.as_uri() + "#status=erratum&q=ir%20snippet", tmp_path / "p2", "--dump-dom")
    assert "1 of 246 records match" in done.stdout


def test_screenshot_artifact(report: Path, tmp_path: Path) -> None:
    shot = tmp_path / "shot.png"
    # the two opened records are shown at the top of the page, never scrolled to: headless chromium's --screenshot
    # of a scrolled page is blank (test_report_deep_link.py)
    done = chromium(
        report.as_uri() + "#open=2", tmp_path / "profile", f"--screenshot={shot}", "--window-size=1400,1000"
    )
    assert console_lines(done.stderr) == []
    assert shot.exists() and shot.stat().st_size > 20_000
    # A taller one shows the failures list with two drill-downs open (worst elements, heatmap, repro).
    full = tmp_path / "full.png"
    chromium(report.as_uri() + "#open=2", tmp_path / "p2", f"--screenshot={full}",
             "--window-size=1400,2000")
    assert full.exists() and full.stat().st_size > shot.stat().st_size
    if os.environ.get(ARTIFACTS_ENV):
        keep = Path(os.environ[ARTIFACTS_ENV])
        keep.mkdir(parents=True, exist_ok=True)
        shutil.copy(shot, keep / "report-screenshot.png")
        shutil.copy(full, keep / "report-screenshot-full.png")


def test_details_load_when_a_record_opens_and_a_missing_or_foreign_file_is_said(tmp_path: Path) -> None:
    """The page carries summaries; a record's details come from details/ beside it, or the record says why not."""
    records = realistic_records()
    write_records(tmp_path / "r.jsonl", records)
    page = build_reports([tmp_path / "r.jsonl"], tmp_path / "out").html
    (chunk,) = (page.parent / "details").iterdir()  # 246 records: one file
    island = page.read_text().split('id="report-data">')[1].split("</script>")[0]
    assert '"worst"' not in island and "repro" not in island  # no drill-down data in the page itself
    done = chromium(page.as_uri() + "#open=2", tmp_path / "p1", "--dump-dom")
    assert console_lines(done.stderr) == [] and 'class="worst mono"' in done.stdout
    # another report's file in its place: refused by its token
    other = realistic_records()[:5]
    write_records(tmp_path / "o.jsonl", other)
    foreign = build_reports([tmp_path / "o.jsonl"], tmp_path / "other").html.parent / "details" / chunk.name
    chunk.write_bytes(foreign.read_bytes())
    done = chromium(page.as_uri() + "#open=2", tmp_path / "p2", "--dump-dom")
    assert "details/records-0000.js belongs to another report" in done.stdout
    assert 'class="worst mono"' not in done.stdout
    chunk.unlink()
    done = chromium(page.as_uri() + "#open=2", tmp_path / "p3", "--dump-dom")
    assert "cannot read details/records-0000.js beside this page" in done.stdout
    assert 'data-ready="1"' in done.stdout
