//! Griffin-Lim phase reconstruction as `librosa.griffinlim` computes it.
//!
//! Magnitudes in the STFT section's frame-major layout (`frames × n_freq` values, bin `f` of
//! frame `t` at index `t·n_freq + f`, `n_freq = n_fft/2 + 1`), real; librosa's `S` of shape
//! `(n_freq, frames)` is that buffer seen as `(frames, n_freq)` and transposed.

use super::guard::{alias, check_out_scalar, ffi_boundary, size_result, Buf};
use super::stft::parse_pad;
use crate::error::{SkError, SkResult};
use crate::kernels::spectral::fft::PlanCache;
use crate::kernels::spectral::griffinlim::{griffinlim, GlParams};
use crate::kernels::spectral::Complex;

#[allow(clippy::too_many_arguments)]
fn gl_params(
    n_fft: usize,
    hop: usize,
    win_length: usize,
    center: i32,
    pad_mode: i32,
    n_iter: usize,
    momentum: f64,
    length: usize,
) -> SkResult<GlParams> {
    Ok(GlParams {
        n_iter,
        momentum,
        n_fft,
        hop,
        win_length,
        center: center != 0,
        pad_mode: parse_pad(pad_mode)?,
        length: if length == 0 { None } else { Some(length) },
    })
}

/// Output length of `sk_griffinlim_*` for `frames` frames, stored in `*len`: `length` if it is
/// not 0, else librosa's full inverse length `n_fft + hop·(frames − 1)` less `2·(n_fft/2)` with
/// `center` (librosa treats `length=0` as no length too).
///
/// Returns `SK_OK`; `SK_ERR_BAD_ARGUMENT` (hop = 0, hop > win_length, win_length outside
/// 1..=n_fft, bad pad_mode, a length whose STFT does not have `frames` frames);
/// `SK_ERR_LENGTH` (frames = 0, n_fft = 0 or > 2^28, sizes overflow);
/// `SK_ERR_NULL_POINTER`/`SK_ERR_MISALIGNED` (len). On error `*len` is untouched. Thread-safe.
///
/// Real-time safe: yes.
///
/// # Safety
/// `len` writable.
#[no_mangle]
pub unsafe extern "C" fn sk_griffinlim_len(
    frames: usize,
    n_fft: usize,
    hop: usize,
    win_length: usize,
    center: i32,
    pad_mode: i32,
    length: usize,
    len: *mut usize,
) -> i32 {
    ffi_boundary!("sk_griffinlim_len", {
        check_out_scalar("len", len)?;
        let p = gl_params(n_fft, hop, win_length, center, pad_mode, 0, 0.0, length)?;
        let l = p.len(frames)?;
        let l = size_result(
            format_args!("the Griffin-Lim length of {frames} frames"),
            Some(l),
            8,
            "doubles",
        )?;
        // SAFETY: checked non-NULL and aligned above; writable is the `# Safety` contract.
        unsafe { *len = l };
        Ok(())
    })
}

/// One Griffin-Lim call through the C arguments.
///
/// # Safety
/// `s` readable for `rows·frames·n_freq` elements, `init` (unless NULL) for twice that,
/// `window` for `win_length` doubles, `y` writable for `y_len` elements; NULL, alignment,
/// sizes and overlap are checked here.
#[allow(clippy::too_many_arguments)]
unsafe fn gl_ffi<T: PlanCache>(
    s: *const T,
    n_freq: usize,
    frames: usize,
    rows: usize,
    init: *const T,
    window: *const f64,
    p: GlParams,
    y: *mut T,
    y_len: usize,
) -> SkResult<()> {
    let len = p.len(frames)?;
    if n_freq != p.n_fft / 2 + 1 {
        return Err(SkError::BadArgument(format!(
            "n_freq = {n_freq} but n_fft = {} has {} one-sided bins",
            p.n_fft,
            p.n_fft / 2 + 1
        )));
    }
    let overflow = || SkError::Length("rows × frames × n_freq overflows".into());
    let sl = rows
        .checked_mul(frames)
        .and_then(|v| v.checked_mul(n_freq))
        .ok_or_else(overflow)?;
    let sb = Buf::new("s", s, sl);
    sb.check()?;
    let ib = if init.is_null() {
        None
    } else {
        let b = Buf::new("init", init, sl.checked_mul(2).ok_or_else(overflow)?);
        b.check()?;
        Some(b)
    };
    let wb = Buf::new("window", window, p.win_length);
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
    alias(&sb, &yb, false)?;
    alias(&wb, &yb, false)?;
    if let Some(b) = &ib {
        alias(b, &yb, false)?;
    }
    // SAFETY: (the window only) `wb` passed `check()`; readable is the caller's obligation.
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
    // SAFETY: `sb`, `ib` passed `check()`, `yb` lies within the checked `yc`; `alias(.., false)`
    // proved every input disjoint from `y`; `Complex<T>` is `#[repr(C)] {re, im}` with `T`'s
    // alignment, so `init`'s `2·sl` values are `sl` complex values over the same bytes;
    // readable / writable is the caller's `# Safety` obligation; the slices die with this call.
    let (ss, is, ys) = unsafe {
        let is = ib.map(|b| {
            let v = b.slice();
            std::slice::from_raw_parts(v.as_ptr() as *const Complex<T>, v.len() / 2)
        });
        (sb.slice(), is, yb.slice_mut())
    };
    griffinlim(ss, frames, is, ws, &p, ys)
}

/// Griffin-Lim of `rows` magnitude spectrograms, equal to `librosa.griffinlim(S, n_iter=n_iter,
/// hop_length=hop, win_length=win_length, n_fft=n_fft, window=window, center=center,
/// length=length, pad_mode=pad_mode, momentum=momentum)` of each given the same initial phases.
///
/// Arguments: `s` holds `rows` magnitude spectrograms of `frames × n_freq` floats (frame-major,
/// one after the other; `n_freq = n_fft/2 + 1`); `init` the initial unit phasors, `rows ×
/// frames × n_freq` complex floats (interleaved re/im; librosa's `init="random"` is
/// `exp(2πi·u)`, `u` uniform in [0, 1), drawn by the caller), or NULL for librosa's
/// `init=None` (phase 0); `window` win_length doubles (centred and zero-padded to n_fft);
/// `length` the output length or 0 for the full inverse length (`sk_griffinlim_len`);
/// `momentum ≥ 0` (librosa warns above 1). Each iteration: inverse STFT of the estimate
/// (librosa's, divided by the overlap-added squared window where that exceeds the smallest
/// normal float), its STFT, minus `momentum/(1+momentum)` times the previous iteration's STFT
/// (from the second iteration on), normalised to unit modulus (`/(|v| + tiny)`) and scaled by
/// `s`. The result is the inverse STFT of the last estimate, `rows × len` samples into `y`
/// (`y_len` its capacity, at least that, else `SK_ERR_BUFFER_TOO_SMALL`). Computed in the
/// element type, as librosa does. `rows = 0` writes nothing.
/// Returns `SK_OK`, the errors of `sk_griffinlim_len`, `SK_ERR_BAD_ARGUMENT` (n_freq ≠
/// n_fft/2 + 1, momentum negative or not finite, a non-finite window value),
/// `SK_ERR_BUFFER_TOO_SMALL`, `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`, `SK_ERR_OVERLAP` (y
/// overlaps s, init or window), `SK_ERR_ALLOCATION` (scratch, taken before anything is
/// written); on error `y` is untouched. Thread-safe (stateless; the transforms of each
/// iteration are split across up to `SIGKERN_THREADS` threads).
///
/// Real-time safe: no (allocates its working memory).
///
/// # Safety
/// `s` readable for `rows·frames·n_freq` floats, `init` (unless NULL) for twice that,
/// `window` for win_length doubles, `y` writable for `y_len` floats.
#[no_mangle]
pub unsafe extern "C" fn sk_griffinlim_f32(
    s: *const f32,
    n_freq: usize,
    frames: usize,
    rows: usize,
    init: *const f32,
    window: *const f64,
    n_fft: usize,
    hop: usize,
    win_length: usize,
    center: i32,
    pad_mode: i32,
    n_iter: usize,
    momentum: f64,
    length: usize,
    y: *mut f32,
    y_len: usize,
) -> i32 {
    ffi_boundary!("sk_griffinlim_f32", {
        let p = gl_params(
            n_fft, hop, win_length, center, pad_mode, n_iter, momentum, length,
        )?;
        // SAFETY: this function's `# Safety` contract is `gl_ffi`'s; the rest is checked inside.
        unsafe { gl_ffi(s, n_freq, frames, rows, init, window, p, y, y_len) }
    })
}

/// Griffin-Lim of doubles. Rules as `sk_griffinlim_f32` (8-byte alignment).
///
/// Real-time safe: no (allocates its working memory).
///
/// # Safety
/// `s` readable for `rows·frames·n_freq` doubles, `init` (unless NULL) for twice that,
/// `window` for win_length doubles, `y` writable for `y_len` doubles.
#[no_mangle]
pub unsafe extern "C" fn sk_griffinlim_f64(
    s: *const f64,
    n_freq: usize,
    frames: usize,
    rows: usize,
    init: *const f64,
    window: *const f64,
    n_fft: usize,
    hop: usize,
    win_length: usize,
    center: i32,
    pad_mode: i32,
    n_iter: usize,
    momentum: f64,
    length: usize,
    y: *mut f64,
    y_len: usize,
) -> i32 {
    ffi_boundary!("sk_griffinlim_f64", {
        let p = gl_params(
            n_fft, hop, win_length, center, pad_mode, n_iter, momentum, length,
        )?;
        // SAFETY: this function's `# Safety` contract is `gl_ffi`'s; the rest is checked inside.
        unsafe { gl_ffi(s, n_freq, frames, rows, init, window, p, y, y_len) }
    })
}
