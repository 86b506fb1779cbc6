//! `log2` and `exp2` on `f64` from bit manipulation and short polynomials (relative error below
//! 1e-13), written so that LLVM vectorises them at every SIMD level and every level gives the
//! same bits: the polynomials run on fused multiply-adds (`f64::mul_add`, rounded once), the
//! rest on plain `*` and `+`, and no integer/float conversion instructions that SSE2 lacks.
//! The AVX2 and AVX-512 clones compile `mul_add` to the FMA instruction; the scalar and SSE2
//! ones call the C library's `fma`, which gives the same bits, more slowly. (With a separate
//! multiply and add per Horner step the compressor's gain loop, bound by the vector units'
//! throughput, took a quarter longer.)

/// `1.5·2^52`: adding it to a double of magnitude below `2^51` rounds to an integer held in the
/// low mantissa bits.
const MAGIC: f64 = 6_755_399_441_055_744.0;
const MAGIC_BITS: u64 = 0x4338_0000_0000_0000;
/// Bits of `sqrt(0.5)`: mantissas are reduced to `[sqrt(0.5), sqrt(2))`.
const SQRT_HALF_BITS: u64 = 0x3FE6_A09E_667F_3BCD;
/// The smallest argument `log2` is asked about (smaller, zero, NaN: clamped here).
pub(crate) const TINY: f64 = 1e-307;

/// `2·atanh(s)/(s·ln 2)` (so `log2(m) = s·P(s²)` for `s = (m − 1)/(m + 1)`) as a polynomial in
/// `u = s²`, highest power first: the minimax fit of degree 5 on `0 <= u <= ((√2 − 1)/(√2 + 1))²`
/// (error below 8e-14; the Taylor series of `atanh` needs degree 7 for that).
const LOG_COEF: [f64; 6] = [
    0.2829081699377424,
    0.3199051009027616,
    0.4122092679065869,
    0.577077942199589,
    0.9617966941139587,
    2.8853900817778495,
];
/// `2^y` for `|y| <= 1/2`, highest power first: `1 + y·q(y)` with `q` the minimax fit of degree 8
/// to `(2^y − 1)/y` in relative error, so `2^0` is exactly 1 (relative error below 4e-14; the
/// Taylor series of `exp` needs degree 11).
const EXP_COEF: [f64; 10] = [
    1.0178081726271075e-07,
    1.3255160480216892e-06,
    1.525281192993812e-05,
    0.00015403456134039446,
    0.0013333557983846876,
    0.009618129159050887,
    0.055504108665734554,
    0.24022650695814085,
    0.6931471805599377,
    1.0,
];

/// `log2(x)` for `x >= TINY` (smaller values are treated as `TINY`).
#[inline(always)]
pub(crate) fn log2(x: f64) -> f64 {
    let x = if x > TINY { x } else { TINY };
    let bits = x.to_bits();
    // k = exponent + 1024 of x / sqrt(0.5)
    let k = bits
        .wrapping_sub(SQRT_HALF_BITS)
        .wrapping_add(1024u64 << 52)
        >> 52;
    let m = f64::from_bits(bits.wrapping_sub(k.wrapping_sub(1024) << 52));
    let e = f64::from_bits(MAGIC_BITS + k) - (MAGIC + 1024.0);
    let s = (m - 1.0) / (m + 1.0);
    let s2 = s * s;
    let mut p = LOG_COEF[0];
    for &c in &LOG_COEF[1..] {
        p = p.mul_add(s2, c);
    }
    s.mul_add(p, e)
}

/// `2^x`; `0` for `x < −1022`, `2^1023` for larger than 1023.
#[inline(always)]
pub(crate) fn exp2(x: f64) -> f64 {
    let under = x < -1022.0;
    let x = if x < -1022.0 { -1022.0 } else { x };
    let x = if x > 1023.0 { 1023.0 } else { x };
    let t = x + MAGIC;
    let r = t - MAGIC;
    let k = t.to_bits().wrapping_sub(MAGIC_BITS);
    let y = x - r; // |y| <= 1/2
    let mut p = EXP_COEF[0];
    for &c in &EXP_COEF[1..] {
        p = p.mul_add(y, c);
    }
    let scale = f64::from_bits(k.wrapping_add(1023) << 52);
    if under {
        0.0
    } else {
        p * scale
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::testutil::Rng;

    #[test]
    fn log2_and_exp2_match_libm() {
        let mut rng = Rng::new(7);
        let mut worst_l: f64 = 0.0;
        let mut worst_e: f64 = 0.0;
        for i in 0..200_000 {
            let u = i as f64 / 200_000.0 * 1200.0 - 600.0 + 1e-3 * rng.uniform();
            let x = 2f64.powf(u);
            let l = log2(x);
            worst_l = worst_l.max((l - x.log2()).abs() / x.log2().abs().max(1.0));
            let v = i as f64 / 200_000.0 * 2000.0 - 1000.0 + rng.uniform();
            let e = exp2(v);
            worst_e = worst_e.max((e - v.exp2()).abs() / v.exp2());
        }
        assert!(worst_l < 1e-13, "log2 {worst_l}");
        assert!(worst_e < 1e-13, "exp2 {worst_e}");
        for x in [
            1.0,
            2.0,
            0.5,
            1024.0,
            2f64.powi(-1000),
            2f64.sqrt(),
            0.5f64.sqrt(),
        ] {
            assert!((log2(x) - x.log2()).abs() < 1e-13, "{x}");
        }
        assert_eq!(log2(1.0), 0.0);
        assert_eq!(exp2(0.0), 1.0);
        assert_eq!(exp2(-2000.0), 0.0);
        assert_eq!(exp2(f64::NEG_INFINITY), 0.0);
        assert_eq!(log2(0.0), log2(TINY));
        assert_eq!(log2(-1.0), log2(TINY));
        assert_eq!(log2(f64::NAN), log2(TINY));
        assert!(exp2(5000.0).is_finite());
    }
}
