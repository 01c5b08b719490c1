"""How a Parquet file reads in the Kaitai Web IDE's tree (tools/webide_check.mjs, ``--labels``: the one-line
label the IDE shows beside each object, from the specs' ``-webide-representation``).

- thrift_compact.ksy's labels: strings and binaries show their bytes (the template once named a field
  ``compact_binary`` lacks, so they were blank), the stop byte reads ``stop`` (it repeated the previous id).
- The field lookups of parquet.ksy's typed views take only numbers: a lookup type that took the struct as a
  parameter repeated the whole struct under every lookup node (the IDE shows parameters as fields), and with
  "disable lazy parsing" the exported tree grew with the number of lookups times the footer.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as papq
import pytest

import lakestruct as ls
from tests.helpers import webide_parse

SPEC = "formats/parquet/parquet.ksy"
pytestmark = [pytest.mark.node]


def write(path: Path, row_groups: int) -> Path:
    t = pa.table({"id": list(range(row_groups * 4)), "name": [f"n{i % 5}" for i in range(row_groups * 4)]})
    buf = io.BytesIO()
    papq.write_table(t, buf, row_group_size=4, write_statistics=True)
    path.write_bytes(buf.getvalue())
    return path


def walk(x: Any, key: str = "") -> Any:
    yield key, x
    if isinstance(x, dict):
        for k, v in x.items():
            yield from walk(v, k)
    elif isinstance(x, list):
        for v in x:
            yield from walk(v, key)


def test_labels_show_strings_and_the_stop_byte(tmp_path: Path) -> None:
    f = write(tmp_path / "a.parquet", 2)
    (res,) = webide_parse(SPEC, [f], "--labels")
    assert res["ok"], res["error"]
    footer = res["tree"]["footer"]
    labels = [fld["@label"].strip() for fld in footer["fields"]]
    meta = ls.parquet.open(f).metadata
    assert labels[-1] == "stop" and all(lab.startswith("#") for lab in labels[:-1]), labels
    ids = [int(lab.split()[0][1:]) for lab in labels[:-1]]
    assert len(set(ids)) == len(ids), labels  # no field shows the id of the one before it
    assert f'#6 "{meta.created_by}"' in labels, labels  # created_by, a string: its text, not a blank
    assert f"#3 {meta.num_rows}" in labels, labels
    names = [n["@label"] for k, n in walk(footer) if isinstance(n, dict) and k == "binary_value"]
    assert '"id"' in names and '"name"' in names, names  # schema element names
    assert not any(lab.endswith("#") or "<no value>" in lab for k, n in walk(footer) if isinstance(n, dict)
                   for lab in [n.get("@label", "")]), "a label shows a missing value"


def test_field_lookups_hold_no_copy_of_the_struct(tmp_path: Path) -> None:
    (res,) = webide_parse(SPEC, [write(tmp_path / "a.parquet", 3)], "--no-lazy")
    assert res["ok"], res["error"]
    lookups = [(k, v) for _, d in walk(res["tree"]) if isinstance(d, dict) for k, v in d.items() if k.startswith("f_")]
    assert lookups
    for k, v in lookups:
        assert isinstance(v, list) and all(set(step) == {"idx", "hit", "prev", "found"} for step in v), (k, v)


def test_eager_tree_grows_linearly(tmp_path: Path) -> None:
    """'Disable lazy parsing' exports every instance: the tree's size is proportional to the file's structure
    (about 8,000 nodes per column chunk here: every struct appears in the generic footer and again in each typed
    view above it; docs/webide.md warns)."""
    sizes = {}
    for n in (2, 8):
        (res,) = webide_parse(SPEC, [write(tmp_path / f"{n}.parquet", n)], "--no-lazy")
        assert res["ok"], res["error"]
        sizes[n] = res["nodes"]
    assert sizes[8] < 4.4 * sizes[2], sizes
