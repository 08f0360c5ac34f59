"""--order and --items-from: the run order of the items and a selection by node id, after every other selection;
a seeded order is the same permutation every time."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

CASES = """\
op: AveragePool
domain: ai.onnx
versions: [22]
cases:
""" + "".join(f"""\
  - id: c{n}
    attributes: {{kernel_shape: [2, 2]}}
    inputs:
      x: {{shape: [1, 1, 3, 3], dtype: float32, arange: {{start: {n}}}}}
""" for n in range(6))


def collected(tmp_path: Path, *options: str) -> tuple[int, list[str], str]:
    (tmp_path / "cases.yaml").write_text(CASES)
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--collect-only", "-q",
                           "--backend=onnxruntime", "--no-reference", "--no-default-cases",
                           f"--cases={tmp_path / 'cases.yaml'}", *options],
                          capture_output=True, text=True, cwd=tmp_path, timeout=300)
    ids = [line.split("::")[1].rsplit("/", 1)[1] for line in done.stdout.splitlines() if "::" in line]
    return done.returncode, ids, done.stdout + done.stderr


def test_given_reverse_and_seeded_random(tmp_path):
    given = collected(tmp_path)[1]
    assert given == [f"c{n}" for n in range(6)]
    assert collected(tmp_path, "--order=reverse")[1] == given[::-1]
    shuffled = collected(tmp_path, "--order=random:7")[1]
    assert sorted(shuffled) == given and shuffled != given
    assert collected(tmp_path, "--order=random:7")[1] == shuffled  # the same permutation every time
    assert collected(tmp_path, "--order=random:8")[1] != shuffled


def test_items_from_selects_by_node_id_and_keeps_the_order_asked(tmp_path):
    (tmp_path / "cases.yaml").write_text(CASES)
    wanted = tmp_path / "items.txt"
    wanted.write_text("# two of them\ncases.yaml::ai.onnx/AveragePool-22/c4::onnxruntime[float32]\n\n"
                      "cases.yaml::ai.onnx/AveragePool-22/c1::onnxruntime[float32]\n")
    code, ids, _ = collected(tmp_path, f"--items-from={wanted}")
    assert code == 0 and ids == ["c1", "c4"]
    assert collected(tmp_path, f"--items-from={wanted}", "--order=reverse")[1] == ["c4", "c1"]


@pytest.mark.parametrize("value", ["sideways", "random", "random:x", "reverse:3"])
def test_a_bad_order_is_a_usage_error(tmp_path, value):
    code, _, text = collected(tmp_path, f"--order={value}")
    assert code == 4 and "expected given, reverse or random:SEED" in text


def test_an_unreadable_items_file_is_a_usage_error(tmp_path):
    code, _, text = collected(tmp_path, f"--items-from={tmp_path / 'nope.txt'}")
    assert code == 4 and "cannot read it" in text
