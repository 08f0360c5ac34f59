"""Configuration files (``cases/cross-spec/*.yaml``): spec-neutral pooling configurations, each expanded into one
case per registered op version of its family that can express it (``conformance.ops.neutral``).

    description: ...
    defaults: {families: [avg], input: {shape: [1, 1, 4], arange: {start: 1, step: 1}}}
    configurations:
      - id: ceil_last_window_in_padding
        reason: why the configuration is interesting (which spec texts differ)
        kernel: [2]
        strides: [2]
        pads_begin: [0]
        pads_end: [1]
        rounding: ceil            # floor | ceil | ceil_torch
        exclude_pad: true         # avg only; default true
        p: 2                      # lp only, required there: the norm's exponent, a positive integer
        auto_pad: notset          # notset | same_upper | same_lower | valid
        dilations: [1]

Every generated case carries the configuration (and the versions that cannot spell it, with why) so the records,
and from them the cross-spec page, can line the specs up without reading case files.
"""

from __future__ import annotations

from typing import Any

from conformance import ops
from conformance.dtypes import DTYPE_NAMES
from conformance.model import Case, TensorSpec
from conformance.ops.neutral import AUTO_PADS, FAMILIES, ROUNDINGS, Configuration, Inexpressible, Spelled, column, spell
from conformance.suite.casefile import ID_PATTERN, CaseFileError, LoadedFile

FILE_KEYS = {"description", "defaults", "configurations"}
CONFIG_KEYS = {"id", "reason", "families", "input", "kernel", "strides", "pads_begin", "pads_end", "dilations",
               "auto_pad", "rounding", "exclude_pad", "p", "dtypes", "tags"}
INPUT_KEYS = {"shape", "arange", "random", "data"}
PREFIX = "xspec"


def load_configurations(doc: dict, lines: dict[int, int], file: str) -> LoadedFile:
    unknown = set(doc) - FILE_KEYS
    if unknown:
        raise CaseFileError(file, 1, None, f"unknown top-level key(s) of a configuration file: "
                            f"{', '.join(sorted(unknown))}")
    raw = doc.get("configurations")
    if not isinstance(raw, list):
        raise CaseFileError(file, lines.get(id(doc), 1), None, "'configurations' must be a list")
    defaults = doc.get("defaults") or {}
    loaded = LoadedFile(path=file, op="", domain="")
    seen: dict[str, int] = {}
    for item in raw:
        line = lines.get(id(item), 0)
        name = item.get("id") if isinstance(item, dict) else None
        try:
            if not isinstance(item, dict):
                raise ValueError("each configuration is a mapping")
            merged = {**defaults, **item}
            if name in seen:
                raise ValueError(f"duplicate id (first at line {seen[name]})")
            found = [case for config in configurations(merged) for case in cases_of(config, merged, file, line)]
            if not found:
                raise ValueError("no registered op version of its families can express this configuration")
            loaded.cases.extend(found)
            seen[str(name)] = line
        except (ValueError, TypeError, LookupError) as exc:
            loaded.errors.append(CaseFileError(file, line, name if isinstance(name, str) else None, str(exc)))
    return loaded


def _ints(raw: dict, key: str, rank: int, default: int, low: int) -> tuple[int, ...]:
    values = raw.get(key, [default] * rank)
    if (not isinstance(values, list) or len(values) != rank
            or not all(isinstance(v, int) and not isinstance(v, bool) and v >= low for v in values)):
        raise ValueError(f"{key} must be {rank} integer(s) >= {low}, got {values!r}")
    return tuple(values)


def configurations(raw: dict) -> list[Configuration]:
    """The configuration once per family it names, validated (a configuration must be a valid pooling)."""
    unknown = set(raw) - CONFIG_KEYS
    if unknown:
        raise ValueError(f"unknown key(s): {', '.join(sorted(unknown))}")
    name = raw.get("id")
    if not isinstance(name, str) or not ID_PATTERN.match(name):
        raise ValueError(f"missing or invalid id {name!r} (letters, digits, _ . - only)")
    shape = (raw.get("input") or {}).get("shape")
    if not isinstance(shape, list) or len(shape) < 3 or not all(isinstance(d, int) and d > 0 for d in shape):
        raise ValueError(f"input.shape must be [N, C, spatial...] positive integers, got {shape!r}")
    rank = len(shape) - 2
    families = raw.get("families", ["avg"])
    if not isinstance(families, list) or not families or any(f not in FAMILIES for f in families):
        raise ValueError(f"families must be a list of {', '.join(FAMILIES)}, got {families!r}")
    auto_pad, rounding = raw.get("auto_pad", "notset"), raw.get("rounding", "floor")
    if auto_pad not in AUTO_PADS:
        raise ValueError(f"auto_pad {auto_pad!r} is not one of {', '.join(AUTO_PADS)}")
    if rounding not in ROUNDINGS:
        raise ValueError(f"rounding {rounding!r} is not one of {', '.join(ROUNDINGS)}")
    exclude = raw.get("exclude_pad", True)
    if not isinstance(exclude, bool):
        raise ValueError(f"exclude_pad must be true or false, got {exclude!r}")
    pads_begin, pads_end = _ints(raw, "pads_begin", rank, 0, 0), _ints(raw, "pads_end", rank, 0, 0)
    if auto_pad != "notset" and (any(pads_begin) or any(pads_end)):
        raise ValueError(f"auto_pad {auto_pad} computes its own pads: give no pads_begin/pads_end")
    p = raw.get("p")
    if p is not None and (not isinstance(p, int) or isinstance(p, bool) or p < 1):
        raise ValueError(f"p must be a positive integer, got {p!r}")
    if "lp" in families and p is None:
        # no spec's default: the row's description and every version's spelling must name the same exponent
        raise ValueError("an lp configuration names its p (the norm's exponent)")
    return [
        Configuration(
            id=name, family=family, input_shape=tuple(shape), kernel=_ints(raw, "kernel", rank, 1, 1),
            strides=_ints(raw, "strides", rank, 1, 1), pads_begin=pads_begin, pads_end=pads_end,
            dilations=_ints(raw, "dilations", rank, 1, 1), auto_pad=auto_pad, rounding=rounding,
            include_pad=not exclude, p=p if family == "lp" else None,
        )
        for family in families
    ]


def _input(raw: dict, name: str, shape: tuple[int, ...]) -> TensorSpec:
    body = raw.get("input") or {}
    if set(body) - INPUT_KEYS:
        raise ValueError(f"input: keys from {', '.join(sorted(INPUT_KEYS))} only")
    sources = [k for k in ("arange", "random", "data") if k in body]
    if len(sources) > 1:
        raise ValueError(f"input: give one of arange, random, data (got {', '.join(sources)})")
    arange = body.get("arange", None if sources else {"start": 1, "step": 1})
    return TensorSpec(name=name, shape=shape, dtype=None, data=body.get("data"), random=body.get("random"),
                      arange=arange)


def cases_of(config: Configuration, raw: dict, file: str, line: int) -> list[Case]:
    """One case per op version that can express ``config``; each carries the configuration and the misses."""
    spelled = spell(config, ops.entries())
    if not any(isinstance(s, Spelled) for s in spelled):
        return []  # a family none of whose registered versions spells it (yet): no row for it
    reason = str(raw.get("reason", ""))
    dtypes = tuple(raw.get("dtypes") or ("float32",))
    if any(d not in DTYPE_NAMES for d in dtypes):
        raise ValueError(f"dtypes: unknown name in {list(dtypes)}")
    carried = {**config.to_dict(), "description": config.describe(), "reason": reason,
               "inexpressible": {column(s.domain, s.op, s.version): s.reason
                                 for s in spelled if isinstance(s, Inexpressible)}}
    tags = ("cross-spec", *(raw.get("tags") or ()))
    cases = []
    for s in spelled:
        if not isinstance(s, Spelled):
            continue
        entry = ops.entry(s.domain, s.op)
        ports = entry.inputs_at(s.version)
        inputs = [_input(raw, ports[0].name, config.input_shape)]
        for port in ports[1:]:
            body = s.inputs[port.name]
            inputs.append(TensorSpec(name=port.name, shape=tuple(body["shape"]), dtype=body.get("dtype"),
                                     data=body.get("data")))
        first = entry.outputs_at(s.version)[0]  # values are compared across specs: the first output only
        cases.append(Case(
            id=f"{PREFIX}-{config.family}-{config.id}", op=s.op, domain=s.domain, versions=(s.version,),
            source="cross-spec", attributes=dict(s.attributes), inputs=tuple(inputs),
            outputs=(TensorSpec(name=first.name, shape=None, dtype=first.dtype),), dtypes=dtypes,
            layouts=s.layouts, tags=tags, reason=reason, configuration=carried, file=file, line=line,
        ))
    return cases


def spelled_attributes(config: Configuration) -> dict[str, Any]:
    """``{column: attributes}`` of every version that spells ``config`` (for docs and tests)."""
    return {column(s.domain, s.op, s.version): s.attributes for s in spell(config, ops.entries())
            if isinstance(s, Spelled)}
