"""Shards balanced by costs: ``--shard-costs`` (seconds per node id of an earlier run) puts the long items first
and apart; items it does not name are estimated in its own seconds; a bad file is a usage error naming it; the
shards of one costs file still partition the run."""

from __future__ import annotations

import json
import textwrap
from types import SimpleNamespace

import pytest

from conformance.plugin import shards


def items(*ids: str) -> list:
    return [SimpleNamespace(nodeid=i, instance=None) for i in ids]  # no instance: an estimate of 1 unit each


def loads(assignment: dict[str, int], costs: dict[str, float], count: int) -> list[float]:
    totals = [0.0] * count
    for nodeid, shard in assignment.items():
        totals[shard] += costs[nodeid]
    return totals


def test_known_costs_put_the_long_items_apart_and_first():
    costs = {"a": 9.0, "b": 8.0, "c": 1.0, "d": 1.0, "e": 1.0, "f": 1.0, "g": 1.0}
    found = shards.assign_shards(items(*costs), 2, costs)
    assert found["a"] != found["b"]  # estimated alike they would be ties; measured they are the two long ones
    assert loads(found, costs, 2) == [11.0, 11.0]
    # without costs every item is one unit: a and b may share a shard
    assert sorted(loads(shards.assign_shards(items(*costs), 2), {k: 1.0 for k in costs}, 2)) == [3.0, 4.0]


def test_an_item_the_costs_do_not_name_is_estimated_in_their_seconds():
    known = {"a": 0.998, "b": 0.998}  # 1 s each with the harness's overhead: 1 s per estimated unit
    estimated = dict((n, c) for c, n in shards.costs_of(items("a", "b", "new"), known))
    assert estimated == pytest.approx({"a": 1.0, "b": 1.0, "new": 1.0})
    assert dict((n, c) for c, n in shards.costs_of(items("x"), {})) == {"x": 1.0}  # no costs: the estimate


def test_the_same_costs_give_every_process_the_same_partition():
    costs = {f"i{k}": (k * 37 % 11) / 10 for k in range(200)}
    ids = list(costs)
    first = shards.assign_shards(items(*ids), 4, costs)
    again = shards.assign_shards(items(*reversed(ids)), 4, dict(reversed(list(costs.items()))))
    assert first == again and set(first.values()) == {0, 1, 2, 3}
    totals = loads(first, {k: v + shards.ITEM_OVERHEAD_S for k, v in costs.items()}, 4)
    assert max(totals) - min(totals) <= max(costs.values()) + shards.ITEM_OVERHEAD_S


@pytest.mark.parametrize("text, why", [
    ("[1, 2]", "expected a JSON object"),
    ('{"a": -1}', "expected seconds"),
    ('{"a": NaN}', "expected seconds"),
    ('{"a": true}', "expected seconds"),
    ('{"a": "1"}', "expected seconds"),
    ("{", "cannot read it"),
])
def test_a_bad_costs_file_is_refused_naming_it(tmp_path, text, why):
    path = tmp_path / "costs.json"
    path.write_text(text)
    with pytest.raises(ValueError, match=why) as error:
        shards.read_costs(path)
    assert str(path) in str(error.value)


CASES = textwrap.dedent("""\
    op: AveragePool
    domain: ai.onnx
    versions: [22]
    defaults:
      attributes: {kernel_shape: [2, 2]}
    cases:
    """) + "".join(f"  - id: c{i}\n    inputs: {{x: {{shape: [1, 1, 4, 4], random: {{seed: {i}}}}}}}\n"
                   for i in range(6))


def test_shards_by_costs_partition_a_run_and_a_bad_file_is_a_usage_error(pytester: pytest.Pytester):
    pytester.makefile(".yaml", cases=CASES)
    base = ["-p", "no:cacheprovider", "-p", "no:randomly", "--backend=onnxruntime", "--no-reference",
            "--no-default-cases", "--no-default-expectations", "--cases=cases.yaml"]
    ids = {line for line in pytester.runpytest_subprocess(*base, "--collect-only", "-q").outlines if "::" in line}
    heavy = sorted(ids)[3]
    (pytester.path / "costs.json").write_text(json.dumps({i: 5.0 if i == heavy else 1.0 for i in ids}))
    found = []
    for index in (1, 2):
        out = pytester.path / f"s{index}.jsonl"
        result = pytester.runpytest_subprocess(*base, f"--shard={index}/2", "--shard-costs=costs.json",
                                               f"--results={out}")
        assert result.ret == 0
        found.append({json.loads(line)["nodeid"] for line in out.read_text().splitlines()[1:]})
    assert found[0] | found[1] == ids and not found[0] & found[1]
    assert {heavy} in found  # 5 s against five of 1 s: the heavy item's shard holds it alone
    (pytester.path / "bad.json").write_text('{"x": -1}')
    result = pytester.runpytest_subprocess(*base, "--shard=1/2", "--shard-costs=bad.json")
    assert result.ret == 4 and "--shard-costs=bad.json" in result.stderr.str()


def test_a_bad_shard_is_a_usage_error_before_the_workers_start(pytester: pytest.Pytester):
    """Issue 47: `pytest --shard 3/2 -n 2` was checked where the items are split, in each xdist worker: the
    controller's INTERNALERROR, not a usage error."""
    pytester.makefile(".yaml", cases=CASES)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--backend=onnxruntime", "--no-default-cases",
                                           "--cases=cases.yaml", "--shard=3/2", "-n", "2")
    assert result.ret == 4 and "INTERNALERROR" not in result.stdout.str() + result.stderr.str()
    assert "--shard=3/2: expected i/n with 1 <= i <= n" in result.stderr.str()


def test_the_columns_of_one_instance_share_a_shard():
    """Its oracle is computed once: every column of a case instance runs in the shard of its first."""
    ids = [f"cases/x.yaml::ai.onnx/Op-1/case{k}::{backend}[{dtype}]" for k in range(30)
           for backend in ("reference", "onnxruntime", "openvino", "onednn@avx2") for dtype in ("float32", "float16")]
    instance = SimpleNamespace(input_shapes=[[2, 3]])
    found = shards.assign_shards([SimpleNamespace(nodeid=i, instance=instance) for i in ids], 3)
    by_instance: dict[str, set[int]] = {}
    for nodeid, shard in found.items():
        head, _, column = nodeid.rpartition("::")
        by_instance.setdefault(head + column.partition("[")[2], set()).add(shard)
    assert len(by_instance) == 60 and all(len(s) == 1 for s in by_instance.values())
    assert set(found.values()) == {0, 1, 2}
