"""``Expectations.find`` reads the glob and match: entries of the item's backend only (an index by the backend an
entry can hold for): it must answer what the definition answers — the first entry in file order that matches the
item and applies at its version and ISA level, an ``id:`` entry before every pattern (the most specific wins,
issue 47)."""

from __future__ import annotations

import itertools
import random
from types import SimpleNamespace

from conformance.expectations import Entry, Expectations, _backends_of
from conformance.expectations import match as matching

BACKENDS = ["onnxruntime", "openvino", "tract", "onnx-reference"]
CASES = ["ceil", "pads", "test_abs", "test_tile"]
OPS = ["MaxPool", "AveragePool"]


def by_definition(expectations: Expectations, item_id: str, version: str, isa: str, subject) -> Entry | None:
    holding = [e for e in expectations.entries
               if e.matches_id(item_id, subject) and matching.applies(e.versions, e.isa, version, isa)]
    return next((e for e in holding if e.id is not None), holding[0] if holding else None)


def entries(rnd: random.Random) -> list[Entry]:
    made = []
    for n in range(40):
        backend, case = rnd.choice(BACKENDS), rnd.choice(CASES)
        kind = rnd.randrange(7)
        if kind == 0:
            made.append(Entry(f"id{n}", id=f"ai.onnx/{rnd.choice(OPS)}-12/{case}::{backend}[float32]"))
        elif kind == 1:
            made.append(Entry(f"g{n}", glob=f"ai.onnx/*/{case}::{backend}[*]"))
        elif kind == 2:  # a backend the index cannot read: any backend's bucket
            made.append(Entry(f"g{n}", glob=rnd.choice([f"*/{case}::*[*]", f"*{case}*", f"*::{backend[:3]}*[*]",
                                                        f"ai.onnx/*::{backend}"])))
        elif kind == 3:
            made.append(Entry(f"m{n}", match={"backend": rnd.sample(BACKENDS, rnd.randrange(1, 3)), "case": case}))
        elif kind == 4:
            made.append(Entry(f"m{n}", match={"backend": backend, "op": rnd.choice([*OPS, OPS, ["LpPool"]])}))
        elif kind == 5:
            made.append(Entry(f"m{n}", match={"case": case, "version": [12], **({"op": rnd.choice(OPS)}
                                                                                if rnd.random() < 0.5 else {})}))
        else:
            made.append(Entry(f"v{n}", glob=f"*::{backend}[*]", versions=">=2.0"))
    return made


def test_find_answers_what_the_definition_answers() -> None:
    rnd = random.Random(20261126)
    for _ in range(30):
        expectations = Expectations(entries(rnd))
        for backend, case, version, op in itertools.product(BACKENDS, CASES, ["1.0", "2.5"], OPS):
            item_id = f"ai.onnx/{op}-12/{case}::{backend}[float32]"
            subject = SimpleNamespace(id=f"ai.onnx/{op}-12/{case}[float32]", op=op, version=12,
                                      dtype="float32", domain="ai.onnx", attributes={})
            for given in (subject, None):  # without a subject, no match: entry holds
                assert expectations.find(item_id, version, "", given) is \
                    by_definition(expectations, item_id, version, "", given), (item_id, version, given)


def test_an_entry_is_indexed_under_the_backend_it_names_or_any() -> None:
    assert _backends_of(Entry("", glob="ai.onnx/*/x::tract[*]")) == ["tract"]
    assert _backends_of(Entry("", glob="ai.onnx/*/x::tr*[*]")) == [""]
    assert _backends_of(Entry("", glob="ai.onnx/*")) == [""]
    assert _backends_of(Entry("", match={"backend": ["tract", "openvino"], "case": "x"})) == ["tract", "openvino"]
    assert _backends_of(Entry("", match={"case": "x"})) == [""]
