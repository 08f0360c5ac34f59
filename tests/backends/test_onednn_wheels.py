"""Finding libdnnl.so.3 per wheel and making it loadable (``_wheels``, ``_lib.locate``/``configure``), and the
``onednn-current`` backend (the 2026 ``onednn`` wheel) where it is installed."""

from __future__ import annotations

import ctypes
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path
from types import SimpleNamespace

import pytest

from conformance.backends.onednn import _lib, _wheels


def _readelf_needed(path: str) -> list[str]:
    out = subprocess.run(["readelf", "-d", path], capture_output=True, text=True, check=True).stdout
    return [line.split("[", 1)[1].split("]", 1)[0] for line in out.splitlines() if "(NEEDED)" in line]


def test_needed_matches_readelf():
    import _ctypes  # a shared object with DT_NEEDED entries (libffi, libc...) in every CPython build

    if shutil.which("readelf") is None:
        pytest.skip("readelf (binutils) not installed")
    path = _ctypes.__file__
    assert _wheels.needed(path) == _readelf_needed(path)
    assert _wheels.needed(path)  # not vacuous


def test_needed_of_non_elf_is_empty(tmp_path):
    script = tmp_path / "libintlc.so"
    script.write_text("INPUT(libintlc.so.5)\n")  # what the Intel runtime wheel ships under that name
    assert _wheels.needed(script) == []


def test_requirement_closure_follows_requirements_but_not_extras():
    from conformance.shipped import DISTRIBUTION

    names = {d.metadata["Name"].lower() for d in _wheels.requirement_closure(DISTRIBUTION)}
    assert {DISTRIBUTION, "numpy", "onnx", "pyyaml"} <= names
    # hypothesis is installed for the tests but only required by the [test] extra
    assert "hypothesis" not in names
    assert _wheels.requirement_closure("no-such-distribution-xyz") == []


class _File(str):
    """A RECORD entry (importlib.metadata.PackagePath-like): a relative path with a ``name``."""

    @property
    def name(self) -> str:
        return Path(self).name


def _dist(root: Path, files: list[str]) -> SimpleNamespace:
    return SimpleNamespace(files=[_File(f) for f in files], locate_file=lambda f: root / f)


def test_soname_index_normalizes_record_paths(tmp_path):
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "libtbb.so.12").write_bytes(b"")
    dist = _dist(tmp_path / "site", ["../lib/libtbb.so.12", "../lib/libsycl.so.9.0.0-gdb.py", "pkg/mod.py"])
    index = _wheels.soname_index([dist])
    assert index["libtbb.so.12"] == tmp_path / "lib" / "libtbb.so.12"
    assert "mod.py" not in index


def test_icd_with_a_placeholder_path_points_at_the_shipped_runtime(tmp_path, monkeypatch):
    lib = tmp_path / "lib"
    lib.mkdir()
    (lib / "libintelocl.so").write_bytes(b"")
    vendors = tmp_path / "etc"
    vendors.mkdir()
    (vendors / "intel-cpu.icd").write_text("/opt/anaconda1anaconda2anaconda3/lib/libintelocl.so\n")
    (vendors / "intel-fpga_emu.icd").write_text("/opt/anaconda1anaconda2anaconda3/lib/libintelocl_emu.so\n")
    dist = _dist(tmp_path, ["etc/intel-cpu.icd", "etc/intel-fpga_emu.icd", "lib/libintelocl.so"])
    index = _wheels.soname_index([dist])
    assert _wheels.opencl_icds([dist], index) == [str(lib / "libintelocl.so")]  # the emulator is not shipped
    monkeypatch.delenv(_wheels.ICD_ENV, raising=False)
    assert _wheels.register_icds([dist], index) == str(lib / "libintelocl.so")
    monkeypatch.setenv(_wheels.ICD_ENV, "/mine/libOpenCL-icd.so")  # the user's own choice is kept
    assert _wheels.register_icds([dist], index) == "/mine/libOpenCL-icd.so"


def test_preload_loads_dependencies_deepest_first(tmp_path, monkeypatch):
    # libdnnl -> libsycl -> libur ; libc is the system's (absent from the index)
    graph = {"libdnnl.so.3": ["libsycl.so.9", "libc.so.6"], "libsycl.so.9": ["libur.so.0"], "libur.so.0": []}
    index = {}
    for name in graph:
        (tmp_path / name).write_bytes(b"")
        index[name] = tmp_path / name
    monkeypatch.setattr(_wheels, "needed", lambda path: graph[Path(path).name])
    opened: list[tuple[str, int]] = []
    monkeypatch.setattr(_wheels.ctypes, "CDLL", lambda path, mode=0: opened.append((Path(path).name, mode)))
    loaded = _wheels.preload(index["libdnnl.so.3"], index)
    assert [Path(p).name for p in loaded] == ["libur.so.0", "libsycl.so.9"]
    assert opened == [("libur.so.0", ctypes.RTLD_GLOBAL), ("libsycl.so.9", ctypes.RTLD_GLOBAL)]


def test_two_wheels_writing_one_file_are_refused(tmp_path, monkeypatch):
    shared = tmp_path / "libdnnl.so.3"
    shared.write_bytes(b"")
    monkeypatch.setattr(_wheels, "wheel_library", lambda dist, soname: (shared, {}))
    monkeypatch.setattr(_wheels, "own_file", lambda dist, name: shared)
    with pytest.raises(OSError, match="overwrite each other"):
        _lib.locate("onednn")


def test_configure_refuses_a_second_library_in_one_process(monkeypatch):
    monkeypatch.setattr(_lib.PROCESS, "loaded", (object(), "/a/libdnnl.so.3"))
    monkeypatch.setattr(_lib.PROCESS, "source", "onednn-cpu-gomp")
    monkeypatch.setattr(_lib, "locate", lambda dist: ("/b/libdnnl.so.3", {}, dist))
    with pytest.raises(RuntimeError, match="needs a process of its own"):
        _lib.configure("onednn")
    monkeypatch.setattr(_lib, "locate", lambda dist: ("/a/libdnnl.so.3", {}, dist))
    _lib.configure(None)  # another route to the same file is fine
    assert _lib.PROCESS.source == "onednn-cpu-gomp"


# ---------------------------------------------------------------------------------------------------------------
# The 2026 wheel itself, where installed (tox env suite-onednn-current).

CURRENT = _wheels.own_file("onednn", "libdnnl.so.3")
needs_current = pytest.mark.skipif(CURRENT is None, reason="the onednn (2026) wheel is not installed here")


@needs_current
def test_current_wheel_loads_without_library_path():
    env = {k: v for k, v in os.environ.items() if k not in ("LD_LIBRARY_PATH", _wheels.ICD_ENV, _lib.LIB_ENV)}
    r = subprocess.run([sys.executable, "-c", textwrap.dedent("""
        from conformance.backends.onednn.backend import OneDnnCurrentBackend
        from conformance.backends.onednn import _lib
        b = OneDnnCurrentBackend()
        print(b.version()); print(_lib.cpu_runtime()); print(_lib.library_path())
        from conformance.backends.onednn import graph_api as g
        g.Engine().close()  # the SYCL CPU device exists: the OpenCL adapter and CPU runtime were found
        print(any('libtbb.so.12' in line for line in open('/proc/self/maps')))
    """)], capture_output=True, text=True, timeout=120, env=env)
    assert r.returncode == 0, r.stderr[-2000:]
    version, runtime, path, tbb = r.stdout.strip().splitlines()[-4:]  # the library may print verbose lines first
    assert version.startswith("3.") and tuple(map(int, version.split()[0].split(".")[:2])) >= (3, 13)
    assert runtime == "SYCL" and Path(path) == CURRENT and tbb == "True"


def test_current_backend_says_not_installed_without_the_wheel():
    from conformance.backends.onednn.backend import OneDnnCurrentBackend

    if CURRENT is not None:
        assert OneDnnCurrentBackend().name == "onednn-current"
    else:
        with pytest.raises(ImportError, match="onednn-current"):
            OneDnnCurrentBackend()
