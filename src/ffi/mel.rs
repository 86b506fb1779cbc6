//! Mel filterbanks, mel / log-mel spectrograms (`SkMelPlan`), magnitude/power spectra and dB,
//! equal to librosa.

use super::guard::{
    alias, check_capacity, check_out_scalar, ffi_boundary, size_result, Alias, Buf,
};
use super::handle::{self, handle_kind, Either, Kind};
use super::spec::SpecFloat;
use super::stft::params;
use super::window::parse_window;
use crate::error::{SkError, SkResult};
use crate::kernels::alloc::{try_collect, try_vec};
use crate::kernels::spectral::logtail::{self, LnFast, LogTail};
use crate::kernels::spectral::mel::{check_db, power_to_db, MelNorm, MelParams, MelPlan};
use crate::kernels::Float;

/// Mel filter normalisation: none (librosa `norm=None`), triangles peak at 1.
pub const SK_MEL_NORM_NONE: i32 = 0;
/// Mel filter normalisation: Slaney (librosa `norm="slaney"`, its default), constant energy.
pub const SK_MEL_NORM_SLANEY: i32 = 1;

/// A mel-spectrogram plan (opaque; `sk_mel_plan_f32_new`/`sk_mel_plan_f64_new`, freed with
/// `sk_mel_plan_free`).
pub struct SkMelPlan {
    _opaque: [u8; 0],
}

handle_kind!(
    /// A `float` mel plan behind an `SkMelPlan` (immutable: any number of calls at once).
    pub(crate) MelF32: MelPlan<f32> as SkMelPlan, "a float mel plan", shared, defer
);
handle_kind!(
    /// A `double` mel plan behind an `SkMelPlan`.
    pub(crate) MelF64: MelPlan<f64> as SkMelPlan, "a double mel plan", shared, defer
);

/// What the either-precision calls of a mel plan accept.
const ANY_MEL: &str = "a mel plan";

/// Element types with their mel plan kinds.
trait MelElem: SpecFloat {
    type Plan: Kind<Object = MelPlan<Self>, C = SkMelPlan>;
}

impl MelElem for f32 {
    type Plan = MelF32;
}

impl MelElem for f64 {
    type Plan = MelF64;
}

fn mel_params(
    sr: f64,
    n_fft: usize,
    n_mels: usize,
    fmin: f64,
    fmax: f64,
    htk: i32,
    norm: i32,
) -> SkResult<MelParams> {
    let norm = match norm {
        SK_MEL_NORM_NONE => MelNorm::None,
        SK_MEL_NORM_SLANEY => MelNorm::Slaney,
        _ => {
            return Err(SkError::BadArgument(format!(
                "norm = {norm} is not SK_MEL_NORM_NONE (0) or SK_MEL_NORM_SLANEY (1)"
            )))
        }
    };
    let p = MelParams {
        sr,
        n_fft,
        n_mels,
        fmin,
        fmax,
        htk: htk != 0,
        norm,
    };
    p.check()?;
    Ok(p)
}

/// Writes the filterbank of `p` to `w`.
///
/// # Safety
/// `w` writable for `w_len` elements for the duration of the call (NULL, alignment and size
/// are checked here).
unsafe fn filterbank_ffi<T: Float>(p: MelParams, w: *mut T, w_len: usize) -> SkResult<()> {
    check_capacity("w", w, w_len)?;
    let wb = Buf::out("w", w, w_len);
    let need = p
        .n_mels
        .checked_mul(p.n_freq())
        .ok_or_else(|| SkError::Length("n_mels × n_freq overflows".into()))?;
    if w_len < need {
        return Err(SkError::BufferTooSmall(format!(
            "w holds {w_len} values but n_mels {} × (n_fft/2+1) {} = {need} are needed",
            p.n_mels,
            p.n_freq()
        )));
    }
    let fb = p.filterbank()?;
    // SAFETY: `check_capacity("w", w, w_len)` at the top ran `Buf::check` on exactly this
    // buffer (`w`, `w_len`); writable is the caller's `# Safety` obligation; the filterbank `fb`
    // is our own allocation, so this is the only view of `w`.
    for (o, v) in unsafe { wb.slice_mut() }.iter_mut().zip(&fb) {
        *o = T::from_f64(*v);
    }
    Ok(())
}

/// Writes the mel filterbank `librosa.filters.mel(sr=sr, n_fft=n_fft, n_mels=n_mels, fmin=fmin,
/// fmax=fmax, htk=htk≠0, norm=…)` as an `(n_mels, n_fft/2+1)` row-major matrix into `w`.
///
/// Arguments: `sr > 0` finite; `n_fft ≥ 1`, `n_mels ≥ 1`, `n_fft` and `n_mels·(n_fft/2+1)` at
/// most 2^28 (else `SK_ERR_LENGTH`); `0 ≤ fmin < fmax`, finite, with
/// `fmax = 0` meaning `sr/2` (librosa's `fmax=None`); `norm` `SK_MEL_NORM_SLANEY` or
/// `SK_MEL_NORM_NONE`; `w_len` is w's capacity (≥ n_mels·(n_fft/2+1) else
/// `SK_ERR_BUFFER_TOO_SMALL`, message says the size).
/// Returns `SK_OK`, `SK_ERR_BAD_ARGUMENT`, `SK_ERR_LENGTH`, `SK_ERR_BUFFER_TOO_SMALL`,
/// `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`, `SK_ERR_ALLOCATION`; on error `w` is untouched.
/// Thread-safe.
///
/// Real-time safe: no (allocates the filterbank before copying it out).
///
/// # Safety
/// `w` writable for w_len doubles.
#[no_mangle]
pub unsafe extern "C" fn sk_mel_filterbank_f64(
    sr: f64,
    n_fft: usize,
    n_mels: usize,
    fmin: f64,
    fmax: f64,
    htk: i32,
    norm: i32,
    w: *mut f64,
    w_len: usize,
) -> i32 {
    ffi_boundary!("sk_mel_filterbank_f64", {
        let p = mel_params(sr, n_fft, n_mels, fmin, fmax, htk, norm)?;
        // SAFETY: `filterbank_ffi` needs `w` writable for `w_len` elements, this function's `#
        // Safety` contract; it checks the buffer itself (`check_capacity`).
        unsafe { filterbank_ffi(p, w, w_len) }
    })
}

/// The filterbank of `sk_mel_filterbank_f64` rounded to float. Same rules.
///
/// Real-time safe: no (allocates the filterbank before copying it out).
///
/// # Safety
/// `w` writable for w_len floats.
#[no_mangle]
pub unsafe extern "C" fn sk_mel_filterbank_f32(
    sr: f64,
    n_fft: usize,
    n_mels: usize,
    fmin: f64,
    fmax: f64,
    htk: i32,
    norm: i32,
    w: *mut f32,
    w_len: usize,
) -> i32 {
    ffi_boundary!("sk_mel_filterbank_f32", {
        let p = mel_params(sr, n_fft, n_mels, fmin, fmax, htk, norm)?;
        // SAFETY: `filterbank_ffi` needs `w` writable for `w_len` elements, this function's `#
        // Safety` contract; it checks the buffer itself (`check_capacity`).
        unsafe { filterbank_ffi(p, w, w_len) }
    })
}

/// Creates a mel plan and stores its handle in `*plan`.
///
/// # Safety
/// `plan` NULL, misaligned (both rejected here by `check_out_scalar`) or writable for one
/// pointer.
#[allow(clippy::too_many_arguments)]
unsafe fn mel_new<T: MelElem>(
    sr: f64,
    n_fft: usize,
    hop: usize,
    win_length: usize,
    window_kind: i32,
    window_param: f64,
    center: i32,
    pad_mode: i32,
    power: f64,
    n_mels: usize,
    fmin: f64,
    fmax: f64,
    htk: i32,
    norm: i32,
    plan: *mut *mut SkMelPlan,
) -> SkResult<()> {
    check_out_scalar("plan", plan)?;
    let sp = params(n_fft, hop, win_length, center, pad_mode, 1, 0)?;
    let mp = mel_params(sr, n_fft, n_mels, fmin, fmax, htk, norm)?;
    let win = parse_window(window_kind, window_param)?;
    let mut w = try_vec(win_length, 0.0f64, "the window")?;
    win.fill(true, &mut w)?;
    let w = try_collect(w.iter().map(|&v| <T as Float>::from_f64(v)), "the window")?;
    let m = MelPlan::new(sp, mp, power, &w)?;
    // SAFETY: checked.
    unsafe { handle::publish::<T::Plan>(m, plan) }
}

/// Creates a mel-spectrogram plan for `librosa.feature.melspectrogram(y, sr=sr, n_fft=n_fft,
/// hop_length=hop, win_length=win_length, window=<kind>, center=center≠0, pad_mode=…,
/// power=power, n_mels=n_mels, fmin=fmin, fmax=fmax, htk=htk≠0, norm=…)` on floats.
///
/// The window is `scipy.signal.get_window(kind, win_length, fftbins=True)` (periodic, as
/// librosa), `window_kind` an `SK_WINDOW_*` constant with `window_param` its beta/alpha.
/// `pad_mode`: `SK_PAD_CONSTANT` is librosa 0.11's default, `SK_PAD_REFLECT` its "reflect".
/// `power > 0` finite (1 magnitude, 2 power). STFT parameter rules as `sk_stft_frames`, mel
/// rules as `sk_mel_filterbank_f64`.
/// Returns `SK_OK`, `SK_ERR_BAD_ARGUMENT`, `SK_ERR_LENGTH`, `SK_ERR_NULL_POINTER`,
/// `SK_ERR_MISALIGNED` (plan), `SK_ERR_ALLOCATION`; on error `*plan` is untouched. The plan is
/// immutable and may be
/// used from several threads at once. Free with `sk_mel_plan_free`.
///
/// Real-time safe: no (allocates).
///
/// # Safety
/// `plan` writable.
#[no_mangle]
pub unsafe extern "C" fn sk_mel_plan_f32_new(
    sr: f64,
    n_fft: usize,
    hop: usize,
    win_length: usize,
    window_kind: i32,
    window_param: f64,
    center: i32,
    pad_mode: i32,
    power: f64,
    n_mels: usize,
    fmin: f64,
    fmax: f64,
    htk: i32,
    norm: i32,
    plan: *mut *mut SkMelPlan,
) -> i32 {
    ffi_boundary!("sk_mel_plan_f32_new", {
        // SAFETY: `mel_new` needs `plan` writable when non-NULL and aligned, this function's `#
        // Safety` contract; it checks NULL and alignment itself (`check_out_scalar`).
        unsafe {
            mel_new::<f32>(
                sr,
                n_fft,
                hop,
                win_length,
                window_kind,
                window_param,
                center,
                pad_mode,
                power,
                n_mels,
                fmin,
                fmax,
                htk,
                norm,
                plan,
            )
        }
    })
}

/// Creates a mel-spectrogram plan on doubles. Rules as `sk_mel_plan_f32_new`.
///
/// Real-time safe: no (allocates).
///
/// # Safety
/// `plan` writable.
#[no_mangle]
pub unsafe extern "C" fn sk_mel_plan_f64_new(
    sr: f64,
    n_fft: usize,
    hop: usize,
    win_length: usize,
    window_kind: i32,
    window_param: f64,
    center: i32,
    pad_mode: i32,
    power: f64,
    n_mels: usize,
    fmin: f64,
    fmax: f64,
    htk: i32,
    norm: i32,
    plan: *mut *mut SkMelPlan,
) -> i32 {
    ffi_boundary!("sk_mel_plan_f64_new", {
        // SAFETY: `mel_new` needs `plan` writable when non-NULL and aligned, this function's `#
        // Safety` contract; it checks NULL and alignment itself (`check_out_scalar`).
        unsafe {
            mel_new::<f64>(
                sr,
                n_fft,
                hop,
                win_length,
                window_kind,
                window_param,
                center,
                pad_mode,
                power,
                n_mels,
                fmin,
                fmax,
                htk,
                norm,
                plan,
            )
        }
    })
}

/// Frees a mel plan (float or double). NULL is a no-op; freed/foreign handles are
/// `SK_ERR_INVALID_HANDLE` (detected, nothing freed). Thread-safe.
///
/// Real-time safe: no (allocates).
///
/// # Safety
/// None beyond passing any pointer value.
#[no_mangle]
pub unsafe extern "C" fn sk_mel_plan_free(plan: *mut SkMelPlan) -> i32 {
    ffi_boundary!("sk_mel_plan_free", {
        handle::free_either::<MelF32, MelF64>("plan", plan, ANY_MEL)
    })
}

/// Frames of an n-sample signal for this plan (`*frames`); the mel output holds
/// `n_mels × frames` values. Errors as `sk_stft_frames` plus `SK_ERR_INVALID_HANDLE`; a count
/// whose frames of `n_mels` floats are more than a buffer can hold (`PTRDIFF_MAX` bytes) is
/// `SK_ERR_LENGTH`.
///
/// Real-time safe: yes.
///
/// # Safety
/// `frames` writable.
#[no_mangle]
pub unsafe extern "C" fn sk_mel_frames(
    plan: *const SkMelPlan,
    frames: *mut usize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_mel_frames", {
        check_out_scalar("frames", frames)?;
        let (f, n_mels) =
            handle::with_either_shared::<MelF32, MelF64, _>("plan", plan, ANY_MEL, |m| match m {
                Either::A(m) => Ok((m.frames(n)?, m.mel.n_mels)),
                Either::B(m) => Ok((m.frames(n)?, m.mel.n_mels)),
            })?;
        let f = size_result(
            format_args!("the frame count for n = {n} samples"),
            Some(f),
            n_mels.saturating_mul(4),
            format_args!("frames of {n_mels} floats"),
        )?;
        // SAFETY: `check_out_scalar("frames", ..)` above established non-NULL and aligned;
        // writable is this function's `# Safety` contract.
        unsafe { *frames = f };
        Ok(())
    })
}

unsafe fn melspec_ffi<T: MelElem>(
    plan: *const SkMelPlan,
    x: *const T,
    db: Option<(f64, f64, f64)>,
    y: *mut T,
    y_len: usize,
    n: usize,
) -> SkResult<()> {
    let m = handle::shared::<T::Plan>("plan", plan)?;
    if let Some((r, a, t)) = db {
        check_db(r, a, t)?;
    }
    let xb = Buf::new("x", x, n);
    xb.check()?;
    check_capacity("y", y, y_len)?;
    let frames = m.frames(n)?;
    let need = frames
        .checked_mul(m.mel.n_mels)
        .ok_or_else(|| SkError::Length("n_mels × frames overflows".into()))?;
    if y_len < need {
        return Err(SkError::BufferTooSmall(format!(
            "y holds {y_len} values but n_mels {} × frames {frames} = {need} are needed",
            m.mel.n_mels
        )));
    }
    let yb = Buf::out("y", y, need);
    alias(&xb, &yb, false)?;
    // SAFETY: `check_capacity("y", y, y_len)` checked the whole `y` buffer and `need <= y_len`,
    // so its first `need` elements are valid too; writable is the caller's `# Safety`
    // obligation; `alias` above proved it disjoint from `x`; the slice dies with this call.
    let ys = unsafe { yb.slice_mut() };
    // SAFETY: `xb.check()` passed for `n` elements, readable per the caller's `# Safety`
    // obligation, disjoint from `y` (`alias` above); only read.
    m.melspec_db(unsafe { xb.slice() }, ys, db)
}

/// Mel spectrogram of `x` (n samples) into `y`, equal to `librosa.feature.melspectrogram` with
/// the plan's parameters: `y` is `(n_mels, frames)` row-major (librosa's array), `y_len` its
/// capacity (≥ n_mels × frames, see `sk_mel_frames`, else `SK_ERR_BUFFER_TOO_SMALL` stating
/// the size).
///
/// Returns `SK_OK`, `SK_ERR_INVALID_HANDLE` (NULL/freed/not a float mel plan),
/// `SK_ERR_BAD_ARGUMENT` (signal too short, as `sk_stft_frames`), `SK_ERR_BUFFER_TOO_SMALL`,
/// `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`, `SK_ERR_LENGTH`, `SK_ERR_OVERLAP`,
/// `SK_ERR_ALLOCATION` (out of memory for the frame-major temporary or the FFT scratch); on
/// error `y` is untouched. Thread-safe.
///
/// Real-time safe: no (allocates a frame-major temporary and FFT scratch; long signals are split over the worker threads).
///
/// # Safety
/// `x` readable for n floats, `y` writable for y_len.
#[no_mangle]
pub unsafe extern "C" fn sk_melspec_f32(
    plan: *const SkMelPlan,
    x: *const f32,
    y: *mut f32,
    y_len: usize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_melspec_f32", {
        // SAFETY: this function's `# Safety` contract (`x` for n, `y` for y_len) is
        // `melspec_ffi`'s; NULL, alignment, sizes and overlap are checked inside; `plan` is a
        // registry key.
        unsafe { melspec_ffi(plan, x, None, y, y_len, n) }
    })
}

/// Mel spectrogram of doubles. Rules as `sk_melspec_f32`.
///
/// Real-time safe: no (allocates a frame-major temporary and FFT scratch; long signals are split over the worker threads).
///
/// # Safety
/// `x` readable for n doubles, `y` writable for y_len.
#[no_mangle]
pub unsafe extern "C" fn sk_melspec_f64(
    plan: *const SkMelPlan,
    x: *const f64,
    y: *mut f64,
    y_len: usize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_melspec_f64", {
        // SAFETY: this function's `# Safety` contract (`x` for n, `y` for y_len) is
        // `melspec_ffi`'s; NULL, alignment, sizes and overlap are checked inside; `plan` is a
        // registry key.
        unsafe { melspec_ffi(plan, x, None, y, y_len, n) }
    })
}

/// Log-mel spectrogram: `librosa.power_to_db(librosa.feature.melspectrogram(...), ref=ref,
/// amin=amin, top_db=top_db)`, i.e. `10·log10(max(amin, S)) − 10·log10(max(amin, |ref|))`
/// floored at (its maximum − top_db). `amin > 0` finite, `ref` finite, `top_db ≥ 0` (`INFINITY`
/// for librosa's `top_db=None`), else `SK_ERR_BAD_ARGUMENT`. Other rules as `sk_melspec_f32`.
///
/// Real-time safe: no (allocates a frame-major temporary and FFT scratch; long signals are split over the worker threads).
///
/// # Safety
/// `x` readable for n floats, `y` writable for y_len.
#[no_mangle]
pub unsafe extern "C" fn sk_logmel_f32(
    plan: *const SkMelPlan,
    x: *const f32,
    reference: f64,
    amin: f64,
    top_db: f64,
    y: *mut f32,
    y_len: usize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_logmel_f32", {
        // SAFETY: this function's `# Safety` contract (`x` for n, `y` for y_len) is
        // `melspec_ffi`'s; NULL, alignment, sizes and overlap are checked inside; `plan` is a
        // registry key.
        unsafe { melspec_ffi(plan, x, Some((reference, amin, top_db)), y, y_len, n) }
    })
}

/// Log-mel spectrogram of doubles. Rules as `sk_logmel_f32`.
///
/// Real-time safe: no (allocates a frame-major temporary and FFT scratch; long signals are split over the worker threads).
///
/// # Safety
/// `x` readable for n doubles, `y` writable for y_len.
#[no_mangle]
pub unsafe extern "C" fn sk_logmel_f64(
    plan: *const SkMelPlan,
    x: *const f64,
    reference: f64,
    amin: f64,
    top_db: f64,
    y: *mut f64,
    y_len: usize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_logmel_f64", {
        // SAFETY: this function's `# Safety` contract (`x` for n, `y` for y_len) is
        // `melspec_ffi`'s; NULL, alignment, sizes and overlap are checked inside; `plan` is a
        // registry key.
        unsafe { melspec_ffi(plan, x, Some((reference, amin, top_db)), y, y_len, n) }
    })
}

/// `power_to_db` through the C arguments.
///
/// # Safety
/// `x` readable and `y` writable for `n` elements for the duration of the call; NULL,
/// alignment and overlap are checked here.
unsafe fn db_ffi<T: crate::kernels::spectral::logtail::LnFast>(
    x: *const T,
    r: f64,
    a: f64,
    t: f64,
    y: *mut T,
    n: usize,
) -> SkResult<()> {
    check_db(r, a, t)?;
    let xb = Buf::new("x", x, n);
    let yb = Buf::out("y", y, n);
    xb.check()?;
    yb.check()?;
    let al = alias(&xb, &yb, true)?;
    // SAFETY: `yb.check()` passed for `n` elements, writable per the caller's `# Safety`
    // obligation; `alias(.., true)` proved `x` disjoint or exactly `y`, and in the latter case
    // no slice of `x` is made, so this is the only view of `y`.
    let ys = unsafe { yb.slice_mut() };
    if al == Alias::Distinct {
        // SAFETY: `xb.check()` passed, readable per the caller; `Alias::Distinct` means it
        // shares no byte with `ys`; only read.
        ys.copy_from_slice(unsafe { xb.slice() });
    }
    power_to_db(ys, r, a, t)
}

/// `y = librosa.power_to_db(x, ref=ref, amin=amin, top_db=top_db)` over n values (the top_db
/// floor uses the maximum of all n). `y == x` exactly is in place. Parameter rules as
/// `sk_logmel_f32`. For amplitudes use `ref²`, `amin²` on `|x|²` (librosa's amplitude_to_db).
/// Returns `SK_OK`, `SK_ERR_BAD_ARGUMENT`, `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`,
/// `SK_ERR_LENGTH`, `SK_ERR_OVERLAP`; on error `y` is untouched. Thread-safe.
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable, `y` writable for n doubles.
#[no_mangle]
pub unsafe extern "C" fn sk_power_to_db_f64(
    x: *const f64,
    reference: f64,
    amin: f64,
    top_db: f64,
    y: *mut f64,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_power_to_db_f64", {
        // SAFETY: this function's `# Safety` contract (`x`, `y` for n) is `db_ffi`'s; NULL,
        // alignment and overlap are checked inside.
        unsafe { db_ffi(x, reference, amin, top_db, y, n) }
    })
}

/// `power_to_db` on floats, in float arithmetic: the dB values are within 4e-7 relative +
/// 1e-5 dB absolute of the double computation (the logarithm is within about 2 ulp). Rules as
/// `sk_power_to_db_f64`.
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable, `y` writable for n floats.
#[no_mangle]
pub unsafe extern "C" fn sk_power_to_db_f32(
    x: *const f32,
    reference: f64,
    amin: f64,
    top_db: f64,
    y: *mut f32,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_power_to_db_f32", {
        // SAFETY: this function's `# Safety` contract (`x`, `y` for n) is `db_ffi`'s; NULL,
        // alignment and overlap are checked inside.
        unsafe { db_ffi(x, reference, amin, top_db, y, n) }
    })
}

/// Shared by the batched mel entry points: `rows` signals of n samples at `x_stride`, the
/// first `frames` frames of each (0: all), through `tail` (floored per row or over the batch).
///
/// # Safety
/// `x` readable for `(rows − 1)·x_stride + n` elements and `y` writable for `y_len` for the
/// duration of the call; NULL, alignment, sizes and overlap are checked here. `plan` is only a
/// registry key.
#[allow(clippy::too_many_arguments)]
unsafe fn mel_batch_ffi<T: MelElem>(
    plan: *const SkMelPlan,
    x: *const T,
    x_stride: isize,
    rows: usize,
    frames: usize,
    tail: Option<LogTail>,
    per_row: bool,
    y: *mut T,
    y_len: usize,
    n: usize,
) -> SkResult<()> {
    let m = handle::shared::<T::Plan>("plan", plan)?;
    let natural = m.frames(n)?;
    let frames = if frames == 0 { natural } else { frames };
    if frames > natural {
        return Err(SkError::BadArgument(format!(
            "frames = {frames} but a signal of n = {n} samples has {natural} frames with this plan"
        )));
    }
    let xl = super::fft::extent("x", rows, n, x_stride, false, 0)?;
    let xb = Buf::new("x", x, xl);
    xb.check()?;
    let per = frames
        .checked_mul(m.mel.n_mels)
        .ok_or_else(|| SkError::Length("n_mels × frames overflows".into()))?;
    let need = per
        .checked_mul(rows)
        .ok_or_else(|| SkError::Length("rows × n_mels × frames overflows".into()))?;
    check_capacity("y", y, y_len)?;
    if y_len < need {
        return Err(SkError::BufferTooSmall(format!(
            "y holds {y_len} values but rows {rows} × n_mels {} × frames {frames} = {need} are needed",
            m.mel.n_mels
        )));
    }
    let yb = Buf::out("y", y, need);
    yb.check()?;
    alias(&xb, &yb, false)?;
    if rows == 0 || per == 0 {
        return Ok(());
    }
    // SAFETY: `xb.check()` passed for the span `fft::extent` computed, `yb.check()` for `need`
    // (≤ `y_len`); readable / writable per the caller's `# Safety` obligation; `alias` proved
    // them disjoint; the slices die with this call.
    let (xs, ys) = unsafe { (xb.slice(), yb.slice_mut()) };
    m.melspec_batch(
        xs,
        x_stride as usize,
        rows,
        n,
        frames,
        tail.as_ref(),
        per_row,
        ys,
    )
}

/// Batched mel spectrogram: `rows` signals of n samples, row `r` at `x + r·x_stride` (floats;
/// `x_stride ≥ 0`, 0 repeats one row), each as `sk_melspec_f32`, keeping the first `frames`
/// frames of each (`frames = 0`: all `sk_mel_frames` of them; fewer drops trailing frames, e.g.
/// the last centred frame Whisper-style recipes drop; more is `SK_ERR_BAD_ARGUMENT`). `y` is
/// `(rows, n_mels, frames)` row-major; `y_len` its capacity (≥ rows × n_mels × frames, else
/// `SK_ERR_BUFFER_TOO_SMALL` with the size; `y` must be valid for all `y_len` values, so a
/// capacity beyond the address space is `SK_ERR_LENGTH` as for `sk_melspec_f32`). `rows = 0`
/// writes nothing.
/// Returns `SK_OK`, `SK_ERR_INVALID_HANDLE` (NULL/freed/not a float mel plan),
/// `SK_ERR_BAD_ARGUMENT` (signal too short, `frames` too large, negative `x_stride`),
/// `SK_ERR_BUFFER_TOO_SMALL`, `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`, `SK_ERR_LENGTH`,
/// `SK_ERR_OVERLAP`, `SK_ERR_ALLOCATION`; on error `y` is untouched. Thread-safe (long signals
/// are split across up to `SIGKERN_THREADS` threads).
///
/// Real-time safe: no (allocates its working memory; batches are split over the worker threads).
///
/// # Safety
/// `x` readable for `(rows−1)·x_stride + n` floats, `y` writable for y_len.
#[no_mangle]
pub unsafe extern "C" fn sk_melspec_batch_f32(
    plan: *const SkMelPlan,
    x: *const f32,
    x_stride: isize,
    rows: usize,
    frames: usize,
    y: *mut f32,
    y_len: usize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_melspec_batch_f32", {
        // SAFETY: this function's `# Safety` contract (`x` over its row span, `y` for y_len) is
        // `mel_batch_ffi`'s; NULL, alignment, sizes and overlap are checked inside; `plan` is a
        // registry key.
        unsafe { mel_batch_ffi(plan, x, x_stride, rows, frames, None, true, y, y_len, n) }
    })
}

/// Batched mel spectrogram of doubles. Rules as `sk_melspec_batch_f32`.
///
/// Real-time safe: no (allocates its working memory; batches are split over the worker threads).
///
/// # Safety
/// `x` readable for `(rows−1)·x_stride + n` doubles, `y` writable for y_len.
#[no_mangle]
pub unsafe extern "C" fn sk_melspec_batch_f64(
    plan: *const SkMelPlan,
    x: *const f64,
    x_stride: isize,
    rows: usize,
    frames: usize,
    y: *mut f64,
    y_len: usize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_melspec_batch_f64", {
        // SAFETY: this function's `# Safety` contract (`x` over its row span, `y` for y_len) is
        // `mel_batch_ffi`'s; NULL, alignment, sizes and overlap are checked inside; `plan` is a
        // registry key.
        unsafe { mel_batch_ffi(plan, x, x_stride, rows, frames, None, true, y, y_len, n) }
    })
}

/// Batched log-mel spectrogram in dB: `sk_melspec_batch_f32` followed by
/// `librosa.power_to_db(S, ref=ref, amin=amin, top_db=top_db)`, with the `top_db` floor taken
/// from each row's own maximum (`per_row ≠ 0`) or from the maximum of the whole batch
/// (`per_row = 0`); dropped frames never count toward the maximum. Parameter rules as
/// `sk_logmel_f32`; the dB values are computed in the data's precision (see
/// `sk_power_to_db_f32`). Other rules and status codes as `sk_melspec_batch_f32`.
///
/// Real-time safe: no (allocates its working memory; batches are split over the worker threads).
///
/// # Safety
/// `x` readable for `(rows−1)·x_stride + n` floats, `y` writable for y_len.
#[no_mangle]
pub unsafe extern "C" fn sk_logmel_batch_f32(
    plan: *const SkMelPlan,
    x: *const f32,
    x_stride: isize,
    rows: usize,
    frames: usize,
    reference: f64,
    amin: f64,
    top_db: f64,
    per_row: i32,
    y: *mut f32,
    y_len: usize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_logmel_batch_f32", {
        let t = LogTail::db(reference, amin, top_db)?;
        // SAFETY: this function's `# Safety` contract (`x` over its row span, `y` for y_len) is
        // `mel_batch_ffi`'s; NULL, alignment, sizes and overlap are checked inside; `plan` is a
        // registry key.
        unsafe {
            mel_batch_ffi(
                plan,
                x,
                x_stride,
                rows,
                frames,
                Some(t),
                per_row != 0,
                y,
                y_len,
                n,
            )
        }
    })
}

/// Batched log-mel spectrogram in dB of doubles. Rules as `sk_logmel_batch_f32`.
///
/// Real-time safe: no (allocates its working memory; batches are split over the worker threads).
///
/// # Safety
/// `x` readable for `(rows−1)·x_stride + n` doubles, `y` writable for y_len.
#[no_mangle]
pub unsafe extern "C" fn sk_logmel_batch_f64(
    plan: *const SkMelPlan,
    x: *const f64,
    x_stride: isize,
    rows: usize,
    frames: usize,
    reference: f64,
    amin: f64,
    top_db: f64,
    per_row: i32,
    y: *mut f64,
    y_len: usize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_logmel_batch_f64", {
        let t = LogTail::db(reference, amin, top_db)?;
        // SAFETY: this function's `# Safety` contract (`x` over its row span, `y` for y_len) is
        // `mel_batch_ffi`'s; NULL, alignment, sizes and overlap are checked inside; `plan` is a
        // registry key.
        unsafe {
            mel_batch_ffi(
                plan,
                x,
                x_stride,
                rows,
                frames,
                Some(t),
                per_row != 0,
                y,
                y_len,
                n,
            )
        }
    })
}

/// Batched log10-mel spectrogram, the form speech models use (OpenAI Whisper:
/// `amin = 1e-10, scale = 0.25, offset = 1, top = 8`, frames = one less than `sk_mel_frames`):
/// `sk_melspec_batch_f32`, then `l = log10(max(S, amin))`, floored at `max(l) − top` (the
/// maximum of each row with `per_row ≠ 0`, of the whole batch with `per_row = 0`; dropped frames
/// never count), then `scale·l + offset`. `amin > 0` finite, `scale > 0` finite, `offset`
/// finite, `top ≥ 0` (`INFINITY`: no floor), else `SK_ERR_BAD_ARGUMENT`. Computed in the data's
/// precision (`log10` within about 2 ulp). Other rules and status codes as
/// `sk_melspec_batch_f32`.
///
/// Real-time safe: no (allocates its working memory; batches are split over the worker threads).
///
/// # Safety
/// `x` readable for `(rows−1)·x_stride + n` floats, `y` writable for y_len.
#[no_mangle]
pub unsafe extern "C" fn sk_log10mel_batch_f32(
    plan: *const SkMelPlan,
    x: *const f32,
    x_stride: isize,
    rows: usize,
    frames: usize,
    amin: f64,
    scale: f64,
    offset: f64,
    top: f64,
    per_row: i32,
    y: *mut f32,
    y_len: usize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_log10mel_batch_f32", {
        let t = LogTail::log10(amin, scale, offset, top)?;
        // SAFETY: this function's `# Safety` contract (`x` over its row span, `y` for y_len) is
        // `mel_batch_ffi`'s; NULL, alignment, sizes and overlap are checked inside; `plan` is a
        // registry key.
        unsafe {
            mel_batch_ffi(
                plan,
                x,
                x_stride,
                rows,
                frames,
                Some(t),
                per_row != 0,
                y,
                y_len,
                n,
            )
        }
    })
}

/// Batched log10-mel spectrogram of doubles. Rules as `sk_log10mel_batch_f32`.
///
/// Real-time safe: no (allocates its working memory; batches are split over the worker threads).
///
/// # Safety
/// `x` readable for `(rows−1)·x_stride + n` doubles, `y` writable for y_len.
#[no_mangle]
pub unsafe extern "C" fn sk_log10mel_batch_f64(
    plan: *const SkMelPlan,
    x: *const f64,
    x_stride: isize,
    rows: usize,
    frames: usize,
    amin: f64,
    scale: f64,
    offset: f64,
    top: f64,
    per_row: i32,
    y: *mut f64,
    y_len: usize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_log10mel_batch_f64", {
        let t = LogTail::log10(amin, scale, offset, top)?;
        // SAFETY: this function's `# Safety` contract (`x` over its row span, `y` for y_len) is
        // `mel_batch_ffi`'s; NULL, alignment, sizes and overlap are checked inside; `plan` is a
        // registry key.
        unsafe {
            mel_batch_ffi(
                plan,
                x,
                x_stride,
                rows,
                frames,
                Some(t),
                per_row != 0,
                y,
                y_len,
                n,
            )
        }
    })
}

/// `log10` with a floor through the C arguments.
///
/// # Safety
/// `x` readable and `y` writable for `n` elements for the duration of the call; NULL,
/// alignment and overlap are checked here.
unsafe fn log10_ffi<T: LnFast>(x: *const T, t: LogTail, y: *mut T, n: usize) -> SkResult<()> {
    let xb = Buf::new("x", x, n);
    let yb = Buf::out("y", y, n);
    xb.check()?;
    yb.check()?;
    let al = alias(&xb, &yb, true)?;
    // SAFETY: `yb.check()` passed for `n` elements, writable per the caller's `# Safety`
    // obligation; `alias(.., true)` proved `x` disjoint or exactly `y`, and in the latter case
    // no slice of `x` is made, so this is the only view of `y`.
    let ys = unsafe { yb.slice_mut() };
    if al == Alias::Distinct {
        // SAFETY: `xb.check()` passed, readable per the caller; `Alias::Distinct` means it
        // shares no byte with `ys`; only read.
        ys.copy_from_slice(unsafe { xb.slice() });
    }
    logtail::apply(ys, &t);
    Ok(())
}

/// `y = scale·max(l, max(l) − top) + offset` with `l = log10(max(x, amin))` over n values: the
/// log tail of Whisper-style features in one call (`amin = 1e-10, scale = 0.25, offset = 1,
/// top = 8` gives `(max(l, l.max() − 8) + 4) / 4`). NaN anywhere makes the result all NaN when
/// `top` is finite (numpy's `np.maximum`); `+inf` stays `+inf`. `amin > 0` finite, `scale > 0`
/// finite, `offset` finite, `top ≥ 0` (`INFINITY`: no floor), else `SK_ERR_BAD_ARGUMENT`.
/// `y == x` exactly is in place. Computed in double (`log10` within a few ulp).
/// Returns `SK_OK`, `SK_ERR_BAD_ARGUMENT`, `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`,
/// `SK_ERR_LENGTH`, `SK_ERR_OVERLAP`; on error `y` is untouched. Thread-safe.
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable, `y` writable for n doubles.
#[no_mangle]
pub unsafe extern "C" fn sk_log10_floor_f64(
    x: *const f64,
    amin: f64,
    scale: f64,
    offset: f64,
    top: f64,
    y: *mut f64,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_log10_floor_f64", {
        let t = LogTail::log10(amin, scale, offset, top)?;
        // SAFETY: this function's `# Safety` contract (`x`, `y` for n) is `log10_ffi`'s; NULL,
        // alignment and overlap are checked inside.
        unsafe { log10_ffi(x, t, y, n) }
    })
}

/// `sk_log10_floor_f64` on floats, in float arithmetic (`log10` within about 2 ulp; the
/// result within 4e-7 relative + 1e-5 absolute of the double computation). Rules as
/// `sk_log10_floor_f64`.
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable, `y` writable for n floats.
#[no_mangle]
pub unsafe extern "C" fn sk_log10_floor_f32(
    x: *const f32,
    amin: f64,
    scale: f64,
    offset: f64,
    top: f64,
    y: *mut f32,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_log10_floor_f32", {
        let t = LogTail::log10(amin, scale, offset, top)?;
        // SAFETY: this function's `# Safety` contract (`x`, `y` for n) is `log10_ffi`'s; NULL,
        // alignment and overlap are checked inside.
        unsafe { log10_ffi(x, t, y, n) }
    })
}

/// `|x|^power` of complex values through the C arguments.
///
/// # Safety
/// `x` readable for `2·n` elements and `y` writable for `n` for the duration of the call; NULL,
/// alignment, overflow and overlap are checked here.
unsafe fn spec_power_ffi<T: Float>(x: *const T, power: f64, y: *mut T, n: usize) -> SkResult<()> {
    if !(power.is_finite() && power > 0.0) {
        return Err(SkError::BadArgument(format!(
            "power = {power} must be finite and positive"
        )));
    }
    let n2 = n
        .checked_mul(2)
        .ok_or_else(|| SkError::Length(format!("n = {n} complex values overflow")))?;
    let xb = Buf::new("x", x, n2);
    let yb = Buf::out("y", y, n);
    xb.check()?;
    yb.check()?;
    alias(&xb, &yb, false)?;
    // SAFETY: `xb.check()` passed for `2·n` elements (overflow checked above), `yb.check()` for
    // `n`; readable / writable per the caller's `# Safety` obligation; `alias` proved them
    // disjoint; the slices die with this call.
    let (xs, ys) = unsafe { (xb.slice(), yb.slice_mut()) };
    for (o, c) in ys.iter_mut().zip(xs.chunks_exact(2)) {
        let m2 = c[0] * c[0] + c[1] * c[1];
        *o = if power == 2.0 {
            m2
        } else {
            let m = m2.to_f64().sqrt();
            T::from_f64(if power == 1.0 { m } else { m.powf(power) })
        };
    }
    Ok(())
}

/// Magnitude/power spectrum: `y[i] = |x[i]|^power` for n complex values `x` (interleaved),
/// i.e. `np.abs(X) ** power` (power 1: magnitude, 2: power, computed as re²+im² without a square
/// root). `power > 0` finite else `SK_ERR_BAD_ARGUMENT`. `y` must not overlap `x`. Returns
/// `SK_OK`, `SK_ERR_BAD_ARGUMENT`, `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`, `SK_ERR_LENGTH`,
/// `SK_ERR_OVERLAP`; on error `y` is untouched. Thread-safe.
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable for 2n doubles, `y` writable for n.
#[no_mangle]
pub unsafe extern "C" fn sk_spec_power_f64(
    x: *const f64,
    power: f64,
    y: *mut f64,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_spec_power_f64", {
        // SAFETY: this function's `# Safety` contract (`x` for 2·n, `y` for n) is
        // `spec_power_ffi`'s; NULL, alignment, overflow and overlap are checked inside.
        unsafe { spec_power_ffi(x, power, y, n) }
    })
}

/// `|x|^power` of complex64 values. Rules as `sk_spec_power_f64`.
///
/// Real-time safe: yes.
///
/// # Safety
/// `x` readable for 2n floats, `y` writable for n.
#[no_mangle]
pub unsafe extern "C" fn sk_spec_power_f32(
    x: *const f32,
    power: f64,
    y: *mut f32,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_spec_power_f32", {
        // SAFETY: this function's `# Safety` contract (`x` for 2·n, `y` for n) is
        // `spec_power_ffi`'s; NULL, alignment, overflow and overlap are checked inside.
        unsafe { spec_power_ffi(x, power, y, n) }
    })
}
