//! STFT, inverse STFT and the streaming STFT handle (`SkStftStream`), with torch semantics.
//!
//! Layout of spectrograms (in and out): frame-major, `frames × n_freq` complex values
//! interleaved re/im, value `(f, t)` at complex index `t·n_freq + f`. That is the memory of
//! `torch.stft(..., return_complex=True)`'s result (shape `(n_freq, frames)`, strides
//! `(1, n_freq)`); numpy: `Y = np.frombuffer(...).view(complex).reshape(frames, n_freq).T`.
//! `n_freq` is `n_fft/2 + 1` when `onesided ≠ 0`, else `n_fft`.
//!
//! Parameters shared by all functions, as torch's: `n_fft ≥ 1`; `hop` (torch's hop_length)
//! with `1 ≤ hop ≤ win_length`; `1 ≤ win_length ≤ n_fft`, the window (win_length values) is
//! zero-padded centred to n_fft as torch does; `center ≠ 0` pads n_fft/2 samples on each side
//! with `pad_mode` `SK_PAD_REFLECT` (torch's default; needs a signal longer than n_fft/2) or
//! `SK_PAD_CONSTANT` (zeros); `normalized ≠ 0` scales by 1/√n_fft.

use super::guard::{alias, check_out_scalar, ffi_boundary, size_result, Buf};
use super::handle::{self, handle_kind, Either, Kind};
use super::spec::SpecFloat;
use crate::error::{SkError, SkResult};
use crate::kernels::spectral::stft::{
    istft, istft_default_len, stft, PadMode, StftParams, StftStream,
};
use crate::kernels::spectral::Complex;
use std::sync::{Mutex, MutexGuard};

/// `center` padding with zeros.
pub const SK_PAD_CONSTANT: i32 = 0;
/// `center` padding by reflection (torch's default `pad_mode="reflect"`).
pub const SK_PAD_REFLECT: i32 = 1;

/// A streaming STFT (opaque; `sk_stft_stream_f32_new`/`sk_stft_stream_f64_new`, freed with
/// `sk_stft_stream_free`).
pub struct SkStftStream {
    _opaque: [u8; 0],
}

handle_kind!(
    /// A `float` STFT stream behind an `SkStftStream` (calls serialised by its lock).
    pub(crate) StreamF32: Mutex<StftStream<f32>> as SkStftStream, "a float STFT stream",
    shared, defer
);
handle_kind!(
    /// A `double` STFT stream behind an `SkStftStream`.
    pub(crate) StreamF64: Mutex<StftStream<f64>> as SkStftStream, "a double STFT stream",
    shared, defer
);

/// What the either-precision calls of an STFT stream accept.
const ANY_STREAM: &str = "an STFT stream";

/// Element types with their STFT stream kinds.
trait StreamElem: SpecFloat {
    type Stream: Kind<Object = Mutex<StftStream<Self>>, C = SkStftStream>;
}

impl StreamElem for f32 {
    type Stream = StreamF32;
}

impl StreamElem for f64 {
    type Stream = StreamF64;
}

/// Locks a stream (a panic inside an earlier call does not make the stream unusable: its state
/// is only changed after every check passed).
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

pub(crate) fn parse_pad(pad_mode: i32) -> SkResult<PadMode> {
    match pad_mode {
        SK_PAD_CONSTANT => Ok(PadMode::Constant),
        SK_PAD_REFLECT => Ok(PadMode::Reflect),
        _ => Err(SkError::BadArgument(format!(
            "pad_mode = {pad_mode} is not SK_PAD_CONSTANT (0) or SK_PAD_REFLECT (1)"
        ))),
    }
}

#[allow(clippy::too_many_arguments)]
pub(crate) fn params(
    n_fft: usize,
    hop: usize,
    win_length: usize,
    center: i32,
    pad_mode: i32,
    onesided: i32,
    normalized: i32,
) -> SkResult<StftParams> {
    let p = StftParams {
        n_fft,
        hop,
        win_length,
        center: center != 0,
        pad_mode: parse_pad(pad_mode)?,
        onesided: onesided != 0,
        normalized: normalized != 0,
    };
    p.check()?;
    Ok(p)
}

/// Checks a complex output of capacity `cap` complex values against `need`.
pub(crate) fn complex_out<T>(
    name: &'static str,
    y: *mut T,
    cap: usize,
    need: usize,
    what: &str,
) -> SkResult<Buf<T>> {
    let doubles = cap.checked_mul(2).ok_or_else(|| {
        SkError::Length(format!(
            "{name}_len = {cap} complex values overflow the address space"
        ))
    })?;
    Buf::out(name, y, doubles).check()?;
    if cap < need {
        return Err(SkError::BufferTooSmall(format!(
            "{name} holds {cap} complex values but {what} = {need} are needed"
        )));
    }
    Ok(Buf::out(name, y, 2 * need))
}

/// The complex view of a checked output buffer of interleaved `(re, im)` pairs.
///
/// # Safety
/// As [`Buf::slice_mut`]: `b` passed `Buf::check` (as every `Buf` from `complex_out` has) and is
/// writable for its length during `'a`, with no other live view of that memory.
unsafe fn as_cplx_mut<'a, T>(b: &Buf<T>) -> &'a mut [Complex<T>] {
    // SAFETY: `Buf::slice_mut`'s obligations are this function's `# Safety` contract.
    // `Complex<T>` is `#[repr(C)] {re, im}` with `T`'s alignment, so the float slice (even: 2·need
    // from `complex_out`) reinterprets as `len / 2` complex values covering the same memory, and
    // the float view is not used again.
    unsafe {
        let s = b.slice_mut();
        std::slice::from_raw_parts_mut(s.as_mut_ptr() as *mut Complex<T>, s.len() / 2)
    }
}

/// A frame count under the one size rule ([`size_result`]): the frames' `n_freq` complex floats
/// must fit in the address space (`what` names the count in the message).
fn frames_result(frames: usize, n_freq: usize, what: std::fmt::Arguments<'_>) -> SkResult<usize> {
    size_result(
        what,
        Some(frames),
        n_freq.saturating_mul(8),
        format_args!("frames of {n_freq} complex floats"),
    )
}

/// Number of STFT frames of an n-sample signal: `1 + (n + 2·pad − n_fft) / hop` with
/// `pad = center ? n_fft/2 : 0`, stored in `*frames`. Allocate `frames × n_freq` complex values
/// for `sk_stft_*`.
///
/// Returns `SK_OK`; `SK_ERR_LENGTH` (n_fft = 0 or > 2^28, `n + 2·pad` overflows `size_t`, or
/// more frames of `n_fft/2+1` complex floats than a buffer can hold, `PTRDIFF_MAX` bytes);
/// `SK_ERR_BAD_ARGUMENT` (hop = 0, hop >
/// win_length, win_length outside 1..=n_fft, bad pad_mode, reflect padding with n ≤ n_fft/2, a
/// padded signal shorter than n_fft); `SK_ERR_NULL_POINTER`/`SK_ERR_MISALIGNED` (frames). On
/// error `*frames` is untouched. Thread-safe.
///
/// Real-time safe: yes.
///
/// # Safety
/// `frames` writable.
#[no_mangle]
pub unsafe extern "C" fn sk_stft_frames(
    n_fft: usize,
    hop: usize,
    win_length: usize,
    center: i32,
    pad_mode: i32,
    frames: *mut usize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_stft_frames", {
        check_out_scalar("frames", frames)?;
        let p = params(n_fft, hop, win_length, center, pad_mode, 1, 0)?;
        let f = frames_result(
            p.frames(n)?,
            p.n_freq(),
            format_args!("the frame count for n = {n} samples"),
        )?;
        // SAFETY: `check_out_scalar("frames", ..)` above established non-NULL and aligned;
        // writable is this function's `# Safety` contract.
        unsafe { *frames = f };
        Ok(())
    })
}

/// One STFT through the C arguments.
///
/// # Safety
/// `x` readable for `n` elements, `window` for `p.win_length`, `y` writable for `2·y_len`
/// elements, for the duration of the call; NULL, alignment, sizes and overlap are checked here.
#[allow(clippy::too_many_arguments)]
unsafe fn stft_ffi<T: SpecFloat>(
    x: *const T,
    window: *const T,
    p: StftParams,
    y: *mut T,
    y_len: usize,
    n: usize,
) -> SkResult<()> {
    let xb = Buf::new("x", x, n);
    let wb = Buf::new("window", window, p.win_length);
    xb.check()?;
    wb.check()?;
    let frames = p.frames(n)?;
    let need = frames
        .checked_mul(p.n_freq())
        .ok_or_else(|| SkError::Length("frames × n_freq overflows".into()))?;
    let yb = complex_out(
        "y",
        y,
        y_len,
        need,
        &format!("frames {frames} × n_freq {}", p.n_freq()),
    )?;
    alias(&xb, &yb, false)?;
    alias(&wb, &yb, false)?;
    // SAFETY: `xb`, `wb` passed `check()` and `yb` came from `complex_out` (checked, `2·need`
    // floats within `y_len`); `alias(.., false)` proved both inputs disjoint from `y`; readable /
    // writable is the caller's `# Safety` obligation; the slices die with this call.
    unsafe { stft(xb.slice(), wb.slice(), &p, as_cplx_mut(&yb)) }
}

/// STFT of `x` (n samples) into `y`, equal to `torch.stft(x, n_fft, hop, win_length, window,
/// center, pad_mode, normalized, onesided, return_complex=True)` in the layout described at the
/// top of this section (frames × n_freq, interleaved).
///
/// Arguments: `window` holds win_length floats (pass ones for torch's `window=None`); `y_len`
/// is y's capacity in complex values (2 floats each): at least `frames × n_freq` (see
/// `sk_stft_frames`), else `SK_ERR_BUFFER_TOO_SMALL` with the needed count in the message; only
/// that many are written. `y` must not overlap `x` or `window`.
/// Returns `SK_OK`, `SK_ERR_LENGTH`, `SK_ERR_BAD_ARGUMENT` (as `sk_stft_frames`),
/// `SK_ERR_BUFFER_TOO_SMALL`, `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`, `SK_ERR_OVERLAP`,
/// `SK_ERR_ALLOCATION` (out of memory for the plan or the scratch, all taken before anything is
/// written); on error `y` is untouched. Thread-safe (stateless; FFT plans are cached process-wide; long
/// signals are split across up to `SIGKERN_THREADS` threads, default all cores).
///
/// Real-time safe: no (allocates its working memory; long inputs may be split over the worker threads).
///
/// # Safety
/// `x` readable for n floats, `window` for win_length, `y` writable for 2·y_len floats.
#[no_mangle]
pub unsafe extern "C" fn sk_stft_f32(
    x: *const f32,
    window: *const f32,
    n_fft: usize,
    hop: usize,
    win_length: usize,
    center: i32,
    pad_mode: i32,
    onesided: i32,
    normalized: i32,
    y: *mut f32,
    y_len: usize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_stft_f32", {
        let p = params(
            n_fft, hop, win_length, center, pad_mode, onesided, normalized,
        )?;
        // SAFETY: this function's `# Safety` contract (`x` for n, `window` for win_length, `y` for
        // 2·y_len elements) is `stft_ffi`'s; NULL, alignment, sizes and overlap are checked inside.
        unsafe { stft_ffi(x, window, p, y, y_len, n) }
    })
}

/// STFT of doubles. Rules as `sk_stft_f32` (8-byte alignment).
///
/// Real-time safe: no (allocates its working memory; long inputs may be split over the worker threads).
///
/// # Safety
/// `x` readable for n doubles, `window` for win_length, `y` writable for 2·y_len doubles.
#[no_mangle]
pub unsafe extern "C" fn sk_stft_f64(
    x: *const f64,
    window: *const f64,
    n_fft: usize,
    hop: usize,
    win_length: usize,
    center: i32,
    pad_mode: i32,
    onesided: i32,
    normalized: i32,
    y: *mut f64,
    y_len: usize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_stft_f64", {
        let p = params(
            n_fft, hop, win_length, center, pad_mode, onesided, normalized,
        )?;
        // SAFETY: this function's `# Safety` contract (`x` for n, `window` for win_length, `y` for
        // 2·y_len elements) is `stft_ffi`'s; NULL, alignment, sizes and overlap are checked inside.
        unsafe { stft_ffi(x, window, p, y, y_len, n) }
    })
}

/// A batch of STFTs through the C arguments.
///
/// # Safety
/// `x` readable for `(rows − 1)·x_stride + n` elements, `window` for `p.win_length`, `y`
/// writable for `2·y_len` elements, for the duration of the call; NULL, alignment, sizes and
/// overlap are checked here.
#[allow(clippy::too_many_arguments)]
unsafe fn stft_batch_ffi<T: SpecFloat>(
    x: *const T,
    x_stride: isize,
    rows: usize,
    window: *const T,
    p: StftParams,
    y: *mut T,
    y_len: usize,
    n: usize,
) -> SkResult<()> {
    let xl = super::fft::extent("x", rows, n, x_stride, false, 0)?;
    let xb = Buf::new("x", x, xl);
    let wb = Buf::new("window", window, p.win_length);
    xb.check()?;
    wb.check()?;
    let frames = p.frames(n)?;
    let per = frames
        .checked_mul(p.n_freq())
        .ok_or_else(|| SkError::Length("frames × n_freq overflows".into()))?;
    let need = per
        .checked_mul(rows)
        .ok_or_else(|| SkError::Length("rows × frames × n_freq overflows".into()))?;
    let yb = complex_out(
        "y",
        y,
        y_len,
        need,
        &format!("rows {rows} × frames {frames} × n_freq {}", p.n_freq()),
    )?;
    alias(&xb, &yb, false)?;
    alias(&wb, &yb, false)?;
    if rows == 0 {
        return Ok(());
    }
    // SAFETY: `xb` (extent from `fft::extent`) and `wb` passed `check()`, `yb` came from
    // `complex_out`; `alias(.., false)` proved both inputs disjoint from `y`; readable / writable
    // is the caller's `# Safety` obligation; the slices die with this call.
    let (xs, ws, ys) = unsafe { (xb.slice(), wb.slice(), as_cplx_mut(&yb)) };
    let xst = x_stride as usize;
    for (r, yr) in ys.chunks_exact_mut(per).enumerate() {
        stft(&xs[r * xst..r * xst + n], ws, &p, yr)?;
    }
    Ok(())
}

/// Batched STFT: `rows` signals of n samples, row `r` starting at `x + r·x_stride` (floats;
/// `x_stride ≥ 0`, 0 repeats one row), each transformed as `sk_stft_f32` does, into `y` as
/// `(rows, frames, n_freq)` complex values (row `r` at `y + 2·r·frames·n_freq` floats): equal
/// to `torch.stft` of a `(rows, n)` batch, with frames and frequencies swapped as in
/// `sk_stft_f32`. `y_len` is y's capacity in complex values (≥ rows × frames × n_freq, else
/// `SK_ERR_BUFFER_TOO_SMALL` with the size). `rows = 0` writes nothing. Long signals are split
/// across threads as in `sk_stft_f32`.
/// Returns `SK_OK`, `SK_ERR_LENGTH`, `SK_ERR_BAD_ARGUMENT` (as `sk_stft_frames`, or a
/// negative `x_stride`), `SK_ERR_BUFFER_TOO_SMALL`, `SK_ERR_NULL_POINTER`,
/// `SK_ERR_MISALIGNED`, `SK_ERR_OVERLAP`; on error `y` is untouched. Thread-safe.
///
/// Real-time safe: no (allocates its working memory; long inputs may be split over the worker threads).
///
/// # Safety
/// `x` readable for `(rows−1)·x_stride + n` floats, `window` for win_length, `y` writable for
/// 2·y_len floats.
#[no_mangle]
pub unsafe extern "C" fn sk_stft_batch_f32(
    x: *const f32,
    x_stride: isize,
    rows: usize,
    window: *const f32,
    n_fft: usize,
    hop: usize,
    win_length: usize,
    center: i32,
    pad_mode: i32,
    onesided: i32,
    normalized: i32,
    y: *mut f32,
    y_len: usize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_stft_batch_f32", {
        let p = params(
            n_fft, hop, win_length, center, pad_mode, onesided, normalized,
        )?;
        // SAFETY: this function's `# Safety` contract is `stft_batch_ffi`'s (`x` over its row
        // extent, `window`, `y` for 2·y_len); NULL, alignment, sizes and overlap are checked
        // inside.
        unsafe { stft_batch_ffi(x, x_stride, rows, window, p, y, y_len, n) }
    })
}

/// Batched STFT of doubles. Rules as `sk_stft_batch_f32`.
///
/// Real-time safe: no (allocates its working memory; long inputs may be split over the worker threads).
///
/// # Safety
/// `x` readable for `(rows−1)·x_stride + n` doubles, `window` for win_length, `y` writable for
/// 2·y_len doubles.
#[no_mangle]
pub unsafe extern "C" fn sk_stft_batch_f64(
    x: *const f64,
    x_stride: isize,
    rows: usize,
    window: *const f64,
    n_fft: usize,
    hop: usize,
    win_length: usize,
    center: i32,
    pad_mode: i32,
    onesided: i32,
    normalized: i32,
    y: *mut f64,
    y_len: usize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_stft_batch_f64", {
        let p = params(
            n_fft, hop, win_length, center, pad_mode, onesided, normalized,
        )?;
        // SAFETY: this function's `# Safety` contract is `stft_batch_ffi`'s (`x` over its row
        // extent, `window`, `y` for 2·y_len); NULL, alignment, sizes and overlap are checked
        // inside.
        unsafe { stft_batch_ffi(x, x_stride, rows, window, p, y, y_len, n) }
    })
}

/// Length `torch.istft` returns without `length`: `n_fft + hop·(frames − 1) − 2·pad`, stored in
/// `*n`. Returns `SK_OK`, `SK_ERR_LENGTH` (n_fft = 0, frames = 0, or a length that overflows
/// `size_t` or is more floats than a buffer can hold), `SK_ERR_BAD_ARGUMENT` (as
/// `sk_stft_frames`), `SK_ERR_NULL_POINTER`/`SK_ERR_MISALIGNED` (n). Thread-safe.
///
/// Real-time safe: yes.
///
/// # Safety
/// `n` writable.
#[no_mangle]
pub unsafe extern "C" fn sk_istft_len(
    n_fft: usize,
    hop: usize,
    win_length: usize,
    center: i32,
    frames: usize,
    n: *mut usize,
) -> i32 {
    ffi_boundary!("sk_istft_len", {
        check_out_scalar("n", n)?;
        let p = params(n_fft, hop, win_length, center, SK_PAD_REFLECT, 1, 0)?;
        let len = size_result(
            format_args!("the signal length of {frames} frames"),
            Some(istft_default_len(&p, frames)?),
            4,
            "floats",
        )?;
        // SAFETY: `check_out_scalar("n", n)` above established non-NULL and aligned; writable is
        // this function's `# Safety` contract.
        unsafe { *n = len };
        Ok(())
    })
}

/// One inverse STFT through the C arguments.
///
/// # Safety
/// `x` readable for `2·frames·n_freq` elements, `window` for `p.win_length`, `y` writable for
/// `n`, for the duration of the call; NULL, alignment, sizes and overlap are checked here.
#[allow(clippy::too_many_arguments)]
unsafe fn istft_ffi<T: SpecFloat>(
    x: *const T,
    window: *const T,
    frames: usize,
    p: StftParams,
    y: *mut T,
    n: usize,
) -> SkResult<()> {
    if frames == 0 {
        return Err(SkError::Length("frames = 0: nothing to invert".into()));
    }
    let nx = frames
        .checked_mul(p.n_freq())
        .and_then(|v| v.checked_mul(2))
        .ok_or_else(|| SkError::Length("frames × n_freq overflows".into()))?;
    let xb = Buf::new("x", x, nx);
    let wb = Buf::new("window", window, p.win_length);
    let yb = Buf::out("y", y, n);
    xb.check()?;
    wb.check()?;
    yb.check()?;
    alias(&xb, &yb, false)?;
    alias(&wb, &yb, false)?;
    // SAFETY: `xb`, `wb`, `yb` passed `check()` for the sizes computed above (overflow checked);
    // `alias(.., false)` proved `y` disjoint from both inputs; readable / writable is the caller's
    // `# Safety` obligation. `x` holds an even number of floats and `Complex<T>` is
    // `#[repr(C)] {re, im}` with `T`'s alignment, so it reinterprets as `len / 2` complex values.
    unsafe {
        let xs = xb.slice();
        let xc = std::slice::from_raw_parts(xs.as_ptr() as *const Complex<T>, xs.len() / 2);
        istft(xc, frames, wb.slice(), &p, yb.slice_mut())
    }
}

/// Inverse STFT equal to `torch.istft(X, n_fft, hop, win_length, window, center, normalized,
/// onesided, length=n)`: `x` holds `frames × n_freq` complex values in the STFT layout (only the
/// first n_fft/2+1 bins of each frame are used, as torch does for real output); `y` receives n
/// samples (`sk_istft_len` gives torch's default length; a longer n gives trailing zeros as
/// torch pads).
///
/// The NOLA condition is checked: if the overlap-added squared window is below 1e-11 anywhere
/// in the output range, returns `SK_ERR_BAD_ARGUMENT` ("NOLA condition fails …") with nothing
/// written. Other returns: `SK_ERR_LENGTH` (frames = 0, n_fft = 0), `SK_ERR_BAD_ARGUMENT`
/// (parameters as `sk_stft_frames`), `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`,
/// `SK_ERR_OVERLAP` (y overlaps x or window), `SK_ERR_ALLOCATION` (out of memory for the plan,
/// the window envelope or the scratch). Thread-safe (stateless).
///
/// Real-time safe: no (allocates its working memory; long inputs may be split over the worker threads).
///
/// # Safety
/// `x` readable for 2·frames·n_freq floats, `window` for win_length, `y` writable for n.
#[no_mangle]
pub unsafe extern "C" fn sk_istft_f32(
    x: *const f32,
    window: *const f32,
    frames: usize,
    n_fft: usize,
    hop: usize,
    win_length: usize,
    center: i32,
    onesided: i32,
    normalized: i32,
    y: *mut f32,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_istft_f32", {
        let p = params(
            n_fft,
            hop,
            win_length,
            center,
            SK_PAD_REFLECT,
            onesided,
            normalized,
        )?;
        // SAFETY: this function's `# Safety` contract (`x` for n, `window` for win_length, `y` for
        // 2·y_len elements) is `stft_ffi`'s; NULL, alignment, sizes and overlap are checked inside.
        unsafe { istft_ffi(x, window, frames, p, y, n) }
    })
}

/// Inverse STFT of doubles. Rules as `sk_istft_f32`.
///
/// Real-time safe: no (allocates its working memory; long inputs may be split over the worker threads).
///
/// # Safety
/// `x` readable for 2·frames·n_freq doubles, `window` for win_length, `y` writable for n.
#[no_mangle]
pub unsafe extern "C" fn sk_istft_f64(
    x: *const f64,
    window: *const f64,
    frames: usize,
    n_fft: usize,
    hop: usize,
    win_length: usize,
    center: i32,
    onesided: i32,
    normalized: i32,
    y: *mut f64,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_istft_f64", {
        let p = params(
            n_fft,
            hop,
            win_length,
            center,
            SK_PAD_REFLECT,
            onesided,
            normalized,
        )?;
        // SAFETY: this function's `# Safety` contract (`x` for n, `window` for win_length, `y` for
        // 2·y_len elements) is `stft_ffi`'s; NULL, alignment, sizes and overlap are checked inside.
        unsafe { istft_ffi(x, window, frames, p, y, n) }
    })
}

/// Creates a stream and stores its handle in `*stream`.
///
/// # Safety
/// `window` readable for `p.win_length` elements; `stream` NULL, misaligned (both rejected here)
/// or writable for one pointer.
#[allow(clippy::too_many_arguments)]
unsafe fn stream_new<T: StreamElem>(
    window: *const T,
    p: StftParams,
    stream: *mut *mut SkStftStream,
) -> SkResult<()> {
    check_out_scalar("stream", stream)?;
    let wb = Buf::new("window", window, p.win_length);
    wb.check()?;
    // SAFETY: `wb.check()` just passed; readable is the caller's `# Safety` obligation; the
    // slice is only read by `StftStream::new`, which copies the window.
    let s = StftStream::new(&p, unsafe { wb.slice() })?;
    // SAFETY: checked.
    unsafe { handle::publish::<T::Stream>(Mutex::new(s), stream) }
}

/// Creates a streaming STFT of floats with the parameters of `sk_stft_f32` (the window is
/// copied). Push blocks with `sk_stft_stream_f32_push`, end with `sk_stft_stream_f32_finish`:
/// the frames returned, in order, equal one `sk_stft_f32` call on the concatenated input.
///
/// Returns `SK_OK`, `SK_ERR_LENGTH`, `SK_ERR_BAD_ARGUMENT` (parameters), `SK_ERR_NULL_POINTER`,
/// `SK_ERR_MISALIGNED`, `SK_ERR_ALLOCATION`; on error `*stream` is untouched. Free with
/// `sk_stft_stream_free`.
/// A stream holds state: calls on one stream are serialised by an internal lock (use one stream
/// per signal and thread). Different streams are independent.
///
/// Real-time safe: no (allocates).
///
/// # Safety
/// `window` readable for win_length floats, `stream` writable.
#[no_mangle]
pub unsafe extern "C" fn sk_stft_stream_f32_new(
    window: *const f32,
    n_fft: usize,
    hop: usize,
    win_length: usize,
    center: i32,
    pad_mode: i32,
    onesided: i32,
    normalized: i32,
    stream: *mut *mut SkStftStream,
) -> i32 {
    ffi_boundary!("sk_stft_stream_f32_new", {
        let p = params(
            n_fft, hop, win_length, center, pad_mode, onesided, normalized,
        )?;
        // SAFETY: this function's `# Safety` contract (`window` readable, `stream` writable) is
        // `stream_new`'s; it checks `window` and `stream` itself (`Buf::check`,
        // `check_out_scalar`).
        unsafe { stream_new(window, p, stream) }
    })
}

/// Creates a streaming STFT of doubles. Rules as `sk_stft_stream_f32_new`.
///
/// Real-time safe: no (allocates).
///
/// # Safety
/// `window` readable for win_length doubles, `stream` writable.
#[no_mangle]
pub unsafe extern "C" fn sk_stft_stream_f64_new(
    window: *const f64,
    n_fft: usize,
    hop: usize,
    win_length: usize,
    center: i32,
    pad_mode: i32,
    onesided: i32,
    normalized: i32,
    stream: *mut *mut SkStftStream,
) -> i32 {
    ffi_boundary!("sk_stft_stream_f64_new", {
        let p = params(
            n_fft, hop, win_length, center, pad_mode, onesided, normalized,
        )?;
        // SAFETY: this function's `# Safety` contract (`window` readable, `stream` writable) is
        // `stream_new`'s; it checks `window` and `stream` itself (`Buf::check`,
        // `check_out_scalar`).
        unsafe { stream_new(window, p, stream) }
    })
}

/// Frees a stream (float or double). NULL is a no-op; a freed or foreign handle is
/// `SK_ERR_INVALID_HANDLE` (detected, nothing freed). Thread-safe.
///
/// Real-time safe: no (allocates).
///
/// # Safety
/// None beyond passing any pointer value.
#[no_mangle]
pub unsafe extern "C" fn sk_stft_stream_free(stream: *mut SkStftStream) -> i32 {
    ffi_boundary!("sk_stft_stream_free", {
        handle::free_either::<StreamF32, StreamF64>("stream", stream, ANY_STREAM)
    })
}

fn with_stream<R>(
    stream: *const SkStftStream,
    f32f: impl FnOnce(&mut StftStream<f32>) -> SkResult<R>,
    f64f: impl FnOnce(&mut StftStream<f64>) -> SkResult<R>,
) -> SkResult<R> {
    handle::with_either_shared::<StreamF32, StreamF64, _>("stream", stream, ANY_STREAM, |s| match s
    {
        Either::A(m) => f32f(&mut lock(m)),
        Either::B(m) => f64f(&mut lock(m)),
    })
}

/// Number of frames a push of `n` more samples would return now (`*frames`). Each frame is
/// n_freq complex values. Returns `SK_OK`, `SK_ERR_INVALID_HANDLE`, `SK_ERR_BAD_ARGUMENT` (the
/// stream was finished), `SK_ERR_LENGTH` (the stream's count of samples plus n overflows
/// `size_t`, or more frames of n_freq complex floats than a buffer can hold),
/// `SK_ERR_NULL_POINTER`/`SK_ERR_MISALIGNED` (frames). Thread-safe.
///
/// Real-time safe: yes.
///
/// # Safety
/// `frames` writable.
#[no_mangle]
pub unsafe extern "C" fn sk_stft_stream_push_frames(
    stream: *const SkStftStream,
    frames: *mut usize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_stft_stream_push_frames", {
        check_out_scalar("frames", frames)?;
        let f = with_stream(
            stream,
            |s| {
                frames_result(
                    s.push_frames(n)?,
                    s.params().n_freq(),
                    format_args!("the frame count for n = {n} more samples"),
                )
            },
            |s| {
                frames_result(
                    s.push_frames(n)?,
                    s.params().n_freq(),
                    format_args!("the frame count for n = {n} more samples"),
                )
            },
        )?;
        // SAFETY: `check_out_scalar("frames", ..)` above established non-NULL and aligned;
        // writable is this function's `# Safety` contract.
        unsafe { *frames = f };
        Ok(())
    })
}

/// Number of frames `sk_stft_stream_*_finish` would return now (`*frames`). Errors as
/// `sk_stft_stream_push_frames`, plus `SK_ERR_BAD_ARGUMENT` when the signal pushed so far is too
/// short for one frame (as `sk_stft_frames`).
///
/// Real-time safe: yes.
///
/// # Safety
/// `frames` writable.
#[no_mangle]
pub unsafe extern "C" fn sk_stft_stream_finish_frames(
    stream: *const SkStftStream,
    frames: *mut usize,
) -> i32 {
    ffi_boundary!("sk_stft_stream_finish_frames", {
        check_out_scalar("frames", frames)?;
        let f = with_stream(
            stream,
            |s| {
                frames_result(
                    s.finish_frames()?,
                    s.params().n_freq(),
                    format_args!("the frame count of the finish"),
                )
            },
            |s| {
                frames_result(
                    s.finish_frames()?,
                    s.params().n_freq(),
                    format_args!("the frame count of the finish"),
                )
            },
        )?;
        // SAFETY: `check_out_scalar("frames", ..)` above established non-NULL and aligned;
        // writable is this function's `# Safety` contract.
        unsafe { *frames = f };
        Ok(())
    })
}

/// Forgets all input (and a finish): the stream starts a new signal. Returns `SK_OK` or
/// `SK_ERR_INVALID_HANDLE`.
///
/// Real-time safe: after creation and sk_stft_stream_reserve, for blocks of up to max_block frames.
///
/// # Safety
/// None beyond passing any pointer value.
#[no_mangle]
pub unsafe extern "C" fn sk_stft_stream_reset(stream: *mut SkStftStream) -> i32 {
    ffi_boundary!("sk_stft_stream_reset", {
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

unsafe fn push_ffi<T: StreamElem>(
    stream: *mut SkStftStream,
    x: Option<(*const T, usize)>,
    y: *mut T,
    y_len: usize,
    frames: *mut usize,
) -> SkResult<()> {
    check_out_scalar("frames", frames)?;
    let m = handle::shared::<T::Stream>("stream", stream)?;
    let mut s = lock(&m);
    let nf = s.params().n_freq();
    let xb = x.map(|(p, n)| Buf::new("x", p, n));
    if let Some(xb) = &xb {
        xb.check()?;
    }
    let want = match &xb {
        Some(xb) => s.push_frames(xb.len)?,
        None => s.finish_frames()?,
    };
    let need = want
        .checked_mul(nf)
        .ok_or_else(|| SkError::Length("frames × n_freq overflows".into()))?;
    // the description only for the error (a push that fits formats nothing: no allocation)
    let what = if y_len < need {
        format!("frames {want} × n_freq {nf}")
    } else {
        String::new()
    };
    let yb = complex_out("y", y, y_len, need, &what)?;
    if let Some(xb) = &xb {
        alias(xb, &yb, false)?;
    }
    // SAFETY: `yb` came from `complex_out` (`Buf::check` on the `2·y_len` floats, `2·need` of
    // them used), writable per the caller's `# Safety` obligation; `alias(xb, &yb, false)` above
    // proved it disjoint from the input; the view dies with this call.
    let ys = unsafe { as_cplx_mut(&yb) };
    let got = match &xb {
        // SAFETY: `xb.check()` passed above, `alias(xb, &yb, false)` proved it disjoint from
        // `y`, readable is the caller's `# Safety` obligation; the slice dies with this call.
        Some(xb) => s.push(unsafe { xb.slice() }, ys)?,
        None => s.finish(ys)?,
    };
    // SAFETY: `check_out_scalar("frames", ..)` at the top established non-NULL and aligned;
    // writable is the caller's `# Safety` obligation.
    unsafe { *frames = got };
    Ok(())
}

/// Appends `n` samples of `x` to the stream and writes every frame now complete to `y` (frames
/// × n_freq complex values, frame-major), storing the count in `*frames` (possibly 0).
///
/// `y_len` is y's capacity in complex values; if it is smaller than the frames this push
/// produces (`sk_stft_stream_push_frames`), returns `SK_ERR_BUFFER_TOO_SMALL` stating the size
/// and consumes nothing. Other returns: `SK_ERR_INVALID_HANDLE` (NULL/freed/not a float
/// stream), `SK_ERR_BAD_ARGUMENT` (finished stream), `SK_ERR_NULL_POINTER`,
/// `SK_ERR_MISALIGNED`, `SK_ERR_LENGTH` (also when the stream's count of samples would overflow
/// `size_t`), `SK_ERR_OVERLAP`, `SK_ERR_ALLOCATION` (no memory to buffer the samples). On error
/// nothing is written and the stream is unchanged.
///
/// Real-time safe: after creation and sk_stft_stream_reserve, for blocks of up to max_block frames.
///
/// # Safety
/// `x` readable for n floats, `y` writable for 2·y_len floats, `frames` writable.
#[no_mangle]
pub unsafe extern "C" fn sk_stft_stream_f32_push(
    stream: *mut SkStftStream,
    x: *const f32,
    y: *mut f32,
    y_len: usize,
    frames: *mut usize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_stft_stream_f32_push", {
        // SAFETY: this function's `# Safety` contract (`x` for n, `y` for 2·y_len, `frames`) is
        // `push_ffi`'s; the handle is looked up in the registry, never dereferenced.
        unsafe { push_ffi(stream, Some((x, n)), y, y_len, frames) }
    })
}

/// Push for a double stream. Rules as `sk_stft_stream_f32_push`.
///
/// Real-time safe: after creation and sk_stft_stream_reserve, for blocks of up to max_block frames.
///
/// # Safety
/// `x` readable for n doubles, `y` writable for 2·y_len doubles, `frames` writable.
#[no_mangle]
pub unsafe extern "C" fn sk_stft_stream_f64_push(
    stream: *mut SkStftStream,
    x: *const f64,
    y: *mut f64,
    y_len: usize,
    frames: *mut usize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_stft_stream_f64_push", {
        // SAFETY: this function's `# Safety` contract (`x` for n, `y` for 2·y_len, `frames`) is
        // `push_ffi`'s; the handle is looked up in the registry, never dereferenced.
        unsafe { push_ffi(stream, Some((x, n)), y, y_len, frames) }
    })
}

/// Ends the signal: pads the end as `center`/`pad_mode` say, writes the remaining frames to `y`
/// and their count to `*frames`. Afterwards pushes fail until `sk_stft_stream_reset`.
/// `SK_ERR_BAD_ARGUMENT` if the whole signal is too short (as `sk_stft_frames`), with the stream
/// unchanged; other rules as `sk_stft_stream_f32_push`.
///
/// Real-time safe: after creation and sk_stft_stream_reserve, for blocks of up to max_block frames.
///
/// # Safety
/// `y` writable for 2·y_len floats, `frames` writable.
#[no_mangle]
pub unsafe extern "C" fn sk_stft_stream_f32_finish(
    stream: *mut SkStftStream,
    y: *mut f32,
    y_len: usize,
    frames: *mut usize,
) -> i32 {
    ffi_boundary!("sk_stft_stream_f32_finish", {
        // SAFETY: this function's `# Safety` contract (`y` for 2·y_len, `frames` writable) is
        // `push_ffi`'s with no input; the handle is looked up in the registry, never dereferenced.
        unsafe { push_ffi::<f32>(stream, None, y, y_len, frames) }
    })
}

/// Finish for a double stream. Rules as `sk_stft_stream_f32_finish`.
///
/// Real-time safe: after creation and sk_stft_stream_reserve, for blocks of up to max_block frames.
///
/// # Safety
/// `y` writable for 2·y_len doubles, `frames` writable.
#[no_mangle]
pub unsafe extern "C" fn sk_stft_stream_f64_finish(
    stream: *mut SkStftStream,
    y: *mut f64,
    y_len: usize,
    frames: *mut usize,
) -> i32 {
    ffi_boundary!("sk_stft_stream_f64_finish", {
        // SAFETY: this function's `# Safety` contract (`y` for 2·y_len, `frames` writable) is
        // `push_ffi`'s with no input; the handle is looked up in the registry, never dereferenced.
        unsafe { push_ffi::<f64>(stream, None, y, y_len, frames) }
    })
}

/// Makes an STFT stream real-time safe for pushes of up to `max_block` samples: reserves the
/// stream's sample buffer for them and for the end padding, and gives the stream an FFT
/// workspace of its own (otherwise a stream uses its calling thread's, which grows on that
/// thread's first call). Afterwards `sk_stft_stream_*_push` with `n <= max_block`,
/// `sk_stft_stream_*_finish`, `sk_stft_stream_reset` and the frame-count queries allocate no
/// memory and make no system call, on any thread; pushes keep running on the calling thread
/// (they always did). Larger pushes still work and give the same frames; they may allocate.
/// Results never depend on this call. May be called again.
///
/// Returns `SK_OK`, `SK_ERR_INVALID_HANDLE`, `SK_ERR_ALLOCATION` (the stream then works as
/// before, without the guarantee).
///
/// Real-time safe: no (it allocates; call it after creation, before the audio thread starts).
///
/// # Safety
/// None beyond passing a pointer value.
#[no_mangle]
pub unsafe extern "C" fn sk_stft_stream_reserve(
    stream: *mut SkStftStream,
    max_block: usize,
) -> i32 {
    ffi_boundary!("sk_stft_stream_reserve", {
        with_stream(stream, |s| s.reserve(max_block), |s| s.reserve(max_block))
    })
}
