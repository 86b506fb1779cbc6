#!/usr/bin/env python3
"""The checked C ABI of sigkern: abi/sigkern.abi.

    python3 abi/abi.py check  [--lib target/release/libsigkern.so] [--header include/sigkern.h]
    python3 abi/abi.py update [...]        (what `make abi` runs)

The list holds every function the shared library exports with its prototype (parameter names
left out: they are not part of the ABI), every constant the header defines with its value, and
every type it declares. `check` fails when

  - the library exports a symbol the list does not have, or stops exporting one it has (`nm -D`);
  - a prototype, a constant's value or a type in the header differs from the list;
  - the header declares something without the sigkern prefix (sk_, SK_, Sk, SIGKERN_), other than
    the two seed functions `copy` and `process_data`;
  - a function in the header is not exported, or an exported symbol is not in the header.

`update` rewrites the list from the header after the same consistency checks (export = header,
prefixes), so an addition or a change to the C API updates abi/sigkern.abi in the same commit.
Only the standard library is used.
"""

import argparse
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ABI_FILE = ROOT / "abi" / "sigkern.abi"
UPDATE_CMD = "make abi"
SEED_FUNCTIONS = {"copy", "process_data"}
# Macros that are not part of the ABI: the include guard and the version numbers (checked
# against Cargo.toml by tests/header.rs).
IGNORED_MACROS = {"SIGKERN_H", "SIGKERN_VERSION_MAJOR", "SIGKERN_VERSION_MINOR", "SIGKERN_VERSION_PATCH"}

HEADER_TEXT = """\
# The C ABI of sigkern: every function libsigkern.so exports, with its prototype, and every
# constant and type sigkern.h declares. Generated from include/sigkern.h and `nm -D` by
# `{cmd}` (abi/abi.py); `make abi-check`, part of `make test`, fails when the library or the
# header differs from this file. Change it only together with the C API, in the same commit,
# and follow the versioning rule in docs/c.md.
"""


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


def drop_param_name(param):
    param = " ".join(param.split())
    if param in ("void", "...") or "(" in param:
        return param
    # `const float *a` -> `const float *`, `size_t n` -> `size_t`, `float x[4]` -> `float[4]`
    m = re.match(r"^(.*?[\s*])([A-Za-z_]\w*)((?:\[[^\]]*\])*)$", param)
    if not m or not m.group(1).strip():
        return param
    return (m.group(1).rstrip() + m.group(3)).replace(" *", " *").strip()


def parse_header(path):
    """Returns (functions {name: prototype}, constants {name: value}, types {name: decl})."""
    text = strip_comments(Path(path).read_text())
    constants, types, functions = {}, {}, {}
    body = []
    for line in text.splitlines():
        s = line.strip()
        if s.startswith("#"):
            m = re.match(r"#\s*define\s+(\w+)(?:\s+(.*))?$", s)
            if m and m.group(1) not in IGNORED_MACROS:
                constants[m.group(1)] = " ".join((m.group(2) or "").split())
            continue
        body.append(line)
    body = "\n".join(body)
    body = re.sub(r'extern\s+"C"\s*\{', " ", body)
    # a struct's fields are part of its type (their layout is ABI): one statement per typedef
    body = re.sub(r"\{([^{}]*)\}", lambda m: "{" + m.group(1).replace(";", ",") + "}", body)
    for stmt in body.split(";"):
        stmt = " ".join(stmt.split())
        if stmt == "}":  # the end of extern "C"
            continue
        if not stmt:
            continue
        if stmt.startswith("typedef"):
            name = re.findall(r"\w+", stmt)[-1]
            types[name] = stmt + ";"
            continue
        m = re.match(r"^(.*?)\b([A-Za-z_]\w*)\s*\((.*)\)$", stmt)
        if not m:
            raise SystemExit(f"abi.py: cannot parse this declaration in {path}: {stmt!r}")
        ret, name, params = m.group(1).strip(), m.group(2), m.group(3)
        params = ", ".join(drop_param_name(p) for p in params.split(",")) if params.strip() else "void"
        functions[name] = f"{ret} {name}({params});".replace("* ", "*").replace(" *", " *")
    return functions, constants, types


def exported_symbols(lib):
    try:
        out = subprocess.run(
            ["nm", "-D", "--defined-only", str(lib)], check=True, capture_output=True, text=True
        ).stdout
    except FileNotFoundError:
        raise SystemExit("abi.py: `nm` not found (binutils): install it, e.g. apt-get install binutils")
    except subprocess.CalledProcessError as e:
        raise SystemExit(f"abi.py: nm -D {lib} failed: {e.stderr.strip()}")
    symbols = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) >= 3:
            symbols[parts[2].split("@")[0]] = parts[1]
    return symbols


def prefix_problems(functions, constants, types):
    bad = []
    bad += [f"function {n}" for n in functions if not n.startswith("sk_") and n not in SEED_FUNCTIONS]
    bad += [f"constant {n}" for n in constants if not n.startswith(("SK_", "SIGKERN_"))]
    bad += [f"type {n}" for n in types if not n.startswith("Sk")]
    return [f"include/sigkern.h declares {b} without the sigkern prefix (sk_, SK_, Sk, SIGKERN_)" for b in bad]


def export_problems(functions, exports):
    problems = []
    for name in sorted(set(exports) - set(functions)):
        problems.append(f"{name}: exported by the library (nm -D: {exports[name]}) but not declared in the header")
    for name in sorted(set(functions) - set(exports)):
        problems.append(f"{name}: declared in the header but not exported by the library")
    return problems


def render(functions, constants, types):
    lines = [HEADER_TEXT.format(cmd=UPDATE_CMD)]
    lines += [f"const {n} {v}" for n, v in sorted(constants.items())]
    lines += [f"type {n} {d}" for n, d in sorted(types.items())]
    lines += [f"func {n} {p}" for n, p in sorted(functions.items())]
    return "\n".join(lines) + "\n"


def parse_abi(text):
    entries = {}
    for line in text.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        kind, name, rest = line.split(" ", 2)
        entries[(kind, name)] = rest
    return entries


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("mode", choices=["check", "update"])
    ap.add_argument("--lib", default=str(ROOT / "target" / "release" / "libsigkern.so"))
    ap.add_argument("--header", default=str(ROOT / "include" / "sigkern.h"))
    ap.add_argument("--abi", default=str(ABI_FILE), help="the list (default abi/sigkern.abi)")
    args = ap.parse_args()
    abi_file = Path(args.abi)

    functions, constants, types = parse_header(args.header)
    exports = exported_symbols(args.lib)
    problems = prefix_problems(functions, constants, types) + export_problems(functions, exports)

    if args.mode == "update":
        if problems:
            print("\n".join(problems), file=sys.stderr)
            raise SystemExit("abi.py: not updating abi/sigkern.abi until the problems above are fixed")
        abi_file.write_text(render(functions, constants, types))
        print(f"wrote {abi_file}: {len(functions)} functions, "
              f"{len(constants)} constants, {len(types)} types")
        return

    if not abi_file.exists():
        raise SystemExit(f"abi.py: {abi_file} is missing: run `{UPDATE_CMD}` and commit it")
    listed = parse_abi(abi_file.read_text())
    listed_funcs = {n for (k, n) in listed if k == "func"}
    for name in sorted(set(exports) - listed_funcs):
        problems.append(f"{name}: exported by the library but not in abi/sigkern.abi")
    for name in sorted(listed_funcs - set(exports)):
        problems.append(f"{name}: listed in abi/sigkern.abi but no longer exported by the library")
    current = parse_abi(render(functions, constants, types))
    for key in sorted(set(current) | set(listed)):
        kind, name = key
        if kind == "func" and (name not in exports or name not in listed_funcs):
            continue  # reported above
        was, now = listed.get(key), current.get(key)
        if was == now:
            continue
        if was is None:
            problems.append(f"{kind} {name}: in include/sigkern.h but not in abi/sigkern.abi")
        elif now is None:
            problems.append(f"{kind} {name}: in abi/sigkern.abi but gone from include/sigkern.h")
        else:
            problems.append(f"{kind} {name} changed:\n    abi/sigkern.abi:   {was}\n    include/sigkern.h: {now}")
    if problems:
        print("\n".join(problems), file=sys.stderr)
        raise SystemExit(
            f"\nabi.py: the C ABI differs from abi/sigkern.abi ({len(problems)} difference(s)).\n"
            f"If the change is intended, run `{UPDATE_CMD}` and commit abi/sigkern.abi with it "
            f"(and bump the version as docs/c.md says)."
        )
    print(f"abi/sigkern.abi matches: {len(listed_funcs)} exported functions, "
          f"{sum(1 for k, _ in listed if k == 'const')} constants, "
          f"{sum(1 for k, _ in listed if k == 'type')} types")


if __name__ == "__main__":
    main()
