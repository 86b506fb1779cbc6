//! FFT plans: real forward (n reals → n/2+1 complex) and inverse, complex forward and inverse,
//! every n ≥ 1, f32 and f64, numpy's three normalisations. Powers of two (double real ones from
//! 64 points) and every float length run on `rustfft`/`realfft`; the other double lengths on the
//! accuracy-first [`MixedFft`] (complex) and [`RealFft`] (real: pocketfft's real algorithm and
//! twiddles, numpy's results bit for bit) (see [`use_crate`]). Double real transforms of 64 …
//! 8192 points and float real transforms of 128 … 65536 points run their half-length complex
//! transform on the own AVX-512 passes ([`pow2_avx512`], [`pow2_avx512_f32`]) where the SIMD
//! level is AVX-512; at the AVX2 level float real transforms of 512 … 8192 points run theirs on
//! the own AVX2 passes ([`pow2_avx2_f32`]); everything else runs on `rustfft`.
//!
//! Scratch. A plan holds only immutable data (`Arc`s of the crates' precomputed twiddles), so one
//! plan may run concurrently on any number of threads. Each call takes its scratch from a
//! per-thread [`Workspace`] (borrowed in place from a thread-local slot for the duration of the
//! call; a nested call on the same thread simply allocates a fresh one), so repeated calls on a
//! thread do not allocate and threads never share scratch.

use super::Complex;
use crate::error::{SkError, SkResult};
use crate::kernels::alloc::{headroom, try_collect, try_grow};
use crate::kernels::Float;
use realfft::{ComplexToReal, RealFftPlanner, RealToComplex};
use rustfft::{Fft, FftNum, FftPlanner};
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, OnceLock};

mod mixed;
mod pocket;
#[cfg(target_arch = "x86_64")]
mod pow2_avx2_f32;
#[cfg(target_arch = "x86_64")]
mod pow2_avx2_f64;
#[cfg(target_arch = "x86_64")]
mod pow2_avx512;
#[cfg(target_arch = "x86_64")]
mod pow2_avx512_f32;
#[cfg(all(test, target_arch = "x86_64"))]
mod pow2_check;
#[cfg(target_arch = "x86_64")]
mod pow2_pair;
#[cfg(target_arch = "x86_64")]
mod pow2_sse2_f32;
#[cfg(target_arch = "x86_64")]
mod pow2_sse2_f64;
mod real;
mod rows;
#[cfg(target_arch = "x86_64")]
mod split_avx2;
#[cfg(target_arch = "x86_64")]
mod split_avx512;

use mixed::MixedFft;
use real::RealFft;
pub(crate) use real::{passes_fit as real_passes_fit, Lanes, RealPasses};
use rows::LaneWork;
pub(crate) use rows::RowLanes;

/// Largest transform length accepted (2^28 points): planning allocates O(n) twiddles and
/// scratch that cannot be checked for success, so absurd lengths are refused up front instead of
/// aborting the process on a failed allocation.
pub(crate) const MAX_FFT_LEN: usize = 1 << 28;

/// Complex values per point that must be allocatable before a plan is made (see
/// [`FftPlan::new`]).
const PLAN_HEADROOM: usize = 4;

/// numpy's `norm=` modes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Norm {
    /// Forward unscaled, inverse scaled by 1/n (numpy's default).
    Backward,
    /// Both directions scaled by 1/sqrt(n).
    Ortho,
    /// Forward scaled by 1/n, inverse unscaled.
    Forward,
}

impl Norm {
    /// The factor applied after a transform of length `n` in the given direction
    /// (`None` for an unscaled transform).
    pub fn scale(self, n: usize, inverse: bool) -> Option<f64> {
        let n = n as f64;
        match (self, inverse) {
            (Norm::Backward, false) | (Norm::Forward, true) => None,
            (Norm::Ortho, _) => Some(1.0 / n.sqrt()),
            (Norm::Backward, true) | (Norm::Forward, false) => Some(1.0 / n),
        }
    }
}

/// What a plan transforms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FftKind {
    /// Real signal of n samples ↔ n/2+1 complex bins.
    Real,
    /// Complex signal of n samples ↔ n complex bins.
    Complex,
}

impl FftKind {
    pub fn name(self) -> &'static str {
        match self {
            FftKind::Real => "real",
            FftKind::Complex => "complex",
        }
    }
}

/// Per-thread scratch buffers of one element type.
pub struct Workspace<T> {
    pub real: Vec<T>,
    pub cplx: Vec<Complex<T>>,
    pub cplx2: Vec<Complex<T>>,
    /// The lane buffers of the batched real transforms ([`RowLanes`]).
    pub(crate) lanes: LaneWork<T>,
}

impl<T> Default for Workspace<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T> Workspace<T> {
    /// Empty buffers (const, for the thread-local slot).
    const fn new() -> Self {
        Workspace {
            real: Vec::new(),
            cplx: Vec::new(),
            cplx2: Vec::new(),
            lanes: LaneWork::new(),
        }
    }

    /// Bytes held.
    fn bytes(&self) -> usize {
        self.real.capacity() * std::mem::size_of::<T>()
            + (self.cplx.capacity() + self.cplx2.capacity()) * std::mem::size_of::<Complex<T>>()
            + self.lanes.bytes()
    }
}

/// Workspaces above this many bytes are not cached after the call.
const MAX_CACHED_BYTES: usize = 64 << 20;

/// The element types the FFT plans support, with their per-thread workspace.
pub trait FftFloat: Float + FftNum {
    /// Runs `f` with this thread's workspace (or a fresh one when it is already in use).
    fn with_workspace<R>(f: impl FnOnce(&mut Workspace<Self>) -> R) -> R;
    /// The forward real-FFT split step at `level` (see [`split_fwd_body`]).
    fn split_fwd_at(level: crate::simd::Level, y: &mut [Complex<Self>], v: &[Complex<Self>]);
    /// The inverse real-FFT split step at `level` (see [`split_inv_body`]).
    fn split_inv_at(
        level: crate::simd::Level,
        x: &[Complex<Self>],
        z: &mut [Complex<Self>],
        tw: &[Complex<Self>],
    );
    /// Whether lengths that are not powers of two run on [`MixedFft`] (see [`use_crate`]).
    const ACCURATE_MIXED: bool;
    /// The slice itself for f64, `None` for f32: lets the generic [`MixedFft`] reach its
    /// f64-only SIMD passes without a cast.
    fn as_f64(x: &[Complex<Self>]) -> Option<&[Complex<f64>]>;
    /// Mutable counterpart of [`FftFloat::as_f64`].
    fn as_f64_mut(x: &mut [Complex<Self>]) -> Option<&mut [Complex<f64>]>;
    /// The slice itself for f32, `None` for f64 (the float own transforms).
    fn as_f32(x: &[Complex<Self>]) -> Option<&[Complex<f32>]>;
    /// Mutable counterpart of [`FftFloat::as_f32`].
    fn as_f32_mut(x: &mut [Complex<Self>]) -> Option<&mut [Complex<f32>]>;
}

fn some<X>(x: X) -> Option<X> {
    Some(x)
}

fn none<X, Y>(_: X) -> Option<Y> {
    None
}

macro_rules! split_at_level {
    ($fwd:ident, $inv:ident, $t:ty) => {
        /// The forward split step: explicit AVX-512 or AVX2 where the (clamped) level allows it,
        /// otherwise the compiler-vectorised body at that level.
        fn $fwd(level: crate::simd::Level, y: &mut [Complex<$t>], v: &[Complex<$t>]) {
            #[cfg(target_arch = "x86_64")]
            match crate::simd::effective(level) {
                // SAFETY: the level was clamped to the detected one, so the CPU has AVX-512
                // F/BW/DQ/VL.
                crate::simd::Level::Avx512 => return unsafe { split_avx512::$fwd(y, v) },
                // SAFETY: as above, the CPU has AVX2.
                crate::simd::Level::Avx2 => return unsafe { split_avx2::$fwd(y, v) },
                _ => {}
            }
            split_fwd_generic(level, y, v)
        }

        /// The inverse split step: explicit AVX2 where the (clamped) level is AVX2, otherwise the
        /// compiler-vectorised body at that level (the AVX-512 level keeps its compiler-vectorised
        /// body: the explicit AVX2 step has not been measured against it).
        fn $inv(
            level: crate::simd::Level,
            x: &[Complex<$t>],
            z: &mut [Complex<$t>],
            tw: &[Complex<$t>],
        ) {
            #[cfg(target_arch = "x86_64")]
            if crate::simd::effective(level) == crate::simd::Level::Avx2 {
                // SAFETY: the level was clamped to the detected one, so the CPU has AVX2.
                return unsafe { split_avx2::$inv(x, z, tw) };
            }
            split_inv_generic(level, x, z, tw)
        }
    };
}
split_at_level!(split_fwd_f32, split_inv_f32, f32);
split_at_level!(split_fwd_f64, split_inv_f64, f64);

macro_rules! impl_fft_float {
    ($t:ty, $split:expr, $split_inv:expr, $acc:expr, $f64:ident, $f32:ident) => {
        impl FftFloat for $t {
            const ACCURATE_MIXED: bool = $acc;
            fn as_f64(x: &[Complex<Self>]) -> Option<&[Complex<f64>]> {
                $f64(x)
            }
            fn as_f64_mut(x: &mut [Complex<Self>]) -> Option<&mut [Complex<f64>]> {
                $f64(x)
            }
            fn as_f32(x: &[Complex<Self>]) -> Option<&[Complex<f32>]> {
                $f32(x)
            }
            fn as_f32_mut(x: &mut [Complex<Self>]) -> Option<&mut [Complex<f32>]> {
                $f32(x)
            }
            fn split_fwd_at(
                level: crate::simd::Level,
                y: &mut [Complex<Self>],
                v: &[Complex<Self>],
            ) {
                $split(level, y, v)
            }
            fn split_inv_at(
                level: crate::simd::Level,
                x: &[Complex<Self>],
                z: &mut [Complex<Self>],
                tw: &[Complex<Self>],
            ) {
                $split_inv(level, x, z, tw)
            }
            fn with_workspace<R>(f: impl FnOnce(&mut Workspace<Self>) -> R) -> R {
                thread_local! {
                    static WS: RefCell<Workspace<$t>> = const { RefCell::new(Workspace::new()) };
                }
                WS.with(|c| match c.try_borrow_mut() {
                    // borrowed in place: no move of the workspace in or out of the slot
                    Ok(mut ws) => {
                        let r = f(&mut ws);
                        if ws.bytes() > MAX_CACHED_BYTES {
                            *ws = Workspace::default();
                        }
                        r
                    }
                    // a nested call on this thread: a fresh workspace, dropped afterwards
                    Err(_) => f(&mut Workspace::default()),
                })
            }
        }
    };
}
impl_fft_float!(f32, split_fwd_f32, split_inv_f32, false, none, some);
impl_fft_float!(f64, split_fwd_f64, split_inv_f64, true, some, none);

/// Grows `v` to at least `n` elements (new elements zero) and returns its first `n`.
pub fn grow<T: Clone + Default>(v: &mut Vec<T>, n: usize) -> &mut [T] {
    if v.len() < n {
        v.resize(n, T::default());
    }
    &mut v[..n]
}

/// Even-length real transforms as one complex FFT of n/2 points plus a split step
/// (multiversioned, so it runs with AVX2/AVX-512 where available), working directly on the
/// caller's buffers viewed as complex pairs: no copy of the input is needed.
struct EvenReal<T: FftNum> {
    m: usize,
    fwd: Arc<dyn Fft<T>>,
    inv: Arc<dyn Fft<T>>,
    /// `e^{-2πik/n}` for `k ≤ m/2` (inverse split step).
    tw: Vec<Complex<T>>,
    /// `−i·e^{-2πik/n}/2` for `k ≤ m/2` (forward split step).
    v: Vec<Complex<T>>,
    /// The own transforms (AVX-512, AVX2 or SSE2) of the half length, run instead of
    /// `fwd`/`inv` where they exist (see [`OwnPow2::new`]).
    own: Option<OwnPow2>,
}

/// The own complex transforms of one power-of-two length (forward and inverse): Stockham
/// passes on AVX-512, radix 4/8/16 for doubles ([`pow2_avx512`]), radix 8/16 for floats
/// ([`pow2_avx512_f32`]); on AVX2 for floats ([`pow2_avx2_f32`]) and doubles
/// ([`pow2_avx2_f64`]); on SSE2 for floats ([`pow2_sse2_f32`]) and doubles
/// ([`pow2_sse2_f64`]). The AVX2 double and both SSE2 kinds share their passes
/// ([`pow2_pair`]: two complex values per vector).
#[cfg(target_arch = "x86_64")]
enum OwnPow2 {
    Double {
        fwd: pow2_avx512::Pow2Avx512,
        inv: pow2_avx512::Pow2Avx512,
    },
    Float {
        fwd: pow2_avx512_f32::Pow2Avx512F32,
        inv: pow2_avx512_f32::Pow2Avx512F32,
    },
    /// Float transforms on AVX2 + FMA ([`pow2_avx2_f32`]), for the AVX2 level.
    FloatAvx2 {
        fwd: pow2_avx2_f32::Pow2Avx2F32,
        inv: pow2_avx2_f32::Pow2Avx2F32,
    },
    /// Double transforms on AVX2 + FMA ([`pow2_avx2_f64`]), for the AVX2 level.
    DoubleAvx2 {
        fwd: pow2_avx2_f64::Pow2Avx2F64,
        inv: pow2_avx2_f64::Pow2Avx2F64,
    },
    /// Float transforms on SSE2 ([`pow2_sse2_f32`]), for the baseline level.
    FloatSse2 {
        fwd: pow2_sse2_f32::Pow2Sse2F32,
        inv: pow2_sse2_f32::Pow2Sse2F32,
    },
    /// Double transforms on SSE2 ([`pow2_sse2_f64`]), for the baseline level.
    DoubleSse2 {
        fwd: pow2_sse2_f64::Pow2Sse2F64,
        inv: pow2_sse2_f64::Pow2Sse2F64,
    },
}

/// No own transforms off x86-64 (an uninhabited type: `EvenReal::own` is always `None`).
#[cfg(not(target_arch = "x86_64"))]
enum OwnPow2 {}

impl OwnPow2 {
    /// The own transforms of `m` points for element type `T` at SIMD level `level`, if they
    /// exist: at [`Level::Avx512`] powers of two in [`OWN_POW2`] (double) or [`OWN_POW2_F32`]
    /// (float), AVX-512 F/DQ/VL/BW and FMA present; at [`Level::Avx2`] powers of two in
    /// [`OWN_POW2_F32_AVX2`] (float) or [`OWN_POW2_AVX2`] (double), AVX2 and FMA present; at
    /// [`Level::Baseline`] powers of two in [`OWN_POW2_F32_SSE2`] (float) or [`OWN_POW2_SSE2`]
    /// (double; SSE2 is part of x86-64). The scalar level has none.
    ///
    /// [`Level::Avx512`]: crate::simd::Level::Avx512
    /// [`Level::Avx2`]: crate::simd::Level::Avx2
    /// [`Level::Baseline`]: crate::simd::Level::Baseline
    ///
    /// The AVX-512 forward plans keep the forward split step's twiddles `v` (see
    /// [`split_twiddles`]) and run the split step themselves ([`OwnPow2::split_forward`]).
    #[allow(unused_variables, unused_imports)] // off x86-64 there is nothing to choose
    fn new<T: FftFloat>(m: usize, level: crate::simd::Level, v: &[Complex<T>]) -> Option<Self> {
        use crate::simd::Level;
        #[cfg(target_arch = "x86_64")]
        if level == Level::Avx2 && T::as_f32(&[]).is_some() && OWN_POW2_F32_AVX2.contains(&m) {
            return Some(OwnPow2::FloatAvx2 {
                fwd: pow2_avx2_f32::Pow2Avx2F32::new(m, false)?,
                inv: pow2_avx2_f32::Pow2Avx2F32::new(m, true)?,
            });
        } else if level == Level::Avx2 && T::as_f64(&[]).is_some() && OWN_POW2_AVX2.contains(&m) {
            return Some(OwnPow2::DoubleAvx2 {
                fwd: pow2_avx2_f64::Pow2Avx2F64::new(m, false)?,
                inv: pow2_avx2_f64::Pow2Avx2F64::new(m, true)?,
            });
        } else if level == Level::Avx512 && T::as_f64(&[]).is_some() && OWN_POW2.contains(&m) {
            return Some(OwnPow2::Double {
                fwd: pow2_avx512::Pow2Avx512::new(m, false)?.with_split(T::as_f64(v)?),
                inv: pow2_avx512::Pow2Avx512::new(m, true)?,
            });
        } else if level == Level::Avx512 && T::as_f32(&[]).is_some() && OWN_POW2_F32.contains(&m) {
            return Some(OwnPow2::Float {
                fwd: pow2_avx512_f32::Pow2Avx512F32::new(m, false)?.with_split(T::as_f32(v)?),
                inv: pow2_avx512_f32::Pow2Avx512F32::new(m, true)?,
            });
        } else if level == Level::Baseline
            && T::as_f32(&[]).is_some()
            && OWN_POW2_F32_SSE2.contains(&m)
        {
            return Some(OwnPow2::FloatSse2 {
                fwd: pow2_sse2_f32::Pow2Sse2F32::new(m, false)?,
                inv: pow2_sse2_f32::Pow2Sse2F32::new(m, true)?,
            });
        } else if level == Level::Baseline && T::as_f64(&[]).is_some() && OWN_POW2_SSE2.contains(&m)
        {
            return Some(OwnPow2::DoubleSse2 {
                fwd: pow2_sse2_f64::Pow2Sse2F64::new(m, false)?,
                inv: pow2_sse2_f64::Pow2Sse2F64::new(m, true)?,
            });
        }
        None
    }

    fn scratch_len(&self) -> usize {
        // the AVX-512 multi-pass transforms below the aligned-passes length also take room for
        // the result of `forward_avx512`
        #[cfg(target_arch = "x86_64")]
        let with_target = |s: usize| {
            if s > 0 && s < pow2_avx512::ALIGNED_PASSES_MIN {
                2 * s
            } else {
                s
            }
        };
        #[cfg(target_arch = "x86_64")]
        return match self {
            OwnPow2::Double { fwd, inv } => with_target(fwd.scratch_len().max(inv.scratch_len())),
            OwnPow2::Float { fwd, inv } => with_target(fwd.scratch_len().max(inv.scratch_len())),
            OwnPow2::FloatAvx2 { fwd, inv } => fwd.scratch_len().max(inv.scratch_len()),
            OwnPow2::DoubleAvx2 { fwd, inv } => fwd.scratch_len().max(inv.scratch_len()),
            OwnPow2::FloatSse2 { fwd, inv } => fwd.scratch_len().max(inv.scratch_len()),
            OwnPow2::DoubleSse2 { fwd, inv } => fwd.scratch_len().max(inv.scratch_len()),
        };
        #[cfg(not(target_arch = "x86_64"))]
        match *self {}
    }

    /// The whole real forward transform of `2m` points (`x`: its m even/odd pairs, `y`: the
    /// m + 1 bins) in one codelet, where one exists (AVX-512, doubles of m = 16 … 256, floats
    /// of m = 32, 64; see [`pow2_avx512::Pow2Avx512::real_forward`]): no scratch from the plan
    /// or the thread, the split step reading back the vectors the transform has just stored.
    /// Returns `false`, writing nothing, elsewhere.
    #[allow(unused_variables)]
    fn real_forward<T: FftFloat>(&self, x: &[Complex<T>], y: &mut [Complex<T>]) -> bool {
        #[cfg(target_arch = "x86_64")]
        match self {
            OwnPow2::Double { fwd, .. } => {
                if let (Some(x), Some(y)) = (T::as_f64(x), T::as_f64_mut(y)) {
                    return fwd.real_forward(x, y);
                }
            }
            OwnPow2::Float { fwd, .. } => {
                if let (Some(x), Some(y)) = (T::as_f32(x), T::as_f32_mut(y)) {
                    return fwd.real_forward(x, y);
                }
            }
            _ => {}
        }
        false
    }

    /// The forward split step on the result of [`OwnPow2::run`] in `y[..m]`, in place, writing
    /// the m + 1 bins, where the plan keeps its split twiddles (the AVX-512 plans: the aligned
    /// step, twiddles spread up to 8192 complex points; see
    /// [`pow2_avx512::Pow2Avx512::split_forward`]). Returns `false`, writing nothing,
    /// elsewhere. Bit for bit [`split_fwd`].
    #[allow(unused_variables)]
    fn split_forward<T: FftFloat>(&self, y: &mut [Complex<T>]) -> bool {
        #[cfg(target_arch = "x86_64")]
        match self {
            OwnPow2::Double { fwd, .. } => {
                if let Some(y) = T::as_f64_mut(y) {
                    return fwd.split_forward(None, y);
                }
            }
            OwnPow2::Float { fwd, .. } => {
                if let Some(y) = T::as_f32_mut(y) {
                    return fwd.split_forward(None, y);
                }
            }
            _ => {}
        }
        false
    }

    /// The whole unnormalised real inverse transform of the m + 1 bins `x` into `y` (the m
    /// even/odd pairs of 2m points) in one codelet, where one exists (AVX-512, doubles of
    /// m = 16, 32, 64, floats of m = 32, 64; see [`pow2_avx512::Pow2Avx512::real_inverse`]):
    /// no scratch, the split step's stores read straight back by the transform, the result
    /// multiplied by `scale` (`None`: not scaled) as it is stored. Returns `false`, writing
    /// nothing, elsewhere.
    #[allow(unused_variables)]
    fn real_inverse<T: FftFloat>(
        &self,
        x: &[Complex<T>],
        y: &mut [Complex<T>],
        tw: &[Complex<T>],
        scale: Option<f64>,
    ) -> bool {
        #[cfg(target_arch = "x86_64")]
        match self {
            OwnPow2::Double { inv, .. } => {
                if let (Some(x), Some(tw), Some(y)) =
                    (T::as_f64(x), T::as_f64(tw), T::as_f64_mut(y))
                {
                    return inv.real_inverse(x, y, tw, scale.unwrap_or(1.0));
                }
            }
            OwnPow2::Float { inv, .. } => {
                if let (Some(x), Some(tw), Some(y)) =
                    (T::as_f32(x), T::as_f32(tw), T::as_f32_mut(y))
                {
                    // the factor rounded to float once, as `scale_slice` does
                    return inv.real_inverse(x, y, tw, scale.map_or(1.0, |s| s as f32));
                }
            }
            _ => {}
        }
        false
    }

    /// The forward real transform's complex part and split step through the AVX-512
    /// multi-pass transforms, for two cases the usual path does not cover; bit for bit the
    /// usual path's bins (of `x` times `win`, with a window). Returns `false`, writing nothing,
    /// where neither applies (other levels and lengths; an aligned `y` without a window).
    ///
    /// - An output `y` (m + 1 bins) off a 64-byte boundary, as numpy's arrays mostly are: below
    ///   [`pow2_avx512::ALIGNED_PASSES_MIN`] points every pass runs in the scratch (placed on a
    ///   cache line), and the split step reads the last pass's result there and writes the bins
    ///   to `y` once, where the usual path has the last pass write `y` and the split read and
    ///   rewrite it, every vector of each pass spanning two cache lines.
    /// - A window `win` (m complex values: the real window's pairs): the first pass multiplies
    ///   the input by it as it loads it, so the windowed frame is never stored.
    #[allow(unused_variables, clippy::needless_return)] // off x86-64 the body is `false`
    fn forward_avx512<T: FftFloat>(
        &self,
        x: &[Complex<T>],
        win: Option<&[Complex<T>]>,
        y: &mut [Complex<T>],
        scratch: &mut Vec<Complex<T>>,
    ) -> bool {
        #[cfg(target_arch = "x86_64")]
        {
            let m = y.len() - 1;
            let target =
                m < pow2_avx512::ALIGNED_PASSES_MIN && !(y.as_ptr() as usize).is_multiple_of(64);
            if !target && win.is_none() {
                return false;
            }
            // the transform's scratch (+ m values for its result with `target`), carved from one
            // placed scratch (cache-line aligned; m complex values are a whole number of lines,
            // m ≥ 128 a power of two for the multi-pass plans)
            macro_rules! via_scratch {
                ($fwd:ident, $as:ident, $as_mut:ident) => {{
                    let s = $fwd.scratch_len();
                    if s == 0 {
                        return false;
                    }
                    let extra = if target { m } else { 0 };
                    let place = placed_scratch(scratch, s + extra, x.as_ptr(), y.as_ptr());
                    let (t, rest) = place.split_at_mut(extra);
                    let w = win.map(|w| T::$as(w).expect("a window of the element type"));
                    match (T::$as(x), T::$as_mut(t), T::$as_mut(rest), T::$as_mut(y)) {
                        (Some(x), Some(t), Some(rest), Some(y)) => {
                            let out = if target { &mut *t } else { &mut y[..m] };
                            match w {
                                // every multi-pass forward plan has a windowed first pass;
                                // without one nothing has been written
                                Some(w) => {
                                    if !$fwd.process_windowed(x, w, out, rest) {
                                        return false;
                                    }
                                }
                                None => $fwd.process_outofplace(x, out, rest),
                            }
                            let z = if target { Some(&*t) } else { None };
                            assert!(
                                $fwd.split_forward(z, y),
                                "the own forward plans keep their split twiddles (`new`)"
                            );
                        }
                        _ => unreachable!("own transforms are made for their element type only"),
                    }
                    true
                }};
            }
            return match self {
                OwnPow2::Double { fwd, .. } => via_scratch!(fwd, as_f64, as_f64_mut),
                OwnPow2::Float { fwd, .. } => via_scratch!(fwd, as_f32, as_f32_mut),
                _ => false,
            };
        }
        #[cfg(not(target_arch = "x86_64"))]
        false
    }

    /// The unnormalised real inverse transform's split step and complex part for an output `y`
    /// (the m even/odd pairs) off a 64-byte boundary, through the AVX-512 multi-pass
    /// transforms: the split step writes an aligned scratch, the passes but the last alternate
    /// between it and the transform's scratch, and only the last pass writes `y`, where the
    /// usual path runs the split and every pass through `y` (each vector then spanning two
    /// cache lines: 1.35× the aligned time at 16384 points). Bit for bit the usual path.
    /// Returns `false`, writing nothing, where this does not apply (other levels, the
    /// single-codelet lengths, lengths where it measured slower, an aligned `y`).
    #[allow(unused_variables, clippy::needless_return)] // off x86-64 the body is `false`
    fn inverse_aligned_source<T: FftFloat>(
        &self,
        x: &[Complex<T>],
        y: &mut [Complex<T>],
        tw: &[Complex<T>],
        scratch: &mut Vec<Complex<T>>,
    ) -> bool {
        #[cfg(target_arch = "x86_64")]
        {
            let m = y.len();
            if (y.as_ptr() as usize).is_multiple_of(64) {
                return false;
            }
            macro_rules! via_scratch {
                ($inv:ident, $as_mut:ident) => {{
                    if $inv.scratch_len() == 0 || !$inv.destroying_pays() {
                        return false;
                    }
                    // the split's result and the transform's scratch: m values each
                    let place = placed_scratch(scratch, 2 * m, x.as_ptr(), y.as_ptr());
                    let (t, rest) = place.split_at_mut(m);
                    split_inv(crate::simd::Level::Avx512, x, t, tw);
                    match (T::$as_mut(t), T::$as_mut(rest), T::$as_mut(y)) {
                        (Some(t), Some(rest), Some(y)) => $inv.process_destroying(t, y, rest),
                        _ => unreachable!("own transforms are made for their element type only"),
                    }
                    true
                }};
            }
            return match self {
                OwnPow2::Double { inv, .. } => via_scratch!(inv, as_f64_mut),
                OwnPow2::Float { inv, .. } => via_scratch!(inv, as_f32_mut),
                _ => false,
            };
        }
        #[cfg(not(target_arch = "x86_64"))]
        false
    }

    /// The unnormalised transform of `x` into `y` (of `y` in place when `x` is `None`), with
    /// scratch placed away from both (see [`scratch_offset`]).
    #[allow(unused_variables)]
    fn run<T: FftFloat>(
        &self,
        inverse: bool,
        x: Option<&[Complex<T>]>,
        y: &mut [Complex<T>],
        scratch: &mut Vec<Complex<T>>,
    ) {
        #[cfg(target_arch = "x86_64")]
        {
            let xp = x.map_or(y.as_ptr(), |x| x.as_ptr());
            // one direction of a pair, on `y` viewed as its element type (`$as`/`$as_mut`)
            macro_rules! run_own {
                ($fwd:ident, $inv:ident, $as:ident, $as_mut:ident) => {{
                    let f = if inverse { $inv } else { $fwd };
                    let s = placed_scratch(scratch, f.scratch_len(), xp, y.as_ptr());
                    match (x.map(T::$as), T::$as_mut(y), T::$as_mut(s)) {
                        (None, Some(y), Some(s)) => f.process(y, s),
                        (Some(Some(x)), Some(y), Some(s)) => f.process_outofplace(x, y, s),
                        _ => unreachable!("own transforms are made for their element type only"),
                    }
                }};
            }
            match self {
                OwnPow2::Double { fwd, inv } => run_own!(fwd, inv, as_f64, as_f64_mut),
                OwnPow2::Float { fwd, inv } => run_own!(fwd, inv, as_f32, as_f32_mut),
                OwnPow2::FloatAvx2 { fwd, inv } => run_own!(fwd, inv, as_f32, as_f32_mut),
                OwnPow2::DoubleAvx2 { fwd, inv } => run_own!(fwd, inv, as_f64, as_f64_mut),
                OwnPow2::FloatSse2 { fwd, inv } => run_own!(fwd, inv, as_f32, as_f32_mut),
                OwnPow2::DoubleSse2 { fwd, inv } => run_own!(fwd, inv, as_f64, as_f64_mut),
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        match *self {}
    }
}

/// The half lengths the own double transforms run at (real transforms of 64 … 65536 points):
/// measured 1.4–1.7× faster than the crate's AVX2 transforms at 64 … 8192 and 1.1–1.25× at
/// 16384 and 32768, in place, side by side on an AVX-512 CPU; at 16 they tie, so that length
/// keeps the crate's.
const OWN_POW2: std::ops::RangeInclusive<usize> = 32..=32768;

/// The half lengths the own float transforms run at (real transforms of 64 … 65536 points):
/// measured 1.18–1.8× faster than the crate's AVX transforms in place (1.12–1.55× out of
/// place), side by side on an AVX-512 CPU. As complex transforms they tie with the crate's at
/// 32 points, but the real forward transform of 64 points runs as one fused codelet there
/// ([`OwnPow2::real_forward`]), 1.5× faster than the crate's transform and the separate split;
/// at 16 they are 3–5 % slower, so that length keeps the crate's.
const OWN_POW2_F32: std::ops::RangeInclusive<usize> = 32..=32768;

/// The half lengths the own AVX2 float transforms run at (real transforms of 512 … 8192
/// points), at the AVX2 level. In place against the crate's AVX float transforms, side by
/// side, measured 1.02–1.16× faster at 256, 1.15–1.84× at 512, 1.26–1.47× at 1024 and
/// 1.08–1.31× at 4096 in every run, 1.02–1.18× at 2048 in most processes and ~20 % slower in
/// some (a per-process placement effect); as whole real transforms 1.06–1.23× faster from 512
/// to 8192 points. At 128 (real 256) they were 0.89–1.18×, below it they tie and from 8192 on
/// they are slower, so those lengths keep the crate's.
const OWN_POW2_F32_AVX2: std::ops::RangeInclusive<usize> = 256..=4096;

/// The half lengths the own AVX2 double transforms run at (real transforms of 128 … 4096
/// points), at the AVX2 level: in place against the crate's AVX double transforms, side by
/// side, they took 0.87–0.95× its time at 64 … 256 and 0.86–0.91× at 512 … 2048; from 4096 on
/// they were slower, so those lengths keep the crate's.
const OWN_POW2_AVX2: std::ops::RangeInclusive<usize> = 64..=2048;

/// The half lengths the own SSE2 float transforms run at (real transforms of 128 … 8192
/// points), at the baseline level: in place against the crate's SSE float transforms
/// (`FftPlannerSse`), side by side, they took 0.36–0.6× its time at every one of these lengths
/// (see [`pow2_sse2_f32`]).
const OWN_POW2_F32_SSE2: std::ops::RangeInclusive<usize> = 64..=4096;

/// The half lengths the own SSE2 double transforms run at (real transforms of 128 … 4096
/// points), at the baseline level: in place against the crate's SSE double transforms
/// (`FftPlannerSse`), side by side, they took 0.53–0.61× its time at 64 and 128 and
/// 0.75–0.86× at 256 … 2048 (see [`pow2_sse2_f64`]).
const OWN_POW2_SSE2: std::ops::RangeInclusive<usize> = 64..=2048;

/// rustfft's immutable (out-of-place, input untouched) transforms stream through a scratch
/// buffer. When that buffer starts at the same offset within a 4 KiB page as the input or the
/// output, the power-of-two passes (rows a multiple of 4 KiB apart) make loads 4K-alias with
/// earlier stores and stall: measured with rustfft 6.4 on the AVX-512 machine, 2048 points
/// 7.0 µs aliased vs 4.6 µs offset, 32768 points 162 vs 124 µs; the old copy + in-place
/// transform took 5.1 / 135 µs. So the scratch is placed at least 1 KiB away (mod 4 KiB) from
/// both; this needs [`ALIAS_PAD`] extra bytes of scratch.
const PAGE: usize = 4096;
const ALIAS_PAD: usize = PAGE;

/// Offset (in elements) into a scratch buffer at `base` at which the scratch should start so that
/// it lies 1–3 KiB (mod 4 KiB) away from both `x` and `y` (see [`PAGE`]), on a 64-byte boundary
/// where `base` allows it (an element-aligned `base`: `f32` pairs always, `f64` pairs when
/// `base` is 16-byte aligned, as the allocator returns it). The own AVX-512 passes stream every
/// vector through the scratch; unaligned, each 64-byte vector spans two cache lines. Placed
/// only by distance from an input 16 or 32 bytes off a 64-byte boundary (as numpy arrays often
/// are), with the output aligned, real transforms of 16384 and 65536 points were 1.2–1.25×
/// slower than with all buffers aligned (f32 and f64, AVX-512); on a cache line, 1.01–1.06×.
fn scratch_offset<C>(base: *const C, x: *const C, y: *const C) -> usize {
    let circ = |a: usize, b: usize| {
        let d = a.wrapping_sub(b) % PAGE;
        d.min(PAGE - d)
    };
    let (x, y) = (x as usize % PAGE, y as usize % PAGE);
    let target = [2048, 1024, 3072]
        .into_iter()
        .map(|o| (x + o) % PAGE)
        .max_by_key(|&t| circ(t, y))
        .unwrap_or(x);
    let target = target / CACHE_LINE * CACHE_LINE;
    (target.wrapping_sub(base as usize) % PAGE) / std::mem::size_of::<C>()
}

/// The alignment [`scratch_offset`] gives the scratch (an AVX-512 vector, a cache line).
const CACHE_LINE: usize = 64;

/// Whether a transform of `m` points runs as rustfft's immutable transform (with the scratch
/// placed by [`scratch_offset`]) rather than a copy followed by an in-place transform: measured
/// faster up to 512 points (0.66 vs 0.79 µs at 512) and for powers of two; other lengths
/// (mixed radix, Rader, Bluestein) keep the copy.
fn use_immutable(m: usize) -> bool {
    m <= 512 || m.is_power_of_two()
}

/// `need` elements of `scratch` placed by [`scratch_offset`] away from `x` and `y` (mod 4 KiB),
/// so that where the caller's buffers happen to lie cannot make the transform 4K-alias.
fn placed_scratch<C: Clone + Default>(
    scratch: &mut Vec<C>,
    need: usize,
    x: *const C,
    y: *const C,
) -> &mut [C] {
    let buf = grow(scratch, need + ALIAS_PAD / std::mem::size_of::<C>());
    let k = scratch_offset(buf.as_ptr(), x, y);
    &mut buf[k..k + need]
}

/// rustfft's immutable transform of `x` into `y` with a scratch placed by [`scratch_offset`].
fn process_immutable<T: FftFloat>(
    f: &dyn Fft<T>,
    x: &[Complex<T>],
    y: &mut [Complex<T>],
    scratch: &mut Vec<Complex<T>>,
) {
    let need = f.get_immutable_scratch_len();
    if need == 0 {
        // nothing to place (rustfft's butterflies)
        f.process_immutable_with_scratch(x, y, &mut []);
        return;
    }
    let buf = grow(
        scratch,
        need + ALIAS_PAD / std::mem::size_of::<Complex<T>>(),
    );
    let k = scratch_offset(buf.as_ptr(), x.as_ptr(), y.as_ptr());
    f.process_immutable_with_scratch(x, y, &mut buf[k..k + need]);
}

/// Views `2m` reals as `m` complex values (`re, im` pairs).
fn as_complex<T: Float>(x: &[T]) -> &[Complex<T>] {
    assert!(x.len().is_multiple_of(2), "odd length viewed as complex");
    // SAFETY: Complex<T> is #[repr(C)] { re: T, im: T }: size 2·size_of::<T>(), alignment of T,
    // so len/2 complex values cover exactly the same bytes; the lifetime is the input's.
    unsafe { std::slice::from_raw_parts(x.as_ptr() as *const Complex<T>, x.len() / 2) }
}

/// Views `m` complex values as `2m` reals (`re, im` pairs).
pub(crate) fn as_real<T: Float>(x: &[Complex<T>]) -> &[T] {
    // SAFETY: Complex<T> is #[repr(C)] { re: T, im: T } without padding, so m complex values
    // are exactly 2m values of T with T's alignment; the lifetime is the input's.
    unsafe { std::slice::from_raw_parts(x.as_ptr() as *const T, 2 * x.len()) }
}

/// Mutable counterpart of [`as_real`].
fn as_real_mut<T: Float>(x: &mut [Complex<T>]) -> &mut [T] {
    // SAFETY: Complex<T> is #[repr(C)] { re: T, im: T } without padding, so m complex values
    // are exactly 2m values of T with T's alignment; the exclusive borrow is moved into the
    // result.
    unsafe { std::slice::from_raw_parts_mut(x.as_mut_ptr() as *mut T, 2 * x.len()) }
}

/// Mutable counterpart of [`as_complex`].
fn as_complex_mut<T: Float>(x: &mut [T]) -> &mut [Complex<T>] {
    assert!(x.len().is_multiple_of(2), "odd length viewed as complex");
    // SAFETY: as in as_complex; the exclusive borrow of `x` is moved into the result.
    unsafe { std::slice::from_raw_parts_mut(x.as_mut_ptr() as *mut Complex<T>, x.len() / 2) }
}

/// The ends of the forward split step: bins 0 and m from `Z[0]`, and bin m/2 (even m) =
/// `conj Z[m/2]`. `y` holds m+1 values.
#[inline(always)]
fn split_fwd_ends<T: FftFloat>(y: &mut [Complex<T>]) {
    let m = y.len() - 1;
    let z0 = y[0];
    y[0] = Complex::new(z0.re + z0.im, T::ZERO);
    y[m] = Complex::new(z0.re - z0.im, T::ZERO);
    if m >= 2 && m.is_multiple_of(2) {
        y[m / 2] = y[m / 2].conj();
    }
}

/// One pair of the forward split step: `a = Z[k]`, `b = Z[m−k]`, `v = v_k = −i·w^k/2`. With
/// `S = A + conj B`, `D = A − conj B`, `H = S/2`: `X[k] = H + v·D`, `X[m−k] = conj(H − v·D)`
/// (`E = S/2`, `w^k·O = w^k·D/2i = v·D`). Every SIMD path computes exactly these operations in
/// this order (no FMA), so all levels give bit-identical results.
#[inline(always)]
fn split_fwd_pair<T: FftFloat>(a: &mut Complex<T>, b: &mut Complex<T>, v: Complex<T>) {
    let half = <T as Float>::from_f64(0.5);
    let (za, zb) = (*a, *b);
    let s = Complex::new(za.re + zb.re, za.im - zb.im);
    let d = Complex::new(za.re - zb.re, za.im + zb.im);
    let vd = Complex::new(v.re * d.re - v.im * d.im, v.re * d.im + v.im * d.re);
    let h = Complex::new(s.re * half, s.im * half);
    *a = Complex::new(h.re + vd.re, h.im + vd.im);
    *b = Complex::new(h.re - vd.re, -(h.im - vd.im));
}

/// Forward split step: `y[..m]` holds `Z = FFT_m(x[2j] + i·x[2j+1])`; writes the n/2+1 bins of
/// the real FFT into `y[..=m]`. `v[k] = −i·e^{−2πik/n}/2` for `k ≤ m/2` (see
/// [`split_fwd_pair`]).
#[inline(always)]
fn split_fwd_body<T: FftFloat>(y: &mut [Complex<T>], v: &[Complex<T>]) {
    let m = y.len() - 1;
    split_fwd_ends(y);
    let p = (m - 1) / 2;
    let (lo, hi) = y[1..m].split_at_mut(p);
    let hl = hi.len();
    let hi = &mut hi[hl - p..];
    // Blocks of B pairs: the partner block (which runs backwards) is first copied reversed into
    // a local array, so the arithmetic is a plain forward loop the compiler vectorises.
    const B: usize = 16;
    let nb = p / B;
    for blk in 0..nb {
        let i0 = blk * B;
        let j0 = p - i0 - B; // partner of lo[i0 + l] is hi[j0 + B - 1 - l]
        let hb: &mut [Complex<T>; B] = (&mut hi[j0..j0 + B]).try_into().unwrap();
        let lb: &mut [Complex<T>; B] = (&mut lo[i0..i0 + B]).try_into().unwrap();
        let vb: &[Complex<T>; B] = v[1 + i0..1 + i0 + B].try_into().unwrap();
        let mut rb = [Complex::new(T::ZERO, T::ZERO); B];
        for l in 0..B {
            rb[l] = hb[B - 1 - l];
        }
        for l in 0..B {
            split_fwd_pair(&mut lb[l], &mut rb[l], vb[l]);
        }
        for l in 0..B {
            hb[B - 1 - l] = rb[l];
        }
    }
    let done = nb * B;
    for ((a, b), w) in lo[done..]
        .iter_mut()
        .zip(hi[..p - done].iter_mut().rev())
        .zip(&v[1 + done..])
    {
        split_fwd_pair(a, b, *w);
    }
}

crate::simd::multiversion! {
    /// The forward split step at a SIMD level (compiler-vectorised body).
    fn split_fwd_generic<T: FftFloat>(y: &mut [Complex<T>], v: &[Complex<T>]) -> ();
    scalar = split_fwd_body; simd = split_fwd_body;
}

/// The forward split step at a SIMD level: explicit AVX-512 (f32 and f64) at [`Level::Avx512`],
/// explicit AVX2 at [`Level::Avx2`], otherwise [`split_fwd_generic`].
///
/// [`Level::Avx512`]: crate::simd::Level::Avx512
/// [`Level::Avx2`]: crate::simd::Level::Avx2
fn split_fwd<T: FftFloat>(level: crate::simd::Level, y: &mut [Complex<T>], v: &[Complex<T>]) {
    T::split_fwd_at(level, y, v)
}

/// The ends of the inverse split step: `Z'[0]` from bins 0 and m, and `Z'[m/2]` (even m) from
/// bin m/2.
#[inline(always)]
fn split_inv_ends<T: FftFloat>(x: &[Complex<T>], z: &mut [Complex<T>]) {
    let m = z.len();
    let two = <T as Float>::from_f64(2.0);
    z[0] = Complex::new(x[0].re + x[m].re, x[0].re - x[m].re);
    if m >= 2 && m.is_multiple_of(2) {
        let c = x[m / 2];
        z[m / 2] = Complex::new(two * c.re, -(two * c.im));
    }
}

/// One pair of the inverse split step: `xa = X[k]`, `xb = X[m−k]`, `w = w^k`; returns
/// `(Z'[k], Z'[m−k])` (see [`split_inv_body`]). Every SIMD path computes exactly these operations
/// in this order (no FMA), so all levels give bit-identical results.
#[inline(always)]
fn split_inv_pair<T: FftFloat>(
    xa: Complex<T>,
    xb: Complex<T>,
    w: Complex<T>,
) -> (Complex<T>, Complex<T>) {
    let f = Complex::new(xa.re + xb.re, xa.im - xb.im);
    let g = Complex::new(xa.re - xb.re, xa.im + xb.im);
    // i·conj(w)·G: conj(w) = (w.re, −w.im); i·(c) = (−c.im, c.re)
    let c = Complex::new(w.re * g.re + w.im * g.im, w.re * g.im - w.im * g.re);
    let t = Complex::new(-c.im, c.re);
    (
        Complex::new(f.re + t.re, f.im + t.im),
        Complex::new(f.re - t.re, t.im - f.im),
    )
}

/// Inverse split step: from the n/2+1 bins `x` (imaginary parts of bins 0 and m ignored) writes
/// `Z'[k] = F + i·conj(w^k)·G`, `Z'[m−k] = conj(F − i·conj(w^k)·G)` with
/// `F = X[k] + conj X[m−k]`, `G = X[k] − conj X[m−k]` into `z` (m values); the unnormalised
/// inverse FFT of `Z'` is then the n-point unnormalised inverse real FFT, as re/im pairs.
#[inline(always)]
fn split_inv_body<T: FftFloat>(x: &[Complex<T>], z: &mut [Complex<T>], tw: &[Complex<T>]) {
    let m = z.len();
    split_inv_ends(x, z);
    let p = (m - 1) / 2;
    let (zlo, zhi) = z[1..].split_at_mut(p);
    let zl = zhi.len();
    let zhi = &mut zhi[zl - p..];
    let xlo = &x[1..=p];
    let xhi = &x[m - p..m];
    // blocks of B pairs with the backward-running partners reversed through local arrays, as in
    // the forward step
    const B: usize = 16;
    let nb = p / B;
    for blk in 0..nb {
        let i0 = blk * B;
        let j0 = p - i0 - B;
        let xa: &[Complex<T>; B] = xlo[i0..i0 + B].try_into().unwrap();
        let xh: &[Complex<T>; B] = xhi[j0..j0 + B].try_into().unwrap();
        let wb: &[Complex<T>; B] = tw[1 + i0..1 + i0 + B].try_into().unwrap();
        let mut xb = [Complex::new(T::ZERO, T::ZERO); B];
        for l in 0..B {
            xb[l] = xh[B - 1 - l];
        }
        let mut outa = [Complex::new(T::ZERO, T::ZERO); B];
        let mut outb = [Complex::new(T::ZERO, T::ZERO); B];
        for l in 0..B {
            (outa[l], outb[l]) = split_inv_pair(xa[l], xb[l], wb[l]);
        }
        zlo[i0..i0 + B].copy_from_slice(&outa);
        let zh: &mut [Complex<T>; B] = (&mut zhi[j0..j0 + B]).try_into().unwrap();
        for l in 0..B {
            zh[B - 1 - l] = outb[l];
        }
    }
    let done = nb * B;
    for ((((za, zb), xa), xb), w) in zlo[done..]
        .iter_mut()
        .zip(zhi[..p - done].iter_mut().rev())
        .zip(&xlo[done..])
        .zip(xhi[..p - done].iter().rev())
        .zip(&tw[1 + done..])
    {
        (*za, *zb) = split_inv_pair(*xa, *xb, *w);
    }
}

crate::simd::multiversion! {
    /// The inverse split step at a SIMD level (compiler-vectorised body).
    fn split_inv_generic<T: FftFloat>(
        x: &[Complex<T>],
        z: &mut [Complex<T>],
        tw: &[Complex<T>],
    ) -> ();
    scalar = split_inv_body; simd = split_inv_body;
}

/// The inverse split step at a SIMD level: explicit AVX2 at [`Level::Avx2`], otherwise
/// [`split_inv_generic`].
///
/// [`Level::Avx2`]: crate::simd::Level::Avx2
fn split_inv<T: FftFloat>(
    level: crate::simd::Level,
    x: &[Complex<T>],
    z: &mut [Complex<T>],
    tw: &[Complex<T>],
) {
    T::split_inv_at(level, x, z, tw)
}

impl<T: FftFloat> EvenReal<T> {
    /// The plan of `n` points, on the own transforms of the library's SIMD level where they
    /// exist (see [`OwnPow2::new`]).
    fn new(n: usize) -> SkResult<Self> {
        Self::with_own(n, crate::simd::current())
    }

    /// As `new`, with the own transforms of SIMD level `own` (tests compare the levels; below
    /// [`Level::Avx2`] there are none).
    ///
    /// [`Level::Avx2`]: crate::simd::Level::Avx2
    fn with_own(n: usize, own: crate::simd::Level) -> SkResult<Self> {
        let m = n / 2;
        let (tw, v) = split_twiddles(n)?;
        let mut p = FftPlanner::<T>::new();
        let own = OwnPow2::new::<T>(m, own, &v);
        Ok(EvenReal {
            m,
            fwd: p.plan_fft_forward(m),
            inv: p.plan_fft_inverse(m),
            tw,
            v,
            own,
        })
    }

    /// The most complex scratch any transform of this half-length plan takes.
    fn scratch_len(&self) -> usize {
        let immutable = if use_immutable(self.m) {
            self.fwd.get_immutable_scratch_len()
        } else {
            0
        };
        let most = immutable
            .max(self.fwd.get_inplace_scratch_len())
            .max(self.fwd.get_outofplace_scratch_len())
            .max(self.inv.get_inplace_scratch_len())
            .max(self.own.as_ref().map_or(0, OwnPow2::scratch_len));
        most + ALIAS_PAD / std::mem::size_of::<Complex<T>>()
    }

    fn forward(&self, x: &[T], y: &mut [Complex<T>], scratch: &mut Vec<Complex<T>>) {
        if self.fused_forward(x, y) || self.forward_aligned_target(as_complex(x), y, scratch) {
            return;
        }
        let z = &mut y[..self.m];
        if let Some(o) = &self.own {
            o.run(false, Some(as_complex(x)), z, scratch);
        } else if use_immutable(self.m) {
            process_immutable(&*self.fwd, as_complex(x), z, scratch);
        } else {
            z.copy_from_slice(as_complex(x));
            let s = grow(scratch, self.fwd.get_inplace_scratch_len());
            self.fwd.process_with_scratch(z, s);
        }
        self.split_forward(y);
    }

    /// The forward split step on the half-length transform in `y[..m]`: the own plan's
    /// ([`OwnPow2::split_forward`]) where it has one, else [`split_fwd`] at the current level
    /// (bit for bit the same).
    fn split_forward(&self, y: &mut [Complex<T>]) {
        if !self.own.as_ref().is_some_and(|o| o.split_forward(y)) {
            split_fwd(crate::simd::current(), y, &self.v);
        }
    }

    /// The forward transform in one codelet that needs no scratch, where this plan has one
    /// ([`OwnPow2::real_forward`]): `true` when `y` holds the result.
    fn fused_forward(&self, x: &[T], y: &mut [Complex<T>]) -> bool {
        self.own
            .as_ref()
            .is_some_and(|o| o.real_forward(as_complex(x), y))
    }

    /// The forward transform through the scratch for a misaligned output, where this plan's
    /// own transforms do that ([`OwnPow2::forward_avx512`]): `true` when `y` holds
    /// the result.
    fn forward_aligned_target(
        &self,
        x: &[Complex<T>],
        y: &mut [Complex<T>],
        scratch: &mut Vec<Complex<T>>,
    ) -> bool {
        self.own
            .as_ref()
            .is_some_and(|o| o.forward_avx512(x, None, y, scratch))
    }

    /// The forward transform of `x` times `win` (elementwise) with the products formed as the
    /// first pass loads `x`, where this plan's own transforms do that
    /// ([`OwnPow2::forward_avx512`]): `true` when `y` holds the result (bit for bit the
    /// transform of the products), `false` with nothing written elsewhere.
    fn forward_windowed(
        &self,
        x: &[T],
        win: &[T],
        y: &mut [Complex<T>],
        scratch: &mut Vec<Complex<T>>,
    ) -> bool {
        self.own
            .as_ref()
            .is_some_and(|o| o.forward_avx512(as_complex(x), Some(as_complex(win)), y, scratch))
    }

    /// As `forward`, destroying `x`.
    fn forward_destroy(&self, x: &mut [T], y: &mut [Complex<T>], scratch: &mut Vec<Complex<T>>) {
        if self.fused_forward(x, y) || self.forward_aligned_target(as_complex(x), y, scratch) {
            return;
        }
        let xc = as_complex_mut(x);
        if let Some(o) = &self.own {
            o.run(false, Some(&*xc), &mut y[..self.m], scratch);
        } else {
            let need = self.fwd.get_outofplace_scratch_len();
            let s = placed_scratch(scratch, need, xc.as_ptr(), y.as_ptr());
            self.fwd
                .process_outofplace_with_scratch(xc, &mut y[..self.m], s);
        }
        self.split_forward(y);
    }

    /// The inverse transform in one codelet that needs no scratch, where this plan has one
    /// ([`OwnPow2::real_inverse`]), its result multiplied by `scale` (`None`: not scaled):
    /// `true` when `y` holds the result.
    fn fused_inverse(&self, x: &[Complex<T>], y: &mut [T], scale: Option<f64>) -> bool {
        self.own
            .as_ref()
            .is_some_and(|o| o.real_inverse(x, as_complex_mut(y), &self.tw, scale))
    }

    fn inverse(&self, x: &[Complex<T>], y: &mut [T], scratch: &mut Vec<Complex<T>>) {
        if self.fused_inverse(x, y, None)
            || self
                .own
                .as_ref()
                .is_some_and(|o| o.inverse_aligned_source(x, as_complex_mut(y), &self.tw, scratch))
        {
            return;
        }
        let z = as_complex_mut(y);
        split_inv(crate::simd::current(), x, z, &self.tw);
        if let Some(o) = &self.own {
            o.run(true, None, z, scratch);
            return;
        }
        let need = self.inv.get_inplace_scratch_len();
        let s = placed_scratch(scratch, need, z.as_ptr(), z.as_ptr());
        self.inv.process_with_scratch(z, s);
    }
}

/// The split-step twiddles of an even length `n`, each rounded once from [`mixed::unit_root`]:
/// `tw[k] = e^{−2πik/n}` (inverse step) and `v[k] = −i·e^{−2πik/n}/2` (forward step) for
/// `k ≤ n/4`.
#[allow(clippy::type_complexity)]
fn split_twiddles<T: Float>(n: usize) -> SkResult<(Vec<Complex<T>>, Vec<Complex<T>>)> {
    let m = n / 2;
    let what = "the FFT twiddle factors";
    let tw = try_collect(
        (0..m / 2 + 1).map(|k| {
            let (c, s) = mixed::unit_root(k, n);
            Complex::new(T::from_f64(c), T::from_f64(-s))
        }),
        what,
    )?;
    // −i·(c − i s)/2 = (−s/2, −c/2)
    let v = try_collect(
        (0..m / 2 + 1).map(|k| {
            let (c, s) = mixed::unit_root(k, n);
            Complex::new(T::from_f64(-0.5 * s), T::from_f64(-0.5 * c))
        }),
        what,
    )?;
    Ok((tw, v))
}

/// Real transforms of double lengths that are not powers of two: pocketfft's real algorithm
/// ([`RealFft`]: the FFTPACK real passes, or a complex Bluestein transform of the full length
/// where pocketfft's cost rule picks it), i.e. numpy's algorithm at every length.
struct OwnReal<T> {
    n: usize,
    rf: RealFft<T>,
    /// The same passes on SIMD lanes, for batches (lengths the passes take, up to
    /// [`MAX_LANE_LEN`]): made by the first batch that needs them.
    lanes: OnceLock<Option<RowLanes<T>>>,
}

/// The longest transform batched on SIMD lanes: its lane buffers (`2n` vectors of 64 bytes,
/// 8 MiB here) stop fitting the cache beyond it, and its plan holds a lane copy of the twiddles.
const MAX_LANE_LEN: usize = 1 << 16;

impl<T: FftFloat> OwnReal<T> {
    fn new(n: usize) -> SkResult<Self> {
        Ok(OwnReal {
            n,
            rf: RealFft::new(n)?,
            lanes: OnceLock::new(),
        })
    }

    /// The lane passes (made on the first call; `None` where the passes do not run).
    fn lanes(&self) -> SkResult<Option<&RowLanes<T>>> {
        if let Some(l) = self.lanes.get() {
            return Ok(l.as_ref());
        }
        let made = match &self.rf {
            RealFft::Passes(p) if self.n <= MAX_LANE_LEN => RowLanes::from_passes(p)?,
            _ => None,
        };
        Ok(self.lanes.get_or_init(|| made).as_ref())
    }

    fn scratch_len(&self) -> usize {
        self.rf.scratch_len(self.n)
    }

    /// As numpy does with pocketfft: the reals are placed one value into the output (viewed as
    /// reals), transformed there into the halfcomplex layout `r0, r1, i1, …`, and `r0` moved to
    /// the front with a zero imaginary part (and a zero one after `r_{n/2}` for even n).
    fn forward(&self, x: &[T], y: &mut [Complex<T>], scratch: &mut Vec<Complex<T>>) {
        let n = self.n;
        match &self.rf {
            RealFft::Passes(p) => {
                let yr = as_real_mut(y);
                yr[1..=n].copy_from_slice(x);
                let s = as_real_mut(grow(scratch, n.div_ceil(2)));
                p.forward(&mut yr[1..=n], s);
                yr[0] = yr[1];
                yr[1] = T::ZERO;
                if n.is_multiple_of(2) {
                    yr[n + 1] = T::ZERO;
                }
            }
            RealFft::Blue(b) => {
                RealFft::forward_blue(b, x, y, grow(scratch, self.scratch_len()));
            }
        }
    }

    fn inverse(&self, x: &[Complex<T>], y: &mut [T], scratch: &mut Vec<Complex<T>>) {
        let n = self.n;
        match &self.rf {
            RealFft::Passes(p) => {
                // halfcomplex packing: r0, r1, i1, …[, r_{n/2}]
                y[0] = x[0].re;
                for k in 1..n.div_ceil(2) {
                    y[2 * k - 1] = x[k].re;
                    y[2 * k] = x[k].im;
                }
                if n.is_multiple_of(2) {
                    y[n - 1] = x[n / 2].re;
                }
                let s = as_real_mut(grow(scratch, n.div_ceil(2)));
                p.backward(y, s);
            }
            RealFft::Blue(b) => {
                RealFft::inverse_blue(b, x, y, grow(scratch, self.scratch_len()));
            }
        }
    }
}

/// Whether a length runs on the crate's transforms rather than on [`MixedFft`] / [`RealFft`].
/// Double plans: powers of two only (fast and close to numpy's error there: the complex
/// transform within it, the real one within 1.1× from 64 points), except real transforms below
/// [`OWN_REAL_POW2_BELOW`] points; every other
/// length loses up to 2–3× numpy's accuracy in rustfft's Rader/Bluestein/mixed-radix paths, so
/// complex plans run on [`MixedFft`] (numpy's accuracy; with its AVX2/AVX-512 passes about
/// 1.2–2× rustfft's time, 2.5–3.5× at the scalar levels) and real plans on [`RealFft`]
/// (numpy's real algorithm, bit for bit). Float plans keep rustfft at every length: its error is
/// far below float's resolution needs there, and the float speech front ends (400/480-point
/// frames) depend on its speed.
fn use_crate<T: FftFloat>(kind: FftKind, n: usize) -> bool {
    let own_real = kind == FftKind::Real && n < OWN_REAL_POW2_BELOW;
    (n.is_power_of_two() && !own_real) || !T::ACCURATE_MIXED
}

/// Double real transforms of fewer points run numpy's real algorithm at powers of two too (so
/// every double real transform below 64 points gives numpy's bits): there the complex
/// half-length transform plus the split step of the crate path carries 1.1–1.25× numpy's error
/// (its few roundings weigh most at 8–32 points), and these sizes are too small for its speed
/// to matter.
const OWN_REAL_POW2_BELOW: usize = 64;

enum Inner<T: FftNum> {
    Real {
        fwd: Arc<dyn RealToComplex<T>>,
        inv: Arc<dyn ComplexToReal<T>>,
        even: Option<EvenReal<T>>,
    },
    Complex {
        fwd: Arc<dyn Fft<T>>,
        inv: Arc<dyn Fft<T>>,
    },
    OwnReal(OwnReal<T>),
    OwnComplex(MixedFft<T>),
}

/// An FFT plan of one kind and length. Immutable after creation: `Send + Sync`, and
/// [`FftPlan::rfft`] etc. may run concurrently on one plan.
pub struct FftPlan<T: FftFloat> {
    n: usize,
    kind: FftKind,
    inner: Inner<T>,
    /// Scratch lengths (real, complex, second complex) of [`FftPlan::reserve`].
    scratch: (usize, usize, usize),
}

fn scale_slice<T: Float>(y: &mut [T], s: Option<f64>) {
    if let Some(s) = s {
        let s = T::from_f64(s);
        for v in y {
            *v = *v * s;
        }
    }
}

fn scale_cplx<T: Float>(y: &mut [Complex<T>], s: Option<f64>) {
    if let Some(s) = s {
        let s = T::from_f64(s);
        for v in y {
            v.re = v.re * s;
            v.im = v.im * s;
        }
    }
}

impl<T: FftFloat> FftPlan<T> {
    /// Plans a transform of `n ≥ 1` points (`SK_ERR_LENGTH` for n = 0).
    pub fn new(kind: FftKind, n: usize) -> SkResult<Self> {
        if n == 0 {
            return Err(SkError::Length(
                "n = 0: an FFT needs at least one point".into(),
            ));
        }
        if n > MAX_FFT_LEN {
            return Err(SkError::Length(format!(
                "n = {n} exceeds the largest supported FFT length {MAX_FFT_LEN} (2^28)"
            )));
        }
        // The planners allocate their twiddles and inner plans infallibly: check first that
        // about four times n complex values (both directions, with room for the scratch of a
        // transform) can be allocated, so an unaffordable plan is SK_ERR_ALLOCATION.
        headroom::<Complex<T>>(
            n.saturating_mul(PLAN_HEADROOM),
            &format!("an FFT plan of {n} points"),
        )?;
        let inner = match kind {
            FftKind::Real if !use_crate::<T>(kind, n) => Inner::OwnReal(OwnReal::new(n)?),
            FftKind::Complex if !use_crate::<T>(kind, n) => Inner::OwnComplex(MixedFft::new(n)?),
            FftKind::Real => {
                let even = if n.is_multiple_of(2) {
                    Some(EvenReal::new(n)?)
                } else {
                    None
                };
                let mut p = RealFftPlanner::<T>::new();
                Inner::Real {
                    fwd: p.plan_fft_forward(n),
                    inv: p.plan_fft_inverse(n),
                    even,
                }
            }
            FftKind::Complex => {
                let mut p = FftPlanner::<T>::new();
                Inner::Complex {
                    fwd: p.plan_fft_forward(n),
                    inv: p.plan_fft_inverse(n),
                }
            }
        };
        let scratch = Self::scratch_lens(n, &inner);
        Ok(FftPlan {
            n,
            kind,
            inner,
            scratch,
        })
    }

    /// The (real, complex, second complex) scratch lengths the transforms of `inner` need (see
    /// [`FftPlan::reserve`]); computed once per plan, so a call does not ask the crate's
    /// transforms again.
    fn scratch_lens(n: usize, inner: &Inner<T>) -> (usize, usize, usize) {
        let pad = ALIAS_PAD / std::mem::size_of::<Complex<T>>();
        match inner {
            Inner::Real { fwd, inv, even } => {
                let s = fwd.get_scratch_len().max(inv.get_scratch_len());
                let s = even.as_ref().map_or(s, |e| s.max(e.scratch_len()));
                (n, s, n / 2 + 1)
            }
            Inner::Complex { fwd, inv } => {
                let s = [fwd, inv]
                    .iter()
                    .map(|f| (f.get_immutable_scratch_len() + pad).max(f.get_inplace_scratch_len()))
                    .max()
                    .unwrap_or(0);
                (0, s, 0)
            }
            Inner::OwnReal(o) => (n, o.scratch_len(), n / 2 + 1),
            Inner::OwnComplex(c) => (0, c.scratch_len(), 0),
        }
    }

    pub fn len(&self) -> usize {
        self.n
    }

    /// The lane passes a batch of `rows` real transforms of this plan runs on, if any: numpy's
    /// real algorithm on groups of [`RowLanes::LANES`] rows, bit for bit the one-row results.
    /// `None` for fewer than two rows (one row runs the one-row path, so the lane passes are
    /// made only for batches) and for plans without them. Made by the first batch
    /// (`SK_ERR_ALLOCATION` if their twiddles cannot be allocated).
    pub(crate) fn row_lanes(&self, rows: usize) -> SkResult<Option<&RowLanes<T>>> {
        if rows < 2 {
            return Ok(None);
        }
        match &self.inner {
            Inner::OwnReal(o) => o.lanes(),
            _ => Ok(None),
        }
    }

    /// Grows `ws` (fallibly) so that no transform of this plan allocates: after `Ok`, every
    /// `*_ws` / `*_inplace_input` call with this workspace runs without allocating.
    pub fn reserve(&self, ws: &mut Workspace<T>) -> SkResult<()> {
        let (real, cplx, cplx2) = self.scratch;
        if ws.real.len() >= real && ws.cplx.len() >= cplx && ws.cplx2.len() >= cplx2 {
            // the usual case of a repeated call: nothing to grow
            return Ok(());
        }
        let what = "FFT scratch";
        try_grow(&mut ws.real, real, what)?;
        try_grow(&mut ws.cplx, cplx, what)?;
        try_grow(&mut ws.cplx2, cplx2, what)
    }

    /// A fresh workspace holding all the scratch this plan's transforms need.
    pub fn workspace(&self) -> SkResult<Workspace<T>> {
        let mut ws = Workspace::default();
        self.reserve(&mut ws)?;
        Ok(ws)
    }

    pub fn is_empty(&self) -> bool {
        false
    }

    pub fn kind(&self) -> FftKind {
        self.kind
    }

    /// Number of complex bins of the forward transform (n/2+1 for real, n for complex).
    pub fn bins(&self) -> usize {
        match self.kind {
            FftKind::Real => self.n / 2 + 1,
            FftKind::Complex => self.n,
        }
    }

    #[allow(clippy::type_complexity)]
    fn real(
        &self,
    ) -> (
        &Arc<dyn RealToComplex<T>>,
        &Arc<dyn ComplexToReal<T>>,
        Option<&EvenReal<T>>,
    ) {
        match &self.inner {
            Inner::Real { fwd, inv, even } => (fwd, inv, even.as_ref()),
            _ => panic!("real transform requested from a complex plan"),
        }
    }

    fn cplx(&self) -> (&Arc<dyn Fft<T>>, &Arc<dyn Fft<T>>) {
        match &self.inner {
            Inner::Complex { fwd, inv } => (fwd, inv),
            _ => panic!("complex transform requested from a real plan"),
        }
    }

    /// Real forward transform: `x` (n reals) → `y` (n/2+1 bins), `y[k] = Σ x[j] e^{-2πijk/n}`
    /// scaled per `norm`. Panics on a real/complex or length mismatch (the FFI checks first).
    pub fn rfft(&self, x: &[T], y: &mut [Complex<T>], norm: Norm) {
        T::with_workspace(|ws| self.rfft_ws(x, y, norm, ws))
    }

    /// As [`FftPlan::rfft`] with an explicit workspace (used by batched callers).
    pub fn rfft_ws(&self, x: &[T], y: &mut [Complex<T>], norm: Norm, ws: &mut Workspace<T>) {
        assert_eq!(x.len(), self.n, "rfft input length");
        assert_eq!(y.len(), self.n / 2 + 1, "rfft output length");
        if let Inner::OwnReal(o) = &self.inner {
            o.forward(x, y, &mut ws.cplx);
            scale_cplx(y, norm.scale(self.n, false));
            return;
        }
        let (_, _, even) = self.real();
        if let Some(e) = even {
            e.forward(x, y, &mut ws.cplx);
            scale_cplx(y, norm.scale(self.n, false));
            return;
        }
        let buf = grow(&mut ws.real, self.n);
        buf.copy_from_slice(x);
        self.rfft_inplace_input(buf, y, norm, &mut ws.cplx);
    }

    /// The real forward transform of `x` into `y` when this plan does it in one codelet that
    /// needs no workspace (AVX-512: 64 and 128 points, float and double; 256 and 512 points,
    /// double): `true` when `y` holds the result, `false` (nothing written) for every other
    /// plan. A one-transform call then skips the thread's workspace.
    pub fn rfft_fused(&self, x: &[T], y: &mut [Complex<T>], norm: Norm) -> bool {
        assert_eq!(x.len(), self.n, "rfft input length");
        assert_eq!(y.len(), self.n / 2 + 1, "rfft output length");
        if let Inner::Real { even: Some(e), .. } = &self.inner {
            if e.fused_forward(x, y) {
                scale_cplx(y, norm.scale(self.n, false));
                return true;
            }
        }
        false
    }

    /// The real inverse transform of `x` into `y` when this plan does it in one codelet that
    /// needs no workspace (AVX-512, 64 and 128 points, float and double), scaled per `norm` as
    /// it is stored: `true` when `y` holds the result, `false` (nothing written) for every
    /// other plan.
    pub fn irfft_fused(&self, x: &[Complex<T>], y: &mut [T], norm: Norm) -> bool {
        assert_eq!(x.len(), self.n / 2 + 1, "irfft input length");
        assert_eq!(y.len(), self.n, "irfft output length");
        if let Inner::Real { even: Some(e), .. } = &self.inner {
            // the codelet scales as it stores: the same products as `scale_slice`
            return e.fused_inverse(x, y, norm.scale(self.n, true));
        }
        false
    }

    /// The real forward transform of `x` multiplied elementwise by `win` into `y`, the products
    /// formed as the transform's first pass loads `x` (never stored), where this plan does that
    /// (the AVX-512 level's own transforms, 256 … 65536 points, float and double): `true` when
    /// `y` holds the result, bit for bit [`FftPlan::rfft`] of the products; `false`, nothing
    /// written, for every other plan.
    pub fn rfft_windowed(
        &self,
        x: &[T],
        win: &[T],
        y: &mut [Complex<T>],
        norm: Norm,
        scratch: &mut Vec<Complex<T>>,
    ) -> bool {
        assert_eq!(x.len(), self.n, "rfft input length");
        assert_eq!(win.len(), self.n, "rfft window length");
        assert_eq!(y.len(), self.n / 2 + 1, "rfft output length");
        if let Inner::Real { even: Some(e), .. } = &self.inner {
            if e.forward_windowed(x, win, y, scratch) {
                scale_cplx(y, norm.scale(self.n, false));
                return true;
            }
        }
        false
    }

    /// Real forward transform that may destroy its input `x` (no copy).
    pub fn rfft_inplace_input(
        &self,
        x: &mut [T],
        y: &mut [Complex<T>],
        norm: Norm,
        scratch: &mut Vec<Complex<T>>,
    ) {
        assert_eq!(y.len(), self.n / 2 + 1, "rfft output length");
        if let Inner::OwnReal(o) = &self.inner {
            assert_eq!(x.len(), self.n, "rfft input length");
            o.forward(x, y, scratch);
            scale_cplx(y, norm.scale(self.n, false));
            return;
        }
        let (fwd, _, even) = self.real();
        if let Some(e) = even {
            e.forward_destroy(x, y, scratch);
            scale_cplx(y, norm.scale(self.n, false));
            return;
        }
        let s = grow(scratch, fwd.get_scratch_len());
        fwd.process_with_scratch(x, y, s)
            .expect("realfft forward: buffer lengths were checked");
        scale_cplx(y, norm.scale(self.n, false));
    }

    /// Real inverse transform: `x` (n/2+1 bins) → `y` (n reals), as `numpy.fft.irfft(x, n)`:
    /// the imaginary parts of bin 0 and (for even n) bin n/2 are ignored.
    pub fn irfft(&self, x: &[Complex<T>], y: &mut [T], norm: Norm) {
        T::with_workspace(|ws| self.irfft_ws(x, y, norm, ws))
    }

    /// As [`FftPlan::irfft`] with an explicit workspace.
    pub fn irfft_ws(&self, x: &[Complex<T>], y: &mut [T], norm: Norm, ws: &mut Workspace<T>) {
        assert_eq!(x.len(), self.n / 2 + 1, "irfft input length");
        assert_eq!(y.len(), self.n, "irfft output length");
        if let Inner::OwnReal(o) = &self.inner {
            o.inverse(x, y, &mut ws.cplx);
            scale_slice(y, norm.scale(self.n, true));
            return;
        }
        if let (_, _, Some(e)) = self.real() {
            e.inverse(x, y, &mut ws.cplx);
            scale_slice(y, norm.scale(self.n, true));
            return;
        }
        let buf = grow(&mut ws.cplx2, x.len());
        buf.copy_from_slice(x);
        self.irfft_inplace_input(buf, y, norm, &mut ws.cplx);
    }

    /// Real inverse transform that may destroy its input `x`.
    pub fn irfft_inplace_input(
        &self,
        x: &mut [Complex<T>],
        y: &mut [T],
        norm: Norm,
        scratch: &mut Vec<Complex<T>>,
    ) {
        assert_eq!(y.len(), self.n, "irfft output length");
        if let Inner::OwnReal(o) = &self.inner {
            assert_eq!(x.len(), self.n / 2 + 1, "irfft input length");
            o.inverse(x, y, scratch);
            scale_slice(y, norm.scale(self.n, true));
            return;
        }
        let (_, inv, even) = self.real();
        if let Some(e) = even {
            e.inverse(x, y, scratch);
            scale_slice(y, norm.scale(self.n, true));
            return;
        }
        let s = grow(scratch, inv.get_scratch_len());
        match inv.process_with_scratch(x, y, s) {
            // Non-zero imaginary parts at DC/Nyquist: computed with them ignored, as numpy.
            Ok(()) | Err(realfft::FftError::InputValues(..)) => {}
            Err(e) => panic!("realfft inverse: {e}"),
        }
        scale_slice(y, norm.scale(self.n, true));
    }

    /// Complex transform of `n` points, forward (`e^{-2πi…}`) or inverse (`e^{+2πi…}`).
    /// `x = None` transforms `y` in place.
    pub fn fft(&self, x: Option<&[Complex<T>]>, y: &mut [Complex<T>], inverse: bool, norm: Norm) {
        T::with_workspace(|ws| self.fft_ws(x, y, inverse, norm, ws))
    }

    /// As [`FftPlan::fft`] with an explicit workspace.
    pub fn fft_ws(
        &self,
        x: Option<&[Complex<T>]>,
        y: &mut [Complex<T>],
        inverse: bool,
        norm: Norm,
        ws: &mut Workspace<T>,
    ) {
        if let Inner::OwnComplex(c) = &self.inner {
            assert_eq!(y.len(), self.n, "fft output length");
            if let Some(x) = x {
                assert_eq!(x.len(), self.n, "fft input length");
                y.copy_from_slice(x);
            }
            c.process(y, grow(&mut ws.cplx, c.scratch_len()), inverse);
            scale_cplx(y, norm.scale(self.n, inverse));
            return;
        }
        let (fwd, inv) = self.cplx();
        let f = if inverse { inv } else { fwd };
        assert_eq!(y.len(), self.n, "fft output length");
        match x {
            Some(x) if use_immutable(self.n) => {
                assert_eq!(x.len(), self.n, "fft input length");
                process_immutable(&**f, x, y, &mut ws.cplx);
            }
            Some(x) => {
                assert_eq!(x.len(), self.n, "fft input length");
                y.copy_from_slice(x);
                let s = grow(&mut ws.cplx, f.get_inplace_scratch_len());
                f.process_with_scratch(y, s);
            }
            None => {
                let s = grow(&mut ws.cplx, f.get_inplace_scratch_len());
                f.process_with_scratch(y, s);
            }
        }
        scale_cplx(y, norm.scale(self.n, inverse));
    }
}

/// A process-wide cache of real plans by length, shared by the STFT, mel and convolution
/// kernels (planning is much slower than one transform). Bounded: cleared when it holds more
/// than 64 lengths.
pub trait PlanCache: FftFloat {
    fn cached_real_plan(n: usize) -> SkResult<Arc<FftPlan<Self>>>;
}

macro_rules! impl_cache {
    ($t:ty) => {
        impl PlanCache for $t {
            fn cached_real_plan(n: usize) -> SkResult<Arc<FftPlan<$t>>> {
                static CACHE: OnceLock<Mutex<BTreeMap<usize, Arc<FftPlan<$t>>>>> = OnceLock::new();
                let cache = CACHE.get_or_init(Default::default);
                if let Some(p) = cache.lock().unwrap_or_else(|e| e.into_inner()).get(&n) {
                    return Ok(p.clone());
                }
                let plan = Arc::new(FftPlan::new(FftKind::Real, n)?);
                let mut c = cache.lock().unwrap_or_else(|e| e.into_inner());
                if c.len() >= 64 {
                    c.clear();
                }
                Ok(c.entry(n).or_insert(plan).clone())
            }
        }
    };
}
impl_cache!(f32);
impl_cache!(f64);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::testutil::Rng;

    fn dft(x: &[Complex<f64>], inverse: bool) -> Vec<Complex<f64>> {
        let n = x.len();
        let sign = if inverse { 1.0 } else { -1.0 };
        (0..n)
            .map(|k| {
                let mut acc = Complex::new(0.0, 0.0);
                for (j, v) in x.iter().enumerate() {
                    let ang = sign * 2.0 * std::f64::consts::PI * ((j * k) % n) as f64 / n as f64;
                    acc += v * Complex::new(ang.cos(), ang.sin());
                }
                acc
            })
            .collect()
    }

    fn max_err(a: &[Complex<f64>], b: &[Complex<f64>]) -> f64 {
        a.iter()
            .zip(b)
            .map(|(x, y)| (x - y).norm())
            .fold(0.0, f64::max)
    }

    #[test]
    fn workspace_is_kept_per_thread_nested_calls_get_their_own_and_huge_ones_are_dropped() {
        f64::with_workspace(|ws| ws.real.reserve(1000));
        assert!(f64::with_workspace(|ws| ws.real.capacity()) >= 1000);
        f64::with_workspace(|outer| {
            let kept = outer.real.as_ptr();
            f64::with_workspace(|inner| {
                assert_eq!(
                    inner.real.capacity(),
                    0,
                    "a nested call gets a fresh workspace"
                );
                inner.real.resize(10, 1.0);
            });
            assert_eq!(outer.real.as_ptr(), kept);
        });
        assert!(f64::with_workspace(|ws| ws.real.capacity()) >= 1000);
        let other = std::thread::spawn(|| f64::with_workspace(|ws| ws.real.capacity()));
        assert_eq!(
            other.join().unwrap(),
            0,
            "another thread has its own workspace"
        );
        f64::with_workspace(|ws| ws.real.reserve(MAX_CACHED_BYTES / 8 + 1));
        assert_eq!(f64::with_workspace(|ws| ws.bytes()), 0, "too large to keep");
    }

    #[test]
    fn real_and_complex_match_naive_dft_for_small_n() {
        let mut rng = Rng::new(7);
        for n in 1..=40usize {
            let x = rng.vec_f64(n, 1.0);
            let xc: Vec<Complex<f64>> = x.iter().map(|&v| Complex::new(v, 0.0)).collect();
            let want = dft(&xc, false);
            let scale: f64 = x.iter().map(|v| v.abs()).sum::<f64>().max(1.0);
            let p = FftPlan::<f64>::new(FftKind::Real, n).unwrap();
            let mut y = vec![Complex::new(0.0, 0.0); n / 2 + 1];
            p.rfft(&x, &mut y, Norm::Backward);
            assert!(
                max_err(&y, &want[..n / 2 + 1]) < 1e-14 * scale,
                "rfft n={n}"
            );
            let mut back = vec![0.0; n];
            p.irfft(&y, &mut back, Norm::Backward);
            for (a, b) in back.iter().zip(&x) {
                assert!((a - b).abs() < 1e-14 * scale, "irfft n={n}");
            }
            let c = FftPlan::<f64>::new(FftKind::Complex, n).unwrap();
            let z: Vec<Complex<f64>> = (0..n)
                .map(|_| Complex::new(rng.uniform(), rng.uniform()))
                .collect();
            let mut y = vec![Complex::new(0.0, 0.0); n];
            c.fft(Some(&z), &mut y, false, Norm::Ortho);
            let mut want = dft(&z, false);
            want.iter_mut().for_each(|v| *v /= (n as f64).sqrt());
            assert!(max_err(&y, &want) < 1e-13 * n as f64, "fft n={n}");
            c.fft(None, &mut y, true, Norm::Ortho);
            assert!(max_err(&y, &z) < 1e-13 * n as f64, "ifft in place n={n}");
        }
    }

    /// The split steps of one element type at every level, and the own plans' forward split
    /// step, against the scalar body, bit for bit (signs of zeros included), at every even
    /// length to 200 (every tail of the 8-, 4- and 2-pair vectors and of the 16-pair blocks)
    /// and three longer ones.
    fn split_steps_match_scalar<T: FftFloat>(rng: &mut Rng) {
        let bits = |a: &[Complex<T>], b: &[Complex<T>]| {
            // widening to f64 is exact, so equal bits there are equal bits in T
            let b64 = |x: T| x.to_f64().to_bits();
            a.iter()
                .zip(b)
                .all(|(a, b)| b64(a.re) == b64(b.re) && b64(a.im) == b64(b.im))
        };
        let mut own_runs = 0;
        for n in (2..=200usize).step_by(2).chain([1024, 4096, 65536]) {
            let e = EvenReal::<T>::new(n).unwrap();
            let m = n / 2;
            // uniform values, and values from {−1, −0, +0, 1} whose sums and differences cancel
            // exactly, so the signs of zero results are compared too
            let ties = [-1.0, -0.0, 0.0, 1.0];
            for tied in [false, true] {
                let mut draw = || {
                    let u = rng.uniform();
                    let x = if tied {
                        ties[((u + 1.0) * 2.0) as usize % 4]
                    } else {
                        u
                    };
                    <T as Float>::from_f64(x)
                };
                let z: Vec<Complex<T>> = (0..=m).map(|_| Complex::new(draw(), draw())).collect();
                let mut want = z.clone();
                split_fwd(crate::simd::Level::Scalar, &mut want, &e.v);
                let mut want_inv = vec![Complex::new(T::ZERO, T::ZERO); m];
                split_inv(crate::simd::Level::Scalar, &z, &mut want_inv, &e.tw);
                // the own plans' split step (with the doubles' spread twiddles), where they run it
                let mut got = z.clone();
                if e.own.as_ref().is_some_and(|o| o.split_forward(&mut got)) {
                    assert!(bits(&got, &want), "own fwd n={n} tied={tied}");
                    own_runs += 1;
                } else {
                    assert!(bits(&got, &z), "own fwd n={n}: written without running");
                }
                for level in crate::simd::available() {
                    let mut got = z.clone();
                    split_fwd(level, &mut got, &e.v);
                    assert!(bits(&got, &want), "fwd n={n} {level:?} tied={tied}");
                    let mut got = vec![Complex::new(T::ZERO, T::ZERO); m];
                    split_inv(level, &z, &mut got, &e.tw);
                    assert!(bits(&got, &want_inv), "inv n={n} {level:?} tied={tied}");
                }
            }
        }
        // 64, 128, 1024, 4096 and 65536 points, twice each, on a CPU with AVX-512
        if crate::simd::current() == crate::simd::Level::Avx512 {
            assert_eq!(own_runs, 10);
        }
    }

    #[test]
    fn split_steps_are_bit_identical_at_every_level() {
        let mut rng = Rng::new(11);
        split_steps_match_scalar::<f32>(&mut rng);
        split_steps_match_scalar::<f64>(&mut rng);
    }

    #[test]
    fn norms_follow_numpy() {
        assert_eq!(Norm::Backward.scale(4, false), None);
        assert_eq!(Norm::Backward.scale(4, true), Some(0.25));
        assert_eq!(Norm::Forward.scale(4, false), Some(0.25));
        assert_eq!(Norm::Forward.scale(4, true), None);
        assert_eq!(Norm::Ortho.scale(4, true), Some(0.5));
    }

    #[test]
    fn zero_length_is_refused_and_nyquist_imag_ignored() {
        assert!(FftPlan::<f32>::new(FftKind::Real, 0).is_err());
        let p = FftPlan::<f64>::new(FftKind::Real, 4).unwrap();
        let x = [
            Complex::new(1.0, 5.0),
            Complex::new(0.0, 0.0),
            Complex::new(1.0, -3.0),
        ];
        let mut y = [0.0; 4];
        p.irfft(&x, &mut y, Norm::Backward);
        assert_eq!(y, [0.5, 0.0, 0.5, 0.0]);
    }

    /// Every power of two from 2 to 2^20 (the immutable-transform path with placed scratch and
    /// the AVX-512 split step), at several page offsets of input and output, against rustfft's
    /// complex FFT of the real signal; plus the complex transform and round trips.
    #[test]
    fn powers_of_two_match_complex_fft_at_any_page_offset() {
        let mut rng = Rng::new(23);
        for k in 1..=20u32 {
            let n = 1usize << k;
            let x = rng.vec_f64(n, 1.0);
            let mut want: Vec<Complex<f64>> = x.iter().map(|&v| Complex::new(v, 0.0)).collect();
            FftPlanner::<f64>::new()
                .plan_fft_forward(n)
                .process(&mut want);
            let big = want.iter().map(|v| v.norm()).fold(0.0, f64::max);
            let p = FftPlan::<f64>::new(FftKind::Real, n).unwrap();
            let offsets: &[(usize, usize)] = if n >= 1024 {
                &[(0, 0), (0, 128), (256, 0), (1, 3)]
            } else {
                &[(0, 0)]
            };
            for &(xo, yo) in offsets {
                // xo in f64 elements, yo in complex values: every page offset pattern
                let mut xb = vec![0.0; n + 512];
                xb[xo..xo + n].copy_from_slice(&x);
                let mut yb = vec![Complex::new(0.0, 0.0); n / 2 + 1 + 256];
                let y = &mut yb[yo..yo + n / 2 + 1];
                p.rfft(&xb[xo..xo + n], y, Norm::Backward);
                assert!(
                    max_err(y, &want[..n / 2 + 1]) <= 1e-13 * big,
                    "rfft n={n} offsets {xo}/{yo}"
                );
                let mut back = vec![0.0; n];
                p.irfft(y, &mut back, Norm::Backward);
                let e = back
                    .iter()
                    .zip(&x)
                    .map(|(a, b)| (a - b).abs())
                    .fold(0.0, f64::max);
                assert!(e <= 1e-12, "round trip n={n}: {e}");
            }
            let c = FftPlan::<f64>::new(FftKind::Complex, n).unwrap();
            let z: Vec<Complex<f64>> = x.iter().map(|&v| Complex::new(v, 0.0)).collect();
            let mut y = vec![Complex::new(0.0, 0.0); n];
            c.fft(Some(&z), &mut y, false, Norm::Backward);
            assert!(max_err(&y, &want) <= 1e-13 * big, "fft n={n}");
        }
    }

    /// The own half-length transforms of the even real plans (double: 64 … 65536 points at
    /// AVX-512, the lengths of [`OWN_POW2_AVX2`] doubled at AVX2 and of [`OWN_POW2_SSE2`] at
    /// the baseline level, where this CPU has the level) against the crate's transforms on
    /// every entry point: forward, forward destroying its input (the same bits as forward),
    /// inverse, and the round trip; random data at unaligned offsets, within 1e-15·log2(n) of
    /// the largest bin. Plans made for the scalar level never get them.
    #[test]
    fn own_pow2_transforms_match_the_crate() {
        use crate::simd::Level;
        let mut rng = Rng::new(29);
        let c0 = Complex::new(0.0, 0.0);
        let doubled = |r: &std::ops::RangeInclusive<usize>| {
            (2 * r.start()).trailing_zeros()..=(2 * r.end()).trailing_zeros()
        };
        for (level, lgs) in [
            (Level::Avx512, 6..=16u32),
            (Level::Avx2, doubled(&OWN_POW2_AVX2)),
            (Level::Baseline, doubled(&OWN_POW2_SSE2)),
        ] {
            let have = crate::simd::detected() >= level;
            for lg in 5..=17u32 {
                let n = 1usize << lg;
                let (h, m) = (n / 2 + 1, n / 2);
                let own = EvenReal::<f64>::with_own(n, level).unwrap();
                let theirs = EvenReal::<f64>::with_own(n, Level::Scalar).unwrap();
                assert!(theirs.own.is_none());
                assert_eq!(
                    own.own.is_some(),
                    have && lgs.contains(&lg),
                    "n = {n} {level:?}"
                );
                // one value in: unaligned input and output
                let mut xb = rng.vec_f64(n + 1, 1.0);
                let x = xb[1..].to_vec();
                let (mut a, mut b) = (vec![c0; h + 1], vec![c0; h]);
                let mut s = Vec::new();
                own.forward(&x, &mut a[1..], &mut s);
                theirs.forward(&x, &mut b, &mut s);
                let big = b.iter().map(|v| v.norm()).fold(0.0, f64::max);
                let tol = 1e-15 * f64::from(lg) * big;
                assert!(max_err(&a[1..], &b) <= tol, "forward n={n}");
                let mut d = vec![c0; h];
                own.forward_destroy(&mut xb[1..], &mut d, &mut s);
                assert!(
                    d.iter().zip(&a[1..]).all(|(p, q)| p == q),
                    "forward_destroy n={n}"
                );
                let (mut r, mut rt) = (vec![0.0; n], vec![0.0; n]);
                own.inverse(&b, &mut r, &mut s);
                theirs.inverse(&b, &mut rt, &mut s);
                let e = r
                    .iter()
                    .zip(&rt)
                    .map(|(p, q)| (p - q).abs())
                    .fold(0.0, f64::max);
                let big = rt.iter().map(|v| v.abs()).fold(0.0, f64::max);
                assert!(e <= 1e-15 * f64::from(lg) * big, "inverse n={n}: {e}");
                // unnormalised round trip: n·x
                let e = r
                    .iter()
                    .zip(&x)
                    .map(|(p, q)| (p / n as f64 - q).abs())
                    .fold(0.0, f64::max);
                assert!(e <= 1e-15 * f64::from(lg) * 8.0, "round trip n={n}: {e}");
                assert_eq!(own.m, m);
            }
        }
    }

    /// A forward real transform gives the same bits whatever the output's offset from a cache
    /// line (every 8 bytes for floats, 16 for doubles; misaligned outputs of the AVX-512
    /// multi-pass lengths run through the scratch, see `OwnPow2::forward_avx512`), on
    /// both entry points (input kept, input destroyed), and writes nothing outside its bins; so
    /// does the inverse transform at every offset of its real output (every 4 or 8 bytes; see
    /// `OwnPow2::inverse_aligned_source`).
    #[test]
    fn rfft_bits_do_not_depend_on_the_output_offset() {
        fn check<T: FftFloat + PlanCache>(rng: &mut Rng) {
            let c0 = Complex::new(T::ZERO, T::ZERO);
            let guard = Complex::new(<T as Float>::from_f64(7.5), T::ZERO);
            let per_line = 64 / std::mem::size_of::<Complex<T>>();
            for lg in 7..=14u32 {
                let n = 1usize << lg;
                let h = n / 2 + 1;
                let p = FftPlan::<T>::new(FftKind::Real, n).unwrap();
                let x: Vec<T> = rng
                    .vec_f64(n, 1.0)
                    .into_iter()
                    .map(<T as Float>::from_f64)
                    .collect();
                let mut want = vec![c0; h];
                let mut ws = p.workspace().unwrap();
                // a 64-byte aligned start inside `buf`
                let mut buf = vec![guard; h + 2 * per_line + 1];
                let base = buf.as_ptr().align_offset(64);
                let mut first = true;
                for off in 0..per_line {
                    let at = base + off;
                    buf.iter_mut().for_each(|c| *c = guard);
                    p.rfft_ws(&x, &mut buf[at..at + h], Norm::Backward, &mut ws);
                    if first {
                        want.copy_from_slice(&buf[at..at + h]);
                        first = false;
                    }
                    let bits = |a: &[Complex<T>], b: &[Complex<T>]| {
                        a.iter().zip(b).all(|(a, b)| {
                            a.re.to_f64().to_bits() == b.re.to_f64().to_bits()
                                && a.im.to_f64().to_bits() == b.im.to_f64().to_bits()
                        })
                    };
                    assert!(bits(&buf[at..at + h], &want), "n = {n}, offset {off}");
                    let outside = buf[..at].iter().chain(&buf[at + h..]);
                    assert!(
                        outside.into_iter().all(|c| *c == guard),
                        "n = {n}, offset {off}"
                    );
                    let mut xd = x.clone();
                    p.rfft_inplace_input(
                        &mut xd,
                        &mut buf[at..at + h],
                        Norm::Backward,
                        &mut ws.cplx,
                    );
                    assert!(
                        bits(&buf[at..at + h], &want),
                        "destroying n = {n}, offset {off}"
                    );
                }
                // the inverse transform of those bins into every real offset in a line
                let rguard = <T as Float>::from_f64(7.5);
                let mut back = vec![rguard; n + 2 * per_line * 2 + 1];
                let rbase = back.as_ptr().align_offset(64);
                let mut first: Option<Vec<T>> = None;
                for off in 0..2 * per_line {
                    let at = rbase + off;
                    back.fill(rguard);
                    p.irfft_ws(&want, &mut back[at..at + n], Norm::Backward, &mut ws);
                    let got = back[at..at + n].to_vec();
                    let base_bits = first.get_or_insert_with(|| got.clone());
                    assert!(
                        crate::kernels::testutil::same(&got, base_bits),
                        "irfft n = {n}, offset {off}"
                    );
                    let outside = back[..at].iter().chain(&back[at + n..]);
                    assert!(
                        outside.into_iter().all(|&v| v == rguard),
                        "irfft n = {n}, offset {off}"
                    );
                }
            }
        }
        let mut rng = Rng::new(61);
        check::<f64>(&mut rng);
        check::<f32>(&mut rng);
    }

    /// `rfft_windowed` equals `rfft` of the products `x·w` bit for bit (NaN for NaN) where it
    /// runs: at the AVX-512 level for every power of two from 256 to 65536 points, float and
    /// double, under every norm, at every output offset in a cache line (nothing written
    /// around the bins), on uniform values, NaN/±Inf, subnormal and near-overflow samples and
    /// windows with zeros, negative and subnormal values. Elsewhere (128 points, 480 points,
    /// other levels) it returns `false` and writes nothing.
    #[test]
    fn rfft_windowed_equals_rfft_of_the_products() {
        fn check<T: FftFloat + PlanCache>(rng: &mut Rng) {
            let c0 = Complex::new(T::ZERO, T::ZERO);
            let guard = Complex::new(<T as Float>::from_f64(7.5), T::ZERO);
            let per_line = 64 / std::mem::size_of::<Complex<T>>();
            let f = <T as Float>::from_f64;
            let single = std::mem::size_of::<T>() == 4;
            // a subnormal and a value near the largest finite one
            let (tiny, huge) = if single {
                (f(1e-40), f(1.5e38))
            } else {
                (f(1e-310), f(8e307))
            };
            let odd = [
                f(f64::NAN),
                f(f64::INFINITY),
                f(f64::NEG_INFINITY),
                tiny,
                huge,
                f(-0.0),
            ];
            let same = |a: &[Complex<T>], b: &[Complex<T>]| {
                crate::kernels::testutil::same(as_real(a), as_real(b))
            };
            let avx512 = crate::simd::current() == crate::simd::Level::Avx512;
            for n in [
                128usize, 256, 480, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536,
            ] {
                let runs = avx512 && n >= 256 && n.is_power_of_two();
                let h = n / 2 + 1;
                let p = FftPlan::<T>::new(FftKind::Real, n).unwrap();
                let mut ws = p.workspace().unwrap();
                let mut buf = vec![guard; h + 2 * per_line + 1];
                let base = buf.as_ptr().align_offset(64);
                for case in 0..3 {
                    let mut x: Vec<T> = rng.vec_f64(n, 1.0).into_iter().map(f).collect();
                    let mut w: Vec<T> = rng.vec_f64(n, 1.0).into_iter().map(f).collect();
                    if case > 0 {
                        for j in (0..n).step_by(7 + case) {
                            x[j] = odd[j % odd.len()];
                            w[(j * 3) % n] = [T::ZERO, f(-0.5), tiny][j % 3];
                        }
                    }
                    let prod: Vec<T> = x.iter().zip(&w).map(|(&a, &b)| a * b).collect();
                    for (k, norm) in [Norm::Backward, Norm::Ortho, Norm::Forward]
                        .into_iter()
                        .enumerate()
                    {
                        let mut want = vec![c0; h];
                        p.rfft_ws(&prod, &mut want, norm, &mut ws);
                        // every offset with the default norm, one per norm otherwise
                        let offs: Vec<usize> = if k == 0 {
                            (0..per_line).collect()
                        } else {
                            vec![k]
                        };
                        for off in offs {
                            let at = base + off;
                            buf.fill(guard);
                            let did =
                                p.rfft_windowed(&x, &w, &mut buf[at..at + h], norm, &mut ws.cplx);
                            assert_eq!(did, runs, "n = {n}");
                            if did {
                                assert!(
                                    same(&buf[at..at + h], &want),
                                    "n = {n}, case {case}, {norm:?}, offset {off}"
                                );
                            }
                            let outside = buf[..at].iter().chain(&buf[at + h..]);
                            let untouched = if did {
                                outside.into_iter().all(|c| *c == guard)
                            } else {
                                buf.iter().all(|c| *c == guard)
                            };
                            assert!(untouched, "n = {n}, offset {off}");
                        }
                    }
                }
            }
        }
        let mut rng = Rng::new(67);
        check::<f64>(&mut rng);
        check::<f32>(&mut rng);
    }

    /// The fused codelets of plan type `$plan` (elements `$t`) at complex lengths `$sizes`
    /// against the plan's transform and the scalar split steps, forward (and inverse when
    /// `$inv`; else inverse plans have no inverse codelet either) bit for bit (NaN for NaN), on
    /// uniform values, values whose sums cancel exactly, NaN/±Inf and values near the largest
    /// `$t`, into outputs at every element offset in a cache line (the values around them
    /// untouched); plans of the other direction write nothing.
    macro_rules! codelet_cases {
        ($t:ty, $plan:ty, $sizes:expr, inverse = $inv:expr, $rng:expr) => {{
            use crate::simd::Level;
            let rng = $rng;
            let c0 = Complex::new(0.0 as $t, 0.0);
            let same = |a: $t, b: $t| a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan());
            let ties: [$t; 4] = [-1.0, -0.0, 0.0, 1.0];
            let odd: [$t; 4] = [<$t>::NAN, <$t>::INFINITY, <$t>::NEG_INFINITY, 0.5];
            for m in $sizes {
                let (tw, v) = split_twiddles::<$t>(2 * m).unwrap();
                let bare = <$plan>::new(m, false).unwrap();
                let f = <$plan>::new(m, false).unwrap().with_split(&v);
                let inv = <$plan>::new(m, true).unwrap().with_split(&v);
                for case in 0..4 {
                    let mut draw = || {
                        let u = rng.uniform();
                        match case {
                            0 => u as $t,
                            1 => ties[((u + 1.0) * 2.0) as usize % 4],
                            2 => odd[((u + 1.0) * 2.0) as usize % 4],
                            _ => u as $t * 0.9 * <$t>::MAX,
                        }
                    };
                    let x: Vec<Complex<$t>> =
                        (0..m).map(|_| Complex::new(draw(), draw())).collect();
                    let mut want = vec![c0; m + 1];
                    let mut scratch = vec![c0; f.scratch_len()];
                    f.process_outofplace(&x, &mut want[..m], &mut scratch);
                    split_fwd(Level::Scalar, &mut want, &v);
                    let line = 64 / std::mem::size_of::<Complex<$t>>();
                    let guard = Complex::new(<$t>::MIN, <$t>::MAX);
                    let mut buf = vec![guard; m + 1 + 2 * line];
                    let mut on_line = false;
                    for off in line..2 * line {
                        buf.fill(guard);
                        let out = &mut buf[off..off + m + 1];
                        on_line |= (out.as_ptr() as usize).is_multiple_of(64);
                        assert!(f.real_forward(&x, out));
                        for (k, (g, w)) in out.iter().zip(&want).enumerate() {
                            assert!(
                                same(g.re, w.re) && same(g.im, w.im),
                                "m={m} case {case} offset {off} bin {k}: {g} vs {w}"
                            );
                        }
                        assert!(buf[..off]
                            .iter()
                            .chain(&buf[off + m + 1..])
                            .all(|c| *c == guard));
                    }
                    assert!(on_line, "no output on a cache line (m={m})");
                    // no codelet in an inverse plan, no split twiddles in a bare plan
                    let mut none = vec![c0; m + 1];
                    assert!(!inv.real_forward(&x, &mut none));
                    assert!(!bare.real_forward(&x, &mut none));
                    assert!(!bare.split_forward(None, &mut none));
                    assert!(none
                        .iter()
                        .all(|c| c.re.to_bits() == 0 && c.im.to_bits() == 0));
                    // inverse: the bins `want` (imaginary parts of bins 0 and m drawn) back
                    let mut bins = want.clone();
                    bins[0].im = draw();
                    bins[m].im = draw();
                    let mut got = vec![c0; m + 1];
                    if !$inv {
                        assert!(!inv.real_inverse(&bins, &mut got[1..], &tw, 1.0));
                        assert!(got.iter().all(|c| *c == c0));
                        continue;
                    }
                    assert!(inv.real_inverse(&bins, &mut got[1..], &tw, 1.0));
                    let mut expect = vec![c0; m];
                    split_inv(Level::Scalar, &bins, &mut expect, &tw);
                    inv.process(&mut expect, &mut []);
                    for (k, (g, w)) in got[1..].iter().zip(&expect).enumerate() {
                        assert!(
                            same(g.re, w.re) && same(g.im, w.im),
                            "inverse m={m} case {case} value {k}: {g} vs {w}"
                        );
                    }
                    let mut none = vec![c0; m];
                    assert!(!f.real_inverse(&bins, &mut none, &tw, 1.0));
                    assert!(none
                        .iter()
                        .all(|c| c.re.to_bits() == 0 && c.im.to_bits() == 0));
                }
            }
        }};
    }

    /// The fused AVX-512 real codelets (16 to 256 complex points) equal the complex transform
    /// followed by the scalar split step bit for bit (signs of zero included; NaN for NaN), on
    /// uniform values, values whose sums cancel exactly, NaN/±Inf and values near the largest
    /// double, written at every offset in a cache line; the other direction's plans have none
    /// and write nothing; the two-pass ones (128 and 256 complex points) are forward only. Of
    /// the plans, exactly the double real ones of 64 to 512 points at AVX-512 take them
    /// (inverse: 64 and 128), with the transform's result under every norm.
    #[test]
    fn fused_real_codelets_equal_transform_then_split() {
        use crate::simd::Level;
        if crate::simd::detected() < Level::Avx512 {
            return;
        }
        let mut rng = Rng::new(53);
        let c0 = Complex::new(0.0, 0.0);
        codelet_cases!(
            f64,
            pow2_avx512::Pow2Avx512,
            [16usize, 32, 64],
            inverse = true,
            &mut rng
        );
        codelet_cases!(
            f64,
            pow2_avx512::Pow2Avx512,
            [128usize, 256],
            inverse = false,
            &mut rng
        );
        for n in [32usize, 64, 128, 256, 512, 1024] {
            let p = FftPlan::<f64>::new(FftKind::Real, n).unwrap();
            let x = rng.vec_f64(n, 1.0);
            for norm in [Norm::Backward, Norm::Ortho, Norm::Forward] {
                let mut fused = vec![c0; n / 2 + 1];
                let mut want = vec![c0; n / 2 + 1];
                let did = p.rfft_fused(&x, &mut fused, norm);
                assert_eq!(did, matches!(n, 64 | 128 | 256 | 512), "n = {n}");
                if !did {
                    assert!(fused.iter().all(|c| *c == c0));
                    continue;
                }
                let e = EvenReal::<f64>::with_own(n, Level::Avx512).unwrap();
                let mut z = vec![c0; n / 2 + 1];
                e.own.as_ref().unwrap().run(
                    false,
                    Some(as_complex(&x)),
                    &mut z[..n / 2],
                    &mut Vec::new(),
                );
                split_fwd(Level::Scalar, &mut z, &e.v);
                scale_cplx(&mut z, norm.scale(n, false));
                p.rfft(&x, &mut want, norm);
                assert!(fused.iter().zip(&want).all(|(a, b)| a == b), "n = {n}");
                assert!(fused.iter().zip(&z).all(|(a, b)| a == b), "n = {n}");
                // inverse through the plan: the fused codelet, the plan's irfft, and the split
                // step then the codelet agree; the imaginary parts of bins 0 and n/2 are ignored
                let mut bins = want.clone();
                bins[0].im = f64::NAN;
                bins[n / 2].im = f64::INFINITY;
                let (mut back, mut plain) = (vec![0.0; n], vec![0.0; n]);
                if n > 128 {
                    // forward only from 256 points
                    assert!(!p.irfft_fused(&bins, &mut back, norm));
                    assert!(back.iter().all(|&b| b == 0.0));
                    continue;
                }
                assert!(p.irfft_fused(&bins, &mut back, norm));
                p.irfft(&bins, &mut plain, norm);
                let mut clean = bins.clone();
                clean[0].im = 0.0;
                clean[n / 2].im = 0.0;
                let mut z = vec![c0; n / 2];
                split_inv(Level::Scalar, &clean, &mut z, &e.tw);
                e.own
                    .as_ref()
                    .unwrap()
                    .run(true, None, &mut z, &mut Vec::new());
                let mut zr: Vec<f64> = z.iter().flat_map(|c| [c.re, c.im]).collect();
                scale_slice(&mut zr, norm.scale(n, true));
                assert!(
                    back.iter().zip(&plain).all(|(a, b)| a == b),
                    "inverse n = {n}"
                );
                assert!(back.iter().zip(&zr).all(|(a, b)| a == b), "inverse n = {n}");
                if norm == Norm::Backward {
                    let err = back
                        .iter()
                        .zip(&x)
                        .map(|(a, b)| (a - b).abs())
                        .fold(0.0, f64::max);
                    assert!(err < 1e-14, "round trip n = {n}: {err}");
                }
            }
        }
        let pf = FftPlan::<f32>::new(FftKind::Real, 256).unwrap();
        let mut yf = vec![Complex::new(0.0f32, 0.0); 129];
        assert!(!pf.rfft_fused(&[1.0f32; 256], &mut yf, Norm::Backward));
    }

    /// The float fused codelets (32 and 64 complex points) against the float codelet and the
    /// scalar split step, as the double test above.
    #[test]
    fn fused_float_real_codelets_equal_transform_then_split() {
        use crate::simd::Level;
        if crate::simd::detected() < Level::Avx512 {
            return;
        }
        let mut rng = Rng::new(59);
        let c0 = Complex::new(0.0f32, 0.0);
        codelet_cases!(
            f32,
            pow2_avx512_f32::Pow2Avx512F32,
            [32usize, 64],
            inverse = true,
            &mut rng
        );
        for n in [64usize, 128, 256] {
            let p = FftPlan::<f32>::new(FftKind::Real, n).unwrap();
            let x: Vec<f32> = (0..n).map(|_| rng.uniform() as f32).collect();
            let mut y = vec![c0; n / 2 + 1];
            assert_eq!(
                p.rfft_fused(&x, &mut y, Norm::Backward),
                n <= 128,
                "n = {n}"
            );
            p.rfft(&x, &mut y, Norm::Backward);
            let (mut back, mut plain) = (vec![0.0f32; n], vec![0.0f32; n]);
            assert_eq!(
                p.irfft_fused(&y, &mut back, Norm::Backward),
                n <= 128,
                "n = {n}"
            );
            p.irfft(&y, &mut plain, Norm::Backward);
            if n <= 128 {
                assert!(
                    back.iter().zip(&plain).all(|(a, b)| a == b),
                    "inverse n = {n}"
                );
            }
            let err = plain
                .iter()
                .zip(&x)
                .map(|(a, b)| (a - b).abs())
                .fold(0.0, f32::max);
            assert!(err < 1e-5, "round trip n = {n}: {err}");
        }
    }

    /// The float counterpart: own half-length transforms for 128 … 65536 points (AVX-512),
    /// 512 … 8192 points (AVX2) and 128 … 8192 points (baseline, SSE2), each against the same
    /// plan on rustfft's transform (forward, input-destroying forward, inverse, round trip;
    /// unaligned input and output). The scalar level has none.
    #[test]
    fn own_pow2_float_transforms_match_the_crate() {
        use crate::simd::Level;
        let mut rng = Rng::new(41);
        let c0 = Complex::new(0.0f32, 0.0);
        for (level, lgs) in [
            (Level::Avx512, 6..=16u32),
            (Level::Avx2, 9..=13),
            (Level::Baseline, 7..=13),
        ] {
            let have = crate::simd::detected() >= level;
            for lg in 5..=17u32 {
                let n = 1usize << lg;
                let h = n / 2 + 1;
                let own = EvenReal::<f32>::with_own(n, level).unwrap();
                let theirs = EvenReal::<f32>::with_own(n, Level::Scalar).unwrap();
                assert!(theirs.own.is_none());
                assert_eq!(
                    own.own.is_some(),
                    have && lgs.contains(&lg),
                    "n = {n} {level:?}"
                );
                let mut xb = rng.vec_f32(n + 1, 1.0);
                let x = xb[1..].to_vec();
                let (mut a, mut b) = (vec![c0; h + 1], vec![c0; h]);
                let mut s = Vec::new();
                own.forward(&x, &mut a[1..], &mut s);
                theirs.forward(&x, &mut b, &mut s);
                let big = b.iter().map(|v| v.norm()).fold(0.0, f32::max);
                let tol = 1e-6 * lg as f32 * big;
                let e = a[1..]
                    .iter()
                    .zip(&b)
                    .map(|(p, q)| (p - q).norm())
                    .fold(0.0, f32::max);
                assert!(e <= tol, "forward n={n}: {e:e}");
                let mut d = vec![c0; h];
                own.forward_destroy(&mut xb[1..], &mut d, &mut s);
                assert!(
                    d.iter().zip(&a[1..]).all(|(p, q)| p == q),
                    "forward_destroy n={n}"
                );
                let (mut r, mut rt) = (vec![0.0f32; n], vec![0.0f32; n]);
                own.inverse(&b, &mut r, &mut s);
                theirs.inverse(&b, &mut rt, &mut s);
                let e = r
                    .iter()
                    .zip(&rt)
                    .map(|(p, q)| (p - q).abs())
                    .fold(0.0, f32::max);
                let big = rt.iter().map(|v| v.abs()).fold(0.0, f32::max);
                assert!(e <= 1e-6 * lg as f32 * big, "inverse n={n}: {e:e}");
                let e = r
                    .iter()
                    .zip(&x)
                    .map(|(p, q)| (p / n as f32 - q).abs())
                    .fold(0.0, f32::max);
                assert!(e <= 1e-6 * lg as f32, "round trip n={n}: {e:e}");
            }
        }
    }

    /// Double plans of lengths that are not powers of two run on the own transform: against
    /// rustfft (the oracle) on every entry point (workspace and input-destroying forms,
    /// complex in and out of place), with round trips; float plans keep rustfft.
    #[test]
    fn own_transform_matches_rustfft_on_every_entry_point() {
        let mut rng = Rng::new(31);
        for n in [3usize, 26, 243, 480, 1000, 1001, 4099, 8198, 3 * 4099] {
            let x = rng.vec_f64(n, 1.0);
            let mut want: Vec<Complex<f64>> = x.iter().map(|&v| Complex::new(v, 0.0)).collect();
            FftPlanner::<f64>::new()
                .plan_fft_forward(n)
                .process(&mut want);
            let big = want.iter().map(|v| v.norm()).fold(0.0, f64::max);
            let p = FftPlan::<f64>::new(FftKind::Real, n).unwrap();
            assert!(matches!(p.inner, Inner::OwnReal(_)), "n={n}");
            let h = n / 2 + 1;
            let mut y = vec![Complex::new(0.0, 0.0); h];
            p.rfft(&x, &mut y, Norm::Backward);
            assert!(max_err(&y, &want[..h]) <= 1e-13 * big, "rfft n={n}");
            let mut xd = x.clone();
            let mut y2 = vec![Complex::new(9.0, 9.0); h];
            p.rfft_inplace_input(&mut xd, &mut y2, Norm::Backward, &mut Vec::new());
            assert_eq!(y, y2, "rfft_inplace_input n={n}");
            let mut back = vec![0.0; n];
            p.irfft(&y, &mut back, Norm::Backward);
            let e = back.iter().zip(&x).map(|(a, b)| (a - b).abs());
            assert!(e.fold(0.0, f64::max) <= 1e-13, "round trip n={n}");
            let mut back2 = vec![0.0; n];
            p.irfft_inplace_input(&mut y.clone(), &mut back2, Norm::Backward, &mut Vec::new());
            assert_eq!(back, back2, "irfft_inplace_input n={n}");
            let c = FftPlan::<f64>::new(FftKind::Complex, n).unwrap();
            assert!(matches!(c.inner, Inner::OwnComplex(_)), "n={n}");
            let z: Vec<Complex<f64>> = x.iter().map(|&v| Complex::new(v, 0.0)).collect();
            let mut yc = vec![Complex::new(0.0, 0.0); n];
            c.fft(Some(&z), &mut yc, false, Norm::Backward);
            assert!(max_err(&yc, &want) <= 1e-13 * big, "fft n={n}");
            c.fft(None, &mut yc, true, Norm::Backward);
            assert!(max_err(&yc, &z) <= 1e-13, "ifft in place n={n}");
            let f = FftPlan::<f32>::new(FftKind::Real, n).unwrap();
            assert!(matches!(f.inner, Inner::Real { .. }), "f32 n={n}");
        }
    }

    #[test]
    fn scratch_is_placed_away_from_input_and_output() {
        let circ = |a: usize, b: usize| {
            let d = a.wrapping_sub(b) % PAGE;
            d.min(PAGE - d)
        };
        for base in [0x10_0000usize, 0x10_0010, 0x10_0808, 0x10_0ff0] {
            for x in (0..PAGE).step_by(8) {
                for y in [0, 8, 1024, 1536, 2048, 3000, 4088] {
                    let (x, y) = (0x20_0000 + x, 0x30_0000 + (x + y) % PAGE);
                    let k = scratch_offset(
                        base as *const Complex<f64>,
                        x as *const Complex<f64>,
                        y as *const Complex<f64>,
                    );
                    assert!(k < PAGE / 16);
                    let s = base + 16 * k;
                    // 1 KiB less the rounding down to a cache line and to an element
                    assert!(
                        circ(s, x) >= 1024 - 64 - 16 && circ(s, y) >= 1024 - 64 - 16,
                        "base {base:#x} x {x:#x} y {y:#x} -> {s:#x}"
                    );
                    if base % 16 == 0 {
                        assert_eq!(s % CACHE_LINE, 0, "base {base:#x} x {x:#x} y {y:#x}");
                    }
                }
            }
        }
    }

    #[test]
    fn one_plan_runs_on_many_threads() {
        let p = Arc::new(FftPlan::<f32>::new(FftKind::Real, 1000).unwrap());
        std::thread::scope(|s| {
            for t in 0..4 {
                let p = p.clone();
                s.spawn(move || {
                    let mut rng = Rng::new(t);
                    for _ in 0..50 {
                        let x = rng.vec_f32(1000, 1.0);
                        let mut y = vec![Complex::new(0.0f32, 0.0); 501];
                        p.rfft(&x, &mut y, Norm::Ortho);
                        let mut b = vec![0.0f32; 1000];
                        p.irfft(&y, &mut b, Norm::Ortho);
                        for (a, c) in b.iter().zip(&x) {
                            assert!((a - c).abs() < 1e-5);
                        }
                    }
                });
            }
        });
    }
}
