"""Load and validate case files (schema 1, docs/case-format.md).

Errors name the file, the line and the case id. A file that cannot be read at all fails as a whole; a case that
does not validate fails alone (``LoadedFile.errors``) and the file's other cases still run.
"""

from __future__ import annotations

import zlib
from dataclasses import replace
from pathlib import Path
from typing import Any

import yaml

from conformance import ops
from conformance.dtypes import DTYPE_NAMES, FLOAT_DTYPES
from conformance.model import SOURCES, Case, SpecExample, TensorSpec, concrete_of
from conformance.suite import depth, guards
from conformance.suite.casefile import ID_PATTERN, CaseFileError, LoadedFile
from conformance.suite.irxml import IrXmlError, parse_layer
from conformance.suite.published import PublishedTextError, read_literal

FILE_KEYS = {"op", "domain", "version", "versions", "cases", "defaults", "description", "import"}
CASE_KEYS = {
    "id", "source", "attributes", "inputs", "outputs", "dtypes", "layouts", "tolerance", "tags", "expect",
    "reason", "ir_xml", "version", "versions", "description",
}
TENSOR_KEYS = {"shape", "dtype", "data", "text", "random", "arange"}
TOLERANCE_KEYS = {"atol", "rtol", "ulp", "scale", "backends"}
LAYOUTS = ("NCX", "NXC")


# libyaml's parser when PyYAML has it: parsing is most of collection time for big case files (same safe
# constructor either way: no Python tags)
_SafeBase = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _LineLoader(_SafeBase):
    """SafeLoader that remembers the line of every mapping it builds (by object id)."""

    def __init__(self, stream: str):
        super().__init__(stream)
        self.lines: dict[int, int] = {}
        self.dropped: list[depth.Dropped] = []

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict:
        mapping = super().construct_mapping(node, deep=True)
        self.lines[id(mapping)] = node.start_mark.line + 1
        return mapping


    # Scalars repeat a lot across a corpus (keys, small ints, dtype names); their tag resolution (regexes) and
    # construction are pure functions of (value, implicit) and (tag, value) for a SafeLoader without path
    # resolvers, and were most of collection time. Memoized per process; only immutable results are shared.
    def resolve(self, kind, value, implicit):
        if kind is not yaml.ScalarNode:
            return super().resolve(kind, value, implicit)
        key = (value, implicit)
        tag = _TAGS.get(key)
        if tag is None:
            tag = super().resolve(kind, value, implicit)
            _remember(_TAGS, key, tag)
        return tag

    def construct_object(self, node: yaml.Node, deep: bool = False) -> Any:
        if node.__class__ is not yaml.ScalarNode:
            return super().construct_object(node, deep)
        key = (node.tag, node.value)
        value = _SCALARS.get(key, _MISSING)
        if value is _MISSING:
            value = super().construct_object(node, deep)
            if type(value) in _IMMUTABLE:
                _remember(_SCALARS, key, value)
        return value


    def fast_data(self) -> Any:
        """``get_single_data()`` with one Python pass over the node tree instead of PyYAML's generic constructor.

        Plain sequences, mappings and aliases are built here; scalars go through the (memoized) SafeConstructor;
        anything else (merge keys, !!set/!!omap/!!pairs, recursive aliases, unhashable keys) falls back to the
        generic constructor, so the result (and any error) is the same as before.
        """
        node = self.get_single_node()
        if node is None:
            return None
        # before any recursive walk: a case nested hundreds deep is taken out, an error of its own
        self.dropped = depth.prune_deep_cases(node)
        guards.check_expansion(node)  # before anything is built: an alias bomb never reaches memory
        try:
            return self._build(node, {}, set())
        except _Fallback:
            self.lines.clear()
            return self.construct_document(node)

    def _build(self, node: yaml.Node, done: dict[int, Any], building: set[int]) -> Any:
        cls = node.__class__
        if cls is yaml.ScalarNode:
            return self._scalar(node)
        ident = id(node)
        if ident in done:
            if ident in building:
                raise _Fallback  # a recursive alias: PyYAML's own error
            return done[ident]
        building.add(ident)
        scalar, build = yaml.ScalarNode, self._build
        if cls is yaml.SequenceNode and node.tag == _SEQ:
            out: Any = []
            done[ident] = out
            # scalars inline (most nodes are scalars): one Python call fewer per element
            out.extend(self._scalar(c) if c.__class__ is scalar else build(c, done, building) for c in node.value)
        elif cls is yaml.MappingNode and node.tag == _MAP:
            out = {}
            done[ident] = out
            for key_node, value in node.value:
                if key_node.tag in _SPECIAL_KEYS or key_node.__class__ is not scalar:
                    raise _Fallback
                out[self._scalar(key_node)] = (
                    self._scalar(value) if value.__class__ is scalar else build(value, done, building)
                )
            self.lines[id(out)] = node.start_mark.line + 1
        else:
            raise _Fallback
        building.discard(ident)
        return out


    def _scalar(self, node: yaml.ScalarNode) -> Any:
        value = _SCALARS.get((node.tag, node.value), _MISSING)
        return self.construct_object(node) if value is _MISSING else value


class _Fallback(Exception):
    pass


_SEQ, _MAP = "tag:yaml.org,2002:seq", "tag:yaml.org,2002:map"
_SPECIAL_KEYS = {"tag:yaml.org,2002:merge", "tag:yaml.org,2002:value"}
_TAGS: dict[tuple, str] = {}
_SCALARS: dict[tuple, Any] = {}
_MISSING = object()
_IMMUTABLE = (int, float, str, bool, type(None))
_MEMO_LIMIT = 200_000


def _remember(memo: dict, key: tuple, value: Any) -> None:
    if len(memo) >= _MEMO_LIMIT:  # a pathological corpus of unique scalars must not grow memory without bound
        memo.clear()
    memo[key] = value


_LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _LineLoader.construct_mapping)


def parse_yaml(text: str, file: str, dropped: list[depth.Dropped] | None = None) -> tuple[Any, dict[int, int]]:
    """The document and the line of each mapping; with a ``dropped`` list (case files), cases nested too deeply
    are left out and listed there instead of failing the whole file. A document parsed before is read back from
    the user cache (yaml_cache.py): the same objects, at a fiftieth of the cost."""
    from conformance.suite import yaml_cache

    return yaml_cache.parsed(text, file, dropped, _parse)


def _parse(text: str, file: str, dropped: list[depth.Dropped] | None) -> tuple[Any, dict[int, int]]:
    loader = _LineLoader(text)
    try:
        data = loader.fast_data()
        if dropped is not None:
            dropped += loader.dropped
        elif loader.dropped:
            line, _, message = loader.dropped[0]
            raise CaseFileError(file, line, None, message)
        return data, loader.lines
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
        line = mark.line + 1 if mark is not None else 0
        problem = getattr(exc, "problem", None) or str(exc)
        retry = depth.blank_case(text, line) if dropped is not None and depth.LIBYAML_DEPTH in problem else None
        if retry is not None:  # libyaml refused one case's depth: the file's other cases still load
            dropped.append(retry[1])
            return _parse(retry[0], file, dropped)
        raise CaseFileError(file, line, None, f"YAML syntax error: {problem}") from None
    except ValueError as exc:  # a guard
        raise CaseFileError(file, 1, None, str(exc)) from None
    finally:
        loader.dispose()


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
