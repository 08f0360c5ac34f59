"""Every ONNX backend test of the installed ``onnx`` as a case that IS its model (``Case.model``).

``onnx.backend.test.loader.load_model_tests(kind)`` gives the node tests (built in memory, ~12 s: every case
module is imported) and the on-disk kinds (simple, pytorch-converted, pytorch-operator: ``model_dir`` with
model.onnx and test_data_set_0/*.pb). Each test becomes one Case:

- id: the test name; source ``onnx-backend-test``; tags: the kind, ``expanded`` for a function's expansion;
- op: a single node's op_type; otherwise the ONNX op the test is named after (the longest leading run of the
  name's ``_`` words that spells an op, ``layer_normalization_2d_expanded`` -> LayerNormalization), else the
  model's first node that is not plumbing (Constant, Identity, Cast, Shape, Reshape, ...); domain from that op
  (``""`` -> ``ai.onnx``), versions = the model's opset of that domain;
- inputs: the graph's non-initializer inputs in order, outputs: the graph's outputs with the stored expected
  values (each in its own dtype); dtypes = (input 0's dtype, else output 0's);
- a value that is no tensor (a sequence, an optional) is named in ``Case.non_tensor``: backends say unsupported.

Tests of an op with its own registry entry are left out: pooling's node tests are imported with their op's
cases (onnx_node_tests.py), and the oracle would judge a model named after such an op by the op's reference.
The converted tests are cached on disk per onnx version, kind, registry ops and this module's text
(node_test_cache.py's store; model bytes as a uint8 array, strings in the JSON manifest).
"""

from __future__ import annotations

import functools
import json
import warnings
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from conformance import ops
from conformance.model import Case, TensorSpec
from conformance.ops import families
from conformance.suite import node_test_cache

SOURCE = "onnx-backend-test"
KINDS = ("node", "simple", "pytorch-converted", "pytorch-operator")
#: ops that only move or shape values: a multi-node model is not named after them (the registry's list)
PLUMBING = families.PLUMBING


@dataclass(frozen=True)
class Value:
    """One graph input or output: its array, or why it is no tensor (``array`` then None)."""

    name: str
    array: np.ndarray | None
    non_tensor: str = ""


@dataclass(frozen=True)
class BackendTest:
    name: str
    kind: str
    op: str
    domain: str
    opset: int
    nodes: int
    model: bytes
    inputs: tuple[Value, ...]
    outputs: tuple[Value, ...]


def load(kind: str) -> tuple[BackendTest, ...]:
    """The kind's tests, converted (registry ops' single-node tests left out); cached per process and on disk."""
    if kind not in KINDS:
        raise ValueError(f"unknown onnx backend test kind {kind!r} (known: {', '.join(KINDS)})")
    return _load(kind)


@functools.cache
def _load(kind: str) -> tuple[BackendTest, ...]:
    import onnx

    registry = sorted(f"{e.domain}/{e.op}" for e in ops.entries())
    key = node_test_cache.cache_key(f"{onnx.__version__} backend-tests {kind}", registry, [Path(__file__)])
    return node_test_cache.cached(key, lambda: _converted(kind), _to_json, _from_json)


def _converted(kind: str) -> tuple[BackendTest, ...]:
    from onnx.backend.test.loader import load_model_tests

    with warnings.catch_warnings():  # the case modules compute their expected values noisily (log(0), 0/0)
        warnings.simplefilter("ignore")
        tests = load_model_tests(kind=kind)
    converted = (_convert(test, kind) for test in sorted(tests, key=lambda t: t.name))
    return tuple(t for t in converted if t is not None)


def _convert(test, kind: str) -> BackendTest | None:
    import onnx

    model = test.model if test.model is not None else onnx.load(str(Path(test.model_dir) / "model.onnx"))
    graph = model.graph
    op, domain = named_op(test.name, model)
    if ops.find(domain, op) is not None:
        # pooling's own node tests are imported among its cases; a model named after a registry op would be judged
        # by that op's reference on the graph's inputs without the node's attributes (pytorch's AvgPool1d: 2)
        return None
    opset = next((o.version for o in model.opset_import if (o.domain or "ai.onnx") == domain), 1)
    data_in, data_out = test.data_sets[0] if test.data_sets else _disk_data(Path(test.model_dir), model)
    initializers = {t.name for t in graph.initializer}
    in_names = [v.name for v in graph.input if v.name not in initializers]
    out_names = [v.name for v in graph.output]
    return BackendTest(
        name=test.name, kind=kind, op=op, domain=domain, opset=int(opset), nodes=len(graph.node),
        model=model.SerializeToString(), inputs=tuple(_value(n, v) for n, v in zip(in_names, data_in)),
        outputs=tuple(_value(n, v) for n, v in zip(out_names, data_out)),
    )


#: the abbreviations onnx's test names use for an op (test_sce_mean_expanded is SoftmaxCrossEntropyLoss's)
NAME_ABBREVIATIONS = {"sce": "softmaxcrossentropyloss", "nllloss": "negativeloglikelihoodloss",
                      "mvn": "meanvariancenormalization", "strnorm": "stringnormalizer"}


def named_op(name: str, model) -> tuple[str, str]:
    """(op, domain) a test is about: its single node's; else the op its name spells; else the first node that is
    not plumbing (the first node when all are)."""
    graph = model.graph
    if len(graph.node) == 1:
        node = graph.node[0]
        return node.op_type, node.domain or "ai.onnx"
    words = name.removeprefix("test_").split("_")
    words[0] = NAME_ABBREVIATIONS.get(words[0], words[0])
    known = _op_names()
    for count in range(len(words), 0, -1):
        found = known.get("".join(words[:count]).lower())
        if found is not None:
            return found
    nodes = [n for n in graph.node if n.op_type not in PLUMBING] or list(graph.node)
    if not nodes:
        return "Graph", "ai.onnx"  # a model without nodes (inputs passed through)
    return nodes[0].op_type, nodes[0].domain or "ai.onnx"


@functools.lru_cache(maxsize=1)
def _op_names() -> dict[str, tuple[str, str]]:
    """lowercased op name -> (op, domain), for every op schema of the installed onnx (ai.onnx first)."""
    from onnx import defs

    found: dict[str, tuple[str, str]] = {}
    for schema in sorted(defs.get_all_schemas_with_history(), key=lambda s: (s.domain != "", s.domain)):
        found.setdefault(schema.name.lower(), (schema.name, schema.domain or "ai.onnx"))
    return found


def _disk_data(folder: Path, model) -> tuple[list, list]:
    """test_data_set_0's input_*.pb and output_*.pb (TensorProtos), in index order."""
    import onnx

    data = folder / "test_data_set_0"

    def read(prefix: str, count: int) -> list:
        values = []
        for index in range(count):
            tensor = onnx.TensorProto()
            tensor.ParseFromString((data / f"{prefix}_{index}.pb").read_bytes())
            values.append(tensor)
        return values

    initializers = {t.name for t in model.graph.initializer}
    count_in = len([v for v in model.graph.input if v.name not in initializers])
    return read("input", count_in), read("output", len(model.graph.output))


def _value(name: str, value: object) -> Value:
    from onnx import TensorProto, numpy_helper

    if isinstance(value, list):
        return Value(name, None, f"{name} is a sequence of {len(value)} tensor(s), not a tensor")
    if value is None:
        return Value(name, None, f"{name} is an empty optional, not a tensor")
    if isinstance(value, TensorProto):
        value = numpy_helper.to_array(value)
    if not isinstance(value, np.ndarray | np.generic):
        return Value(name, None, f"{name} is a {type(value).__name__}, not a tensor")
    array = np.array(value, copy=True)  # a NumPy scalar becomes a 0-d array, never 1-d
    if array.dtype.kind in "SU" or array.dtype == object:
        array = np.array([v.decode() if isinstance(v, bytes) else str(v) for v in array.flat],
                         dtype=object).reshape(array.shape)
    return Value(name, array)


# ----- the on-disk cache: fields in JSON, one uint8 array per tensor and one for the model ---------------------

def _to_json(test: BackendTest) -> tuple[dict, list[np.ndarray]]:
    from conformance.dtypes import dtype_name

    arrays = [np.frombuffer(test.model, dtype=np.uint8)]

    def described(value: Value) -> dict:
        if value.array is None:
            return {"name": value.name, "non_tensor": value.non_tensor}
        entry = {"name": value.name, "dtype": dtype_name(value.array.dtype), "shape": list(value.array.shape)}
        if value.array.dtype == object:
            entry["strings"] = [str(v) for v in value.array.flat]
        else:
            entry["index"] = len(arrays)
            arrays.append(np.frombuffer(value.array.tobytes(), dtype=np.uint8))
        return entry

    fields = {"name": test.name, "kind": test.kind, "op": test.op, "domain": test.domain, "opset": test.opset,
              "nodes": test.nodes, "inputs": [described(v) for v in test.inputs],
              "outputs": [described(v) for v in test.outputs]}
    return json.loads(json.dumps(fields)), arrays


def _from_json(fields: dict, arrays: list[np.ndarray]) -> BackendTest:
    from conformance.dtypes import np_dtype

    def value(entry: dict) -> Value:
        if "dtype" not in entry:
            return Value(entry["name"], None, str(entry["non_tensor"]))
        shape = tuple(int(d) for d in entry["shape"])
        if "strings" in entry:
            return Value(entry["name"], np.array(entry["strings"], dtype=object).reshape(shape))
        raw = arrays[int(entry["index"])]
        return Value(entry["name"], np.frombuffer(raw.tobytes(), dtype=np_dtype(entry["dtype"])).reshape(shape).copy())

    return BackendTest(
        name=str(fields["name"]), kind=str(fields["kind"]), op=str(fields["op"]), domain=str(fields["domain"]),
        opset=int(fields["opset"]), nodes=int(fields["nodes"]), model=arrays[0].tobytes(),
        inputs=tuple(value(e) for e in fields["inputs"]), outputs=tuple(value(e) for e in fields["outputs"]),
    )


# ----- cases ---------------------------------------------------------------------------------------------------

def to_case(test: BackendTest, file: str = "", line: int = 0) -> Case:
    from conformance.dtypes import dtype_name

    def spec(value: Value) -> TensorSpec:
        if value.array is None:  # an empty placeholder, never fed: the case is unsupported everywhere
            return TensorSpec(name=value.name, shape=None, dtype=None, data=[])
        return TensorSpec(name=value.name, shape=tuple(value.array.shape), dtype=dtype_name(value.array.dtype),
                          array=value.array)

    tensors = [v.array for v in (*test.inputs, *test.outputs) if v.array is not None]
    dtype = dtype_name(tensors[0].dtype) if tensors else "float32"
    tags = [test.kind] + (["expanded"] if "_expanded" in test.name else [])
    tags += [] if test.nodes == 1 else ["multi-node"]
    non_tensor = "; ".join(v.non_tensor for v in (*test.inputs, *test.outputs) if v.non_tensor)
    return Case(
        id=test.name, op=test.op, domain=test.domain, versions=(test.opset,), source=SOURCE, attributes={},
        inputs=tuple(spec(v) for v in test.inputs), outputs=tuple(spec(v) for v in test.outputs), dtypes=(dtype,),
        tags=tuple(tags), reason=f"onnx {_onnx_version()} backend test {test.name} ({test.kind})", file=file,
        line=line, model=test.model, non_tensor=non_tensor,
    )


@functools.lru_cache(maxsize=1)
def _onnx_version() -> str:
    import onnx

    return onnx.__version__
