//! Smoothing and detrending (`scipy.signal.medfilt`, `medfilt2d`, the filter of
//! `savgol_filter`, `detrend`): `sk_medfilt_*`, `sk_medfilt2d_*`, `sk_correlate_ext_*`,
//! `sk_detrend_*`.

use super::guard::{alias, ffi_boundary, Alias, Buf};
use crate::error::{SkError, SkResult};
use crate::kernels::analysis::smooth::{
    correlate_ext, detrend_rows, medfilt_2d, medfilt_rows, Extend,
};
use crate::kernels::Float;

/// Boundary mode: `d c b | a b c d | c b a` (scipy.ndimage's "mirror").
pub const SK_EXTEND_MIRROR: i32 = 0;
/// Boundary mode: `d c b a | a b c d | d c b a` (scipy.ndimage's "reflect").
pub const SK_EXTEND_REFLECT: i32 = 1;
/// Boundary mode: the edge value repeated (scipy.ndimage's "nearest").
pub const SK_EXTEND_NEAREST: i32 = 2;
/// Boundary mode: periodic (scipy.ndimage's "wrap").
pub const SK_EXTEND_WRAP: i32 = 3;
/// Boundary mode: the constant `cval` (scipy.ndimage's "constant").
pub const SK_EXTEND_CONSTANT: i32 = 4;

fn span(name: &str, a: usize, b: usize) -> SkResult<usize> {
    a.checked_mul(b)
        .ok_or_else(|| SkError::Length(format!("{name}: {a} × {b} elements overflow size_t")))
}

/// An input and an output of `len` elements that may be the same buffer (in place) but not
/// partially overlap; `Alias::Same` copies the input first (the kernels read every input value
/// more than once).
unsafe fn io_copy<'a, T: Float>(
    x: *const T,
    y: *mut T,
    len: usize,
) -> SkResult<(std::borrow::Cow<'a, [T]>, &'a mut [T])> {
    let xb = Buf::new("x", x, len);
    xb.check()?;
    let yb = Buf::out("y", y, len);
    yb.check()?;
    let same = alias(&xb, &yb, true)? == Alias::Same;
    // SAFETY: both buffers passed Buf::check for `len` elements; when they are the same buffer
    // the input is copied before the output slice exists, so the two views never coexist over
    // one memory; distinct buffers do not overlap (alias check).
    unsafe {
        let src = if same {
            std::borrow::Cow::Owned(crate::kernels::alloc::try_copy(xb.slice(), "a copy of x")?)
        } else {
            std::borrow::Cow::Borrowed(xb.slice())
        };
        Ok((src, yb.slice_mut()))
    }
}

unsafe fn medfilt_ffi<T: Float>(
    x: *const T,
    k: usize,
    y: *mut T,
    rows: usize,
    n: usize,
) -> SkResult<()> {
    if k % 2 != 1 {
        return Err(SkError::BadArgument(format!(
            "kernel_size = {k} must be odd (and at least 1)"
        )));
    }
    let len = span("x", rows, n)?;
    // SAFETY: the caller's contract; io_copy checks both buffers and their overlap.
    let (src, dst) = unsafe { io_copy(x, y, len)? };
    medfilt_rows(&src, rows, n, k, dst)
}

/// Median filter `y = scipy.signal.medfilt(x, k)` along each of `rows` rows of `n` values: `y[i]`
/// is the median of `x[i − k/2 ..= i + k/2]`, zeros outside the row. Bit-exact (the median is one
/// of the window's values) for every input without NaN; NaN sorts above every number here
/// (scipy leaves its order unspecified). `k` odd ≥ 1; k = 3 and 5 run selection networks over
/// SIMD lanes, larger kernels a sorted sliding window. In place allowed (`y == x`).
///
/// Returns `SK_OK`; `SK_ERR_BAD_ARGUMENT` (k even or 0); `SK_ERR_LENGTH` (sizes overflowing);
/// `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`, `SK_ERR_OVERLAP` (partial overlap),
/// `SK_ERR_ALLOCATION`. On error `y` is untouched. Thread-safe; rows are split over up to
/// `SIGKERN_THREADS` threads.
///
/// Real-time safe: no (allocates a padded row per thread; rows may be split over the worker threads).
///
/// # Safety
/// `x` readable and `y` writable for `rows·n` doubles.
#[no_mangle]
pub unsafe extern "C" fn sk_medfilt_f64(
    x: *const f64,
    k: usize,
    y: *mut f64,
    rows: usize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_medfilt_f64", {
        // SAFETY: the caller's contract (above); medfilt_ffi checks the buffers first.
        unsafe { medfilt_ffi(x, k, y, rows, n) }
    })
}

/// Median filter of floats. Rules as `sk_medfilt_f64`.
///
/// Real-time safe: no (allocates a padded row per thread; rows may be split over the worker threads).
///
/// # Safety
/// `x` readable and `y` writable for `rows·n` floats.
#[no_mangle]
pub unsafe extern "C" fn sk_medfilt_f32(
    x: *const f32,
    k: usize,
    y: *mut f32,
    rows: usize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_medfilt_f32", {
        // SAFETY: the caller's contract (above); medfilt_ffi checks the buffers first.
        unsafe { medfilt_ffi(x, k, y, rows, n) }
    })
}

unsafe fn medfilt2d_ffi<T: Float>(
    x: *const T,
    kh: usize,
    kw: usize,
    y: *mut T,
    h: usize,
    w: usize,
) -> SkResult<()> {
    for (name, k) in [("kernel_size[0]", kh), ("kernel_size[1]", kw)] {
        if k % 2 != 1 {
            return Err(SkError::BadArgument(format!(
                "{name} = {k} must be odd (and at least 1)"
            )));
        }
    }
    let len = span("x", h, w)?;
    // SAFETY: the caller's contract; io_copy checks both buffers and their overlap.
    let (src, dst) = unsafe { io_copy(x, y, len)? };
    medfilt_2d(&src, h, w, kh, kw, dst)
}

/// 2-D median filter `y = scipy.signal.medfilt(x, (kh, kw))` of an `h × w` image (row-major):
/// the median of the `kh × kw` window centred on each value, zeros outside. Bit-exact without
/// NaN (NaN sorts above every number). `kh`, `kw` odd ≥ 1. In place allowed (`y == x`).
///
/// Returns `SK_OK`; `SK_ERR_BAD_ARGUMENT` (an even or zero kernel size); `SK_ERR_LENGTH`;
/// `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`, `SK_ERR_OVERLAP`, `SK_ERR_ALLOCATION`. On error
/// `y` is untouched. Thread-safe; image rows are split over up to `SIGKERN_THREADS` threads.
///
/// Real-time safe: no (allocates a window per thread; rows may be split over the worker threads).
///
/// # Safety
/// `x` readable and `y` writable for `h·w` doubles.
#[no_mangle]
pub unsafe extern "C" fn sk_medfilt2d_f64(
    x: *const f64,
    kh: usize,
    kw: usize,
    y: *mut f64,
    h: usize,
    w: usize,
) -> i32 {
    ffi_boundary!("sk_medfilt2d_f64", {
        // SAFETY: the caller's contract (above); medfilt2d_ffi checks the buffers first.
        unsafe { medfilt2d_ffi(x, kh, kw, y, h, w) }
    })
}

/// 2-D median filter of floats. Rules as `sk_medfilt2d_f64`.
///
/// Real-time safe: no (allocates a window per thread; rows may be split over the worker threads).
///
/// # Safety
/// `x` readable and `y` writable for `h·w` floats.
#[no_mangle]
pub unsafe extern "C" fn sk_medfilt2d_f32(
    x: *const f32,
    kh: usize,
    kw: usize,
    y: *mut f32,
    h: usize,
    w: usize,
) -> i32 {
    ffi_boundary!("sk_medfilt2d_f32", {
        // SAFETY: the caller's contract (above); medfilt2d_ffi checks the buffers first.
        unsafe { medfilt2d_ffi(x, kh, kw, y, h, w) }
    })
}

fn parse_extend(mode: i32, cval: f64) -> SkResult<Extend> {
    match mode {
        SK_EXTEND_MIRROR => Ok(Extend::Mirror),
        SK_EXTEND_REFLECT => Ok(Extend::Reflect),
        SK_EXTEND_NEAREST => Ok(Extend::Nearest),
        SK_EXTEND_WRAP => Ok(Extend::Wrap),
        SK_EXTEND_CONSTANT => Ok(Extend::Constant(cval)),
        _ => Err(SkError::BadArgument(format!(
            "mode = {mode} is not SK_EXTEND_MIRROR (0), SK_EXTEND_REFLECT (1), SK_EXTEND_NEAREST (2), \
             SK_EXTEND_WRAP (3) or SK_EXTEND_CONSTANT (4)"
        ))),
    }
}

#[allow(clippy::too_many_arguments)]
unsafe fn corr_ext_ffi<T: Float>(
    x: *const T,
    taps: *const f64,
    ntaps: usize,
    left: usize,
    mode: i32,
    cval: f64,
    y: *mut T,
    rows: usize,
    n: usize,
) -> SkResult<()> {
    let mode = parse_extend(mode, cval)?;
    if ntaps == 0 {
        return Err(SkError::Length("ntaps = 0: the filter needs a tap".into()));
    }
    if left >= ntaps {
        return Err(SkError::BadArgument(format!(
            "left = {left} must be less than ntaps = {ntaps}"
        )));
    }
    let tb = Buf::new("taps", taps, ntaps);
    tb.check()?;
    let len = span("x", rows, n)?;
    let yb = Buf::out("y", y, len);
    alias(&tb, &yb, false)?;
    // SAFETY: the caller's contract; io_copy checks x and y and their overlap, taps passed
    // Buf::check for ntaps values and does not overlap y.
    let (src, dst) = unsafe { io_copy(x, y, len)? };
    // SAFETY: as above.
    let t = unsafe { tb.slice() };
    correlate_ext(&src, rows, n, t, left, mode, dst)
}

/// Correlation of each of `rows` rows of `n` values with `ntaps` double taps, the row extended
/// at both ends by `mode` (`SK_EXTEND_MIRROR/REFLECT/NEAREST/WRAP/CONSTANT` with `cval`, as
/// scipy.ndimage's modes of those names): `y[i] = Σ_j taps[j]·x̃[i + j − left]`, `left <
/// ntaps` (scipy.ndimage.correlate1d: `left = ntaps/2 + origin`; convolve1d with reversed taps).
/// Summed in double. In place allowed (`y == x`).
///
/// Returns `SK_OK`; `SK_ERR_LENGTH` (ntaps = 0, sizes overflowing); `SK_ERR_BAD_ARGUMENT` (left ≥
/// ntaps, a bad mode); `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`, `SK_ERR_OVERLAP`,
/// `SK_ERR_ALLOCATION`. On error `y` is untouched. Thread-safe; rows are split over up to
/// `SIGKERN_THREADS` threads.
///
/// Real-time safe: no (allocates a block buffer per thread; rows may be split over the worker threads).
///
/// # Safety
/// `x` readable and `y` writable for `rows·n` doubles, `taps` readable for `ntaps`.
#[no_mangle]
pub unsafe extern "C" fn sk_correlate_ext_f64(
    x: *const f64,
    taps: *const f64,
    ntaps: usize,
    left: usize,
    mode: i32,
    cval: f64,
    y: *mut f64,
    rows: usize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_correlate_ext_f64", {
        // SAFETY: the caller's contract (above); corr_ext_ffi checks every buffer first.
        unsafe { corr_ext_ffi(x, taps, ntaps, left, mode, cval, y, rows, n) }
    })
}

/// Correlation with boundary modes of floats (double taps, summed in double). Rules as
/// `sk_correlate_ext_f64`.
///
/// Real-time safe: no (allocates a block buffer per thread; rows may be split over the worker threads).
///
/// # Safety
/// `x` readable and `y` writable for `rows·n` floats, `taps` readable for `ntaps` doubles.
#[no_mangle]
pub unsafe extern "C" fn sk_correlate_ext_f32(
    x: *const f32,
    taps: *const f64,
    ntaps: usize,
    left: usize,
    mode: i32,
    cval: f64,
    y: *mut f32,
    rows: usize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_correlate_ext_f32", {
        // SAFETY: the caller's contract (above); corr_ext_ffi checks every buffer first.
        unsafe { corr_ext_ffi(x, taps, ntaps, left, mode, cval, y, rows, n) }
    })
}

unsafe fn detrend_ffi<T: Float>(
    x: *const T,
    linear: i32,
    bp: *const usize,
    nbp: usize,
    y: *mut T,
    rows: usize,
    n: usize,
) -> SkResult<()> {
    let bb = Buf::new("bp", bp, nbp);
    bb.check()?;
    let len = span("x", rows, n)?;
    // SAFETY: the caller's contract; io_copy checks x and y and their overlap; bp passed
    // Buf::check for nbp values (a separate type: it cannot be y).
    let (src, dst) = unsafe { io_copy(x, y, len)? };
    // SAFETY: as above.
    let b = unsafe { bb.slice() };
    detrend_rows(&src, rows, n, linear != 0, b, dst)
}

/// Detrend `y = scipy.signal.detrend(x, type=...)` of `rows` rows of `n` values: `linear = 0`
/// removes each row's mean; `linear ≠ 0` removes, on each segment between consecutive
/// breakpoints (`bp`: `nbp` strictly increasing indices ≤ n, with 0 and n implied), its
/// least-squares line. Computed in double. In place allowed (`y == x`).
///
/// Returns `SK_OK`; `SK_ERR_BAD_ARGUMENT` (breakpoints not increasing or beyond n);
/// `SK_ERR_LENGTH`; `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`, `SK_ERR_OVERLAP`,
/// `SK_ERR_ALLOCATION`. On error `y` is untouched. Thread-safe.
///
/// Real-time safe: no (may copy the input for an in-place call; rows may be split over the worker threads).
///
/// # Safety
/// `x` readable and `y` writable for `rows·n` doubles, `bp` readable for `nbp`.
#[no_mangle]
pub unsafe extern "C" fn sk_detrend_f64(
    x: *const f64,
    linear: i32,
    bp: *const usize,
    nbp: usize,
    y: *mut f64,
    rows: usize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_detrend_f64", {
        // SAFETY: the caller's contract (above); detrend_ffi checks every buffer first.
        unsafe { detrend_ffi(x, linear, bp, nbp, y, rows, n) }
    })
}

/// Detrend of floats (computed in double). Rules as `sk_detrend_f64`.
///
/// Real-time safe: no (may copy the input for an in-place call; rows may be split over the worker threads).
///
/// # Safety
/// `x` readable and `y` writable for `rows·n` floats, `bp` readable for `nbp`.
#[no_mangle]
pub unsafe extern "C" fn sk_detrend_f32(
    x: *const f32,
    linear: i32,
    bp: *const usize,
    nbp: usize,
    y: *mut f32,
    rows: usize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_detrend_f32", {
        // SAFETY: the caller's contract (above); detrend_ffi checks every buffer first.
        unsafe { detrend_ffi(x, linear, bp, nbp, y, rows, n) }
    })
}
