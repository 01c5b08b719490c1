"""Fixtures of the Kaitai tests: compiled specs (the project's and the shared gallery's) and sample files of
the gallery's formats written by real tools (Java ImageIO or Pillow for images, the standard library's zipfile,
gzip and sqlite3, the machine's own ELF executable, and a pcap laid out with struct per the pcap spec)."""

from __future__ import annotations

import enum
import gzip
import math
import shutil
import sqlite3
import struct
import subprocess
import sys
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import kaitaistruct
import pytest

from lakestruct.kaitai import KaitaiToolchainError, Spec, compile
from lakestruct.kaitai.model import upper_camel
from lakestruct.kaitai.runtime import bundle_from_dir

REPO = Path(__file__).resolve().parents[2]
GALLERY_MAIN = [
    "network/pcap", "image/png", "image/gif", "image/bmp", "archive/zip", "archive/gzip",
    "database/sqlite3", "executable/elf", "common/dos_datetime", "common/vlq_base128_be",
]  # fmt: skip


def compiled_specs(paths: list[Path], out: Path, import_dirs: list[Path], imports: str = "kaitai") -> dict[str, Spec]:
    try:
        res = compile(paths, out, import_dirs=import_dirs, python_package=".", imports=imports)
    except KaitaiToolchainError as e:
        pytest.skip(str(e))
    return {sid: Spec(bundle_from_dir(out, sid)) for sid in res.main}


@pytest.fixture(scope="session")
def gallery(corpus: Path) -> Path:
    return corpus / "kaitai-formats"


@pytest.fixture(scope="session")
def gallery_specs(gallery: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Spec]:
    """The gallery's main specs compiled in one compiler run (imports resolved against the gallery root)."""
    return compiled_specs([gallery / f"{p}.ksy" for p in GALLERY_MAIN], tmp_path_factory.mktemp("gallery"), [gallery])


@pytest.fixture(scope="session")
def project_specs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Spec]:
    """Every spec under formats/, compiled as `make gen` compiles them."""
    ksy = sorted((REPO / "formats").glob("*/*.ksy"))
    dirs = sorted({p.parent for p in ksy})
    return compiled_specs(ksy, tmp_path_factory.mktemp("project"), dirs, imports="webide")


# -- sample files ------------------------------------------------------------------------------------------


@dataclass
class Packet:
    ts_sec: int
    ts_usec: int
    frame: bytes
    udp: tuple[int, int, bytes] | None = None
    tcp: tuple[int, int] | None = None
    vlan: int | None = None


@dataclass
class Pcap:
    path: Path
    packets: list[Packet] = field(default_factory=list)
    #: absolute offset of every packet record
    offsets: list[int] = field(default_factory=list)


def _ipv4(proto: int, payload: bytes, ident: int) -> bytes:
    head = struct.pack(">BBHHHBBH4s4s", 0x45, 0, 20 + len(payload), ident, 0, 64, proto, 0, bytes([10, 0, 0, 1]), bytes([10, 0, 0, 2]))
    return head + payload


def write_pcap(path: Path, n: int = 40) -> Pcap:
    """A little-endian microsecond pcap (global header, then records), laid out with struct per the spec:
    Ethernet II frames holding IPv4 with UDP (payload "pkt<i>") or TCP, every fifth one 802.1Q-tagged."""
    out = Pcap(path)
    buf = bytearray(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1))
    for i in range(n):
        if i % 3 == 2:
            seg = struct.pack(">HHIIBBHHH", 40000 + i, 443, i * 1000, 7, 0x50, 0x18, 512, 0, 0) + b"tcp data %d" % i
            l4 = _ipv4(6, seg, i)
            pkt = Packet(1_700_000_000 + i, i * 10, b"", tcp=(40000 + i, 443))
        else:
            payload = b"pkt%d" % i
            l4 = _ipv4(17, struct.pack(">HHHH", 1000 + i, 53, 8 + len(payload), 0) + payload, i)
            pkt = Packet(1_700_000_000 + i, i * 10, b"", udp=(1000 + i, 53, payload))
        if i % 5 == 4:
            pkt.vlan = 100 + i
            frame = b"\x01" * 6 + b"\x02" * 6 + struct.pack(">HHH", 0x8100, pkt.vlan, 0x0800) + l4
        else:
            frame = b"\x01" * 6 + b"\x02" * 6 + struct.pack(">H", 0x0800) + l4
        pkt.frame = frame
        out.offsets.append(len(buf))
        buf += struct.pack("<IIII", pkt.ts_sec, pkt.ts_usec, len(frame), len(frame)) + frame
        out.packets.append(pkt)
    path.write_bytes(bytes(buf))
    return out


_IMG_JAVA = """
import java.awt.image.BufferedImage;
import java.io.File;
import javax.imageio.ImageIO;
public class Img {
    public static void main(String[] a) throws Exception {
        for (int i = 0; i + 3 < a.length; i += 4) {
            int w = Integer.parseInt(a[i + 2]), h = Integer.parseInt(a[i + 3]);
            BufferedImage img = new BufferedImage(w, h, a[i].equals("gif") ? BufferedImage.TYPE_BYTE_INDEXED : BufferedImage.TYPE_INT_RGB);
            for (int y = 0; y < h; y++) for (int x = 0; x < w; x++) img.setRGB(x, y, (x * 7) << 16 | (y * 5) << 8 | (x ^ y));
            if (!ImageIO.write(img, a[i], new File(a[i + 1]))) throw new RuntimeException("no writer for " + a[i]);
        }
    }
}
"""


def write_images(folder: Path, writer: str, sizes: dict[str, tuple[int, int]]) -> dict[str, Path]:
    """Images written by a real image library: ``java`` (javax.imageio, through the JDK's source launcher)
    or ``pillow``; skips when that library is not on the machine."""
    folder.mkdir(parents=True, exist_ok=True)
    out = {fmt: folder / f"{writer}.{fmt}" for fmt in sizes}
    if writer == "pillow":
        pil = pytest.importorskip("PIL.Image", reason="Pillow is not installed")
        for fmt, (w, h) in sizes.items():
            img = pil.new("P" if fmt == "gif" else "RGB", (w, h))
            pixels = [((x * 7) % 256, (y * 5) % 256, (x ^ y) % 256) if fmt != "gif" else (x + y) % 256 for y in range(h) for x in range(w)]
            img.putdata(pixels)
            img.save(out[fmt])
        return out
    java = shutil.which("java")
    if java is None:
        pytest.skip("no java on PATH for javax.imageio")
    src = folder / "Img.java"
    src.write_text(_IMG_JAVA, encoding="utf-8")
    args = [x for fmt, (w, h) in sizes.items() for x in (fmt, str(out[fmt]), str(w), str(h))]
    proc = subprocess.run([java, str(src), *args], capture_output=True, text=True, timeout=120, check=False)
    if proc.returncode != 0:
        pytest.skip(f"java could not run the ImageIO writer (a JRE without the compiler?): {proc.stderr[-300:]}")
    return out


@dataclass
class Samples:
    pcap: Pcap
    zip: Path
    zip_members: dict[str, bytes]
    gzip: Path
    gzip_data: bytes
    gzip_mtime: int
    sqlite: Path
    elf: Path


@pytest.fixture(scope="session")
def samples(tmp_path_factory: pytest.TempPathFactory) -> Samples:
    d = tmp_path_factory.mktemp("samples")
    members = {"hello.txt": b"hello world\n" * 20, "dir/data.bin": bytes(range(256)) * 4, "empty": b""}
    with zipfile.ZipFile(d / "a.zip", "w", compression=zipfile.ZIP_DEFLATED) as z:
        for name, data in members.items():
            z.writestr(name, data)
    data = b"lakestruct gzip sample\n" * 100
    with open(d / "a.txt.gz", "wb") as raw, gzip.GzipFile(filename="a.txt", mode="wb", fileobj=raw, mtime=1_700_000_123) as g:
        g.write(data)
    con = sqlite3.connect(d / "a.sqlite")
    con.execute("create table t (a integer, b text)")
    con.executemany("insert into t values (?, ?)", [(i, f"row {i}") for i in range(500)])
    con.commit()
    con.close()
    elf = Path(sys.executable).resolve()
    return Samples(write_pcap(d / "a.pcap"), d / "a.zip", members, d / "a.txt.gz", data, 1_700_000_123, d / "a.sqlite", elf)


# -- the plain-Python walk that rows must equal ------------------------------------------------------------


def assert_row_matches(row: Any, obj: Any, where: str = "") -> None:
    """``row`` (a dict of a struct's columns) holds exactly what the parsed object ``obj`` holds: every column
    against the attribute of the same name, enums as member name and ``__raw`` number, switch structs with
    the field named after the object's class set, recursive types as JSON text."""
    assert isinstance(row, dict), where
    for k, v in row.items():
        if k in ("__index", "__offset", "__size") or k.startswith("error"):
            continue
        name = k[:-1] if k.endswith("_") and not hasattr(obj, k) else k
        if name.endswith("__raw"):
            o = getattr(obj, name[: -len("__raw")], None)
            expect = None if o is None else ([int(x) for x in o] if isinstance(o, list) else int(o))
            assert v == expect, f"{where}.{k}"
            continue
        o = getattr(obj, name, None)
        if f"{k}__raw" in row:  # an enum: the member name, null for a number the enum does not name
            names = [x.name if isinstance(x, enum.Enum) else None for x in o] if isinstance(o, list) else None
            assert v == (names if isinstance(o, list) else o.name if isinstance(o, enum.Enum) else None), f"{where}.{k}"
            continue
        assert_value(v, o, f"{where}.{name}")


def assert_value(v: Any, o: Any, where: str) -> None:
    if o is None:
        assert v is None or (isinstance(v, dict) and all(x is None for x in v.values())), where
    elif isinstance(o, kaitaistruct.KaitaiStruct):
        if isinstance(v, str):  # a recursive type: JSON text
            assert v.startswith("{"), where
            return
        if isinstance(v, dict) and set(v) == {"__present"}:  # a type with no fields: only the marker, true
            assert v["__present"] is True, where
            return
        if isinstance(v, dict) and v and not any(hasattr(o, k) for k in v if not k.startswith("__") and v[k] is not None):
            # a switch struct: exactly one case set, named after the object's class
            set_ = [k for k, x in v.items() if x is not None]
            assert len(set_) == 1 and upper_camel(set_[0]) == type(o).__name__.split(".")[-1], (where, set_, type(o))
            assert_value(v[set_[0]], o, f"{where}.{set_[0]}")
            return
        assert_row_matches(v, o, where)
    elif isinstance(o, list):
        assert isinstance(v, list) and len(v) == len(o), where
        for i, (a, b) in enumerate(zip(v, o, strict=True)):
            assert_value(a, b, f"{where}[{i}]")
    elif isinstance(o, enum.Enum):
        assert v == o.name, where
    elif isinstance(o, float):
        assert v is not None and (math.isclose(v, o, rel_tol=1e-6) or (math.isnan(v) and math.isnan(o))), where
    elif isinstance(o, bytes | bytearray) and isinstance(v, dict):
        assert v.get("__bytes") == bytes(o), where
    elif isinstance(o, int) and isinstance(v, dict):  # a switch whose int case matched
        assert o in v.values(), where
    else:
        assert v == o, (where, v, o)
