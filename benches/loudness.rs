//! sigkern's loudness meter next to the `ebur128` crate (libebur128's algorithm in Rust) on the
//! same 10 s of stereo 48 kHz music-like material, in one process; prints the best of several
//! runs and the ratio. `cargo bench --bench loudness`.

use sigkern::kernels::loudness::kweight::Frames;
use sigkern::kernels::loudness::Meter;
use std::time::Instant;

fn material(rate: f64, secs: f64) -> Vec<f32> {
    let n = (rate * secs) as usize;
    let mut s = 0x2545_F491_4F6C_DD1Du64;
    let mut lp = [0.0f64; 2];
    let mut out = Vec::with_capacity(2 * n);
    for t in 0..n {
        let g = 10f64.powf(-(((t / 81600) % 7) as f64) * 3.0 / 20.0);
        let tone = (2.0 * std::f64::consts::PI * 220.0 * t as f64 / rate).sin() * 0.2;
        for l in lp.iter_mut() {
            s ^= s >> 12;
            s ^= s << 25;
            s ^= s >> 27;
            let u =
                (s.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 11) as f64 / (1u64 << 53) as f64 - 0.5;
            *l = 0.8 * *l + 0.2 * u;
            out.push((g * (*l + tone)) as f32);
        }
    }
    out
}

fn best(runs: usize, mut f: impl FnMut() -> f64) -> (f64, f64) {
    let mut t = f64::INFINITY;
    let mut v = 0.0;
    for _ in 0..runs {
        let t0 = Instant::now();
        v = f();
        t = t.min(t0.elapsed().as_secs_f64() * 1e3);
    }
    (t, v)
}

fn main() {
    use ebur128::{EbuR128, Mode};
    let rate = 48000u32;
    let x = material(rate as f64, 10.0);
    let n = x.len() / 2;
    let level = sigkern::simd::current();
    println!(
        "10 s stereo 48 kHz, f32 interleaved, best of 7 (ms); SIMD level {}",
        level.name()
    );
    println!(
        "{:<34} {:>10} {:>10} {:>8}",
        "measurement", "ebur128", "sigkern", "ratio"
    );
    for (name, tp, modes) in [
        ("integrated", false, Mode::I),
        (
            "integrated + LRA + true peak",
            true,
            Mode::I | Mode::LRA | Mode::TRUE_PEAK,
        ),
    ] {
        let (te, ve) = best(7, || {
            let mut r = EbuR128::new(2, rate, modes).unwrap();
            r.add_frames_f32(&x).unwrap();
            let mut v = r.loudness_global().unwrap();
            if tp {
                v +=
                    r.loudness_range().unwrap() + r.true_peak(0).unwrap() + r.true_peak(1).unwrap();
            }
            v
        });
        let (ts, vs) = best(7, || {
            let mut m = Meter::new(rate as f64, 2, None, tp).unwrap();
            m.add(
                level,
                Frames {
                    x: &x,
                    chan_step: 1,
                    frame_step: 2,
                    start: 0,
                },
                n,
            )
            .unwrap();
            let mut v = m.integrated();
            if tp {
                v += m.loudness_range().unwrap() + m.true_peaks()[0] + m.true_peaks()[1];
            }
            v
        });
        assert!(ve.is_finite() && vs.is_finite());
        println!("{name:<34} {te:>10.2} {ts:>10.2} {:>7.1}x", te / ts);
    }
}
