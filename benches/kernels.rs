//! Criterion benchmarks of the issue-2 kernels, called through the exported `sk_*` functions
//! (exactly what a C caller gets: argument validation, alias checks, the panic boundary and the
//! SIMD dispatch included).
//!
//! Every kernel runs at n = 256, 4096, 65536, 1M and 16M elements. Throughput is reported as
//! bytes moved: every input stream read plus every output stream written (`add` = 3 streams,
//! `scale` = 2, `sum` = 1, `fill` = 1, `axpy` = 3: x read, y read, y written). The group
//! `memcpy_f32` (`std::ptr::copy_nonoverlapping`, 2 streams) is the bandwidth reference at each
//! n. Buffers come from `Vec` (the system allocator), so large ones have the same 16-byte-mod-64
//! alignment numpy arrays usually have; like numpy's, buffers of 4 MiB and more are advised to
//! use transparent huge pages (`madvise(MADV_HUGEPAGE)`).
//!
//! Run: `cargo bench --bench kernels` (about three minutes), or filter, e.g.
//! `cargo bench --bench kernels -- 'sum_f32|memcpy'` or `-- '/16777216'`.

use criterion::measurement::WallTime;
use criterion::{
    criterion_group, criterion_main, BenchmarkGroup, BenchmarkId, Criterion, SamplingMode,
    Throughput,
};
use sigkern::error::SK_OK;
use sigkern::ffi::elementwise::*;
use sigkern::ffi::memory::*;
use sigkern::ffi::reduce::*;
use std::hint::black_box;
use std::mem::size_of;
use std::time::Duration;

const SIZES: [usize; 5] = [256, 4096, 65536, 1 << 20, 1 << 24];

/// Operands of one benchmark: two inputs (`z` has no zeros, for `div`), an output, a scalar out.
struct Bufs<T> {
    x: Vec<T>,
    z: Vec<T>,
    y: Vec<T>,
    out: T,
}

impl<T: Copy + Default + From<f32>> Bufs<T> {
    fn new(n: usize) -> Self {
        // deterministic values in [-1, 1) (an LCG), no zeros in z
        let mut s = 0x2545_f491u32;
        let mut next = move || {
            s = s.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (s >> 8) as f32 / (1u32 << 23) as f32 - 1.0
        };
        let x = alloc(n, || T::from(next()));
        let z = alloc(n, || T::from(1.5 + next().abs()));
        Bufs {
            x,
            z,
            y: alloc(n, || T::from(0.5)),
            out: T::default(),
        }
    }
}

/// A vector of `n` values from `f`. Like numpy for its arrays, large buffers are advised to use
/// transparent huge pages before they are first touched: with 4 KiB pages a 64 MiB stream is
/// about 30 % slower on this kind of machine, and numpy's buffers would not be comparable.
fn alloc<T>(n: usize, f: impl FnMut() -> T) -> Vec<T> {
    let mut v = Vec::with_capacity(n);
    advise_huge_pages(v.as_ptr() as usize, n * size_of::<T>());
    v.extend(std::iter::repeat_with(f).take(n));
    v
}

#[cfg(target_os = "linux")]
fn advise_huge_pages(addr: usize, bytes: usize) {
    if bytes < 4 << 20 {
        return;
    }
    let start = (addr + 4095) & !4095;
    let end = (addr + bytes) & !4095;
    // SAFETY: advisory only (no memory is accessed or freed); the page range lies inside the
    // vector's own allocation. A failure just leaves the default page size.
    unsafe { libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE) };
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_addr: usize, _bytes: usize) {}

fn configure(g: &mut BenchmarkGroup<'_, WallTime>, n: usize) {
    g.warm_up_time(Duration::from_millis(200));
    if n >= 1 << 20 {
        // a call takes 0.1-15 ms: few, equally sized samples
        g.sampling_mode(SamplingMode::Flat);
        g.sample_size(10);
        g.measurement_time(Duration::from_millis(800));
    } else {
        g.sampling_mode(SamplingMode::Auto);
        g.sample_size(30);
        g.measurement_time(Duration::from_millis(500));
    }
}

/// Benchmarks `f` (one call of an `sk_*` function on `Bufs`, returning its status) at every
/// size; `streams` is the number of n-element streams it reads plus writes.
fn group<T, F>(c: &mut Criterion, name: &str, streams: usize, mut f: F)
where
    T: Copy + Default + From<f32>,
    F: FnMut(&mut Bufs<T>) -> i32,
{
    let mut g = c.benchmark_group(name);
    for n in SIZES {
        let mut b = Bufs::<T>::new(n);
        // a kernel that fails would be timed doing nothing: check it once first
        assert_eq!(f(&mut b), SK_OK, "{name} n = {n} failed");
        configure(&mut g, n);
        g.throughput(Throughput::Bytes((streams * n * size_of::<T>()) as u64));
        g.bench_function(BenchmarkId::from_parameter(n), |bench| {
            bench.iter(|| black_box(f(black_box(&mut b))))
        });
    }
    g.finish();
}

fn memcpy_reference(c: &mut Criterion) {
    group::<f32, _>(c, "memcpy_f32", 2, |b| {
        let n = b.x.len();
        // SAFETY: two distinct vectors of n elements each.
        unsafe { std::ptr::copy_nonoverlapping(b.x.as_ptr(), b.y.as_mut_ptr(), n) };
        SK_OK
    });
}

fn memory(c: &mut Criterion) {
    // SAFETY: `b.x` read, `b.y` written: distinct live vectors of `b.x.len()` values.
    group::<f32, _>(c, "copy_f32", 2, |b| unsafe {
        sk_copy_f32(b.x.as_ptr(), b.y.as_mut_ptr(), b.x.len())
    });
    // SAFETY: `b.y` (`b.y.len()` values) only written.
    group::<f32, _>(c, "fill_f32", 1, |b| unsafe {
        sk_fill_f32(0.25, b.y.as_mut_ptr(), b.y.len())
    });
    // SAFETY: `b.x` read, `b.y` written: distinct live vectors of `b.x.len()` values.
    group::<f64, _>(c, "copy_f64", 2, |b| unsafe {
        sk_copy_f64(b.x.as_ptr(), b.y.as_mut_ptr(), b.x.len())
    });
}

fn elementwise(c: &mut Criterion) {
    // SAFETY: `b.x`, `b.z` read, `b.y` written: distinct live vectors of `b.x.len()` values.
    group::<f32, _>(c, "add_f32", 3, |b| unsafe {
        sk_add_f32(b.x.as_ptr(), b.z.as_ptr(), b.y.as_mut_ptr(), b.x.len())
    });
    // SAFETY: `b.x`, `b.z` read, `b.y` written: distinct live vectors of `b.x.len()` values.
    group::<f32, _>(c, "sub_f32", 3, |b| unsafe {
        sk_sub_f32(b.x.as_ptr(), b.z.as_ptr(), b.y.as_mut_ptr(), b.x.len())
    });
    // SAFETY: `b.x`, `b.z` read, `b.y` written: distinct live vectors of `b.x.len()` values.
    group::<f32, _>(c, "mul_f32", 3, |b| unsafe {
        sk_mul_f32(b.x.as_ptr(), b.z.as_ptr(), b.y.as_mut_ptr(), b.x.len())
    });
    // SAFETY: `b.x`, `b.z` read, `b.y` written: distinct live vectors of `b.x.len()` values.
    group::<f32, _>(c, "div_f32", 3, |b| unsafe {
        sk_div_f32(b.x.as_ptr(), b.z.as_ptr(), b.y.as_mut_ptr(), b.x.len())
    });
    // SAFETY: `b.x` read, `b.y` written: distinct live vectors of `b.x.len()` values.
    group::<f32, _>(c, "scale_f32", 2, |b| unsafe {
        sk_scale_f32(b.x.as_ptr(), 0.75, b.y.as_mut_ptr(), b.x.len())
    });
    // y grows by 1e-3·x per call: stays finite and normal for any realistic iteration count
    // SAFETY: `b.x` read, `b.y` read and written: distinct live vectors of `b.x.len()` values.
    group::<f32, _>(c, "axpy_f32", 3, |b| unsafe {
        sk_axpy_f32(b.x.as_ptr(), 1e-3, b.y.as_mut_ptr(), b.x.len())
    });
    // SAFETY: `b.x` read, `b.y` written: distinct live vectors of `b.x.len()` values.
    group::<f32, _>(c, "clip_f32", 2, |b| unsafe {
        sk_clip_f32(b.x.as_ptr(), -0.5, 0.75, b.y.as_mut_ptr(), b.x.len())
    });
    // SAFETY: `b.x` read, `b.y` written: distinct live vectors of `b.x.len()` values.
    group::<f32, _>(c, "abs_f32", 2, |b| unsafe {
        sk_abs_f32(b.x.as_ptr(), b.y.as_mut_ptr(), b.x.len())
    });
    // SAFETY: `b.x`, `b.z` read, `b.y` written: distinct live vectors of `b.x.len()` values.
    group::<f64, _>(c, "add_f64", 3, |b| unsafe {
        sk_add_f64(b.x.as_ptr(), b.z.as_ptr(), b.y.as_mut_ptr(), b.x.len())
    });
    // SAFETY: `b.x` read, `b.y` read and written: distinct live vectors of `b.x.len()` values.
    group::<f64, _>(c, "axpy_f64", 3, |b| unsafe {
        sk_axpy_f64(b.x.as_ptr(), 1e-3, b.y.as_mut_ptr(), b.x.len())
    });
}

fn reductions(c: &mut Criterion) {
    // SAFETY: `b.x` (`b.x.len()` values) only read; `b.out` a live scalar.
    group::<f32, _>(c, "sum_f32", 1, |b| unsafe {
        sk_sum_f32(b.x.as_ptr(), &mut b.out, b.x.len())
    });
    // SAFETY: `b.x` (`b.x.len()` values) only read; `b.out` a live scalar.
    group::<f32, _>(c, "mean_f32", 1, |b| unsafe {
        sk_mean_f32(b.x.as_ptr(), &mut b.out, b.x.len())
    });
    // SAFETY: `b.x` (`b.x.len()` values) only read; `b.out` a live scalar.
    group::<f32, _>(c, "min_f32", 1, |b| unsafe {
        sk_min_f32(b.x.as_ptr(), &mut b.out, b.x.len())
    });
    // SAFETY: `b.x` (`b.x.len()` values) only read; `b.out` a live scalar.
    group::<f32, _>(c, "max_f32", 1, |b| unsafe {
        sk_max_f32(b.x.as_ptr(), &mut b.out, b.x.len())
    });
    // SAFETY: `b.x` (`b.x.len()` values) only read; `b.out` a live scalar.
    group::<f32, _>(c, "peak_f32", 1, |b| unsafe {
        sk_peak_f32(b.x.as_ptr(), &mut b.out, b.x.len())
    });
    // SAFETY: `b.x` (`b.x.len()` values) only read; `b.out` a live scalar.
    group::<f32, _>(c, "rms_f32", 1, |b| unsafe {
        sk_rms_f32(b.x.as_ptr(), &mut b.out, b.x.len())
    });
    // SAFETY: `b.x`, `b.z` (`b.x.len()` values each) only read; `b.out` a live scalar.
    group::<f32, _>(c, "dot_f32", 2, |b| unsafe {
        sk_dot_f32(b.x.as_ptr(), b.z.as_ptr(), &mut b.out, b.x.len())
    });
    // SAFETY: `b.x` (`b.x.len()` values) only read; `b.out` a live scalar.
    group::<f64, _>(c, "sum_f64", 1, |b| unsafe {
        sk_sum_f64(b.x.as_ptr(), &mut b.out, b.x.len())
    });
    // SAFETY: `b.x` (`b.x.len()` values) only read; `b.out` a live scalar.
    group::<f64, _>(c, "peak_f64", 1, |b| unsafe {
        sk_peak_f64(b.x.as_ptr(), &mut b.out, b.x.len())
    });
    // SAFETY: `b.x` (`b.x.len()` values) only read; `b.out` a live scalar.
    group::<f64, _>(c, "rms_f64", 1, |b| unsafe {
        sk_rms_f64(b.x.as_ptr(), &mut b.out, b.x.len())
    });
    // SAFETY: `b.x`, `b.z` (`b.x.len()` values each) only read; `b.out` a live scalar.
    group::<f64, _>(c, "dot_f64", 2, |b| unsafe {
        sk_dot_f64(b.x.as_ptr(), b.z.as_ptr(), &mut b.out, b.x.len())
    });
}

criterion_group!(benches, memcpy_reference, memory, elementwise, reductions);
criterion_main!(benches);
