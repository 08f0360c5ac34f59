"""A partial install (``pip install "op-conformance[onnxruntime]"``): every built-in backend is registered, only some
runtimes are there. A backend whose runtime is absent is *not installed*, with the reason whole: no column in
``--backend=all``, a usage error when named, ``conformance backends`` says why. Its check reads files only: the
process that lists backends never loads a runtime (one libdnnl.so.3 per process).

Absence is simulated: ``_lib.locate`` finding no libdnnl.so.3, ``presence.package_folders`` finding no package.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from one_case import CASE

from conformance.backends import registry
from conformance.backends.base import NotInstalled
from conformance.backends.discovery import installed, presence
from conformance.backends.onednn import _lib, _wheels

NO_LIBDNNL = "libdnnl.so.3 not found: set CONFORMANCE_ONEDNN_LIB, or `pip install onednn-cpu-gomp or onednn`"
#: the package each built-in backend needs (onednn's are wheels of a shared library: checked apart)
PACKAGES = {"onnxruntime": "onnxruntime", "openvino": "openvino", "openvino-ir": "openvino", "tract": "tract",
            "iree": "iree.compiler", "torch": "torch", "onnx-reference": "onnx.reference"}


@pytest.fixture
def no_libdnnl(monkeypatch: pytest.MonkeyPatch) -> None:
    def locate(dist: str | None = None):
        raise _lib.LibraryNotFound(f"{NO_LIBDNNL} (oneDNN 3.x with the Graph C API)")

    monkeypatch.setattr(_lib, "locate", locate)
    monkeypatch.setattr(_wheels, "own_file", lambda dist, name: None)


def _ours() -> list[str]:
    return sorted(name for name in registry.entry_points() if registry.is_ours(name))


def test_onednn_without_its_library_is_not_installed_and_not_in_all(no_libdnnl):
    entries = {a.name: a for a in installed.available()}
    onednn = entries["onednn"]
    assert onednn.missing and onednn.error.startswith(NO_LIBDNNL), onednn
    assert "pip install 'op-conformance[onednn]'" in onednn.error  # the reason whole, with the extra
    assert entries["onednn-current"].missing
    assert "onednn" not in installed.parse_selection(["all"])
    assert "onednn" not in installed.installed_names()
    with pytest.raises(NotInstalled, match="libdnnl.so.3 not found"):
        installed.check("onednn")
    with pytest.raises(NotInstalled):  # created some other way (repro, fuzz): the same answer
        registry.create("onednn")


def test_conformance_backends_prints_the_whole_reason(no_libdnnl, capsys):
    from conformance.cli.listing import backends_main

    assert backends_main([]) == 0
    line = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("onednn "))
    assert line.startswith(f"{'onednn':<20} not installed   {NO_LIBDNNL}") and line.endswith("'op-conformance[onednn]'")


def _run_without_libdnnl(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    """pytest in a subprocess where ``_lib.locate`` finds no libdnnl.so.3 (a plugin module patches it first)."""
    pytester.makefile(".yaml", good=CASE)
    pytester.makepyfile(no_libdnnl=textwrap.dedent(f"""\
        from conformance.backends.onednn import _lib, _wheels

        def locate(dist=None):
            raise _lib.LibraryNotFound({NO_LIBDNNL!r} + " (oneDNN 3.x with the Graph C API)")

        _lib.locate = locate
        _wheels.own_file = lambda dist, name: None
    """))
    pytester.syspathinsert()  # the subprocess imports no_libdnnl from the test folder
    return pytester.runpytest_subprocess("-p", "no_libdnnl", "-p", "no:cacheprovider", "--no-default-cases",
                                         "--no-default-expectations", "--cases=.", *args)


def test_naming_a_backend_that_is_not_installed_is_a_usage_error(pytester: pytest.Pytester):
    result = _run_without_libdnnl(pytester, "--backend=onnx-reference,onednn")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    err = result.stderr.str()
    assert "--backend=onednn: not installed: libdnnl.so.3 not found" in err and "op-conformance[onednn]" in err
    assert "passed" not in result.stdout.str() and "error" not in result.stdout.str().lower()


def test_all_has_no_column_for_a_backend_that_is_not_installed(pytester: pytest.Pytester):
    result = _run_without_libdnnl(pytester, "--backend=all", "--collect-only", "-q")
    assert result.ret == pytest.ExitCode.OK, result.stdout.str() + result.stderr.str()
    ids = result.stdout.str()
    assert "::onnx-reference[float32]" in ids and "::onednn" not in ids


@pytest.mark.parametrize("name", sorted(PACKAGES))
def test_a_backend_whose_package_is_absent_is_not_installed(name, monkeypatch):
    monkeypatch.setattr(presence, "package_folders", lambda module: [])
    cls = registry.entry_points()[name].load()
    with pytest.raises(NotInstalled, match=f"the Python package '{PACKAGES[name]}' is not installed"):
        cls.check_installed()
    with pytest.raises(NotInstalled):
        cls()  # the constructor says the same, before importing anything


def test_every_built_in_backend_is_checked(monkeypatch, no_libdnnl):
    """No built-in backend is left with the default check (always installed): with no runtime at all, none is."""
    monkeypatch.setattr(presence, "package_folders", lambda module: [])
    assert set(_ours()) >= set(PACKAGES) | {"onednn", "onednn-current"}
    entries = installed.available()
    assert {a.name for a in entries if not a.missing} == set(), entries


@pytest.mark.parametrize("name", sorted(PACKAGES))
def test_an_installed_runtime_passes_its_check(name):
    """The files each check looks for are where the real wheels put them (this environment's runtimes)."""
    if importlib.util.find_spec(PACKAGES[name].partition(".")[0]) is None:
        pytest.skip(f"{PACKAGES[name]} is not installed here")
    registry.entry_points()[name].load().check_installed()


def test_onednn_passes_its_check_where_its_wheel_is():
    if _wheels.own_file("onednn-cpu-gomp", "libdnnl.so.3") is None:
        pytest.skip("onednn-cpu-gomp ([onednn]) is not installed here")
    registry.entry_points()["onednn"].load().check_installed()


def test_a_package_without_its_shared_library_is_not_installed(tmp_path: Path, monkeypatch):
    package = tmp_path / "fakeruntime"
    (package / "libs").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(NotInstalled, match=r"'fakeruntime' is installed \(.*\) but not its shared library "
                                           r"libs/libfake\.so\* \(pip install x\)"):
        presence.require("fakeruntime", "pip install x", libraries=("libs/libfake.so*",))
    (package / "libs" / "libfake.so.3").write_bytes(b"")
    with pytest.raises(NotInstalled, match="its compiled module _native"):
        presence.require("fakeruntime", "pip install x", extensions=("_native",), libraries=("libs/libfake.so*",))
    (package / f"_native{importlib.machinery.EXTENSION_SUFFIXES[0]}").write_bytes(b"")
    presence.require("fakeruntime", "pip install x", extensions=("_native",), libraries=("libs/libfake.so*",))
    assert "fakeruntime" not in sys.modules  # found, never imported


def test_listing_and_selecting_backends_loads_no_libdnnl():
    """The controller process must not hold a libdnnl.so.3: the oneDNN columns load theirs in their workers."""
    code = textwrap.dedent("""\
        from conformance.backends.discovery import installed
        installed.available(), installed.parse_selection(["all"])
        try:
            installed.check("onednn")
        except ImportError:  # NotInstalled, where oneDNN is absent
            pass
        print(any("libdnnl" in line for line in open("/proc/self/maps")))
    """)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"
