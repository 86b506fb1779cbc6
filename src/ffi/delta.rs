//! Delta features (`sk_delta_*`): `librosa.feature.delta` (scipy's Savitzky–Golay derivative)
//! over rows.

use super::fft::extent;
use super::guard::{alias, check_capacity, ffi_boundary, Buf};
use crate::error::{SkError, SkResult};
use crate::kernels::speech::delta::{DeltaMode, DeltaPlan};
use crate::kernels::Float;

/// Delta edge mode: fit the polynomial to the first / last window (librosa's default `interp`).
pub const SK_DELTA_INTERP: i32 = 0;
/// Delta edge mode: mirror about the end samples (`d c b | a b c d | c b a`).
pub const SK_DELTA_MIRROR: i32 = 1;
/// Delta edge mode: `cval` outside the signal.
pub const SK_DELTA_CONSTANT: i32 = 2;
/// Delta edge mode: repeat the end samples (`a a | a b c d | d d`).
pub const SK_DELTA_NEAREST: i32 = 3;
/// Delta edge mode: periodic (`c d | a b c d | a b`).
pub const SK_DELTA_WRAP: i32 = 4;

/// Shared body of `sk_delta_f32` / `sk_delta_f64`.
///
/// # Safety
/// `x` readable for `(rows − 1)·x_stride + n` elements, `y` writable for `y_len` (NULL,
/// alignment, sizes and overlap are checked here).
#[allow(clippy::too_many_arguments)]
unsafe fn delta_ffi<T: Float>(
    x: *const T,
    x_stride: isize,
    rows: usize,
    y: *mut T,
    y_len: usize,
    n: usize,
    width: usize,
    order: usize,
    polyorder: usize,
    mode: i32,
    cval: f64,
    delta: f64,
) -> SkResult<()> {
    let mode = match mode {
        SK_DELTA_INTERP => DeltaMode::Interp,
        SK_DELTA_MIRROR => DeltaMode::Mirror,
        SK_DELTA_CONSTANT => DeltaMode::Constant(cval),
        SK_DELTA_NEAREST => DeltaMode::Nearest,
        SK_DELTA_WRAP => DeltaMode::Wrap,
        m => {
            return Err(SkError::BadArgument(format!(
                "mode = {m} is not an SK_DELTA_* constant (0 … 4)"
            )))
        }
    };
    let plan = DeltaPlan::new(width, order, polyorder, mode, delta)?;
    if n == 0 {
        return Err(SkError::Length(
            "n = 0: a delta needs at least one sample".into(),
        ));
    }
    plan.check_len(n)?;
    let xl = extent("x", rows, n, x_stride, false, 0)?;
    let xb = Buf::new("x", x, xl);
    xb.check()?;
    check_capacity("y", y, y_len)?;
    let need = rows
        .checked_mul(n)
        .ok_or_else(|| SkError::Length("rows × n overflows".into()))?;
    if y_len < need {
        return Err(SkError::BufferTooSmall(format!(
            "y holds {y_len} values but rows {rows} × n {n} = {need} are needed"
        )));
    }
    let yb = Buf::out("y", y, need);
    yb.check()?;
    alias(&xb, &yb, false)?;
    if need == 0 {
        return Ok(());
    }
    // SAFETY: `xb.check()` passed for the span `extent` computed, `yb.check()` for `need`
    // (≤ `y_len`); readable / writable per the caller's contract; `alias` proved them disjoint;
    // the slices die with this call.
    let (xs, ys) = unsafe { (xb.slice(), yb.slice_mut()) };
    plan.compute(xs, x_stride as usize, rows, n, ys)
}

/// Delta features of `rows` signals of `n ≥ 1` floats, row `r` at `x + r·x_stride`
/// (`x_stride ≥ 0`), as `librosa.feature.delta(x, width=width, order=order, mode=...)` along
/// the rows, i.e. `scipy.signal.savgol_filter(x, width, polyorder, deriv=order, delta=delta,
/// mode=..., cval=cval)`: the `order`-th derivative of the least-squares polynomial of degree
/// `polyorder` (librosa: `polyorder = order`) over each window of `width` samples (odd, ≥ 3,
/// ≤ 4097), divided by `delta^order`; `order > polyorder` gives zeros. `mode` `SK_DELTA_*`:
/// `SK_DELTA_INTERP` (needs `n ≥ width`) differentiates the fit to the first / last window at
/// the edge samples, the others extend the signal (`cval` for `SK_DELTA_CONSTANT`). `y`
/// receives `(rows, n)` row-major; rows are split over up to `SIGKERN_THREADS` threads.
/// Returns `SK_OK`, `SK_ERR_BAD_ARGUMENT` (width, order, polyorder ≥ width, mode, delta 0 or
/// not finite, NaN cval, `n < width` with interp, negative `x_stride`), `SK_ERR_LENGTH`
/// (n = 0), `SK_ERR_BUFFER_TOO_SMALL`, `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`,
/// `SK_ERR_OVERLAP`, `SK_ERR_ALLOCATION`; on error `y` is untouched. Thread-safe.
///
/// Real-time safe: no (allocates the filter weights).
///
/// # Safety
/// `x` readable for `(rows−1)·x_stride + n` floats; `y` writable for `y_len`.
#[no_mangle]
pub unsafe extern "C" fn sk_delta_f32(
    x: *const f32,
    x_stride: isize,
    rows: usize,
    y: *mut f32,
    y_len: usize,
    n: usize,
    width: usize,
    order: usize,
    polyorder: usize,
    mode: i32,
    cval: f64,
    delta: f64,
) -> i32 {
    ffi_boundary!("sk_delta_f32", {
        // SAFETY: this function's contract is `delta_ffi`'s; everything is checked inside.
        unsafe {
            delta_ffi(
                x, x_stride, rows, y, y_len, n, width, order, polyorder, mode, cval, delta,
            )
        }
    })
}

/// Delta features of doubles. Rules as `sk_delta_f32`.
///
/// Real-time safe: no (allocates the filter weights).
///
/// # Safety
/// `x` readable for `(rows−1)·x_stride + n` doubles; `y` writable for `y_len`.
#[no_mangle]
pub unsafe extern "C" fn sk_delta_f64(
    x: *const f64,
    x_stride: isize,
    rows: usize,
    y: *mut f64,
    y_len: usize,
    n: usize,
    width: usize,
    order: usize,
    polyorder: usize,
    mode: i32,
    cval: f64,
    delta: f64,
) -> i32 {
    ffi_boundary!("sk_delta_f64", {
        // SAFETY: this function's contract is `delta_ffi`'s; everything is checked inside.
        unsafe {
            delta_ffi(
                x, x_stride, rows, y, y_len, n, width, order, polyorder, mode, cval, delta,
            )
        }
    })
}
