//! Streaming Kaldi features (`sk_kaldi_online_*`): fbank / MFCC / spectrogram frames as soon as
//! their samples arrive, equal bit for bit to `sk_kaldi_*` on the whole signal.

use super::guard::{alias, check_capacity, check_out_scalar, ffi_boundary, Buf};
use super::handle::{self, handle_kind, Either, Kind};
use super::kaldi::{read_plan, SkKaldiOptions};
use crate::error::{SkError, SkResult};
use crate::kernels::speech::kaldi::{KaldiFloat, KaldiOptions};
use crate::kernels::speech::kaldi_online::KaldiOnline;

/// A Kaldi feature stream (opaque; `sk_kaldi_online_f32_new`/`sk_kaldi_online_f64_new`, freed
/// with `sk_kaldi_online_free`).
pub struct SkKaldiOnline {
    _opaque: [u8; 0],
}

handle_kind!(
    /// A `float` Kaldi feature stream behind an `SkKaldiOnline`.
    pub(crate) OnlineF32: KaldiOnline<f32> as SkKaldiOnline,
    "a float Kaldi feature stream (sk_kaldi_online_f32_new)", exclusive, refuse
);
handle_kind!(
    /// A `double` Kaldi feature stream behind an `SkKaldiOnline`.
    pub(crate) OnlineF64: KaldiOnline<f64> as SkKaldiOnline,
    "a double Kaldi feature stream (sk_kaldi_online_f64_new)", exclusive, refuse
);

/// What the either-precision calls accept.
const ANY_ONLINE: &str =
    "a Kaldi feature stream (sk_kaldi_online_f32_new or sk_kaldi_online_f64_new)";

/// Element types with their stream kinds.
trait OnlineElem: KaldiFloat {
    type Kind: Kind<Object = KaldiOnline<Self>, C = SkKaldiOnline>;
}

impl OnlineElem for f32 {
    type Kind = OnlineF32;
}

impl OnlineElem for f64 {
    type Kind = OnlineF64;
}

/// # Safety
/// `opts` readable, `stream` writable (NULL and alignment checked here).
unsafe fn online_new<T: OnlineElem>(
    kind: i32,
    opts: *const SkKaldiOptions,
    stream: *mut *mut SkKaldiOnline,
) -> SkResult<()> {
    // SAFETY: `opts` per the caller's contract; NULL and alignment are checked inside.
    let (p, seed) = unsafe { read_plan::<T>(kind, opts)? };
    check_out_scalar("stream", stream)?;
    let s = KaldiOnline::<T>::new(p.feature, KaldiOptions { seed, ..p.opts })?;
    // SAFETY: `stream` checked non-NULL and aligned above; writable per the contract.
    unsafe { handle::publish::<T::Kind>(s, stream) }
}

/// Creates a stream of Kaldi features of `kind` (`SK_KALDI_*`) with the options `*opts` (as
/// `sk_kaldi_f32`; `subtract_mean` and `min_duration` need the whole signal and are refused).
/// Feed it with `sk_kaldi_online_f32_accept`, end with `sk_kaldi_online_f32_finish`: each frame
/// comes out as soon as its samples are there (Kaldi's online rule; without `snip_edges` the
/// frames that reflect at the end come with the finish), and the frames, in order, equal one
/// `sk_kaldi_f32` call on the whole signal bit for bit (dither included: frame `i` uses the
/// noise of `(opts->seed, 0, i)`), whatever the chunk sizes. A signal shorter than one frame
/// gets no frame from the finish.
/// Returns `SK_OK`, `SK_ERR_BAD_ARGUMENT` (an option, named in the message), `SK_ERR_NULL_POINTER`,
/// `SK_ERR_MISALIGNED`, `SK_ERR_LENGTH`, `SK_ERR_ALLOCATION`; on error `*stream` is untouched.
/// Free with `sk_kaldi_online_free`. One call at a time per stream (a concurrent call is
/// refused); different streams are independent.
///
/// Real-time safe: no (allocates the stream).
///
/// # Safety
/// `opts` readable, `stream` writable.
#[no_mangle]
pub unsafe extern "C" fn sk_kaldi_online_f32_new(
    kind: i32,
    opts: *const SkKaldiOptions,
    stream: *mut *mut SkKaldiOnline,
) -> i32 {
    ffi_boundary!("sk_kaldi_online_f32_new", {
        // SAFETY: this function's contract is `online_new`'s.
        unsafe { online_new::<f32>(kind, opts, stream) }
    })
}

/// Creates a stream of doubles. Rules as `sk_kaldi_online_f32_new`.
///
/// Real-time safe: no (allocates the stream).
///
/// # Safety
/// `opts` readable, `stream` writable.
#[no_mangle]
pub unsafe extern "C" fn sk_kaldi_online_f64_new(
    kind: i32,
    opts: *const SkKaldiOptions,
    stream: *mut *mut SkKaldiOnline,
) -> i32 {
    ffi_boundary!("sk_kaldi_online_f64_new", {
        // SAFETY: this function's contract is `online_new`'s.
        unsafe { online_new::<f64>(kind, opts, stream) }
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
pub unsafe extern "C" fn sk_kaldi_online_free(stream: *mut SkKaldiOnline) -> i32 {
    ffi_boundary!("sk_kaldi_online_free", {
        handle::free_either::<OnlineF32, OnlineF64>("stream", stream, ANY_ONLINE)
    })
}

fn with_online<R>(
    stream: *const SkKaldiOnline,
    f32f: impl FnOnce(&mut KaldiOnline<f32>) -> SkResult<R>,
    f64f: impl FnOnce(&mut KaldiOnline<f64>) -> SkResult<R>,
) -> SkResult<R> {
    handle::with_either::<OnlineF32, OnlineF64, _>("stream", stream, ANY_ONLINE, |s| match s {
        Either::A(s) => f32f(s),
        Either::B(s) => f64f(s),
    })
}

/// Describes a stream: `*dim` values a frame, `*frames` frames returned so far, `*samples`
/// samples accepted so far, `*finished` 1 after the finish (0 before). Any output pointer may be
/// NULL (not written). Returns `SK_OK`, `SK_ERR_INVALID_HANDLE`, `SK_ERR_MISALIGNED`.
///
/// Real-time safe: yes.
///
/// # Safety
/// Each non-NULL output writable.
#[no_mangle]
pub unsafe extern "C" fn sk_kaldi_online_info(
    stream: *const SkKaldiOnline,
    dim: *mut usize,
    frames: *mut usize,
    samples: *mut usize,
    finished: *mut i32,
) -> i32 {
    ffi_boundary!("sk_kaldi_online_info", {
        let v = with_online(
            stream,
            |s| {
                Ok((
                    s.plan().dim(),
                    s.frames_done(),
                    s.samples(),
                    s.is_finished(),
                ))
            },
            |s| {
                Ok((
                    s.plan().dim(),
                    s.frames_done(),
                    s.samples(),
                    s.is_finished(),
                ))
            },
        )?;
        for (name, p) in [("dim", dim), ("frames", frames), ("samples", samples)] {
            if !p.is_null() {
                check_out_scalar(name, p)?;
            }
        }
        if !finished.is_null() {
            check_out_scalar("finished", finished)?;
        }
        // SAFETY: each pointer written is non-NULL and aligned (checked above) and writable per
        // this function's contract.
        unsafe {
            if !dim.is_null() {
                *dim = v.0;
            }
            if !frames.is_null() {
                *frames = v.1;
            }
            if !samples.is_null() {
                *samples = v.2;
            }
            if !finished.is_null() {
                *finished = i32::from(v.3);
            }
        }
        Ok(())
    })
}

/// Number of frames an accept of `n` more samples would return now (`*frames`). Returns
/// `SK_OK`, `SK_ERR_INVALID_HANDLE`, `SK_ERR_BAD_ARGUMENT` (the input was finished),
/// `SK_ERR_LENGTH` (the sample count overflows), `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`.
///
/// Real-time safe: yes.
///
/// # Safety
/// `frames` writable.
#[no_mangle]
pub unsafe extern "C" fn sk_kaldi_online_accept_frames(
    stream: *const SkKaldiOnline,
    frames: *mut usize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_kaldi_online_accept_frames", {
        check_out_scalar("frames", frames)?;
        let f = with_online(stream, |s| s.accept_frames(n), |s| s.accept_frames(n))?;
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
pub unsafe extern "C" fn sk_kaldi_online_finish_frames(
    stream: *const SkKaldiOnline,
    frames: *mut usize,
) -> i32 {
    ffi_boundary!("sk_kaldi_online_finish_frames", {
        check_out_scalar("frames", frames)?;
        let f = with_online(stream, |s| Ok(s.finish_frames()), |s| Ok(s.finish_frames()))?;
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
pub unsafe extern "C" fn sk_kaldi_online_reset(stream: *mut SkKaldiOnline) -> i32 {
    ffi_boundary!("sk_kaldi_online_reset", {
        with_online(
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

/// Shared body of accept (`x` given) and finish (`x` None).
///
/// # Safety
/// `x` readable for its length, `y` writable for `y_len`, `frames` writable.
unsafe fn accept_ffi<T: OnlineElem>(
    stream: *mut SkKaldiOnline,
    x: Option<(*const T, usize)>,
    y: *mut T,
    y_len: usize,
    frames: *mut usize,
) -> SkResult<()> {
    check_out_scalar("frames", frames)?;
    handle::with::<T::Kind, _>("stream", stream, |s| {
        let d = s.plan().dim();
        let xb = x.map(|(p, n)| Buf::new("x", p, n));
        if let Some(xb) = &xb {
            xb.check()?;
        }
        let want = match &xb {
            Some(xb) => s.accept_frames(xb.len)?,
            None => s.finish_frames(),
        };
        let need = want
            .checked_mul(d)
            .ok_or_else(|| SkError::Length("frames × dim overflows".into()))?;
        check_capacity("y", y, y_len)?;
        if y_len < need {
            // the message only on the error path (a call that fits formats nothing)
            return Err(SkError::BufferTooSmall(format!(
                "y holds {y_len} values but frames {want} × dim {d} = {need} are needed"
            )));
        }
        let yb = Buf::out("y", y, need);
        yb.check()?;
        if let Some(xb) = &xb {
            alias(xb, &yb, false)?;
        }
        // SAFETY: `yb.check()` passed for `need` ≤ `y_len` values, writable per the caller's
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

/// Appends `n` samples of `x` to the stream and writes every frame now complete to `y`
/// (frame-major, `dim` values each; `y_len` its capacity), storing their count in `*frames`
/// (possibly 0; `sk_kaldi_online_accept_frames` tells it in advance). If `y` is too small,
/// returns `SK_ERR_BUFFER_TOO_SMALL` and consumes nothing. Other returns:
/// `SK_ERR_INVALID_HANDLE` (NULL/freed/a double stream), `SK_ERR_BAD_ARGUMENT` (finished
/// stream), `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`, `SK_ERR_LENGTH`, `SK_ERR_OVERLAP`. On
/// error nothing is written and the stream is unchanged.
///
/// Real-time safe: yes (the stream's buffers and FFT workspace are made with it).
///
/// # Safety
/// `x` readable for n floats, `y` writable for y_len, `frames` writable.
#[no_mangle]
pub unsafe extern "C" fn sk_kaldi_online_f32_accept(
    stream: *mut SkKaldiOnline,
    x: *const f32,
    n: usize,
    y: *mut f32,
    y_len: usize,
    frames: *mut usize,
) -> i32 {
    ffi_boundary!("sk_kaldi_online_f32_accept", {
        // SAFETY: this function's contract is `accept_ffi`'s.
        unsafe { accept_ffi(stream, Some((x, n)), y, y_len, frames) }
    })
}

/// Accept for a double stream. Rules as `sk_kaldi_online_f32_accept`.
///
/// Real-time safe: yes (the stream's buffers and FFT workspace are made with it).
///
/// # Safety
/// `x` readable for n doubles, `y` writable for y_len, `frames` writable.
#[no_mangle]
pub unsafe extern "C" fn sk_kaldi_online_f64_accept(
    stream: *mut SkKaldiOnline,
    x: *const f64,
    n: usize,
    y: *mut f64,
    y_len: usize,
    frames: *mut usize,
) -> i32 {
    ffi_boundary!("sk_kaldi_online_f64_accept", {
        // SAFETY: this function's contract is `accept_ffi`'s.
        unsafe { accept_ffi(stream, Some((x, n)), y, y_len, frames) }
    })
}

/// Ends the input (kaldi_native_fbank's `input_finished`): writes the remaining frames (those
/// that reflect at the end without `snip_edges`) to `y` and their count to `*frames`; later
/// accepts fail until `sk_kaldi_online_reset`, a second finish returns 0 frames. Rules as
/// `sk_kaldi_online_f32_accept`.
///
/// Real-time safe: yes (the stream's buffers and FFT workspace are made with it).
///
/// # Safety
/// `y` writable for y_len floats, `frames` writable.
#[no_mangle]
pub unsafe extern "C" fn sk_kaldi_online_f32_finish(
    stream: *mut SkKaldiOnline,
    y: *mut f32,
    y_len: usize,
    frames: *mut usize,
) -> i32 {
    ffi_boundary!("sk_kaldi_online_f32_finish", {
        // SAFETY: this function's contract is `accept_ffi`'s without input.
        unsafe { accept_ffi::<f32>(stream, None, y, y_len, frames) }
    })
}

/// Finish for a double stream. Rules as `sk_kaldi_online_f32_finish`.
///
/// Real-time safe: yes (the stream's buffers and FFT workspace are made with it).
///
/// # Safety
/// `y` writable for y_len doubles, `frames` writable.
#[no_mangle]
pub unsafe extern "C" fn sk_kaldi_online_f64_finish(
    stream: *mut SkKaldiOnline,
    y: *mut f64,
    y_len: usize,
    frames: *mut usize,
) -> i32 {
    ffi_boundary!("sk_kaldi_online_f64_finish", {
        // SAFETY: this function's contract is `accept_ffi`'s without input.
        unsafe { accept_ffi::<f64>(stream, None, y, y_len, frames) }
    })
}
