"""How one primitive node moves the errors of its inputs to its outputs and adds its own rounding, to first order
(ops/propagate.py walks a graph with them). Each rule is its op's family (ops/families.py) as a step of a larger
computation:

- data movement and selection (``exact`` ops: Reshape, Gather, Concat, Where...): the error moves with the values
  (the node applied to the error tensors), nothing added; Max, Min, Clip and ReduceMax keep the largest error of
  what they select from;
- the IEEE 754 basic operations (+, -, *): the inputs' errors carried through the operation's derivative, and
  half an ULP of the result (correctly rounded);
- elementwise functions (``ulp`` ops: Exp, Log, Sqrt, Div, Tanh...): |f'(x)|·e(x), and the function's own OpenCL
  count of ULPs (ops/families.py ULPS; HALF_ULPS in a half type);
- sums (``accumulate`` ops: ReduceSum, ReduceMean, MatMul, Conv, Einsum, Col2Im...): multilinear in their float
  inputs, so e(y) = Σ over inputs of the op applied to that input's error and the others' |values|, plus
  (K + 2)·u·(the op on |inputs|), K per element the op on inputs of ones (its number of terms; a mean's count).

A node whose outputs are not floating (shapes, indices, comparisons) is exact: its outputs carry no error
(first order: a comparison away from its threshold does not move). ``RULES`` maps an op to its rule; an op with
no rule and a function body is expanded (ops/propagate.py), else the walk stops and says which op.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from conformance.dtypes import dtype_name, finfo, floating, ulp
from conformance.ops.families import HALF_ULPS, ULPS

Error = np.ndarray | None  # None: exact (no error at all)


@dataclass
class Step:
    """One node as its rule sees it: its input values and errors, its output values, and a way to run the node
    on other inputs (the error tensors, |values|, ones)."""

    node: Any  # onnx.NodeProto
    values: list[Any]  # per input (None: an omitted optional input)
    errors: list[Error]
    outputs: list[Any]
    run: Callable[[list[Any]], list[Any]]
    least: str | None = None  # the coarsest type a result may be rounded to here (a function body's op's type)

    @property
    def attributes(self) -> dict[str, Any]:
        from onnx import helper

        return {a.name: helper.get_attribute_value(a) for a in self.node.attribute}

    def floats(self) -> list[int]:
        """The positions of the floating-point inputs."""
        return [i for i, v in enumerate(self.values) if v is not None and _is_float(v)]

    def error(self, index: int) -> np.ndarray:
        value = np.asarray(self.values[index])
        found = self.errors[index]
        return np.zeros(value.shape) if found is None else found


def _is_float(value: Any) -> bool:
    return isinstance(value, np.ndarray) and floating(value.dtype)


def _f64(value: Any) -> np.ndarray:
    return np.asarray(value, dtype=np.float64)


def _coarser(y: np.ndarray, least: str | None) -> str:
    """The type a node's result is rounded to: its own, or ``least`` where that is coarser (a function body's
    wider intermediate types are its author's choice, not the op's requirement: a runtime may compute in the op's
    own type)."""
    name = dtype_name(y.dtype)
    if least is None or not floating(np.dtype(y.dtype)) or finfo(least).nmant >= finfo(name).nmant:
        return name
    return least


def half_ulp(y: np.ndarray, least: str | None = None) -> np.ndarray:
    """A correctly rounded operation's own error: half an ULP of its result in the type it is rounded to."""
    return 0.5 * ulp(_f64(y), _coarser(y, least))


def function_ulps(op: str, y: np.ndarray, least: str | None = None) -> np.ndarray:
    """An elementwise function's own error: its OpenCL count of ULPs (HALF_ULPS in a half type)."""
    name = _coarser(y, least)
    count = HALF_ULPS if name in ("float16", "bfloat16") else ULPS[op]
    return count * ulp(_f64(y), name)


def unit(y: np.ndarray, least: str | None = None) -> float:
    return 2.0 ** -(finfo(_coarser(y, least)).nmant + 1)


def _exact_outputs(step: Step) -> list[Error]:
    return [None] * len(step.outputs)


def _any_error(step: Step) -> bool:
    return any(step.errors[i] is not None for i in step.floats())


def move(step: Step) -> list[Error]:
    """Data movement, selection by index or condition: the node applied to the errors (float data replaced by its
    error, indices and shapes kept), so each output element carries the error of the element it came from."""
    if not _any_error(step):
        return _exact_outputs(step)
    floats = set(step.floats())
    moved = step.run([step.error(i) if i in floats else v for i, v in enumerate(step.values)])
    return [np.abs(_f64(e)) if _is_float(y) else None for e, y in zip(moved, step.outputs)]


def largest(step: Step) -> list[Error]:
    """A selection among several values (Max, Min, Clip, ReduceMax, ReduceMin): at most the largest error of what
    it selects from (the node's max over the errors, which are >= 0)."""
    if not _any_error(step):
        return _exact_outputs(step)
    y = step.outputs[0]
    op = step.node.op_type
    if op in ("ReduceMax", "ReduceMin"):
        return [np.abs(_f64(step.run([step.error(0), *step.values[1:]])[0]))]
    found = np.zeros(np.shape(y))
    for i in step.floats():
        found = np.maximum(found, step.error(i))
    return [found]


def cast(step: Step) -> list[Error]:
    """A float to float cast keeps the error and rounds once more when it narrows; any other is exact."""
    y = step.outputs[0]
    x = step.values[0]
    if not (_is_float(y) and _is_float(x)):
        return [None]
    rounds = np.dtype(y.dtype).itemsize < np.dtype(x.dtype).itemsize or finfo(dtype_name(y.dtype)).nmant < finfo(
        dtype_name(x.dtype)).nmant
    found = step.error(0) + (half_ulp(y, step.least) if rounds else 0.0)
    return [found if rounds or step.errors[0] is not None else None]


def add(step: Step) -> list[Error]:
    y = step.outputs[0]
    return [np.broadcast_to(step.error(0) + step.error(1), np.shape(y)) + half_ulp(y, step.least)]


def mul(step: Step) -> list[Error]:
    a, b = (_f64(v) for v in step.values[:2])
    y = step.outputs[0]
    return [np.abs(b) * step.error(0) + np.abs(a) * step.error(1) + half_ulp(y, step.least)]


def div(step: Step) -> list[Error]:
    b = np.abs(_f64(step.values[1]))
    y = step.outputs[0]
    with np.errstate(divide="ignore", invalid="ignore"):
        carried = step.error(0) / b + np.abs(_f64(y)) * step.error(1) / b
    return [carried + function_ulps("Div", y, step.least)]


def power(step: Step) -> list[Error]:
    x, p = (_f64(v) for v in step.values[:2])
    y = step.outputs[0]
    yy = _f64(y)
    with np.errstate(divide="ignore", invalid="ignore"):
        dx = np.where(x != 0, np.abs(p * yy / x), np.where(p >= 1, 0.0, np.inf))
        dp = np.abs(yy * np.log(np.abs(x)))
    carried = dx * step.error(0) + (dp * step.error(1) if step.errors[1] is not None else 0.0)
    return [carried + function_ulps("Pow", y, step.least)]


def _sqrt_carried(x: np.ndarray, y: np.ndarray, e: np.ndarray) -> np.ndarray:
    # e/(2·sqrt x) to first order, but never more than sqrt(e): sqrt(x + e) - sqrt(x) <= sqrt(e) near 0
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.minimum(e / (2 * np.abs(y)), np.sqrt(e))


#: f'(x) of each elementwise function, from x and y = f(x) (float64)
DERIVATIVES: dict[str, Callable[[np.ndarray, np.ndarray], np.ndarray]] = {
    "Exp": lambda x, y: np.abs(y),
    "Log": lambda x, y: 1 / np.abs(x),
    "Reciprocal": lambda x, y: y * y,
    "Tanh": lambda x, y: 1 - y * y,
    "Sigmoid": lambda x, y: np.abs(y * (1 - y)),
    "Erf": lambda x, y: 2 / math.sqrt(math.pi) * np.exp(-x * x),
    "Sin": lambda x, y: np.ones_like(x), "Cos": lambda x, y: np.ones_like(x),
    "Tan": lambda x, y: 1 + y * y, "Atan": lambda x, y: 1 / (1 + x * x),
    "Softplus": lambda x, y: 1 / (1 + np.exp(-x)),
}


def function(step: Step) -> list[Error]:
    """An elementwise function: |f'(x)|·e(x), and its own ULPs."""
    op = step.node.op_type
    x, y = _f64(step.values[0]), step.outputs[0]
    e = step.error(0)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        carried = _sqrt_carried(x, _f64(y), e) if op == "Sqrt" else np.abs(DERIVATIVES[op](x, _f64(y))) * e
    return [np.where(e > 0, carried, 0.0) + function_ulps(op, y, step.least)]


def negate(step: Step) -> list[Error]:
    """Neg, Abs, Relu: no rounding, and none moves a value by more than its input moves."""
    return [None if step.errors[0] is None else step.error(0)]


def float_range(step: Step) -> list[Error]:
    """Range: start + i·delta, its ULP count (ops/families.py) per element; an integer range is exact."""
    y = step.outputs[0]
    return [function_ulps("Range", y, step.least) if _is_float(y) else None]


#: multilinear ops: the inputs that are added (a bias: its error adds as it is), not multiplied
ADDITIVE = {"Conv": (2,), "ConvTranspose": (2,), "Sum": "all", "Mean": "all"}
#: ops that divide their sum by its count: K is the count, not the op on ones
AVERAGING = {"ReduceMean", "Mean"}


def multilinear(step: Step) -> list[Error]:
    """A sum of products of its float inputs (MatMul, Conv, Einsum, the Reduce sums, Col2Im...): each input's
    error through the op with the others' |values|, plus (K + 2)·u·(the op on |inputs|): the accumulate bound
    (Higham §3.1, §4.2), K per element the op on ones (or the count a mean divides by)."""
    y = step.outputs[0]
    floats = step.floats()
    additive = ADDITIVE.get(step.node.op_type, ())
    additive = floats if additive == "all" else [i for i in floats if i in additive]
    absolute = [np.abs(_f64(v)) if i in floats else v for i, v in enumerate(step.values)]

    def through(replace: dict[int, Any]) -> np.ndarray:
        inputs = list(absolute)
        for i, v in replace.items():
            inputs[i] = v
        return _f64(step.run(inputs)[0])

    carried = np.zeros(np.shape(y))
    for i in floats:
        if step.errors[i] is None:
            continue
        # a bias's error adds as it is (the products zeroed); a factor's goes through the products (biases zeroed)
        zeroed = [j for j in floats if j != i and (i in additive or j in additive)]
        carried = carried + through({**{j: np.zeros(np.shape(step.values[j])) for j in zeroed}, i: step.error(i)})
    magnitude = _f64(step.run(absolute)[0])
    ones = [np.ones(np.shape(v)) if i in floats else v for i, v in enumerate(step.values)]
    if step.node.op_type in AVERAGING:
        count = max(sum(math.prod(np.shape(step.values[i])) for i in floats[:1]) // max(np.size(y), 1), 1)
        k = np.full(np.shape(y), float(len(floats) if step.node.op_type == "Mean" else count))
    else:
        k = _f64(step.run(ones)[0])
    return [carried + (k + 2) * unit(y, step.least) * magnitude]


def determinant(step: Step) -> list[Error]:
    """Det by LU with partial pivoting (Higham, Thm 9.3 and §14.6): the computed factors are exact for A + ΔA,
    |ΔA| <= γ_3n·|L||U|, and the product of U's diagonal adds n - 1 roundings; a change ΔA moves det(A) by
    Σ_ij |cof_ij|·|ΔA_ij| (first order), so e = Σ_ij |cof_ij|·(e(A)_ij + γ_3n·(|L||U|)_ij) + (n - 1)·u·|det|."""
    a = _f64(step.values[0])
    y = step.outputs[0]
    n = a.shape[-1]
    u = unit(y, step.least)
    gamma = 3 * n * u / (1 - 3 * n * u)
    e = step.error(0)
    flat, errors = a.reshape(-1, n, n), e.reshape(-1, n, n)
    found = np.empty(len(flat))
    for index, (matrix, error) in enumerate(zip(flat, errors)):
        lu = _lu_magnitude(matrix)
        cof = np.array([[(-1) ** (i + j) * np.linalg.det(np.delete(np.delete(matrix, i, 0), j, 1)) if n > 1 else 1.0
                         for j in range(n)] for i in range(n)])
        found[index] = float(np.sum(np.abs(cof) * (error + gamma * lu)))
    found = found.reshape(np.shape(y)) + (n - 1) * u * np.abs(_f64(y)) + half_ulp(y, step.least)
    return [found]


def _lu_magnitude(matrix: np.ndarray) -> np.ndarray:
    """|P^T||L||U| of the LU factorisation with partial pivoting (float64), in A's row order."""
    n = matrix.shape[0]
    u = matrix.astype(np.float64).copy()
    lower = np.eye(n)
    order = np.arange(n)
    for k in range(n - 1):
        pivot = k + int(np.argmax(np.abs(u[k:, k])))
        u[[k, pivot]], order[[k, pivot]] = u[[pivot, k]], order[[pivot, k]]
        lower[[k, pivot], :k] = lower[[pivot, k], :k]
        if u[k, k] != 0:
            lower[k + 1:, k] = u[k + 1:, k] / u[k, k]
            u[k + 1:] -= np.outer(lower[k + 1:, k], u[k])
    product = np.abs(lower) @ np.abs(np.triu(u))
    found = np.empty_like(product)
    found[order] = product
    return found


RULES: dict[str, Callable[[Step], list[Error]]] = {"Det": determinant}
for _op in """Reshape Flatten Squeeze Unsqueeze Transpose Concat Split Slice Gather GatherElements GatherND Expand Tile
Identity Where Pad Trilu Compress ScatterElements ScatterND DepthToSpace SpaceToDepth ReverseSequence CenterCropPad
Dropout""".split():
    RULES[_op] = move
for _op in "Max Min Clip ReduceMax ReduceMin".split():
    RULES[_op] = largest
for _op in "Neg Abs Relu".split():
    RULES[_op] = negate
for _op in DERIVATIVES:
    RULES[_op] = function
for _op in """Shape Size Constant ConstantOfShape Equal Less LessOrEqual Greater GreaterOrEqual And Or Not Xor IsNaN
IsInf ArgMax ArgMin NonZero Sign Ceil Floor Round Mod EyeLike OneHot""".split():
    RULES[_op] = _exact_outputs
for _op in "MatMul Conv ConvTranspose Einsum ReduceSum ReduceMean Sum Mean CumSum Col2Im".split():
    RULES[_op] = multilinear
RULES.update({"Cast": cast, "CastLike": cast, "Add": add, "Sub": add, "Mul": mul, "Div": div, "Pow": power,
              "Sqrt": function, "Range": float_range})
