"""The README stays true: its function table names every exported function, and its two
commands are real make targets."""

import re
import subprocess

from sk_header import INCLUDE, ROOT


def header_functions():
    text = (INCLUDE / "sigkern.h").read_text()
    return set(re.findall(r"^[A-Za-z_][\w \*]*?\b(\w+)\(", text, re.M))


def test_header_parse_finds_the_known_functions():
    names = header_functions()
    assert {"sk_add_f32", "sk_last_error_message", "copy", "process_data"} <= names


def test_readme_table_lists_every_exported_function():
    readme = (ROOT / "README.md").read_text()
    cells = re.findall(r"^\| `([^`]+)`", readme, re.M)
    listed = set()
    for cell in cells:
        name = cell.split("(")[0]
        # `sk_add_f32/f64` and `sk_fir_{f32,f64}_new` stand for both precisions
        m = re.fullmatch(r"(\w+)_f32/f64", name)
        b = re.fullmatch(r"(\w*)\{(\w+),(\w+)\}(\w*)", name)
        if m:
            listed |= {m.group(1) + "_f32", m.group(1) + "_f64"}
        elif b:
            listed |= {b.group(1) + b.group(2) + b.group(4), b.group(1) + b.group(3) + b.group(4)}
        else:
            listed.add(name)
    missing = sorted(header_functions() - listed)
    assert not missing, f"README.md's function table lacks {missing}"
    stale = sorted(n for n in listed - header_functions() if n.startswith("sk_"))
    assert not stale, f"README.md lists functions the header does not declare: {stale}"


def test_readme_commands_are_make_targets():
    readme = (ROOT / "README.md").read_text()
    for target in ("demo", "test"):
        assert f"make {target}" in readme
        out = subprocess.run(["make", "-n", target], cwd=ROOT, capture_output=True, text=True)
        assert out.returncode == 0, out.stderr
