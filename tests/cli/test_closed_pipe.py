"""Output to a closed pipe (``conformance list | head -1``) ends the command quietly with 141, never a traceback
(conformance/cli/main.py)."""

from __future__ import annotations

import os
import subprocess
import sys

from conformance.cli import main as cli


def test_a_command_writing_to_a_closed_pipe_exits_141(monkeypatch):
    def chatty(argv: list[str]) -> int:
        print("a line the reader will never see")
        return 0

    monkeypatch.setitem(cli.COMMANDS, "list", ("tests_fake:chatty", "fake"))
    monkeypatch.setattr(cli, "_load", lambda target: chatty)
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader went away (head -1 after its line)
    with open(write_end, "w", encoding="utf-8") as closed:
        monkeypatch.setattr(sys, "stdout", closed)
        assert cli.main(["list"]) == cli.EXIT_BROKEN_PIPE
        closed.write("flushed at exit")  # what the interpreter's last flush would meet: /dev/null now
        closed.flush()


def test_conformance_list_into_head_says_nothing_on_stderr():
    # more output than a pipe holds (~250 KB): the writer blocks, the reader closes, the next write fails
    proc = subprocess.Popen([sys.executable, "-m", "conformance.cli.main", "list"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stdout.readline()
    proc.stdout.close()
    stderr = proc.stderr.read().decode() if proc.stderr else ""
    assert proc.wait() == cli.EXIT_BROKEN_PIPE, stderr
    assert "Traceback" not in stderr and "BrokenPipeError" not in stderr and "Exception ignored" not in stderr
