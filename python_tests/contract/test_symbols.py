"""The shared library exports exactly the functions include/sigkern.h declares: nothing leaks
(no Rust-internal or dependency symbol) and nothing is missing."""

import pathlib
import re
import shutil
import subprocess
import sys

import pytest

from sk_header import ROOT

# Symbols a GNU toolchain may add to any shared object's dynamic table; none of them is a
# function of ours. Listed individually (investigated, not pattern-matched) so anything else
# that appears fails the test.
TOOLCHAIN = {"_init", "_fini", "_edata", "_end", "__bss_start"}


def header_functions(path: pathlib.Path) -> set:
    text = re.sub(r"/\*.*?\*/", "", path.read_text(), flags=re.S)
    text = re.sub(r"^\s*#.*$", "", text, flags=re.M)
    return set(re.findall(r"\b([A-Za-z_]\w*)\s*\([^;{}()]*\)\s*;", text))


def test_cdef_declares_the_same_functions_as_the_header():
    h = header_functions(ROOT / "include" / "sigkern.h")
    c = header_functions(ROOT / "include" / "sigkern_cdef.h")
    assert h == c
    assert {"sk_add_f32", "copy", "process_data", "sk_version"} <= h


@pytest.mark.skipif(not sys.platform.startswith("linux") or shutil.which("nm") is None,
                    reason="needs GNU nm on Linux")
def test_exported_symbols_equal_the_header(lib_path):
    out = subprocess.run(["nm", "-D", "--defined-only", str(lib_path)], capture_output=True,
                         text=True, check=True).stdout
    symbols = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) >= 3:
            symbols[parts[2].split("@")[0]] = parts[1]
    functions = {name for name, kind in symbols.items() if kind in "TWi"}
    other = {name: kind for name, kind in symbols.items() if kind not in "TWi"}
    # no exported data at all, apart from linker-provided markers
    assert set(other) <= TOOLCHAIN, f"unexpected exported data symbols: {other}"
    declared = header_functions(ROOT / "include" / "sigkern.h")
    exported = functions - TOOLCHAIN
    assert not exported - declared, f"exported but not declared: {sorted(exported - declared)}"
    assert not declared - exported, f"declared but not exported: {sorted(declared - exported)}"
