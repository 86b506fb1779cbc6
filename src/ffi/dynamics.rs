//! Dynamics processors (`SkDynamics` handles): envelope follower, compressor, noise gate /
//! expander, lookahead true-peak limiter.
//!
//! One handle kind serves all four; the state is `double`, and the same handle accepts `float`
//! and `double` blocks, planar or interleaved. Chunked processing is bit-identical to one call.
//!
//! NaN and infinity in the input (or the sidechain) are refused (`SK_ERR_NON_FINITE`, the
//! message names the channel and frame): nothing is written and the state is unchanged.

use super::guard::{check_out_scalar, ffi_boundary, io, planar, Buf};
use super::handle::{self, handle_kind};
use crate::error::{SkError, SkResult};
use crate::kernels::dynamics::{Block, Detector, Dynamics, Limiter};
use crate::kernels::layout::Layout;
use crate::kernels::Float;
use crate::simd::current;

/// Opaque handle of a dynamics processor, made by `sk_envelope_new`, `sk_compressor_new`,
/// `sk_gate_new` or `sk_limiter_new` and released by `sk_dynamics_free`.
pub struct SkDynamics {
    _private: [u8; 0],
}

/// The object behind an `SkDynamics` handle.
pub(crate) enum DynObj {
    Dyn(Dynamics),
    Lim(Limiter),
}

handle_kind!(
    /// A dynamics processor behind an `SkDynamics` (state in `double`; takes both precisions).
    pub(crate) DynamicsKind: DynObj as SkDynamics,
    "a dynamics processor (sk_envelope_new, sk_compressor_new, sk_gate_new, sk_limiter_new)",
    exclusive, defer
);

impl DynObj {
    fn channels(&self) -> usize {
        match self {
            DynObj::Dyn(d) => d.channels(),
            DynObj::Lim(l) => l.channels(),
        }
    }
    fn latency(&self) -> usize {
        match self {
            DynObj::Dyn(d) => d.latency(),
            DynObj::Lim(l) => l.latency(),
        }
    }
}

fn flag(name: &'static str, v: i32) -> SkResult<bool> {
    match v {
        0 => Ok(false),
        1 => Ok(true),
        _ => Err(SkError::BadArgument(format!(
            "{name} = {v}; it must be 0 or 1"
        ))),
    }
}

fn detector(v: i32) -> SkResult<Detector> {
    match v {
        0 => Ok(Detector::Peak),
        1 => Ok(Detector::Rms),
        _ => Err(SkError::BadArgument(format!(
            "detector = {v}; it must be 0 (peak) or 1 (RMS)"
        ))),
    }
}

/// Registers `obj` (or passes its error on) and stores the new handle in `*out`.
///
/// # Safety
/// `out` is NULL, misaligned (both rejected here by `check_out_scalar`) or writable for one
/// pointer.
unsafe fn publish(obj: SkResult<DynObj>, out: *mut *mut SkDynamics) -> SkResult<()> {
    let obj = obj?;
    check_out_scalar("out", out)?;
    // SAFETY: validated.
    unsafe { handle::publish::<DynamicsKind>(obj, out) }
}

fn with_dyn<R>(h: *const SkDynamics, f: impl FnOnce(&mut DynObj) -> SkResult<R>) -> SkResult<R> {
    handle::with::<DynamicsKind, R>("dyn", h, f)
}

fn run<T: Float>(d: &mut DynObj, b: Block<'_, T>) -> SkResult<()> {
    match d {
        DynObj::Dyn(p) => p.process(current(), b),
        DynObj::Lim(p) => p.process(current(), b),
    }
}

/// Runs the processor behind `h` over a planar block.
///
/// # Safety
/// `x` and `key` (unless NULL) are readable and `y` is writable over their planar extents
/// `(channels − 1)·stride + n` for the duration of the call; NULL, alignment, extent overflow
/// and overlap are checked here.
#[allow(clippy::too_many_arguments)]
unsafe fn process<T: Float>(
    h: *mut SkDynamics,
    x: *const T,
    x_stride: isize,
    key: *const T,
    key_stride: isize,
    y: *mut T,
    y_stride: isize,
    n: usize,
) -> SkResult<()> {
    with_dyn(h, |d| {
        let ch = d.channels();
        let (xl, xe) = planar("x_stride", x_stride, ch, "n", n)?;
        let (yl, ye) = planar("y_stride", y_stride, ch, "n", n)?;
        let xb = Buf::new("x", x, xe);
        let yb = Buf::out("y", y, ye);
        if xb.is_same(&yb) && xl != yl {
            return Err(SkError::Overlap(
                "x and y are the same buffer but with different strides".into(),
            ));
        }
        let key = if key.is_null() {
            None
        } else {
            let (kl, ke) = planar("sidechain_stride", key_stride, ch, "n", n)?;
            let kb = Buf::new("sidechain", key, ke);
            kb.check()?;
            super::guard::alias(&kb, &yb, false)?;
            // SAFETY: `kb.check()` passed for the extent `planar` computed (non-NULL, aligned,
            // in range), `alias(.., false)` proved it shares no byte with `y`, the caller
            // guarantees it readable (`# Safety`), and the slice lives only inside this call.
            Some((unsafe { kb.slice() }, kl))
        };
        // SAFETY: `xb`, `yb` carry the extents `planar` computed, which the caller guarantees
        // readable / writable (`# Safety`); `io` checks both and refuses a partial overlap.
        let (src, out) = unsafe { io(xb, yb)? };
        let b = Block {
            src,
            xl,
            out,
            yl,
            key,
            channels: ch,
            n,
        };
        run(d, b)
    })
}

/// Runs the processor behind `h` over an interleaved block.
///
/// # Safety
/// `x` and `key` (unless NULL) are readable and `y` is writable for `n_frames·channels`
/// elements for the duration of the call; NULL, alignment, overflow and overlap are checked here.
unsafe fn process_interleaved<T: Float>(
    h: *mut SkDynamics,
    x: *const T,
    key: *const T,
    y: *mut T,
    n_frames: usize,
) -> SkResult<()> {
    with_dyn(h, |d| {
        let ch = d.channels();
        let len = n_frames.checked_mul(ch).ok_or_else(|| {
            SkError::Length(format!("n_frames = {n_frames} × channels = {ch} overflows"))
        })?;
        let l = Layout::interleaved(ch);
        let xb = Buf::new("x", x, len);
        let yb = Buf::out("y", y, len);
        let key = if key.is_null() {
            None
        } else {
            let kb = Buf::new("sidechain", key, len);
            kb.check()?;
            super::guard::alias(&kb, &yb, false)?;
            // SAFETY: `kb.check()` passed for `n_frames·channels` elements (overflow checked
            // above), `alias(.., false)` proved it disjoint from `y`, the caller guarantees it
            // readable (`# Safety`), and the slice lives only inside this call.
            Some((unsafe { kb.slice() }, l))
        };
        // SAFETY: the caller guarantees `n_frames·channels` readable / writable elements
        // (`# Safety`); `io` checks both buffers and refuses a partial overlap.
        let (src, out) = unsafe { io(xb, yb)? };
        let b = Block {
            src,
            xl: l,
            out,
            yl: l,
            key,
            channels: ch,
            n: n_frames,
        };
        run(d, b)
    })
}

/// Creates an envelope follower and stores its handle in `*out`. Its output is, per channel,
/// the envelope of the input (linked: of the loudest channel, written to every channel):
/// the level (`|x|` for `detector` 0 = peak, `x²` for 1 = RMS) smoothed as JUCE's
/// `dsp::BallisticsFilter` / pedalboard (`e ← v + a·(e − v)`, `a = exp(−2π·1000/(rate·ms))`
/// with the attack time while the level rises, the release time while it falls; `ms` below
/// 0.001 is instant), square-rooted for RMS.
///
/// - `rate`: 1000 to 768000 Hz; `attack_ms`, `release_ms`: 0 to 60000 (else
///   `SK_ERR_BAD_ARGUMENT`, NaN too); `detector` 0 or 1, `link` 0 (each channel its own) or 1
///   (else `SK_ERR_BAD_ARGUMENT`); `channels` 1 to 1024 (else `SK_ERR_LENGTH`).
/// - Returns `SK_OK`, `SK_ERR_BAD_ARGUMENT`, `SK_ERR_LENGTH`, `SK_ERR_NULL_POINTER` /
///   `SK_ERR_MISALIGNED` (`out`), `SK_ERR_ALLOCATION`. On error `*out` is untouched.
///
/// Thread safety: see `sk_dynamics_process_f32`.
///
/// Real-time safe: no (allocates).
///
/// # Safety
/// `out` writable.
#[no_mangle]
pub unsafe extern "C" fn sk_envelope_new(
    rate: f64,
    attack_ms: f64,
    release_ms: f64,
    detector_kind: i32,
    link: i32,
    out: *mut *mut SkDynamics,
    channels: usize,
) -> i32 {
    ffi_boundary!("sk_envelope_new", {
        let obj = (|| {
            let det = detector(detector_kind)?;
            let link = flag("link", link)?;
            Dynamics::envelope(rate, channels, attack_ms, release_ms, det, link).map(DynObj::Dyn)
        })();
        // SAFETY: `publish` rejects a NULL or misaligned `out` (`check_out_scalar`) before writing;
        // that a valid `out` is writable for one handle is this function's `# Safety` contract.
        unsafe { publish(obj, out) }
    })
}

/// Creates a compressor and stores its handle in `*out`.
///
/// The detector is the envelope of `sk_envelope_new` (on the sidechain when one is given); the
/// gain, in dB over `L` = envelope level in dB, `T` = `threshold_db`, `R` = `ratio`,
/// `W` = `knee_db`: 0 for `2(L − T) <= −W`, `(1/R − 1)(L − T + W/2)²/(2W)` inside the knee,
/// `(1/R − 1)(L − T)` above it, plus `makeup_db`. With `knee_db` 0, `makeup_db` 0, peak
/// detector and `link` 0 this is JUCE's `dsp::Compressor`, which pedalboard's `Compressor`
/// wraps: `threshold_db`, `ratio`, `attack_ms`, `release_ms` mean the same there.
///
/// - `rate` 1000 to 768000 Hz; `threshold_db`, `makeup_db` within ±400; `ratio` 1 to 1e9;
///   `knee_db` 0 to 100; `attack_ms`, `release_ms` 0 to 60000; `detector` 0 (peak) or 1 (RMS);
///   `link` 0 (each channel its own gain) or 1 (one gain from the loudest channel, for stereo
///   and all-channel linking); anything else, NaN included, `SK_ERR_BAD_ARGUMENT`. `channels`
///   1 to 1024 (else `SK_ERR_LENGTH`).
/// - Returns `SK_OK`, `SK_ERR_BAD_ARGUMENT`, `SK_ERR_LENGTH`, `SK_ERR_NULL_POINTER` /
///   `SK_ERR_MISALIGNED` (`out`), `SK_ERR_ALLOCATION`. On error `*out` is untouched.
///
/// Thread safety: see `sk_dynamics_process_f32`.
///
/// Real-time safe: no (allocates).
///
/// # Safety
/// `out` writable.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn sk_compressor_new(
    rate: f64,
    threshold_db: f64,
    ratio: f64,
    knee_db: f64,
    attack_ms: f64,
    release_ms: f64,
    makeup_db: f64,
    detector_kind: i32,
    link: i32,
    out: *mut *mut SkDynamics,
    channels: usize,
) -> i32 {
    ffi_boundary!("sk_compressor_new", {
        let obj = (|| {
            let det = detector(detector_kind)?;
            let link = flag("link", link)?;
            Dynamics::compressor(
                rate,
                channels,
                threshold_db,
                ratio,
                knee_db,
                attack_ms,
                release_ms,
                makeup_db,
                det,
                link,
            )
            .map(DynObj::Dyn)
        })();
        // SAFETY: `publish` rejects a NULL or misaligned `out` (`check_out_scalar`) before writing;
        // that a valid `out` is writable for one handle is this function's `# Safety` contract.
        unsafe { publish(obj, out) }
    })
}

/// Creates a noise gate / downward expander and stores its handle in `*out`.
///
/// As JUCE's `dsp::NoiseGate` (pedalboard's `NoiseGate`, same `threshold_db`, `ratio`,
/// `attack_ms`, `release_ms`): an RMS detector with instant attack and 50 ms release feeds the
/// ballistics of `sk_envelope_new`; below `threshold_db` the gain is
/// `(envelope/threshold)^(ratio − 1)`, above it 1. In addition the gate stays open for
/// `hold_ms` after the envelope falls below the threshold (0: JUCE's behaviour).
///
/// - `rate` 1000 to 768000 Hz; `threshold_db` within ±400; `ratio` 1 to 1e9; `attack_ms`,
///   `release_ms`, `hold_ms` 0 to 60000; `link` 0 or 1; anything else `SK_ERR_BAD_ARGUMENT`.
///   `channels` 1 to 1024 (else `SK_ERR_LENGTH`).
/// - Returns `SK_OK`, `SK_ERR_BAD_ARGUMENT`, `SK_ERR_LENGTH`, `SK_ERR_NULL_POINTER` /
///   `SK_ERR_MISALIGNED` (`out`), `SK_ERR_ALLOCATION`. On error `*out` is untouched.
///
/// Real-time safe: no (allocates).
///
/// # Safety
/// `out` writable.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn sk_gate_new(
    rate: f64,
    threshold_db: f64,
    ratio: f64,
    attack_ms: f64,
    release_ms: f64,
    hold_ms: f64,
    link: i32,
    out: *mut *mut SkDynamics,
    channels: usize,
) -> i32 {
    ffi_boundary!("sk_gate_new", {
        let obj = (|| {
            let link = flag("link", link)?;
            Dynamics::gate(
                rate,
                channels,
                threshold_db,
                ratio,
                attack_ms,
                release_ms,
                hold_ms,
                link,
            )
            .map(DynObj::Dyn)
        })();
        // SAFETY: `publish` rejects a NULL or misaligned `out` (`check_out_scalar`) before writing;
        // that a valid `out` is writable for one handle is this function's `# Safety` contract.
        unsafe { publish(obj, out) }
    })
}

/// Creates a lookahead limiter and stores its handle in `*out`. All channels share one gain.
/// The output's true peak (BS.1770-4 4× oversampling, as `sk_meter_new` measures it) stays at
/// or below `ceiling_db` dBTP: the gain is computed from the input's true peak, aims 0.1 dB
/// under the ceiling, falls over the lookahead as a straight line and recovers with the release
/// time (JUCE ballistics coefficient). The output is delayed by `sk_dynamics_latency` frames
/// (zeros first). Unlike pedalboard's `Limiter` (JUCE: two compressors and a clipper, no
/// lookahead, no makeup), nothing is boosted.
///
/// - `rate` 1000 to 768000 Hz; `ceiling_db` within ±400; `lookahead_ms` 1 to 1000;
///   `release_ms` 10 to 60000; else `SK_ERR_BAD_ARGUMENT` (NaN too). `channels` 1 to 1024
///   (else `SK_ERR_LENGTH`).
/// - Returns `SK_OK`, `SK_ERR_BAD_ARGUMENT`, `SK_ERR_LENGTH`, `SK_ERR_NULL_POINTER` /
///   `SK_ERR_MISALIGNED` (`out`), `SK_ERR_ALLOCATION`. On error `*out` is untouched.
///
/// Real-time safe: no (allocates).
///
/// # Safety
/// `out` writable.
#[no_mangle]
pub unsafe extern "C" fn sk_limiter_new(
    rate: f64,
    ceiling_db: f64,
    lookahead_ms: f64,
    release_ms: f64,
    out: *mut *mut SkDynamics,
    channels: usize,
) -> i32 {
    ffi_boundary!("sk_limiter_new", {
        let obj =
            Limiter::new(rate, channels, ceiling_db, lookahead_ms, release_ms).map(DynObj::Lim);
        // SAFETY: `publish` rejects a NULL or misaligned `out` (`check_out_scalar`) before writing;
        // that a valid `out` is writable for one handle is this function's `# Safety` contract.
        unsafe { publish(obj, out) }
    })
}

/// Frees a dynamics processor. NULL is accepted (no-op, `SK_OK`). A handle that is not live
/// (already freed, never created) or of another kind is `SK_ERR_INVALID_HANDLE`, detected
/// without reading it.
///
/// Real-time safe: no (allocates).
///
/// # Safety
/// None beyond passing a pointer value; it is never dereferenced.
#[no_mangle]
pub unsafe extern "C" fn sk_dynamics_free(dyn_: *mut SkDynamics) -> i32 {
    ffi_boundary!("sk_dynamics_free", {
        handle::free::<DynamicsKind>("dyn", dyn_)
    })
}

/// Forgets the signal history (the processor is then as new, same settings).
/// Returns `SK_OK` or `SK_ERR_INVALID_HANDLE` (NULL, freed, another kind, or in use by another
/// thread).
///
/// Real-time safe: after creation and sk_dynamics_reserve, for blocks of up to max_block frames.
///
/// # Safety
/// None beyond passing a pointer value.
#[no_mangle]
pub unsafe extern "C" fn sk_dynamics_reset(dyn_: *mut SkDynamics) -> i32 {
    ffi_boundary!("sk_dynamics_reset", {
        with_dyn(dyn_, |d| {
            match d {
                DynObj::Dyn(p) => p.reset(),
                DynObj::Lim(p) => p.reset(),
            }
            Ok(())
        })
    })
}

/// Stores the latency in frames in `*latency`: output frame `t` corresponds to input frame
/// `t − latency` (0 for the envelope follower, compressor and gate; the lookahead plus 11
/// frames for the limiter).
/// Returns `SK_OK`, `SK_ERR_INVALID_HANDLE`, `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`; on
/// error `*latency` is untouched.
///
/// Real-time safe: after creation and sk_dynamics_reserve, for blocks of up to max_block frames.
///
/// # Safety
/// `latency` writable.
#[no_mangle]
pub unsafe extern "C" fn sk_dynamics_latency(dyn_: *mut SkDynamics, latency: *mut usize) -> i32 {
    ffi_boundary!("sk_dynamics_latency", {
        with_dyn(dyn_, |d| {
            check_out_scalar("latency", latency)?;
            // SAFETY: `check_out_scalar` just established `latency` non-NULL and aligned;
            // writable is this function's `# Safety` contract.
            unsafe { *latency = d.latency() };
            Ok(())
        })
    })
}

/// Stores the channel count in `*channels`.
/// Returns `SK_OK`, `SK_ERR_INVALID_HANDLE`, `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`.
///
/// Real-time safe: after creation and sk_dynamics_reserve, for blocks of up to max_block frames.
///
/// # Safety
/// `channels` writable.
#[no_mangle]
pub unsafe extern "C" fn sk_dynamics_channels(dyn_: *mut SkDynamics, channels: *mut usize) -> i32 {
    ffi_boundary!("sk_dynamics_channels", {
        with_dyn(dyn_, |d| {
            check_out_scalar("channels", channels)?;
            // SAFETY: `check_out_scalar` just established `channels` non-NULL and aligned;
            // writable is this function's `# Safety` contract.
            unsafe { *channels = d.channels() };
            Ok(())
        })
    })
}

/// Processes `n` frames of planar `float` audio: channel `c` of the input at
/// `x[c·x_stride + t]`, of the output at `y[c·y_stride + t]`, `t < n` (strides in elements,
/// `>= n` with more than one channel, ignored for one; negative or below `n`:
/// `SK_ERR_BAD_ARGUMENT`).
///
/// - `sidechain`: NULL, or a key input in the same layout with `sidechain_stride` that drives
///   the detector instead of `x` (compressor, gate, envelope follower; the limiter refuses one
///   with `SK_ERR_BAD_ARGUMENT`).
/// - Aliasing: `y == x` with equal strides processes in place; any other overlap of `y` with
///   `x` or the sidechain is `SK_ERR_OVERLAP`.
/// - Chunks: processing a signal in pieces of any sizes gives bit-identical output to one call.
/// - NaN or ±inf in `x` or the sidechain: `SK_ERR_NON_FINITE`, nothing written, state unchanged.
/// - Returns `SK_OK`, `SK_ERR_INVALID_HANDLE` (NULL, freed, another kind, or in use by another
///   thread), `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`, `SK_ERR_LENGTH`, `SK_ERR_BAD_ARGUMENT`,
///   `SK_ERR_OVERLAP`, `SK_ERR_NON_FINITE`; on error nothing is written.
///
/// Thread safety: one handle must not be used from two threads at the same time (the second
/// call fails with `SK_ERR_INVALID_HANDLE`); different handles may run in parallel. A long
/// block may be split by channels over the library's worker threads (at most `SIGKERN_THREADS`
/// in all; unlinked compressors, gates and envelope followers, and the limiter's peak
/// detection); the output does not depend on the split.
///
/// Real-time safe: after creation and sk_dynamics_reserve, for blocks of up to max_block frames.
///
/// # Safety
/// `x`, `sidechain` readable and `y` writable over their extents `(channels − 1)·stride + n`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn sk_dynamics_process_f32(
    dyn_: *mut SkDynamics,
    x: *const f32,
    x_stride: isize,
    sidechain: *const f32,
    sidechain_stride: isize,
    y: *mut f32,
    y_stride: isize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_dynamics_process_f32", {
        // SAFETY: the pointers and strides are this function's arguments, and its `# Safety`
        // contract is `process`'s: `x`, `sidechain` readable and `y` writable over `(channels −
        // 1)·stride + n`. `process` itself checks NULL, alignment, extents and overlap (`planar`,
        // `Buf::check`, `io`).
        unsafe {
            process(
                dyn_,
                x,
                x_stride,
                sidechain,
                sidechain_stride,
                y,
                y_stride,
                n,
            )
        }
    })
}

/// `double` version of `sk_dynamics_process_f32` (the same handle accepts both).
///
/// Real-time safe: after creation and sk_dynamics_reserve, for blocks of up to max_block frames.
///
/// # Safety
/// As `sk_dynamics_process_f32`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn sk_dynamics_process_f64(
    dyn_: *mut SkDynamics,
    x: *const f64,
    x_stride: isize,
    sidechain: *const f64,
    sidechain_stride: isize,
    y: *mut f64,
    y_stride: isize,
    n: usize,
) -> i32 {
    ffi_boundary!("sk_dynamics_process_f64", {
        // SAFETY: as in `sk_dynamics_process_f32`: this function's `# Safety` contract is
        // `process`'s (`x`, `sidechain` readable, `y` writable over their planar extents);
        // `process` checks the rest.
        unsafe {
            process(
                dyn_,
                x,
                x_stride,
                sidechain,
                sidechain_stride,
                y,
                y_stride,
                n,
            )
        }
    })
}

/// Processes `n_frames` interleaved `float` frames (`x[t·channels + c]`, output and sidechain
/// alike; `sidechain` may be NULL). Rules, status codes and thread safety as
/// `sk_dynamics_process_f32` (`SK_ERR_LENGTH` also when `n_frames·channels` overflows).
///
/// Real-time safe: after creation and sk_dynamics_reserve, for blocks of up to max_block frames.
///
/// # Safety
/// `x`, `sidechain` readable and `y` writable for `n_frames·channels` floats.
#[no_mangle]
pub unsafe extern "C" fn sk_dynamics_process_interleaved_f32(
    dyn_: *mut SkDynamics,
    x: *const f32,
    sidechain: *const f32,
    y: *mut f32,
    n_frames: usize,
) -> i32 {
    ffi_boundary!("sk_dynamics_process_interleaved_f32", {
        // SAFETY: this function's `# Safety` contract is `process_interleaved`'s: `x`, `sidechain`
        // readable and `y` writable for `n_frames·channels` elements; NULL, alignment, overflow and
        // overlap are checked inside (`Buf::check`, `alias`, `io`).
        unsafe { process_interleaved(dyn_, x, sidechain, y, n_frames) }
    })
}

/// `double` version of `sk_dynamics_process_interleaved_f32`.
///
/// Real-time safe: after creation and sk_dynamics_reserve, for blocks of up to max_block frames.
///
/// # Safety
/// As `sk_dynamics_process_interleaved_f32`.
#[no_mangle]
pub unsafe extern "C" fn sk_dynamics_process_interleaved_f64(
    dyn_: *mut SkDynamics,
    x: *const f64,
    sidechain: *const f64,
    y: *mut f64,
    n_frames: usize,
) -> i32 {
    ffi_boundary!("sk_dynamics_process_interleaved_f64", {
        // SAFETY: as in `sk_dynamics_process_interleaved_f32`: the `# Safety` contract is
        // `process_interleaved`'s; the checks are inside it.
        unsafe { process_interleaved(dyn_, x, sidechain, y, n_frames) }
    })
}

/// Makes a dynamics processor (envelope follower, compressor, gate or limiter) real-time safe:
/// every later call of the handle stays on the calling thread (no work is handed to the
/// library's worker threads). `sk_dynamics_process*` then allocates no memory, takes no lock
/// another thread can hold and makes no system call, for blocks of any length: the processors'
/// working space is the handle's (`max_block` is accepted for symmetry with the other handle
/// kinds' `_reserve` calls; no block length needs more). Results never depend on this call;
/// the setting cannot be undone.
///
/// Returns `SK_OK` or `SK_ERR_INVALID_HANDLE`.
///
/// Real-time safe: yes (it allocates nothing), but meant to be called once after creation.
///
/// # Safety
/// None beyond passing a pointer value.
#[no_mangle]
pub unsafe extern "C" fn sk_dynamics_reserve(dyn_: *mut SkDynamics, max_block: usize) -> i32 {
    ffi_boundary!("sk_dynamics_reserve", {
        let _ = max_block;
        with_dyn(dyn_, |d| {
            match d {
                DynObj::Dyn(p) => p.set_serial(),
                DynObj::Lim(p) => p.set_serial(),
            }
            Ok(())
        })
    })
}
