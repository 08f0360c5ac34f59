"""Write findings: one case YAML per op version and backend (schema 1, ``source: fuzz``) and a markdown summary.

A YAML file already in the folder is merged, not overwritten: case ids are derived from the signature, so a
second run (another seed, ``--invalid``) adds only the divergences the file does not hold yet.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from conformance.fuzz.engine import Finding, FuzzReport
from conformance.fuzz.parts import case_parts, describe
from conformance.fuzz.signature import features, slug


def file_stem(report: FuzzReport) -> str:
    cfg = report.config
    return slug(f"{report.backend}-{cfg.domain}-{cfg.op}-{cfg.version}")


def case_id(report: FuzzReport, finding: Finding) -> str:
    return slug(f"{report.backend}-{finding.kind}-{'-'.join(finding.signature.split('[', 1)[1].rstrip(']').split())}")


def case_entry(report: FuzzReport, finding: Finding) -> dict[str, Any]:
    attrs, inputs, dtype = case_parts(finding.draft)
    cfg = report.config
    reason = (
        f"{finding.kind} on {report.backend} {report.backend_version} (conformance fuzz --seed {cfg.seed}, "
        f"case {finding.first_case}, seen {finding.occurrences}x): {finding.reason}"
    )
    entry: dict[str, Any] = {"id": case_id(report, finding), "source": "fuzz", "reason": reason}
    if attrs:
        entry["attributes"] = attrs
    entry["inputs"] = inputs
    entry["dtypes"] = [dtype]
    if finding.draft.layout:
        entry["layouts"] = [finding.draft.layout]
    if finding.draft.mutation:
        entry["expect"] = "error"
    entry["tags"] = ["fuzz", finding.kind, "features=" + " ".join(features(finding.draft))]
    return entry


def _key(entry: dict[str, Any]) -> tuple[str, frozenset[str]] | None:
    """(kind, features) of a written entry, from its tags; None for entries not written by the fuzzer."""
    tags = entry.get("tags") or []
    found = [t for t in tags if isinstance(t, str) and t.startswith("features=")]
    if len(tags) < 3 or not found:
        return None
    return tags[1], frozenset(found[0].removeprefix("features=").split())


def write(report: FuzzReport, out_dir: Path | str) -> tuple[Path | None, Path]:
    """(the case YAML, or None when nothing was found; the summary markdown)."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    cases_path = None
    if report.findings:
        cases_path = out / f"{file_stem(report)}.yaml"
        _merge_cases(cases_path, report)
    summary = out / f"summary-{file_stem(report)}{'-invalid' if report.config.invalid else ''}.md"
    summary.write_text(summary_markdown(report), encoding="utf-8")
    return cases_path, summary


def _merge_cases(path: Path, report: FuzzReport) -> None:
    cfg = report.config
    doc: dict[str, Any] = {"op": cfg.op, "domain": cfg.domain, "versions": [cfg.version], "cases": []}
    if path.exists():
        existing = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        if (existing.get("op"), existing.get("domain")) == (cfg.op, cfg.domain):
            doc = existing
    for finding in report.findings:
        entry = case_entry(report, finding)
        key = _key(entry)
        assert key is not None
        keys = [(c, _key(c)) for c in doc["cases"]]
        # the same fold as engine.merge_supersets, across runs: the entry needing fewer features wins
        if any(c.get("id") == entry["id"] or (k and k[0] == key[0] and k[1] < key[1]) for c, k in keys):
            continue
        doc["cases"] = [c for c, k in keys if not (k and k[0] == key[0] and key[1] < k[1])] + [entry]
    header = (f"# Found by `conformance fuzz` against {report.backend}; each case is a shrunk divergence.\n"
              "# Regenerate or extend with: conformance fuzz --op OP --domain D --version V --backend B -o DIR\n")
    path.write_text(header + yaml.safe_dump(doc, sort_keys=False, default_flow_style=None, width=120),
                    encoding="utf-8")


def summary_markdown(report: FuzzReport) -> str:
    cfg = report.config
    mode = "invalid inputs" if cfg.invalid else "valid inputs"
    statuses = ", ".join(f"{k} {v}" for k, v in sorted(report.statuses.items())) or "none"
    lines = [
        f"# Fuzz findings: {cfg.domain} {cfg.op}-{cfg.version} on {report.backend}",
        "",
        f"- backend version: {report.backend_version}",
        f"- seed {cfg.seed}, budget {cfg.budget} cases, {mode}; ran {report.cases} cases in {report.elapsed_s} s"
        + (" (stopped by the time budget)" if report.stopped_by_time else ""),
        f"- statuses: {statuses}",
        f"- findings: {len(report.findings)}",
        "",
    ]
    if report.findings:
        lines += ["| # | signature | minimal case | divergence | seen | shrink runs |", "|---|---|---|---|---|---|"]
        for number, finding in enumerate(report.findings, 1):
            cells = [str(number), f"`{finding.signature}`", f"`{describe(finding.draft)}`",
                     _cell(finding.reason), str(finding.occurrences), str(finding.shrink_runs)]
            lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")[:300]
