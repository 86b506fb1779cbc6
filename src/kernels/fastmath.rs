//! Vectorisable logarithms (and the exponential the dynamics need): bit manipulation plus a short
//! polynomial, branch-free and without libm, so a loop of them vectorises at every SIMD level,
//! and every level gives the bits of the scalar path (the expressions are fixed; plain `*` and
//! `+`, or `f64::mul_add` where a function says so, which rounds once at every level).
//!
//! Every logarithm here reduces `x = 2^e·m` with `m ∈ [√½, √2]` and writes
//! `ln m = 2·atanh(s)`, `s = (m − 1)/(m + 1)` (`|s| ≤ 0.1716`). They differ in what they are for,
//! and each variant's parameters are what its callers' published results are computed with:
//!
//! | function | domain | result | series | `e·ln 2` | accuracy |
//! |---|---|---|---|---|---|
//! | [`ln_normal_f64`] | positive normal | `ln x` | atanh to `s²¹` | one constant | a few ulp |
//! | [`ln_normal_f32`] | positive normal | `ln x` in `f32` | atanh to `s¹¹`, `2s` added last | split | 2 ulp |
//! | [`db_f64`] | everything | `20·log10|x|` | atanh to `s²³` | split | 4 ulp |
//! | [`db_f32`] | everything | `20·log10|x|` in `f32` | atanh to `s⁹` | split | 3 ulp |
//! | [`log2`] | clamped at [`TINY`] | `log2 x` | minimax, degree 5, FMA | exact | 1e-13 |
//!
//! - The `ln_normal` pair is the spectrogram log tail's (`power_to_db`, log-mel): its callers
//!   clamp to a positive normal `amin` first and handle NaN and infinity around it, so the
//!   function needs no special cases.
//! - The `db` pair is `amp_to_db`'s: it takes any input (sign ignored), scales denormals up by
//!   `2^54` (`2^24`) before the reduction, and selects `−inf` for 0, the input for infinity and
//!   NaN at the end. The `f32` variants of both pairs evaluate in `f32` arithmetic (twice the
//!   lanes of `f64`), each with the shortest series that keeps its stated accuracy after its own
//!   final scaling; the `f64` variants share the reduction and the series.
//! - [`log2`] is the dynamics gain computer's, evaluated once per sample and channel: a minimax
//!   polynomial of degree 5 (a quarter of the series' terms) on fused multiply-adds, and a
//!   reduction that needs no integer/float conversion (which SSE2 and AVX2 lack for 64-bit
//!   integers). With a separate multiply and add per Horner step the compressor's gain loop, bound
//!   by the vector units' throughput, took a quarter longer. The AVX2 and AVX-512 clones compile
//!   `mul_add` to the FMA instruction; the scalar and SSE2 ones call the C library's `fma`, which
//!   gives the same bits, more slowly.
//!
//! One implementation with these parameters rather than one set of parameters for all: each
//! caller's results are pinned bit for bit (chunked processing, every SIMD level, the C ABI's
//! published values), and changing a series or a constant would move them by rounding.

use std::f64::consts::{LN_2, SQRT_2};

/// `1/(2k + 1)` for `k = 0 … 11`: the coefficients of `atanh(s)/s = Σ s^(2k)/(2k + 1)`.
const ODD_RECIPROCALS: [f64; 12] = {
    let mut c = [0.0; 12];
    let mut k = 0;
    while k < 12 {
        c[k] = 1.0 / (2 * k + 1) as f64;
        k += 1;
    }
    c
};

/// `x = 2^e·m` with `m ∈ [√½, √2]` for positive normal finite `x` (exact).
#[inline(always)]
fn split_f64(x: f64) -> (i64, f64) {
    let bits = x.to_bits();
    let e = ((bits >> 52) & 0x7ff) as i64 - 1023;
    let m = f64::from_bits((bits & 0x000f_ffff_ffff_ffff) | 0x3ff0_0000_0000_0000);
    let big = m > SQRT_2;
    (e + big as i64, if big { m * 0.5 } else { m })
}

/// `x = 2^e·m` with `m ∈ [√½, √2]` for positive normal finite `x` (exact).
#[inline(always)]
fn split_f32(x: f32) -> (i32, f32) {
    let bits = x.to_bits();
    let e = ((bits >> 23) & 0xff) as i32 - 127;
    let m = f32::from_bits((bits & 0x007f_ffff) | 0x3f80_0000);
    let big = m > std::f32::consts::SQRT_2;
    (e + big as i32, if big { m * 0.5 } else { m })
}

/// `Σ_{k<N} z^k/(2k + 1)` by Horner from the highest term (`atanh(s) = s·P(s²)`), `N ≤ 12`.
#[inline(always)]
fn atanh_series_f64<const N: usize>(z: f64) -> f64 {
    let mut p = ODD_RECIPROCALS[N - 1];
    let mut k = N - 1;
    while k > 0 {
        k -= 1;
        p = p * z + ODD_RECIPROCALS[k];
    }
    p
}

/// `ln(x)` for positive, normal, finite `x`, branch-free: the series to `s²¹` (truncation below
/// 3e-17), `ln x = e·ln 2 + 2·s·P(s²)`. Relative error a few ulps (checked against `f64::ln`).
/// Other inputs give unspecified finite or non-finite values (the callers clamp first).
#[inline(always)]
pub fn ln_normal_f64(x: f64) -> f64 {
    let (e, m) = split_f64(x);
    let s = (m - 1.0) / (m + 1.0);
    let p = atanh_series_f64::<11>(s * s);
    e as f64 * LN_2 + 2.0 * s * p
}

/// `ln(x)` for positive, normal, finite `f32`, in `f32` arithmetic: the series to `s¹¹`
/// (truncation below 6e-11) with its leading term `2s` added last, and `e·ln 2` split Cody–Waite
/// style (`ln 2 = HI + LO`, `e·HI` exact) so large exponents lose nothing. Within 2 ulp of the
/// correctly rounded `ln`.
#[inline(always)]
pub fn ln_normal_f32(x: f32) -> f32 {
    const LN2_HI: f32 = 0.693_145_75; // 0x3f317200: 16 significant bits, e·HI exact
    const LN2_LO: f32 = 1.428_606_8e-6; // ln 2 − HI
    let (e, m) = split_f32(x);
    let s = (m - 1.0) / (m + 1.0);
    let z = s * s;
    let p =
        z * (1.0 / 3.0 + z * (1.0 / 5.0 + z * (1.0 / 7.0 + z * (1.0 / 9.0 + z * (1.0 / 11.0)))));
    let ef = e as f32;
    ef * LN2_HI + (ef * LN2_LO + (2.0 * s + 2.0 * s * p))
}

/// `20·log10|x|` for any `x`: denormals are scaled by `2^54` first, the series runs to `s²³`
/// (truncation below 1e-18) and `e·ln 2` is split (fdlibm's `ln 2` halves, `e·HI` exact).
/// `±0 → −inf`, `±inf → +inf`, NaN → NaN. Within 4 ulp of `20·log10|x|`.
#[inline(always)]
pub fn db_f64(x: f64) -> f64 {
    const LN2_HI: f64 = f64::from_bits(0x3FE6_2E42_FEE0_0000);
    const LN2_LO: f64 = f64::from_bits(0x3DEA_39EF_3579_3C76);
    const K: f64 = 8.685_889_638_065_036; // 20 / ln 10
    let a = x.abs();
    let tiny = a < f64::MIN_POSITIVE;
    let a2 = if tiny {
        a * 18_014_398_509_481_984.0 // 2^54
    } else {
        a
    };
    let (e, m) = split_f64(a2);
    let e = e - if tiny { 54 } else { 0 };
    let s = (m - 1.0) / (m + 1.0);
    let p = atanh_series_f64::<12>(s * s);
    let ef = e as f64;
    let ln = ef * LN2_HI + (ef * LN2_LO + 2.0 * s * p);
    let v = ln * K;
    #[allow(clippy::eq_op)]
    let is_nan = a != a;
    if a == 0.0 {
        f64::NEG_INFINITY
    } else if a == f64::INFINITY || is_nan {
        a
    } else {
        v
    }
}

/// `20·log10|x|` for any `x` in `f32` arithmetic (16 lanes per AVX-512 vector): as [`db_f64`]
/// with denormals scaled by `2^24`, the series to `s⁹` (truncation below 2e-9 relative) and
/// `ln 2` split so `e·ln 2` is exact. Within 3 ulp of the correctly rounded `f32` result.
#[inline(always)]
pub fn db_f32(x: f32) -> f32 {
    const LN2_HI: f32 = 0.693_359_4; // 0x3F318000: 9 significant bits, e·LN2_HI exact
    const LN2_LO: f32 = -2.121_944_4e-4;
    const K: f32 = (20.0 / std::f64::consts::LN_10) as f32;
    let a = x.abs();
    let tiny = a < f32::MIN_POSITIVE;
    let a2 = if tiny { a * 16_777_216.0 } else { a }; // 2^24
    let (e, m) = split_f32(a2);
    let e = e - if tiny { 24 } else { 0 };
    let s = (m - 1.0) / (m + 1.0);
    let s2 = s * s;
    let p = 1.0 + s2 * (1.0 / 3.0 + s2 * (0.2 + s2 * (1.0 / 7.0 + s2 * (1.0 / 9.0))));
    let ef = e as f32;
    let ln = ef * LN2_HI + (ef * LN2_LO + 2.0 * s * p);
    let v = ln * K;
    #[allow(clippy::eq_op)]
    let is_nan = a != a;
    if a == 0.0 {
        f32::NEG_INFINITY
    } else if a == f32::INFINITY || is_nan {
        a
    } else {
        v
    }
}

/// `1.5·2^52`: adding it to a double of magnitude below `2^51` rounds to an integer held in the
/// low mantissa bits.
const MAGIC: f64 = 6_755_399_441_055_744.0;
const MAGIC_BITS: u64 = 0x4338_0000_0000_0000;
/// Bits of `sqrt(0.5)`: mantissas are reduced to `[sqrt(0.5), sqrt(2))`.
const SQRT_HALF_BITS: u64 = 0x3FE6_A09E_667F_3BCD;
/// The smallest argument [`log2`] is asked about (smaller, zero, NaN: clamped here).
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

/// `log2(x)` for `x >= TINY` (smaller values, `-x`, NaN are treated as `TINY`); relative error
/// below 1e-13. The reduction is done on the bits without integer/float conversions (the
/// exponent is added to [`MAGIC`] instead), so the whole function vectorises at SSE2.
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

/// `2^x`; `0` for `x < −1022`, `2^1023` for larger than 1023. Relative error below 1e-13.
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
    use crate::simd::{available, multiversion};

    /// Inputs over the whole range of `f64`: random bit patterns (every exponent, both signs,
    /// NaNs), log-spaced values, values next to 1 and √2, every special value and denormals.
    fn inputs_f64() -> Vec<f64> {
        let mut rng = Rng::new(91);
        let mut xs: Vec<f64> = (0..100_000)
            .map(|_| f64::from_bits(rng.next_u64()))
            .collect();
        xs.extend((0..100_000).map(|_| (rng.uniform() * 1100.0).exp2()));
        xs.extend((0..20_000).map(|_| 1.0 + rng.uniform() * 1e-6));
        let sqrt2 = SQRT_2.to_bits();
        xs.extend((sqrt2 - 4..=sqrt2 + 4).map(f64::from_bits));
        xs.extend([
            0.0,
            -0.0,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
            -f64::NAN,
            f64::MIN_POSITIVE,
            f64::MAX,
            5e-324,
            1e-310,
            f64::from_bits(0x000f_ffff_ffff_ffff), // the largest denormal
            1.0,
            0.5,
            2.0,
            10.0,
            0.1,
            std::f64::consts::FRAC_1_SQRT_2,
            TINY,
        ]);
        xs
    }

    fn inputs_f32() -> Vec<f32> {
        let mut rng = Rng::new(92);
        let mut xs: Vec<f32> = (0..100_000)
            .map(|_| f32::from_bits(rng.next_u64() as u32))
            .collect();
        xs.extend((0..100_000).map(|_| (rng.uniform() * 150.0).exp2() as f32));
        xs.extend((0..20_000).map(|_| (1.0 + rng.uniform() * 1e-3) as f32));
        let sqrt2 = std::f32::consts::SQRT_2.to_bits();
        xs.extend((sqrt2 - 4..=sqrt2 + 4).map(f32::from_bits));
        xs.extend([
            0.0,
            -0.0,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
            f32::MIN_POSITIVE,
            f32::MAX,
            1e-45,
            1e-40,
            1.0,
            0.5,
            2.0,
            10.0,
            0.1,
            1.0 + f32::EPSILON,
            1.0 - f32::EPSILON / 2.0,
        ]);
        xs
    }

    fn ulps32(a: f32, b: f32) -> u32 {
        (a.to_bits() as i64 - b.to_bits() as i64).unsigned_abs() as u32
    }

    #[test]
    fn ln_normal_matches_ln_over_the_normal_range() {
        for x in inputs_f64()
            .into_iter()
            .filter(|x| x.is_normal() && *x > 0.0)
        {
            let (a, b) = (ln_normal_f64(x), x.ln());
            assert!(
                (a - b).abs() <= 4.0 * f64::EPSILON * b.abs().max(1.0),
                "{x:e}: {a} vs {b}"
            );
        }
        assert_eq!(ln_normal_f64(1.0), 0.0);
        for x in inputs_f32()
            .into_iter()
            .filter(|x| x.is_normal() && *x > 0.0)
        {
            // against the correctly rounded value of the f64 logarithm
            let want = (x as f64).ln() as f32;
            let got = ln_normal_f32(x);
            assert!(ulps32(got, want) <= 2, "{x:e}: {got} vs {want}");
        }
        assert_eq!(ln_normal_f32(1.0), 0.0);
    }

    #[test]
    fn db_matches_20_log10_over_the_whole_range() {
        for x in inputs_f64() {
            let want = 20.0 * x.abs().log10();
            let got = db_f64(x);
            if want.is_nan() {
                assert!(got.is_nan(), "{x:e}: {got}");
            } else {
                assert!(
                    got == want || (got - want).abs() <= 4.0 * f64::EPSILON * want.abs() + 1e-300,
                    "{x:e}: {got} vs {want}"
                );
            }
        }
        assert_eq!(db_f64(0.0), f64::NEG_INFINITY);
        assert_eq!(db_f64(-0.0), f64::NEG_INFINITY);
        assert_eq!(db_f64(f64::INFINITY), f64::INFINITY);
        assert_eq!(db_f64(f64::NEG_INFINITY), f64::INFINITY);
        assert_eq!(db_f64(1.0), 0.0);
        for x in inputs_f32() {
            let want = (20.0 * (x.abs() as f64).log10()) as f32;
            let got = db_f32(x);
            if want.is_nan() {
                assert!(got.is_nan(), "{x:e}: {got}");
            } else {
                let ulp = f32::EPSILON * want.abs().max(f32::MIN_POSITIVE);
                assert!(
                    got == want || (got - want).abs() <= 3.0 * ulp,
                    "{x:e}: {got} vs {want}"
                );
            }
        }
        assert_eq!(db_f32(0.0), f32::NEG_INFINITY);
        assert_eq!(db_f32(f32::NEG_INFINITY), f32::INFINITY);
        assert_eq!(db_f32(1.0), 0.0);
    }

    #[test]
    fn log2_matches_log2_and_clamps_below_tiny() {
        for x in inputs_f64() {
            let got = log2(x);
            let want = if x > TINY { x.log2() } else { TINY.log2() };
            if x == f64::INFINITY {
                // beyond the domain: finite (the exponent field overflows into the mantissa)
                continue;
            }
            assert!(
                (got - want).abs() <= 1e-13 * want.abs().max(1.0),
                "{x:e}: {got} vs {want}"
            );
        }
        assert_eq!(log2(1.0), 0.0);
        assert_eq!(log2(0.0), log2(TINY));
        assert_eq!(log2(-1.0), log2(TINY));
        assert_eq!(log2(f64::NAN), log2(TINY));
    }

    #[test]
    fn exp2_matches_exp2() {
        let mut rng = Rng::new(7);
        for i in 0..200_000 {
            let v = i as f64 / 200_000.0 * 2000.0 - 1000.0 + rng.uniform();
            let (got, want) = (exp2(v), v.exp2());
            if v < -1022.0 {
                assert_eq!(got, 0.0, "{v}");
            } else {
                assert!((got - want).abs() <= 1e-13 * want, "{v}: {got} vs {want}");
            }
        }
        assert_eq!(exp2(0.0), 1.0);
        assert_eq!(exp2(-2000.0), 0.0);
        assert_eq!(exp2(f64::NEG_INFINITY), 0.0);
        assert!(exp2(5000.0).is_finite());
    }

    /// Maps both buffers through one function pair (the loops the callers vectorise).
    trait Pair {
        fn f64(x: f64) -> f64;
        fn f32(x: f32) -> f32;
    }
    struct Ln;
    impl Pair for Ln {
        fn f64(x: f64) -> f64 {
            ln_normal_f64(x)
        }
        fn f32(x: f32) -> f32 {
            ln_normal_f32(x)
        }
    }
    struct Db;
    impl Pair for Db {
        fn f64(x: f64) -> f64 {
            db_f64(x)
        }
        fn f32(x: f32) -> f32 {
            db_f32(x)
        }
    }
    struct Log2Exp2;
    impl Pair for Log2Exp2 {
        fn f64(x: f64) -> f64 {
            log2(x) + exp2(x)
        }
        fn f32(x: f32) -> f32 {
            x
        }
    }

    fn map_body<P: Pair>(a: &mut [f64], b: &mut [f32]) {
        for v in a.iter_mut() {
            *v = P::f64(*v);
        }
        for v in b.iter_mut() {
            *v = P::f32(*v);
        }
    }

    multiversion! {
        fn map_at<P: Pair>(a: &mut [f64], b: &mut [f32]) -> ();
        scalar = map_body; simd = map_body;
    }

    fn every_level_gives_the_scalar_bits<P: Pair>(domain: fn(f64) -> bool) {
        let x64: Vec<f64> = inputs_f64().into_iter().filter(|&x| domain(x)).collect();
        let x32: Vec<f32> = inputs_f32()
            .into_iter()
            .filter(|&x| domain(x as f64))
            .collect();
        let want64: Vec<u64> = x64.iter().map(|&x| P::f64(x).to_bits()).collect();
        let want32: Vec<u32> = x32.iter().map(|&x| P::f32(x).to_bits()).collect();
        for level in available() {
            // every length up to two AVX-512 blocks, then the whole buffer (loop tails)
            for n in (0..=40).chain([x64.len()]) {
                let (mut a, mut b) = (x64[..n].to_vec(), x32[..n.min(x32.len())].to_vec());
                map_at::<P>(level, &mut a, &mut b);
                // identical bits; a NaN result may differ in its payload only
                for (i, v) in a.iter().enumerate() {
                    let w = f64::from_bits(want64[i]);
                    assert!(
                        v.to_bits() == want64[i] || (v.is_nan() && w.is_nan()),
                        "{level:?} f64 x={:e}: {v} vs {w}",
                        x64[i]
                    );
                }
                for (i, v) in b.iter().enumerate() {
                    let w = f32::from_bits(want32[i]);
                    assert!(
                        v.to_bits() == want32[i] || (v.is_nan() && w.is_nan()),
                        "{level:?} f32 x={:e}: {v} vs {w}",
                        x32[i]
                    );
                }
            }
        }
    }

    #[test]
    fn every_level_gives_the_scalar_bits_ln() {
        every_level_gives_the_scalar_bits::<Ln>(|x| x.is_normal() && x > 0.0);
    }

    #[test]
    fn every_level_gives_the_scalar_bits_db() {
        every_level_gives_the_scalar_bits::<Db>(|_| true);
    }

    #[test]
    fn every_level_gives_the_scalar_bits_log2_exp2() {
        every_level_gives_the_scalar_bits::<Log2Exp2>(|x| x.abs() < 2000.0 || x.is_nan());
    }
}
