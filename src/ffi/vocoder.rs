//! Phase vocoder and time-stretch as librosa computes them (`librosa.phase_vocoder`,
//! `librosa.effects.time_stretch`), in double precision inside for both element types.
//!
//! Spectrogram layout (in and out), as the STFT section's: frame-major, `frames × n_freq`
//! complex values interleaved re/im, bin `f` of frame `t` at complex index `t·n_freq + f`;
//! librosa's `D` of shape `(n_freq, frames)` is that buffer seen as `(frames, n_freq)` and
//! transposed. The phase vocoder's result does not depend on librosa's `hop_length`/`n_fft` or
//! torchaudio's `phase_advance` (the expected advance cancels out of the wrapped phase
//! increment) except through rounding, so no such argument is taken.

use super::guard::{alias, check_out_scalar, ffi_boundary, size_result, Buf};
use super::stft::{complex_out, parse_pad};
use crate::error::{SkError, SkResult};
use crate::kernels::spectral::vocoder::{
    phase_vocoder_rows, pv_frames, time_stretch, StretchParams,
};
use crate::kernels::spectral::Complex;
use crate::kernels::Float;

/// The complex view of a checked buffer of interleaved `(re, im)` pairs.
///
/// # Safety
/// As [`Buf::slice`]: `b` passed `Buf::check` and holds an even number of elements readable for
/// `'a`.
unsafe fn cplx<'a, T>(b: &Buf<T>) -> &'a [Complex<T>] {
    // SAFETY: `Buf::slice`'s obligations are this function's contract; `Complex<T>` is
    // `#[repr(C)] {re, im}` with `T`'s alignment, so `len/2` complex values cover the same bytes.
    unsafe {
        let s = b.slice();
        std::slice::from_raw_parts(s.as_ptr() as *const Complex<T>, s.len() / 2)
    }
}

/// The mutable complex view of a checked output buffer of interleaved `(re, im)` pairs.
///
/// # Safety
/// As [`Buf::slice_mut`]: `b` passed `Buf::check` (every `Buf` from `complex_out` has), is
/// writable for its even length during `'a`, with no other live view of that memory.
unsafe fn cplx_mut<'a, T>(b: &Buf<T>) -> &'a mut [Complex<T>] {
    // SAFETY: as `cplx`, for a writable buffer with no other view.
    unsafe {
        let s = b.slice_mut();
        std::slice::from_raw_parts_mut(s.as_mut_ptr() as *mut Complex<T>, s.len() / 2)
    }
}

/// Number of frames of the phase vocoder's output for `frames` input frames at `rate`:
/// `len(np.arange(0, frames, rate))` = `⌈frames / rate⌉`, stored in `*out_frames`.
///
/// Returns `SK_OK`; `SK_ERR_BAD_ARGUMENT` (rate not finite and positive); `SK_ERR_LENGTH`
/// (frames = 0, or more than 2^52 output frames); `SK_ERR_NULL_POINTER`/`SK_ERR_MISALIGNED`
/// (out_frames). On error `*out_frames` is untouched. Thread-safe.
///
/// Real-time safe: yes.
///
/// # Safety
/// `out_frames` writable.
#[no_mangle]
pub unsafe extern "C" fn sk_phase_vocoder_frames(
    frames: usize,
    rate: f64,
    out_frames: *mut usize,
) -> i32 {
    ffi_boundary!("sk_phase_vocoder_frames", {
        check_out_scalar("out_frames", out_frames)?;
        let f = pv_frames(frames, rate)?;
        // SAFETY: checked non-NULL and aligned above; writable is the `# Safety` contract.
        unsafe { *out_frames = f };
        Ok(())
    })
}

/// One phase vocoder call through the C arguments.
///
/// # Safety
/// `d` readable for `2·rows·frames·n_freq` elements, `y` writable for `2·y_len`; NULL,
/// alignment, sizes and overlap are checked here.
unsafe fn pv_ffi<T: Float>(
    d: *const T,
    n_freq: usize,
    frames: usize,
    rows: usize,
    rate: f64,
    y: *mut T,
    y_len: usize,
) -> SkResult<()> {
    if n_freq == 0 {
        return Err(SkError::Length(
            "n_freq = 0: a frame needs at least one bin".into(),
        ));
    }
    let out = pv_frames(frames, rate)?;
    let overflow = || SkError::Length("rows × frames × n_freq complex values overflow".into());
    let din = rows
        .checked_mul(frames)
        .and_then(|v| v.checked_mul(n_freq))
        .and_then(|v| v.checked_mul(2))
        .ok_or_else(overflow)?;
    let db = Buf::new("d", d, din);
    db.check()?;
    let need = rows
        .checked_mul(out)
        .and_then(|v| v.checked_mul(n_freq))
        .ok_or_else(overflow)?;
    let yb = complex_out(
        "y",
        y,
        y_len,
        need,
        &format!("rows {rows} × out_frames {out} × n_freq {n_freq}"),
    )?;
    alias(&db, &yb, false)?;
    if rows == 0 {
        return Ok(());
    }
    // SAFETY: `db` passed `check()` (even length), `yb` came from `complex_out` (checked,
    // `2·need` elements); `alias(.., false)` proved them disjoint; readable / writable is the
    // caller's `# Safety` obligation; the views die with this call.
    let (ds, ys) = unsafe { (cplx(&db), cplx_mut(&yb)) };
    phase_vocoder_rows(ds, n_freq, frames, rate, ys)
}

/// Phase vocoder of `rows` spectrograms, equal to `librosa.phase_vocoder(D, rate=rate)` of
/// each (float64, within 1e-12 relative of librosa's own float64 loop) and to
/// `torchaudio.functional.phase_vocoder(D, rate, phase_advance)` for any `phase_advance`.
///
/// Arguments: `d` holds `rows` spectrograms of `frames × n_freq` complex floats (interleaved
/// re/im, frame-major, one after the other); `y` receives `rows × out_frames × n_freq` complex
/// values, `out_frames` from `sk_phase_vocoder_frames`; `y_len` is y's capacity in complex
/// values (at least that many, else `SK_ERR_BUFFER_TOO_SMALL` with the count). Output frame
/// `t` reads input frames `⌊t·rate⌋` and the one after (zeros past the end): the magnitude is
/// interpolated linearly by `t·rate mod 1`, the phase starts at frame 0's and advances by the
/// phase difference of the two frames. Computed in double precision (a float result is the
/// double one rounded; librosa's float32 path keeps its phase accumulator in float32 and is
/// less accurate). A bin of magnitude 0 has phase 0 (π for a negative-zero real part), as
/// `atan2`; a non-finite bin makes its frequency NaN from there on. `rows = 0` writes nothing.
/// Returns `SK_OK`, `SK_ERR_BAD_ARGUMENT` (rate not finite and positive), `SK_ERR_LENGTH`
/// (n_freq = 0, frames = 0, sizes overflow), `SK_ERR_BUFFER_TOO_SMALL`, `SK_ERR_NULL_POINTER`,
/// `SK_ERR_MISALIGNED`, `SK_ERR_OVERLAP` (y overlaps d), `SK_ERR_ALLOCATION` (scratch, taken
/// before anything is written); on error `y` is untouched. Thread-safe (stateless; a long
/// spectrogram's magnitudes are computed on up to `SIGKERN_THREADS` threads).
///
/// Real-time safe: no (allocates its working memory).
///
/// # Safety
/// `d` readable for `2·rows·frames·n_freq` floats, `y` writable for `2·y_len` floats.
#[no_mangle]
pub unsafe extern "C" fn sk_phase_vocoder_f32(
    d: *const f32,
    n_freq: usize,
    frames: usize,
    rows: usize,
    rate: f64,
    y: *mut f32,
    y_len: usize,
) -> i32 {
    ffi_boundary!("sk_phase_vocoder_f32", {
        // SAFETY: this function's `# Safety` contract is `pv_ffi`'s; the rest is checked inside.
        unsafe { pv_ffi(d, n_freq, frames, rows, rate, y, y_len) }
    })
}

/// Phase vocoder of doubles. Rules as `sk_phase_vocoder_f32` (8-byte alignment).
///
/// Real-time safe: no (allocates its working memory).
///
/// # Safety
/// `d` readable for `2·rows·frames·n_freq` doubles, `y` writable for `2·y_len` doubles.
#[no_mangle]
pub unsafe extern "C" fn sk_phase_vocoder_f64(
    d: *const f64,
    n_freq: usize,
    frames: usize,
    rows: usize,
    rate: f64,
    y: *mut f64,
    y_len: usize,
) -> i32 {
    ffi_boundary!("sk_phase_vocoder_f64", {
        // SAFETY: this function's `# Safety` contract is `pv_ffi`'s; the rest is checked inside.
        unsafe { pv_ffi(d, n_freq, frames, rows, rate, y, y_len) }
    })
}

#[allow(clippy::too_many_arguments)]
fn stretch_params(
    rate: f64,
    n_fft: usize,
    hop: usize,
    win_length: usize,
    center: i32,
    pad_mode: i32,
) -> SkResult<StretchParams> {
    let p = StretchParams {
        rate,
        n_fft,
        hop,
        win_length,
        center: center != 0,
        pad_mode: parse_pad(pad_mode)?,
    };
    p.check()?;
    Ok(p)
}

/// Length of `sk_time_stretch_*`'s output for an n-sample signal, librosa's: `round(n / rate)`
/// (ties to even), or when that is 0 the inverse STFT's full length `n_fft + hop·(out_frames −
/// 1)` less `2·(n_fft/2)` with `center` (librosa's `istft` then gets no `length`). Stored in
/// `*len`.
///
/// Returns `SK_OK`; `SK_ERR_BAD_ARGUMENT` (rate not finite and positive, hop = 0, hop >
/// win_length, win_length outside 1..=n_fft, bad pad_mode, reflect padding with n ≤ n_fft/2, a
/// padded signal shorter than n_fft); `SK_ERR_LENGTH` (n = 0, n_fft = 0 or > 2^28, a length
/// past 2^52 or past what a buffer of doubles can hold); `SK_ERR_NULL_POINTER`/
/// `SK_ERR_MISALIGNED` (len). On error `*len` is untouched. Thread-safe.
///
/// Real-time safe: yes.
///
/// # Safety
/// `len` writable.
#[no_mangle]
pub unsafe extern "C" fn sk_time_stretch_len(
    n: usize,
    rate: f64,
    n_fft: usize,
    hop: usize,
    win_length: usize,
    center: i32,
    pad_mode: i32,
    len: *mut usize,
) -> i32 {
    ffi_boundary!("sk_time_stretch_len", {
        check_out_scalar("len", len)?;
        let p = stretch_params(rate, n_fft, hop, win_length, center, pad_mode)?;
        let (_, _, l) = p.sizes(n)?;
        let l = size_result(
            format_args!("the stretched length of n = {n} samples"),
            Some(l),
            8,
            "doubles",
        )?;
        // SAFETY: checked non-NULL and aligned above; writable is the `# Safety` contract.
        unsafe { *len = l };
        Ok(())
    })
}

/// One time-stretch call through the C arguments.
///
/// # Safety
/// `x` readable for `rows·n` elements, `window` for `win_length` doubles, `y` writable for
/// `y_len` elements; NULL, alignment, sizes and overlap are checked here.
#[allow(clippy::too_many_arguments)]
unsafe fn stretch_ffi<T: Float>(
    x: *const T,
    n: usize,
    rows: usize,
    window: *const f64,
    p: StretchParams,
    y: *mut T,
    y_len: usize,
) -> SkResult<()> {
    let (_, _, len) = p.sizes(n)?;
    let xl = rows
        .checked_mul(n)
        .ok_or_else(|| SkError::Length(format!("rows = {rows} × n = {n} overflows")))?;
    let xb = Buf::new("x", x, xl);
    let wb = Buf::new("window", window, p.win_length);
    xb.check()?;
    wb.check()?;
    let need = rows
        .checked_mul(len)
        .ok_or_else(|| SkError::Length(format!("rows = {rows} × len = {len} overflows")))?;
    let yc = Buf::out("y", y, y_len);
    yc.check()?;
    if y_len < need {
        return Err(SkError::BufferTooSmall(format!(
            "y holds {y_len} values but rows {rows} × len {len} = {need} are needed"
        )));
    }
    let yb = Buf::out("y", y, need);
    alias(&xb, &yb, false)?;
    alias(&wb, &yb, false)?;
    // SAFETY: (just the window) `wb` passed `check()`; readable is the caller's obligation.
    let ws = unsafe { wb.slice() };
    if let Some(i) = ws.iter().position(|w| !w.is_finite()) {
        return Err(SkError::BadArgument(format!(
            "window[{i}] = {} is not finite",
            ws[i]
        )));
    }
    if rows == 0 {
        return Ok(());
    }
    // SAFETY: `xb` passed `check()`, `yb` is within the checked `yc`; `alias(.., false)` proved
    // the inputs disjoint from `y`; readable / writable is the caller's `# Safety` obligation;
    // the slices die with this call.
    let (xs, ys) = unsafe { (xb.slice(), yb.slice_mut()) };
    time_stretch(xs, n, ws, &p, ys)
}

/// Time-stretch of `rows` signals of n samples (one after the other in `x`), equal to
/// `librosa.effects.time_stretch(x, rate=rate, n_fft=n_fft, hop_length=hop,
/// win_length=win_length, window=window, center=center, pad_mode=pad_mode)` of each: STFT
/// (`pad_mode` `SK_PAD_CONSTANT` is librosa's default), `sk_phase_vocoder_*`, then librosa's
/// inverse STFT to `len` samples (`sk_time_stretch_len`): frames overlap-added with the window
/// and divided by the overlap-added squared window where that exceeds the smallest normal
/// double. `rate > 1` is faster (shorter). Computed in double precision (a float result is
/// the double one rounded).
///
/// Arguments: `window` holds win_length doubles (for both element types; centred and
/// zero-padded to n_fft, e.g. a periodic Hann window for librosa's default `"hann"`); `y`
/// receives `rows × len` samples, `y_len` its capacity (at least that, else
/// `SK_ERR_BUFFER_TOO_SMALL` with the count). `rows = 0` writes nothing.
/// Returns `SK_OK`, the errors of `sk_time_stretch_len`, `SK_ERR_BAD_ARGUMENT` (a non-finite
/// window value), `SK_ERR_BUFFER_TOO_SMALL`, `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`,
/// `SK_ERR_OVERLAP` (y overlaps x or window), `SK_ERR_ALLOCATION` (scratch, taken before
/// anything is written); on error `y` is untouched. Thread-safe (stateless; the STFT of a long
/// signal is split across up to `SIGKERN_THREADS` threads).
///
/// Real-time safe: no (allocates its working memory).
///
/// # Safety
/// `x` readable for `rows·n` floats, `window` for win_length doubles, `y` writable for `y_len`
/// floats.
#[no_mangle]
pub unsafe extern "C" fn sk_time_stretch_f32(
    x: *const f32,
    n: usize,
    rows: usize,
    rate: f64,
    window: *const f64,
    n_fft: usize,
    hop: usize,
    win_length: usize,
    center: i32,
    pad_mode: i32,
    y: *mut f32,
    y_len: usize,
) -> i32 {
    ffi_boundary!("sk_time_stretch_f32", {
        let p = stretch_params(rate, n_fft, hop, win_length, center, pad_mode)?;
        // SAFETY: this function's `# Safety` contract is `stretch_ffi`'s; the rest is checked
        // inside.
        unsafe { stretch_ffi(x, n, rows, window, p, y, y_len) }
    })
}

/// Time-stretch of doubles. Rules as `sk_time_stretch_f32` (8-byte alignment).
///
/// Real-time safe: no (allocates its working memory).
///
/// # Safety
/// `x` readable for `rows·n` doubles, `window` for win_length doubles, `y` writable for `y_len`
/// doubles.
#[no_mangle]
pub unsafe extern "C" fn sk_time_stretch_f64(
    x: *const f64,
    n: usize,
    rows: usize,
    rate: f64,
    window: *const f64,
    n_fft: usize,
    hop: usize,
    win_length: usize,
    center: i32,
    pad_mode: i32,
    y: *mut f64,
    y_len: usize,
) -> i32 {
    ffi_boundary!("sk_time_stretch_f64", {
        let p = stretch_params(rate, n_fft, hop, win_length, center, pad_mode)?;
        // SAFETY: this function's `# Safety` contract is `stretch_ffi`'s; the rest is checked
        // inside.
        unsafe { stretch_ffi(x, n, rows, window, p, y, y_len) }
    })
}
