//! Sample-rate conversion: the streaming resampler handle (`SkResampler`) and the one-shot
//! `sk_resample_*`.
//!
//! Handles live in the registry of [`super::handle`]: NULL, freed, never-created and
//! wrong-kind handles are `SK_ERR_INVALID_HANDLE`, and a handle used by two threads at the same
//! time fails in the second with `SK_ERR_INVALID_HANDLE` ("in use") instead of racing.
//!
//! Layouts as for the filters: *planar* data keeps channel `c`'s frame `t` at
//! `p[c·stride + t]` (`stride >= frames` when there is more than one channel, ignored for one);
//! *interleaved* data keeps it at `p[t·channels + c]`.

use super::guard::{check_out_scalar, ffi_boundary, interleaved, planar, size_result, Buf};
use super::handle::{self, handle_kind, Either, Kind};
use crate::error::{SkError, SkResult};
use crate::kernels::layout::Layout;
use crate::kernels::resample::design::{Phase, Quality, Spec};
use crate::kernels::resample::poly;
use crate::kernels::resample::stream::{self, check_rate, check_ratio, Resampler, WIDE_ABOVE_DB};
use crate::kernels::Float;
use crate::simd::current;

/// Quality preset: passband to 0.70 of the lower Nyquist frequency, 60 dB stopband.
pub const SK_RESAMPLE_QUICK: i32 = 0;
/// Quality preset: passband to 0.80, 96 dB stopband (16-bit audio).
pub const SK_RESAMPLE_LOW: i32 = 1;
/// Quality preset: passband to 0.90, 110 dB stopband.
pub const SK_RESAMPLE_MEDIUM: i32 = 2;
/// Quality preset: passband to 0.913, 135 dB stopband (24-bit audio).
pub const SK_RESAMPLE_HIGH: i32 = 3;
/// Quality preset: passband to 0.913, 175 dB stopband (float streams compute in double inside).
pub const SK_RESAMPLE_VERY_HIGH: i32 = 4;

/// Filter phase (`sk_resampler_f32_new_spec_phase`): symmetric filters, every frequency delayed
/// by the same time (the latency), ringing before and after a transient. What every other
/// constructor and the one-shot calls use.
pub const SK_RESAMPLE_LINEAR_PHASE: i32 = 0;
/// Filter phase (`sk_resampler_f32_new_spec_phase`): the steep first-stage filter is minimum
/// phase with the same magnitude response; the latency shrinks to its low-frequency group
/// delay and the ringing follows a transient only.
pub const SK_RESAMPLE_MINIMUM_PHASE: i32 = 1;

/// A custom resampling filter: frequencies are fractions of the Nyquist frequency of the lower
/// of the two rates.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct SkResampleSpec {
    /// Passband edge, in (0, stopband_begin).
    pub passband_end: f64,
    /// Stopband start, in (passband_end, 1].
    pub stopband_begin: f64,
    /// Stopband attenuation in dB, in [40, 200].
    pub attenuation_db: f64,
}

/// Opaque handle of a streaming resampler (`float` or `double`), made by
/// `sk_resampler_f32_new` / `sk_resampler_f64_new` (or their `_spec` forms) and released by
/// `sk_resampler_free`.
pub struct SkResampler {
    _private: [u8; 0],
}

/// The resamplers a handle can name. `float` streams whose stopband lies below `float` rounding
/// run in `double` inside (`F32Wide`).
pub(crate) enum ResamplerObj {
    F32(Resampler<f32>),
    F32Wide(Resampler<f64>),
    F64(Resampler<f64>),
}

/// Runs the same expression on whichever resampler `o` holds.
macro_rules! each {
    ($o:expr, $r:ident => $e:expr) => {
        match $o {
            ResamplerObj::F32($r) => $e,
            ResamplerObj::F32Wide($r) => $e,
            ResamplerObj::F64($r) => $e,
        }
    };
}

handle_kind!(
    /// A `float` resampler (`F32` or `F32Wide`) behind an `SkResampler`.
    pub(crate) ResamplerF32: ResamplerObj as SkResampler,
    "a float resampler (sk_resampler_f32_new)", exclusive, refuse
);
handle_kind!(
    /// A `double` resampler (`F64`) behind an `SkResampler`.
    pub(crate) ResamplerF64: ResamplerObj as SkResampler,
    "a double resampler (sk_resampler_f64_new)", exclusive, refuse
);

/// The element types, with their kinds of resampler.
trait ResampleElem: Float {
    type Kind: Kind<Object = ResamplerObj, C = SkResampler>;
    fn make(in_rate: f64, out_rate: f64, channels: usize, spec: Spec) -> SkResult<ResamplerObj>;
    #[allow(clippy::too_many_arguments)]
    fn process(
        o: &mut ResamplerObj,
        x: &[Self],
        xl: Layout,
        n_in: usize,
        y: &mut [Self],
        yl: Layout,
        cap: usize,
    ) -> SkResult<(usize, usize)>;
    fn flush(o: &mut ResamplerObj, y: &mut [Self], yl: Layout, cap: usize) -> SkResult<usize>;
    #[allow(clippy::too_many_arguments)]
    fn oneshot(
        in_rate: f64,
        out_rate: f64,
        channels: usize,
        spec: Spec,
        x: &[Self],
        xl: Layout,
        n_in: usize,
        y: &mut [Self],
        yl: Layout,
    ) -> SkResult<usize>;
}

impl ResampleElem for f32 {
    type Kind = ResamplerF32;
    fn make(in_rate: f64, out_rate: f64, channels: usize, spec: Spec) -> SkResult<ResamplerObj> {
        Ok(if spec.atten_db > WIDE_ABOVE_DB {
            ResamplerObj::F32Wide(Resampler::new(in_rate, out_rate, channels, spec)?)
        } else {
            ResamplerObj::F32(Resampler::new(in_rate, out_rate, channels, spec)?)
        })
    }
    fn process(
        o: &mut ResamplerObj,
        x: &[f32],
        xl: Layout,
        n_in: usize,
        y: &mut [f32],
        yl: Layout,
        cap: usize,
    ) -> SkResult<(usize, usize)> {
        match o {
            ResamplerObj::F32(r) => r.process(current(), x, xl, n_in, y, yl, cap),
            ResamplerObj::F32Wide(r) => stream::process_wide(r, current(), x, xl, n_in, y, yl, cap),
            ResamplerObj::F64(_) => Err(SkError::Internal("kind checked before".into())),
        }
    }
    fn flush(o: &mut ResamplerObj, y: &mut [f32], yl: Layout, cap: usize) -> SkResult<usize> {
        match o {
            ResamplerObj::F32(r) => r.flush(current(), y, yl, cap),
            ResamplerObj::F32Wide(r) => stream::flush_wide(r, current(), y, yl, cap),
            ResamplerObj::F64(_) => Err(SkError::Internal("kind checked before".into())),
        }
    }
    fn oneshot(
        in_rate: f64,
        out_rate: f64,
        channels: usize,
        spec: Spec,
        x: &[f32],
        xl: Layout,
        n_in: usize,
        y: &mut [f32],
        yl: Layout,
    ) -> SkResult<usize> {
        match Self::make(in_rate, out_rate, channels, spec)? {
            ResamplerObj::F32(r) => stream::resample(current(), r, x, xl, n_in, y, yl),
            ResamplerObj::F32Wide(r) => stream::resample_wide(current(), r, x, xl, n_in, y, yl),
            ResamplerObj::F64(_) => Err(SkError::Internal("float made a double resampler".into())),
        }
    }
}

impl ResampleElem for f64 {
    type Kind = ResamplerF64;
    fn make(in_rate: f64, out_rate: f64, channels: usize, spec: Spec) -> SkResult<ResamplerObj> {
        Ok(ResamplerObj::F64(Resampler::new(
            in_rate, out_rate, channels, spec,
        )?))
    }
    fn process(
        o: &mut ResamplerObj,
        x: &[f64],
        xl: Layout,
        n_in: usize,
        y: &mut [f64],
        yl: Layout,
        cap: usize,
    ) -> SkResult<(usize, usize)> {
        match o {
            ResamplerObj::F64(r) => r.process(current(), x, xl, n_in, y, yl, cap),
            _ => Err(SkError::Internal("kind checked before".into())),
        }
    }
    fn flush(o: &mut ResamplerObj, y: &mut [f64], yl: Layout, cap: usize) -> SkResult<usize> {
        match o {
            ResamplerObj::F64(r) => r.flush(current(), y, yl, cap),
            _ => Err(SkError::Internal("kind checked before".into())),
        }
    }
    fn oneshot(
        in_rate: f64,
        out_rate: f64,
        channels: usize,
        spec: Spec,
        x: &[f64],
        xl: Layout,
        n_in: usize,
        y: &mut [f64],
        yl: Layout,
    ) -> SkResult<usize> {
        let r = Resampler::new(in_rate, out_rate, channels, spec)?;
        stream::resample(current(), r, x, xl, n_in, y, yl)
    }
}

/// What the either-precision calls of a resampler handle accept.
const ANY_RESAMPLER: &str = "a resampler (sk_resampler_f32_new or sk_resampler_f64_new)";

/// Runs `f` on the resampler named by `h`, of either precision (one call at a time: a second
/// thread gets "in use").
fn with_obj<R>(
    h: *const SkResampler,
    f: impl FnOnce(&mut ResamplerObj) -> SkResult<R>,
) -> SkResult<R> {
    handle::with_either::<ResamplerF32, ResamplerF64, _>("h", h, ANY_RESAMPLER, |o| match o {
        Either::A(o) | Either::B(o) => f(o),
    })
}

/// Runs `f` on the resampler named by `h` after checking it is of element type `T`.
fn with_typed<T: ResampleElem, R>(
    h: *const SkResampler,
    f: impl FnOnce(&mut ResamplerObj) -> SkResult<R>,
) -> SkResult<R> {
    handle::with::<T::Kind, R>("h", h, f)
}

fn quality(q: i32) -> SkResult<Spec> {
    Quality::from_code(q).map(Quality::spec).ok_or_else(|| {
        SkError::BadArgument(format!(
            "quality = {q} is not a preset (SK_RESAMPLE_QUICK = 0 … SK_RESAMPLE_VERY_HIGH = 4)"
        ))
    })
}

/// Creates a resampler and stores its handle in `*out`.
///
/// # Safety
/// `out` NULL, misaligned (both rejected here by `check_out_scalar`) or writable for one
/// pointer.
unsafe fn new<T: ResampleElem>(
    in_rate: f64,
    out_rate: f64,
    channels: usize,
    spec: SkResult<Spec>,
    out: *mut *mut SkResampler,
) -> SkResult<()> {
    check_out_scalar("out", out)?;
    let r = T::make(in_rate, out_rate, channels, spec?)?;
    // SAFETY: out validated.
    unsafe { handle::publish::<T::Kind>(r, out) }
}

fn phase(p: i32) -> SkResult<Phase> {
    Phase::from_code(p).ok_or_else(|| {
        SkError::BadArgument(format!(
            "phase = {p} is not SK_RESAMPLE_LINEAR_PHASE (0) or SK_RESAMPLE_MINIMUM_PHASE (1)"
        ))
    })
}

/// Reads and validates a caller's `SkResampleSpec`.
///
/// # Safety
/// `spec` NULL, misaligned (both rejected here) or readable for one `SkResampleSpec`.
unsafe fn read_spec(spec: *const SkResampleSpec) -> SkResult<Spec> {
    if spec.is_null() {
        return Err(SkError::NullPointer("argument spec is NULL".into()));
    }
    let b = Buf::new("spec", spec, 1);
    b.check()?;
    // SAFETY: NULL was refused above and `b.check()` passed for one struct (aligned, in range);
    // readable is the caller's `# Safety` obligation; the struct is copied out at once.
    let s = unsafe { b.slice() }[0];
    let s = Spec {
        pass: s.passband_end,
        stop: s.stopband_begin,
        atten_db: s.attenuation_db,
        phase: Phase::Linear,
    };
    s.validate()?;
    Ok(s)
}

/// [`read_spec`] with a phase code.
///
/// # Safety
/// As [`read_spec`].
unsafe fn read_spec_phase(spec: *const SkResampleSpec, p: i32) -> SkResult<Spec> {
    // SAFETY: `read_spec`'s obligation (`spec` NULL or readable for one struct) is this
    // function's own `# Safety` contract; it checks NULL and alignment itself.
    let s = unsafe { read_spec(spec) }?;
    Ok(Spec {
        phase: phase(p)?,
        ..s
    })
}

/// Validates the input and output buffers (distinct) and returns their slices.
///
/// # Safety
/// `x` readable and `y` writable for their lengths, for the lifetime `'a` the caller picks (NULL,
/// alignment, size and overlap are checked here).
unsafe fn bufs<'a, T>(x: Buf<T>, y: Buf<T>) -> SkResult<(&'a [T], &'a mut [T])> {
    x.check()?;
    y.check()?;
    if x.overlaps(&y) {
        return Err(SkError::Overlap(format!(
            "output {} overlaps input {}; resampling does not work in place",
            y.name, x.name
        )));
    }
    // SAFETY: `x.check()` and `y.check()` passed above, `overlaps` proved them disjoint, and
    // readable / writable for `'a` is the caller's `# Safety` obligation.
    Ok(unsafe { (x.slice(), y.slice_mut()) })
}

/// `*_process*` of a resampler handle (planar when strides are given, else interleaved).
///
/// # Safety
/// `x` readable for its extent from `n_in`, `y` writable for its extent from `cap` (planar
/// `(channels − 1)·stride + count`, interleaved `count·channels`), `consumed`, `produced` NULL,
/// misaligned (rejected) or writable, for the duration of the call. `h` is only a registry key.
#[allow(clippy::too_many_arguments)]
unsafe fn process<T: ResampleElem>(
    h: *mut SkResampler,
    x: *const T,
    x_stride: Option<isize>,
    y: *mut T,
    y_stride: Option<isize>,
    consumed: *mut usize,
    produced: *mut usize,
    n_in: usize,
    cap: usize,
) -> SkResult<()> {
    with_typed::<T, _>(h, |o| {
        let ch = each!(&*o, r => r.channels());
        let (xl, xe) = match x_stride {
            Some(s) => planar("x_stride", s, ch, "n_in", n_in)?,
            None => interleaved("n_in", n_in, ch)?,
        };
        let (yl, ye) = match y_stride {
            Some(s) => planar("y_stride", s, ch, "capacity", cap)?,
            None => interleaved("capacity", cap, ch)?,
        };
        check_out_scalar("consumed", consumed)?;
        check_out_scalar("produced", produced)?;
        // SAFETY: `xe`, `ye` are the extents `planar` / `interleaved` computed (overflow
        // checked) from the handle's channel count, which the caller guarantees valid
        // (`# Safety`); `bufs` checks both and refuses overlap; the slices die in this closure.
        let (xs, ys) = unsafe { bufs(Buf::new("x", x, xe), Buf::out("y", y, ye))? };
        let (c, p) = T::process(o, xs, xl, n_in, ys, yl, cap)?;
        // SAFETY: `check_out_scalar` established `consumed` and `produced` non-NULL and aligned
        // above; writable is the caller's `# Safety` obligation.
        unsafe {
            *consumed = c;
            *produced = p;
        }
        Ok(())
    })
}

/// `*_flush*` of a resampler handle (planar when a stride is given, else interleaved).
///
/// # Safety
/// `y` writable for its extent from `cap` and `produced` NULL, misaligned (rejected) or
/// writable, for the duration of the call. `h` is only a registry key.
unsafe fn flush<T: ResampleElem>(
    h: *mut SkResampler,
    y: *mut T,
    y_stride: Option<isize>,
    produced: *mut usize,
    cap: usize,
) -> SkResult<()> {
    with_typed::<T, _>(h, |o| {
        let ch = each!(&*o, r => r.channels());
        let (yl, ye) = match y_stride {
            Some(s) => planar("y_stride", s, ch, "capacity", cap)?,
            None => interleaved("capacity", cap, ch)?,
        };
        check_out_scalar("produced", produced)?;
        let yb = Buf::out("y", y, ye);
        yb.check()?;
        // SAFETY: `yb.check()` just passed for the extent `planar` / `interleaved` computed;
        // writable is the caller's `# Safety` obligation; the only view of `y`, dropped at return.
        let n = T::flush(o, unsafe { yb.slice_mut() }, yl, cap)?;
        // SAFETY: `check_out_scalar("produced", ..)` above established non-NULL and aligned;
        // writable is the caller's `# Safety` obligation.
        unsafe { *produced = n };
        Ok(())
    })
}

/// A count of frames of `channels` elements of `elem_bytes` bytes each, under the one size rule
/// ([`size_result`]): it must fit in `size_t` and such frames must fit in the address space. The
/// stream's counts cap at `u64::MAX`, so a count too large for any buffer is never stored.
fn to_usize(
    v: u64,
    what: std::fmt::Arguments<'_>,
    channels: usize,
    elem_bytes: usize,
) -> SkResult<usize> {
    let name = if elem_bytes == 8 { "double" } else { "float" };
    let plural = if channels == 1 { "" } else { "s" };
    size_result(
        what,
        usize::try_from(v).ok(),
        channels.saturating_mul(elem_bytes),
        format_args!("frames of {channels} {name}{plural}"),
    )
}

/// A stream's channels and element size in bytes.
fn frame_of(o: &ResamplerObj) -> (usize, usize) {
    let ch = each!(o, r => r.channels());
    (
        ch,
        if matches!(o, ResamplerObj::F64(_)) {
            8
        } else {
            4
        },
    )
}

/// Creates a streaming `float` resampler from `in_rate` to `out_rate` for `channels`
/// channels with a quality preset (`SK_RESAMPLE_QUICK` … `SK_RESAMPLE_VERY_HIGH`) and stores
/// its handle in `*out`.
///
/// - Rates: positive and finite, in any unit (Hz); the ratio `out_rate / in_rate` must lie in
///   [1/256, 256]. A ratio `L/M` in lowest terms with `L <= 2048` (e.g. 48000 → 44100 =
///   147/160) runs exactly: output instants are exact fractions of input samples. Other ratios
///   run on a clock with 2⁻⁴⁰-sample resolution.
/// - The filter runs in two linear-phase stages: the preset's sharp lowpass as an FFT
///   convolution that upsamples by 2 (by 1 when `out_rate <= in_rate / 2`), then a short
///   polyphase Kaiser-windowed sinc to the output rate. The passband, stopband start and
///   attenuation are the preset's (see `SK_RESAMPLE_*`), relative to the lower Nyquist
///   frequency; nothing above it folds back by more than the stopband floor.
/// - Returns `SK_OK`; `SK_ERR_BAD_ARGUMENT` (a zero, negative, NaN or infinite rate, a ratio
///   out of range, an unknown preset); `SK_ERR_LENGTH` (`channels == 0`);
///   `SK_ERR_NULL_POINTER` / `SK_ERR_MISALIGNED` (`out`); `SK_ERR_ALLOCATION`. On error `*out`
///   is untouched.
///
/// Thread safety: one handle must not be used from two threads at the same time (the second
/// call fails with `SK_ERR_INVALID_HANDLE`); different handles may run in parallel.
///
/// Real-time safe: no (allocates).
///
/// # Safety
/// `out` writable.
#[no_mangle]
pub unsafe extern "C" fn sk_resampler_f32_new(
    in_rate: f64,
    out_rate: f64,
    channels: usize,
    quality: i32,
    out: *mut *mut SkResampler,
) -> i32 {
    ffi_boundary!("sk_resampler_f32_new", {
        // SAFETY: `new` needs `out` writable when non-NULL and aligned, this function's `# Safety`
        // contract; it checks NULL and alignment itself (`check_out_scalar`).
        unsafe { new::<f32>(in_rate, out_rate, channels, self::quality(quality), out) }
    })
}

/// `double` version of `sk_resampler_f32_new`.
///
/// Real-time safe: no (allocates).
///
/// # Safety
/// `out` writable.
#[no_mangle]
pub unsafe extern "C" fn sk_resampler_f64_new(
    in_rate: f64,
    out_rate: f64,
    channels: usize,
    quality: i32,
    out: *mut *mut SkResampler,
) -> i32 {
    ffi_boundary!("sk_resampler_f64_new", {
        // SAFETY: `new` needs `out` writable when non-NULL and aligned, this function's `# Safety`
        // contract; it checks NULL and alignment itself (`check_out_scalar`).
        unsafe { new::<f64>(in_rate, out_rate, channels, self::quality(quality), out) }
    })
}

/// As `sk_resampler_f32_new` with a custom filter `*spec` instead of a preset. A field out of
/// its range is `SK_ERR_BAD_ARGUMENT`, a filter needing more than 2²⁰ taps per output too;
/// `spec` NULL is `SK_ERR_NULL_POINTER`, misaligned `SK_ERR_MISALIGNED`. Other codes and
/// thread safety as `sk_resampler_f32_new`.
///
/// Real-time safe: no (allocates).
///
/// # Safety
/// `spec` readable; `out` writable.
#[no_mangle]
pub unsafe extern "C" fn sk_resampler_f32_new_spec(
    in_rate: f64,
    out_rate: f64,
    channels: usize,
    spec: *const SkResampleSpec,
    out: *mut *mut SkResampler,
) -> i32 {
    ffi_boundary!("sk_resampler_f32_new_spec", {
        // SAFETY: `read_spec` needs `spec` NULL or readable for one struct, this function's `#
        // Safety` contract; it checks NULL and alignment itself.
        let s = unsafe { read_spec(spec) };
        // SAFETY: `new` needs `out` writable when non-NULL and aligned, this function's `# Safety`
        // contract; it checks NULL and alignment itself.
        unsafe { new::<f32>(in_rate, out_rate, channels, s, out) }
    })
}

/// `double` version of `sk_resampler_f32_new_spec`.
///
/// Real-time safe: no (allocates).
///
/// # Safety
/// `spec` readable; `out` writable.
#[no_mangle]
pub unsafe extern "C" fn sk_resampler_f64_new_spec(
    in_rate: f64,
    out_rate: f64,
    channels: usize,
    spec: *const SkResampleSpec,
    out: *mut *mut SkResampler,
) -> i32 {
    ffi_boundary!("sk_resampler_f64_new_spec", {
        // SAFETY: `read_spec` needs `spec` NULL or readable for one struct, this function's `#
        // Safety` contract; it checks NULL and alignment itself.
        let s = unsafe { read_spec(spec) };
        // SAFETY: `new` needs `out` writable when non-NULL and aligned, this function's `# Safety`
        // contract; it checks NULL and alignment itself.
        unsafe { new::<f64>(in_rate, out_rate, channels, s, out) }
    })
}

/// As `sk_resampler_f32_new_spec`, with the filter's phase response: `phase` is
/// `SK_RESAMPLE_LINEAR_PHASE` (the same stream as `sk_resampler_f32_new_spec`) or
/// `SK_RESAMPLE_MINIMUM_PHASE`.
///
/// Minimum phase: the first stage's steep filter is replaced by the minimum-phase filter with
/// the same magnitude response (cepstral method, same length), so the passband, stopband and
/// attenuation of `*spec` hold as for linear phase; the short second-stage interpolator stays
/// symmetric. `sk_resampler_latency` then reports the low-frequency group delay, which is a
/// fraction of the linear-phase one, and output `latency + m` is the signal at input time
/// `m·in_rate/out_rate` at low frequencies (the phase is no longer linear near the passband
/// edge). Flush, chunking (any split gives the same bits), `set_ratio` and every other call
/// work as for linear phase. A preset's spec comes from `sk_resample_quality_spec`. The design
/// takes a few FFTs of 64 times the filter's length; designs are cached per process.
///
/// Returns as `sk_resampler_f32_new_spec`, plus `SK_ERR_BAD_ARGUMENT` for an unknown `phase`
/// and for a minimum-phase first-stage filter of more than 2¹⁷ taps (a very narrow transition
/// band at a low output rate). On error `*out` is untouched. Thread safety as
/// `sk_resampler_f32_new`.
///
/// Real-time safe: no (allocates).
///
/// # Safety
/// `spec` readable; `out` writable.
#[no_mangle]
pub unsafe extern "C" fn sk_resampler_f32_new_spec_phase(
    in_rate: f64,
    out_rate: f64,
    channels: usize,
    spec: *const SkResampleSpec,
    phase: i32,
    out: *mut *mut SkResampler,
) -> i32 {
    ffi_boundary!("sk_resampler_f32_new_spec_phase", {
        // SAFETY: `read_spec_phase` needs `spec` NULL or readable for one struct, this function's
        // `# Safety` contract; it checks NULL and alignment itself.
        let s = unsafe { read_spec_phase(spec, phase) };
        // SAFETY: `new` needs `out` writable when non-NULL and aligned, this function's `# Safety`
        // contract; it checks NULL and alignment itself.
        unsafe { new::<f32>(in_rate, out_rate, channels, s, out) }
    })
}

/// `double` version of `sk_resampler_f32_new_spec_phase`.
///
/// Real-time safe: no (allocates).
///
/// # Safety
/// `spec` readable; `out` writable.
#[no_mangle]
pub unsafe extern "C" fn sk_resampler_f64_new_spec_phase(
    in_rate: f64,
    out_rate: f64,
    channels: usize,
    spec: *const SkResampleSpec,
    phase: i32,
    out: *mut *mut SkResampler,
) -> i32 {
    ffi_boundary!("sk_resampler_f64_new_spec_phase", {
        // SAFETY: `read_spec_phase` needs `spec` NULL or readable for one struct, this function's
        // `# Safety` contract; it checks NULL and alignment itself.
        let s = unsafe { read_spec_phase(spec, phase) };
        // SAFETY: `new` needs `out` writable when non-NULL and aligned, this function's `# Safety`
        // contract; it checks NULL and alignment itself.
        unsafe { new::<f64>(in_rate, out_rate, channels, s, out) }
    })
}

/// Writes the filter of preset `quality` (`SK_RESAMPLE_QUICK` … `SK_RESAMPLE_VERY_HIGH`) to
/// `*spec`: passing it to `sk_resampler_f32_new_spec` gives the same stream as
/// `sk_resampler_f32_new` with the preset, and to `sk_resampler_f32_new_spec_phase` the
/// preset with a choice of phase.
///
/// Returns `SK_OK`; `SK_ERR_BAD_ARGUMENT` (unknown preset); `SK_ERR_NULL_POINTER` /
/// `SK_ERR_MISALIGNED` (`spec`). On error `*spec` is untouched. Thread safe.
///
/// Real-time safe: yes.
///
/// # Safety
/// `spec` writable.
#[no_mangle]
pub unsafe extern "C" fn sk_resample_quality_spec(quality: i32, spec: *mut SkResampleSpec) -> i32 {
    ffi_boundary!("sk_resample_quality_spec", {
        let s = self::quality(quality)?;
        check_out_scalar("spec", spec)?;
        // SAFETY: `check_out_scalar` just established `spec` non-NULL and aligned; writable is
        // this function's `# Safety` contract.
        unsafe {
            *spec = SkResampleSpec {
                passband_end: s.pass,
                stopband_begin: s.stop,
                attenuation_db: s.atten_db,
            }
        };
        Ok(())
    })
}

/// Frees a resampler of either precision. NULL is accepted (no-op, `SK_OK`). A handle that is
/// not live or not a resampler is `SK_ERR_INVALID_HANDLE`, detected without reading it; so is
/// one in use by another thread (it stays alive).
///
/// Real-time safe: no (allocates).
///
/// # Safety
/// None beyond passing a pointer value; it is never dereferenced.
#[no_mangle]
pub unsafe extern "C" fn sk_resampler_free(h: *mut SkResampler) -> i32 {
    ffi_boundary!("sk_resampler_free", {
        handle::free_either::<ResamplerF32, ResamplerF64>("h", h, ANY_RESAMPLER)
    })
}

/// Returns a resampler of either precision to its state right after creation: empty history,
/// the creation ratio, no pending output. Returns `SK_OK` or `SK_ERR_INVALID_HANDLE`.
///
/// Real-time safe: after creation and sk_resampler_reserve, for blocks of up to max_block frames.
///
/// # Safety
/// None beyond passing a pointer value.
#[no_mangle]
pub unsafe extern "C" fn sk_resampler_reset(h: *mut SkResampler) -> i32 {
    ffi_boundary!("sk_resampler_reset", {
        with_obj(h, |o| {
            each!(o, r => r.reset());
            Ok(())
        })
    })
}

/// Stores in `*frames` the resampler's delay in output samples (its group delay, exact: the
/// filter is linear-phase and output `n` of the stream is the signal at input time
/// `(n − latency)·in_rate/out_rate`). The one-shot `sk_resample_*` removes it. After
/// `sk_resampler_set_ratio` the delay stays the same in input time. Returns `SK_OK`,
/// `SK_ERR_INVALID_HANDLE`, `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`.
///
/// Real-time safe: after creation and sk_resampler_reserve, for blocks of up to max_block frames.
///
/// # Safety
/// `frames` writable.
#[no_mangle]
pub unsafe extern "C" fn sk_resampler_latency(h: *mut SkResampler, frames: *mut usize) -> i32 {
    ffi_boundary!("sk_resampler_latency", {
        with_obj(h, |o| {
            let l = each!(o, r => r.latency());
            check_out_scalar("frames", frames)?;
            // SAFETY: `check_out_scalar` just established `frames` non-NULL and aligned;
            // writable is this function's `# Safety` contract.
            unsafe { *frames = l };
            Ok(())
        })
    })
}

/// Stores in `*n_out` how many output frames the next process call writes if given `n_in`
/// more input frames and enough room: the exact count, so a buffer of that size never makes
/// the call stop early. Returns `SK_OK`, `SK_ERR_INVALID_HANDLE`, `SK_ERR_NULL_POINTER`,
/// `SK_ERR_MISALIGNED`, `SK_ERR_LENGTH` (more frames than a buffer can hold: their
/// `channels` samples each beyond `PTRDIFF_MAX` bytes; never a saturated count).
///
/// Real-time safe: yes.
///
/// # Safety
/// `n_out` writable.
#[no_mangle]
pub unsafe extern "C" fn sk_resampler_output_size(
    h: *mut SkResampler,
    n_out: *mut usize,
    n_in: usize,
) -> i32 {
    ffi_boundary!("sk_resampler_output_size", {
        with_obj(h, |o| {
            let n = each!(o, r => r.output_size(n_in));
            let (ch, b) = frame_of(o);
            let n = to_usize(
                n,
                format_args!("the output size of n_in = {n_in} frames"),
                ch,
                b,
            )?;
            check_out_scalar("n_out", n_out)?;
            // SAFETY: `check_out_scalar` just established `n_out` non-NULL and aligned; writable
            // is this function's `# Safety` contract.
            unsafe { *n_out = n };
            Ok(())
        })
    })
}

/// Stores in `*n_out` how many frames `sk_resampler_*_flush*` writes now (0 for a stream that
/// has seen no input). Status codes as `sk_resampler_output_size`.
///
/// Real-time safe: yes.
///
/// # Safety
/// `n_out` writable.
#[no_mangle]
pub unsafe extern "C" fn sk_resampler_flush_size(h: *mut SkResampler, n_out: *mut usize) -> i32 {
    ffi_boundary!("sk_resampler_flush_size", {
        with_obj(h, |o| {
            let n = each!(o, r => r.flush_size());
            let (ch, b) = frame_of(o);
            let n = to_usize(n, format_args!("the flush size"), ch, b)?;
            check_out_scalar("n_out", n_out)?;
            // SAFETY: `check_out_scalar` just established `n_out` non-NULL and aligned; writable
            // is this function's `# Safety` contract.
            unsafe { *n_out = n };
            Ok(())
        })
    })
}

/// Changes the conversion ratio `out_rate / in_rate` of a live stream to `ratio`, moving the
/// spacing of output instants linearly to the new value over the next `ramp` output frames
/// (`ramp == 0`: at once). Output instants stay continuous, so there is no click: this is the
/// call for following a drifting clock. The stream leaves the exact rational clock for a
/// 2⁻⁴⁰-sample one; the filter stays the one designed for the creation ratio (so a ratio
/// lowered by more than the transition band lets the top of the band alias).
/// `sk_resampler_reset` restores the creation ratio. Returns `SK_OK`, `SK_ERR_INVALID_HANDLE`,
/// `SK_ERR_BAD_ARGUMENT` (`ratio` NaN, infinite or outside [1/256, 256]), `SK_ERR_ALLOCATION`;
/// on error nothing changes.
///
/// Real-time safe: after creation and sk_resampler_reserve, for blocks of up to max_block frames.
///
/// # Safety
/// None beyond passing a pointer value.
#[no_mangle]
pub unsafe extern "C" fn sk_resampler_set_ratio(
    h: *mut SkResampler,
    ratio: f64,
    ramp: usize,
) -> i32 {
    ffi_boundary!("sk_resampler_set_ratio", {
        check_ratio(ratio)?;
        with_obj(h, |o| each!(o, r => r.set_ratio(ratio, ramp as u64)))
    })
}

/// Resamples planar `float` input, carrying the state to the next call.
///
/// - `x`: `n_in` frames of every channel at `x[c·x_stride + t]`; `y`: room for `capacity`
///   frames at `y[c·y_stride + t]`. Strides in elements, `>= n_in` / `>= capacity` when there
///   is more than one channel (ignored for one); a negative or smaller stride is
///   `SK_ERR_BAD_ARGUMENT`.
/// - Writes `*produced` frames and stores in `*consumed` the input frames taken: all `n_in`,
///   unless the room ran out first; then only the input the written frames needed, and the
///   caller passes the rest again. `sk_resampler_output_size` gives the room that takes all.
/// - Any split of a signal into calls (and any capacities) gives the same output, bit for bit,
///   as one call; the stream is the one-shot result delayed by `sk_resampler_latency` frames.
/// - Output comes in bursts: the first stage works on fixed blocks of input frames (a few
///   thousand), and a call writes the outputs of the blocks it completes, so a short call may
///   write nothing; `sk_resampler_output_size` says exactly how many frames a call writes.
/// - `y` must not overlap `x` (`SK_ERR_OVERLAP`). Returns also `SK_OK`,
///   `SK_ERR_INVALID_HANDLE` (NULL, freed, wrong kind or precision, in use by another thread),
///   `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`, `SK_ERR_LENGTH`, `SK_ERR_ALLOCATION`; on
///   error nothing is written and the state is unchanged. NaN/inf samples propagate to the
///   outputs whose windows hold them.
///
/// Thread safety: as `sk_resampler_f32_new`. Channels are split over threads when the work is
/// large; results do not depend on the split.
///
/// Real-time safe: after creation and sk_resampler_reserve, for blocks of up to max_block frames.
///
/// # Safety
/// `x` readable and `y` writable over their extents; `consumed`, `produced` writable.
#[no_mangle]
pub unsafe extern "C" fn sk_resampler_f32_process(
    h: *mut SkResampler,
    x: *const f32,
    x_stride: isize,
    y: *mut f32,
    y_stride: isize,
    consumed: *mut usize,
    produced: *mut usize,
    n_in: usize,
    capacity: usize,
) -> i32 {
    ffi_boundary!("sk_resampler_f32_process", {
        // SAFETY: this function's `# Safety` contract (`x`, `y` over their planar extents,
        // `consumed`, `produced` writable) is `process`'s; it checks them itself; `h` is a registry
        // key.
        unsafe {
            process::<f32>(
                h,
                x,
                Some(x_stride),
                y,
                Some(y_stride),
                consumed,
                produced,
                n_in,
                capacity,
            )
        }
    })
}

/// `double` version of `sk_resampler_f32_process`.
///
/// Real-time safe: after creation and sk_resampler_reserve, for blocks of up to max_block frames.
///
/// # Safety
/// As `sk_resampler_f32_process`.
#[no_mangle]
pub unsafe extern "C" fn sk_resampler_f64_process(
    h: *mut SkResampler,
    x: *const f64,
    x_stride: isize,
    y: *mut f64,
    y_stride: isize,
    consumed: *mut usize,
    produced: *mut usize,
    n_in: usize,
    capacity: usize,
) -> i32 {
    ffi_boundary!("sk_resampler_f64_process", {
        // SAFETY: this function's `# Safety` contract (`x`, `y` over their planar extents,
        // `consumed`, `produced` writable) is `process`'s; it checks them itself; `h` is a registry
        // key.
        unsafe {
            process::<f64>(
                h,
                x,
                Some(x_stride),
                y,
                Some(y_stride),
                consumed,
                produced,
                n_in,
                capacity,
            )
        }
    })
}

/// Interleaved form of `sk_resampler_f32_process`: `x` holds `n_in` frames
/// (`x[t·channels + c]`), `y` room for `capacity` frames. Status codes and thread safety as
/// `sk_resampler_f32_process`.
///
/// Real-time safe: after creation and sk_resampler_reserve, for blocks of up to max_block frames.
///
/// # Safety
/// `x` readable for `n_in·channels` floats, `y` writable for `capacity·channels`;
/// `consumed`, `produced` writable.
#[no_mangle]
pub unsafe extern "C" fn sk_resampler_f32_process_interleaved(
    h: *mut SkResampler,
    x: *const f32,
    y: *mut f32,
    consumed: *mut usize,
    produced: *mut usize,
    n_in: usize,
    capacity: usize,
) -> i32 {
    ffi_boundary!("sk_resampler_f32_process_interleaved", {
        // SAFETY: this function's `# Safety` contract (`x`, `y` for their frames × channels,
        // `consumed`, `produced` writable) is `process`'s; it checks them itself; `h` is a registry
        // key.
        unsafe { process::<f32>(h, x, None, y, None, consumed, produced, n_in, capacity) }
    })
}

/// `double` version of `sk_resampler_f32_process_interleaved`.
///
/// Real-time safe: after creation and sk_resampler_reserve, for blocks of up to max_block frames.
///
/// # Safety
/// As `sk_resampler_f32_process_interleaved`.
#[no_mangle]
pub unsafe extern "C" fn sk_resampler_f64_process_interleaved(
    h: *mut SkResampler,
    x: *const f64,
    y: *mut f64,
    consumed: *mut usize,
    produced: *mut usize,
    n_in: usize,
    capacity: usize,
) -> i32 {
    ffi_boundary!("sk_resampler_f64_process_interleaved", {
        // SAFETY: this function's `# Safety` contract (`x`, `y` for their frames × channels,
        // `consumed`, `produced` writable) is `process`'s; it checks them itself; `h` is a registry
        // key.
        unsafe { process::<f64>(h, x, None, y, None, consumed, produced, n_in, capacity) }
    })
}

/// Ends the input of a `float` stream: writes the remaining output (the frames whose instants
/// lie before the end of the input, computed with zeros past it; `sk_resampler_flush_size`
/// says how many) into planar `y` (`y[c·y_stride + t]`), stores the count in `*produced` and
/// resets the stream for a new signal. After a flush the stream has written `latency +
/// ceil(n·out_rate/in_rate)` frames in all for `n` input frames (exact ratios; see
/// `sk_resample_size`). `capacity` below the flush size is `SK_ERR_BUFFER_TOO_SMALL` (the
/// message gives the size) and nothing changes. Returns also `SK_OK`,
/// `SK_ERR_INVALID_HANDLE`, `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`, `SK_ERR_LENGTH`,
/// `SK_ERR_BAD_ARGUMENT` (stride), `SK_ERR_ALLOCATION`. Thread safety as
/// `sk_resampler_f32_process`.
///
/// Real-time safe: after creation and sk_resampler_reserve, for blocks of up to max_block frames.
///
/// # Safety
/// `y` writable over its extent; `produced` writable.
#[no_mangle]
pub unsafe extern "C" fn sk_resampler_f32_flush(
    h: *mut SkResampler,
    y: *mut f32,
    y_stride: isize,
    produced: *mut usize,
    capacity: usize,
) -> i32 {
    ffi_boundary!("sk_resampler_f32_flush", {
        // SAFETY: this function's `# Safety` contract (`y` for its extent from `capacity`,
        // `produced` writable) is `flush`'s; it checks them itself; `h` is a registry key.
        unsafe { flush::<f32>(h, y, Some(y_stride), produced, capacity) }
    })
}

/// `double` version of `sk_resampler_f32_flush`.
///
/// Real-time safe: after creation and sk_resampler_reserve, for blocks of up to max_block frames.
///
/// # Safety
/// As `sk_resampler_f32_flush`.
#[no_mangle]
pub unsafe extern "C" fn sk_resampler_f64_flush(
    h: *mut SkResampler,
    y: *mut f64,
    y_stride: isize,
    produced: *mut usize,
    capacity: usize,
) -> i32 {
    ffi_boundary!("sk_resampler_f64_flush", {
        // SAFETY: this function's `# Safety` contract (`y` for its extent from `capacity`,
        // `produced` writable) is `flush`'s; it checks them itself; `h` is a registry key.
        unsafe { flush::<f64>(h, y, Some(y_stride), produced, capacity) }
    })
}

/// Interleaved form of `sk_resampler_f32_flush` (`y` room for `capacity` frames).
///
/// Real-time safe: after creation and sk_resampler_reserve, for blocks of up to max_block frames.
///
/// # Safety
/// `y` writable for `capacity·channels` floats; `produced` writable.
#[no_mangle]
pub unsafe extern "C" fn sk_resampler_f32_flush_interleaved(
    h: *mut SkResampler,
    y: *mut f32,
    produced: *mut usize,
    capacity: usize,
) -> i32 {
    ffi_boundary!("sk_resampler_f32_flush_interleaved", {
        // SAFETY: this function's `# Safety` contract (`y` for its extent from `capacity`,
        // `produced` writable) is `flush`'s; it checks them itself; `h` is a registry key.
        unsafe { flush::<f32>(h, y, None, produced, capacity) }
    })
}

/// `double` version of `sk_resampler_f32_flush_interleaved`.
///
/// Real-time safe: after creation and sk_resampler_reserve, for blocks of up to max_block frames.
///
/// # Safety
/// `y` writable for `capacity·channels` doubles; `produced` writable.
#[no_mangle]
pub unsafe extern "C" fn sk_resampler_f64_flush_interleaved(
    h: *mut SkResampler,
    y: *mut f64,
    produced: *mut usize,
    capacity: usize,
) -> i32 {
    ffi_boundary!("sk_resampler_f64_flush_interleaved", {
        // SAFETY: this function's `# Safety` contract (`y` for its extent from `capacity`,
        // `produced` writable) is `flush`'s; it checks them itself; `h` is a registry key.
        unsafe { flush::<f64>(h, y, None, produced, capacity) }
    })
}

/// Stores in `*n_out` the length of the one-shot conversion of `n_in` frames from `in_rate` to
/// `out_rate`: output frame `m` is the signal at input time `m·in_rate/out_rate`, and the
/// output holds every such instant before `n_in`, i.e. `ceil(n_in·out_rate/in_rate)` for an
/// exact ratio (`L/M` in lowest terms, `L <= 2048`), and the same count on the 2⁻⁴⁰-sample
/// clock otherwise. Returns `SK_OK`, `SK_ERR_BAD_ARGUMENT` (a rate or the ratio as in
/// `sk_resampler_f32_new`), `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`, `SK_ERR_LENGTH` (more
/// frames than a buffer of one float channel can hold, `PTRDIFF_MAX` bytes; never a saturated
/// count). Thread safe.
///
/// Real-time safe: yes.
///
/// # Safety
/// `n_out` writable.
#[no_mangle]
pub unsafe extern "C" fn sk_resample_size(
    in_rate: f64,
    out_rate: f64,
    n_out: *mut usize,
    n_in: usize,
) -> i32 {
    ffi_boundary!("sk_resample_size", {
        check_rate("in_rate", in_rate)?;
        check_rate("out_rate", out_rate)?;
        check_ratio(out_rate / in_rate)?;
        // the smallest buffer of that many frames: one float channel
        let n = to_usize(
            stream::output_len(in_rate, out_rate, n_in),
            format_args!("the output size of n_in = {n_in} frames from {in_rate} to {out_rate}"),
            1,
            4,
        )?;
        check_out_scalar("n_out", n_out)?;
        // SAFETY: `check_out_scalar` just established `n_out` non-NULL and aligned; writable is
        // this function's `# Safety` contract.
        unsafe { *n_out = n };
        Ok(())
    })
}

/// One-shot rate conversion through the C arguments (planar when strides are given, else
/// interleaved).
///
/// # Safety
/// `x` readable for its extent from `n_in` and `y` writable for its extent from `n_out` for the
/// duration of the call; NULL, alignment, extents and overlap are checked here.
#[allow(clippy::too_many_arguments)]
unsafe fn oneshot<T: ResampleElem>(
    x: *const T,
    x_stride: Option<isize>,
    in_rate: f64,
    out_rate: f64,
    q: i32,
    channels: usize,
    y: *mut T,
    y_stride: Option<isize>,
    n_in: usize,
    n_out: usize,
) -> SkResult<()> {
    let spec = quality(q)?;
    check_rate("in_rate", in_rate)?;
    check_rate("out_rate", out_rate)?;
    check_ratio(out_rate / in_rate)?;
    if channels == 0 {
        return Err(SkError::Length("channels is 0".into()));
    }
    let need = to_usize(
        stream::output_len(in_rate, out_rate, n_in),
        format_args!("the output size of n_in = {n_in} frames from {in_rate} to {out_rate}"),
        channels,
        std::mem::size_of::<T>(),
    )?;
    if n_out < need {
        return Err(SkError::BufferTooSmall(format!(
            "n_out = {n_out} but converting {n_in} frames from {in_rate} to {out_rate} gives \
             {need} frames"
        )));
    }
    let (xl, xe) = match x_stride {
        Some(s) => planar("x_stride", s, channels, "n_in", n_in)?,
        None => interleaved("n_in", n_in, channels)?,
    };
    let (yl, ye) = match y_stride {
        Some(s) => planar("y_stride", s, channels, "n_out", n_out)?,
        None => interleaved("n_out", n_out, channels)?,
    };
    // SAFETY: `xe`, `ye` are the extents `planar` / `interleaved` computed (overflow checked),
    // which the caller guarantees valid (`# Safety`); `bufs` checks both and refuses overlap.
    let (xs, ys) = unsafe { bufs(Buf::new("x", x, xe), Buf::out("y", y, ye))? };
    T::oneshot(in_rate, out_rate, channels, spec, xs, xl, n_in, ys, yl)?;
    Ok(())
}

/// Converts planar `float` audio from `in_rate` to `out_rate` in one call, with the delay
/// removed and the tail flushed: output frame `m` is the signal at input time
/// `m·in_rate/out_rate`, and exactly `sk_resample_size(in_rate, out_rate, n_in)` frames are
/// written (frames of `y` past them are untouched).
///
/// - `x`: `n_in` frames per channel at `x[c·x_stride + t]`; `y`: room for `n_out` frames at
///   `y[c·y_stride + t]`; strides `>= n_in` / `>= n_out` when `channels > 1` (ignored for
///   one). `quality`: a preset `SK_RESAMPLE_*` (see `sk_resampler_f32_new`).
/// - The result equals the stream's (`sk_resampler_f32_new` + process + flush) without its
///   first `latency` frames, bit for bit.
/// - Returns `SK_OK`; `SK_ERR_BUFFER_TOO_SMALL` (`n_out` below the size; the message gives
///   it); `SK_ERR_BAD_ARGUMENT` (rates, ratio, preset, strides); `SK_ERR_LENGTH`
///   (`channels == 0`, sizes overflowing); `SK_ERR_NULL_POINTER`; `SK_ERR_MISALIGNED`;
///   `SK_ERR_OVERLAP` (`y` overlaps `x`); `SK_ERR_ALLOCATION`. On error nothing is written.
///
/// Thread safety: safe to call from any number of threads; channels are split over threads
/// when the work is large (results do not depend on the split).
///
/// Real-time safe: no (allocates its working memory; long inputs may be split over the worker threads).
///
/// # Safety
/// `x` readable and `y` writable over their extents.
#[no_mangle]
pub unsafe extern "C" fn sk_resample_f32(
    x: *const f32,
    x_stride: isize,
    in_rate: f64,
    out_rate: f64,
    quality: i32,
    channels: usize,
    y: *mut f32,
    y_stride: isize,
    n_in: usize,
    n_out: usize,
) -> i32 {
    ffi_boundary!("sk_resample_f32", {
        // SAFETY: this function's `# Safety` contract (`x`, `y` valid over their extents) is
        // `oneshot`'s; NULL, alignment, extents and overlap are checked inside.
        unsafe {
            oneshot::<f32>(
                x,
                Some(x_stride),
                in_rate,
                out_rate,
                quality,
                channels,
                y,
                Some(y_stride),
                n_in,
                n_out,
            )
        }
    })
}

/// `double` version of `sk_resample_f32`.
///
/// Real-time safe: no (allocates its working memory; long inputs may be split over the worker threads).
///
/// # Safety
/// As `sk_resample_f32`.
#[no_mangle]
pub unsafe extern "C" fn sk_resample_f64(
    x: *const f64,
    x_stride: isize,
    in_rate: f64,
    out_rate: f64,
    quality: i32,
    channels: usize,
    y: *mut f64,
    y_stride: isize,
    n_in: usize,
    n_out: usize,
) -> i32 {
    ffi_boundary!("sk_resample_f64", {
        // SAFETY: this function's `# Safety` contract (`x`, `y` valid over their extents) is
        // `oneshot`'s; NULL, alignment, extents and overlap are checked inside.
        unsafe {
            oneshot::<f64>(
                x,
                Some(x_stride),
                in_rate,
                out_rate,
                quality,
                channels,
                y,
                Some(y_stride),
                n_in,
                n_out,
            )
        }
    })
}

/// Interleaved form of `sk_resample_f32`: `x` holds `n_in` frames (`x[t·channels + c]`), `y`
/// room for `n_out` frames. Status codes and thread safety as `sk_resample_f32`.
///
/// Real-time safe: no (allocates its working memory; long inputs may be split over the worker threads).
///
/// # Safety
/// `x` readable for `n_in·channels` floats, `y` writable for `n_out·channels`.
#[no_mangle]
pub unsafe extern "C" fn sk_resample_f32_interleaved(
    x: *const f32,
    in_rate: f64,
    out_rate: f64,
    quality: i32,
    channels: usize,
    y: *mut f32,
    n_in: usize,
    n_out: usize,
) -> i32 {
    ffi_boundary!("sk_resample_f32_interleaved", {
        // SAFETY: this function's `# Safety` contract (`x`, `y` valid over their extents) is
        // `oneshot`'s; NULL, alignment, extents and overlap are checked inside.
        unsafe {
            oneshot::<f32>(
                x, None, in_rate, out_rate, quality, channels, y, None, n_in, n_out,
            )
        }
    })
}

/// `double` version of `sk_resample_f32_interleaved`.
///
/// Real-time safe: no (allocates its working memory; long inputs may be split over the worker threads).
///
/// # Safety
/// `x` readable for `n_in·channels` doubles, `y` writable for `n_out·channels`.
#[no_mangle]
pub unsafe extern "C" fn sk_resample_f64_interleaved(
    x: *const f64,
    in_rate: f64,
    out_rate: f64,
    quality: i32,
    channels: usize,
    y: *mut f64,
    n_in: usize,
    n_out: usize,
) -> i32 {
    ffi_boundary!("sk_resample_f64_interleaved", {
        // SAFETY: this function's `# Safety` contract (`x`, `y` valid over their extents) is
        // `oneshot`'s; NULL, alignment, extents and overlap are checked inside.
        unsafe {
            oneshot::<f64>(
                x, None, in_rate, out_rate, quality, channels, y, None, n_in, n_out,
            )
        }
    })
}

// ------------------------------------------------------------------ polyphase (scipy)

/// Stores a sample count under the one size rule ([`size_result`]; the smallest buffer it sizes
/// holds floats).
///
/// # Safety
/// `n_out` NULL, misaligned (both rejected here by `check_out_scalar`) or writable for one
/// `usize`.
unsafe fn size_out(
    n_out: *mut usize,
    n: Option<usize>,
    what: std::fmt::Arguments<'_>,
) -> SkResult<()> {
    let n = size_result(what, n, 4, "floats")?;
    check_out_scalar("n_out", n_out)?;
    // SAFETY: `check_out_scalar` just established `n_out` non-NULL and aligned; writable is the
    // caller's `# Safety` obligation.
    unsafe { *n_out = n };
    Ok(())
}

/// Stores in `*n_out` the length of `scipy.signal.upfirdn(h, x, up, down)` for `n_h` taps and
/// `n_x` samples: `ceil(((n_x − 1)·up + n_h) / down)`, scipy's rule. Returns `SK_OK`, `SK_ERR_BAD_ARGUMENT` (`up` or
/// `down` 0), `SK_ERR_LENGTH` (`n_h` or `n_x` 0, or more samples than a float buffer can hold,
/// `PTRDIFF_MAX` bytes), `SK_ERR_NULL_POINTER`,
/// `SK_ERR_MISALIGNED`. Thread safe.
///
/// Real-time safe: yes.
///
/// # Safety
/// `n_out` writable.
#[no_mangle]
pub unsafe extern "C" fn sk_upfirdn_size(
    up: usize,
    down: usize,
    n_out: *mut usize,
    n_h: usize,
    n_x: usize,
) -> i32 {
    ffi_boundary!("sk_upfirdn_size", {
        poly::check_rates(up, down)?;
        nonempty(n_h, n_x)?;
        // SAFETY: `size_out` needs `n_out` writable when non-NULL and aligned, this function's
        // `# Safety` contract; it checks NULL and alignment itself (`check_out_scalar`).
        unsafe {
            size_out(
                n_out,
                poly::upfirdn_len(n_h, n_x, up, down),
                format_args!(
                    "the output size of n_x = {n_x}, n_h = {n_h}, up = {up}, down = {down}"
                ),
            )
        }
    })
}

fn nonempty(n_h: usize, n_x: usize) -> SkResult<()> {
    if n_h == 0 || n_x == 0 {
        return Err(SkError::Length(format!(
            "n_h = {n_h} and n_x = {n_x} must both be at least 1"
        )));
    }
    Ok(())
}

/// `upfirdn` through the C arguments.
///
/// # Safety
/// `h` readable for `n_h`, `x` for `n_x` and `y` writable for `n_out` elements for the duration
/// of the call; NULL, alignment and overlap are checked here.
#[allow(clippy::too_many_arguments)]
unsafe fn upfirdn_impl<T: Float>(
    h: *const T,
    x: *const T,
    up: usize,
    down: usize,
    y: *mut T,
    n_h: usize,
    n_x: usize,
    n_out: usize,
) -> SkResult<()> {
    poly::check_rates(up, down)?;
    nonempty(n_h, n_x)?;
    let need = poly::upfirdn_len(n_h, n_x, up, down)
        .ok_or_else(|| SkError::Length("the output size overflows size_t".into()))?;
    if n_out < need {
        return Err(SkError::BufferTooSmall(format!(
            "n_out = {n_out} but upfirdn of {n_x} samples with {n_h} taps, up = {up}, down = \
             {down} gives {need}"
        )));
    }
    let (hb, xb, yb) = (
        Buf::new("h", h, n_h),
        Buf::new("x", x, n_x),
        Buf::out("y", y, n_out),
    );
    hb.check()?;
    // SAFETY: `x` readable for `n_x` and `y` writable for `n_out` is the caller's `# Safety`
    // obligation; `bufs` checks both and refuses overlap.
    let (xs, ys) = unsafe { bufs(xb, yb)? };
    if hb.overlaps(&yb) {
        return Err(SkError::Overlap("output y overlaps the filter h".into()));
    }
    // SAFETY: `hb.check()` passed above, readable per the caller's `# Safety` obligation, and
    // `hb.overlaps(&yb)` just proved it disjoint from the live `ys`; only read.
    let hs = unsafe { hb.slice() };
    poly::upfirdn(current(), hs, xs, up, down, &mut ys[..need])
}

/// `scipy.signal.upfirdn(h, x, up, down)` for `float`: upsample `x` by `up` (zeros between
/// samples), filter with the `n_h` taps `h`, keep every `down`-th sample:
/// `y[i] = Σ_j x[j]·h[i·down − j·up]`. Writes exactly `sk_upfirdn_size` samples (the rest of
/// `y` is untouched); each output is a SIMD dot product over its polyphase taps (about
/// `ε·Σ|h|·max|x|` from the exact value).
///
/// Returns `SK_OK`; `SK_ERR_BUFFER_TOO_SMALL` (`n_out` below the size; the message gives it);
/// `SK_ERR_BAD_ARGUMENT` (`up` or `down` 0); `SK_ERR_LENGTH` (`n_h` or `n_x` 0, overflow);
/// `SK_ERR_NULL_POINTER`; `SK_ERR_MISALIGNED`; `SK_ERR_OVERLAP` (`y` overlaps `x` or `h`);
/// `SK_ERR_ALLOCATION`. On error nothing is written. NaN/inf propagate. Thread safe.
///
/// Real-time safe: no (allocates its working memory; long inputs may be split over the worker threads).
///
/// # Safety
/// `h`, `x` readable for `n_h`, `n_x` floats; `y` writable for `n_out`.
#[no_mangle]
pub unsafe extern "C" fn sk_upfirdn_f32(
    h: *const f32,
    x: *const f32,
    up: usize,
    down: usize,
    y: *mut f32,
    n_h: usize,
    n_x: usize,
    n_out: usize,
) -> i32 {
    ffi_boundary!("sk_upfirdn_f32", {
        // SAFETY: this function's `# Safety` contract (`h` for n_h, `x` for n_x, `y` for n_out) is
        // `upfirdn_impl`'s; NULL, alignment and overlap are checked inside.
        unsafe { upfirdn_impl(h, x, up, down, y, n_h, n_x, n_out) }
    })
}

/// `double` version of `sk_upfirdn_f32`.
///
/// Real-time safe: no (allocates its working memory; long inputs may be split over the worker threads).
///
/// # Safety
/// `h`, `x` readable for `n_h`, `n_x` doubles; `y` writable for `n_out`.
#[no_mangle]
pub unsafe extern "C" fn sk_upfirdn_f64(
    h: *const f64,
    x: *const f64,
    up: usize,
    down: usize,
    y: *mut f64,
    n_h: usize,
    n_x: usize,
    n_out: usize,
) -> i32 {
    ffi_boundary!("sk_upfirdn_f64", {
        // SAFETY: this function's `# Safety` contract (`h` for n_h, `x` for n_x, `y` for n_out) is
        // `upfirdn_impl`'s; NULL, alignment and overlap are checked inside.
        unsafe { upfirdn_impl(h, x, up, down, y, n_h, n_x, n_out) }
    })
}

/// Stores in `*n_out` the length of `scipy.signal.resample_poly(x, up, down)` for `n_x`
/// samples: `ceil(n_x·up'/down')` with `up'/down'` in lowest terms. Returns `SK_OK`,
/// `SK_ERR_BAD_ARGUMENT` (`up` or `down` 0), `SK_ERR_LENGTH` (more samples than a float buffer
/// can hold, `PTRDIFF_MAX` bytes), `SK_ERR_NULL_POINTER`, `SK_ERR_MISALIGNED`. Thread safe.
///
/// Real-time safe: yes.
///
/// # Safety
/// `n_out` writable.
#[no_mangle]
pub unsafe extern "C" fn sk_resample_poly_size(
    up: usize,
    down: usize,
    n_out: *mut usize,
    n_x: usize,
) -> i32 {
    ffi_boundary!("sk_resample_poly_size", {
        poly::check_rates(up, down)?;
        // SAFETY: `size_out` needs `n_out` writable when non-NULL and aligned, this function's
        // `# Safety` contract; it checks NULL and alignment itself (`check_out_scalar`).
        unsafe {
            size_out(
                n_out,
                poly::resample_poly_len(n_x, up, down),
                format_args!("the output size of n_x = {n_x} by {up}/{down}"),
            )
        }
    })
}

/// `resample_poly` through the C arguments.
///
/// # Safety
/// `x` readable for `n_x` and `y` writable for `n_out` elements for the duration of the call;
/// NULL, alignment and overlap are checked here.
unsafe fn resample_poly_impl<T: Float>(
    x: *const T,
    up: usize,
    down: usize,
    y: *mut T,
    n_x: usize,
    n_out: usize,
) -> SkResult<()> {
    poly::check_rates(up, down)?;
    let need = poly::resample_poly_len(n_x, up, down)
        .ok_or_else(|| SkError::Length("the output size overflows size_t".into()))?;
    if n_out < need {
        return Err(SkError::BufferTooSmall(format!(
            "n_out = {n_out} but resample_poly of {n_x} samples by {up}/{down} gives {need}"
        )));
    }
    // SAFETY: `x` readable for `n_x` and `y` writable for `n_out` is the caller's `# Safety`
    // obligation; `bufs` checks both and refuses overlap.
    let (xs, ys) = unsafe { bufs(Buf::new("x", x, n_x), Buf::out("y", y, n_out))? };
    poly::resample_poly(current(), xs, up, down, &mut ys[..need])
}

/// `scipy.signal.resample_poly(x, up, down)` for `float`, with scipy's defaults: the ratio
/// reduced to lowest terms, a `firwin(20·max(up, down) + 1, 1/max(up, down),
/// window=('kaiser', 5.0))` filter scaled by `up`, zero padding (`padtype='constant'`) and
/// scipy's alignment, so the output equals scipy's (within 1e-6 relative in `double`; the
/// tests check it). Writes exactly `sk_resample_poly_size` samples.
///
/// Returns `SK_OK`; `SK_ERR_BUFFER_TOO_SMALL` (`n_out` below the size); `SK_ERR_BAD_ARGUMENT`
/// (`up` or `down` 0, or a filter beyond 2²⁴ taps); `SK_ERR_LENGTH`; `SK_ERR_NULL_POINTER`;
/// `SK_ERR_MISALIGNED`; `SK_ERR_OVERLAP` (`y` overlaps `x`); `SK_ERR_ALLOCATION`. On error
/// nothing is written. Thread safe.
///
/// Real-time safe: no (allocates its working memory; long inputs may be split over the worker threads).
///
/// # Safety
/// `x` readable for `n_x` floats; `y` writable for `n_out`.
#[no_mangle]
pub unsafe extern "C" fn sk_resample_poly_f32(
    x: *const f32,
    up: usize,
    down: usize,
    y: *mut f32,
    n_x: usize,
    n_out: usize,
) -> i32 {
    ffi_boundary!("sk_resample_poly_f32", {
        // SAFETY: this function's `# Safety` contract (`x` for n_x, `y` for n_out) is
        // `resample_poly_impl`'s; NULL, alignment and overlap are checked inside.
        unsafe { resample_poly_impl(x, up, down, y, n_x, n_out) }
    })
}

/// `double` version of `sk_resample_poly_f32`.
///
/// Real-time safe: no (allocates its working memory; long inputs may be split over the worker threads).
///
/// # Safety
/// `x` readable for `n_x` doubles; `y` writable for `n_out`.
#[no_mangle]
pub unsafe extern "C" fn sk_resample_poly_f64(
    x: *const f64,
    up: usize,
    down: usize,
    y: *mut f64,
    n_x: usize,
    n_out: usize,
) -> i32 {
    ffi_boundary!("sk_resample_poly_f64", {
        // SAFETY: this function's `# Safety` contract (`x` for n_x, `y` for n_out) is
        // `resample_poly_impl`'s; NULL, alignment and overlap are checked inside.
        unsafe { resample_poly_impl(x, up, down, y, n_x, n_out) }
    })
}

/// `decimate` / `interpolate` through the C arguments.
///
/// # Safety
/// `x` readable for `n_x` and `y` writable for `n_out` elements for the duration of the call;
/// NULL, alignment and overlap are checked here.
unsafe fn integer_impl<T: Float>(
    x: *const T,
    q: usize,
    y: *mut T,
    n_x: usize,
    n_out: usize,
    up: bool,
) -> SkResult<()> {
    if q == 0 {
        return Err(SkError::BadArgument("q must be at least 1".into()));
    }
    let need = if up {
        poly::interpolate_len(n_x, q)
            .ok_or_else(|| SkError::Length("the output size overflows size_t".into()))?
    } else {
        poly::decimate_len(n_x, q)
    };
    if n_out < need {
        return Err(SkError::BufferTooSmall(format!(
            "n_out = {n_out} but {} {n_x} samples by {q} gives {need}",
            if up { "interpolating" } else { "decimating" }
        )));
    }
    // SAFETY: `x` readable for `n_x` and `y` writable for `n_out` is the caller's `# Safety`
    // obligation; `bufs` checks both and refuses overlap.
    let (xs, ys) = unsafe { bufs(Buf::new("x", x, n_x), Buf::out("y", y, n_out))? };
    if up {
        poly::interpolate(current(), xs, q, &mut ys[..need])
    } else {
        poly::decimate(current(), xs, q, &mut ys[..need])
    }
}

/// `scipy.signal.decimate(x, q, ftype='fir', zero_phase=True)` for `float`: the anti-alias
/// filter `firwin(20·q + 1, 1/q, window='hamming')` applied without delay (scipy's
/// `resample_poly(x, 1, q, window=h)`: zero padding, scipy's alignment), keeping every
/// `q`-th sample. Writes exactly `ceil(n_x / q)` samples (within 1e-6 relative of scipy in
/// `double`; the tests check it). `q == 1` copies `x`.
///
/// Returns `SK_OK`; `SK_ERR_BUFFER_TOO_SMALL` (`n_out < ceil(n_x / q)`); `SK_ERR_BAD_ARGUMENT`
/// (`q` 0, or a filter beyond 2²⁴ taps); `SK_ERR_LENGTH`; `SK_ERR_NULL_POINTER`;
/// `SK_ERR_MISALIGNED`; `SK_ERR_OVERLAP` (`y` overlaps `x`); `SK_ERR_ALLOCATION`. On error
/// nothing is written. Thread safe.
///
/// Real-time safe: no (allocates its working memory; long inputs may be split over the worker threads).
///
/// # Safety
/// `x` readable for `n_x` floats; `y` writable for `n_out`.
#[no_mangle]
pub unsafe extern "C" fn sk_decimate_f32(
    x: *const f32,
    q: usize,
    y: *mut f32,
    n_x: usize,
    n_out: usize,
) -> i32 {
    ffi_boundary!("sk_decimate_f32", {
        // SAFETY: this function's `# Safety` contract (`x` for n_x, `y` for n_out) is
        // `integer_impl`'s; NULL, alignment and overlap are checked inside.
        unsafe { integer_impl(x, q, y, n_x, n_out, false) }
    })
}

/// `double` version of `sk_decimate_f32`.
///
/// Real-time safe: no (allocates its working memory; long inputs may be split over the worker threads).
///
/// # Safety
/// `x` readable for `n_x` doubles; `y` writable for `n_out`.
#[no_mangle]
pub unsafe extern "C" fn sk_decimate_f64(
    x: *const f64,
    q: usize,
    y: *mut f64,
    n_x: usize,
    n_out: usize,
) -> i32 {
    ffi_boundary!("sk_decimate_f64", {
        // SAFETY: this function's `# Safety` contract (`x` for n_x, `y` for n_out) is
        // `integer_impl`'s; NULL, alignment and overlap are checked inside.
        unsafe { integer_impl(x, q, y, n_x, n_out, false) }
    })
}

/// The counterpart of `sk_decimate_f32` for `float`: raises the rate by the integer `q` as
/// `scipy.signal.resample_poly(x, q, 1, window=firwin(20·q + 1, 1/q, window='hamming'))` (the
/// filter scaled by `q`, zero padding, no delay). Writes exactly `n_x·q` samples. `q == 1`
/// copies `x`.
///
/// Returns `SK_OK`; `SK_ERR_BUFFER_TOO_SMALL` (`n_out < n_x·q`); `SK_ERR_BAD_ARGUMENT` (`q` 0,
/// or a filter beyond 2²⁴ taps); `SK_ERR_LENGTH` (`n_x·q` overflows); `SK_ERR_NULL_POINTER`;
/// `SK_ERR_MISALIGNED`; `SK_ERR_OVERLAP` (`y` overlaps `x`); `SK_ERR_ALLOCATION`. On error
/// nothing is written. Thread safe.
///
/// Real-time safe: no (allocates its working memory; long inputs may be split over the worker threads).
///
/// # Safety
/// `x` readable for `n_x` floats; `y` writable for `n_out`.
#[no_mangle]
pub unsafe extern "C" fn sk_interpolate_f32(
    x: *const f32,
    q: usize,
    y: *mut f32,
    n_x: usize,
    n_out: usize,
) -> i32 {
    ffi_boundary!("sk_interpolate_f32", {
        // SAFETY: this function's `# Safety` contract (`x` for n_x, `y` for n_out) is
        // `integer_impl`'s; NULL, alignment and overlap are checked inside.
        unsafe { integer_impl(x, q, y, n_x, n_out, true) }
    })
}

/// `double` version of `sk_interpolate_f32`.
///
/// Real-time safe: no (allocates its working memory; long inputs may be split over the worker threads).
///
/// # Safety
/// `x` readable for `n_x` doubles; `y` writable for `n_out`.
#[no_mangle]
pub unsafe extern "C" fn sk_interpolate_f64(
    x: *const f64,
    q: usize,
    y: *mut f64,
    n_x: usize,
    n_out: usize,
) -> i32 {
    ffi_boundary!("sk_interpolate_f64", {
        // SAFETY: this function's `# Safety` contract (`x` for n_x, `y` for n_out) is
        // `integer_impl`'s; NULL, alignment and overlap are checked inside.
        unsafe { integer_impl(x, q, y, n_x, n_out, true) }
    })
}

/// Makes a resampler of either precision real-time safe for blocks of up to `max_block` input
/// frames: reserves everything such calls need (history, first-stage scratch, the interleaved
/// and `double` working copies, the interpolated phases a `sk_resampler_set_ratio` ramp needs)
/// and keeps every later call of the handle on the calling thread (no work is handed to the
/// library's worker threads). Afterwards `sk_resampler_*_process*` with `n_in <= max_block` and
/// at most the outputs of `2·max_block` input frames at the creation ratio (plus the latency),
/// `sk_resampler_*_flush*`, `sk_resampler_set_ratio`, `sk_resampler_reset` and the size
/// queries allocate no memory, take no lock another thread can hold and make no system call.
/// Larger blocks still work and give the same results; they may allocate. Results never depend
/// on this call. May be called again (e.g. with a larger `max_block`); the setting cannot be
/// undone.
///
/// Returns `SK_OK`, `SK_ERR_INVALID_HANDLE`, `SK_ERR_LENGTH` (the buffers for `max_block`
/// frames would not fit in the address space; nothing is reserved), `SK_ERR_ALLOCATION` (the
/// stream then works as before, without the guarantee).
///
/// Real-time safe: no (it allocates; call it after creation, before the audio thread starts).
///
/// # Safety
/// None beyond passing a pointer value.
#[no_mangle]
pub unsafe extern "C" fn sk_resampler_reserve(h: *mut SkResampler, max_block: usize) -> i32 {
    ffi_boundary!("sk_resampler_reserve", {
        with_obj(h, |o| each!(o, r => r.reserve_block(max_block)))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::*;
    use std::ptr::{null, null_mut};

    #[test]
    fn handle_lifecycle_and_errors() {
        let mut h: *mut SkResampler = null_mut();
        assert_eq!(
            // SAFETY: `h` is a writable handle slot.
            unsafe { sk_resampler_f32_new(48000.0, 44100.0, 2, SK_RESAMPLE_HIGH, &mut h) },
            SK_OK
        );
        let mut lat = 0usize;
        // SAFETY: `lat` is a writable usize; `h` is a registry key, never dereferenced.
        assert_eq!(unsafe { sk_resampler_latency(h, &mut lat) }, SK_OK);
        assert!(lat > 0);
        let x = vec![0.5f32; 2 * 4800];
        let mut y = [0f32; 2 * 100];
        let (mut c, mut p) = (7usize, 7usize);
        assert_eq!(
            // SAFETY: `x` holds 4800 frames of 2 channels, `y` room for 100 frames of 2; `c`, `p`
            // are writable usizes.
            unsafe {
                sk_resampler_f32_process_interleaved(
                    h,
                    x.as_ptr(),
                    y.as_mut_ptr(),
                    &mut c,
                    &mut p,
                    4800,
                    100,
                )
            },
            SK_OK
        );
        assert_eq!(p, 100);
        assert!(c < 4800);
        // wrong precision
        let xd = [0f64; 4];
        let mut yd = [0f64; 4];
        assert_eq!(
            // SAFETY: `xd`, `yd` hold 2 frames of 2 channels; `c`, `p` are writable (refused
            // anyway: wrong precision).
            unsafe {
                sk_resampler_f64_process_interleaved(
                    h,
                    xd.as_ptr(),
                    yd.as_mut_ptr(),
                    &mut c,
                    &mut p,
                    2,
                    2,
                )
            },
            SK_ERR_INVALID_HANDLE
        );
        // overlap
        let mut buf = [0f32; 64];
        let ptr = buf.as_mut_ptr();
        assert_eq!(
            // SAFETY: `buf` holds 64 floats: `ptr` and `ptr.add(2)` (in bounds) each start 8 frames
            // of 2 channels inside it (refused anyway: they overlap).
            unsafe {
                sk_resampler_f32_process_interleaved(h, ptr, ptr.add(2), &mut c, &mut p, 8, 8)
            },
            SK_ERR_OVERLAP
        );
        // flush too small
        let mut need = 0usize;
        // SAFETY: `need` is a writable usize; `h` is a registry key.
        assert_eq!(unsafe { sk_resampler_flush_size(h, &mut need) }, SK_OK);
        assert!(need > 0);
        let mut tail = vec![f32::NAN; 2 * need];
        assert_eq!(
            // SAFETY: `tail` holds `need` frames of 2 channels, more than `need − 1`; `p` is
            // writable.
            unsafe { sk_resampler_f32_flush_interleaved(h, tail.as_mut_ptr(), &mut p, need - 1) },
            SK_ERR_BUFFER_TOO_SMALL
        );
        assert!(tail.iter().all(|v| v.is_nan()));
        assert_eq!(
            // SAFETY: `tail` holds exactly `need` frames of 2 channels; `p` is writable.
            unsafe { sk_resampler_f32_flush_interleaved(h, tail.as_mut_ptr(), &mut p, need) },
            SK_OK
        );
        assert_eq!(p, need);
        assert_eq!(
            // SAFETY: no pointer argument besides the handle, a registry key never dereferenced.
            unsafe { sk_resampler_set_ratio(h, f64::NAN, 0) },
            SK_ERR_BAD_ARGUMENT
        );
        // SAFETY: no pointer argument besides the handle, a registry key never dereferenced.
        assert_eq!(unsafe { sk_resampler_set_ratio(h, 0.9, 100) }, SK_OK);
        // SAFETY: the handle is a registry key, never dereferenced; a freed one is refused.
        assert_eq!(unsafe { sk_resampler_reset(h) }, SK_OK);
        // SAFETY: the handle is a registry key, never dereferenced; a freed one is refused.
        assert_eq!(unsafe { sk_resampler_free(h) }, SK_OK);
        // SAFETY: the handle is a registry key, never dereferenced; a freed one is refused.
        assert_eq!(unsafe { sk_resampler_free(h) }, SK_ERR_INVALID_HANDLE);
        // SAFETY: the handle is a registry key, never dereferenced; a freed one is refused.
        assert_eq!(unsafe { sk_resampler_reset(h) }, SK_ERR_INVALID_HANDLE);
        // SAFETY: NULL is accepted as a no-op.
        assert_eq!(unsafe { sk_resampler_free(null_mut()) }, SK_OK);
        for (a, b) in [
            (0.0, 1.0),
            (-1.0, 1.0),
            (f64::NAN, 1.0),
            (1.0, f64::INFINITY),
            (1.0, 300.0),
        ] {
            assert_eq!(
                // SAFETY: `h` is a writable handle slot.
                unsafe { sk_resampler_f64_new(a, b, 1, SK_RESAMPLE_LOW, &mut h) },
                SK_ERR_BAD_ARGUMENT
            );
        }
        assert_eq!(
            // SAFETY: `h` is a writable handle slot.
            unsafe { sk_resampler_f64_new(1.0, 2.0, 1, 5, &mut h) },
            SK_ERR_BAD_ARGUMENT
        );
        assert_eq!(
            // SAFETY: `h` is a writable handle slot.
            unsafe { sk_resampler_f64_new(1.0, 2.0, 0, 1, &mut h) },
            SK_ERR_LENGTH
        );
        assert_eq!(
            // SAFETY: a NULL `out` is refused before any write.
            unsafe { sk_resampler_f64_new(1.0, 2.0, 1, 1, null_mut()) },
            SK_ERR_NULL_POINTER
        );
        assert_eq!(
            // SAFETY: a NULL `spec` is refused before any read; `h` is a writable handle slot.
            unsafe { sk_resampler_f64_new_spec(1.0, 2.0, 1, null(), &mut h) },
            SK_ERR_NULL_POINTER
        );
        let spec = SkResampleSpec {
            passband_end: 0.95,
            stopband_begin: 0.9,
            attenuation_db: 100.0,
        };
        assert_eq!(
            // SAFETY: `spec` is a live `SkResampleSpec` and `h` a writable handle slot.
            unsafe { sk_resampler_f64_new_spec(1.0, 2.0, 1, &spec, &mut h) },
            SK_ERR_BAD_ARGUMENT
        );
    }

    #[test]
    fn a_stream_used_from_two_threads_is_refused_not_raced() {
        let mut h: *mut SkResampler = null_mut();
        assert_eq!(
            // SAFETY: `h` is a writable handle slot.
            unsafe { sk_resampler_f64_new(2.0, 1.0, 1, SK_RESAMPLE_LOW, &mut h) },
            SK_OK
        );
        let id = h as usize;
        let (tx, rx) = std::sync::mpsc::channel();
        let (tx2, rx2) = std::sync::mpsc::channel::<()>();
        let t = std::thread::spawn(move || {
            with_obj(id as *mut SkResampler, |_| {
                tx.send(()).unwrap();
                rx2.recv().unwrap();
                Ok(())
            })
            .unwrap()
        });
        rx.recv().unwrap();
        let mut lat = 0usize;
        assert_eq!(
            // SAFETY: `lat` is a writable usize; `h` is a registry key, never dereferenced.
            unsafe { sk_resampler_latency(h, &mut lat) },
            SK_ERR_INVALID_HANDLE
        );
        let msg = crate::ffi::guard::with_last_error(|m| m.to_string());
        assert!(msg.contains("in use"), "{msg}");
        // SAFETY: the handle is a registry key, never dereferenced; a freed one is refused.
        assert_eq!(unsafe { sk_resampler_free(h) }, SK_ERR_INVALID_HANDLE);
        tx2.send(()).unwrap();
        t.join().unwrap();
        // SAFETY: `lat` is a writable usize; `h` is a registry key, never dereferenced.
        assert_eq!(unsafe { sk_resampler_latency(h, &mut lat) }, SK_OK);
        // SAFETY: the handle is a registry key, never dereferenced; a freed one is refused.
        assert_eq!(unsafe { sk_resampler_free(h) }, SK_OK);
    }

    #[test]
    fn oneshot_sizes_and_too_small() {
        let mut n = 0usize;
        assert_eq!(
            // SAFETY: `n` is a writable usize.
            unsafe { sk_resample_size(48000.0, 44100.0, &mut n, 48000) },
            SK_OK
        );
        assert_eq!(n, 44100);
        assert_eq!(
            // SAFETY: `n` is a writable usize.
            unsafe { sk_resample_size(0.0, 44100.0, &mut n, 1) },
            SK_ERR_BAD_ARGUMENT
        );
        let x = [1.0f64; 100];
        let mut y = [f64::NAN; 92];
        assert_eq!(
            // SAFETY: one channel (strides ignored): `x` holds the 100 input samples, `y` 92 ≥
            // `n_out` writable samples.
            unsafe {
                sk_resample_f64(
                    x.as_ptr(),
                    0,
                    48000.0,
                    44100.0,
                    2,
                    1,
                    y.as_mut_ptr(),
                    0,
                    100,
                    91,
                )
            },
            SK_ERR_BUFFER_TOO_SMALL
        );
        assert!(y.iter().all(|v| v.is_nan()));
        assert_eq!(
            // SAFETY: one channel (strides ignored): `x` holds the 100 input samples, `y` 92 ≥
            // `n_out` writable samples.
            unsafe {
                sk_resample_f64(
                    x.as_ptr(),
                    0,
                    48000.0,
                    44100.0,
                    2,
                    1,
                    y.as_mut_ptr(),
                    0,
                    100,
                    92,
                )
            },
            SK_OK
        );
        assert!(y.iter().all(|v| v.is_finite()));
    }
}
