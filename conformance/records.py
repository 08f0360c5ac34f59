"""Result records: one JSON object per case instance × backend (docs/reports.md).

Reports read records only. The identifying fields (id to status) are always present; the extra fields carry what a
report needs to explain a failure without re-running anything.
"""

from __future__ import annotations

import functools
import gzip
import json
import math
import re
from collections.abc import Callable, Container, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import IO, Any

#: ``skipped``: an expectations entry does not run the item (``skip: hangs``); never a pass (docs/ci-gate.md)
STATUSES = ("pass", "fail", "error", "crash", "timeout", "unsupported", "xfail", "xpass", "erratum", "skipped")
#: Statuses that make a run red (an ``xpass`` is an unexpected pass: strict xfail).
FAILING = frozenset({"fail", "error", "crash", "timeout", "xpass"})
SCHEMA = 1


@dataclass(frozen=True)
class ResultRecord:
    """Built once, from everything its run decided, and never changed after: a step that decides more (the
    expectations, a rejudge) makes a new record (``dataclasses.replace``), so a record another holds (a report's
    parsed lines, an item's written line) always says what it said when made."""

    id: str  # case instance id, e.g. "ai.onnx/AveragePool-22/2d_ceil[float32]"
    op: str
    domain: str
    version: int
    dtype: str
    backend: str
    backend_version: str = ""
    #: the ISA level the backend's kernels ran at (conformance/machine.py LEVELS; the runtime's own report where it
    #: gives one, e.g. oneDNN's effective ISA under a cap), "" for a backend whose kernels do not depend on it
    isa: str = ""
    #: the inference precision the runtime ran at where it chooses one (OpenVINO's INFERENCE_PRECISION_HINT: f32,
    #: bf16, f16), "" for a runtime that computes in the model's own types
    precision: str = ""
    status: str = "error"
    reason: str = ""
    expected_shape: list[int] | None = None
    actual_shape: list[int] | None = None
    expected_dtype: str | None = None
    actual_dtype: str | None = None
    max_abs_err: float | None = None
    max_rel_err: float | None = None
    max_ulp: float | None = None
    mismatches: int | None = None
    elements: int | None = None
    tolerance: str = ""  # human-readable policy, e.g. "bound=(K+2)*u*avg|x|, K=9, u=2^-24"
    duration_s: float = 0.0
    #: of duration_s, the seconds inside the backend's ``run`` (building and running the model; an isolated
    #: backend's round trip included): the rest is the harness's (reference, comparison, record)
    runtime_s: float = 0.0
    source: str = ""
    # extras (compatible extension of the contract)
    layout: str | None = None
    attributes: dict[str, Any] = field(default_factory=dict)
    input_shapes: list[list[int]] = field(default_factory=list)
    tags: list[str] = field(default_factory=list)
    case_file: str = ""
    nodeid: str = ""  # the pytest node id, for reproduction
    worst: list[dict[str, Any]] = field(default_factory=list)  # [{index, expected, actual, abs_err, allowed, ulp}]
    error_grid: list[list[float]] | None = None  # |error|/allowed of a 2-D output slice, for a heatmap
    #: which slice and window error_grid is: {slice, rows, cols, plane, worst, mismatches, in_window, slices,
    #: slices_total} (compare/heatmap.py); None in records of older runs (their grid: the first slice, pooled)
    error_grid_at: dict[str, Any] | None = None
    unspecified: int = 0  # elements the spec leaves undefined (not compared)
    #: per output, when an op has several (or index ties were accepted): {name, error_model, ok, reason,
    #: max_abs_err, max_rel_err, max_ulp, mismatches, elements, unspecified, ties, tolerance, worst, error_grid,
    #: error_grid_at}
    outputs: list[dict[str, Any]] = field(default_factory=list)
    lowered: str = ""  # how a cross-spec lowering ran the case, if it did
    expectation: str = ""  # reason of the expectations entry that applied, if any
    #: judged with a bound an expectations entry widened (``tolerance: {scale: N}``): {scale, entry: its FILE:LINE,
    #: without: the status the op's own bound gives (once compared)}; {} for every other record
    widened: dict[str, Any] = field(default_factory=dict)
    #: the status before expectations were applied ("" in records of older runs): a results file can be judged
    #: again against other expectations without the machine that produced it (conformance report --rejudge)
    outcome: str = ""
    repro: str = ""  # the pytest command that runs this item again, from the folder the run started in
    #: ``conformance repro ...`` for a failing or xfail record: a standalone reproduction from any folder of an
    #: install with the backend registered ("" where only the pytest command can: a ``module:Class`` plugin)
    reproduce: str = ""
    #: cases generated from a spec-neutral configuration (cases/cross-spec/) only: the configuration, and the
    #: first output's values (NCX order, flattened; None where the spec leaves the value unspecified) of the
    #: reference and of the backend, for the cross-spec page
    configuration: dict[str, Any] = field(default_factory=dict)
    reference_values: list[float | None] | None = None
    actual_values: list[float | None] | None = None

    @property
    def item_id(self) -> str:
        return item_id(self.id, self.backend)

    @property
    def expectation_id(self) -> str:
        """The item id expectations entries match: an ISA column (``onednn@avx2``) answers to its backend's entries,
        its level is matched by their ``isa:`` condition."""
        return item_id(self.id, base_backend(self.backend))

    def to_json(self) -> str:
        """The record's line in a results file: strict JSON that ``read_records`` accepts. Never raises: a record
        holding a field its reader would refuse (or JSON cannot hold) is written as the ``error`` record
        ``written`` makes in its place, naming the field."""
        return written(self)[1]

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ResultRecord:
        known = _field_names(cls)
        return cls(**{**identity_from_id(data), **{k: v for k, v in data.items() if k in known}})


@functools.cache  # fields() per record was a sixth of reading a results file back; a class's fields never change
def _field_names(cls: type) -> frozenset[str]:
    """The field names of a record class (from_dict): a pure function of the class."""
    return frozenset(f.name for f in fields(cls))


def written(record: ResultRecord) -> tuple[ResultRecord, str]:
    """(the record as its reader will see it, its line): ``record`` itself, or, when a field cannot be written as
    ``read_records`` accepts it (an object JSON cannot hold, a wrong type, NaN seconds), an ``error`` record in
    its place naming the field and value. A record always costs its own result, never the run (an INTERNALERROR
    lost every backend's records) nor the file (a line its reader refuses made the whole file unreadable)."""
    data = {name: getattr(record, name) for name in _FIELD_NAMES}
    try:
        # not dataclasses.asdict: it deep-copies every nested list and dict first (a third of the plugin's
        # per-item cost)
        try:  # most records hold no NaN/inf: then there is nothing for finite() to replace
            line = json.dumps(data, allow_nan=False, separators=(",", ":"))
        except ValueError:
            data = _finite(data)
            line = json.dumps(data, separators=(",", ":"))
        try:  # the written values pass whenever these do (a tuple, written as a list, fails only here)
            check_types(data)
        except TypeError:
            check_types(json.loads(line))
        return record, line
    except Exception as exc:  # TypeError, ValueError, RecursionError: whatever the field, one error record
        replacement = _unwritable(record, exc)
        return replacement, json.dumps({name: getattr(replacement, name) for name in _FIELD_NAMES},
                                       separators=(",", ":"))


_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")


def _unwritable(record: ResultRecord, exc: Exception) -> ResultRecord:
    """The error record written in place of one that cannot be: its identity where it has the right type (a shown
    value where not), the status ``error`` and which field held what."""
    def shown(value: object) -> str:
        # no memory address (<object object at 0x7f...>): the same slip makes the same record on every run
        text = value if type(value) is str else _ADDRESS.sub("", f"{type(value).__name__} {value!r}")
        return text if len(text) <= 300 else text[:297] + "..."

    problem = f"{type(exc).__name__}: {exc}"
    if not isinstance(exc, TypeError) or "field " not in str(exc):  # a value JSON cannot hold: find its field
        for name in _FIELD_NAMES:
            try:
                json.dumps(_finite(getattr(record, name)))
            except Exception as inner:
                problem = f"field {name!r} holds {shown(getattr(record, name))}: {type(inner).__name__}: {inner}"
                break
    identity = {name: shown(getattr(record, name, "")) for name in ("id", "op", "domain", "dtype", "backend",
                                                                     "backend_version", "isa", "case_file",
                                                                     "nodeid", "repro", "source")}
    version = record.version if type(record.version) is int else 0
    return ResultRecord(**identity, version=version, status="error",
                        reason=f"the harness could not write this record as read back: {shown(problem)}")


def item_id(instance_id: str, backend: str) -> str:
    """The id of one case instance on one backend, as pytest shows it: the parameters stay last.

    ``ai.onnx/AveragePool-22/2d_ceil[float32]`` on ``onnxruntime`` is
    ``ai.onnx/AveragePool-22/2d_ceil::onnxruntime[float32]`` (pytest 9 reads ``[...]`` only at the end of an id).
    """
    base, bracket, params = instance_id.partition("[")
    return f"{base}::{backend}{bracket}{params}"


_INSTANCE_ID = re.compile(r"^(?P<domain>[^/]+)/(?P<op>[^/]+)-(?P<version>[0-9]+)/[^\[]+\[(?P<params>[^\]]*)\]$")


def identity_from_id(data: dict[str, Any]) -> dict[str, Any]:
    """domain, op, version and dtype from the instance id, for records trimmed to their id (results kept from
    another machine for triage); empty when the record has them or its id does not parse."""
    if all(k in data for k in ("op", "domain", "version", "dtype")) or not isinstance(data.get("id"), str):
        return {}
    match = _INSTANCE_ID.match(data["id"])
    if not match:
        return {}
    dtype, _, layout = match.group("params").partition("-")
    derived = {"domain": match.group("domain"), "op": match.group("op"), "version": int(match.group("version")),
               "dtype": dtype}
    return {**derived, **({"layout": layout} if layout and "layout" not in data else {})}


#: Separates a backend from the ISA level of its column (``onednn@avx2``: oneDNN capped at AVX2, docs/isa.md).
ISA_SEPARATOR = "@"


def base_backend(column: str) -> str:
    """The backend of a column: ``onednn`` for ``onednn@avx2``."""
    return column.partition(ISA_SEPARATOR)[0]


def split_item_id(text: str) -> tuple[str, str | None]:
    """(instance id, backend or None) from an item id, a pytest node id or a bare instance id.

    Accepts ``case::backend[params]`` (pytest form), ``case[params]::backend`` and ``case[params]``; a leading
    ``path/to/file.yaml::`` is dropped.
    """
    if ".yaml::" in text or ".yml::" in text:
        text = text.split("::", 1)[1]
    base, bracket, params = text.partition("[")
    if "::" in base:  # case::backend[params]
        case, _, backend = base.rpartition("::")
        return f"{case}{bracket}{params}", backend
    if "]::" in text:  # case[params]::backend
        instance, _, backend = text.rpartition("::")
        return instance, backend
    return text, None


_FIELD_NAMES = tuple(f.name for f in fields(ResultRecord))


def finite(value: Any) -> Any:
    """JSON has no NaN/inf (and JSON.parse rejects them): carry them as strings so every line stays strict JSON.

    ``value`` itself when it holds none (found at C speed by the encoder; the common case), else a copy."""
    try:
        json.dumps(value, allow_nan=False)
    except (ValueError, TypeError):  # a NaN or inf somewhere (or a value the encoder does not know: walk it)
        return _finite(value)
    return value


def _finite(value: Any) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_finite(v) for v in value]
    return value


#: A results file may carry ``{"meta": {...}}`` lines besides records: what kind of run wrote it (``partial``: a
#: ``-k`` or shard run; ``interrupted``: the run did not finish, and why). Record readers skip them.
META = "meta"

#: The type every record field must have when read back (a number field may be "nan"/"inf", see ``finite``).
_NUM, _OPT = (int, float, str), type(None)
FIELD_TYPES: dict[str, tuple[type, ...]] = {
    **dict.fromkeys(("id", "op", "domain", "dtype", "backend", "backend_version", "status", "reason", "tolerance",
                     "source", "case_file", "nodeid", "lowered", "expectation", "repro", "isa", "outcome",
                     "reproduce"),
                    (str,)),
    "version": (int,), "unspecified": (int,), "duration_s": _NUM, "runtime_s": _NUM,
    **dict.fromkeys(("mismatches", "elements"), (int, _OPT)),
    **dict.fromkeys(("max_abs_err", "max_rel_err", "max_ulp"), (*_NUM, _OPT)),
    **dict.fromkeys(("expected_shape", "actual_shape", "error_grid"), (list, _OPT)),
    **dict.fromkeys(("expected_dtype", "actual_dtype", "layout"), (str, _OPT)),
    "attributes": (dict,), "error_grid_at": (dict, _OPT), "widened": (dict,),
    **dict.fromkeys(("input_shapes", "tags", "worst", "outputs"), (list,)),
}


#: the exact types each field may have (a subclass, bool for int above all, takes the isinstance path)
_EXACT = {name: frozenset(types) for name, types in FIELD_TYPES.items()}


def check_types(data: Any) -> None:
    """Raise TypeError naming the first field of the wrong type (a results file is input, not trusted)."""
    if not isinstance(data, dict):
        raise TypeError(f"expected a JSON object, got {type(data).__name__}")
    for name, types in FIELD_TYPES.items():
        if name not in data or type(data[name]) in _EXACT[name]:  # the types json.loads makes: no more to ask
            continue
        if not isinstance(data[name], types) or isinstance(data[name], bool):
            want = " or ".join("null" if t is _OPT else t.__name__ for t in types)
            raise TypeError(f"field {name!r} must be {want}, not {type(data[name]).__name__} ({data[name]!r:.60})")
    from conformance.record_shape import check_shape  # what is inside the containers, and the nesting depth

    check_shape(data)


def write_records(path: Path, records: Iterable[ResultRecord], meta: dict[str, Any] | None = None,
                  text: Callable[[ResultRecord], str] = ResultRecord.to_json) -> None:
    """``text``: a record's line (the controller passes the lines it received, so nothing is serialized twice)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as out:
        if meta:
            out.write(json.dumps({META: meta}) + "\n")
        for record in records:
            out.write(text(record) + "\n")


class Budget:
    """How much result text one reader takes in before it refuses: a report holds every record it reads (~4 bytes of
    memory per byte of JSON), so a 3 GB results file was a MemoryError after minutes. ``setting`` names the knob
    that raises the limit. Lines are read at most ``left + 1`` characters at a time: one endless line (no newline)
    costs no more than the limit either."""

    def __init__(self, limit: int, setting: str = "") -> None:
        self.limit, self.left, self.setting = limit, limit, setting

    def lines(self, src: IO[str], path: Path) -> Iterator[str]:
        while line := src.readline(self.left + 1):
            self.left -= len(line)
            if self.left < 0:
                knob = f" ({self.setting} raises it)" if self.setting else ""
                raise ValueError(f"{path}: the result files read together exceed the size limit of {self.limit} "
                                 f"bytes{knob}: refused before they exhaust memory; report on fewer files")
            yield line


def read_records(path: Path, meta: list[dict[str, Any]] | None = None,
                 torn: list[str] | None = None, known: Container[str] = (),
                 budget: Budget | None = None, parsed: Mapping[str, ResultRecord] | None = None,
                 ) -> Iterator[ResultRecord]:
    """Read a JSON-lines file; a malformed line raises ValueError naming file and line.

    ``meta`` lines are appended to the ``meta`` list when one is given, skipped otherwise. With a ``torn`` list
    (part files), a last line cut short by a kill (no newline, not JSON) is skipped and named (``FILE:LINE``) in it.
    A line in ``known`` (its exact text, without the newline) is skipped: the caller has that record already.
    ``budget``: the size limit shared by the files a reader takes in (none: the run's own part files, which the
    harness wrote itself and must never drop a record of). ``parsed``: records already read from lines of this
    exact text (``parse_line``), taken as they are.
    """
    try:
        opener = gzip.open if str(path).endswith(".gz") else open  # results kept compressed (other machines' runs)
        with opener(Path(path), "rt", encoding="utf-8") as src:
            lines = src if budget is None else budget.lines(src, Path(path))
            for number, line in enumerate(lines, 1):
                if not line.strip() or (known and line.rstrip("\n") in known):
                    continue
                if parsed and (record := parsed.get(line.rstrip("\n"))) is not None:
                    yield record
                    continue
                try:
                    data = json.loads(line)
                    if isinstance(data, dict) and set(data) == {META} and isinstance(data[META], dict):
                        if meta is not None:
                            meta.append(data[META])
                        continue
                    yield record_of(data)
                except RecursionError:  # json.loads of a line nested thousands deep
                    raise ValueError(f"{path}:{number}: not a result record: nested too deeply") from None
                except (ValueError, TypeError) as exc:
                    # only a final write can lack its newline: every earlier line was complete when flushed
                    if torn is not None and isinstance(exc, json.JSONDecodeError) and not line.endswith("\n"):
                        torn.append(f"{path}:{number}")
                        continue
                    raise ValueError(f"{path}:{number}: not a result record: {exc}") from None
    except UnicodeDecodeError as exc:
        raise ValueError(f"{path}: not UTF-8 text: {exc}") from None


def parse_line(line: str) -> ResultRecord | None:
    """The record a results line holds, checked as ``read_records`` checks it; None for a meta line or a line that
    is no record (``read_records`` then says why, naming file and line)."""
    try:
        data = json.loads(line)
        if not isinstance(data, dict) or META in data:
            return None
        return record_of(data)
    except (ValueError, TypeError, RecursionError):
        return None


def record_of(data: Any) -> ResultRecord:
    """The record a decoded results line holds, its fields' types checked (ValueError/TypeError otherwise): the one
    check of ``read_records`` and ``parse_line`` alike."""
    check_types(data)
    return ResultRecord.from_dict(data)
