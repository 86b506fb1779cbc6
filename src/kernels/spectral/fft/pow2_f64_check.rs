//! The checks shared by the tests of the own double power-of-two transforms
//! ([`super::pow2_avx512`], [`super::pow2_avx2_f64`]): both take the same arguments and must
//! meet the same bounds.

use super::super::Complex;
use super::mixed::unit_root;
use crate::kernels::testutil::Rng;
use rustfft::FftPlanner;

type C = Complex<f64>;

/// What the checks need of a double power-of-two plan (the methods the plans have).
pub(super) trait Pow2F64 {
    fn scratch_len(&self) -> usize;
    fn process(&self, buf: &mut [C], scratch: &mut [C]);
    fn process_outofplace(&self, input: &[C], output: &mut [C], scratch: &mut [C]);
}

fn random(rng: &mut Rng, n: usize) -> Vec<C> {
    let v = rng.vec_f64(2 * n, 1.0);
    v.chunks(2).map(|p| C::new(p[0], p[1])).collect()
}

fn run<P: Pow2F64>(p: &P, x: &[C]) -> Vec<C> {
    let mut y = x.to_vec();
    p.process(&mut y, &mut vec![C::default(); p.scratch_len()]);
    y
}

fn same_bits(a: &[C], b: &[C]) -> bool {
    a.iter()
        .zip(b)
        .all(|(u, v)| u.re.to_bits() == v.re.to_bits() && u.im.to_bits() == v.im.to_bits())
}

/// Every length `2^lg` for `lg` in `lgs`, both directions, plans from `make(n, inverse)`
/// (which must give both where `have`, the CPU having the plan's instructions): against
/// rustfft within 1e-15·log2(n)·max|X|, the round trip, in place = out of place bit for bit
/// (input untouched) at odd offsets of buffer, output and scratch, impulses against the exact
/// roots, and a NaN input reaching every bin.
pub(super) fn matches_rustfft_at_every_length<P: Pow2F64>(
    seed: u64,
    lgs: std::ops::RangeInclusive<u32>,
    have: bool,
    make: impl Fn(usize, bool) -> Option<P>,
) {
    let mut rng = Rng::new(seed);
    for lg in lgs {
        let n = 1usize << lg;
        let (Some(f), Some(b)) = (make(n, false), make(n, true)) else {
            assert!(!have, "no plan for {n} on a CPU that has the instructions");
            continue;
        };
        let x = random(&mut rng, n);
        for (p, inv) in [(&f, false), (&b, true)] {
            let y = run(p, &x);
            let mut want = x.clone();
            let mut pl = FftPlanner::<f64>::new();
            let r = if inv {
                pl.plan_fft_inverse(n)
            } else {
                pl.plan_fft_forward(n)
            };
            r.process(&mut want);
            let big = want.iter().map(|v| v.norm()).fold(0.0, f64::max);
            let e = y
                .iter()
                .zip(&want)
                .map(|(a, b)| (a - b).norm())
                .fold(0.0, f64::max);
            assert!(e <= 1e-15 * f64::from(lg) * big, "n={n} inv={inv}: {e:e}");
            for off in [1usize, 3] {
                let (mut buf, mut s) = (vec![C::default(); n + 8], vec![C::default(); n + 8]);
                buf[off..off + n].copy_from_slice(&x);
                let xin = buf.clone();
                let mut out = vec![C::new(7.0, 7.0); n + 8];
                let o = 2 * off + 1;
                p.process_outofplace(&xin[off..off + n], &mut out[o..o + n], &mut s[off..]);
                assert!(
                    same_bits(&out[o..o + n], &y),
                    "out of place n={n} off={off}"
                );
                assert_eq!(xin[off..off + n], x[..], "input kept n={n}");
                p.process(&mut buf[off..off + n], &mut s[off..]);
                assert!(
                    same_bits(&buf[off..off + n], &y),
                    "in place n={n} off={off}"
                );
            }
        }
        let back = run(&b, &run(&f, &x));
        let e = back
            .iter()
            .zip(&x)
            .map(|(a, b)| (a / n as f64 - b).norm())
            .fold(0.0, f64::max);
        assert!(e < 1e-15 * f64::from(lg) * 4.0, "round trip n={n}: {e:e}");
        for k in [0, 1, 3, n / 2 - 1, n - 1] {
            let mut d = vec![C::default(); n];
            d[k] = C::new(1.0, 0.0);
            for (j, v) in run(&f, &d).iter().enumerate() {
                let (c, s) = unit_root(j * k, n);
                let e = (v - C::new(c, -s)).norm();
                assert!(e < 1e-15 * f64::from(lg), "impulse n={n} k={k} j={j}");
            }
        }
        let mut z = x.clone();
        z[n / 3] = C::new(f64::NAN, 0.0);
        assert!(
            run(&f, &z).iter().all(|v| v.re.is_nan() || v.im.is_nan()),
            "NaN n={n}"
        );
    }
}
