"""How the outputs of an ONNX op the harness has no reference for are judged: its error-model family, declared
once here for the whole opset (the onnx backend tests' ops, docs/tolerance.md "Families").

The ops with our own reference (pooling) have a registry entry with per-output models; every other op is judged
against the backend test's stored outputs by its family:

- ``exact``: no rounding the spec leaves open — data movement, indexing, gather/scatter, selections,
  comparisons, integer and bool ops, casts, and the IEEE 754 basic operations (+, -, *: correctly rounded, so a
  correct result equals the stored one). Bit for bit, NaN matching NaN.
- ``ulp``: an elementwise function of float inputs: ``n`` ULPs of the expected value. ``n`` is the OpenCL C
  specification's maximum error for the single-precision built-in of that function (OpenCL 3.0 C spec, §7.4,
  "ULP values for single precision built-in math functions"; a composite op adds its parts') plus 1 for the
  stored value's own rounding (numpy's float32 functions are not correctly rounded either). The same counts
  hold for float64; half types (float16, bfloat16) get ``HALF_ULPS``: computed in float32 and rounded once, on
  either side, the two results are at most one half-type ULP apart, and one more covers a runtime that
  evaluates a polynomial in the half type itself.
- ``accumulate``: a sum of K terms (reductions, MatMul, Gemm, Conv, CumSum, Softmax's denominator):
  (K + 2)·u·M + 1 ulp, where M is the op applied to |x| (the sum of the terms' magnitudes, computed by onnx's
  evaluator on |inputs|), or |y| where every term is non-negative; K per op from the input shapes (``terms``).
- ``propagate``: a composition (normalisations, attention, losses, log-sum-exp, interpolation, recurrent nets,
  control flow): the error of its arithmetic propagated node by node through its ONNX function body (or the body
  spelled from its schema's formula, ops/bodies.py), each node by its own family, to first order
  (ops/propagate.py); both the runtime and the stored output (computed by onnx's numpy reference in the same
  type) are within it of the exact value, so twice it, + 1 ulp for the stored rounding.
- ``random``: the output is a draw (Bernoulli; Dropout in training mode): judged by the op's rule (the values a
  draw may take, Dropout's scaled input and mask), never against another draw (a runtime's generator is its own).
- ``decoded``: ImageDecoder: lossless formats exact, lossy ones by what their standard fixes (ops/decoded.py).
- ``onnx-default``: ONNX's own rtol 1e-3 / atol 1e-7, for an op no family covers; the record says so.

Integer, bool and string outputs are always compared exactly, whatever the family: a value that has no rounding
cannot be off by an ULP.
"""

from __future__ import annotations

from dataclasses import dataclass

#: an ``ulp`` output's count in a half type (float16, bfloat16), whatever the function
HALF_ULPS = 2.0

#: ONNX ops that only move or shape values: a backend test's model of several nodes is not named after them (the
#: op names live here, in the registry, not in the suite that reads them)
PLUMBING = frozenset({"Constant", "ConstantOfShape", "Identity", "Cast", "CastLike", "Shape", "Reshape", "Squeeze",
                      "Unsqueeze", "Size", "Flatten"})

EXACT = frozenset("""
Abs Neg Relu Sign Ceil Floor Round Max Min Where Identity Reshape Flatten Squeeze Unsqueeze Transpose Concat Split
Slice Gather GatherElements GatherND Scatter ScatterElements ScatterND TensorScatter Tile Expand Pad DepthToSpace
SpaceToDepth Compress NonZero OneHot Trilu ReverseSequence Shape Size ConstantOfShape Constant EyeLike Equal Greater
GreaterOrEqual Less LessOrEqual And Or Xor Not BitShift BitwiseAnd BitwiseNot BitwiseOr BitwiseXor BitCast IsInf
IsNaN ArgMax ArgMin TopK Unique ReduceMax ReduceMin Hardmax CenterCropPad Cast CastLike Mod StringConcat StringSplit
StringNormalizer RegexFullMatch LabelEncoder ArrayFeatureExtractor Binarizer Shrink ThresholdedRelu LeakyRelu PRelu
Clip Add Sub Mul QuantizeLinear DequantizeLinear DynamicQuantizeLinear MatMulInteger ConvInteger QLinearMatMul
QLinearConv NonMaxSuppression OptionalHasElement OptionalGetElement SequenceInsert SplitToSequence Dropout
SequenceConstruct SequenceEmpty SequenceAt SequenceLength SequenceErase ConcatFromSequence Optional TfIdfVectorizer
""".split())
# TfIdfVectorizer: counts of n-grams (exact integers), or a count times its weight: one correctly rounded product

#: ops judged by their arithmetic propagated through their body (ops/propagate.py), and where the body comes from
PROPAGATE: dict[str, str] = {
    **dict.fromkeys("""Attention FlexAttention LinearAttention CausalConvWithState LayerNormalization RMSNormalization
GroupNormalization MeanVarianceNormalization SoftmaxCrossEntropyLoss NegativeLogLikelihoodLoss LogSoftmax ReduceL2
ReduceLogSum ReduceLogSumExp RotaryEmbedding AffineGrid""".split(), "function"),  # onnx.defs: the schema's own
    **dict.fromkeys("""BatchNormalization InstanceNormalization LRN Momentum Adagrad Adam GRU LSTM RNN""".split(),
                    "spelled"),  # the schema's formula spelled as ONNX nodes (ops/bodies.py)
    **dict.fromkeys("""Einsum Col2Im Resize Upsample GridSample RoiAlign DeformConv Det""".split(),
                    "rule"),  # a rule of the op itself (ops/propagation_rules.py, ops/interpolation.py)
    **dict.fromkeys("If Loop Scan SequenceMap".split(), "control"),  # the body of the branch taken, per iteration
}

#: OpenCL's single-precision maximum error (ULPs) of each function, composites summed; +1 is added on use
ULPS: dict[str, float] = {
    "Exp": 3, "Log": 3, "Pow": 16, "Sqrt": 3, "Reciprocal": 2.5, "Div": 2.5,
    "Sin": 4, "Cos": 4, "Tan": 5, "Asin": 4, "Acos": 4, "Atan": 5,
    "Sinh": 4, "Cosh": 4, "Asinh": 4, "Acosh": 4, "Atanh": 5, "Tanh": 5, "Erf": 16,
    # composites: each operation's error adds (a relative error of the result, no cancellation in these)
    "Sigmoid": 3 + 2.5 + 1,  # exp, divide, add
    "HardSigmoid": 2,  # multiply-add, clamped
    "HardSwish": 3,  # x · HardSigmoid
    "Softsign": 2.5 + 1,  # divide, add
    "Softplus": 3 + 3 + 1,  # log(exp(x) + 1)
    "Elu": 3 + 1 + 1,  # alpha · (exp(x) - 1)
    "Selu": 3 + 1 + 2,  # gamma · (alpha · exp(x) - alpha)
    "Celu": 3 + 2.5 + 2,  # alpha · (exp(x / alpha) - 1)
    "Gelu": 16 + 4,  # 0.5 · x · (1 + erf(x / sqrt 2)), or the tanh form
    "Swish": 3 + 2.5 + 2,  # x · sigmoid(alpha · x)
    "Mish": 5 + 7 + 1,  # x · tanh(softplus(x))
    "SwiGLU": 3 + 2.5 + 3,  # x1 · sigmoid(x1) · x2
    "Range": 1,  # start + i·delta: two roundings, or a runtime's running sum (a finding if it drifts)
    # (j - low)/(center - low) of integer bins: one division (its bins from the mel scale are integers: a runtime
    # that rounds the mel scale elsewhere moves a whole triangle, a finding)
    "MelWeightMatrix": 2.5,
    # the gradients of the tests' graphs of Add and Mul: sums and products of the graph's values, at most one
    # rounding more than the stored value's (a runtime may reuse the forward pass's rounded value, or not)
    "Gradient": 1,
}


#: where an ``ulp`` op's ULP is measured when the result can be small beside its terms (cancellation): "unit",
#: at max(|y|, 1) (exp(x) - 1 as the spec writes it, not expm1: its absolute error is exp's near 1); "input",
#: at max(|y|, |x|) (Gelu's 1 + erf(x/√2) cancels for x < 0, leaving x's scale). Default: at |y|.
ULP_SCALE: dict[str, str] = {"Elu": "unit", "Selu": "unit", "Celu": "unit", "Softplus": "unit", "Gelu": "input"}


@dataclass(frozen=True)
class Accumulate:
    """A sum of K terms: how K follows from the inputs, and what bounds the terms' total magnitude."""

    terms: str  # "reduced" (the reduced axes' extent), "inner" (the contracted axis), "window", "axis", "inputs",
    #             "batch" (every element of one batch item: an upper bound), "trees", or "fixed" (``count``)
    #: "abs": the op on |x| (evaluated); "abs-max": its largest element, for every output element (a transform
    #: whose terms' weights have modulus 1 but change sign per output); "output": |y| (terms >= 0); "unit": 1;
    #: "leaves": K times the largest |leaf weight| (a tree ensemble's weights are attributes, not inputs)
    magnitude: str = "abs"
    count: int = 0  # terms "fixed": K


ACCUMULATE: dict[str, Accumulate] = {
    "ReduceSum": Accumulate("reduced"), "ReduceMean": Accumulate("reduced"), "ReduceL1": Accumulate("reduced"),
    "ReduceSumSquare": Accumulate("reduced", "output"), "ReduceProd": Accumulate("reduced", "output"),
    "MatMul": Accumulate("inner"), "Gemm": Accumulate("inner"), "Conv": Accumulate("window"),
    "ConvTranspose": Accumulate("window"), "CumSum": Accumulate("axis"), "CumProd": Accumulate("axis", "output"),
    "Softmax": Accumulate("axis", "output"), "Sum": Accumulate("inputs"), "Mean": Accumulate("inputs"),
    # y_k = sum of x_n·exp(-2πi·nk/N): |weights| = 1, so sum|x_n| = the k=0 term of the op on |x| bounds every k
    "DFT": Accumulate("batch", "abs-max"), "STFT": Accumulate("batch", "abs-max"),
    # a0 - a1·cos(2πn/N) + a2·cos(4πn/N), coefficients summing to 1: 3 terms and 2 cosines of 4 ulp each
    "BlackmanWindow": Accumulate("fixed", "unit", count=3 + 2 * 4),
    "HammingWindow": Accumulate("fixed", "unit", count=2 + 4), "HannWindow": Accumulate("fixed", "unit", count=2 + 4),
    # the chosen leaves' weights summed over the trees (a comparison of a feature with a threshold picks each leaf:
    # exact): K = the number of trees, every weight at most the largest |leaf weight|; post_transform NONE
    "TreeEnsemble": Accumulate("trees", "leaves"),
}


#: ops whose outputs are a draw; op -> the input (its position) that makes them one when true (None: always)
RANDOM: dict[str, int | None] = {"Bernoulli": None, "Dropout": 2, "RandomUniform": None, "RandomNormal": None,
                                  "RandomUniformLike": None, "RandomNormalLike": None}
#: the values a draw may take where the op's schema promises them (Bernoulli: "Draws binary random numbers (0 or
#: 1)"); a drawn value outside them fails
DRAWN_FROM: dict[str, tuple[float, ...]] = {"Bernoulli": (0, 1)}


@dataclass(frozen=True)
class Family:
    name: str  # exact, ulp, accumulate, propagate, decoded, random, onnx-default
    ulps: float = 0.0  # ulp: the count for float32/float64 (HALF_ULPS for half types)
    accumulate: Accumulate | None = None
    scale: str = "output"  # ulp: where the ULP is measured (ULP_SCALE)
    drawn_from: tuple[float, ...] | None = None  # random: the values a draw may take (DRAWN_FROM), when promised


#: ops whose outputs are judged by what their format's standard determines (ops/decoded.py)
DECODED = frozenset({"ImageDecoder"})


def family_of(op: str, inputs: list[object] | None = None) -> Family:
    """The family an ONNX op's outputs are judged by (an ``_expanded`` test's is its op's); ``inputs``: the
    case's input values in order, for an op that draws only when one of them says so."""
    switch = RANDOM.get(op, -1)
    if switch is None or (switch >= 0 and _true((inputs or [])[switch] if switch < len(inputs or []) else None)):
        return Family("random", drawn_from=DRAWN_FROM.get(op))
    if op in EXACT:
        return Family("exact")
    if op in ULPS:
        return Family("ulp", ulps=ULPS[op] + 1, scale=ULP_SCALE.get(op, "output"))
    if op in ACCUMULATE:
        return Family("accumulate", accumulate=ACCUMULATE[op])
    if op in PROPAGATE:
        return Family("propagate")
    if op in DECODED:
        return Family("decoded")
    return Family("onnx-default")


#: families from the tightest to the loosest: a graph is judged by its loosest node's
LOOSENESS = ("exact", "decoded", "random", "ulp", "accumulate", "propagate", "onnx-default")


def loosest(op: str, node_ops: list[str], inputs: list[object] | None = None) -> tuple[int | None, Family]:
    """The family a whole model named after ``op`` is judged by, and which of its nodes (``node_ops``, in graph
    order) gives it: ``op``'s own family (index None) unless it is exact while the graph computes more (a model
    named after a plumbing op, a pytorch module such as Softmin = Neg then Softmax); then the loosest node's,
    the first of them on a tie."""
    own = family_of(op, inputs)
    if own.name != "exact" or not node_ops:
        return None, own
    families = [family_of(node, inputs) for node in node_ops]
    index = max(range(len(node_ops)), key=lambda i: (LOOSENESS.index(families[i].name), -i))
    return (None, own) if node_ops[index] == op else (index, families[index])


def ulps_for(family: Family, dtype: str) -> float:
    """The ULP count of an ``ulp`` family output of ``dtype``."""
    return HALF_ULPS if dtype in ("float16", "bfloat16") else family.ulps


def _true(value: object) -> bool:
    try:
        return bool(value is not None and bool(value))
    except ValueError:  # an array of several values
        return False
