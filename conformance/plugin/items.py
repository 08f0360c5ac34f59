"""The collection tree: a case file, its case instances, and one item per backend."""

from __future__ import annotations

import contextlib
import gc
import json
import os
import shlex
from collections.abc import Iterator
from pathlib import Path

import pytest

from conformance.plugin.state import state_key
from conformance.records import FAILING, ISA_SEPARATOR, ResultRecord, written
from conformance.terminal import printable


class CaseFileError(Exception):
    """Raised from collection with a message that already names file, line and case id."""


class CaseFile(pytest.File):
    def collect(self) -> list[pytest.Collector]:
        with gc_paused():
            return list(self._children())

    def _children(self) -> Iterator[pytest.Collector]:
        from conformance.oracle import check_reference_accepts
        from conformance.suite.corpus import CaseFileError as LoaderError
        from conformance.suite.corpus import file_cases
        from conformance.suite.expand import expand

        display = _display_path(self)
        try:
            limit = self.config.stash[state_key].max_tensor_elements
            found = file_cases(self.path, display=display or str(self.path), max_elements=limit)
        except LoaderError as exc:
            raise CaseFileError(str(exc)) from None
        cases = found.cases
        for error in found.loaded.errors:
            yield BrokenCase.from_parent(self, name=error.case_id or f"line-{error.line}", error=str(error))
        state = self.config.stash[state_key]
        for case in cases:
            where = f"{case.file}:{case.line}" if case.line else case.file
            # records are keyed by instance id: a second definition would silently collapse into the first
            firsts = {state.case_ids.setdefault((case.domain, case.op, v, case.id), where) for v in case.versions}
            clash = sorted(f for f in firsts if f != where)
            if clash:
                yield BrokenCase.from_parent(self, name=case.id, error=f"{where}: case {case.id!r}: duplicate "
                                             f"case id: {case.domain}::{case.op} {case.id!r} is defined at "
                                             f"{clash[0]} for the same version")
                continue
            try:
                instances = expand(case)
                for instance in instances:
                    check_reference_accepts(instance)
            except ValueError as exc:  # a guard's message: what is wrong with the case
                yield BrokenCase.from_parent(self, name=case.id, error=f"{where}: case {case.id!r}: {exc}")
                continue
            except Exception as exc:  # a case that cannot become instances costs that case only
                yield BrokenCase.from_parent(self, name=case.id,
                                             error=f"{where}: case {case.id!r}: {type(exc).__name__}: {exc}")
                continue
            by_version: dict[str, list] = {}
            for instance in instances:
                by_version.setdefault(instance.id.partition("[")[0], []).append(instance)
            for name, instances in by_version.items():
                yield CaseVersion.from_parent(self, name=name, instances=instances)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style=None) -> str:
        if isinstance(excinfo.value, CaseFileError):
            return str(excinfo.value)
        # pytest's Collector.repr_failure takes no style: passing one turned any other error into an INTERNALERROR
        return super().repr_failure(excinfo)


@contextlib.contextmanager
def gc_paused() -> Iterator[None]:
    """No cyclic garbage collection while a case file becomes nodes.

    Parsing and expanding allocate hundreds of thousands of long-lived objects; each allocation burst triggered
    full collections that walked everything collected so far (about 40% of collecting 10,000 cases). Nothing
    here creates cyclic garbage worth collecting early; the collector runs as usual afterwards.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _display_path(node: pytest.File) -> str:
    """The file as the user would type it from the invocation folder: relative below it, absolute elsewhere (the
    shipped corpus in site-packages, a case folder beside the project), so a command naming it works when pasted
    where pytest ran. Not Config.cwd_relative_nodeid: pytest 9 made it take a NodeId object, and a str failed
    there whenever the case folder lies outside the invocation folder."""
    try:
        relative = os.path.relpath(node.path, node.config.invocation_params.dir).replace(os.sep, "/")
    except ValueError:  # another drive (Windows)
        return str(node.path)
    return str(node.path) if relative.startswith("../") else relative


class BrokenCase(pytest.Collector):
    """A case that does not validate: one collection error naming file, line and case id."""

    def __init__(self, *, error: str, **kwargs):
        super().__init__(**kwargs)
        self.error = error

    def collect(self) -> list:
        raise CaseFileError(self.error)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style=None) -> str:
        return str(excinfo.value)


class CaseVersion(pytest.Collector):
    """A case at one version (``ai.onnx/AveragePool-22/2d_ceil``); its items are ``<backend>[<dtype>[-layout]]``,
    so node ids read ``...::ai.onnx/AveragePool-22/2d_ceil::onnxruntime[float32]`` (the parameters last, as
    pytest resolves and prints them)."""

    def __init__(self, *, instances, **kwargs):
        super().__init__(**kwargs)
        self.instances = instances

    def collect(self) -> list[pytest.Item]:
        with gc_paused():
            return self._items()

    def _items(self) -> list[pytest.Item]:
        state = self.config.stash[state_key]
        items = []
        for instance in self.instances:
            params = "[" + instance.id.partition("[")[2]
            has_claims = instance.expect_error or instance.case.spec_example is not None or any(
                t.data is not None or t.array is not None or t.shape is not None for t in instance.outputs
            ) or instance.case.configuration is not None
            # the reference column exists where the case makes claims of its own (literal outputs, a spec
            # example, an expected rejection) and for configuration cases: their records are the spec semantics
            # of the cross-spec page
            if state.with_reference and has_claims:
                items.append(CaseItem.from_parent(self, name=f"reference{params}", instance=instance, backend=None))
            for backend in state.backends:
                items.append(CaseItem.from_parent(self, name=f"{backend.name}{params}", instance=instance,
                                                  backend=backend))
        return items


class CaseFailed(Exception):
    def __init__(self, record: ResultRecord):
        super().__init__(record.reason)
        self.record = record


class CaseItem(pytest.Item):
    def __init__(self, *, instance, backend, **kwargs):
        super().__init__(**kwargs)
        self.backend = backend
        self.record: ResultRecord | None = None
        self.record_line = ""  # the record's line in the results file (records.written)
        self.instance = instance
        self.add_marker(pytest.mark.conformance)

    def runtest(self) -> None:
        from conformance import runner
        from conformance.plugin.batching import answer_for

        state = self.config.stash[state_key]
        record = runner.result(self.instance, self.backend, state.expectations, repro_command(self),
                               batched=answer_for(self))
        record.nodeid = self.nodeid
        # the outcome is the written record's: one that cannot be written as read back is an error record there
        # (records.written), so the item fails with it instead of passing beside it
        record, self.record_line = written(record)
        self.record = record  # on the call report as the record's line (results.py), nothing else copied there
        if record.status in FAILING:
            raise CaseFailed(record)
        if record.status == "unsupported":
            # reported at the case's line in its case file, not at this line of the plugin
            raise pytest.skip.Exception(f"unsupported: {printable(record.reason)}", _use_item_location=True)
        if record.status in ("xfail", "erratum"):
            pytest.xfail(f"{record.status}: {printable(record.reason)}")

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style=None) -> str:
        if isinstance(excinfo.value, CaseFailed):
            return failure_text(excinfo.value.record, conformance_repro_command(self))
        if isinstance(excinfo.value, pytest.xfail.Exception) and self.record is not None:
            # pytest formats an xfail like a failure (then reports it as skipped): a traceback with the source of
            # every frame, each source file parsed again — 0.1-0.6 s per xfail item, most of a run's harness time
            # with ~2,000 expected failures. The record says everything a reader of this text needs.
            return failure_text(self.record, conformance_repro_command(self))
        return super().repr_failure(excinfo, style)

    def reportinfo(self):
        line = self.instance.case.line
        # the trailing space keeps pytest from turning the dots of "ai.onnx" into "::" in verbose output
        return self.path, line - 1 if line else None, f"{self.parent.name}::{self.name} "


def repro_command(item: CaseItem) -> str:
    """The pytest command that runs this one item again, from the folder where this run started: the case file
    as the user would type it there (not the node id, which is relative to pytest's rootdir or to the case
    folder), then the case and item parts of the node id."""
    spec = "" if item.backend is None else _spec_of(item)
    backend = f" {shlex.quote('--backend=' + spec)}" if spec else ""
    level = "" if item.backend is None else str(item.backend.name).partition(ISA_SEPARATOR)[2]
    backend += f" --isa={shlex.quote(level)}" if level else ""  # an ISA column exists only when its level is asked
    case_file = item.getparent(CaseFile)
    rest = item.nodeid[len(case_file.nodeid):] if case_file is not None else "::" + item.nodeid.split("::", 1)[-1]
    path = _display_path(case_file) if case_file is not None else str(item.path)
    # a module:Class plugin is imported from the folder the run started in: `python -m pytest` puts that folder on
    # sys.path as the run had it (a plain `pytest` script does not)
    runner = "python -m pytest" if ":" in spec and not _registered(spec) else "pytest"
    return f"{runner} {shlex.quote(path + rest)}{backend} -p no:randomly"


def conformance_repro_command(item: CaseItem) -> str:
    """``conformance repro`` for this item: it finds the case by its instance id in the installed corpus, so it
    works from any folder (the pytest command names the case file, inside site-packages for a wheel). A case from
    outside the shipped corpus adds its file as ``--cases``, absolute for the same reason. "" for a plugin run as
    ``module:Class`` without an entry point: ``conformance repro`` creates registered backends only, so the pytest
    command (``python -m pytest`` from the run's folder, where the module is) is its reproduction."""
    if item.backend is None:
        return ""
    from conformance.shipped import default_case_dirs

    spec = _spec_of(item).partition(ISA_SEPARATOR)[0]  # an ISA column's level is not a backend spec
    if ":" in spec and not _registered(spec):
        return ""
    command = f"conformance repro {shlex.quote(item.instance.id)} --backend {shlex.quote(spec)} -o repro/"
    case_file = Path(item.path).resolve()
    if not any(case_file.is_relative_to(d.resolve()) for d in default_case_dirs()):
        command += f" --cases {shlex.quote(str(case_file))}"
    return command


def _spec_of(item: CaseItem) -> str:
    """The --backend spec that selected the item's backend: a plugin's name (``wrongshape``) is no spec when the
    run selected it as ``module:Class``."""
    state = item.config.stash.get(state_key, None)
    if state is not None:
        for backend, spec in zip(state.backends, state.column_specs):
            if backend is item.backend:
                return str(spec)
    return str(item.backend.name)


def _registered(spec: str) -> bool:
    from conformance.backends import registry

    name = spec.partition(":")[0]
    return name == "onnx-backend" or name in registry.entry_points()


def failure_text(record: ResultRecord, repro: str = "") -> str:
    """The text pytest prints for a failing item; its first line is the headline of the short summary
    (``FAILED ... - <headline>``). A backend's reason may hold terminal escapes: shown escaped, lines kept."""
    return printable(_failure_text(record, repro), keep="\n\t")


def _failing_output(record: ResultRecord) -> tuple[str, dict]:
    """("output NAME: ", its entry) for the first failing output of a record with several (the top-level figures
    are output 0's, clean when only MaxPool's Indices failed); else ("", the record's own figures)."""
    for entry in record.outputs:
        if isinstance(entry, dict) and entry.get("ok") is False:
            return f"output {entry.get('name')}: ", entry
    return "", {"mismatches": record.mismatches, "elements": record.elements, "max_abs_err": record.max_abs_err,
                "max_rel_err": record.max_rel_err, "max_ulp": record.max_ulp, "tolerance": record.tolerance,
                "worst": record.worst}


def _g(value: object, digits: int = 6) -> str:
    return f"{value:.{digits}g}" if isinstance(value, int | float) else "-" if value is None else str(value)


def _exact(value: object) -> str:
    return repr(value) if isinstance(value, float) else str(value)


def _failure_text(record: ResultRecord, repro: str) -> str:
    lines = [f"{record.item_id}: {record.status.upper()}: {record.reason.splitlines()[0] if record.reason else ''}"]
    lines.append(f"  case: {record.case_file}  source: {record.source}  attributes: {json.dumps(record.attributes)}")
    lines.append(f"  input shapes: {record.input_shapes}  dtype: {record.dtype}")
    if record.expected_shape is not None:
        lines.append(f"  expected shape {record.expected_shape} {record.expected_dtype}, "
                     f"actual {record.actual_shape} {record.actual_dtype}")
    whose, shown = _failing_output(record)
    if shown.get("mismatches"):
        lines.append(f"  {whose}mismatches: {shown['mismatches']}/{shown.get('elements')}  max abs err "
                     f"{_g(shown.get('max_abs_err'))}  max rel err {_g(shown.get('max_rel_err'))}  max ulp "
                     f"{_g(shown.get('max_ulp'))}")
        lines.append(f"  tolerance: {shown.get('tolerance') or record.tolerance}")
        for w in shown.get("worst") or []:
            # every digit as stored (the dtype's shortest text): values one ULP apart read differently
            ulps = f" ({_g(w['ulp'], 3)} ulp)" if w.get("ulp") is not None else ""
            lines.append(f"  at {w.get('index')}: expected {_exact(w.get('expected'))} actual "
                         f"{_exact(w.get('actual'))} |err| {_g(w.get('abs_err'), 3)} allowed "
                         f"{_g(w.get('allowed'), 3)}{ulps}")
    if record.reason and "\n" in record.reason:
        lines.append("  " + record.reason.replace("\n", "\n  "))
    if repro:  # what works from any folder first; the pytest command runs the item again from the run's folder
        lines.append(f"  reproduce: {repro}")
        lines.append(f"  pytest id: {record.nodeid}")
        if record.repro:
            lines.append(f"  from the run's folder: {record.repro}")
    else:
        lines.append(f"  reproduce: {record.repro}")
    return "\n".join(lines)
