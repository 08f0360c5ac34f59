"""Logs the pid of every process that imports it (to $FAKE_PRELOAD_LOG)."""

import os

with open(os.environ["FAKE_PRELOAD_LOG"], "a") as log:
    log.write(f"{os.getpid()}\n")
