"""Release-ready (issue 48): the sdist and the wheel build from the checkout, `twine check --strict` passes, and the
wheel carries every module of the source tree (a package missing from pyproject's list installs a harness that
fails on import) and the whole corpus. Slow (a build, ~15 s): marked `install`."""

from __future__ import annotations

import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

pytestmark = pytest.mark.install
ROOT = Path(__file__).resolve().parents[2]


def test_sdist_and_wheel_build_and_pass_twine_check(tmp_path: Path):
    pytest.importorskip("build")
    pytest.importorskip("twine")
    done = subprocess.run([sys.executable, "-m", "build", "--outdir", str(tmp_path), str(ROOT)],
                          capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    (wheel,) = tmp_path.glob("*.whl")
    (sdist,) = tmp_path.glob("*.tar.gz")
    check = subprocess.run([sys.executable, "-m", "twine", "check", "--strict", str(wheel), str(sdist)],
                           capture_output=True, text=True, timeout=300)
    assert check.returncode == 0 and check.stdout.count("PASSED") == 2, check.stdout + check.stderr
    names = set(zipfile.ZipFile(wheel).namelist())
    tracked = subprocess.run(["git", "ls-files", "conformance", "reference", "cases", "expectations"], cwd=ROOT,
                             capture_output=True, text=True, check=True).stdout.split()
    where = {"conformance": "conformance", "reference": "conformance_reference", "cases": "conformance/_shipped/cases",
             "expectations": "conformance/_shipped/expectations"}
    wanted = [f"{where[p.split('/', 1)[0]]}/{p.split('/', 1)[1]}" for p in tracked
              if p.endswith((".py", ".yaml")) and (ROOT / p).is_file()]
    missing = [p for p in wanted if p not in names]
    assert not missing, f"not in the wheel (list the package in pyproject's [tool.setuptools]): {missing[:10]}"
    with tarfile.open(sdist) as archive:
        assert any(n.endswith("/README.md") for n in archive.getnames())
