"""Comparing runs of the same items (conformance verify): what counts as the same outcome, and what does not."""

from __future__ import annotations

import json

from report_records import rec

from conformance.report.stability import compare_runs


def _pair(**changes):
    base = dict(max_abs_err=1e-3, max_ulp=3.0, mismatches=0, actual_shape=[1, 1, 2, 2], actual_dtype="float32",
                outcome="pass", reason="fine", runtime_s=0.01)
    first = rec("AveragePool", 22, "c", "float32", "openvino", "pass", **base)
    second = rec("AveragePool", 22, "c", "float32", "openvino", changes.pop("status", "pass"), **{**base, **changes})
    return compare_runs([("a", [first]), ("b", [second])])


def test_identical_runs_are_stable_whatever_their_timings_and_texts():
    stability = _pair(runtime_s=9.0, reason="another pid in the crash text")
    assert stability.items == 1 and stability.unstable == [] and "0 unstable" in stability.text()


def test_a_status_change_is_reported_with_both_outcomes_and_their_runs():
    stability = _pair(status="fail", outcome="fail", mismatches=2, reason="2 of 4 elements outside tolerance")
    (item,) = stability.unstable
    assert [seen["runs"] for seen in item.seen] == [["a"], ["b"]]
    assert item.seen[0]["outcome"].startswith("pass") and item.seen[1]["outcome"].startswith("fail")
    assert "2 of 4 elements" in stability.text() and "UNSTABLE" in stability.text()
    assert json.loads(stability.to_json())["unstable"][0]["backend"] == "openvino"


def test_a_value_change_under_the_same_status_is_unstable():
    assert len(_pair(max_abs_err=2e-3).unstable) == 1
    assert len(_pair(max_ulp=4.0).unstable) == 1
    assert len(_pair(actual_shape=[1, 1, 3, 3]).unstable) == 1
    assert len(_pair(outputs=[{"name": "Y", "ok": True, "max_abs_err": 5e-4}]).unstable) == 1


def test_an_item_one_run_lacks_is_counted_not_called_unstable():
    one = rec("AveragePool", 22, "c", "float32", "openvino", "pass")
    other = rec("AveragePool", 22, "d", "float32", "openvino", "pass")
    stability = compare_runs([("a", [one, other]), ("b", [one])])
    assert stability.unstable == [] and stability.missing == {"a": 0, "b": 1}
    assert "run b lacks 1 items" in stability.text()


def test_isa_columns_are_items_of_their_own():
    at_avx2 = rec("MaxPool", 1, "c", "float32", "onednn", "pass", isa="avx2")
    at_avx512 = rec("MaxPool", 1, "c", "float32", "onednn", "fail", isa="avx512_core")
    assert compare_runs([("a", [at_avx2, at_avx512]), ("b", [at_avx2, at_avx512])]).unstable == []


def test_an_item_its_entry_calls_unstable_is_listed_apart_and_is_no_news():
    """verify's exit code counts the items nothing said would be unstable; an expectations entry's ``unstable:
    true`` (a runtime reading memory another item left) lists the item apart, with its outcomes."""
    first = rec("AveragePool", 22, "c", "float32", "openvino", "pass", outcome="pass", reason="passed")
    second = rec("AveragePool", 22, "c", "float32", "openvino", "xfail", outcome="fail", reason="garbage")
    said = compare_runs([("a", [first]), ("b", [second])], known=lambda record: True)
    assert said.unstable == [] and len(said.known) == 1
    assert "0 unstable; 1 more as their expectations entries say" in said.text() and "garbage" in said.text()
    assert json.loads(said.to_json())["known_unstable"][0]["backend"] == "openvino"
    unsaid = compare_runs([("a", [first]), ("b", [second])], known=lambda record: False)
    assert len(unsaid.unstable) == 1 and unsaid.known == []
