"""Atomic writers give their output the mode any other output file gets: 0666 minus the umask, or the mode of the
file they replace (mkstemp's temporary file is 0600, and it used to keep that mode after the rename)."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from lakestruct._atomic import AtomicFile, write_atomic


@pytest.fixture
def umask() -> Iterator[None]:
    old = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(old)


def mode(p: Path) -> int:
    return stat.S_IMODE(p.stat().st_mode)


def test_new_files_honour_the_umask(tmp_path: Path, umask: None) -> None:
    for mask in (0o022, 0o077, 0o002, 0o027):
        os.umask(mask)
        p = tmp_path / f"f{mask:o}"
        write_atomic(p, b"x")
        plain = tmp_path / f"plain{mask:o}"
        plain.write_bytes(b"x")  # what open() gives
        assert mode(p) == mode(plain) == 0o666 & ~mask, oct(mode(p))


def test_replacing_keeps_the_mode(tmp_path: Path, umask: None) -> None:
    p = tmp_path / "out.html"
    p.write_bytes(b"old")
    p.chmod(0o640)
    out = AtomicFile(p)
    out.file.write(b"new")
    out.commit()
    assert p.read_bytes() == b"new" and mode(p) == 0o640


def test_reports_and_pages_are_readable_by_others(tmp_path: Path, umask: None) -> None:
    """The two HTML writers of the issue: explain --html and the inventory report."""
    from lakestruct.spark.report import write_report

    write_report(str(tmp_path / "report.html"), {})
    assert mode(tmp_path / "report.html") == 0o644
    from lakestruct.explain import explain, write_html
    from lakestruct.puffin import PuffinWriter

    with PuffinWriter(tmp_path / "x.puffin") as w:
        w.add_blob("t", b"abc")
    assert mode(tmp_path / "x.puffin") == 0o644
    write_html(explain(tmp_path / "x.puffin", with_bytes=True), tmp_path / "x.html")
    assert mode(tmp_path / "x.html") == 0o644
