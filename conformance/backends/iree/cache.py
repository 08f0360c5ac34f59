"""Compiled IREE modules per model content: in memory for the run, optionally on disk across processes.

IREE compiles every model ahead of time (LLVM codegen for llvm-cpu, ~1-2 s for one pooling node), while a
compiled module runs in well under a millisecond. Cases differing only in their values (seeds, literal examples
of one geometry) build the same model, so the module is cached under the SHA-256 of what determines it: the ONNX
model's bytes, the compiler's version and the compile flags. The disk cache (``iree/`` in the user's cache folder,
conformance/user_cache.py; ``CONFORMANCE_IREE_CACHE`` = another folder, or ``off``) lets the xdist workers of a run,
and later runs, share modules. It is
trusted like the venv: a .vmfb is native code, so the folder must be the user's own (never a downloaded one).

A model the compiler refuses is refused again by the same compiler with the same flags: the refusal (exception
type, from a fixed list the backend gives, and message) is cached too (``<key>.error``, JSON), so a warm run
does not spend a compile on each of them again. Anything else a compile raises is not cached.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from conformance.user_cache import write_atomically

ENV = "CONFORMANCE_IREE_CACHE"


@dataclass
class CompileStats:
    """What the cache saved: modules compiled (and their seconds), memory and disk hits."""

    compiled: int = 0
    compile_s: float = 0.0
    memory_hits: int = 0
    disk_hits: int = 0
    refusals_replayed: int = 0


class ModuleCache:
    def __init__(self, salt: str, folder: Path | None = None,
                 refusals: tuple[type[Exception], ...] = ()) -> None:
        self.salt = salt  # compiler version + flags: a module compiled by another compiler is another module
        self.folder = folder
        self.stats = CompileStats()
        self._modules: dict[str, bytes] = {}  # a pooling .vmfb is ~10 KB: a whole corpus fits in memory
        #: the exception types a compile refuses a model with (cached); looked up by name in this table only
        self.refusals = {kind.__name__: kind for kind in refusals}
        self._refused: dict[str, tuple[str, str]] = {}

    @classmethod
    def from_environment(cls, salt: str, refusals: tuple[type[Exception], ...] = ()) -> ModuleCache:
        """``CONFORMANCE_IREE_CACHE`` (``off``: memory only), else ``iree/`` in the user's cache folder: a cold IREE
        column compiles for 15-30 min on 2 cores, a warm one takes about 30 s, so runs share what they compiled."""
        from conformance.user_cache import cache_dir

        folder = os.environ.get(ENV)
        if folder is not None:
            return cls(salt, None if folder.strip().lower() in ("", "off", "0", "none", "no") else Path(folder),
                       refusals)
        shared = cache_dir()
        return cls(salt, shared / "iree" if shared is not None else None, refusals)

    def key(self, model: bytes) -> str:
        return hashlib.sha256(self.salt.encode() + b"\0" + model).hexdigest()

    def get(self, model: bytes, compile_model: Callable[[], bytes]) -> bytes:
        """The compiled module of ``model`` (ONNX bytes), compiling it on the first request only."""
        key = self.key(model)
        found = self._modules.get(key)
        if found is not None:
            self.stats.memory_hits += 1
            return found
        path = self.folder / f"{key}.vmfb" if self.folder else None
        if path is not None and path.is_file():
            self.stats.disk_hits += 1
            found = path.read_bytes()
        else:
            self._replay_refusal(key)
            start = time.perf_counter()
            try:
                found = compile_model()
            except tuple(self.refusals.values()) as exc:
                self._refused[key] = (type(exc).__name__, str(exc))
                if self.folder is not None:
                    text = json.dumps({"type": type(exc).__name__, "message": str(exc)})
                    write_atomically(self.folder / f"{key}.error", text.encode())
                raise
            finally:
                self.stats.compiled += 1
                self.stats.compile_s += time.perf_counter() - start
            if path is not None:
                write_atomically(path, found)
        self._modules[key] = found
        return found

    def _replay_refusal(self, key: str) -> None:
        """Raise the cached refusal of this model, if there is one (memory, then disk)."""
        refused = self._refused.get(key)
        error = self.folder / f"{key}.error" if self.folder else None
        if refused is None and error is not None and error.is_file():
            data = json.loads(error.read_text(encoding="utf-8"))
            if isinstance(data, dict) and data.get("type") in self.refusals:
                refused = self._refused[key] = (data["type"], str(data.get("message", "")))
        if refused is not None:
            self.stats.refusals_replayed += 1
            raise self.refusals[refused[0]](refused[1])
