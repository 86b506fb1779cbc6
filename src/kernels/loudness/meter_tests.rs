//! Meter tests: the EBU Tech 3341 / 3342 cases that are defined as tones and level sequences
//! (generated here), agreement with the `ebur128` crate on music-like material, chunking, and
//! the error paths.

use super::*;
use crate::kernels::testutil::Rng;
use crate::simd::{available, current};
use std::f64::consts::PI;

/// `(seconds, dBFS)` segments of a 1 kHz sine, the same in every channel of `levels_per_ch`
/// offsets (dB added per channel). Returns interleaved frames.
fn tone(rate: f64, segments: &[(f64, f64)], offsets: &[f64]) -> Vec<f64> {
    let ch = offsets.len();
    let mut out = Vec::new();
    let mut t0 = 0usize;
    for &(secs, db) in segments {
        let n = (secs * rate).round() as usize;
        for t in t0..t0 + n {
            let s = (2.0 * PI * 1000.0 * t as f64 / rate).sin();
            for off in offsets {
                out.push(s * 10f64.powf((db + off) / 20.0));
            }
        }
        t0 += n;
    }
    assert_eq!(out.len(), t0 * ch);
    out
}

fn meter_of(rate: f64, channels: usize, x: &[f64], tp: bool) -> Meter {
    let mut m = Meter::new(rate, channels, None, tp).unwrap();
    let n = x.len() / channels;
    m.add(
        current(),
        Frames {
            x,
            chan_step: 1,
            frame_step: channels,
            start: 0,
        },
        n,
    )
    .unwrap();
    m
}

fn close(what: &str, got: f64, want: f64, tol: f64) {
    assert!(
        (got - want).abs() <= tol,
        "{what}: got {got}, want {want} ± {tol}"
    );
}

const STEREO: [f64; 2] = [0.0, 0.0];

#[test]
fn tech3341_cases_1_to_6_at_several_rates() {
    for rate in [48000.0, 44100.0, 32000.0, 96000.0] {
        // 1 and 2: steady tones, M, S and I.
        for db in [-23.0, -33.0] {
            let m = meter_of(rate, 2, &tone(rate, &[(20.0, db)], &STEREO), false);
            let s = m.stats().unwrap();
            close("case 1/2 I", s.integrated, db, 0.1);
            close("case 1/2 M", s.momentary, db, 0.1);
            close("case 1/2 S", s.short_term, db, 0.1);
        }
        let cases: [&[(f64, f64)]; 3] = [
            &[(10.0, -36.0), (60.0, -23.0), (10.0, -36.0)],
            &[
                (10.0, -72.0),
                (10.0, -36.0),
                (60.0, -23.0),
                (10.0, -36.0),
                (10.0, -72.0),
            ],
            &[(20.0, -26.0), (20.1, -20.0), (20.0, -26.0)],
        ];
        for (i, seg) in cases.iter().enumerate() {
            let m = meter_of(rate, 2, &tone(rate, seg, &STEREO), false);
            close(
                &format!("case {} at {rate}", i + 3),
                m.integrated(),
                -23.0,
                0.1,
            );
        }
        // 6: 5.0 (L R C Ls Rs) at -28, -28, -24, -30, -30 dBFS.
        let x = tone(rate, &[(20.0, 0.0)], &[-28.0, -28.0, -24.0, -30.0, -30.0]);
        close(
            "case 6",
            meter_of(rate, 5, &x, false).integrated(),
            -23.0,
            0.1,
        );
    }
}

/// Feeds `x` in 100 ms pieces and returns `(momentary, short_term)` after each.
fn trace(rate: f64, x: &[f64]) -> Vec<(f64, f64)> {
    let mut m = Meter::new(rate, 2, None, false).unwrap();
    let step = (rate / 10.0) as usize;
    let n = x.len() / 2;
    let mut out = Vec::new();
    let mut t = 0;
    while t < n {
        let k = step.min(n - t);
        m.add(
            current(),
            Frames {
                x,
                chan_step: 1,
                frame_step: 2,
                start: t,
            },
            k,
        )
        .unwrap();
        t += k;
        let s = m.stats().unwrap();
        out.push((s.momentary, s.short_term));
    }
    out
}

#[test]
fn tech3341_case_9_constant_short_term_and_case_12_constant_momentary() {
    let rate = 48000.0;
    let seg9: Vec<(f64, f64)> = (0..20)
        .flat_map(|_| [(1.34, -20.0), (1.66, -30.0)])
        .collect();
    let tr = trace(rate, &tone(rate, &seg9, &STEREO));
    for (i, &(_, s)) in tr.iter().enumerate().skip(30) {
        close(&format!("case 9 S at step {i}"), s, -23.0, 0.1);
    }
    let seg12: Vec<(f64, f64)> = (0..20)
        .flat_map(|_| [(0.18, -20.0), (0.22, -30.0)])
        .collect();
    let tr = trace(rate, &tone(rate, &seg12, &STEREO));
    for (i, &(m, _)) in tr.iter().enumerate().skip(4) {
        close(&format!("case 12 M at step {i}"), m, -23.0, 0.1);
    }
}

#[test]
fn maximum_momentary_and_short_term_of_tone_bursts() {
    // Bursts of a 1 kHz tone between silences, as in Tech 3341 cases 10, 11, 13 and 14: the
    // maximum of a window of length W over a burst of length d <= W at level L is
    // L + 10·log10(d / W) (the burst fits entirely inside one window).
    let rate = 48000.0;
    let mut seg = vec![(1.0, -200.0)];
    let bursts = [
        (0.3, -20.0),
        (2.0, -26.0),
        (3.0, -23.0),
        (0.1, -18.0),
        (1.5, -22.0),
    ];
    for b in bursts {
        seg.push(b);
        seg.push((4.0, -200.0));
    }
    let m = meter_of(rate, 2, &tone(rate, &seg, &STEREO), false);
    let s = m.stats().unwrap();
    let want = |w: f64| {
        bursts
            .iter()
            .map(|&(d, l)| l + 10.0 * (d.min(w) / w).log10())
            .fold(f64::NEG_INFINITY, f64::max)
    };
    close("max S", s.max_short_term, want(3.0), 0.1);
    close("max M", s.max_momentary, want(0.4), 0.1);
}

#[test]
fn tech3341_true_peak_cases_15_to_19() {
    // 48 kHz sines at fs/4, fs/6, fs/8 with phases that put the peaks between samples.
    let rate = 48000.0;
    for (div, phase, db) in [
        (4.0, 0.0, -6.0),
        (4.0, 45.0, -6.0),
        (6.0, 60.0, -6.0),
        (8.0, 67.5, -6.0),
        (4.0, 45.0, 3.0),
    ] {
        let amp = 10f64.powf(db / 20.0);
        let f = rate / div;
        let n = 48000;
        let mut x = Vec::with_capacity(2 * n);
        for t in 0..n {
            // a 20 ms fade-in: an abrupt start would ring in any interpolator
            let fade = (t as f64 / 960.0).min(1.0);
            let v = fade * amp * (2.0 * PI * f * t as f64 / rate + f64::to_radians(phase)).sin();
            x.extend([v, v]);
        }
        for tp in [meter_of(rate, 2, &x, true).stats().unwrap().true_peak, {
            let x32: Vec<f32> = x.iter().map(|&v| v as f32).collect();
            let mut m = Meter::new(rate, 2, None, true).unwrap();
            m.add(
                current(),
                Frames {
                    x: &x32,
                    chan_step: 1,
                    frame_step: 2,
                    start: 0,
                },
                n,
            )
            .unwrap();
            m.stats().unwrap().true_peak
        }] {
            assert!(
                tp - db >= -0.4 && tp - db <= 0.2,
                "fs/{div} {phase}°: {tp} vs {db}"
            );
        }
    }
}

#[test]
fn tech3342_loudness_range_cases_1_to_4() {
    let rate = 48000.0;
    let cases: [(&[(f64, f64)], f64); 4] = [
        (&[(20.0, -20.0), (20.0, -30.0)], 10.0),
        (&[(20.0, -20.0), (20.0, -15.0)], 5.0),
        (&[(20.0, -40.0), (20.0, -20.0)], 20.0),
        (
            &[
                (20.0, -50.0),
                (20.0, -35.0),
                (20.0, -20.0),
                (20.0, -35.0),
                (20.0, -50.0),
            ],
            15.0,
        ),
    ];
    for (i, (seg, want)) in cases.iter().enumerate() {
        let m = meter_of(rate, 2, &tone(rate, seg, &STEREO), false);
        close(
            &format!("3342 case {}", i + 1),
            m.loudness_range().unwrap(),
            *want,
            1.0,
        );
    }
}

/// Music-like stereo: low-passed noise plus a few partials, with a level change every 1.7 s.
pub(crate) fn music(rate: f64, secs: f64, seed: u64) -> Vec<f64> {
    let mut rng = Rng::new(seed);
    let n = (secs * rate) as usize;
    let seg = (1.7 * rate) as usize;
    let mut lp = [0.0f64; 2];
    let mut gain = 0.1;
    let mut out = Vec::with_capacity(2 * n);
    for t in 0..n {
        if t % seg == 0 {
            gain = 10f64.powf((rng.uniform() * 20.0 - 25.0) / 20.0);
        }
        let tone = (2.0 * PI * 220.0 * t as f64 / rate).sin() * 0.3
            + (2.0 * PI * 3150.0 * t as f64 / rate).sin() * 0.1;
        for (c, l) in lp.iter_mut().enumerate() {
            *l = 0.8 * *l + 0.2 * rng.uniform();
            out.push(gain * (2.0 * *l + tone * (1.0 + 0.3 * c as f64)));
        }
    }
    out
}

#[test]
fn agrees_with_the_ebur128_crate_on_music_like_material() {
    use ebur128::{EbuR128, Mode};
    for (rate, seed) in [(48000u32, 1u64), (44100, 2), (96000, 3)] {
        let x = music(rate as f64, 30.0, seed);
        let ours = meter_of(rate as f64, 2, &x, true);
        let mut r = EbuR128::new(
            2,
            rate,
            Mode::I | Mode::LRA | Mode::TRUE_PEAK | Mode::SAMPLE_PEAK,
        )
        .unwrap();
        r.add_frames_f64(&x).unwrap();
        let s = ours.stats().unwrap();
        close(
            "integrated vs ebur128",
            s.integrated,
            r.loudness_global().unwrap(),
            1e-6,
        );
        // The crate takes a short-term value every second (the first at 3 s); the meter takes
        // one every 100 ms. On the crate's grid the algorithms agree exactly.
        let every_second = ours.short.iter().copied().step_by(10);
        close(
            "LRA vs ebur128",
            range_of(every_second).unwrap(),
            r.loudness_range().unwrap(),
            1e-6,
        );
        close(
            "LRA 10 Hz vs 1 Hz",
            s.loudness_range,
            r.loudness_range().unwrap(),
            2.0,
        );
        for c in 0..2 {
            let sp = amp_db(ours.sample_peaks()[c]);
            close(
                "sample peak",
                sp,
                amp_db(r.sample_peak(c as u32).unwrap()),
                1e-9,
            );
            close(
                "true peak",
                amp_db(ours.true_peaks()[c]),
                amp_db(r.true_peak(c as u32).unwrap()),
                0.1,
            );
        }
    }
}

#[test]
fn chunked_feeding_is_bit_identical_planar_and_interleaved_f32_and_f64() {
    let rate = 44100.0;
    let x = music(rate, 8.0, 9);
    let n = x.len() / 2;
    let x32: Vec<f32> = x.iter().map(|&v| v as f32).collect();
    let mut planar = vec![0.0f32; 2 * (n + 5)];
    for t in 0..n {
        planar[t] = x32[2 * t];
        planar[n + 5 + t] = x32[2 * t + 1];
    }
    let whole = {
        let mut m = Meter::new(rate, 2, None, true).unwrap();
        m.add(
            current(),
            Frames {
                x: &x32,
                chan_step: 1,
                frame_step: 2,
                start: 0,
            },
            n,
        )
        .unwrap();
        m.stats().unwrap()
    };
    assert!(whole.integrated.is_finite() && whole.loudness_range > 0.0);
    let mut rng = Rng::new(5);
    for level in available() {
        for layout in 0..2 {
            let mut m = Meter::new(rate, 2, None, true).unwrap();
            let mut t = 0;
            while t < n {
                let k = ((rng.next_u64() % 9000) as usize).min(n - t);
                let src = if layout == 0 {
                    Frames {
                        x: &x32[..],
                        chan_step: 1,
                        frame_step: 2,
                        start: t,
                    }
                } else {
                    Frames {
                        x: &planar[..],
                        chan_step: n + 5,
                        frame_step: 1,
                        start: t,
                    }
                };
                m.add(level, src, k).unwrap();
                t += k;
            }
            assert_eq!(m.stats().unwrap(), whole, "{level:?} layout {layout}");
        }
    }
    // f64 input of the same values gives the same loudness (computed in f64 either way)
    let m = meter_of(
        rate,
        2,
        &x32.iter().map(|&v| v as f64).collect::<Vec<_>>(),
        true,
    );
    let s = m.stats().unwrap();
    assert_eq!(s.integrated, whole.integrated);
    assert_eq!(s.loudness_range, whole.loudness_range);
    close("f64 vs f32 true peak", s.true_peak, whole.true_peak, 1e-4);
}

#[test]
fn weights_and_gates() {
    let rate = 48000.0;
    // An LFE channel (weight 0 in 5.1) does not count.
    let x = tone(
        rate,
        &[(10.0, -23.0)],
        &[0.0, 0.0, -200.0, 20.0, -200.0, -200.0],
    );
    let m = meter_of(rate, 6, &x, false);
    close("LFE excluded", m.integrated(), -23.0, 0.1);
    // Custom weights: doubling one channel's weight adds 10·log10(3/2) dB to a stereo tone.
    let x = tone(rate, &[(10.0, -23.0)], &STEREO);
    let mut m = Meter::new(rate, 2, Some(&[2.0, 1.0]), false).unwrap();
    m.add(
        current(),
        Frames {
            x: &x,
            chan_step: 1,
            frame_step: 2,
            start: 0,
        },
        x.len() / 2,
    )
    .unwrap();
    close(
        "weights",
        m.integrated(),
        -23.0 + 10.0 * 1.5f64.log10(),
        0.1,
    );
    // Silence and too-short input: -inf, LRA 0.
    let m = meter_of(rate, 2, &vec![0.0; 2 * 48000], true);
    let s = m.stats().unwrap();
    assert_eq!(s.integrated, f64::NEG_INFINITY);
    assert_eq!(s.true_peak, f64::NEG_INFINITY);
    assert_eq!(s.loudness_range, 0.0);
    let m = meter_of(rate, 2, &tone(rate, &[(0.35, -10.0)], &STEREO), false);
    assert_eq!(
        m.integrated(),
        f64::NEG_INFINITY,
        "no complete 400 ms block"
    );
    assert!(m.stats().unwrap().max_momentary.is_finite());
    // Below the absolute gate: -75 dBFS tone is gated out entirely.
    let m = meter_of(rate, 2, &tone(rate, &[(5.0, -75.0)], &STEREO), false);
    assert_eq!(m.integrated(), f64::NEG_INFINITY);
}

#[test]
fn bad_input_changes_nothing() {
    let mut m = Meter::new(48000.0, 2, None, true).unwrap();
    let x = tone(48000.0, &[(1.0, -20.0)], &STEREO);
    m.add(
        current(),
        Frames {
            x: &x,
            chan_step: 1,
            frame_step: 2,
            start: 0,
        },
        48000,
    )
    .unwrap();
    let before = m.stats().unwrap();
    for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
        let mut y = x.clone();
        y[2 * 30000 + 1] = bad;
        let e = m
            .add(
                current(),
                Frames {
                    x: &y,
                    chan_step: 1,
                    frame_step: 2,
                    start: 0,
                },
                48000,
            )
            .unwrap_err();
        assert_eq!(e.code(), crate::error::SK_ERR_NON_FINITE);
        assert!(e.to_string().contains("channel 1, frame 30000"), "{e}");
        assert_eq!(m.stats().unwrap(), before);
        assert_eq!(m.frames(), 48000);
    }
    for rate in [7999.0, 384001.0, f64::NAN, f64::INFINITY] {
        assert_eq!(
            Meter::new(rate, 2, None, false).unwrap_err().code(),
            crate::error::SK_ERR_BAD_ARGUMENT
        );
    }
    assert_eq!(
        Meter::new(48000.0, 0, None, false).unwrap_err().code(),
        crate::error::SK_ERR_LENGTH
    );
    assert_eq!(
        Meter::new(48000.0, 65, None, false).unwrap_err().code(),
        crate::error::SK_ERR_LENGTH
    );
    for w in [-1.0, f64::NAN] {
        assert_eq!(
            Meter::new(48000.0, 2, Some(&[1.0, w]), false)
                .unwrap_err()
                .code(),
            crate::error::SK_ERR_BAD_ARGUMENT
        );
    }
    // reset gives a new meter
    m.reset();
    assert_eq!(
        m.stats().unwrap(),
        Meter::new(48000.0, 2, None, true).unwrap().stats().unwrap()
    );
}

#[test]
fn normalize_gain_takes_the_smaller_of_loudness_and_peak() {
    close(
        "loudness side",
        normalize_gain(-30.0, -10.0, -23.0, -1.0),
        10f64.powf(7.0 / 20.0),
        1e-12,
    );
    close(
        "peak side",
        normalize_gain(-30.0, -3.0, -23.0, -1.0),
        10f64.powf(2.0 / 20.0),
        1e-12,
    );
    close(
        "silence",
        normalize_gain(f64::NEG_INFINITY, f64::NEG_INFINITY, -23.0, -1.0),
        1.0,
        0.0,
    );
    close(
        "gated out, peak known",
        normalize_gain(f64::NEG_INFINITY, -40.0, -23.0, -1.0),
        10f64.powf(39.0 / 20.0),
        1e-9,
    );
}

/// `x` (interleaved) fed in blocks of 4800 frames to a meter reserved with room for `seconds`
/// of exact history.
fn bounded_meter_of(rate: f64, channels: usize, x: &[f64], tp: bool, seconds: u64) -> Meter {
    let mut m = Meter::new(rate, channels, None, tp).unwrap();
    m.reserve_seconds(4800, seconds).unwrap();
    for blk in x.chunks(4800 * channels) {
        m.add(
            current(),
            Frames {
                x: blk,
                chan_step: 1,
                frame_step: channels,
                start: 0,
            },
            blk.len() / channels,
        )
        .unwrap();
    }
    m
}

/// A reserved meter gives bit-identical values while its lists have room; once they are full
/// it keeps constant memory (the lists folded into 0.1 LU histograms) and agrees with the full
/// lists within a bin, and with the `ebur128` crate in its histogram mode.
#[test]
fn bounded_history_agrees_with_the_full_lists_and_ebur128_histogram_mode() {
    use ebur128::{EbuR128, Mode};
    for (rate, seed) in [(48000u32, 4u64), (44100, 5)] {
        let x = music(rate as f64, 40.0, seed);
        let full = meter_of(rate as f64, 2, &x, false);
        let roomy = bounded_meter_of(rate as f64, 2, &x, false, 3600);
        assert!(!roomy.hist_blocks.active && !roomy.hist_short.active);
        assert_eq!(roomy.stats().unwrap(), full.stats().unwrap());

        let small = bounded_meter_of(rate as f64, 2, &x, false, 5);
        assert!(small.hist_blocks.active && small.hist_short.active);
        // constant memory: the lists kept their reserved room and hold nothing once folded
        assert!(small.blocks.is_empty() && small.blocks.capacity() < 100);
        assert!(small.short.is_empty() && small.short.capacity() < 100);
        let (sf, ss) = (full.stats().unwrap(), small.stats().unwrap());
        close("histogram integrated", ss.integrated, sf.integrated, 0.05);
        close("histogram LRA", ss.loudness_range, sf.loudness_range, 0.2);
        assert_eq!(ss.max_momentary, sf.max_momentary);
        assert_eq!(ss.short_term, sf.short_term);

        let mut r = EbuR128::new(2, rate, Mode::I | Mode::LRA | Mode::HISTOGRAM).unwrap();
        r.add_frames_f64(&x).unwrap();
        close(
            "integrated vs ebur128 histogram mode",
            ss.integrated,
            r.loudness_global().unwrap(),
            0.1,
        );
        // on the crate's 1 Hz grid of short-term values, a histogram of ours gives the crate's
        // range within a bin at each end
        let mut h = Histogram::default();
        h.reserve().unwrap();
        let mut every_second: Vec<f64> = full.short.iter().copied().step_by(10).collect();
        h.fold(&mut every_second);
        close(
            "LRA vs ebur128 histogram mode",
            h.range(),
            r.loudness_range().unwrap(),
            0.2,
        );
    }
}

/// Histogram edge cases: nothing above the gate, one value, values past the top bin.
#[test]
fn histogram_edges() {
    let mut h = Histogram::default();
    h.reserve().unwrap();
    h.fold(&mut vec![energy(-80.0), 0.0]);
    assert_eq!(h.integrated(), f64::NEG_INFINITY);
    assert_eq!(h.range(), 0.0);
    h.add(energy(-23.0));
    close("one value", h.integrated(), -23.0, 1e-9);
    assert_eq!(h.range(), 0.0);
    h.clear();
    h.fold(&mut vec![energy(45.0), energy(50.0)]);
    close(
        "open top bin",
        h.integrated(),
        lufs((energy(45.0) + energy(50.0)) / 2.0),
        1e-9,
    );
    assert!(h.integrated().is_finite());
}
