"""Imports as the real Kaitai Web IDE resolves them, and the compiler front end that keeps the specs that way.

The IDE stores every upload under its bare file name and looks an import up as "root spec's folder + import
text" with no ``..`` resolution (kaitai_struct_webide ``src/v1/utils/Compilation/JsImporter.ts``), so
``tools/webide_check.mjs`` must fail exactly where the IDE fails, and ``tools/ksc.mjs`` (``make gen``) must
refuse an import the IDE could never find.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import REPO

pytestmark = pytest.mark.node

SPECS = sorted((REPO / "formats").glob("*/*.ksy"))
IDE_MISSING = "failed to import spec {} from local storage: file not found"


def _node(script: str, *args: str | Path) -> subprocess.CompletedProcess[str]:
    node = shutil.which("node")
    if node is None or not (REPO / "node_modules" / "kaitai-struct-compiler").is_dir():
        pytest.skip("node and node_modules (npm ci) are needed for the Web IDE simulation")
    return subprocess.run(
        [node, str(REPO / "tools" / script), *map(str, args)], capture_output=True, text=True, timeout=300, cwd=REPO, check=False
    )


def _webide(*args: str | Path) -> tuple[int, list[dict[str, Any]]]:
    out = _node("webide_check.mjs", *args)
    return out.returncode, [json.loads(line) for line in out.stdout.splitlines()]


def _layout(tmp_path: Path, import_line: str) -> Path:
    """The repository's layout in tmp_path (deletes/ next to roaring/), with deletion_vector_v1.ksy importing
    ``import_line``; returns that spec. On disk, ``../roaring/roaring64`` resolves from deletes/."""
    (tmp_path / "roaring").mkdir()
    (tmp_path / "deletes").mkdir()
    for f in (REPO / "formats" / "roaring").glob("*.ksy"):
        shutil.copy(f, tmp_path / "roaring" / f.name)
    text = (REPO / "formats" / "deletes" / "deletion_vector_v1.ksy").read_text()
    assert "\n    - roaring64\n" in text
    spec = tmp_path / "deletes" / "deletion_vector_v1.ksy"
    spec.write_text(text.replace("\n    - roaring64\n", f"\n    - {import_line}\n"))
    return spec


@pytest.mark.parametrize("spec", SPECS, ids=lambda p: p.name)
def test_every_spec_compiles_in_the_ide_as_uploaded(spec: Path) -> None:
    # every formats/ spec uploaded flat by bare name, then the root spec: it compiles, and its imports
    # were found under bare names in that flat storage
    rc, (res,) = _webide(spec)
    assert rc == 0 and res["ok"], res
    assert all("/" not in name for name in res["imports"]), res["imports"]


def test_every_spec_compiles_with_only_its_imports_uploaded(tmp_path: Path) -> None:
    # what a user uploads: the spec and the files it imports (transitively), nothing else
    wanted = {"deletion_vector_v1": ["roaring64", "roaring32"], "deletion_vector_file": ["roaring64", "roaring32"],
              "roaring64": ["roaring32"], "parquet": ["thrift_compact"], "paimon_dv_index": ["roaring32", "roaring64"],
              "paimon_file_index": ["roaring32"]}  # fmt: skip
    by_name = {p.stem: p for p in SPECS}
    assert len(by_name) == len(SPECS), "two specs share a bare file name: the IDE's flat storage holds only one"
    for spec in SPECS:
        uploads = [a for name in wanted.get(spec.stem, []) for a in ("--upload", by_name[name])]
        rc, (res,) = _webide("--no-formats", *uploads, spec)
        assert rc == 0 and res["ok"], (spec.name, res)
        assert sorted(set(res["imports"])) == sorted(f"{n}.ksy" for n in wanted.get(spec.stem, []))


def test_dotdot_import_fails_as_in_the_ide(tmp_path: Path) -> None:
    spec = _layout(tmp_path, "../roaring/roaring64")
    assert (spec.parent / "../roaring/roaring64.ksy").resolve().is_file()  # it exists on disk...
    rc, (res,) = _webide("--upload", tmp_path / "roaring" / "roaring64.ksy", "--upload", tmp_path / "roaring" / "roaring32.ksy", spec)
    assert rc == 1 and not res["ok"]  # ...and was uploaded, yet the IDE cannot find it
    assert IDE_MISSING.format("../roaring/roaring64.ksy") in res["error"]


def test_bare_import_of_the_same_layout_passes(tmp_path: Path, corpus: Path) -> None:
    spec = _layout(tmp_path, "roaring64")
    up = ("--no-formats", "--upload", tmp_path / "roaring" / "roaring64.ksy", "--upload", tmp_path / "roaring" / "roaring32.ksy")
    blob = corpus / "iceberg/core/src/test/resources/org/apache/iceberg/deletes/all-container-types-position-index.bin"
    rc, (res,) = _webide(*up, spec, blob)
    assert rc == 0 and res["ok"], res
    assert res["tree"]["len_body"] == blob.stat().st_size - 8


def test_imports_are_found_only_among_uploads(tmp_path: Path) -> None:
    spec = _layout(tmp_path, "roaring64")
    rc, (res,) = _webide("--no-formats", spec)  # roaring64.ksy sits in ../roaring on disk but was not uploaded
    assert rc == 1 and IDE_MISSING.format("roaring64.ksy") in res["error"]
    # the nested import is looked up in the same flat storage: roaring64 found, roaring32 not uploaded
    rc, (res,) = _webide("--no-formats", "--upload", tmp_path / "roaring" / "roaring64.ksy", spec)
    assert rc == 1 and IDE_MISSING.format("roaring32.ksy") in res["error"]


def test_two_uploads_with_one_bare_name_are_refused(tmp_path: Path) -> None:
    other = tmp_path / "elsewhere" / "roaring32.ksy"
    other.parent.mkdir()
    other.write_text((REPO / "formats/roaring/roaring32.ksy").read_text().replace("title:", "title: Another", 1))
    rc, (res,) = _webide("--upload", other, REPO / "formats/roaring/roaring64.ksy")
    assert rc == 1 and "bare file name: roaring32.ksy" in res["error"]


def test_ksc_refuses_an_import_the_ide_cannot_find(tmp_path: Path) -> None:
    spec = _layout(tmp_path, "../roaring/roaring64")
    out = _node("ksc.mjs", "-t", "python", "-I", tmp_path / "roaring", "-d", tmp_path / "out", spec)
    assert out.returncode == 1 and "import 'roaring64' and pass its folder with -I" in out.stderr
    assert not (tmp_path / "out" / "deletion_vector_v1.py").exists()
    # the bare sibling name compiles, found through -I
    (tmp_path / "ok").mkdir()
    spec = _layout(tmp_path / "ok", "roaring64")
    out = _node("ksc.mjs", "-t", "python", "-I", tmp_path / "ok" / "roaring", "-d", tmp_path / "out", spec)
    assert out.returncode == 0, out.stderr
    assert {p.name for p in (tmp_path / "out").iterdir()} == {"deletion_vector_v1.py", "roaring64.py", "roaring32.py"}


def test_ksc_refuses_an_ambiguous_bare_import(tmp_path: Path) -> None:
    spec = _layout(tmp_path, "roaring64")
    clash = tmp_path / "clash" / "roaring64.ksy"
    clash.parent.mkdir()
    clash.write_text((tmp_path / "roaring" / "roaring64.ksy").read_text() + "\n# a different file\n")
    out = _node("ksc.mjs", "-t", "python", "-I", tmp_path / "roaring", "-I", clash.parent, "-d", tmp_path / "out", spec)
    assert out.returncode == 1 and "ambiguous" in out.stderr


def test_lazy_instance_errors_stay_on_the_field(tmp_path: Path) -> None:
    """The simulation reports what the IDE's error panel shows: a position-located instance that fails is
    lazy there (the root parse succeeds, the error shows on the clicked node); a value instance is
    evaluated while the tree is built, so its failure does reach the panel; a seq field that reads the
    instance brings the error into the root parse."""
    base = (
        "meta:\n  id: {id}\nseq:\n  - id: a\n    type: u1\n{extra}"
        "instances:\n  last:\n    pos: _io.size - 1\n    type: u1\n    valid: 7\n"
    )
    specs = {
        "lazy": "",
        "forced": "  - id: last_checked\n    size: 0\n    valid:\n      expr: last == 7\n",
    }
    data = tmp_path / "d.bin"
    data.write_bytes(b"\x01\x02\x03")
    results = {}
    for name, extra in specs.items():
        (tmp_path / f"{name}.ksy").write_text(base.format(id=name, extra=extra))
        rc, (res,) = _webide("--no-formats", tmp_path / f"{name}.ksy", data)
        assert rc == 0
        results[name] = res
    lazy = results["lazy"]
    assert not lazy["ok"] and lazy["ide_error"] is None
    assert [e["path"] for e in lazy["field_errors"]] == ["last"] and "ValidationNotEqualError" in lazy["field_errors"][0]["error"]
    assert lazy["tree"]["a"] == 1
    forced = results["forced"]
    assert not forced["ok"] and "ValidationNotEqualError" in forced["ide_error"]
    (tmp_path / "eager.ksy").write_text(base.format(id="eager", extra="") + "  shown:\n    value: last + 1\n")
    rc, (res,) = _webide("--no-formats", tmp_path / "eager.ksy", data)
    assert rc == 0 and "ValidationNotEqualError" in res["ide_error"] and res["tree"] is None
    data.write_bytes(b"\x01\x02\x07")
    for name in (*specs, "eager"):
        rc, (res,) = _webide("--no-formats", tmp_path / f"{name}.ksy", data)
        assert rc == 0 and res["ok"] and res["tree"]["last"] == 7, res
