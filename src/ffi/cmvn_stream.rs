//! Streaming sliding-window CMN (`sk_sliding_cmn_stream_*`): frames normalised as soon as their
//! window is complete, equal bit for bit to `sk_sliding_cmn_*` on the whole sequence.

use super::guard::{alias, check_capacity, check_out_scalar, ffi_boundary, size_result, Buf};
use super::handle::{self, handle_kind, Either, Kind};
use crate::error::{SkError, SkResult};
use crate::kernels::speech::cmvn_stream::SlidingCmnStream;
use crate::kernels::Float;

/// A sliding-window CMN stream (opaque; `sk_sliding_cmn_stream_f32_new` /
/// `sk_sliding_cmn_stream_f64_new`, freed with `sk_sliding_cmn_stream_free`).
pub struct SkSlidingCmnStream {
    _opaque: [u8; 0],
}

handle_kind!(
    /// A `float` sliding-window CMN stream behind an `SkSlidingCmnStream`.
    pub(crate) CmnStreamF32: SlidingCmnStream<f32> as SkSlidingCmnStream,
    "a float sliding-window CMN stream (sk_sliding_cmn_stream_f32_new)", exclusive, refuse
);
handle_kind!(
    /// A `double` sliding-window CMN stream behind an `SkSlidingCmnStream`.
    pub(crate) CmnStreamF64: SlidingCmnStream<f64> as SkSlidingCmnStream,
    "a double sliding-window CMN stream (sk_sliding_cmn_stream_f64_new)", exclusive, refuse
);

/// What the either-precision calls accept.
const ANY_STREAM: &str = "a sliding-window CMN stream (sk_sliding_cmn_stream_f32_new or \
                          sk_sliding_cmn_stream_f64_new)";

/// Element types with their stream kinds and the offline call's `x^(−1/2)`.
trait StreamElem: Float {
    type Kind: Kind<Object = SlidingCmnStream<Self>, C = SkSlidingCmnStream>;
    fn rsqrt_pow(v: Self) -> Self;
}

impl StreamElem for f32 {
    type Kind = CmnStreamF32;
    fn rsqrt_pow(v: f32) -> f32 {
        v.powf(-0.5)
    }
}

impl StreamElem for f64 {
    type Kind = CmnStreamF64;
    fn rsqrt_pow(v: f64) -> f64 {
        v.powf(-0.5)
    }
}

fn flag(name: &str, v: i32) -> SkResult<bool> {
    match v {
        0 => Ok(false),
        1 => Ok(true),
        _ => Err(SkError::BadArgument(format!(
            "{name} = {v}; it must be 0 or 1"
        ))),
    }
}

/// # Safety
/// `stream` writable (NULL and alignment checked here).
unsafe fn stream_new<T: StreamElem>(
    feats: usize,
    cmn_window: usize,
    min_cmn_window: usize,
    center: i32,
    norm_vars: i32,
    stream: *mut *mut SkSlidingCmnStream,
) -> SkResult<()> {
    let c = flag("center", center)?;
    let nv = flag("norm_vars", norm_vars)?;
    check_out_scalar("stream", stream)?;
    let s = SlidingCmnStream::<T>::new(feats, cmn_window, min_cmn_window, c, nv, T::rsqrt_pow)?;
    // SAFETY: `stream` checked non-NULL and aligned above; writable per the contract.
    unsafe { handle::publish::<T::Kind>(s, stream) }
}

/// Creates a stream of `torchaudio.functional.sliding_window_cmn(x, cmn_window, min_cmn_window,
/// center, norm_vars)` over frames of `feats` floats (rules as `sk_sliding_cmn_f32`). Feed it
/// with `sk_sliding_cmn_stream_f32_push`, end with `sk_sliding_cmn_stream_f32_finish`: the
/// frames out, in order, equal one `sk_sliding_cmn_f32` call on the whole sequence bit for bit,
/// whatever the block sizes. Frame `t` comes out as soon as its window is complete: without
/// `center` once `max(t + 1, min_cmn_window)` frames are in (after the first `min_cmn_window`
/// frames, each frame comes out with itself); with `center` once
/// `max(t + cmn_window − cmn_window/2, cmn_window)` frames are in (a latency of
/// `⌈cmn_window/2⌉ − 1` frames); the frames whose window reaches past the last frame come with
/// the finish. The stream holds `max(cmn_window, min_cmn_window) + 2` frames, whatever the
/// block size. Returns `SK_OK`, `SK_ERR_BAD_ARGUMENT` (feats 0, center or norm_vars not 0/1),
/// `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`, `SK_ERR_LENGTH` (windows too long),
/// `SK_ERR_ALLOCATION`; on error `*stream` is untouched. Free with
/// `sk_sliding_cmn_stream_free`. One call at a time per stream (a concurrent call is refused).
///
/// Real-time safe: no (allocates the stream).
///
/// # Safety
/// `stream` writable.
#[no_mangle]
pub unsafe extern "C" fn sk_sliding_cmn_stream_f32_new(
    feats: usize,
    cmn_window: usize,
    min_cmn_window: usize,
    center: i32,
    norm_vars: i32,
    stream: *mut *mut SkSlidingCmnStream,
) -> i32 {
    ffi_boundary!("sk_sliding_cmn_stream_f32_new", {
        // SAFETY: this function's contract is `stream_new`'s.
        unsafe { stream_new::<f32>(feats, cmn_window, min_cmn_window, center, norm_vars, stream) }
    })
}

/// Creates a stream of doubles. Rules as `sk_sliding_cmn_stream_f32_new`.
///
/// Real-time safe: no (allocates the stream).
///
/// # Safety
/// `stream` writable.
#[no_mangle]
pub unsafe extern "C" fn sk_sliding_cmn_stream_f64_new(
    feats: usize,
    cmn_window: usize,
    min_cmn_window: usize,
    center: i32,
    norm_vars: i32,
    stream: *mut *mut SkSlidingCmnStream,
) -> i32 {
    ffi_boundary!("sk_sliding_cmn_stream_f64_new", {
        // SAFETY: this function's contract is `stream_new`'s.
        unsafe { stream_new::<f64>(feats, cmn_window, min_cmn_window, center, norm_vars, stream) }
    })
}

/// Frees a stream (float or double). NULL is a no-op; a freed or foreign handle is
/// `SK_ERR_INVALID_HANDLE` (detected, nothing freed). Thread-safe.
///
/// Real-time safe: no (frees memory).
///
/// # Safety
/// None beyond passing any pointer value.
#[no_mangle]
pub unsafe extern "C" fn sk_sliding_cmn_stream_free(stream: *mut SkSlidingCmnStream) -> i32 {
    ffi_boundary!("sk_sliding_cmn_stream_free", {
        handle::free_either::<CmnStreamF32, CmnStreamF64>("stream", stream, ANY_STREAM)
    })
}

fn with_stream<R>(
    stream: *const SkSlidingCmnStream,
    f32f: impl FnOnce(&mut SlidingCmnStream<f32>) -> SkResult<R>,
    f64f: impl FnOnce(&mut SlidingCmnStream<f64>) -> SkResult<R>,
) -> SkResult<R> {
    handle::with_either::<CmnStreamF32, CmnStreamF64, _>(
        "stream",
        stream,
        ANY_STREAM,
        |s| match s {
            Either::A(s) => f32f(s),
            Either::B(s) => f64f(s),
        },
    )
}

/// Number of frames a push of `n` more frames would return now (`*frames`). Returns `SK_OK`,
/// `SK_ERR_INVALID_HANDLE`, `SK_ERR_BAD_ARGUMENT` (the input was finished), `SK_ERR_LENGTH`
/// (the frame count overflows, or its values would not fit in the address space),
/// `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`.
///
/// Real-time safe: yes.
///
/// # Safety
/// `frames` writable.
#[no_mangle]
pub unsafe extern "C" fn sk_sliding_cmn_stream_push_frames(
    stream: *const SkSlidingCmnStream,
    frames: *mut usize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_sliding_cmn_stream_push_frames", {
        check_out_scalar("frames", frames)?;
        let (f, bytes) = with_stream(
            stream,
            |s| Ok((s.push_frames(n)?, s.feats().saturating_mul(4))),
            |s| Ok((s.push_frames(n)?, s.feats().saturating_mul(8))),
        )?;
        let f = size_result("the frame count", Some(f), bytes, "frames")?;
        // SAFETY: checked non-NULL and aligned above; writable per the contract.
        unsafe { *frames = f };
        Ok(())
    })
}

/// Number of frames the finish would return now (`*frames`; 0 once finished). Returns `SK_OK`,
/// `SK_ERR_INVALID_HANDLE`, `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`.
///
/// Real-time safe: yes.
///
/// # Safety
/// `frames` writable.
#[no_mangle]
pub unsafe extern "C" fn sk_sliding_cmn_stream_finish_frames(
    stream: *const SkSlidingCmnStream,
    frames: *mut usize,
) -> i32 {
    ffi_boundary!("sk_sliding_cmn_stream_finish_frames", {
        check_out_scalar("frames", frames)?;
        let f = with_stream(stream, |s| Ok(s.finish_frames()), |s| Ok(s.finish_frames()))?;
        // SAFETY: checked non-NULL and aligned above; writable per the contract.
        unsafe { *frames = f };
        Ok(())
    })
}

/// Forgets the sequence (and a finish): the stream starts a new one. Returns `SK_OK` or
/// `SK_ERR_INVALID_HANDLE`.
///
/// Real-time safe: yes.
///
/// # Safety
/// None beyond passing any pointer value.
#[no_mangle]
pub unsafe extern "C" fn sk_sliding_cmn_stream_reset(stream: *mut SkSlidingCmnStream) -> i32 {
    ffi_boundary!("sk_sliding_cmn_stream_reset", {
        with_stream(
            stream,
            |s| {
                s.reset();
                Ok(())
            },
            |s| {
                s.reset();
                Ok(())
            },
        )
    })
}

/// Shared body of push (`x` given) and finish (`x` None).
///
/// # Safety
/// `x` readable for its length, `y` writable for `y_len`, `frames` writable.
unsafe fn push_ffi<T: StreamElem>(
    stream: *mut SkSlidingCmnStream,
    x: Option<(*const T, usize)>,
    y: *mut T,
    y_len: usize,
    frames: *mut usize,
) -> SkResult<()> {
    check_out_scalar("frames", frames)?;
    handle::with::<T::Kind, _>("stream", stream, |s| {
        let f = s.feats();
        let xb = match x {
            Some((p, n)) => {
                let len = n
                    .checked_mul(f)
                    .ok_or_else(|| SkError::Length("n × feats overflows".into()))?;
                let xb = Buf::new("x", p, len);
                xb.check()?;
                Some((xb, n))
            }
            None => None,
        };
        let want = match &xb {
            Some((_, n)) => s.push_frames(*n)?,
            None => s.finish_frames(),
        };
        let need = want
            .checked_mul(f)
            .ok_or_else(|| SkError::Length("frames × feats overflows".into()))?;
        check_capacity("y", y, y_len)?;
        if y_len < need {
            // the message only on the error path (a call that fits formats nothing)
            return Err(SkError::BufferTooSmall(format!(
                "y holds {y_len} values but frames {want} × feats {f} = {need} are needed"
            )));
        }
        let yb = Buf::out("y", y, need);
        yb.check()?;
        if let Some((xb, _)) = &xb {
            alias(xb, &yb, false)?;
        }
        // SAFETY: `yb.check()` passed for `need` ≤ `y_len` values, writable per the caller's
        // contract; disjoint from `x` (`alias` above); the slice dies with this call.
        let ys = unsafe { yb.slice_mut() };
        let got = match &xb {
            // SAFETY: `xb.check()` passed, readable per the caller's contract, disjoint from
            // `y`; the slice dies with this call.
            Some((xb, _)) => s.push(unsafe { xb.slice() }, ys)?,
            None => s.finish(ys),
        };
        // SAFETY: `frames` checked non-NULL and aligned at the top; writable per the contract.
        unsafe { *frames = got };
        Ok(())
    })
}

/// Appends `n` frames of `x` (frame-major, `feats` floats each) to the stream and writes every
/// frame whose window is now complete, normalised, to `y` (frame-major; `y_len` its capacity in
/// floats), storing their count in `*frames` (possibly 0;
/// `sk_sliding_cmn_stream_push_frames` tells it in advance). If `y` is too small, returns
/// `SK_ERR_BUFFER_TOO_SMALL` and consumes nothing. Other returns: `SK_ERR_INVALID_HANDLE`
/// (NULL/freed/a double stream), `SK_ERR_BAD_ARGUMENT` (finished stream),
/// `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`, `SK_ERR_LENGTH`, `SK_ERR_OVERLAP`. On error
/// nothing is written and the stream is unchanged.
///
/// Real-time safe: yes (the stream's frames and sums are made with it, for any block size).
///
/// # Safety
/// `x` readable for n·feats floats, `y` writable for y_len, `frames` writable.
#[no_mangle]
pub unsafe extern "C" fn sk_sliding_cmn_stream_f32_push(
    stream: *mut SkSlidingCmnStream,
    x: *const f32,
    n: usize,
    y: *mut f32,
    y_len: usize,
    frames: *mut usize,
) -> i32 {
    ffi_boundary!("sk_sliding_cmn_stream_f32_push", {
        // SAFETY: this function's contract is `push_ffi`'s.
        unsafe { push_ffi(stream, Some((x, n)), y, y_len, frames) }
    })
}

/// Push for a double stream. Rules as `sk_sliding_cmn_stream_f32_push`.
///
/// Real-time safe: yes (the stream's frames and sums are made with it, for any block size).
///
/// # Safety
/// `x` readable for n·feats doubles, `y` writable for y_len, `frames` writable.
#[no_mangle]
pub unsafe extern "C" fn sk_sliding_cmn_stream_f64_push(
    stream: *mut SkSlidingCmnStream,
    x: *const f64,
    n: usize,
    y: *mut f64,
    y_len: usize,
    frames: *mut usize,
) -> i32 {
    ffi_boundary!("sk_sliding_cmn_stream_f64_push", {
        // SAFETY: this function's contract is `push_ffi`'s.
        unsafe { push_ffi(stream, Some((x, n)), y, y_len, frames) }
    })
}

/// Ends the sequence: writes its remaining frames (those whose window reaches past its last
/// frame; their windows end there, as offline) to `y` and their count to `*frames`; later
/// pushes fail until `sk_sliding_cmn_stream_reset`, a second finish returns 0 frames. Rules as
/// `sk_sliding_cmn_stream_f32_push`.
///
/// Real-time safe: yes (the stream's frames and sums are made with it).
///
/// # Safety
/// `y` writable for y_len floats, `frames` writable.
#[no_mangle]
pub unsafe extern "C" fn sk_sliding_cmn_stream_f32_finish(
    stream: *mut SkSlidingCmnStream,
    y: *mut f32,
    y_len: usize,
    frames: *mut usize,
) -> i32 {
    ffi_boundary!("sk_sliding_cmn_stream_f32_finish", {
        // SAFETY: this function's contract is `push_ffi`'s without input.
        unsafe { push_ffi::<f32>(stream, None, y, y_len, frames) }
    })
}

/// Finish for a double stream. Rules as `sk_sliding_cmn_stream_f32_finish`.
///
/// Real-time safe: yes (the stream's frames and sums are made with it).
///
/// # Safety
/// `y` writable for y_len doubles, `frames` writable.
#[no_mangle]
pub unsafe extern "C" fn sk_sliding_cmn_stream_f64_finish(
    stream: *mut SkSlidingCmnStream,
    y: *mut f64,
    y_len: usize,
    frames: *mut usize,
) -> i32 {
    ffi_boundary!("sk_sliding_cmn_stream_f64_finish", {
        // SAFETY: this function's contract is `push_ffi`'s without input.
        unsafe { push_ffi::<f64>(stream, None, y, y_len, frames) }
    })
}
