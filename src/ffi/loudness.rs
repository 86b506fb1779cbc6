//! Loudness metering (ITU-R BS.1770-4 / EBU R 128): the streaming meter handle (`SkMeter`),
//! one-shot measurement of a whole buffer, and the normalisation gain.
//!
//! Units: loudness in LUFS, loudness range in LU, peaks in dB relative to full scale (1.0);
//! a value that is not defined (nothing fed yet, silence, everything below the −70 LUFS gate)
//! is −infinity, the loudness range 0.
//!
//! NaN and infinity in the input are refused (`SK_ERR_NON_FINITE`, the message names the
//! channel and frame) and the meter is left exactly as before the call: no value is skipped
//! as silence.

use super::guard::{check_out_scalar, ffi_boundary, planar, Buf};
use super::handle::{self, handle_kind};
use crate::error::{SkError, SkResult};
use crate::kernels::loudness::kweight::Frames;
use crate::kernels::loudness::meter::{amp_db, MeterFloat};
use crate::kernels::loudness::{normalize_gain, Meter, Stats};
use crate::simd::current;

/// Opaque handle of a streaming loudness meter, made by `sk_meter_new` and released by
/// `sk_meter_free`.
pub struct SkMeter {
    _private: [u8; 0],
}

/// Every value a loudness measurement reports.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct SkLoudnessStats {
    /// Integrated (programme) loudness, LUFS: 400 ms blocks (75 % overlap) gated at −70 LUFS,
    /// then 10 LU below their mean.
    pub integrated: f64,
    /// Loudness range (EBU Tech 3342), LU: 95th minus 10th percentile of the short-term values
    /// (10 a second) gated at −70 LUFS and 20 LU below their mean.
    pub loudness_range: f64,
    /// Momentary loudness (last 400 ms), LUFS, updated every 100 ms.
    pub momentary: f64,
    /// Short-term loudness (last 3 s), LUFS, updated every 100 ms.
    pub short_term: f64,
    /// Largest momentary loudness so far, LUFS.
    pub max_momentary: f64,
    /// Largest short-term loudness so far, LUFS.
    pub max_short_term: f64,
    /// Largest sample magnitude of any channel, dBFS.
    pub sample_peak: f64,
    /// Largest true peak of any channel, dBTP (the sample peak when true peak is off).
    pub true_peak: f64,
}

impl From<Stats> for SkLoudnessStats {
    fn from(s: Stats) -> Self {
        SkLoudnessStats {
            integrated: s.integrated,
            loudness_range: s.loudness_range,
            momentary: s.momentary,
            short_term: s.short_term,
            max_momentary: s.max_momentary,
            max_short_term: s.max_short_term,
            sample_peak: s.sample_peak,
            true_peak: s.true_peak,
        }
    }
}

fn flag(name: &'static str, v: i32) -> SkResult<bool> {
    match v {
        0 => Ok(false),
        1 => Ok(true),
        _ => Err(SkError::BadArgument(format!(
            "{name} = {v}; it must be 0 or 1"
        ))),
    }
}

/// Builds a meter from C arguments (weights NULL → the standard ones).
///
/// # Safety
/// `weights` is NULL or readable for `channels` doubles (NULL-ness, alignment and size are
/// checked here).
unsafe fn new_meter(
    weights: *const f64,
    rate: f64,
    true_peak: i32,
    channels: usize,
) -> SkResult<Meter> {
    let tp = flag("true_peak", true_peak)?;
    if channels == 0 {
        return Err(SkError::Length(
            "channels = 0; a meter needs at least one channel".into(),
        ));
    }
    let w = if weights.is_null() {
        None
    } else {
        let b = Buf::new("weights", weights, channels);
        b.check()?;
        // SAFETY: `b.check()` just passed (non-NULL, aligned, `channels` doubles within
        // `isize`); readable is the caller's `# Safety` obligation; the slice only feeds
        // `Meter::new`, which copies the weights.
        Some(unsafe { b.slice() })
    };
    Meter::new(rate, channels, w, tp)
}

handle_kind!(
    /// A loudness meter behind an `SkMeter`.
    pub(crate) MeterKind: Meter as SkMeter, "a loudness meter (sk_meter_new)", exclusive, defer
);

/// Runs `f` on the meter named by `h` (one call at a time: a second thread using the same
/// handle at the same time gets `SK_ERR_INVALID_HANDLE` "in use").
fn with_meter<R>(h: *const SkMeter, f: impl FnOnce(&mut Meter) -> SkResult<R>) -> SkResult<R> {
    handle::with::<MeterKind, R>("meter", h, f)
}

/// Validated planar input: the frames view over `channels × n` samples with `x_stride`.
///
/// # Safety
/// `x` readable over its extent `(channels − 1)·x_stride + n`.
unsafe fn planar_frames<'a, T>(
    x: *const T,
    x_stride: isize,
    channels: usize,
    n: usize,
) -> SkResult<Frames<'a, T>> {
    let (_, ext) = planar("x_stride", x_stride, channels, "n", n)?;
    let b = Buf::new("x", x, ext);
    b.check()?;
    let chan_step = if channels <= 1 { n } else { x_stride as usize };
    Ok(Frames {
        // SAFETY: `b.check()` passed for the extent `planar` computed from `x_stride`,
        // `channels`, `n` (non-NULL unless empty, aligned, in range); readable for the lifetime
        // the caller picks is its `# Safety` obligation; the input is only read.
        x: unsafe { b.slice() },
        chan_step,
        frame_step: 1,
        start: 0,
    })
}

/// Validated interleaved input of `n_frames` frames of `channels` samples.
///
/// # Safety
/// `x` readable for `n_frames·channels` elements.
unsafe fn interleaved_frames<'a, T>(
    x: *const T,
    channels: usize,
    n_frames: usize,
) -> SkResult<Frames<'a, T>> {
    let len = n_frames.checked_mul(channels).ok_or_else(|| {
        SkError::Length(format!(
            "n_frames = {n_frames} × channels = {channels} overflows"
        ))
    })?;
    let b = Buf::new("x", x, len);
    b.check()?;
    Ok(Frames {
        // SAFETY: `b.check()` passed for `n_frames·channels` elements (the product checked for
        // overflow above); readable for the lifetime the caller picks is its `# Safety`
        // obligation; the input is only read.
        x: unsafe { b.slice() },
        chan_step: 1,
        frame_step: channels,
        start: 0,
    })
}

/// Feeds a planar block to the meter behind `h`.
///
/// # Safety
/// `x` readable over its extent `(channels − 1)·x_stride + n` for the duration of the call.
unsafe fn meter_add<T: MeterFloat>(
    h: *mut SkMeter,
    x: *const T,
    x_stride: isize,
    n: usize,
) -> SkResult<()> {
    with_meter(h, |m| {
        // SAFETY: `planar_frames` needs `x` readable over its planar extent, which is this
        // function's `# Safety` obligation; the view is dropped before this call returns.
        let src = unsafe { planar_frames(x, x_stride, m.channels(), n)? };
        m.add(current(), src, n)
    })
}

/// Feeds an interleaved block to the meter behind `h`.
///
/// # Safety
/// `x` readable for `n_frames·channels` elements for the duration of the call.
unsafe fn meter_add_interleaved<T: MeterFloat>(
    h: *mut SkMeter,
    x: *const T,
    n_frames: usize,
) -> SkResult<()> {
    with_meter(h, |m| {
        // SAFETY: `interleaved_frames` needs `x` readable for `n_frames·channels` elements,
        // which is this function's `# Safety` obligation; the view is dropped before return.
        let src = unsafe { interleaved_frames(x, m.channels(), n_frames)? };
        m.add(current(), src, n_frames)
    })
}

/// Measures a whole buffer with a fresh meter and stores every value in `*out`.
///
/// # Safety
/// `weights` is NULL or readable for `channels` doubles; `out` is NULL, misaligned (both
/// rejected) or writable; the frames `src` returns stay readable for the duration of the call.
unsafe fn one_shot<T: MeterFloat>(
    src: impl FnOnce() -> SkResult<Frames<'static, T>>,
    weights: *const f64,
    rate: f64,
    true_peak: i32,
    out: *mut SkLoudnessStats,
    channels: usize,
    n: usize,
) -> SkResult<()> {
    // SAFETY: `new_meter` needs `weights` NULL or readable for `channels` doubles, this
    // function's `# Safety` obligation.
    let mut m = unsafe { new_meter(weights, rate, true_peak, channels)? };
    let src = src()?;
    check_out_scalar("out", out)?;
    m.add(current(), src, n)?;
    let s = m.stats()?;
    // SAFETY: `check_out_scalar("out", out)` above established non-NULL and aligned; writable is
    // the caller's `# Safety` obligation.
    unsafe { *out = s.into() };
    Ok(())
}

/// Creates a streaming loudness meter (ITU-R BS.1770-4, EBU R 128) and stores its handle in
/// `*out`.
///
/// - `rate`: sample rate in Hz, `8000 <= rate <= 384000` (else `SK_ERR_BAD_ARGUMENT`; NaN too).
///   The K-weighting filter is designed for this rate (bilinear transform of the analogue
///   prototypes behind BS.1770's 48 kHz table).
/// - `channels`: 1 to 64 (`0` or more is `SK_ERR_LENGTH`).
/// - `weights`: `channels` doubles, each finite and `>= 0` (else `SK_ERR_BAD_ARGUMENT`), or NULL
///   for the standard weights by channel count (WAV / SMPTE order): 4 = L R Ls Rs, 5 = L R C
///   Ls Rs, 6 = L R C LFE Ls Rs, 8 = L R C LFE Ls Rs Lb Rb, surround 1.41, LFE 0; every other
///   count 1.0 for all channels.
/// - `true_peak`: 1 measures the true peak (4× oversampling below 96 kHz, 2× below 192 kHz,
///   none above, BS.1770-4 Annex 2), 0 only the sample peak; other values
///   `SK_ERR_BAD_ARGUMENT`.
/// - Returns `SK_OK`, `SK_ERR_NULL_POINTER` (`out`), `SK_ERR_MISALIGNED` (`weights`, `out`),
///   `SK_ERR_LENGTH`, `SK_ERR_BAD_ARGUMENT`, `SK_ERR_ALLOCATION`. On error `*out` is untouched.
///
/// Thread safety: see `sk_meter_add_f32`.
///
/// Real-time safe: no (allocates).
///
/// # Safety
/// `weights` NULL or readable for `channels` doubles; `out` writable.
#[no_mangle]
pub unsafe extern "C" fn sk_meter_new(
    weights: *const f64,
    rate: f64,
    true_peak: i32,
    out: *mut *mut SkMeter,
    channels: usize,
) -> i32 {
    ffi_boundary!("sk_meter_new", {
        // SAFETY: `new_meter` needs `weights` NULL or readable for `channels` doubles, which is
        // this function's `# Safety` contract.
        let m = unsafe { new_meter(weights, rate, true_peak, channels)? };
        check_out_scalar("out", out)?;
        // SAFETY: validated.
        unsafe { handle::publish::<MeterKind>(m, out) }
    })
}

/// Frees a meter. NULL is accepted (no-op, `SK_OK`). A handle that is not live (already freed,
/// never created) or not a meter is `SK_ERR_INVALID_HANDLE`, detected without reading it.
///
/// Real-time safe: no (allocates).
///
/// # Safety
/// None beyond passing a pointer value; it is never dereferenced.
#[no_mangle]
pub unsafe extern "C" fn sk_meter_free(meter: *mut SkMeter) -> i32 {
    ffi_boundary!("sk_meter_free", {
        handle::free::<MeterKind>("meter", meter)
    })
}

/// Forgets everything fed so far (the meter is then as new, same settings).
/// Returns `SK_OK` or `SK_ERR_INVALID_HANDLE` (NULL, freed, not a meter, or in use by another
/// thread).
///
/// Real-time safe: after creation and sk_meter_reserve, for blocks of up to max_block frames.
///
/// # Safety
/// None beyond passing a pointer value; it is never dereferenced.
#[no_mangle]
pub unsafe extern "C" fn sk_meter_reset(meter: *mut SkMeter) -> i32 {
    ffi_boundary!("sk_meter_reset", {
        with_meter(meter, |m| {
            m.reset();
            Ok(())
        })
    })
}

/// Feeds `n` frames of planar `float` audio to a meter: channel `c`'s samples at
/// `x[c·x_stride + t]`, `t < n` (`x_stride` in elements, `>= n` when the meter has more than one
/// channel, ignored for one; negative or below `n` is `SK_ERR_BAD_ARGUMENT`).
///
/// - Chunks: feeding a signal in pieces of any sizes gives bit-identical values to one call.
/// - NaN or ±inf anywhere in the input: `SK_ERR_NON_FINITE` and nothing is fed (the message
///   names the channel and frame).
/// - Returns `SK_OK`, `SK_ERR_INVALID_HANDLE` (NULL, freed, not a meter, or in use by another
///   thread), `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`, `SK_ERR_LENGTH`,
///   `SK_ERR_BAD_ARGUMENT`, `SK_ERR_NON_FINITE`, `SK_ERR_ALLOCATION` (the meter keeps 10
///   values a second of the signal for gating); on error the meter is unchanged.
///
/// Thread safety: one meter must not be used from two threads at the same time (the second call
/// fails with `SK_ERR_INVALID_HANDLE`); different meters may be used in parallel.
///
/// Real-time safe: after creation and sk_meter_reserve, for blocks of up to max_block frames.
///
/// # Safety
/// `x` readable over its extent `(channels − 1)·x_stride + n`.
#[no_mangle]
pub unsafe extern "C" fn sk_meter_add_f32(
    meter: *mut SkMeter,
    x: *const f32,
    x_stride: isize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_meter_add_f32", {
        // SAFETY: this function's `# Safety` contract (`x` readable over its planar extent) is
        // `meter_add`'s; NULL, alignment and the extent are checked inside (`planar`,
        // `Buf::check`).
        unsafe { meter_add(meter, x, x_stride, n) }
    })
}

/// `double` version of `sk_meter_add_f32` (the same meter accepts both).
///
/// Real-time safe: after creation and sk_meter_reserve, for blocks of up to max_block frames.
///
/// # Safety
/// `x` readable over its extent.
#[no_mangle]
pub unsafe extern "C" fn sk_meter_add_f64(
    meter: *mut SkMeter,
    x: *const f64,
    x_stride: isize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_meter_add_f64", {
        // SAFETY: this function's `# Safety` contract (`x` readable over its planar extent) is
        // `meter_add`'s; NULL, alignment and the extent are checked inside (`planar`,
        // `Buf::check`).
        unsafe { meter_add(meter, x, x_stride, n) }
    })
}

/// Feeds `n_frames` interleaved `float` frames (`x[t·channels + c]`) to a meter. Rules, status
/// codes and thread safety as `sk_meter_add_f32` (`SK_ERR_LENGTH` also when
/// `n_frames·channels` overflows).
///
/// Real-time safe: after creation and sk_meter_reserve, for blocks of up to max_block frames.
///
/// # Safety
/// `x` readable for `n_frames·channels` floats.
#[no_mangle]
pub unsafe extern "C" fn sk_meter_add_interleaved_f32(
    meter: *mut SkMeter,
    x: *const f32,
    n_frames: usize,
) -> i32 {
    ffi_boundary!("sk_meter_add_interleaved_f32", {
        // SAFETY: this function's `# Safety` contract (`x` readable for `n_frames·channels`
        // elements) is `meter_add_interleaved`'s; NULL, alignment and overflow are checked inside.
        unsafe { meter_add_interleaved(meter, x, n_frames) }
    })
}

/// `double` version of `sk_meter_add_interleaved_f32`.
///
/// Real-time safe: after creation and sk_meter_reserve, for blocks of up to max_block frames.
///
/// # Safety
/// `x` readable for `n_frames·channels` doubles.
#[no_mangle]
pub unsafe extern "C" fn sk_meter_add_interleaved_f64(
    meter: *mut SkMeter,
    x: *const f64,
    n_frames: usize,
) -> i32 {
    ffi_boundary!("sk_meter_add_interleaved_f64", {
        // SAFETY: this function's `# Safety` contract (`x` readable for `n_frames·channels`
        // elements) is `meter_add_interleaved`'s; NULL, alignment and overflow are checked inside.
        unsafe { meter_add_interleaved(meter, x, n_frames) }
    })
}

/// Stores every value of a meter in `*out` (see `SkLoudnessStats`; undefined values are
/// −infinity, the range 0). The meter keeps running.
/// Returns `SK_OK`, `SK_ERR_INVALID_HANDLE`, `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED` (`out`),
/// `SK_ERR_ALLOCATION` (the loudness range sorts a copy of the short-term values); on error
/// `*out` is untouched. Thread safety as `sk_meter_add_f32`.
///
/// Real-time safe: no (allocates while the meter keeps its exact lists: the loudness range sorts a copy of the short-term values; once a reserved meter has folded them into histograms, after one hour of signal, it no longer allocates).
///
/// # Safety
/// `out` writable.
#[no_mangle]
pub unsafe extern "C" fn sk_meter_stats(meter: *mut SkMeter, out: *mut SkLoudnessStats) -> i32 {
    ffi_boundary!("sk_meter_stats", {
        with_meter(meter, |m| {
            check_out_scalar("out", out)?;
            let s = m.stats()?;
            // SAFETY: `check_out_scalar` above established `out` non-NULL and aligned; writable
            // is this function's `# Safety` contract.
            unsafe { *out = s.into() };
            Ok(())
        })
    })
}

/// Copies a meter's per-channel peaks in dB (−infinity for a silent channel): the sample peak
/// to `sample_peak[c]` and the true peak to `true_peak[c]` (the sample peak when the meter was
/// made without true peak). Either array may be NULL to skip it; `channels` must equal the
/// meter's channel count (else `SK_ERR_LENGTH`).
/// Returns `SK_OK`, `SK_ERR_INVALID_HANDLE`, `SK_ERR_LENGTH`, `SK_ERR_MISALIGNED`,
/// `SK_ERR_OVERLAP` (the two arrays overlap); on error nothing is written.
///
/// Real-time safe: after creation and sk_meter_reserve, for blocks of up to max_block frames.
///
/// # Safety
/// Each non-NULL array writable for `channels` doubles.
#[no_mangle]
pub unsafe extern "C" fn sk_meter_peaks(
    meter: *mut SkMeter,
    sample_peak: *mut f64,
    true_peak: *mut f64,
    channels: usize,
) -> i32 {
    ffi_boundary!("sk_meter_peaks", {
        with_meter(meter, |m| {
            if channels != m.channels() {
                return Err(SkError::Length(format!(
                    "channels = {channels} but the meter has {} channels",
                    m.channels()
                )));
            }
            let sp = Buf::out(
                "sample_peak",
                sample_peak,
                if sample_peak.is_null() { 0 } else { channels },
            );
            let tp = Buf::out(
                "true_peak",
                true_peak,
                if true_peak.is_null() { 0 } else { channels },
            );
            sp.check()?;
            tp.check()?;
            super::guard::alias(&sp, &tp, false)?;
            // SAFETY: both `check()`s passed for `channels` doubles (or 0 for a NULL array, so
            // the slice is empty and never dereferenced), `alias(.., false)` proved them
            // disjoint, writable is the `# Safety` contract, and the slices die in this closure.
            let (sps, tps) = unsafe { (sp.slice_mut(), tp.slice_mut()) };
            for (o, v) in sps.iter_mut().zip(m.sample_peaks()) {
                *o = amp_db(*v);
            }
            for (o, v) in tps.iter_mut().zip(m.true_peaks()) {
                *o = amp_db(*v);
            }
            Ok(())
        })
    })
}

/// Measures a whole planar `float` buffer at once (a fresh meter fed in one call; see
/// `sk_meter_new` for `weights`, `rate`, `true_peak` and `sk_meter_add_f32` for the layout) and
/// stores every value in `*out`.
/// Returns `SK_OK`, `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`, `SK_ERR_LENGTH` (also
/// `channels` 0 or above 64), `SK_ERR_BAD_ARGUMENT`, `SK_ERR_NON_FINITE`, `SK_ERR_ALLOCATION`;
/// on error `*out` is untouched. Stateless: any number of threads may call it at once.
///
/// Real-time safe: no (allocates its working memory).
///
/// # Safety
/// `x` readable over its extent; `weights` NULL or readable for `channels` doubles; `out`
/// writable.
#[no_mangle]
pub unsafe extern "C" fn sk_loudness_f32(
    x: *const f32,
    x_stride: isize,
    weights: *const f64,
    rate: f64,
    true_peak: i32,
    out: *mut SkLoudnessStats,
    channels: usize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_loudness_f32", {
        // SAFETY: `one_shot` and `planar_frames` need `x` readable over its planar extent,
        // `weights` NULL or readable for `channels` doubles and `out` writable: this function's
        // `# Safety` contract; NULL, alignment and sizes are checked inside.
        unsafe {
            one_shot(
                || planar_frames(x, x_stride, channels, n),
                weights,
                rate,
                true_peak,
                out,
                channels,
                n,
            )
        }
    })
}

/// `double` version of `sk_loudness_f32`.
///
/// Real-time safe: no (allocates its working memory).
///
/// # Safety
/// As `sk_loudness_f32`.
#[no_mangle]
pub unsafe extern "C" fn sk_loudness_f64(
    x: *const f64,
    x_stride: isize,
    weights: *const f64,
    rate: f64,
    true_peak: i32,
    out: *mut SkLoudnessStats,
    channels: usize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_loudness_f64", {
        // SAFETY: `one_shot` and `planar_frames` need `x` readable over its planar extent,
        // `weights` NULL or readable for `channels` doubles and `out` writable: this function's
        // `# Safety` contract; NULL, alignment and sizes are checked inside.
        unsafe {
            one_shot(
                || planar_frames(x, x_stride, channels, n),
                weights,
                rate,
                true_peak,
                out,
                channels,
                n,
            )
        }
    })
}

/// Interleaved version of `sk_loudness_f32`: `n_frames` frames of `channels` samples
/// (`x[t·channels + c]`). Status codes as `sk_loudness_f32`.
///
/// Real-time safe: no (allocates its working memory).
///
/// # Safety
/// `x` readable for `n_frames·channels` floats; `weights`, `out` as `sk_loudness_f32`.
#[no_mangle]
pub unsafe extern "C" fn sk_loudness_interleaved_f32(
    x: *const f32,
    weights: *const f64,
    rate: f64,
    true_peak: i32,
    out: *mut SkLoudnessStats,
    channels: usize,
    n_frames: usize,
) -> i32 {
    ffi_boundary!("sk_loudness_interleaved_f32", {
        // SAFETY: `one_shot` and `interleaved_frames` need `x` readable for `n_frames·channels`
        // elements, `weights` NULL or readable for `channels` doubles and `out` writable: this
        // function's `# Safety` contract; NULL, alignment and sizes are checked inside.
        unsafe {
            one_shot(
                || interleaved_frames(x, channels, n_frames),
                weights,
                rate,
                true_peak,
                out,
                channels,
                n_frames,
            )
        }
    })
}

/// `double` version of `sk_loudness_interleaved_f32`.
///
/// Real-time safe: no (allocates its working memory).
///
/// # Safety
/// As `sk_loudness_interleaved_f32`.
#[no_mangle]
pub unsafe extern "C" fn sk_loudness_interleaved_f64(
    x: *const f64,
    weights: *const f64,
    rate: f64,
    true_peak: i32,
    out: *mut SkLoudnessStats,
    channels: usize,
    n_frames: usize,
) -> i32 {
    ffi_boundary!("sk_loudness_interleaved_f64", {
        // SAFETY: `one_shot` and `interleaved_frames` need `x` readable for `n_frames·channels`
        // elements, `weights` NULL or readable for `channels` doubles and `out` writable: this
        // function's `# Safety` contract; NULL, alignment and sizes are checked inside.
        unsafe {
            one_shot(
                || interleaved_frames(x, channels, n_frames),
                weights,
                rate,
                true_peak,
                out,
                channels,
                n_frames,
            )
        }
    })
}

/// The linear gain that brings a programme with integrated loudness `integrated` (LUFS) and
/// true peak `true_peak` (dBTP) to `target` LUFS without its true peak exceeding `ceiling`
/// dBTP: `min(10^((target − integrated)/20), 10^((ceiling − true_peak)/20))`, stored in
/// `*gain`. Multiply the samples by it (e.g. `sk_scale_f32`).
///
/// - `integrated` or `true_peak` may be −infinity (as a meter reports for silence / a gated-out
///   programme): that side then sets no limit; with both −infinity the gain is 1.
/// - `target`, `ceiling` must be finite; `integrated`, `true_peak` finite or −infinity (NaN,
///   +infinity: `SK_ERR_BAD_ARGUMENT`).
/// - Returns `SK_OK`, `SK_ERR_BAD_ARGUMENT`, `SK_ERR_NULL_POINTER` / `SK_ERR_MISALIGNED`
///   (`gain`); on error `*gain` is untouched. Stateless, thread-safe.
///
/// Real-time safe: yes.
///
/// # Safety
/// `gain` writable.
#[no_mangle]
pub unsafe extern "C" fn sk_loudness_normalize_gain(
    integrated: f64,
    true_peak: f64,
    target: f64,
    ceiling: f64,
    gain: *mut f64,
) -> i32 {
    ffi_boundary!("sk_loudness_normalize_gain", {
        for (name, v) in [("target", target), ("ceiling", ceiling)] {
            if !v.is_finite() {
                return Err(SkError::BadArgument(format!("{name} = {v} must be finite")));
            }
        }
        for (name, v) in [("integrated", integrated), ("true_peak", true_peak)] {
            if v.is_nan() || v == f64::INFINITY {
                return Err(SkError::BadArgument(format!(
                    "{name} = {v} must be finite or -infinity"
                )));
            }
        }
        check_out_scalar("gain", gain)?;
        // SAFETY: `check_out_scalar` just established `gain` non-NULL and aligned; writable is
        // this function's `# Safety` contract.
        unsafe { *gain = normalize_gain(integrated, true_peak, target, ceiling) };
        Ok(())
    })
}

/// Makes a loudness meter real-time safe for blocks of up to `max_block` frames: reserves the
/// true-peak buffers and room in the meter's lists of 400 ms gating values and 3 s short-term
/// values for one hour of signal (one value of each per 100 ms, 576 kB). Afterwards
/// `sk_meter_add_*` with `n <= max_block` allocates no memory and makes no system call until
/// the meter has measured an hour in all (a call that goes past it may allocate: room for
/// the lists doubles; call `sk_meter_reserve` again from a non-real-time thread to extend it,
/// or `sk_meter_reset`, which keeps the room). The meter always runs on the calling thread.
/// `sk_meter_stats` is not real-time safe (the loudness range sorts a copy of the short-term
/// values); `sk_meter_peaks` is. Results never depend on this call.
///
/// Returns `SK_OK`, `SK_ERR_INVALID_HANDLE`, `SK_ERR_ALLOCATION` (the meter then works as
/// before, without the guarantee).
///
/// Real-time safe: no (it allocates; call it after creation, before the audio thread starts).
///
/// # Safety
/// None beyond passing a pointer value.
#[no_mangle]
pub unsafe extern "C" fn sk_meter_reserve(meter: *mut SkMeter, max_block: usize) -> i32 {
    ffi_boundary!("sk_meter_reserve", {
        with_meter(meter, |m| m.reserve(max_block))
    })
}
