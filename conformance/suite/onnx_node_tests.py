"""ONNX backend node tests as conformance cases, built in memory from the installed ``onnx`` package.

onnx >= 1.20 no longer ships the node tests as ``.pb`` files; its per-op case modules
(``onnx.backend.test.case.node.<module>``) build them when imported (``expect()`` appends one ``TestCase`` per
test to ``onnx.backend.test.case.node._NodeTestCases``). Importing only the modules of the ops we need takes a
fraction of ``load_model_tests(kind="node")`` (which imports every op's module). The result is cached per
process: pytest collection calls this on every xdist worker.

The expected values of these tests are computed with onnx's own reference helpers (except the precomputed ones):
they are not an independent oracle, the `reference` column checks them against ours.
"""

from __future__ import annotations

import fnmatch
import functools
import importlib
import pkgutil
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from conformance import ops
from conformance.model import Case, TensorSpec
from conformance.suite import node_test_cache

SOURCE = "onnx-node-test"
TAG = "onnx-node-test"
_NODE_PACKAGE = "onnx.backend.test.case.node"


@dataclass(frozen=True)
class NodeTest:
    name: str
    op: str
    domain: str
    opset: int
    attributes: dict
    inputs: tuple[tuple[str, np.ndarray], ...]
    outputs: tuple[tuple[str, np.ndarray], ...]
    rtol: float = 1e-3
    atol: float = 1e-7


def op_types() -> tuple[str, ...]:
    """The ONNX op types whose node tests are imported: the registry entries that ask for them."""
    return tuple(e.op for e in ops.entries() if e.domain == "ai.onnx" and e.node_tests)


@functools.lru_cache(maxsize=1)
def _module_names() -> tuple[str, ...]:
    """The onnx case modules that build a node of one of op_types(): the op's own module (its name lowercased)
    and any other module whose source names the op in quotes (a cheap text scan; importing a module runs all its
    exports)."""
    package = importlib.import_module(_NODE_PACKAGE)
    wanted = op_types()
    needles = [f'"{op}"' for op in wanted] + [f"'{op}'" for op in wanted]
    found = []
    for info in pkgutil.iter_modules(package.__path__):
        if info.ispkg:
            continue
        path = Path(package.__path__[0]) / f"{info.name}.py"
        try:
            text = path.read_text(encoding="utf-8")
        except OSError:
            text = ""
        if info.name in {op.lower() for op in wanted} or any(n in text for n in needles):
            found.append(f"{_NODE_PACKAGE}.{info.name}")
    return tuple(found)


@functools.lru_cache(maxsize=1)
def node_tests() -> tuple[NodeTest, ...]:
    """Every node test of the installed onnx whose single node is one of op_types(): cached per process, and on
    disk per onnx version and case-module text (node_test_cache.py: importing the modules costs ~7 s)."""
    import onnx

    package = importlib.import_module(_NODE_PACKAGE)
    sources = [Path(package.__path__[0]) / f"{name.rsplit('.', 1)[1]}.py" for name in _module_names()]
    key = node_test_cache.cache_key(onnx.__version__, op_types(), sources)
    return node_test_cache.cached(key, _imported_node_tests, _to_json, _from_json)


def _imported_node_tests() -> tuple[NodeTest, ...]:
    for module in _module_names():
        importlib.import_module(module)  # its class body runs the exports once per process
    from onnx.backend.test.case.node import _NodeTestCases

    tests = []
    seen: set[str] = set()
    for test_case in list(_NodeTestCases):
        converted = _convert(test_case)
        if converted is not None and converted.name not in seen:
            seen.add(converted.name)
            tests.append(converted)
    return tuple(tests)


def _to_json(test: NodeTest) -> tuple[dict, list[np.ndarray]]:
    fields = {"name": test.name, "op": test.op, "domain": test.domain, "opset": test.opset,
              "attributes": test.attributes, "inputs": [n for n, _ in test.inputs],
              "outputs": [n for n, _ in test.outputs], "rtol": test.rtol, "atol": test.atol}
    return fields, [a for _, a in test.inputs] + [a for _, a in test.outputs]


def _from_json(fields: dict, arrays: list[np.ndarray]) -> NodeTest:
    inputs, outputs = fields["inputs"], fields["outputs"]
    if len(arrays) != len(inputs) + len(outputs):
        raise ValueError("node-test cache entry: array count differs from its names")
    return NodeTest(
        name=fields["name"], op=fields["op"], domain=fields["domain"], opset=int(fields["opset"]),
        attributes=dict(fields["attributes"]), inputs=tuple(zip(inputs, arrays[:len(inputs)])),
        outputs=tuple(zip(outputs, arrays[len(inputs):])), rtol=float(fields["rtol"]), atol=float(fields["atol"]),
    )


def _convert(test_case) -> NodeTest | None:
    from onnx import helper, numpy_helper

    model = test_case.model
    if model is None or len(model.graph.node) != 1:
        return None
    node = model.graph.node[0]
    domain = node.domain or "ai.onnx"
    if node.op_type not in op_types() or domain != "ai.onnx":
        return None
    opset = next((o.version for o in model.opset_import if o.domain in ("", "ai.onnx")), None)
    if opset is None or not test_case.data_sets:
        return None
    attributes = {}
    for attribute in node.attribute:
        value = helper.get_attribute_value(attribute)
        if isinstance(value, bytes):
            value = value.decode()
        elif isinstance(value, list):
            value = [v.decode() if isinstance(v, bytes) else v for v in value]
        attributes[attribute.name] = value
    inputs, outputs = test_case.data_sets[0]

    def arrays(names, values):
        result = []
        for name, value in zip(names, values):
            array = value if isinstance(value, np.ndarray) else numpy_helper.to_array(value)
            result.append((name, np.array(array, copy=True)))
        return tuple(result)

    return NodeTest(
        name=test_case.name, op=node.op_type, domain="ai.onnx", opset=int(opset), attributes=attributes,
        inputs=arrays([n for n in node.input if n], inputs), outputs=arrays([n for n in node.output if n], outputs),
        rtol=float(getattr(test_case, "rtol", 1e-3)), atol=float(getattr(test_case, "atol", 1e-7)),
    )


def matching(pattern: str) -> list[NodeTest]:
    return [t for t in node_tests() if fnmatch.fnmatchcase(t.name, pattern)]


def to_case(test: NodeTest, file: str = "", line: int = 0) -> Case:
    from conformance.dtypes import dtype_name

    def spec(name: str, array: np.ndarray) -> TensorSpec:
        return TensorSpec(name=name, shape=tuple(array.shape), dtype=dtype_name(array.dtype), array=array)

    dtype = dtype_name(test.inputs[0][1].dtype)
    return Case(
        id=test.name, op=test.op, domain=test.domain, versions=(test.opset,), source=SOURCE,
        attributes=dict(test.attributes), inputs=tuple(spec(n, a) for n, a in test.inputs),
        outputs=tuple(spec(n, a) for n, a in test.outputs), dtypes=(dtype,), tags=(TAG,),
        # no tolerance override: onnx's expected values are checked against the reference with the derived
        # bound like any literal, and one that is off is reported as an erratum of the test (runner.py), never
        # absorbed by onnx's looser rtol
        reason=f"onnx {_onnx_version()} backend node test {test.name}", file=file, line=line,
    )


@functools.lru_cache(maxsize=1)
def _onnx_version() -> str:
    import onnx

    return onnx.__version__
