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


def test_conformance_run_finishes_when_its_reader_goes_away(monkeypatch):
    # `conformance run | head`: pytest's output passes through us; once the pipe is closed the rest is drained, so
    # pytest is not killed by the pipe before writing its results (the run and its reports complete)
    from conformance.cli import run

    read_end, write_end = os.pipe()
    os.close(read_end)
    chatty = [sys.executable, "-c", "import sys\nfor i in range(2000): print('line', i)\nsys.exit(3)"]
    with open(write_end, "w", encoding="utf-8") as closed:
        monkeypatch.setattr(sys, "stdout", closed)
        assert run.run_forwarding_signals(chatty, dict(os.environ)) == (3, True)  # its own exit code, not a crash
        print("the summary after the run", file=closed, flush=True)  # /dev/null now: no BrokenPipeError
