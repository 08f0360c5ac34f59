"""Compare a NEW run against an OLD (baseline) run, record by record, keyed by ``(id, backend, isa)``.

Like is compared with like: a record is judged only against a baseline record of the same backend at the same ISA
level (docs/isa.md). A baseline record of an item this run has only at other levels (the baseline came from another
CPU class) is listed as ``other level``, its status never compared (coverage is: below); a baseline record of an
older run without a level is compared with the one level this run has for it.

A known failure that now fails another way is a *changed failure* (issue 35): the two records' outcomes have the same
status but their failure signatures differ (another output, a new kind, a new exception type, more elements wrong,
a NaN where there was none, a worst error more than signature.FACTOR times larger: conformance/expectations/
signature.py; each record is compared with its own, never with a group's). When the baseline record was
acceptable (``xfail``) it is a regression: an expectations entry without a signature kept the item ``xfail``
while it broke further, or an entry with one turned it into a failure (``xfail -> fail``, compared by outcome).
When it was already red, it is listed as a change.

Only a move from an acceptable status to a failing one (or a changed failure) is a regression; it is what the CI
gate fails on. A known failure that changes flavour (fail -> crash) is a change, not a regression, so a baseline
that already carries a red record does not block unrelated work, while it is still shown.

A key of the baseline missing from the new run is a regression too (a crashed, killed or truncated run must not
pass the gate by losing records), unless the new run says it was partial (``-k``, an incomplete set of shards):
then it is listed as ``not run``. A key whose baseline status was already failing is ``removed``.

Coverage is part of the verdict (issue 23): a baseline ``pass`` that becomes ``unsupported`` (or ``error``, or
missing) is a regression shown as *lost coverage*, with the reason the backend gave, and a backend column that ran
nothing while the baseline ran it is a regression of its own: a plugin that stops running cases (a ``supports()``
slip, a library that no longer loads) must not pass the gate by skipping everything.

Coverage is compared across ISA levels too, because like-with-like must not become a way out: a runner of another
CPU class on which the vendor's library fails to load has every record at a level the baseline never saw, so no
record would be compared at all. Hence (a) a backend that ran cases in the baseline (at any level) and runs none
today (at any level) is a column-wide regression, and (b) an item that passed in the baseline at one level and here
exists only at levels the baseline lacks, only as ``unsupported``, is listed under ``other level`` with both levels
named — shown, not failed: another CPU class may lack what the case needs (oneDNN's bfloat16 below avx512_core),
which the gate cannot tell from a fault, and a fleet of runners of several classes gated against the last run must
not go red on the class it drew. A baseline per class (or merged from every class) compares those items like with
like. Status changes between runnable outcomes (pass -> fail) are still compared only at one level.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from conformance.records import FAILING, ResultRecord

from .merge import Key, record_key

#: Statuses a run may have without being red.
ACCEPTABLE = frozenset({"pass", "xfail", "unsupported", "erratum", "skipped"})
#: Statuses that mean a backend ran the case (whatever the verdict): ``unsupported`` and ``error`` (which includes
#: "backend unavailable" and wrong-typed answers) do not.
RAN = frozenset({"pass", "fail", "xfail", "xpass", "erratum", "crash", "timeout"})
#: What a passing case may become that means it is no longer run (missing aside): a ``skip:`` entry too.
LOST = frozenset({"unsupported", "error", "skipped"})
#: What it may become at another ISA level and count as lost: an ``error`` there is a failing record of its own
#: (red without any baseline), and which outcome another CPU class gives is not this comparison's to judge.
LOST_ELSEWHERE = frozenset({"unsupported"})
#: The id of a column-wide regression (a backend that ran nothing).
COLUMN = "(every case)"


def is_failing(status: str) -> bool:
    # Unknown statuses count as failing so a typo in a plugin cannot turn a failure green.
    return status in FAILING or status not in ACCEPTABLE


@dataclass
class Transition:
    id: str
    backend: str
    old: str | None  # None: the key is new
    new: str | None  # None: the key was removed
    reason: str = ""  # the NEW record's reason (the OLD one's for a removed key)
    isa: str = ""  # the ISA level both records ran at (the new record's, for a comparison across levels)
    #: the baseline record's level when it differs from ``isa`` (coverage lost across levels), else ""
    baseline_isa: str = ""
    #: same status, failing another way than in the baseline: how (signature.py), else ""
    changed_failure: str = ""

    @property
    def key(self) -> Key:
        return (self.id, self.backend)

    @property
    def lost_coverage(self) -> bool:
        """A case the backend passed and no longer runs (unsupported, error, missing), or a whole column."""
        return self.id == COLUMN or (self.old == "pass" and (self.new is None or self.new in LOST))


@dataclass
class BaselineDiff:
    regressions: list[Transition] = field(default_factory=list)
    fixes: list[Transition] = field(default_factory=list)
    changes: list[Transition] = field(default_factory=list)  # any other status change
    new: list[Transition] = field(default_factory=list)
    removed: list[Transition] = field(default_factory=list)
    not_run: list[Transition] = field(default_factory=list)  # missing from a run that says it was partial
    #: baseline records of a backend at an ISA level this run does not have: another CPU class, not compared
    other_level: list[Transition] = field(default_factory=list)
    unchanged: int = 0

    @property
    def new_failing(self) -> list[Transition]:
        """New keys that fail: not regressions (nothing to regress from) but worth a look."""
        return [t for t in self.new if t.new is not None and is_failing(t.new)]

    @property
    def exit_code(self) -> int:
        return 1 if self.regressions else 0

    @property
    def changed_failures(self) -> list[Transition]:
        """Known failures that fail another way (among the regressions when the baseline record was acceptable,
        among the changes when it was already red)."""
        return [t for t in self.regressions + self.changes if t.changed_failure]

    def counts(self) -> dict[str, int]:
        return {
            "regressions": len(self.regressions),
            "changed failures": len(self.changed_failures),
            "fixes": len(self.fixes),
            "changes": len(self.changes),
            "new": len(self.new),
            "removed": len(self.removed),
            "not run": len(self.not_run),
            "other level": len(self.other_level),
            "unchanged": self.unchanged,
        }


def compare(new: Iterable[ResultRecord], old: Iterable[ResultRecord], partial: bool = False) -> BaselineDiff:
    """Classify every key of NEW and OLD; lists come out sorted by (id, backend).

    ``partial``: NEW is a deliberate subset (``-k``, some shards), so a missing key is ``not run``, not a
    regression."""
    new_by = {record_key(r): r for r in new}
    old_by = _baseline_keys(old, new_by)
    columns = {(backend, isa) for _, backend, isa in new_by}
    items = {key[:2] for key in new_by}  # (id, backend) of this run, at whatever level
    diff = BaselineDiff()
    crossed = _lost_across_levels(new_by, old_by)
    diff.other_level += crossed
    done = {(t.id, t.backend) for t in crossed}
    for key in sorted(new_by.keys() | old_by.keys()):
        if key[:2] in done:
            continue
        n, o = new_by.get(key), old_by.get(key)
        if o is None:
            diff.new.append(Transition(key[0], key[1], None, n.status, n.reason, key[2]))
        elif n is None:
            if key[:2] in items and key[1:] not in columns:  # this item ran here, at another level
                diff.other_level.append(Transition(key[0], key[1], o.status, None, f"baseline at ISA level "
                                                   f"{key[2] or 'unknown'}; not run at that level here", key[2]))
            elif partial:
                diff.not_run.append(Transition(key[0], key[1], o.status, None, o.reason, key[2]))
            elif is_failing(o.status):
                diff.removed.append(Transition(key[0], key[1], o.status, None, o.reason, key[2]))
            else:
                diff.regressions.append(Transition(key[0], key[1], o.status, None, "missing from the new results",
                                                   key[2]))
        elif n.status == o.status:
            how = _changed_failure(o, n)
            if not how:
                diff.unchanged += 1
            else:
                t = Transition(key[0], key[1], o.status, n.status, f"changed failure: {how}\n{n.reason}", key[2],
                               changed_failure=how)
                (diff.changes if is_failing(o.status) else diff.regressions).append(t)
        else:
            # xfail -> fail where the entry pinned a signature: the run said "changed failure", and so does the gate
            t = Transition(key[0], key[1], o.status, n.status, n.reason, key[2], changed_failure=_changed_failure(o, n))
            if is_failing(n.status) and not is_failing(o.status) or t.lost_coverage:
                diff.regressions.append(t)
            elif is_failing(o.status) and not is_failing(n.status):
                diff.fixes.append(t)
            else:
                diff.changes.append(t)
    diff.regressions.sort(key=lambda t: (t.id, t.backend, t.isa))
    if not partial:  # a deliberate subset may well leave a column with nothing it runs
        flagged = {t.backend for t in diff.regressions}
        diff.regressions += [t for t in lost_columns(new_by.values(), old_by.values()) if t.backend not in flagged]
    return diff


def _changed_failure(old: ResultRecord, new: ResultRecord) -> str:
    """How NEW fails another way than OLD did, for two records of one status ("" when the same, or not failing)."""
    from conformance.expectations import EXPECTED_STATUSES
    from conformance.expectations import signature as signatures
    from conformance.expectations.outcome import outcome_of

    if outcome_of(old)[0] not in EXPECTED_STATUSES or outcome_of(new)[0] != outcome_of(old)[0]:
        return ""
    before, now = signatures.of_record(old), signatures.of_record(new)
    found = signatures.changes(before, now)
    return f"was {signatures.text_of(before)!r}, now {'; '.join(found)}" if found else ""


def _lost_across_levels(new_by: dict[Key, ResultRecord], old_by: dict[Key, ResultRecord]) -> list[Transition]:
    """Items the baseline passed at some level that this run has only at other levels, and there only
    ``unsupported``: no record of theirs meets a record of the same level, so they are named (``other level``)
    rather than left among the unmatched. An item this run also has at one of the baseline's levels is compared
    there, like with like, and is not listed here."""
    new_levels: dict[tuple[str, str], list[str]] = {}
    old_levels: dict[tuple[str, str], list[str]] = {}
    for record_id, backend, isa in new_by:
        new_levels.setdefault((record_id, backend), []).append(isa)
    for record_id, backend, isa in old_by:
        old_levels.setdefault((record_id, backend), []).append(isa)
    lost = []
    for item in sorted(new_levels.keys() & old_levels.keys()):
        here, before = sorted(new_levels[item]), sorted(old_levels[item])
        if set(here) & set(before):
            continue
        passed = [isa for isa in before if old_by[(*item, isa)].status == "pass"]
        records = [new_by[(*item, isa)] for isa in here]
        if not passed or any(r.status not in LOST_ELSEWHERE for r in records):
            continue
        was = ", ".join(level or "unknown" for level in passed)
        for r in records:
            lost.append(Transition(item[0], item[1], "pass", r.status,
                                   f"passed at ISA level {was} in the baseline; {r.status} at "
                                   f"{r.isa or 'no level'} here: {r.reason}", r.isa, baseline_isa=was))
    return lost


def _baseline_keys(old: Iterable[ResultRecord], new_by: dict[Key, ResultRecord]) -> dict[Key, ResultRecord]:
    """The baseline's records by key; one of an older run (no level) takes the level this run has for it, when it
    has exactly one (the comparison such a baseline always meant)."""
    levels: dict[tuple[str, str], list[str]] = {}
    for record_id, backend, isa in new_by:
        levels.setdefault((record_id, backend), []).append(isa)
    keyed = {}
    for record in old:
        key = record_key(record)
        here = levels.get(key[:2], [])
        if not record.isa and len(here) == 1:
            key = (key[0], key[1], here[0])
        keyed[key] = record
    return keyed


def lost_columns(new: Iterable[ResultRecord], old: Iterable[ResultRecord]) -> list[Transition]:
    """Backends that ran nothing here while the baseline ran cases on them (any status of ``RAN``: a column whose
    known failures all turn ``unsupported`` has lost its coverage, not fixed it).

    Per column (a backend at an ISA level of the new results, a baseline record without a level counting for
    every level of its backend), and per backend across levels: a backend that ran cases in the baseline at any
    level and runs none today at any level, or has no record at all, is lost whatever levels the two runs had."""
    new, old = list(new), list(old)
    ran_new = _ran(new)
    ran_old = _ran(old)
    lost = []
    for (backend, isa), count in sorted(ran_new.items()):
        before = ran_old.get((backend, isa), 0) + (ran_old.get((backend, ""), 0) if isa else 0)
        if not count and before:
            lost.append(Transition(COLUMN, backend, f"ran {before}", "ran nothing",
                                   f"the baseline ran {before} case(s) on {backend}; this run ran none (every "
                                   "record unsupported or error)", isa))
    flagged = {t.backend for t in lost}
    levels_new: dict[str, list[str]] = {}
    for backend, isa in ran_new:
        levels_new.setdefault(backend, []).append(isa)
    for backend in sorted({b for b, _ in ran_old} - flagged):
        before = sum(n for (b, _), n in ran_old.items() if b == backend)
        if not before or any(ran_new[(backend, isa)] for isa in levels_new.get(backend, [])):
            continue
        was = ", ".join(sorted(isa or "unknown" for (b, isa), n in ran_old.items() if b == backend and n))
        here = sorted(levels_new.get(backend, []))
        now = (f"ran none at ISA level {', '.join(i or 'unknown' for i in here)} (every record unsupported or "
               "error)") if here else "has no record of it"
        lost.append(Transition(COLUMN, backend, f"ran {before}", "ran nothing",
                               f"the baseline ran {before} case(s) on {backend} at ISA level {was}; this run {now}",
                               ",".join(here), baseline_isa=was))
    return lost


def _ran(records: list[ResultRecord]) -> dict[tuple[str, str], int]:
    """Cases run per column (backend, isa): every column with a record is there, with 0 when it ran none."""
    ran: dict[tuple[str, str], int] = {}
    for r in records:
        ran[(r.backend, r.isa)] = ran.get((r.backend, r.isa), 0) + (r.status in RAN)
    return ran
