"""``wraps:`` (conformance/expectations/wrapping.py): a backend that wraps another runtime takes on that runtime's
shipped expectations once, instead of copying them: each entry holds for the wrapping backend's items (its id, glob
or match renamed), names the wrapped list's FILE:LINE in the record, pins what it pinned, yields to the file's own
entries, and not for the items ``except:`` lists."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from shipped_stand_in import stand_in

from conformance.expectations import Expectations, ExpectationsError, load_file
from conformance.expectations.files import read_file
from conformance.expectations.grouping import unreviewed
from conformance.records import ResultRecord, split_item_id

#: the wrapped runtime's shipped list, as the harness ships one (a fake: the real one changes with every release)
WRAPPED = textwrap.dedent("""\
    entries:
    - id: ai.onnx/AveragePool-19/auto_pad::onnxruntime[float32]
      reason: computes SAME_UPPER with the padding on the wrong side
      status: fail
    - glob: ai.onnx/AveragePool-1/*::onnxruntime[float16]
      reason: inserts a Cast its own checker refuses
      signature: rejected InvalidGraph
    - match:
        backend: onnxruntime
        op: MaxPool
        case: [inf_pads, inf_values]
      reason: returns lowest() where the spec wants -inf
      status: fail
    - id: ai.onnx/MaxPool-12/accepts_bad::onnxruntime[float32]
      reason: accepts an invalid model
      isa: ">=avx512_core"
    """)
MINE = "backend: acme\nwraps: onnxruntime\nentries:\n  - id: ai.onnx/AveragePool-22/own_bug::acme[float32]\n" \
       "    reason: Acme's own (ACME-1)\n"


@pytest.fixture()
def wrapped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The fake list stands in for the shipped ``expectations/onnxruntime.yaml``."""
    return stand_in(tmp_path, monkeypatch, WRAPPED)


def write(tmp_path: Path, text: str, name: str = "acme.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def record(item: str, status: str = "fail", reason: str = "y: values differ", op: str = "AveragePool",
           isa: str = "") -> ResultRecord:
    instance, backend = split_item_id(item)
    domain, rest = instance.split("/", 1)
    version = int(rest.split("/", 1)[0].rsplit("-", 1)[1])
    return ResultRecord(id=instance, op=op, domain=domain, version=version, dtype="float32", backend=backend,
                        backend_version="1.0", status=status, reason=reason, isa=isa)


def test_each_wrapped_entry_holds_for_the_wrapping_backend_renamed(tmp_path: Path, wrapped: Path):
    read = read_file(write(tmp_path, MINE))
    assert read.backend == "acme" and [e.id for e in read.entries] == ["ai.onnx/AveragePool-22/own_bug::acme[float32]"]
    assert [e.key for e in read.wrapped] == [
        "ai.onnx/AveragePool-19/auto_pad::acme[float32]",
        "glob:ai.onnx/AveragePool-1/*::acme[float16]",
        'match:{"backend":"acme","op":"MaxPool","case":["inf_pads","inf_values"]}',
        "ai.onnx/MaxPool-12/accepts_bad::acme[float32]",
    ]
    first = read.wrapped[0]
    assert (first.file, first.line, first.reason, first.status) == (str(wrapped), 2, WRAPPED.split("reason: ")[1]
                                                                     .split("\n")[0], "fail")
    assert first.where == "onnxruntime.yaml:2, wrapped by acme.yaml:2"
    assert read.wrapped[3].isa == ">=avx512_core"  # the machine's conditions are the same machine's
    # load_file gives both, the file's own first (they win among entries of one rank)
    assert [e.wrapped_by for e in load_file(tmp_path / "acme.yaml")] == ["", *["acme.yaml:2"] * 4]


def test_a_record_of_the_wrapping_backend_is_xfail_naming_the_wrapped_line(tmp_path: Path, wrapped: Path):
    book = Expectations.load([write(tmp_path, MINE)])
    held = book.apply(record("ai.onnx/AveragePool-19/auto_pad::acme[float32]"))
    assert held.status == "xfail" and "onnxruntime.yaml:2, wrapped by acme.yaml:2" in held.expectation
    assert "padding on the wrong side" in held.reason
    by_match = book.apply(record("ai.onnx/MaxPool-22/inf_values::acme[float32]", op="MaxPool"))
    assert by_match.status == "xfail" and "onnxruntime.yaml:8, wrapped" in by_match.expectation
    # the wrapped runtime's own column is not the file's backend: nothing of the file holds for it
    assert book.apply(record("ai.onnx/AveragePool-19/auto_pad::onnxruntime[float32]")).status == "fail"
    # nor for another case of the op
    assert book.apply(record("ai.onnx/MaxPool-22/other::acme[float32]", op="MaxPool")).status == "fail"
    # what the wrapped entry pins is held to: another exception is a changed failure, not onnxruntime's known one
    same = book.apply(record("ai.onnx/AveragePool-1/x::acme[float16]", "error", "rejected: InvalidGraph: bad Cast"))
    other = book.apply(record("ai.onnx/AveragePool-1/x::acme[float16]", "error", "rejected: Fail: other"))
    assert same.status == "xfail" and other.status == "error" and other.reason.startswith("changed failure: ")
    # a pass of an item the wrapped list expects to fail is an unexpected pass, as for any entry
    assert book.apply(record("ai.onnx/AveragePool-19/auto_pad::acme[float32]", "pass", "")).status == "xpass"


def test_the_files_own_entry_wins_over_a_wrapped_one_for_the_same_item(tmp_path: Path, wrapped: Path):
    text = MINE + "  - id: ai.onnx/AveragePool-19/auto_pad::acme[float32]\n    reason: Acme's, not onnxruntime's\n" \
                  "    status: error\n"
    book = Expectations.load([write(tmp_path, text)])  # no "shadowed" refusal: the wrapped one yields
    held = book.apply(record("ai.onnx/AveragePool-19/auto_pad::acme[float32]", "error", "rejected: Fail: x"))
    assert held.status == "xfail" and "Acme's, not onnxruntime's" in held.reason and "wrapped" not in held.expectation


def test_except_lists_the_items_the_wrapping_backend_does_not_share(tmp_path: Path, wrapped: Path):
    text = MINE.replace("wraps: onnxruntime\n", "wraps:\n  backend: onnxruntime\n  except:\n"
                        "  - ai.onnx/AveragePool-19/auto_pad::acme[float32]\n  - ai.onnx/MaxPool-1/inf_*::acme[*]\n")
    read = read_file(write(tmp_path, text))
    assert read.wraps is not None and len(read.wraps.exceptions) == 2
    assert "ai.onnx/AveragePool-19/auto_pad::acme[float32]" not in {e.id for e in read.wrapped}  # id: left out
    book = Expectations.load([tmp_path / "acme.yaml"])
    # no wrapped entry holds for them: a pass is a pass, a failure a new failure
    assert book.apply(record("ai.onnx/AveragePool-19/auto_pad::acme[float32]", "pass", "")).status == "pass"
    assert book.apply(record("ai.onnx/MaxPool-1/inf_pads::acme[float32]", op="MaxPool")).status == "fail"
    # the match: entry still holds for its items the list does not name
    assert book.apply(record("ai.onnx/MaxPool-12/inf_pads::acme[float32]", op="MaxPool")).status == "xfail"


def test_wrapped_entries_are_never_stale_nor_unreviewed(tmp_path: Path, wrapped: Path):
    wrapped.write_text(WRAPPED.replace("reason: accepts", "reason: TODO accepts"))
    book = Expectations.load([write(tmp_path, MINE)])
    only = record("ai.onnx/AveragePool-22/own_bug::acme[float32]")
    assert book.stale([only.expectation_id], [only]) == []
    assert unreviewed(book.entries) == []


def test_version_ranges_are_the_wrapped_runtimes_and_need_its_version(tmp_path: Path, wrapped: Path):
    wrapped.write_text(WRAPPED + "- id: ai.onnx/MaxPool-12/old::onnxruntime[float32]\n  reason: fixed in 1.20\n"
                                 "  versions: <1.20\n- id: ai.onnx/MaxPool-12/new::onnxruntime[float32]\n"
                                 "  reason: since 1.20\n  versions: '>=1.20'\n")
    with pytest.raises(ExpectationsError, match=r"acme.yaml:2: wraps: onnxruntime: its entry at onnxruntime.yaml:"
                                                r"\d+ holds for onnxruntime versions '<1.20' only"):
        read_file(write(tmp_path, MINE))
    pinned = MINE.replace("wraps: onnxruntime", 'wraps: {backend: onnxruntime, version: "1.22.1"}')
    taken = {e.id: e for e in read_file(write(tmp_path, pinned)).wrapped if e.id}
    assert "ai.onnx/MaxPool-12/new::acme[float32]" in taken and "ai.onnx/MaxPool-12/old::acme[float32]" not in taken
    assert taken["ai.onnx/MaxPool-12/new::acme[float32]"].versions == ""  # acme's records carry acme's version


@pytest.mark.parametrize("text, message", [
    ("wraps: onnxruntime\nentries: []\n", "wraps: needs backend: beside it"),
    ("backend: acme\nwraps: tract-ish\nentries: []\n", "no shipped expectations/tract-ish.yaml"),
    ("backend: acme\nwraps: acme\nentries: []\n", "names the file's own backend"),
    ("backend: acme\nwraps: {backend: onnxruntime, except: ['ai.onnx/MaxPool-1/x::onnxruntime[float32]']}\n",
     "is not an item id of acme"),
    ("backend: acme\nwraps: {backend: onnxruntime, version: 1.2}\n", "version is a version string"),
    ("backend: 'no spaces'\nwraps: onnxruntime\n", "backend: 'no spaces' is not a valid backend name"),
])
def test_a_wraps_that_cannot_hold_is_refused_naming_the_file(tmp_path: Path, wrapped: Path, text: str, message: str):
    with pytest.raises(ExpectationsError, match=message) as refused:
        load_file(write(tmp_path, text))
    assert "acme.yaml" in str(refused.value)
