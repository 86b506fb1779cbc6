//! Streaming time-stretch (`SkStretchStream` handles): `sk_time_stretch_*` fed block by block,
//! with a live rate. The state is `double`; the same handle takes `float` and `double` blocks.

use super::guard::{alias, check_out_scalar, ffi_boundary, Buf};
use super::handle::{self, handle_kind};
use super::stft::parse_pad;
use crate::error::{SkError, SkResult};
use crate::kernels::spectral::stretch_stream::{StreamParams, StretchStream};
use crate::kernels::Float;

/// Opaque handle of a streaming time-stretch, made by `sk_stretch_stream_new` and released by
/// `sk_stretch_stream_free`.
pub struct SkStretchStream {
    _private: [u8; 0],
}

handle_kind!(
    /// A streaming time-stretch behind an `SkStretchStream` (state in `double`).
    pub(crate) StretchKind: StretchStream as SkStretchStream,
    "a streaming time-stretch (sk_stretch_stream_new)",
    exclusive, defer
);

fn with_st<R>(
    h: *const SkStretchStream,
    f: impl FnOnce(&mut StretchStream) -> SkResult<R>,
) -> SkResult<R> {
    handle::with::<StretchKind, R>("stream", h, f)
}

/// Creates a streaming time-stretch: blocks pushed with `sk_stretch_stream_process_*` and ended
/// with `sk_stretch_stream_flush_*` give, concatenated, `sk_time_stretch_*` of the whole signal
/// with the same parameters (bit for bit, while the rate is not changed). `rate` may be changed
/// between blocks with `sk_stretch_stream_set_rate`, within `[min_rate, max_rate]`.
///
/// Arguments: `window` holds win_length doubles (copied); `n_fft`, `hop`, `win_length`,
/// `center`, `pad_mode` as `sk_time_stretch_f32`; `max_block`: the most samples one process call
/// takes (1..=2^24). All memory is taken here; the output capacity each call needs is
/// `sk_stretch_stream_max_out`.
///
/// Returns `SK_OK`, `SK_ERR_BAD_ARGUMENT` (rates not finite and positive or not `min_rate <=
/// rate <= max_rate <= 1024`, max_block, an output capacity past 2^28 samples, STFT parameters as `sk_time_stretch_len`, a non-finite
/// window value), `SK_ERR_LENGTH`, `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`,
/// `SK_ERR_ALLOCATION`; on error `*stream` is untouched. Free with `sk_stretch_stream_free`.
/// Calls on one handle run one at a time (another thread's concurrent call gets
/// `SK_ERR_INVALID_HANDLE`, "in use").
///
/// Real-time safe: no (allocates).
///
/// # Safety
/// `window` readable for win_length doubles, `stream` writable.
#[no_mangle]
pub unsafe extern "C" fn sk_stretch_stream_new(
    window: *const f64,
    n_fft: usize,
    hop: usize,
    win_length: usize,
    center: i32,
    pad_mode: i32,
    rate: f64,
    min_rate: f64,
    max_rate: f64,
    max_block: usize,
    stream: *mut *mut SkStretchStream,
) -> i32 {
    ffi_boundary!("sk_stretch_stream_new", {
        check_out_scalar("stream", stream)?;
        let sp = StreamParams {
            n_fft,
            hop,
            win_length,
            center: center != 0,
            pad_mode: parse_pad(pad_mode)?,
            rate,
            min_rate,
            max_rate,
            max_block,
        };
        // the STFT parameters first, so that win_length is valid before the window is read
        crate::kernels::spectral::vocoder::StretchParams {
            rate,
            n_fft,
            hop,
            win_length,
            center: sp.center,
            pad_mode: sp.pad_mode,
        }
        .check()?;
        let wb = Buf::new("window", window, win_length);
        wb.check()?;
        // SAFETY: `wb.check()` passed; readable is the caller's `# Safety` obligation; the
        // stream copies the window.
        let ws = unsafe { wb.slice() };
        if let Some(i) = ws.iter().position(|w| !w.is_finite()) {
            return Err(SkError::BadArgument(format!(
                "window[{i}] = {} is not finite",
                ws[i]
            )));
        }
        let s = StretchStream::new(ws, &sp)?;
        // SAFETY: `stream` checked non-NULL and aligned above; writable is the contract.
        unsafe { handle::publish::<StretchKind>(s, stream) }
    })
}

/// Frees a streaming time-stretch. NULL is accepted (no-op, `SK_OK`). A handle that is not
/// live (already freed, never created) or of another kind is `SK_ERR_INVALID_HANDLE`, detected
/// without reading it.
///
/// Real-time safe: no (frees).
///
/// # Safety
/// None beyond passing a pointer value; it is never dereferenced.
#[no_mangle]
pub unsafe extern "C" fn sk_stretch_stream_free(stream: *mut SkStretchStream) -> i32 {
    ffi_boundary!("sk_stretch_stream_free", {
        handle::free::<StretchKind>("stream", stream)
    })
}

/// Stores in `*out` the output capacity (samples) every `sk_stretch_stream_process_*` and
/// `sk_stretch_stream_flush_*` call needs, fixed at creation from max_block, n_fft, hop,
/// min_rate and max_rate.
///
/// Returns `SK_OK`, `SK_ERR_INVALID_HANDLE`, `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`.
///
/// Real-time safe: yes.
///
/// # Safety
/// `out` writable.
#[no_mangle]
pub unsafe extern "C" fn sk_stretch_stream_max_out(
    stream: *mut SkStretchStream,
    out: *mut usize,
) -> i32 {
    ffi_boundary!("sk_stretch_stream_max_out", {
        check_out_scalar("out", out)?;
        let m = with_st(stream, |s| Ok(s.max_out()))?;
        // SAFETY: checked non-NULL and aligned above; writable is the contract.
        unsafe { *out = m };
        Ok(())
    })
}

/// Stores in `*out` the number of output frames (hops) made since the signal started. The
/// rate set by `sk_stretch_stream_set_rate` applies from frame `*out` on: that frame reads the
/// input position of frame `*out − 1` plus the new rate.
///
/// Returns `SK_OK`, `SK_ERR_INVALID_HANDLE`, `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`.
///
/// Real-time safe: yes.
///
/// # Safety
/// `out` writable.
#[no_mangle]
pub unsafe extern "C" fn sk_stretch_stream_frames(
    stream: *mut SkStretchStream,
    out: *mut usize,
) -> i32 {
    ffi_boundary!("sk_stretch_stream_frames", {
        check_out_scalar("out", out)?;
        let m = with_st(stream, |s| Ok(s.frames_out()))?;
        // SAFETY: checked non-NULL and aligned above; writable is the contract.
        unsafe { *out = m };
        Ok(())
    })
}

/// Sets the rate (> 1 faster) of the output frames made from now on: the next output frame
/// reads the input one `rate` of frames after the previous output frame's position. At the
/// end of the signal its length is the input length mapped through the rates' piecewise
/// clock, `round(hop·t0 + (n − hop·s0) / rate)` with `t0` the output frame of the last change and
/// `s0` its input position (`round(n / rate)` without a change), and never less than what was
/// already returned.
///
/// Returns `SK_OK`, `SK_ERR_BAD_ARGUMENT` (not finite, or outside the `[min_rate, max_rate]`
/// given at creation; the rate is then unchanged), `SK_ERR_INVALID_HANDLE`.
///
/// Real-time safe: yes.
///
/// # Safety
/// None beyond passing a pointer value.
#[no_mangle]
pub unsafe extern "C" fn sk_stretch_stream_set_rate(
    stream: *mut SkStretchStream,
    rate: f64,
) -> i32 {
    ffi_boundary!("sk_stretch_stream_set_rate", {
        with_st(stream, |s| s.set_rate(rate))
    })
}

/// Forgets the signal (the next block starts a new one); the rate stays.
/// Returns `SK_OK` or `SK_ERR_INVALID_HANDLE`.
///
/// Real-time safe: yes.
///
/// # Safety
/// None beyond passing a pointer value.
#[no_mangle]
pub unsafe extern "C" fn sk_stretch_stream_reset(stream: *mut SkStretchStream) -> i32 {
    ffi_boundary!("sk_stretch_stream_reset", {
        with_st(stream, |s| {
            s.reset();
            Ok(())
        })
    })
}

/// One process or flush call through the C arguments (`x` NULL with `n = 0` for a flush).
///
/// # Safety
/// `x` readable for `n` elements (unless flushing), `y` writable for `y_len`, `written`
/// writable.
unsafe fn run<T: Float>(
    stream: *mut SkStretchStream,
    x: Option<(*const T, usize)>,
    y: *mut T,
    y_len: usize,
    written: *mut usize,
) -> SkResult<()> {
    check_out_scalar("written", written)?;
    with_st(stream, |s| {
        let yb = Buf::out("y", y, y_len);
        yb.check()?;
        if y_len < s.max_out() {
            return Err(SkError::BufferTooSmall(format!(
                "y holds {y_len} samples but the stream may return up to {} \
                 (sk_stretch_stream_max_out)",
                s.max_out()
            )));
        }
        let w = match x {
            Some((x, n)) => {
                if n > s.max_block() {
                    return Err(SkError::BadArgument(format!(
                        "n = {n} exceeds the stream's max_block = {}",
                        s.max_block()
                    )));
                }
                let xb = Buf::new("x", x, n);
                xb.check()?;
                alias(&xb, &yb, false)?;
                // SAFETY: both checked; disjoint by `alias`; readable / writable is the
                // caller's obligation; the slices die with this call.
                let (xs, ys) = unsafe { (xb.slice(), yb.slice_mut()) };
                s.process(xs, ys)?
            }
            None => {
                // SAFETY: `yb` checked; writable is the caller's obligation.
                let ys = unsafe { yb.slice_mut() };
                s.flush(ys)?
            }
        };
        // SAFETY: checked non-NULL and aligned above; writable is the contract.
        unsafe { *written = w };
        Ok(())
    })
}

/// Appends `n` float samples (at most max_block) and writes the output samples now final to
/// `y`, their count to `*written` (0 while the first frames fill). `y_len` must be at least
/// `sk_stretch_stream_max_out` (else `SK_ERR_BUFFER_TOO_SMALL`, with nothing consumed).
///
/// Returns `SK_OK`, `SK_ERR_BAD_ARGUMENT` (n > max_block), `SK_ERR_BUFFER_TOO_SMALL`,
/// `SK_ERR_LENGTH` (y_len past the address space), `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`, `SK_ERR_OVERLAP` (y overlaps x),
/// `SK_ERR_INVALID_HANDLE`; on error the stream and `y` are unchanged.
///
/// Real-time safe: yes (after creation, for blocks of up to max_block samples).
///
/// # Safety
/// `x` readable for `n` floats, `y` writable for `y_len` floats, `written` writable.
#[no_mangle]
pub unsafe extern "C" fn sk_stretch_stream_process_f32(
    stream: *mut SkStretchStream,
    x: *const f32,
    n: usize,
    y: *mut f32,
    y_len: usize,
    written: *mut usize,
) -> i32 {
    ffi_boundary!("sk_stretch_stream_process_f32", {
        // SAFETY: this function's `# Safety` contract is `run`'s.
        unsafe { run(stream, Some((x, n)), y, y_len, written) }
    })
}

/// Process of doubles. Rules as `sk_stretch_stream_process_f32` (8-byte alignment).
///
/// Real-time safe: yes (after creation, for blocks of up to max_block samples).
///
/// # Safety
/// `x` readable for `n` doubles, `y` writable for `y_len` doubles, `written` writable.
#[no_mangle]
pub unsafe extern "C" fn sk_stretch_stream_process_f64(
    stream: *mut SkStretchStream,
    x: *const f64,
    n: usize,
    y: *mut f64,
    y_len: usize,
    written: *mut usize,
) -> i32 {
    ffi_boundary!("sk_stretch_stream_process_f64", {
        // SAFETY: this function's `# Safety` contract is `run`'s.
        unsafe { run(stream, Some((x, n)), y, y_len, written) }
    })
}

/// Ends the signal: pads its end, writes the remaining output samples to `y` and their count
/// to `*written`; the stream then starts a new signal at the current rate. `y_len` must be at
/// least `sk_stretch_stream_max_out`.
///
/// Returns `SK_OK`, `SK_ERR_LENGTH` (no samples since the start), `SK_ERR_BAD_ARGUMENT` (a
/// signal shorter than a frame, as `sk_time_stretch_len`), `SK_ERR_BUFFER_TOO_SMALL`, `SK_ERR_LENGTH`
/// (y_len past the address space),
/// `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`, `SK_ERR_INVALID_HANDLE`; on error the stream and
/// `y` are unchanged.
///
/// Real-time safe: yes (after creation).
///
/// # Safety
/// `y` writable for `y_len` floats, `written` writable.
#[no_mangle]
pub unsafe extern "C" fn sk_stretch_stream_flush_f32(
    stream: *mut SkStretchStream,
    y: *mut f32,
    y_len: usize,
    written: *mut usize,
) -> i32 {
    ffi_boundary!("sk_stretch_stream_flush_f32", {
        // SAFETY: this function's `# Safety` contract is `run`'s.
        unsafe { run::<f32>(stream, None, y, y_len, written) }
    })
}

/// Flush of doubles. Rules as `sk_stretch_stream_flush_f32` (8-byte alignment).
///
/// Real-time safe: yes (after creation).
///
/// # Safety
/// `y` writable for `y_len` doubles, `written` writable.
#[no_mangle]
pub unsafe extern "C" fn sk_stretch_stream_flush_f64(
    stream: *mut SkStretchStream,
    y: *mut f64,
    y_len: usize,
    written: *mut usize,
) -> i32 {
    ffi_boundary!("sk_stretch_stream_flush_f64", {
        // SAFETY: this function's `# Safety` contract is `run`'s.
        unsafe { run::<f64>(stream, None, y, y_len, written) }
    })
}
