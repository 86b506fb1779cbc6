//! Onset detection as librosa computes it: the spectral-flux onset envelope
//! (`sk_onset_strength_*`, `librosa.onset.onset_strength_multi` on a given spectrogram) and
//! librosa's greedy peak picker (`sk_peak_pick_*`, `librosa.util.peak_pick`).

use super::guard::{alias, check_capacity, ffi_boundary, Buf};
use crate::error::{SkError, SkResult};
use crate::kernels::onset::{self as on, Aggregate, FluxParams, PeakParams};
use crate::kernels::Float;

/// Onset aggregation: none (one channel per bin, librosa `aggregate=False`).
pub const SK_AGGREGATE_NONE: i32 = 0;
/// Onset aggregation: mean over the channel's bins (`np.mean`, librosa's default).
pub const SK_AGGREGATE_MEAN: i32 = 1;
/// Onset aggregation: median (`np.median`).
pub const SK_AGGREGATE_MEDIAN: i32 = 2;
/// Onset aggregation: maximum (`np.max`).
pub const SK_AGGREGATE_MAX: i32 = 3;
/// Onset aggregation: minimum (`np.min`).
pub const SK_AGGREGATE_MIN: i32 = 4;

fn aggregate(a: i32) -> SkResult<Aggregate> {
    Ok(match a {
        SK_AGGREGATE_NONE => Aggregate::None,
        SK_AGGREGATE_MEAN => Aggregate::Mean,
        SK_AGGREGATE_MEDIAN => Aggregate::Median,
        SK_AGGREGATE_MAX => Aggregate::Max,
        SK_AGGREGATE_MIN => Aggregate::Min,
        _ => {
            return Err(SkError::BadArgument(format!(
                "aggregate = {a} is not one of SK_AGGREGATE_NONE/MEAN/MEDIAN/MAX/MIN (0..4)"
            )))
        }
    })
}

/// # Safety
/// As `sk_onset_strength_f32`.
#[allow(clippy::too_many_arguments)]
unsafe fn onset_ffi<T: Float>(
    s: *const T,
    batch: usize,
    n_bins: usize,
    frames: usize,
    reference: *const T,
    lag: usize,
    max_size: usize,
    agg: i32,
    bounds: *const usize,
    n_bounds: usize,
    pad_left: usize,
    detrend: i32,
    max_frames: usize,
    out: *mut T,
    out_len: usize,
) -> SkResult<()> {
    let aggregate = aggregate(agg)?;
    let len = batch
        .checked_mul(n_bins)
        .and_then(|v| v.checked_mul(frames))
        .ok_or_else(|| SkError::Length("batch × n_bins × frames overflows".into()))?;
    let sb = Buf::new("S", s, len);
    sb.check()?;
    let rb = if reference.is_null() {
        None
    } else {
        let rb = Buf::new("ref", reference, len);
        rb.check()?;
        Some(rb)
    };
    let bounds = if bounds.is_null() {
        vec![0, n_bins]
    } else {
        let bb = Buf::new("bounds", bounds, n_bounds);
        bb.check()?;
        // SAFETY: `bb.check()` passed, readable per the caller's contract; copied at once.
        unsafe { bb.slice() }.to_vec()
    };
    let fp = FluxParams {
        lag,
        max_size,
        aggregate,
        bounds,
        pad_left,
        detrend: detrend != 0,
        max_frames: Some(max_frames),
    };
    let (ch, n_out) = fp.shape(n_bins, frames)?;
    let need = batch
        .checked_mul(ch)
        .and_then(|v| v.checked_mul(n_out))
        .ok_or_else(|| SkError::Length("batch × channels × frames overflows".into()))?;
    check_capacity("out", out, out_len)?;
    if out_len < need {
        return Err(SkError::BufferTooSmall(format!(
            "out holds {out_len} values but batch {batch} × channels {ch} × frames {n_out} = \
             {need} are needed"
        )));
    }
    let ob = Buf::out("out", out, need);
    alias(&sb, &ob, false)?;
    if let Some(rb) = &rb {
        alias(rb, &ob, false)?;
    }
    // SAFETY: `sb`, `rb` passed `check()`, readable per the caller's contract, disjoint from
    // `out` (`alias`); `ob` lies within the checked capacity, writable per the contract.
    unsafe {
        on::onset_flux(
            sb.slice(),
            batch,
            n_bins,
            frames,
            rb.map(|r| r.slice()),
            &fp,
            ob.slice_mut(),
        )
    }
}

/// # Safety
/// As `sk_peak_pick_f32`.
#[allow(clippy::too_many_arguments)]
unsafe fn peak_ffi<T: Float>(
    x: *const T,
    rows: usize,
    n: usize,
    pre_max: usize,
    post_max: usize,
    pre_avg: usize,
    post_avg: usize,
    delta: f64,
    wait: usize,
    peaks: *mut u8,
    peaks_len: usize,
) -> SkResult<()> {
    let pp = PeakParams {
        pre_max,
        post_max,
        pre_avg,
        post_avg,
        delta,
        wait,
    };
    pp.check()?;
    let len = rows
        .checked_mul(n)
        .ok_or_else(|| SkError::Length("rows × n overflows".into()))?;
    let xb = Buf::new("x", x, len);
    xb.check()?;
    check_capacity("peaks", peaks, peaks_len)?;
    if peaks_len < len {
        return Err(SkError::BufferTooSmall(format!(
            "peaks holds {peaks_len} values but rows {rows} × n {n} = {len} are needed"
        )));
    }
    let pb = Buf::out("peaks", peaks, len);
    alias(&xb, &pb, false)?;
    // SAFETY: both checked, disjoint (`alias`), readable / writable per the caller's contract.
    unsafe { on::peak_pick(xb.slice(), n, &pp, pb.slice_mut()) }
}

/// The onset envelope of `librosa.onset.onset_strength_multi(S=S, lag=lag, max_size=max_size,
/// ref=ref, detrend=detrend≠0, center=…, aggregate=…, channels=…)` for a batch `S` of `batch`
/// row-major `(n_bins, frames)` spectrograms (librosa passes a dB mel spectrogram) into `out`,
/// `(batch, channels, n_out)` row-major.
///
/// Per bin: `max(0, S[f, t + lag] − ref[f, t])`, `ref` NULL meaning `S` filtered by a maximum
/// over `max_size` neighbouring bins (`scipy.ndimage.maximum_filter1d`, "reflect" edges);
/// then per channel the `aggregate` (`SK_AGGREGATE_*`) of its bins — channels are the ranges
/// between consecutive `bounds` (`n_bounds ≥ 2` strictly increasing indices ≤ n_bins; NULL:
/// one channel over every bin), or one channel per bin with `SK_AGGREGATE_NONE`; then
/// `pad_left` zeros in front (librosa: `lag`, plus `n_fft / (2·hop)` when centred), the
/// detrending filter `lfilter([1, −1], [1, −0.99])` when `detrend ≠ 0`, and at most `max_frames`
/// frames kept (librosa's centring keeps `frames`; pass `SIZE_MAX` to keep all). So `n_out =
/// min(frames − lag + pad_left, max_frames)`.
/// Arguments: `lag ≥ 1`, `max_size ≥ 1`, `frames > lag`; `ref` NULL or the shape of `S`.
/// NaN propagates. Returns `SK_OK`, `SK_ERR_BAD_ARGUMENT`, `SK_ERR_LENGTH`,
/// `SK_ERR_BUFFER_TOO_SMALL`, `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`, `SK_ERR_OVERLAP`,
/// `SK_ERR_ALLOCATION`; on error `out` is untouched. Thread-safe.
///
/// Real-time safe: no (allocates per batch item; batches may be split over the worker threads).
///
/// # Safety
/// `S` readable for batch·n_bins·frames floats, `ref` NULL or as `S`, `bounds` NULL or readable
/// for n_bounds `size_t`s, `out` writable for out_len floats.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn sk_onset_strength_f32(
    s: *const f32,
    batch: usize,
    n_bins: usize,
    frames: usize,
    reference: *const f32,
    lag: usize,
    max_size: usize,
    aggregate: i32,
    bounds: *const usize,
    n_bounds: usize,
    pad_left: usize,
    detrend: i32,
    max_frames: usize,
    out: *mut f32,
    out_len: usize,
) -> i32 {
    ffi_boundary!("sk_onset_strength_f32", {
        // SAFETY: this function's `# Safety` contract is `onset_ffi`'s; NULL, alignment,
        // sizes and overlap are checked inside.
        unsafe {
            onset_ffi::<f32>(
                s, batch, n_bins, frames, reference, lag, max_size, aggregate, bounds, n_bounds,
                pad_left, detrend, max_frames, out, out_len,
            )
        }
    })
}

/// `sk_onset_strength_f32` on doubles. Same rules.
///
/// Real-time safe: no (allocates per batch item; batches may be split over the worker threads).
///
/// # Safety
/// `S` readable for batch·n_bins·frames doubles, `ref` NULL or as `S`, `bounds` NULL or readable
/// for n_bounds `size_t`s, `out` writable for out_len doubles.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn sk_onset_strength_f64(
    s: *const f64,
    batch: usize,
    n_bins: usize,
    frames: usize,
    reference: *const f64,
    lag: usize,
    max_size: usize,
    aggregate: i32,
    bounds: *const usize,
    n_bounds: usize,
    pad_left: usize,
    detrend: i32,
    max_frames: usize,
    out: *mut f64,
    out_len: usize,
) -> i32 {
    ffi_boundary!("sk_onset_strength_f64", {
        // SAFETY: this function's `# Safety` contract is `onset_ffi`'s; NULL, alignment,
        // sizes and overlap are checked inside.
        unsafe {
            onset_ffi::<f64>(
                s, batch, n_bins, frames, reference, lag, max_size, aggregate, bounds, n_bounds,
                pad_left, detrend, max_frames, out, out_len,
            )
        }
    })
}

/// `librosa.util.peak_pick(x, pre_max=pre_max, post_max=post_max, pre_avg=pre_avg,
/// post_avg=post_avg, delta=delta, wait=wait, sparse=False)` of every row of `x` (`rows` rows
/// of `n`): `peaks[i]` is 1 where a peak is picked, else 0.
///
/// Frame `i` is a peak when `x[i] = max(x[i − pre_max : i + post_max])`, `x[i] ≥
/// mean(x[i − pre_avg : i + post_avg]) + delta` (windows clipped to the row; the first frame
/// compares with `x[:post_max]` and `x[:post_avg]`), and it lies more than `wait` frames after
/// the previous peak (greedy, left to right). Means are running sums in double, as librosa's
/// numba kernel. librosa's fractional window sizes are rounded up by the caller.
/// Arguments: `post_max ≥ 1`, `post_avg ≥ 1`, `delta ≥ 0` (else `SK_ERR_BAD_ARGUMENT`);
/// `peaks_len ≥ rows·n`. Returns `SK_OK`, `SK_ERR_BAD_ARGUMENT`, `SK_ERR_LENGTH`,
/// `SK_ERR_BUFFER_TOO_SMALL`, `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`, `SK_ERR_OVERLAP`,
/// `SK_ERR_ALLOCATION`; on error `peaks` is untouched. Thread-safe.
///
/// Real-time safe: no (allocates a row).
///
/// # Safety
/// `x` readable for rows·n floats, `peaks` writable for peaks_len bytes.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn sk_peak_pick_f32(
    x: *const f32,
    rows: usize,
    n: usize,
    pre_max: usize,
    post_max: usize,
    pre_avg: usize,
    post_avg: usize,
    delta: f64,
    wait: usize,
    peaks: *mut u8,
    peaks_len: usize,
) -> i32 {
    ffi_boundary!("sk_peak_pick_f32", {
        // SAFETY: this function's `# Safety` contract is `peak_ffi`'s; NULL, alignment,
        // sizes and overlap are checked inside.
        unsafe {
            peak_ffi::<f32>(
                x, rows, n, pre_max, post_max, pre_avg, post_avg, delta, wait, peaks, peaks_len,
            )
        }
    })
}

/// `sk_peak_pick_f32` on doubles. Same rules.
///
/// Real-time safe: no (allocates a row).
///
/// # Safety
/// `x` readable for rows·n doubles, `peaks` writable for peaks_len bytes.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn sk_peak_pick_f64(
    x: *const f64,
    rows: usize,
    n: usize,
    pre_max: usize,
    post_max: usize,
    pre_avg: usize,
    post_avg: usize,
    delta: f64,
    wait: usize,
    peaks: *mut u8,
    peaks_len: usize,
) -> i32 {
    ffi_boundary!("sk_peak_pick_f64", {
        // SAFETY: this function's `# Safety` contract is `peak_ffi`'s; NULL, alignment,
        // sizes and overlap are checked inside.
        unsafe {
            peak_ffi::<f64>(
                x, rows, n, pre_max, post_max, pre_avg, post_avg, delta, wait, peaks, peaks_len,
            )
        }
    })
}
