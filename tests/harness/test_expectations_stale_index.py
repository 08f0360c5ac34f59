"""A ``match:`` entry's stale check reads an index of the run's records (expectations/match.py Subjects): it must
say exactly what checking every part value against every record says."""

from __future__ import annotations

import itertools
import json
import random
from types import SimpleNamespace

from conformance.expectations import match as matching


def brute_force(match: dict, subjects: list) -> list[str]:
    """The definition, record by record: a part value is missing when no record holds that part with it."""
    missing = []
    for part, wanted in match.items():
        if part == "attributes":
            for name, w in wanted.items():
                for v in (w[matching.ONE_OF] if isinstance(w, dict) else [w]):
                    if not any(matching.part_holds(part, {name: v}, s, b) for s, b in subjects):
                        missing.append(f"attributes.{name}={json.dumps(v)}")
        elif part == "version" and isinstance(wanted, str):
            if not any(matching.part_holds(part, wanted, s, b) for s, b in subjects):
                missing.append(f"version {wanted}")
        else:
            missing += [f"{part}={v}" for v in (wanted if isinstance(wanted, list) else [wanted])
                        if not any(matching.part_holds(part, v, s, b) for s, b in subjects)]
    if not missing and not any(matching.holds(match, s, b) for s, b in subjects):
        missing.append("the parts together")
    return missing


def record(case: str, op: str, version: int, dtype: str, attributes: dict) -> SimpleNamespace:
    return SimpleNamespace(id=f"ai.onnx/{op}-{version}/{case}[{dtype}]", op=op, version=version, dtype=dtype,
                           domain="ai.onnx", attributes=attributes, tags=["node"])


def test_the_index_says_what_every_record_says() -> None:
    rnd = random.Random(20261126)
    cases, ops, dtypes = ["ceil", "ceil_pads", "floor", "test_abs", "test_abs_expanded"], ["MaxPool", "Abs"], \
        ["float32", "float16"]
    subjects = [(record(c, o, v, d, {"kernel_shape": [k, k]} if k else {}), b)
                for c, o, v, d, k, b in itertools.product(cases, ops, (12, 22), dtypes, (0, 2, 3),
                                                          ("tract", "openvino@avx2"))
                if rnd.random() < 0.3]
    parts = {
        "backend": ["tract", "openvino", "onednn", ["tract", "onednn"]],
        "case": ["ceil", "ceil*", "*expanded", "nothing*", ["floor", "test_abs"], ["gone"]],
        "op": ["MaxPool", "Abs", ["Conv", "Abs"]],
        "version": [12, [12, 22], ">=13", "<=11", [7]],
        "dtype": ["float16", ["bfloat16"]],
        "attributes": [{"kernel_shape": [2, 2]}, {"kernel_shape": {"one_of": [[3, 3], [5, 5]]}},
                       {"kernel_shape": None}, {"auto_pad": "VALID"}],
        "tags": ["node"],  # a list-valued field never equals a match value
    }
    checked = stale = 0
    for _ in range(400):
        chosen = rnd.sample(sorted(parts), rnd.randint(1, 4))
        match = {part: rnd.choice(parts[part]) for part in chosen}
        got = matching.unmatched(match, matching.Subjects(subjects))
        assert got == brute_force(match, subjects), match
        checked += 1
        stale += bool(got)
    assert checked == 400 and 50 < stale < 390  # both answers were exercised
