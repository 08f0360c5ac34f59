"""Locating, loading and declaring libdnnl.so.3 (oneDNN >= 3.0, which carries the Graph C API).

Everything here is lazy: importing this module does not touch the shared library, so the harness can import the
backend (e.g. to list it) on machines where oneDNN is absent or broken, and a worker process loads it only when
it actually runs a case.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import sys
import threading
from pathlib import Path

#: Environment variable naming any libdnnl.so.3 to use instead of the shipped one.
LIB_ENV = "CONFORMANCE_ONEDNN_LIB"
_SONAME = "libdnnl.so.3"
_DIST = "onednn-cpu-gomp"

# Enum values from include/oneapi/dnnl/dnnl_common_types.h and dnnl_graph_types.h (oneDNN 3.2). They are part of
# the stable C ABI: new values are only ever appended.
STATUS_NAMES = {
    0: "dnnl_success",
    1: "dnnl_out_of_memory",
    2: "dnnl_invalid_arguments",
    3: "dnnl_unimplemented",
    4: "dnnl_last_impl_reached",
    5: "dnnl_runtime_error",
    6: "dnnl_not_required",
    7: "dnnl_invalid_graph",
    8: "dnnl_invalid_graph_op",
    9: "dnnl_invalid_shape",
    10: "dnnl_invalid_data_type",
}
MAX_NDIMS = 12  # DNNL_MAX_NDIMS
UNKNOWN_NDIMS = -1  # DNNL_GRAPH_UNKNOWN_NDIMS
UNKNOWN_DIM = -(2**63)  # DNNL_GRAPH_UNKNOWN_DIM == INT64_MIN

_c_dims = ctypes.c_int64 * MAX_NDIMS


class _LayoutUnion(ctypes.Union):
    _fields_ = [("strides", _c_dims), ("layout_id", ctypes.c_size_t)]


class LogicalTensorStruct(ctypes.Structure):
    """``dnnl_graph_logical_tensor_t``: passed by value-pointer to and from the library."""

    _fields_ = [
        ("id", ctypes.c_size_t),
        ("ndims", ctypes.c_int),
        ("dims", _c_dims),
        ("data_type", ctypes.c_int),
        ("property", ctypes.c_int),
        ("layout_type", ctypes.c_int),
        ("layout", _LayoutUnion),
    ]


class VersionStruct(ctypes.Structure):
    """``dnnl_version_t`` as returned (by pointer) from ``dnnl_version()``."""

    _fields_ = [
        ("major", ctypes.c_int),
        ("minor", ctypes.c_int),
        ("patch", ctypes.c_int),
        ("hash", ctypes.c_char_p),
        ("cpu_runtime", ctypes.c_uint),
        ("gpu_runtime", ctypes.c_uint),
    ]


# Host allocator call-backs: void *(*)(size_t size, size_t alignment) and void (*)(void *).
HOST_ALLOCATE_F = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_size_t, ctypes.c_size_t)
HOST_DEALLOCATE_F = ctypes.CFUNCTYPE(None, ctypes.c_void_p)

_P = ctypes.c_void_p
_SZ = ctypes.c_size_t
_LT_P = ctypes.POINTER(LogicalTensorStruct)
_I64_P = ctypes.POINTER(ctypes.c_int64)
_U8_P = ctypes.POINTER(ctypes.c_uint8)

# name -> argtypes; every one of these returns dnnl_status_t (a C int).
_SIGNATURES: dict[str, list] = {
    "dnnl_engine_create": [ctypes.POINTER(_P), ctypes.c_int, _SZ],
    "dnnl_engine_destroy": [_P],
    "dnnl_stream_create": [ctypes.POINTER(_P), _P, ctypes.c_uint],
    "dnnl_stream_wait": [_P],
    "dnnl_stream_destroy": [_P],
    "dnnl_graph_allocator_create": [ctypes.POINTER(_P), HOST_ALLOCATE_F, HOST_DEALLOCATE_F],
    "dnnl_graph_allocator_destroy": [_P],
    "dnnl_graph_make_engine_with_allocator": [ctypes.POINTER(_P), ctypes.c_int, _SZ, _P],
    "dnnl_graph_logical_tensor_init": [_LT_P, _SZ, ctypes.c_int, ctypes.c_int32, ctypes.c_int, ctypes.c_int],
    "dnnl_graph_logical_tensor_init_with_dims": [
        _LT_P, _SZ, ctypes.c_int, ctypes.c_int32, _I64_P, ctypes.c_int, ctypes.c_int,
    ],
    "dnnl_graph_logical_tensor_get_mem_size": [_LT_P, ctypes.POINTER(_SZ)],
    "dnnl_graph_tensor_create": [ctypes.POINTER(_P), _LT_P, _P, _P],
    "dnnl_graph_tensor_destroy": [_P],
    "dnnl_graph_op_create": [ctypes.POINTER(_P), _SZ, ctypes.c_int, ctypes.c_char_p],
    "dnnl_graph_op_destroy": [_P],
    "dnnl_graph_op_add_input": [_P, _LT_P],
    "dnnl_graph_op_add_output": [_P, _LT_P],
    "dnnl_graph_op_set_attr_bool": [_P, ctypes.c_int, _U8_P, _SZ],
    "dnnl_graph_op_set_attr_s64": [_P, ctypes.c_int, _I64_P, _SZ],
    "dnnl_graph_op_set_attr_str": [_P, ctypes.c_int, ctypes.c_char_p, _SZ],
    "dnnl_graph_op_set_attr_f32": [_P, ctypes.c_int, ctypes.POINTER(ctypes.c_float), _SZ],
    "dnnl_graph_graph_create": [ctypes.POINTER(_P), ctypes.c_int],
    "dnnl_graph_graph_destroy": [_P],
    "dnnl_graph_add_op": [_P, _P],
    "dnnl_graph_graph_finalize": [_P],
    "dnnl_graph_graph_filter": [_P, ctypes.c_int],
    "dnnl_graph_graph_get_partition_num": [_P, ctypes.POINTER(_SZ)],
    "dnnl_graph_graph_get_partitions": [_P, _SZ, ctypes.POINTER(_P)],
    "dnnl_graph_partition_destroy": [_P],
    "dnnl_graph_partition_is_supported": [_P, _U8_P],
    "dnnl_graph_partition_get_input_ports_num": [_P, ctypes.POINTER(_SZ)],
    "dnnl_graph_partition_get_input_ports": [_P, _SZ, _LT_P],
    "dnnl_graph_partition_get_output_ports_num": [_P, ctypes.POINTER(_SZ)],
    "dnnl_graph_partition_get_output_ports": [_P, _SZ, _LT_P],
    "dnnl_graph_partition_compile": [_P, _P, _SZ, ctypes.POINTER(_LT_P), _SZ, ctypes.POINTER(_LT_P), _P],
    "dnnl_graph_compiled_partition_create": [ctypes.POINTER(_P), _P],
    "dnnl_graph_compiled_partition_destroy": [_P],
    "dnnl_graph_compiled_partition_query_logical_tensor": [_P, _SZ, _LT_P],
    "dnnl_graph_compiled_partition_execute": [_P, _P, _SZ, ctypes.POINTER(_P), _SZ, ctypes.POINTER(_P)],
}

_lock = threading.Lock()
_loaded: tuple[ctypes.CDLL, str] | None = None


def _wheel_candidates() -> list[Path]:
    """Where the onednn-cpu-gomp wheel puts libdnnl.so.3: ``<prefix>/lib`` (the wheel installs into data/lib)."""
    found: list[Path] = []
    try:
        from importlib import metadata

        dist = metadata.distribution(_DIST)
        for f in dist.files or ():
            if f.name == _SONAME:
                found.append(Path(dist.locate_file(f)).resolve())
    except Exception:  # distribution missing or unreadable: fall through to the prefix guess
        pass
    for prefix in dict.fromkeys((sys.prefix, sys.exec_prefix, sys.base_prefix)):
        found.append(Path(prefix) / "lib" / _SONAME)
    return found


def library_path() -> str:
    """The libdnnl.so.3 that ``load()`` would open (env var, then the wheel's copy, then the system's)."""
    env = os.environ.get(LIB_ENV)
    if env:
        return env  # an explicit choice is never second-guessed: a wrong path must fail loudly
    for cand in _wheel_candidates():
        if cand.is_file():
            return str(cand)
    sys_name = ctypes.util.find_library("dnnl")
    if sys_name:
        return sys_name
    raise OSError(
        f"libdnnl.so.3 not found: set {LIB_ENV}, or `pip install {_DIST}` (oneDNN 3.x with the Graph C API)"
    )


def load() -> tuple[ctypes.CDLL, str]:
    """Open and declare the library once per process; returns (handle, path)."""
    global _loaded
    with _lock:
        if _loaded is None:
            path = library_path()
            lib = ctypes.CDLL(path)
            for name, argtypes in _SIGNATURES.items():
                fn = getattr(lib, name)  # AttributeError here means a oneDNN without the Graph API
                fn.argtypes = argtypes
                fn.restype = ctypes.c_int
            lib.dnnl_version.argtypes = []
            lib.dnnl_version.restype = ctypes.POINTER(VersionStruct)
            _loaded = (lib, path)
        return _loaded


# dnnl_cpu_isa_t bit masks (dnnl_types.h): an ISA "is usable" when all of its bits are set in the effective one.
ISA_BITS = {"avx2": 0x7, "avx2_vnni_2": 0x1F, "avx512_core": 0x27, "avx512_core_fp16": 0x1EF}
#: The library's own rule for reduced-precision data on x64 (src/cpu/platform.cpp, has_data_type_support):
#: bf16 needs avx512_core or avx2_vnni_2, f16 avx512_core_fp16 or avx2_vnni_2. Without it, oneDNN 3.2's Graph
#: API throws inside compile ("could not create a descriptor for a pooling forward propagation primitive") and
#: the C++ exception aborts the process (measured on an AVX2-only AMD EPYC).
DTYPE_ISAS = {"bfloat16": ("avx512_core", "avx2_vnni_2"), "float16": ("avx512_core_fp16", "avx2_vnni_2")}


def effective_isa() -> int:
    """The dnnl_cpu_isa_t mask the library dispatches to on this CPU."""
    lib, _ = load()
    fn = lib.dnnl_get_effective_cpu_isa
    fn.argtypes, fn.restype = [], ctypes.c_int
    return int(fn())


def isa_name(mask: int) -> str:
    usable = [name for name, bits in ISA_BITS.items() if mask & bits == bits]
    return usable[-1] if usable else f"isa 0x{mask:x}"


def dtype_unsupported(dtype: str) -> str:
    """Why this CPU cannot run ``dtype`` in oneDNN ("" when it can)."""
    needed = DTYPE_ISAS.get(dtype)
    if not needed:
        return ""
    mask = effective_isa()
    if any(mask & ISA_BITS[name] == ISA_BITS[name] for name in needed):
        return ""
    return (f"oneDNN runs {dtype} only on {' or '.join(needed)}; this CPU's effective ISA is {isa_name(mask)} "
            "(the library would abort in compile)")
