#!/usr/bin/env python3
"""Links the release build's code into a ``libsigkern.so`` that runs on glibc 2.17 (manylinux2014).

A shared library linked on this machine records the symbol versions of its glibc (e.g.
``pthread_create@GLIBC_2.34``), so it will not load on an older one. Rust's standard library
itself needs only glibc 2.17 on x86-64; the newer versions come from the link alone. This links
the same machine code again, with zig's linker (the ``ziglang`` package from PyPI, pinned in
requirements.txt) against zig's glibc 2.17 stubs:

- the code is the release build's own: the one LTO object of ``target/release/libsigkern.a``
  (``crate-type`` has ``staticlib``; cargo builds it together with the ``.so``), so the wheel
  ships exactly the optimised code the tests ran, with no second Rust build;
- the exported symbols are those of the build's ``libsigkern.so`` (a version script), and so is
  its SONAME; the result is stripped;
- afterwards every exported function must have the same size as in the build's ``.so``, no
  symbol may need a glibc version above the target, and the library may need only the glibc
  family (the unwinder is zig's libunwind, linked in, instead of ``libgcc_s``).

``cargo zigbuild --target x86_64-unknown-linux-gnu.2.17`` gives the same kind of library from a
second full build (docs/python.md); this is the link step alone.

Usage: tools/manylinux_lib.py STATICLIB REFERENCE_SO OUT [--glibc 2.17]
"""

from __future__ import annotations

import argparse
import os
import pathlib
import re
import subprocess
import sys
import tempfile

#: Libraries a manylinux2014 wheel may need from the system (PEP 599, the glibc family).
ALLOWED_NEEDED = {"libc.so.6", "libm.so.6", "libpthread.so.0", "libdl.so.2", "librt.so.1",
                  "ld-linux-x86-64.so.2", "libgcc_s.so.1", "libutil.so.1"}

#: What rustc links a cdylib for x86_64-unknown-linux-gnu against (Makefile LIBS_PRIVATE).
SYSTEM_LIBS = ["-lgcc_s", "-lutil", "-lrt", "-lpthread", "-lm", "-ldl", "-lc"]


def run(cmd: list[str]) -> str:
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


def exported(so: pathlib.Path) -> dict[str, int]:
    """Defined dynamic symbols of ``so`` with their sizes."""
    out = {}
    for line in run(["nm", "-D", "-S", "--defined-only", str(so)]).splitlines():
        parts = line.split()
        if len(parts) == 4:
            out[parts[3]] = int(parts[1], 16)
        elif len(parts) == 3:  # no size (e.g. an absolute symbol)
            out[parts[2]] = 0
    return out


def soname(so: pathlib.Path) -> str:
    m = re.search(r"\(SONAME\)\s+Library soname: \[([^\]]+)\]", run(["readelf", "-d", str(so)]))
    if not m:
        sys.exit(f"{so} has no SONAME")
    return m.group(1)


def zig_cc() -> list[str]:
    try:
        import ziglang  # noqa: F401  (only to give a clear message when it is missing)
    except ImportError:
        sys.exit("the ziglang package is missing: pip install -r requirements.txt (it pins ziglang)")
    return [sys.executable, "-m", "ziglang", "cc"]


def check(out: pathlib.Path, ref: pathlib.Path, glibc: str) -> None:
    want, have = exported(ref), exported(out)
    if want != have:
        diff = sorted(set(want.items()) ^ set(have.items()))[:10]
        sys.exit(f"{out}: exported symbols differ from {ref} (name, size): {diff}")
    limit = tuple(int(p) for p in glibc.split("."))
    versions = set(re.findall(r"GLIBC_([0-9.]+)", run(["objdump", "-T", str(out)])))
    newer = sorted(v for v in versions if tuple(int(p) for p in v.split(".")) > limit)
    if newer:
        sys.exit(f"{out} needs glibc versions above {glibc}: {newer}")
    needed = set(re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]",
                            run(["readelf", "-d", str(out)])))
    if needed - ALLOWED_NEEDED:
        sys.exit(f"{out} needs libraries outside glibc: {sorted(needed - ALLOWED_NEEDED)}")
    if soname(out) != soname(ref):
        sys.exit(f"{out}: SONAME {soname(out)} is not {soname(ref)}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("staticlib", type=pathlib.Path, help="target/release/libsigkern.a")
    ap.add_argument("reference", type=pathlib.Path, help="target/release/libsigkern.so")
    ap.add_argument("out", type=pathlib.Path)
    ap.add_argument("--glibc", default="2.17")
    a = ap.parse_args()
    for p in (a.staticlib, a.reference):
        if not p.is_file():
            sys.exit(f"{p} is missing: build the library first (make build)")
    names = sorted(exported(a.reference))
    a.out.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        script = pathlib.Path(tmp) / "exports.map"
        script.write_text("{\n  global:\n" + "".join(f"    {n};\n" for n in names)
                          + "  local: *;\n};\n")
        cmd = zig_cc() + [
            "-target", f"x86_64-linux-gnu.{a.glibc}", "-shared", "-o", str(a.out),
            f"-Wl,--version-script={script}", "-Wl,--gc-sections", "-Wl,--eh-frame-hdr",
            "-Wl,-z,relro,-z,now", "-Wl,-z,noexecstack", f"-Wl,-soname,{soname(a.reference)}",
            "-Wl,--whole-archive", str(a.staticlib), "-Wl,--no-whole-archive",
            *SYSTEM_LIBS, "-s",
        ]
        env = dict(os.environ)
        # zig keeps its compiled glibc stubs and libunwind in a cache (about 50 MB, seconds to fill)
        env.setdefault("ZIG_GLOBAL_CACHE_DIR", str(pathlib.Path.home() / ".cache" / "zig"))
        r = subprocess.run(cmd, capture_output=True, text=True, env=env)
        if r.returncode != 0:
            sys.exit(f"zig cc failed ({r.returncode}):\n{' '.join(cmd)}\n{r.stderr}")
    check(a.out, a.reference, a.glibc)
    print(f"{a.out}: {len(names)} exported symbols as in {a.reference}, glibc <= {a.glibc}")


if __name__ == "__main__":
    main()
