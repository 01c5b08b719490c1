"""Rough edges of the Spark path (issue 17): the workers find the real package from any working directory,
``plain_loop`` takes a source's name, a bad ``spec`` option of the ``kaitai`` source reads as one line, and the
report's bar labels keep what tells Iceberg's file names apart."""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

import lakestruct
from lakestruct.errors import UsageError
from lakestruct.spark.env import worker_pythonpath

PROBE = ("import lakestruct, sys; print(lakestruct.__file__);"
         "print(hasattr(lakestruct, 'scan') and __import__('lakestruct._generated.puffin') and lakestruct.twins()['roaring'])")


def _as_worker(cwd: Path, pythonpath: str | None) -> subprocess.CompletedProcess[str]:
    """A Python worker's view: ``python -m MODULE`` in ``cwd`` (so cwd comes first on sys.path, as for
    ``python -m pyspark.daemon``), with Spark's PYTHONPATH."""
    (cwd / "probe_worker.py").write_text(PROBE)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    if pythonpath is not None:
        env["PYTHONPATH"] = pythonpath
    return subprocess.run([sys.executable, "-m", "probe_worker"], cwd=cwd, env=env, capture_output=True, text=True, check=False)


def test_workers_find_the_real_package_beside_a_folder_named_lakestruct(tmp_path: Path) -> None:
    """Run from the folder that holds a clone: ``lakestruct/`` there is a namespace package to a worker whose
    sys.path starts with its working directory; with the worker PYTHONPATH lakestruct sets, the regular package
    the driver uses wins."""
    (tmp_path / "lakestruct" / "src").mkdir(parents=True)  # a clone: no __init__.py at its top
    real = Path(lakestruct.__file__).resolve()
    fixed = _as_worker(tmp_path, worker_pythonpath())
    assert fixed.returncode == 0, fixed.stderr
    where, twins = fixed.stdout.splitlines()
    assert Path(where).resolve() == real and twins in ("compiled", "pure")
    bare = _as_worker(tmp_path, None)  # what a worker saw before
    if "site-packages" not in str(real):  # an editable install, found by a meta-path finder after the path entries
        assert bare.returncode == 0 and bare.stdout.splitlines() == ["None", "False"], bare  # the namespace package


def test_session_passes_the_worker_pythonpath() -> None:
    import inspect

    from lakestruct.spark import env

    assert "spark.executorEnv.PYTHONPATH" in inspect.getsource(env.session)
    assert Path(worker_pythonpath(), "lakestruct", "__init__.py").resolve() == Path(lakestruct.__file__).resolve()


@pytest.mark.corpus
def test_plain_loop_takes_a_source_name(corpus: Path) -> None:
    pytest.importorskip("pyarrow")
    import pyarrow as pa

    from lakestruct.spark import plain_loop, source

    path = str(corpus / "puffin-tools/src/test/resources/apache-datasketches-theta-v1.puffin")
    by_name = pa.Table.from_batches(list(plain_loop("puffin", [path])))
    by_source = pa.Table.from_batches(list(plain_loop(source("puffin"), [path])))
    assert by_name.num_rows > 0 and by_name.equals(by_source)
    assert pa.Table.from_batches(list(plain_loop("puffin", path))).equals(by_name)  # one path as a string
    with pytest.raises(UsageError, match=r"no lakestruct source 'nope'; sources: .*puffin"):
        plain_loop("nope", [path])
    with pytest.raises(UsageError, match="source name or a RowSource"):
        plain_loop(42, [path])  # type: ignore[arg-type]


@pytest.mark.corpus
def test_kaitai_source_bad_spec_path_is_one_line(spark, corpus: Path) -> None:  # type: ignore[no-untyped-def]
    from pyspark.errors import AnalysisException

    path = str(corpus / "puffin-tools/src/test/resources/deletion-vector-v1.puffin")
    with pytest.raises(AnalysisException) as ei:
        spark.read.format("kaitai").option("spec", "/no/such/spec.ksy").load(path).count()
    msg = str(ei.value)
    assert "/no/such/spec.ksy: no such spec file" in msg
    assert msg.count('File "') <= 1, msg  # the raise in the data source, not the frames below it


def _labels(paths: list[str]) -> list[str]:
    from lakestruct.spark.report import _short_labels

    return _short_labels(paths)


def test_bar_labels_of_iceberg_files_stay_distinct() -> None:
    """Iceberg data files: one write UUID, told apart by the task prefix and the file counter. Cut from the
    left, the labels were all alike."""
    write = str(uuid.UUID(int=0x3D2B5C1E6A494D3B9A1E2C4F0B7D9E31))
    paths = [f"s3://warehouse/db/orders/data/{t:05d}-{t}-{write}-{c:05d}.parquet" for t in range(3) for c in (1, 2)]
    short = _labels(paths)
    assert len(set(short)) == len(paths) and all(len(s) <= 48 for s in short), short
    for p, s in zip(paths, short, strict=True):
        name = p.rsplit("/", 1)[1]
        assert s.startswith("…" + name[:8]) and s.endswith(name[-14:]), s  # task prefix and counter kept
    assert _labels(["/t/x.parquet", "e.rule"]) == ["/t/x.parquet", "e.rule"]  # short labels untouched


def test_bar_labels_differing_in_the_folder_show_where() -> None:
    a = "/lake/warehouse/db/orders/data/a/b/c/d/e/f/g/h/part-0001.parquet"
    b = a.replace("/h/", "/x/")
    sa, sb = _labels([a, b])
    assert sa != sb and "/h/" in sa and "/x/" in sb and len(sa) <= 48 and sa.endswith("part-0001.parquet"), (sa, sb)


def test_bar_chart_keeps_the_full_path_on_hover() -> None:
    from lakestruct.spark.report import bar_chart

    long = "s3://warehouse/db/orders/data/00001-1-3d2b5c1e-6a49-4d3b-9a1e-2c4f0b7d9e31-00001.parquet"
    svg = bar_chart([long], [0.5], title="deleted share", horizontal=True)
    assert f"<title>{long}</title>" in svg and "…" in svg
