//! The plans against naive DFTs, rustfft and each other, at every SIMD level the CPU has.

use super::even_real::EvenReal;
use super::float::as_complex;
use super::own_pow2::{OWN_POW2_AVX2, OWN_POW2_SSE2};
use super::plan::{scale_cplx, scale_slice, Inner};
use super::scratch::{scratch_offset, CACHE_LINE, PAGE};
use super::split::{split_fwd, split_inv, split_twiddles};
use super::workspace::MAX_CACHED_BYTES;
use super::*;
use crate::kernels::testutil::Rng;
use crate::kernels::Float;
use rustfft::FftPlanner;
use std::sync::Arc;

fn dft(x: &[Complex<f64>], inverse: bool) -> Vec<Complex<f64>> {
    let n = x.len();
    let sign = if inverse { 1.0 } else { -1.0 };
    (0..n)
        .map(|k| {
            let mut acc = Complex::new(0.0, 0.0);
            for (j, v) in x.iter().enumerate() {
                let ang = sign * 2.0 * std::f64::consts::PI * ((j * k) % n) as f64 / n as f64;
                acc += v * Complex::new(ang.cos(), ang.sin());
            }
            acc
        })
        .collect()
}

fn max_err(a: &[Complex<f64>], b: &[Complex<f64>]) -> f64 {
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y).norm())
        .fold(0.0, f64::max)
}

#[test]
fn workspace_is_kept_per_thread_nested_calls_get_their_own_and_huge_ones_are_dropped() {
    f64::with_workspace(|ws| ws.real.reserve(1000));
    assert!(f64::with_workspace(|ws| ws.real.capacity()) >= 1000);
    f64::with_workspace(|outer| {
        let kept = outer.real.as_ptr();
        f64::with_workspace(|inner| {
            assert_eq!(
                inner.real.capacity(),
                0,
                "a nested call gets a fresh workspace"
            );
            inner.real.resize(10, 1.0);
        });
        assert_eq!(outer.real.as_ptr(), kept);
    });
    assert!(f64::with_workspace(|ws| ws.real.capacity()) >= 1000);
    let other = std::thread::spawn(|| f64::with_workspace(|ws| ws.real.capacity()));
    assert_eq!(
        other.join().unwrap(),
        0,
        "another thread has its own workspace"
    );
    f64::with_workspace(|ws| ws.real.reserve(MAX_CACHED_BYTES / 8 + 1));
    assert_eq!(f64::with_workspace(|ws| ws.bytes()), 0, "too large to keep");
}

#[test]
fn real_and_complex_match_naive_dft_for_small_n() {
    let mut rng = Rng::new(7);
    for n in 1..=40usize {
        let x = rng.vec_f64(n, 1.0);
        let xc: Vec<Complex<f64>> = x.iter().map(|&v| Complex::new(v, 0.0)).collect();
        let want = dft(&xc, false);
        let scale: f64 = x.iter().map(|v| v.abs()).sum::<f64>().max(1.0);
        let p = FftPlan::<f64>::new(FftKind::Real, n).unwrap();
        let mut y = vec![Complex::new(0.0, 0.0); n / 2 + 1];
        p.rfft(&x, &mut y, Norm::Backward);
        assert!(
            max_err(&y, &want[..n / 2 + 1]) < 1e-14 * scale,
            "rfft n={n}"
        );
        let mut back = vec![0.0; n];
        p.irfft(&y, &mut back, Norm::Backward);
        for (a, b) in back.iter().zip(&x) {
            assert!((a - b).abs() < 1e-14 * scale, "irfft n={n}");
        }
        let c = FftPlan::<f64>::new(FftKind::Complex, n).unwrap();
        let z: Vec<Complex<f64>> = (0..n)
            .map(|_| Complex::new(rng.uniform(), rng.uniform()))
            .collect();
        let mut y = vec![Complex::new(0.0, 0.0); n];
        c.fft(Some(&z), &mut y, false, Norm::Ortho);
        let mut want = dft(&z, false);
        want.iter_mut().for_each(|v| *v /= (n as f64).sqrt());
        assert!(max_err(&y, &want) < 1e-13 * n as f64, "fft n={n}");
        c.fft(None, &mut y, true, Norm::Ortho);
        assert!(max_err(&y, &z) < 1e-13 * n as f64, "ifft in place n={n}");
    }
}

/// The split steps of one element type at every level, and the own plans' forward split
/// step, against the scalar body, bit for bit (signs of zeros included), at every even
/// length to 200 (every tail of the 8-, 4- and 2-pair vectors and of the 16-pair blocks)
/// and three longer ones.
fn split_steps_match_scalar<T: FftFloat>(rng: &mut Rng) {
    let bits = |a: &[Complex<T>], b: &[Complex<T>]| {
        // widening to f64 is exact, so equal bits there are equal bits in T
        let b64 = |x: T| x.to_f64().to_bits();
        a.iter()
            .zip(b)
            .all(|(a, b)| b64(a.re) == b64(b.re) && b64(a.im) == b64(b.im))
    };
    let mut own_runs = 0;
    for n in (2..=200usize).step_by(2).chain([1024, 4096, 65536]) {
        let e = EvenReal::<T>::new(n).unwrap();
        let m = n / 2;
        // uniform values, and values from {−1, −0, +0, 1} whose sums and differences cancel
        // exactly, so the signs of zero results are compared too
        let ties = [-1.0, -0.0, 0.0, 1.0];
        for tied in [false, true] {
            let mut draw = || {
                let u = rng.uniform();
                let x = if tied {
                    ties[((u + 1.0) * 2.0) as usize % 4]
                } else {
                    u
                };
                <T as Float>::from_f64(x)
            };
            let z: Vec<Complex<T>> = (0..=m).map(|_| Complex::new(draw(), draw())).collect();
            let mut want = z.clone();
            split_fwd(crate::simd::Level::Scalar, &mut want, &e.v);
            let mut want_inv = vec![Complex::new(T::ZERO, T::ZERO); m];
            split_inv(crate::simd::Level::Scalar, &z, &mut want_inv, &e.tw);
            // the own plans' split step (with the doubles' spread twiddles), where they run it
            let mut got = z.clone();
            if e.own.as_ref().is_some_and(|o| o.split_forward(&mut got)) {
                assert!(bits(&got, &want), "own fwd n={n} tied={tied}");
                own_runs += 1;
            } else {
                assert!(bits(&got, &z), "own fwd n={n}: written without running");
            }
            for level in crate::simd::available() {
                let mut got = z.clone();
                split_fwd(level, &mut got, &e.v);
                assert!(bits(&got, &want), "fwd n={n} {level:?} tied={tied}");
                let mut got = vec![Complex::new(T::ZERO, T::ZERO); m];
                split_inv(level, &z, &mut got, &e.tw);
                assert!(bits(&got, &want_inv), "inv n={n} {level:?} tied={tied}");
            }
        }
    }
    // 64, 128, 1024, 4096 and 65536 points, twice each, on a CPU with AVX-512
    if crate::simd::current() == crate::simd::Level::Avx512 {
        assert_eq!(own_runs, 10);
    }
}

#[test]
fn split_steps_are_bit_identical_at_every_level() {
    let mut rng = Rng::new(11);
    split_steps_match_scalar::<f32>(&mut rng);
    split_steps_match_scalar::<f64>(&mut rng);
}

#[test]
fn norms_follow_numpy() {
    assert_eq!(Norm::Backward.scale(4, false), None);
    assert_eq!(Norm::Backward.scale(4, true), Some(0.25));
    assert_eq!(Norm::Forward.scale(4, false), Some(0.25));
    assert_eq!(Norm::Forward.scale(4, true), None);
    assert_eq!(Norm::Ortho.scale(4, true), Some(0.5));
}

#[test]
fn zero_length_is_refused_and_nyquist_imag_ignored() {
    assert!(FftPlan::<f32>::new(FftKind::Real, 0).is_err());
    let p = FftPlan::<f64>::new(FftKind::Real, 4).unwrap();
    let x = [
        Complex::new(1.0, 5.0),
        Complex::new(0.0, 0.0),
        Complex::new(1.0, -3.0),
    ];
    let mut y = [0.0; 4];
    p.irfft(&x, &mut y, Norm::Backward);
    assert_eq!(y, [0.5, 0.0, 0.5, 0.0]);
}

/// Every power of two from 2 to 2^20 (the immutable-transform path with placed scratch and
/// the AVX-512 split step), at several page offsets of input and output, against rustfft's
/// complex FFT of the real signal; plus the complex transform and round trips.
#[test]
fn powers_of_two_match_complex_fft_at_any_page_offset() {
    let mut rng = Rng::new(23);
    for k in 1..=20u32 {
        let n = 1usize << k;
        let x = rng.vec_f64(n, 1.0);
        let mut want: Vec<Complex<f64>> = x.iter().map(|&v| Complex::new(v, 0.0)).collect();
        FftPlanner::<f64>::new()
            .plan_fft_forward(n)
            .process(&mut want);
        let big = want.iter().map(|v| v.norm()).fold(0.0, f64::max);
        let p = FftPlan::<f64>::new(FftKind::Real, n).unwrap();
        let offsets: &[(usize, usize)] = if n >= 1024 {
            &[(0, 0), (0, 128), (256, 0), (1, 3)]
        } else {
            &[(0, 0)]
        };
        for &(xo, yo) in offsets {
            // xo in f64 elements, yo in complex values: every page offset pattern
            let mut xb = vec![0.0; n + 512];
            xb[xo..xo + n].copy_from_slice(&x);
            let mut yb = vec![Complex::new(0.0, 0.0); n / 2 + 1 + 256];
            let y = &mut yb[yo..yo + n / 2 + 1];
            p.rfft(&xb[xo..xo + n], y, Norm::Backward);
            assert!(
                max_err(y, &want[..n / 2 + 1]) <= 1e-13 * big,
                "rfft n={n} offsets {xo}/{yo}"
            );
            let mut back = vec![0.0; n];
            p.irfft(y, &mut back, Norm::Backward);
            let e = back
                .iter()
                .zip(&x)
                .map(|(a, b)| (a - b).abs())
                .fold(0.0, f64::max);
            assert!(e <= 1e-12, "round trip n={n}: {e}");
        }
        let c = FftPlan::<f64>::new(FftKind::Complex, n).unwrap();
        let z: Vec<Complex<f64>> = x.iter().map(|&v| Complex::new(v, 0.0)).collect();
        let mut y = vec![Complex::new(0.0, 0.0); n];
        c.fft(Some(&z), &mut y, false, Norm::Backward);
        assert!(max_err(&y, &want) <= 1e-13 * big, "fft n={n}");
    }
}

/// The own half-length transforms of the even real plans (double: 64 … 65536 points at
/// AVX-512, the lengths of [`OWN_POW2_AVX2`] doubled at AVX2 and of [`OWN_POW2_SSE2`] at
/// the baseline level, where this CPU has the level) against the crate's transforms on
/// every entry point: forward, forward destroying its input (the same bits as forward),
/// inverse, and the round trip; random data at unaligned offsets, within 1e-15·log2(n) of
/// the largest bin. Plans made for the scalar level never get them.
#[test]
fn own_pow2_transforms_match_the_crate() {
    use crate::simd::Level;
    let mut rng = Rng::new(29);
    let c0 = Complex::new(0.0, 0.0);
    let doubled = |r: &std::ops::RangeInclusive<usize>| {
        (2 * r.start()).trailing_zeros()..=(2 * r.end()).trailing_zeros()
    };
    for (level, lgs) in [
        (Level::Avx512, 6..=16u32),
        (Level::Avx2, doubled(&OWN_POW2_AVX2)),
        (Level::Baseline, doubled(&OWN_POW2_SSE2)),
    ] {
        let have = crate::simd::detected() >= level;
        for lg in 5..=17u32 {
            let n = 1usize << lg;
            let (h, m) = (n / 2 + 1, n / 2);
            let own = EvenReal::<f64>::with_own(n, level).unwrap();
            let theirs = EvenReal::<f64>::with_own(n, Level::Scalar).unwrap();
            assert!(theirs.own.is_none());
            assert_eq!(
                own.own.is_some(),
                have && lgs.contains(&lg),
                "n = {n} {level:?}"
            );
            // one value in: unaligned input and output
            let mut xb = rng.vec_f64(n + 1, 1.0);
            let x = xb[1..].to_vec();
            let (mut a, mut b) = (vec![c0; h + 1], vec![c0; h]);
            let mut s = Vec::new();
            own.forward(&x, &mut a[1..], &mut s);
            theirs.forward(&x, &mut b, &mut s);
            let big = b.iter().map(|v| v.norm()).fold(0.0, f64::max);
            let tol = 1e-15 * f64::from(lg) * big;
            assert!(max_err(&a[1..], &b) <= tol, "forward n={n}");
            let mut d = vec![c0; h];
            own.forward_destroy(&mut xb[1..], &mut d, &mut s);
            assert!(
                d.iter().zip(&a[1..]).all(|(p, q)| p == q),
                "forward_destroy n={n}"
            );
            let (mut r, mut rt) = (vec![0.0; n], vec![0.0; n]);
            own.inverse(&b, &mut r, &mut s);
            theirs.inverse(&b, &mut rt, &mut s);
            let e = r
                .iter()
                .zip(&rt)
                .map(|(p, q)| (p - q).abs())
                .fold(0.0, f64::max);
            let big = rt.iter().map(|v| v.abs()).fold(0.0, f64::max);
            assert!(e <= 1e-15 * f64::from(lg) * big, "inverse n={n}: {e}");
            // unnormalised round trip: n·x
            let e = r
                .iter()
                .zip(&x)
                .map(|(p, q)| (p / n as f64 - q).abs())
                .fold(0.0, f64::max);
            assert!(e <= 1e-15 * f64::from(lg) * 8.0, "round trip n={n}: {e}");
            assert_eq!(own.m, m);
        }
    }
}

/// A forward real transform gives the same bits whatever the output's offset from a cache
/// line (every 8 bytes for floats, 16 for doubles; misaligned outputs of the AVX-512
/// multi-pass lengths run through the scratch, see `OwnPow2::forward_avx512`), on
/// both entry points (input kept, input destroyed), and writes nothing outside its bins; so
/// does the inverse transform at every offset of its real output (every 4 or 8 bytes; see
/// `OwnPow2::inverse_aligned_source`).
#[test]
fn rfft_bits_do_not_depend_on_the_output_offset() {
    fn check<T: FftFloat + PlanCache>(rng: &mut Rng) {
        let c0 = Complex::new(T::ZERO, T::ZERO);
        let guard = Complex::new(<T as Float>::from_f64(7.5), T::ZERO);
        let per_line = 64 / std::mem::size_of::<Complex<T>>();
        for lg in 7..=14u32 {
            let n = 1usize << lg;
            let h = n / 2 + 1;
            let p = FftPlan::<T>::new(FftKind::Real, n).unwrap();
            let x: Vec<T> = rng
                .vec_f64(n, 1.0)
                .into_iter()
                .map(<T as Float>::from_f64)
                .collect();
            let mut want = vec![c0; h];
            let mut ws = p.workspace().unwrap();
            // a 64-byte aligned start inside `buf`
            let mut buf = vec![guard; h + 2 * per_line + 1];
            let base = buf.as_ptr().align_offset(64);
            let mut first = true;
            for off in 0..per_line {
                let at = base + off;
                buf.iter_mut().for_each(|c| *c = guard);
                p.rfft_ws(&x, &mut buf[at..at + h], Norm::Backward, &mut ws);
                if first {
                    want.copy_from_slice(&buf[at..at + h]);
                    first = false;
                }
                let bits = |a: &[Complex<T>], b: &[Complex<T>]| {
                    a.iter().zip(b).all(|(a, b)| {
                        a.re.to_f64().to_bits() == b.re.to_f64().to_bits()
                            && a.im.to_f64().to_bits() == b.im.to_f64().to_bits()
                    })
                };
                assert!(bits(&buf[at..at + h], &want), "n = {n}, offset {off}");
                let outside = buf[..at].iter().chain(&buf[at + h..]);
                assert!(
                    outside.into_iter().all(|c| *c == guard),
                    "n = {n}, offset {off}"
                );
                let mut xd = x.clone();
                p.rfft_inplace_input(&mut xd, &mut buf[at..at + h], Norm::Backward, &mut ws.cplx);
                assert!(
                    bits(&buf[at..at + h], &want),
                    "destroying n = {n}, offset {off}"
                );
            }
            // the inverse transform of those bins into every real offset in a line
            let rguard = <T as Float>::from_f64(7.5);
            let mut back = vec![rguard; n + 2 * per_line * 2 + 1];
            let rbase = back.as_ptr().align_offset(64);
            let mut first: Option<Vec<T>> = None;
            for off in 0..2 * per_line {
                let at = rbase + off;
                back.fill(rguard);
                p.irfft_ws(&want, &mut back[at..at + n], Norm::Backward, &mut ws);
                let got = back[at..at + n].to_vec();
                let base_bits = first.get_or_insert_with(|| got.clone());
                assert!(
                    crate::kernels::testutil::same(&got, base_bits),
                    "irfft n = {n}, offset {off}"
                );
                let outside = back[..at].iter().chain(&back[at + n..]);
                assert!(
                    outside.into_iter().all(|&v| v == rguard),
                    "irfft n = {n}, offset {off}"
                );
            }
        }
    }
    let mut rng = Rng::new(61);
    check::<f64>(&mut rng);
    check::<f32>(&mut rng);
}

/// `rfft_windowed` equals `rfft` of the products `x·w` bit for bit (NaN for NaN) where it
/// runs: at the AVX-512 level for every power of two from 256 to 65536 points, float and
/// double, under every norm, at every output offset in a cache line (nothing written
/// around the bins), on uniform values, NaN/±Inf, subnormal and near-overflow samples and
/// windows with zeros, negative and subnormal values. Elsewhere (128 points, 480 points,
/// other levels) it returns `false` and writes nothing.
#[test]
fn rfft_windowed_equals_rfft_of_the_products() {
    fn check<T: FftFloat + PlanCache>(rng: &mut Rng) {
        let c0 = Complex::new(T::ZERO, T::ZERO);
        let guard = Complex::new(<T as Float>::from_f64(7.5), T::ZERO);
        let per_line = 64 / std::mem::size_of::<Complex<T>>();
        let f = <T as Float>::from_f64;
        let single = std::mem::size_of::<T>() == 4;
        // a subnormal and a value near the largest finite one
        let (tiny, huge) = if single {
            (f(1e-40), f(1.5e38))
        } else {
            (f(1e-310), f(8e307))
        };
        let odd = [
            f(f64::NAN),
            f(f64::INFINITY),
            f(f64::NEG_INFINITY),
            tiny,
            huge,
            f(-0.0),
        ];
        let same = |a: &[Complex<T>], b: &[Complex<T>]| {
            crate::kernels::testutil::same(as_real(a), as_real(b))
        };
        let avx512 = crate::simd::current() == crate::simd::Level::Avx512;
        for n in [
            128usize, 256, 480, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536,
        ] {
            let runs = avx512 && n >= 256 && n.is_power_of_two();
            let h = n / 2 + 1;
            let p = FftPlan::<T>::new(FftKind::Real, n).unwrap();
            let mut ws = p.workspace().unwrap();
            let mut buf = vec![guard; h + 2 * per_line + 1];
            let base = buf.as_ptr().align_offset(64);
            for case in 0..3 {
                let mut x: Vec<T> = rng.vec_f64(n, 1.0).into_iter().map(f).collect();
                let mut w: Vec<T> = rng.vec_f64(n, 1.0).into_iter().map(f).collect();
                if case > 0 {
                    for j in (0..n).step_by(7 + case) {
                        x[j] = odd[j % odd.len()];
                        w[(j * 3) % n] = [T::ZERO, f(-0.5), tiny][j % 3];
                    }
                }
                let prod: Vec<T> = x.iter().zip(&w).map(|(&a, &b)| a * b).collect();
                for (k, norm) in [Norm::Backward, Norm::Ortho, Norm::Forward]
                    .into_iter()
                    .enumerate()
                {
                    let mut want = vec![c0; h];
                    p.rfft_ws(&prod, &mut want, norm, &mut ws);
                    // every offset with the default norm, one per norm otherwise
                    let offs: Vec<usize> = if k == 0 {
                        (0..per_line).collect()
                    } else {
                        vec![k]
                    };
                    for off in offs {
                        let at = base + off;
                        buf.fill(guard);
                        let did = p.rfft_windowed(&x, &w, &mut buf[at..at + h], norm, &mut ws.cplx);
                        assert_eq!(did, runs, "n = {n}");
                        if did {
                            assert!(
                                same(&buf[at..at + h], &want),
                                "n = {n}, case {case}, {norm:?}, offset {off}"
                            );
                        }
                        let outside = buf[..at].iter().chain(&buf[at + h..]);
                        let untouched = if did {
                            outside.into_iter().all(|c| *c == guard)
                        } else {
                            buf.iter().all(|c| *c == guard)
                        };
                        assert!(untouched, "n = {n}, offset {off}");
                    }
                }
            }
        }
    }
    let mut rng = Rng::new(67);
    check::<f64>(&mut rng);
    check::<f32>(&mut rng);
}

/// The fused codelets of plan type `$plan` (elements `$t`) at complex lengths `$sizes`
/// against the plan's transform and the scalar split steps, forward (and inverse when
/// `$inv`; else inverse plans have no inverse codelet either) bit for bit (NaN for NaN), on
/// uniform values, values whose sums cancel exactly, NaN/±Inf and values near the largest
/// `$t`, into outputs at every element offset in a cache line (the values around them
/// untouched); plans of the other direction write nothing.
macro_rules! codelet_cases {
    ($t:ty, $plan:ty, $sizes:expr, inverse = $inv:expr, $rng:expr) => {{
        use crate::simd::Level;
        let rng = $rng;
        let c0 = Complex::new(0.0 as $t, 0.0);
        let same = |a: $t, b: $t| a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan());
        let ties: [$t; 4] = [-1.0, -0.0, 0.0, 1.0];
        let odd: [$t; 4] = [<$t>::NAN, <$t>::INFINITY, <$t>::NEG_INFINITY, 0.5];
        for m in $sizes {
            let (tw, v) = split_twiddles::<$t>(2 * m).unwrap();
            let bare = <$plan>::new(m, false).unwrap();
            let f = <$plan>::new(m, false).unwrap().with_split(&v);
            let inv = <$plan>::new(m, true).unwrap().with_split(&v);
            for case in 0..4 {
                let mut draw = || {
                    let u = rng.uniform();
                    match case {
                        0 => u as $t,
                        1 => ties[((u + 1.0) * 2.0) as usize % 4],
                        2 => odd[((u + 1.0) * 2.0) as usize % 4],
                        _ => u as $t * 0.9 * <$t>::MAX,
                    }
                };
                let x: Vec<Complex<$t>> = (0..m).map(|_| Complex::new(draw(), draw())).collect();
                let mut want = vec![c0; m + 1];
                let mut scratch = vec![c0; f.scratch_len()];
                f.process_outofplace(&x, &mut want[..m], &mut scratch);
                split_fwd(Level::Scalar, &mut want, &v);
                let line = 64 / std::mem::size_of::<Complex<$t>>();
                let guard = Complex::new(<$t>::MIN, <$t>::MAX);
                let mut buf = vec![guard; m + 1 + 2 * line];
                let mut on_line = false;
                for off in line..2 * line {
                    buf.fill(guard);
                    let out = &mut buf[off..off + m + 1];
                    on_line |= (out.as_ptr() as usize).is_multiple_of(64);
                    assert!(f.real_forward(&x, out));
                    for (k, (g, w)) in out.iter().zip(&want).enumerate() {
                        assert!(
                            same(g.re, w.re) && same(g.im, w.im),
                            "m={m} case {case} offset {off} bin {k}: {g} vs {w}"
                        );
                    }
                    assert!(buf[..off]
                        .iter()
                        .chain(&buf[off + m + 1..])
                        .all(|c| *c == guard));
                }
                assert!(on_line, "no output on a cache line (m={m})");
                // no codelet in an inverse plan, no split twiddles in a bare plan
                let mut none = vec![c0; m + 1];
                assert!(!inv.real_forward(&x, &mut none));
                assert!(!bare.real_forward(&x, &mut none));
                assert!(!bare.split_forward(None, &mut none));
                assert!(none
                    .iter()
                    .all(|c| c.re.to_bits() == 0 && c.im.to_bits() == 0));
                // inverse: the bins `want` (imaginary parts of bins 0 and m drawn) back
                let mut bins = want.clone();
                bins[0].im = draw();
                bins[m].im = draw();
                let mut got = vec![c0; m + 1];
                if !$inv {
                    assert!(!inv.real_inverse(&bins, &mut got[1..], &tw, 1.0));
                    assert!(got.iter().all(|c| *c == c0));
                    continue;
                }
                assert!(inv.real_inverse(&bins, &mut got[1..], &tw, 1.0));
                let mut expect = vec![c0; m];
                split_inv(Level::Scalar, &bins, &mut expect, &tw);
                inv.process(&mut expect, &mut []);
                for (k, (g, w)) in got[1..].iter().zip(&expect).enumerate() {
                    assert!(
                        same(g.re, w.re) && same(g.im, w.im),
                        "inverse m={m} case {case} value {k}: {g} vs {w}"
                    );
                }
                let mut none = vec![c0; m];
                assert!(!f.real_inverse(&bins, &mut none, &tw, 1.0));
                assert!(none
                    .iter()
                    .all(|c| c.re.to_bits() == 0 && c.im.to_bits() == 0));
            }
        }
    }};
}

/// The fused AVX-512 real codelets (16 to 256 complex points) equal the complex transform
/// followed by the scalar split step bit for bit (signs of zero included; NaN for NaN), on
/// uniform values, values whose sums cancel exactly, NaN/±Inf and values near the largest
/// double, written at every offset in a cache line; the other direction's plans have none
/// and write nothing; the two-pass ones (128 and 256 complex points) are forward only. Of
/// the plans, exactly the double real ones of 64 to 512 points at AVX-512 take them
/// (inverse: 64 and 128), with the transform's result under every norm.
#[test]
fn fused_real_codelets_equal_transform_then_split() {
    use crate::simd::Level;
    if crate::simd::detected() < Level::Avx512 {
        return;
    }
    let mut rng = Rng::new(53);
    let c0 = Complex::new(0.0, 0.0);
    codelet_cases!(
        f64,
        pow2_avx512::Pow2Avx512,
        [16usize, 32, 64],
        inverse = true,
        &mut rng
    );
    codelet_cases!(
        f64,
        pow2_avx512::Pow2Avx512,
        [128usize, 256],
        inverse = false,
        &mut rng
    );
    // the plans take the fused codelets only at the AVX-512 level (`SIGKERN_SIMD` may lower it)
    if crate::simd::current() < Level::Avx512 {
        return;
    }
    for n in [32usize, 64, 128, 256, 512, 1024] {
        let p = FftPlan::<f64>::new(FftKind::Real, n).unwrap();
        let x = rng.vec_f64(n, 1.0);
        for norm in [Norm::Backward, Norm::Ortho, Norm::Forward] {
            let mut fused = vec![c0; n / 2 + 1];
            let mut want = vec![c0; n / 2 + 1];
            let did = p.rfft_fused(&x, &mut fused, norm);
            assert_eq!(did, matches!(n, 64 | 128 | 256 | 512), "n = {n}");
            if !did {
                assert!(fused.iter().all(|c| *c == c0));
                continue;
            }
            let e = EvenReal::<f64>::with_own(n, Level::Avx512).unwrap();
            let mut z = vec![c0; n / 2 + 1];
            e.own.as_ref().unwrap().run(
                false,
                Some(as_complex(&x)),
                &mut z[..n / 2],
                &mut Vec::new(),
            );
            split_fwd(Level::Scalar, &mut z, &e.v);
            scale_cplx(&mut z, norm.scale(n, false));
            p.rfft(&x, &mut want, norm);
            assert!(fused.iter().zip(&want).all(|(a, b)| a == b), "n = {n}");
            assert!(fused.iter().zip(&z).all(|(a, b)| a == b), "n = {n}");
            // inverse through the plan: the fused codelet, the plan's irfft, and the split
            // step then the codelet agree; the imaginary parts of bins 0 and n/2 are ignored
            let mut bins = want.clone();
            bins[0].im = f64::NAN;
            bins[n / 2].im = f64::INFINITY;
            let (mut back, mut plain) = (vec![0.0; n], vec![0.0; n]);
            if n > 128 {
                // forward only from 256 points
                assert!(!p.irfft_fused(&bins, &mut back, norm));
                assert!(back.iter().all(|&b| b == 0.0));
                continue;
            }
            assert!(p.irfft_fused(&bins, &mut back, norm));
            p.irfft(&bins, &mut plain, norm);
            let mut clean = bins.clone();
            clean[0].im = 0.0;
            clean[n / 2].im = 0.0;
            let mut z = vec![c0; n / 2];
            split_inv(Level::Scalar, &clean, &mut z, &e.tw);
            e.own
                .as_ref()
                .unwrap()
                .run(true, None, &mut z, &mut Vec::new());
            let mut zr: Vec<f64> = z.iter().flat_map(|c| [c.re, c.im]).collect();
            scale_slice(&mut zr, norm.scale(n, true));
            assert!(
                back.iter().zip(&plain).all(|(a, b)| a == b),
                "inverse n = {n}"
            );
            assert!(back.iter().zip(&zr).all(|(a, b)| a == b), "inverse n = {n}");
            if norm == Norm::Backward {
                let err = back
                    .iter()
                    .zip(&x)
                    .map(|(a, b)| (a - b).abs())
                    .fold(0.0, f64::max);
                assert!(err < 1e-14, "round trip n = {n}: {err}");
            }
        }
    }
    let pf = FftPlan::<f32>::new(FftKind::Real, 256).unwrap();
    let mut yf = vec![Complex::new(0.0f32, 0.0); 129];
    assert!(!pf.rfft_fused(&[1.0f32; 256], &mut yf, Norm::Backward));
}

/// The float fused codelets (32 and 64 complex points) against the float codelet and the
/// scalar split step, as the double test above.
#[test]
fn fused_float_real_codelets_equal_transform_then_split() {
    use crate::simd::Level;
    if crate::simd::detected() < Level::Avx512 {
        return;
    }
    let mut rng = Rng::new(59);
    let c0 = Complex::new(0.0f32, 0.0);
    codelet_cases!(
        f32,
        pow2_avx512_f32::Pow2Avx512F32,
        [32usize, 64],
        inverse = true,
        &mut rng
    );
    // the plans take the fused codelets only at the AVX-512 level (`SIGKERN_SIMD` may lower it)
    if crate::simd::current() < Level::Avx512 {
        return;
    }
    for n in [64usize, 128, 256] {
        let p = FftPlan::<f32>::new(FftKind::Real, n).unwrap();
        let x: Vec<f32> = (0..n).map(|_| rng.uniform() as f32).collect();
        let mut y = vec![c0; n / 2 + 1];
        assert_eq!(
            p.rfft_fused(&x, &mut y, Norm::Backward),
            n <= 128,
            "n = {n}"
        );
        p.rfft(&x, &mut y, Norm::Backward);
        let (mut back, mut plain) = (vec![0.0f32; n], vec![0.0f32; n]);
        assert_eq!(
            p.irfft_fused(&y, &mut back, Norm::Backward),
            n <= 128,
            "n = {n}"
        );
        p.irfft(&y, &mut plain, Norm::Backward);
        if n <= 128 {
            assert!(
                back.iter().zip(&plain).all(|(a, b)| a == b),
                "inverse n = {n}"
            );
        }
        let err = plain
            .iter()
            .zip(&x)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f32::max);
        assert!(err < 1e-5, "round trip n = {n}: {err}");
    }
}

/// The float counterpart: own half-length transforms for 128 … 65536 points (AVX-512),
/// 512 … 8192 points (AVX2) and 128 … 8192 points (baseline, SSE2), each against the same
/// plan on rustfft's transform (forward, input-destroying forward, inverse, round trip;
/// unaligned input and output). The scalar level has none.
#[test]
fn own_pow2_float_transforms_match_the_crate() {
    use crate::simd::Level;
    let mut rng = Rng::new(41);
    let c0 = Complex::new(0.0f32, 0.0);
    for (level, lgs) in [
        (Level::Avx512, 6..=16u32),
        (Level::Avx2, 9..=13),
        (Level::Baseline, 7..=13),
    ] {
        let have = crate::simd::detected() >= level;
        for lg in 5..=17u32 {
            let n = 1usize << lg;
            let h = n / 2 + 1;
            let own = EvenReal::<f32>::with_own(n, level).unwrap();
            let theirs = EvenReal::<f32>::with_own(n, Level::Scalar).unwrap();
            assert!(theirs.own.is_none());
            assert_eq!(
                own.own.is_some(),
                have && lgs.contains(&lg),
                "n = {n} {level:?}"
            );
            let mut xb = rng.vec_f32(n + 1, 1.0);
            let x = xb[1..].to_vec();
            let (mut a, mut b) = (vec![c0; h + 1], vec![c0; h]);
            let mut s = Vec::new();
            own.forward(&x, &mut a[1..], &mut s);
            theirs.forward(&x, &mut b, &mut s);
            let big = b.iter().map(|v| v.norm()).fold(0.0, f32::max);
            let tol = 1e-6 * lg as f32 * big;
            let e = a[1..]
                .iter()
                .zip(&b)
                .map(|(p, q)| (p - q).norm())
                .fold(0.0, f32::max);
            assert!(e <= tol, "forward n={n}: {e:e}");
            let mut d = vec![c0; h];
            own.forward_destroy(&mut xb[1..], &mut d, &mut s);
            assert!(
                d.iter().zip(&a[1..]).all(|(p, q)| p == q),
                "forward_destroy n={n}"
            );
            let (mut r, mut rt) = (vec![0.0f32; n], vec![0.0f32; n]);
            own.inverse(&b, &mut r, &mut s);
            theirs.inverse(&b, &mut rt, &mut s);
            let e = r
                .iter()
                .zip(&rt)
                .map(|(p, q)| (p - q).abs())
                .fold(0.0, f32::max);
            let big = rt.iter().map(|v| v.abs()).fold(0.0, f32::max);
            assert!(e <= 1e-6 * lg as f32 * big, "inverse n={n}: {e:e}");
            let e = r
                .iter()
                .zip(&x)
                .map(|(p, q)| (p / n as f32 - q).abs())
                .fold(0.0, f32::max);
            assert!(e <= 1e-6 * lg as f32, "round trip n={n}: {e:e}");
        }
    }
}

/// Double plans of lengths that are not powers of two run on the own transform: against
/// rustfft (the oracle) on every entry point (workspace and input-destroying forms,
/// complex in and out of place), with round trips; float plans keep rustfft.
#[test]
fn own_transform_matches_rustfft_on_every_entry_point() {
    let mut rng = Rng::new(31);
    for n in [3usize, 26, 243, 480, 1000, 1001, 4099, 8198, 3 * 4099] {
        let x = rng.vec_f64(n, 1.0);
        let mut want: Vec<Complex<f64>> = x.iter().map(|&v| Complex::new(v, 0.0)).collect();
        FftPlanner::<f64>::new()
            .plan_fft_forward(n)
            .process(&mut want);
        let big = want.iter().map(|v| v.norm()).fold(0.0, f64::max);
        let p = FftPlan::<f64>::new(FftKind::Real, n).unwrap();
        assert!(matches!(p.inner, Inner::OwnReal(_)), "n={n}");
        let h = n / 2 + 1;
        let mut y = vec![Complex::new(0.0, 0.0); h];
        p.rfft(&x, &mut y, Norm::Backward);
        assert!(max_err(&y, &want[..h]) <= 1e-13 * big, "rfft n={n}");
        let mut xd = x.clone();
        let mut y2 = vec![Complex::new(9.0, 9.0); h];
        p.rfft_inplace_input(&mut xd, &mut y2, Norm::Backward, &mut Vec::new());
        assert_eq!(y, y2, "rfft_inplace_input n={n}");
        let mut back = vec![0.0; n];
        p.irfft(&y, &mut back, Norm::Backward);
        let e = back.iter().zip(&x).map(|(a, b)| (a - b).abs());
        assert!(e.fold(0.0, f64::max) <= 1e-13, "round trip n={n}");
        let mut back2 = vec![0.0; n];
        p.irfft_inplace_input(&mut y.clone(), &mut back2, Norm::Backward, &mut Vec::new());
        assert_eq!(back, back2, "irfft_inplace_input n={n}");
        let c = FftPlan::<f64>::new(FftKind::Complex, n).unwrap();
        assert!(matches!(c.inner, Inner::OwnComplex(_)), "n={n}");
        let z: Vec<Complex<f64>> = x.iter().map(|&v| Complex::new(v, 0.0)).collect();
        let mut yc = vec![Complex::new(0.0, 0.0); n];
        c.fft(Some(&z), &mut yc, false, Norm::Backward);
        assert!(max_err(&yc, &want) <= 1e-13 * big, "fft n={n}");
        c.fft(None, &mut yc, true, Norm::Backward);
        assert!(max_err(&yc, &z) <= 1e-13, "ifft in place n={n}");
        let f = FftPlan::<f32>::new(FftKind::Real, n).unwrap();
        assert!(matches!(f.inner, Inner::Real { .. }), "f32 n={n}");
    }
}

#[test]
fn scratch_is_placed_away_from_input_and_output() {
    let circ = |a: usize, b: usize| {
        let d = a.wrapping_sub(b) % PAGE;
        d.min(PAGE - d)
    };
    for base in [0x10_0000usize, 0x10_0010, 0x10_0808, 0x10_0ff0] {
        for x in (0..PAGE).step_by(8) {
            for y in [0, 8, 1024, 1536, 2048, 3000, 4088] {
                let (x, y) = (0x20_0000 + x, 0x30_0000 + (x + y) % PAGE);
                let k = scratch_offset(
                    base as *const Complex<f64>,
                    x as *const Complex<f64>,
                    y as *const Complex<f64>,
                );
                assert!(k < PAGE / 16);
                let s = base + 16 * k;
                // 1 KiB less the rounding down to a cache line and to an element
                assert!(
                    circ(s, x) >= 1024 - 64 - 16 && circ(s, y) >= 1024 - 64 - 16,
                    "base {base:#x} x {x:#x} y {y:#x} -> {s:#x}"
                );
                if base % 16 == 0 {
                    assert_eq!(s % CACHE_LINE, 0, "base {base:#x} x {x:#x} y {y:#x}");
                }
            }
        }
    }
}

#[test]
fn one_plan_runs_on_many_threads() {
    let p = Arc::new(FftPlan::<f32>::new(FftKind::Real, 1000).unwrap());
    std::thread::scope(|s| {
        for t in 0..4 {
            let p = p.clone();
            s.spawn(move || {
                let mut rng = Rng::new(t);
                for _ in 0..50 {
                    let x = rng.vec_f32(1000, 1.0);
                    let mut y = vec![Complex::new(0.0f32, 0.0); 501];
                    p.rfft(&x, &mut y, Norm::Ortho);
                    let mut b = vec![0.0f32; 1000];
                    p.irfft(&y, &mut b, Norm::Ortho);
                    for (a, c) in b.iter().zip(&x) {
                        assert!((a - c).abs() < 1e-5);
                    }
                }
            });
        }
    });
}

/// Which path each length takes, per SIMD level and element type (real transforms; complex ones
/// below): `N` numpy's algorithms ([`OwnReal`](super::own_real::OwnReal), or
/// [`MixedFft`](super::mixed::MixedFft) for complex), `F` a fused AVX-512 codelet for the whole
/// forward transform, `O` the level's own power-of-two passes for the half length, `C`
/// rustfft/realfft. docs/spectral.md ("How the FFT picks its path") gives the reasons; a change
/// of dispatch must change this table. Levels above the CPU's are skipped.
#[test]
fn each_length_takes_its_path() {
    use super::plan::Inner;
    use crate::simd::Level;
    const LENGTHS: [usize; 19] = [
        8, 16, 32, 63, 64, 100, 128, 256, 400, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536,
        131072, 262144,
    ];
    #[rustfmt::skip]
    const REAL: [(Level, &str, &str, &str); 8] = [
        //                                  8 16 32 63 64 100 128 256 400 512 1k 2k 4k 8k 16k 32k 64k 128k 256k
        (Level::Avx512,   "avx512", "f64", "N N  N  N  F  N   F   F   N   F   O  O  O  O  O   O   O   C    C"),
        (Level::Avx512,   "avx512", "f32", "C C  C  C  F  C   F   O   C   O   O  O  O  O  O   O   O   C    C"),
        (Level::Avx2,     "avx2",   "f64", "N N  N  N  C  N   O   O   N   O   O  O  O  C  C   C   C   C    C"),
        (Level::Avx2,     "avx2",   "f32", "C C  C  C  C  C   C   C   C   O   O  O  O  O  C   C   C   C    C"),
        (Level::Baseline, "sse2",   "f64", "N N  N  N  C  N   O   O   N   O   O  O  O  C  C   C   C   C    C"),
        (Level::Baseline, "sse2",   "f32", "C C  C  C  C  C   O   O   C   O   O  O  O  O  C   C   C   C    C"),
        (Level::Scalar,   "",       "f64", "N N  N  N  C  N   C   C   N   C   C  C  C  C  C   C   C   C    C"),
        (Level::Scalar,   "",       "f32", "C C  C  C  C  C   C   C   C   C   C  C  C  C  C   C   C   C    C"),
    ];
    fn real_path<T: FftFloat>(n: usize, level: Level, own_name: &str) -> &'static str {
        let plan = FftPlan::<T>::new(FftKind::Real, n).unwrap();
        match &plan.inner {
            Inner::OwnReal(_) => "N",
            Inner::Real { even: None, .. } => "C",
            Inner::Real { even: Some(_), .. } => {
                let e = EvenReal::<T>::with_own(n, level).unwrap();
                let Some(own) = &e.own else { return "C" };
                assert_eq!(own.name(), own_name, "n = {n} at {level:?}");
                let x = vec![T::ZERO; n];
                let mut y = vec![Complex::new(T::ZERO, T::ZERO); n / 2 + 1];
                if e.fused_forward(&x, &mut y) {
                    "F"
                } else {
                    "O"
                }
            }
            _ => unreachable!("a real plan of {n} points"),
        }
    }
    for (level, name, ty, want) in REAL {
        if crate::simd::detected() < level {
            continue;
        }
        let want: Vec<&str> = want.split_whitespace().collect();
        assert_eq!(want.len(), LENGTHS.len());
        let own_name = format!("{name} {ty}");
        let got: Vec<&str> = LENGTHS
            .iter()
            .map(|&n| match ty {
                "f64" => real_path::<f64>(n, level, &own_name),
                _ => real_path::<f32>(n, level, &own_name),
            })
            .collect();
        assert_eq!(
            got, want,
            "real {ty} transforms at {level:?}, lengths {LENGTHS:?}"
        );
    }
    // complex plans (no SIMD-level choice): numpy's algorithm for double lengths that are not
    // powers of two, rustfft elsewhere
    fn complex_path<T: FftFloat>(n: usize) -> &'static str {
        match FftPlan::<T>::new(FftKind::Complex, n).unwrap().inner {
            Inner::OwnComplex(_) => "N",
            Inner::Complex { .. } => "C",
            _ => unreachable!("a complex plan of {n} points"),
        }
    }
    let f64s: Vec<&str> = LENGTHS.iter().map(|&n| complex_path::<f64>(n)).collect();
    let f32s: Vec<&str> = LENGTHS.iter().map(|&n| complex_path::<f32>(n)).collect();
    let mut want64 = vec!["C"; LENGTHS.len()];
    (want64[3], want64[5], want64[8]) = ("N", "N", "N"); // 63, 100, 400
    assert_eq!(f64s, want64, "complex f64");
    assert_eq!(f32s, vec!["C"; LENGTHS.len()], "complex f32");
}

/// FNV-1a over the bits of `x` (each value widened to f64, which keeps an f32's bits apart),
/// continuing from `h`.
fn fnv_bits<T: Float>(mut h: u64, x: &[Complex<T>]) -> u64 {
    for v in x.iter().flat_map(|c| [c.re, c.im]) {
        for b in v.to_f64().to_bits().to_le_bytes() {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
    h
}

/// The checksum of one level's own power-of-two transforms of element type `T`, over every half
/// length `m` = 16 ..= 65536 they take: the complex forward and inverse transforms (out of
/// place) and, on a real plan of `2m` points, the forward transform (its fused codelet where it
/// has one), the windowed forward transform (where it exists) and the inverse. Fixed
/// pseudo-random data; `None` when this CPU lacks the level.
fn own_pow2_checksum<T: FftFloat>(level: crate::simd::Level) -> Option<u64> {
    if crate::simd::detected() < level {
        return None;
    }
    let mut rng = Rng::new(53);
    let c0 = Complex::new(T::ZERO, T::ZERO);
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    let mut s = Vec::new();
    for lg in 4..=16u32 {
        let m = 1usize << lg;
        let e = EvenReal::<T>::with_own(2 * m, level).unwrap();
        let Some(own) = &e.own else { continue };
        let mut vals = |k: usize| -> Vec<T> {
            (0..k)
                .map(|_| <T as Float>::from_f64(rng.uniform()))
                .collect()
        };
        let x = vals(2 * m);
        let win = vals(2 * m);
        let cx = as_complex(&x).to_vec();
        let mut y = vec![c0; m];
        for inverse in [false, true] {
            own.run(inverse, Some(&cx), &mut y, &mut s);
            h = fnv_bits(h, &y);
        }
        let mut bins = vec![c0; m + 1];
        e.forward(&x, &mut bins, &mut s);
        h = fnv_bits(h, &bins);
        if e.forward_windowed(&x, &win, &mut bins, &mut s) {
            h = fnv_bits(h, &bins);
        }
        let mut r = vec![T::ZERO; 2 * m];
        e.inverse(&bins, &mut r, &mut s);
        h = fnv_bits(h, as_complex(&r));
    }
    Some(h)
}

/// The own power-of-two transforms give, bit for bit, the results they gave when these
/// checksums were taken ([`own_pow2_checksum`]), at every SIMD level this CPU has, for both
/// element types: a change of operation order or of FMA use in any codelet or pass shows here.
/// Change a checksum only with a change that means to change results.
#[test]
fn own_pow2_bits_are_pinned() {
    use crate::simd::Level;
    let want: [(Level, u64, u64); 3] = [
        (Level::Avx512, 0xad78_8036_c618_facc, 0xa2b3_df74_f23a_80e4),
        (Level::Avx2, 0x33ac_19d8_2c3e_9f56, 0x31f4_0468_f35b_bd2e),
        (
            Level::Baseline,
            0xb7d3_5413_ac6d_3d05,
            0x1ea1_994a_d42b_c55c,
        ),
    ];
    let got: Vec<(Level, Option<u64>, Option<u64>)> = want
        .iter()
        .map(|&(l, _, _)| (l, own_pow2_checksum::<f64>(l), own_pow2_checksum::<f32>(l)))
        .collect();
    for (&(level, w64, w32), &(_, g64, g32)) in want.iter().zip(&got) {
        if crate::simd::detected() < level {
            continue;
        }
        assert_eq!(
            (g64, g32),
            (Some(w64), Some(w32)),
            "{level:?} (f64, f32); all levels: {got:x?}"
        );
    }
}
