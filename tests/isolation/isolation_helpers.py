"""Helpers shared by the isolation tests (a module of its own: test directories each have a conftest)."""

from __future__ import annotations

from pathlib import Path

from conformance.model import Case, CaseInstance, TensorSpec


def make_instance(case_id: str = "t", attributes: dict | None = None, *, expect_error: bool = False,
                  domain: str = "ai.onnx", op: str = "AveragePool", version: int = 22,
                  shape: tuple[int, ...] = (1, 1, 4, 4), in_name: str = "x", out_name: str = "y") -> CaseInstance:
    attributes = {"kernel_shape": [2, 2]} if attributes is None else attributes
    arange = {"start": 1, "step": 1}
    case = Case(id=case_id, op=op, domain=domain, versions=(version,), source="edge", attributes=attributes,
                inputs=(TensorSpec(in_name, shape, None, arange=arange),), outputs=(TensorSpec(out_name, None, None),),
                dtypes=("float32",), expect_error=expect_error)
    return CaseInstance(id=f"{domain}/{op}-{version}/{case_id}[float32]", case=case, version=version,
                        dtype="float32", layout=None, attributes=attributes,
                        inputs=(TensorSpec(in_name, shape, "float32", arange=arange),),
                        outputs=(TensorSpec(out_name, None, None),))


def spec_of(cls: type) -> str:
    """The ``module:Class`` spec of a fake, under whatever module name pytest imported it."""
    return f"{cls.__module__}:{cls.__qualname__}"


def alive(pid: int) -> bool:
    """A pid that exists and is not a zombie (a killed grandchild may wait for a non-reaping init)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state not in ("Z", "X")


