//! The committed headers must equal a fresh generation, and carry Cargo.toml's version.

use std::fs;

fn committed(name: &str) -> String {
    fs::read_to_string(format!("{}/include/{name}", env!("CARGO_MANIFEST_DIR")))
        .unwrap_or_else(|e| panic!("include/{name}: {e}"))
}

fn fresh(name: &str) -> String {
    fs::read_to_string(format!("{}/{name}", env!("OUT_DIR"))).unwrap()
}

#[test]
fn committed_headers_are_fresh() {
    for name in ["sigkern.h", "sigkern_cdef.h"] {
        assert!(
            committed(name) == fresh(name),
            "include/{name} differs from what build.rs generates now: run `cargo build` and commit it"
        );
    }
}

#[test]
fn header_version_equals_cargo_version() {
    let h = committed("sigkern.h");
    for (part, value) in [
        ("MAJOR", env!("CARGO_PKG_VERSION_MAJOR")),
        ("MINOR", env!("CARGO_PKG_VERSION_MINOR")),
        ("PATCH", env!("CARGO_PKG_VERSION_PATCH")),
    ] {
        let line = format!("#define SIGKERN_VERSION_{part} {value}\n");
        assert!(h.contains(&line), "missing `{}`", line.trim());
    }
}

#[test]
fn cdef_header_has_no_preprocessor_lines_but_integer_defines() {
    for line in committed("sigkern_cdef.h").lines() {
        let t = line.trim_start();
        if t.starts_with('#') {
            let parts: Vec<&str> = t.split_whitespace().collect();
            assert_eq!(parts.len(), 3, "{line}");
            assert_eq!(parts[0], "#define", "{line}");
            assert!(parts[2].parse::<i64>().is_ok(), "{line}");
        }
    }
}
