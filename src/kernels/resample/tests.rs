//! Resampler tests against closed forms (sines at known instants) and against itself
//! (chunked = one-shot, flush, ratio ramps).

// Channel loops index several buffers by the same channel number.
#![allow(clippy::needless_range_loop)]

use super::design::{Phase, Quality, Spec};
use super::stream::{oneshot_len, rational, resample, Resampler};
use crate::kernels::layout::Layout;
use crate::kernels::spectral::fft::{FftFloat, PlanCache};
use crate::kernels::testutil::Rng;
use crate::kernels::Float;
use crate::simd::{current, Level};
use std::f64::consts::PI;

fn planar(n: usize) -> Layout {
    Layout::planar(n.max(1))
}

fn oneshot<T: FftFloat + PlanCache>(
    fin: f64,
    fout: f64,
    ch: usize,
    q: Quality,
    x: &[T],
    n: usize,
    interleaved: bool,
) -> Vec<T> {
    oneshot_spec(fin, fout, ch, q.spec(), x, n, interleaved)
}

fn oneshot_spec<T: FftFloat + PlanCache>(
    fin: f64,
    fout: f64,
    ch: usize,
    spec: Spec,
    x: &[T],
    n: usize,
    interleaved: bool,
) -> Vec<T> {
    let r = Resampler::<T>::new(fin, fout, ch, spec).unwrap();
    let len = oneshot_len(&r, n) as usize;
    let mut y = vec![T::NAN; len * ch];
    let (xl, yl) = if interleaved {
        (Layout::interleaved(ch), Layout::interleaved(ch))
    } else {
        (planar(n), planar(len))
    };
    let got = resample(current(), r, x, xl, n, &mut y, yl).unwrap();
    assert_eq!(got, len);
    y
}

#[test]
fn detects_rational_ratios() {
    assert_eq!(rational(48000.0, 44100.0), Some((147, 160)));
    assert_eq!(rational(44100.0, 48000.0), Some((160, 147)));
    assert_eq!(rational(16000.0, 8000.0), Some((1, 2)));
    assert_eq!(rational(8000.0, 44100.0), Some((441, 80)));
    assert_eq!(rational(1.0, 2f64.sqrt()), None);
    assert_eq!(rational(44100.0, 48001.0), None); // 48001 phases: too many
}

#[test]
fn oneshot_length_rule() {
    let r = Resampler::<f32>::new(48000.0, 44100.0, 1, Quality::High.spec()).unwrap();
    for n in [0usize, 1, 2, 159, 160, 161, 48000, 48001] {
        assert_eq!(oneshot_len(&r, n), (n as u64 * 147).div_ceil(160), "n {n}");
    }
    let r = Resampler::<f32>::new(1.0, 2f64.sqrt(), 1, Quality::High.spec()).unwrap();
    for n in [0usize, 1, 2, 1000] {
        let want = (n as f64 * 2f64.sqrt()).ceil() as u64;
        assert_eq!(oneshot_len(&r, n), want, "n {n}");
    }
}

#[test]
fn lengths_of_huge_inputs_do_not_wrap() {
    // downsampling (one stage-signal sample per frame) and upsampling (two): the exact count
    // where it fits in 64 bits, u64::MAX where it does not
    let down = Resampler::<f32>::new(48000.0, 44100.0, 1, Quality::High.spec()).unwrap();
    let up = Resampler::<f32>::new(44100.0, 48000.0, 1, Quality::High.spec()).unwrap();
    let exact = |n: usize, l: u128, m: u128| u64::try_from((n as u128 * l).div_ceil(m));
    for n in [1usize << 62, 1 << 63, usize::MAX] {
        let want = exact(n, 147, 160).unwrap();
        assert_eq!(oneshot_len(&down, n), want, "n {n}");
        let s = down.output_size(n);
        assert!(s <= want && s > want - want / 1000, "n {n}: {s}");
        let want = exact(n, 160, 147).unwrap_or(u64::MAX);
        assert_eq!(oneshot_len(&up, n), want, "n {n}");
        let s = up.output_size(n);
        assert!(s <= want && s > want - want / 1000, "n {n}: {s}");
    }
    assert_eq!(oneshot_len(&up, usize::MAX), u64::MAX);
}

/// A sine through the one-shot conversion equals the sine at the output instants.
fn sine_case<T: FftFloat + PlanCache>(fin: f64, fout: f64, q: Quality, f: f64, tol: f64) {
    sine_spec_case::<T>(fin, fout, q.spec(), f, tol)
}

fn sine_spec_case<T: FftFloat + PlanCache>(fin: f64, fout: f64, q: Spec, f: f64, tol: f64) {
    let n = 6000;
    let x: Vec<T> = (0..n)
        .map(|i| <T as Float>::from_f64((2.0 * PI * f * i as f64 / fin).sin()))
        .collect();
    let y = oneshot_spec(fin, fout, 1, q, &x, n, false);
    assert_eq!(y.len() as f64, (n as f64 * fout / fin).ceil());
    // away from the edges, where the kernel sees the whole sine
    let edge = (y.len() as f64 * 0.1) as usize + 400;
    let mut worst = 0.0f64;
    for (m, v) in y.iter().enumerate().take(y.len() - edge).skip(edge) {
        let want = (2.0 * PI * f * m as f64 / fout).sin();
        worst = worst.max((Float::to_f64(*v) - want).abs());
    }
    assert!(
        worst < tol,
        "{fin}->{fout} {q:?} {} f {f}: error {worst:e}",
        T::NAME
    );
}

#[test]
fn sines_land_on_their_instants() {
    for (fin, fout) in [
        (48000.0f64, 44100.0f64),
        (44100.0, 48000.0),
        (48000.0, 24000.0),
        (24000.0, 48000.0),
        (44100.0, 44100.0 * 2f64.sqrt() / 1.3),
    ] {
        for f in [1000.0, 15000.0f64.min(0.4 * fin.min(fout))] {
            sine_case::<f32>(fin, fout, Quality::High, f, 3e-6);
            sine_case::<f64>(fin, fout, Quality::VeryHigh, f, 1e-8);
        }
        sine_case::<f64>(fin, fout, Quality::Quick, 1000.0, 2e-3);
    }
}

/// The stream's output is the one-shot output delayed by exactly `latency()` samples, whatever
/// the chunks and the output capacities; flush yields every remaining sample.
fn chunked_case<T: FftFloat + PlanCache>(
    fin: f64,
    fout: f64,
    ch: usize,
    interleaved: bool,
    seed: u64,
) {
    chunked_spec_case::<T>(fin, fout, ch, interleaved, seed, Quality::High.spec())
}

fn chunked_spec_case<T: FftFloat + PlanCache>(
    fin: f64,
    fout: f64,
    ch: usize,
    interleaved: bool,
    seed: u64,
    spec: Spec,
) {
    let mut rng = Rng::new(seed);
    let n = 3001;
    let x: Vec<T> = (0..n * ch)
        .map(|_| <T as Float>::from_f64(rng.uniform()))
        .collect();
    let want = oneshot_spec(fin, fout, ch, spec, &x, n, interleaved);
    let len = want.len() / ch;
    let mut r = Resampler::<T>::new(fin, fout, ch, spec).unwrap();
    let lat = r.latency();
    let total = lat + len;
    let mut got: Vec<Vec<T>> = vec![Vec::new(); ch];
    let mut pos = 0;
    let frame = |buf: &[T], t: usize, c: usize, frames: usize| {
        if interleaved {
            buf[t * ch + c]
        } else {
            buf[c * frames + t]
        }
    };
    while pos < n {
        let step = 1 + (rng.next_u64() % 700) as usize;
        let step = step.min(n - pos);
        let cap = (rng.next_u64() % 800) as usize;
        // the chunk, in its own buffer of the layout
        let mut xin = vec![T::ZERO; step * ch];
        for t in 0..step {
            for c in 0..ch {
                let v = frame(&x, pos + t, c, n);
                if interleaved {
                    xin[t * ch + c] = v;
                } else {
                    xin[c * step + t] = v;
                }
            }
        }
        let mut y = vec![T::NAN; cap * ch];
        let (xl, yl) = if interleaved {
            (Layout::interleaved(ch), Layout::interleaved(ch))
        } else {
            (planar(step), planar(cap))
        };
        let before = r.output_size(step);
        let (used, made) = r
            .process(current(), &xin, xl, step, &mut y, yl, cap)
            .unwrap();
        assert_eq!(made as u64, before.min(cap as u64));
        assert!(used <= step);
        if (made as u64) < before {
            assert!(used < step || made == cap);
        } else {
            assert_eq!(used, step);
        }
        for c in 0..ch {
            for t in 0..made {
                got[c].push(frame(&y, t, c, cap));
            }
        }
        pos += used;
    }
    let rest = r.flush_size() as usize;
    let mut y = vec![T::NAN; (rest + 3) * ch];
    let yl = if interleaved {
        Layout::interleaved(ch)
    } else {
        planar(rest + 3)
    };
    if rest > 0 {
        assert!(r
            .flush(current(), &mut y[..(rest - 1) * ch], yl, rest - 1)
            .is_err());
    }
    assert_eq!(r.flush(current(), &mut y, yl, rest + 3).unwrap(), rest);
    for c in 0..ch {
        for t in 0..rest {
            got[c].push(frame(&y, t, c, rest + 3));
        }
        assert_eq!(
            got[c].len(),
            total,
            "{fin}->{fout} channel {c} lat {lat} len {len}"
        );
        for t in 0..len {
            let w = frame(&want, t, c, len);
            assert_eq!(
                Float::to_f64(got[c][lat + t]).to_bits(),
                Float::to_f64(w).to_bits(),
                "{fin}->{fout} ch {c} t {t}"
            );
        }
    }
    // flush reset the stream
    assert_eq!(r.flush_size(), 0);
}

#[test]
fn chunked_equals_oneshot_bit_for_bit() {
    for (i, (fin, fout)) in [
        (48000.0, 44100.0),
        (44100.0, 48000.0),
        (2.0, 1.0),
        (1.0, 2.0),
        (1.0, 2f64.sqrt()),
        (2f64.sqrt(), 1.0),
    ]
    .into_iter()
    .enumerate()
    {
        chunked_case::<f32>(fin, fout, 1, false, i as u64);
        chunked_case::<f64>(fin, fout, 3, false, i as u64 + 10);
        chunked_case::<f32>(fin, fout, 2, true, i as u64 + 20);
        chunked_case::<f32>(fin, fout, 1, true, i as u64 + 30);
    }
}

const RATIOS: [(f64, f64); 6] = [
    (48000.0, 44100.0),
    (44100.0, 48000.0),
    (2.0, 1.0),
    (1.0, 2.0),
    (1.0, std::f64::consts::SQRT_2),
    (std::f64::consts::SQRT_2, 1.0),
];

/// Minimum phase: the stream is still chunk-invariant with every sample flushed, a 1 kHz sine
/// still lands on its instants (the latency is the low-frequency group delay), and the latency
/// is a fraction of the linear-phase one.
#[test]
fn minimum_phase_streams() {
    for (i, (fin, fout)) in RATIOS.into_iter().enumerate() {
        let min = |q: Quality| Spec {
            phase: Phase::Minimum,
            ..q.spec()
        };
        chunked_spec_case::<f32>(fin, fout, 1, false, i as u64 + 40, min(Quality::High));
        chunked_spec_case::<f64>(fin, fout, 2, true, i as u64 + 50, min(Quality::VeryHigh));
        let lin = Resampler::<f64>::new(fin, fout, 1, Quality::High.spec()).unwrap();
        let mp = Resampler::<f64>::new(fin, fout, 1, min(Quality::High)).unwrap();
        assert!(
            mp.latency() * 3 < lin.latency(),
            "{fin}->{fout}: {} vs {}",
            mp.latency(),
            lin.latency()
        );
        if fin > 100.0 {
            sine_spec_case::<f64>(fin, fout, min(Quality::VeryHigh), 1000.0, 1e-3);
            sine_spec_case::<f32>(fin, fout, min(Quality::High), 1000.0, 1e-3);
        }
    }
}

#[test]
fn every_level_agrees() {
    // every level within rounding of the baseline one; the fused levels (AVX2, AVX-512) agree
    // bit for bit
    let mut rng = Rng::new(3);
    let x = rng.vec_f32(2000, 1.0);
    let mut levels = crate::simd::available();
    levels.rotate_left(1); // the baseline first, the scalar reference last
    for fout in [44100.0, 44100.0 * 1.0001] {
        let mut first: Option<Vec<f32>> = None;
        let mut fused: Option<Vec<f32>> = None;
        for &level in &levels {
            let r = Resampler::<f32>::new(48000.0, fout, 1, Quality::High.spec()).unwrap();
            let len = oneshot_len(&r, x.len()) as usize;
            let mut y = vec![0f32; len];
            resample(level, r, &x, planar(2000), 2000, &mut y, planar(len)).unwrap();
            match &first {
                None => first = Some(y.clone()),
                Some(f) => {
                    for (a, b) in f.iter().zip(&y) {
                        assert!((a - b).abs() <= 1e-5, "{level:?}");
                    }
                }
            }
            if level >= Level::Avx2 {
                match &fused {
                    None => fused = Some(y),
                    Some(f) => assert_eq!(f, &y, "{level:?}"),
                }
            }
        }
    }
}

#[test]
fn empty_and_tiny_inputs() {
    for n in [0usize, 1, 2] {
        let x = vec![1.0f64; n];
        let y = oneshot(48000.0, 44100.0, 1, Quality::High, &x, n, false);
        assert_eq!(y.len(), (n * 147).div_ceil(160));
        assert!(y.iter().all(|v| v.is_finite()));
    }
    let mut r = Resampler::<f32>::new(3.0, 7.0, 2, Quality::Low.spec()).unwrap();
    assert_eq!(r.flush_size(), 0);
    let mut y = [0f32; 0];
    assert_eq!(
        r.process(current(), &[], planar(0), 0, &mut y, planar(0), 0)
            .unwrap(),
        (0, 0)
    );
}

#[test]
fn bad_rates_and_specs() {
    let s = Quality::High.spec();
    for (a, b) in [
        (0.0, 1.0),
        (-1.0, 1.0),
        (f64::NAN, 1.0),
        (1.0, f64::INFINITY),
        (1.0, 257.0),
        (257.0, 1.0),
    ] {
        assert!(Resampler::<f32>::new(a, b, 1, s).is_err(), "{a} {b}");
    }
    assert!(Resampler::<f32>::new(1.0, 256.0, 1, s).is_ok());
    assert!(Resampler::<f32>::new(256.0, 1.0, 1, s).is_ok());
    assert!(Resampler::<f32>::new(1.0, 1.0, 0, s).is_err());
    let bad = Spec { pass: 1.0, ..s };
    assert!(Resampler::<f32>::new(1.0, 2.0, 1, bad).is_err());
}

/// A ratio ramp on a live stream: every output is the input sine at the instant the ramp
/// formula gives, so the output is continuous.
#[test]
fn ratio_ramp_is_continuous() {
    for start in [147.0 / 160.0, 0.9187] {
        let fin = 48000.0;
        let mut r = Resampler::<f64>::new(fin, fin * start, 1, Quality::VeryHigh.spec()).unwrap();
        let f = 1000.0;
        let n = 20000;
        let x: Vec<f64> = (0..n)
            .map(|i| (2.0 * PI * f * i as f64 / fin).sin())
            .collect();
        let lat = r.latency();
        // first part at the creation ratio
        let first = 4000;
        let mut y = vec![0.0; 20000];
        let (used, made) = r
            .process(
                current(),
                &x[..first],
                planar(first),
                first,
                &mut y,
                planar(20000),
                20000,
            )
            .unwrap();
        assert_eq!(used, first);
        let target = start * 1.01;
        let ramp = 3000u64;
        r.set_ratio(target, ramp).unwrap();
        let mut y2 = vec![0.0; 40000];
        let (used2, made2) = r
            .process(
                current(),
                &x[first..],
                planar(n - first),
                n - first,
                &mut y2,
                planar(40000),
                40000,
            )
            .unwrap();
        assert_eq!(used2, n - first);
        // expected instants: steps of 1/start, then the ramp
        let s0 = 1.0 / start;
        let s1 = (2f64.powi(40) / target).round() / 2f64.powi(40);
        let mut t = -(lat as f64) * s0;
        let mut out = y[..made].to_vec();
        out.extend_from_slice(&y2[..made2]);
        let mut worst = 0.0f64;
        for (k, v) in out.iter().enumerate() {
            // the step from output k − 1 to output k
            if k > made {
                let j = (k - made) as f64;
                t += if j <= ramp as f64 {
                    s0 + (s1 - s0) * j / ramp as f64
                } else {
                    s1
                };
            } else if k > 0 {
                t += s0;
            }
            if t > 500.0 && t < (n - 500) as f64 {
                worst = worst.max((v - (2.0 * PI * f * t / fin).sin()).abs());
            }
        }
        assert!(worst < 1e-7, "start {start}: {worst:e}");
    }
}

/// A rational ratio whose exact phase table would be too large runs interpolated phases on the
/// exact clock: lengths stay `ceil(n·L/M)` and sines still land on their instants.
#[test]
fn large_rational_tables_interpolate_on_the_exact_clock() {
    let (fin, fout) = (36001.0, 2000.0);
    assert_eq!(rational(fin, fout), Some((2000, 36001)));
    let n = 200_000;
    let f = 300.0;
    let x: Vec<f64> = (0..n)
        .map(|i| (2.0 * PI * f * i as f64 / fin).sin())
        .collect();
    let y = oneshot(fin, fout, 1, Quality::VeryHigh, &x, n, false);
    assert_eq!(y.len() as u64, (n as u64 * 2000).div_ceil(36001));
    let mut worst = 0.0f64;
    for (m, v) in y.iter().enumerate().take(y.len() - 2000).skip(2000) {
        worst = worst.max((v - (2.0 * PI * f * m as f64 / fout).sin()).abs());
    }
    assert!(worst < 1e-8, "{worst:e}");
}

/// The `float`-in-`double` path equals the `double` resampler rounded once, chunked or not.
#[test]
fn wide_float_path_is_the_double_result_rounded() {
    use super::stream::{flush_wide, process_wide, resample_wide};
    let mut rng = Rng::new(11);
    let n = 2000;
    let ch = 2;
    let x32 = rng.vec_f32(n * ch, 1.0);
    let x64: Vec<f64> = x32.iter().map(|&v| v as f64).collect();
    let spec = Quality::VeryHigh.spec();
    let r = Resampler::<f64>::new(48000.0, 44100.0, ch, spec).unwrap();
    let len = oneshot_len(&r, n) as usize;
    let mut want = vec![0f64; len * ch];
    let il = Layout::interleaved(ch);
    resample(current(), r.clone(), &x64, il, n, &mut want, il).unwrap();
    let mut got = vec![0f32; len * ch];
    resample_wide(current(), r.clone(), &x32, il, n, &mut got, il).unwrap();
    for (a, b) in got.iter().zip(&want) {
        assert_eq!(*a, *b as f32);
    }
    // streamed in two pieces through the wide path
    let mut s = r;
    let lat = s.latency();
    let mut out = vec![0f32; (lat + len + 10) * ch];
    let (c1, p1) = process_wide(
        &mut s,
        current(),
        &x32[..700 * ch],
        il,
        700,
        &mut out,
        il,
        10_000,
    )
    .unwrap();
    assert_eq!(c1, 700);
    let (c2, p2) = process_wide(
        &mut s,
        current(),
        &x32[700 * ch..],
        il,
        n - 700,
        &mut out[p1 * ch..],
        il,
        10_000,
    )
    .unwrap();
    assert_eq!(c2, n - 700);
    let rest = s.flush_size() as usize;
    assert!(flush_wide(&mut s, current(), &mut out[(p1 + p2) * ch..], il, rest - 1).is_err());
    let p3 = flush_wide(&mut s, current(), &mut out[(p1 + p2) * ch..], il, rest).unwrap();
    assert_eq!(p1 + p2 + p3, lat + len);
    for (a, b) in out[lat * ch..(lat + len) * ch].iter().zip(&got) {
        assert_eq!(a, b);
    }
}

/// The `float` one-shot path runs in blocks: over several blocks, planar and interleaved, it is
/// still the `double` one-shot result rounded once.
#[test]
fn wide_float_blocks_are_the_double_result_rounded() {
    let mut rng = Rng::new(12);
    let n = 2 * 32_768 + 1_234;
    let ch = 2;
    let x32 = rng.vec_f32(n * ch, 1.0);
    let x64: Vec<f64> = x32.iter().map(|&v| v as f64).collect();
    for (fin, fout) in [(48000.0, 44100.0), (16000.0, 48000.0), (48000.0, 8000.0)] {
        let r = Resampler::<f64>::new(fin, fout, ch, Quality::VeryHigh.spec()).unwrap();
        let len = oneshot_len(&r, n) as usize;
        for (xl, yl) in [
            (Layout::interleaved(ch), Layout::interleaved(ch)),
            (Layout::planar(n), Layout::planar(len)),
        ] {
            let mut want = vec![0f64; len * ch];
            resample(current(), r.clone(), &x64, xl, n, &mut want, yl).unwrap();
            let mut got = vec![f32::NAN; len * ch];
            let k = super::stream::resample_wide(current(), r.clone(), &x32, xl, n, &mut got, yl);
            assert_eq!(k.unwrap(), len);
            for (a, b) in got.iter().zip(&want) {
                assert_eq!(*a, *b as f32, "{fin}->{fout}");
            }
        }
    }
}

/// Channels grouped to share coefficient loads give each channel exactly its mono result, for
/// every group size (1 to 4 and a remainder) and every level.
#[test]
fn grouped_channels_equal_mono_bit_for_bit() {
    let mut rng = Rng::new(21);
    let n = 1500;
    for ch in [2usize, 3, 4, 5, 7] {
        let x = rng.vec_f32(n * ch, 1.0);
        let x64: Vec<f64> = x.iter().map(|&v| v as f64).collect();
        for level in crate::simd::available() {
            let run = |ch: usize, x: &[f32]| {
                let r = Resampler::<f32>::new(48000.0, 44100.0, ch, Quality::High.spec()).unwrap();
                let len = oneshot_len(&r, n) as usize;
                let mut y = vec![f32::NAN; len * ch];
                resample(level, r, x, planar(n), n, &mut y, planar(len)).unwrap();
                (y, len)
            };
            let (all, len) = run(ch, &x);
            for c in 0..ch {
                let (mono, _) = run(1, &x[c * n..(c + 1) * n]);
                assert_eq!(
                    &all[c * len..(c + 1) * len],
                    &mono[..],
                    "ch {ch} c {c} {level:?}"
                );
            }
        }
        let all = oneshot::<f64>(44100.0, 48000.0, ch, Quality::VeryHigh, &x64, n, true);
        for c in 0..ch {
            let xc: Vec<f64> = (0..n).map(|t| x64[t * ch + c]).collect();
            let mono = oneshot::<f64>(44100.0, 48000.0, 1, Quality::VeryHigh, &xc, n, false);
            let got: Vec<f64> = (0..mono.len()).map(|t| all[t * ch + c]).collect();
            assert_eq!(got, mono, "f64 ch {ch} c {c}");
        }
    }
}
