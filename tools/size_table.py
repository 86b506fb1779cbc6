#!/usr/bin/env python3
"""Code size of the release library per source module.

Reads the one LTO object of ``target/release/libsigkern.a`` (cargo builds it with the ``.so``:
the same machine code, with its symbol table, which the stripped ``.so`` lacks), keeps the
functions that a link like the ``.so``'s keeps, and sums their sizes by the source module they
come from. Out-of-line helpers that carry a
kernel's body (``simd::tile::call_*`` trampolines, closures, multiversion clones) are counted
for the module of the function that calls them, found through the object's relocations; those
reached only through a pointer (e.g. a thread pool's job) are counted under their own name.

Usage: tools/size_table.py [LIBSIGKERN_A] [--depth N] [--top N] [--match TEXT]
  --depth  module path components below ``sigkern`` to group by (default 3:
           kernels::spectral::fft); dependencies are grouped by crate
  --match  list the largest functions whose module or name contains TEXT instead

Needs pyelftools (installed with auditwheel, requirements.txt) and c++filt (binutils).
"""

from __future__ import annotations

import argparse
import collections
import pathlib
import re
import subprocess
import sys
import tempfile

from elftools.elf.elffile import ELFFile
from elftools.elf.relocation import RelocationSection

ROOT = pathlib.Path(__file__).resolve().parent.parent


def lto_object(archive: pathlib.Path, tmp: pathlib.Path) -> pathlib.Path:
    """The archive's largest member (the crate's code after LTO)."""
    members = subprocess.run(["ar", "t", str(archive)], capture_output=True, text=True,
                             check=True).stdout.split()
    ours = sorted({m for m in members if m.startswith("sigkern.")})
    subprocess.run(["ar", "x", str(archive), *ours], cwd=tmp, check=True)
    return max((tmp / m for m in ours), key=lambda p: p.stat().st_size)


def live_functions(archive: pathlib.Path, tmp: pathlib.Path) -> set[str]:
    """Functions that survive linking the shared library: the archive linked as the ``.so`` next
    to it is (its exported symbols, ``--gc-sections``) without stripping. The LTO object also
    holds code the linker drops (nothing calls it)."""
    so = archive.with_suffix(".so")
    exports = subprocess.run(["nm", "-D", "--defined-only", str(so)], capture_output=True,
                             text=True, check=True).stdout.split("\n")
    script = tmp / "exports.map"
    script.write_text("{ global:\n" + "".join(f"  {ln.split()[-1]};\n" for ln in exports if ln.strip())
                      + "local: *; };\n")
    out = tmp / "unstripped.so"
    subprocess.run(["cc", "-shared", "-o", str(out), f"-Wl,--version-script={script}",
                    "-Wl,--gc-sections", "-Wl,--whole-archive", str(archive), "-Wl,--no-whole-archive",
                    "-lgcc_s", "-lutil", "-lrt", "-lpthread", "-lm", "-ldl", "-lc"], check=True)
    syms = subprocess.run(["nm", "--defined-only", str(out)], capture_output=True, text=True,
                          check=True).stdout.split("\n")
    return {ln.split()[-1] for ln in syms if ln.strip()}


def strip_generics(name: str) -> str:
    while True:
        shorter = re.sub(r"<[^<>]*>", "", name)
        if shorter == name:
            return name
        name = shorter


def source_module(parts: list[str], depth: int) -> str:
    """The module path of ``sigkern::a::b::...`` down to the deepest existing source file, at
    most ``depth`` components."""
    path, mod = ROOT / "src", []
    for p in parts[:depth]:
        if (path / p).is_dir():
            path, mod = path / p, mod + [p]
        elif (path / f"{p}.rs").is_file():
            mod.append(p)
            break
        else:
            break
    return "::".join(mod) or "(crate root)"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("archive", nargs="?", type=pathlib.Path,
                    default=ROOT / "target" / "release" / "libsigkern.a")
    ap.add_argument("--depth", type=int, default=3)
    ap.add_argument("--top", type=int, default=30)
    ap.add_argument("--match")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        obj = lto_object(a.archive, pathlib.Path(tmp))
        live = live_functions(a.archive, pathlib.Path(tmp))
        with open(obj, "rb") as f:
            elf = ELFFile(f)
            syms = list(elf.get_section_by_name(".symtab").iter_symbols())
            funcs = {s.name: (s["st_size"], s["st_shndx"]) for s in syms
                     if s["st_info"]["type"] == "STT_FUNC" and s["st_shndx"] != "SHN_UNDEF"
                     and s.name in live}
            section_fn: dict = {}
            for name, (_, sh) in funcs.items():
                section_fn.setdefault(sh, name)
            callers = collections.defaultdict(set)
            for sec in elf.iter_sections():
                if not isinstance(sec, RelocationSection):
                    continue
                caller = section_fn.get(sec["sh_info"])
                if caller is None:
                    continue
                for r in sec.iter_relocations():
                    sym = syms[r["r_info_sym"]]
                    callee = (section_fn.get(sym["st_shndx"]) if sym["st_info"]["type"] == "STT_SECTION"
                              else sym.name)
                    if callee in funcs and callee != caller:
                        callers[callee].add(caller)
    names = sorted(funcs)
    demangled = subprocess.run(["c++filt"], input="\n".join(names), capture_output=True,
                               text=True, check=True).stdout.split("\n")
    dm = {n: re.sub(r"::h[0-9a-f]{16}$", "", d) for n, d in zip(names, demangled)}

    def module(n: str) -> str:
        parts = strip_generics(dm[n]).split("::")
        if parts[0] == "sigkern":
            return source_module(parts[1:], a.depth)
        if parts[0].startswith("sk_") or parts[0] in ("copy", "process_data"):
            return "ffi (exported functions)"
        return parts[0] or "(unnamed)"

    helper = re.compile(r"^(simd(::tile)?|core|alloc|std)$")

    def owner(n: str, seen: tuple = ()) -> str:
        m = module(n)
        if helper.match(m) and n not in seen:
            owners = {owner(c, seen + (n,)) for c in callers.get(n, ())}
            if len(owners) == 1:
                return owners.pop()
            if len(owners) > 1:
                return f"{m} (shared)"
        return m

    total = sum(s for s, _ in funcs.values())
    if a.match:
        rows = sorted(((s, owner(n), dm[n]) for n, (s, _) in funcs.items()
                       if a.match in owner(n) or a.match in dm[n]), reverse=True)
        for s, o, d in rows[:a.top]:
            print(f"{s:9d}  {o[:36]:36s}  {d[:140]}")
        return
    size, count = collections.Counter(), collections.Counter()
    for n, (s, _) in funcs.items():
        o = owner(n)
        size[o] += s
        count[o] += 1
    print(f"{'module':44s} {'KiB':>8s} {'share':>6s} {'functions':>9s}")
    for m, s in size.most_common(a.top):
        print(f"{m[:44]:44s} {s / 1024:8.0f} {100 * s / total:5.1f}% {count[m]:9d}")
    rest = total - sum(s for _, s in size.most_common(a.top))
    if rest:
        print(f"{'(the rest)':44s} {rest / 1024:8.0f} {100 * rest / total:5.1f}%")
    print(f"{'total':44s} {total / 1024:8.0f} {100.0:5.1f}% {len(funcs):9d}")


if __name__ == "__main__":
    if not pathlib.Path(sys.argv[1] if len(sys.argv) > 1 and not sys.argv[1].startswith("-")
                        else ROOT / "target" / "release" / "libsigkern.a").exists():
        sys.exit("no libsigkern.a: build the release library first (make build)")
    main()
