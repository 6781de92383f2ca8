#!/usr/bin/env python3
"""Import layers of each crate: no cycle among top-level modules, no import upward.

    python3 scripts/check_layers.py [--root DIR] [--config FILE] [--graph]

For every crate listed in `scripts/layers.json`, every `crate::`, `super::` and `self::`
path in every source file is read: `use` trees (grouped lists, nested groups, `self`
in a group, `pub use`, `pub(crate) use`) and paths inside expressions and types. Each
path is resolved to the top-level module it names (a name the crate root re-exports is
followed to the module it comes from). Code under `#[cfg(test)]` is left out: a test may
reach any layer. The check fails on

- a cycle among the top-level modules (the modules of one strongly connected component
  and one edge of each are printed), and
- where the crate lists its layers (top first), an import from a module into a higher
  layer, or a top-level module that no layer names.

Exit status 0 when every crate passes, 1 otherwise; 2 on a usage or configuration error.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path

IDENT = r"[A-Za-z_][A-Za-z0-9_]*"
PATH_IN_CODE = re.compile(rf"(?<![A-Za-z0-9_$:])((?:crate|super|self)(?:\s*::\s*{IDENT})+)")
USE_ITEM = re.compile(r"(?<![A-Za-z0-9_])(?:pub\s*(?:\([^)]*\))?\s*)?use\s+([^;]*);")
MOD_OPEN = re.compile(rf"(?<![A-Za-z0-9_])mod\s+({IDENT})\s*\{{")
# A path in a string, as serde's `#[serde(with = "crate::serde_float")]` names one.
PATH_IN_STRING = re.compile(rf'"((?:crate|super|self)(?:::{IDENT})+)"')
CFG_TEST = re.compile(r"#\[\s*cfg\s*\(\s*test\s*\)\s*\]")


@dataclass(frozen=True)
class Edge:
    """One path from a module into another top-level module."""

    source: str
    target: str
    file: str
    line: int
    path: str


def strip_comments(text: str) -> str:
    """Blank out comments only, keeping string literals (for paths named in strings)."""
    return strip_comments_and_strings(text, keep_strings=True)


def strip_comments_and_strings(text: str, keep_strings: bool = False) -> str:
    """Blank out comments, string and char literals, keeping newlines and offsets."""
    out = list(text)
    i, n = 0, len(text)

    def blank(a: int, b: int) -> None:
        for k in range(a, min(b, n)):
            if out[k] != "\n":
                out[k] = " "

    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            blank(i, j)
            i = j
        elif text.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            blank(i, j)
            i = j
        elif (m := re.match(r'b?r(#*)"', text[i:])) and (i == 0 or not _ident_char(text[i - 1])):
            end = text.find('"' + m.group(1), i + m.end())
            j = n if end < 0 else end + 1 + len(m.group(1))
            if not keep_strings:
                blank(i, j)
            i = j
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            if not keep_strings:
                blank(i, j + 1)
            i = j + 1
        elif c == "'" and (m := re.match(r"'(\\.[^']*|[^\\'])'", text[i:])):
            blank(i, i + m.end())
            i += m.end()
        else:
            i += 1
    return "".join(out)


def _ident_char(c: str) -> bool:
    return c.isalnum() or c == "_"


def matching_brace(text: str, open_at: int) -> int:
    """The offset just past the brace that closes the one at `open_at`."""
    depth = 0
    for j in range(open_at, len(text)):
        if text[j] == "{":
            depth += 1
        elif text[j] == "}":
            depth -= 1
            if depth == 0:
                return j + 1
    return len(text)


def blank_test_code(text: str) -> str:
    """Blank every item under `#[cfg(test)]` (a module, a function, a `use`)."""
    out = list(text)
    for m in CFG_TEST.finditer(text):
        j = m.end()
        while (a := re.match(r"\s*#\[[^\]]*\]", text[j:])) is not None:
            j += a.end()
        brace, semi = text.find("{", j), text.find(";", j)
        if brace >= 0 and (semi < 0 or brace < semi):
            end = matching_brace(text, brace)
        else:
            end = len(text) if semi < 0 else semi + 1
        for k in range(m.start(), end):
            if out[k] != "\n":
                out[k] = " "
    return "".join(out)


def expand_use_tree(tree: str) -> list[list[str]]:
    """`a::{b, c::{d as e, self}, f::*}` -> [[a, b], [a, c, d], [a, c], [a, f]]."""
    tree = re.sub(rf"\s+as\s+{IDENT}", "", tree)
    tree = re.sub(r"\s+", "", tree)
    paths: list[list[str]] = []

    def walk(prefix: list[str], t: str) -> None:
        if not t:
            return
        if t.startswith("::"):
            t = t[2:]
        if t.startswith("{"):
            for part in split_group(t[1 : matching_brace(t, 0) - 1]):
                walk(prefix, part)
            return
        head, _, rest = t.partition("::")
        name = re.match(rf"{IDENT}|\*", head)
        if name is None:
            return
        seg = name.group(0)
        if seg == "self" and prefix:
            paths.append(prefix)
            return
        if seg == "*":
            paths.append(prefix)
            return
        if not rest:
            paths.append(prefix + [seg])
            return
        walk(prefix + [seg], rest)

    walk([], tree)
    return [p for p in paths if p]


def split_group(body: str) -> list[str]:
    parts, depth, start = [], 0, 0
    for j, c in enumerate(body):
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
        elif c == "," and depth == 0:
            parts.append(body[start:j])
            start = j + 1
    parts.append(body[start:])
    return [p for p in parts if p]


def module_path(src: Path, file: Path) -> list[str]:
    """`src/a/b.rs` -> [a, b]; `src/a/mod.rs` -> [a]; `src/lib.rs` -> []."""
    parts = list(file.relative_to(src).with_suffix("").parts)
    if parts[-1] == "mod" or (len(parts) == 1 and parts[0] in ("lib", "main")):
        parts = parts[:-1]
    return parts


def inline_modules(text: str) -> list[tuple[int, int, str]]:
    """(start, end, name) of every `mod name { ... }` in a stripped file."""
    return [(m.end() - 1, matching_brace(text, m.end() - 1), m.group(1)) for m in MOD_OPEN.finditer(text)]


def resolve(segments: list[str], here: list[str]) -> list[str] | None:
    """An absolute module path for `segments` read in module `here`, or None if external."""
    if not segments or segments[0] not in ("crate", "super", "self"):
        return None
    if segments[0] == "crate":
        return segments[1:]
    base = list(here)
    rest = list(segments)
    while rest and rest[0] in ("super", "self"):
        if rest[0] == "super":
            if not base:
                return None
            base.pop()
        rest.pop(0)
    return base + rest


def scan_file(src: Path, file: Path) -> list[tuple[list[str], list[str], int, str]]:
    """(module it is read in, absolute target path, line, path text) for every path."""
    raw = file.read_text(encoding="utf-8")
    text = blank_test_code(strip_comments_and_strings(raw))
    kept = blank_test_code(strip_comments(raw))
    base = module_path(src, file)
    mods = inline_modules(text)

    def here(offset: int) -> list[str]:
        inner = [name for (a, b, name) in mods if a < offset < b]
        return base + inner

    def line(offset: int) -> int:
        return text.count("\n", 0, offset) + 1

    found = []
    used = [False] * len(text)
    for m in USE_ITEM.finditer(text):
        for k in range(m.start(), m.end()):
            used[k] = True
        where = here(m.start())
        for segs in expand_use_tree(m.group(1)):
            target = resolve(segs, where)
            if target is not None:
                found.append((where, target, line(m.start()), "::".join(segs)))
    for m in PATH_IN_STRING.finditer(kept):
        where = here(m.start())
        target = resolve(m.group(1).split("::"), where)
        if target is not None:
            found.append((where, target, line(m.start()), m.group(1)))
    for m in PATH_IN_CODE.finditer(text):
        if used[m.start()]:
            continue
        segs = re.sub(r"\s+", "", m.group(1)).split("::")
        where = here(m.start())
        target = resolve(segs, where)
        if target is not None:
            found.append((where, target, line(m.start()), "::".join(segs)))
    return found


def root_reexports(root_file: Path, src: Path) -> dict[str, str]:
    """Names the crate root re-exports, mapped to the top-level module they come from."""
    names: dict[str, str] = {}
    text = blank_test_code(strip_comments_and_strings(root_file.read_text(encoding="utf-8")))
    for m in USE_ITEM.finditer(text):
        for segs in expand_use_tree(m.group(1)):
            segs = segs[1:] if segs[0] in ("crate", "self") else segs
            if len(segs) >= 2:
                names[segs[-1]] = segs[0]
    return names


def crate_edges(src: Path, root: str) -> tuple[set[str], list[Edge], list[str]]:
    files = sorted(src.rglob("*.rs"))
    tops = {module_path(src, f)[0] for f in files if module_path(src, f)}
    reexports = root_reexports(src / root, src)
    edges, unresolved = [], []
    for f in files:
        for where, target, ln, text in scan_file(src, f):
            if not where or not target:
                continue
            tops.add(where[0])  # an inline module of the crate root is top-level too
            dest = target[0]
            if dest not in tops:
                dest = reexports.get(dest, "")
            if dest not in tops:
                if target[0][:1].islower() and len(target) > 1:
                    unresolved.append(f"{f}:{ln}: {text}")
                continue
            if dest != where[0]:
                edges.append(Edge(where[0], dest, str(f), ln, text))
    return tops, edges, unresolved


def strongly_connected(nodes: set[str], edges: list[Edge]) -> list[list[str]]:
    """Tarjan's components with more than one module, each sorted."""
    succ: dict[str, set[str]] = {n: set() for n in nodes}
    for e in edges:
        succ[e.source].add(e.target)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    comps: list[list[str]] = []
    counter = [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(succ[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                comps.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return comps


def check_crate(src: Path, spec: dict, show_graph: bool) -> list[str]:
    """Every problem found in one crate, one line each."""
    tops, edges, _ = crate_edges(src, spec.get("root", "lib.rs"))
    problems = []
    for comp in strongly_connected(tops, edges):
        inside = sorted({(e.source, e.target): e for e in edges if e.source in comp and e.target in comp}.values(),
                        key=lambda e: (e.source, e.target))
        problems.append(f"{src}: import cycle among {', '.join(comp)}:")
        problems.extend(f"    {e.source} -> {e.target}  ({e.file}:{e.line}: {e.path})" for e in inside)
    layers = spec.get("layers")
    if layers:
        rank = {m: i for i, layer in enumerate(layers) for m in layer}
        for m in sorted(tops - rank.keys()):
            problems.append(f"{src}: module `{m}` is in no layer of scripts/layers.json; add it to one")
        for e in sorted(edges, key=lambda e: (e.file, e.line)):
            if e.source in rank and e.target in rank and rank[e.target] < rank[e.source]:
                problems.append(
                    f"{e.file}:{e.line}: `{e.source}` imports `{e.path}` from the higher layer `{e.target}`")
    if show_graph:
        pairs = sorted({(e.source, e.target) for e in edges})
        print(f"{src}:")
        for a, b in pairs:
            print(f"    {a} -> {b}")
    return problems


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", type=Path, default=Path(__file__).resolve().parent.parent)
    ap.add_argument("--config", type=Path, default=None)
    ap.add_argument("--graph", action="store_true", help="print every module edge")
    a = ap.parse_args(argv)
    config = a.config or a.root / "scripts" / "layers.json"
    try:
        crates = json.loads(config.read_text(encoding="utf-8"))["crates"]
    except (OSError, ValueError, KeyError) as e:
        print(f"check_layers: cannot read {config}: {e}", file=sys.stderr)
        return 2
    problems = []
    for rel, spec in crates.items():
        src = a.root / rel
        if not (src / spec.get("root", "lib.rs")).is_file():
            print(f"check_layers: {src / spec.get('root', 'lib.rs')} does not exist", file=sys.stderr)
            return 2
        problems += check_crate(src, spec, a.graph)
    for p in problems:
        print(p)
    if problems:
        print(f"check_layers: {sum(1 for p in problems if not p.startswith('    '))} problem(s)")
        return 1
    print(f"check_layers: {len(crates)} crates, no import cycle, no upward import")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
