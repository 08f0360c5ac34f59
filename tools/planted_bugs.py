"""Planted bugs on onnx's backend tests: how many the harness's bounds catch, and how close a runtime comes to them
(issue 46; docs/tolerance.md, "The whole opset: families").

For every backend test of the chosen ops (``--all``: every test), the backend's own outputs are judged by the
harness as a run judges them; then one element of every floating-point output (a choice seeded by the test's id,
among its non-zero finite elements) is changed — by n ULPs of its type, or by a relative r — and judged again: the
test's planted bug is caught when that judgement fails. A test whose outputs cannot hold a change (a relative
change below half an ULP of their type: bfloat16, often float16) plants nothing for it and is not counted. A test
the backend does not support, or fails to run, is planted on its stored outputs instead (judged against
themselves). ONNX's own default (rtol 1e-3, atol 1e-7) judges the same planted outputs, for comparison.

Per op (or per family with ``--by family``) it prints the tests, how many pass unplanted, how many each planting
catches (ONNX's default in parentheses), and the largest |err|/allowed of the passing tests' unplanted outputs
(how much of the bound the backend uses).

    python tools/planted_bugs.py --backend onnxruntime [--ops LayerNormalization,Resize | --all --by family]
        [--plant rel:5e-4 --plant ulp:16 ...] [--json file]
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
import warnings
import zlib

import numpy as np

#: the ops onnx-default judged before issue 46 (and two sequence ops its loosest-node rule reached)
FORMER = """Attention SoftmaxCrossEntropyLoss LayerNormalization Resize RMSNormalization NegativeLogLikelihoodLoss
LinearAttention CausalConvWithState LogSoftmax FlexAttention GridSample ReduceL2 ReduceLogSumExp RotaryEmbedding
SequenceMap ReduceLogSum BatchNormalization Einsum ImageDecoder AffineGrid TfIdfVectorizer GRU LSTM RNN Col2Im
DeformConv GroupNormalization Scan SequenceConstruct If InstanceNormalization Loop Momentum MeanVarianceNormalization
RoiAlign Adagrad Adam TreeEnsemble Det LRN Gradient MelWeightMatrix Upsample SequenceEmpty SequenceLength
SequenceAt""".split()
PLANTS = ("ulp:1", "ulp:16", "rel:1e-5", "rel:5e-4", "rel:2e-3")


def _chosen(outputs: list[np.ndarray], seed: int) -> list[int | None]:
    """Per output, the flat index of the element to change (None: no floating non-zero finite element)."""
    from conformance.dtypes import floating

    rng = np.random.default_rng(seed)
    found = []
    for output in outputs:
        if not (isinstance(output, np.ndarray) and floating(output.dtype) and output.size):
            found.append(None)
            continue
        flat = output.reshape(-1).astype(np.float64)
        candidates = np.flatnonzero(np.isfinite(flat) & (flat != 0))
        found.append(int(rng.choice(candidates)) if candidates.size else None)
    return found


def _planted(outputs: list[np.ndarray], where: list[int | None], plant: str) -> list[np.ndarray] | None:
    """The outputs with ``plant`` (``ulp:n`` or ``rel:r``) at each chosen element; None when nothing changed."""
    from conformance.dtypes import dtype_name, ulp

    kind, amount = plant.split(":")
    planted, changed = [], False
    for output, at in zip(outputs, where):
        output = np.array(output, copy=True)
        if at is not None:
            flat = output.reshape(-1)
            before = flat[at]
            if kind == "ulp":  # n steps of the type's spacing, each exact in the type
                value = float(before)
                for _ in range(int(amount)):
                    value += float(ulp(np.float64(abs(value)), dtype_name(flat.dtype)))
                flat[at] = flat.dtype.type(value)
            else:
                flat[at] = flat.dtype.type(float(before) * (1 + float(amount)))
            changed = changed or bool(flat[at] != before)
        planted.append(output)
    return planted if changed else None


def _onnx_default_fails(expected: list[np.ndarray], actual: list[np.ndarray]) -> bool:
    from conformance.dtypes import floating

    for e, a in zip(expected, actual):
        if isinstance(e, np.ndarray) and floating(e.dtype):
            if np.shape(a) != e.shape:
                return True
            e64, a64 = e.astype(np.float64), np.asarray(a, dtype=np.float64)
            with np.errstate(invalid="ignore"):
                if not np.allclose(a64, e64, rtol=1e-3, atol=1e-7, equal_nan=True):
                    return True
    return False


def _used(evidence, expected: list[np.ndarray], actual: list[np.ndarray], backend: str) -> float:
    """The largest |err| / allowed over the floating outputs (0 where the error is 0; inf where the bound is 0)."""
    from conformance.compare.outputs import policies
    from conformance.compare.tolerance import Policy
    from conformance.dtypes import floating

    magnitude = evidence.magnitude() or [None] * len(expected)
    worst = 0.0
    for policy, e, a, m in zip(policies(evidence, backend), expected, actual, magnitude):
        if not isinstance(policy, Policy) or not isinstance(a, np.ndarray) or a.shape != e.shape or not (
                floating(e.dtype) and floating(a.dtype)):
            continue
        e64, a64 = e.astype(np.float64), a.astype(np.float64)
        finite = np.isfinite(e64) & np.isfinite(a64)
        if not finite.any():
            continue
        err = np.abs(a64 - e64)
        with np.errstate(divide="ignore", invalid="ignore"):
            ratio = np.where(err == 0, 0.0, err / policy.bound(e64, m))
        worst = max(worst, float(np.nanmax(np.where(finite, ratio, 0.0))))
    return worst


def _run(backend, instance, inputs: list[np.ndarray]) -> list[np.ndarray] | None:
    from conformance.backends import answers

    try:
        if answers.support(backend, backend.supports(instance)):
            return list(answers.answer(backend, backend.run(instance, [x.copy() for x in inputs])).outputs)
    except Exception:  # the backend fails the test: planted on the stored outputs
        return None
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", default="onnxruntime")
    parser.add_argument("--ops", default="", help="comma-separated ops (default: the former onnx-default ops)")
    parser.add_argument("--all", action="store_true", help="every backend test")
    parser.add_argument("--by", choices=("op", "family"), default="op")
    parser.add_argument("--plant", action="append", help=f"ulp:N or rel:R, repeatable (default: {' '.join(PLANTS)})")
    parser.add_argument("--json", default="", help="write every test's figures to this file")
    args = parser.parse_args(argv)

    from conformance.backends import registry
    from conformance.oracle import oracle_for
    from conformance.pipeline.verdict import judge_outputs
    from conformance.suite import backend_tests
    from conformance.suite.expand import expand

    ops = set(args.ops.split(",")) if args.ops else set(FORMER)
    plants = args.plant or list(PLANTS)
    backend = registry.create(args.backend)
    rows = []
    warnings.simplefilter("ignore")
    for kind in backend_tests.KINDS:
        for test in backend_tests.load(kind):
            instance = expand(backend_tests.to_case(test))[0]
            oracle = oracle_for(instance)
            expected = oracle.expected() or []
            judged = oracle.whole().judged
            if (not args.all and judged.op not in ops) or instance.case.non_tensor or not expected:
                continue
            evidence = oracle.evidence(len(expected))
            ran = _run(backend, instance, oracle.inputs)
            actual = ran if ran is not None and len(ran) == len(expected) else expected
            verdict = judge_outputs(evidence, expected, actual, backend.name)
            where = _chosen(actual, zlib.crc32(instance.id.encode()))
            row = {"id": instance.id, "op": judged.op, "family": judged.family.name, "ran": ran is not None,
                   "status": verdict["status"], "tolerance": verdict["tolerance"],
                   "used": _used(evidence, expected, actual, backend.name), "caught": {}, "onnx_default": {}}
            for plant in plants:
                planted = _planted(actual, where, plant)
                if planted is None:
                    continue
                row["caught"][plant] = judge_outputs(evidence, expected, planted, backend.name)["status"] == "fail"
                row["onnx_default"][plant] = _onnx_default_fails(expected, planted)
            if row["caught"]:
                rows.append(row)
    groups: dict[str, list[dict]] = collections.defaultdict(list)
    for row in rows:
        groups[row[args.by]].append(row)
    print(f"{args.by:28} tests  ran  pass " + " ".join(f"{p:>15}" for p in plants) + "  max-used")
    for name in [*sorted(groups), "all"]:
        group = rows if name == "all" else groups[name]
        cells = []
        for plant in plants:
            planted = [x for x in group if plant in x["caught"]]
            caught = sum(x["caught"][plant] for x in planted)
            default = sum(x["onnx_default"][plant] for x in planted)
            cells.append(f"{100 * caught / len(planted):5.1f}% ({default:3})" if planted else f"{'-':>15}")
        used = max([x["used"] for x in group if x["status"] == "pass"], default=0.0)
        print(f"{name:28} {len(group):5} {sum(x['ran'] for x in group):4} "
              f"{sum(x['status'] == 'pass' for x in group):5} " + " ".join(f"{c:>15}" for c in cells) +
              f"  {used:8.3g}")
    if args.json:
        with open(args.json, "w") as handle:
            json.dump(rows, handle, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
