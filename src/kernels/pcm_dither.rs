//! Float → int16 / 24-bit / uint8 with TPDF dither and optional first-order noise shaping.
//!
//! Dither sample `i` of a stream (counted across calls by the state's `position`) is a pure
//! function of `(seed, i)`: a 32-bit integer hash (`lowbias32`) of the low 32 bits of `i` keyed
//! by the seed and the high 32 bits; its two 16-bit halves `a`, `b` give the triangular value
//! `(a − b)/65536` LSB in `(−1, 1)`. So the output does not depend on how a stream is cut into
//! calls, nor on the SIMD level (integer arithmetic; the float steps are the same expression in
//! the scalar and lane bodies).
//!
//! Without shaping: `code = round_half_even(clamp(x·2^(bits−1) + d))`. With first-order shaping
//! (error feedback, noise transfer `1 − z⁻¹`): per channel `v = x·2^(bits−1) − e`,
//! `code = round_half_even(clamp(v + d))`, `e = clamp(code − v, −2, 2)` (the clamp keeps a
//! clipped sample from feeding back a large error).

use super::pcm::{Pcm, PcmFloat};
use crate::simd::{multiversion, Level};

/// Most channels a dither state tracks (noise-shaping errors).
pub(crate) const MAX_DITHER_CHANNELS: usize = 64;

/// The stream state: seed, samples converted so far, and per-channel shaping errors.
#[derive(Clone, Debug, PartialEq)]
pub struct DitherState {
    pub seed: u64,
    pub position: u64,
    pub channels: usize,
    pub shaping: bool,
    pub error: [f64; MAX_DITHER_CHANNELS],
}

#[inline(always)]
fn lowbias32(mut x: u32) -> u32 {
    x ^= x >> 16;
    x = x.wrapping_mul(0x7feb_352d);
    x ^= x >> 15;
    x = x.wrapping_mul(0x846c_a68b);
    x ^= x >> 16;
    x
}

/// The key of the `2^32`-sample segment `hi` of stream `seed`.
#[inline(always)]
fn key(seed: u64, hi: u32) -> u32 {
    lowbias32((seed as u32) ^ lowbias32(((seed >> 32) as u32) ^ lowbias32(hi ^ 0x9e37_79b9)))
}

/// TPDF value in LSB for sample `lo` of a segment keyed `k`.
#[inline(always)]
pub(crate) fn tpdf(k: u32, lo: u32) -> f64 {
    let h = lowbias32(lo ^ k);
    let a = (h & 0xffff) as i32;
    let b = (h >> 16) as i32;
    (a - b) as f64 * (1.0 / 65536.0)
}

/// `round_half_even(clamp(v, lo, hi))` for `|lo|, |hi| <= 2^31` (NaN never reaches here).
#[inline(always)]
fn quant(v: f64, lo: f64, hi: f64) -> i32 {
    let v = if v < lo { lo } else { v };
    let v = if v > hi { hi } else { v };
    ((v + 6_755_399_441_055_744.0f64).to_bits() as i64).wrapping_sub(0x4338_0000_0000_0000) as i32
}

#[inline(always)]
fn limits<S: Pcm>() -> (f64, f64, f64) {
    let fs = (1u64 << (S::BITS - 1)) as f64;
    (fs, -fs, fs - 1.0)
}

fn flat_scalar<T: PcmFloat, S: Pcm>(x: &[T], y: &mut [S], k: u32, lo0: u32) {
    let (fs, lo, hi) = limits::<S>();
    for (i, (o, &v)) in y.iter_mut().zip(x).enumerate() {
        let d = tpdf(k, lo0.wrapping_add(i as u32));
        *o = S::from_i32(quant(v.to_f64() * fs + d, lo, hi));
    }
}

#[inline(always)]
fn flat_lanes<T: PcmFloat, S: Pcm>(x: &[T], y: &mut [S], k: u32, lo0: u32) {
    let (fs, lo, hi) = limits::<S>();
    const B: usize = 16;
    let mut q = [0i32; B];
    let mut xs = x.chunks_exact(B);
    let mut ys = y.chunks_exact_mut(B);
    let mut base = lo0;
    for (xc, yc) in (&mut xs).zip(&mut ys) {
        for j in 0..B {
            let d = tpdf(k, base.wrapping_add(j as u32));
            q[j] = quant(xc[j].to_f64() * fs + d, lo, hi);
        }
        for j in 0..B {
            yc[j] = S::from_i32(q[j]);
        }
        base = base.wrapping_add(B as u32);
    }
    flat_scalar::<T, S>(xs.remainder(), ys.into_remainder(), k, base);
}

multiversion! {
    fn flat<T: PcmFloat, S: Pcm>(x: &[T], y: &mut [S], k: u32, lo0: u32) -> ();
    scalar = flat_scalar; simd = flat_lanes;
}

/// Converts interleaved `x` (`st.channels` per frame; `x.len()` a multiple of it) into `y`
/// with dither, advancing `st`. `x` must be finite (the FFI checks first).
pub fn dither_encode<T: PcmFloat, S: Pcm>(
    level: Level,
    x: &[T],
    y: &mut [S],
    st: &mut DitherState,
) {
    assert_eq!(x.len(), y.len(), "dither: lengths differ");
    let n = x.len();
    if st.shaping {
        let (fs, lo, hi) = limits::<S>();
        let ch = st.channels;
        let mut pos = st.position;
        let mut k = key(st.seed, (pos >> 32) as u32);
        for (i, (o, &v)) in y.iter_mut().zip(x).enumerate() {
            if pos as u32 == 0 && i > 0 {
                k = key(st.seed, (pos >> 32) as u32);
            }
            let c = (pos % ch as u64) as usize;
            let w = v.to_f64() * fs - st.error[c];
            let q = quant(w + tpdf(k, pos as u32), lo, hi);
            let e = q as f64 - w;
            st.error[c] = e.clamp(-2.0, 2.0);
            *o = S::from_i32(q);
            pos = pos.wrapping_add(1);
        }
        st.position = pos;
        return;
    }
    let mut i = 0;
    while i < n {
        let pos = st.position;
        let lo0 = pos as u32;
        let room = (1u64 << 32) - lo0 as u64;
        let seg = ((n - i) as u64).min(room) as usize;
        let k = key(st.seed, (pos >> 32) as u32);
        flat::<T, S>(level, &x[i..i + seg], &mut y[i..i + seg], k, lo0);
        st.position = pos.wrapping_add(seg as u64);
        i += seg;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::pcm::I24;
    use crate::kernels::testutil::Rng;
    use crate::simd::{available, current};

    fn state(seed: u64, ch: usize, shaping: bool) -> DitherState {
        DitherState {
            seed,
            position: 0,
            channels: ch,
            shaping,
            error: [0.0; MAX_DITHER_CHANNELS],
        }
    }

    #[test]
    fn tpdf_is_triangular_with_unit_lsb_support() {
        let k = key(1, 0);
        let n = 1 << 20;
        let v: Vec<f64> = (0..n).map(|i| tpdf(k, i)).collect();
        let mean = v.iter().sum::<f64>() / n as f64;
        let var = v.iter().map(|d| d * d).sum::<f64>() / n as f64;
        assert!(mean.abs() < 3e-3, "{mean}");
        assert!((var - 1.0 / 6.0).abs() < 2e-3, "{var}"); // TPDF over (−1, 1): variance 1/6
        assert!(v.iter().all(|d| d.abs() < 1.0));
        // histogram is a triangle
        let mut h = [0usize; 4];
        for d in &v {
            h[((d + 1.0) * 2.0) as usize] += 1;
        }
        let f = |c: usize| c as f64 / n as f64;
        assert!(
            (f(h[0]) - 0.125).abs() < 3e-3 && (f(h[1]) - 0.375).abs() < 3e-3,
            "{h:?}"
        );
        assert!(
            (f(h[3]) - 0.125).abs() < 3e-3 && (f(h[2]) - 0.375).abs() < 3e-3,
            "{h:?}"
        );
    }

    #[test]
    fn chunked_equals_one_call_and_levels_agree() {
        let mut r = Rng::new(3);
        let x = r.vec_f32(10_000, 0.9);
        for shaping in [false, true] {
            let mut s = state(42, 2, shaping);
            let mut whole = vec![0i16; x.len()];
            dither_encode(Level::Scalar, &x, &mut whole, &mut s);
            for l in available() {
                let mut s = state(42, 2, shaping);
                let mut y = vec![0i16; x.len()];
                let mut i = 0;
                for step in [0usize, 1, 17, 1000, 4095].iter().cycle() {
                    if i >= x.len() {
                        break;
                    }
                    let e = (i + step * 2).min(x.len());
                    dither_encode(l, &x[i..e], &mut y[i..e], &mut s);
                    i = e;
                }
                assert_eq!(y, whole, "{l:?} shaping {shaping}");
                assert_eq!(s.position, x.len() as u64);
            }
        }
    }

    #[test]
    fn crossing_a_segment_boundary_is_seamless() {
        let x = vec![0.25f32; 64];
        let mut a = state(9, 1, false);
        a.position = (1u64 << 32) - 20;
        let mut ya = vec![0u8; 64];
        dither_encode(current(), &x, &mut ya, &mut a);
        let mut b = state(9, 1, false);
        b.position = (1u64 << 32) - 20;
        let mut yb = vec![0u8; 64];
        for i in 0..64 {
            dither_encode(current(), &x[i..i + 1], &mut yb[i..i + 1], &mut b);
        }
        assert_eq!(ya, yb);
        assert_eq!(a, b);
    }

    #[test]
    fn error_is_signal_independent_with_dither_and_not_without() {
        // a -80 dBFS-ish sine of about 3 LSB at 16 bits
        let n = 1 << 16;
        let amp = 3.0 / 32768.0;
        let x: Vec<f64> = (0..n)
            .map(|t| amp * (2.0 * std::f64::consts::PI * 1000.0 * t as f64 / 48000.0).sin())
            .collect();
        let mut y = vec![0i16; n];
        dither_encode(current(), &x, &mut y, &mut state(5, 1, false));
        let err: Vec<f64> = y
            .iter()
            .zip(&x)
            .map(|(&q, &v)| q as f64 - v * 32768.0)
            .collect();
        let corr = |e: &[f64]| {
            let s: f64 = e.iter().zip(&x).map(|(a, b)| a * b).sum();
            let ne: f64 = e.iter().map(|a| a * a).sum::<f64>().sqrt();
            let nx: f64 = x.iter().map(|a| a * a).sum::<f64>().sqrt();
            s / (ne * nx)
        };
        // dithered error: mean-square 1/12 + 1/6 = 1/4 LSB², uncorrelated with the signal
        let ms = err.iter().map(|e| e * e).sum::<f64>() / n as f64;
        assert!((ms - 0.25).abs() < 0.01, "{ms}");
        assert!(corr(&err).abs() < 0.02, "{}", corr(&err));
        // plain rounding: the error is a deterministic function of the signal (harmonics),
        // strongly correlated with it
        let plain: Vec<f64> = x
            .iter()
            .map(|v| (v * 32768.0).round_ties_even() - v * 32768.0)
            .collect();
        assert!(corr(&plain).abs() > 0.1, "{}", corr(&plain));
        // mean error conditioned on the signal value: flat with dither, not without
        let bin = |e: &[f64]| {
            let mut s = [0.0f64; 8];
            let mut c = [0usize; 8];
            for (ei, xi) in e.iter().zip(&x) {
                let b = (((xi / amp) + 1.0) * 4.0).min(7.0) as usize;
                s[b] += ei;
                c[b] += 1;
            }
            (0..8)
                .map(|b| (s[b] / c[b] as f64).abs())
                .fold(0.0, f64::max)
        };
        assert!(bin(&err) < 0.03, "{}", bin(&err));
        assert!(bin(&plain) > 0.1, "{}", bin(&plain));
    }

    #[test]
    fn shaping_moves_noise_up() {
        // silence in, first-order shaping: the error spectrum is |1 − e^{-jw}|² · flat, so the
        // lag-1 autocorrelation of the output is −1/2 of its power (flat dither: 0)
        let n = 1 << 16;
        let x = vec![0.0f32; n];
        for (shaping, want) in [(false, 0.0), (true, -0.5)] {
            let mut y = vec![0i16; n];
            dither_encode(current(), &x, &mut y, &mut state(11, 1, shaping));
            let p: f64 = y.iter().map(|&v| (v as f64).powi(2)).sum();
            let r1: f64 = y.windows(2).map(|w| w[0] as f64 * w[1] as f64).sum();
            assert!(
                (r1 / p - want).abs() < 0.05,
                "shaping {shaping}: {}",
                r1 / p
            );
        }
    }

    #[test]
    fn saturates_and_i24_u8_work() {
        let x = [1.5f64, -1.5, 0.0, 0.5];
        let mut y = [[0u8; 3]; 4];
        dither_encode::<f64, I24>(current(), &x, &mut y, &mut state(1, 2, true));
        assert_eq!(I24::to_i32(y[0]), 8388607);
        assert_eq!(I24::to_i32(y[1]), -8388608);
        // the clipped first sample feeds back at most the clamped error of 2 LSB
        assert!(I24::to_i32(y[2]).abs() <= 3);
        assert!((I24::to_i32(y[3]) - 4194304).abs() <= 3);
        let mut z = [0u8; 4];
        dither_encode::<f64, u8>(current(), &x, &mut z, &mut state(1, 1, false));
        assert_eq!(z[0], 255);
        assert_eq!(z[1], 0);
    }
}
