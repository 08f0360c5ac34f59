"""Command-line options of the conformance plugin."""

from __future__ import annotations

import pytest

from conformance.plugin.checks import seconds


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("conformance", "operator conformance suite")
    group.addoption(
        "--backend", action="append", default=[], metavar="NAME",
        help="run the cases on backend NAME (repeatable, comma lists; 'all' = every installed backend; "
        "NAME:ARG passes an argument, e.g. onnxruntime:CUDAExecutionProvider, onnx-backend:MODULE)",
    )
    group.addoption(
        "--cases", action="append", default=[], metavar="DIR",
        help="case folder or file added to the shipped corpus (repeatable; --no-default-cases: instead of it)",
    )
    group.addoption("--no-default-cases", action="store_true", help="leave out the shipped corpus")
    group.addoption(
        "--results", default=None, metavar="FILE",
        help="write result records (JSON lines) here; default reports/results.jsonl of the folder pytest runs from",
    )
    group.addoption("--no-reference", action="store_true", help="skip the 'reference' column items")
    group.addoption(
        "--expectations", action="append", default=[], metavar="FILE",
        help="expectations file (known divergences, strict xfail), added to the shipped expectations/<backend>.yaml "
        "(repeatable; --no-default-expectations: instead of them)",
    )
    group.addoption("--no-default-expectations", action="store_true", help="leave out the shipped expectations files")
    group.addoption(
        "--strict-expectations", action="store_true",
        help="fail the run when an expectations entry matches no item (stale lists must not rot)",
    )
    group.addoption(
        "--progress", action="store_true",
        help="show done/total, elapsed time and the running item (a bar on a terminal, a line every 30 s elsewhere)",
    )
    group.addoption("--shard", default=None, metavar="I/N", help="run only shard I of N (balanced by case cost)")
    group.addoption(
        "--case-timeout", type=seconds, default=60.0, metavar="SECONDS",
        help="an isolated backend that gives no result within SECONDS is killed: status timeout (0: no limit)",
    )
    group.addoption(
        "--max-tensor-elements", type=int, default=None, metavar="N",
        help="a case tensor with more elements is a collection error (default 4194304; "
        "env CONFORMANCE_MAX_TENSOR_ELEMENTS)",
    )
    group.addoption(
        "--isolation", choices=("auto", "process", "none"), default="auto",
        help="run backends in worker processes: auto = every third-party backend and our native ones that can abort "
        "(default), process = all, "
        "none = in-process (a crash ends the run)",
    )
