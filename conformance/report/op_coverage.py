"""Which ops each backend covers, from a run's records: ``conformance coverage --results RESULTS``.

Per backend column, each op-version (the matrix's rows) falls in one class, the first that holds:
``failing`` (a record of it fails: fail, error, crash, timeout, xpass or a status the harness does not know),
``known`` (a known divergence: an xfail, none failing), ``passing`` (every record it ran passes), ``unsupported``
(the backend ran none of its records: every one unsupported or an erratum). A vendor reads "of the 235 op-versions,
my runtime runs 190 and passes 150 whole". Reports read records only: this needs no case and no backend.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from conformance.records import FAILING, STATUSES, ResultRecord

from .matrix import column_labels, row_label

CLASSES = ("passing", "known", "failing", "unsupported")
_NOT_RUN = frozenset({"unsupported", "erratum", "skipped"})


def op_class(counts: Counter) -> str:
    """The class of one op-version on one backend from its records' status counts."""
    if any(n and (s in FAILING or s not in STATUSES) for s, n in counts.items()):
        return "failing"
    if counts.get("xfail"):
        return "known"
    if any(n and s not in _NOT_RUN for s, n in counts.items()):
        return "passing"
    return "unsupported"


@dataclass
class BackendCoverage:
    backend: str
    ops: dict[str, Counter] = field(default_factory=dict)  # op-version -> status counts

    def classes(self) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {c: [] for c in CLASSES}
        for op, counts in sorted(self.ops.items()):
            out[op_class(counts)].append(op)
        return out

    def as_dict(self) -> dict:
        return {"backend": self.backend, "op_versions": len(self.ops), **self.classes(),
                "records": {op: dict(c) for op, c in sorted(self.ops.items())}}


def op_coverage(records: Iterable[ResultRecord]) -> list[BackendCoverage]:
    """One entry per backend column, as the report's matrix has them (``openvino@avx2`` where records of several
    ISA levels are merged), sorted by name."""
    records = list(records)
    labels = column_labels(records)
    per: dict[str, dict[str, Counter]] = defaultdict(lambda: defaultdict(Counter))
    for r in records:
        per[labels[(r.backend, r.isa)]][row_label(r)][r.status] += 1
    return [BackendCoverage(column, dict(per[column])) for column in sorted(per)]


def format_coverage(coverage: list[BackendCoverage], show_ops: bool = False) -> str:
    width = max([len(c.backend) for c in coverage] + [7])
    lines = [f"{'backend':<{width}}  {'op-versions':>11}  " + "  ".join(f"{c:>11}" for c in CLASSES)]
    for entry in coverage:
        classes = entry.classes()
        lines.append(f"{entry.backend:<{width}}  {len(entry.ops):>11}  "
                     + "  ".join(f"{len(classes[c]):>11}" for c in CLASSES))
        if show_ops:
            for name in ("failing", "known", "unsupported"):
                if classes[name]:
                    lines.append(f"  {name}: {', '.join(classes[name])}")
    lines.append("")
    lines.append("Per op-version (the report's matrix rows): passing, every record run passes; known, an expected")
    lines.append("divergence (xfail) and none failing; failing, a record fails; unsupported, none run.")
    return "\n".join(lines)
