"""The report files are written side by side by forked children (report/side_by_side.py), byte for byte what one
process writes in order; a writer that fails or dies is an error naming its file, after the others finished."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from conformance.report import side_by_side

HERE = Path(__file__).parent

BOTH_WAYS = textwrap.dedent("""
    import sys
    from datetime import datetime, timezone
    from pathlib import Path
    sys.path.insert(0, {here!r})
    from report_records import realistic_records
    from conformance.records import write_records
    from conformance.report import build_reports, side_by_side

    out = Path({out!r})
    write_records(out / "in.jsonl", realistic_records() * 3)
    when = datetime(2026, 1, 2, tzinfo=timezone.utc)
    assert side_by_side._may_fork(), "this process cannot fork: the test would compare one path with itself"
    build_reports([out / "in.jsonl"], out / "forked", generated=when)
    side_by_side._may_fork = lambda: False
    build_reports([out / "in.jsonl"], out / "in_order", generated=when)
""")


def files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.mark.skipif((os.cpu_count() or 1) < 2 or not sys.platform.startswith("linux"),
                    reason="forks only on Linux with 2+ cores")
def test_forked_writers_write_what_one_process_writes_in_order(tmp_path):
    script = BOTH_WAYS.format(here=str(HERE), out=str(tmp_path))
    subprocess.run([sys.executable, "-c", script], check=True, timeout=120)  # one thread: it may fork
    forked, in_order = files(tmp_path / "forked"), files(tmp_path / "in_order")
    assert {"results.jsonl", "junit.xml", "index.html"} <= set(forked)
    assert forked == in_order


def _child_jobs(out: Path, fail: str) -> dict:
    def ok(name):
        return lambda: (out / name).write_text("done")

    def bad():
        if fail == "raises":
            raise ValueError("a value the writer refused")
        os.kill(os.getpid(), signal.SIGKILL)

    return {"a.txt": ok("a.txt"), "bad.txt": bad, "c.txt": ok("c.txt")}


@pytest.mark.parametrize("fail", ["raises", "killed"])
def test_a_failing_writer_is_an_error_naming_it_after_the_others_wrote(tmp_path, monkeypatch, fail):
    script = textwrap.dedent(f"""
        import sys
        from pathlib import Path
        sys.path.insert(0, {str(HERE)!r})
        from test_side_by_side import _child_jobs
        from conformance.report.side_by_side import write_side_by_side
        try:
            write_side_by_side(_child_jobs(Path({str(tmp_path)!r}), {fail!r}))
        except Exception as exc:
            print(type(exc).__name__, exc)
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert (tmp_path / "a.txt").read_text() == "done" and (tmp_path / "c.txt").read_text() == "done"
    if fail == "raises":
        assert done.stdout.strip() == "ValueError a value the writer refused"
    else:
        assert done.stdout.startswith("WriterFailed bad.txt: its writer ended with exit status -9")


def test_a_process_with_threads_writes_in_order(monkeypatch):
    monkeypatch.setattr(side_by_side.threading, "active_count", lambda: 2)
    assert not side_by_side._may_fork()
    calls = []
    side_by_side.write_side_by_side({"a": lambda: calls.append(os.getpid()), "b": lambda: calls.append(os.getpid())})
    assert calls == [os.getpid(), os.getpid()]


MEANWHILE = textwrap.dedent("""
    import os, sys, time
    from pathlib import Path
    from conformance.report.side_by_side import write_side_by_side
    out = Path({out!r})
    def slow(name):
        return lambda: (time.sleep(0.5), (out / name).write_text(str(os.getpid())))
    def meanwhile():
        (out / "meanwhile.txt").write_text(str(os.getpid()))
        if {fail!r}:
            raise ValueError("the caller's own work failed")
    try:
        write_side_by_side({{"a": slow("a.txt"), "b": slow("b.txt")}}, meanwhile=meanwhile)
    except ValueError as exc:
        print("raised", exc, (out / "a.txt").exists() and (out / "b.txt").exists())
    print("parent", os.getpid())
""")


@pytest.mark.skipif((os.cpu_count() or 1) < 2 or not sys.platform.startswith("linux"),
                    reason="forks only on Linux with 2+ cores")
@pytest.mark.parametrize("fail", [False, True], ids=["ok", "raises"])
def test_the_callers_work_runs_in_its_own_process_while_the_writers_write(tmp_path, fail):
    done = subprocess.run([sys.executable, "-c", MEANWHILE.format(out=str(tmp_path), fail=fail)], capture_output=True,
                          text=True, timeout=60, check=True)
    parent = done.stdout.split("parent ")[1].strip()
    assert (tmp_path / "meanwhile.txt").read_text() == parent  # in the parent, not in a writer
    assert {(tmp_path / n).read_text() for n in ("a.txt", "b.txt")}.isdisjoint({parent})  # written by children
    # the caller's work did not wait for the writers (both were still sleeping), and its failure waited for them
    assert (tmp_path / "meanwhile.txt").stat().st_mtime < (tmp_path / "a.txt").stat().st_mtime
    assert ("raised the caller's own work failed True" in done.stdout) == fail


def test_the_callers_work_runs_after_the_writers_without_a_fork(monkeypatch):
    monkeypatch.setattr(side_by_side.threading, "active_count", lambda: 2)
    calls = []
    side_by_side.write_side_by_side({"a": lambda: calls.append("a"), "b": lambda: calls.append("b")},
                                    meanwhile=lambda: calls.append("meanwhile"))
    assert calls == ["a", "b", "meanwhile"]
