"""Find the libdnnl.so.3 a wheel installed, and make it loadable without LD_LIBRARY_PATH.

The 2026 ``onednn`` wheel installs libdnnl.so.3 into ``<venv>/lib``, linked (DT_NEEDED) against libtbb.so.12,
libsvml.so, libimf.so, libintlc.so.5 and libsycl.so.9, which other wheels of its requirement closure (``tbb``,
``intel-cmplr-lib-rt``, ``intel-sycl-rt``, via ``dpcpp-cpp-rt``) put into the same folder. That folder is on no
search path (libdnnl has no RUNPATH), so a plain dlopen fails with "libtbb.so.12: cannot open shared object file".
glibc resolves a DT_NEEDED entry against objects already loaded with that SONAME, so loading the dependencies
first, deepest first, with RTLD_GLOBAL makes the dlopen of libdnnl succeed.

Nothing is hard-coded: the names come from the ELF dynamic sections, the files from the installed distributions'
RECORDs (``importlib.metadata``) of the wheel that ships libdnnl and everything it requires, recursively. A name
none of them ships (libc, libstdc++, ...) is left to the system loader. The 2023 ``onednn-cpu-gomp`` wheel needs
only libgomp from the system: nothing is preloaded for it.

Relative imports only (none needed): this file is copied verbatim into exported reproductions.
"""

from __future__ import annotations

import ctypes
import os
import re
import struct
from pathlib import Path

_ELF_MAGIC = b"\x7fELF"
_SHT_DYNAMIC = 6
_DT_NULL, _DT_NEEDED = 0, 1
# a requirement's distribution name: PEP 508 starts with it; anything after (version, extras, marker) is skipped
_REQ_NAME = re.compile(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)")


def needed(path: str | Path) -> list[str]:
    """The DT_NEEDED sonames of a 64-bit little-endian ELF shared object ([] for anything else)."""
    with open(path, "rb") as f:
        ident = f.read(64)
        if len(ident) < 64 or ident[:4] != _ELF_MAGIC or ident[4] != 2 or ident[5] != 1:
            return []  # not ELF64-LE (e.g. libintlc.so is a one-line linker script)
        shoff, = struct.unpack_from("<Q", ident, 0x28)
        shentsize, shnum = struct.unpack_from("<HH", ident, 0x3A)
        f.seek(shoff)
        table = f.read(shentsize * shnum)
        sections = [struct.unpack_from("<IIQQQQIIQQ", table, i * shentsize) for i in range(shnum)]
        for _name, kind, _flags, _addr, offset, size, link, _info, _align, _entsize in sections:
            if kind != _SHT_DYNAMIC:
                continue
            f.seek(offset)
            dynamic = f.read(size)
            strtab_offset, strtab_size = sections[link][4], sections[link][5]
            f.seek(strtab_offset)
            strtab = f.read(strtab_size)
            names = []
            for i in range(0, len(dynamic) - 15, 16):
                tag, value = struct.unpack_from("<qQ", dynamic, i)
                if tag == _DT_NULL:
                    break
                if tag == _DT_NEEDED:
                    names.append(strtab[value:strtab.index(b"\0", value)].decode())
            return names
    return []


def requirement_closure(dist_name: str) -> list:
    """The installed distribution ``dist_name`` and every installed distribution it requires, recursively
    (requirements conditional on an extra are left out: the wheel's own runtime never needs them)."""
    from importlib import metadata

    seen: dict[str, object] = {}
    todo = [dist_name]
    while todo:
        name = todo.pop()
        key = re.sub(r"[-_.]+", "-", name).lower()
        if key in seen:
            continue
        try:
            dist = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            continue  # an optional or platform-specific requirement that is not installed
        seen[key] = dist
        for req in dist.requires or ():
            marker = req.partition(";")[2]
            match = _REQ_NAME.match(req)
            if match and "extra" not in marker:
                todo.append(match.group(1))
    return list(seen.values())


def soname_index(dists: list) -> dict[str, Path]:
    """File name -> path of every shared object (``*.so``, ``*.so.N``) the distributions install."""
    index: dict[str, Path] = {}
    for dist in dists:
        for f in dist.files or ():
            if f.name.endswith(".so") or ".so." in f.name:
                # RECORD paths of data files climb out of site-packages ("../../../lib/..."): normalize them
                index.setdefault(f.name, Path(os.path.normpath(dist.locate_file(f))))
    return index


def own_file(dist_name: str, name: str) -> Path | None:
    """The file called ``name`` that the installed distribution ``dist_name`` ships (None: not installed, or no
    such file, or the file is gone)."""
    from importlib import metadata

    try:
        dist = metadata.distribution(dist_name)
    except metadata.PackageNotFoundError:
        return None
    path = soname_index([dist]).get(name)
    return path if path is not None and path.is_file() else None


def wheel_library(dist_name: str, soname: str) -> tuple[Path, dict[str, Path]] | None:
    """``soname`` as installed by the distribution ``dist_name``, with the shared objects of its requirement
    closure (for ``preload``); None when the distribution is not installed or does not ship that file."""
    path = own_file(dist_name, soname)
    return None if path is None else (path, soname_index(requirement_closure(dist_name)))


def prepare(dist_name: str) -> None:
    """Process-wide settings the wheel's runtime reads when it starts (the OpenCL ICDs, ``register_icds``)."""
    dists = requirement_closure(dist_name)
    register_icds(dists, soname_index(dists))


#: The OpenCL ICD loader's list of ICD libraries to load (read when SYCL first enumerates its platforms).
ICD_ENV = "OCL_ICD_FILENAMES"


def opencl_icds(dists: list, index: dict[str, Path]) -> list[str]:
    """The OpenCL ICD libraries the distributions register, as paths that exist.

    intel-opencl-rt (the OpenCL CPU runtime, which the 2026 oneDNN wheel's SYCL CPU engine runs on) installs
    ``etc/OpenCL/vendors/intel-cpu.icd`` naming ``/opt/anaconda1anaconda2anaconda3/lib/libintelocl.so``: a conda
    placeholder pip never rewrites, in a folder the ICD loader never reads. An ICD naming a missing file is
    pointed at the file of that name the distributions ship.
    """
    found: list[str] = []
    for dist in dists:
        for f in dist.files or ():
            if not f.name.endswith(".icd"):
                continue
            try:
                named = Path(dist.locate_file(f)).read_text(encoding="utf-8").strip()
            except (OSError, UnicodeDecodeError):
                continue
            target = Path(named) if Path(named).is_file() else index.get(Path(named).name)
            if target is not None and target.is_file() and os.fspath(target) not in found:
                found.append(os.fspath(target))
    return found


def register_icds(dists: list, index: dict[str, Path]) -> str:
    """Set ``OCL_ICD_FILENAMES`` to the distributions' OpenCL ICDs unless the user set it; returns its value."""
    if not os.environ.get(ICD_ENV):
        icds = opencl_icds(dists, index)
        if icds:
            os.environ[ICD_ENV] = os.pathsep.join(icds)
    return os.environ.get(ICD_ENV, "")


def preload(library: str | Path, index: dict[str, Path]) -> list[str]:
    """Load (RTLD_GLOBAL) the dependencies of ``library`` that ``index`` provides, deepest first.

    Returns the paths loaded, in load order. The library itself is not loaded.
    """
    loaded: list[str] = []
    visiting: set[str] = set()

    def visit(path: Path) -> None:
        for name in needed(path):
            dep = index.get(name)
            if dep is None or name in visiting or not dep.is_file():
                continue  # the system's (libc, libstdc++, libgomp...), or already on the way
            visiting.add(name)
            visit(dep)
            ctypes.CDLL(os.fspath(dep), mode=ctypes.RTLD_GLOBAL)
            loaded.append(os.fspath(dep))

    visit(Path(library))
    return loaded
