"""Real oneDNN through the isolation: a case that aborts libdnnl becomes one `crash` record, the run goes on."""

from __future__ import annotations

import json
import textwrap

import pytest
from isolation_helpers import alive, make_instance

from conformance.backends.isolation import isolated_backend
from conformance.pipeline import runner


@pytest.fixture(scope="module")
def onednn():
    from conformance.backends.onednn import graph_api
    from conformance.backends.onednn.backend import OneDnnBackend

    try:
        graph_api.version()
    except OSError as e:
        pytest.skip(f"libdnnl.so.3 cannot be loaded: {e}")
    backend = isolated_backend.wrap(OneDnnBackend(), "onednn", "auto", 60)
    assert isinstance(backend, isolated_backend.IsolatedBackend)
    yield backend
    pid = backend.pid
    backend.close()
    assert pid is None or not alive(pid)


def avg_pool(case_id: str, kernel: list[int], expect_error: bool = False):
    attributes = dict(kernel=kernel, strides=[1, 1], pads_begin=[0, 0], pads_end=[0, 0], exclude_pad=True,
                      rounding_type="floor", data_format="NXC")
    return make_instance(case_id, attributes, expect_error=expect_error, domain="onednn", op="AvgPool", version=1,
                         shape=(1, 5, 5, 1), in_name="src", out_name="dst")


def test_abort_is_a_crash_and_the_next_case_passes(onednn):
    first = runner.run_backend(avg_pool("valid", [2, 2]), onednn)
    assert first.status == "pass", first.reason
    crashed = runner.run_backend(avg_pool("kernel_0", [0, 2], expect_error=True), onednn)
    assert crashed.status == "crash"
    assert crashed.reason.startswith("worker died: signal SIGABRT (-6)")
    assert "dnnl::error" in crashed.reason  # the library's own last words, from the worker's log tail
    after = runner.run_backend(avg_pool("valid_again", [3, 2]), onednn)
    assert after.status == "pass", after.reason
    assert after.actual_shape == [1, 3, 4, 1] and after.backend_version == first.backend_version


PLUGIN_CASES = textwrap.dedent("""\
    op: AvgPool
    domain: onednn
    version: 1
    cases:
      - id: kernel_0
        source: edge
        expect: error
        attributes: {kernel: [0, 2], strides: [1, 1], pads_begin: [0, 0], pads_end: [0, 0], exclude_pad: true}
        inputs:
          src: {shape: [1, 5, 5, 1], dtype: float32, arange: {start: 1}}
      - id: valid
        source: edge
        attributes: {kernel: [2, 2], strides: [1, 1], pads_begin: [0, 0], pads_end: [0, 0], exclude_pad: true}
        inputs:
          src: {shape: [1, 5, 5, 1], dtype: float32, arange: {start: 1}}
""")


def test_plugin_records_crash_and_timeout_options(onednn, pytester: pytest.Pytester):
    pytester.makefile(".yaml", avgpool=PLUGIN_CASES)
    out = pytester.path / "out.jsonl"
    result = pytester.runpytest_subprocess("--no-default-cases", "--no-reference", "--cases", ".",
                                           "--backend=onednn", "--case-timeout=30", f"--results={out}")
    records = {r["id"].split("/")[-1]: r for r in map(json.loads, out.read_text().splitlines()) if "meta" not in r}
    assert records["kernel_0[float32]"]["status"] == "crash", records
    assert records["kernel_0[float32]"]["reason"].startswith("worker died: signal SIGABRT (-6)")
    assert records["valid[float32]"]["status"] == "pass"
    result.assert_outcomes(passed=1, failed=1)
