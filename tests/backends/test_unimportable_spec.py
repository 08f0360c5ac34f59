"""A ``--backend`` whose code cannot be imported is a usage error (pytest exit code 4) before any item runs, named
as the user typed it: ``--backend=nosuchmod:Foo`` ran the whole suite with an error on every item (while an unknown
name was refused at once), in a column named after the spec. The import is tried in a fresh interpreter: a module
that kills its interpreter on import does not take the controller down."""

from __future__ import annotations

from pathlib import Path

import pytest
from one_case import CASE

from conformance.backends.discovery import installed
from conformance.backends.discovery.spec_check import import_problem

MODULES = {
    "vendor_ok": "from conformance.backends.base import Backend\n\nclass Good(Backend):\n    name = 'good'\n"
                 "    def version(self):\n        return '1'\n    def run(self, case, inputs):\n        return []\n",
    "vendor_plain": "class NotABackend:\n    pass\n\nVALUE = 3\n",
    "vendor_raises": "raise RuntimeError('vendor init failed: libacme.so.2 missing')\n",
    "vendor_dies": "import os\nos._exit(7)\n",
}


@pytest.fixture
def modules(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for name, text in MODULES.items():
        (tmp_path / f"{name}.py").write_text(text)
    monkeypatch.syspath_prepend(str(tmp_path))  # the child gets this process's sys.path, as a worker does
    return tmp_path


@pytest.mark.parametrize("spec, said", [
    ("nosuchmod:Foo", "cannot import module 'nosuchmod': ModuleNotFoundError: No module named 'nosuchmod'"),
    ("vendor_ok:Missing", "module 'vendor_ok' has no 'Missing'"),
    ("vendor_plain:NotABackend", "'NotABackend' is not a backend: it does not subclass conformance.backends.base."
                                 "Backend and has no run() or version()"),
    ("vendor_plain:VALUE", "'VALUE' is a int, not a backend class"),
    ("vendor_raises:Foo", "cannot import module 'vendor_raises': RuntimeError: vendor init failed: libacme.so.2"),
    ("vendor_dies:Foo", "the interpreter importing it died (exit code 7)"),
    ("onnx-backend:nosuchmod", "cannot import module 'nosuchmod'"),
])
def test_why_a_spec_cannot_be_imported(modules, spec, said):
    assert said in import_problem(spec, 60)
    with pytest.raises(installed.CannotImport, match="cannot import|has no|not a backend|died"):
        installed.check(spec)


def test_a_spec_that_imports_passes_and_our_own_need_no_child(modules, monkeypatch):
    assert import_problem("vendor_ok:Good", 60) == ""
    installed.check("vendor_ok:Good")
    from conformance.backends.discovery import spec_check

    monkeypatch.setattr(spec_check, "import_problem", lambda *a: pytest.fail("our backends are checked by files"))
    installed.check("onnx-reference")


def _entry_point(folder: Path, target: str) -> None:
    """A distribution in ``folder`` registering ``acme`` -> ``target`` (found by importlib.metadata on sys.path)."""
    info = folder / "acme_plugin-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: acme-plugin\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(f"[conformance.backends]\nacme = {target}\n")


@pytest.mark.parametrize("spec", ["nosuchmod:Foo", "vendor_dies:Foo", "vendor_plain:NotABackend"])
def test_pytest_refuses_it_before_any_item_runs(pytester: pytest.Pytester, spec):
    pytester.makefile(".yaml", good=CASE)
    for name, text in MODULES.items():
        pytester.makepyfile(**{name: text})
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--no-default-cases", "--cases=.",
                                           f"--backend={spec}", f"--results={pytester.path / 'r.jsonl'}")
    assert result.ret == pytest.ExitCode.USAGE_ERROR, result.stdout.str()[-2000:]
    err = result.stderr.str()
    assert f"--backend={spec}: cannot import it: " in err, err
    assert "PASSED" not in result.stdout.str() and "ERROR" not in result.stdout.str()


def test_a_registered_entry_point_that_cannot_be_imported(pytester: pytest.Pytester):
    pytester.makefile(".yaml", good=CASE)
    _entry_point(pytester.path, "acme_gone.backend:AcmeBackend")
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--no-default-cases", "--cases=.",
                                           "--backend=acme", f"--results={pytester.path / 'r.jsonl'}")
    assert result.ret == pytest.ExitCode.USAGE_ERROR, result.stdout.str()[-2000:]
    assert ("--backend=acme: cannot import it: its entry point acme_gone.backend:AcmeBackend cannot be imported: "
            "ModuleNotFoundError: No module named 'acme_gone'") in result.stderr.str()


def test_conformance_run_refuses_it_too(tmp_path: Path, capfd):
    from conformance.cli import run

    (tmp_path / "good.yaml").write_text(CASE)
    code = run.main(["--backend=nosuchmod:Foo", "--no-default-cases", f"--cases={tmp_path / 'good.yaml'}", "-n", "0",
                     "-o", str(tmp_path / "out")])
    assert code == 4
    captured = capfd.readouterr()
    assert "--backend=nosuchmod:Foo: cannot import it: cannot import module 'nosuchmod'" in captured.err
    assert "INCOMPLETE RUN" not in captured.err  # a refused command line is no run that stopped half way
