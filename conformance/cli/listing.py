"""``conformance list`` (case instances) and ``conformance backends`` (installed backends)."""

from __future__ import annotations

import argparse
import fnmatch
import sys
from collections.abc import Callable
from pathlib import Path


def case_path_errors(paths: list[Path]) -> list[str]:
    """Why the ``--cases`` paths or the environment cannot be used (a missing path was silently ignored before)."""
    from conformance.suite import guards

    missing = [f"--cases {p}: no such file or folder" for p in paths if not Path(p).exists()]
    return missing + guards.env_errors()


#: exit status of ``conformance list`` when a case file or case was refused: ``conformance run``'s for the same files
#: (pytest's 1: each is a collection error, and the run goes on with the rest)
EXIT_REFUSED = 1


def iter_instances(case_dirs: list[Path], errors: list[str] | None = None):
    """(file, instance) for every case instance under the folders; broken files and cases are reported on stderr
    (and their messages added to ``errors``), a case collection refuses among them (the reference rejects it as a
    positive case, or a size it derives is past the per-tensor limit: oracle.check_reference_accepts), once."""
    from conformance.oracle import check_reference_accepts
    from conformance.suite import corpus

    def refused(message: str) -> None:
        print(f"error: {message}", file=sys.stderr)
        if errors is not None:
            errors.append(message)

    gone: set[int] = set()
    for path, instance in corpus.instances(case_dirs, on_error=refused):
        if id(instance.case) in gone:
            continue
        try:
            check_reference_accepts(instance)
        except ValueError as exc:  # as collection says it (plugin/tree.py)
            gone.add(id(instance.case))
            case = instance.case
            refused(f"{case.file}:{case.line}: case {case.id!r}: {exc}" if case.line else f"{case.file}: {exc}")
            continue
        yield path, instance


def list_main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="conformance list", description="List case instances.")
    parser.add_argument("--cases", action="append", type=Path, default=[],
                        help="extra case folder(s) or file(s), listed after the shipped corpus")
    parser.add_argument("--no-default-cases", action="store_true", help="leave out the shipped corpus")
    parser.add_argument("--domain", help="ai.onnx | openvino | onednn")
    parser.add_argument("--op", help="operator name, e.g. AveragePool")
    parser.add_argument("--source", help="spec-example | onnx-example | onnx-node-test | edge | negative | ...")
    parser.add_argument("-k", help="pytest -k expression over instance ids and case file names, as `conformance "
                        "run -k` (substrings, and/or/not: 'AveragePool-22 and not ceil'); a value with * or ? is a "
                        "glob over instance ids, e.g. '*ceil*'")
    args = parser.parse_args(argv)
    count = 0
    if problems := case_path_errors(args.cases):
        print("conformance list: " + "; ".join(problems), file=sys.stderr)
        return 2
    from conformance.shipped import default_case_dirs

    try:
        selected = keyword_filter(args.k)
    except ValueError as exc:
        print(f"conformance list: -k {args.k!r}: {exc}", file=sys.stderr)
        return 2
    refused: list[str] = []
    for path, inst in iter_instances(([] if args.no_default_cases else default_case_dirs()) + args.cases, refused):
        if args.domain and inst.domain != args.domain or args.op and inst.op != args.op:
            continue
        if args.source and inst.source != args.source or not selected(inst.id, path.name):
            continue
        count += 1
        print(f"{inst.id}\t{inst.source}\t{path.name}")
    if refused:  # the rest listed, as a run collects the rest: never a clean exit
        print(f"conformance list: {len(refused)} case file(s) or case(s) refused (the errors above), exit "
              f"{EXIT_REFUSED} as `conformance run` on them", file=sys.stderr)
    print(f"{count} case instance(s)", file=sys.stderr)  # the last line (docs/ci-gate.md: `| tail -1`)
    return EXIT_REFUSED if refused else 0


def keyword_filter(expression: str | None) -> Callable[[str, str], bool]:
    """(instance id, case file name) -> selected, for ``list -k``: pytest's own -k parser, so the value that
    selects items in ``run -k`` lists the same instances (case-insensitive substrings, ``and``/``or``/``not``,
    parentheses). A value with ``*`` or ``?`` — never in an id, not valid in a -k expression — keeps the glob over
    instance ids that ``list -k`` took before. Raises ``ValueError`` for a malformed expression."""
    if not expression:
        return lambda _id, _file: True
    if any(c in expression for c in "*?"):
        return lambda instance_id, _file: fnmatch.fnmatch(instance_id, expression)
    compiled = keyword_expression(expression)

    def selected(instance_id: str, file_name: str) -> bool:
        names = [instance_id.lower(), file_name.lower()]
        return compiled.evaluate(lambda word, **_: any(word.lower() in name for name in names))

    return selected


def keyword_expression(expression: str):  # noqa: ANN201 - pytest's private Expression
    """``expression`` compiled by pytest's own parser of ``-k``; ValueError when pytest would refuse it."""
    from _pytest.mark import expression as parser

    try:
        return parser.Expression.compile(expression)
    except (SyntaxError, getattr(parser, "ParseError", SyntaxError)) as exc:  # ParseError: pytest before 8.4
        raise ValueError(f"not a pytest -k expression: {exc}") from None


def backends_main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="conformance backends", description="Installed backends.")
    parser.add_argument("--full", action="store_true",
                        help=f"list every op a backend runs (default: a list longer than {LISTED} as its count and "
                             f"its first {SHOWN})")
    full = parser.parse_args(argv).full
    from conformance.backends.base import optional
    from conformance.backends.discovery import installed
    from conformance.backends.isolation import isolated_backend
    from conformance.machine import this_machine
    from conformance.plugin.isa_axis import cap_env
    from conformance.terminal import printable

    host = this_machine()
    print(f"machine: {host.label()}; kernel features: {' '.join(host.features) or '-'}")
    for entry in installed.available():
        if entry.error:
            # whole: what is missing and what installs it (a multi-line reason continues under its first line).
            # "not installed" only when the runtime is absent (NotInstalled): a package that is there but fails to
            # import or construct is "broken", which a reinstall of the extra would not fix
            state = "not installed" if entry.missing else "broken"
            print(f"{entry.name:<20} {state:<15} {_indented(entry.error)}")
            continue
        # third-party and native backends answer from a worker: a plugin that crashes here costs its line only
        backend = isolated_backend.wrap(None, entry.name, "auto", installed.PROBE_TIMEOUT,
                                 start_timeout=installed.PROBE_TIMEOUT)
        try:
            version = backend.version()
            level = optional(backend, "isa_level")()
            cap = cap_env(entry.name)
            isa = (f"isa {level}" + (f" (--isa axis: {cap})" if cap else "") + "; ") if level else ""
            caps = isa + "; ".join(_capability(k, list(map(str, v)), full)
                                   for k, v in optional(backend, "capabilities")().items())
            description = str(optional(backend, "description") or "")
        except Exception as exc:
            print(f"{entry.name:<20} {'broken':<15} {_indented(f'{type(exc).__name__}: {exc}')}")
            continue
        finally:
            if isinstance(backend, isolated_backend.IsolatedBackend):
                backend.close()
        print(f"{entry.name:<20} {printable(str(version)):<28} {printable(caps)}")  # a plugin's own texts
        if description:  # the plugin's own one-liner (docs/backends.md), under its line
            print(" " * 21 + _indented(description))
        if not entry.in_all:
            print(" " * 21 + f"not in --backend=all: run it by name (--backend={entry.name})")
    return 0


#: without --full, a capability list longer than LISTED shows its count and its first SHOWN items (a backend may
#: run hundreds of op-versions)
LISTED, SHOWN = 12, 8


def _capability(key: str, values: list[str], full: bool) -> str:
    """``key: a, b, c``; a longer list as its count and its first items (``--full`` lists it all)."""
    if full or len(values) <= LISTED:
        return f"{key}: {', '.join(values)}"
    return f"{key}: {len(values)} ({', '.join(values[:SHOWN])}, ... --full lists them)"


def _indented(text: str) -> str:
    """``text`` with its lines after the first indented to the reason column of ``conformance backends``, control
    characters escaped (a plugin's own text)."""
    from conformance.terminal import printable

    return ("\n" + " " * 36).join(printable(line) for line in text.strip().splitlines() if line.strip())
