//! Library-level functions: status names, last-error message, version, SIMD level.

use super::guard::{ffi_boundary, with_last_error};
use crate::error::status_name;
use libc::c_char;
use std::ffi::CStr;

/// The library version as a NUL-terminated string, taken from Cargo.toml at build time.
const VERSION: &CStr =
    match CStr::from_bytes_with_nul(concat!(env!("CARGO_PKG_VERSION"), "\0").as_bytes()) {
        Ok(v) => v,
        Err(_) => panic!("version string has an interior NUL"),
    };

/// Returns the static, NUL-terminated name of a status code, e.g. `"SK_ERR_NULL_POINTER"` for
/// `SK_ERR_NULL_POINTER`, and `"SK_UNKNOWN_STATUS"` for a code the library never returns.
/// The string is never freed by the caller. Thread-safe.
///
/// Real-time safe: yes.
#[no_mangle]
pub extern "C" fn sk_status_name(code: i32) -> *const c_char {
    ffi_boundary!(
        "sk_status_name",
        on_error = |_| c"SK_ERR_INTERNAL".as_ptr(),
        {
            Ok(match status_name(code) {
                Some(name) => name_cstr(name).as_ptr(),
                None => c"SK_UNKNOWN_STATUS".as_ptr(),
            })
        }
    )
}

fn name_cstr(name: &str) -> &'static CStr {
    match name {
        "SK_OK" => c"SK_OK",
        "SK_ERR_NULL_POINTER" => c"SK_ERR_NULL_POINTER",
        "SK_ERR_LENGTH" => c"SK_ERR_LENGTH",
        "SK_ERR_MISALIGNED" => c"SK_ERR_MISALIGNED",
        "SK_ERR_OVERLAP" => c"SK_ERR_OVERLAP",
        "SK_ERR_BAD_ARGUMENT" => c"SK_ERR_BAD_ARGUMENT",
        "SK_ERR_NON_FINITE" => c"SK_ERR_NON_FINITE",
        "SK_ERR_INVALID_HANDLE" => c"SK_ERR_INVALID_HANDLE",
        "SK_ERR_ALLOCATION" => c"SK_ERR_ALLOCATION",
        "SK_ERR_INTERNAL" => c"SK_ERR_INTERNAL",
        "SK_ERR_BUFFER_TOO_SMALL" => c"SK_ERR_BUFFER_TOO_SMALL",
        _ => c"SK_UNKNOWN_STATUS",
    }
}

/// Copies the calling thread's message for its most recent failed call into `buf`.
///
/// The message names the function and the argument, e.g.
/// `"sk_add_f32: argument b is NULL but n = 16"`. A successful call does not clear it (like
/// `errno`); a thread that has never failed gets an empty string.
///
/// - `buf`, `cap`: at most `cap - 1` bytes are copied and a NUL is always written when
///   `cap > 0` (truncation never splits a UTF-8 character). `buf = NULL` (or `cap = 0`) writes
///   nothing and only queries the length.
/// - Returns the full length of the message in bytes, without the NUL: allocate
///   `returned + 1` bytes to get it whole.
///
/// Thread-safe: each thread has its own message.
///
/// Real-time safe: yes.
///
/// # Safety
/// `buf`, if not NULL, must point to `cap` writable bytes.
#[no_mangle]
pub unsafe extern "C" fn sk_last_error_message(buf: *mut c_char, cap: usize) -> usize {
    ffi_boundary!("sk_last_error_message", on_error = |_| 0, {
        Ok(with_last_error(|msg| {
            if !buf.is_null() && cap > 0 {
                let mut take = msg.len().min(cap - 1);
                while !msg.is_char_boundary(take) {
                    take -= 1;
                }
                // SAFETY: the caller guarantees `cap` writable bytes at `buf`; take + 1 <= cap.
                unsafe {
                    std::ptr::copy_nonoverlapping(msg.as_ptr(), buf as *mut u8, take);
                    *buf.add(take) = 0;
                }
            }
            msg.len()
        }))
    })
}

/// Returns the library version, e.g. `"0.1.0"`: a static NUL-terminated string equal to
/// `SIGKERN_VERSION_MAJOR.SIGKERN_VERSION_MINOR.SIGKERN_VERSION_PATCH` of the header the library
/// was built with. Thread-safe.
///
/// Real-time safe: yes.
#[no_mangle]
pub extern "C" fn sk_version() -> *const c_char {
    ffi_boundary!("sk_version", on_error = |_| c"".as_ptr(), {
        Ok(VERSION.as_ptr())
    })
}

/// Returns the name of the SIMD level the kernels use: `"avx512"`, `"avx2"`, `"sse2"`
/// (x86-64 baseline), `"neon"` (AArch64 baseline) or `"scalar"` (reference loops).
///
/// The best level the CPU supports is detected on first use; the environment variable
/// `SIGKERN_SIMD` (read once, at that first use) may force a lower one (`scalar`, `sse2`,
/// `avx2`, `avx512`); a request above the CPU's support is clamped and an unknown value is
/// ignored. Static string. Thread-safe.
///
/// Real-time safe: yes.
#[no_mangle]
pub extern "C" fn sk_simd_level() -> *const c_char {
    ffi_boundary!("sk_simd_level", on_error = |_| c"scalar".as_ptr(), {
        Ok(crate::simd::current().c_name().as_ptr())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::STATUS_NAMES;

    #[test]
    fn names_match_the_table() {
        for (code, name) in STATUS_NAMES {
            // SAFETY: sk_status_name returns a pointer to a static NUL-terminated string for every
            // code.
            let got = unsafe { CStr::from_ptr(sk_status_name(code)) };
            assert_eq!(got.to_str().unwrap(), name);
        }
        // SAFETY: sk_status_name returns a pointer to a static NUL-terminated string for every
        // code.
        let got = unsafe { CStr::from_ptr(sk_status_name(12345)) };
        assert_eq!(got.to_str().unwrap(), "SK_UNKNOWN_STATUS");
    }

    #[test]
    fn message_copy_truncates_on_char_boundary() {
        super::super::guard::set_last_error("f", "héllo");
        // SAFETY: a NULL buffer with capacity 0 is only measured, never written.
        let full = unsafe { sk_last_error_message(std::ptr::null_mut(), 0) };
        assert_eq!(full, "f: héllo".len());
        let mut buf = [0x55 as c_char; 6];
        // room for 5 bytes: "f: h" + first byte of 'é' would split it, so 4 bytes + NUL
        // SAFETY: `buf` holds 6 bytes, the capacity passed.
        assert_eq!(unsafe { sk_last_error_message(buf.as_mut_ptr(), 6) }, full);
        // SAFETY: sk_last_error_message NUL-terminated `buf` within its 6 bytes.
        let s = unsafe { CStr::from_ptr(buf.as_ptr()) };
        assert_eq!(s.to_str().unwrap(), "f: h");
        assert_eq!(buf[5], 0x55);
        let mut one = [0x55 as c_char; 1];
        // SAFETY: `one` holds 1 byte, the capacity passed.
        unsafe { sk_last_error_message(one.as_mut_ptr(), 1) };
        assert_eq!(one[0], 0);
    }

    #[test]
    fn version_matches_cargo() {
        // SAFETY: sk_version returns a pointer to a static NUL-terminated string.
        let v = unsafe { CStr::from_ptr(sk_version()) };
        assert_eq!(v.to_str().unwrap(), env!("CARGO_PKG_VERSION"));
    }
}
