"""``conformance ci init``: the GitHub Actions workflow a vendor commits, written from a few choices.

The file uses ``pip install`` and the ``conformance`` command only (no action of ours, no tag to pin): N shard jobs
run the suite on the vendor's backend, and one gate job, always beside them, merges their reports and fails on

- a regression against the previous successful run's merged report (``conformance ci baseline``), lost coverage
  included;
- a stale expectations entry over all shards together, or a missing shard (``conformance ci stale``);
- a shard in which the backend under test ran nothing (``conformance report --backend``): the ``reference``
  column is a means, never the only column.

Every shard job is red on its own failing records and when its backend ran none of its items.
docs/ci-gate.md and docs/vendor-guide.md show the file this writes (their tests compare them).
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass

#: GitHub's default: each shard job gets a fresh runner of this label
RUNS_ON = "ubuntu-latest"


@dataclass(frozen=True)
class Choices:
    """What ``conformance ci init`` was told."""

    backend: str
    plugin_package: str = ""  # a pip requirement or path; empty for a built-in backend
    shards: int = 2
    expectations: str = ""  # the vendor's expectations file, relative to the repository
    extra: str = ""  # the harness's extra the backend needs (e.g. onnxruntime); never "all"
    harness: str = ""  # pip requirement of the harness; empty: op-conformance at the installed version
    run_args: str = ""  # more `conformance run` arguments, split like a shell
    python: str = "3.11"

    def problems(self) -> list[str]:
        """What makes these choices unusable, one line each (empty: usable)."""
        out = []
        if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]*", self.backend):
            out.append(f"--backend {self.backend!r}: a registered backend name (letters, digits, '.', '_', '-')")
        if not 1 <= self.shards <= 256:
            out.append(f"--shards {self.shards}: from 1 to 256")
        if self.extra == "all":
            out.append("--extra all: installs every bundled runtime; name the one your backend needs")
        for name, value in (("--plugin-package", self.plugin_package), ("--expectations", self.expectations),
                            ("--harness", self.harness), ("--run-args", self.run_args), ("--extra", self.extra)):
            if "${{" in value or "\n" in value:
                out.append(f"{name} {value!r}: no GitHub expression or newline in a value written into the file")
        try:
            shlex.split(self.run_args)
        except ValueError as exc:
            out.append(f"--run-args {self.run_args!r}: cannot be split like a shell command line: {exc}")
        return out

    def requirement(self, extra: bool = True) -> str:
        """The harness as pip installs it (``extra``: with the backend's extra; the gate job runs no backend):
        pinned to the installed version, so that the corpus and the shipped expectations the vendor's entries were
        written against are the ones CI runs."""
        if self.harness:
            return self.harness
        from conformance.shipped import DISTRIBUTION, version

        extra = f"[{self.extra}]" if self.extra and extra else ""
        pinned = version()
        return f"{DISTRIBUTION}{extra}=={pinned}" if re.fullmatch(r"[0-9][0-9A-Za-z.+!-]*", pinned) else \
            f"{DISTRIBUTION}{extra}"


def command_line(choices: Choices, output: str) -> str:
    """The ``conformance ci init`` command that writes this file again."""
    words = ["conformance", "ci", "init", "--backend", choices.backend]
    words += ["--plugin-package", choices.plugin_package] if choices.plugin_package else []
    words += ["--shards", str(choices.shards)]
    words += ["--expectations", choices.expectations] if choices.expectations else []
    words += ["--extra", choices.extra] if choices.extra else []
    words += [f"--run-args={choices.run_args}"] if choices.run_args else []
    words += ["--output", output]
    return shlex.join(words)


def render(choices: Choices, output: str = ".github/workflows/conformance.yml") -> str:
    """The workflow's text."""
    q = shlex.quote
    backend, n = choices.backend, choices.shards
    slug = re.sub(r"[^A-Za-z0-9._-]", "-", backend)
    install = f"python -m pip install {q(choices.requirement())}"
    install_gate = f"python -m pip install {q(choices.requirement(extra=False))}"
    expectations = f" --expectations {q(choices.expectations)}" if choices.expectations else ""
    run_args = f" {shlex.join(shlex.split(choices.run_args))}" if choices.run_args else ""
    stale_args = f" --run-args={q(choices.run_args)}" if choices.run_args else ""
    matrix = ", ".join(str(i) for i in range(1, n + 1))
    setup = f"""\
      - uses: actions/checkout@v4
      - uses: actions/setup-python@v5
        with:
          python-version: "{choices.python}"
"""
    plugin = f" {q(choices.plugin_package)}" if choices.plugin_package else ""
    return f"""\
# Written by: {command_line(choices, output)}
# The suite on {backend} in {n} shard job(s), and the gate job beside them: the shards merged and gated against the
# previous successful run's merged report (regressions, lost coverage), stale expectations over all shards, a
# missing shard, and a shard in which {backend} ran nothing are red. pip and the `conformance` command only
# (docs/ci-gate.md, section 5).
name: conformance
on:
  push:
  pull_request:
  workflow_dispatch:
permissions:
  contents: read
  actions: read   # the baseline: the previous successful run's merged report, through GitHub's REST API
defaults:
  run:
    shell: bash   # -eo pipefail
jobs:
  shard:
    runs-on: {RUNS_ON}
    strategy:
      fail-fast: false   # every shard reports, whichever fails first
      matrix:
        shard: [{matrix}]
    steps:
{setup}      - name: Install the harness and the plugin
        run: {install}{plugin}
      - name: Run shard ${{{{ matrix.shard }}}} of {n}
        env:
          SHARD: ${{{{ matrix.shard }}}}/{n}
        # red on this shard's own failing records, and when {backend} ran none of its items
        run: conformance run --backend {q(backend)} --shard "$SHARD" -o report{expectations}{run_args}
      - name: Upload the shard's report
        if: always()
        uses: actions/upload-artifact@v4
        with:
          name: conformance-{slug}-shard-${{{{ matrix.shard }}}}
          path: report/
  gate:
    needs: shard
    if: always()   # a red shard is still merged and gated
    runs-on: {RUNS_ON}
    steps:
{setup}      - name: Install the harness (it runs no backend)
        run: {install_gate}
      - name: Download the shards' reports
        uses: actions/download-artifact@v4
        with:
          pattern: conformance-{slug}-shard-*
          path: shards
      - name: Baseline, the previous successful run's merged report
        env:
          GITHUB_TOKEN: ${{{{ github.token }}}}
        # nothing on the workflow's first run (a notice says so); fails when runs exist and none has it
        run: conformance ci baseline --artifact conformance-{slug}-merged --dest baseline > baseline.txt
      - name: Merge and gate
        run: |
          set +e
          baseline=$(cat baseline.txt)
          conformance report shards/*/results.jsonl -o merged --backend {q(backend)} \\
            ${{baseline:+--baseline "$baseline"}} 2>&1 | tee gate.log
          status=${{PIPESTATUS[0]}}
          conformance ci stale shards/*/results.jsonl{expectations}{stale_args} 2>&1 | tee -a gate.log
          stale=${{PIPESTATUS[0]}}
          if [ "$status" -eq 0 ]; then status=$stale; fi
          conformance ci summary merged/results.jsonl --title "conformance: {backend}" --log gate.log \\
            --exit-code "$status" >> "$GITHUB_STEP_SUMMARY"
          exit "$status"
      - name: Upload the merged report (the next run's baseline)
        if: always()
        uses: actions/upload-artifact@v4
        with:
          name: conformance-{slug}-merged
          path: merged/
"""
