"""The public API: registry, version resolution, dtypes, shape inference, window_elements, Result."""

from __future__ import annotations

import dataclasses
import importlib
from pathlib import Path

import numpy as np
import pytest

import conformance_reference as reference


def test_known_ops_exactly_the_registered_versions() -> None:
    # derived from the package's files, not a list to edit when an op lands: every public module of reference/
    # that declares a SCHEMA is one op, each of its since-versions one known op-version
    folder = Path(reference.__file__).parent
    declared = []
    for path in sorted(folder.glob("[a-z]*.py")):
        module = importlib.import_module(f"conformance_reference.{path.stem}")
        schema = getattr(module, "SCHEMA", None)
        if schema is not None:
            declared += [(schema.domain, schema.op, v) for v in schema.versions]
    assert declared and sorted(reference.known_ops()) == sorted(declared)
    assert len(set(declared)) == len(declared)


@pytest.mark.parametrize("version, since", [(1, 1), (6, 1), (7, 7), (9, 7), (10, 10), (11, 11), (12, 11), (18, 11),
                                            (19, 19), (21, 19), (22, 22), (23, 22)])
def test_resolve_onnx(version: int, since: int) -> None:
    assert reference.resolve("ai.onnx", "AveragePool", version) == since


def test_resolve_other_domains() -> None:
    assert reference.resolve("openvino", "AvgPool", 13) == 1
    assert reference.resolve("openvino", "AvgPool", 15) == 14
    assert reference.resolve("openvino", "AdaptiveAvgPool", 8) == 8
    assert reference.resolve("ai.onnx", "GlobalAveragePool", 21) == 1
    assert reference.resolve("onednn", "AvgPool", 1) == 1


@pytest.mark.parametrize("args", [("ai.onnx", "RoiAlign", 16), ("ai.onnx", "MaxUnpool", 8),
                                  ("ai.onnx", "AveragePool", 0), ("openvino", "AdaptiveAvgPool", 7),
                                  ("tf", "AvgPool", 1), ("openvino", "AvgPool", None)])
def test_resolve_unknown(args: tuple) -> None:
    with pytest.raises(reference.UnknownOp):
        reference.resolve(*args)
    assert issubclass(reference.UnknownOp, LookupError) and issubclass(reference.SpecViolation, ValueError)


def test_supported_dtypes_follow_type_constraints() -> None:
    assert set(reference.supported_dtypes("ai.onnx", "AveragePool", 19)) == {"float16", "float32", "float64"}
    assert set(reference.supported_dtypes("ai.onnx", "AveragePool", 22)) == {
        "bfloat16", "float16", "float32", "float64"}
    assert "bfloat16" not in reference.supported_dtypes("ai.onnx", "GlobalAveragePool", 1)
    assert "bfloat16" in reference.supported_dtypes("ai.onnx", "GlobalAveragePool", 22)
    assert set(reference.supported_dtypes("onednn", "AvgPool", 1)) == {"float32", "bfloat16", "float16"}


def ov_attrs(auto_pad: str, exclude: bool, kernel: int, pads: tuple[int, int, int, int], stride: int) -> dict:
    return {"auto_pad": auto_pad, "exclude-pad": exclude, "kernel": [kernel] * 2, "pads_begin": list(pads[:2]),
            "pads_end": list(pads[2:]), "strides": [stride] * 2}


# The five AvgPool-1 spec examples (input 1x3x32x32): the spec claims 32x32 for the first two - an erratum;
# the intended ceil(32 / 2) = 16 is what OpenVINO infers and what the reference gives.
@pytest.mark.parametrize("attrs, spatial", [
    (ov_attrs("same_upper", True, 2, (0, 0, 1, 1), 2), (16, 16)),
    (ov_attrs("same_upper", False, 5, (0, 0, 1, 1), 2), (16, 16)),
    (ov_attrs("explicit", True, 5, (1, 1, 1, 1), 3), (10, 10)),
    (ov_attrs("explicit", False, 5, (1, 1, 1, 1), 2), (15, 15)),
    (ov_attrs("valid", True, 5, (1, 1, 1, 1), 2), (14, 14)),
])
@pytest.mark.parametrize("version", [1, 14, 16])
def test_openvino_spec_example_shapes(attrs: dict, spatial: tuple[int, int], version: int) -> None:
    assert reference.output_shapes("openvino", "AvgPool", version, [(1, 3, 32, 32)], attrs) == [(1, 3, *spatial)]
    x = np.zeros((1, 3, 32, 32), np.float32)
    assert reference.evaluate("openvino", "AvgPool", version, [x], attrs).outputs[0].shape == (1, 3, *spatial)


def test_adaptive_spec_example_shape() -> None:
    size = np.array([16, 16], np.int64)
    got = reference.output_shapes("openvino", "AdaptiveAvgPool", 8, [(1, 3, 32, 32), (2,)], {}, {1: size})
    assert got == [(1, 3, 16, 16)]
    with pytest.raises(ValueError, match="output_size"):
        reference.output_shapes("openvino", "AdaptiveAvgPool", 8, [(1, 3, 32, 32), (2,)], {})


@pytest.mark.parametrize("shape, attrs, want", [
    ((1, 3, 32), {"kernel_shape": [2]}, (1, 3, 31)),
    ((1, 3, 32, 32, 32), {"kernel_shape": [2, 2, 2]}, (1, 3, 31, 31, 31)),
    ((1, 3, 28, 28), {"kernel_shape": [3, 3], "pads": [2, 2, 2, 2]}, (1, 3, 30, 30)),
    ((1, 3, 32, 32), {"kernel_shape": [5, 5], "strides": [3, 3]}, (1, 3, 10, 10)),
    ((1, 1, 4, 4), {"kernel_shape": [3, 3], "strides": [2, 2], "ceil_mode": 1}, (1, 1, 2, 2)),
    ((1, 3, 32, 32), {"kernel_shape": [2, 2], "auto_pad": "SAME_LOWER"}, (1, 3, 32, 32)),
    ((1, 1, 5, 5), {"kernel_shape": [3, 3], "strides": [2, 2], "auto_pad": "SAME_UPPER"}, (1, 1, 3, 3)),
])
def test_onnx_spec_shapes(shape: tuple, attrs: dict, want: tuple) -> None:
    assert reference.output_shapes("ai.onnx", "AveragePool", 11, [shape], attrs) == [want]


def test_onednn_shapes_nxc_and_ncx() -> None:
    attrs = {"kernel": [3, 3], "strides": [2, 2], "pads_begin": [1, 1], "pads_end": [1, 1], "exclude_pad": True}
    assert reference.output_shapes("onednn", "AvgPool", 1, [(2, 9, 7, 5)], attrs) == [(2, 5, 4, 5)]
    ncx = {**attrs, "data_format": "NCX"}
    assert reference.output_shapes("onednn", "AvgPool", 1, [(2, 5, 9, 7)], ncx) == [(2, 5, 5, 4)]


@pytest.mark.parametrize("domain, op, version, shapes, attrs, values, want", [
    ("ai.onnx", "AveragePool", 11, [(1, 1, 8, 8)], {"kernel_shape": [3, 2]}, None, 6),
    ("ai.onnx", "AveragePool", 11, [(1, 1, 2, 8)], {"kernel_shape": [3, 2], "pads": [1, 0, 1, 0]}, None, 4),
    ("ai.onnx", "AveragePool", 19, [(1, 1, 9)], {"kernel_shape": [3], "dilations": [3]}, None, 3),
    ("ai.onnx", "GlobalAveragePool", 1, [(2, 3, 4, 5, 6)], {}, None, 120),
    ("openvino", "AdaptiveAvgPool", 8, [(1, 1, 5, 7), (2,)], {}, {1: np.array([3, 3], np.int32)}, 9),
    ("onednn", "AvgPool", 1, [(1, 6, 6, 2)], {"kernel": [4, 4], "strides": [1, 1], "pads_begin": [2, 2],
                                              "pads_end": [0, 0], "exclude_pad": False}, None, 16),
])
def test_window_elements(domain, op, version, shapes, attrs, values, want) -> None:  # noqa: ANN001
    assert reference.window_elements(domain, op, version, shapes, attrs, values) == want


def test_result_is_frozen_and_typed() -> None:
    x = np.ones((1, 1, 4), np.float32)
    res = reference.evaluate("ai.onnx", "AveragePool", 22, [x], {"kernel_shape": [2]})
    assert isinstance(res, reference.Result) and dataclasses.is_dataclass(res)
    with pytest.raises(dataclasses.FrozenInstanceError):
        res.outputs = []  # type: ignore[misc]
    assert res.unspecified == [None] and res.outputs[0].tolist() == [[[1.0, 1.0, 1.0]]]


def test_inputs_are_not_modified() -> None:
    x = np.arange(10, dtype=np.float64).reshape(1, 1, 10)
    before = x.copy()
    reference.evaluate("ai.onnx", "AveragePool", 22, [x], {"kernel_shape": [1]})
    reference.evaluate("ai.onnx", "AveragePool", 22, [x], {"kernel_shape": [3], "pads": [1, 1]})
    np.testing.assert_array_equal(x, before)


def test_reference_knows_nothing_of_the_harness() -> None:
    import pathlib
    import subprocess
    import sys

    root = pathlib.Path(reference.__file__).parent
    for path in root.glob("*.py"):
        assert "conformance" not in path.read_text().replace("No dependency on ``conformance``", ""), path
    code = ("import sys, conformance_reference; "
            "assert 'conformance' not in sys.modules, 'reference imported conformance'")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=root.parent)


def test_the_window_geometry_api_counts_as_the_reference() -> None:
    """conformance.oracle's geometry (what backends/torch/geometry.py maps cases with): ceil_drop drops a last
    window starting in the right padding, ceil keeps it; SAME pads put the odd pad at the end for upper."""
    from conformance import oracle

    assert oracle.axis_output_count(5, 2, 2, 0, 0, "floor") == 2
    assert oracle.axis_output_count(5, 2, 2, 1, 1, "ceil") == 4  # (7 - 2) / 2 rounded up, + 1
    assert oracle.axis_output_count(5, 2, 2, 1, 1, "ceil_drop") == 3  # window 3 starts at 6 >= 5 + 1
    assert oracle.same_pads(5, 3, 2, upper=True) == (1, 1, 3)
    assert oracle.same_pads(4, 2, 1, upper=True) == (0, 1, 4)
    assert oracle.same_pads(4, 2, 1, upper=False) == (1, 0, 4)
    with pytest.raises(ValueError, match="rounding"):
        oracle.axis_output_count(5, 2, 2, 0, 0, "round")
