//! Float64 FFT timing at lengths that are not powers of two: sigkern's plans (which run these
//! lengths on the accuracy-first mixed-radix/Bluestein transform) against rustfft's complex
//! transform and realfft's real transform, side by side in one process. A plain timing loop
//! (no criterion): for each length and transform, several repeats of a batch of calls lasting
//! about `MS` milliseconds, the best per-call time kept (the machine is shared, so the minimum
//! is the least disturbed figure).
//!
//! Run: `cargo bench --bench fft_mixed` (about half a minute), or with lengths:
//! `cargo bench --bench fft_mixed -- 400 480 1000`. `SIGKERN_SIMD=avx2` etc. forces a level.

use realfft::RealFftPlanner;
use rustfft::num_complex::Complex;
use rustfft::FftPlanner;
use sigkern::kernels::spectral::fft::{FftKind, FftPlan, Norm};
use std::hint::black_box;
use std::time::Instant;

const SIZES: [usize; 10] = [400, 480, 960, 1000, 1920, 3072, 5120, 6000, 44100, 4099];
const MS: f64 = 30.0;
const REPEATS: usize = 7;

/// Best time per call of `f` in microseconds.
fn time(mut f: impl FnMut()) -> f64 {
    // calibrate the batch size to about MS milliseconds
    f();
    let t = Instant::now();
    let mut calls = 0usize;
    while t.elapsed().as_secs_f64() < 2e-3 {
        f();
        calls += 1;
    }
    let per = t.elapsed().as_secs_f64() / calls as f64;
    let batch = ((MS * 1e-3 / per) as usize).max(1);
    let mut best = f64::INFINITY;
    for _ in 0..REPEATS {
        let t = Instant::now();
        for _ in 0..batch {
            f();
        }
        best = best.min(t.elapsed().as_secs_f64() / batch as f64);
    }
    best * 1e6
}

fn main() {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let sizes = if args.is_empty() {
        SIZES.to_vec()
    } else {
        args
    };
    println!(
        "float64, µs per transform (best of {REPEATS}), SIMD level {}",
        sigkern::simd::current().name()
    );
    println!(
        "{:>7} | {:>9} {:>9} {:>6} | {:>9} {:>9} {:>6}",
        "n", "fft sk", "rustfft", "ratio", "rfft sk", "realfft", "ratio"
    );
    for n in sizes {
        let mut s = 0x2545_f491u32;
        let mut next = move || {
            s = s.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (s >> 8) as f64 / (1u32 << 23) as f64 - 1.0
        };
        let z: Vec<Complex<f64>> = (0..n).map(|_| Complex::new(next(), next())).collect();
        let x: Vec<f64> = (0..n).map(|_| next()).collect();

        // complex: sigkern's plan (copy in + in-place transform) against rustfft (same copy)
        let plan = FftPlan::<f64>::new(FftKind::Complex, n).unwrap();
        let mut ws = plan.workspace().unwrap();
        let mut y = z.clone();
        let t_sk = time(|| {
            plan.fft_ws(Some(black_box(&z)), &mut y, false, Norm::Backward, &mut ws);
            black_box(&y);
        });
        let rf = FftPlanner::<f64>::new().plan_fft_forward(n);
        let mut scratch = vec![Complex::new(0.0, 0.0); rf.get_inplace_scratch_len()];
        let t_rf = time(|| {
            y.copy_from_slice(black_box(&z));
            rf.process_with_scratch(&mut y, &mut scratch);
            black_box(&y);
        });

        // real: sigkern's plan against realfft (which destroys its input: copied each call)
        let rplan = FftPlan::<f64>::new(FftKind::Real, n).unwrap();
        let mut rws = rplan.workspace().unwrap();
        let mut ry = vec![Complex::new(0.0, 0.0); n / 2 + 1];
        let t_rsk = time(|| {
            rplan.rfft_ws(black_box(&x), &mut ry, Norm::Backward, &mut rws);
            black_box(&ry);
        });
        let r2c = RealFftPlanner::<f64>::new().plan_fft_forward(n);
        let mut rs = r2c.make_scratch_vec();
        let mut xb = x.clone();
        let t_rrf = time(|| {
            xb.copy_from_slice(black_box(&x));
            r2c.process_with_scratch(&mut xb, &mut ry, &mut rs).unwrap();
            black_box(&ry);
        });
        println!(
            "{n:>7} | {t_sk:>9.2} {t_rf:>9.2} {:>6.2} | {t_rsk:>9.2} {t_rrf:>9.2} {:>6.2}",
            t_sk / t_rf,
            t_rsk / t_rrf
        );
    }
}
