"""Stale expectations over every shard of a run: an entry that matched an item of any shard is in use; one that
matched none of them is stale, as a whole run would have said (a shard alone cannot tell: its entries for the other
shards' items match nothing there, so a sharded ``conformance run`` only counts them).

The expectations are the ones the shards applied: the shipped ``expectations/<backend>.yaml`` of each backend in
the results (unless ``--no-default-expectations``) and the run's ``--expectations`` files.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from conformance.expectations import Expectations
from conformance.expectations.grouping import unreviewed_lines
from conformance.records import base_backend
from conformance.report.merge import merge_files


@dataclass
class StaleCheck:
    lines: list[str] = field(default_factory=list)  # what to print
    failing: bool = False  # an entry is stale over the whole run, or can never match
    checked: bool = True  # False: the shards are not a whole run (a shard missing, -k, interrupted)


def check(results: list[Path], expectations: list[Path], no_default_expectations: bool = False,
          no_default_cases: bool = False) -> StaleCheck:
    """Judge the expectations against the merged records of ``results`` (ValueError: unreadable results,
    ExpectationsError: a malformed expectations file)."""
    from conformance.shipped import expectation_file, expectations_dir

    merged = merge_files(results)
    backends = list(dict.fromkeys(base_backend(r.backend) for r in merged.records))
    files = [] if no_default_expectations else [f for f in map(expectation_file, backends) if f is not None]
    loaded = Expectations.load(files + list(expectations))
    out = StaleCheck()
    never = [e for e in loaded.entries if e.problem]
    out.lines += [f"stale expectation: {e.file}:{e.line}: entry ({e.key}) can never match: {e.problem}" for e in never]
    # a reason still `expectations update`'s TODO: the gate refuses it until a person writes what diverges
    todo = unreviewed_lines(loaded.entries)
    out.lines += todo
    out.failing = bool(never or todo)
    # the records too: a match: entry's attributes are read from them (the ids alone cannot show an attribute)
    stale = [e for e in loaded.stale([r.expectation_id for r in merged.records], merged.records) if not e.problem]
    if no_default_cases:  # the shipped expectations describe the shipped corpus, which did not run
        shipped = expectations_dir()
        stale = [e for e in stale if shipped is None or Path(e.file).resolve().parent != shipped.resolve()]
    why = merged.meta.get("interrupted") or merged.meta.get("partial")
    if merged.meta.get("shards"):
        # a shard's results are missing (its job died before uploading): the merged run is not what ran
        out.failing = True
        out.lines.append(f"shards missing: {merged.meta['partial']}: the merge needs every shard's results")
    if why or not merged.records:
        out.checked = False
        why = why or "no records"
        out.lines.append(f"{len(stale)} expectations entries matched no item of these results, which are not a whole "
                         f"run ({why}): not checked, only a whole run can call an entry stale")
        return out
    out.lines += [f"stale expectation: {e.file}:{e.line}: entry ({e.key}) matched no item of the {len(results)} "
                  "result file(s)" for e in stale]
    out.failing = out.failing or bool(stale)
    if not stale and not never and not todo:
        out.lines.append(f"expectations: {len(loaded.entries)} entries from {len(files) + len(expectations)} file(s), "
                         f"none stale over {len(results)} result file(s)")
    return out
