//! Reductions into a scalar out-parameter: sum, mean, min, max, peak, rms, dot.
//!
//! The out-parameter is written only on success, after the whole input has been read, so it may
//! even point into the input.

use super::guard::{check_out_scalar, ffi_boundary, Buf};
use crate::error::{SkError, SkResult};
use crate::kernels::reduce;
use crate::kernels::Float;
use crate::simd::{current, Level};

/// Validates `x` and `out`, runs `f` on the slice, writes the result.
///
/// # Safety
/// `x` readable for `n` elements, `out` writable.
unsafe fn reduce_ffi<T: Float>(
    x: Buf<T>,
    out: *mut T,
    what: &str,
    f: impl FnOnce(Level, &[T]) -> Option<T>,
) -> SkResult<()> {
    x.check()?;
    check_out_scalar("out", out)?;
    // SAFETY: validated.
    let v = f(current(), unsafe { x.slice() }).ok_or_else(|| {
        SkError::Length(format!("n = 0: the {what} of an empty buffer is undefined"))
    })?;
    // SAFETY: validated non-NULL and aligned; caller guarantees writability.
    unsafe { out.write(v) };
    Ok(())
}

/// # Safety
/// `a`, `b` readable for `n` elements, `out` writable.
unsafe fn dot_ffi<T: Float>(a: Buf<T>, b: Buf<T>, out: *mut T) -> SkResult<()> {
    a.check()?;
    b.check()?;
    check_out_scalar("out", out)?;
    // SAFETY: validated; both are only read.
    let v = unsafe { reduce::dot(current(), a.slice(), b.slice()) };
    // SAFETY: validated.
    unsafe { out.write(v) };
    Ok(())
}

/// `*out = x[0] + … + x[n-1]`; `n == 0` gives 0.
///
/// Accumulation is pairwise and carried in double precision across blocks: the error is at most
/// about 14·FLT_EPSILON·Σ|x| (numpy's pairwise sum: about (19 + log2(n/128))·FLT_EPSILON·Σ|x|).
/// NaN or ±inf elements propagate as in IEEE/numpy; finite elements give ±inf only when the
/// exact sum is beyond FLT_MAX (an intermediate overflow, e.g. `[FLT_MAX, -FLT_MAX, FLT_MAX,
/// -FLT_MAX]`, is detected and recomputed on scaled data in double precision).
/// Arguments: `x` may be NULL only when `n == 0`; `out` non-NULL; both 4-byte aligned.
/// Returns `SK_OK`, `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`, `SK_ERR_LENGTH`; `*out` is
/// written only on success. Thread-safe (stateless).
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable for `n` elements, `out` writable.
#[no_mangle]
pub unsafe extern "C" fn sk_sum_f32(x: *const f32, out: *mut f32, n: usize) -> i32 {
    ffi_boundary!("sk_sum_f32", {
        // SAFETY: the caller guarantees `x` readable for `n` elements and `out` writable (the
        // Safety contract above); reduce_ffi checks `x` (Buf::check) and `out` (check_out_scalar)
        // first.
        unsafe {
            reduce_ffi(Buf::new("x", x, n), out, "sum", |l, x| {
                Some(reduce::sum(l, x))
            })
        }
    })
}

/// `*out = Σ x[i]` for doubles, pairwise (error ≤ about (15 + log2(n/512))·DBL_EPSILON·Σ|x|).
/// Rules as `sk_sum_f32` (8-byte alignment).
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable for `n` elements, `out` writable.
#[no_mangle]
pub unsafe extern "C" fn sk_sum_f64(x: *const f64, out: *mut f64, n: usize) -> i32 {
    ffi_boundary!("sk_sum_f64", {
        // SAFETY: the caller guarantees `x` readable for `n` elements and `out` writable (the
        // Safety contract above); reduce_ffi checks `x` (Buf::check) and `out` (check_out_scalar)
        // first.
        unsafe {
            reduce_ffi(Buf::new("x", x, n), out, "sum", |l, x| {
                Some(reduce::sum(l, x))
            })
        }
    })
}

/// `*out = (Σ x[i]) / n`, the sum accumulated as in `sk_sum_f32` (double precision), divided once.
///
/// Finite elements always give a finite mean. `n == 0` is `SK_ERR_LENGTH` (numpy returns NaN
/// with a warning). Other rules as `sk_sum_f32`.
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable for `n` elements, `out` writable.
#[no_mangle]
pub unsafe extern "C" fn sk_mean_f32(x: *const f32, out: *mut f32, n: usize) -> i32 {
    ffi_boundary!("sk_mean_f32", {
        // SAFETY: the caller guarantees `x` readable for `n` elements and `out` writable (the
        // Safety contract above); reduce_ffi checks `x` (Buf::check) and `out` (check_out_scalar)
        // first.
        unsafe { reduce_ffi(Buf::new("x", x, n), out, "mean", reduce::mean) }
    })
}

/// Mean of doubles; a sum that overflows although all elements are finite is recomputed on
/// data scaled by a power of two, so the mean of values near DBL_MAX is finite.
/// `n == 0` is `SK_ERR_LENGTH`. Other rules as `sk_sum_f64`.
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable for `n` elements, `out` writable.
#[no_mangle]
pub unsafe extern "C" fn sk_mean_f64(x: *const f64, out: *mut f64, n: usize) -> i32 {
    ffi_boundary!("sk_mean_f64", {
        // SAFETY: the caller guarantees `x` readable for `n` elements and `out` writable (the
        // Safety contract above); reduce_ffi checks `x` (Buf::check) and `out` (check_out_scalar)
        // first.
        unsafe { reduce_ffi(Buf::new("x", x, n), out, "mean", reduce::mean) }
    })
}

/// `*out = min x[i]`; NaN if any element is NaN (as `np.min`). `n == 0` is `SK_ERR_LENGTH`.
/// Other rules as `sk_sum_f32`.
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable for `n` elements, `out` writable.
#[no_mangle]
pub unsafe extern "C" fn sk_min_f32(x: *const f32, out: *mut f32, n: usize) -> i32 {
    ffi_boundary!("sk_min_f32", {
        // SAFETY: the caller guarantees `x` readable for `n` elements and `out` writable (the
        // Safety contract above); reduce_ffi checks `x` (Buf::check) and `out` (check_out_scalar)
        // first.
        unsafe { reduce_ffi(Buf::new("x", x, n), out, "min", reduce::min) }
    })
}

/// Minimum of doubles. Rules as `sk_min_f32` (8-byte alignment).
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable for `n` elements, `out` writable.
#[no_mangle]
pub unsafe extern "C" fn sk_min_f64(x: *const f64, out: *mut f64, n: usize) -> i32 {
    ffi_boundary!("sk_min_f64", {
        // SAFETY: the caller guarantees `x` readable for `n` elements and `out` writable (the
        // Safety contract above); reduce_ffi checks `x` (Buf::check) and `out` (check_out_scalar)
        // first.
        unsafe { reduce_ffi(Buf::new("x", x, n), out, "min", reduce::min) }
    })
}

/// `*out = max x[i]`; NaN if any element is NaN (as `np.max`). `n == 0` is `SK_ERR_LENGTH`.
/// Other rules as `sk_sum_f32`.
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable for `n` elements, `out` writable.
#[no_mangle]
pub unsafe extern "C" fn sk_max_f32(x: *const f32, out: *mut f32, n: usize) -> i32 {
    ffi_boundary!("sk_max_f32", {
        // SAFETY: the caller guarantees `x` readable for `n` elements and `out` writable (the
        // Safety contract above); reduce_ffi checks `x` (Buf::check) and `out` (check_out_scalar)
        // first.
        unsafe { reduce_ffi(Buf::new("x", x, n), out, "max", reduce::max) }
    })
}

/// Maximum of doubles. Rules as `sk_max_f32` (8-byte alignment).
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable for `n` elements, `out` writable.
#[no_mangle]
pub unsafe extern "C" fn sk_max_f64(x: *const f64, out: *mut f64, n: usize) -> i32 {
    ffi_boundary!("sk_max_f64", {
        // SAFETY: the caller guarantees `x` readable for `n` elements and `out` writable (the
        // Safety contract above); reduce_ffi checks `x` (Buf::check) and `out` (check_out_scalar)
        // first.
        unsafe { reduce_ffi(Buf::new("x", x, n), out, "max", reduce::max) }
    })
}

/// `*out = max |x[i]|` (the peak magnitude, `np.abs(x).max()`); NaN if any element is NaN.
/// `n == 0` is `SK_ERR_LENGTH`. Other rules as `sk_sum_f32`.
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable for `n` elements, `out` writable.
#[no_mangle]
pub unsafe extern "C" fn sk_peak_f32(x: *const f32, out: *mut f32, n: usize) -> i32 {
    ffi_boundary!("sk_peak_f32", {
        // SAFETY: the caller guarantees `x` readable for `n` elements and `out` writable (the
        // Safety contract above); reduce_ffi checks `x` (Buf::check) and `out` (check_out_scalar)
        // first.
        unsafe { reduce_ffi(Buf::new("x", x, n), out, "peak", reduce::peak) }
    })
}

/// Peak magnitude of doubles. Rules as `sk_peak_f32` (8-byte alignment).
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable for `n` elements, `out` writable.
#[no_mangle]
pub unsafe extern "C" fn sk_peak_f64(x: *const f64, out: *mut f64, n: usize) -> i32 {
    ffi_boundary!("sk_peak_f64", {
        // SAFETY: the caller guarantees `x` readable for `n` elements and `out` writable (the
        // Safety contract above); reduce_ffi checks `x` (Buf::check) and `out` (check_out_scalar)
        // first.
        unsafe { reduce_ffi(Buf::new("x", x, n), out, "peak", reduce::peak) }
    })
}

/// `*out = sqrt(Σ x[i]² / n)`: squares and sums inside blocks of 512 in float, the blocks in
/// double (relative error of the sum of squares about 11·FLT_EPSILON, a few ulp on the result);
/// a sum that overflows or falls below 2^-64 is recomputed with the squares in double, so values
/// up to FLT_MAX and denormals lose nothing (`np.sqrt(np.mean(x*x))` overflows there).
/// NaN in gives NaN; ±inf gives inf. `n == 0` is `SK_ERR_LENGTH`. Other rules as `sk_sum_f32`.
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable for `n` elements, `out` writable.
#[no_mangle]
pub unsafe extern "C" fn sk_rms_f32(x: *const f32, out: *mut f32, n: usize) -> i32 {
    ffi_boundary!("sk_rms_f32", {
        // SAFETY: the caller guarantees `x` readable for `n` elements and `out` writable (the
        // Safety contract above); reduce_ffi checks `x` (Buf::check) and `out` (check_out_scalar)
        // first.
        unsafe { reduce_ffi(Buf::new("x", x, n), out, "rms", reduce::rms) }
    })
}

/// RMS of doubles; when the sum of squares overflows or underflows, a second pass rescales by
/// a power of two, so `|x|` near DBL_MAX or in the denormal range gives an accurate result.
/// Rules as `sk_rms_f32` (8-byte alignment).
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable for `n` elements, `out` writable.
#[no_mangle]
pub unsafe extern "C" fn sk_rms_f64(x: *const f64, out: *mut f64, n: usize) -> i32 {
    ffi_boundary!("sk_rms_f64", {
        // SAFETY: the caller guarantees `x` readable for `n` elements and `out` writable (the
        // Safety contract above); reduce_ffi checks `x` (Buf::check) and `out` (check_out_scalar)
        // first.
        unsafe { reduce_ffi(Buf::new("x", x, n), out, "rms", reduce::rms) }
    })
}

/// `*out = Σ a[i]·b[i]`; `n == 0` gives 0. Pairwise, same error bound as `sk_sum_f32` on the
/// products, and the same recomputation when an intermediate sum overflows over finite inputs. `a` and `b` may overlap or be the same buffer (then it is Σ a²).
/// Arguments: `a`, `b` may be NULL only when `n == 0`; `out` non-NULL; all 4-byte aligned.
/// Returns `SK_OK`, `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`, `SK_ERR_LENGTH`; `*out` is
/// written only on success. Thread-safe (stateless).
///
/// Real-time safe: yes.
///
/// # Safety
/// `a`, `b` readable for `n` elements, `out` writable.
#[no_mangle]
pub unsafe extern "C" fn sk_dot_f32(a: *const f32, b: *const f32, out: *mut f32, n: usize) -> i32 {
    ffi_boundary!("sk_dot_f32", {
        // SAFETY: the caller guarantees `a`, `b` readable for `n` elements and `out` writable (the
        // Safety contract above); dot_ffi checks both Bufs and `out` first.
        unsafe { dot_ffi(Buf::new("a", a, n), Buf::new("b", b, n), out) }
    })
}

/// Dot product of doubles. Rules as `sk_dot_f32` (8-byte alignment).
///
/// Real-time safe: yes.
///
/// # Safety
/// `a`, `b` readable for `n` elements, `out` writable.
#[no_mangle]
pub unsafe extern "C" fn sk_dot_f64(a: *const f64, b: *const f64, out: *mut f64, n: usize) -> i32 {
    ffi_boundary!("sk_dot_f64", {
        // SAFETY: the caller guarantees `a`, `b` readable for `n` elements and `out` writable (the
        // Safety contract above); dot_ffi checks both Bufs and `out` first.
        unsafe { dot_ffi(Buf::new("a", a, n), Buf::new("b", b, n), out) }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::*;

    #[test]
    fn empty_and_out_rules() {
        let mut out = 9.0f32;
        // SAFETY: NULL inputs have count 0 and are never read; `out` is a local float.
        unsafe {
            assert_eq!(sk_sum_f32(std::ptr::null(), &mut out, 0), SK_OK);
            assert_eq!(out, 0.0);
            out = 9.0;
            assert_eq!(sk_mean_f32(std::ptr::null(), &mut out, 0), SK_ERR_LENGTH);
            assert_eq!(
                sk_rms_f32(std::ptr::null(), std::ptr::null_mut(), 0),
                SK_ERR_NULL_POINTER
            );
            assert_eq!(
                sk_dot_f32(std::ptr::null(), std::ptr::null(), &mut out, 0),
                SK_OK
            );
        }
        assert_eq!(out, 0.0);
        let x = [3.0f64, -4.0];
        let mut o = 0.0f64;
        // SAFETY: `x` holds 2 doubles and `buf` 3, the counts passed; `o` is a local double.
        unsafe {
            assert_eq!(sk_peak_f64(x.as_ptr(), &mut o, 2), SK_OK);
            assert_eq!(o, 4.0);
            // out pointing into the input is fine: written after the read
            let mut buf = [1.0f64, 2.0, 3.0];
            let p = buf.as_mut_ptr();
            assert_eq!(sk_sum_f64(p, p, 3), SK_OK);
            assert_eq!(buf[0], 6.0);
        }
    }
}
