"""sk_version() agrees with the SIGKERN_VERSION_* defines of include/sigkern.h, the cdef header
and Cargo.toml."""

import re
import tomllib

from sk_header import ROOT


def test_version_everywhere_agrees(sk, ffi):
    header = (ROOT / "include" / "sigkern.h").read_text()
    parts = [int(re.search(rf"#define SIGKERN_VERSION_{p} (\d+)", header).group(1))
             for p in ("MAJOR", "MINOR", "PATCH")]
    cargo = tomllib.loads((ROOT / "Cargo.toml").read_text())["package"]["version"]
    got = ffi.string(sk.sk_version()).decode()
    assert got == "%d.%d.%d" % tuple(parts) == cargo
    assert [sk.SIGKERN_VERSION_MAJOR, sk.SIGKERN_VERSION_MINOR, sk.SIGKERN_VERSION_PATCH] == parts
    assert sk.sk_version() == sk.sk_version()  # a static string: the same pointer every time
