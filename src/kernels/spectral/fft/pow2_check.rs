//! The checks shared by the tests of the own power-of-two transforms (the AVX-512 double and
//! float passes, the AVX2 float passes, and the two-complex-per-vector passes of
//! [`super::pow2_pair`]): every plan takes the same arguments and must meet the bounds of its
//! element type ([`CheckFloat`]).

use super::super::Complex;
use super::mixed::unit_root;
use super::FftFloat;
use crate::kernels::testutil::Rng;
use crate::kernels::Float;
use rustfft::FftPlanner;

type C64 = Complex<f64>;

/// What the checks need of a power-of-two plan of element type `T` (the methods the plans
/// have).
pub(super) trait Pow2Plan<T> {
    fn scratch_len(&self) -> usize;
    fn process(&self, buf: &mut [Complex<T>], scratch: &mut [Complex<T>]);
    fn process_outofplace(
        &self,
        input: &[Complex<T>],
        output: &mut [Complex<T>],
        scratch: &mut [Complex<T>],
    );
}

/// The bounds of an element type, each per `log2(n)`.
pub(super) trait CheckFloat: FftFloat {
    /// Largest error against the double reference, relative to the largest bin.
    const MAX_ERR: f64;
    /// Largest error of the round trip (inverse of forward, divided by n).
    const ROUND_TRIP: f64;
    /// Largest error of an impulse's transform against the exact roots.
    const IMPULSE: f64;
    /// Whether the RMS error against the double reference is also held to 1.25× that of
    /// rustfft's transform in this type (floats; for doubles rustfft is the reference).
    const RMS_VS_CRATE: bool;
}

impl CheckFloat for f64 {
    const MAX_ERR: f64 = 1e-15;
    const ROUND_TRIP: f64 = 4e-15;
    const IMPULSE: f64 = 1e-15;
    const RMS_VS_CRATE: bool = false;
}

impl CheckFloat for f32 {
    const MAX_ERR: f64 = 1e-6;
    const ROUND_TRIP: f64 = 2e-7;
    const IMPULSE: f64 = 5e-7;
    const RMS_VS_CRATE: bool = true;
}

fn wide<T: Float>(v: Complex<T>) -> C64 {
    C64::new(v.re.to_f64(), v.im.to_f64())
}

fn random<T: Float>(rng: &mut Rng, n: usize) -> Vec<Complex<T>> {
    let v = rng.vec_f64(2 * n, 1.0);
    v.chunks(2)
        .map(|p| Complex::new(T::from_f64(p[0]), T::from_f64(p[1])))
        .collect()
}

fn run<T: Float, P: Pow2Plan<T>>(p: &P, x: &[Complex<T>]) -> Vec<Complex<T>> {
    let mut y = x.to_vec();
    p.process(&mut y, &mut vec![Complex::default(); p.scratch_len()]);
    y
}

fn same_bits<T: Float>(a: &[Complex<T>], b: &[Complex<T>]) -> bool {
    // widening to f64 is exact, so equal bits there are equal bits in T
    a.iter().zip(b).all(|(u, v)| {
        let (u, v) = (wide(*u), wide(*v));
        u.re.to_bits() == v.re.to_bits() && u.im.to_bits() == v.im.to_bits()
    })
}

/// rustfft's unnormalised transform of `x` in place, forward or inverse.
fn crate_fft<U: rustfft::FftNum>(x: &mut [Complex<U>], inverse: bool) {
    let mut planner = FftPlanner::<U>::new();
    let plan = if inverse {
        planner.plan_fft_inverse(x.len())
    } else {
        planner.plan_fft_forward(x.len())
    };
    plan.process(x);
}

/// Root-mean-square distance of a result from the double reference.
fn rms_err<T: Float>(a: &[Complex<T>], want: &[C64]) -> f64 {
    let s: f64 = a
        .iter()
        .zip(want)
        .map(|(u, v)| (wide(*u) - v).norm_sqr())
        .sum();
    (s / a.len() as f64).sqrt()
}

/// Every length `2^lg` for `lg` in `lgs`, both directions, plans from `make(n, inverse)`
/// (which must give both where `have`, the CPU having the plan's instructions): against a
/// double reference (rustfft in f64 on the same input) within `MAX_ERR·log2(n)·max|X|` (and for
/// floats with an RMS error at most 1.25× that of rustfft's float transform), the round trip,
/// in place = out of place bit for bit (input untouched) at odd offsets of buffer, output and
/// scratch, impulses against the exact roots, and a NaN input reaching every bin.
pub(super) fn matches_rustfft_at_every_length<T: CheckFloat, P: Pow2Plan<T>>(
    seed: u64,
    lgs: std::ops::RangeInclusive<u32>,
    have: bool,
    make: impl Fn(usize, bool) -> Option<P>,
) {
    let mut rng = Rng::new(seed);
    for lg in lgs {
        let n = 1usize << lg;
        let l = f64::from(lg);
        let (Some(f), Some(b)) = (make(n, false), make(n, true)) else {
            assert!(!have, "no plan for {n} on a CPU that has the instructions");
            continue;
        };
        let x = random::<T>(&mut rng, n);
        for (p, inv) in [(&f, false), (&b, true)] {
            let y = run(p, &x);
            let mut want: Vec<C64> = x.iter().map(|v| wide(*v)).collect();
            crate_fft(&mut want, inv);
            let big = want.iter().map(|v| v.norm()).fold(0.0, f64::max);
            let e = y
                .iter()
                .zip(&want)
                .map(|(a, b)| (wide(*a) - b).norm())
                .fold(0.0, f64::max);
            assert!(e <= T::MAX_ERR * l * big, "n={n} inv={inv}: {e:e}");
            if T::RMS_VS_CRATE {
                let mut theirs = x.clone();
                crate_fft(&mut theirs, inv);
                let (mine, crate_err) = (rms_err(&y, &want), rms_err(&theirs, &want));
                assert!(
                    mine <= 1.25 * crate_err,
                    "n={n} inv={inv}: rms error {mine:e} vs rustfft's {crate_err:e}"
                );
            }
            for off in [1usize, 3] {
                let c0 = Complex::default();
                let (mut buf, mut s) = (vec![c0; n + 8], vec![c0; n.max(p.scratch_len()) + 8]);
                buf[off..off + n].copy_from_slice(&x);
                let xin = buf.clone();
                let seven = <T as Float>::from_f64(7.0);
                let mut out = vec![Complex::new(seven, seven); n + 64];
                // the output one element off a 64-byte boundary, and on one (the passes take
                // another route into an output off one: `use_aligned_passes`)
                let size = std::mem::size_of::<Complex<T>>();
                let aligned = (0..64 / size)
                    .find(|&o| (out.as_ptr() as usize + o * size).is_multiple_of(64))
                    .expect("a 64-byte boundary within the first 64 bytes");
                for o in [aligned + 8 * off + 1, aligned + 8 * off] {
                    out.fill(Complex::new(seven, seven));
                    p.process_outofplace(&xin[off..off + n], &mut out[o..o + n], &mut s[off..]);
                    assert!(
                        same_bits(&out[o..o + n], &y),
                        "out of place n={n} off={off} out at {o}"
                    );
                    assert!(
                        out[..o].iter().chain(&out[o + n..]).all(|v| v.re == seven),
                        "out of place n={n} wrote outside its output"
                    );
                }
                assert!(same_bits(&xin[off..off + n], &x), "input kept n={n}");
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
            .map(|(a, b)| (wide(*a) / n as f64 - wide(*b)).norm())
            .fold(0.0, f64::max);
        assert!(e < T::ROUND_TRIP * l, "round trip n={n}: {e:e}");
        for k in [0, 1, 3, n / 2 - 1, n - 1] {
            let mut d = vec![Complex::default(); n];
            d[k] = Complex::new(T::ONE, T::ZERO);
            for (j, v) in run(&f, &d).iter().enumerate() {
                let (c, s) = unit_root(j * k, n);
                let e = (wide(*v) - C64::new(c, -s)).norm();
                assert!(e < T::IMPULSE * l, "impulse n={n} k={k} j={j}: {e:e}");
            }
        }
        let mut z = x.clone();
        z[n / 3] = Complex::new(T::NAN, T::ZERO);
        assert!(
            run(&f, &z).iter().all(|v| v.re.is_nan() || v.im.is_nan()),
            "NaN n={n}"
        );
    }
}
