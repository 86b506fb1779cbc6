//! The two functions of the seed documents, exported under exactly their names.
//!
//! Both are declared `void` in the seeds; they return an `int32_t` status here, which a caller
//! that declared them `void` simply ignores (the x86-64 and AArch64 C ABIs return it in a
//! register).

use super::guard::{ffi_boundary, int_len, Buf};
use super::memory::copy_buf;
use crate::error::SkError;
use crate::kernels::elementwise::{unary, DivByOp};
use crate::kernels::reduce::peak;
use crate::kernels::Src;
use crate::simd::current;
use libc::c_int;

/// Seed `void copy(float *in, float *out, int len)`: copies `len` floats from `in` to `out` with
/// memmove semantics (any overlap allowed).
///
/// Returns `SK_OK`; `SK_ERR_LENGTH` for a negative `len`; `SK_ERR_NULL_POINTER` for a NULL
/// pointer with `len > 0`; `SK_ERR_MISALIGNED` for a pointer not 4-byte aligned. On error
/// nothing is written. Thread-safe (stateless).
///
/// Real-time safe: yes.
///
/// # Safety
/// `in` readable and `out` writable for `len` floats.
#[no_mangle]
pub unsafe extern "C" fn copy(r#in: *const f32, out: *mut f32, len: c_int) -> i32 {
    ffi_boundary!("copy", {
        let n = int_len("len", len)?;
        // SAFETY: the caller guarantees `in` readable and `out` writable for `len` floats (the
        // Safety contract above); copy_buf checks both Bufs and handles any overlap through one
        // slice over both.
        unsafe { copy_buf(Buf::new("in", r#in, n), Buf::out("out", out, n)) }
    })
}

/// Seed `void process_data(float *data_ptr, int size)`: peak-normalises `data` in place, so that
/// max |x| becomes exactly 1.0 (each element is divided by the peak).
///
/// An all-zero buffer (or `size == 0`) is left as it is and returns `SK_OK`. Any NaN or ±inf
/// returns `SK_ERR_NON_FINITE` with the buffer untouched. A negative `size` is
/// `SK_ERR_LENGTH`; NULL with `size > 0` is `SK_ERR_NULL_POINTER`; a pointer not 4-byte aligned
/// is `SK_ERR_MISALIGNED`. Thread-safe for distinct buffers.
///
/// Real-time safe: yes.
///
/// # Safety
/// `data` readable and writable for `size` floats.
#[no_mangle]
pub unsafe extern "C" fn process_data(data: *mut f32, size: c_int) -> i32 {
    ffi_boundary!("process_data", {
        let n = int_len("size", size)?;
        let buf = Buf::out("data", data, n);
        buf.check()?;
        // SAFETY: validated; the only live reference to the buffer.
        let y = unsafe { buf.slice_mut() };
        let Some(p) = peak(current(), y) else {
            return Ok(());
        };
        if !p.is_finite() {
            let at = y.iter().position(|v| !v.is_finite()).unwrap_or(0);
            return Err(SkError::NonFinite(format!(
                "data[{at}] = {} is not finite; the buffer was left unchanged",
                y[at]
            )));
        }
        if p > 0.0 {
            unary(Src::Dst, y, DivByOp(p));
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::*;

    #[test]
    fn process_data_normalises_to_exactly_one() {
        let mut d = [0.5f32, -3.0, 1.5, 1e-40];
        // SAFETY: `d` holds 4 floats, the count passed.
        assert_eq!(unsafe { process_data(d.as_mut_ptr(), 4) }, SK_OK);
        assert_eq!(d[1], -1.0);
        assert_eq!(d[0], 0.5 / 3.0);
        let mut z = [0.0f32, -0.0];
        // SAFETY: `z` holds 2 floats, the count passed.
        assert_eq!(unsafe { process_data(z.as_mut_ptr(), 2) }, SK_OK);
        assert_eq!(z[1].to_bits(), (-0.0f32).to_bits());
        let mut bad = [1.0f32, f32::INFINITY, 2.0];
        assert_eq!(
            // SAFETY: `bad` holds 3 floats, the count passed.
            unsafe { process_data(bad.as_mut_ptr(), 3) },
            SK_ERR_NON_FINITE
        );
        assert_eq!(bad[0], 1.0);
        // SAFETY: a negative count is refused before any access.
        assert_eq!(unsafe { process_data(bad.as_mut_ptr(), -1) }, SK_ERR_LENGTH);
        assert_eq!(
            // SAFETY: NULL with count 2 is refused before any access.
            unsafe { copy(bad.as_ptr(), std::ptr::null_mut(), 2) },
            SK_ERR_NULL_POINTER
        );
        assert_eq!(
            // SAFETY: NULL with count 0 is never dereferenced.
            unsafe { copy(bad.as_ptr(), std::ptr::null_mut(), 0) },
            SK_OK
        );
        assert_eq!(
            // SAFETY: a negative count is refused before any access.
            unsafe { copy(bad.as_ptr(), bad.as_mut_ptr(), -5) },
            SK_ERR_LENGTH
        );
    }
}
