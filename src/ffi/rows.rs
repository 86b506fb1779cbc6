//! Per-row batches over `(rows, cols)` data: `sk_rows_{sum,mean,peak,rms}_*` into an output
//! array, and `sk_rows_normalize_peak_*` in place.
//!
//! Layout: row `r` is `cols` contiguous elements starting at `x + r·ld` (`ld` in elements, may be
//! negative: rows then go down in memory). `|ld| < cols` is `SK_ERR_BAD_ARGUMENT` (rows would
//! overlap; also for a single row); the span `(rows−1)·|ld| + cols` overflowing is
//! `SK_ERR_LENGTH`. A C-contiguous `(rows, cols)` array has `ld = cols`.

use super::guard::RowsBuf;
use super::guard::{alias, ffi_boundary, Buf};
use crate::error::{SkError, SkResult};
use crate::kernels::rows::{normalize_rows_peak, reduce_rows, RowOp};
use crate::kernels::Float;
use crate::simd::current;

/// # Safety
/// `x` readable over its rows, `out` writable for `rows` elements.
unsafe fn rows_ffi<T: Float>(x: RowsBuf<T>, out: *mut T, op: RowOp) -> SkResult<()> {
    x.check()?;
    let o = Buf::out("out", out, x.rows);
    o.check()?;
    let (span, _) = x.span();
    alias(&span, &o, false)?;
    // SAFETY: validated; out disjoint from the rows' span.
    let (xv, os) = unsafe { (x.view(), o.slice_mut()) };
    reduce_rows(current(), xv, op, os).ok_or_else(|| {
        SkError::Length(format!(
            "cols = 0: the {} of an empty row is undefined (rows = {})",
            op.name(),
            x.rows
        ))
    })
}

/// Per-row sum: `out[r] = Σ_c x[r·ld + c]` for `r < rows`; `cols == 0` gives 0.
///
/// Each row goes through the same kernel as `sk_sum_f32`, so `out[r]` equals `sk_sum_f32` on
/// that row bit for bit. Arguments: `x` may be NULL only when `rows == 0` or `cols == 0`; `out`
/// holds `rows` floats and must not share a byte with the rows' span (`SK_ERR_OVERLAP`); both
/// 4-byte aligned; `|ld| >= cols`, else `SK_ERR_BAD_ARGUMENT`.
/// Returns `SK_OK`, `SK_ERR_BAD_ARGUMENT`, `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`,
/// `SK_ERR_LENGTH`, `SK_ERR_OVERLAP`; on error nothing is written. Thread-safe; batches of
/// at least 2^19 elements are split by rows over up to `SIGKERN_THREADS` threads (default: all
/// cores), with results identical to one thread.
///
/// Real-time safe: no (large matrices are split by rows over the worker threads).
///
/// # Safety
/// `x` readable over its rows, `out` writable for `rows` elements.
#[no_mangle]
pub unsafe extern "C" fn sk_rows_sum_f32(
    x: *const f32,
    ld: isize,
    out: *mut f32,
    rows: usize,
    cols: usize,
) -> i32 {
    ffi_boundary!("sk_rows_sum_f32", {
        // SAFETY: the caller guarantees `x` readable over its `rows` rows `ld` apart and `out`
        // writable for `rows` values (the Safety contract above); rows_ffi checks the rows' span,
        // `out` and their overlap first.
        unsafe { rows_ffi(RowsBuf::new("x", x, ld, rows, cols), out, RowOp::Sum) }
    })
}

/// Per-row mean: `out[r] = (Σ_c x[r·ld + c]) / cols` for `r < rows`; `cols == 0` with `rows > 0` is `SK_ERR_LENGTH`.
///
/// Each row goes through the same kernel as `sk_mean_f32`, so `out[r]` equals `sk_mean_f32` on
/// that row bit for bit. Arguments: `x` may be NULL only when `rows == 0` or `cols == 0`; `out`
/// holds `rows` floats and must not share a byte with the rows' span (`SK_ERR_OVERLAP`); both
/// 4-byte aligned; `|ld| >= cols`, else `SK_ERR_BAD_ARGUMENT`.
/// Returns `SK_OK`, `SK_ERR_BAD_ARGUMENT`, `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`,
/// `SK_ERR_LENGTH`, `SK_ERR_OVERLAP`; on error nothing is written. Thread-safe; batches of
/// at least 2^19 elements are split by rows over up to `SIGKERN_THREADS` threads (default: all
/// cores), with results identical to one thread.
///
/// Real-time safe: no (large matrices are split by rows over the worker threads).
///
/// # Safety
/// `x` readable over its rows, `out` writable for `rows` elements.
#[no_mangle]
pub unsafe extern "C" fn sk_rows_mean_f32(
    x: *const f32,
    ld: isize,
    out: *mut f32,
    rows: usize,
    cols: usize,
) -> i32 {
    ffi_boundary!("sk_rows_mean_f32", {
        // SAFETY: the caller guarantees `x` readable over its `rows` rows `ld` apart and `out`
        // writable for `rows` values (the Safety contract above); rows_ffi checks the rows' span,
        // `out` and their overlap first.
        unsafe { rows_ffi(RowsBuf::new("x", x, ld, rows, cols), out, RowOp::Mean) }
    })
}

/// Per-row peak: `out[r] = max_c |x[r·ld + c]|` for `r < rows`; NaN if the row holds a NaN; `cols == 0` with `rows > 0` is `SK_ERR_LENGTH`.
///
/// Each row goes through the same kernel as `sk_peak_f32`, so `out[r]` equals `sk_peak_f32` on
/// that row bit for bit. Arguments: `x` may be NULL only when `rows == 0` or `cols == 0`; `out`
/// holds `rows` floats and must not share a byte with the rows' span (`SK_ERR_OVERLAP`); both
/// 4-byte aligned; `|ld| >= cols`, else `SK_ERR_BAD_ARGUMENT`.
/// Returns `SK_OK`, `SK_ERR_BAD_ARGUMENT`, `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`,
/// `SK_ERR_LENGTH`, `SK_ERR_OVERLAP`; on error nothing is written. Thread-safe; batches of
/// at least 2^19 elements are split by rows over up to `SIGKERN_THREADS` threads (default: all
/// cores), with results identical to one thread.
///
/// Real-time safe: no (large matrices are split by rows over the worker threads).
///
/// # Safety
/// `x` readable over its rows, `out` writable for `rows` elements.
#[no_mangle]
pub unsafe extern "C" fn sk_rows_peak_f32(
    x: *const f32,
    ld: isize,
    out: *mut f32,
    rows: usize,
    cols: usize,
) -> i32 {
    ffi_boundary!("sk_rows_peak_f32", {
        // SAFETY: the caller guarantees `x` readable over its `rows` rows `ld` apart and `out`
        // writable for `rows` values (the Safety contract above); rows_ffi checks the rows' span,
        // `out` and their overlap first.
        unsafe { rows_ffi(RowsBuf::new("x", x, ld, rows, cols), out, RowOp::Peak) }
    })
}

/// Per-row rms: `out[r] = sqrt(Σ_c x[r·ld + c]² / cols)` for `r < rows`; accuracy as `sk_rms_f32`; `cols == 0` with `rows > 0` is `SK_ERR_LENGTH`.
///
/// Each row goes through the same kernel as `sk_rms_f32`, so `out[r]` equals `sk_rms_f32` on
/// that row bit for bit. Arguments: `x` may be NULL only when `rows == 0` or `cols == 0`; `out`
/// holds `rows` floats and must not share a byte with the rows' span (`SK_ERR_OVERLAP`); both
/// 4-byte aligned; `|ld| >= cols`, else `SK_ERR_BAD_ARGUMENT`.
/// Returns `SK_OK`, `SK_ERR_BAD_ARGUMENT`, `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`,
/// `SK_ERR_LENGTH`, `SK_ERR_OVERLAP`; on error nothing is written. Thread-safe; batches of
/// at least 2^19 elements are split by rows over up to `SIGKERN_THREADS` threads (default: all
/// cores), with results identical to one thread.
///
/// Real-time safe: no (large matrices are split by rows over the worker threads).
///
/// # Safety
/// `x` readable over its rows, `out` writable for `rows` elements.
#[no_mangle]
pub unsafe extern "C" fn sk_rows_rms_f32(
    x: *const f32,
    ld: isize,
    out: *mut f32,
    rows: usize,
    cols: usize,
) -> i32 {
    ffi_boundary!("sk_rows_rms_f32", {
        // SAFETY: the caller guarantees `x` readable over its `rows` rows `ld` apart and `out`
        // writable for `rows` values (the Safety contract above); rows_ffi checks the rows' span,
        // `out` and their overlap first.
        unsafe { rows_ffi(RowsBuf::new("x", x, ld, rows, cols), out, RowOp::Rms) }
    })
}

/// Per-row peak normalisation in place: every row is divided by its peak magnitude, so each
/// row with a non-zero peak ends with max |x| exactly 1.0; all-zero rows are left unchanged.
///
/// Any NaN or ±inf anywhere is `SK_ERR_NON_FINITE` (the message names row and column) with
/// nothing written: all peaks are computed before the first write.
/// Arguments as `sk_rows_sum_f32` (no output array).
/// Returns `SK_OK`, `SK_ERR_NON_FINITE`, `SK_ERR_BAD_ARGUMENT`, `SK_ERR_NULL_POINTER`,
/// `SK_ERR_MISALIGNED`, `SK_ERR_LENGTH`. Thread-safe for distinct buffers.
///
/// Real-time safe: no (allocates a list of the rows' peaks).
///
/// # Safety
/// `x` readable and writable over its rows.
#[no_mangle]
pub unsafe extern "C" fn sk_rows_normalize_peak_f32(
    x: *mut f32,
    ld: isize,
    rows: usize,
    cols: usize,
) -> i32 {
    ffi_boundary!("sk_rows_normalize_peak_f32", {
        let b = RowsBuf::new("x", x as *const f32, ld, rows, cols);
        b.check()?;
        // SAFETY: validated; the only live reference.
        let mut v = unsafe { b.view_mut() };
        normalize_rows_peak(current(), &mut v).map_err(|(r, c)| {
            SkError::NonFinite(format!(
                "x row {r}, column {c} = {:?} is not finite; nothing was written",
                v.row(r)[c]
            ))
        })
    })
}

/// Per-row sum of doubles. Rules as `sk_rows_sum_f32` (8-byte alignment).
///
/// Real-time safe: no (large matrices are split by rows over the worker threads).
///
/// # Safety
/// `x` readable over its rows, `out` writable for `rows` elements.
#[no_mangle]
pub unsafe extern "C" fn sk_rows_sum_f64(
    x: *const f64,
    ld: isize,
    out: *mut f64,
    rows: usize,
    cols: usize,
) -> i32 {
    ffi_boundary!("sk_rows_sum_f64", {
        // SAFETY: the caller guarantees `x` readable over its `rows` rows `ld` apart and `out`
        // writable for `rows` values (the Safety contract above); rows_ffi checks the rows' span,
        // `out` and their overlap first.
        unsafe { rows_ffi(RowsBuf::new("x", x, ld, rows, cols), out, RowOp::Sum) }
    })
}

/// Per-row mean of doubles. Rules as `sk_rows_mean_f32` (8-byte alignment).
///
/// Real-time safe: no (large matrices are split by rows over the worker threads).
///
/// # Safety
/// `x` readable over its rows, `out` writable for `rows` elements.
#[no_mangle]
pub unsafe extern "C" fn sk_rows_mean_f64(
    x: *const f64,
    ld: isize,
    out: *mut f64,
    rows: usize,
    cols: usize,
) -> i32 {
    ffi_boundary!("sk_rows_mean_f64", {
        // SAFETY: the caller guarantees `x` readable over its `rows` rows `ld` apart and `out`
        // writable for `rows` values (the Safety contract above); rows_ffi checks the rows' span,
        // `out` and their overlap first.
        unsafe { rows_ffi(RowsBuf::new("x", x, ld, rows, cols), out, RowOp::Mean) }
    })
}

/// Per-row peak of doubles. Rules as `sk_rows_peak_f32` (8-byte alignment).
///
/// Real-time safe: no (large matrices are split by rows over the worker threads).
///
/// # Safety
/// `x` readable over its rows, `out` writable for `rows` elements.
#[no_mangle]
pub unsafe extern "C" fn sk_rows_peak_f64(
    x: *const f64,
    ld: isize,
    out: *mut f64,
    rows: usize,
    cols: usize,
) -> i32 {
    ffi_boundary!("sk_rows_peak_f64", {
        // SAFETY: the caller guarantees `x` readable over its `rows` rows `ld` apart and `out`
        // writable for `rows` values (the Safety contract above); rows_ffi checks the rows' span,
        // `out` and their overlap first.
        unsafe { rows_ffi(RowsBuf::new("x", x, ld, rows, cols), out, RowOp::Peak) }
    })
}

/// Per-row rms of doubles. Rules as `sk_rows_rms_f32` (8-byte alignment).
///
/// Real-time safe: no (large matrices are split by rows over the worker threads).
///
/// # Safety
/// `x` readable over its rows, `out` writable for `rows` elements.
#[no_mangle]
pub unsafe extern "C" fn sk_rows_rms_f64(
    x: *const f64,
    ld: isize,
    out: *mut f64,
    rows: usize,
    cols: usize,
) -> i32 {
    ffi_boundary!("sk_rows_rms_f64", {
        // SAFETY: the caller guarantees `x` readable over its `rows` rows `ld` apart and `out`
        // writable for `rows` values (the Safety contract above); rows_ffi checks the rows' span,
        // `out` and their overlap first.
        unsafe { rows_ffi(RowsBuf::new("x", x, ld, rows, cols), out, RowOp::Rms) }
    })
}

/// Per-row peak normalisation of doubles. Rules as `sk_rows_normalize_peak_f32`.
///
/// Real-time safe: no (allocates a list of the rows' peaks).
///
/// # Safety
/// `x` readable and writable over its rows.
#[no_mangle]
pub unsafe extern "C" fn sk_rows_normalize_peak_f64(
    x: *mut f64,
    ld: isize,
    rows: usize,
    cols: usize,
) -> i32 {
    ffi_boundary!("sk_rows_normalize_peak_f64", {
        let b = RowsBuf::new("x", x as *const f64, ld, rows, cols);
        b.check()?;
        // SAFETY: validated; the only live reference.
        let mut v = unsafe { b.view_mut() };
        normalize_rows_peak(current(), &mut v).map_err(|(r, c)| {
            SkError::NonFinite(format!(
                "x row {r}, column {c} = {:?} is not finite; nothing was written",
                v.row(r)[c]
            ))
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::*;

    #[test]
    fn rows_rules() {
        let x = [3.0f32, -4.0, 0.0, 1.0, 2.0, 9.0];
        let mut out = [7.0f32; 2];
        // SAFETY: `x` holds 6 floats (2 rows of 3) and `out` 2; `x + 3` with ld −3 reads rows 3..6
        // then 0..3, inside `x`.
        unsafe {
            assert_eq!(
                sk_rows_peak_f32(x.as_ptr(), 3, out.as_mut_ptr(), 2, 2),
                SK_OK
            );
            assert_eq!(out, [4.0, 2.0]);
            out = [7.0; 2];
            assert_eq!(
                sk_rows_sum_f32(x.as_ptr(), 1, out.as_mut_ptr(), 2, 2),
                SK_ERR_BAD_ARGUMENT
            );
            assert_eq!(
                sk_rows_mean_f32(x.as_ptr(), 3, out.as_mut_ptr(), 2, 0),
                SK_ERR_LENGTH
            );
            assert_eq!(
                sk_rows_sum_f32(x.as_ptr(), 3, out.as_mut_ptr(), 2, 0),
                SK_OK
            );
            assert_eq!(out, [0.0, 0.0]);
            // negative ld: row 0 is the last three
            assert_eq!(
                sk_rows_sum_f32(x.as_ptr().add(3), -3, out.as_mut_ptr(), 2, 3),
                SK_OK
            );
            assert_eq!(out, [12.0, -1.0]);
        }
        let mut y = [1.0f64, -2.0, 8.0, f64::NAN, 0.0, 0.0];
        // SAFETY: `y` holds 6 doubles (2 rows of 3, ld 3).
        unsafe {
            assert_eq!(
                sk_rows_normalize_peak_f64(y.as_mut_ptr(), 2, 3, 2),
                SK_ERR_NON_FINITE
            );
            assert_eq!(y[0], 1.0);
            y[3] = 4.0;
            assert_eq!(sk_rows_normalize_peak_f64(y.as_mut_ptr(), 2, 3, 2), SK_OK);
        }
        assert_eq!(y, [0.5, -1.0, 1.0, 0.5, 0.0, 0.0]);
    }
}
