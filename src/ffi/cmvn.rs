//! Cepstral mean / variance normalisation (`sk_cmvn_*`, `sk_sliding_cmn_*`): per utterance as
//! Kaldi's `apply-cmvn`, and `torchaudio.functional.sliding_window_cmn`.

use super::guard::{alias, ffi_boundary, Alias, Buf};
use crate::error::{SkError, SkResult};
use crate::kernels::speech::cmvn::{cmvn, sliding_window_cmn};
use crate::kernels::Float;
use std::borrow::Cow;

fn flag(name: &str, v: i32) -> SkResult<bool> {
    match v {
        0 => Ok(false),
        1 => Ok(true),
        _ => Err(SkError::BadArgument(format!(
            "{name} = {v}; it must be 0 or 1"
        ))),
    }
}

/// A checked input (borrowed, or copied when it overlaps the output) and the output.
type Io<'a, T> = Option<(Cow<'a, [T]>, &'a mut [T])>;

/// The checked input and output of `channels × frames × feats` values (`x == y` allowed).
///
/// # Safety
/// `x` readable and `y` writable for the product (checked here for NULL, alignment, size).
unsafe fn io<'a, T: Float>(
    x: *const T,
    y: *mut T,
    channels: usize,
    frames: usize,
    feats: usize,
) -> SkResult<Io<'a, T>> {
    let n = channels
        .checked_mul(frames)
        .and_then(|v| v.checked_mul(feats))
        .ok_or_else(|| SkError::Length("channels × frames × feats overflows".into()))?;
    let xb = Buf::new("x", x, n);
    xb.check()?;
    let yb = Buf::out("y", y, n);
    yb.check()?;
    let same = alias(&xb, &yb, true)? == Alias::Same;
    if n == 0 {
        return Ok(None);
    }
    // SAFETY: `xb.check()` passed for n elements, readable per the caller's contract; in place
    // (`x == y`) it is copied out before `y` is written.
    let xs = unsafe { xb.slice() };
    let copy = if same {
        let mut v = Vec::new();
        v.try_reserve_exact(n)
            .map_err(|_| SkError::Allocation(format!("{n} values for the in-place input copy")))?;
        v.extend_from_slice(xs);
        Cow::Owned(v)
    } else {
        Cow::Borrowed(xs)
    };
    // SAFETY: `yb.check()` passed for n elements, writable per the caller's contract; in place,
    // `x` is no longer read through its slice (the copy is), else the two are disjoint.
    let ys = unsafe { yb.slice_mut() };
    Ok(Some((copy, ys)))
}

/// # Safety
/// As `sk_cmvn_f32`.
unsafe fn cmvn_ffi<T: Float>(
    x: *const T,
    y: *mut T,
    channels: usize,
    frames: usize,
    feats: usize,
    norm_vars: i32,
) -> SkResult<()> {
    let nv = flag("norm_vars", norm_vars)?;
    // SAFETY: this function's contract is `io`'s.
    if let Some((xs, ys)) = unsafe { io(x, y, channels, frames, feats)? } {
        cmvn(&xs, ys, channels, frames, feats, nv)?;
    }
    Ok(())
}

/// Per-utterance CMVN of `channels` feature matrices of `frames × feats` floats (row-major,
/// one after the other), as Kaldi's `apply-cmvn`: each feature minus its mean over the
/// utterance's frames; with `norm_vars` 1 also divided by its standard deviation
/// (`var = Σx²/n − mean²` floored at 1e-20). Sums in double. `y == x` (in place) is allowed.
/// Returns `SK_OK`, `SK_ERR_BAD_ARGUMENT` (norm_vars not 0/1), `SK_ERR_NULL_POINTER`,
/// `SK_ERR_MISALIGNED`, `SK_ERR_LENGTH`, `SK_ERR_OVERLAP` (partial overlap),
/// `SK_ERR_ALLOCATION`; on error `y` is untouched. Thread-safe.
///
/// Real-time safe: no (allocates its sums and a copy of the input).
///
/// # Safety
/// `x` readable and `y` writable for channels·frames·feats floats.
#[no_mangle]
pub unsafe extern "C" fn sk_cmvn_f32(
    x: *const f32,
    y: *mut f32,
    channels: usize,
    frames: usize,
    feats: usize,
    norm_vars: i32,
) -> i32 {
    ffi_boundary!("sk_cmvn_f32", {
        // SAFETY: this function's contract is `cmvn_ffi`'s.
        unsafe { cmvn_ffi(x, y, channels, frames, feats, norm_vars) }
    })
}

/// Per-utterance CMVN of doubles. Rules as `sk_cmvn_f32`.
///
/// Real-time safe: no (allocates its sums and a copy of the input).
///
/// # Safety
/// `x` readable and `y` writable for channels·frames·feats doubles.
#[no_mangle]
pub unsafe extern "C" fn sk_cmvn_f64(
    x: *const f64,
    y: *mut f64,
    channels: usize,
    frames: usize,
    feats: usize,
    norm_vars: i32,
) -> i32 {
    ffi_boundary!("sk_cmvn_f64", {
        // SAFETY: this function's contract is `cmvn_ffi`'s.
        unsafe { cmvn_ffi(x, y, channels, frames, feats, norm_vars) }
    })
}

/// # Safety
/// As `sk_sliding_cmn_f32`.
#[allow(clippy::too_many_arguments)]
unsafe fn sliding_ffi<T: Float>(
    x: *const T,
    y: *mut T,
    channels: usize,
    frames: usize,
    feats: usize,
    cmn_window: usize,
    min_cmn_window: usize,
    center: i32,
    norm_vars: i32,
    pow: fn(T) -> T,
) -> SkResult<()> {
    let c = flag("center", center)?;
    let nv = flag("norm_vars", norm_vars)?;
    // SAFETY: this function's contract is `io`'s.
    if let Some((xs, ys)) = unsafe { io(x, y, channels, frames, feats)? } {
        sliding_window_cmn(
            &xs,
            ys,
            channels,
            frames,
            feats,
            cmn_window,
            min_cmn_window,
            c,
            nv,
            pow,
        )?;
    }
    Ok(())
}

/// Sliding-window cepstral mean (and variance) normalisation of `channels` matrices of
/// `frames × feats` floats, as `torchaudio.functional.sliding_window_cmn(x, cmn_window,
/// min_cmn_window, center, norm_vars)`: frame `t` minus the mean over a window of up to
/// `cmn_window` frames (the `cmn_window` frames before `t` and `t` itself, at least
/// `min_cmn_window` at the start; centred on `t` with `center`), the window moved one frame at
/// a time with running sums in float as torchaudio does; with `norm_vars` scaled by
/// `(Σx²/n − (Σx)²/n²)^(−1/2)` (zeros where the window has one frame). `y == x` is allowed.
/// Returns `SK_OK`, `SK_ERR_BAD_ARGUMENT` (center or norm_vars not 0/1), `SK_ERR_NULL_POINTER`,
/// `SK_ERR_MISALIGNED`, `SK_ERR_LENGTH`, `SK_ERR_OVERLAP`, `SK_ERR_ALLOCATION`; on error `y` is
/// untouched. Thread-safe.
///
/// Real-time safe: no (allocates its sums and a copy of the input).
///
/// # Safety
/// `x` readable and `y` writable for channels·frames·feats floats.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn sk_sliding_cmn_f32(
    x: *const f32,
    y: *mut f32,
    channels: usize,
    frames: usize,
    feats: usize,
    cmn_window: usize,
    min_cmn_window: usize,
    center: i32,
    norm_vars: i32,
) -> i32 {
    ffi_boundary!("sk_sliding_cmn_f32", {
        // SAFETY: this function's contract is `sliding_ffi`'s.
        unsafe {
            sliding_ffi(
                x,
                y,
                channels,
                frames,
                feats,
                cmn_window,
                min_cmn_window,
                center,
                norm_vars,
                |v: f32| v.powf(-0.5),
            )
        }
    })
}

/// Sliding-window CMN of doubles. Rules as `sk_sliding_cmn_f32`.
///
/// Real-time safe: no (allocates its sums and a copy of the input).
///
/// # Safety
/// `x` readable and `y` writable for channels·frames·feats doubles.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn sk_sliding_cmn_f64(
    x: *const f64,
    y: *mut f64,
    channels: usize,
    frames: usize,
    feats: usize,
    cmn_window: usize,
    min_cmn_window: usize,
    center: i32,
    norm_vars: i32,
) -> i32 {
    ffi_boundary!("sk_sliding_cmn_f64", {
        // SAFETY: this function's contract is `sliding_ffi`'s.
        unsafe {
            sliding_ffi(
                x,
                y,
                channels,
                frames,
                feats,
                cmn_window,
                min_cmn_window,
                center,
                norm_vars,
                |v: f64| v.powf(-0.5),
            )
        }
    })
}
