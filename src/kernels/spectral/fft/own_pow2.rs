//! The own SIMD power-of-two transforms a half length runs on at each SIMD level ([`OwnPow2`])
//! and the length ranges where each one is used.

use super::scratch::placed_scratch;
use super::split::split_inv;
#[cfg(target_arch = "x86_64")]
use super::{
    pow2_avx2_f32, pow2_avx2_f64, pow2_avx512, pow2_avx512_f32, pow2_shared, pow2_sse2_f32,
    pow2_sse2_f64,
};
use super::{Complex, FftFloat};

/// The own complex transforms of one power-of-two length (forward and inverse): Stockham
/// passes on AVX-512, radix 4/8/16 for doubles ([`pow2_avx512`]), radix 8/16 for floats
/// ([`pow2_avx512_f32`]); on AVX2 for floats ([`pow2_avx2_f32`]) and doubles
/// ([`pow2_avx2_f64`]); on SSE2 for floats ([`pow2_sse2_f32`]) and doubles
/// ([`pow2_sse2_f64`]). The AVX2 double and both SSE2 kinds share their passes
/// ([`super::pow2_pair`]: two complex values per vector).
#[cfg(target_arch = "x86_64")]
pub(super) enum OwnPow2 {
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
pub(super) enum OwnPow2 {}

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
    /// [`super::split::split_twiddles`]) and run the split step themselves ([`OwnPow2::split_forward`]).
    #[allow(unused_variables, unused_imports)] // off x86-64 there is nothing to choose
    pub(super) fn new<T: FftFloat>(
        m: usize,
        level: crate::simd::Level,
        v: &[Complex<T>],
    ) -> Option<Self> {
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

    /// Which own transform this is (`"avx512 f64"`, …), for the test that pins the dispatch.
    #[cfg(test)]
    pub(super) fn name(&self) -> &'static str {
        #[cfg(target_arch = "x86_64")]
        return match self {
            OwnPow2::Double { .. } => "avx512 f64",
            OwnPow2::Float { .. } => "avx512 f32",
            OwnPow2::FloatAvx2 { .. } => "avx2 f32",
            OwnPow2::DoubleAvx2 { .. } => "avx2 f64",
            OwnPow2::FloatSse2 { .. } => "sse2 f32",
            OwnPow2::DoubleSse2 { .. } => "sse2 f64",
        };
        #[cfg(not(target_arch = "x86_64"))]
        match *self {}
    }

    pub(super) fn scratch_len(&self) -> usize {
        // the AVX-512 multi-pass transforms below the aligned-passes length also take room for
        // the result of `forward_avx512`
        #[cfg(target_arch = "x86_64")]
        let with_target = |s: usize| {
            if s > 0 && s < pow2_shared::ALIGNED_PASSES_MIN {
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
    pub(super) fn real_forward<T: FftFloat>(&self, x: &[Complex<T>], y: &mut [Complex<T>]) -> bool {
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
    /// elsewhere. Bit for bit [`super::split::split_fwd`].
    #[allow(unused_variables)]
    pub(super) fn split_forward<T: FftFloat>(&self, y: &mut [Complex<T>]) -> bool {
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
    pub(super) fn real_inverse<T: FftFloat>(
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
    ///   [`pow2_shared::ALIGNED_PASSES_MIN`] points every pass runs in the scratch (placed on a
    ///   cache line), and the split step reads the last pass's result there and writes the bins
    ///   to `y` once, where the usual path has the last pass write `y` and the split read and
    ///   rewrite it, every vector of each pass spanning two cache lines.
    /// - A window `win` (m complex values: the real window's pairs): the first pass multiplies
    ///   the input by it as it loads it, so the windowed frame is never stored.
    #[allow(unused_variables, clippy::needless_return)] // off x86-64 the body is `false`
    pub(super) fn forward_avx512<T: FftFloat>(
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
                m < pow2_shared::ALIGNED_PASSES_MIN && !(y.as_ptr() as usize).is_multiple_of(64);
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
    /// cache lines). Bit for bit the usual path.
    /// Returns `false`, writing nothing, where this does not apply (other levels, the
    /// single-codelet lengths, lengths where it measured slower, an aligned `y`).
    #[allow(unused_variables, clippy::needless_return)] // off x86-64 the body is `false`
    pub(super) fn inverse_aligned_source<T: FftFloat>(
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
    /// scratch placed away from both (see [`super::scratch::scratch_offset`]).
    #[allow(unused_variables)]
    pub(super) fn run<T: FftFloat>(
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

// The half lengths each own transform runs at: where it measured faster than the crate's
// transform at that SIMD level (docs/spectral.md, "How the FFT picks its path").

/// Half lengths of the own AVX-512 double transforms (real transforms of 64 … 65536 points).
pub(super) const OWN_POW2: std::ops::RangeInclusive<usize> = 32..=32768;

/// Half lengths of the own AVX-512 float transforms (real 64 … 65536; at 32 for the fused
/// 64-point codelet, [`OwnPow2::real_forward`]).
pub(super) const OWN_POW2_F32: std::ops::RangeInclusive<usize> = 32..=32768;

/// Half lengths of the own AVX2 float transforms (real transforms of 512 … 8192 points).
pub(super) const OWN_POW2_F32_AVX2: std::ops::RangeInclusive<usize> = 256..=4096;

/// Half lengths of the own AVX2 double transforms (real transforms of 128 … 4096 points).
pub(super) const OWN_POW2_AVX2: std::ops::RangeInclusive<usize> = 64..=2048;

/// Half lengths of the own SSE2 float transforms, baseline level (real 128 … 8192 points).
pub(super) const OWN_POW2_F32_SSE2: std::ops::RangeInclusive<usize> = 64..=4096;

/// Half lengths of the own SSE2 double transforms, baseline level (real 128 … 4096 points).
pub(super) const OWN_POW2_SSE2: std::ops::RangeInclusive<usize> = 64..=2048;
