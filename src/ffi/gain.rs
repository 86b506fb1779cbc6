//! Gain: `sk_gain_ramp_*`, `sk_crossfade_*`, `sk_mix_*`, `sk_amp_to_db_*`, `sk_db_to_amp_*`.
//!
//! Ramps and crossfades take `(offset, total)`: the ramp/fade spans samples `k = 0 … total−1`
//! and the call processes `k = offset … offset+n−1`, so consecutive calls with
//! `offset += n` join bit-exactly (see `kernels::gain`). `offset + n > total` and
//! `total > 2^53` are `SK_ERR_BAD_ARGUMENT`. Every function here may run in place: the output may
//! be exactly an input (same pointer); any partial overlap is `SK_ERR_OVERLAP`.

use super::guard::{alias, ffi_boundary, Alias, Buf};
use crate::error::{SkError, SkResult};
use crate::kernels::gain::{amp_to_db, crossfade_at, db_to_amp, mix_at, ramp_at, Fade, Mix, Ramp};
use crate::kernels::{Float, Src};
use crate::simd::current;

/// # Safety
/// `b` validated and aliased as `al` says.
unsafe fn operand<'a, T>(b: &Buf<T>, al: Alias) -> Src<'a, T> {
    match al {
        Alias::Same => Src::Dst,
        // SAFETY: validated by the caller; disjoint from the output.
        Alias::Distinct => Src::Slice(unsafe { b.slice() }),
    }
}

fn finite_param<T: Float>(name: &str, v: T) -> SkResult<()> {
    if !v.is_finite() {
        return Err(SkError::BadArgument(format!(
            "{name} = {v:?} is not finite; nothing was written"
        )));
    }
    Ok(())
}

fn window(offset: usize, total: usize, n: usize) -> SkResult<()> {
    if total > 1usize << 53 {
        return Err(SkError::BadArgument(format!(
            "total = {total} is more than 2^53 samples (indices would not be exact in double)"
        )));
    }
    if offset.checked_add(n).is_none_or(|e| e > total) {
        return Err(SkError::BadArgument(format!(
            "offset = {offset} + n = {n} runs past total = {total}"
        )));
    }
    Ok(())
}

/// # Safety
/// Pointers valid for `n` elements.
unsafe fn unary_in_place_ok<T: Float>(
    x: Buf<T>,
    y: Buf<T>,
    f: impl FnOnce(Src<'_, T>, &mut [T]),
) -> SkResult<()> {
    x.check()?;
    y.check()?;
    let rx = alias(&x, &y, true)?;
    // SAFETY: validated; y disjoint from x unless identical.
    unsafe { f(operand(&x, rx), y.slice_mut()) };
    Ok(())
}

/// # Safety
/// Pointers valid for `n` elements.
unsafe fn binary_in_place_ok<T: Float>(
    a: Buf<T>,
    b: Buf<T>,
    y: Buf<T>,
    f: impl FnOnce(Src<'_, T>, Src<'_, T>, &mut [T]),
) -> SkResult<()> {
    a.check()?;
    b.check()?;
    y.check()?;
    let (ra, rb) = (alias(&a, &y, true)?, alias(&b, &y, true)?);
    // SAFETY: validated; y disjoint from each input unless identical.
    unsafe { f(operand(&a, ra), operand(&b, rb), y.slice_mut()) };
    Ok(())
}

/// Linear gain ramp: `y[i] = x[i] · g(offset + i)` with `g(k) = g0 + k·((g1 − g0) / total)`,
/// for `i < n`.
///
/// Half-open: `g(0) = g0`, and `g(total)` (the first sample after the ramp) would be `g1`, so a
/// ramp followed by a constant gain `g1` has no step, and calls with `offset = 0, n, 2n, …`
/// give exactly the samples of one call (each gain depends only on its index). The gain is
/// computed in double precision and each product rounded once to float.
/// Arguments: `g0`, `g1` finite, else `SK_ERR_BAD_ARGUMENT`; `offset + n <= total <= 2^53`,
/// else `SK_ERR_BAD_ARGUMENT`; pointers as `sk_scale_f32`. `y == x` is in place.
/// Returns `SK_OK`, `SK_ERR_BAD_ARGUMENT`, `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`,
/// `SK_ERR_LENGTH`, `SK_ERR_OVERLAP`; on error nothing is written. Thread-safe.
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable and `y` writable for `n` elements.
#[no_mangle]
pub unsafe extern "C" fn sk_gain_ramp_f32(
    x: *const f32,
    g0: f32,
    g1: f32,
    offset: usize,
    total: usize,
    y: *mut f32,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_gain_ramp_f32", {
        finite_param("g0", g0)?;
        finite_param("g1", g1)?;
        window(offset, total, n)?;
        let r = Ramp::new(g0.to_f64(), g1.to_f64(), offset, total);
        // SAFETY: the caller guarantees `x` readable and `y` writable for `n` elements (the Safety
        // contract above); unary_in_place_ok checks both Bufs and their overlap (guard::alias)
        // before building slices.
        unsafe {
            unary_in_place_ok(Buf::new("x", x, n), Buf::out("y", y, n), |x, y| {
                ramp_at(current(), x, y, r)
            })
        }
    })
}

/// Equal-power crossfade from `a` to `b`: `y[i] = a[i]·cos(πt/2) + b[i]·sin(πt/2)` with
/// `t = (offset + i) / total`, for `i < n`.
///
/// Half-open like `sk_gain_ramp_f32`: sample 0 is pure `a`; `t = 1` (pure `b`) is the sample
/// right after the fade, so continuing with `b` joins smoothly, and chunked calls join exactly.
/// The gains are evaluated in double precision (polynomial, |error| ≤ 3e-16; the scalar level
/// uses libm `sin`/`cos`), so cos² + sin² = 1 to double precision.
/// Arguments: `offset + n <= total <= 2^53`, else `SK_ERR_BAD_ARGUMENT`; pointers as
/// `sk_add_f32`. `y` may be exactly `a` and/or `b`.
/// Returns `SK_OK`, `SK_ERR_BAD_ARGUMENT`, `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`,
/// `SK_ERR_LENGTH`, `SK_ERR_OVERLAP`; on error nothing is written. Thread-safe.
///
/// Real-time safe: yes.
///
/// # Safety
/// `a`, `b` readable and `y` writable for `n` elements.
#[no_mangle]
pub unsafe extern "C" fn sk_crossfade_f32(
    a: *const f32,
    b: *const f32,
    offset: usize,
    total: usize,
    y: *mut f32,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_crossfade_f32", {
        window(offset, total, n)?;
        let f = Fade {
            offset,
            total: total as f64,
        };
        // SAFETY: the caller guarantees the inputs readable and `y` writable for `n` elements (the
        // Safety contract above); binary_in_place_ok checks every Buf and the overlaps
        // (guard::alias) before building slices.
        unsafe {
            binary_in_place_ok(
                Buf::new("a", a, n),
                Buf::new("b", b, n),
                Buf::out("y", y, n),
                |a, b, y| crossfade_at(current(), a, b, y, f),
            )
        }
    })
}

/// Weighted mix: `y[i] = wa·a[i] + wb·b[i]` for `i < n`, in float arithmetic (two products
/// and a sum, not fused: equal to numpy's `wa*a + wb*b` in float32).
///
/// Arguments: `wa`, `wb` finite, else `SK_ERR_BAD_ARGUMENT`; pointers as `sk_add_f32`. `y`
/// may be exactly `a` and/or `b`.
/// Returns `SK_OK`, `SK_ERR_BAD_ARGUMENT`, `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`,
/// `SK_ERR_LENGTH`, `SK_ERR_OVERLAP`; on error nothing is written. Thread-safe.
///
/// Real-time safe: yes.
///
/// # Safety
/// `a`, `b` readable and `y` writable for `n` elements.
#[no_mangle]
pub unsafe extern "C" fn sk_mix_f32(
    a: *const f32,
    wa: f32,
    b: *const f32,
    wb: f32,
    y: *mut f32,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_mix_f32", {
        finite_param("wa", wa)?;
        finite_param("wb", wb)?;
        let m = Mix { wa, wb };
        // SAFETY: the caller guarantees the inputs readable and `y` writable for `n` elements (the
        // Safety contract above); binary_in_place_ok checks every Buf and the overlaps
        // (guard::alias) before building slices.
        unsafe {
            binary_in_place_ok(
                Buf::new("a", a, n),
                Buf::new("b", b, n),
                Buf::out("y", y, n),
                |a, b, y| mix_at(current(), a, b, y, m),
            )
        }
    })
}

/// Amplitude → decibels: `y[i] = max(20·log10|x[i]|, floor_db)` for `i < n`, computed in
/// double precision and rounded once (a polynomial logarithm within 4 ulp of libm's `log10`;
/// for `float` data evaluated in float, within 3 ulp; libm itself at the scalar SIMD level). Zeros (and anything below the floor) give `floor_db`;
/// NaN stays NaN; ±inf gives +inf.
///
/// Arguments: `floor_db` may be -inf (no floor: zeros give -inf) but not NaN or +inf
/// (`SK_ERR_BAD_ARGUMENT`); pointers as `sk_scale_f32`; `y == x` is in place.
/// Returns `SK_OK`, `SK_ERR_BAD_ARGUMENT`, `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`,
/// `SK_ERR_LENGTH`, `SK_ERR_OVERLAP`; on error nothing is written. Thread-safe.
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable and `y` writable for `n` elements.
#[no_mangle]
pub unsafe extern "C" fn sk_amp_to_db_f32(
    x: *const f32,
    floor_db: f32,
    y: *mut f32,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_amp_to_db_f32", {
        if floor_db.is_nan() || floor_db == f32::INFINITY {
            return Err(SkError::BadArgument(format!(
                "floor_db = {floor_db:?} must be a number below +inf (use -inf for no floor)"
            )));
        }
        // SAFETY: the caller guarantees `x` readable and `y` writable for `n` elements (the Safety
        // contract above); unary_in_place_ok checks both Bufs and their overlap (guard::alias)
        // before building slices.
        unsafe {
            unary_in_place_ok(Buf::new("x", x, n), Buf::out("y", y, n), |x, y| {
                amp_to_db(x, y, floor_db.to_f64())
            })
        }
    })
}

/// Decibels → amplitude: `y[i] = 10^(x[i]/20)` for `i < n`, computed in double precision and
/// rounded once; -inf gives 0, NaN stays NaN, large values overflow to +inf.
///
/// Arguments: pointers as `sk_scale_f32`; `y == x` is in place.
/// Returns `SK_OK`, `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`, `SK_ERR_LENGTH`,
/// `SK_ERR_OVERLAP`; on error nothing is written. Thread-safe.
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable and `y` writable for `n` elements.
#[no_mangle]
pub unsafe extern "C" fn sk_db_to_amp_f32(x: *const f32, y: *mut f32, n: usize) -> i32 {
    ffi_boundary!("sk_db_to_amp_f32", {
        // SAFETY: the caller guarantees `x` readable and `y` writable for `n` elements (the Safety
        // contract above); unary_in_place_ok checks both Bufs and their overlap (guard::alias)
        // before building slices.
        unsafe { unary_in_place_ok(Buf::new("x", x, n), Buf::out("y", y, n), db_to_amp) }
    })
}

/// Linear gain ramp on doubles. Rules as `sk_gain_ramp_f32` (8-byte alignment).
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable and `y` writable for `n` elements.
#[no_mangle]
pub unsafe extern "C" fn sk_gain_ramp_f64(
    x: *const f64,
    g0: f64,
    g1: f64,
    offset: usize,
    total: usize,
    y: *mut f64,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_gain_ramp_f64", {
        finite_param("g0", g0)?;
        finite_param("g1", g1)?;
        window(offset, total, n)?;
        let r = Ramp::new(g0.to_f64(), g1.to_f64(), offset, total);
        // SAFETY: the caller guarantees `x` readable and `y` writable for `n` elements (the Safety
        // contract above); unary_in_place_ok checks both Bufs and their overlap (guard::alias)
        // before building slices.
        unsafe {
            unary_in_place_ok(Buf::new("x", x, n), Buf::out("y", y, n), |x, y| {
                ramp_at(current(), x, y, r)
            })
        }
    })
}

/// Equal-power crossfade of doubles. Rules as `sk_crossfade_f32` (8-byte alignment).
///
/// Real-time safe: yes.
///
/// # Safety
/// `a`, `b` readable and `y` writable for `n` elements.
#[no_mangle]
pub unsafe extern "C" fn sk_crossfade_f64(
    a: *const f64,
    b: *const f64,
    offset: usize,
    total: usize,
    y: *mut f64,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_crossfade_f64", {
        window(offset, total, n)?;
        let f = Fade {
            offset,
            total: total as f64,
        };
        // SAFETY: the caller guarantees the inputs readable and `y` writable for `n` elements (the
        // Safety contract above); binary_in_place_ok checks every Buf and the overlaps
        // (guard::alias) before building slices.
        unsafe {
            binary_in_place_ok(
                Buf::new("a", a, n),
                Buf::new("b", b, n),
                Buf::out("y", y, n),
                |a, b, y| crossfade_at(current(), a, b, y, f),
            )
        }
    })
}

/// Weighted mix of doubles. Rules as `sk_mix_f32` (8-byte alignment).
///
/// Real-time safe: yes.
///
/// # Safety
/// `a`, `b` readable and `y` writable for `n` elements.
#[no_mangle]
pub unsafe extern "C" fn sk_mix_f64(
    a: *const f64,
    wa: f64,
    b: *const f64,
    wb: f64,
    y: *mut f64,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_mix_f64", {
        finite_param("wa", wa)?;
        finite_param("wb", wb)?;
        let m = Mix { wa, wb };
        // SAFETY: the caller guarantees the inputs readable and `y` writable for `n` elements (the
        // Safety contract above); binary_in_place_ok checks every Buf and the overlaps
        // (guard::alias) before building slices.
        unsafe {
            binary_in_place_ok(
                Buf::new("a", a, n),
                Buf::new("b", b, n),
                Buf::out("y", y, n),
                |a, b, y| mix_at(current(), a, b, y, m),
            )
        }
    })
}

/// Amplitude → decibels for doubles. Rules as `sk_amp_to_db_f32` (8-byte alignment).
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable and `y` writable for `n` elements.
#[no_mangle]
pub unsafe extern "C" fn sk_amp_to_db_f64(
    x: *const f64,
    floor_db: f64,
    y: *mut f64,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_amp_to_db_f64", {
        if floor_db.is_nan() || floor_db == f64::INFINITY {
            return Err(SkError::BadArgument(format!(
                "floor_db = {floor_db:?} must be a number below +inf (use -inf for no floor)"
            )));
        }
        // SAFETY: the caller guarantees `x` readable and `y` writable for `n` elements (the Safety
        // contract above); unary_in_place_ok checks both Bufs and their overlap (guard::alias)
        // before building slices.
        unsafe {
            unary_in_place_ok(Buf::new("x", x, n), Buf::out("y", y, n), |x, y| {
                amp_to_db(x, y, floor_db.to_f64())
            })
        }
    })
}

/// Decibels → amplitude for doubles. Rules as `sk_db_to_amp_f32` (8-byte alignment).
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable and `y` writable for `n` elements.
#[no_mangle]
pub unsafe extern "C" fn sk_db_to_amp_f64(x: *const f64, y: *mut f64, n: usize) -> i32 {
    ffi_boundary!("sk_db_to_amp_f64", {
        // SAFETY: the caller guarantees `x` readable and `y` writable for `n` elements (the Safety
        // contract above); unary_in_place_ok checks both Bufs and their overlap (guard::alias)
        // before building slices.
        unsafe { unary_in_place_ok(Buf::new("x", x, n), Buf::out("y", y, n), db_to_amp) }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::*;

    #[test]
    fn bad_parameters_write_nothing() {
        let x = [1.0f32; 4];
        let mut y = [5.0f32; 4];
        let yp = y.as_mut_ptr();
        // SAFETY: `x` and `y` are local arrays of 4 floats, the count passed; the calls are refused
        // on their parameters before any access.
        unsafe {
            assert_eq!(
                sk_gain_ramp_f32(x.as_ptr(), f32::NAN, 1.0, 0, 4, yp, 4),
                SK_ERR_BAD_ARGUMENT
            );
            assert_eq!(
                sk_gain_ramp_f32(x.as_ptr(), 0.0, 1.0, 1, 4, yp, 4),
                SK_ERR_BAD_ARGUMENT
            );
            assert_eq!(
                sk_gain_ramp_f32(x.as_ptr(), 0.0, 1.0, usize::MAX, 4, yp, 4),
                SK_ERR_BAD_ARGUMENT
            );
            assert_eq!(
                sk_crossfade_f32(x.as_ptr(), x.as_ptr(), 0, 3, yp, 4),
                SK_ERR_BAD_ARGUMENT
            );
            assert_eq!(
                sk_mix_f32(x.as_ptr(), f32::INFINITY, x.as_ptr(), 1.0, yp, 4),
                SK_ERR_BAD_ARGUMENT
            );
            assert_eq!(
                sk_amp_to_db_f32(x.as_ptr(), f32::NAN, yp, 4),
                SK_ERR_BAD_ARGUMENT
            );
        }
        assert_eq!(y, [5.0; 4]);
        // SAFETY: `x` and `y` are local arrays of 4 floats, the count passed.
        unsafe {
            assert_eq!(sk_gain_ramp_f32(x.as_ptr(), 0.0, 1.0, 0, 4, yp, 4), SK_OK);
        }
        assert_eq!(y, [0.0, 0.25, 0.5, 0.75]);
    }
}
