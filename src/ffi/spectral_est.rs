//! Spectral estimation (`scipy.signal.welch`, `csd`, `periodogram`, `spectrogram`) and the
//! analytic signal (`scipy.signal.hilbert`): `sk_spectral_est_*`, `sk_hilbert_*`.

use super::guard::{alias, check_capacity, ffi_boundary, Buf};
use super::spec::SpecFloat;
use crate::error::{SkError, SkResult};
use crate::kernels::analysis::hilbert::hilbert;
use crate::kernels::analysis::spectral_est::{
    spectral_est, Average, Detrend, EstOutput, EstParams,
};
use crate::kernels::spectral::Complex;

/// Detrend: none.
pub const SK_DETREND_NONE: i32 = 0;
/// Detrend: subtract each segment's mean (scipy's `detrend='constant'`).
pub const SK_DETREND_CONSTANT: i32 = 1;
/// Detrend: subtract each segment's least-squares line (scipy's `detrend='linear'`).
pub const SK_DETREND_LINEAR: i32 = 2;
/// Average: keep every segment (a spectrogram).
pub const SK_AVERAGE_NONE: i32 = 0;
/// Average: the mean of the segments (scipy's `average='mean'`).
pub const SK_AVERAGE_MEAN: i32 = 1;
/// Average: the median of the segments divided by the median bias (scipy's `average='median'`).
pub const SK_AVERAGE_MEDIAN: i32 = 2;
/// Output: the power `|X|²·scale` (real).
pub const SK_SPECTRUM_POWER: i32 = 0;
/// Output: the cross spectrum `conj(X)·Y·scale` (complex).
pub const SK_SPECTRUM_CROSS: i32 = 1;
/// Output: the complex spectrum `X·scale`, never doubled (complex).
pub const SK_SPECTRUM_COMPLEX: i32 = 2;

fn parse_detrend(d: i32) -> SkResult<Detrend> {
    match d {
        SK_DETREND_NONE => Ok(Detrend::None),
        SK_DETREND_CONSTANT => Ok(Detrend::Constant),
        SK_DETREND_LINEAR => Ok(Detrend::Linear),
        _ => Err(SkError::BadArgument(format!(
            "detrend = {d} is not SK_DETREND_NONE (0), SK_DETREND_CONSTANT (1) or SK_DETREND_LINEAR (2)"
        ))),
    }
}

fn parse_average(a: i32) -> SkResult<Average> {
    match a {
        SK_AVERAGE_NONE => Ok(Average::None),
        SK_AVERAGE_MEAN => Ok(Average::Mean),
        SK_AVERAGE_MEDIAN => Ok(Average::Median),
        _ => Err(SkError::BadArgument(format!(
            "average = {a} is not SK_AVERAGE_NONE (0), SK_AVERAGE_MEAN (1) or SK_AVERAGE_MEDIAN (2)"
        ))),
    }
}

fn parse_output(o: i32) -> SkResult<EstOutput> {
    match o {
        SK_SPECTRUM_POWER => Ok(EstOutput::Power),
        SK_SPECTRUM_CROSS => Ok(EstOutput::Cross),
        SK_SPECTRUM_COMPLEX => Ok(EstOutput::Complex),
        _ => Err(SkError::BadArgument(format!(
            "output = {o} is not SK_SPECTRUM_POWER (0), SK_SPECTRUM_CROSS (1) or SK_SPECTRUM_COMPLEX (2)"
        ))),
    }
}

/// `rows · n` elements, or `SK_ERR_LENGTH`.
fn span(name: &str, rows: usize, n: usize) -> SkResult<usize> {
    rows.checked_mul(n).ok_or_else(|| {
        SkError::Length(format!(
            "{name}: rows = {rows} × n = {n} elements overflow size_t"
        ))
    })
}

#[allow(clippy::too_many_arguments)]
unsafe fn est_ffi<T: SpecFloat>(
    x: *const T,
    y: *const T,
    window: *const T,
    nperseg: usize,
    noverlap: usize,
    nfft: usize,
    detrend: i32,
    onesided: i32,
    scale: f64,
    average: i32,
    output: i32,
    out: *mut T,
    rows: usize,
    n: usize,
    out_len: usize,
) -> SkResult<()> {
    if noverlap >= nperseg {
        return Err(SkError::BadArgument(format!(
            "noverlap = {noverlap} must be less than nperseg = {nperseg}"
        )));
    }
    let p = EstParams {
        nperseg,
        step: nperseg - noverlap,
        nfft,
        detrend: parse_detrend(detrend)?,
        onesided: onesided != 0,
        scale,
        average: parse_average(average)?,
        output: parse_output(output)?,
    };
    p.check()?;
    let len = span("x", rows, n)?;
    let xb = Buf::new("x", x, len);
    xb.check()?;
    let yb = if p.output == EstOutput::Cross {
        let b = Buf::new("y", y, len);
        if y.is_null() && len > 0 {
            return Err(SkError::NullPointer(
                "argument y is NULL; SK_SPECTRUM_CROSS needs the second signal".into(),
            ));
        }
        b.check()?;
        Some(b)
    } else {
        None
    };
    let wb = Buf::new("window", window, nperseg);
    wb.check()?;
    check_capacity("out", out, out_len)?;
    let row = p.row_len(n).ok_or_else(|| {
        SkError::Length(format!("the output of one row of n = {n} overflows size_t"))
    })?;
    let need = span("out", rows, row)?;
    if out_len < need {
        return Err(SkError::BufferTooSmall(format!(
            "out holds {out_len} values but {need} are needed ({rows} rows of {row})"
        )));
    }
    let ob = Buf::out("out", out, need);
    alias(&xb, &ob, false)?;
    alias(&wb, &ob, false)?;
    if let Some(b) = &yb {
        alias(b, &ob, false)?;
    }
    // SAFETY: every buffer passed Buf::check above for exactly the span the kernel reads or
    // writes (x, y: rows·n; window: nperseg; out: rows·row_len ≤ out_len), and out overlaps no
    // input (alias checks); the caller's contract makes them valid for the call.
    unsafe {
        spectral_est(
            xb.slice(),
            yb.as_ref().map(|b| b.slice()),
            rows,
            n,
            wb.slice(),
            &p,
            ob.slice_mut(),
        )
    }
}

/// Spectral estimate of `rows` signals of `n` samples (`scipy.signal.welch`/`csd`/
/// `periodogram`/`spectrogram`'s core). Each row is cut into `(n − nperseg)/(nperseg −
/// noverlap) + 1` segments (none when `n < nperseg`) of `nperseg` samples starting `nperseg −
/// noverlap` apart; each segment is detrended (`detrend`: `SK_DETREND_NONE/CONSTANT/LINEAR`),
/// multiplied by `window` (`nperseg` values), zero-padded to `nfft` and transformed; bin `k`
/// becomes (`output`) `SK_SPECTRUM_POWER` `|X_k|²·scale`, `SK_SPECTRUM_CROSS` `conj(X_k)·Y_k·scale`
/// (`y`: the second signal, same shape; NULL otherwise), or `SK_SPECTRUM_COMPLEX` `X_k·scale`.
/// With `onesided ≠ 0` the `nfft/2 + 1` non-negative bins are kept and, for power and cross
/// spectra, the bins other than 0 and (even `nfft`) `nfft/2` are doubled; otherwise all `nfft`
/// bins in FFT order. `average`: `SK_AVERAGE_MEAN`, `SK_AVERAGE_MEDIAN` (per bin, real and
/// imaginary parts separately, divided by scipy's median bias `1 + Σ_{i=1}^{⌊(m−1)/2⌋}
/// (1/(2i+1) − 1/(2i))` for m > 1 segments) → one row of `n_out` bins per signal; or
/// `SK_AVERAGE_NONE` → every segment, frequency-major (`n_out × segments` per signal, bin `k` of
/// segment `s` at `k·segments + s`). Complex outputs are interleaved `(re, im)` (count in floats
/// below). `scale` is the caller's (scipy: `1/(fs·Σw²)` density, `1/(Σw)²` spectrum, their square
/// root for the complex spectrum).
///
/// `out_len` is out's capacity in elements; needed: `rows · n_out · (2 if complex) · (segments
/// if SK_AVERAGE_NONE, else 1 when segments > 0, else 0)`, else `SK_ERR_BUFFER_TOO_SMALL`
/// stating it. Returns `SK_OK`; `SK_ERR_LENGTH` (nperseg = 0, nfft > 2^28, sizes overflowing);
/// `SK_ERR_BAD_ARGUMENT` (noverlap ≥ nperseg, nfft < nperseg, a non-finite scale, a bad
/// detrend/average/output code); `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`, `SK_ERR_OVERLAP`
/// (out overlapping an input), `SK_ERR_ALLOCATION`. On error `out` is untouched. NaN/inf
/// samples propagate into the bins of their segments (a median with a NaN is NaN). Thread-safe;
/// rows are split over up to `SIGKERN_THREADS` threads.
///
/// Real-time safe: no (allocates its working memory; rows may be split over the worker threads).
///
/// # Safety
/// `x` (and `y` for SK_SPECTRUM_CROSS) readable for `rows·n` doubles, `window` for `nperseg`,
/// `out` writable for `out_len`.
#[no_mangle]
pub unsafe extern "C" fn sk_spectral_est_f64(
    x: *const f64,
    y: *const f64,
    window: *const f64,
    nperseg: usize,
    noverlap: usize,
    nfft: usize,
    detrend: i32,
    onesided: i32,
    scale: f64,
    average: i32,
    output: i32,
    out: *mut f64,
    rows: usize,
    n: usize,
    out_len: usize,
) -> i32 {
    ffi_boundary!("sk_spectral_est_f64", {
        // SAFETY: the caller's contract (above); est_ffi checks every buffer and overlap first.
        unsafe {
            est_ffi(
                x, y, window, nperseg, noverlap, nfft, detrend, onesided, scale, average, output,
                out, rows, n, out_len,
            )
        }
    })
}

/// Spectral estimate of floats (computed in float). Rules as `sk_spectral_est_f64`.
///
/// Real-time safe: no (allocates its working memory; rows may be split over the worker threads).
///
/// # Safety
/// `x` (and `y` for SK_SPECTRUM_CROSS) readable for `rows·n` floats, `window` for `nperseg`,
/// `out` writable for `out_len`.
#[no_mangle]
pub unsafe extern "C" fn sk_spectral_est_f32(
    x: *const f32,
    y: *const f32,
    window: *const f32,
    nperseg: usize,
    noverlap: usize,
    nfft: usize,
    detrend: i32,
    onesided: i32,
    scale: f64,
    average: i32,
    output: i32,
    out: *mut f32,
    rows: usize,
    n: usize,
    out_len: usize,
) -> i32 {
    ffi_boundary!("sk_spectral_est_f32", {
        // SAFETY: the caller's contract (above); est_ffi checks every buffer and overlap first.
        unsafe {
            est_ffi(
                x, y, window, nperseg, noverlap, nfft, detrend, onesided, scale, average, output,
                out, rows, n, out_len,
            )
        }
    })
}

unsafe fn hilbert_ffi<T: SpecFloat>(
    x: *const T,
    big_n: usize,
    z: *mut T,
    rows: usize,
    n: usize,
    z_len: usize,
) -> SkResult<()> {
    if big_n == 0 {
        return Err(SkError::Length(
            "N = 0: the transform needs at least one point".into(),
        ));
    }
    let len = span("x", rows, n)?;
    let xb = Buf::new("x", x, len);
    xb.check()?;
    let need = span("z", rows, big_n)?;
    let zf = z_len.checked_mul(2).ok_or_else(|| {
        SkError::Length(format!("z_len = {z_len} complex values overflow size_t"))
    })?;
    check_capacity("z", z, zf)?;
    if z_len < need {
        return Err(SkError::BufferTooSmall(format!(
            "z holds {z_len} complex values but {need} are needed ({rows} rows of N = {big_n})"
        )));
    }
    let zb = Buf::out("z", z, 2 * need);
    alias(&xb, &zb, false)?;
    // SAFETY: x checked for rows·n elements, z for 2·rows·N (interleaved complex, `Complex<T>` is
    // `#[repr(C)] {re, im}` with T's alignment, so the float slice reinterprets as rows·N complex
    // values over the same memory); z overlaps no input; the caller's contract makes them valid.
    unsafe {
        let zs = zb.slice_mut();
        let zc = std::slice::from_raw_parts_mut(zs.as_mut_ptr() as *mut Complex<T>, need);
        hilbert(xb.slice(), rows, n, big_n, zc)
    }
}

/// Analytic signal `z = scipy.signal.hilbert(x, N)` of `rows` real signals of `n` samples:
/// each row truncated or zero-padded to `N ≥ 1` points, `z = ifft(fft(x, N)·h)` with `h` 1 at
/// bin 0 (and `N/2` for even N), 2 on the positive, 0 on the negative frequencies. The real
/// part is the (padded) signal itself, the imaginary part its Hilbert transform (one real FFT
/// and one real inverse FFT of N points per row). `z` receives `rows · N` complex values,
/// interleaved `(re, im)`, row after row; `z_len` is its capacity in complex values.
///
/// Returns `SK_OK`; `SK_ERR_LENGTH` (N = 0, sizes overflowing); `SK_ERR_BUFFER_TOO_SMALL`
/// (z_len < rows·N); `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`, `SK_ERR_OVERLAP`,
/// `SK_ERR_ALLOCATION`. On error `z` is untouched. NaN/inf in a row reach that row's imaginary
/// part through the transforms (the real part stays the signal). Thread-safe; rows are split
/// over up to `SIGKERN_THREADS` threads.
///
/// Real-time safe: no (allocates its working memory; rows may be split over the worker threads).
///
/// # Safety
/// `x` readable for `rows·n` doubles, `z` writable for `2·z_len` doubles.
#[no_mangle]
pub unsafe extern "C" fn sk_hilbert_f64(
    x: *const f64,
    big_n: usize,
    z: *mut f64,
    rows: usize,
    n: usize,
    z_len: usize,
) -> i32 {
    ffi_boundary!("sk_hilbert_f64", {
        // SAFETY: the caller's contract (above); hilbert_ffi checks every buffer and overlap.
        unsafe { hilbert_ffi(x, big_n, z, rows, n, z_len) }
    })
}

/// Analytic signal of floats (computed in float). Rules as `sk_hilbert_f64`.
///
/// Real-time safe: no (allocates its working memory; rows may be split over the worker threads).
///
/// # Safety
/// `x` readable for `rows·n` floats, `z` writable for `2·z_len` floats.
#[no_mangle]
pub unsafe extern "C" fn sk_hilbert_f32(
    x: *const f32,
    big_n: usize,
    z: *mut f32,
    rows: usize,
    n: usize,
    z_len: usize,
) -> i32 {
    ffi_boundary!("sk_hilbert_f32", {
        // SAFETY: the caller's contract (above); hilbert_ffi checks every buffer and overlap.
        unsafe { hilbert_ffi(x, big_n, z, rows, n, z_len) }
    })
}
