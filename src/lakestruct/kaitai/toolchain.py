"""``lakestruct gen``: compile users' Kaitai specs to Python with the pinned npm compiler.

The npm build of ``kaitai-struct-compiler`` 0.11.0 has no command line; lakestruct drives it with
``ksc.mjs``, which ships inside this package (the same front end ``make gen`` runs as tools/ksc.mjs). It needs
Node.js 18+ and a ``node_modules`` folder holding ``kaitai-struct-compiler@0.11.0`` and ``js-yaml@4.1.0``,
looked up in this order: ``$LAKESTRUCT_KSC_MODULES``; ``node_modules`` in the current folder or any folder
above it; the source checkout's own (``make install`` runs ``npm ci``); ``~/.cache/lakestruct/ksc/node_modules``
(``$XDG_CACHE_HOME`` honoured), where the error message's ``npm install`` command puts them.

Imports resolve as the Kaitai compiler resolves them: relative ones (``icc_4``, ``../common/x``) against the
importing spec's folder, then the import folders; absolute ones (``/network/ethernet_frame``) against the
import folders. Beside every generated ``<id>.py`` goes ``<id>.ksy.json``, the spec as the compiler read it,
from which the ``kaitai`` Spark source derives its schema when given the module instead of the ``.ksy``.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from .._atomic import write_atomic
from ..errors import FormatError, LakestructError, SourceError, UsageError

__all__ = [
    "COMPILER_VERSION",
    "Compiled",
    "KaitaiCompileError",
    "KaitaiToolchainError",
    "compile",
    "find_modules",
    "find_node",
    "install_hint",
]

COMPILER_VERSION = "0.11.0"
JS_YAML_VERSION = "4.1.0"
KSC = Path(__file__).with_name("ksc.mjs")
SIDECAR = ".ksy.json"
_NODE_MIN = 18


class KaitaiToolchainError(LakestructError):
    """Node.js or the npm Kaitai compiler is missing (the message says how to get them)."""


class KaitaiCompileError(FormatError):
    """A spec does not compile (the compiler's message, with the spec's file name)."""


def _cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "lakestruct" / "ksc"


def install_hint() -> str:
    return (
        f"npm install --prefix {_cache_dir()} kaitai-struct-compiler@{COMPILER_VERSION} js-yaml@{JS_YAML_VERSION} "
        "(or set LAKESTRUCT_KSC_MODULES to a node_modules folder holding them)"
    )


def find_node() -> str:
    """The ``node`` binary (``$LAKESTRUCT_NODE`` or on PATH), version 18 or newer."""
    node = os.environ.get("LAKESTRUCT_NODE") or shutil.which("node")
    hint = "install Node.js 18+ (Debian/Ubuntu: apt-get install nodejs npm; macOS: brew install node; or https://nodejs.org)"
    if not node:
        raise KaitaiToolchainError(f"compiling Kaitai specs needs Node.js (no `node` on PATH): {hint}")
    try:
        out = subprocess.run([node, "--version"], capture_output=True, text=True, timeout=30, check=False).stdout
    except (OSError, subprocess.TimeoutExpired) as e:
        raise KaitaiToolchainError(f"{node} does not run ({e}): {hint}") from None
    m = re.match(r"v(\d+)", out.strip())
    if not m or int(m.group(1)) < _NODE_MIN:
        raise KaitaiToolchainError(f"compiling Kaitai specs needs Node.js {_NODE_MIN}+, {node} is {out.strip() or 'unknown'}: {hint}")
    return node


def _version(modules: Path, package: str) -> str | None:
    try:
        data = json.loads((modules / package / "package.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    v = data.get("version")
    return v if isinstance(v, str) else None


def _candidates() -> list[Path]:
    out: list[Path] = []
    env = os.environ.get("LAKESTRUCT_KSC_MODULES")
    if env:
        out.append(Path(env))
    cwd = Path.cwd().resolve()
    out += [d / "node_modules" for d in (cwd, *cwd.parents)]
    here = Path(__file__).resolve()
    out += [d / "node_modules" for d in here.parents[2:5]]  # src/lakestruct/kaitai -> the checkout
    out.append(_cache_dir() / "node_modules")
    return out


def find_modules(candidates: Sequence[Path] | None = None) -> Path:
    """The ``node_modules`` folder holding the pinned compiler and js-yaml (the first of ``candidates``,
    default: the search order in the module docstring)."""
    candidates = _candidates() if candidates is None else candidates
    wrong: list[str] = []
    for c in candidates:
        v = _version(c, "kaitai-struct-compiler")
        if v is None:
            continue
        if v != COMPILER_VERSION:
            wrong.append(f"{c} has kaitai-struct-compiler {v}")
            continue
        if _version(c, "js-yaml") is None:
            wrong.append(f"{c} has no js-yaml")
            continue
        return c
    found = f" ({'; '.join(wrong)}; lakestruct's parsers need {COMPILER_VERSION}, matching the kaitaistruct 0.11 runtime)" if wrong else ""
    raise KaitaiToolchainError(
        f"compiling Kaitai specs needs the npm Kaitai Struct compiler {COMPILER_VERSION} and js-yaml{found}: {install_hint()}"
    )


@dataclass(frozen=True)
class Compiled:
    """What :func:`compile` wrote."""

    out_dir: Path
    #: spec ids of the specs given, in order (their modules are ``<id>.py``)
    main: tuple[str, ...]
    #: every module written (the specs given and everything they import)
    modules: tuple[str, ...]
    #: spec id -> the spec as the compiler read it
    specs: dict[str, object]


def _run_ksc(
    specs: Sequence[Path], out_dir: Path, import_dirs: Sequence[Path], python_package: str | None, imports: str, ksy_json: Path
) -> None:
    node = find_node()
    modules = find_modules()
    cmd = [node, str(KSC), "-t", "python", "--modules", str(modules), "--imports", imports, "--ksy-json", str(ksy_json)]
    if python_package:
        cmd += ["--python-package", python_package]
    for d in import_dirs:
        cmd += ["-I", str(d)]
    cmd += ["-d", str(out_dir), *map(str, specs)]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600, check=False)
    except subprocess.TimeoutExpired:
        raise KaitaiCompileError("the compiler ran for more than 10 minutes", rule="kaitai.compile", path=str(specs[0])) from None
    if proc.returncode != 0:
        msg = (proc.stderr or proc.stdout).strip()
        spec = msg.split(": ", 1)[0] if ": " in msg else str(specs[0])
        msg = msg[len(spec) + 2 :] if msg.startswith(spec + ": ") else msg
        raise KaitaiCompileError(msg or f"exit status {proc.returncode}", rule="kaitai.compile", path=spec)


def compile(
    specs: Sequence[str | os.PathLike[str]],
    out_dir: str | os.PathLike[str],
    *,
    import_dirs: Sequence[str | os.PathLike[str]] = (),
    python_package: str | None = None,
    imports: str = "kaitai",
) -> Compiled:
    """Compile ``specs`` (``.ksy`` files) and everything they import into Python modules in ``out_dir``.

    ``import_dirs``: folders absolute imports (``/network/ethernet_frame``) resolve against, and relative ones
    when the importing spec's folder does not hold them. ``python_package``: ``"."`` makes the modules import
    each other relatively (``from . import x``), for a package; default: bare ``import x``, for a folder on
    ``sys.path``, as the Kaitai compiler writes them. ``imports="webide"``: the project's stricter rule for its
    own specs (bare sibling names only, as the Kaitai Web IDE finds them). Files are written atomically.
    """
    paths = [Path(s) for s in specs]
    if not paths:
        raise UsageError("no spec given")
    for p in paths:
        if not p.is_file():
            raise SourceError(f"{p}: no such spec file")
    if imports not in ("kaitai", "webide"):
        raise UsageError(f"imports must be kaitai or webide, not {imports!r}")
    dirs = [Path(d) for d in import_dirs]
    for d in dirs:
        if not d.is_dir():
            raise SourceError(f"{d}: import folder does not exist")
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=".lakestruct-gen-", dir=out) as tmp:
        tmp_out = Path(tmp) / "out"
        ksy_json = Path(tmp) / "specs.json"
        _run_ksc(paths, tmp_out, dirs, python_package, imports, ksy_json)
        data = json.loads(ksy_json.read_text(encoding="utf-8"))
        written: list[str] = []
        for f in sorted(tmp_out.iterdir()):
            if f.suffix != ".py":
                continue
            write_atomic(out / f.name, f.read_bytes())
            written.append(f.stem)
            tree = data["specs"].get(f.stem)
            if tree is not None:
                write_atomic(out / f"{f.stem}{SIDECAR}", json.dumps(tree, indent=1).encode())
    return Compiled(out, tuple(data["main"]), tuple(written), dict(data["specs"]))
