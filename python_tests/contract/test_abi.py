"""abi/abi.py, the checker behind `make abi-check`, catches every kind of ABI change it is meant
to: run on altered copies of the list and of the header against the built library."""

import shutil
import subprocess
import sys

import pytest

from sk_header import INCLUDE, ROOT

ABI = ROOT / "abi" / "sigkern.abi"

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux") or shutil.which("nm") is None, reason="needs GNU nm on Linux"
)


def check(lib_path, abi, header):
    return subprocess.run(
        [sys.executable, str(ROOT / "abi" / "abi.py"), "check", "--lib", str(lib_path),
         "--abi", str(abi), "--header", str(header)],
        capture_output=True, text=True,
    )


@pytest.fixture
def copies(tmp_path):
    abi, header = tmp_path / "sigkern.abi", tmp_path / "sigkern.h"
    shutil.copy(ABI, abi)
    shutil.copy(INCLUDE / "sigkern.h", header)
    return abi, header


def edit(path, old, new):
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new, 1))


def test_committed_list_matches_library_and_header(lib_path, copies):
    r = check(lib_path, *copies)
    assert r.returncode == 0, r.stderr
    assert "matches" in r.stdout


def test_export_missing_from_the_list_fails(lib_path, copies):
    abi, header = copies
    lines = [l for l in abi.read_text().splitlines(True) if not l.startswith("func sk_add_f32 ")]
    abi.write_text("".join(lines))
    r = check(lib_path, abi, header)
    assert r.returncode != 0
    assert "sk_add_f32: exported by the library but not in abi/sigkern.abi" in r.stderr
    assert "make abi" in r.stderr


def test_listed_symbol_that_disappeared_fails(lib_path, copies):
    abi, header = copies
    abi.write_text(abi.read_text() + "func sk_gone_f32 int32_t sk_gone_f32(const float *, size_t);\n")
    r = check(lib_path, abi, header)
    assert r.returncode != 0
    assert "sk_gone_f32: listed in abi/sigkern.abi but no longer exported" in r.stderr


def test_changed_prototype_fails(lib_path, copies):
    abi, header = copies
    edit(header, "int32_t sk_scale_f32(const float *x, float a,", "int32_t sk_scale_f32(const float *x, double a,")
    r = check(lib_path, abi, header)
    assert r.returncode != 0
    assert "func sk_scale_f32 changed" in r.stderr
    assert "double" in r.stderr


def test_changed_constant_fails(lib_path, copies):
    abi, header = copies
    edit(header, "#define SK_ERR_OVERLAP -4", "#define SK_ERR_OVERLAP -40")
    r = check(lib_path, abi, header)
    assert r.returncode != 0
    assert "const SK_ERR_OVERLAP changed" in r.stderr


def test_unprefixed_name_in_the_header_fails(lib_path, copies):
    abi, header = copies
    edit(header, "#define SK_OK 0", "#define SK_OK 0\n#define TBLOCK 128")
    r = check(lib_path, abi, header)
    assert r.returncode != 0
    assert "constant TBLOCK without the sigkern prefix" in r.stderr


def test_parameter_names_are_not_part_of_the_abi(lib_path, copies):
    abi, header = copies
    edit(header, "int32_t sk_scale_f32(const float *x, float a,", "int32_t sk_scale_f32(const float *src, float gain,")
    r = check(lib_path, abi, header)
    assert r.returncode == 0, r.stderr
