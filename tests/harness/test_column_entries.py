"""One call into the backends per item: walking one case item from ``CaseItem.runtest`` to its record enters the
backends' answer checks (backends/answers.py, batch_answer.py and column.py, their successor) once. What the run
needs to know of a column (name, version, ISA level, precision, tolerance scale) is read and checked once, when the
column enters the run (plugin/session.py), and handed to the runner as one value; the runner asks the column once
per item (support, then run or the item's share of a batch) and gets one checked value back.

Counted in a real pytest run: a conftest wraps every public function of those modules (the callers name them
through their module, as the runner does) and counts, per item, the calls made from outside them (a check that
calls another is one entry). A batch is formed once, in the call phase of the item that leads it: that one call
per batch is counted apart from the items'.
"""

from __future__ import annotations

import json
import textwrap

import pytest
from one_case import CASE

CASES = CASE + textwrap.indent(textwrap.dedent("""\
      - id: refused
        attributes: {kernel_shape: [2, 2]}
        inputs:
          x: {shape: [1, 1, 4, 4], dtype: float32, arange: {start: 1}}
      - id: raises
        attributes: {kernel_shape: [1, 1]}
        inputs:
          x: {shape: [1, 1, 4, 4], dtype: float32, arange: {start: 2}}
      - id: plain
        attributes: {kernel_shape: [2, 2], strides: [2, 2]}
        inputs:
          x: {shape: [1, 1, 4, 4], dtype: float32, arange: {start: 3}}
"""), "  ")

FAKES = textwrap.dedent("""\
    import conformance_reference as reference
    from conformance.backends.base import Backend, Support, Unsupported
    from conformance.backends.batch_answer import Batched

    class Plain(Backend):
        name = "plain"
        def version(self):
            return "1"
        def supports(self, case):
            return Support.no("not this one") if "/refused[" in case.id else Support.yes()
        def run(self, case, inputs):
            if "/raises[" in case.id:
                raise Unsupported("found out while running")
            return list(reference.evaluate(case.domain, case.op, case.version, inputs, case.attributes).outputs)

    class Batching(Plain):
        name = "batching"
        def run_batch(self, instances, inputs_list):
            return [None if "/raises[" in c.id else Batched(self.run(c, i))
                    for c, i in zip(instances, inputs_list)]
""")

COUNTER = textwrap.dedent("""\
    import functools, inspect, json, os
    import pytest
    from conformance.backends import answers, batch_answer, column

    ENTRIES = {"items": {}, "batches": []}  # node id -> the functions entered from outside; each batch's
    state = {"depth": 0, "item": None, "batching": False}

    def counted(function):
        @functools.wraps(function)
        def call(*args, **kwargs):
            if state["depth"] == 0 and state["item"] is not None:
                where = ENTRIES["batches"] if state["batching"] else ENTRIES["items"].setdefault(state["item"], [])
                where.append(function.__name__)
            state["depth"] += 1
            try:
                return function(*args, **kwargs)
            finally:
                state["depth"] -= 1
        return call

    for module in (answers, batch_answer, column):
        for name, value in list(vars(module).items()):
            if inspect.isfunction(value) and not name.startswith("_") and value.__module__ == module.__name__:
                setattr(module, name, counted(value))

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_call(item):
        state["item"] = item.nodeid
        yield
        state["item"] = None

    @pytest.hookimpl(hookwrapper=True)
    def pytest_conformance_batched(item):
        state["batching"] = True
        yield
        state["batching"] = False

    def pytest_sessionfinish(session):
        with open(os.environ["ENTRIES"], "w") as file:
            json.dump(ENTRIES, file)
""")


@pytest.mark.parametrize("backend", ["Plain", "Batching"])
def test_an_item_enters_the_backends_answers_once(pytester: pytest.Pytester, monkeypatch, backend: str) -> None:
    pytester.makefile(".yaml", cases=CASES)
    pytester.makepyfile(fakes=FAKES)
    pytester.makeconftest(COUNTER)
    entries = pytester.path / "entries.json"
    monkeypatch.setenv("ENTRIES", str(entries))
    results = pytester.path / "r.jsonl"
    result = pytester.runpytest_subprocess("--no-default-cases", "--no-default-expectations", "-p", "no:cacheprovider",
                                           "-p", "no:randomly", "--cases=.", f"--backend=fakes:{backend}",
                                           "--isolation=none", "--no-reference", f"--results={results}")
    lines = [json.loads(line) for line in results.read_text().splitlines()[1:]]  # after the run's meta line
    records = {r["id"].rsplit("/", 1)[-1].partition("[")[0]: r for r in lines}
    assert {k: r["status"] for k, r in records.items()} == {
        "ceil": "pass", "refused": "unsupported", "raises": "unsupported", "plain": "pass"}, result.stdout.str()
    entries = json.loads(entries.read_text())
    assert len(entries["items"]) == 4 and all(len(e) == 1 for e in entries["items"].values()), entries
    # one batch, led by ceil (refused, which its backend does not support, is seen there and not offered again)
    assert len(entries["batches"]) == (1 if backend == "Batching" else 0), entries
