//! The analytic signal (`scipy.signal.hilbert`): `z = x + i·H{x}` of each row, computed over
//! `N` points (the row truncated or zero-padded to `N`, as `fft(x, N)` does).
//!
//! scipy forms `ifft(fft(x, N)·h)` with `h` 1 at bin 0 (and `N/2` for even `N`), 2 on the
//! positive and 0 on the negative frequencies. Its real part is the (padded) signal itself, and
//! its imaginary part is the real inverse transform of `−i·X[k]` on the positive bins (0 at bin
//! 0 and at `N/2`): one real forward and one real inverse transform of `N` points per row.
//! Both run on the fastest plans ([`PlanCache::cached_fast_real_plan`]): scipy's result is
//! met within a few ε·log N of the signal's scale, not bit for bit.

use crate::error::SkResult;
use crate::kernels::alloc::try_vec;
use crate::kernels::par::par_rows_with;
use crate::kernels::spectral::fft::{FftFloat, Norm, PlanCache};
use crate::kernels::spectral::Complex;

/// The analytic signal of `rows` rows of `n` samples of `x` over `big_n ≥ 1` points into `out`
/// (`rows · big_n` complex values, row after row). Scratch is allocated before anything is
/// written: on an error `out` is untouched. Rows are split over up to `SIGKERN_THREADS`
/// threads, each computed as on one thread.
pub fn hilbert<T: FftFloat + PlanCache>(
    x: &[T],
    rows: usize,
    n: usize,
    big_n: usize,
    out: &mut [Complex<T>],
) -> SkResult<()> {
    assert!(x.len() >= rows * n, "x span");
    assert!(out.len() >= rows * big_n, "output span");
    if rows == 0 || big_n == 0 {
        return Ok(());
    }
    let plan = T::cached_fast_real_plan(big_n)?;
    let bins = big_n / 2 + 1;
    let keep = n.min(big_n);
    let make = || -> SkResult<_> {
        Ok((
            plan.workspace()?,
            try_vec(
                if keep < big_n { big_n } else { 0 },
                T::ZERO,
                "a padded row",
            )?,
            try_vec(bins, Complex::new(T::ZERO, T::ZERO), "a row spectrum")?,
            try_vec(big_n, T::ZERO, "the quadrature row")?,
        ))
    };
    let log_n = (usize::BITS - big_n.leading_zeros()) as usize;
    let work = rows.saturating_mul(big_n).saturating_mul(2 * log_n + 4);
    par_rows_with(
        &mut out[..rows * big_n],
        big_n,
        work,
        make,
        |(ws, frame, spec, quad), first, chunk| {
            for (i, o) in chunk.chunks_exact_mut(big_n).enumerate() {
                let r = first + i;
                // the row itself when it has the N points, else a zero-padded copy
                let row: &[T] = if keep == big_n {
                    &x[r * n..r * n + big_n]
                } else {
                    frame[..keep].copy_from_slice(&x[r * n..r * n + keep]);
                    frame[keep..].fill(T::ZERO);
                    &frame[..]
                };
                plan.rfft_ws(row, spec, Norm::Backward, ws);
                // −i·X on the positive bins, 0 at bin 0 and the Nyquist bin of an even length
                let top = if big_n.is_multiple_of(2) {
                    bins - 1
                } else {
                    bins
                };
                spec[0] = Complex::new(T::ZERO, T::ZERO);
                for s in spec[1..top].iter_mut() {
                    *s = Complex::new(s.im, -s.re);
                }
                for s in spec[top..].iter_mut() {
                    *s = Complex::new(T::ZERO, T::ZERO);
                }
                plan.irfft_ws(spec, quad, Norm::Backward, ws);
                for ((z, &re), &im) in o.iter_mut().zip(row.iter()).zip(quad.iter()) {
                    *z = Complex::new(re, im);
                }
            }
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cosine_becomes_a_complex_exponential() {
        for big_n in [64usize, 63] {
            let x: Vec<f64> = (0..big_n)
                .map(|j| (2.0 * std::f64::consts::PI * 5.0 * j as f64 / big_n as f64).cos())
                .collect();
            let mut z = vec![Complex::new(0.0, 0.0); big_n];
            hilbert(&x, 1, big_n, big_n, &mut z).unwrap();
            for (j, v) in z.iter().enumerate() {
                let a = 2.0 * std::f64::consts::PI * 5.0 * j as f64 / big_n as f64;
                assert!((v.re - a.cos()).abs() < 1e-13 && (v.im - a.sin()).abs() < 1e-13);
            }
        }
    }

    /// The fast plans against numpy's algorithm (the accurate plans) at lengths that are not
    /// powers of two, a prime among them: within 1e-13 of the largest value.
    #[test]
    fn fast_plans_agree_with_the_accurate_ones() {
        let mut seed = 12345u64;
        for big_n in [441usize, 1000, 4099, 6000] {
            let x: Vec<f64> = (0..big_n)
                .map(|_| {
                    seed = seed
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    (seed >> 11) as f64 / (1u64 << 53) as f64 - 0.5
                })
                .collect();
            let mut z = vec![Complex::new(0.0, 0.0); big_n];
            hilbert(&x, 1, big_n, big_n, &mut z).unwrap();
            let plan = f64::cached_real_plan(big_n).unwrap();
            let mut spec = vec![Complex::new(0.0, 0.0); big_n / 2 + 1];
            plan.rfft(&x, &mut spec, Norm::Backward);
            let top = if big_n % 2 == 0 {
                spec.len() - 1
            } else {
                spec.len()
            };
            for (k, s) in spec.iter_mut().enumerate() {
                *s = if k == 0 || k >= top {
                    Complex::new(0.0, 0.0)
                } else {
                    Complex::new(s.im, -s.re)
                };
            }
            let mut quad = vec![0.0; big_n];
            plan.irfft(&spec, &mut quad, Norm::Backward);
            let scale = quad.iter().fold(1.0f64, |m, v| m.max(v.abs()));
            for j in 0..big_n {
                assert_eq!(z[j].re, x[j]);
                assert!(
                    (z[j].im - quad[j]).abs() <= 1e-13 * scale,
                    "n {big_n} j {j}"
                );
            }
        }
    }

    #[test]
    fn padding_and_truncation() {
        let x = [1.0f64, 2.0, 3.0, 4.0, 5.0];
        let mut z = vec![Complex::new(9.0, 9.0); 8];
        hilbert(&x, 1, 5, 8, &mut z).unwrap();
        assert_eq!(z[5].re, 0.0);
        let mut t = vec![Complex::new(9.0, 9.0); 3];
        hilbert(&x, 1, 5, 3, &mut t).unwrap();
        assert_eq!(t[2].re, 3.0);
        // N = 1: the analytic signal of one sample is that sample
        let mut one = vec![Complex::new(9.0, 9.0); 1];
        hilbert(&x, 1, 5, 1, &mut one).unwrap();
        assert_eq!((one[0].re, one[0].im), (1.0, 0.0));
    }
}
