"""Merge result files (pytest-xdist shards, several machines, reruns) into one record list.

A record's key is ``(id, backend, isa)``: results of machines at different ISA levels are kept apart (the report
says which machines it merged). When a key appears more than once the kept record must not depend on the
order the files were given in (CI matrix jobs finish in any order), so the most severe status wins and ties are
broken by the record's JSON text. Keeping the most severe status means a flaky failure is never hidden by a
later green rerun; the disagreement is reported so a human can see the flake.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from conformance.records import Budget, ResultRecord, read_records
from conformance.suite.guards import LIMITS, RESULTS_BYTES_ENV, env_limit

#: Characters of result text one merge (the results of a report, or its baseline) reads: records take ~4 bytes of
#: memory per byte of JSON, so 1 GiB is ~4 GB of memory, and a whole run of the corpus on every backend is ~25 MB.
MAX_RESULTS_BYTES = env_limit(RESULTS_BYTES_ENV, LIMITS[RESULTS_BYTES_ENV])

#: The infix of a part file's name (conformance/plugin/durable.py; not imported: reports never load the plugin)
PART = ".part-"

#: Most severe first. Unknown statuses rank as most severe: a record we cannot classify must not pass silently.
SEVERITY = ("crash", "timeout", "error", "fail", "xpass", "erratum", "xfail", "skipped", "unsupported", "pass")

Key = tuple[str, str, str]


def severity(status: str) -> int:
    """Lower is more severe."""
    return SEVERITY.index(status) if status in SEVERITY else -1


def record_key(record: ResultRecord) -> Key:
    return (record.id, record.backend, record.isa)


@dataclass
class Duplicate:
    """A key seen more than once with statuses that disagree."""

    key: Key
    statuses: list[str]  # every status seen, in input order
    sources: list[str]  # file (or "<input N>") each one came from
    kept: str  # the status of the record that was kept


@dataclass
class MergeResult:
    records: list[ResultRecord]  # sorted by (id, backend)
    duplicates: list[Duplicate] = field(default_factory=list)  # only disagreeing ones
    duplicate_count: int = 0  # every extra copy of a key, agreeing or not
    sources: list[str] = field(default_factory=list)
    #: what the inputs say about the runs that wrote them: ``interrupted`` (a reason), ``partial`` (what selected
    #: a subset); empty for complete runs (see ``run_meta``)
    meta: dict[str, str] = field(default_factory=dict)
    #: the machines the inputs say they ran on (``{"meta": {"machine": ...}}``), each once
    machines: list[dict] = field(default_factory=list)
    #: part-file lines skipped as torn by a kill (``FILE:LINE``), for a warning
    torn: list[str] = field(default_factory=list)


def _rank(record: ResultRecord) -> tuple[int, str]:
    return (severity(record.status), record.to_json())


def merge_records(sources: Iterable[tuple[str, Iterable[ResultRecord]]]) -> MergeResult:
    """Merge ``(source name, records)`` pairs; see the module doc for the duplicate rule."""
    kept: dict[Key, ResultRecord] = {}
    seen: dict[Key, list[tuple[str, str]]] = {}
    names: list[str] = []
    extra = 0
    for name, records in sources:
        names.append(name)
        for record in records:
            key = record_key(record)
            seen.setdefault(key, []).append((record.status, name))
            current = kept.get(key)
            if current is None:
                kept[key] = record
                continue
            extra += 1
            if record != current and _rank(record) < _rank(current):  # equal copies (a part file's and the
                kept[key] = record  # controller's) need no JSON text to break the tie
    duplicates = [
        Duplicate(key, [s for s, _ in hits], [n for _, n in hits], kept[key].status)
        for key, hits in sorted(seen.items())
        if len({s for s, _ in hits}) > 1
    ]
    return MergeResult([kept[k] for k in sorted(kept)], duplicates, extra, names)


def results_budget() -> Budget:
    """The size limit of the result files one merge reads together (``MAX_RESULTS_BYTES``)."""
    return Budget(MAX_RESULTS_BYTES, RESULTS_BYTES_ENV)


def merge_files(paths: Iterable[Path], parsed: Mapping[str, ResultRecord] | None = None) -> MergeResult:
    """Read and merge JSON-lines result files (a malformed line raises ValueError naming file and line; files
    larger together than ``MAX_RESULTS_BYTES`` raise ValueError naming the limit). ``parsed``: records already read
    from lines of that exact text (read_records)."""
    metas: dict[str, list[dict]] = {}
    torn: list[str] = []
    budget = results_budget()

    def read(path: Path) -> Iterable[ResultRecord]:
        # a killed run's part file may end in half a line (docs/ci-gate.md sends users to report on the parts)
        part = PART in Path(path).name
        yield from read_records(Path(path), metas.setdefault(str(path), []), torn if part else None, budget=budget,
                                parsed=parsed)

    merged = merge_records((str(p), read(p)) for p in paths)
    merged.meta = run_meta(metas)
    merged.machines = machines(metas)
    merged.torn = torn
    return merged


def machines(metas: dict[str, list[dict]]) -> list[dict]:
    """Each distinct machine named by the files' meta lines, in input order."""
    seen: list[dict] = []
    for lines in metas.values():
        for line in lines:
            found = [line.get("machine")] + (line["machines"] if isinstance(line.get("machines"), list) else [])
            seen.extend(m for m in found if isinstance(m, dict) and m not in seen)
    return seen


def shards_only(shards: Iterable[str]) -> str:
    return f"shards {', '.join(sorted(shards))} only"


def run_meta(metas: dict[str, list[dict]]) -> dict[str, str]:
    """One run's story from its files' meta lines: interrupted when any file says so (or is a part file of a run
    that never merged them, i.e. has a ``start`` event), partial unless the partial files are shards ``i/n``
    covering every ``i`` of one ``n`` (a shard's own results, or a report of shards, which says ``shards``)."""
    interrupted, partial, shards = [], [], set()
    for source, lines in metas.items():
        for line in lines:
            if line.get("interrupted"):
                interrupted.append(f"{source}: {line['interrupted']}")
            if line.get("event") == "start":
                interrupted.append(f"{source}: the part file of a run that did not finish")
            if line.get("partial"):
                if line.get("shard") and line["partial"] == f"--shard={line['shard']}":
                    shards.add(str(line["shard"]))
                elif isinstance(line.get("shards"), str) and line["partial"] == shards_only(line["shards"].split(", ")):
                    # a report of some shards (the results.jsonl a shard's `conformance run` writes is one): those
                    # shards, which the others complete
                    shards.update(line["shards"].split(", "))
                else:
                    partial.append(f"{source}: {line['partial']}")
    counts, whole = {s.partition("/")[2] for s in shards}, False
    if len(counts) == 1 and (n := next(iter(counts))).isdigit():
        whole = {s.partition("/")[0] for s in shards} == {str(i) for i in range(1, int(n) + 1)}
    meta = {}
    if shards and not whole:
        partial.append(shards_only(shards))
        meta["shards"] = ", ".join(sorted(shards))  # read back by a later merge (above)
    if interrupted:
        meta["interrupted"] = "; ".join(dict.fromkeys(interrupted))
    if partial:
        meta["partial"] = "; ".join(dict.fromkeys(partial))
    return meta
