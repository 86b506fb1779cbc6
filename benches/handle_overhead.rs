//! What a handle call adds over its kernel, at 1 frame: `sk_biquad_f32_process` on one mono
//! frame of a two-section cascade against `SosFilter::process` on the same frame called directly
//! (the kernel alone: no boundary, no argument checks, no handle lookup), side by side in one run.
//! The difference is the whole cost of the C call: the panic boundary, the argument checks and
//! the handle table's claim and release.
//!
//! Run: `cargo bench --bench handle_overhead` (prints ns per call, best of 15 rounds of thread
//! CPU time). A benchmark, not a test.

use sigkern::error::SK_OK;
use sigkern::ffi::filter::{sk_biquad_f32_new, sk_biquad_f32_process, sk_biquad_free, SkBiquad};
use sigkern::kernels::filter::sos::SosFilter;
use sigkern::kernels::layout::Layout;
use sigkern::kernels::Src;
use sigkern::simd::current;
use std::hint::black_box;

const SOS: [f64; 12] = [
    0.004824343357716228,
    0.009648686715432456,
    0.004824343357716228,
    1.0,
    -1.0485995763626117,
    0.2961403575616696,
    1.0,
    2.0,
    1.0,
    1.0,
    -1.3209134308194264,
    0.6327387928852763,
];

/// Thread CPU time in seconds (time spent descheduled on a busy machine is not counted).
fn cpu_s() -> f64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid timespec to write.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9
}

fn best_ns(calls: usize, rounds: usize, mut f: impl FnMut()) -> f64 {
    (0..rounds)
        .map(|_| {
            let t0 = cpu_s();
            for _ in 0..calls {
                f();
            }
            (cpu_s() - t0) / calls as f64 * 1e9
        })
        .fold(f64::INFINITY, f64::min)
}

fn main() {
    let level = current();
    let mut direct = SosFilter::<f32>::new(&SOS, 1).unwrap();
    let mut h: *mut SkBiquad = std::ptr::null_mut();
    // SAFETY: SOS holds 2 × 6 doubles; `h` is writable.
    let status = unsafe { sk_biquad_f32_new(SOS.as_ptr(), 1, &mut h, 2) };
    assert_eq!(status, SK_OK);
    let x = [0.25f32];
    let mut y = [0f32];
    let (calls, rounds) = (2_000_000, 15);
    let mut kernel = 0.0;
    let mut call = 0.0;
    // alternate, so both see the same machine load
    for _ in 0..3 {
        let k = best_ns(calls, rounds / 3, || {
            direct.process(
                level,
                Src::Slice(black_box(&x[..])),
                Layout::planar(1),
                black_box(&mut y[..]),
                Layout::planar(1),
                1,
            )
        });
        let c = best_ns(calls, rounds / 3, || {
            // SAFETY: one float each; `h` is live.
            let rc = unsafe {
                sk_biquad_f32_process(black_box(h), x.as_ptr(), 1, black_box(y.as_mut_ptr()), 1, 1)
            };
            assert_eq!(rc, SK_OK);
        });
        kernel = if kernel == 0.0 {
            k
        } else {
            f64::min(kernel, k)
        };
        call = if call == 0.0 { c } else { f64::min(call, c) };
    }
    // SAFETY: `h` is live and freed once.
    assert_eq!(unsafe { sk_biquad_free(h) }, SK_OK);
    println!("ns per call at 1 frame (mono, 2 sections), best of {rounds} rounds of CPU time:");
    println!("  SosFilter::process (kernel alone)      {kernel:6.1}");
    println!("  sk_biquad_f32_process (C call)          {call:6.1}");
    println!(
        "  handle-call overhead                    {:6.1}",
        call - kernel
    );
}
