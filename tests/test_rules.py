"""Every rule id the code can raise is declared, with its meaning, in ``lakestruct.rules``; every declared rule is
named by its room's code; ``docs/rules.md`` is what ``tools/rules_doc.py`` generates from the declarations.

The rule ids are read from the source (``src/lakestruct/**/*.py`` and the Cython twins), not from running it:

* every string literal shaped like a rule id (``room.rule``) whose first part is a declared room prefix;
* every ``rule=`` argument that is an f-string or a name: module constants are substituted (``f"{SPEC}.size-limit"``),
  and a function parameter makes the function a *rule helper* (``_fail(msg, rule, ...)`` building
  ``f"{SPEC}.{rule}"``, ``_split_envelope(..., rule="paimon-dv")`` building ``f"{rule}.crc"``,
  ``kaitai_call(spec, ...)`` building ``f"{spec}.truncated"``): the helper's call sites (positional or keyword
  arguments, or the parameter's default) fill it in, through helpers that pass the parameter on, to a fixed point;
  a conditional expression contributes both branches, a local variable every value assigned to it;
* the rule names of the Kaitai specs (``_generated/_rules.py``).

Rules passed on from an error already raised (``rule=e.rule``) need no declaration of their own.
"""

from __future__ import annotations

import ast
import importlib.util
import re
import subprocess
import sys
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from lakestruct._generated._rules import RULES as KAITAI_RULES

from lakestruct import rules

REPO = Path(__file__).resolve().parent.parent
SRC = REPO / "src" / "lakestruct"
RULE_ID = re.compile(r"^[a-z][a-z0-9_]*(?:-[a-z0-9]+)*(?:\.[a-z0-9]+(?:[-_][a-z0-9]+)*)+$")
PREFIXES = {r.split(".")[0] for r in rules.RULES}


# ----------------------------------------------------------------------------------------------- the extractor


@dataclass
class _Def:
    module: Path
    node: ast.FunctionDef | ast.AsyncFunctionDef
    consts: dict[str, str]
    outer: _Def | None = None  # the function this one is nested in (its parameters are closure variables here)
    positional: list[str] = field(default_factory=list)
    params: set[str] = field(default_factory=set)
    defaults: dict[str, ast.expr] = field(default_factory=dict)
    locals: dict[str, list[ast.expr]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        a = self.node.args
        self.positional = [x.arg for x in [*a.posonlyargs, *a.args]]
        self.params = set(self.positional) | {x.arg for x in a.kwonlyargs}
        self.defaults = dict(zip(self.positional[len(self.positional) - len(a.defaults):], a.defaults, strict=True))
        self.defaults.update({x.arg: d for x, d in zip(a.kwonlyargs, a.kw_defaults, strict=True) if d is not None})
        for n in ast.walk(self.node):
            if isinstance(n, ast.Assign):
                for t in n.targets:
                    if isinstance(t, ast.Name) and t.id not in self.params:
                        self.locals.setdefault(t.id, []).append(n.value)
            elif isinstance(n, ast.For) and isinstance(n.target, ast.Tuple) and isinstance(n.iter, ast.Tuple | ast.List):
                for i, t in enumerate(n.target.elts):  # for rule, cond, text in (("a.b", ...), ("a.c", ...)):
                    if isinstance(t, ast.Name):
                        self.locals.setdefault(t.id, []).extend(
                            e.elts[i] for e in n.iter.elts if isinstance(e, ast.Tuple) and len(e.elts) > i)

    def owner_of(self, name: str) -> _Def | None:
        """The function (this one or one it is nested in) whose parameter ``name`` is."""
        d: _Def | None = self
        while d is not None and name not in d.params:
            d = d.outer if name not in d.locals else None
        return d

    @property
    def is_method(self) -> bool:
        return bool(self.positional) and self.positional[0] in ("self", "cls")


@dataclass
class Extraction:
    rules: dict[str, set[str]]  # rule id -> where ("module.py:line")
    unresolved: list[str]  # rule expressions that are neither constants nor helper parameters
    families: dict[str, set[str]]  # helper -> the templates its rule parameter goes into
    open_families: dict[str, set[str]]  # rules built around a value known only at run time ("{*}.truncated") -> where


def _module_consts(tree: ast.Module) -> dict[str, str]:
    out: dict[str, str] = {}
    for n in tree.body:
        targets = n.targets if isinstance(n, ast.Assign) else [n.target] if isinstance(n, ast.AnnAssign) else []
        value = getattr(n, "value", None)
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            out.update({t.id: value.value for t in targets if isinstance(t, ast.Name)})
    return out


def _templates(expr: ast.expr, d: _Def | None, consts: dict[str, str], depth: int = 0) -> list[tuple[_Def | None, str, str]] | None:
    """What a rule expression can be: (None, "", rule id) for a constant, (function, parameter, template with ``{}``)
    for one that depends on a parameter of ``d`` or of a function ``d`` is nested in; None when it cannot be resolved."""
    out: list[tuple[_Def | None, str, str]] = []
    if depth > 5:
        return None
    if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
        out.append((None, "", expr.value))
    elif isinstance(expr, ast.IfExp):
        for branch in (expr.body, expr.orelse):
            sub = _templates(branch, d, consts, depth + 1)
            if sub is None:
                return None
            out.extend(sub)
    elif isinstance(expr, ast.Name):
        owner = d.owner_of(expr.id) if d is not None else None
        if owner is not None:
            out.append((owner, expr.id, "{}"))
        elif d is not None and expr.id in d.locals:
            for value in d.locals[expr.id]:
                sub = _templates(value, d, consts, depth + 1)
                if sub is None:
                    return None
                out.extend(sub)
        elif expr.id in consts:
            out.append((None, "", consts[expr.id]))
        else:
            return None
    elif isinstance(expr, ast.JoinedStr):
        text, param, owner = "", "", None
        for v in expr.values:
            name = v.value.id if isinstance(v, ast.FormattedValue) and isinstance(v.value, ast.Name) else None
            if isinstance(v, ast.Constant):
                text += str(v.value).replace("{", "{{").replace("}", "}}")
            elif name is not None and name in consts and (d is None or d.owner_of(name) is None):
                text += consts[name]
            elif name is not None and d is not None and d.owner_of(name) is not None and not param:
                owner, param, text = d.owner_of(name), name, text + "{}"
            else:
                return None
        out.append((owner, param, text) if param else (None, "", text.format()))
    else:
        return None
    return out


#: Rule expressions that pass on rules named elsewhere, where the extractor cannot see it: (module, function,
#: expression) -> where those rules are declared.
PASS_THROUGH = {
    ("_kaitai.py", "kaitai_call", "rule"): "a spec's -lakestruct-rule from _generated/_rules.py (checked on its own), unpacked "
    "from a lookup",
    ("kaitai/runtime.py", "translate", "rule"): "a user spec's valid: rule, unpacked from _validation (the kaitai room's "
    "{spec}.{field} family)",
}


def extract(src: Path = SRC) -> Extraction:
    defs: dict[str, list[_Def]] = defaultdict(list)
    calls: list[tuple[ast.Call, _Def | None, dict[str, str], Path]] = []
    found: dict[str, set[str]] = defaultdict(set)
    for path in sorted(src.rglob("*.py")):
        if "_generated" in path.parts or path == src / "rules.py":  # the registry itself names every rule
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        consts = _module_consts(tree)

        def visit(node: ast.AST, enclosing: _Def | None, path: Path = path, consts: dict[str, str] = consts) -> None:
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                    d = _Def(path, child, consts, enclosing)
                    defs[child.name].append(d)
                    if child.name == "__init__" and isinstance(node, ast.ClassDef):
                        defs[node.name].append(d)  # ClassName(...) calls its __init__
                    visit(child, d)
                    continue
                if isinstance(child, ast.Call):
                    calls.append((child, enclosing, consts, path))
                if isinstance(child, ast.Constant) and isinstance(child.value, str) and _looks_like_a_rule(child.value):
                    found[child.value].add(f"{path.relative_to(src)}:{child.lineno}")
                visit(child, enclosing)

        visit(tree, None)
    for path in sorted(src.rglob("*.pyx")):  # the Cython twins: their literals
        for m in re.finditer(r"[\"']([a-z][a-z0-9_.-]*)[\"']", path.read_text(encoding="utf-8")):
            if _looks_like_a_rule(m.group(1)):
                found[m.group(1)].add(f"{path.relative_to(src)}")

    families: dict[tuple[int, str], set[str]] = defaultdict(set)
    open_families: dict[str, set[str]] = defaultdict(set)
    owners: dict[int, _Def] = {id(d): d for ds in defs.values() for d in ds}
    unresolved: list[str] = []

    def callees(call: ast.Call, module: Path) -> list[_Def]:
        if isinstance(call.func, ast.Name):
            here = [d for d in defs.get(call.func.id, []) if d.module == module]
            return here or defs.get(call.func.id, [])
        if isinstance(call.func, ast.Attribute) and not call.func.attr.startswith("__"):
            return defs.get(call.func.attr, [])
        return []

    def add(expr: ast.expr, enclosing: _Def | None, consts: dict[str, str], where: str, outer: str) -> bool:
        alternatives = _templates(expr, enclosing, consts)
        pattern = _open_pattern(expr, outer)
        if alternatives is None and pattern is not None:
            open_families[pattern].add(where)
            return False
        if alternatives is None:
            site = (enclosing.module.relative_to(src).as_posix() if enclosing else "", enclosing.node.name if enclosing else "",
                    ast.unparse(expr))
            if site not in PASS_THROUGH:
                unresolved.append(f"{where}: {ast.unparse(expr)}")
            return False
        changed = False
        for owner, param, text in alternatives:
            if owner is None:
                found[outer.format(text)].add(where)
            else:
                key = (id(owner), param)
                new = outer.format(text)
                changed |= new not in families[key]
                families[key].add(new)
        return changed

    first, changed = True, True
    while changed:
        changed = False
        for call, enclosing, consts, module in calls:
            where = f"{module.relative_to(src)}:{call.lineno}"
            targets = callees(call, module)
            helper_takes_rule = any(families.get((id(d), "rule")) for d in targets)
            if first and not helper_takes_rule:
                for kw in call.keywords:
                    if kw.arg == "rule" and not _passes_on(kw.value):
                        add(kw.value, enclosing, consts, where, "{}")
            for d in targets:
                bound = isinstance(call.func, ast.Attribute) or d.node.name == "__init__"  # self is not in the call
                positional = d.positional[1:] if d.is_method and bound else d.positional
                for param in sorted(d.params):
                    outers = families.get((id(d), param))
                    if not outers:
                        continue
                    expr: ast.expr | None = None
                    arg_consts = consts
                    at = positional.index(param) if param in positional else len(call.args)
                    if at < len(call.args) and not any(isinstance(a, ast.Starred) for a in call.args[: at + 1]):
                        expr = call.args[at]
                    for kw in call.keywords:
                        if kw.arg == param:
                            expr = kw.value
                    if expr is None and param in d.defaults:
                        expr, arg_consts = d.defaults[param], d.consts
                    if expr is None or _passes_on(expr):
                        continue
                    for outer in sorted(outers):
                        changed |= add(expr, enclosing, arg_consts, where, outer)
        if first:
            first, changed = False, True
    return Extraction(dict(found), sorted(set(unresolved)),
                      {f"{owners[k].module.relative_to(src)}:{owners[k].node.name}({p})": v for (k, p), v in families.items()},
                      dict(open_families))


def _open_pattern(expr: ast.expr, outer: str) -> str | None:
    """A rule built around one value known only at run time, as a pattern with ``{*}`` for it: an f-string such as
    ``f"{spec}.truncated"`` (``spec`` neither a constant nor a helper parameter), or such a value passed to a helper
    that adds a suffix (``kaitai_call(spec, ...)``). None for anything else."""
    if isinstance(expr, ast.JoinedStr):
        parts = [str(v.value) if isinstance(v, ast.Constant) else None for v in expr.values]
        if parts.count(None) == 1:
            return outer.replace("{}", "".join("{*}" if p is None else p for p in parts))
        return None
    if outer != "{}" and isinstance(expr, ast.Name | ast.Attribute):
        return outer.replace("{}", "{*}")
    return None


def _looks_like_a_rule(text: str) -> bool:
    return bool(RULE_ID.match(text)) and text.split(".")[0] in PREFIXES


def _passes_on(expr: ast.expr) -> bool:
    """``e.rule``, ``self.rule``, ``check.rule``: a rule already named elsewhere, passed on."""
    return isinstance(expr, ast.Attribute) and expr.attr == "rule"


@pytest.fixture(scope="module")
def extraction() -> Extraction:
    return extract()


def _kaitai_rule_ids() -> set[str]:
    return {rule for table in KAITAI_RULES.values() for (_, rule, _) in table.values()}


# ----------------------------------------------------------------------------------------------- the tests


def test_every_rule_the_code_names_is_declared(extraction: Extraction) -> None:
    undeclared = {r: sorted(w)[:3] for r, w in extraction.rules.items() if r not in rules.RULES}
    assert not undeclared, f"declare these rules (one-line meaning) in src/lakestruct/rules.py: {undeclared}"
    missing_kaitai = _kaitai_rule_ids() - set(rules.RULES)
    assert not missing_kaitai, f"Kaitai spec rules (-lakestruct-rule) not declared in lakestruct.rules: {sorted(missing_kaitai)}"


def test_every_rule_expression_is_resolved(extraction: Extraction) -> None:
    """A rule= argument the extractor cannot follow would hide rules from the check above; rules built around a value
    known only at run time (a user's Kaitai spec id) must match a family a room declares (``{spec}.truncated``)."""
    assert not extraction.unresolved, extraction.unresolved
    declared = {re.sub(r"\{[a-z_]*\}", "{*}", f) for room in rules.ROOMS for f in room.families}
    undeclared = {f: sorted(w)[:3] for f, w in extraction.open_families.items() if f not in declared}
    assert not undeclared, f"declare these rule families in a room's families (lakestruct.rules): {undeclared}"


def test_every_declared_rule_is_named_by_its_room(extraction: Extraction) -> None:
    """No stale declarations: each room's rules occur in the source (when the room's code is there)."""
    named = set(extraction.rules) | _kaitai_rule_ids()
    stale = {}
    for room in rules.ROOMS:
        if importlib.util.find_spec(room.module) is None:
            continue
        stale.update({r: room.name for r in room.rules if r not in named})
    assert not stale, f"declared in lakestruct.rules but raised nowhere: {stale}"


def test_the_extractor_follows_rule_helpers(extraction: Extraction) -> None:
    """Rules built by helpers from a prefix and a name are found at their call sites (so the checks above can fail)."""
    for rule, helper in [
        ("theta_compact.flags-reserved", "sketches/read.py:_fail(rule)"),  # _fail(msg, "flags-reserved", ...) -> f"{SPEC}.{rule}"
        ("paimon-dv.crc", "deletes/read.py:_split_envelope(rule)"),  # rule="paimon-dv" -> f"{rule}.crc"
        ("deletion-vector.crc", "deletes/read.py:_split_envelope(rule)"),  # the parameter's default
        ("thrift_compact.truncated", "_kaitai.py:kaitai_call(spec)"),  # kaitai_call("thrift_compact", ...) -> f"{spec}.truncated"
        ("theta_compact.structure", "_kaitai.py:kaitai_call(spec)"),  # kaitai_call(SPEC, ...): a module constant
        ("roaring32.run-adjacent", "roaring/_decode.py:err(rule)"),  # a local variable's values
        ("parquet.rle.count", "parquet/levels.py:fail(rule)"),  # one branch of a conditional expression
    ]:
        assert rule in extraction.rules, rule
        assert helper in extraction.families, sorted(extraction.families)
    assert "theta_compact.{}" in extraction.families["sketches/read.py:_fail(rule)"]


def test_meanings_are_one_line_and_rooms_are_documented() -> None:
    seen: set[str] = set()
    for room in rules.ROOMS:
        assert room.doc is None or (REPO / "docs" / room.doc).is_file(), room.doc
        for rule, text in room.rules.items():
            assert RULE_ID.match(rule), rule
            assert rule not in seen, f"{rule} declared twice"
            seen.add(rule)
            assert text and "\n" not in text and len(text) <= 160 and not text.endswith("."), (rule, text)
    assert set(rules.RULES) == seen and rules.meaning("parquet.page-crc") and rules.meaning("no.such-rule") is None


def test_rules_page_is_generated_from_the_declarations() -> None:
    """docs/rules.md is tools/rules_doc.py's output; regenerate it with `python tools/rules_doc.py`."""
    sys.path.insert(0, str(REPO / "tools"))
    try:
        import rules_doc
    finally:
        sys.path.remove(str(REPO / "tools"))
    page = (REPO / "docs" / "rules.md").read_text(encoding="utf-8")
    assert page == rules_doc.render(), "docs/rules.md is stale: run `python tools/rules_doc.py`"
    for rule in rules.RULES:  # every rule has its row
        assert f"| `{rule}` |" in page
    res = subprocess.run([sys.executable, str(REPO / "tools" / "rules_doc.py"), "--check"], capture_output=True, text=True)
    assert res.returncode == 0, res.stderr


def test_the_errors_validate_reports_are_declared(corpus: Path) -> None:
    """The rules met at run time (validate over parquet-testing's bad_data, CRoaring's inputs, the fuzzing
    reproducers) are all declared: the source reading above misses none of them."""
    from lakestruct.scan import detect, validate_file, walk

    met: set[str] = set()
    for path in walk([str(corpus / "parquet-testing/bad_data"), str(corpus / "croaring"), str(corpus / "fuzz-repro")]):
        fmt = detect(path)
        if fmt is not None and "2p28" not in path and "2gib" not in path:  # the 2^28-position inputs decode for seconds
            met |= {f.rule for f in validate_file(path, fmt, deep=True).findings if f.rule}
    assert len(met) > 15
    assert met <= set(rules.RULES), met - set(rules.RULES)
