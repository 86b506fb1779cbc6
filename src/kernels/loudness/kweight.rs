//! K-weighting (ITU-R BS.1770-4) designed for any sample rate, and the fused pass that filters
//! every channel and sums the weighted squares of the result.
//!
//! BS.1770 tabulates the two filter stages at 48 kHz only. Each stage is a bilinear transform of
//! an analogue prototype (a high shelf, then a high-pass); the prototypes' parameters below are
//! the ones that reproduce the 48 kHz table to the printed digits, so the same design at any
//! other rate gives the filter the recommendation means (the approach of libebur128 and of the
//! `ebur128` crate).
//!
//! The filters run in direct form I in `f64` whatever the sample type. Direct form I makes the
//! second stage's input history the first stage's output history, and its loop-carried
//! dependency is a single multiply-add per stage; the two stages pipeline.

// Lane loops index several fixed-size arrays by the same lane number.
#![allow(clippy::needless_range_loop)]

use crate::kernels::Float;
use crate::simd::{multiversion, Level};

/// One normalised biquad `b0 b1 b2 / 1 a1 a2`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Biquad {
    pub b: [f64; 3],
    pub a: [f64; 2],
}

/// The two K-weighting stages (high shelf, then high-pass) at `rate` Hz.
pub fn k_weighting(rate: f64) -> [Biquad; 2] {
    // Stage 1: the +4 dB high shelf ("head" effect).
    let f0 = 1_681.974_450_955_533;
    let g = 3.999_843_853_973_347;
    let q = 0.707_175_236_955_419_6;
    let k = (std::f64::consts::PI * f0 / rate).tan();
    let vh = 10f64.powf(g / 20.0);
    let vb = vh.powf(0.499_666_774_154_541_6);
    let a0 = 1.0 + k / q + k * k;
    let shelf = Biquad {
        b: [
            (vh + vb * k / q + k * k) / a0,
            2.0 * (k * k - vh) / a0,
            (vh - vb * k / q + k * k) / a0,
        ],
        a: [2.0 * (k * k - 1.0) / a0, (1.0 - k / q + k * k) / a0],
    };
    // Stage 2: the RLB high-pass.
    let f0 = 38.135_470_876_024_44;
    let q = 0.500_327_037_323_877_3;
    let k = (std::f64::consts::PI * f0 / rate).tan();
    let a0 = 1.0 + k / q + k * k;
    let hp = Biquad {
        b: [1.0, -2.0, 1.0],
        a: [2.0 * (k * k - 1.0) / a0, (1.0 - k / q + k * k) / a0],
    };
    [shelf, hp]
}

/// Direct-form-I history of one channel: inputs `x1 x2`, stage-1 outputs `u1 u2`, stage-2
/// outputs `v1 v2`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct KState {
    pub x: [f64; 2],
    pub u: [f64; 2],
    pub v: [f64; 2],
}

/// Where frame `t` of channel `c` lives: `x[c·chan_step + t·frame_step]` (planar:
/// `(stride, 1)`; interleaved: `(1, channels)`).
#[derive(Clone, Copy, Debug)]
pub struct Frames<'a, T> {
    pub x: &'a [T],
    pub chan_step: usize,
    pub frame_step: usize,
    /// First frame to read.
    pub start: usize,
}

impl<T: Float> Frames<'_, T> {
    #[inline(always)]
    fn at(&self, c: usize, t: usize) -> f64 {
        self.x[c * self.chan_step + (self.start + t) * self.frame_step].to_f64()
    }
}

/// Channels per lane group of the fused pass.
const LANES: usize = 4;

/// One biquad stage for one sample: `b0·x0 + b1·x1 + b2·x2 − a1·y2 − a0·y1`, a multiply and
/// four fused multiply-adds (`mul_add`, one rounding each) in that order: five operations instead
/// of nine (the lane loop is bound by the vector units, not by the one-FMA dependency chain
/// through `y1`). Levels without the FMA instruction get the same bits from the C library's
/// `fma`.
#[inline(always)]
fn stage(q: &Biquad, x0: f64, x1: f64, x2: f64, y1: f64, y2: f64) -> f64 {
    let y = q.b[1].mul_add(x1, q.b[0] * x0);
    let y = (-q.a[1]).mul_add(y2, q.b[2].mul_add(x2, y));
    (-q.a[0]).mul_add(y1, y)
}

/// One sample of the two stages for one lane. The scalar reference and the lane kernel both
/// run [`stage`], so the two agree bit for bit.
#[inline(always)]
fn step(k: &[Biquad; 2], s: &mut KState, x0: f64) -> f64 {
    let [p, h] = k;
    let u0 = stage(p, x0, s.x[0], s.x[1], s.u[0], s.u[1]);
    let v0 = stage(h, u0, s.u[0], s.u[1], s.v[0], s.v[1]);
    s.x = [x0, s.x[0]];
    s.u = [u0, s.u[0]];
    s.v = [v0, s.v[0]];
    v0
}

fn fused_scalar<T: Float>(
    src: Frames<'_, T>,
    k: &[Biquad; 2],
    state: &mut [KState],
    sums: &mut [f64],
    n: usize,
) {
    for (c, (s, acc)) in state.iter_mut().zip(sums.iter_mut()).enumerate() {
        let mut a = *acc;
        for t in 0..n {
            let v = step(k, s, src.at(c, t));
            a += v * v;
        }
        *acc = a;
    }
}

#[inline(always)]
fn fused_lanes<T: Float>(
    src: Frames<'_, T>,
    k: &[Biquad; 2],
    state: &mut [KState],
    sums: &mut [f64],
    n: usize,
) {
    let channels = state.len();
    let mut c0 = 0;
    while c0 < channels {
        let m = (channels - c0).min(LANES);
        if m <= 2 {
            fused_group::<T, 2>(src, k, &mut state[c0..c0 + m], &mut sums[c0..c0 + m], c0, n);
        } else {
            fused_group::<T, LANES>(src, k, &mut state[c0..c0 + m], &mut sums[c0..c0 + m], c0, n);
        }
        c0 += m;
    }
}

/// One group of up to `L` channels (starting at channel `c0`), the state held lane-major
/// (one array per history value) so each arithmetic step is one vector operation. The
/// expressions are those of [`step`], in the same order.
#[inline(always)]
fn fused_group<T: Float, const L: usize>(
    src: Frames<'_, T>,
    k: &[Biquad; 2],
    state: &mut [KState],
    sums: &mut [f64],
    c0: usize,
    n: usize,
) {
    let m = state.len();
    let [p, h] = k;
    let (mut x1, mut x2, mut u1, mut u2, mut v1, mut v2, mut acc) = (
        [0.0f64; L],
        [0.0f64; L],
        [0.0f64; L],
        [0.0f64; L],
        [0.0f64; L],
        [0.0f64; L],
        [0.0f64; L],
    );
    for j in 0..m {
        let s = &state[j];
        (x1[j], x2[j], u1[j], u2[j], v1[j], v2[j]) =
            (s.x[0], s.x[1], s.u[0], s.u[1], s.v[0], s.v[1]);
        acc[j] = sums[j];
    }
    for t in 0..n {
        let mut x0 = [0.0f64; L];
        for j in 0..m {
            x0[j] = src.at(c0 + j, t);
        }
        for j in 0..L {
            let u0 = stage(p, x0[j], x1[j], x2[j], u1[j], u2[j]);
            let v0 = stage(h, u0, u1[j], u2[j], v1[j], v2[j]);
            x2[j] = x1[j];
            x1[j] = x0[j];
            u2[j] = u1[j];
            u1[j] = u0;
            v2[j] = v1[j];
            v1[j] = v0;
            acc[j] += v0 * v0;
        }
    }
    for j in 0..m {
        state[j] = KState {
            x: [x1[j], x2[j]],
            u: [u1[j], u2[j]],
            v: [v1[j], v2[j]],
        };
        sums[j] = acc[j];
    }
}

multiversion! {
    /// K-weights `n` frames of every channel of `src`, carrying `state` (one per channel), and
    /// adds each channel's squared filtered samples, one by one in time order, to `sums`.
    pub fn kweight_sumsq_at<T: Float>(
        src: Frames<'_, T>,
        k: &[Biquad; 2],
        state: &mut [KState],
        sums: &mut [f64],
        n: usize,
    ) -> ();
    scalar = fused_scalar; simd = fused_lanes;
}

/// [`kweight_sumsq_at`] at `level`, checking the internal invariants first.
pub fn kweight_sumsq<T: Float>(
    level: Level,
    src: Frames<'_, T>,
    k: &[Biquad; 2],
    state: &mut [KState],
    sums: &mut [f64],
    n: usize,
) {
    assert_eq!(state.len(), sums.len(), "one sum per channel");
    if n == 0 {
        return;
    }
    if let Some(c) = state.len().checked_sub(1) {
        let last = c * src.chan_step + (src.start + n - 1) * src.frame_step;
        assert!(last < src.x.len(), "frames run past the input");
    }
    kweight_sumsq_at(level, src, k, state, sums, n)
}

/// The magnitude response of a biquad at `f` Hz (for tests and docs).
pub fn magnitude(bq: &Biquad, f: f64, rate: f64) -> f64 {
    let w = 2.0 * std::f64::consts::PI * f / rate;
    let (c1, s1) = (w.cos(), -w.sin());
    let (c2, s2) = ((2.0 * w).cos(), -(2.0 * w).sin());
    let num = (
        bq.b[0] + bq.b[1] * c1 + bq.b[2] * c2,
        bq.b[1] * s1 + bq.b[2] * s2,
    );
    let den = (
        1.0 + bq.a[0] * c1 + bq.a[1] * c2,
        bq.a[0] * s1 + bq.a[1] * s2,
    );
    (num.0.hypot(num.1)) / (den.0.hypot(den.1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::testutil::Rng;
    use crate::simd::available;

    #[test]
    fn matches_the_bs1770_table_at_48k() {
        // ITU-R BS.1770-4, tables 1 and 2.
        let [s, h] = k_weighting(48000.0);
        let shelf_b = [
            1.535_124_859_586_97,
            -2.691_696_189_406_38,
            1.198_392_810_852_85,
        ];
        let shelf_a = [-1.690_659_293_182_41, 0.732_480_774_215_85];
        for i in 0..3 {
            assert!((s.b[i] - shelf_b[i]).abs() < 1e-12, "b{i} {}", s.b[i]);
        }
        for i in 0..2 {
            assert!((s.a[i] - shelf_a[i]).abs() < 1e-12, "a{i} {}", s.a[i]);
        }
        assert_eq!(h.b, [1.0, -2.0, 1.0]);
        assert!((h.a[0] - -1.990_047_454_833_98).abs() < 1e-12);
        assert!((h.a[1] - 0.990_072_250_366_21).abs() < 1e-12);
    }

    #[test]
    fn response_is_the_same_curve_at_every_rate() {
        // The bilinear transform warps frequency only near Nyquist: well below it every rate
        // gives the 48 kHz curve.
        let reference = k_weighting(48000.0);
        let resp =
            |k: &[Biquad; 2], f: f64, r: f64| magnitude(&k[0], f, r) * magnitude(&k[1], f, r);
        // The bilinear transform warps each design differently: below 32 kHz the shelf's
        // warping (corner 1.7 kHz) reaches the bass (0.22 dB at 20 Hz at 8 kHz); above 48 kHz
        // the curve moves towards the analogue prototype, away from the warped 48 kHz table
        // (0.04 dB at 384 kHz). Tolerances: the measured deviation, rounded up.
        for (rate, tol) in [
            (8000.0, 0.25),
            (16000.0, 0.15),
            (22050.0, 0.08),
            (32000.0, 0.04),
            (44100.0, 0.01),
            (88200.0, 0.03),
            (96000.0, 0.03),
            (192000.0, 0.05),
            (384000.0, 0.05),
        ] {
            let k = k_weighting(rate);
            for f in [20.0, 50.0, 100.0, 500.0, 1000.0, 2000.0, 5000.0] {
                if f > rate / 8.0 {
                    continue;
                }
                let a = 20.0 * resp(&k, f, rate).log10();
                let b = 20.0 * resp(&reference, f, 48000.0).log10();
                assert!((a - b).abs() < tol, "rate {rate} f {f}: {a} vs {b}");
            }
        }
        // 1 kHz gain: the +0.691 dB that the -0.691 in the loudness formula cancels.
        let g = 20.0 * resp(&reference, 997.0, 48000.0).log10();
        assert!((g - 0.691).abs() < 0.01, "{g}");
    }

    #[test]
    fn every_level_matches_the_scalar_reference_and_chunks_are_exact() {
        let mut rng = Rng::new(7);
        let k = k_weighting(44100.0);
        for channels in [1usize, 2, 3, 4, 5, 8, 9] {
            let n = 1000;
            let x = rng.vec_f32(channels * n, 1.0);
            // interleaved
            let src = Frames {
                x: &x,
                chan_step: 1,
                frame_step: channels,
                start: 0,
            };
            let mut st0 = vec![KState::default(); channels];
            let mut s0 = vec![0.0; channels];
            kweight_sumsq(Level::Scalar, src, &k, &mut st0, &mut s0, n);
            for level in available() {
                let mut st = vec![KState::default(); channels];
                let mut s = vec![0.0; channels];
                kweight_sumsq(level, src, &k, &mut st, &mut s, n);
                assert_eq!(s, s0, "{level:?} {channels}");
                assert_eq!(st, st0);
                // in two chunks: the states carry over exactly
                let mut st = vec![KState::default(); channels];
                let mut a = vec![0.0; channels];
                kweight_sumsq(level, src, &k, &mut st, &mut a, 377);
                let rest = Frames { start: 377, ..src };
                kweight_sumsq(level, rest, &k, &mut st, &mut a, n - 377);
                assert_eq!(st, st0);
                assert_eq!(a, s0);
            }
            // planar with a stride gives the same numbers
            let stride = n + 3;
            let mut p = vec![0.0f32; channels * stride];
            for c in 0..channels {
                for t in 0..n {
                    p[c * stride + t] = x[t * channels + c];
                }
            }
            let src = Frames {
                x: &p,
                chan_step: stride,
                frame_step: 1,
                start: 0,
            };
            let mut st = vec![KState::default(); channels];
            let mut s = vec![0.0; channels];
            kweight_sumsq(crate::simd::current(), src, &k, &mut st, &mut s, n);
            assert_eq!(s, s0);
        }
    }

    #[test]
    fn filter_matches_a_direct_transfer_function_evaluation() {
        // Independent check: a sine well past the transient has the gain |H(f)|².
        let rate = 48000.0;
        let k = k_weighting(rate);
        for f in [40.0, 100.0, 1000.0, 5000.0, 15000.0] {
            let n = 96000;
            let x: Vec<f64> = (0..n)
                .map(|t| (2.0 * std::f64::consts::PI * f * t as f64 / rate).sin())
                .collect();
            let mut st = [KState::default()];
            let mut warm = [0.0];
            kweight_sumsq(
                Level::Scalar,
                Frames {
                    x: &x,
                    chan_step: 0,
                    frame_step: 1,
                    start: 0,
                },
                &k,
                &mut st,
                &mut warm,
                48000,
            );
            let mut s = [0.0];
            kweight_sumsq(
                Level::Scalar,
                Frames {
                    x: &x,
                    chan_step: 0,
                    frame_step: 1,
                    start: 48000,
                },
                &k,
                &mut st,
                &mut s,
                48000,
            );
            let ms = s[0] / 48000.0;
            let want = 0.5 * (magnitude(&k[0], f, rate) * magnitude(&k[1], f, rate)).powi(2);
            assert!((ms / want - 1.0).abs() < 1e-3, "f {f}: {ms} vs {want}");
        }
    }
}
