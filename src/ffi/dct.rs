//! Discrete cosine transforms (`sk_dct_*`, `sk_idct_*`): types I–IV as `scipy.fft.dct` /
//! `scipy.fft.idct`, any length, over rows.

use super::fft::{extent, parse_norm};
use super::guard::{alias, check_capacity, ffi_boundary, Buf};
use crate::error::{SkError, SkResult};
use crate::kernels::spectral::dct::DctPlan;
use crate::kernels::spectral::fft::{FftFloat, PlanCache};

fn parse_ty(ty: i32) -> SkResult<u8> {
    match ty {
        1..=4 => Ok(ty as u8),
        _ => Err(SkError::BadArgument(format!(
            "dct_type = {ty}; the DCT types are 1, 2, 3 and 4"
        ))),
    }
}

fn parse_flag(name: &str, v: i32) -> SkResult<bool> {
    match v {
        0 => Ok(false),
        1 => Ok(true),
        _ => Err(SkError::BadArgument(format!(
            "{name} = {v}; it must be 0 or 1"
        ))),
    }
}

/// Shared body of the four entry points.
///
/// # Safety
/// `x` readable for `(rows − 1)·x_stride + n` elements, `y` writable for `y_len` (NULL,
/// alignment, sizes and overlap are checked here).
#[allow(clippy::too_many_arguments)]
unsafe fn dct_ffi<T: FftFloat + PlanCache>(
    inverse: bool,
    ty: i32,
    norm: i32,
    orthogonalize: i32,
    x: *const T,
    x_stride: isize,
    rows: usize,
    y: *mut T,
    y_len: usize,
    n: usize,
) -> SkResult<()> {
    let ty = parse_ty(ty)?;
    let norm = parse_norm(norm)?;
    let ortho = parse_flag("orthogonalize", orthogonalize)?;
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
    let plan = DctPlan::<T>::cached(ty, n)?;
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
    plan.compute(xs, x_stride as usize, rows, ys, inverse, norm, ortho)
}

/// DCT of `dct_type` 1 … 4 of `rows` rows of `n` floats, row `r` at `x + r·x_stride`
/// (`x_stride ≥ 0`; 0 repeats one row), as `scipy.fft.dct(x, type, norm=..., orthogonalize=...)`
/// along the rows: unnormalised sums (type II: `y_k = 2Σ x_j cos(πk(2j+1)/(2n))`), scaled by
/// `norm` (`SK_NORM_BACKWARD`: 1, `SK_NORM_ORTHO`: `1/√M`, `SK_NORM_FORWARD`: `1/M`, with
/// `M = 2(n−1)` for type I and `2n` otherwise); `orthogonalize` 1 makes the ortho-scaled matrix
/// orthogonal as scipy does (types I–III; scipy's default with `norm="ortho"`), 0 leaves it.
/// Any `n ≥ 1` (type I: `n ≥ 2`), primes included, each row on one FFT of the library. `y`
/// receives `(rows, n)` row-major; `y_len` is its capacity. Rows are split over up to
/// `SIGKERN_THREADS` threads.
/// Returns `SK_OK`, `SK_ERR_BAD_ARGUMENT` (dct_type, norm, orthogonalize, negative `x_stride`),
/// `SK_ERR_LENGTH` (n = 0, type I with n = 1, n > 2^27), `SK_ERR_BUFFER_TOO_SMALL`,
/// `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`, `SK_ERR_OVERLAP`, `SK_ERR_ALLOCATION`; on error
/// `y` is untouched. Thread-safe.
///
/// Real-time safe: no (plans on a first call and allocates working memory).
///
/// # Safety
/// `x` readable for `(rows−1)·x_stride + n` floats; `y` writable for `y_len`.
#[no_mangle]
pub unsafe extern "C" fn sk_dct_f32(
    dct_type: i32,
    norm: i32,
    orthogonalize: i32,
    x: *const f32,
    x_stride: isize,
    rows: usize,
    y: *mut f32,
    y_len: usize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_dct_f32", {
        // SAFETY: this function's contract is `dct_ffi`'s; everything is checked inside.
        unsafe {
            dct_ffi(
                false,
                dct_type,
                norm,
                orthogonalize,
                x,
                x_stride,
                rows,
                y,
                y_len,
                n,
            )
        }
    })
}

/// DCT of doubles. Rules as `sk_dct_f32`.
///
/// Real-time safe: no (plans on a first call and allocates working memory).
///
/// # Safety
/// `x` readable for `(rows−1)·x_stride + n` doubles; `y` writable for `y_len`.
#[no_mangle]
pub unsafe extern "C" fn sk_dct_f64(
    dct_type: i32,
    norm: i32,
    orthogonalize: i32,
    x: *const f64,
    x_stride: isize,
    rows: usize,
    y: *mut f64,
    y_len: usize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_dct_f64", {
        // SAFETY: this function's contract is `dct_ffi`'s; everything is checked inside.
        unsafe {
            dct_ffi(
                false,
                dct_type,
                norm,
                orthogonalize,
                x,
                x_stride,
                rows,
                y,
                y_len,
                n,
            )
        }
    })
}

/// Inverse DCT as `scipy.fft.idct(x, type, norm=..., orthogonalize=...)`: type 2 ↔ the DCT-III
/// and type 3 ↔ the DCT-II, types 1 and 4 themselves, scaled so that
/// `idct(dct(x)) = x` for the same `dct_type`, `norm` and `orthogonalize` (`SK_NORM_BACKWARD`:
/// `1/M`, `SK_NORM_ORTHO`: `1/√M`, `SK_NORM_FORWARD`: 1). Rules as `sk_dct_f32`.
///
/// Real-time safe: no (plans on a first call and allocates working memory).
///
/// # Safety
/// `x` readable for `(rows−1)·x_stride + n` floats; `y` writable for `y_len`.
#[no_mangle]
pub unsafe extern "C" fn sk_idct_f32(
    dct_type: i32,
    norm: i32,
    orthogonalize: i32,
    x: *const f32,
    x_stride: isize,
    rows: usize,
    y: *mut f32,
    y_len: usize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_idct_f32", {
        // SAFETY: this function's contract is `dct_ffi`'s; everything is checked inside.
        unsafe {
            dct_ffi(
                true,
                dct_type,
                norm,
                orthogonalize,
                x,
                x_stride,
                rows,
                y,
                y_len,
                n,
            )
        }
    })
}

/// Inverse DCT of doubles. Rules as `sk_idct_f32`.
///
/// Real-time safe: no (plans on a first call and allocates working memory).
///
/// # Safety
/// `x` readable for `(rows−1)·x_stride + n` doubles; `y` writable for `y_len`.
#[no_mangle]
pub unsafe extern "C" fn sk_idct_f64(
    dct_type: i32,
    norm: i32,
    orthogonalize: i32,
    x: *const f64,
    x_stride: isize,
    rows: usize,
    y: *mut f64,
    y_len: usize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_idct_f64", {
        // SAFETY: this function's contract is `dct_ffi`'s; everything is checked inside.
        unsafe {
            dct_ffi(
                true,
                dct_type,
                norm,
                orthogonalize,
                x,
                x_stride,
                rows,
                y,
                y_len,
                n,
            )
        }
    })
}
