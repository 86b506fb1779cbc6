//! Streaming YIN (`sk_yin_stream_*`): the f0 of each frame as soon as its samples arrive, equal
//! bit for bit to `sk_yin_*` on the whole signal.

use super::guard::{alias, check_capacity, check_out_scalar, ffi_boundary, Buf};
use super::handle::{self, handle_kind, Kind};
use super::pitch::pad_reflect;
use crate::error::{SkError, SkResult};
use crate::kernels::pitch::stream::YinStream;
use crate::kernels::pitch::YinParams;
use crate::kernels::Float;

/// A YIN stream (opaque; `sk_yin_stream_f32_new`/`sk_yin_stream_f64_new`, freed with
/// `sk_yin_stream_free`).
pub struct SkYinStream {
    _opaque: [u8; 0],
}

handle_kind!(
    /// A YIN stream of `float` samples behind an `SkYinStream`.
    pub(crate) YinStreamF32: YinStream as SkYinStream,
    "a float YIN stream (sk_yin_stream_f32_new)", exclusive, refuse
);
handle_kind!(
    /// A YIN stream of `double` samples behind an `SkYinStream`.
    pub(crate) YinStreamF64: YinStream as SkYinStream,
    "a double YIN stream (sk_yin_stream_f64_new)", exclusive, refuse
);

/// What the either-precision calls accept.
const ANY_STREAM: &str = "a YIN stream (sk_yin_stream_f32_new or sk_yin_stream_f64_new)";

/// Element types with their stream kinds.
trait StreamElem: Float {
    type Kind: Kind<Object = YinStream, C = SkYinStream>;
}

impl StreamElem for f32 {
    type Kind = YinStreamF32;
}

impl StreamElem for f64 {
    type Kind = YinStreamF64;
}

/// # Safety
/// `stream` writable (NULL and alignment checked here).
#[allow(clippy::too_many_arguments)]
unsafe fn stream_new<T: StreamElem>(
    sr: f64,
    fmin: f64,
    fmax: f64,
    frame_length: usize,
    hop: usize,
    trough_threshold: f64,
    center: i32,
    pad_mode: i32,
    stream: *mut *mut SkYinStream,
) -> SkResult<()> {
    let p = YinParams {
        sr,
        fmin,
        fmax,
        frame_length,
        hop,
        trough_threshold,
        center: center != 0,
        reflect: pad_reflect(pad_mode)?,
    };
    p.periods()?;
    check_out_scalar("stream", stream)?;
    let s = YinStream::new(p)?;
    // SAFETY: `stream` checked non-NULL and aligned above; writable per the contract.
    unsafe { handle::publish::<T::Kind>(s, stream) }
}

/// Creates a stream computing `sk_yin_f32` with these arguments (same meanings and rules) on
/// one signal that arrives in chunks: feed it with `sk_yin_stream_f32_push`, end it with
/// `sk_yin_stream_f32_finish`. Each frame's f0 comes out as soon as its samples are there (with
/// `center≠0` the first frames start in the zero or reflected padding, and the frames whose
/// window reaches past the end come with the finish), and the values, in order, equal one
/// `sk_yin_f32` call on the whole signal bit for bit, whatever the chunk sizes. Where
/// `sk_yin_f32` refuses a signal too short for one frame, the finish returns no frame.
/// The stream keeps the last `frame_length` samples and one frame's FFT scratch, made here.
/// Returns `SK_OK`, `SK_ERR_BAD_ARGUMENT` (an argument, named in the message),
/// `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`, `SK_ERR_ALLOCATION`; on error `*stream` is
/// untouched. Free with `sk_yin_stream_free`. One call at a time per stream (a concurrent call
/// is refused); different streams are independent.
///
/// Real-time safe: no (allocates the stream).
///
/// # Safety
/// `stream` writable.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn sk_yin_stream_f32_new(
    sr: f64,
    fmin: f64,
    fmax: f64,
    frame_length: usize,
    hop: usize,
    trough_threshold: f64,
    center: i32,
    pad_mode: i32,
    stream: *mut *mut SkYinStream,
) -> i32 {
    ffi_boundary!("sk_yin_stream_f32_new", {
        // SAFETY: this function's contract is `stream_new`'s.
        unsafe {
            stream_new::<f32>(
                sr,
                fmin,
                fmax,
                frame_length,
                hop,
                trough_threshold,
                center,
                pad_mode,
                stream,
            )
        }
    })
}

/// Creates a stream of doubles. Rules as `sk_yin_stream_f32_new`.
///
/// Real-time safe: no (allocates the stream).
///
/// # Safety
/// `stream` writable.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn sk_yin_stream_f64_new(
    sr: f64,
    fmin: f64,
    fmax: f64,
    frame_length: usize,
    hop: usize,
    trough_threshold: f64,
    center: i32,
    pad_mode: i32,
    stream: *mut *mut SkYinStream,
) -> i32 {
    ffi_boundary!("sk_yin_stream_f64_new", {
        // SAFETY: this function's contract is `stream_new`'s.
        unsafe {
            stream_new::<f64>(
                sr,
                fmin,
                fmax,
                frame_length,
                hop,
                trough_threshold,
                center,
                pad_mode,
                stream,
            )
        }
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
pub unsafe extern "C" fn sk_yin_stream_free(stream: *mut SkYinStream) -> i32 {
    ffi_boundary!("sk_yin_stream_free", {
        handle::free_either::<YinStreamF32, YinStreamF64>("stream", stream, ANY_STREAM)
    })
}

fn with_stream<R>(
    stream: *const SkYinStream,
    f: impl FnOnce(&mut YinStream) -> SkResult<R>,
) -> SkResult<R> {
    handle::with_either::<YinStreamF32, YinStreamF64, _>(
        "stream",
        stream,
        ANY_STREAM,
        |s| match s {
            handle::Either::A(s) | handle::Either::B(s) => f(s),
        },
    )
}

/// Number of frames a push of `n` more samples would return now (`*frames`). Returns `SK_OK`,
/// `SK_ERR_INVALID_HANDLE`, `SK_ERR_BAD_ARGUMENT` (the input was finished), `SK_ERR_LENGTH`
/// (the sample count overflows), `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`.
///
/// Real-time safe: yes.
///
/// # Safety
/// `frames` writable.
#[no_mangle]
pub unsafe extern "C" fn sk_yin_stream_push_frames(
    stream: *const SkYinStream,
    frames: *mut usize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_yin_stream_push_frames", {
        check_out_scalar("frames", frames)?;
        let f = with_stream(stream, |s| s.accept_frames(n))?;
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
pub unsafe extern "C" fn sk_yin_stream_finish_frames(
    stream: *const SkYinStream,
    frames: *mut usize,
) -> i32 {
    ffi_boundary!("sk_yin_stream_finish_frames", {
        check_out_scalar("frames", frames)?;
        let f = with_stream(stream, |s| Ok(s.finish_frames()))?;
        // SAFETY: checked non-NULL and aligned above; writable per the contract.
        unsafe { *frames = f };
        Ok(())
    })
}

/// Forgets the signal (and a finish): the stream starts a new one. Returns `SK_OK` or
/// `SK_ERR_INVALID_HANDLE`.
///
/// Real-time safe: yes.
///
/// # Safety
/// None beyond passing any pointer value.
#[no_mangle]
pub unsafe extern "C" fn sk_yin_stream_reset(stream: *mut SkYinStream) -> i32 {
    ffi_boundary!("sk_yin_stream_reset", {
        with_stream(stream, |s| {
            s.reset();
            Ok(())
        })
    })
}

/// Shared body of push (`x` given) and finish (`x` None).
///
/// # Safety
/// `x` readable for its length, `y` writable for `y_len`, `frames` writable.
unsafe fn push_ffi<T: StreamElem>(
    stream: *mut SkYinStream,
    x: Option<(*const T, usize)>,
    y: *mut T,
    y_len: usize,
    frames: *mut usize,
) -> SkResult<()> {
    check_out_scalar("frames", frames)?;
    handle::with::<T::Kind, _>("stream", stream, |s| {
        let xb = x.map(|(p, n)| Buf::new("x", p, n));
        if let Some(xb) = &xb {
            xb.check()?;
        }
        let want = match &xb {
            Some(xb) => s.accept_frames(xb.len)?,
            None => s.finish_frames(),
        };
        check_capacity("y", y, y_len)?;
        if y_len < want {
            // the message only on the error path (a call that fits formats nothing)
            return Err(SkError::BufferTooSmall(format!(
                "y holds {y_len} values but {want} frames are ready"
            )));
        }
        let yb = Buf::out("y", y, want);
        yb.check()?;
        if let Some(xb) = &xb {
            alias(xb, &yb, false)?;
        }
        // SAFETY: `yb.check()` passed for `want` ≤ `y_len` values, writable per the caller's
        // contract; disjoint from `x` (`alias` above); the slice dies with this call.
        let ys = unsafe { yb.slice_mut() };
        let got = match &xb {
            // SAFETY: `xb.check()` passed, readable per the caller's contract, disjoint from
            // `y`; the slice dies with this call.
            Some(xb) => s.accept(unsafe { xb.slice() }, ys)?,
            None => s.finish(ys),
        };
        // SAFETY: `frames` checked non-NULL and aligned at the top; writable per the contract.
        unsafe { *frames = got };
        Ok(())
    })
}

/// Appends `n` samples of `x` to the stream and writes the f0 (Hz) of every frame now complete
/// to `y` (`y_len` its capacity), storing their count in `*frames` (possibly 0;
/// `sk_yin_stream_push_frames` tells it in advance). If `y` is too small, returns
/// `SK_ERR_BUFFER_TOO_SMALL` and consumes nothing. Other returns: `SK_ERR_INVALID_HANDLE`
/// (NULL/freed/a double stream), `SK_ERR_BAD_ARGUMENT` (finished stream), `SK_ERR_NON_FINITE`
/// (a NaN or infinity in `x`), `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`, `SK_ERR_LENGTH`,
/// `SK_ERR_OVERLAP`. On error nothing is written and the stream is unchanged.
///
/// Real-time safe: yes (the stream's sample ring and FFT scratch are made with it; runs on the
/// calling thread).
///
/// # Safety
/// `x` readable for n floats, `y` writable for y_len, `frames` writable.
#[no_mangle]
pub unsafe extern "C" fn sk_yin_stream_f32_push(
    stream: *mut SkYinStream,
    x: *const f32,
    n: usize,
    y: *mut f32,
    y_len: usize,
    frames: *mut usize,
) -> i32 {
    ffi_boundary!("sk_yin_stream_f32_push", {
        // SAFETY: this function's contract is `push_ffi`'s.
        unsafe { push_ffi(stream, Some((x, n)), y, y_len, frames) }
    })
}

/// Push for a double stream. Rules as `sk_yin_stream_f32_push`.
///
/// Real-time safe: yes (the stream's sample ring and FFT scratch are made with it; runs on the
/// calling thread).
///
/// # Safety
/// `x` readable for n doubles, `y` writable for y_len, `frames` writable.
#[no_mangle]
pub unsafe extern "C" fn sk_yin_stream_f64_push(
    stream: *mut SkYinStream,
    x: *const f64,
    n: usize,
    y: *mut f64,
    y_len: usize,
    frames: *mut usize,
) -> i32 {
    ffi_boundary!("sk_yin_stream_f64_push", {
        // SAFETY: this function's contract is `push_ffi`'s.
        unsafe { push_ffi(stream, Some((x, n)), y, y_len, frames) }
    })
}

/// Ends the signal: writes the f0 of the remaining frames (those reaching into the end
/// padding with `center≠0`) to `y` and their count to `*frames`; later pushes fail until
/// `sk_yin_stream_reset`, a second finish returns 0 frames. Rules as `sk_yin_stream_f32_push`.
///
/// Real-time safe: yes (the stream's sample ring and FFT scratch are made with it; runs on the
/// calling thread).
///
/// # Safety
/// `y` writable for y_len floats, `frames` writable.
#[no_mangle]
pub unsafe extern "C" fn sk_yin_stream_f32_finish(
    stream: *mut SkYinStream,
    y: *mut f32,
    y_len: usize,
    frames: *mut usize,
) -> i32 {
    ffi_boundary!("sk_yin_stream_f32_finish", {
        // SAFETY: this function's contract is `push_ffi`'s without input.
        unsafe { push_ffi::<f32>(stream, None, y, y_len, frames) }
    })
}

/// Finish for a double stream. Rules as `sk_yin_stream_f32_finish`.
///
/// Real-time safe: yes (the stream's sample ring and FFT scratch are made with it; runs on the
/// calling thread).
///
/// # Safety
/// `y` writable for y_len doubles, `frames` writable.
#[no_mangle]
pub unsafe extern "C" fn sk_yin_stream_f64_finish(
    stream: *mut SkYinStream,
    y: *mut f64,
    y_len: usize,
    frames: *mut usize,
) -> i32 {
    ffi_boundary!("sk_yin_stream_f64_finish", {
        // SAFETY: this function's contract is `push_ffi`'s without input.
        unsafe { push_ffi::<f64>(stream, None, y, y_len, frames) }
    })
}
