"""A backend whose module starts a thread when imported (as a runtime's package might): a fork server that
imported it must not fork."""

from __future__ import annotations

import threading
import time

from isolation_fakes import CorrectBackend

threading.Thread(target=time.sleep, args=(3600,), daemon=True).start()


class ThreadAtImportBackend(CorrectBackend):
    name = "fake-thread-at-import"
