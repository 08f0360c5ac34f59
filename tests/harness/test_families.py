"""Each error-model family of the whole opset (ops/families.py) judged on a whole-model case: a planted bug fails,
a result within the family's bound passes, and the bound is the one the family states (a factor of 2 fails)."""

from __future__ import annotations

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper
from whole_model import graph_case
from whole_model import judge as judge_case

from conformance.dtypes import dtype_name
from conformance.model import Case, TensorSpec
from conformance.ops.families import ACCUMULATE, EXACT, HALF_ULPS, PROPAGATE, ULPS, family_of
from conformance.oracle import oracle_for
from conformance.pipeline.verdict import judge_outputs
from conformance.suite.expand import expand

TYPES = {np.dtype(np.float32): TensorProto.FLOAT, np.dtype(np.float16): TensorProto.FLOAT16,
         np.dtype(np.int64): TensorProto.INT64}


def model_case(op: str, inputs: dict[str, np.ndarray], expected: np.ndarray, **attributes) -> Case:
    """A whole-model case of one ``op`` node with its stored output ``expected`` (as a backend test is)."""
    node = helper.make_node(op, list(inputs), ["y"], **attributes)
    graph = helper.make_graph(
        [node], f"test_{op.lower()}",
        [helper.make_tensor_value_info(n, TYPES[a.dtype], list(a.shape)) for n, a in inputs.items()],
        [helper.make_tensor_value_info("y", TYPES[expected.dtype], None)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
    spec = [TensorSpec(name=n, shape=a.shape, dtype=dtype_name(a.dtype), array=a) for n, a in inputs.items()]
    first = next(iter(inputs.values()))
    return Case(id=f"test_{op.lower()}", op=op, domain="ai.onnx", versions=(18,), source="onnx-example",
                attributes=attributes, inputs=tuple(spec),
                outputs=(TensorSpec(name="y", shape=expected.shape, dtype=dtype_name(expected.dtype),
                                    array=expected),),
                dtypes=(dtype_name(first.dtype),), model=model.SerializeToString())


def judge(case: Case, actual: np.ndarray) -> dict:
    instance = expand(case)[0]
    oracle = oracle_for(instance)
    expected = oracle.expected()
    return judge_outputs(oracle.evidence(len(expected)), expected, [actual], "fake")


def ulps_away(value: np.ndarray, count: int) -> np.ndarray:
    out = value.copy()
    for _ in range(count):
        out = np.nextafter(out, np.asarray(np.inf, out.dtype))
    return out


RNG = np.random.default_rng(7)


def test_families_are_disjoint_and_every_ulp_count_positive() -> None:
    assert not EXACT & set(ULPS)
    assert not (EXACT | set(ULPS) | set(ACCUMULATE)) & set(PROPAGATE)
    assert all(n > 0 for n in ULPS.values())
    assert family_of("LayerNormalization").name == "propagate"
    assert family_of("NoSuchOp").name == "onnx-default"


def test_exact_a_one_ulp_change_on_transpose_fails() -> None:
    x = RNG.standard_normal((3, 4)).astype(np.float32)
    case = model_case("Transpose", {"x": x}, x.T.copy())
    assert judge(case, x.T.copy())["status"] == "pass"
    planted = x.T.copy()
    planted[1, 2] = np.nextafter(planted[1, 2], np.float32(np.inf))
    judged = judge(case, planted)
    assert judged["status"] == "fail" and judged["mismatches"] == 1
    assert judged["tolerance"].startswith("exact")


def test_exact_nan_matches_nan_only() -> None:
    x = np.array([1.0, np.nan, 3.0], np.float32)
    case = model_case("Identity", {"x": x}, x.copy())
    assert judge(case, x.copy())["status"] == "pass"
    assert judge(case, np.array([1.0, 2.0, 3.0], np.float32))["status"] == "fail"


def test_exact_int64_beyond_2_53_compared_as_integers() -> None:
    x = np.array([2 ** 60, 3], np.int64)
    case = model_case("Identity", {"x": x}, x.copy())
    assert judge(case, x.copy())["status"] == "pass"
    judged = judge(case, np.array([2 ** 60 + 1, 3], np.int64))  # equal once in float64
    assert judged["status"] == "fail" and judged["worst"][0]["actual"] == 2 ** 60 + 1


def test_ulp_exp_within_its_bound_passes_beyond_it_fails() -> None:
    x = np.linspace(-3, 3, 16, dtype=np.float32)
    y = np.exp(x)
    case = model_case("Exp", {"x": x}, y)
    count = int(ULPS["Exp"] + 1)  # OpenCL's 3 ulp + 1 for the stored value's own rounding
    assert judge(case, ulps_away(y, count))["status"] == "pass"
    judged = judge(case, ulps_away(y, count + 1))
    assert judged["status"] == "fail", judged
    assert judged["tolerance"].startswith(f"{count:g} ulp (float32")


def test_ulp_half_types_get_the_half_count() -> None:
    x = np.linspace(-2, 2, 8, dtype=np.float16)
    y = np.tanh(x)
    case = model_case("Tanh", {"x": x}, y)
    assert judge(case, ulps_away(y, int(HALF_ULPS)))["status"] == "pass"
    assert judge(case, ulps_away(y, int(HALF_ULPS) + 1))["status"] == "fail"


def test_ulp_integer_outputs_are_exact() -> None:
    x = np.array([2, 3], np.int64)
    case = model_case("Pow", {"x": x, "y": np.array([2, 2], np.int64)}, np.array([4, 9], np.int64))
    judged = judge(case, np.array([4, 10], np.int64))
    assert judged["status"] == "fail" and judged["tolerance"].startswith("exact")


def test_accumulate_a_dropped_term_in_reducesum_fails() -> None:
    x = RNG.standard_normal((4, 64)).astype(np.float32)
    axes = np.array([1], np.int64)
    y = x.astype(np.float64).sum(axis=1, keepdims=True).astype(np.float32)
    case = model_case("ReduceSum", {"x": x, "axes": axes}, y)
    # another summation order (float32, sequential) is within the bound
    sequential = np.zeros((4, 1), np.float32)
    for j in range(64):
        sequential[:, 0] += x[:, j]
    judged = judge(case, sequential)
    assert judged["status"] == "pass", judged
    assert "K=64" in judged["tolerance"]
    dropped = (y - x[:, 5:6]).astype(np.float32)
    assert judge(case, dropped)["status"] == "fail"


def test_accumulate_bound_is_k_plus_2_u_times_the_terms_magnitude() -> None:
    # x sums to ~0 from large terms: the bound scales with sum|x| (cancellation does not make it fail)
    x = np.array([[1e4, -1e4, 1.0, -1.0]], np.float32)
    axes = np.array([1], np.int64)
    y = np.zeros((1, 1), np.float32)
    case = model_case("ReduceSum", {"x": x, "axes": axes}, y)
    u = 2.0 ** -24
    allowed = (4 + 2) * u * 20002.0 + 2.0 ** -149  # 1 ulp of 0: float32's smallest subnormal
    assert judge(case, np.array([[allowed * 0.99]], np.float32))["status"] == "pass"
    assert judge(case, np.array([[allowed * 2.0]], np.float32))["status"] == "fail"


def test_random_a_draw_is_judged_on_shape_and_dtype_and_records_no_figure() -> None:
    """Bernoulli's outputs are a draw: two draws give the same record (no error figure of one draw against
    another), and a wrong shape or dtype still fails."""
    x = np.full((4, 5), 0.5, np.float32)
    stored = (RNG.random((4, 5)) < 0.5).astype(np.float32)
    case = model_case("Bernoulli", {"x": x}, stored)
    draws = [judge(case, (RNG.random((4, 5)) < 0.5).astype(np.float32)) for _ in range(3)]
    assert all(d["status"] == "pass" for d in draws) and draws[0] == draws[1] == draws[2]
    assert draws[0]["max_abs_err"] is None and draws[0]["max_ulp"] is None and not draws[0]["worst"]
    assert draws[0]["tolerance"].startswith("random output")
    assert judge(case, stored[:3])["status"] == "fail"
    assert judge(case, stored.astype(np.float64))["status"] == "fail"
    # the schema's promise ("binary random numbers (0 or 1)"): a probability passed through is no draw
    planted = stored.copy()
    planted[2, 3] = 0.5
    judged = judge(case, planted)
    assert judged["status"] == "fail" and judged["mismatches"] == 1 and "[2, 3]" in judged["reason"]
    assert "not 0 or 1" in judged["reason"]


def test_onnx_default_says_so_in_the_record() -> None:
    """Left only for an op no family covers (none of onnx's backend tests): ONNX's rtol/atol, said."""
    x = RNG.standard_normal((2, 8)).astype(np.float32)
    case = model_case("NoSuchOp", {"x": x}, x.copy())
    judged = judge(case, x * np.float32(1 + 5e-4))
    assert judged["status"] == "pass" and judged["tolerance"].startswith("onnx default")
    assert judge(case, x * np.float32(1 + 2e-3))["status"] == "fail"


def test_tree_ensemble_sums_one_leaf_per_tree() -> None:
    """K = the number of trees; every chosen weight at most the largest |leaf weight|: (K + 2)·u·K·max|w| + 1 ulp,
    pinned (a factor of 2 fails)."""
    x = np.array([[1.0], [5.0]], np.float32)
    weights = np.array([1.5, -2.5, 4.0, 0.25], np.float32)
    node = helper.make_node("TreeEnsemble", ["x"], ["y"], domain="ai.onnx.ml", aggregate_function=1, n_targets=1,
                            tree_roots=[0, 1], nodes_featureids=[0, 0], nodes_modes=numpy_helper.from_array(
                                np.zeros(2, np.uint8), "m"), nodes_splits=numpy_helper.from_array(
                                np.array([3.0, 2.0], np.float32), "s"), nodes_truenodeids=[0, 2],
                            nodes_trueleafs=[1, 1], nodes_falsenodeids=[1, 3], nodes_falseleafs=[1, 1],
                            leaf_targetids=[0, 0, 0, 0], leaf_weights=numpy_helper.from_array(weights, "w"))
    y = np.array([[1.5 + 4.0], [-2.5 + 0.25]], np.float32)
    case = graph_case([node], {"x": x}, {"y": y}, "TreeEnsemble", {"": 18, "ai.onnx.ml": 5})
    u = 2.0 ** -24
    allowed = (2 + 2) * u * 2 * 4.0 + np.spacing(np.abs(y)).astype(np.float64)
    assert judge_case(case, (y + np.float32(0.9) * allowed).astype(np.float32))["status"] == "pass"
    assert judge_case(case, (y + np.float32(1.1) * allowed).astype(np.float32))["status"] == "fail"
    assert "K=2" in judge_case(case, y)["tolerance"]


@pytest.mark.parametrize("op", sorted(ULPS))
def test_every_ulp_op_is_an_onnx_op(op: str) -> None:
    assert any(onnx.defs.has(op, domain) for domain in ("", "ai.onnx.preview.training"))


def test_the_reference_column_checks_stored_outputs_with_onnx_reference() -> None:
    from conformance.pipeline.runner import run_reference

    x = RNG.standard_normal((2, 3)).astype(np.float32)
    agreed = run_reference(expand(model_case("Exp", {"x": x}, np.exp(x)))[0])
    assert agreed.status == "pass", agreed.reason
    stored_wrong = np.exp(x) * np.float32(1.01)
    record = run_reference(expand(model_case("Exp", {"x": x}, stored_wrong))[0])
    assert record.status == "erratum"
    assert record.reason.startswith("onnx.reference contradicts the test's stored outputs")


def test_a_model_the_evaluator_cannot_run_is_unsupported_in_the_reference_column() -> None:
    from conformance.pipeline.runner import run_reference

    x = RNG.standard_normal((2, 3)).astype(np.float32)
    record = run_reference(expand(model_case("NoSuchOp", {"x": x}, x.copy()))[0])
    assert record.status == "unsupported" and "onnx.reference cannot evaluate" in record.reason
