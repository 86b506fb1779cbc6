//! Windows equal to `scipy.signal.get_window` (float64, within 1e-12): the same formulas in the
//! same order of operations as scipy's `_windows.py`.

use crate::error::{SkError, SkResult};
use std::f64::consts::PI;

/// A window shape. Parameters: Kaiser's `beta`, Tukey's `alpha`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Window {
    /// All ones (`boxcar`).
    Rect,
    Hann,
    Hamming,
    Blackman,
    BlackmanHarris,
    Flattop,
    Kaiser(f64),
    Tukey(f64),
}

/// Largest |beta| accepted for Kaiser (I0(beta) overflows f64 a little above 713).
pub(crate) const KAISER_MAX_BETA: f64 = 700.0;

impl Window {
    /// Validates the shape parameter: finite; Kaiser |beta| ≤ 700.
    pub fn check(&self) -> SkResult<()> {
        match *self {
            Window::Kaiser(b) if !b.is_finite() || b.abs() > KAISER_MAX_BETA => {
                Err(SkError::BadArgument(format!(
                    "kaiser beta = {b} must be finite with |beta| <= {KAISER_MAX_BETA}"
                )))
            }
            Window::Tukey(a) if !a.is_finite() => Err(SkError::BadArgument(format!(
                "tukey alpha = {a} must be finite"
            ))),
            _ => Ok(()),
        }
    }

    /// Fills `w` with the window of `w.len()` points: symmetric (`sym = True` in scipy) or
    /// periodic (`sym = False`, `get_window`'s default, for spectral analysis).
    pub fn fill(&self, periodic: bool, w: &mut [f64]) -> SkResult<()> {
        self.check()?;
        let m = w.len();
        if m <= 1 {
            w.fill(1.0);
            return Ok(());
        }
        // periodic: compute m+1 symmetric points and drop the last
        let mm = if periodic { m + 1 } else { m };
        match *self {
            Window::Rect => w.fill(1.0),
            Window::Hann => cosine(&[0.5, 0.5], mm, w),
            Window::Hamming => cosine(&[0.54, 1.0 - 0.54], mm, w),
            Window::Blackman => cosine(&[0.42, 0.50, 0.08], mm, w),
            Window::BlackmanHarris => cosine(&[0.35875, 0.48829, 0.14128, 0.01168], mm, w),
            Window::Flattop => cosine(
                &[
                    0.21557895,
                    0.41663158,
                    0.277263158,
                    0.083578947,
                    0.006947368,
                ],
                mm,
                w,
            ),
            Window::Kaiser(beta) => {
                let alpha = (mm - 1) as f64 / 2.0;
                let den = bessel_i0(beta);
                for (i, v) in w.iter_mut().enumerate() {
                    let r = (i as f64 - alpha) / alpha;
                    *v = bessel_i0(beta * (1.0 - r * r).sqrt()) / den;
                }
            }
            Window::Tukey(alpha) => {
                if alpha <= 0.0 {
                    w.fill(1.0);
                } else if alpha >= 1.0 {
                    cosine(&[0.5, 0.5], mm, w);
                } else {
                    let d = (mm - 1) as f64;
                    let width = (alpha * d / 2.0).floor() as usize;
                    for (i, v) in w.iter_mut().enumerate() {
                        let n = i as f64;
                        *v = if i <= width {
                            0.5 * (1.0 + (PI * (-1.0 + 2.0 * n / alpha / d)).cos())
                        } else if i < mm - width - 1 {
                            1.0
                        } else {
                            0.5 * (1.0 + (PI * (-2.0 / alpha + 1.0 + 2.0 * n / alpha / d)).cos())
                        };
                    }
                }
            }
        }
        Ok(())
    }
}

/// scipy's `general_cosine`: `fac = linspace(-π, π, mm)`, `w = Σ a[k] cos(k·fac)` (first
/// `w.len()` points).
fn cosine(a: &[f64], mm: usize, w: &mut [f64]) {
    let step = (PI - -PI) / (mm - 1) as f64;
    for (i, v) in w.iter_mut().enumerate() {
        // numpy linspace: start + i*step, the last point exactly stop
        let fac = if i == mm - 1 {
            PI
        } else {
            i as f64 * step + -PI
        };
        let mut acc = 0.0;
        for (k, &ak) in a.iter().enumerate() {
            acc += ak * (k as f64 * fac).cos();
        }
        *v = acc;
    }
}

/// Modified Bessel function of the first kind, order 0, by its power series
/// `Σ ((x/2)^k / k!)^2`: all terms positive, so the relative error stays within a few ulps.
pub fn bessel_i0(x: f64) -> f64 {
    let q = x * x / 4.0;
    let mut term = 1.0f64;
    let mut sum = 1.0f64;
    let mut k = 1.0f64;
    loop {
        term *= q / (k * k);
        sum += term;
        if term < sum * 1e-17 {
            return sum;
        }
        k += 1.0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn i0_known_values() {
        // scipy.special.i0
        let cases = [
            (0.0, 1.0),
            (1.0, 1.2660658777520082),
            (5.0, 27.239871823604442),
            (14.0, 129418.56270064856),
            (50.0, 2.9325537838493363e20),
        ];
        for (x, want) in cases {
            let got = bessel_i0(x);
            assert!(((got - want) / want).abs() < 1e-14, "i0({x}) = {got}");
        }
    }

    #[test]
    fn hann_closed_form_and_bad_params() {
        let mut w = [0.0; 8];
        Window::Hann.fill(true, &mut w).unwrap();
        for (i, v) in w.iter().enumerate() {
            let want = 0.5 - 0.5 * (2.0 * PI * i as f64 / 8.0).cos();
            assert!((v - want).abs() < 1e-15);
        }
        let mut one = [5.0];
        Window::Blackman.fill(false, &mut one).unwrap();
        assert_eq!(one, [1.0]);
        let mut w = [7.0; 4];
        assert!(Window::Kaiser(f64::NAN).fill(true, &mut w).is_err());
        assert!(Window::Kaiser(1e4).fill(true, &mut w).is_err());
        assert!(Window::Tukey(f64::INFINITY).fill(true, &mut w).is_err());
        assert_eq!(w, [7.0; 4]);
    }

    #[test]
    fn tukey_limits() {
        let mut a = [0.0; 9];
        let mut b = [0.0; 9];
        Window::Tukey(1.0).fill(false, &mut a).unwrap();
        Window::Hann.fill(false, &mut b).unwrap();
        assert_eq!(a, b);
        Window::Tukey(0.0).fill(false, &mut a).unwrap();
        assert_eq!(a, [1.0; 9]);
    }
}
