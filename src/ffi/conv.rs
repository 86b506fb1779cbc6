//! Convolution and correlation of two real signals (`scipy.signal.fftconvolve` /
//! `scipy.signal.correlate`), modes full/same/valid, direct or FFT by size.

use super::guard::{alias, check_capacity, check_out_scalar, ffi_boundary, size_result, Buf};
use crate::error::{SkError, SkResult};
use crate::kernels::spectral::conv::{convolve, out_range, ConvMethod, ConvMode};
use crate::kernels::spectral::fft::FftFloat;

/// Mode: the full result, `na + nb − 1` samples.
pub const SK_CONV_FULL: i32 = 0;
/// Mode: `na` samples centred on the full result, as scipy's "same".
pub const SK_CONV_SAME: i32 = 1;
/// Mode: `|na − nb| + 1` samples computed without zero padding, as scipy's "valid".
pub const SK_CONV_VALID: i32 = 2;
/// Method: direct summation for short kernels / small outputs, FFT otherwise.
pub const SK_CONV_AUTO: i32 = 0;
/// Method: always direct summation.
pub const SK_CONV_DIRECT: i32 = 1;
/// Method: always FFT (overlap-save).
pub const SK_CONV_FFT: i32 = 2;

fn parse_mode(mode: i32) -> SkResult<ConvMode> {
    match mode {
        SK_CONV_FULL => Ok(ConvMode::Full),
        SK_CONV_SAME => Ok(ConvMode::Same),
        SK_CONV_VALID => Ok(ConvMode::Valid),
        _ => Err(SkError::BadArgument(format!(
            "mode = {mode} is not SK_CONV_FULL (0), SK_CONV_SAME (1) or SK_CONV_VALID (2)"
        ))),
    }
}

fn parse_method(method: i32) -> SkResult<ConvMethod> {
    match method {
        SK_CONV_AUTO => Ok(ConvMethod::Auto),
        SK_CONV_DIRECT => Ok(ConvMethod::Direct),
        SK_CONV_FFT => Ok(ConvMethod::Fft),
        _ => Err(SkError::BadArgument(format!(
            "method = {method} is not SK_CONV_AUTO (0), SK_CONV_DIRECT (1) or SK_CONV_FFT (2)"
        ))),
    }
}

/// Output length of `sk_convolve_*`/`sk_correlate_*` for inputs of `na`, `nb` samples and
/// `mode`, stored in `*n`. Returns `SK_OK`, `SK_ERR_LENGTH` (na or nb is 0, the full length
/// `na + nb − 1` overflows `size_t`, or the length is more floats than a buffer can hold,
/// `PTRDIFF_MAX` bytes), `SK_ERR_BAD_ARGUMENT` (mode),
/// `SK_ERR_NULL_POINTER`/`SK_ERR_MISALIGNED` (n). Thread-safe.
///
/// Real-time safe: yes.
///
/// # Safety
/// `n` writable.
#[no_mangle]
pub unsafe extern "C" fn sk_convolve_len(mode: i32, n: *mut usize, na: usize, nb: usize) -> i32 {
    ffi_boundary!("sk_convolve_len", {
        check_out_scalar("n", n)?;
        let (len, _) = out_range(na, nb, parse_mode(mode)?)?;
        let len = size_result(
            format_args!("the output length of na = {na}, nb = {nb}"),
            Some(len),
            4,
            "floats",
        )?;
        // SAFETY: checked.
        unsafe { *n = len };
        Ok(())
    })
}

#[allow(clippy::too_many_arguments)]
unsafe fn conv_ffi<T: FftFloat>(
    a: *const T,
    b: *const T,
    mode: i32,
    method: i32,
    correlate: bool,
    y: *mut T,
    na: usize,
    nb: usize,
    y_len: usize,
) -> SkResult<()> {
    let mode = parse_mode(mode)?;
    let method = parse_method(method)?;
    let ab = Buf::new("a", a, na);
    let bb = Buf::new("b", b, nb);
    ab.check()?;
    bb.check()?;
    check_capacity("y", y, y_len)?;
    let (need, _) = out_range(na, nb, mode)?;
    if y_len < need {
        return Err(SkError::BufferTooSmall(format!(
            "y holds {y_len} values but this mode needs {need} (na = {na}, nb = {nb})"
        )));
    }
    let yb = Buf::out("y", y, need);
    alias(&ab, &yb, false)?;
    alias(&bb, &yb, false)?;
    // SAFETY: validated; y disjoint from both inputs.
    unsafe {
        convolve(
            ab.slice(),
            bb.slice(),
            mode,
            method,
            correlate,
            yb.slice_mut(),
        )
    }
}

/// Convolution `y = scipy.signal.fftconvolve(a, b, mode)` (or `convolve(a, b, mode,
/// method=...)`): full length na+nb−1; same: na samples starting at full index (nb−1)/2; valid:
/// |na−nb|+1 samples starting at min(na, nb)−1.
///
/// Arguments: `na, nb ≥ 1` (else `SK_ERR_LENGTH`); `mode` `SK_CONV_FULL/SAME/VALID`; `method`
/// `SK_CONV_AUTO/DIRECT/FFT` (FFT rounding differs from direct summation by about
/// 1e-16·Σ|a||b| in double); `y_len` is y's capacity, at least the mode's length
/// (`sk_convolve_len`) else `SK_ERR_BUFFER_TOO_SMALL` stating it; only that many are written.
/// `y` must not overlap `a` or `b`.
/// Returns `SK_OK`, `SK_ERR_LENGTH`, `SK_ERR_BAD_ARGUMENT`, `SK_ERR_BUFFER_TOO_SMALL`,
/// `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`, `SK_ERR_OVERLAP`, `SK_ERR_ALLOCATION` (out of
/// memory for the padded signal or the FFT buffers); on error `y` is untouched.
/// Thread-safe (stateless; long outputs use up to `SIGKERN_THREADS` threads).
///
/// Real-time safe: no (allocates its working memory; long inputs may be split over the worker threads).
///
/// # Safety
/// `a` readable for na, `b` for nb, `y` writable for y_len doubles.
#[no_mangle]
pub unsafe extern "C" fn sk_convolve_f64(
    a: *const f64,
    b: *const f64,
    mode: i32,
    method: i32,
    y: *mut f64,
    na: usize,
    nb: usize,
    y_len: usize,
) -> i32 {
    ffi_boundary!("sk_convolve_f64", {
        // SAFETY: the caller guarantees `a`, `b` readable for `na`, `nb` and `y` writable for
        // `y_len` elements (the Safety contract above); conv_ffi checks every buffer (Buf::check,
        // check_capacity) and the overlaps first.
        unsafe { conv_ffi(a, b, mode, method, false, y, na, nb, y_len) }
    })
}

/// Convolution of floats. Rules as `sk_convolve_f64`.
///
/// Real-time safe: no (allocates its working memory; long inputs may be split over the worker threads).
///
/// # Safety
/// `a` readable for na, `b` for nb, `y` writable for y_len floats.
#[no_mangle]
pub unsafe extern "C" fn sk_convolve_f32(
    a: *const f32,
    b: *const f32,
    mode: i32,
    method: i32,
    y: *mut f32,
    na: usize,
    nb: usize,
    y_len: usize,
) -> i32 {
    ffi_boundary!("sk_convolve_f32", {
        // SAFETY: the caller guarantees `a`, `b` readable for `na`, `nb` and `y` writable for
        // `y_len` elements (the Safety contract above); conv_ffi checks every buffer (Buf::check,
        // check_capacity) and the overlaps first.
        unsafe { conv_ffi(a, b, mode, method, false, y, na, nb, y_len) }
    })
}

/// Cross-correlation `y = scipy.signal.correlate(a, b, mode)` of real signals, i.e. the
/// convolution of `a` with `b` reversed; `y[k]` of the full mode is `Σ_n a[n + k − (nb−1)]·b[n]`.
/// Rules as `sk_convolve_f64`.
///
/// Real-time safe: no (allocates its working memory; long inputs may be split over the worker threads).
///
/// # Safety
/// `a` readable for na, `b` for nb, `y` writable for y_len doubles.
#[no_mangle]
pub unsafe extern "C" fn sk_correlate_f64(
    a: *const f64,
    b: *const f64,
    mode: i32,
    method: i32,
    y: *mut f64,
    na: usize,
    nb: usize,
    y_len: usize,
) -> i32 {
    ffi_boundary!("sk_correlate_f64", {
        // SAFETY: the caller guarantees `a`, `b` readable for `na`, `nb` and `y` writable for
        // `y_len` elements (the Safety contract above); conv_ffi checks every buffer (Buf::check,
        // check_capacity) and the overlaps first.
        unsafe { conv_ffi(a, b, mode, method, true, y, na, nb, y_len) }
    })
}

/// Cross-correlation of floats. Rules as `sk_correlate_f64`.
///
/// Real-time safe: no (allocates its working memory; long inputs may be split over the worker threads).
///
/// # Safety
/// `a` readable for na, `b` for nb, `y` writable for y_len floats.
#[no_mangle]
pub unsafe extern "C" fn sk_correlate_f32(
    a: *const f32,
    b: *const f32,
    mode: i32,
    method: i32,
    y: *mut f32,
    na: usize,
    nb: usize,
    y_len: usize,
) -> i32 {
    ffi_boundary!("sk_correlate_f32", {
        // SAFETY: the caller guarantees `a`, `b` readable for `na`, `nb` and `y` writable for
        // `y_len` elements (the Safety contract above); conv_ffi checks every buffer (Buf::check,
        // check_capacity) and the overlaps first.
        unsafe { conv_ffi(a, b, mode, method, true, y, na, nb, y_len) }
    })
}
