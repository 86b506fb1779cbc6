//! AVX2 + FMA single-precision complex FFT for power-of-two lengths 256 … 4096: the transforms
//! float real plans of 512 … 8192 points run at their half length on CPUs with AVX2 but
//! without AVX-512 (or with the library's SIMD level set to AVX2). Same structure as the double
//! AVX-512 passes ([`super::pow2_avx512`]): a ymm holds 4 complex floats (64-bit elements)
//! exactly as a zmm holds 4 complex doubles, so the index arithmetic, table layouts (floats
//! instead of doubles, 8 per row) and loop structure carry over.
//!
//! # Algorithm
//!
//! Stockham autosort, decimation in frequency, 4 complex floats per ymm. A stage works on
//! sub-transforms of length `m` spaced `s` apart (`s·m = n`): for `p < m/R`, `q < s` it reads
//! `x[q + s(p + i·m/R)]` (`i < R`), does an `R`-point DFT, multiplies output `r` by
//! `ω_m^{rp}` and writes it to `y[q + s(R·p + r)]`, ping-ponging between buffer and scratch.
//!
//! * The first stage (`s = 1`, radix 4 or 8) is vectorised over `p`: per-lane twiddles from
//!   pre-duplicated re/im rows (8 floats each), outputs transposed in registers (4×4 blocks of
//!   64-bit complex elements: `unpacklo/hi_pd` + `permute2f128`) before contiguous stores.
//! * Middle stages are radix 16 (4×4 in registers), vectorised over `q`, twiddles broadcast
//!   (`vbroadcastss`) from a 32-float row per `p`.
//! * The last stage (radix 16) has unit twiddles and runs in place when the pass count
//!   needs it; `FL16+R` fuses the last radix-16 stage and a radix-`R` last stage per q-vector
//!   through an 8 KiB stack buffer.
//! * The `∓j` rotations are swap + xor, the constant twiddles mul + fma with a pre-signed sine
//!   vector: written as `fmaddsub(x, 1, y)` or with constant operands, LLVM split them into
//!   add + sub + two blends.
//! * Complex multiply: `fmaddsub(z, wr, swap(z)·wi)` with `swap = vpermilps 0xB1`.
//! * Every stage kernel is instantiated with compile-time `n` / `s` / `m/16` (constant strides
//!   and trip counts) and called through a function pointer chosen at plan time; [`kernel`]
//!   lists exactly the instantiations the plans in [`PLANS`] use (per direction).
//!
//! # Pass plans
//!
//! F = first stage (radix), M16 = radix-16 middle stage, L = last stage (unit twiddles),
//! FL16+R = fused radix-16 + radix-R last stage. Chosen by alternating measurements against
//! rustfft's AVX float transform:
//!
//! | n    | plan          | stages `(s, m/16)`                     |
//! |-----:|---------------|----------------------------------------|
//! | 256  | F4 FL16+4     | F4 (1, 64), FL16+4 (4, 4)              |
//! | 512  | F4 FL16+8     | F4 (1, 128), FL16+8 (4, 8)             |
//! | 1024 | F4 FL16+16    | F4 (1, 256), FL16+16 (4, 16)           |
//! | 2048 | F8 M16 L16    | F8 (1, 256), M16 (8, 16), L16 (128, 1) |
//! | 4096 | F4 M16 FL16+4 | F4 (1, 1024), M16 (4, 64), FL16+4 (64, 4) |
//!
//! Other lengths are not offered: below 256 points they do not beat rustfft, and from 8192 on
//! the 16 input streams of a radix-16 stage are 4 KiB or more apart and share one L1 set.
//!
//! The inverse transform runs the same kernels (a const generic flips the sign of the
//! in-register constants) with the conjugate twiddle table; it is unnormalised.
//!
//! # Twiddles
//!
//! Every table twiddle is computed in f64 with [`super::mixed::unit_root`] and rounded to f32
//! once; the in-register constants (`cos π/8`, `sin π/8`, `√½`) are f64 constants rounded to
//! f32 once.
//!
//! # Safety
//!
//! All intrinsic code is in `unsafe fn`s. The stage kernels carry
//! `#[target_feature(enable = "avx2,fma")]`; the `#[inline(always)]` helpers touch no memory
//! (except the documented loads of `first_group` and table reads of `first_group_v`) and are
//! only called from those kernels. The kernels are reachable only through a plan, and
//! [`Pow2Avx2F32::new`] returns `None` unless the CPU has AVX2 and FMA. All loads and stores of
//! data are unaligned (`loadu`/`storeu`); only the plan's own table (32-byte aligned rows) is
//! read with aligned loads.

use super::super::Complex;
use super::mixed::unit_root;
use core::arch::x86_64::*;
use core::mem::MaybeUninit;

/// One ymm of floats, so table rows are 32-byte aligned.
#[derive(Clone, Copy, Default)]
#[repr(C, align(32))]
struct V8([f32; 8]);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// `s = 1`, radix 4/8, vectorised over `p`; twiddles: `2(R−1)` rows per 4 values of `p`.
    First4,
    First8,
    /// Radix-16, `s ≥ 4`, with twiddles; one 32-float row per `p`.
    Mid16,
    /// Last two stages fused per q-vector through an L1 buffer: radix 16 with twiddles
    /// (`m = 16·R`, table as `Mid16`), then radix `R` with unit twiddles.
    Fused4,
    Fused8,
    Fused16,
    /// Radix-16 last stage (`m = 16`), unit twiddles.
    Last16,
}

impl Kind {
    #[cfg(test)]
    fn name(self) -> &'static str {
        match self {
            Kind::First4 => "F4",
            Kind::First8 => "F8",
            Kind::Mid16 => "M16",
            Kind::Fused4 => "FL16+4",
            Kind::Fused8 => "FL16+8",
            Kind::Fused16 => "FL16+16",
            Kind::Last16 => "L16",
        }
    }

    /// The radix of a first stage, the last radix of a fused stage, the radix of a last stage
    /// (16 for `Mid16`).
    fn radix(self) -> usize {
        match self {
            Kind::First4 | Kind::Fused4 => 4,
            Kind::First8 | Kind::Fused8 => 8,
            Kind::Fused16 | Kind::Last16 | Kind::Mid16 => 16,
        }
    }
}

/// Stage kernel: `(x, y, table)`; the length and strides are compile-time parameters.
type StageFn = unsafe fn(*const f32, *mut f32, *const f32);

#[derive(Clone, Copy)]
struct Stage {
    /// which pass (the kernel `f` was chosen by it, with the stride and trip count)
    #[cfg_attr(not(test), allow(dead_code))]
    kind: Kind,
    /// offset of the stage's table rows (in `V8` units)
    tw: usize,
    f: StageFn,
}

/// A planned power-of-two single-precision FFT on AVX2 + FMA (immutable: may run on any number
/// of threads at once).
pub struct Pow2Avx2F32 {
    n: usize,
    stages: Vec<Stage>,
    tw: Vec<V8>,
}

/// Smallest and largest length offered (see the module doc).
const MIN_LEN: usize = 256;
const MAX_LEN: usize = 4096;

/// Stages of the plans, indexed by `log2(n) − 8` (n = 256 … 4096). The first entry is the
/// first stage; the strides follow from it.
const PLANS: [&[Kind]; 5] = {
    use Kind::*;
    [
        &[First4, Fused4],        // 256
        &[First4, Fused8],        // 512
        &[First4, Fused16],       // 1024
        &[First8, Mid16, Last16], // 2048
        &[First4, Mid16, Fused4], // 4096
    ]
};

impl Pow2Avx2F32 {
    /// `None` unless `n` is a power of two in `256..=4096` and the CPU has AVX2 and FMA.
    pub fn new(n: usize, inverse: bool) -> Option<Self> {
        let cpu = is_x86_feature_detected!("avx2") && is_x86_feature_detected!("fma");
        if !(cpu && n.is_power_of_two() && (MIN_LEN..=MAX_LEN).contains(&n)) {
            return None;
        }
        let kinds = PLANS[n.trailing_zeros() as usize - 8];
        let sign = if inverse { 1.0 } else { -1.0 };
        let root = |k: usize, m: usize| {
            let (c, s) = unit_root(k, m);
            (c as f32, (sign * s) as f32)
        };
        // (kind, s, m/16 or n/R): every plan's stages multiply out to n (checked by the test
        // `pass_plans_are_the_documented_ones`, and `kernel` has no arm for anything else)
        let radix = kinds[0].radix();
        let mut plan = vec![(kinds[0], 1, n / radix)];
        let (mut m, mut s) = (n / radix, radix);
        for &kind in &kinds[1..] {
            match kind {
                Kind::Mid16 => {
                    plan.push((kind, s, m / 16));
                    m /= 16;
                    s *= 16;
                }
                Kind::Fused4 | Kind::Fused8 | Kind::Fused16 => {
                    // radix 16 with twiddles (m/16 = the last radix), then the last stage
                    plan.push((kind, s, kind.radix()));
                    m = 1;
                }
                _ => {
                    plan.push((kind, s, 1));
                    m = 1;
                }
            }
        }
        debug_assert_eq!(m, 1, "plan of {n} does not multiply out");
        let mut tw: Vec<V8> = Vec::new();
        // first-stage table: per 4 values of p, rows of duplicated re / im of ω_n^{r(p0 + l)}
        let mr = n / radix;
        for p0 in (0..mr).step_by(4) {
            for r in 1..radix {
                let mut re = V8::default();
                let mut im = V8::default();
                for l in 0..4 {
                    let (c, si) = root(r * (p0 + l), n);
                    re.0[2 * l] = c;
                    re.0[2 * l + 1] = c;
                    im.0[2 * l] = si;
                    im.0[2 * l + 1] = si;
                }
                tw.push(re);
                tw.push(im);
            }
        }
        let mut stages = Vec::with_capacity(plan.len());
        for (idx, &(kind, s, m16)) in plan.iter().enumerate() {
            let off = if idx == 0 { 0 } else { tw.len() };
            if matches!(
                kind,
                Kind::Mid16 | Kind::Fused4 | Kind::Fused8 | Kind::Fused16
            ) {
                // one row of ω_m^{r·p}, r = 1..16, per p < m/16 (32 floats = 4 `V8`)
                let m = 16 * m16;
                for p in 0..m16 {
                    let mut rows = [V8::default(); 4];
                    for r in 1..16 {
                        let (c, si) = root(r * p, m);
                        rows[(2 * r - 2) / 8].0[(2 * r - 2) % 8] = c;
                        rows[(2 * r - 1) / 8].0[(2 * r - 1) % 8] = si;
                    }
                    tw.extend_from_slice(&rows);
                }
            }
            let f = if inverse {
                kernel::<true>(kind, n, s, m16)
            } else {
                kernel::<false>(kind, n, s, m16)
            }?;
            stages.push(Stage { kind, tw: off, f });
        }
        Some(Self { n, stages, tw })
    }

    /// Pass plan, e.g. `"F4 M16 FL16+4"`.
    #[cfg(test)]
    fn describe(&self) -> String {
        let names: Vec<&str> = self.stages.iter().map(|st| st.kind.name()).collect();
        names.join(" ")
    }

    /// Required scratch length (`n`).
    pub fn scratch_len(&self) -> usize {
        self.n
    }

    /// In-place unnormalised transform (forward `e^{-2πijk/n}`, as rustfft).
    pub fn process(&self, buf: &mut [Complex<f32>], scratch: &mut [Complex<f32>]) {
        assert_eq!(buf.len(), self.n, "buffer length must equal the FFT length");
        assert!(scratch.len() >= self.scratch_len(), "scratch too short");
        let b = buf.as_mut_ptr() as *mut f32;
        let t = scratch.as_mut_ptr() as *mut f32;
        // SAFETY: `self` exists, so `new` checked the CPU features; `b` points to exactly `n`
        // writable complex values and `t` to at least `scratch_len()` (both asserted above),
        // and they do not overlap (distinct `&mut` borrows).
        unsafe { self.run(b, b, t, true) }
    }

    /// Out-of-place transform: `input` untouched, result in `output`.
    pub fn process_outofplace(
        &self,
        input: &[Complex<f32>],
        output: &mut [Complex<f32>],
        scratch: &mut [Complex<f32>],
    ) {
        assert_eq!(
            input.len(),
            self.n,
            "input length must equal the FFT length"
        );
        assert_eq!(
            output.len(),
            self.n,
            "output length must equal the FFT length"
        );
        assert!(scratch.len() >= self.scratch_len(), "scratch too short");
        let i = input.as_ptr() as *const f32;
        let o = output.as_mut_ptr() as *mut f32;
        let t = scratch.as_mut_ptr() as *mut f32;
        // SAFETY: as in `process`: lengths asserted above, features checked in `new`; `input`
        // is a shared borrow, so it is disjoint from the exclusive `output` and `scratch`.
        unsafe { self.run(i, o, t, false) }
    }

    /// # Safety
    /// AVX2 + FMA present (guaranteed by `new`); `src` readable and `dst` writable for `n`
    /// complex values, `tmp` writable for `n` complex values; `tmp` disjoint from both; `src`,
    /// `dst` equal (`inplace`) or disjoint.
    unsafe fn run(&self, src: *const f32, dst: *mut f32, tmp: *mut f32, inplace: bool) {
        let tw = self.tw.as_ptr() as *const f32;
        let count = self.stages.len();
        let mut from = src;
        for (idx, st) in self.stages.iter().enumerate() {
            // the last stage writes `dst` (see `writes_dst`)
            let to = if super::pow2_shared::writes_dst(idx, count, inplace) {
                dst
            } else {
                tmp
            };
            // SAFETY: `from` and `to` are each `src`, `dst` or `tmp`, all valid for `n` complex
            // values. The kernel was instantiated for exactly this `n`, `s`, `m/16` (see
            // `kernel`), so its indices stay below `n`; `st.tw` is the offset of this stage's
            // rows in `self.tw`, which holds all the rows the kernel reads. `from == to` only
            // for the last stage of an odd-length in-place plan, a unit-twiddle or fused last
            // stage whose q-vector reads precede its writes to the same positions. CPU
            // features were checked in `new`.
            unsafe { (st.f)(from, to, tw.add(8 * st.tw)) };
            from = to;
        }
        debug_assert_eq!(from, dst as *const f32);
    }
}

/// The kernel instantiation for one stage of a plan: `kind` at length `n` with stride `s` and
/// `m16` (`m/16` for radix-16 stages, `n/R` for the first stage, 1 for the last, the last
/// radix for the fused stages). Covers exactly the stages that [`PLANS`] produces; any other
/// combination gives `None`.
fn kernel<const INV: bool>(kind: Kind, n: usize, s: usize, m16: usize) -> Option<StageFn> {
    use Kind::*;
    let f: StageFn = match (kind, n, s, m16) {
        // 256: F4 FL16+4
        (First4, 256, 1, 64) => first_stage::<INV, 4, 256>,
        (Fused4, 256, 4, 4) => fused_single::<INV, 4, 4>,
        // 512: F4 FL16+8
        (First4, 512, 1, 128) => first_stage::<INV, 4, 512>,
        (Fused8, 512, 4, 8) => fused_single::<INV, 8, 4>,
        // 1024: F4 FL16+16
        (First4, 1024, 1, 256) => first_stage::<INV, 4, 1024>,
        (Fused16, 1024, 4, 16) => fused_single::<INV, 16, 4>,
        // 2048: F8 M16 L16
        (First8, 2048, 1, 256) => first_stage::<INV, 8, 2048>,
        (Mid16, 2048, 8, 16) => mid16_stage::<INV, true, 8, 16>,
        (Last16, 2048, 128, 1) => mid16_stage::<INV, false, 128, 1>,
        // 4096: F4 M16 FL16+4
        (First4, 4096, 1, 1024) => first_stage::<INV, 4, 4096>,
        (Mid16, 4096, 4, 64) => mid16_stage::<INV, true, 4, 64>,
        (Fused4, 4096, 64, 4) => fused_single::<INV, 4, 64>,
        _ => return None,
    };
    Some(f)
}

// ---------------------------------------------------------------------------------------------
// ymm arithmetic (4 complex f32 per vector, re/im interleaved). Every helper here is an
// `unsafe fn` only because it uses AVX/AVX2/FMA intrinsics: it touches no memory, and it is only
// inlined into the `#[target_feature(enable = "avx2,fma")]` kernels below, so the CPU supports
// the instructions.

/// `(re, im) → (im, re)` in every complex element.
///
/// # Safety
/// Register-only shuffle; AVX required (only called from the kernels).
#[inline(always)]
unsafe fn swap_ri(z: __m256) -> __m256 {
    // SAFETY: register-only shuffle.
    unsafe { _mm256_permute_ps::<0b10_11_00_01>(z) }
}

/// 4-point DFT of four vectors of complex values (forward: ω = -j). The `∓j` rotation is a
/// swap plus a sign flip (xor), then plain add / sub: `fmaddsub(x, 1, y)` forms get split by
/// LLVM into add + sub + 2 blends.
///
/// # Safety
/// Register-only arithmetic; AVX required (only called from the kernels).
#[inline(always)]
unsafe fn bfly4<const INV: bool>(
    a: __m256,
    b: __m256,
    c: __m256,
    d: __m256,
) -> (__m256, __m256, __m256, __m256) {
    // SAFETY: register-only arithmetic.
    unsafe {
        let apc = _mm256_add_ps(a, c);
        let amc = _mm256_sub_ps(a, c);
        let bpd = _mm256_add_ps(b, d);
        let bmd = _mm256_sub_ps(b, d);
        let y0 = _mm256_add_ps(apc, bpd);
        let y2 = _mm256_sub_ps(apc, bpd);
        // r = ∓j·bmd (forward −j: (bim, −bre)); y1 = amc + r, y3 = amc − r
        let r = mul_mj::<INV>(bmd);
        (y0, _mm256_add_ps(amc, r), y2, _mm256_sub_ps(amc, r))
    }
}

/// `z · w` with `w` given as duplicated real and imaginary parts.
///
/// # Safety
/// Register-only arithmetic; AVX + FMA required (only called from the kernels).
#[inline(always)]
unsafe fn cmul(z: __m256, wr: __m256, wi: __m256) -> __m256 {
    // SAFETY: register-only arithmetic.
    unsafe { _mm256_fmaddsub_ps(z, wr, _mm256_mul_ps(swap_ri(z), wi)) }
}

/// `cos(π/8)`, `sin(π/8)`, `√½` (f64 values rounded to f32 once).
const C16: f32 = 0.923_879_532_511_286_7_f64 as f32;
const S16: f32 = 0.382_683_432_365_089_8_f64 as f32;
const H: f32 = std::f64::consts::FRAC_1_SQRT_2 as f32;

/// `z · ω` for the constant root `ω = cos θ ∓ i sin θ` (− forward, + inverse), given
/// `(cos θ, sin θ)`: `z·c + swap(z)·(−s', s', …)` with `s'` the signed sine, as mul + fma
/// (LLVM splits an `fmaddsub` with constant operands into fma + blend).
///
/// # Safety
/// Register-only arithmetic; AVX + FMA required (only called from the kernels).
#[inline(always)]
unsafe fn cmul_const<const INV: bool>(z: __m256, c: f32, s: f32) -> __m256 {
    let s = if INV { s } else { -s };
    // SAFETY: register-only arithmetic.
    unsafe {
        let wis = _mm256_set_ps(s, -s, s, -s, s, -s, s, -s);
        _mm256_fmadd_ps(swap_ri(z), wis, _mm256_mul_ps(z, _mm256_set1_ps(c)))
    }
}

/// `z · (∓j)` (forward: −j, inverse: +j), exact.
///
/// # Safety
/// Register-only arithmetic; AVX required (only called from the kernels).
#[inline(always)]
unsafe fn mul_mj<const INV: bool>(z: __m256) -> __m256 {
    // SAFETY: register-only shuffle and xor.
    unsafe {
        let sw = swap_ri(z);
        // forward: (im, −re), inverse: (−im, re); `_mm256_set_ps` lists lanes high to low
        let mask = if INV {
            _mm256_set_ps(0.0, -0.0, 0.0, -0.0, 0.0, -0.0, 0.0, -0.0)
        } else {
            _mm256_set_ps(-0.0, 0.0, -0.0, 0.0, -0.0, 0.0, -0.0, 0.0)
        };
        _mm256_xor_ps(sw, mask)
    }
}

/// In-register `R`-point DFT (R = 2, 4, 8, 16) of `v[..R]`, outputs in natural order.
///
/// # Safety
/// Register-only arithmetic; AVX + FMA required (only called from the kernels).
#[inline(always)]
unsafe fn dft_r<const INV: bool, const R: usize>(v: [__m256; 16]) -> [__m256; 16] {
    // SAFETY: register-only arithmetic.
    unsafe {
        let z = _mm256_setzero_ps();
        match R {
            2 => {
                let mut o = [z; 16];
                o[0] = _mm256_add_ps(v[0], v[1]);
                o[1] = _mm256_sub_ps(v[0], v[1]);
                o
            }
            4 => {
                let (o0, o1, o2, o3) = bfly4::<INV>(v[0], v[1], v[2], v[3]);
                [o0, o1, o2, o3, z, z, z, z, z, z, z, z, z, z, z, z]
            }
            8 => {
                let o = dft8::<INV>([v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7]]);
                [
                    o[0], o[1], o[2], o[3], o[4], o[5], o[6], o[7], z, z, z, z, z, z, z, z,
                ]
            }
            _ => dft16::<INV>(v),
        }
    }
}

/// 8-point DFT in registers (i = i1 + 2·i2, k = k1 + 4·k2).
///
/// # Safety
/// Register-only arithmetic; AVX + FMA required (only called from the kernels).
#[inline(always)]
unsafe fn dft8<const INV: bool>(v: [__m256; 8]) -> [__m256; 8] {
    // SAFETY: register-only arithmetic.
    unsafe {
        let (a0, a1, a2, a3) = bfly4::<INV>(v[0], v[2], v[4], v[6]);
        let (b0, b1, b2, b3) = bfly4::<INV>(v[1], v[3], v[5], v[7]);
        let b1 = cmul_const::<INV>(b1, H, H);
        let b2 = mul_mj::<INV>(b2);
        let b3 = cmul_const::<INV>(b3, -H, H);
        [
            _mm256_add_ps(a0, b0),
            _mm256_add_ps(a1, b1),
            _mm256_add_ps(a2, b2),
            _mm256_add_ps(a3, b3),
            _mm256_sub_ps(a0, b0),
            _mm256_sub_ps(a1, b1),
            _mm256_sub_ps(a2, b2),
            _mm256_sub_ps(a3, b3),
        ]
    }
}

/// 16-point DFT in registers (i = i1 + 4·i2, k = k1 + 4·k2).
///
/// # Safety
/// Register-only arithmetic; AVX + FMA required (only called from the kernels).
#[inline(always)]
unsafe fn dft16<const INV: bool>(v: [__m256; 16]) -> [__m256; 16] {
    // SAFETY: register-only arithmetic.
    unsafe {
        let mut a = [[_mm256_setzero_ps(); 4]; 4];
        for (i1, ai) in a.iter_mut().enumerate() {
            let (o0, o1, o2, o3) = bfly4::<INV>(v[i1], v[i1 + 4], v[i1 + 8], v[i1 + 12]);
            *ai = [o0, o1, o2, o3];
        }
        a[1][1] = cmul_const::<INV>(a[1][1], C16, S16);
        a[1][2] = cmul_const::<INV>(a[1][2], H, H);
        a[1][3] = cmul_const::<INV>(a[1][3], S16, C16);
        a[2][1] = cmul_const::<INV>(a[2][1], H, H);
        a[2][2] = mul_mj::<INV>(a[2][2]);
        a[2][3] = cmul_const::<INV>(a[2][3], -H, H);
        a[3][1] = cmul_const::<INV>(a[3][1], S16, C16);
        a[3][2] = cmul_const::<INV>(a[3][2], -H, H);
        a[3][3] = cmul_const::<INV>(a[3][3], -C16, -S16);
        let mut out = [_mm256_setzero_ps(); 16];
        for k1 in 0..4 {
            let (o0, o1, o2, o3) = bfly4::<INV>(a[0][k1], a[1][k1], a[2][k1], a[3][k1]);
            out[k1] = o0;
            out[k1 + 4] = o1;
            out[k1 + 8] = o2;
            out[k1 + 12] = o3;
        }
        out
    }
}

/// 4×4 transpose of 64-bit (complex) elements: row `l` = `(o0[l], o1[l], o2[l], o3[l])`.
///
/// # Safety
/// Register-only shuffles; AVX required (only called from the kernels).
#[inline(always)]
unsafe fn transpose4(o0: __m256, o1: __m256, o2: __m256, o3: __m256) -> [__m256; 4] {
    // SAFETY: register-only shuffles (bit casts between ps and pd are free).
    unsafe {
        let (a, b) = (_mm256_castps_pd(o0), _mm256_castps_pd(o1));
        let (c, d) = (_mm256_castps_pd(o2), _mm256_castps_pd(o3));
        let t0 = _mm256_unpacklo_pd(a, b); // o0[0] o1[0] o0[2] o1[2]
        let t1 = _mm256_unpackhi_pd(a, b); // o0[1] o1[1] o0[3] o1[3]
        let t2 = _mm256_unpacklo_pd(c, d); // o2[0] o3[0] o2[2] o3[2]
        let t3 = _mm256_unpackhi_pd(c, d); // o2[1] o3[1] o2[3] o3[3]
        [
            _mm256_castpd_ps(_mm256_permute2f128_pd::<0x20>(t0, t2)),
            _mm256_castpd_ps(_mm256_permute2f128_pd::<0x20>(t1, t3)),
            _mm256_castpd_ps(_mm256_permute2f128_pd::<0x31>(t0, t2)),
            _mm256_castpd_ps(_mm256_permute2f128_pd::<0x31>(t1, t3)),
        ]
    }
}

/// One group of 4 values of `p` of a radix-`R` first stage (`s = 1`, `m = n`) from the loaded
/// inputs `v[i]` = `x[p + i·mr .. + 4]`: returns the twiddled outputs `o[r]` (lanes `p..p+4`).
///
/// # Safety
/// AVX + FMA; `t` points at a table group of `2(R−1)` 32-byte aligned rows of 8 floats.
#[inline(always)]
unsafe fn first_group_v<const INV: bool, const R: usize>(
    v: [__m256; 16],
    t: *const f32,
) -> [__m256; 16] {
    // SAFETY: table reads as in the contract above.
    unsafe {
        let mut o = dft_r::<INV, R>(v);
        for (r, or) in o.iter_mut().enumerate().take(R).skip(1) {
            let w = t.add(16 * (r - 1));
            *or = cmul(*or, _mm256_load_ps(w), _mm256_load_ps(w.add(8)));
        }
        o
    }
}

/// One group of 4 values of `p` of a radix-`R` first stage (`s = 1`, `m = n`): returns the
/// twiddled outputs `o[r]` (lanes `p..p+4`).
///
/// # Safety
/// AVX + FMA; `x` readable at complex `p + i·mr + 0..4` for `i < R`; `t` points at a
/// table group of `2(R−1)` 32-byte aligned rows of 8 floats.
#[inline(always)]
unsafe fn first_group<const INV: bool, const R: usize>(
    x: *const f32,
    p: usize,
    mr: usize,
    t: *const f32,
) -> [__m256; 16] {
    // SAFETY: reads as in the contract above.
    unsafe {
        let mut v = [_mm256_setzero_ps(); 16];
        for (i, vi) in v.iter_mut().enumerate().take(R) {
            *vi = _mm256_loadu_ps(x.add(2 * (p + i * mr)));
        }
        first_group_v::<INV, R>(v, t)
    }
}

/// The 4×4 transposes of [`first_group_t`]: `rows[4b + l]` = `(o[4b][l], .., o[4b+3][l])`.
///
/// # Safety
/// Register-only shuffles; AVX required (only called from the kernels).
#[inline(always)]
unsafe fn transpose_groups<const R: usize>(o: [__m256; 16]) -> [__m256; 16] {
    // SAFETY: register-only shuffles.
    unsafe {
        let mut rows = [_mm256_setzero_ps(); 16];
        for b in 0..R / 4 {
            let tr = transpose4(o[4 * b], o[4 * b + 1], o[4 * b + 2], o[4 * b + 3]);
            for l in 0..4 {
                rows[4 * b + l] = tr[l];
            }
        }
        rows
    }
}

/// As [`first_group`] but transposed: `rows[4b + l]` = `y[R(p + l) + 4b .. + 4]`.
///
/// # Safety
/// As [`first_group`].
#[inline(always)]
unsafe fn first_group_t<const INV: bool, const R: usize>(
    x: *const f32,
    p: usize,
    mr: usize,
    t: *const f32,
) -> [__m256; 16] {
    // SAFETY: as `first_group`.
    unsafe { transpose_groups::<R>(first_group::<INV, R>(x, p, mr, t)) }
}

// ---------------------------------------------------------------------------------------------
// Stage kernels. Common contract (`# Safety` of each): AVX2 + FMA present; `x` readable and `y`
// writable for `n` complex f32 values (the kernel's compile-time length), any alignment of 4
// bytes or more; equal only for the unit-twiddle / fused last stages (which read every
// position of a q-vector before writing it); `t` points at the stage's 32-byte aligned table
// rows.

/// First stage (`s = 1`, `m = N`), radix `R`, vectorised over `p`, one group of 4 values of
/// `p` per iteration.
///
/// # Safety
/// See the contract above; `t` holds `2(R−1)` rows per 4 values of `p < N/R`.
#[inline(never)]
#[target_feature(enable = "avx2,fma")]
unsafe fn first_stage<const INV: bool, const R: usize, const N: usize>(
    x: *const f32,
    y: *mut f32,
    tw: *const f32,
) {
    let mr = N / R;
    let mut p = 0;
    let mut t = tw;
    while p < mr {
        // SAFETY: p ≤ mr − 4 (mr is a multiple of 4), so the loads in `first_group` read
        // complex ≤ p + 3 + (R−1)·mr < N; stores write R·(p + l) + 4b + 0..4 < R·(p + 4) ≤ N.
        // `t` advances by one group (2(R−1) rows of 8 floats) per 4 values of p.
        unsafe {
            let rows = first_group_t::<INV, R>(x, p, mr, t);
            for l in 0..4 {
                for b in 0..R / 4 {
                    _mm256_storeu_ps(y.add(2 * (R * (p + l) + 4 * b)), rows[4 * b + l]);
                }
            }
            t = t.add(16 * (R - 1));
        }
        p += 4;
    }
}

/// Radix-16 stage with stride `S` and `M16 = m/16` values of `p` (`n = 16·S·M16`), vectorised
/// over `q`; with `TW` the outputs `r = 1..16` are multiplied by `ω_m^{rp}` from a 32-float
/// row per `p`; without it this is the last stage (`M16 = 1`, unit twiddles), may run in place.
///
/// # Safety
/// See the contract above; with `TW`, `t` holds 32 floats per `p < M16`.
#[inline(never)]
#[target_feature(enable = "avx2,fma")]
unsafe fn mid16_stage<const INV: bool, const TW: bool, const S: usize, const M16: usize>(
    x: *const f32,
    y: *mut f32,
    tw: *const f32,
) {
    let (s, m16) = (S, M16);
    let sm = s * m16;
    for p in 0..m16 {
        // SAFETY: q ≤ s − 4 (s is a multiple of 4), so the loads read complex
        // `s·p + q + i·s·m16 + 0..4` < 16·s·m16 = n and the stores write
        // `16·s·p + q + r·s + 0..4` < n. With TW the table reads are floats
        // 32·p .. 32·p + 29 < 32·m16. Without TW (in place allowed) each iteration's loads
        // precede its stores to the same positions.
        unsafe {
            let xi = x.add(2 * s * p);
            let yo = y.add(2 * 16 * s * p);
            let t = tw.add(32 * p);
            let mut q = 0;
            while q < s {
                let mut v = [_mm256_setzero_ps(); 16];
                for (i, vi) in v.iter_mut().enumerate() {
                    *vi = _mm256_loadu_ps(xi.add(2 * (q + i * sm)));
                }
                let mut out = dft16::<INV>(v);
                if TW {
                    for (r, o) in out.iter_mut().enumerate().skip(1) {
                        let wr = _mm256_set1_ps(*t.add(2 * r - 2));
                        let wi = _mm256_set1_ps(*t.add(2 * r - 1));
                        *o = cmul(*o, wr, wi);
                    }
                }
                for (r, o) in out.iter().enumerate() {
                    _mm256_storeu_ps(yo.add(2 * (q + r * s)), *o);
                }
                q += 4;
            }
        }
    }
}

/// Last two stages fused, one q-vector at a time (`SA` a multiple of 4): for each q-vector, a
/// radix-16 stage with twiddles (`m = 16·RB`, stride `SA`) into an L1 buffer, then the
/// radix-`RB` last stage (stride `16·SA`) from it;
/// `n = 16·RB·SA`. Reads and writes only the positions `q + SA·j` of the current q-vector, all
/// reads first, so it may run in place.
///
/// # Safety
/// See the contract above; `t` holds 32 floats per `p < RB`.
#[inline(never)]
#[target_feature(enable = "avx2,fma")]
unsafe fn fused_single<const INV: bool, const RB: usize, const SA: usize>(
    x: *const f32,
    y: *mut f32,
    tw: *const f32,
) {
    let sa = SA;
    let mut l = [MaybeUninit::<__m256>::uninit(); 256];
    let sm = sa * RB; // n / 16
                      // Opaque trip counts: keep the loops rolled (full unrolling overflows the uop cache).
    let (rb, sixteen) = core::hint::black_box((RB, 16usize));
    assert!(rb == RB && sixteen == 16);
    let mut q = 0;
    while q < sa {
        // SAFETY: q ≤ sa − 4; loads read complex `q + sa·p + i·sa·RB + 0..4` < 16·RB·sa = n,
        // stores write `q + sa·(r + 16·r2) + 0..4` < n; all loads of this q-vector precede its
        // stores (in place is fine). Table reads: floats 32·p .. 32·p + 29 for p < RB. `l`
        // has 256 ≥ 16·RB slots (RB ≤ 16 in every instantiation, rb == RB asserted), and slot
        // `16p + r` is written in the first loop before the second loop reads it.
        unsafe {
            for p in 0..rb {
                let mut v = [_mm256_setzero_ps(); 16];
                for (i, vi) in v.iter_mut().enumerate() {
                    *vi = _mm256_loadu_ps(x.add(2 * (q + sa * p + i * sm)));
                }
                let mut out = dft16::<INV>(v);
                if p > 0 {
                    let t = tw.add(32 * p);
                    for (r, o) in out.iter_mut().enumerate().skip(1) {
                        let wr = _mm256_set1_ps(*t.add(2 * r - 2));
                        let wi = _mm256_set1_ps(*t.add(2 * r - 1));
                        *o = cmul(*o, wr, wi);
                    }
                }
                for (r, o) in out.iter().enumerate() {
                    l[16 * p + r] = MaybeUninit::new(*o);
                }
            }
            for r in 0..sixteen {
                let mut v = [_mm256_setzero_ps(); 16];
                for (i, vi) in v.iter_mut().enumerate().take(RB) {
                    *vi = l[r + 16 * i].assume_init();
                }
                let o = dft_r::<INV, RB>(v);
                for (r2, or) in o.iter().enumerate().take(RB) {
                    _mm256_storeu_ps(y.add(2 * (q + sa * (r + 16 * r2))), *or);
                }
            }
        }
        q += 4;
    }
}

#[cfg(test)]
mod tests {
    use super::super::pow2_check::{matches_rustfft_at_every_length, Pow2Plan};
    use super::*;

    type C = Complex<f32>;

    impl Pow2Plan<f32> for Pow2Avx2F32 {
        fn scratch_len(&self) -> usize {
            Pow2Avx2F32::scratch_len(self)
        }
        fn process(&self, buf: &mut [C], scratch: &mut [C]) {
            Pow2Avx2F32::process(self, buf, scratch)
        }
        fn process_outofplace(&self, input: &[C], output: &mut [C], scratch: &mut [C]) {
            Pow2Avx2F32::process_outofplace(self, input, output, scratch)
        }
    }

    /// The pass plans are those of the module doc's table, in both directions.
    #[test]
    fn pass_plans_are_the_documented_ones() {
        let want = [
            (256, "F4 FL16+4"),
            (512, "F4 FL16+8"),
            (1024, "F4 FL16+16"),
            (2048, "F8 M16 L16"),
            (4096, "F4 M16 FL16+4"),
        ];
        for (n, plan) in want {
            for inv in [false, true] {
                if let Some(p) = Pow2Avx2F32::new(n, inv) {
                    assert_eq!(p.describe(), plan, "n = {n}");
                }
            }
        }
    }

    /// Every length 256 … 4096, both directions (where this CPU has AVX2 and FMA), through the
    /// shared checks of [`matches_rustfft_at_every_length`] (double reference, RMS error
    /// against rustfft's float transform, round trip, in place = out of place at odd offsets,
    /// impulses, NaN); other lengths have no plan.
    #[test]
    fn matches_rustfft_in_and_out_of_place_at_every_length() {
        for n in [0, 1, 2, 8, 16, 64, 100, 128, 384, 8192, 65536] {
            assert!(Pow2Avx2F32::new(n, false).is_none(), "n = {n}");
        }
        let have = crate::simd::detected() >= crate::simd::Level::Avx2;
        matches_rustfft_at_every_length(37, 8..=12, have, Pow2Avx2F32::new);
    }
}
