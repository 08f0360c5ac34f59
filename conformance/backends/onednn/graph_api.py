"""A thin, typed ctypes binding of the oneDNN Graph C API (oneDNN 3.x, ``libdnnl.so.3``).

Only what a single-op conformance run needs: CPU engine (optionally with a host allocator), graph, op with
attributes, logical tensors, partitions, compilation, stream, tensors over NumPy buffers and execution.

Every C call goes through ``_call``: a non-success status raises ``DnnlError`` naming the status enum and the
call, so a rejected case says *what* the library refused (``dnnl_invalid_graph_op`` at ``dnnl_graph_add_op`` ...).
Handles are owned by small Python objects with ``close()`` (idempotent) and context-manager support; the
library is loaded lazily on first use (see ``_lib``).
"""

from __future__ import annotations

import ctypes
from collections.abc import Sequence
from enum import IntEnum
from typing import Any

import numpy as np

# relative imports only: this file is copied verbatim next to exported reproductions (single_op.py, export.py)
from . import _lib
from ._lib import UNKNOWN_DIM, UNKNOWN_NDIMS, LogicalTensorStruct

__all__ = [
    "DataType", "LayoutType", "OpKind", "OpAttr", "DnnlError", "LogicalTensor", "Engine", "Stream", "Op",
    "Graph", "Partition", "CompiledPartition", "Tensor", "version", "library_path", "UNKNOWN_DIM",
]


class DataType(IntEnum):
    """``dnnl_data_type_t`` (only the floating types the pooling ops take)."""

    f16 = 1
    bf16 = 2
    f32 = 3

    @classmethod
    def from_numpy(cls, dtype: Any) -> DataType:
        name = np.dtype(dtype).name
        try:
            return {"float32": cls.f32, "float16": cls.f16, "bfloat16": cls.bf16}[name]
        except KeyError:
            raise TypeError(f"no oneDNN Graph data type for numpy dtype {name!r}") from None


class LayoutType(IntEnum):
    undef = 0
    any = 1
    strided = 2
    opaque = 3


class PropertyType(IntEnum):
    undef = 0
    variable = 1
    constant = 2


class EngineKind(IntEnum):
    any = 0
    cpu = 1
    gpu = 2


class PartitionPolicy(IntEnum):
    fusion = 1
    debug = 2


class OpKind(IntEnum):
    """``dnnl_graph_op_kind_t``: alphabetical in 3.0, appended since; only the pooling kinds are named here."""

    avg_pool = 3
    max_pool = 41


class OpAttr(IntEnum):
    """``dnnl_graph_op_attr_t``: the range an attribute lives in decides which setter is legal."""

    kernel = 0x43
    pads_begin = 0x46
    pads_end = 0x47
    strides = 0x4B
    dilations = 0x41
    exclude_pad = 0x60
    auto_pad = 0x81
    data_format = 0x83
    rounding_type = 0x86


class DnnlError(RuntimeError):
    """A oneDNN C call returned a non-success status."""

    def __init__(self, call: str, status: int, detail: str = "") -> None:
        self.call = call
        self.status = status
        self.status_name = _lib.STATUS_NAMES.get(status, f"dnnl_status_{status}")
        msg = f"{call} failed: {self.status_name} ({status})"
        super().__init__(f"{msg}: {detail}" if detail else msg)


def _call(name: str, *args: Any, detail: str = "") -> None:
    lib, _ = _lib.load()
    status = getattr(lib, name)(*args)
    if status != 0:
        raise DnnlError(name, status, detail)


def version() -> str:
    """``major.minor.patch (hash)`` of the loaded library."""
    lib, _ = _lib.load()
    v = lib.dnnl_version().contents
    h = v.hash.decode() if v.hash else ""
    return f"{v.major}.{v.minor}.{v.patch}" + (f" ({h})" if h and h != "N/A" else "")


def library_path() -> str:
    """Path of the loaded (or to-be-loaded) libdnnl.so.3."""
    return _lib.load()[1]


class _Handle:
    """Owns one opaque C handle; ``close()`` calls the destroy function exactly once."""

    _destroy: str = ""

    def __init__(self) -> None:
        self._h = ctypes.c_void_p()

    @property
    def handle(self) -> ctypes.c_void_p:
        if not self._h:
            raise ValueError(f"{type(self).__name__} is closed")
        return self._h

    def close(self) -> None:
        if self._h:
            h, self._h = self._h, ctypes.c_void_p()
            _call(self._destroy, h)

    def __enter__(self) -> Any:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class LogicalTensor:
    """A ``dnnl_graph_logical_tensor_t`` value (id, data type, dims, layout)."""

    def __init__(self, struct: LogicalTensorStruct) -> None:
        self.struct = struct

    @classmethod
    def strided(cls, tid: int, dtype: DataType, dims: Sequence[int] | None, ndims: int | None = None) -> LogicalTensor:
        """Dense row-major tensor with known ``dims``, or (``dims=None``) ``ndims`` unknown dims to be inferred."""
        st = LogicalTensorStruct()
        if dims is None:
            nd = UNKNOWN_NDIMS if ndims is None else ndims
            _call("dnnl_graph_logical_tensor_init", ctypes.byref(st), tid, int(dtype), nd,
                  int(LayoutType.strided), int(PropertyType.variable))
        else:
            c_dims = (ctypes.c_int64 * _lib.MAX_NDIMS)(*[int(d) for d in dims])
            _call("dnnl_graph_logical_tensor_init_with_dims", ctypes.byref(st), tid, int(dtype), len(dims),
                  c_dims, int(LayoutType.strided), int(PropertyType.variable))
        return cls(st)

    @property
    def id(self) -> int:
        return int(self.struct.id)

    @property
    def dtype(self) -> DataType:
        return DataType(self.struct.data_type)

    @property
    def layout_type(self) -> LayoutType:
        return LayoutType(self.struct.layout_type)

    @property
    def dims(self) -> tuple[int, ...]:
        return tuple(int(d) for d in self.struct.dims[: max(self.struct.ndims, 0)])

    @property
    def strides(self) -> tuple[int, ...]:
        """Element strides (only meaningful for a strided layout)."""
        return tuple(int(s) for s in self.struct.layout.strides[: max(self.struct.ndims, 0)])

    def mem_size(self) -> int:
        size = ctypes.c_size_t()
        _call("dnnl_graph_logical_tensor_get_mem_size", ctypes.byref(self.struct), ctypes.byref(size))
        return int(size.value)

    def __repr__(self) -> str:
        return f"LogicalTensor(id={self.id}, dtype={self.dtype.name}, dims={self.dims}, layout={self.layout_type.name})"


class Engine(_Handle):
    """A CPU engine, by default with the library's own allocator.

    ``with_allocator=True`` routes the library's host allocations through ``aligned_alloc``/``free`` via the
    Graph allocator API, which exercises ``dnnl_graph_allocator_create`` / ``make_engine_with_allocator``.
    """

    _destroy = "dnnl_engine_destroy"

    def __init__(self, with_allocator: bool = False, index: int = 0) -> None:
        super().__init__()
        self._alloc = ctypes.c_void_p()
        self._callbacks: tuple[Any, Any] | None = None
        if not with_allocator:
            try:
                _call("dnnl_engine_create", ctypes.byref(self._h), int(EngineKind.cpu), index)
            except DnnlError as exc:
                raise DnnlError(exc.call, exc.status, _lib.engine_failure_hint()) from None
            return
        libc = ctypes.CDLL(None)
        libc.aligned_alloc.restype = ctypes.c_void_p
        libc.aligned_alloc.argtypes = [ctypes.c_size_t, ctypes.c_size_t]
        libc.free.argtypes = [ctypes.c_void_p]

        def _malloc(size: int, alignment: int) -> int | None:
            align = max(int(alignment), 64)
            return libc.aligned_alloc(align, (int(size) + align - 1) // align * align)

        def _free(ptr: int | None) -> None:
            libc.free(ptr)

        # The CFUNCTYPE objects must outlive the engine: the library keeps raw pointers to them.
        self._callbacks = (_lib.HOST_ALLOCATE_F(_malloc), _lib.HOST_DEALLOCATE_F(_free))
        _call("dnnl_graph_allocator_create", ctypes.byref(self._alloc), *self._callbacks)
        _call("dnnl_graph_make_engine_with_allocator", ctypes.byref(self._h), int(EngineKind.cpu), index,
              self._alloc)

    def close(self) -> None:
        super().close()
        if self._alloc:
            a, self._alloc = self._alloc, ctypes.c_void_p()
            _call("dnnl_graph_allocator_destroy", a)


class Stream(_Handle):
    _destroy = "dnnl_stream_destroy"

    def __init__(self, engine: Engine) -> None:
        super().__init__()
        _call("dnnl_stream_create", ctypes.byref(self._h), engine.handle, 1)  # dnnl_stream_in_order

    def wait(self) -> None:
        _call("dnnl_stream_wait", self.handle)


class Op(_Handle):
    """A graph op. Attribute setters are typed: the library checks the value kind against the attribute id."""

    _destroy = "dnnl_graph_op_destroy"

    def __init__(self, op_id: int, kind: OpKind | int, name: str = "") -> None:
        super().__init__()
        _call("dnnl_graph_op_create", ctypes.byref(self._h), op_id, int(kind),
              (name or getattr(kind, "name", str(kind))).encode())

    def add_input(self, lt: LogicalTensor) -> None:
        _call("dnnl_graph_op_add_input", self.handle, ctypes.byref(lt.struct))

    def add_output(self, lt: LogicalTensor) -> None:
        _call("dnnl_graph_op_add_output", self.handle, ctypes.byref(lt.struct))

    def set_s64(self, attr: OpAttr | int, values: Sequence[int] | int) -> None:
        vals = [values] if isinstance(values, int) else [int(v) for v in values]
        arr = (ctypes.c_int64 * max(len(vals), 1))(*vals)
        # value_len: 0 would mean "a scalar"; list attributes are always passed with their length
        n = 0 if isinstance(values, int) else len(vals)
        _call("dnnl_graph_op_set_attr_s64", self.handle, int(attr), arr, n, detail=f"{_attr_name(attr)}={vals}")

    def set_bool(self, attr: OpAttr | int, value: bool) -> None:
        v = ctypes.c_uint8(1 if value else 0)
        _call("dnnl_graph_op_set_attr_bool", self.handle, int(attr), ctypes.byref(v), 1,
              detail=f"{_attr_name(attr)}={value}")

    def set_str(self, attr: OpAttr | int, value: str) -> None:
        raw = value.encode()
        _call("dnnl_graph_op_set_attr_str", self.handle, int(attr), raw, len(raw),
              detail=f"{_attr_name(attr)}={value!r}")


def _attr_name(attr: OpAttr | int) -> str:
    """The attribute's name for messages (ids that ``OpAttr`` does not name are shown in hex)."""
    try:
        return OpAttr(int(attr)).name
    except ValueError:
        return f"attr 0x{int(attr):x}"


class Partition(_Handle):
    _destroy = "dnnl_graph_partition_destroy"

    def __init__(self, handle: ctypes.c_void_p) -> None:
        super().__init__()
        self._h = handle

    def is_supported(self) -> bool:
        flag = ctypes.c_uint8()
        _call("dnnl_graph_partition_is_supported", self.handle, ctypes.byref(flag))
        return bool(flag.value)

    def _ports(self, which: str) -> list[LogicalTensor]:
        n = ctypes.c_size_t()
        _call(f"dnnl_graph_partition_get_{which}_ports_num", self.handle, ctypes.byref(n))
        arr = (LogicalTensorStruct * max(n.value, 1))()
        if n.value:
            _call(f"dnnl_graph_partition_get_{which}_ports", self.handle, n.value, arr)
        return [LogicalTensor(arr[i]) for i in range(n.value)]

    def input_ports(self) -> list[LogicalTensor]:
        return self._ports("input")

    def output_ports(self) -> list[LogicalTensor]:
        return self._ports("output")

    def compile(self, inputs: Sequence[LogicalTensor], outputs: Sequence[LogicalTensor],
                engine: Engine) -> CompiledPartition:
        cp = CompiledPartition(self)
        ins = (ctypes.POINTER(LogicalTensorStruct) * max(len(inputs), 1))(
            *[ctypes.pointer(lt.struct) for lt in inputs])
        outs = (ctypes.POINTER(LogicalTensorStruct) * max(len(outputs), 1))(
            *[ctypes.pointer(lt.struct) for lt in outputs])
        try:
            _call("dnnl_graph_partition_compile", self.handle, cp.handle, len(inputs), ins, len(outputs), outs,
                  engine.handle)
        except BaseException:
            cp.close()
            raise
        return cp


class Graph(_Handle):
    _destroy = "dnnl_graph_graph_destroy"

    def __init__(self, kind: EngineKind = EngineKind.cpu) -> None:
        super().__init__()
        _call("dnnl_graph_graph_create", ctypes.byref(self._h), int(kind))

    def add_op(self, op: Op) -> None:
        _call("dnnl_graph_add_op", self.handle, op.handle)

    def finalize(self) -> None:
        _call("dnnl_graph_graph_finalize", self.handle)

    def get_partitions(self, policy: PartitionPolicy = PartitionPolicy.fusion) -> list[Partition]:
        """Filter the (finalized) graph and return its partitions; the caller closes them."""
        _call("dnnl_graph_graph_filter", self.handle, int(policy))
        n = ctypes.c_size_t()
        _call("dnnl_graph_graph_get_partition_num", self.handle, ctypes.byref(n))
        arr = (ctypes.c_void_p * max(n.value, 1))()
        if n.value:
            _call("dnnl_graph_graph_get_partitions", self.handle, n.value, arr)
        return [Partition(ctypes.c_void_p(arr[i])) for i in range(n.value)]


class CompiledPartition(_Handle):
    _destroy = "dnnl_graph_compiled_partition_destroy"

    def __init__(self, partition: Partition) -> None:
        super().__init__()
        _call("dnnl_graph_compiled_partition_create", ctypes.byref(self._h), partition.handle)

    def query_logical_tensor(self, tid: int) -> LogicalTensor:
        """The logical tensor as compiled: this is where the library's inferred output shape shows up."""
        st = LogicalTensorStruct()
        _call("dnnl_graph_compiled_partition_query_logical_tensor", self.handle, tid, ctypes.byref(st))
        return LogicalTensor(st)

    def execute(self, stream: Stream, inputs: Sequence[Tensor], outputs: Sequence[Tensor]) -> None:
        ins = (ctypes.c_void_p * max(len(inputs), 1))(*[t.handle.value for t in inputs])
        outs = (ctypes.c_void_p * max(len(outputs), 1))(*[t.handle.value for t in outputs])
        _call("dnnl_graph_compiled_partition_execute", self.handle, stream.handle, len(inputs), ins,
              len(outputs), outs)


class Tensor(_Handle):
    """A ``dnnl_graph_tensor_t`` over a NumPy buffer; keeps the buffer alive while the tensor exists."""

    _destroy = "dnnl_graph_tensor_destroy"

    def __init__(self, lt: LogicalTensor, engine: Engine, buffer: np.ndarray) -> None:
        super().__init__()
        if not buffer.flags.c_contiguous:
            raise ValueError("tensor buffers must be C-contiguous")
        if buffer.nbytes < lt.mem_size():
            raise ValueError(f"buffer of {buffer.nbytes} bytes is smaller than {lt!r} needs ({lt.mem_size()})")
        self.buffer = buffer
        _call("dnnl_graph_tensor_create", ctypes.byref(self._h), ctypes.byref(lt.struct), engine.handle,
              ctypes.c_void_p(buffer.ctypes.data))
