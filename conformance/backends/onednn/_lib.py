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

# relative imports only: this file is copied verbatim next to exported reproductions
from . import _wheels

#: Environment variable naming any libdnnl.so.3 to use instead of the shipped one.
LIB_ENV = "CONFORMANCE_ONEDNN_LIB"
_SONAME = "libdnnl.so.3"
#: The wheels that install libdnnl.so.3 (into ``<prefix>/lib``, so at most one per environment), in the order the
#: library found first is looked for: the 2023 CPU wheel (oneDNN 3.2, GNU OpenMP), then the current release
#: (``onednn`` 2026.x: oneDNN 3.13, TBB, plus the Intel runtimes it links).
DISTRIBUTIONS = ("onednn-cpu-gomp", "onednn")

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


class LibraryNotFound(OSError):
    """No libdnnl.so.3 to load (``locate``): oneDNN is not installed, as opposed to an install that is there but
    unusable (two wheels' copies of one file, a library that fails to load)."""


class _Process:
    """This process's oneDNN: the library it loaded and the wheel it is bound to. A process holds one libdnnl.so.3
    for its whole life (a loaded library is never unloaded), so its owner is the process: one instance, ``PROCESS``,
    changed only under its lock."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.loaded: tuple[ctypes.CDLL, str] | None = None
        self.source: str | None = None  # the distribution configure() bound it to (None: the library found first)


PROCESS = _Process()


def configure(dist: str | None) -> None:
    """Bind this process to the libdnnl.so.3 of the wheel ``dist`` (None: the library found first).

    A process holds one libdnnl.so.3: two builds share the soname and their symbols would interpose, so once a
    library is loaded, a choice that names another file is refused (the harness runs each oneDNN backend in a
    worker process of its own, docs/isolation.md).
    """
    with PROCESS.lock:
        if PROCESS.loaded is not None and dist != PROCESS.source:
            wanted = locate(dist)[0]
            if os.path.realpath(wanted) != os.path.realpath(PROCESS.loaded[1]):
                raise RuntimeError(f"this process already loaded {PROCESS.loaded[1]}; {wanted} (oneDNN from "
                                   f"{dist or 'the library found first'}) needs a process of its own")
            return
        PROCESS.source = dist


def _wheel(dist: str) -> tuple[Path, dict[str, Path]] | None:
    try:
        found = _wheels.wheel_library(dist, _SONAME)
        others = [d for d in DISTRIBUTIONS if d != dist and found and _wheels.own_file(d, _SONAME) == found[0]]
    except Exception:  # an unreadable distribution: as if absent (the next candidate or the error says why)
        return None
    if others:
        # both wheels wrote <prefix>/lib/libdnnl.so.3: the file is whichever was installed last
        raise OSError(f"{found[0]} is installed by both {dist!r} and {others[0]!r}, which overwrite each other's "
                      "copy: install them in separate environments (tox envs suite-onednn, suite-onednn-current)")
    return found


def locate(dist: str | None = None) -> tuple[str, dict[str, Path], str | None]:
    """The libdnnl.so.3 that ``load()`` opens, the shared objects to preload for it (soname -> path) and the
    wheel it comes from (None: not from a wheel).

    ``dist`` given: that wheel's copy only. Otherwise the library found first: $CONFORMANCE_ONEDNN_LIB, then the
    copy of the first installed wheel of ``DISTRIBUTIONS``, then ``<prefix>/lib``, then the system's.
    """
    if dist is not None:
        found = _wheel(dist)
        if found is None:
            raise LibraryNotFound(f"libdnnl.so.3 not found: the wheel {dist!r} is not installed "
                                  f"(`pip install {dist}`)")
        return str(found[0]), found[1], dist
    env = os.environ.get(LIB_ENV)
    if env:
        # an explicit choice is never second-guessed (a wrong path must fail loudly); when it is a wheel's copy,
        # that wheel's dependencies are preloaded as for the wheel itself
        for name in DISTRIBUTIONS:
            found = _wheel(name)
            if found is not None and os.path.realpath(found[0]) == os.path.realpath(env):
                return env, found[1], name
        return env, {}, None
    for name in DISTRIBUTIONS:
        found = _wheel(name)
        if found is not None:
            return str(found[0]), found[1], name
    for prefix in dict.fromkeys((sys.prefix, sys.exec_prefix, sys.base_prefix)):
        cand = Path(prefix) / "lib" / _SONAME
        if cand.is_file():
            return str(cand), {}, None
    sys_name = ctypes.util.find_library("dnnl")
    if sys_name:
        return sys_name, {}, None
    raise LibraryNotFound(f"libdnnl.so.3 not found: set {LIB_ENV}, or `pip install {' or '.join(DISTRIBUTIONS)}` "
                          "(oneDNN 3.x with the Graph C API)")


def library_path() -> str:
    """The libdnnl.so.3 that ``load()`` would open for this process's choice (``configure``)."""
    return locate(PROCESS.source)[0]


def load() -> tuple[ctypes.CDLL, str]:
    """Open and declare the library once per process; returns (handle, path).

    The libraries it links that its wheel's requirements install (the 2026 wheel: TBB, the Intel compiler
    runtime, SYCL) are preloaded first (``_wheels.preload``): no LD_LIBRARY_PATH needed; and its SYCL CPU
    engine is shown the OpenCL CPU runtime the wheels install (``_wheels.prepare``).
    """
    with PROCESS.lock:
        if PROCESS.loaded is None:
            path, index, dist = locate(PROCESS.source)
            if dist is not None:
                _wheels.prepare(dist)
            _wheels.preload(path, index)
            lib = ctypes.CDLL(path)
            for name, argtypes in _SIGNATURES.items():
                fn = getattr(lib, name)  # AttributeError here means a oneDNN without the Graph API
                fn.argtypes = argtypes
                fn.restype = ctypes.c_int
            lib.dnnl_version.argtypes = []
            lib.dnnl_version.restype = ctypes.POINTER(VersionStruct)
            disable_caches(lib)
            PROCESS.loaded = (lib, path)
        return PROCESS.loaded


#: The library's process-wide caches of kernels, each keyed by something coarser than a case: with them, a case
#: can run the kernel an earlier case of the same shape created (oneDNN 3.2 on AVX-512: a C=1 NCX bf16/f16
#: MaxPool got the NXC case's primitive, whose -inf seeding differs). A record must be a function of its case,
#: not of what ran before it in the worker, so both are off: every case compiles its own kernel (docs/backends.md).
CACHE_SETTERS = ("dnnl_set_primitive_cache_capacity", "dnnl_graph_set_compiled_partition_cache_capacity")


def disable_caches(lib: ctypes.CDLL) -> None:
    """Set every kernel cache of the library to capacity 0 (raises when the library refuses: a run with a cache
    on would be order-dependent without saying so)."""
    for name in CACHE_SETTERS:
        setter = getattr(lib, name)
        setter.argtypes, setter.restype = [ctypes.c_int], ctypes.c_int
        status = int(setter(0))
        if status != 0:
            raise OSError(f"{name}(0) failed: {STATUS_NAMES.get(status, status)}")


def cache_capacities() -> dict[str, int]:
    """What the library reports for each cache's capacity (0 once ``load`` ran): for tests and reproductions."""
    lib, _ = load()
    found = {}
    for name in CACHE_SETTERS:
        getter = getattr(lib, name.replace("_set_", "_get_"))
        value = ctypes.c_int(-1)
        getter.argtypes, getter.restype = [ctypes.POINTER(ctypes.c_int)], ctypes.c_int
        getter(ctypes.byref(value))
        found[name.replace("_set_", "_")] = value.value
    return found


# dnnl_cpu_isa_t bit masks (dnnl_types.h): an ISA "is usable" when all of its bits are set in the effective one.
ISA_BITS = {"sse41": 0x1, "avx": 0x3, "avx2": 0x7, "avx2_vnni": 0xF, "avx2_vnni_2": 0x1F, "avx512_core": 0x27,
            "avx512_core_vnni": 0x67, "avx512_core_bf16": 0xE7, "avx512_core_fp16": 0x1EF, "avx512_core_amx": 0xFEF,
            "avx512_core_amx_fp16": 0x1FEF}
#: The library's own rule for reduced-precision data on x64 (src/cpu/platform.cpp, has_data_type_support):
#: bf16 needs avx512_core or avx2_vnni_2, f16 avx512_core_fp16 or avx2_vnni_2. Without it, oneDNN 3.2's Graph
#: API throws inside compile ("could not create a descriptor for a pooling forward propagation primitive") and
#: the C++ exception aborts the process (measured on an AVX2-only AMD EPYC).
DTYPE_ISAS = {"bfloat16": ("avx512_core", "avx2_vnni_2"), "float16": ("avx512_core_fp16", "avx2_vnni_2")}
#: From this version on the Graph API reports such a partition unsupported itself (dnnl_graph_partition_is_supported
#: = 0; measured with 3.13.2 on the same CPU), so the guard steps aside and the library's own verdict is recorded.
#: Versions between 3.2 and 3.13 were not measured: they keep the guard.
REPORTS_DTYPE_ISA_ITSELF = (3, 13)
#: dnnl_version_t.cpu_runtime values (dnnl_config.h, DNNL_RUNTIME_*).
RUNTIME_NAMES = {0: "none", 1: "sequential", 2: "OpenMP", 4: "TBB", 8: "threadpool", 256: "OpenCL", 512: "SYCL"}


def version_tuple() -> tuple[int, int, int]:
    v = load()[0].dnnl_version().contents
    return (int(v.major), int(v.minor), int(v.patch))


def cpu_runtime() -> str:
    """The threading runtime of the library's CPU engine (OpenMP for the 2023 wheel, SYCL for the 2026 one)."""
    value = int(load()[0].dnnl_version().contents.cpu_runtime)
    return RUNTIME_NAMES.get(value, f"runtime {value}")


def engine_failure_hint() -> str:
    """What a failed CPU engine creation most likely means for this build ("" when nothing is known)."""
    if cpu_runtime() != "SYCL":
        return ""
    return ("this oneDNN's CPU engine is a SYCL CPU device, and SYCL found none: it needs the Unified Runtime's "
            "OpenCL adapter (libur_adapter_opencl.so.0, which intel-cmplr-lib-ur 2026.2.0 does not ship: "
            "`pip install --no-deps intel-cmplr-lib-ur==2026.1.2`) and the OpenCL CPU runtime (intel-opencl-rt), "
            "see docs/backends-onednn.md")


def effective_isa() -> int:
    """The dnnl_cpu_isa_t mask the library dispatches to on this CPU."""
    lib, _ = load()
    fn = lib.dnnl_get_effective_cpu_isa
    fn.argtypes, fn.restype = [], ctypes.c_int
    return int(fn())


def isa_name(mask: int) -> str:
    usable = [name for name, bits in ISA_BITS.items() if mask & bits == bits]
    return usable[-1] if usable else f"isa 0x{mask:x}"


def isa_missing(dtype: str) -> str:
    """Why this CPU lacks the ISA oneDNN needs for ``dtype`` ("" when it has it), whatever the library version."""
    needed = DTYPE_ISAS.get(dtype)
    if not needed:
        return ""
    mask = effective_isa()
    if any(mask & ISA_BITS[name] == ISA_BITS[name] for name in needed):
        return ""
    return f"oneDNN runs {dtype} only on {' or '.join(needed)}; this CPU's effective ISA is {isa_name(mask)}"


def dtype_unsupported(dtype: str) -> str:
    """Why the harness must not hand this library ``dtype`` on this CPU ("" when it may): the ISA is missing and
    the library would abort in compile instead of reporting it (versions before ``REPORTS_DTYPE_ISA_ITSELF``)."""
    if version_tuple()[:2] >= REPORTS_DTYPE_ISA_ITSELF:
        return ""
    reason = isa_missing(dtype)
    return f"{reason} (the library would abort in compile)" if reason else ""
