"""Load and validate case files (schema 1, docs/case-format.md).

Errors name the file, the line and the case id. A file that cannot be read at all fails as a whole; a case that
does not validate fails alone (``LoadedFile.errors``) and the file's other cases still run.
"""

from __future__ import annotations

import zlib
from dataclasses import replace
from pathlib import Path
from typing import Any

from conformance import ops
from conformance.dtypes import DTYPE_NAMES, FLOAT_DTYPES
from conformance.model import SOURCES, Case, SpecExample, TensorSpec, concrete_of
from conformance.suite import depth, guards
from conformance.suite.casefile import ID_PATTERN, CaseFileError, LoadedFile
from conformance.suite.irxml import IrXmlError, parse_layer
from conformance.suite.published import PublishedTextError, read_literal
from conformance.suite.yaml_parse import parse_yaml

FILE_KEYS = {"op", "domain", "version", "versions", "cases", "defaults", "description", "import"}
CASE_KEYS = {
    "id", "source", "attributes", "inputs", "outputs", "dtypes", "layouts", "tolerance", "tags", "expect",
    "reason", "ir_xml", "version", "versions", "description",
}
TENSOR_KEYS = {"shape", "dtype", "data", "text", "random", "arange"}
TOLERANCE_KEYS = {"atol", "rtol", "ulp", "scale", "backends"}
LAYOUTS = ("NCX", "NXC")


def load_file(path: Path | str, display: str | None = None, max_elements: int | None = None) -> LoadedFile:
    """``max_elements``: the per-tensor limit (``--max-tensor-elements``; default guards.MAX_TENSOR_ELEMENTS)."""
    path = Path(path)
    file = display or str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise CaseFileError(file, 0, None, f"cannot read: {exc}") from None
    return load_text(text, file, max_elements)


def load_text(text: str, file: str, max_elements: int | None = None) -> LoadedFile:
    dropped: list[depth.Dropped] = []
    doc, lines = parse_yaml(text, file, dropped)
    if isinstance(doc, dict) and "configurations" in doc:  # spec-neutral configurations (cases/cross-spec/)
        from conformance.suite.crossspec import load_configurations

        return load_configurations(doc, lines, file)
    if not isinstance(doc, dict):
        raise CaseFileError(file, 1, None, "a case file is a mapping with keys op, domain, versions, cases")
    unknown = set(doc) - FILE_KEYS
    if unknown:
        raise CaseFileError(file, 1, None, f"unknown top-level key(s): {', '.join(sorted(unknown))}")
    if _models_only(doc):  # imported whole models of many ops (onnx backend tests): no op, domain or versions
        doc = {**doc, "op": "", "domain": "", "versions": [1]}
    for key in ("op", "domain"):
        if not isinstance(doc.get(key), str):
            raise CaseFileError(file, 1, None, f"missing or non-string {key!r}")
    known = ops.domains()  # the registry's: a domain comes with its first op
    if doc["domain"] not in known and doc["op"]:
        raise CaseFileError(file, 1, None, f"domain {doc['domain']!r} is not one of {', '.join(known)}")
    try:
        versions = _versions(doc, doc.get("domain", ""))
    except ValueError as exc:
        raise CaseFileError(file, 1, None, str(exc)) from None
    loaded = LoadedFile(path=file, op=doc["op"], domain=doc["domain"])
    imports = doc.get("import")
    if imports is not None:
        loaded.imports = imports if isinstance(imports, list) else [imports]
    raw_cases = doc.get("cases", [])
    if not isinstance(raw_cases, list):
        raise CaseFileError(file, lines.get(id(doc), 1), None, "'cases' must be a list")
    defaults = doc.get("defaults") or {}
    seen: dict[str, int] = {}
    for raw in raw_cases:
        line = lines.get(id(raw), 0)
        case_id = raw.get("id") if isinstance(raw, dict) else None
        try:
            case = _case({**defaults, **raw} if isinstance(raw, dict) else raw, doc, versions, file, line, lines,
                         max_elements)
            if case.id in seen:
                raise ValueError(f"duplicate id (first at line {seen[case.id]})")
            seen[case.id] = line
            loaded.cases.append(case)
        except (ValueError, TypeError) as exc:
            if isinstance(exc, CaseFileError):
                loaded.errors.append(exc)
            else:
                loaded.errors.append(CaseFileError(file, line, case_id if isinstance(case_id, str) else None, str(exc)))
    loaded.errors += [CaseFileError(file, line, case_id, message) for line, case_id, message in dropped]
    return loaded


def _models_only(doc: dict) -> bool:
    """A file that only imports whole models (``import: {from: onnx-backend-tests, ...}``, no ``cases``, no op):
    its cases are of many ops, each naming its own."""
    imports = doc.get("import")
    entries = imports if isinstance(imports, list) else [imports]
    return ("op" not in doc and "domain" not in doc and not doc.get("cases") and imports is not None
            and all(isinstance(e, dict) and e.get("from") == "onnx-backend-tests" for e in entries))


def _versions(doc: dict, domain: str) -> tuple[int, ...]:
    if "versions" in doc and "version" in doc:
        raise ValueError("give either 'version' or 'versions', not both")
    raw = doc.get("versions", doc.get("version"))
    if raw is None:
        raise ValueError("missing 'versions' (or 'version')")
    values = raw if isinstance(raw, list) else [raw]
    if not values or not all(isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in values):
        raise ValueError(f"versions must be positive integers, got {raw!r}")
    return guards.check_versions_exist(domain, tuple(values))


def _case(raw: Any, doc: dict, versions: tuple[int, ...], file: str, line: int, lines: dict,
          max_elements: int | None = None) -> Case:
    if not isinstance(raw, dict):
        raise ValueError("each case is a mapping")
    case_id = raw.get("id")
    if not isinstance(case_id, str) or not ID_PATTERN.match(case_id):
        raise ValueError(f"missing or invalid id {case_id!r} (letters, digits, _ . - only)")
    unknown = set(raw) - CASE_KEYS
    if unknown:
        raise ValueError(f"unknown key(s): {', '.join(sorted(unknown))}")
    source = raw.get("source", "edge")
    if source not in SOURCES:
        raise ValueError(f"source {source!r} is not one of {', '.join(SOURCES)}")
    if "version" in raw or "versions" in raw:
        versions = _versions(raw, doc["domain"])
    attributes = raw.get("attributes") or {}
    if not isinstance(attributes, dict):
        raise ValueError("attributes must be a mapping")
    example = None
    if "ir_xml" in raw:
        try:
            example = parse_layer(str(raw["ir_xml"]))
        except IrXmlError as exc:
            raise ValueError(str(exc)) from None
        # the spelling's case may differ: PReLU's page prints its examples as type="Prelu" (docs/spec-notes.md)
        if example.layer_type.lower() != str(doc["op"]).lower():
            if not example.defects:
                raise ValueError(f"ir_xml layer type {example.layer_type!r} is not the file's op {doc['op']!r}")
            # a published example that is malformed already: its wrong type is one more erratum, and it runs
            example = replace(example, defects=(*example.defects, f"its layer type {example.layer_type!r} is not "
                                                f"the page's op {doc['op']!r}"))
        attributes = {**example.attributes, **attributes}
    errata: list[str] = []
    inputs = _tensors(raw.get("inputs"), "inputs", example, case_id, max_elements, errata)
    if example is not None and errata:
        example = replace(example, defects=(*example.defects, *errata))
    if not inputs:
        raise ValueError("a case needs at least one input")
    outputs = _tensors(raw.get("outputs"), "outputs", None, case_id, max_elements) if raw.get("outputs") else ()
    dtypes = _names(raw.get("dtypes"), "dtypes", DTYPE_NAMES) or _default_dtypes(inputs)
    layouts = _names(raw.get("layouts"), "layouts", LAYOUTS)
    if "data_format" in attributes:
        layouts = ()  # an explicit data_format (even an invalid one, in a negative case) is not expanded away
    tolerance = raw.get("tolerance") or {}
    if not isinstance(tolerance, dict) or set(tolerance) - TOLERANCE_KEYS:
        raise ValueError(f"tolerance must be a mapping with keys from {', '.join(sorted(TOLERANCE_KEYS))}")
    guards.check_tolerance(tolerance)
    expect = raw.get("expect")
    if expect not in (None, "error"):
        raise ValueError(f"expect must be 'error' when given, got {expect!r}")
    tags = raw.get("tags") or []
    if not isinstance(tags, list) or not all(isinstance(t, str) for t in tags):
        raise ValueError("tags must be a list of strings")
    guards.check_attribute_names(doc["domain"], doc["op"], raw.get("attributes") or {}, expect == "error", tags)
    return Case(
        id=case_id, op=doc["op"], domain=doc["domain"], versions=versions, source=source,
        attributes=attributes, inputs=inputs, outputs=outputs, dtypes=dtypes, layouts=layouts,
        tolerance=tolerance, tags=tuple(tags), expect_error=expect == "error", reason=str(raw.get("reason", "")),
        spec_example=example, file=file, line=line,
    )


def _names(raw: Any, key: str, allowed: tuple[str, ...]) -> tuple[str, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list) or not raw:
        raise ValueError(f"{key} must be a non-empty list")
    for name in raw:
        if name not in allowed:
            raise ValueError(f"{key}: {name!r} is not one of {', '.join(allowed)}")
    return tuple(raw)


def _default_dtypes(inputs: tuple[TensorSpec, ...]) -> tuple[str, ...]:
    first = inputs[0].dtype
    return (first,) if first else ("float32",)


def _tensors(raw: Any, key: str, example: SpecExample | None, case_id: str,
             max_elements: int | None = None, errata: list[str] | None = None) -> tuple[TensorSpec, ...]:
    """The case's tensors; ``errata`` collects what a malformed example's ports contradict (else an error)."""
    errata = [] if errata is None else errata
    raw = raw or {}
    if not isinstance(raw, dict):
        raise ValueError(f"{key} must be a mapping of name -> tensor")
    specs = []
    names = list(raw)
    if example is not None:  # the XML gives one port per input; unnamed ports get generated names
        names += [f"in{i}" for i in range(len(raw), len(example.input_dims))]
    for index, name in enumerate(names):
        guards.check_tensor_body(f"{key}.{name}", raw.get(name, {}), example is not None)
        body = raw.get(name) or {}
        if not isinstance(body, dict) or set(body) - TENSOR_KEYS:
            raise ValueError(f"{key}.{name}: a tensor is a mapping with keys from {', '.join(sorted(TENSOR_KEYS))}")
        shape = body.get("shape")
        if example is not None and index < len(example.input_dims):
            dims = example.input_dims[index]
            if shape is not None and not concrete_of(dims, shape):
                if not example.defects and "data" not in body and "text" not in body:
                    raise ValueError(f"{key}.{name}: shape {shape} contradicts the ir_xml port dims {list(dims)}")
                # the values the page states (a literal, or any value of a malformed example) win over the port's
                # dims, which are the example's erratum; a shape alone that contradicts them is the case's mistake
                errata.append(f"port {index} ({name}) has dims {list(dims)}, the value the example states has "
                              f"shape {shape}")
            if shape is None and -1 in dims:
                raise ValueError(f"{key}.{name}: the ir_xml port dims {list(dims)} are dynamic (-1): the case gives "
                                 "the concrete shape it runs")
            shape = list(shape) if shape is not None else list(dims)
        if shape is not None and (not isinstance(shape, list) or not all(isinstance(d, int) and d >= 0 for d in shape)):
            raise ValueError(f"{key}.{name}: shape must be a list of non-negative integers")
        if shape is not None:
            guards.check_size(f"{key}.{name}", shape, max_elements)
        if body.get("data") is not None:
            guards.check_data(f"{key}.{name}", body["data"], shape, max_elements)
        if body.get("arange") is not None:
            guards.check_arange(f"{key}.{name}", body["arange"])
        dtype = body.get("dtype")
        if dtype is not None and dtype not in DTYPE_NAMES:
            raise ValueError(f"{key}.{name}: unknown dtype {dtype!r}")
        sources = [k for k in ("data", "text", "random", "arange") if k in body]
        if len(sources) > 1:
            raise ValueError(f"{key}.{name}: give one of data, text, random, arange (got {', '.join(sources)})")
        data, defects = body.get("data"), ()
        if "text" in body:  # a literal as published, verbatim: its typos become errata, never silent fixes
            try:
                data, found = read_literal(str(body["text"]))
            except PublishedTextError as exc:
                raise ValueError(f"{key}.{name}: text: {exc}") from None
            defects = tuple(found)
        random = body.get("random")
        if key == "inputs" and not sources and dtype in (None, *FLOAT_DTYPES):
            # inputs described only by a shape (spec examples) get a seed derived from the case id: stable
            random = {"seed": zlib.crc32(f"{case_id}/{name}".encode()), "distribution": "normal"}
        if random is not None and (not isinstance(random, dict) or "seed" not in random):
            raise ValueError(f"{key}.{name}: random needs a mapping with an explicit seed")
        if random is not None:
            guards.check_random(f"{key}.{name}", random)
        if key == "inputs" and not sources and random is None:
            raise ValueError(f"{key}.{name}: integer inputs need data")
        specs.append(
            TensorSpec(
                name=str(name), shape=tuple(shape) if shape is not None else None, dtype=dtype,
                data=data, random=random, arange=body.get("arange"), published_defects=defects,
            )
        )
    return tuple(specs)
