"""The CLI and the library without the extras: pyarrow, PySpark and pandas hidden by a meta-path blocker.

The development environment has every extra, so nothing here would notice a module-level ``import pyarrow``
on the way to a command that does not need it (``cli/gen.py`` -> ``kaitai/reader.py`` once broke every command
of a base install). tests/test_base_install.py checks the same on a real wheel in a fresh environment; this is
the cheap check of every module and every command's ``--help``.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

BLOCK = """
import sys
class _Block:
    def find_spec(self, name, path=None, target=None):
        if name.split('.')[0] in ('pyarrow', 'pyspark', 'pandas'):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
sys.meta_path.insert(0, _Block())
"""

#: the only modules that may need an extra: the Spark package (but not env.py, which says what to install) and
#: the pieces of the kaitai package that build Arrow tables for the ``kaitai`` Spark source
NEED_EXTRAS = ("lakestruct.spark.", "lakestruct.kaitai.columns", "lakestruct.kaitai.model", "lakestruct.kaitai.reader",
               "lakestruct.kaitai.runtime", "lakestruct.kaitai.walk")


def blocked(code: str, *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", BLOCK + code, *args], capture_output=True, text=True, check=False, timeout=300,
                          cwd=cwd)


def test_only_the_spark_modules_need_the_extras() -> None:
    r = blocked("""
import importlib, json, pkgutil, lakestruct
bad = {}
for m in pkgutil.walk_packages(lakestruct.__path__, 'lakestruct.'):
    try:
        importlib.import_module(m.name)
    except ModuleNotFoundError as e:
        bad[m.name] = e.name
print(json.dumps(bad))
""")
    assert r.returncode == 0, r.stderr
    bad = json.loads(r.stdout)
    assert bad, "the blocker hid nothing: the test checks nothing"
    assert {m: n for m, n in bad.items() if m != "lakestruct.spark.env" and not m.startswith(NEED_EXTRAS)} == {}
    assert "lakestruct.spark.env" not in bad and "lakestruct.kaitai" not in bad and "lakestruct.spark" not in bad


def test_every_command_help_works_without_extras() -> None:
    r = blocked("""
import contextlib, io, json
from lakestruct.cli import build_parser, main
p = build_parser()
sub = next(a for a in p._actions if a.dest == 'command')
done, failed = [], {}
for name, sp in sub.choices.items():
    nested = [a for a in sp._actions if getattr(a, 'choices', None) and isinstance(a.choices, dict)]
    for args in [[name]] + [[name, n] for a in nested for n in a.choices]:
        out = io.StringIO()
        try:
            with contextlib.redirect_stdout(out):
                main(args + ['--help'])
        except SystemExit as e:
            if e.code not in (0, None):
                failed[' '.join(args)] = e.code
        done.append(' '.join(args))
print(json.dumps([done, failed]))
""")
    assert r.returncode == 0, r.stderr[-3000:]
    done, failed = json.loads(r.stdout)
    assert failed == {}
    assert {"gen", "inventory", "explain", "scan", "validate", "parquet meta", "paimon files", "puffin inspect"} <= set(done)


def test_gen_compiles_without_extras(tmp_path: Path) -> None:
    from lakestruct.kaitai.toolchain import KaitaiToolchainError, find_modules

    try:
        find_modules()
    except KaitaiToolchainError as e:
        pytest.skip(str(e))
    spec = Path(__file__).resolve().parents[2] / "formats/roaring/roaring32.ksy"
    r = blocked("import sys; from lakestruct.cli import main; sys.exit(main(sys.argv[1:]))", "gen", str(spec), "-d", str(tmp_path))
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "roaring32.py").is_file()


@pytest.mark.parametrize("args", [["inventory", "x", "--out", "y"], ["demo-lake", "y"]])
def test_spark_commands_name_the_extra_and_exit_2(tmp_path: Path, args: list[str]) -> None:
    r = blocked("import sys; from lakestruct.cli import main; sys.exit(main(sys.argv[1:]))", *args, cwd=tmp_path)
    assert r.returncode == 2, (r.returncode, r.stderr)
    assert len(r.stderr.strip().splitlines()) == 1 and "pip install 'lakestruct[spark]'" in r.stderr, r.stderr
    assert not (tmp_path / "y").exists()


#: every command line of argv[1] (JSON) through main() in this one process: [exit status, stdout, stderr] each
DRIVER = """
import contextlib, io, json, sys
from lakestruct.cli import main
out = []
for args in json.loads(sys.argv[1]):
    o, e = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(o), contextlib.redirect_stderr(e):
        rc = main(args)
    out.append([rc, o.getvalue(), e.getvalue()])
print(json.dumps(out))
"""


@pytest.mark.corpus
def test_reading_commands_give_the_same_output_without_extras(corpus: Path, tmp_path: Path) -> None:
    dv = corpus / "puffin-tools/src/test/resources/deletion-vector-v1.puffin"
    pq = corpus / "parquet-testing/data/data_index_bloom_encoding_stats.parquet"
    table = corpus / "generated-seed1/paimon/tables/de_dv"
    commands = [["puffin", "inspect", str(dv)], ["deletes", "show", str(dv)], ["parquet", "meta", str(pq)],
                ["parquet", "pages", str(pq)], ["parquet", "values", str(pq), "--column", "String"],
                ["validate", "--deep", str(pq)], ["explain", str(pq), "--depth", "2"], ["paimon", "files", str(table)],
                ["scan", str(dv.parent)]]
    got = blocked(DRIVER, json.dumps(commands), cwd=tmp_path)
    want = subprocess.run([sys.executable, "-c", DRIVER, json.dumps(commands)], capture_output=True, text=True, check=False,
                          cwd=tmp_path)
    assert got.returncode == 0 and want.returncode == 0, got.stderr[-3000:] + want.stderr[-3000:]
    for args, (rc, out, err), (want_rc, want_out, _) in zip(commands, json.loads(got.stdout), json.loads(want.stdout), strict=True):
        assert "Traceback" not in err, (args, err[-2000:])
        assert (rc, out) == (want_rc, want_out), args
