"""`lakestruct gen` and lakestruct.kaitai.compile: the pinned npm compiler driven by the ksc.mjs shipped in the package."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from lakestruct.cli import main as cli_main
from lakestruct.kaitai import KaitaiCompileError, KaitaiToolchainError, compile
from lakestruct.kaitai.toolchain import KSC, find_modules, find_node

REPO = Path(__file__).resolve().parents[2]


def _toolchain() -> None:
    try:
        find_node()
        find_modules()
    except KaitaiToolchainError as e:
        pytest.skip(str(e))


def test_the_shipped_front_end_compiles_the_project_specs_exactly_as_make_gen(tmp_path: Path) -> None:
    _toolchain()
    ksy = sorted((REPO / "formats").glob("*/*.ksy"))
    res = compile(ksy, tmp_path, import_dirs=sorted({p.parent for p in ksy}), python_package=".", imports="webide")
    generated = {p.name: p.read_text() for p in (REPO / "generated").glob("*.py") if not p.name.startswith("_")}
    mine = {p.name: p.read_text() for p in tmp_path.glob("*.py")}
    assert mine == generated
    assert set(res.main) == {p.stem for p in ksy}
    assert all((tmp_path / f"{m}.ksy.json").is_file() for m in res.modules)


def test_gen_resolves_absolute_and_relative_imports_and_the_modules_import(gallery: Path, tmp_path: Path) -> None:
    _toolchain()
    out = tmp_path / "out"
    # pcap imports /network/ethernet_frame (absolute, against -I); png imports icc_4 and exif (relative)
    rc = cli_main(["gen", str(gallery / "network/pcap.ksy"), str(gallery / "image/png.ksy"), "-I", str(gallery), "-d", str(out)])
    assert rc == 0
    names = {p.stem for p in out.glob("*.py")}
    assert {"pcap", "ethernet_frame", "ipv4_packet", "tcp_segment", "png", "icc_4", "exif"} <= names
    # bare imports, as the Kaitai compiler writes them: the folder on sys.path makes them importable
    code = "import pcap, png, ethernet_frame; print(pcap.Pcap.__name__, png.Png.__name__)"
    proc = subprocess.run([sys.executable, "-c", code], cwd=out, capture_output=True, text=True, check=False)
    assert proc.returncode == 0 and proc.stdout.split() == ["Pcap", "Png"], proc.stderr


def test_relative_imports_may_name_folders_as_in_the_kaitai_compiler(tmp_path: Path) -> None:
    _toolchain()
    (tmp_path / "lib").mkdir()
    (tmp_path / "specs").mkdir()
    (tmp_path / "lib" / "word.ksy").write_text("meta:\n  id: word\n  endian: le\nseq:\n  - id: v\n    type: u2\n")
    (tmp_path / "specs" / "pair.ksy").write_text(
        "meta:\n  id: pair\n  imports:\n    - ../lib/word\nseq:\n  - id: a\n    type: word\n  - id: b\n    type: word\n"
    )
    res = compile([tmp_path / "specs" / "pair.ksy"], tmp_path / "out", python_package=".")
    assert set(res.modules) == {"pair", "word"}
    assert "from . import word" in (tmp_path / "out" / "pair.py").read_text()


def test_a_spec_that_does_not_compile_is_exit_1_with_the_compilers_words(
    gallery: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _toolchain()
    rc = cli_main(["gen", str(gallery / "network/pcap.ksy"), "-d", str(tmp_path)])  # no -I: /network/... cannot resolve
    err = capsys.readouterr().err
    assert rc == 1 and "import '/network/" in err and "not found" in err and "-I folders" in err
    bad = tmp_path / "bad.ksy"
    bad.write_text("meta:\n  id: bad\nseq:\n  - id: x\n    type: no_such_type\n")
    with pytest.raises(KaitaiCompileError, match="no_such_type"):
        compile([bad], tmp_path / "o")
    assert cli_main(["gen", str(tmp_path / "missing.ksy"), "-d", str(tmp_path)]) == 1


def test_missing_node_or_compiler_says_how_to_get_them(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LAKESTRUCT_NODE", str(tmp_path / "no-node"))
    with pytest.raises(KaitaiToolchainError, match=r"Node\.js.*apt-get install nodejs"):
        find_node()
    with pytest.raises(KaitaiToolchainError, match=r"npm install --prefix .* kaitai-struct-compiler@0\.11\.0 js-yaml@4\.1\.0"):
        find_modules([tmp_path / "node_modules"])
    fake = tmp_path / "old" / "node_modules" / "kaitai-struct-compiler"
    fake.mkdir(parents=True)
    (fake / "package.json").write_text('{"version": "0.10.0"}')
    with pytest.raises(KaitaiToolchainError, match=r"has kaitai-struct-compiler 0\.10\.0"):
        find_modules([fake.parent])


def test_the_front_end_ships_inside_the_package() -> None:
    assert KSC.is_file() and KSC.parent.name == "kaitai"
    text = KSC.read_text()
    for opt in ("--modules", "--imports", "--ksy-json"):
        assert opt in text
    assert os.path.basename(KSC) == "ksc.mjs"
