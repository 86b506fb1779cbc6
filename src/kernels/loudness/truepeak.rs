//! True peak (ITU-R BS.1770-4 Annex 2): the largest magnitude of the signal oversampled by a
//! polyphase interpolating FIR.
//!
//! Oversampling is 4× below 96 kHz, 2× below 192 kHz and none above (the sample peak is then
//! the true peak), as the recommendation allows. Each of the `L` phases is a 12-tap filter: a
//! windowed sinc (Hann window over ±6 input samples), each phase normalised to unit DC gain.
//! Phase 0 is the identity (a pure delay of 6 samples), so only phases `1..L` are computed and
//! the sample peak supplies phase 0. The phases run in SIMD over blocks of consecutive outputs.

// Lane loops index several fixed-size arrays by the same lane number.
#![allow(clippy::needless_range_loop)]

use crate::kernels::Float;
use crate::simd::{multiversion, Level};

/// Taps per phase.
pub(crate) const TAPS: usize = 12;
/// Input samples of history each channel keeps (`TAPS − 1`).
pub(crate) const HISTORY: usize = TAPS - 1;

/// The oversampling factor used at `rate` Hz.
pub fn factor(rate: f64) -> usize {
    if rate < 96000.0 {
        4
    } else if rate < 192000.0 {
        2
    } else {
        1
    }
}

/// The interpolating phases `1..factor` (none for factor 1). Phase `p` estimates the signal
/// `p/factor` of a sample after input `n − 6` from inputs `n − 11 ..= n`: tap `k` multiplies
/// input `n − k`.
pub fn design(factor: usize) -> Vec<[f64; TAPS]> {
    let half = (TAPS / 2) as f64;
    (1..factor)
        .map(|p| {
            let frac = p as f64 / factor as f64;
            let mut h = [0.0; TAPS];
            for (k, hk) in h.iter_mut().enumerate() {
                // position of input n−k relative to the interpolated instant
                let u = k as f64 - half + frac;
                let sinc = if u == 0.0 {
                    1.0
                } else {
                    (std::f64::consts::PI * u).sin() / (std::f64::consts::PI * u)
                };
                let w = 0.5 * (1.0 + (std::f64::consts::PI * u / half).cos());
                *hk = sinc * w;
            }
            let dc: f64 = h.iter().sum();
            h.iter_mut().for_each(|v| *v /= dc);
            h
        })
        .collect()
}

/// Outputs per lane block.
const BLOCK: usize = 8;

fn peak_scalar<T: Float>(buf: &[T], phases: &[[T; TAPS]]) -> T {
    let n = buf.len() - HISTORY;
    let mut m = T::ZERO;
    for t in 0..n {
        for h in phases {
            let mut acc = T::ZERO;
            for k in 0..TAPS {
                acc = acc + h[k] * buf[t + HISTORY - k];
            }
            let a = acc.abs();
            if a > m {
                m = a;
            }
        }
    }
    m
}

#[inline(always)]
fn peak_lanes<T: Float>(buf: &[T], phases: &[[T; TAPS]]) -> T {
    let n = buf.len() - HISTORY;
    let mut mx = [T::ZERO; BLOCK];
    let full = n / BLOCK * BLOCK;
    let mut t = 0;
    while t < full {
        let w = &buf[t..t + BLOCK + HISTORY];
        for h in phases {
            let mut acc = [T::ZERO; BLOCK];
            for k in 0..TAPS {
                let hk = h[k];
                let xs = &w[HISTORY - k..HISTORY - k + BLOCK];
                for j in 0..BLOCK {
                    acc[j] = acc[j] + hk * xs[j];
                }
            }
            for j in 0..BLOCK {
                let a = acc[j].abs();
                mx[j] = if a > mx[j] { a } else { mx[j] };
            }
        }
        t += BLOCK;
    }
    let mut m = peak_scalar(&buf[full..], phases);
    for v in mx {
        if v > m {
            m = v;
        }
    }
    m
}

multiversion! {
    /// The largest `|y|` over every phase in `phases` and every output position of `buf`
    /// (`HISTORY` samples of history, then the new samples).
    pub fn interp_peak_at<T: Float>(buf: &[T], phases: &[[T; TAPS]]) -> T;
    scalar = peak_scalar; simd = peak_lanes;
}

/// [`interp_peak_at`]; `buf` holds `HISTORY` samples of history followed by the new ones.
pub fn interp_peak<T: Float>(level: Level, buf: &[T], phases: &[[T; TAPS]]) -> T {
    assert!(buf.len() >= HISTORY, "buffer shorter than the history");
    if phases.is_empty() || buf.len() == HISTORY {
        return T::ZERO;
    }
    interp_peak_at(level, buf, phases)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::testutil::Rng;
    use crate::simd::available;

    fn tp_of_sine(rate: f64, f: f64, phase_deg: f64, amp: f64) -> f64 {
        let l = factor(rate);
        let ph: Vec<[f64; TAPS]> = design(l);
        let n = 4800;
        let mut buf = vec![0.0; HISTORY];
        // 10 ms fade-in: an abrupt start rings in any interpolator
        let fade = rate / 100.0;
        buf.extend((0..n).map(|t| {
            (t as f64 / fade).min(1.0)
                * amp
                * (2.0 * std::f64::consts::PI * f * t as f64 / rate + phase_deg.to_radians()).sin()
        }));
        let sp = buf.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        interp_peak(Level::Scalar, &buf, &ph).max(sp)
    }

    #[test]
    fn phase_zero_would_be_the_identity_and_phases_have_unit_dc() {
        for l in [2, 4] {
            for h in design(l) {
                assert!((h.iter().sum::<f64>() - 1.0).abs() < 1e-12);
            }
        }
        assert!(design(1).is_empty());
        assert_eq!(factor(48000.0), 4);
        assert_eq!(factor(96000.0), 2);
        assert_eq!(factor(192000.0), 1);
    }

    #[test]
    fn inter_sample_peaks_of_sines_are_found() {
        // A sine's true peak is its amplitude; the sample peak can be 3 dB lower.
        for (rate, div, phase) in [
            (48000.0, 4.0, 45.0),
            (48000.0, 6.0, 60.0),
            (48000.0, 8.0, 67.5),
            (44100.0, 4.0, 45.0),
            (96000.0, 8.0, 22.5),
        ] {
            let tp = tp_of_sine(rate, rate / div, phase, 0.5);
            let db = 20.0 * (tp / 0.5).log10();
            assert!(
                (-0.4..=0.2).contains(&db),
                "rate {rate} fs/{div} {phase}°: {db} dB"
            );
        }
    }

    #[test]
    fn every_level_matches_the_scalar_reference() {
        let mut rng = Rng::new(3);
        for n in [0usize, 1, 7, 8, 9, 31, 100, 1001] {
            let b64 = rng.vec_f64(n + HISTORY, 1.0);
            let b32: Vec<f32> = b64.iter().map(|&v| v as f32).collect();
            for l in [2, 4] {
                let p64 = design(l);
                let p32: Vec<[f32; TAPS]> = p64.iter().map(|h| h.map(|v| v as f32)).collect();
                let r64 = interp_peak(Level::Scalar, &b64, &p64);
                let r32 = interp_peak(Level::Scalar, &b32, &p32);
                for level in available() {
                    assert_eq!(interp_peak(level, &b64, &p64), r64);
                    assert_eq!(interp_peak(level, &b32, &p32), r32);
                }
            }
        }
    }
}
