"""``conformance repro ID --backend B -o DIR``: a standalone reproduction of one result.

ID is a case instance id (``ai.onnx/AveragePool-22/2d_ceil[float32]``) or an item id (``...::onnxruntime``, the
backend then comes from it). The case is looked up in the shipped corpus and any ``--cases`` folders; with
``--results`` the matching record is read too (its observed error goes into the README, and its case file is
searched when the id is not in the folders).
"""

from __future__ import annotations

import argparse
import difflib
import sys
from pathlib import Path

from conformance.model import CaseInstance
from conformance.records import ResultRecord, read_records

EXIT_OK, EXIT_USAGE = 0, 2


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="conformance repro", description=__doc__.splitlines()[0])
    parser.add_argument("id", help="case instance id, item id (case::backend[dtype]) or pytest node id")
    parser.add_argument("--backend", help="backend name (default: the one in an item id, or in the record)")
    parser.add_argument("-o", "--output", type=Path, default=Path("repro"), help="output folder (default: repro/)")
    parser.add_argument("--cases", action="append", type=Path, default=[], help="extra case folder(s) or file(s)")
    parser.add_argument("--results", type=Path, help="results JSON-lines file holding the record to reproduce")
    args = parser.parse_args(argv)

    from conformance.cli.listing import case_path_errors

    if problems := case_path_errors(args.cases):
        return _fail("; ".join(problems))
    if args.output.exists() and not args.output.is_dir():  # checked before any case is loaded or run
        return _fail(f"-o {args.output}: exists and is not a folder")
    from conformance.records import split_item_id

    instance_id, item_backend = split_item_id(args.id)
    item_backend = item_backend or ""
    backend = args.backend or item_backend
    if args.backend and item_backend and args.backend != item_backend:
        return _fail(f"--backend {args.backend} contradicts the item id's backend {item_backend}")
    record = None
    if args.results:
        try:
            record, from_record = _record(args.results, instance_id, backend)
        except (OSError, ValueError) as exc:
            return _fail(str(exc))
        if not backend:
            problem = untrusted_backend(from_record)
            if problem:
                return _fail(f"{args.results}: the record names backend {from_record!r}, {problem}; pass "
                             "--backend explicitly if you mean to load it")
            backend = from_record
    if not backend:
        return _fail("which backend? pass --backend NAME or an item id <instance>::<backend>")

    from conformance.shipped import default_case_dirs

    folders = [*default_case_dirs(), *args.cases]
    if record is not None and record.case_file:
        recorded = Path(record.case_file.rsplit(":", 1)[0])
        folders += [recorded] if recorded.is_file() else []
    instance, known = _find(instance_id, folders)
    if instance is None:
        close = difflib.get_close_matches(instance_id, known, n=5, cutoff=0.6)
        close += [k for k in known if instance_id and instance_id in k and k not in close][: 5 - len(close)]
        hint = "".join(f"\n  {k}" for k in close) if close else " (none close; see `conformance list`)"
        return _fail(f"no case instance {instance_id!r} in {', '.join(map(str, folders))}; close matches:{hint}")

    from conformance.repro import ReproError, UnsafePath, write_repro

    try:
        target = write_repro(instance, backend, args.output, record)
    except (ReproError, UnsafePath) as exc:
        return _fail(str(exc))
    print(f"wrote {target}")
    print(f"run:  python {target / 'repro.py'}")
    return EXIT_OK


def _find(instance_id: str, folders: list[Path]) -> tuple[CaseInstance | None, list[str]]:
    from conformance.cli.listing import iter_instances

    known: list[str] = []
    for _path, instance in iter_instances([f for f in folders if f.exists()]):
        if instance.id == instance_id:
            return instance, known
        known.append(instance.id)
    return None, known


def _record(path: Path, instance_id: str, backend: str) -> tuple[ResultRecord | None, str]:
    """The record for (id, backend); without a backend, the id's only record picks it, or its only record on a
    backend other than the reference column."""
    matches = [r for r in read_records(path) if r.id == instance_id and (not backend or r.backend == backend)]
    if not matches:
        raise ValueError(f"{path}: no record for {instance_id}" + (f" on {backend}" if backend else ""))
    if not backend and len({r.backend for r in matches}) > 1:
        from conformance.pipeline.reference_column import REFERENCE

        # every run has a reference column: the one other backend is the one the user means
        tested = [r for r in matches if r.backend != REFERENCE]
        if len({r.backend for r in tested}) == 1:
            return tested[-1], tested[-1].backend
        names = ", ".join(sorted({r.backend for r in matches}))
        raise ValueError(f"{path}: {instance_id} has records for several backends ({names}); pass --backend")
    return matches[-1], backend or matches[-1].backend  # the last line wins, as in a re-run appended to a file


def untrusted_backend(spec: str) -> str:
    """Why a backend named by a results file may not be loaded, or "".

    A results file is data: only an installed, registered backend may be resolved from it. ``onnx-backend:MODULE``
    and ``module:Class`` would import a module the file names (from the current folder under ``python -m``).
    """
    from conformance.backends import registry

    name = spec.partition(":")[0]
    if name == "onnx-backend" or name not in registry.entry_points():
        return "which is not an installed backend (a results file never selects code to import)"
    return ""


def _fail(message: str) -> int:
    print(f"conformance repro: {message}", file=sys.stderr)
    return EXIT_USAGE
