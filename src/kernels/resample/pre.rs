//! The first stage of the resampler: the sharp anti-aliasing / anti-imaging lowpass, run by FFT
//! overlap-save, upsampling by `U` (1 or 2) on the way.
//!
//! A direct polyphase filter with the full spec's transition band costs hundreds of taps per
//! output. Here the steep part runs as a fast convolution (a few operations per sample whatever
//! its length), at `U` times the input rate, so that the band it leaves, `[0, f_stop]` with
//! `f_stop <= 1/4` cycle per sample of its output, has its first image at `1 − f_stop`: the
//! arbitrary-ratio polyphase stage that follows then only needs a transition band from
//! `f_stop` to `1 − f_stop`, a few dozen taps.
//!
//! **The filter.** `h[i] = U·g(i − D)`, `i = 0 .. 2D`: the Kaiser-windowed sinc `g` of
//! [`Kernel`] with the spec's band edges in cycles per output sample, symmetric, so the stage
//! delays by exactly `D` output samples. Its output is `y[j] = Σ_i h[i]·u[j − i]`, `u` the input
//! with `U − 1` zeros after each sample (`u[U·t] = x[t]`), the input before sample 0 zero.
//!
//! **Precision.** The stage computes in `double` for `float` streams too: a `float` FFT leaves
//! rounding noise about −134 dB below the signal across the whole band, above the HIGH
//! preset's stopband floor. Its output is rounded to the stream's type once.
//!
//! **Blocks.** Block `b` makes outputs `[b·U·B, (b + 1)·U·B)` from the input
//! `[b·B − O, (b + 1)·B)`, `O = nx − B` samples of history: one real FFT of `nx` points, the
//! spectrum of the zero-stuffed segment (for `U = 2`, `X[k]` and, above `nx/2`, the mirror
//! `conj(X[nx − k])`), a product with the filter's spectrum (the `1/N` of the inverse folded
//! in) and one inverse real FFT of `N = U·nx` points whose last `U·B` values are free of
//! wrap-around (`N − U·B >= 2D`). Blocks sit at fixed positions of the input, so any split of a
//! stream into calls computes the same blocks the same way.

use super::design::{cached, minimum_phase, CacheKey, Coefs, Kernel, Phase, Spec};
use crate::error::{SkError, SkResult};
use crate::kernels::alloc::try_vec;
use crate::kernels::spectral::fft::{FftPlan, Norm, PlanCache, Workspace};
use crate::kernels::spectral::Complex;
use crate::kernels::Float;
use std::any::TypeId;
use std::sync::Arc;

/// What the first stage's allocations are called in their errors.
const BUFS: &str = "the resampler's first-stage buffers";

/// The most taps the first stage's filter may have.
pub(crate) const MAX_PRE_TAPS: usize = 1 << 20;

/// The upsampling factor of the first stage for `ratio = out/in`: 1 when the output rate is at
/// most half the input rate (the band left is then at most a quarter of the input rate
/// already), else 2. Depends on the rates only, so output counts can be computed without a
/// spec.
pub fn up_factor(ratio: f64) -> usize {
    if ratio <= 0.5 {
        1
    } else {
        2
    }
}

/// The first stage's design: filter, block geometry and (double) FFT plans.
#[derive(Clone)]
pub struct Pre {
    /// `U`.
    pub up: usize,
    /// FFT input length (input samples per block, history included).
    pub nx: usize,
    /// New input samples per block (`B`).
    pub block: usize,
    /// Half the filter's length in output samples (`D`: `2·D + 1` taps); the delay of a linear
    /// phase filter.
    pub delay: usize,
    /// The delay the stream aligns its output by, in output samples: `D` for linear phase, the
    /// group delay at 0 Hz for minimum phase.
    pub lead: f64,
    /// Band edge the stage keeps, in cycles per output sample.
    pub f_stop: f64,
    /// The filter's spectrum over `N = U·nx` points, `N/2 + 1` bins as `re, im` pairs, `1/N`
    /// folded in.
    spec: Coefs<f64>,
    fwd: Arc<FftPlan<f64>>,
    inv: Arc<FftPlan<f64>>,
}

impl std::fmt::Debug for Pre {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pre")
            .field("up", &self.up)
            .field("nx", &self.nx)
            .field("block", &self.block)
            .field("delay", &self.delay)
            .finish()
    }
}

/// The power of two `nx` (at least `2·overlap`, at most 64 times that or 2¹⁶) with the least
/// estimated work per new input sample: a forward FFT of `nx` points, an inverse of `U·nx`,
/// and the spectrum product.
fn choose_nx(overlap: usize, up: usize) -> usize {
    let lo = (2 * overlap).next_power_of_two().max(64);
    let hi = lo.max(1 << 16).min(lo << 6);
    let (mut best, mut best_cost) = (lo, f64::INFINITY);
    let mut nx = lo;
    while nx <= hi {
        let (a, b) = (nx as f64, (up * nx) as f64);
        let work = a * (a.log2() + 1.5) + b * (b.log2() + 1.5) + 2.0 * b;
        let cost = work / (nx - overlap) as f64;
        if cost < best_cost {
            (best, best_cost) = (nx, cost);
        }
        nx *= 2;
    }
    best
}

/// Scratch of one thread running blocks: the segment, its spectrum, the product's spectrum,
/// the inverse's output and the FFT workspace.
pub struct PreWs {
    seg: Vec<f64>,
    x: Vec<Complex<f64>>,
    y: Vec<Complex<f64>>,
    out: Vec<f64>,
    ws: Workspace<f64>,
}

impl PreWs {
    /// Where its buffers are (tests: whether a workspace was kept or made anew).
    #[cfg(test)]
    pub(crate) fn addrs(&self) -> [usize; 4] {
        [
            self.seg.as_ptr() as usize,
            self.x.as_ptr() as usize,
            self.y.as_ptr() as usize,
            self.out.as_ptr() as usize,
        ]
    }
}

impl Pre {
    /// The first stage for `ratio = out/in` and `spec` (band edges as fractions of the lower
    /// Nyquist frequency).
    pub fn new(spec: &Spec, ratio: f64) -> SkResult<Pre> {
        let up = up_factor(ratio);
        let scale = 0.5 * ratio.min(1.0) / up as f64;
        let (f_pass, f_stop) = (spec.pass * scale, spec.stop * scale);
        let g = Kernel::with_edges(
            f_pass,
            f_stop,
            spec.atten_db,
            &format!("ratio {ratio} (first stage)"),
        )?;
        let delay = g.half_width().floor() as usize;
        let taps = 2 * delay + 1;
        if taps > MAX_PRE_TAPS {
            return Err(SkError::BadArgument(format!(
                "the filter for ratio {ratio} and this spec needs more than {MAX_PRE_TAPS} \
                 taps; widen the transition band or lower the attenuation"
            )));
        }
        let overlap = (taps - 1).div_ceil(up);
        let nx = choose_nx(overlap, up);
        let n = up * nx;
        let fwd = f64::cached_real_plan(nx)?;
        let inv = f64::cached_real_plan(n)?;
        let [b0, b1, b2] = g.id_bits();
        let linear = |v: &mut [f64]| {
            for (i, v) in v.iter_mut().enumerate() {
                *v = up as f64 * g.eval(i as f64 - delay as f64);
            }
        };
        // minimum phase: the design (three FFTs of 64 times the filter's length) is kept in
        // the cache as one vector, the fractional lead first, then the taps
        let minimum = match spec.phase {
            Phase::Linear => None,
            Phase::Minimum => Some(cached::<f64>(
                CacheKey {
                    ty: TypeId::of::<f64>(),
                    kind: 2,
                    bits: [b0, b1, b2, up as u64, spec.atten_db.to_bits()],
                    sizes: [taps, 0, 0],
                },
                || {
                    let mut h = try_vec(taps, 0.0f64, BUFS)?;
                    linear(&mut h);
                    let (hm, lead) = minimum_phase(&h, spec.atten_db)?;
                    let mut v = try_vec(taps + 1, lead, BUFS)?;
                    v[1..].copy_from_slice(&hm);
                    Ok(Coefs::from_vec(v))
                },
            )?),
        };
        let lead = minimum.as_ref().map_or(delay as f64, |m| m.get()[0]);
        let key = CacheKey {
            ty: TypeId::of::<f64>(),
            kind: 1,
            bits: [b0, b1, b2, up as u64, minimum.is_some() as u64],
            sizes: [nx, taps, 0],
        };
        let spec = cached::<f64>(key, || {
            let mut hp = try_vec(n, 0.0f64, BUFS)?;
            match &minimum {
                None => linear(&mut hp[..taps]),
                Some(m) => hp[..taps].copy_from_slice(&m.get()[1..]),
            }
            let mut hs = try_vec(n / 2 + 1, Complex::new(0.0f64, 0.0), BUFS)?;
            let plan = f64::cached_real_plan(n)?;
            let mut ws = plan.workspace()?;
            plan.rfft_ws(&hp, &mut hs, Norm::Forward, &mut ws);
            let mut v = try_vec(2 * hs.len(), 0.0, BUFS)?;
            for (pair, c) in v.chunks_exact_mut(2).zip(&hs) {
                pair[0] = c.re;
                pair[1] = c.im;
            }
            Ok(Coefs::from_vec(v))
        })?;
        Ok(Pre {
            up,
            nx,
            block: nx - overlap,
            delay,
            lead,
            f_stop,
            spec,
            fwd,
            inv,
        })
    }

    /// Input samples of history each block reads before its new ones.
    pub fn overlap(&self) -> usize {
        self.nx - self.block
    }

    /// A thread's scratch for [`run`](Self::run) (fallible).
    pub fn workspace(&self) -> SkResult<PreWs> {
        let z = Complex::new(0.0, 0.0);
        let mut ws = Workspace::default();
        self.fwd.reserve(&mut ws)?;
        self.inv.reserve(&mut ws)?;
        Ok(PreWs {
            seg: try_vec(self.nx, 0.0, BUFS)?,
            x: try_vec(self.nx / 2 + 1, z, BUFS)?,
            y: try_vec(self.up * self.nx / 2 + 1, z, BUFS)?,
            out: try_vec(self.up * self.nx, 0.0, BUFS)?,
            ws,
        })
    }

    /// Runs `out.len() / (U·B)` consecutive blocks: `x` holds the first block's history and the
    /// blocks' new samples (`overlap() + blocks·B` values), `out` their outputs (rounded to
    /// `T` once).
    pub fn run<T: Float>(&self, x: &[T], out: &mut [T], w: &mut PreWs) {
        let (nx, b, up) = (self.nx, self.block, self.up);
        let n = up * nx;
        let h = self.spec.get();
        for (k, o) in out.chunks_exact_mut(up * b).enumerate() {
            for (d, v) in w.seg.iter_mut().zip(&x[k * b..k * b + nx]) {
                *d = v.to_f64();
            }
            self.fwd
                .rfft_ws(&w.seg, &mut w.x, Norm::Backward, &mut w.ws);
            // the spectrum of the zero-stuffed segment: X[j] up to nx/2, then (U = 2) the
            // mirror conj(X[nx − j])
            let half = nx / 2;
            let (lo, hi) = w.y.split_at_mut(half + 1);
            let (hlo, hhi) = h.split_at(2 * (half + 1));
            for ((y, v), hp) in lo.iter_mut().zip(&w.x).zip(hlo.chunks_exact(2)) {
                *y = Complex::new(v.re * hp[0] - v.im * hp[1], v.re * hp[1] + v.im * hp[0]);
            }
            for ((y, v), hp) in hi
                .iter_mut()
                .zip(w.x[..half].iter().rev())
                .zip(hhi.chunks_exact(2))
            {
                // conj(v)·h
                *y = Complex::new(v.re * hp[0] + v.im * hp[1], v.re * hp[1] - v.im * hp[0]);
            }
            self.inv
                .irfft_ws(&w.y, &mut w.out, Norm::Forward, &mut w.ws);
            for (d, v) in o.iter_mut().zip(&w.out[n - up * b..]) {
                *d = T::from_f64(*v);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::resample::design::Quality;
    use crate::kernels::testutil::Rng;

    /// Blocks equal the direct convolution of the zero-stuffed input with `h` (double
    /// reference), for both factors, at block boundaries and with the zero history.
    fn case<T: Float>(ratio: f64, q: Quality, tol: f64) {
        let p = Pre::new(&q.spec(), ratio).unwrap();
        assert_eq!(p.up, up_factor(ratio));
        assert!(p.up * p.nx - p.up * p.block >= 2 * p.delay);
        let g = {
            let up = p.up;
            let scale = 0.5 * ratio.min(1.0) / up as f64;
            let s = q.spec();
            Kernel::with_edges(s.pass * scale, s.stop * scale, s.atten_db, "t").unwrap()
        };
        let taps = 2 * p.delay + 1;
        let h: Vec<f64> = (0..taps)
            .map(|i| p.up as f64 * g.eval(i as f64 - p.delay as f64))
            .collect();
        let mut rng = Rng::new(5);
        let blocks = 3;
        let n_new = blocks * p.block;
        let mut x = vec![T::ZERO; p.overlap()];
        x.extend((0..n_new).map(|_| T::from_f64(rng.uniform() - 0.5)));
        let mut out = vec![T::NAN; blocks * p.up * p.block];
        let mut w = p.workspace().unwrap();
        p.run(&x, &mut out, &mut w);
        let xs = &x[p.overlap()..];
        let mut worst = 0.0f64;
        for (j, o) in out.iter().enumerate() {
            let mut acc = 0.0;
            for (i, hv) in h.iter().enumerate() {
                if i <= j && (j - i) % p.up == 0 {
                    acc += hv * xs[(j - i) / p.up].to_f64();
                }
            }
            worst = worst.max((o.to_f64() - acc).abs());
        }
        assert!(worst < tol, "ratio {ratio} {q:?} {}: {worst:e}", T::NAME);
    }

    #[test]
    fn blocks_equal_the_direct_convolution() {
        for ratio in [147.0 / 160.0, 160.0 / 147.0, 0.5, 0.3, 3.0] {
            case::<f64>(ratio, Quality::VeryHigh, 1e-12);
            case::<f32>(ratio, Quality::High, 2e-5);
            case::<f64>(ratio, Quality::Quick, 1e-12);
        }
    }

    #[test]
    fn geometry() {
        assert_eq!(up_factor(0.5), 1);
        assert_eq!(up_factor(0.51), 2);
        let p = Pre::new(&Quality::High.spec(), 147.0 / 160.0).unwrap();
        assert!(p.nx.is_power_of_two() && p.block > p.nx / 2);
        assert!(p.f_stop <= 0.25 && p.f_stop > 0.2);
    }
}
