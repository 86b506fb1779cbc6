//! Property tests on the safe core: random lengths, strides, channel counts, chunkings and
//! parameters against float64 references, with proptest's shrinking to a minimal failing case.
//!
//! Bounded for CI: `PROPTEST_CASES` (default 48 per property here). `make fuzz` runs them with
//! many more cases.

use proptest::prelude::*;
use sigkern::kernels::filter::fir::FirFilter;
use sigkern::kernels::filter::sos::SosFilter;
use sigkern::kernels::layout::Layout;
use sigkern::kernels::layout::{deinterleave_block, interleave_block};
use sigkern::kernels::pcm::{decode_at, decode_ref, encode_at, encode_ref, Pcm, PcmFloat, I24};
use sigkern::kernels::spectral::conv::{convolve, out_range, ConvMethod, ConvMode};
use sigkern::kernels::strided::{self, StridedRef};
use sigkern::kernels::{reduce, Src};
use sigkern::simd::available;

fn config() -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(48);
    ProptestConfig::with_cases(cases)
}

/// Neumaier's compensated sum: a float64 reference far more accurate than the bounds tested.
fn exact_sum(x: &[f64]) -> f64 {
    let (mut s, mut c) = (0.0f64, 0.0f64);
    for &v in x {
        let t = s + v;
        c += if s.abs() >= v.abs() {
            (s - t) + v
        } else {
            (v - t) + s
        };
        s = t;
    }
    s + c
}

/// Splits `n` into consecutive chunks whose sizes cycle through `sizes` (each ≥ 1).
fn chunks(n: usize, sizes: &[usize]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let (mut t, mut k) = (0, 0);
    while t < n {
        let m = sizes[k % sizes.len()].max(1).min(n - t);
        out.push((t, t + m));
        t += m;
        k += 1;
    }
    out
}

/// `y[t] = Σ_k h[k]·x[t−k]` in float64.
fn fir_ref(h: &[f64], x: &[f64]) -> Vec<f64> {
    (0..x.len())
        .map(|t| {
            let terms: Vec<f64> = (0..h.len().min(t + 1)).map(|k| h[k] * x[t - k]).collect();
            exact_sum(&terms)
        })
        .collect()
}

/// A stable section from a pole radius/angle and a zero pair: `[b0 b1 b2 1 a1 a2]`.
fn section(r: f64, th: f64, zr: f64, zth: f64, g: f64) -> [f64; 6] {
    [
        g,
        -2.0 * g * zr * zth.cos(),
        g * zr * zr,
        1.0,
        -2.0 * r * th.cos(),
        r * r,
    ]
}

/// Direct form I of a cascade, in float64.
fn sos_ref(sos: &[[f64; 6]], x: &[f64]) -> Vec<f64> {
    let mut y = x.to_vec();
    for s in sos {
        let (mut x1, mut x2, mut y1, mut y2) = (0.0, 0.0, 0.0, 0.0);
        for v in y.iter_mut() {
            let x0 = *v;
            let y0 = s[0] * x0 + s[1] * x1 + s[2] * x2 - s[4] * y1 - s[5] * y2;
            (x2, x1, y2, y1) = (x1, x0, y1, y0);
            *v = y0;
        }
    }
    y
}

/// A float from a raw pattern, biased towards the values PCM conversion must get right: exact
/// codes and half-codes (ties), the clamp edges, NaN, ±inf, denormals, huge values.
fn pcm_value(kind: u8, bits: u64, scale: f64) -> f64 {
    let k = (bits % 70_000) as f64 - 35_000.0;
    match kind % 8 {
        0 => k / scale,            // an exact code (within the range or beyond it)
        1 => (k + 0.5) / scale,    // a tie
        2 => f64::from_bits(bits), // any pattern: NaN, inf, denormal, huge
        3 => [1.0, -1.0, 1.0 - 0.5 / scale, -1.0 - 0.5 / scale][(bits % 4) as usize],
        4 => f64::MIN_POSITIVE * (bits % 1000) as f64 * 1e-10, // denormals
        _ => ((bits >> 11) as f64 / (1u64 << 53) as f64) * 2.2 - 1.1,
    }
}

fn check_pcm<S: Pcm + PartialEq, T: PcmFloat>(xs: &[f64]) -> Result<(), TestCaseError> {
    let x: Vec<T> = xs.iter().map(|&v| T::from_f64(v)).collect();
    let want: Vec<S> = x.iter().map(|&v| encode_ref::<S, T>(v)).collect();
    for level in available() {
        let mut y = vec![S::default(); x.len()];
        encode_at(level, &x, &mut y);
        for (i, (g, w)) in y.iter().zip(&want).enumerate() {
            prop_assert!(
                g == w,
                "{level:?} encode x[{i}] = {:?}: {g:?} vs {w:?}",
                x[i].to_f64()
            );
        }
        let mut back = vec![T::ZERO; x.len()];
        decode_at(level, &y, &mut back);
        for (i, (g, c)) in back.iter().zip(&y).enumerate() {
            let w: T = decode_ref::<S, T>(*c);
            prop_assert!(
                g.to_f64().to_bits() == w.to_f64().to_bits(),
                "{level:?} decode {i}"
            );
        }
    }
    Ok(())
}

/// The strided sum of the view of `xs` with `stride` (0 allowed for n ≤ 1 and for repeats) in a
/// span with `pad` unused elements agrees with a compensated float64 sum within the documented
/// 40·ε·Σ|x| at every SIMD level; the unit-stride view equals the contiguous sum bit for bit.
fn check_strided_sum(xs: &[f64], stride: isize, pad: usize) -> Result<(), TestCaseError> {
    let n = xs.len();
    let s = if n <= 1 && stride == 0 { 1 } else { stride };
    let step = s.unsigned_abs();
    let span_len = if n == 0 {
        pad
    } else {
        (n - 1) * step + 1 + pad
    };
    let mut span = vec![f64::NAN; span_len];
    // An empty view starts at 0 whatever its stride (the span may be empty too).
    let first = if n == 0 {
        0
    } else if s < 0 {
        span_len - 1 - pad
    } else {
        pad
    };
    if s == 0 {
        // stride 0 reads one element n times
        let xs0 = vec![xs.first().copied().unwrap_or(0.0); n];
        if n > 0 {
            span[first] = xs0[0];
        }
        let v = StridedRef::new(&span, first, 0, n).unwrap();
        let want = exact_sum(&xs0);
        let abs: f64 = xs0.iter().map(|v| v.abs()).sum();
        for level in available() {
            let got = strided::sum(level, v);
            prop_assert!(
                (got - want).abs() <= 40.0 * f64::EPSILON * abs,
                "{got} {want}"
            );
        }
        return Ok(());
    }
    for (i, &x) in xs.iter().enumerate() {
        span[(first as isize + i as isize * s) as usize] = x;
    }
    let v = StridedRef::new(&span, first, s, n).unwrap();
    let want = exact_sum(xs);
    let abs: f64 = xs.iter().map(|v| v.abs()).sum();
    for level in available() {
        let got = strided::sum(level, v);
        prop_assert!(
            (got - want).abs() <= 40.0 * f64::EPSILON * abs,
            "level {level:?} stride {s}: {got} vs {want}"
        );
        if s == 1 {
            prop_assert_eq!(got.to_bits(), reduce::sum(level, xs).to_bits());
        }
    }
    Ok(())
}

/// Empty, one- and two-element views at every stride and padding, the cases random lengths
/// reach rarely (an empty view with a negative stride in an empty span among them).
#[test]
fn strided_sum_short_views() {
    for n in 0..3 {
        let xs: Vec<f64> = (0..n).map(|i| 1.5 - i as f64).collect();
        for stride in -6isize..=6 {
            for pad in 0..4 {
                check_strided_sum(&xs, stride, pad)
                    .unwrap_or_else(|e| panic!("n {n} stride {stride} pad {pad}: {e}"));
            }
        }
    }
}

proptest! {
    #![proptest_config(config())]

    /// The strided sum of any view agrees with a compensated float64 sum within the documented
    /// 40·ε·Σ|x|, at every SIMD level; the unit-stride view equals the contiguous sum bit for bit.
    #[test]
    fn strided_sum_matches_reference(
        xs in prop::collection::vec(-1e6f64..1e6, 0..3000),
        stride in -6isize..=6,
        pad in 0usize..4,
    ) {
        check_strided_sum(&xs, stride, pad)?;
    }

    /// A streaming FIR filter over any chunking equals the float64 convolution (both forms: up
    /// to 160 taps direct, above that FFT overlap-save).
    #[test]
    fn fir_any_chunking_matches_reference(
        taps in prop::collection::vec(-1.0f64..1.0, 1..400),
        x in prop::collection::vec(-1.0f64..1.0, 0..2500),
        sizes in prop::collection::vec(1usize..700, 1..6),
    ) {
        let want = fir_ref(&taps, &x);
        let mut f = FirFilter::new(&taps).unwrap();
        let mut y = vec![0.0; x.len()];
        for (a, b) in chunks(x.len(), &sizes) {
            f.process(sigkern::simd::current(), Some(&x[a..b]), &mut y[a..b]).unwrap();
        }
        let scale: f64 = taps.iter().map(|v| v.abs()).sum::<f64>().max(1.0);
        for (t, (g, w)) in y.iter().zip(&want).enumerate() {
            prop_assert!((g - w).abs() <= 1e-12 * scale, "t={t}: {g} vs {w}");
        }
    }

    /// A biquad cascade on planar channels: any chunking is bit-identical to one call, and the
    /// result agrees with a float64 direct-form reference.
    #[test]
    fn sos_chunked_is_bit_identical_and_close(
        secs in prop::collection::vec(
            (0.0f64..0.9, 0.0f64..3.1, 0.0f64..1.0, 0.0f64..3.1, 0.1f64..1.0), 1..5),
        channels in 1usize..20,
        n in 0usize..400,
        sizes in prop::collection::vec(1usize..150, 1..5),
        seed in any::<u64>(),
    ) {
        let sos: Vec<[f64; 6]> = secs.iter().map(|&(r, th, zr, zth, g)| section(r, th, zr, zth, g)).collect();
        let flat: Vec<f64> = sos.iter().flatten().copied().collect();
        let mut s = seed | 1;
        let x: Vec<f64> = (0..channels * n)
            .map(|_| {
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                (s >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
            })
            .collect();
        let level = sigkern::simd::current();
        let mut one = SosFilter::<f64>::new(&flat, channels).unwrap();
        let mut y1 = vec![0.0; channels * n];
        one.process(level, Src::Slice(&x), Layout::planar(n), &mut y1, Layout::planar(n), n);
        let mut chunked = SosFilter::<f64>::new(&flat, channels).unwrap();
        let mut y2 = vec![0.0; channels * n];
        for (a, b) in chunks(n, &sizes) {
            // channel c's samples a..b, copied out and back (planar with stride b − a)
            let m = b - a;
            let xc: Vec<f64> = (0..channels).flat_map(|c| x[c * n + a..c * n + b].to_vec()).collect();
            let mut yc = vec![0.0; channels * m];
            chunked.process(level, Src::Slice(&xc), Layout::planar(m), &mut yc, Layout::planar(m), m);
            for c in 0..channels {
                y2[c * n + a..c * n + b].copy_from_slice(&yc[c * m..(c + 1) * m]);
            }
        }
        for (t, (a, b)) in y1.iter().zip(&y2).enumerate() {
            prop_assert_eq!(a.to_bits(), b.to_bits(), "sample {}", t);
        }
        for c in 0..channels {
            let want = sos_ref(&sos, &x[c * n..(c + 1) * n]);
            let scale = want.iter().fold(1.0f64, |m, v| m.max(v.abs()));
            for (t, (g, w)) in y1[c * n..(c + 1) * n].iter().zip(&want).enumerate() {
                prop_assert!((g - w).abs() <= 1e-9 * scale, "c={c} t={t}: {g} vs {w}");
            }
        }
    }

    /// Convolution and correlation in every mode and method equal the float64 direct sums.
    #[test]
    fn convolve_matches_reference(
        a in prop::collection::vec(-1.0f64..1.0, 1..600),
        b in prop::collection::vec(-1.0f64..1.0, 1..600),
        mode in 0usize..3,
        method in 0usize..3,
        correlate in any::<bool>(),
    ) {
        let mode = [ConvMode::Full, ConvMode::Same, ConvMode::Valid][mode];
        let method = [ConvMethod::Auto, ConvMethod::Direct, ConvMethod::Fft][method];
        let (ny, start) = out_range(a.len(), b.len(), mode).unwrap();
        let bb: Vec<f64> = if correlate { b.iter().rev().copied().collect() } else { b.clone() };
        let full: Vec<f64> = (0..a.len() + b.len() - 1)
            .map(|i| {
                let terms: Vec<f64> = (0..bb.len())
                    .filter(|&j| j <= i && i - j < a.len())
                    .map(|j| bb[j] * a[i - j])
                    .collect();
                exact_sum(&terms)
            })
            .collect();
        let mut y = vec![0.0; ny];
        convolve(&a, &b, mode, method, correlate, &mut y).unwrap();
        let scale = a.iter().map(|v| v.abs()).sum::<f64>() * b.iter().map(|v| v.abs()).sum::<f64>();
        for (i, g) in y.iter().enumerate() {
            let w = full[start + i];
            prop_assert!((g - w).abs() <= 1e-12 * scale.max(1.0), "i={i}: {g} vs {w}");
        }
    }
    /// Interleaved ↔ channel-major blocks for any channel count and frame count, at every SIMD
    /// level: exact (a permutation) and a round trip.
    #[test]
    fn layout_round_trip_is_exact(channels in 1usize..24, frames in 0usize..300, seed in any::<u64>()) {
        let n = channels * frames;
        let x: Vec<f32> = (0..n).map(|i| (i as f32) * 0.5 + (seed % 97) as f32).collect();
        for level in available() {
            let mut block = vec![0.0f32; n];
            deinterleave_block(level, &x, channels, &mut block).unwrap();
            for f in 0..frames {
                for c in 0..channels {
                    prop_assert_eq!(block[c * frames + f], x[f * channels + c]);
                }
            }
            let mut back = vec![0.0f32; n];
            interleave_block(level, &block, channels, &mut back).unwrap();
            prop_assert_eq!(&back, &x);
        }
    }

    /// Float → PCM and back at every SIMD level equal the float64 reference (scale, clamp,
    /// round half to even, NaN → 0) for every code type, on values biased towards ties, clamp
    /// edges and non-finite inputs.
    #[test]
    fn pcm_matches_reference(vals in prop::collection::vec((any::<u8>(), any::<u64>()), 0..200)) {
        let mk = |scale: f64| -> Vec<f64> { vals.iter().map(|&(k, b)| pcm_value(k, b, scale)).collect() };
        check_pcm::<i16, f32>(&mk(32768.0))?;
        check_pcm::<i16, f64>(&mk(32768.0))?;
        check_pcm::<u8, f32>(&mk(128.0))?;
        check_pcm::<u8, f64>(&mk(128.0))?;
        check_pcm::<I24, f32>(&mk(8388608.0))?;
        check_pcm::<I24, f64>(&mk(8388608.0))?;
        check_pcm::<i32, f32>(&mk(2147483648.0))?;
        check_pcm::<i32, f64>(&mk(2147483648.0))?;
    }
}
