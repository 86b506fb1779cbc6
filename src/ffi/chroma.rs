//! Chroma as librosa computes it: the filter bank (`sk_chroma_filters`,
//! `librosa.filters.chroma`), chroma of a power spectrogram (`sk_chroma_*`, the filter bank and
//! normalisation of `librosa.feature.chroma_stft`), peak picking (`sk_piptrack_*`,
//! `librosa.piptrack`) and the tuning estimate (`sk_estimate_tuning_*`,
//! `librosa.estimate_tuning`).
//!
//! Spectrogram inputs are laid out as in `sk_spectral_descriptors_*`: `batch` matrices of
//! `n_freq × frames`, row-major (`frame_major = 0`, librosa's arrays) or `frames × n_freq`
//! (`frame_major ≠ 0`, the memory of an `sk_stft_*` result). Outputs are written only after
//! every check has passed.

use super::guard::{alias, check_capacity, check_out_scalar, ffi_boundary, Buf};
use crate::error::{SkError, SkResult};
use crate::kernels::feature::chroma::{self as ch, ChromaParams, Norm, PipParams};
use crate::kernels::feature::spectral::Spec;
use crate::kernels::Float;

fn size3(a: usize, b: usize, c: usize, what: &str) -> SkResult<usize> {
    a.checked_mul(b)
        .and_then(|v| v.checked_mul(c))
        .ok_or_else(|| SkError::Length(format!("{what} overflows size_t")))
}

/// A checked spectrogram input.
fn spec_in<T>(s: *const T, batch: usize, n_freq: usize, frames: usize) -> SkResult<Buf<T>> {
    let len = size3(batch, n_freq, frames, "batch × n_freq × frames")?;
    let sb = Buf::new("S", s, len);
    sb.check()?;
    if n_freq == 0 {
        return Err(SkError::Length(
            "n_freq = 0: a frame needs at least one bin".into(),
        ));
    }
    Ok(sb)
}

/// An output of capacity `cap` that must hold `need` values.
fn out_of<T>(
    name: &'static str,
    p: *mut T,
    cap: usize,
    need: usize,
    what: &str,
) -> SkResult<Buf<T>> {
    check_capacity(name, p, cap)?;
    if cap < need {
        return Err(SkError::BufferTooSmall(format!(
            "{name} holds {cap} values but {what} = {need} are needed"
        )));
    }
    Ok(Buf::out(name, p, need))
}

/// `librosa.filters.chroma(sr=sr, n_fft=n_fft, n_chroma=n_chroma, tuning=tuning,
/// ctroct=ctroct, octwidth=octwidth, norm=norm, base_c=base_c≠0, dtype=np.float64)` into `out`
/// (`n_chroma × (n_fft/2 + 1)` doubles, row-major): Gaussian bumps around each chroma bin per
/// FFT bin, each column normalised by `norm`, weighted by a Gaussian of width `octwidth`
/// octaves around octave `ctroct`, rotated to start at C when `base_c ≠ 0`; computed with
/// numpy's arithmetic (within a few units in the last place of librosa's).
///
/// `norm`: `INFINITY`, `-INFINITY`, `0` (count of non-zeros), a positive `p`, or NaN for
/// librosa's `None` (no normalisation); `octwidth` `0` for librosa's `None` (no octave
/// weighting), else finite and `> 0`. Arguments: `sr > 0` finite, `2 ≤ n_fft ≤ 2^24`,
/// `1 ≤ n_chroma ≤ 65536`, `tuning` and `ctroct` finite; `out_len` is `out`'s capacity.
/// Returns `SK_OK`, `SK_ERR_BAD_ARGUMENT`, `SK_ERR_LENGTH`, `SK_ERR_BUFFER_TOO_SMALL`,
/// `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`, `SK_ERR_ALLOCATION`; on error `out` is
/// untouched. Thread-safe.
///
/// Real-time safe: no (allocates its working memory).
///
/// # Safety
/// `out` writable for out_len doubles.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn sk_chroma_filters(
    sr: f64,
    n_fft: usize,
    n_chroma: usize,
    tuning: f64,
    ctroct: f64,
    octwidth: f64,
    norm: f64,
    base_c: i32,
    out: *mut f64,
    out_len: usize,
) -> i32 {
    ffi_boundary!("sk_chroma_filters", {
        let p = ChromaParams {
            sr,
            n_fft,
            n_chroma,
            tuning,
            ctroct,
            octwidth: if octwidth == 0.0 {
                None
            } else {
                Some(octwidth)
            },
            norm: Norm::from_f64(norm)?,
            base_c: base_c != 0,
        };
        let w = ch::chroma_filters(&p)?;
        let ob = out_of(
            "out",
            out,
            out_len,
            w.len(),
            &format!("n_chroma {n_chroma} × (n_fft/2 + 1) {}", p.n_freq()),
        )?;
        // SAFETY: `ob` checked by `out_of`, writable per the caller's contract.
        unsafe { ob.slice_mut() }.copy_from_slice(&w);
        Ok(())
    })
}

/// # Safety
/// As `sk_chroma_f32`.
#[allow(clippy::too_many_arguments)]
unsafe fn chroma_ffi<T: Float>(
    s: *const T,
    batch: usize,
    n_freq: usize,
    frames: usize,
    frame_major: i32,
    fb: *const f64,
    n_chroma: usize,
    norm: f64,
    out: *mut T,
    out_len: usize,
) -> SkResult<()> {
    let norm = Norm::from_f64(norm)?;
    let sb = spec_in(s, batch, n_freq, frames)?;
    if n_chroma == 0 {
        return Err(SkError::Length("n_chroma = 0".into()));
    }
    let fl = n_chroma
        .checked_mul(n_freq)
        .ok_or_else(|| SkError::Length("n_chroma × n_freq overflows".into()))?;
    let fbb = Buf::new("fb", fb, fl);
    fbb.check()?;
    let need = size3(batch, n_chroma, frames, "batch × n_chroma × frames")?;
    let ob = out_of(
        "out",
        out,
        out_len,
        need,
        &format!("batch {batch} × n_chroma {n_chroma} × frames {frames}"),
    )?;
    alias(&sb, &ob, false)?;
    alias(&fbb, &ob, false)?;
    let spec = Spec {
        // SAFETY: `sb` passed `check()`, readable per the caller's contract, disjoint from `out`.
        data: unsafe { sb.slice() },
        batch,
        n_freq,
        frames,
        frame_major: frame_major != 0,
    };
    // SAFETY: `fbb` passed `check()`, readable, disjoint from `out`; `ob` checked, writable.
    unsafe { ch::chroma_apply(&spec, fbb.slice(), n_chroma, norm, ob.slice_mut()) }
}

/// `librosa.feature.chroma_stft(S=S, norm=norm, ...)` after its filter bank: for every frame of
/// the power spectrogram `S` (`batch × n_freq × frames`, layout by `frame_major`, finite),
/// `fb` (`n_chroma × n_freq` doubles, row-major, e.g. from `sk_chroma_filters`; librosa's
/// default `float32` bank is the caller's rounding) times the frame, accumulated in double and
/// rounded to the element type, then normalised over the chroma bins as
/// `librosa.util.normalize(norm=norm, axis=-2)` (`norm` as `sk_chroma_filters`; frames whose
/// norm is below the smallest normal number of the element type are left unnormalised), into
/// `out` (`batch × n_chroma × frames`, row-major).
/// Returns `SK_OK`, `SK_ERR_BAD_ARGUMENT`, `SK_ERR_LENGTH`, `SK_ERR_NON_FINITE` (a non-finite
/// value of `S` or `fb`), `SK_ERR_BUFFER_TOO_SMALL`, `SK_ERR_NULL_POINTER`,
/// `SK_ERR_MISALIGNED`, `SK_ERR_OVERLAP`, `SK_ERR_ALLOCATION`; on error `out` is untouched.
/// Thread-safe (long inputs are split over up to `SIGKERN_THREADS` threads).
///
/// Real-time safe: no (allocates its working memory; long inputs may be split over the worker threads).
///
/// # Safety
/// `S` readable for batch·n_freq·frames floats, `fb` for n_chroma·n_freq doubles, `out`
/// writable for out_len floats.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn sk_chroma_f32(
    s: *const f32,
    batch: usize,
    n_freq: usize,
    frames: usize,
    frame_major: i32,
    fb: *const f64,
    n_chroma: usize,
    norm: f64,
    out: *mut f32,
    out_len: usize,
) -> i32 {
    ffi_boundary!("sk_chroma_f32", {
        // SAFETY: this function's `# Safety` contract is `chroma_ffi`'s; NULL, alignment,
        // sizes and overlap are checked inside.
        unsafe {
            chroma_ffi::<f32>(
                s,
                batch,
                n_freq,
                frames,
                frame_major,
                fb,
                n_chroma,
                norm,
                out,
                out_len,
            )
        }
    })
}

/// `sk_chroma_f32` on doubles. Same rules.
///
/// Real-time safe: no (allocates its working memory; long inputs may be split over the worker threads).
///
/// # Safety
/// `S` readable for batch·n_freq·frames doubles, `fb` for n_chroma·n_freq doubles, `out`
/// writable for out_len doubles.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn sk_chroma_f64(
    s: *const f64,
    batch: usize,
    n_freq: usize,
    frames: usize,
    frame_major: i32,
    fb: *const f64,
    n_chroma: usize,
    norm: f64,
    out: *mut f64,
    out_len: usize,
) -> i32 {
    ffi_boundary!("sk_chroma_f64", {
        // SAFETY: this function's `# Safety` contract is `chroma_ffi`'s; NULL, alignment,
        // sizes and overlap are checked inside.
        unsafe {
            chroma_ffi::<f64>(
                s,
                batch,
                n_freq,
                frames,
                frame_major,
                fb,
                n_chroma,
                norm,
                out,
                out_len,
            )
        }
    })
}

/// # Safety
/// As `sk_piptrack_f32`.
#[allow(clippy::too_many_arguments)]
unsafe fn piptrack_ffi<T: Float>(
    s: *const T,
    batch: usize,
    n_freq: usize,
    frames: usize,
    frame_major: i32,
    sr: f64,
    n_fft: usize,
    fmin: f64,
    fmax: f64,
    threshold: f64,
    reference: *const T,
    pitches: *mut T,
    mags: *mut T,
    out_len: usize,
) -> SkResult<()> {
    let sb = spec_in(s, batch, n_freq, frames)?;
    let len = sb.len;
    let rb = if reference.is_null() {
        None
    } else {
        let b = Buf::new("reference", reference, batch * frames);
        b.check()?;
        Some(b)
    };
    let what = format!("batch {batch} × n_freq {n_freq} × frames {frames}");
    let pb = out_of("pitches", pitches, out_len, len, &what)?;
    let mb = out_of("mags", mags, out_len, len, &what)?;
    alias(&sb, &pb, false)?;
    alias(&sb, &mb, false)?;
    alias(&pb, &mb, false)?;
    if let Some(r) = &rb {
        alias(r, &pb, false)?;
        alias(r, &mb, false)?;
    }
    let p = PipParams {
        sr,
        n_fft,
        fmin,
        fmax,
        threshold,
    };
    let spec = Spec {
        // SAFETY: `sb` passed `check()`, readable per the caller's contract, disjoint from
        // the outputs.
        data: unsafe { sb.slice() },
        batch,
        n_freq,
        frames,
        frame_major: frame_major != 0,
    };
    // SAFETY: `rb` passed `check()`, readable; `pb`/`mb` checked by `out_of`, writable,
    // disjoint from each other and from the inputs (`alias`).
    unsafe {
        ch::piptrack(
            &spec,
            &p,
            rb.as_ref().map(|b| b.slice()),
            pb.slice_mut(),
            mb.slice_mut(),
        )
    }
}

/// `librosa.piptrack(S=S, sr=sr, n_fft=n_fft, fmin=fmin, fmax=fmax, threshold=threshold,
/// ref=…)`: in every frame of `S` (`batch × n_freq × frames`, layout by `frame_major`; its
/// absolute values are used), the local maxima of the bins above the frame's reference inside
/// `max(fmin, 0) ≤ f < min(fmax, sr/2)`, refined by parabolic interpolation: their frequency
/// into `pitches` and interpolated magnitude into `mags` (both laid out as `S`, zero elsewhere),
/// computed in the element type as librosa computes its arrays.
///
/// The reference: `reference` NULL for librosa's default `threshold × max(S[:, t])` per frame,
/// else `reference` holds one value per frame (`batch × frames`; librosa's `threshold ×
/// ref(S, axis=-2)` for a callable `ref`, `|ref|` for a number). Arguments: `sr > 0`
/// finite; `n_fft/2 + 1 = n_freq ≥ 2`; `fmin`, `fmax`, `threshold` not NaN; `out_len` the
/// capacity of each of `pitches` and `mags`.
/// Returns `SK_OK`, `SK_ERR_BAD_ARGUMENT`, `SK_ERR_LENGTH`, `SK_ERR_BUFFER_TOO_SMALL`,
/// `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`, `SK_ERR_OVERLAP`, `SK_ERR_ALLOCATION`; on
/// error the outputs are untouched. Thread-safe.
///
/// Real-time safe: no (allocates a frame).
///
/// # Safety
/// `S` readable for batch·n_freq·frames floats, `reference` NULL or readable for batch·frames
/// floats, `pitches` and `mags` writable for out_len floats each.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn sk_piptrack_f32(
    s: *const f32,
    batch: usize,
    n_freq: usize,
    frames: usize,
    frame_major: i32,
    sr: f64,
    n_fft: usize,
    fmin: f64,
    fmax: f64,
    threshold: f64,
    reference: *const f32,
    pitches: *mut f32,
    mags: *mut f32,
    out_len: usize,
) -> i32 {
    ffi_boundary!("sk_piptrack_f32", {
        // SAFETY: this function's `# Safety` contract is `piptrack_ffi`'s; NULL, alignment,
        // sizes and overlap are checked inside.
        unsafe {
            piptrack_ffi::<f32>(
                s,
                batch,
                n_freq,
                frames,
                frame_major,
                sr,
                n_fft,
                fmin,
                fmax,
                threshold,
                reference,
                pitches,
                mags,
                out_len,
            )
        }
    })
}

/// `sk_piptrack_f32` on doubles. Same rules.
///
/// Real-time safe: no (allocates a frame).
///
/// # Safety
/// `S` readable for batch·n_freq·frames doubles, `reference` NULL or readable for
/// batch·frames doubles, `pitches` and `mags` writable for out_len doubles each.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn sk_piptrack_f64(
    s: *const f64,
    batch: usize,
    n_freq: usize,
    frames: usize,
    frame_major: i32,
    sr: f64,
    n_fft: usize,
    fmin: f64,
    fmax: f64,
    threshold: f64,
    reference: *const f64,
    pitches: *mut f64,
    mags: *mut f64,
    out_len: usize,
) -> i32 {
    ffi_boundary!("sk_piptrack_f64", {
        // SAFETY: this function's `# Safety` contract is `piptrack_ffi`'s; NULL, alignment,
        // sizes and overlap are checked inside.
        unsafe {
            piptrack_ffi::<f64>(
                s,
                batch,
                n_freq,
                frames,
                frame_major,
                sr,
                n_fft,
                fmin,
                fmax,
                threshold,
                reference,
                pitches,
                mags,
                out_len,
            )
        }
    })
}

/// # Safety
/// As `sk_estimate_tuning_f32`.
#[allow(clippy::too_many_arguments)]
unsafe fn tuning_ffi<T: Float>(
    s: *const T,
    batch: usize,
    n_freq: usize,
    frames: usize,
    frame_major: i32,
    sr: f64,
    n_fft: usize,
    fmin: f64,
    fmax: f64,
    threshold: f64,
    resolution: f64,
    bins_per_octave: usize,
    tuning: *mut f64,
    count: *mut usize,
) -> SkResult<()> {
    check_out_scalar("tuning", tuning)?;
    check_out_scalar("count", count)?;
    let sb = spec_in(s, batch, n_freq, frames)?;
    let p = PipParams {
        sr,
        n_fft,
        fmin,
        fmax,
        threshold,
    };
    let spec = Spec {
        // SAFETY: `sb` passed `check()`, readable per the caller's contract.
        data: unsafe { sb.slice() },
        batch,
        n_freq,
        frames,
        frame_major: frame_major != 0,
    };
    let (t, n) = ch::estimate_tuning(&spec, &p, resolution, bins_per_octave)?;
    // SAFETY: `check_out_scalar` established non-NULL and aligned; writable is the caller's
    // contract.
    unsafe {
        *tuning = t;
        *count = n;
    }
    Ok(())
}

/// `librosa.estimate_tuning(S=S, sr=sr, n_fft=n_fft, resolution=resolution,
/// bins_per_octave=bins_per_octave, fmin=fmin, fmax=fmax, threshold=threshold)` (librosa's
/// `ref=None`): the peaks of every frame of `S` as `sk_piptrack_*` finds them, those whose
/// magnitude is at least the median peak magnitude, and their deviation from the equal-tempered
/// grid in fractions of a bin (`librosa.pitch_tuning`: a histogram of `resolution`-wide bins
/// from −0.5 to 0.5, its first fullest bin's left edge) into `*tuning`; `*count` receives how
/// many peak frequencies went into the histogram (0: none, `*tuning` is 0, where librosa
/// warns). One estimate for the whole batch, as librosa for a multichannel input.
/// Arguments as `sk_piptrack_f32`, plus `0 < resolution ≤ 1` (at most 2^24 bins) and
/// `bins_per_octave ≥ 1`.
/// Returns `SK_OK`, `SK_ERR_BAD_ARGUMENT`, `SK_ERR_LENGTH`, `SK_ERR_NULL_POINTER`,
/// `SK_ERR_MISALIGNED`, `SK_ERR_ALLOCATION`; on error `*tuning` and `*count` are untouched.
/// Thread-safe.
///
/// Real-time safe: no (allocates its working memory).
///
/// # Safety
/// `S` readable for batch·n_freq·frames floats; `tuning` and `count` writable.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn sk_estimate_tuning_f32(
    s: *const f32,
    batch: usize,
    n_freq: usize,
    frames: usize,
    frame_major: i32,
    sr: f64,
    n_fft: usize,
    fmin: f64,
    fmax: f64,
    threshold: f64,
    resolution: f64,
    bins_per_octave: usize,
    tuning: *mut f64,
    count: *mut usize,
) -> i32 {
    ffi_boundary!("sk_estimate_tuning_f32", {
        // SAFETY: this function's `# Safety` contract is `tuning_ffi`'s; NULL, alignment and
        // sizes are checked inside.
        unsafe {
            tuning_ffi::<f32>(
                s,
                batch,
                n_freq,
                frames,
                frame_major,
                sr,
                n_fft,
                fmin,
                fmax,
                threshold,
                resolution,
                bins_per_octave,
                tuning,
                count,
            )
        }
    })
}

/// `sk_estimate_tuning_f32` on doubles. Same rules.
///
/// Real-time safe: no (allocates its working memory).
///
/// # Safety
/// `S` readable for batch·n_freq·frames doubles; `tuning` and `count` writable.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn sk_estimate_tuning_f64(
    s: *const f64,
    batch: usize,
    n_freq: usize,
    frames: usize,
    frame_major: i32,
    sr: f64,
    n_fft: usize,
    fmin: f64,
    fmax: f64,
    threshold: f64,
    resolution: f64,
    bins_per_octave: usize,
    tuning: *mut f64,
    count: *mut usize,
) -> i32 {
    ffi_boundary!("sk_estimate_tuning_f64", {
        // SAFETY: this function's `# Safety` contract is `tuning_ffi`'s; NULL, alignment and
        // sizes are checked inside.
        unsafe {
            tuning_ffi::<f64>(
                s,
                batch,
                n_freq,
                frames,
                frame_major,
                sr,
                n_fft,
                fmin,
                fmax,
                threshold,
                resolution,
                bins_per_octave,
                tuning,
                count,
            )
        }
    })
}
