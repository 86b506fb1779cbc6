//! librosa's frame-wise features (`librosa.feature`): spectral centroid, bandwidth, roll-off,
//! flatness (any subset in one pass, from audio with ZCR and RMS too), contrast, polynomial
//! fit, zero-crossing rate and framed RMS.
//!
//! Spectrogram inputs (`S`, real magnitudes) are a batch of `batch` matrices of `n_freq` bins
//! by `frames` frames: row-major `(batch, n_freq, frames)` (librosa's arrays) when
//! `frame_major = 0`, `(batch, frames, n_freq)` (the memory of an `sk_stft_*` result's
//! magnitude) when `frame_major ≠ 0`. Audio inputs are `batch` rows of `n` samples, one after
//! the other. `freq` is NULL (librosa's `freq=None`: `fft_frequencies(sr, n_fft)` with
//! `n_fft = 2·(n_freq − 1)` for a spectrogram input) or `n_freq` bin frequencies.
//! Outputs are written only after every check has passed.

use super::guard::{alias, check_capacity, check_out_scalar, ffi_boundary, Buf};
use super::spec::SpecFloat;
use super::stft::params;
use crate::error::{SkError, SkResult};
use crate::kernels::feature::spectral::{
    self as fs, ContrastParams, DescParams, Framing, Spec, TimePad, ZcrParams,
};
use crate::kernels::Float;

/// Descriptor bit: spectral centroid (`librosa.feature.spectral_centroid`).
pub const SK_FEATURE_CENTROID: u32 = 1;
/// Descriptor bit: spectral bandwidth (`librosa.feature.spectral_bandwidth`).
pub const SK_FEATURE_BANDWIDTH: u32 = 2;
/// Descriptor bit: spectral roll-off (`librosa.feature.spectral_rolloff`).
pub const SK_FEATURE_ROLLOFF: u32 = 4;
/// Descriptor bit: spectral flatness (`librosa.feature.spectral_flatness`).
pub const SK_FEATURE_FLATNESS: u32 = 8;
/// Descriptor bit: zero-crossing rate (`librosa.feature.zero_crossing_rate`; audio input only).
pub const SK_FEATURE_ZCR: u32 = 16;
/// Descriptor bit: framed RMS (`librosa.feature.rms(y=...)`; audio input only).
pub const SK_FEATURE_RMS: u32 = 32;

const _: () = assert!(
    SK_FEATURE_CENTROID == fs::CENTROID
        && SK_FEATURE_BANDWIDTH == fs::BANDWIDTH
        && SK_FEATURE_ROLLOFF == fs::ROLLOFF
        && SK_FEATURE_FLATNESS == fs::FLATNESS
        && SK_FEATURE_ZCR == fs::ZCR
        && SK_FEATURE_RMS == fs::RMS
);

/// Time-domain centre padding with the edge samples (numpy's `"edge"`); accepted by
/// `sk_rms_frames_*` only, next to `SK_PAD_CONSTANT` and `SK_PAD_REFLECT`.
pub const SK_PAD_EDGE: i32 = 2;

fn time_pad(mode: i32) -> SkResult<TimePad> {
    match mode {
        0 => Ok(TimePad::Constant),
        1 => Ok(TimePad::Reflect),
        SK_PAD_EDGE => Ok(TimePad::Edge),
        _ => Err(SkError::BadArgument(format!(
            "pad_mode = {mode} is not SK_PAD_CONSTANT (0), SK_PAD_REFLECT (1) or SK_PAD_EDGE (2)"
        ))),
    }
}

fn mul3(a: usize, b: usize, c: usize, what: &str) -> SkResult<usize> {
    a.checked_mul(b)
        .and_then(|v| v.checked_mul(c))
        .ok_or_else(|| SkError::Length(format!("{what} overflows size_t")))
}

/// Checks an output of capacity `cap` against `need` (`what` describes `need`).
fn out_buf<T>(
    name: &'static str,
    y: *mut T,
    cap: usize,
    need: usize,
    what: &str,
) -> SkResult<Buf<T>> {
    check_capacity(name, y, cap)?;
    if cap < need {
        return Err(SkError::BufferTooSmall(format!(
            "{name} holds {cap} values but {what} = {need} are needed"
        )));
    }
    Ok(Buf::out(name, y, need))
}

fn check_sr(sr: f64) -> SkResult<()> {
    if !(sr.is_finite() && sr > 0.0) {
        return Err(SkError::BadArgument(format!(
            "sr = {sr} must be finite and > 0"
        )));
    }
    Ok(())
}

/// The bin frequencies: a copy of the caller's `n_freq` values, or librosa's default for an
/// `n_fft`-point transform.
///
/// # Safety
/// `freq` NULL or readable for `n_freq` doubles.
unsafe fn bin_freqs(freq: *const f64, n_freq: usize, sr: f64, n_fft: usize) -> SkResult<Vec<f64>> {
    if freq.is_null() {
        check_sr(sr)?;
        if n_fft == 0 {
            return Err(SkError::BadArgument(
                "n_freq = 1 gives n_fft = 0: pass freq explicitly".into(),
            ));
        }
        let v = fs::fft_frequencies(sr, n_fft)?;
        debug_assert_eq!(v.len(), n_freq);
        return Ok(v);
    }
    let fb = Buf::new("freq", freq, n_freq);
    fb.check()?;
    // SAFETY: `fb.check()` passed for `n_freq` doubles, readable per the caller's contract;
    // copied at once, so no slice outlives the call.
    Ok(unsafe { fb.slice() }.to_vec())
}

/// A checked spectrogram input.
fn spec_buf<T>(s: *const T, batch: usize, n_freq: usize, frames: usize) -> SkResult<Buf<T>> {
    let len = mul3(batch, n_freq, frames, "batch × n_freq × frames")?;
    let sb = Buf::new("S", s, len);
    sb.check()?;
    if n_freq == 0 {
        return Err(SkError::Length(
            "n_freq = 0: a frame needs at least one bin".into(),
        ));
    }
    Ok(sb)
}

/// # Safety
/// As `sk_spectral_features_f32`.
#[allow(clippy::too_many_arguments)]
unsafe fn features_ffi<T: SpecFloat>(
    y: *const T,
    batch: usize,
    n: usize,
    window: *const T,
    n_fft: usize,
    hop: usize,
    win_length: usize,
    center: i32,
    pad_mode: i32,
    sr: f64,
    freq: *const f64,
    which: u32,
    p: f64,
    norm: i32,
    roll_percent: f64,
    amin: f64,
    power: f64,
    zcr_threshold: f64,
    zcr_zero_pos: i32,
    zcr_pad: i32,
    out: *mut T,
    out_len: usize,
) -> SkResult<()> {
    let k = fs::check_which(which, fs::ALL_BITS)?;
    let sp = params(n_fft, hop, win_length, center, pad_mode, 1, 0)?;
    let dp = DescParams {
        p,
        norm: norm != 0,
        roll_percent,
        amin,
        power,
    };
    dp.check(which)?;
    let zp = ZcrParams {
        threshold: zcr_threshold,
        zero_pos: zcr_zero_pos != 0,
        pad: zcr_pad != 0,
    };
    let xl = batch
        .checked_mul(n)
        .ok_or_else(|| SkError::Length("batch × n overflows".into()))?;
    let xb = Buf::new("y", y, xl);
    xb.check()?;
    let wb = Buf::new("window", window, win_length);
    wb.check()?;
    let frames = sp.frames(n)?;
    // SAFETY: `freq` is NULL or readable for n_fft/2+1 doubles (caller's contract).
    let fq = unsafe { bin_freqs(freq, sp.n_freq(), sr, n_fft)? };
    let need = mul3(k, batch, frames, "k × batch × frames")?;
    let ob = out_buf(
        "out",
        out,
        out_len,
        need,
        &format!("{k} features × batch {batch} × frames {frames}"),
    )?;
    alias(&xb, &ob, false)?;
    alias(&wb, &ob, false)?;
    // SAFETY: `xb`, `wb` passed `check()`, `ob` came from `out_buf` (checked, within the
    // caller's capacity); `alias(.., false)` proved the inputs disjoint from `out`; readable /
    // writable is the caller's contract; the slices die with this call.
    unsafe {
        fs::features_from_audio(
            xb.slice(),
            batch,
            wb.slice(),
            &sp,
            &fq,
            which,
            &dp,
            &zp,
            ob.slice_mut(),
        )
    }
}

/// # Safety
/// As `sk_spectral_descriptors_f32`.
#[allow(clippy::too_many_arguments)]
unsafe fn descriptors_ffi<T: Float>(
    s: *const T,
    batch: usize,
    n_freq: usize,
    frames: usize,
    frame_major: i32,
    sr: f64,
    freq: *const f64,
    centroid: *const T,
    which: u32,
    p: f64,
    norm: i32,
    roll_percent: f64,
    amin: f64,
    power: f64,
    out: *mut T,
    out_len: usize,
) -> SkResult<()> {
    let k = fs::check_which(which, fs::SPECTRAL_BITS)?;
    let dp = DescParams {
        p,
        norm: norm != 0,
        roll_percent,
        amin,
        power,
    };
    dp.check(which)?;
    let sb = spec_buf(s, batch, n_freq, frames)?;
    // SAFETY: `freq` NULL or readable for n_freq doubles (caller's contract).
    let fq = unsafe { bin_freqs(freq, n_freq, sr, 2 * (n_freq - 1))? };
    let g = batch * frames;
    let cb = if centroid.is_null() {
        None
    } else {
        let cb = Buf::new("centroid", centroid, g);
        cb.check()?;
        Some(cb)
    };
    let need = mul3(k, batch, frames, "k × batch × frames")?;
    let ob = out_buf(
        "out",
        out,
        out_len,
        need,
        &format!("{k} descriptors × batch {batch} × frames {frames}"),
    )?;
    alias(&sb, &ob, false)?;
    if let Some(cb) = &cb {
        alias(cb, &ob, false)?;
    }
    let spec = Spec {
        // SAFETY: `sb` passed `check()` (in `spec_buf`), readable per the caller's contract,
        // disjoint from `out` (`alias` above).
        data: unsafe { sb.slice() },
        batch,
        n_freq,
        frames,
        frame_major: frame_major != 0,
    };
    // SAFETY: `cb` passed `check()`, disjoint from `out`; readable per the caller's contract.
    let c = cb.map(|cb| unsafe { cb.slice() });
    // SAFETY: `ob` came from `out_buf` (checked), writable per the caller's contract, disjoint
    // from every input.
    fs::spectral_from_spec(&spec, &fq, which, &dp, c, unsafe { ob.slice_mut() })
}

/// # Safety
/// As `sk_spectral_contrast_f32`.
#[allow(clippy::too_many_arguments)]
unsafe fn contrast_ffi<T: Float>(
    s: *const T,
    batch: usize,
    n_freq: usize,
    frames: usize,
    frame_major: i32,
    sr: f64,
    freq: *const f64,
    fmin: f64,
    n_bands: usize,
    quantile: f64,
    linear: i32,
    out: *mut T,
    out_len: usize,
) -> SkResult<()> {
    check_sr(sr)?;
    let sb = spec_buf(s, batch, n_freq, frames)?;
    // SAFETY: `freq` NULL or readable for n_freq doubles (caller's contract).
    let fq = unsafe { bin_freqs(freq, n_freq, sr, 2 * (n_freq - 1))? };
    let rows = n_bands
        .checked_add(1)
        .ok_or_else(|| SkError::Length("n_bands + 1 overflows".into()))?;
    let need = mul3(rows, batch, frames, "(n_bands + 1) × batch × frames")?;
    let ob = out_buf(
        "out",
        out,
        out_len,
        need,
        &format!("batch {batch} × (n_bands + 1) {rows} × frames {frames}"),
    )?;
    alias(&sb, &ob, false)?;
    let cp = ContrastParams {
        sr,
        fmin,
        n_bands,
        quantile,
        linear: linear != 0,
    };
    let spec = Spec {
        // SAFETY: `sb` passed `check()`, readable per the caller's contract, disjoint from `out`.
        data: unsafe { sb.slice() },
        batch,
        n_freq,
        frames,
        frame_major: frame_major != 0,
    };
    // SAFETY: `ob` came from `out_buf` (checked), writable per the caller's contract, disjoint
    // from `S`.
    fs::spectral_contrast(&spec, &fq, &cp, unsafe { ob.slice_mut() })
}

/// # Safety
/// As `sk_poly_features_f32`.
#[allow(clippy::too_many_arguments)]
unsafe fn poly_ffi<T: Float>(
    s: *const T,
    batch: usize,
    n_freq: usize,
    frames: usize,
    frame_major: i32,
    sr: f64,
    freq: *const f64,
    order: usize,
    out: *mut T,
    out_len: usize,
) -> SkResult<()> {
    let sb = spec_buf(s, batch, n_freq, frames)?;
    // SAFETY: `freq` NULL or readable for n_freq doubles (caller's contract).
    let fq = unsafe { bin_freqs(freq, n_freq, sr, 2 * (n_freq - 1))? };
    let rows = order
        .checked_add(1)
        .ok_or_else(|| SkError::Length("order + 1 overflows".into()))?;
    let need = mul3(rows, batch, frames, "(order + 1) × batch × frames")?;
    let ob = out_buf(
        "out",
        out,
        out_len,
        need,
        &format!("batch {batch} × (order + 1) {rows} × frames {frames}"),
    )?;
    alias(&sb, &ob, false)?;
    let spec = Spec {
        // SAFETY: `sb` passed `check()`, readable per the caller's contract, disjoint from `out`.
        data: unsafe { sb.slice() },
        batch,
        n_freq,
        frames,
        frame_major: frame_major != 0,
    };
    // SAFETY: `ob` came from `out_buf` (checked), writable per the caller's contract, disjoint
    // from `S`.
    fs::poly_features(&spec, &fq, order, unsafe { ob.slice_mut() })
}

/// A checked audio batch and its output for the time-domain kernels.
fn time_io<T>(
    y: *const T,
    batch: usize,
    n: usize,
    fr: &Framing,
    out: *mut T,
    out_len: usize,
) -> SkResult<(Buf<T>, Buf<T>)> {
    let xl = batch
        .checked_mul(n)
        .ok_or_else(|| SkError::Length("batch × n overflows".into()))?;
    let xb = Buf::new("y", y, xl);
    xb.check()?;
    let frames = fr.frames(n)?;
    let need = batch
        .checked_mul(frames)
        .ok_or_else(|| SkError::Length("batch × frames overflows".into()))?;
    let ob = out_buf(
        "out",
        out,
        out_len,
        need,
        &format!("batch {batch} × frames {frames}"),
    )?;
    alias(&xb, &ob, false)?;
    Ok((xb, ob))
}

/// # Safety
/// As `sk_zero_crossing_rate_f32`.
#[allow(clippy::too_many_arguments)]
unsafe fn zcr_ffi<T: Float>(
    y: *const T,
    batch: usize,
    n: usize,
    frame_length: usize,
    hop: usize,
    center: i32,
    threshold: f64,
    zero_pos: i32,
    pad: i32,
    out: *mut T,
    out_len: usize,
) -> SkResult<()> {
    let fr = Framing {
        frame_length,
        hop,
        center: center != 0,
    };
    let zp = ZcrParams {
        threshold,
        zero_pos: zero_pos != 0,
        pad: pad != 0,
    };
    let (xb, ob) = time_io(y, batch, n, &fr, out, out_len)?;
    // SAFETY: both checked in `time_io`, disjoint, readable / writable per the caller's contract.
    unsafe { fs::zero_crossing_rate(xb.slice(), batch, &fr, &zp, ob.slice_mut()) }
}

/// # Safety
/// As `sk_rms_frames_f32`.
#[allow(clippy::too_many_arguments)]
unsafe fn rms_ffi<T: Float>(
    y: *const T,
    batch: usize,
    n: usize,
    frame_length: usize,
    hop: usize,
    center: i32,
    pad_mode: i32,
    out: *mut T,
    out_len: usize,
) -> SkResult<()> {
    let fr = Framing {
        frame_length,
        hop,
        center: center != 0,
    };
    let mode = time_pad(pad_mode)?;
    let (xb, ob) = time_io(y, batch, n, &fr, out, out_len)?;
    // SAFETY: both checked in `time_io`, disjoint, readable / writable per the caller's contract.
    unsafe { fs::rms_frames(xb.slice(), batch, &fr, mode, ob.slice_mut()) }
}

/// # Safety
/// As `sk_rms_spec_f32`.
#[allow(clippy::too_many_arguments)]
unsafe fn rms_spec_ffi<T: Float>(
    s: *const T,
    batch: usize,
    n_freq: usize,
    frames: usize,
    frame_major: i32,
    squared: i32,
    frame_length: usize,
    out: *mut T,
    out_len: usize,
) -> SkResult<()> {
    let sb = spec_buf(s, batch, n_freq, frames)?;
    let need = batch
        .checked_mul(frames)
        .ok_or_else(|| SkError::Length("batch × frames overflows".into()))?;
    let ob = out_buf(
        "out",
        out,
        out_len,
        need,
        &format!("batch {batch} × frames {frames}"),
    )?;
    alias(&sb, &ob, false)?;
    let spec = Spec {
        // SAFETY: `sb` passed `check()`, readable per the caller's contract, disjoint from `out`.
        data: unsafe { sb.slice() },
        batch,
        n_freq,
        frames,
        frame_major: frame_major != 0,
    };
    // SAFETY: `ob` came from `out_buf` (checked), writable per the caller's contract.
    fs::rms_spec(&spec, squared != 0, frame_length, unsafe { ob.slice_mut() })
}

/// Frames of an n-sample signal framed by `frame_length` and `hop` after centre padding of
/// `frame_length/2` samples each side when `center ≠ 0` (`librosa.util.frame` after librosa's
/// padding): `1 + (n + 2·pad − frame_length) / hop`, stored in `*frames`. The count of
/// `sk_zero_crossing_rate_*` and `sk_rms_frames_*` (with an even `n_fft`, also of the STFT).
/// Returns `SK_OK`, `SK_ERR_LENGTH` (`frame_length = 0`, overflow), `SK_ERR_BAD_ARGUMENT`
/// (`hop = 0`; the padded signal shorter than a frame), `SK_ERR_NULL_POINTER` /
/// `SK_ERR_MISALIGNED` (`frames`); on error `*frames` is untouched. Thread-safe.
///
/// Real-time safe: yes.
///
/// # Safety
/// `frames` writable.
#[no_mangle]
pub unsafe extern "C" fn sk_feature_frames(
    n: usize,
    frame_length: usize,
    hop: usize,
    center: i32,
    frames: *mut usize,
) -> i32 {
    ffi_boundary!("sk_feature_frames", {
        check_out_scalar("frames", frames)?;
        let f = Framing {
            frame_length,
            hop,
            center: center != 0,
        }
        .frames(n)?;
        // SAFETY: `check_out_scalar` established non-NULL and aligned; writable is the caller's
        // contract.
        unsafe { *frames = f };
        Ok(())
    })
}

/// The one-pass feature call: for every frame of every row of `y` (`batch` rows of `n`
/// samples), librosa's STFT (`librosa.stft(y, n_fft=n_fft, hop_length=hop,
/// win_length=win_length, window=window, center=center≠0, pad_mode=…)`) and, from its magnitude
/// without storing the spectrogram, the descriptors selected by `which` (`SK_FEATURE_*` bits):
/// `spectral_centroid(freq=freq)`, `spectral_bandwidth(p=p, norm=norm≠0)`,
/// `spectral_rolloff(roll_percent=roll_percent)`, `spectral_flatness(amin=amin,
/// power=power)`, plus from the same frame of the signal `zero_crossing_rate(frame_length=n_fft,
/// hop_length=hop, center=center≠0, threshold=zcr_threshold, zero_pos=zcr_zero_pos≠0,
/// pad=zcr_pad≠0)` (centre padding with the edge samples, as librosa) and `rms(y=y,
/// frame_length=n_fft, hop_length=hop, center=center≠0, pad_mode=…)` (in the precision of
/// the input; librosa's default `dtype=float32` is the caller's cast).
///
/// Arguments: `window` holds `win_length` values (`scipy.signal.get_window(window,
/// win_length, fftbins=True)`, zero-padded centred to n_fft as librosa); STFT rules as
/// `sk_stft_frames` (`1 ≤ hop ≤ win_length ≤ n_fft`; `pad_mode` `SK_PAD_CONSTANT`, librosa's
/// default, or `SK_PAD_REFLECT`); `sr > 0` when `freq` is NULL, else `freq` holds `n_fft/2+1`
/// bin frequencies; `p > 0`, `0 < roll_percent < 1`, `amin > 0`, `power > 0`, all finite, for
/// the bits that use them; a NaN `zcr_threshold` is `SK_ERR_BAD_ARGUMENT`. `out` receives the
/// selected features in bit order (centroid, bandwidth, rolloff, flatness, zcr, rms), each a
/// `batch × frames` block, frames `1 + n/hop` when centred (see `sk_stft_frames`); `out_len` is
/// its capacity (else `SK_ERR_BUFFER_TOO_SMALL` stating the size). The audio must be finite
/// (librosa's `valid_audio`): else `SK_ERR_NON_FINITE` naming the first bad sample. A silent
/// frame has centroid, bandwidth and roll-off 0 and flatness 1.
/// Returns `SK_OK`, `SK_ERR_BAD_ARGUMENT`, `SK_ERR_LENGTH`, `SK_ERR_NON_FINITE`,
/// `SK_ERR_BUFFER_TOO_SMALL`, `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`, `SK_ERR_OVERLAP`
/// (`out` overlapping `y` or `window`), `SK_ERR_ALLOCATION`; on error `out` is untouched.
/// Thread-safe (long inputs are split over up to `SIGKERN_THREADS` threads).
///
/// Real-time safe: no (allocates its working memory; long inputs may be split over the worker threads).
///
/// # Safety
/// `y` readable for batch·n floats, `window` for win_length, `freq` NULL or readable for
/// n_fft/2+1 doubles, `out` writable for out_len floats.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn sk_spectral_features_f32(
    y: *const f32,
    batch: usize,
    n: usize,
    window: *const f32,
    n_fft: usize,
    hop: usize,
    win_length: usize,
    center: i32,
    pad_mode: i32,
    sr: f64,
    freq: *const f64,
    which: u32,
    p: f64,
    norm: i32,
    roll_percent: f64,
    amin: f64,
    power: f64,
    zcr_threshold: f64,
    zcr_zero_pos: i32,
    zcr_pad: i32,
    out: *mut f32,
    out_len: usize,
) -> i32 {
    ffi_boundary!("sk_spectral_features_f32", {
        // SAFETY: this function's `# Safety` contract is `features_ffi`'s; NULL, alignment,
        // sizes and overlap are checked inside.
        unsafe {
            features_ffi::<f32>(
                y,
                batch,
                n,
                window,
                n_fft,
                hop,
                win_length,
                center,
                pad_mode,
                sr,
                freq,
                which,
                p,
                norm,
                roll_percent,
                amin,
                power,
                zcr_threshold,
                zcr_zero_pos,
                zcr_pad,
                out,
                out_len,
            )
        }
    })
}

/// `sk_spectral_features_f32` on doubles. Same rules.
///
/// Real-time safe: no (allocates its working memory; long inputs may be split over the worker threads).
///
/// # Safety
/// `y` readable for batch·n doubles, `window` for win_length, `freq` NULL or readable for
/// n_fft/2+1 doubles, `out` writable for out_len doubles.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn sk_spectral_features_f64(
    y: *const f64,
    batch: usize,
    n: usize,
    window: *const f64,
    n_fft: usize,
    hop: usize,
    win_length: usize,
    center: i32,
    pad_mode: i32,
    sr: f64,
    freq: *const f64,
    which: u32,
    p: f64,
    norm: i32,
    roll_percent: f64,
    amin: f64,
    power: f64,
    zcr_threshold: f64,
    zcr_zero_pos: i32,
    zcr_pad: i32,
    out: *mut f64,
    out_len: usize,
) -> i32 {
    ffi_boundary!("sk_spectral_features_f64", {
        // SAFETY: this function's `# Safety` contract is `features_ffi`'s; NULL, alignment,
        // sizes and overlap are checked inside.
        unsafe {
            features_ffi::<f64>(
                y,
                batch,
                n,
                window,
                n_fft,
                hop,
                win_length,
                center,
                pad_mode,
                sr,
                freq,
                which,
                p,
                norm,
                roll_percent,
                amin,
                power,
                zcr_threshold,
                zcr_zero_pos,
                zcr_pad,
                out,
                out_len,
            )
        }
    })
}

/// The spectral descriptors selected by `which` (`SK_FEATURE_CENTROID`, `_BANDWIDTH`,
/// `_ROLLOFF`, `_FLATNESS`) of every frame of a magnitude spectrogram `S` (layout at the top
/// of this section), as `librosa.feature.spectral_centroid(S=S, freq=freq)`,
/// `spectral_bandwidth(S=S, freq=freq, centroid=centroid, norm=norm≠0, p=p)`,
/// `spectral_rolloff(S=S, freq=freq, roll_percent=roll_percent)` and
/// `spectral_flatness(S=S, amin=amin, power=power)`, in one pass.
///
/// Arguments: `sr > 0` finite when `freq` is NULL (bins of `n_fft = 2·(n_freq − 1)`, so
/// `n_freq ≥ 2`); `centroid` NULL or `batch × frames` values replacing the bandwidth's own
/// centroid; parameter rules as `sk_spectral_features_f32`. `out` receives the selected
/// descriptors in bit order, each a `batch × frames` block (librosa's `(..., 1, frames)`
/// arrays one after the other). `S` must be non-negative (librosa: "only defined with
/// non-negative energies"): a negative value is `SK_ERR_BAD_ARGUMENT` naming its index. NaN in a
/// frame makes that frame's descriptors NaN (roll-off: the lowest bin whose running sum is not
/// below the threshold, as librosa's comparisons). A frame whose sum is below the smallest
/// normal number is not normalised (librosa's `normalize`): centroid, bandwidth, roll-off 0.
/// Returns `SK_OK`, `SK_ERR_BAD_ARGUMENT`, `SK_ERR_LENGTH`, `SK_ERR_BUFFER_TOO_SMALL`,
/// `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`, `SK_ERR_OVERLAP` (`out` overlapping `S` or
/// `centroid`), `SK_ERR_ALLOCATION`; on error `out` is untouched. Thread-safe.
///
/// Real-time safe: no (allocates a frame-major temporary; long inputs may be split over the worker threads).
///
/// # Safety
/// `S` readable for batch·n_freq·frames floats, `freq` NULL or readable for n_freq doubles,
/// `centroid` NULL or readable for batch·frames floats, `out` writable for out_len floats.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn sk_spectral_descriptors_f32(
    s: *const f32,
    batch: usize,
    n_freq: usize,
    frames: usize,
    frame_major: i32,
    sr: f64,
    freq: *const f64,
    centroid: *const f32,
    which: u32,
    p: f64,
    norm: i32,
    roll_percent: f64,
    amin: f64,
    power: f64,
    out: *mut f32,
    out_len: usize,
) -> i32 {
    ffi_boundary!("sk_spectral_descriptors_f32", {
        // SAFETY: this function's `# Safety` contract is `descriptors_ffi`'s; NULL, alignment,
        // sizes and overlap are checked inside.
        unsafe {
            descriptors_ffi::<f32>(
                s,
                batch,
                n_freq,
                frames,
                frame_major,
                sr,
                freq,
                centroid,
                which,
                p,
                norm,
                roll_percent,
                amin,
                power,
                out,
                out_len,
            )
        }
    })
}

/// `sk_spectral_descriptors_f32` on doubles. Same rules.
///
/// Real-time safe: no (allocates a frame-major temporary; long inputs may be split over the worker threads).
///
/// # Safety
/// `S` readable for batch·n_freq·frames doubles, `freq` NULL or readable for n_freq doubles,
/// `centroid` NULL or readable for batch·frames doubles, `out` writable for out_len doubles.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn sk_spectral_descriptors_f64(
    s: *const f64,
    batch: usize,
    n_freq: usize,
    frames: usize,
    frame_major: i32,
    sr: f64,
    freq: *const f64,
    centroid: *const f64,
    which: u32,
    p: f64,
    norm: i32,
    roll_percent: f64,
    amin: f64,
    power: f64,
    out: *mut f64,
    out_len: usize,
) -> i32 {
    ffi_boundary!("sk_spectral_descriptors_f64", {
        // SAFETY: this function's `# Safety` contract is `descriptors_ffi`'s; NULL, alignment,
        // sizes and overlap are checked inside.
        unsafe {
            descriptors_ffi::<f64>(
                s,
                batch,
                n_freq,
                frames,
                frame_major,
                sr,
                freq,
                centroid,
                which,
                p,
                norm,
                roll_percent,
                amin,
                power,
                out,
                out_len,
            )
        }
    })
}

/// `librosa.feature.spectral_contrast(S=S, sr=sr, freq=freq, fmin=fmin, n_bands=n_bands,
/// quantile=quantile, linear=linear≠0)` of a magnitude spectrogram batch `S` (layout at the
/// top of this section) into `out`, `(batch, n_bands + 1, frames)` row-major.
///
/// Octave bands `[0, fmin]`, `[fmin, 2·fmin]`, … selected from the bin frequencies exactly as
/// librosa does; per band and frame the mean of the `max(1, rint(quantile·count))` smallest
/// (valley) and largest (peak) values; the result is `peak − valley` when `linear ≠ 0`, else
/// `power_to_db(peak) − power_to_db(valley)` with librosa's defaults (`amin = 1e-10`, floor
/// at the maximum − 80 dB taken over the whole batch, as librosa over its whole array).
/// Arguments: `sr > 0` finite; `1 ≤ n_bands ≤ 64`; `fmin > 0` finite; `0 < quantile < 1`;
/// `fmin·2^(n_bands−1) < sr/2` (librosa's "Frequency band exceeds Nyquist"); every band must
/// hold a bin (else `SK_ERR_BAD_ARGUMENT`; librosa fails with an IndexError). NaN sorts last as
/// in numpy and, in dB mode, makes the whole result NaN (as librosa's maximum).
/// Returns `SK_OK`, `SK_ERR_BAD_ARGUMENT`, `SK_ERR_LENGTH`, `SK_ERR_BUFFER_TOO_SMALL`,
/// `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`, `SK_ERR_OVERLAP`, `SK_ERR_ALLOCATION`; on error
/// `out` is untouched. Thread-safe.
///
/// Real-time safe: no (allocates; long inputs may be split over the worker threads).
///
/// # Safety
/// `S` readable for batch·n_freq·frames floats, `freq` NULL or readable for n_freq doubles,
/// `out` writable for out_len floats.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn sk_spectral_contrast_f32(
    s: *const f32,
    batch: usize,
    n_freq: usize,
    frames: usize,
    frame_major: i32,
    sr: f64,
    freq: *const f64,
    fmin: f64,
    n_bands: usize,
    quantile: f64,
    linear: i32,
    out: *mut f32,
    out_len: usize,
) -> i32 {
    ffi_boundary!("sk_spectral_contrast_f32", {
        // SAFETY: this function's `# Safety` contract is `contrast_ffi`'s; NULL, alignment,
        // sizes and overlap are checked inside.
        unsafe {
            contrast_ffi::<f32>(
                s,
                batch,
                n_freq,
                frames,
                frame_major,
                sr,
                freq,
                fmin,
                n_bands,
                quantile,
                linear,
                out,
                out_len,
            )
        }
    })
}

/// `sk_spectral_contrast_f32` on doubles. Same rules.
///
/// Real-time safe: no (allocates; long inputs may be split over the worker threads).
///
/// # Safety
/// `S` readable for batch·n_freq·frames doubles, `freq` NULL or readable for n_freq doubles,
/// `out` writable for out_len doubles.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn sk_spectral_contrast_f64(
    s: *const f64,
    batch: usize,
    n_freq: usize,
    frames: usize,
    frame_major: i32,
    sr: f64,
    freq: *const f64,
    fmin: f64,
    n_bands: usize,
    quantile: f64,
    linear: i32,
    out: *mut f64,
    out_len: usize,
) -> i32 {
    ffi_boundary!("sk_spectral_contrast_f64", {
        // SAFETY: this function's `# Safety` contract is `contrast_ffi`'s; NULL, alignment,
        // sizes and overlap are checked inside.
        unsafe {
            contrast_ffi::<f64>(
                s,
                batch,
                n_freq,
                frames,
                frame_major,
                sr,
                freq,
                fmin,
                n_bands,
                quantile,
                linear,
                out,
                out_len,
            )
        }
    })
}

/// `librosa.feature.poly_features(S=S, sr=sr, freq=freq, order=order)`: per frame the
/// least-squares polynomial of degree `order` through (freq, S[:, t]) as `np.polyfit`
/// (column-scaled Vandermonde matrix; here a Householder QR computed once per call), into
/// `out`, `(batch, order + 1, frames)` row-major, highest power first.
///
/// Arguments: `order ≤ 16` and `n_freq ≥ order + 1` with distinct finite frequencies (else
/// `SK_ERR_BAD_ARGUMENT` / `SK_ERR_NON_FINITE`; numpy warns and returns a minimum-norm fit);
/// `sr > 0` when `freq` is NULL. NaN in a frame makes its coefficients NaN.
/// Returns `SK_OK`, `SK_ERR_BAD_ARGUMENT`, `SK_ERR_NON_FINITE`, `SK_ERR_LENGTH`,
/// `SK_ERR_BUFFER_TOO_SMALL`, `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`, `SK_ERR_OVERLAP`,
/// `SK_ERR_ALLOCATION`; on error `out` is untouched. Thread-safe.
///
/// Real-time safe: no (allocates; long inputs may be split over the worker threads).
///
/// # Safety
/// `S` readable for batch·n_freq·frames floats, `freq` NULL or readable for n_freq doubles,
/// `out` writable for out_len floats.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn sk_poly_features_f32(
    s: *const f32,
    batch: usize,
    n_freq: usize,
    frames: usize,
    frame_major: i32,
    sr: f64,
    freq: *const f64,
    order: usize,
    out: *mut f32,
    out_len: usize,
) -> i32 {
    ffi_boundary!("sk_poly_features_f32", {
        // SAFETY: this function's `# Safety` contract is `poly_ffi`'s; NULL, alignment,
        // sizes and overlap are checked inside.
        unsafe {
            poly_ffi::<f32>(
                s,
                batch,
                n_freq,
                frames,
                frame_major,
                sr,
                freq,
                order,
                out,
                out_len,
            )
        }
    })
}

/// `sk_poly_features_f32` on doubles. Same rules.
///
/// Real-time safe: no (allocates; long inputs may be split over the worker threads).
///
/// # Safety
/// `S` readable for batch·n_freq·frames doubles, `freq` NULL or readable for n_freq doubles,
/// `out` writable for out_len doubles.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn sk_poly_features_f64(
    s: *const f64,
    batch: usize,
    n_freq: usize,
    frames: usize,
    frame_major: i32,
    sr: f64,
    freq: *const f64,
    order: usize,
    out: *mut f64,
    out_len: usize,
) -> i32 {
    ffi_boundary!("sk_poly_features_f64", {
        // SAFETY: this function's `# Safety` contract is `poly_ffi`'s; NULL, alignment,
        // sizes and overlap are checked inside.
        unsafe {
            poly_ffi::<f64>(
                s,
                batch,
                n_freq,
                frames,
                frame_major,
                sr,
                freq,
                order,
                out,
                out_len,
            )
        }
    })
}

/// `librosa.feature.zero_crossing_rate(y, frame_length=frame_length, hop_length=hop,
/// center=center≠0, threshold=threshold, zero_pos=zero_pos≠0, pad=pad≠0)` of every row of `y`
/// (`batch` rows of `n` samples) into `out` (`batch × frames`, see `sk_feature_frames`).
///
/// Centring pads `frame_length/2` edge samples on each side (as librosa). Per frame: samples
/// with `−threshold ≤ y ≤ threshold` become +0, as librosa 0.11 (so at threshold 0 a −0.0 is
/// +0; pass `threshold · ref_magnitude` for librosa's `ref_magnitude`); the sign is `signbit`
/// (`zero_pos ≠ 0`, librosa's default) or
/// `np.sign`; the rate is the number of neighbouring pairs of different sign (plus one when
/// `pad ≠ 0`) over `frame_length`. The audio must be finite (librosa's `valid_audio`): else
/// `SK_ERR_NON_FINITE`. A NaN threshold is `SK_ERR_BAD_ARGUMENT`; centring an empty signal
/// too (no edge sample).
/// Returns `SK_OK`, `SK_ERR_BAD_ARGUMENT`, `SK_ERR_LENGTH`, `SK_ERR_NON_FINITE`,
/// `SK_ERR_BUFFER_TOO_SMALL`, `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`, `SK_ERR_OVERLAP`,
/// `SK_ERR_ALLOCATION`; on error `out` is untouched. Thread-safe.
///
/// Real-time safe: no (allocates a frame per worker; long inputs may be split over the worker threads).
///
/// # Safety
/// `y` readable for batch·n floats, `out` writable for out_len floats.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn sk_zero_crossing_rate_f32(
    y: *const f32,
    batch: usize,
    n: usize,
    frame_length: usize,
    hop: usize,
    center: i32,
    threshold: f64,
    zero_pos: i32,
    pad: i32,
    out: *mut f32,
    out_len: usize,
) -> i32 {
    ffi_boundary!("sk_zero_crossing_rate_f32", {
        // SAFETY: this function's `# Safety` contract is `zcr_ffi`'s; NULL, alignment,
        // sizes and overlap are checked inside.
        unsafe {
            zcr_ffi::<f32>(
                y,
                batch,
                n,
                frame_length,
                hop,
                center,
                threshold,
                zero_pos,
                pad,
                out,
                out_len,
            )
        }
    })
}

/// `sk_zero_crossing_rate_f32` on doubles. Same rules.
///
/// Real-time safe: no (allocates a frame per worker; long inputs may be split over the worker threads).
///
/// # Safety
/// `y` readable for batch·n doubles, `out` writable for out_len doubles.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn sk_zero_crossing_rate_f64(
    y: *const f64,
    batch: usize,
    n: usize,
    frame_length: usize,
    hop: usize,
    center: i32,
    threshold: f64,
    zero_pos: i32,
    pad: i32,
    out: *mut f64,
    out_len: usize,
) -> i32 {
    ffi_boundary!("sk_zero_crossing_rate_f64", {
        // SAFETY: this function's `# Safety` contract is `zcr_ffi`'s; NULL, alignment,
        // sizes and overlap are checked inside.
        unsafe {
            zcr_ffi::<f64>(
                y,
                batch,
                n,
                frame_length,
                hop,
                center,
                threshold,
                zero_pos,
                pad,
                out,
                out_len,
            )
        }
    })
}

/// `librosa.feature.rms(y=y, frame_length=frame_length, hop_length=hop, center=center≠0,
/// pad_mode=…)` of every row of `y` (`batch` rows of `n` samples) into `out` (`batch ×
/// frames`, see `sk_feature_frames`): `sqrt(mean(frame²))`, accumulated in double.
///
/// `pad_mode` (used when `center ≠ 0`): `SK_PAD_CONSTANT` (zeros, librosa's default),
/// `SK_PAD_REFLECT`, `SK_PAD_EDGE` (numpy's modes; an empty signal with edge padding is
/// `SK_ERR_BAD_ARGUMENT`). NaN and infinities propagate into their frames (librosa does not check).
/// librosa's `dtype=np.float32` default is a cast of this result.
/// Returns `SK_OK`, `SK_ERR_BAD_ARGUMENT`, `SK_ERR_LENGTH`, `SK_ERR_BUFFER_TOO_SMALL`,
/// `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`, `SK_ERR_OVERLAP`, `SK_ERR_ALLOCATION`; on error
/// `out` is untouched. Thread-safe.
///
/// Real-time safe: no (allocates a frame per worker; long inputs may be split over the worker threads).
///
/// # Safety
/// `y` readable for batch·n floats, `out` writable for out_len floats.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn sk_rms_frames_f32(
    y: *const f32,
    batch: usize,
    n: usize,
    frame_length: usize,
    hop: usize,
    center: i32,
    pad_mode: i32,
    out: *mut f32,
    out_len: usize,
) -> i32 {
    ffi_boundary!("sk_rms_frames_f32", {
        // SAFETY: this function's `# Safety` contract is `rms_ffi`'s; NULL, alignment,
        // sizes and overlap are checked inside.
        unsafe {
            rms_ffi::<f32>(
                y,
                batch,
                n,
                frame_length,
                hop,
                center,
                pad_mode,
                out,
                out_len,
            )
        }
    })
}

/// `sk_rms_frames_f32` on doubles. Same rules.
///
/// Real-time safe: no (allocates a frame per worker; long inputs may be split over the worker threads).
///
/// # Safety
/// `y` readable for batch·n doubles, `out` writable for out_len doubles.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn sk_rms_frames_f64(
    y: *const f64,
    batch: usize,
    n: usize,
    frame_length: usize,
    hop: usize,
    center: i32,
    pad_mode: i32,
    out: *mut f64,
    out_len: usize,
) -> i32 {
    ffi_boundary!("sk_rms_frames_f64", {
        // SAFETY: this function's `# Safety` contract is `rms_ffi`'s; NULL, alignment,
        // sizes and overlap are checked inside.
        unsafe {
            rms_ffi::<f64>(
                y,
                batch,
                n,
                frame_length,
                hop,
                center,
                pad_mode,
                out,
                out_len,
            )
        }
    })
}

/// `librosa.feature.rms(S=S, frame_length=frame_length)` of a spectrogram batch (layout at
/// the top of this section): magnitudes, or powers `|S|²` when `squared ≠ 0` (pass
/// `sk_spec_power_*` of a complex spectrogram); the DC bin and, for an even `frame_length`, the
/// Nyquist bin count half; `sqrt(2·Σ / frame_length²)` per frame into `out` (`batch × frames`).
///
/// Arguments: `n_freq = frame_length/2 + 1` (else `SK_ERR_BAD_ARGUMENT` naming both lengths
/// that fit, as librosa). NaN propagates.
/// Returns `SK_OK`, `SK_ERR_BAD_ARGUMENT`, `SK_ERR_LENGTH`, `SK_ERR_BUFFER_TOO_SMALL`,
/// `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`, `SK_ERR_OVERLAP`, `SK_ERR_ALLOCATION`; on error
/// `out` is untouched. Thread-safe.
///
/// Real-time safe: no (allocates a frame per worker; long inputs may be split over the worker threads).
///
/// # Safety
/// `S` readable for batch·n_freq·frames floats, `out` writable for out_len floats.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn sk_rms_spec_f32(
    s: *const f32,
    batch: usize,
    n_freq: usize,
    frames: usize,
    frame_major: i32,
    squared: i32,
    frame_length: usize,
    out: *mut f32,
    out_len: usize,
) -> i32 {
    ffi_boundary!("sk_rms_spec_f32", {
        // SAFETY: this function's `# Safety` contract is `rms_spec_ffi`'s; NULL, alignment,
        // sizes and overlap are checked inside.
        unsafe {
            rms_spec_ffi::<f32>(
                s,
                batch,
                n_freq,
                frames,
                frame_major,
                squared,
                frame_length,
                out,
                out_len,
            )
        }
    })
}

/// `sk_rms_spec_f32` on doubles. Same rules.
///
/// Real-time safe: no (allocates a frame per worker; long inputs may be split over the worker threads).
///
/// # Safety
/// `S` readable for batch·n_freq·frames doubles, `out` writable for out_len doubles.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn sk_rms_spec_f64(
    s: *const f64,
    batch: usize,
    n_freq: usize,
    frames: usize,
    frame_major: i32,
    squared: i32,
    frame_length: usize,
    out: *mut f64,
    out_len: usize,
) -> i32 {
    ffi_boundary!("sk_rms_spec_f64", {
        // SAFETY: this function's `# Safety` contract is `rms_spec_ffi`'s; NULL, alignment,
        // sizes and overlap are checked inside.
        unsafe {
            rms_spec_ffi::<f64>(
                s,
                batch,
                n_freq,
                frames,
                frame_major,
                squared,
                frame_length,
                out,
                out_len,
            )
        }
    })
}
