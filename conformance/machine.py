"""The machine a run ran on: CPU model, the ISA features that decide which kernels a runtime dispatches to, and the
ISA level (docs/isa.md).

Runtimes built on oneDNN (OpenVINO's CPU plugin, oneDNN itself) pick kernels by ISA, so the same case can pass on
one CPU and fail or be refused on another. Levels are oneDNN's dispatcher levels (``ONEDNN_MAX_CPU_ISA`` values,
lower case), in the order oneDNN ranks them; an expectations entry's ``isa:`` condition compares against them.
Nothing here imports a runtime: the levels come from the CPU flags the kernel reports.
"""

from __future__ import annotations

import functools
import platform
import re
import sys
from dataclasses import dataclass, replace
from pathlib import Path

#: oneDNN's CPU dispatcher levels, lowest first. ``avx2_vnni``/``avx2_vnni_2`` are not below ``avx512_core`` in
#: oneDNN's own mask order (neither contains the other); here they rank below it, which is what a condition such as
#: ``<avx512_core`` ("no AVX-512") means.
LEVELS = ("sse41", "avx", "avx2", "avx2_vnni", "avx2_vnni_2", "avx512_core", "avx512_core_vnni", "avx512_core_bf16",
          "avx512_core_fp16", "avx512_core_amx", "avx512_core_amx_fp16")

#: The CPU flags (Linux /proc/cpuinfo names) each level needs on top of the level it extends.
_REQUIRES: dict[str, tuple[str | None, tuple[str, ...]]] = {
    "sse41": (None, ("sse4_1",)),
    "avx": ("sse41", ("avx",)),
    "avx2": ("avx", ("avx2", "fma")),
    "avx2_vnni": ("avx2", ("avx_vnni",)),
    "avx2_vnni_2": ("avx2_vnni", ("avx_vnni_int8", "avx_ne_convert")),
    "avx512_core": ("avx2", ("avx512f", "avx512bw", "avx512vl", "avx512dq")),
    "avx512_core_vnni": ("avx512_core", ("avx512_vnni",)),
    "avx512_core_bf16": ("avx512_core_vnni", ("avx512_bf16",)),
    "avx512_core_fp16": ("avx512_core_bf16", ("avx512_fp16",)),
    "avx512_core_amx": ("avx512_core_fp16", ("amx_tile", "amx_int8", "amx_bf16")),
    "avx512_core_amx_fp16": ("avx512_core_amx", ("amx_fp16",)),
}

#: The features that decide kernels, recorded with every run (the rest of /proc/cpuinfo's flags do not).
KERNEL_FEATURES = ("sse4_1", "avx", "avx2", "fma", "f16c", "avx_vnni", "avx_vnni_int8", "avx_ne_convert", "avx512f",
                   "avx512bw", "avx512vl", "avx512dq", "avx512_vnni", "avx512_bf16", "avx512_fp16", "amx_tile",
                   "amx_int8", "amx_bf16", "amx_fp16")

#: Levels ``--isa=all`` runs, up to the machine's own: one per kernel class of oneDNN's pooling and OpenVINO.
AXIS_LEVELS = ("avx2", "avx512_core", "avx512_core_bf16", "avx512_core_fp16", "avx512_core_amx",
               "avx512_core_amx_fp16")


#: The operating systems an expectations entry's ``os:`` names: ``sys.platform``, normalised (``os_name``).
OS_NAMES = ("linux", "darwin", "win32")
#: The architectures its ``arch:`` names: ``platform.machine()``, normalised (``arch_name``).
ARCH_NAMES = ("x86_64", "aarch64", "ppc64le", "s390x", "riscv64", "armv7l", "i686")
#: Other spellings of them, each said with the name to write instead when an entry uses it.
OS_ALIASES = {"macos": "darwin", "osx": "darwin", "windows": "win32", "win": "win32", "cygwin": "win32"}
ARCH_ALIASES = {"amd64": "x86_64", "x64": "x86_64", "x86-64": "x86_64", "arm64": "aarch64", "i386": "i686",
                "x86": "i686"}


def os_name(text: str | None = None) -> str:
    """``sys.platform`` (or ``text``) as an entry's ``os:`` names it: linux (``linux2`` of old Pythons), darwin,
    win32 (cygwin too); any other as it is."""
    text = (sys.platform if text is None else text).lower()
    return "linux" if text.startswith("linux") else OS_ALIASES.get(text, text)


def arch_name(text: str | None = None) -> str:
    """``platform.machine()`` (or ``text``) as an entry's ``arch:`` names it: x86_64 for AMD64 (Windows), aarch64
    for arm64 (macOS)."""
    text = (platform.machine() if text is None else text).lower()
    return ARCH_ALIASES.get(text, text)


@dataclass(frozen=True)
class Machine:
    cpu: str  # the model name, for people: conditions never name it
    arch: str  # platform.machine() as arch_name gives it ("" when not known)
    features: tuple[str, ...] = ()  # the KERNEL_FEATURES this CPU has
    isa: str = ""  # the highest level its features reach ("" off x86-64)
    os: str = ""  # sys.platform as os_name gives it ("" in the machine lines of older runs)

    def to_json(self) -> dict[str, object]:
        return {"cpu": self.cpu, "arch": self.arch, "os": self.os, "isa": self.isa, "features": list(self.features)}

    @classmethod
    def from_json(cls, data: object) -> Machine | None:
        if not isinstance(data, dict):
            return None
        features = data.get("features", [])
        return cls(cpu=str(data.get("cpu", "")), arch=arch_name(str(data.get("arch", ""))),
                   isa=str(data.get("isa", "")), os=os_name(str(data.get("os", ""))),
                   features=tuple(str(f) for f in features) if isinstance(features, list) else ())

    def label(self) -> str:
        return f"{self.cpu or 'unknown CPU'} ({self.isa or self.arch or 'unknown ISA'})"


def level_of(flags: set[str] | frozenset[str]) -> str:
    """The highest level whose features (and those of every level it extends) are all in ``flags``."""
    best = ""
    for level in LEVELS:
        if _reaches(level, flags):
            best = level
    return best


def _reaches(level: str, flags: set[str] | frozenset[str]) -> bool:
    base, needs = _REQUIRES[level]
    return all(f in flags for f in needs) and (base is None or _reaches(base, flags))


def parse_flags(text: str) -> tuple[str, set[str]]:
    """(model name, flags) from /proc/cpuinfo or lscpu output (its ``Flags:`` line)."""
    model, flags = "", set()
    for line in text.splitlines():
        key, _, value = line.partition(":")
        key = key.strip().lower()
        if key in ("model name",) and not model:
            model = value.strip()
        elif key == "flags" and not flags:
            flags = set(value.split())
    return model, flags


def from_text(text: str, arch: str = "x86_64") -> Machine:
    """The machine described by a cpuinfo/lscpu text (e.g. the ``cpu.txt`` kept beside another machine's results)."""
    model, flags = parse_flags(text)
    return Machine(cpu=model, arch=arch, features=tuple(f for f in KERNEL_FEATURES if f in flags),
                   isa=level_of(flags))


@functools.cache
def this_machine() -> Machine:
    arch = arch_name()
    try:
        text = Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return Machine(cpu=platform.processor(), arch=arch, os=os_name())
    machine = from_text(text, arch)
    found = machine if machine.cpu or machine.features else Machine(cpu=platform.processor(), arch=arch)
    return replace(found, os=os_name())


def native_level() -> str:
    return this_machine().isa


# -- levels and conditions -------------------------------------------------------------------------------------
_CLAUSE = re.compile(r"^\s*(>=|<=|==|!=|>|<)?\s*([a-z0-9_]+)\s*$")


class LevelError(ValueError):
    pass


def rank(level: str) -> int:
    if level not in LEVELS:
        raise LevelError(f"unknown ISA level {level!r} (levels: {', '.join(LEVELS)})")
    return LEVELS.index(level)


def check_condition(condition: str | list[str]) -> None:
    """Raise LevelError when a condition (``">=avx512_core"``, ``">=avx2,<avx512_core"``, a list of levels) is
    malformed or names an unknown level."""
    if isinstance(condition, list):
        if not condition or not all(isinstance(c, str) for c in condition):
            raise LevelError("an isa list holds one or more level names")
        for level in condition:
            rank(level.strip())
        return
    if not condition.strip():
        raise LevelError("an empty isa condition: leave isa out to mean every level")
    for clause in condition.split(","):
        match = _CLAUSE.match(clause)
        if not match:
            raise LevelError(f"bad isa clause {clause!r} (use e.g. '>=avx512_core', '<avx512_core_fp16', 'avx2')")
        rank(match.group(2))


def holds(condition: str | list[str], level: str) -> bool:
    """Does a record run at ``level`` satisfy ``condition``? No level (a record of an older run, a backend whose
    kernels do not depend on the ISA) satisfies no condition; no condition is satisfied by every level."""
    if not condition:
        return True
    if level not in LEVELS:
        return False
    if isinstance(condition, list):
        return level in [c.strip() for c in condition]
    have = rank(level)
    for clause in condition.split(","):
        match = _CLAUSE.match(clause)
        if not match:
            raise LevelError(f"bad isa clause {clause!r}")
        op, want = match.group(1) or "==", rank(match.group(2))
        if not {">=": have >= want, "<=": have <= want, "==": have == want, "!=": have != want,
                ">": have > want, "<": have < want}[op]:
            return False
    return True


def condition_for(failing: set[str], passing: set[str]) -> str | list[str]:
    """The condition an expectations entry needs when a divergence is seen at the ``failing`` levels and not at the
    ``passing`` ones: a threshold where one separates them, else the list of failing levels; "" when it is seen at
    every level observed (no condition)."""
    failing, passing = {lv for lv in failing if lv in LEVELS}, {lv for lv in passing if lv in LEVELS} - failing
    if not failing or not passing:
        return ""
    low_fail, high_fail = min(map(rank, failing)), max(map(rank, failing))
    if low_fail > max(map(rank, passing)):
        return f">={LEVELS[low_fail]}"
    if high_fail < min(map(rank, passing)):
        return f"<{LEVELS[min(map(rank, passing))]}"
    return sorted(failing, key=rank)


def expand_axis(values: list[str], native: str) -> list[str]:
    """``--isa`` values (comma lists, ``native``, ``all``) as levels, lowest first, deduplicated; ``native`` is the
    machine's own level. Raises LevelError on an unknown level."""
    levels: list[str] = []
    for value in values:
        for part in (p.strip().lower() for p in value.split(",")):
            if not part:
                continue
            if part == "native":
                wanted = [native]
            elif part == "all":
                wanted = [lv for lv in AXIS_LEVELS if native and rank(lv) <= rank(native)] + [native]
            else:
                rank(part)
                wanted = [part]
            levels.extend(lv for lv in wanted if lv and lv not in levels)
    return sorted(levels, key=rank)
