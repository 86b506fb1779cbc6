use super::*;
use crate::kernels::loudness::truepeak::{design, factor, interp_peak, HISTORY};
use crate::kernels::testutil::Rng;
use crate::simd::{available, current};

/// Either processor.
#[derive(Clone)]
enum P {
    D(Dynamics),
    L(Limiter),
}

impl P {
    fn run<T: Float>(
        &mut self,
        level: Level,
        x: &[T],
        key: Option<&[T]>,
        ch: usize,
        interleaved: bool,
    ) -> SkResult<Vec<T>> {
        let n = x.len() / ch;
        let l = if interleaved {
            Layout::interleaved(ch)
        } else {
            Layout::planar(n)
        };
        let mut out = vec![T::ZERO; x.len()];
        let b = Block {
            src: Src::Slice(x),
            xl: l,
            out: &mut out,
            yl: l,
            key: key.map(|k| (k, l)),
            channels: ch,
            n,
        };
        match self {
            P::D(d) => d.process(level, b)?,
            P::L(d) => d.process(level, b)?,
        }
        Ok(out)
    }
}

fn planar_chunk<T: Float>(x: &[T], ch: usize, n: usize, a: usize, b: usize) -> Vec<T> {
    let mut v = Vec::new();
    for c in 0..ch {
        v.extend_from_slice(&x[c * n + a..c * n + b]);
    }
    v
}

/// Music-like test signal: noise bursts with level changes, planar `ch × n`.
fn signal(ch: usize, n: usize, seed: u64) -> Vec<f64> {
    let mut r = Rng::new(seed);
    let mut v = vec![0.0; ch * n];
    for c in 0..ch {
        let mut lp = 0.0;
        for t in 0..n {
            let lvl = [0.02, 0.9, 0.3, 2.5, 0.0, 0.6][(t / 997) % 6];
            lp = 0.7 * lp + 0.3 * (r.uniform() * 2.0 - 1.0);
            v[c * n + t] = lvl * lp * (1.0 + 0.3 * c as f64);
        }
    }
    v
}

fn all_processors(rate: f64, ch: usize) -> Vec<P> {
    vec![
        P::D(Dynamics::envelope(rate, ch, 1.0, 50.0, Detector::Peak, false).unwrap()),
        P::D(Dynamics::envelope(rate, ch, 3.0, 80.0, Detector::Rms, true).unwrap()),
        P::D(
            Dynamics::compressor(
                rate,
                ch,
                -18.0,
                4.0,
                0.0,
                1.0,
                100.0,
                0.0,
                Detector::Peak,
                false,
            )
            .unwrap(),
        ),
        P::D(
            Dynamics::compressor(
                rate,
                ch,
                -24.0,
                8.0,
                6.0,
                5.0,
                50.0,
                6.0,
                Detector::Rms,
                true,
            )
            .unwrap(),
        ),
        P::D(
            Dynamics::compressor(
                rate,
                ch,
                -30.0,
                3.0,
                10.0,
                2.0,
                80.0,
                3.0,
                Detector::Rms,
                false,
            )
            .unwrap(),
        ),
        P::D(Dynamics::gate(rate, ch, -30.0, 10.0, 1.0, 100.0, 20.0, false).unwrap()),
        P::D(Dynamics::gate(rate, ch, -20.0, 2.0, 0.0, 30.0, 0.0, true).unwrap()),
        P::L(Limiter::new(rate, ch, -1.0, 5.0, 100.0).unwrap()),
        P::L(Limiter::new(rate, ch, -6.0, 1.0, 10.0).unwrap()),
    ]
}

#[test]
fn chunked_equals_one_call_bit_for_bit_planar_and_interleaved() {
    let (ch, n) = (3, 5000);
    let x = signal(ch, n, 1);
    let x32: Vec<f32> = x.iter().map(|&v| v as f32).collect();
    let xi: Vec<f64> = (0..n * ch).map(|i| x[(i % ch) * n + i / ch]).collect();
    for p0 in all_processors(48000.0, ch) {
        let whole = p0.clone().run(current(), &x, None, ch, false).unwrap();
        let whole32 = p0.clone().run(current(), &x32, None, ch, false).unwrap();
        let mut p = p0.clone();
        let mut got = vec![0.0; ch * n];
        let mut t = 0;
        for step in [1usize, 0, 7, 255, 256, 257, 1000, 3].iter().cycle() {
            if t >= n {
                break;
            }
            let e = (t + step).min(n);
            let part = planar_chunk(&x, ch, n, t, e);
            let y = p.run(current(), &part, None, ch, false).unwrap();
            for c in 0..ch {
                got[c * n + t..c * n + e].copy_from_slice(&y[c * (e - t)..(c + 1) * (e - t)]);
            }
            t = e;
        }
        assert_eq!(got, whole);
        // interleaved in chunks equals planar
        let mut p = p0.clone();
        let mut t = 0;
        while t < n {
            let e = (t + 333).min(n);
            let y = p
                .run(current(), &xi[t * ch..e * ch], None, ch, true)
                .unwrap();
            for i in 0..(e - t) * ch {
                assert_eq!(y[i], whole[(i % ch) * n + t + i / ch]);
            }
            t = e;
        }
        // f32 in, f64 state: the f32 output is the f64 computation on the f32 input, rounded
        let x32d: Vec<f64> = x32.iter().map(|&v| v as f64).collect();
        let w = p0.clone().run(current(), &x32d, None, ch, false).unwrap();
        for (a, b) in whole32.iter().zip(&w) {
            assert_eq!(*a, *b as f32);
        }
    }
}

#[test]
fn every_simd_level_gives_the_same_bits() {
    // 17 channels: a group of 16 lanes (moved through tile transposes) and one of 1; 3001
    // frames: a last block of 57 frames, 7 of them outside the last tile
    for (ch, n) in [(2, 3000), (17, 3001)] {
        let x = signal(ch, n, 2);
        for p0 in all_processors(44100.0, ch) {
            let want = p0.clone().run(Level::Scalar, &x, None, ch, false).unwrap();
            for l in available() {
                assert_eq!(
                    p0.clone().run(l, &x, None, ch, false).unwrap(),
                    want,
                    "{l:?}"
                );
            }
        }
    }
}

#[test]
fn channel_splits_over_threads_give_the_same_bits() {
    // unlinked processors only (linked ones never split)
    let unlinked = |rate: f64, ch: usize| -> Vec<Dynamics> {
        all_processors(rate, ch)
            .into_iter()
            .filter_map(|p| match p {
                P::D(d) if !d.p.link => Some(d),
                _ => None,
            })
            .collect()
    };
    for (ch, cuts) in [
        (2usize, vec![0usize, 1, 2]),
        (5, vec![0, 2, 5]),
        (16, vec![0, 8, 16]),
        (19, vec![0, 3, 11, 19]),
    ] {
        // 2601 frames: a last block of 41 frames, one outside the last 8 × 8 tile
        let n = 2601;
        let x = signal(ch, n, 7);
        let key: Vec<f64> = x.iter().rev().map(|v| v * 0.5).collect();
        for (d0, s0) in unlinked(48000.0, ch).into_iter().zip(unlinked(48000.0, 1)) {
            for with_key in [false, true] {
                // each channel alone (one lane, no tiles, one thread), two blocks in a row
                let mut want = [vec![0.0; n * ch], vec![0.0; n * ch]];
                for c in 0..ch {
                    let mut one = P::D(s0.clone());
                    let xc = &x[c * n..(c + 1) * n];
                    let kc = with_key.then_some(&key[c * n..(c + 1) * n]);
                    for w in want.iter_mut() {
                        let y = one.run(current(), xc, kc, 1, false).unwrap();
                        w[c * n..(c + 1) * n].copy_from_slice(&y);
                    }
                }
                // interleaved: never split
                let xi: Vec<f64> = (0..n * ch).map(|i| x[(i % ch) * n + i / ch]).collect();
                let ki: Vec<f64> = (0..n * ch).map(|i| key[(i % ch) * n + i / ch]).collect();
                let mut inter = P::D(d0.clone());
                for w in &want {
                    let y = inter
                        .run(current(), &xi, with_key.then_some(&ki[..]), ch, true)
                        .unwrap();
                    for i in 0..n * ch {
                        assert_eq!(y[i], w[(i % ch) * n + i / ch], "{ch} interleaved {i}");
                    }
                }
                // planar, cut by channels, out of place and in place, the same two blocks
                let l = Layout::planar(n);
                for in_place in [false, true] {
                    let mut d = d0.clone();
                    for w in &want {
                        let mut out = if in_place {
                            x.clone()
                        } else {
                            vec![0.0; x.len()]
                        };
                        let b = Block {
                            src: if in_place { Src::Dst } else { Src::Slice(&x) },
                            xl: l,
                            out: &mut out,
                            yl: l,
                            key: with_key.then_some((&key[..], l)),
                            channels: ch,
                            n,
                        };
                        d.process_cut(current(), b, &cuts).unwrap();
                        assert_eq!(&out, w, "{ch} {cuts:?}");
                    }
                }
            }
        }
    }
    // a block whose channel frames interleave cannot be cut: it runs whole
    let x = signal(4, 100, 3);
    let mut out = vec![0.0; 400];
    let b = Block {
        src: Src::Slice(&x),
        xl: Layout::interleaved(4),
        out: &mut out,
        yl: Layout::interleaved(4),
        key: None,
        channels: 4,
        n: 100,
    };
    assert!(b.split_channels(&[0, 2, 4]).is_err());
}

#[test]
fn limiter_chunks_and_threads_give_the_same_bits() {
    // 40 channels: chunks of 819 frames (not a multiple of the 256-frame blocks), so one call of
    // 2500 frames runs 4 chunks with the channels' peaks split over threads; 2 channels: chunks
    // of 16384 frames, whose next chunk's peaks are computed in pieces of channels and frames
    // beside each chunk's pass. Calls of 37 frames each run one chunk on one thread, calls of
    // 10007 frames mix both, and in place the next chunk's peaks wait for the pass.
    for (ch, n, chunk) in [(40, 2500, 819), (2, 39000, 16384)] {
        let x = signal(ch, n, 9);
        for p0 in [
            Limiter::new(48000.0, ch, -6.0, 1.0, 10.0).unwrap(),
            Limiter::new(96000.0, ch, -3.0, 5.0, 100.0).unwrap(),
        ] {
            assert_eq!(p0.chunk, chunk);
            let mut pw = P::L(p0.clone());
            let whole = pw.run(current(), &x, None, ch, false).unwrap();
            let history = |p: &P| match p {
                P::L(l) => l.history().to_vec(),
                P::D(_) => unreachable!(),
            };
            for step in [37, 10007] {
                let mut p = P::L(p0.clone());
                let mut t = 0;
                while t < n {
                    let e = (t + step).min(n);
                    let y = p
                        .run(current(), &planar_chunk(&x, ch, n, t, e), None, ch, false)
                        .unwrap();
                    for c in 0..ch {
                        assert_eq!(
                            &y[c * (e - t)..(c + 1) * (e - t)],
                            &whole[c * n + t..c * n + e],
                            "{ch} channels, channel {c}, frames {t}..{e}"
                        );
                    }
                    t = e;
                }
                assert_eq!(history(&p), history(&pw), "{ch} channels, steps of {step}");
            }
            // and in place
            let mut out = x.clone();
            let mut q = p0.clone();
            q.process(
                current(),
                Block {
                    src: Src::Dst,
                    xl: Layout::planar(n),
                    out: &mut out,
                    yl: Layout::planar(n),
                    key: None,
                    channels: ch,
                    n,
                },
            )
            .unwrap();
            assert_eq!(out, whole, "{ch} channels in place");
            assert_eq!(q.history(), history(&pw), "{ch} channels in place");
        }
    }
}

/// JUCE `BallisticsFilter` + `Compressor::processSample`, in f64 with libm.
fn juce_compressor(x: &[f64], rate: f64, thr_db: f64, ratio: f64, att: f64, rel: f64) -> Vec<f64> {
    let cte = |ms: f64| {
        if ms < 1e-3 {
            0.0
        } else {
            (-2.0 * std::f64::consts::PI * 1000.0 / rate / ms).exp()
        }
    };
    let (ca, cr) = (cte(att), cte(rel));
    let thr = 10f64.powf(thr_db / 20.0);
    let mut y = 0.0;
    x.iter()
        .map(|&v| {
            let a = v.abs();
            let c = if a > y { ca } else { cr };
            y = a + c * (y - a);
            let g = if y < thr {
                1.0
            } else {
                (y / thr).powf(1.0 / ratio - 1.0)
            };
            g * v
        })
        .collect()
}

#[test]
fn hard_knee_compressor_is_juce_formula() {
    let n = 20000;
    let x = signal(1, n, 3);
    for (thr, ratio, att, rel) in [
        (-20.0, 4.0, 1.0, 100.0),
        (-6.0, 20.0, 0.0, 10.0),
        (0.0, 1.0, 1.0, 100.0),
    ] {
        let mut p = P::D(
            Dynamics::compressor(
                48000.0,
                1,
                thr,
                ratio,
                0.0,
                att,
                rel,
                0.0,
                Detector::Peak,
                false,
            )
            .unwrap(),
        );
        let y = p.run(current(), &x, None, 1, false).unwrap();
        let want = juce_compressor(&x, 48000.0, thr, ratio, att, rel);
        for (a, b) in y.iter().zip(&want) {
            assert!((a - b).abs() <= 1e-11 * b.abs().max(1e-3), "{a} {b}");
        }
    }
}

#[test]
fn soft_knee_static_curve_and_makeup() {
    // a constant level after the envelope settled: gain follows the closed-form curve
    let rate = 48000.0;
    for level_db in [-40.0, -23.0, -20.0, -18.5, -17.0, -10.0, 0.0] {
        let a = 10f64.powf(level_db / 20.0);
        let x = vec![a; 4000];
        let mut p = P::D(
            Dynamics::compressor(
                rate,
                1,
                -20.0,
                4.0,
                6.0,
                0.0,
                0.0,
                3.0,
                Detector::Peak,
                false,
            )
            .unwrap(),
        );
        let y = p.run(current(), &x, None, 1, false).unwrap();
        let over = level_db + 20.0;
        let gr = if 2.0 * over <= -6.0 {
            0.0
        } else if 2.0 * over < 6.0 {
            (0.25 - 1.0) * (over + 3.0).powi(2) / 12.0
        } else {
            (0.25 - 1.0) * over
        };
        let want = a * 10f64.powf((gr + 3.0) / 20.0);
        assert!(
            (y[3999] - want).abs() < 1e-10 * want,
            "{level_db}: {} {want}",
            y[3999]
        );
    }
}

#[test]
fn sidechain_drives_the_gain_and_link_shares_it() {
    let n = 2000;
    let x = vec![0.1; 2 * n];
    let mut key = vec![0.0; 2 * n];
    key[..n].iter_mut().for_each(|v| *v = 1.0); // channel 0 loud, channel 1 silent
    let mk = |link| {
        P::D(
            Dynamics::compressor(
                48000.0,
                2,
                -20.0,
                10.0,
                0.0,
                0.0,
                0.0,
                0.0,
                Detector::Peak,
                link,
            )
            .unwrap(),
        )
    };
    let y = mk(false).run(current(), &x, Some(&key), 2, false).unwrap();
    assert!(y[n - 1] < 0.05 && (y[2 * n - 1] - 0.1).abs() < 1e-15);
    let y = mk(true).run(current(), &x, Some(&key), 2, false).unwrap();
    assert_eq!(y[n - 1], y[2 * n - 1]);
    assert!(y[n - 1] < 0.05);
}

#[test]
fn gate_closes_below_threshold_and_holds() {
    let rate = 10000.0;
    let n = 3000;
    let mut x = vec![0.0; n];
    for (t, v) in x.iter_mut().enumerate() {
        let a = if t < 1000 { 0.5 } else { 0.001 };
        *v = a * if t % 2 == 0 { 1.0 } else { -1.0 };
    }
    let run = |hold| {
        P::D(Dynamics::gate(rate, 1, -20.0, 100.0, 0.0, 1.0, hold, false).unwrap())
            .run(current(), &x, None, 1, false)
            .unwrap()
    };
    let y0 = run(0.0);
    let y1 = run(50.0); // 500 samples of hold
    assert_eq!(y0[500], x[500]);
    // without hold, the gate closes within ~ the 50 ms pre-detector release (~ 150 samples)
    assert!(y0[1400].abs() < 1e-6 * x[1400].abs());
    let open_until = |y: &[f64]| (1000..n).find(|&t| y[t].abs() < 0.5 * x[t].abs()).unwrap();
    let (c0, c1) = (open_until(&y0), open_until(&y1));
    assert!(c1 - c0 >= 499 && c1 - c0 <= 501, "{c0} {c1}");
}

#[test]
fn envelope_tracks_peak_and_rms() {
    let n = 48000;
    let x: Vec<f64> = (0..n).map(|t| (t as f64 * 0.1).sin()).collect();
    let mut p = P::D(Dynamics::envelope(48000.0, 1, 0.0, 1000.0, Detector::Peak, false).unwrap());
    let y = p.run(current(), &x, None, 1, false).unwrap();
    assert!((y[n - 1] - 1.0).abs() < 1e-3);
    let mut p = P::D(Dynamics::envelope(48000.0, 1, 500.0, 500.0, Detector::Rms, false).unwrap());
    let y = p.run(current(), &x, None, 1, false).unwrap();
    assert!((y[n - 1] - 0.5f64.sqrt()).abs() < 2e-2, "{}", y[n - 1]);
}

fn true_peak_db(y: &[f64], rate: f64) -> f64 {
    let ph = design(factor(rate));
    let mut buf = vec![0.0; HISTORY];
    buf.extend_from_slice(y);
    buf.extend(std::iter::repeat_n(0.0, HISTORY));
    let ip = interp_peak(Level::Scalar, &buf, &ph);
    let sp = y.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    20.0 * ip.max(sp).log10()
}

#[test]
fn limiter_output_true_peak_stays_under_the_ceiling() {
    for rate in [44100.0, 48000.0, 96000.0, 192000.0] {
        for (seed, ceiling, look, rel) in [
            (1u64, -1.0, 5.0, 100.0),
            (2, -0.1, 1.5, 10.0),
            (3, -6.0, 1.0, 10.0),
            (4, 0.0, 2.0, 50.0),
            (5, -3.0, 20.0, 1000.0),
        ] {
            let n = 20000;
            let mut r = Rng::new(seed);
            // hard material: loud near-Nyquist squares, impulses, sine at fs/4 with 45° phase, noise
            let x: Vec<f64> = (0..n)
                .map(|t| {
                    let seg = (t / 1500) % 5;
                    match seg {
                        0 => 4.0 * if (t / 2) % 2 == 0 { 1.0 } else { -1.0 },
                        1 => {
                            if t % 97 == 0 {
                                20.0
                            } else {
                                0.01
                            }
                        }
                        2 => {
                            3.0 * (std::f64::consts::FRAC_PI_2 * t as f64
                                + std::f64::consts::FRAC_PI_4)
                                .sin()
                        }
                        3 => 10.0 * (r.uniform() * 2.0 - 1.0),
                        _ => 0.5 * (t as f64 * 0.05).sin(),
                    }
                })
                .collect();
            let mut p = P::L(Limiter::new(rate, 1, ceiling, look, rel).unwrap());
            let y = p.run(current(), &x, None, 1, false).unwrap();
            let tp = true_peak_db(&y, rate);
            assert!(tp <= ceiling, "rate {rate} seed {seed}: {tp} > {ceiling}");
        }
    }
}

#[test]
fn limiter_passes_quiet_audio_delayed_by_its_latency() {
    let (ch, n) = (2, 4000);
    let x: Vec<f64> = signal(ch, n, 5).iter().map(|v| v * 0.1).collect();
    let l = Limiter::new(48000.0, ch, -1.0, 5.0, 100.0).unwrap();
    let d = l.latency();
    assert_eq!(d, 240 + 5 + 6);
    let y = P::L(l).run(current(), &x, None, ch, false).unwrap();
    for c in 0..ch {
        for t in 0..n {
            let want = if t < d { 0.0 } else { x[c * n + t - d] };
            assert_eq!(y[c * n + t], want);
        }
    }
}

/// The input check splits long planar blocks by channels over threads; it still names the
/// first bad channel in order (and the first bad frame in it), whichever thread finds it.
#[test]
fn non_finite_check_names_the_first_bad_channel() {
    let (ch, n) = (8, 150_000);
    assert!(channel_cuts(ch, n, 1).len() > 2 || crate::kernels::par::max_threads() == 1);
    let x = vec![0.25f32; ch * n];
    for (bad, want) in [
        (vec![(6, 5), (2, n - 1), (2, 7)], "channel 2, frame 7"),
        (vec![(7, n - 1)], "channel 7, frame 149999"),
        (vec![(0, 3), (5, 0)], "channel 0, frame 3"),
    ] {
        let mut v = x.clone();
        for &(c, t) in &bad {
            v[c * n + t] = f32::INFINITY;
        }
        for p0 in all_processors(48000.0, ch) {
            let e = p0.clone().run(current(), &v, None, ch, false).unwrap_err();
            assert!(e.to_string().contains(want), "{e} ({want})");
        }
    }
}

#[test]
fn non_finite_input_is_refused_and_changes_nothing() {
    let (ch, n) = (2, 600);
    let x = signal(ch, n, 6);
    for p0 in all_processors(48000.0, ch) {
        let mut p = p0.clone();
        let mut bad = x.clone();
        bad[n + 300] = f64::NAN;
        let e = p.run(current(), &bad, None, ch, false).unwrap_err();
        assert_eq!(e.code(), crate::error::SK_ERR_NON_FINITE);
        bad[n + 300] = f64::INFINITY;
        assert!(p.run(current(), &bad, None, ch, false).is_err());
        assert_eq!(
            p.run(current(), &x, None, ch, false).unwrap(),
            p0.clone().run(current(), &x, None, ch, false).unwrap()
        );
    }
    let mut d = P::D(
        Dynamics::compressor(
            48000.0,
            1,
            -10.0,
            2.0,
            0.0,
            1.0,
            1.0,
            0.0,
            Detector::Peak,
            false,
        )
        .unwrap(),
    );
    let key = vec![f64::NAN; 4];
    assert!(d.run(current(), &[0.0; 4], Some(&key), 1, false).is_err());
}

#[test]
fn reset_restores_the_fresh_state() {
    let (ch, n) = (2, 1000);
    let x = signal(ch, n, 7);
    for p0 in all_processors(48000.0, ch) {
        let mut p = p0.clone();
        let a = p.run(current(), &x, None, ch, false).unwrap();
        match &mut p {
            P::D(d) => d.reset(),
            P::L(l) => l.reset(),
        }
        assert_eq!(p.run(current(), &x, None, ch, false).unwrap(), a);
    }
}

#[test]
fn bad_parameters_are_refused() {
    use crate::error::{SK_ERR_BAD_ARGUMENT, SK_ERR_LENGTH};
    let c = |r: SkResult<Dynamics>| r.unwrap_err().code();
    assert_eq!(
        c(Dynamics::envelope(
            100.0,
            1,
            1.0,
            1.0,
            Detector::Peak,
            false
        )),
        SK_ERR_BAD_ARGUMENT
    );
    assert_eq!(
        c(Dynamics::envelope(
            f64::NAN,
            1,
            1.0,
            1.0,
            Detector::Peak,
            false
        )),
        SK_ERR_BAD_ARGUMENT
    );
    assert_eq!(
        c(Dynamics::envelope(
            48000.0,
            0,
            1.0,
            1.0,
            Detector::Peak,
            false
        )),
        SK_ERR_LENGTH
    );
    assert_eq!(
        c(Dynamics::envelope(
            48000.0,
            1,
            -1.0,
            1.0,
            Detector::Peak,
            false
        )),
        SK_ERR_BAD_ARGUMENT
    );
    assert_eq!(
        c(Dynamics::envelope(
            48000.0,
            1,
            1.0,
            f64::INFINITY,
            Detector::Peak,
            false
        )),
        SK_ERR_BAD_ARGUMENT
    );
    let comp = |thr: f64, ratio: f64, knee: f64| {
        c(Dynamics::compressor(
            48000.0,
            1,
            thr,
            ratio,
            knee,
            1.0,
            1.0,
            0.0,
            Detector::Peak,
            false,
        ))
    };
    assert_eq!(comp(f64::NAN, 2.0, 0.0), SK_ERR_BAD_ARGUMENT);
    assert_eq!(comp(0.0, 0.5, 0.0), SK_ERR_BAD_ARGUMENT);
    assert_eq!(comp(0.0, 2.0, -1.0), SK_ERR_BAD_ARGUMENT);
    assert_eq!(
        c(Dynamics::gate(48000.0, 1, 0.0, 2.0, 1.0, 1.0, -1.0, false)),
        SK_ERR_BAD_ARGUMENT
    );
    assert_eq!(
        Limiter::new(48000.0, 1, f64::NAN, 1.0, 10.0)
            .unwrap_err()
            .code(),
        SK_ERR_BAD_ARGUMENT
    );
    assert_eq!(
        Limiter::new(48000.0, 1, 0.0, 2000.0, 10.0)
            .unwrap_err()
            .code(),
        SK_ERR_BAD_ARGUMENT
    );
    assert_eq!(
        Limiter::new(48000.0, 1, 0.0, 0.5, 10.0).unwrap_err().code(),
        SK_ERR_BAD_ARGUMENT
    );
    assert_eq!(
        Limiter::new(48000.0, 1, 0.0, 5.0, 5.0).unwrap_err().code(),
        SK_ERR_BAD_ARGUMENT
    );
    assert_eq!(
        Limiter::new(48000.0, 0, 0.0, 1.0, 10.0).unwrap_err().code(),
        SK_ERR_LENGTH
    );
}

#[test]
fn denormal_and_huge_inputs_stay_finite() {
    let n = 3000;
    let mut x = vec![1e-310; n];
    x[100] = 1e300;
    x[200] = -1e300;
    for p0 in all_processors(48000.0, 1) {
        let y = p0.clone().run(current(), &x, None, 1, false).unwrap();
        assert!(y.iter().all(|v| v.is_finite()));
    }
}

#[test]
fn compressor_lanes_flush_like_one_channel() {
    // 16 channels (one group of 16 lanes: ballistics and gains in one loop at the SIMD levels)
    // whose states decay through FLUSH at different frames, against each channel alone at the
    // scalar level (separate passes)
    let (ch, n) = (16, 3000);
    let mut x = signal(ch, n, 11);
    for c in 0..ch {
        for t in 600 + 20 * c..n {
            x[c * n + t] = match t - 20 * c {
                600..=1199 => 1e-199 * (1.0 + (t % 7) as f64),
                1200..=1599 => 0.0,
                1600..=1999 => 1e-310,
                2000..=2099 => 1e-150,
                _ => x[c * n + t],
            };
        }
    }
    for (det, knee) in [(Detector::Peak, 0.0), (Detector::Rms, 6.0)] {
        let make = |k: usize| {
            Dynamics::compressor(48000.0, k, -150.0, 4.0, knee, 0.0, 1.0, 0.0, det, false).unwrap()
        };
        let mut want = vec![0.0; ch * n];
        for c in 0..ch {
            let y = P::D(make(1))
                .run(Level::Scalar, &x[c * n..(c + 1) * n], None, 1, false)
                .unwrap();
            want[c * n..(c + 1) * n].copy_from_slice(&y);
        }
        for l in available() {
            let got = P::D(make(ch)).run(l, &x, None, ch, false).unwrap();
            assert_eq!(got, want, "{l:?} {det:?}");
        }
    }
}

/// The envelope recursion one sample at a time, flushing below `FLUSH` at every sample: what
/// the block recursion (which skips the per-sample flush where no state falls below it) must
/// give bit for bit.
fn envelope_reference(x: &[f64], att: f64, rel: f64, rms: bool) -> Vec<f64> {
    let (ca, cr) = (1.0 - att, 1.0 - rel);
    let mut e = 0.0f64;
    x.iter()
        .map(|&v| {
            let l = if rms { (v * v).min(f64::MAX) } else { v.abs() };
            let va = att * e + ca * l;
            let vr = rel * e + cr * l;
            let w = if l > e { va } else { vr };
            e = if w < processor::FLUSH { 0.0 } else { w };
            if rms {
                e.sqrt()
            } else {
                e
            }
        })
        .collect()
}

#[test]
fn envelope_equals_the_per_sample_flushed_recursion() {
    let n = 3000;
    // loud, then tiny values that decay through FLUSH inside a block, then denormals, zeros
    // and a restart
    let mut x = signal(1, n, 9);
    for (t, v) in x.iter_mut().enumerate().skip(600) {
        *v = match t {
            600..=1199 => 1e-199 * (1.0 + (t % 7) as f64),
            1200..=1599 => 0.0,
            1600..=1999 => 1e-310,
            2000..=2099 => 1e-150,
            _ => *v,
        };
    }
    for (det, rms) in [(Detector::Peak, false), (Detector::Rms, true)] {
        for (att_ms, rel_ms) in [(0.0f64, 1.0f64), (1.0, 50.0), (10.0, 0.0)] {
            let d = Dynamics::envelope(48000.0, 1, att_ms, rel_ms, det, false).unwrap();
            let (att, rel) = (
                ballistic_coef(48000.0, att_ms),
                ballistic_coef(48000.0, rel_ms),
            );
            let want = envelope_reference(&x, att, rel, rms);
            for l in available() {
                let got: Vec<f64> = P::D(d.clone()).run(l, &x, None, 1, false).unwrap();
                for (t, (a, b)) in got.iter().zip(&want).enumerate() {
                    assert_eq!(
                        a.to_bits(),
                        b.to_bits(),
                        "{l:?} {det:?} {att_ms} {rel_ms} t {t}"
                    );
                }
            }
        }
    }
}

#[test]
fn lane_groups_equal_each_channel_alone_in_every_layout() {
    // 9 channels: a group of 8 lanes (levels and gains moved through 8 × 8 tiles straight from
    // and to the channels) and one of 1; 1003 frames: 3 outside the last tile. In place, into a
    // separate output, into an output with a wider channel stride (tiles), and into an
    // interleaved output (tiles in, one lane at a time out); f32 and f64; every level.
    let (ch, n) = (9, 1003);
    let x = signal(ch, n, 23);
    let x32: Vec<f32> = x.iter().map(|&v| v as f32).collect();
    // the same processors, made for one channel
    for (p0, p1) in all_processors(48000.0, ch)
        .into_iter()
        .zip(all_processors(48000.0, 1))
    {
        let (P::D(d0), P::D(d1)) = (p0, p1) else {
            continue;
        };
        if d0.p.link {
            continue;
        }
        let alone = |_c: usize| d1.clone();
        let mut want = vec![0.0f64; ch * n];
        let mut want32 = vec![0.0f32; ch * n];
        for c in 0..ch {
            let y = P::D(alone(c))
                .run(Level::Scalar, &x[c * n..(c + 1) * n], None, 1, false)
                .unwrap();
            want[c * n..(c + 1) * n].copy_from_slice(&y);
            let y = P::D(alone(c))
                .run(Level::Scalar, &x32[c * n..(c + 1) * n], None, 1, false)
                .unwrap();
            want32[c * n..(c + 1) * n].copy_from_slice(&y);
        }
        for l in available() {
            fn layouts<T: Float>(
                d0: &Dynamics,
                l: Level,
                x: &[T],
                want: &[T],
                ch: usize,
                n: usize,
            ) {
                let planar = Layout::planar(n);
                // in place
                let mut y = x.to_vec();
                d0.clone()
                    .process(
                        l,
                        Block {
                            src: Src::Dst,
                            xl: planar,
                            out: &mut y,
                            yl: planar,
                            key: None,
                            channels: ch,
                            n,
                        },
                    )
                    .unwrap();
                assert_eq!(y, want, "in place {l:?}");
                // separate outputs: planar with channel stride n + 5, and interleaved
                for yl in [Layout::planar(n + 5), Layout::interleaved(ch)] {
                    let mut y = vec![T::ZERO; ch * (n + 5)];
                    d0.clone()
                        .process(
                            l,
                            Block {
                                src: Src::Slice(x),
                                xl: planar,
                                out: &mut y,
                                yl,
                                key: None,
                                channels: ch,
                                n,
                            },
                        )
                        .unwrap();
                    for c in 0..ch {
                        for t in 0..n {
                            assert_eq!(y[c * yl.ch + t * yl.t], want[c * n + t], "{l:?} {yl:?}");
                        }
                    }
                }
            }
            layouts(&d0, l, &x, &want, ch, n);
            layouts(&d0, l, &x32, &want32, ch, n);
        }
    }
}

#[test]
fn rows8_scales_eight_rows_and_refuses_overlapping_ones() {
    let (ch, n) = (9, 24);
    let x: Vec<f32> = (0..ch * n).map(|i| i as f32 - 100.0).collect();
    let mut g = [[0.0f64; 8]; 8];
    for (r, row) in g.iter_mut().enumerate() {
        for (k, v) in row.iter_mut().enumerate() {
            *v = 0.5 + (r * 8 + k) as f64 / 64.0;
        }
    }
    // rows of channels 1..9, frames 4..20; the tile at frame 8 of those rows
    let want = |x: &[f32], c: usize, t: usize| {
        if c >= 1 && (12..20).contains(&t) {
            (x[c * n + t] as f64 * g[c - 1][t - 12]) as f32
        } else {
            x[c * n + t]
        }
    };
    for in_place in [false, true] {
        let mut out = if in_place {
            x.clone()
        } else {
            vec![7.0f32; ch * n]
        };
        let mut b = Block {
            src: if in_place { Src::Dst } else { Src::Slice(&x) },
            xl: Layout::planar(n),
            out: &mut out,
            yl: Layout::planar(n),
            key: None,
            channels: ch,
            n,
        };
        b.rows8(1, 4, 16).unwrap().scale8(8, &g);
        for c in 0..ch {
            for t in 0..n {
                let w = if in_place || (c >= 1 && (12..20).contains(&t)) {
                    want(&x, c, t)
                } else {
                    7.0
                };
                assert_eq!(
                    out[c * n + t],
                    w,
                    "in place {in_place}, channel {c}, frame {t}"
                );
            }
        }
    }
    // output channels 16 apart cannot hold rows of 17 frames; strided frames are not rows
    let mut out = vec![0.0f32; ch * n];
    let mut b = Block {
        src: Src::Slice(&x),
        xl: Layout::planar(n),
        out: &mut out,
        yl: Layout { ch: 16, t: 1 },
        key: None,
        channels: 8,
        n: 16,
    };
    assert!(b.rows8(0, 0, 16).is_some() && b.rows8(0, 0, 17).is_none());
    b.yl = Layout::interleaved(8);
    assert!(b.rows8(0, 0, 8).is_none());
    // rows past the end of the output are refused, not sliced
    b.yl = Layout::planar(n);
    b.src = Src::Dst;
    assert!(b.rows8(2, 0, n).is_none() && b.rows8(1, 0, n).is_some());
    assert!(b.rows8(1, 1, n).is_none() && b.rows8(1, 1, n - 1).is_some());
}
