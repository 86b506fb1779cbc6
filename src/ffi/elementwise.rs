//! Elementwise kernels: add, sub, mul, div, scale, axpy, clip, abs.
//!
//! Aliasing for all of them: the output `y` may be exactly the same buffer as any input (same
//! pointer; the lengths are equal by construction) for in-place use; any other overlap between
//! `y` and an input is `SK_ERR_OVERLAP`. Inputs may overlap each other freely.

use super::guard::{alias, ffi_boundary, Alias, Buf};
use crate::error::{SkError, SkResult};
use crate::kernels::elementwise::{
    binary, unary, AbsOp, AddOp, AxpyOp, BinOp, ClipOp, DivOp, MulOp, ScaleOp, SubOp, UnOp,
};
use crate::kernels::{Float, Src};

/// # Safety
/// `b` validated and aliased as `al` says.
unsafe fn operand<'a, T>(b: &Buf<T>, al: Alias) -> Src<'a, T> {
    match al {
        Alias::Same => Src::Dst,
        // SAFETY: validated by the caller; disjoint from the output.
        Alias::Distinct => Src::Slice(unsafe { b.slice() }),
    }
}

/// # Safety
/// Pointers readable/writable for their lengths.
unsafe fn binary_ffi<T: Float, O: BinOp<T>>(
    a: Buf<T>,
    b: Buf<T>,
    y: Buf<T>,
    op: O,
) -> SkResult<()> {
    a.check()?;
    b.check()?;
    y.check()?;
    let (ra, rb) = (alias(&a, &y, true)?, alias(&b, &y, true)?);
    // SAFETY: all three validated; y is disjoint from every input it is not identical to.
    unsafe { binary(operand(&a, ra), operand(&b, rb), y.slice_mut(), op) };
    Ok(())
}

/// # Safety
/// Pointers readable/writable for their lengths.
unsafe fn unary_ffi<T: Float, O: UnOp<T>>(x: Buf<T>, y: Buf<T>, op: O) -> SkResult<()> {
    x.check()?;
    y.check()?;
    let rx = alias(&x, &y, true)?;
    // SAFETY: as in binary_ffi.
    unsafe { unary(operand(&x, rx), y.slice_mut(), op) };
    Ok(())
}

fn clip_op<T: Float>(lo: T, hi: T) -> SkResult<ClipOp<T>> {
    if lo.is_nan() || hi.is_nan() {
        return Err(SkError::BadArgument(format!(
            "clip bounds must not be NaN (lo = {lo:?}, hi = {hi:?})"
        )));
    }
    if lo > hi {
        return Err(SkError::BadArgument(format!(
            "lo = {lo:?} is greater than hi = {hi:?}"
        )));
    }
    Ok(ClipOp { lo, hi })
}

/// `y[i] = a[i] + b[i]` for `i < n`.
///
/// Arguments: `a`, `b`, `y` may be NULL only when `n == 0`; each 4-byte aligned.
/// Aliasing: `y` may equal `a` and/or `b` exactly (in place); partial overlap is an error.
/// Returns `SK_OK`, `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`, `SK_ERR_LENGTH`,
/// `SK_ERR_OVERLAP`; on error `y` is untouched. IEEE semantics (NaN propagates).
/// Thread-safe (stateless).
///
/// Real-time safe: yes.
///
/// # Safety
/// `a`, `b` readable and `y` writable for `n` elements.
#[no_mangle]
pub unsafe extern "C" fn sk_add_f32(a: *const f32, b: *const f32, y: *mut f32, n: usize) -> i32 {
    ffi_boundary!("sk_add_f32", {
        // SAFETY: the caller guarantees the inputs readable and `y` writable for `n` elements (the
        // Safety contract above); binary_ffi checks each Buf (NULL, alignment, size) and the
        // overlaps (guard::alias) before building slices.
        unsafe {
            binary_ffi(
                Buf::new("a", a, n),
                Buf::new("b", b, n),
                Buf::out("y", y, n),
                AddOp,
            )
        }
    })
}

/// `y[i] = a[i] + b[i]` for doubles. Rules as `sk_add_f32` (8-byte alignment).
///
/// Real-time safe: yes.
///
/// # Safety
/// `a`, `b` readable and `y` writable for `n` elements.
#[no_mangle]
pub unsafe extern "C" fn sk_add_f64(a: *const f64, b: *const f64, y: *mut f64, n: usize) -> i32 {
    ffi_boundary!("sk_add_f64", {
        // SAFETY: the caller guarantees the inputs readable and `y` writable for `n` elements (the
        // Safety contract above); binary_ffi checks each Buf (NULL, alignment, size) and the
        // overlaps (guard::alias) before building slices.
        unsafe {
            binary_ffi(
                Buf::new("a", a, n),
                Buf::new("b", b, n),
                Buf::out("y", y, n),
                AddOp,
            )
        }
    })
}

/// `y[i] = a[i] - b[i]` for `i < n`. Rules as `sk_add_f32`.
///
/// Real-time safe: yes.
///
/// # Safety
/// `a`, `b` readable and `y` writable for `n` elements.
#[no_mangle]
pub unsafe extern "C" fn sk_sub_f32(a: *const f32, b: *const f32, y: *mut f32, n: usize) -> i32 {
    ffi_boundary!("sk_sub_f32", {
        // SAFETY: the caller guarantees the inputs readable and `y` writable for `n` elements (the
        // Safety contract above); binary_ffi checks each Buf (NULL, alignment, size) and the
        // overlaps (guard::alias) before building slices.
        unsafe {
            binary_ffi(
                Buf::new("a", a, n),
                Buf::new("b", b, n),
                Buf::out("y", y, n),
                SubOp,
            )
        }
    })
}

/// `y[i] = a[i] - b[i]` for doubles. Rules as `sk_add_f32` (8-byte alignment).
///
/// Real-time safe: yes.
///
/// # Safety
/// `a`, `b` readable and `y` writable for `n` elements.
#[no_mangle]
pub unsafe extern "C" fn sk_sub_f64(a: *const f64, b: *const f64, y: *mut f64, n: usize) -> i32 {
    ffi_boundary!("sk_sub_f64", {
        // SAFETY: the caller guarantees the inputs readable and `y` writable for `n` elements (the
        // Safety contract above); binary_ffi checks each Buf (NULL, alignment, size) and the
        // overlaps (guard::alias) before building slices.
        unsafe {
            binary_ffi(
                Buf::new("a", a, n),
                Buf::new("b", b, n),
                Buf::out("y", y, n),
                SubOp,
            )
        }
    })
}

/// `y[i] = a[i] * b[i]` for `i < n`. Rules as `sk_add_f32`.
///
/// Real-time safe: yes.
///
/// # Safety
/// `a`, `b` readable and `y` writable for `n` elements.
#[no_mangle]
pub unsafe extern "C" fn sk_mul_f32(a: *const f32, b: *const f32, y: *mut f32, n: usize) -> i32 {
    ffi_boundary!("sk_mul_f32", {
        // SAFETY: the caller guarantees the inputs readable and `y` writable for `n` elements (the
        // Safety contract above); binary_ffi checks each Buf (NULL, alignment, size) and the
        // overlaps (guard::alias) before building slices.
        unsafe {
            binary_ffi(
                Buf::new("a", a, n),
                Buf::new("b", b, n),
                Buf::out("y", y, n),
                MulOp,
            )
        }
    })
}

/// `y[i] = a[i] * b[i]` for doubles. Rules as `sk_add_f32` (8-byte alignment).
///
/// Real-time safe: yes.
///
/// # Safety
/// `a`, `b` readable and `y` writable for `n` elements.
#[no_mangle]
pub unsafe extern "C" fn sk_mul_f64(a: *const f64, b: *const f64, y: *mut f64, n: usize) -> i32 {
    ffi_boundary!("sk_mul_f64", {
        // SAFETY: the caller guarantees the inputs readable and `y` writable for `n` elements (the
        // Safety contract above); binary_ffi checks each Buf (NULL, alignment, size) and the
        // overlaps (guard::alias) before building slices.
        unsafe {
            binary_ffi(
                Buf::new("a", a, n),
                Buf::new("b", b, n),
                Buf::out("y", y, n),
                MulOp,
            )
        }
    })
}

/// `y[i] = a[i] / b[i]` for `i < n`; division by zero gives ±inf or NaN as in IEEE/numpy (not
/// an error). Rules as `sk_add_f32`.
///
/// Real-time safe: yes.
///
/// # Safety
/// `a`, `b` readable and `y` writable for `n` elements.
#[no_mangle]
pub unsafe extern "C" fn sk_div_f32(a: *const f32, b: *const f32, y: *mut f32, n: usize) -> i32 {
    ffi_boundary!("sk_div_f32", {
        // SAFETY: the caller guarantees the inputs readable and `y` writable for `n` elements (the
        // Safety contract above); binary_ffi checks each Buf (NULL, alignment, size) and the
        // overlaps (guard::alias) before building slices.
        unsafe {
            binary_ffi(
                Buf::new("a", a, n),
                Buf::new("b", b, n),
                Buf::out("y", y, n),
                DivOp,
            )
        }
    })
}

/// `y[i] = a[i] / b[i]` for doubles. Rules as `sk_div_f32` (8-byte alignment).
///
/// Real-time safe: yes.
///
/// # Safety
/// `a`, `b` readable and `y` writable for `n` elements.
#[no_mangle]
pub unsafe extern "C" fn sk_div_f64(a: *const f64, b: *const f64, y: *mut f64, n: usize) -> i32 {
    ffi_boundary!("sk_div_f64", {
        // SAFETY: the caller guarantees the inputs readable and `y` writable for `n` elements (the
        // Safety contract above); binary_ffi checks each Buf (NULL, alignment, size) and the
        // overlaps (guard::alias) before building slices.
        unsafe {
            binary_ffi(
                Buf::new("a", a, n),
                Buf::new("b", b, n),
                Buf::out("y", y, n),
                DivOp,
            )
        }
    })
}

/// `y[i] = a * x[i]` for `i < n`.
///
/// Arguments: `x`, `y` may be NULL only when `n == 0`; 4-byte aligned; any `a` (NaN propagates).
/// Aliasing: `y == x` exactly is in place; partial overlap is `SK_ERR_OVERLAP`.
/// Returns `SK_OK`, `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`, `SK_ERR_LENGTH`,
/// `SK_ERR_OVERLAP`; on error `y` is untouched. Thread-safe (stateless).
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable and `y` writable for `n` elements.
#[no_mangle]
pub unsafe extern "C" fn sk_scale_f32(x: *const f32, a: f32, y: *mut f32, n: usize) -> i32 {
    ffi_boundary!("sk_scale_f32", {
        // SAFETY: the caller guarantees `x` readable and `y` writable for `n` elements (the Safety
        // contract above); unary_ffi checks both Bufs (NULL, alignment, size) and their overlap
        // (guard::alias) before building slices.
        unsafe { unary_ffi(Buf::new("x", x, n), Buf::out("y", y, n), ScaleOp(a)) }
    })
}

/// `y[i] = a * x[i]` for doubles. Rules as `sk_scale_f32` (8-byte alignment).
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable and `y` writable for `n` elements.
#[no_mangle]
pub unsafe extern "C" fn sk_scale_f64(x: *const f64, a: f64, y: *mut f64, n: usize) -> i32 {
    ffi_boundary!("sk_scale_f64", {
        // SAFETY: the caller guarantees `x` readable and `y` writable for `n` elements (the Safety
        // contract above); unary_ffi checks both Bufs (NULL, alignment, size) and their overlap
        // (guard::alias) before building slices.
        unsafe { unary_ffi(Buf::new("x", x, n), Buf::out("y", y, n), ScaleOp(a)) }
    })
}

/// `y[i] = y[i] + a * x[i]` for `i < n` (BLAS axpy; a multiply then an add, not fused, so the
/// result equals numpy's `y += a * x`).
///
/// Arguments: `x`, `y` may be NULL only when `n == 0`; 4-byte aligned.
/// Aliasing: `x == y` exactly is allowed (`y += a*y`); partial overlap is `SK_ERR_OVERLAP`.
/// Returns `SK_OK`, `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`, `SK_ERR_LENGTH`,
/// `SK_ERR_OVERLAP`; on error `y` is untouched. Thread-safe (stateless).
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable and `y` readable and writable for `n` elements.
#[no_mangle]
pub unsafe extern "C" fn sk_axpy_f32(x: *const f32, a: f32, y: *mut f32, n: usize) -> i32 {
    ffi_boundary!("sk_axpy_f32", {
        let y = Buf::out("y", y, n);
        // SAFETY: the caller guarantees the inputs readable and `y` writable for `n` elements (the
        // Safety contract above); binary_ffi checks each Buf (NULL, alignment, size) and the
        // overlaps (guard::alias) before building slices.
        unsafe { binary_ffi(Buf::new("x", x, n), y, y, AxpyOp(a)) }
    })
}

/// `y[i] += a * x[i]` for doubles. Rules as `sk_axpy_f32` (8-byte alignment).
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable and `y` readable and writable for `n` elements.
#[no_mangle]
pub unsafe extern "C" fn sk_axpy_f64(x: *const f64, a: f64, y: *mut f64, n: usize) -> i32 {
    ffi_boundary!("sk_axpy_f64", {
        let y = Buf::out("y", y, n);
        // SAFETY: the caller guarantees the inputs readable and `y` writable for `n` elements (the
        // Safety contract above); binary_ffi checks each Buf (NULL, alignment, size) and the
        // overlaps (guard::alias) before building slices.
        unsafe { binary_ffi(Buf::new("x", x, n), y, y, AxpyOp(a)) }
    })
}

/// `y[i] = min(max(x[i], lo), hi)` for `i < n`, as `np.clip(x, lo, hi, out=y)`: NaN elements stay
/// NaN; infinite bounds are allowed.
///
/// Arguments: `lo <= hi`, neither NaN, else `SK_ERR_BAD_ARGUMENT`; pointers as `sk_scale_f32`.
/// Aliasing: `y == x` exactly is in place; partial overlap is `SK_ERR_OVERLAP`.
/// Returns `SK_OK`, `SK_ERR_BAD_ARGUMENT`, `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`,
/// `SK_ERR_LENGTH`, `SK_ERR_OVERLAP`; on error `y` is untouched. Thread-safe (stateless).
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable and `y` writable for `n` elements.
#[no_mangle]
pub unsafe extern "C" fn sk_clip_f32(
    x: *const f32,
    lo: f32,
    hi: f32,
    y: *mut f32,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_clip_f32", {
        let op = clip_op(lo, hi)?;
        // SAFETY: the caller guarantees `x` readable and `y` writable for `n` elements (the Safety
        // contract above); unary_ffi checks both Bufs (NULL, alignment, size) and their overlap
        // (guard::alias) before building slices.
        unsafe { unary_ffi(Buf::new("x", x, n), Buf::out("y", y, n), op) }
    })
}

/// `y[i] = clip(x[i], lo, hi)` for doubles. Rules as `sk_clip_f32` (8-byte alignment).
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable and `y` writable for `n` elements.
#[no_mangle]
pub unsafe extern "C" fn sk_clip_f64(
    x: *const f64,
    lo: f64,
    hi: f64,
    y: *mut f64,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_clip_f64", {
        let op = clip_op(lo, hi)?;
        // SAFETY: the caller guarantees `x` readable and `y` writable for `n` elements (the Safety
        // contract above); unary_ffi checks both Bufs (NULL, alignment, size) and their overlap
        // (guard::alias) before building slices.
        unsafe { unary_ffi(Buf::new("x", x, n), Buf::out("y", y, n), op) }
    })
}

/// `y[i] = |x[i]|` for `i < n` (clears the sign bit; NaN stays NaN). Rules as `sk_scale_f32`.
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable and `y` writable for `n` elements.
#[no_mangle]
pub unsafe extern "C" fn sk_abs_f32(x: *const f32, y: *mut f32, n: usize) -> i32 {
    ffi_boundary!("sk_abs_f32", {
        // SAFETY: the caller guarantees `x` readable and `y` writable for `n` elements (the Safety
        // contract above); unary_ffi checks both Bufs (NULL, alignment, size) and their overlap
        // (guard::alias) before building slices.
        unsafe { unary_ffi(Buf::new("x", x, n), Buf::out("y", y, n), AbsOp) }
    })
}

/// `y[i] = |x[i]|` for doubles. Rules as `sk_scale_f32` (8-byte alignment).
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable and `y` writable for `n` elements.
#[no_mangle]
pub unsafe extern "C" fn sk_abs_f64(x: *const f64, y: *mut f64, n: usize) -> i32 {
    ffi_boundary!("sk_abs_f64", {
        // SAFETY: the caller guarantees `x` readable and `y` writable for `n` elements (the Safety
        // contract above); unary_ffi checks both Bufs (NULL, alignment, size) and their overlap
        // (guard::alias) before building slices.
        unsafe { unary_ffi(Buf::new("x", x, n), Buf::out("y", y, n), AbsOp) }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::*;

    #[test]
    fn errors_leave_output_untouched() {
        let a = [1.0f32; 8];
        let mut y = [7.0f32; 9];
        let yp = y.as_mut_ptr();
        // SAFETY: every pointer is into the local arrays `a` (8) and `y` (9) with the counts
        // passed, or NULL/misaligned on purpose: the calls must refuse those without touching
        // memory.
        unsafe {
            assert_eq!(
                sk_add_f32(a.as_ptr(), std::ptr::null(), yp, 8),
                SK_ERR_NULL_POINTER
            );
            assert_eq!(sk_add_f32(yp, a.as_ptr(), yp.add(1), 8), SK_ERR_OVERLAP);
            assert_eq!(
                sk_clip_f32(a.as_ptr(), 2.0, 1.0, yp, 8),
                SK_ERR_BAD_ARGUMENT
            );
            assert_eq!(
                sk_clip_f32(a.as_ptr(), f32::NAN, 1.0, yp, 8),
                SK_ERR_BAD_ARGUMENT
            );
            let mis = (yp as usize + 1) as *mut f32;
            assert_eq!(sk_scale_f32(a.as_ptr(), 2.0, mis, 4), SK_ERR_MISALIGNED);
        }
        assert_eq!(y, [7.0; 9]);
        // SAFETY: `y` holds 9 floats, the count passed; in place is allowed.
        unsafe {
            assert_eq!(sk_add_f32(yp, yp, yp, 9), SK_OK);
        }
        assert_eq!(y, [14.0; 9]);
    }
}
