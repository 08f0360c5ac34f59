"""The commands that run one case item again: pytest's, from the folder the run started in, and ``conformance
repro``'s, from anywhere."""

from __future__ import annotations

import os
import shlex
from pathlib import Path
from typing import Any

import pytest

from conformance.records import ISA_SEPARATOR


def display_path(node: pytest.File) -> str:
    """The file as the user would type it from the invocation folder: relative below it, absolute elsewhere (the
    shipped corpus in site-packages, a case folder beside the project), so a command naming it works when pasted
    where pytest ran. Not Config.cwd_relative_nodeid: pytest 9 made it take a NodeId object, and a str failed
    there whenever the case folder lies outside the invocation folder."""
    try:
        relative = os.path.relpath(node.path, node.config.invocation_params.dir).replace(os.sep, "/")
    except ValueError:  # another drive (Windows)
        return str(node.path)
    return str(node.path) if relative.startswith("../") else relative

def repro_command(item: Any) -> str:
    """The pytest command that runs this one item again, from the folder where this run started: the case file
    as the user would type it there (not the node id, which is relative to pytest's rootdir or to the case
    folder), then the case and item parts of the node id."""
    spec = "" if item.backend is None else _spec_of(item)
    backend = f" {shlex.quote('--backend=' + spec)}" if spec else ""
    level = "" if item.backend is None else str(item.backend.name).partition(ISA_SEPARATOR)[2]
    backend += f" --isa={shlex.quote(level)}" if level else ""  # an ISA column exists only when its level is asked
    case_file = item.getparent(pytest.File)  # a case item's file is its case file (tree.py)
    rest = item.nodeid[len(case_file.nodeid):] if case_file is not None else "::" + item.nodeid.split("::", 1)[-1]
    path = display_path(case_file) if case_file is not None else str(item.path)
    # a module:Class plugin is imported from the folder the run started in: `python -m pytest` puts that folder on
    # sys.path as the run had it (a plain `pytest` script does not)
    runner = "python -m pytest" if ":" in spec and not _registered(spec) else "pytest"
    return f"{runner} {shlex.quote(path + rest)}{backend} -p no:randomly"


def conformance_repro_command(item: Any) -> str:
    """``conformance repro`` for this item: it finds the case by its instance id in the installed corpus, so it
    works from any folder (the pytest command names the case file, inside site-packages for a wheel). A case from
    outside the shipped corpus adds its file as ``--cases``, absolute for the same reason. "" for a plugin run as
    ``module:Class`` without an entry point: ``conformance repro`` creates registered backends only, so the pytest
    command (``python -m pytest`` from the run's folder, where the module is) is its reproduction."""
    if item.backend is None:
        return ""
    from conformance.shipped import default_case_dirs

    spec = _spec_of(item).partition(ISA_SEPARATOR)[0]  # an ISA column's level is not a backend spec
    if ":" in spec and not _registered(spec):
        return ""
    command = f"conformance repro {shlex.quote(item.instance.id)} --backend {shlex.quote(spec)} -o repro/"
    case_file = Path(item.path).resolve()
    if not any(case_file.is_relative_to(d.resolve()) for d in default_case_dirs()):
        command += f" --cases {shlex.quote(str(case_file))}"
    return command


def _spec_of(item: Any) -> str:
    """The --backend spec that selected the item's backend: a plugin's name (``wrongshape``) is no spec when the
    run selected it as ``module:Class``."""
    for column, spec in item.config.hook.pytest_conformance_columns(config=item.config) or []:
        if column.backend is item.backend:
            return str(spec)
    return str(item.backend.name)


def _registered(spec: str) -> bool:
    from conformance.backends import registry

    name = spec.partition(":")[0]
    return name == "onnx-backend" or name in registry.entry_points()
