//! Fundamental-frequency estimation as librosa computes it: YIN (`sk_yin_*`, `librosa.yin`).

use super::guard::{alias, check_capacity, ffi_boundary, Buf};
use crate::error::{SkError, SkResult};
use crate::kernels::pitch::{self, YinParams};
use crate::kernels::Float;

/// # Safety
/// As `sk_yin_f32`.
#[allow(clippy::too_many_arguments)]
unsafe fn yin_ffi<T: Float>(
    y: *const T,
    batch: usize,
    n: usize,
    sr: f64,
    fmin: f64,
    fmax: f64,
    frame_length: usize,
    hop: usize,
    trough_threshold: f64,
    center: i32,
    pad_mode: i32,
    out: *mut T,
    out_len: usize,
) -> SkResult<()> {
    let reflect = match pad_mode {
        0 => false,
        1 => true,
        _ => {
            return Err(SkError::BadArgument(format!(
                "pad_mode = {pad_mode} is not SK_PAD_CONSTANT (0) or SK_PAD_REFLECT (1)"
            )))
        }
    };
    let p = YinParams {
        sr,
        fmin,
        fmax,
        frame_length,
        hop,
        trough_threshold,
        center: center != 0,
        reflect,
    };
    p.periods()?;
    let len = batch
        .checked_mul(n)
        .ok_or_else(|| SkError::Length("batch × n overflows".into()))?;
    let xb = Buf::new("y", y, len);
    xb.check()?;
    let frames = p.frames(n)?;
    let need = batch
        .checked_mul(frames)
        .ok_or_else(|| SkError::Length("batch × frames overflows".into()))?;
    check_capacity("out", out, out_len)?;
    if out_len < need {
        return Err(SkError::BufferTooSmall(format!(
            "out holds {out_len} values but batch {batch} × frames {frames} = {need} are needed"
        )));
    }
    let ob = Buf::out("out", out, need);
    alias(&xb, &ob, false)?;
    // SAFETY: both checked, disjoint (`alias`), readable / writable per the caller's contract;
    // the slices die with this call.
    unsafe { pitch::yin(xb.slice(), batch, &p, ob.slice_mut()) }
}

/// `librosa.yin(y, fmin=fmin, fmax=fmax, sr=sr, frame_length=frame_length, hop_length=hop,
/// trough_threshold=trough_threshold, center=center≠0, pad_mode=…)` of every row of `y`
/// (`batch` rows of `n` samples) into `out` (`batch × frames`, `frames = 1 + (n +
/// 2·pad − frame_length) / hop`, `pad = frame_length/2` when centred), in Hz.
///
/// Per frame: the autocorrelation by FFT, the difference `d(τ) = 2·(r₀ − r_τ) − Σ_{j<τ} y_j²`,
/// its cumulative-mean normalisation for periods `floor(sr/fmax) … min(ceil(sr/fmin),
/// frame_length − 1)`, the first local minimum below `trough_threshold` (else the global
/// minimum), refined by parabolic interpolation; computed in double.
/// Arguments: `0 < fmin < fmax ≤ sr/2`, finite; `4 ≤ frame_length ≤ 2^24`; `hop ≥ 1`; the
/// period range must hold two lags; `pad_mode` `SK_PAD_CONSTANT` (librosa's default) or
/// `SK_PAD_REFLECT`; the audio must be finite (`SK_ERR_NON_FINITE`, as librosa's
/// `valid_audio`); a signal shorter than a frame without centring is `SK_ERR_BAD_ARGUMENT`.
/// Returns `SK_OK`, `SK_ERR_BAD_ARGUMENT`, `SK_ERR_LENGTH`, `SK_ERR_NON_FINITE`,
/// `SK_ERR_BUFFER_TOO_SMALL`, `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`, `SK_ERR_OVERLAP`,
/// `SK_ERR_ALLOCATION`; on error `out` is untouched. Thread-safe.
///
/// Real-time safe: no (allocates its working memory; long inputs may be split over the worker threads).
///
/// # Safety
/// `y` readable for batch·n floats, `out` writable for out_len floats.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn sk_yin_f32(
    y: *const f32,
    batch: usize,
    n: usize,
    sr: f64,
    fmin: f64,
    fmax: f64,
    frame_length: usize,
    hop: usize,
    trough_threshold: f64,
    center: i32,
    pad_mode: i32,
    out: *mut f32,
    out_len: usize,
) -> i32 {
    ffi_boundary!("sk_yin_f32", {
        // SAFETY: this function's `# Safety` contract is `yin_ffi`'s; NULL, alignment, sizes
        // and overlap are checked inside.
        unsafe {
            yin_ffi::<f32>(
                y,
                batch,
                n,
                sr,
                fmin,
                fmax,
                frame_length,
                hop,
                trough_threshold,
                center,
                pad_mode,
                out,
                out_len,
            )
        }
    })
}

/// `sk_yin_f32` on doubles. Same rules.
///
/// Real-time safe: no (allocates its working memory; long inputs may be split over the worker threads).
///
/// # Safety
/// `y` readable for batch·n doubles, `out` writable for out_len doubles.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn sk_yin_f64(
    y: *const f64,
    batch: usize,
    n: usize,
    sr: f64,
    fmin: f64,
    fmax: f64,
    frame_length: usize,
    hop: usize,
    trough_threshold: f64,
    center: i32,
    pad_mode: i32,
    out: *mut f64,
    out_len: usize,
) -> i32 {
    ffi_boundary!("sk_yin_f64", {
        // SAFETY: this function's `# Safety` contract is `yin_ffi`'s; NULL, alignment, sizes
        // and overlap are checked inside.
        unsafe {
            yin_ffi::<f64>(
                y,
                batch,
                n,
                sr,
                fmin,
                fmax,
                frame_length,
                hop,
                trough_threshold,
                center,
                pad_mode,
                out,
                out_len,
            )
        }
    })
}
