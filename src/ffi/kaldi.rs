//! Kaldi-compatible speech features (`sk_kaldi_*`): spectrogram, filterbank and MFCC equal to
//! `torchaudio.compliance.kaldi`, for one signal or a batch of equal-length signals in one call.

use super::guard::{alias, check_capacity, check_out_scalar, ffi_boundary, size_result, Buf};
use crate::error::{SkError, SkResult};
use crate::kernels::speech::kaldi::{Feature, KaldiFloat, KaldiOptions, KaldiPlan, KaldiWindow};
use std::sync::Arc;

/// Feature kind: log power spectrum with the log energy in column 0
/// (`torchaudio.compliance.kaldi.spectrogram`; `padded/2 + 1` values a frame).
pub const SK_KALDI_SPECTROGRAM: i32 = 0;
/// Feature kind: mel filterbank energies (`torchaudio.compliance.kaldi.fbank`; `num_mel_bins`
/// values a frame, one more with `use_energy`).
pub const SK_KALDI_FBANK: i32 = 1;
/// Feature kind: mel-frequency cepstral coefficients (`torchaudio.compliance.kaldi.mfcc`;
/// `num_ceps` values a frame).
pub const SK_KALDI_MFCC: i32 = 2;

/// Kaldi window: Hamming, `0.54 − 0.46·cos(2πj/(N−1))`.
pub const SK_KALDI_WINDOW_HAMMING: i32 = 0;
/// Kaldi window: Hanning, `0.5 − 0.5·cos(2πj/(N−1))`.
pub const SK_KALDI_WINDOW_HANNING: i32 = 1;
/// Kaldi window: Povey (Kaldi's default), the Hanning window to the power 0.85.
pub const SK_KALDI_WINDOW_POVEY: i32 = 2;
/// Kaldi window: rectangular.
pub const SK_KALDI_WINDOW_RECTANGULAR: i32 = 3;
/// Kaldi window: generalised Blackman with `blackman_coeff`.
pub const SK_KALDI_WINDOW_BLACKMAN: i32 = 4;

/// The options of a Kaldi feature computation, with the names and meanings of
/// `torchaudio.compliance.kaldi` (flags are 0 or 1). `sk_kaldi_options_init` fills in
/// torchaudio's defaults.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct SkKaldiOptions {
    /// Sample rate in Hz (> 0; default 16000).
    pub sample_frequency: f64,
    /// Frame length in milliseconds (default 25); `int(sample_frequency·frame_length/1000)`
    /// samples, at least 2.
    pub frame_length: f64,
    /// Frame shift in milliseconds (default 10); at least one sample.
    pub frame_shift: f64,
    /// `SK_KALDI_WINDOW_*` (default `SK_KALDI_WINDOW_POVEY`).
    pub window_type: i32,
    /// The Blackman window's constant (default 0.42).
    pub blackman_coeff: f64,
    /// Pre-emphasis coefficient in [0, 1] (default 0.97).
    pub preemphasis_coefficient: f64,
    /// Subtract each frame's mean (default 1).
    pub remove_dc_offset: i32,
    /// Standard deviation of the Gaussian noise added to every sample (default 0: none).
    pub dither: f64,
    /// Seed of the dither noise: the same seed gives the same noise (default 0).
    pub seed: u64,
    /// Zero-pad each frame to the next power of two for the FFT (default 1).
    pub round_to_power_of_two: i32,
    /// 1 (default): only frames that fit in the signal; 0: `round(n / shift)` frames, the signal
    /// reflected at its ends.
    pub snip_edges: i32,
    /// Log energy before pre-emphasis and window (default 1) or after them (0).
    pub raw_energy: i32,
    /// Floor on the energy (not its log), ≥ 0; 0: no floor (default 1).
    pub energy_floor: f64,
    /// fbank/MFCC: add the log energy (fbank: an extra column; MFCC: in place of C0) (default 0).
    pub use_energy: i32,
    /// fbank: log of the mel energies (default 1).
    pub use_log_fbank: i32,
    /// fbank: power spectrum (1, default) or magnitude (0).
    pub use_power: i32,
    /// Number of mel bands, ≥ 4 (default 23).
    pub num_mel_bins: usize,
    /// Lowest band edge in Hz (default 20).
    pub low_freq: f64,
    /// Highest band edge in Hz; ≤ 0 is an offset from the Nyquist frequency (default 0).
    pub high_freq: f64,
    /// VTLN warp factor (> 0; default 1: no warp).
    pub vtln_warp: f64,
    /// Lower inflection point of the VTLN warp in Hz (default 100).
    pub vtln_low: f64,
    /// Upper inflection point of the VTLN warp in Hz; negative is an offset from the Nyquist
    /// frequency (default −500).
    pub vtln_high: f64,
    /// MFCC: cepstra kept, including C0, 1 … num_mel_bins (default 13).
    pub num_ceps: usize,
    /// MFCC: lifter constant (0: none; default 22).
    pub cepstral_lifter: f64,
    /// fbank/MFCC: put the energy (or C0) last instead of first (default 0).
    pub htk_compat: i32,
    /// Subtract each column's mean over the signal's frames (default 0).
    pub subtract_mean: i32,
    /// Signals shorter than this many seconds give no frames (default 0).
    pub min_duration: f64,
}

impl From<KaldiOptions> for SkKaldiOptions {
    fn from(o: KaldiOptions) -> Self {
        let w = match o.window {
            KaldiWindow::Hamming => SK_KALDI_WINDOW_HAMMING,
            KaldiWindow::Hanning => SK_KALDI_WINDOW_HANNING,
            KaldiWindow::Povey => SK_KALDI_WINDOW_POVEY,
            KaldiWindow::Rectangular => SK_KALDI_WINDOW_RECTANGULAR,
            KaldiWindow::Blackman => SK_KALDI_WINDOW_BLACKMAN,
        };
        SkKaldiOptions {
            sample_frequency: o.sample_frequency,
            frame_length: o.frame_length,
            frame_shift: o.frame_shift,
            window_type: w,
            blackman_coeff: o.blackman_coeff,
            preemphasis_coefficient: o.preemphasis_coefficient,
            remove_dc_offset: o.remove_dc_offset.into(),
            dither: o.dither,
            seed: o.seed,
            round_to_power_of_two: o.round_to_power_of_two.into(),
            snip_edges: o.snip_edges.into(),
            raw_energy: o.raw_energy.into(),
            energy_floor: o.energy_floor,
            use_energy: o.use_energy.into(),
            use_log_fbank: o.use_log_fbank.into(),
            use_power: o.use_power.into(),
            num_mel_bins: o.num_mel_bins,
            low_freq: o.low_freq,
            high_freq: o.high_freq,
            vtln_warp: o.vtln_warp,
            vtln_low: o.vtln_low,
            vtln_high: o.vtln_high,
            num_ceps: o.num_ceps,
            cepstral_lifter: o.cepstral_lifter,
            htk_compat: o.htk_compat.into(),
            subtract_mean: o.subtract_mean.into(),
            min_duration: o.min_duration,
        }
    }
}

fn flag(name: &str, v: i32) -> SkResult<bool> {
    match v {
        0 => Ok(false),
        1 => Ok(true),
        _ => Err(SkError::BadArgument(format!(
            "opts->{name} = {v}; it must be 0 or 1"
        ))),
    }
}

fn feature(kind: i32) -> SkResult<Feature> {
    match kind {
        SK_KALDI_SPECTROGRAM => Ok(Feature::Spectrogram),
        SK_KALDI_FBANK => Ok(Feature::Fbank),
        SK_KALDI_MFCC => Ok(Feature::Mfcc),
        _ => Err(SkError::BadArgument(format!(
            "kind = {kind} is not SK_KALDI_SPECTROGRAM (0), SK_KALDI_FBANK (1) or SK_KALDI_MFCC (2)"
        ))),
    }
}

impl SkKaldiOptions {
    /// The core options (flags and window checked here, values by the plan).
    pub(crate) fn to_core(self) -> SkResult<KaldiOptions> {
        let window = match self.window_type {
            SK_KALDI_WINDOW_HAMMING => KaldiWindow::Hamming,
            SK_KALDI_WINDOW_HANNING => KaldiWindow::Hanning,
            SK_KALDI_WINDOW_POVEY => KaldiWindow::Povey,
            SK_KALDI_WINDOW_RECTANGULAR => KaldiWindow::Rectangular,
            SK_KALDI_WINDOW_BLACKMAN => KaldiWindow::Blackman,
            w => {
                return Err(SkError::BadArgument(format!(
                    "opts->window_type = {w} is not an SK_KALDI_WINDOW_* constant (0 … 4)"
                )))
            }
        };
        Ok(KaldiOptions {
            sample_frequency: self.sample_frequency,
            frame_length: self.frame_length,
            frame_shift: self.frame_shift,
            window,
            blackman_coeff: self.blackman_coeff,
            preemphasis_coefficient: self.preemphasis_coefficient,
            remove_dc_offset: flag("remove_dc_offset", self.remove_dc_offset)?,
            dither: self.dither,
            seed: self.seed,
            round_to_power_of_two: flag("round_to_power_of_two", self.round_to_power_of_two)?,
            snip_edges: flag("snip_edges", self.snip_edges)?,
            raw_energy: flag("raw_energy", self.raw_energy)?,
            energy_floor: self.energy_floor,
            use_energy: flag("use_energy", self.use_energy)?,
            use_log_fbank: flag("use_log_fbank", self.use_log_fbank)?,
            use_power: flag("use_power", self.use_power)?,
            num_mel_bins: self.num_mel_bins,
            low_freq: self.low_freq,
            high_freq: self.high_freq,
            vtln_warp: self.vtln_warp,
            vtln_low: self.vtln_low,
            vtln_high: self.vtln_high,
            num_ceps: self.num_ceps,
            cepstral_lifter: self.cepstral_lifter,
            htk_compat: flag("htk_compat", self.htk_compat)?,
            subtract_mean: flag("subtract_mean", self.subtract_mean)?,
            min_duration: self.min_duration,
        })
    }
}

/// Reads and checks `*opts`, makes the plan of `kind` (cached; its seed is 0) and returns it
/// with the options' dither seed.
///
/// # Safety
/// `opts` NULL, misaligned (both refused here) or readable for one `SkKaldiOptions`.
pub(crate) unsafe fn read_plan<T: KaldiFloat>(
    kind: i32,
    opts: *const SkKaldiOptions,
) -> SkResult<(Arc<KaldiPlan<T>>, u64)> {
    let f = feature(kind)?;
    let b = Buf::new("opts", opts, 1);
    if opts.is_null() {
        return Err(SkError::NullPointer(
            "argument opts is NULL; pass options filled by sk_kaldi_options_init".into(),
        ));
    }
    b.check()?;
    // SAFETY: `b.check()` passed (non-NULL, aligned, one element in range); readable is the
    // caller's `# Safety` obligation; the struct is plain data copied out here.
    let o = unsafe { *opts };
    Ok((KaldiPlan::cached(f, o.to_core()?)?, o.seed))
}

/// Fills `*opts` with torchaudio's defaults (16 kHz, 25 ms frames every 10 ms, Povey window,
/// pre-emphasis 0.97, DC removal, raw energy with floor 1, no dither, 23 mel bands from 20 Hz
/// to Nyquist, 13 cepstra with lifter 22, `snip_edges`).
/// Returns `SK_OK`, `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`. Thread-safe.
///
/// Real-time safe: yes.
///
/// # Safety
/// `opts` writable for one `SkKaldiOptions`.
#[no_mangle]
pub unsafe extern "C" fn sk_kaldi_options_init(opts: *mut SkKaldiOptions) -> i32 {
    ffi_boundary!("sk_kaldi_options_init", {
        check_out_scalar("opts", opts)?;
        // SAFETY: non-NULL and aligned (checked above); writable is the caller's obligation.
        unsafe { *opts = KaldiOptions::default().into() };
        Ok(())
    })
}

/// The output shape of `kind` with `*opts` for signals of `n` samples: `*frames` frames of
/// `*dim` values (`rows × frames × dim` values for a batch). With `snip_edges` the frames are
/// `1 + (n − len)/shift`, without it `(n + shift/2)/shift`; a signal shorter than
/// `min_duration` has 0 frames. A signal shorter than one frame is `SK_ERR_BAD_ARGUMENT` (as
/// torchaudio refuses it). Every option is checked as in `sk_kaldi_f32`.
/// Returns `SK_OK`, `SK_ERR_BAD_ARGUMENT`, `SK_ERR_LENGTH`, `SK_ERR_NULL_POINTER`,
/// `SK_ERR_MISALIGNED`, `SK_ERR_ALLOCATION`; on error nothing is written. Thread-safe.
///
/// Real-time safe: no (makes the plan, or takes it from a process-wide cache under a lock, to
/// check the options).
///
/// # Safety
/// `opts` readable, `frames` and `dim` writable.
#[no_mangle]
pub unsafe extern "C" fn sk_kaldi_shape(
    kind: i32,
    opts: *const SkKaldiOptions,
    frames: *mut usize,
    dim: *mut usize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_kaldi_shape", {
        // SAFETY: `opts` per this function's contract; NULL and alignment are checked inside.
        let (p, _) = unsafe { read_plan::<f64>(kind, opts)? };
        check_out_scalar("frames", frames)?;
        check_out_scalar("dim", dim)?;
        let fr = p.frames(n)?;
        let fr = size_result(
            "the frame count",
            Some(fr),
            p.dim().saturating_mul(4),
            "frames",
        )?;
        // SAFETY: both checked non-NULL and aligned above; writable per the contract.
        unsafe {
            *frames = fr;
            *dim = p.dim();
        }
        Ok(())
    })
}

/// Shared body of `sk_kaldi_f32` / `sk_kaldi_f64`.
///
/// # Safety
/// `opts` readable; `x` readable for `(rows − 1)·x_stride + n` elements; `y` writable for
/// `y_len` (NULL, alignment, sizes and overlap are checked here).
#[allow(clippy::too_many_arguments)]
unsafe fn kaldi_ffi<T: KaldiFloat>(
    kind: i32,
    opts: *const SkKaldiOptions,
    x: *const T,
    x_stride: isize,
    rows: usize,
    y: *mut T,
    y_len: usize,
    n: usize,
) -> SkResult<()> {
    // SAFETY: `opts` per the caller's contract; NULL and alignment are checked inside.
    let (p, seed) = unsafe { read_plan::<T>(kind, opts)? };
    let xl = super::fft::extent("x", rows, n, x_stride, false, 0)?;
    let xb = Buf::new("x", x, xl);
    xb.check()?;
    check_capacity("y", y, y_len)?;
    let frames = p.frames(n)?;
    let need = rows
        .checked_mul(frames)
        .and_then(|v| v.checked_mul(p.dim()))
        .ok_or_else(|| SkError::Length("rows × frames × dim overflows".into()))?;
    if y_len < need {
        return Err(SkError::BufferTooSmall(format!(
            "y holds {y_len} values but rows {rows} × frames {frames} × dim {} = {need} are \
             needed",
            p.dim()
        )));
    }
    let yb = Buf::out("y", y, need);
    yb.check()?;
    alias(&xb, &yb, false)?;
    if need == 0 {
        return Ok(());
    }
    // SAFETY: `xb.check()` passed for the row span `extent` computed, `yb.check()` for `need`
    // (≤ `y_len`); readable / writable per the caller's contract; `alias` proved them disjoint;
    // the slices die with this call.
    let (xs, ys) = unsafe { (xb.slice(), yb.slice_mut()) };
    p.compute_seeded(seed, xs, x_stride as usize, rows, n, ys)
}

/// Kaldi features of `rows` signals of `n` floats, row `r` at `x + r·x_stride` (`x_stride ≥ 0`;
/// 0 repeats one row), as `torchaudio.compliance.kaldi.spectrogram` / `.fbank` / `.mfcc`
/// (`kind` `SK_KALDI_*`) with the options `*opts`, in one call: framing, dither, DC removal,
/// energy, pre-emphasis, window, padding, FFT, power, mel filterbank, log, DCT, lifter,
/// mean removal. `y` receives `(rows, frames, dim)` row-major (`sk_kaldi_shape`); `y_len` is
/// its capacity. Row `r` dithers with the noise of `(opts->seed, r)`: the same seed gives the
/// same result, whatever the thread count. Frames are split over up to `SIGKERN_THREADS`
/// threads.
/// Returns `SK_OK`, `SK_ERR_BAD_ARGUMENT` (an option out of range, named in the message; a
/// signal shorter than one frame; a negative `x_stride`), `SK_ERR_BUFFER_TOO_SMALL`,
/// `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`, `SK_ERR_LENGTH`, `SK_ERR_OVERLAP`,
/// `SK_ERR_ALLOCATION`; on error `y` is untouched. Thread-safe.
///
/// Real-time safe: no (makes the plan or takes it from a process-wide cache under a lock;
/// allocates working memory).
///
/// # Safety
/// `opts` readable; `x` readable for `(rows−1)·x_stride + n` floats; `y` writable for y_len.
#[no_mangle]
pub unsafe extern "C" fn sk_kaldi_f32(
    kind: i32,
    opts: *const SkKaldiOptions,
    x: *const f32,
    x_stride: isize,
    rows: usize,
    y: *mut f32,
    y_len: usize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_kaldi_f32", {
        // SAFETY: this function's contract is `kaldi_ffi`'s; everything is checked inside.
        unsafe { kaldi_ffi(kind, opts, x, x_stride, rows, y, y_len, n) }
    })
}

/// Kaldi features of doubles. Rules as `sk_kaldi_f32`.
///
/// Real-time safe: no (makes the plan or takes it from a process-wide cache under a lock;
/// allocates working memory).
///
/// # Safety
/// `opts` readable; `x` readable for `(rows−1)·x_stride + n` doubles; `y` writable for y_len.
#[no_mangle]
pub unsafe extern "C" fn sk_kaldi_f64(
    kind: i32,
    opts: *const SkKaldiOptions,
    x: *const f64,
    x_stride: isize,
    rows: usize,
    y: *mut f64,
    y_len: usize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_kaldi_f64", {
        // SAFETY: this function's contract is `kaldi_ffi`'s; everything is checked inside.
        unsafe { kaldi_ffi(kind, opts, x, x_stride, rows, y, y_len, n) }
    })
}
