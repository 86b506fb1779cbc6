//! Memory kernels: copy (memmove semantics) and fill.

use super::guard::{ffi_boundary, Buf};
use crate::error::SkResult;
use std::mem::size_of;

/// Copies `n` elements from `src` to `dst`, any overlap allowed (memmove). Shared by
/// `sk_copy_*` and the seed `copy`.
///
/// # Safety
/// `src.ptr` readable and `dst.ptr` writable for their lengths (validated before any access).
pub(crate) unsafe fn copy_buf<T: Copy>(src: Buf<T>, dst: Buf<T>) -> SkResult<()> {
    src.check()?;
    dst.check()?;
    if src.len == 0 {
        return Ok(());
    }
    if src.overlaps(&dst) {
        // Both ranges lie in one allocation; build a single slice spanning both and move
        // within it, so no two live references alias.
        let (s, d) = (src.ptr as usize, dst.ptr as usize);
        let base = if s < d { src.ptr } else { dst.ptr };
        let lo = s.min(d);
        let span = (s.max(d) - lo) / size_of::<T>() + src.len;
        let whole = Buf::new(src.name, base, span);
        whole.check()?;
        // SAFETY: the span is the union of two validated, overlapping ranges.
        let whole = unsafe { whole.slice_mut() };
        let so = (s - lo) / size_of::<T>();
        let dof = (d - lo) / size_of::<T>();
        whole.copy_within(so..so + src.len, dof);
    } else {
        // SAFETY: validated and disjoint.
        unsafe { dst.slice_mut().copy_from_slice(src.slice()) };
    }
    Ok(())
}

/// # Safety
/// `y` writable for `n` elements.
unsafe fn fill_buf<T: Copy>(value: T, y: *mut T, n: usize) -> SkResult<()> {
    let y = Buf::out("y", y, n);
    y.check()?;
    // SAFETY: validated.
    unsafe { y.slice_mut() }.fill(value);
    Ok(())
}

/// Copies `n` floats from `x` to `y` with memmove semantics: any overlap, including `x == y`,
/// is allowed and gives the result of copying through a temporary.
///
/// Arguments: `x`, `y` may be NULL only when `n == 0`; both must be 4-byte aligned.
/// Returns `SK_OK`, `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`, or `SK_ERR_LENGTH` (byte size
/// overflows). On error nothing is written. Thread-safe (stateless).
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable and `y` writable for `n` elements.
#[no_mangle]
pub unsafe extern "C" fn sk_copy_f32(x: *const f32, y: *mut f32, n: usize) -> i32 {
    ffi_boundary!("sk_copy_f32", {
        // SAFETY: the caller guarantees `x` readable and `y` writable for `n` elements (the Safety
        // contract above); copy_buf checks both Bufs and handles any overlap through one slice over
        // both.
        unsafe { copy_buf(Buf::new("x", x, n), Buf::out("y", y, n)) }
    })
}

/// Copies `n` doubles from `x` to `y` with memmove semantics. Rules as `sk_copy_f32`
/// (8-byte alignment).
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable and `y` writable for `n` elements.
#[no_mangle]
pub unsafe extern "C" fn sk_copy_f64(x: *const f64, y: *mut f64, n: usize) -> i32 {
    ffi_boundary!("sk_copy_f64", {
        // SAFETY: the caller guarantees `x` readable and `y` writable for `n` elements (the Safety
        // contract above); copy_buf checks both Bufs and handles any overlap through one slice over
        // both.
        unsafe { copy_buf(Buf::new("x", x, n), Buf::out("y", y, n)) }
    })
}

/// Sets `y[i] = value` for `i < n`. Any value, NaN included, is stored as given.
///
/// Returns `SK_OK`, `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`, `SK_ERR_LENGTH`; on error
/// nothing is written. Thread-safe (stateless).
///
/// Real-time safe: yes.
///
/// # Safety
/// `y` writable for `n` elements.
#[no_mangle]
pub unsafe extern "C" fn sk_fill_f32(value: f32, y: *mut f32, n: usize) -> i32 {
    // SAFETY: the caller guarantees `y` writable for `n` elements (the Safety contract above);
    // fill_buf checks the Buf first.
    ffi_boundary!("sk_fill_f32", { unsafe { fill_buf(value, y, n) } })
}

/// Sets `y[i] = value` for `i < n`. Rules as `sk_fill_f32`.
///
/// Real-time safe: yes.
///
/// # Safety
/// `y` writable for `n` elements.
#[no_mangle]
pub unsafe extern "C" fn sk_fill_f64(value: f64, y: *mut f64, n: usize) -> i32 {
    // SAFETY: the caller guarantees `y` writable for `n` elements (the Safety contract above);
    // fill_buf checks the Buf first.
    ffi_boundary!("sk_fill_f64", { unsafe { fill_buf(value, y, n) } })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::*;

    #[test]
    fn copy_overlapping_both_directions_is_memmove() {
        for shift in [-5isize, -1, 0, 1, 3, 7] {
            let mut buf: Vec<f32> = (0..24).map(|v| v as f32).collect();
            let want = {
                let mut w = buf.clone();
                let src: Vec<f32> = w[6..14].to_vec();
                let d = (6 + shift) as usize;
                w[d..d + 8].copy_from_slice(&src);
                w
            };
            let p = buf.as_mut_ptr();
            // SAFETY: `p + 6` and `p + 6 + shift` (shift in −5..=7) with 8 elements stay inside
            // `buf` of 24 floats.
            let rc = unsafe { sk_copy_f32(p.add(6), p.offset(6 + shift), 8) };
            assert_eq!(rc, SK_OK);
            assert_eq!(buf, want, "shift {shift}");
        }
    }

    #[test]
    fn fill_and_null_rules() {
        let mut y = [1.0f64; 5];
        // SAFETY: `y` holds 5 doubles, the count passed.
        assert_eq!(unsafe { sk_fill_f64(2.5, y.as_mut_ptr(), 5) }, SK_OK);
        assert_eq!(y, [2.5; 5]);
        // SAFETY: a NULL pointer with count 0 is never dereferenced.
        assert_eq!(unsafe { sk_fill_f64(2.5, std::ptr::null_mut(), 0) }, SK_OK);
        assert_eq!(
            // SAFETY: NULL with count 1 is refused before any access.
            unsafe { sk_fill_f64(2.5, std::ptr::null_mut(), 1) },
            SK_ERR_NULL_POINTER
        );
        assert_eq!(
            // SAFETY: `y` holds 5 doubles; the NULL output has count 0 and is never dereferenced.
            unsafe { sk_copy_f64(y.as_ptr(), std::ptr::null_mut(), 0) },
            SK_OK
        );
    }
}
