"""Exit status and clean failures: an unwritable demo folder (1), Ctrl-C (130), no traceback in either."""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import lakestruct
from lakestruct.cli import main

EXE = Path(sys.executable).parent / "lakestruct"


def test_demo_into_an_unwritable_folder_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    assert main(["demo", str(blocker / "out")]) == 1  # a regular file where a folder should be
    err = capsys.readouterr().err
    assert err.startswith(f"lakestruct: error: cannot write the demo files to {blocker / 'out'}: ") and "Traceback" not in err
    if os.geteuid() != 0:  # root writes through permission bits
        ro = tmp_path / "read-only"
        ro.mkdir()
        ro.chmod(0o500)
        try:
            assert main(["demo", str(ro)]) == 1
            assert "Permission denied" in capsys.readouterr().err
            assert list(ro.iterdir()) == []  # no temporary file left behind
        finally:
            ro.chmod(0o700)


def test_keyboard_interrupt_in_a_command_exits_130(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    def interrupted(args: argparse.Namespace) -> int:
        raise KeyboardInterrupt

    monkeypatch.setattr(lakestruct.cli.scan, "_scan", interrupted)
    assert main(["scan", "."]) == 130
    assert capsys.readouterr().err == "lakestruct: interrupted\n"


@pytest.mark.skipif(not Path("/proc/self/wchan").exists(), reason="needs Linux /proc to see the command wait for input")
def test_sigint_to_a_running_command_exits_130_without_traceback() -> None:
    # `puffin inspect -` on a pipe that stays open waits in read(); Ctrl-C arrives as SIGINT
    proc = subprocess.Popen([str(EXE), "puffin", "inspect", "-"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        wchan = Path(f"/proc/{proc.pid}/wchan")
        while "pipe_read" not in wchan.read_text():  # imports done, blocked reading standard input
            assert time.monotonic() < deadline and proc.poll() is None, "the command never waited for input"
            time.sleep(0.05)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 130, err
    assert b"Traceback" not in err and err == b"lakestruct: interrupted\n" and out == b""
