#!/usr/bin/env python3
"""The module graph of src/: which file uses which, and whether any files use each other in a
circle.

    tools/import_graph.py            print every file and the files it uses, then the cycles
    tools/import_graph.py --check    print only the cycles; exit 1 if there is one that is not
                                     on the allow-list below
    tools/import_graph.py --dot      the graph in Graphviz dot format

An arrow `a.rs -> b.rs` means a.rs names an item or module defined in b.rs, through a `use`
declaration or a path in code (`crate::…`, `super::…`, `self::…`, a child module's name, or a
name a `use` brought in). A path that goes through a re-export (`pub use x::Y;` in a mod.rs) is
followed to the file that defines `Y`; the re-export itself is naming, not use, and is no arrow.
Arrows used only by tests (`#[cfg(test)]` items and modules, `mod tests;` files) are included and
marked `(test)`: a test that needs a sibling's internals is a dependency too. Paths into other
crates (std, rustfft, …) are ignored.

A cycle is a strongly connected set of two or more files. `--check` lists each with the arrows
that close it.
"""

import argparse
import re
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src"

# Cycles that --check tolerates: each entry is the exact set of files of one cycle (paths under
# src/), or a folder whose files may form cycles among themselves. Keep this empty: an entry is
# only for a circle another change is already removing.
ALLOWED_CYCLES = []


def allowed(cycle):
    """Whether a cycle (sorted list of files) is on the allow-list."""
    for entry in ALLOWED_CYCLES:
        if isinstance(entry, str):
            if all(f == entry + ".rs" or f.startswith(entry + "/") for f in cycle):
                return True
        elif set(cycle) == entry:
            return True
    return False

ITEM_KEYWORDS = {"fn", "struct", "enum", "trait", "type", "const", "static", "union"}
EXTERNAL_ROOTS = {"std", "core", "alloc"}


# ----------------------------------------------------------------------------- lexing
TOKEN_RE = re.compile(
    r"""
    (?P<ws>\s+)
  | (?P<line_comment>//[^\n]*)
  | (?P<block_comment>/\*)
  | (?P<raw_string>b?r(?P<hashes>\#*)")
  | (?P<string>b?"(?:\\.|[^"\\])*")
  | (?P<char>b?'(?:\\u\{[0-9a-fA-F]+\}|\\x[0-9a-fA-F]{2}|\\.|[^\\'\n])')
  | (?P<lifetime>'[A-Za-z_][A-Za-z0-9_]*)
  | (?P<ident>\$?[A-Za-z_][A-Za-z0-9_]*)
  | (?P<number>[0-9][0-9A-Za-z_.]*)
  | (?P<path_sep>::)
  | (?P<punct>.)
    """,
    re.VERBOSE | re.DOTALL,
)


def tokens(text):
    """(kind, value, line) for identifiers, `::` and single punctuation characters; comments,
    strings, characters, lifetimes and numbers are dropped."""
    i, line, n = 0, 1, len(text)
    while i < n:
        m = TOKEN_RE.match(text, i)
        kind = m.lastgroup
        if kind == "block_comment":
            depth, j = 1, m.end()
            while depth and j < n:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            line += text.count("\n", i, j)
            i = j
            continue
        if kind == "raw_string":
            end = '"' + m.group("hashes")
            j = text.find(end, m.end())
            j = n if j < 0 else j + len(end)
            line += text.count("\n", i, j)
            i = j
            continue
        value = m.group()
        if kind in ("ident", "path_sep", "punct"):
            yield kind, value, line
        line += value.count("\n")
        i = m.end()


# ---------------------------------------------------------------------------- parsing
class Module:
    def __init__(self, path, file, test):
        self.path = path  # tuple of names below the crate root
        self.file = file  # path of its file under src/
        self.test = test  # only compiled for tests
        self.children = {}  # name -> Module (file and inline modules)
        self.items = set()  # names of items defined at this module's level
        self.imports = {}  # name -> (path segments, test, line) from `use` declarations
        self.globs = []  # (path segments, test) of `use path::*`
        self.refs = []  # (path segments, test, line, via_use, is_pub) to resolve


class Parser:
    """Walks one file's tokens, tracking module scopes, `#[cfg(test)]` and item boundaries."""

    def __init__(self, crate, module):
        self.crate = crate
        self.module = module

    def parse(self, text):
        toks = list(tokens(text))
        self.toks = toks
        # scope stack: (module, test, kind) where kind is "mod" for a module body
        stack = [(self.module, self.module.test, "mod")]
        pending_test = False
        i = 0
        while i < len(toks):
            kind, val, line = toks[i]
            mod, test, scope_kind = stack[-1]
            if val == "#":
                j = i + 1
                if j < len(toks) and toks[j][1] == "!":
                    j += 1
                if j < len(toks) and toks[j][1] == "[":
                    end = self.matching(j)
                    attr = " ".join(t[1] for t in toks[j + 1 : end])
                    if re.match(r"cfg \( (all \( )?test\b", attr):
                        pending_test = True
                    if toks[i + 1][1] == "!" and re.match(r"cfg \( test \)", attr):
                        mod.test = True  # #![cfg(test)] on a file module
                    i = end + 1
                    continue
            if kind == "ident" and val == "mod" and i + 2 < len(toks) and toks[i + 1][0] == "ident":
                name = toks[i + 1][1]
                child_test = test or pending_test
                if toks[i + 2][1] == "{":
                    child = self.crate.add_module(mod.path + (name,), mod.file, child_test)
                    mod.children[name] = child
                    stack.append((child, child_test, "mod"))
                    pending_test = False
                    i += 3
                    continue
                if toks[i + 2][1] == ";":
                    self.crate.declared.append((mod, name, child_test))
                    pending_test = False
                    i += 3
                    continue
            if kind == "ident" and val == "use" and scope_kind in ("mod", "block"):
                is_pub = self.is_pub(i)
                end = self.find_semicolon(i)
                for segs in expand_use(toks[i + 1 : end]):
                    self.add_use(mod, segs, test or pending_test, line, is_pub)
                pending_test = False
                i = end + 1
                continue
            if (
                kind == "ident"
                and scope_kind == "mod"
                and val in ITEM_KEYWORDS
                and i + 1 < len(toks)
                and toks[i + 1][0] == "ident"
            ):
                mod.items.add(toks[i + 1][1])
            if (
                kind == "ident"
                and val == "macro_rules"
                and i + 2 < len(toks)
                and toks[i + 1][1] == "!"
                and scope_kind == "mod"
            ):
                mod.items.add(toks[i + 2][1])
            if kind == "ident" and (i == 0 or toks[i - 1][1] != "::") and self.is_path_start(i):
                segs, j = self.read_path(i)
                if len(segs) > 1 or segs[0] not in ("crate", "$crate", "super", "self"):
                    mod.refs.append((segs, test or pending_test, line, False, False))
                i = j
                continue
            if val == "{":
                stack.append((mod, test or pending_test, "block"))
                pending_test = False
            elif val == "}":
                if len(stack) > 1:
                    stack.pop()
            elif val in (";", ","):
                pending_test = False
            i += 1

    def is_pub(self, i):
        j = i - 1
        if j >= 0 and self.toks[j][1] == ")":
            while j >= 0 and self.toks[j][1] != "(":
                j -= 1
            j -= 1
        return j >= 0 and self.toks[j][1] == "pub"

    def matching(self, j):
        open_, close = self.toks[j][1], {"[": "]", "(": ")", "{": "}"}[self.toks[j][1]]
        depth = 0
        for k in range(j, len(self.toks)):
            if self.toks[k][1] == open_:
                depth += 1
            elif self.toks[k][1] == close:
                depth -= 1
                if depth == 0:
                    return k
        return len(self.toks) - 1

    def find_semicolon(self, i):
        for k in range(i, len(self.toks)):
            if self.toks[k][1] == ";":
                return k
        return len(self.toks)

    def is_path_start(self, i):
        return i + 1 < len(self.toks) and self.toks[i + 1][0] == "path_sep" or self.toks[i][1] in (
            "crate",
            "$crate",
        )

    def read_path(self, i):
        segs = [self.toks[i][1]]
        j = i + 1
        while (
            j + 1 < len(self.toks)
            and self.toks[j][0] == "path_sep"
            and self.toks[j + 1][0] == "ident"
        ):
            segs.append(self.toks[j + 1][1])
            j += 2
        return segs, j

    def add_use(self, mod, segs, test, line, is_pub):
        if segs[-1] == "*":
            mod.globs.append((segs[:-1], test))
            mod.refs.append((segs[:-1], test, line, True, is_pub))
            return
        name = segs[-1]
        alias = name
        if "as" in segs:
            k = segs.index("as")
            alias, segs = segs[k + 1], segs[:k]
        if segs[-1] == "self":
            segs = segs[:-1]
            if alias == "self":
                alias = segs[-1]
        if alias != "_":
            mod.imports[alias] = (segs, test, line)
        mod.refs.append((segs, test, line, True, is_pub))


def expand_use(toks):
    """The paths of a use tree: `a::{b, c::{d as e, self}}` → [a,b], [a,c,d,as,e], [a,c,self]."""
    out = []

    def walk(k, prefix):
        segs = list(prefix)
        while k < len(toks):
            val = toks[k][1]
            if val == "{":
                k += 1
                while k < len(toks) and toks[k][1] != "}":
                    k = walk(k, segs)
                    if k < len(toks) and toks[k][1] == ",":
                        k += 1
                return k + 1
            if val in (",", "}"):
                if segs != list(prefix):
                    out.append(segs)
                return k
            if val == "::":
                k += 1
                continue
            segs.append(val)
            k += 1
        if segs != list(prefix):
            out.append(segs)
        return k

    walk(0, [])
    return [s for s in out if s]


class Crate:
    def __init__(self, src):
        self.src = src
        self.modules = {}  # path tuple -> Module
        self.declared = []

    def add_module(self, path, file, test):
        m = self.modules.get(path)
        if m is None:
            m = Module(path, file, test)
            self.modules[path] = m
        return m

    def load(self):
        root = self.add_module((), "lib.rs", False)
        self.parse_file(root, self.src / "lib.rs")

    def parse_file(self, module, path):
        text = path.read_text(encoding="utf-8")
        start = len(self.declared)
        Parser(self, module).parse(text)
        declared, self.declared = self.declared[start:], self.declared[:start]
        for parent, name, test in declared:
            child_file = self.child_file(parent, name, path)
            if child_file is None:
                continue
            rel = child_file.relative_to(self.src).as_posix()
            child = self.add_module(parent.path + (name,), rel, test)
            parent.children[name] = child
            self.parse_file(child, child_file)

    def child_file(self, parent, name, parent_path):
        # #[path = "…"] attributes: find the literal in the parent's source
        text = parent_path.read_text(encoding="utf-8")
        m = re.search(r'#\[path\s*=\s*"([^"]+)"\]\s*(?:#\[[^\]]*\]\s*)*(?:pub(?:\([^)]*\))?\s+)?mod\s+'
                      + re.escape(name) + r"\s*;", text)
        if m:
            return parent_path.parent / m.group(1)
        if parent_path.name in ("lib.rs", "mod.rs"):
            base = parent_path.parent
        else:
            base = parent_path.parent / parent_path.stem
        # inline modules between the file module and `parent` add directories
        file_mod_depth = len(self.file_module_path(parent))
        for seg in parent.path[file_mod_depth:]:
            base = base / seg
        for cand in (base / f"{name}.rs", base / name / "mod.rs"):
            if cand.exists():
                return cand
        print(f"warning: no file for module {'::'.join(parent.path + (name,))}", file=sys.stderr)
        return None

    def file_module_path(self, module):
        path = module.path
        while path and self.modules[path[:-1]].file == module.file:
            path = path[:-1]
        return path

    # ------------------------------------------------------------------------ resolving
    def start(self, mod, first):
        """The module a path's first segment names, and how many segments that consumed."""
        if first in ("crate", "$crate"):
            return self.modules[()]
        if first == "self":
            return mod
        if first == "super":
            return self.modules[mod.path[:-1]] if mod.path else None
        return None

    def lookup_name(self, mod, name, seen):
        """What `name` means inside module `mod`: a child module, an item, an import. Returns
        (module, remaining item name or None) of the definition, or None if not in the crate."""
        if name in mod.children:
            return mod.children[name], None
        if name in mod.items:
            return mod, name
        if name in mod.imports:
            segs, _, _ = mod.imports[name]
            return self.resolve(mod, segs, seen, from_use=True)
        for segs, _ in mod.globs:
            target = self.resolve(mod, segs, seen, from_use=True)
            if target and target[1] is None:
                found = self.lookup_name(target[0], name, seen | {id(mod)})
                if found:
                    return found
        return None

    def resolve(self, mod, segs, seen=frozenset(), from_use=False):
        """The (module, item) a path names; None if it is not in this crate."""
        if id(mod) in seen and not from_use:
            return None
        key = (mod.path, tuple(segs))
        if key in seen:
            return None
        seen = seen | {key}
        first = segs[0]
        cur = self.start(mod, first)
        k = 1
        if cur is None:
            if first in EXTERNAL_ROOTS:
                return None
            # a name in scope (child module, item, import); otherwise another crate
            found = self.lookup_name(mod, first, seen)
            if found is None:
                return None
            cur, item = found
            if item is not None:
                return cur, item
        while k < len(segs) and segs[k] == "super":
            cur = self.modules[cur.path[:-1]] if cur.path else cur
            k += 1
        while k < len(segs):
            name = segs[k]
            found = self.lookup_name(cur, name, seen)
            if found is None:
                return cur, name
            nxt, item = found
            if item is not None:
                return nxt, item
            cur = nxt
            k += 1
        return cur, None

    def edges(self):
        """{(from_file, to_file): [(line, test)]}"""
        out = defaultdict(list)
        for mod in self.modules.values():
            for segs, test, line, via_use, is_pub in mod.refs:
                res = self.resolve(mod, segs, from_use=via_use)
                if res is None:
                    continue
                target, item = res
                if item is not None and item not in target.items:
                    # an item the module re-exports or glob-imports: follow it
                    found = self.lookup_name(target, item, frozenset())
                    if found is not None:
                        target = found[0]
                if via_use and is_pub:
                    continue  # a re-export is naming, not use
                if target.file == mod.file:
                    continue
                out[(mod.file, target.file)].append((line, test or mod.test))
        return out


# ----------------------------------------------------------------------------- graph
def sccs(nodes, adj):
    """Tarjan's strongly connected components (iterative)."""
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = [0]
    for root in sorted(nodes):
        if root in index:
            continue
        work = [(root, iter(sorted(adj.get(root, ()))))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            advanced = False
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(adj.get(w, ())))))
                    advanced = True
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
    return sorted(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="exit 1 on a cycle not allowed below")
    ap.add_argument("--dot", action="store_true", help="print Graphviz dot")
    ap.add_argument("--src", type=Path, default=SRC, help="the crate's src/ (default: ./src)")
    args = ap.parse_args()

    crate = Crate(args.src)
    crate.load()
    edges = crate.edges()
    files = sorted({m.file for m in crate.modules.values()})
    adj = defaultdict(set)
    for a, b in edges:
        adj[a].add(b)

    if args.dot:
        print("digraph src {\n  rankdir=LR;\n  node [shape=box, fontsize=10];")
        for (a, b), uses in sorted(edges.items()):
            style = " [style=dashed]" if all(t for _, t in uses) else ""
            print(f'  "{a}" -> "{b}"{style};')
        print("}")
        return 0

    if not args.check:
        for f in files:
            outs = sorted(b for (a, b) in edges if a == f)
            print(f)
            for b in outs:
                mark = " (test)" if all(t for _, t in edges[(f, b)]) else ""
                print(f"  -> {b}{mark}")
        print()

    cycles = sccs(files, adj)
    bad = 0
    for comp in cycles:
        ok = allowed(comp)
        label = "allowed cycle" if ok else "cycle"
        bad += not ok
        print(f"{label}: {', '.join(comp)}")
        members = set(comp)
        for a in comp:
            for b in sorted(adj[a] & members):
                lines = ", ".join(
                    f"{ln}{' (test)' if t else ''}" for ln, t in sorted(set(edges[(a, b)]))
                )
                print(f"  {a} -> {b}   (line {lines})")
    n_edges = len(edges)
    print(f"{len(files)} files, {n_edges} arrows, {len(cycles)} cycle(s), {bad} not allowed")
    if args.check and bad:
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
