"""A spare isolation worker, started ahead so that a crash costs its case, not the next case a runtime's start-up.

A column whose worker died once is likely to lose it again (a backend's known aborts come in families). After its
first crash, ``IsolatedBackend`` keeps one spare: a worker process whose ``init`` request was sent when it was
started, so the runtime loads while the current worker runs cases. When the current worker dies, the spare takes
over (its init answer is read then, usually long ready) and a new spare starts. Columns that never crash never pay
for a spare (a second process holding the runtime).
"""

from __future__ import annotations

import time

from conformance.backends.isolation.fork_server import ForkServer
from conformance.backends.isolation.worker_process import WorkerProcess


class Spare:
    """A worker with its ``init`` sent; ``take`` reads the answer (the caller maps failures as for a fresh start)."""

    def __init__(self, spec: str, env: dict[str, str] | None, memory_limit: int, start_timeout: float,
                 server: ForkServer | None = None) -> None:
        self.deadline = time.monotonic() + start_timeout if start_timeout > 0 else float("inf")
        self.worker = WorkerProcess(env, memory_limit, server)
        try:
            self.worker.send(("init", spec), self.deadline)
        except BaseException:
            self.worker.kill()
            raise

    def take_deadline(self) -> float:
        """Until when its init answer is awaited: the start timeout from its start, but never less than a moment
        from now — a spare taken long after it started has usually answered long ago, and an answer waiting in
        the pipe must be read, not timed out."""
        return max(self.deadline, time.monotonic() + 1.0)

    def close(self) -> None:
        self.worker.close()
