use crate::{common::FftNum, FftDirection};
use num_complex::Complex;

use strength_reduce::{StrengthReducedU128, StrengthReducedU64};

pub fn compute_twiddle<T: FftNum>(
    index: usize,
    fft_len: usize,
    direction: FftDirection,
) -> Complex<T> {
    // sigkern: e^{-2πi·index/fft_len} to within about half an ulp (see `unit_root`). The
    // published crate evaluates cos/sin of the rounded angle `-2π/fft_len · index`, whose
    // absolute error grows with the angle (up to ~3 ulp near 2π), which made every f64
    // power-of-two transform 1.1-1.4x less accurate than pocketfft's.
    let (c, s) = unit_root(index as u64, fft_len as u64);
    let result = Complex {
        re: T::from_f64(c).unwrap(),
        im: T::from_f64(-s).unwrap(),
    };

    match direction {
        FftDirection::Forward => result,
        FftDirection::Inverse => result.conj(),
    }
}

/// `2π` split into a double and the rest.
const TWO_PI_HI: f64 = std::f64::consts::TAU;
const TWO_PI_LO: f64 = 2.449_293_598_294_706_4e-16;

/// `(cos 2πq, sin 2πq)` for `q = num/den ∈ [0, 1/8]`, with the angle in double-double:
/// `q = qh + ql`, `2πq = ah + al`, and `cos(ah + al) ≈ cos ah − al·sin ah` (`al` is below an
/// ulp of `ah`, so the first-order correction is enough).
fn sincos_octant(num: u64, den: u64) -> (f64, f64) {
    let (nf, df) = (num as f64, den as f64); // both < 2^53: exact
    let qh = nf / df;
    let ql = (-qh).mul_add(df, nf) / df;
    let ah = TWO_PI_HI * qh;
    let al = TWO_PI_HI.mul_add(qh, -ah) + TWO_PI_HI * ql + TWO_PI_LO * qh;
    let (s, c) = ah.sin_cos();
    ((-s).mul_add(al, c), c.mul_add(al, s))
}

/// `(cos, sin)` of `2π·k/n`: `k` is reduced modulo `n`, and the angle to the first octant in
/// integers (exact), so the only roundings are those of [`sincos_octant`].
fn unit_root(k: u64, n: u64) -> (f64, f64) {
    let (mut num, mut den) = (k % n, n);
    // q ∈ (1/2, 1): conjugate of 1 − q
    let neg_sin = 2 * num > den;
    if neg_sin {
        num = den - num;
    }
    // q ∈ (1/4, 1/2]: cos 2πq = −cos 2π(1/2 − q), sin 2πq = sin 2π(1/2 − q)
    let neg_cos = 4 * num > den;
    if neg_cos {
        num = den - 2 * num;
        den *= 2;
    }
    // q ∈ (1/8, 1/4]: cos 2πq = sin 2π(1/4 − q) and vice versa
    let swap = 8 * num > den;
    if swap {
        num = den - 4 * num;
        den *= 4;
    }
    let (c, s) = sincos_octant(num, den);
    let (mut c, mut s) = if swap { (s, c) } else { (c, s) };
    if neg_cos {
        c = -c;
    }
    if neg_sin {
        s = -s;
    }
    (c, s)
}

pub fn fill_bluesteins_twiddles<T: FftNum>(
    destination: &mut [Complex<T>],
    direction: FftDirection,
) {
    let twice_len = destination.len() * 2;

    // Standard bluestein's twiddle computation requires us to square the index before usingit to compute a twiddle factor
    // And since twiddle factors are cyclic, we can improve precision once the squared index gets converted to floating point by taking a modulo
    // Modulo is expensive, so we're going to use strength-reduction to keep it manageable

    // Strength-reduced u128s are very heavy, so we only want to use them if we need them - and we only need them if
    // len * len doesn't fit in a u64, AKA if len doesn't fit in a u32
    if destination.len() < std::u32::MAX as usize {
        let twice_len_reduced = StrengthReducedU64::new(twice_len as u64);

        for (i, e) in destination.iter_mut().enumerate() {
            let i_squared = i as u64 * i as u64;
            let i_mod = i_squared % twice_len_reduced;
            *e = compute_twiddle(i_mod as usize, twice_len, direction);
        }
    } else {
        // Sadly, the len doesn't fit in a u64, so we have to crank it up to u128 arithmetic
        let twice_len_reduced = StrengthReducedU128::new(twice_len as u128);

        for (i, e) in destination.iter_mut().enumerate() {
            // Standard bluestein's twiddle computation requires us to square the index before usingit to compute a twiddle factor
            // And since twiddle factors are cyclic, we can improve precision once the squared index gets converted to floating point by taking a modulo
            let i_squared = i as u128 * i as u128;
            let i_mod = i_squared % twice_len_reduced;
            *e = compute_twiddle(i_mod as usize, twice_len, direction);
        }
    }
}

pub fn rotate_90<T: FftNum>(value: Complex<T>, direction: FftDirection) -> Complex<T> {
    match direction {
        FftDirection::Forward => Complex {
            re: value.im,
            im: -value.re,
        },
        FftDirection::Inverse => Complex {
            re: -value.im,
            im: value.re,
        },
    }
}

#[cfg(test)]
mod unit_tests {
    use super::*;

    #[test]
    fn test_rotate() {
        // Verify that the rotate90 function does the same thing as multiplying by twiddle(1,4), in the forward direction
        let value = Complex { re: 9.1, im: 2.2 };
        let rotated_forward = rotate_90(value, FftDirection::Forward);
        let twiddled_forward = value * compute_twiddle(1, 4, FftDirection::Forward);

        assert_eq!(value.re, -rotated_forward.im);
        assert_eq!(value.im, rotated_forward.re);

        assert!(value.re + twiddled_forward.im < 0.0001);
        assert!(value.im - rotated_forward.re < 0.0001);

        // Verify that the rotate90 function does the same thing as multiplying by twiddle(1,4), in the inverse direction
        let rotated_forward = rotate_90(value, FftDirection::Inverse);
        let twiddled_forward = value * compute_twiddle(1, 4, FftDirection::Inverse);

        assert_eq!(value.re, rotated_forward.im);
        assert_eq!(value.im, -rotated_forward.re);

        assert!(value.re - twiddled_forward.im < 0.0001);
        assert!(value.im + rotated_forward.re < 0.0001);
    }
}
