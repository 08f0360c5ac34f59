"""``os:`` and ``arch:``: an expectations entry's conditions on the machine its items ran on, beside ``isa:`` and
``versions:`` (docs/ci-gate.md). Each is one name or a list of names, held against the machine of the records:
``sys.platform`` and ``platform.machine()`` normalised (conformance/machine.py ``os_name``, ``arch_name``).

Records carry no machine of their own: a run's machine is its results file's meta line. A live run judges by this
machine; ``conformance report --rejudge`` and ``expectations update`` by the machine their results files name
(``of_results``). A machine that cannot be told (results of older runs, or of several machines that differ) holds
no condition, as a record without an ISA level holds no ``isa:``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from conformance.machine import ARCH_ALIASES, ARCH_NAMES, OS_ALIASES, OS_NAMES, Machine

#: A machine nothing is known of: it holds no ``os:`` or ``arch:`` condition.
UNKNOWN = Machine(cpu="", arch="")
#: What each condition key names, its known values and the other spellings said with the name to write.
KNOWN = {"os": (OS_NAMES, OS_ALIASES, "sys.platform"), "arch": (ARCH_NAMES, ARCH_ALIASES, "platform.machine()")}


def check(item: dict[str, Any], key: str) -> str | list[str]:
    """An entry's ``os:`` or ``arch:`` as the entry keeps it ("" without the key); ValueError naming a value it
    does not know (and what to write instead) or an empty condition."""
    if key not in item:
        return ""
    value = item[key]
    names, aliases, source = KNOWN[key]
    values = value if isinstance(value, list) else [value]
    if not values or not all(isinstance(v, str) and v for v in values):
        raise ValueError(f"{key} must be a name or a non-empty list of names ({', '.join(names)}), not {value!r:.60}")
    for name in values:
        if name not in names:
            instead = f" (write {aliases[name.lower()]})" if name.lower() in aliases else ""
            raise ValueError(f"unknown {key} {name!r}{instead}: {key} names {source} normalised: {', '.join(names)}")
    return value


def holds(os: str | list[str], arch: str | list[str], host: Machine | None) -> bool:
    """Do an entry's ``os:`` and ``arch:`` hold on ``host``? No condition holds everywhere; a host that cannot be
    told (None, or without the name asked) holds none."""
    for wanted, have in ((os, host.os if host else ""), (arch, host.arch if host else "")):
        if wanted and have not in (wanted if isinstance(wanted, list) else [wanted]):
            return False
    return True


def of_results(paths: Iterable[Path]) -> Machine | None:
    """The machine results files say they ran on (their meta lines, which come first): None when none says, or
    when their machines differ in OS or architecture (then no ``os:``/``arch:`` condition holds)."""
    found: set[tuple[str, str]] = set()
    for path in paths:
        for data in _metas(Path(path)):
            listed = data.get("machines")  # a merged file's: every machine its inputs named
            for machine in [data.get("machine"), *(listed if isinstance(listed, list) else [])]:
                made = Machine.from_json(machine)
                if made is not None:
                    found.add((made.os, made.arch))
    if len(found) != 1:
        return None
    os, arch = found.pop()
    return Machine(cpu="", arch=arch, os=os)


def _metas(path: Path) -> list[dict[str, Any]]:
    """The meta lines at the head of a results file (records.write_records writes them first)."""
    import gzip

    metas = []
    opener = gzip.open if str(path).endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8", errors="replace") as src:
        for line in src:
            try:
                data = json.loads(line)
            except ValueError:
                break
            if not (isinstance(data, dict) and isinstance(data.get("meta"), dict)):
                break
            metas.append(data["meta"])
    return metas
