//! SSE2 single-precision complex FFT for power-of-two lengths 64 … 4096: the transforms float
//! real plans of 128 … 8192 points run at their half length at the baseline SIMD level (x86-64
//! CPUs without AVX2, or the library's level set to `sse2`). The structure of the AVX2 double
//! passes ([`super::pow2_avx2_f64`]) with 2 complex floats per xmm instead of 2 complex doubles
//! per ymm, and without FMA.
//!
//! # Algorithm
//!
//! Stockham autosort, decimation in frequency, 2 complex floats per xmm, two passes. A stage
//! works on sub-transforms of length `m` spaced `s` apart (`s·m = n`): for `p < m/R`, `q < s`
//! it reads `x[q + s(p + i·m/R)]` (`i < R`), does an `R`-point DFT, multiplies output `r` by
//! `ω_m^{rp}` and writes it to `y[q + s(R·p + r)]`.
//!
//! * The first stage (`s = 1`, radix 8 or 16) is vectorised over `p`: per-lane twiddles from
//!   pre-duplicated rows (real parts, and imaginary parts with the sign of the real lane
//!   flipped), outputs transposed in registers (2×2 blocks of complex elements: `movlhps` /
//!   `movhlps`) before contiguous stores.
//! * The second stage is either a radix-8/16 last stage with unit twiddles, vectorised over
//!   `q`, or (`FL16+R`) a radix-16 stage with twiddles (one pair of rows per `p` and `r`)
//!   fused with the radix-`R` last stage per q-vector through a 4 KiB stack buffer.
//! * The `∓j` rotations are swap + xor; a complex multiply is `z·wr + swap(z)·wi'` (two
//!   multiplies and an add) with `swap = shufps 0xB1` and `wi'` the pre-signed imaginary row;
//!   the constant twiddles of the radix-8/16 DFTs the same with in-register constants.
//! * Every stage kernel is instantiated with compile-time `n` / `s` / radix (constant strides
//!   and trip counts) and called through a function pointer chosen at plan time; [`kernel`]
//!   lists exactly the instantiations the plans in [`PLANS`] use (per direction).
//!
//! # Pass plans
//!
//! F = first stage (radix), L = last stage (unit twiddles), FL16+R = fused radix-16 +
//! radix-R last stage. Chosen by alternating in-place measurements against rustfft's SSE float
//! transform (`FftPlannerSse`) on an AMD EPYC (AVX2, no AVX-512), side by side: the chosen
//! plans took 0.36× its time at 64, 0.42–0.47× at 128 and 256, 0.49–0.58× at 512 and 1024 and
//! 0.54–0.6× at 2048 and 4096. Where two plans were tried, the one starting with a radix-16
//! stage was 3–6 % faster at 128, 1024 and 2048.
//!
//! |    n | plan        | stages `(s, m/16)`            |
//! |-----:|-------------|-------------------------------|
//! |   64 | F8 L8       | F8 (1, 8), L8 (8, 1)          |
//! |  128 | F16 L8      | F16 (1, 8), L8 (16, 1)        |
//! |  256 | F16 L16     | F16 (1, 16), L16 (16, 1)      |
//! |  512 | F8 FL16+4   | F8 (1, 64), FL16+4 (8, 4)     |
//! | 1024 | F16 FL16+4  | F16 (1, 64), FL16+4 (16, 4)   |
//! | 2048 | F16 FL16+8  | F16 (1, 128), FL16+8 (16, 8)  |
//! | 4096 | F16 FL16+16 | F16 (1, 256), FL16+16 (16, 16) |
//!
//! The inverse transform runs the same kernels (a const generic flips the sign of the
//! in-register constants) with the conjugate twiddle table; it is unnormalised.
//!
//! # Twiddles
//!
//! All twiddles are [`super::mixed::unit_root`] values (octant reduction in integers, angle in
//! double-double), rounded once to float.
//!
//! # Safety
//!
//! All intrinsic code is in `unsafe fn`s. SSE2 is part of the x86-64 baseline, so every CPU
//! this code is compiled for runs it and no feature check is needed. The `#[inline(always)]`
//! helpers touch no memory (except the documented data and table loads of `first_group`) and
//! are only called from the stage kernels, which are reachable only through a plan. All loads
//! and stores of data are unaligned (`loadu`/`storeu`); only the plan's own table (16-byte
//! aligned rows) is read with aligned loads.

use super::super::Complex;
use super::mixed::unit_root;
use core::arch::x86_64::*;
use core::mem::MaybeUninit;

/// One xmm of floats, so table rows are 16-byte aligned.
#[derive(Clone, Copy, Default)]
#[repr(C, align(16))]
struct V4([f32; 4]);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// `s = 1`, radix 8/16, vectorised over `p`; twiddles: `2(R−1)` rows per 2 values of `p`.
    First8,
    First16,
    /// Last two stages fused per q-vector through an L1 buffer: radix 16 with twiddles
    /// (`m = 16·R`, 30 rows per `p`), then radix `R` with unit twiddles.
    Fused4,
    Fused8,
    Fused16,
    /// Radix-16/8 last stage (`m = R`), unit twiddles.
    Last16,
    Last8,
}

impl Kind {
    #[cfg(test)]
    fn name(self) -> &'static str {
        match self {
            Kind::First8 => "F8",
            Kind::First16 => "F16",
            Kind::Fused4 => "FL16+4",
            Kind::Fused8 => "FL16+8",
            Kind::Fused16 => "FL16+16",
            Kind::Last16 => "L16",
            Kind::Last8 => "L8",
        }
    }

    /// The radix of a first or last stage, the last radix of a fused stage.
    fn radix(self) -> usize {
        match self {
            Kind::Fused4 => 4,
            Kind::First8 | Kind::Fused8 | Kind::Last8 => 8,
            Kind::First16 | Kind::Fused16 | Kind::Last16 => 16,
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
    /// offset of the stage's table rows (in `V4` units)
    tw: usize,
    f: StageFn,
}

/// A planned power-of-two single-precision FFT on SSE2 (immutable: may run on any number of
/// threads at once).
pub struct Pow2Sse2F32 {
    n: usize,
    stages: Vec<Stage>,
    tw: Vec<V4>,
}

/// Smallest and largest length offered (see the module doc).
const MIN_LEN: usize = 64;
const MAX_LEN: usize = 4096;

/// Stages of the plans, indexed by `log2(n) − 6` (n = 64 … 4096). The first entry is the
/// first stage; the strides follow from it.
const PLANS: [&[Kind]; 7] = {
    use Kind::*;
    [
        &[First8, Last8],    // 64
        &[First16, Last8],   // 128
        &[First16, Last16],  // 256
        &[First8, Fused4],   // 512
        &[First16, Fused4],  // 1024
        &[First16, Fused8],  // 2048
        &[First16, Fused16], // 4096
    ]
};

impl Pow2Sse2F32 {
    /// `None` unless `n` is a power of two in `MIN_LEN..=MAX_LEN`.
    pub fn new(n: usize, inverse: bool) -> Option<Self> {
        if !(n.is_power_of_two() && (MIN_LEN..=MAX_LEN).contains(&n)) {
            return None;
        }
        Self::with_plan(n, inverse, PLANS[n.trailing_zeros() as usize - 6])
    }

    /// The plan of stages `kinds` for `n` (`None` if [`kernel`] has no instantiation for one
    /// of its stages).
    fn with_plan(n: usize, inverse: bool, kinds: &[Kind]) -> Option<Self> {
        let sign = if inverse { 1.0 } else { -1.0 };
        let root = |k: usize, m: usize| {
            let (c, s) = unit_root(k, m);
            (c as f32, (sign * s) as f32)
        };
        // (kind, s, n/R or the last radix or 1): a first stage and a last (or fused last)
        // stage; they multiply out to n (checked by the test `pass_plans_are_the_documented_ones`,
        // and `kernel` has no arm for anything else)
        let (first, last) = (kinds[0], kinds[1]);
        let radix = first.radix();
        let plan = [
            (first, 1, n / radix),
            match last {
                // radix 16 with twiddles (m/16 = the last radix), then the last stage
                Kind::Fused4 | Kind::Fused8 | Kind::Fused16 => (last, radix, last.radix()),
                _ => (last, radix, 1),
            },
        ];
        let mut tw: Vec<V4> = Vec::new();
        // first-stage table: per 2 values of p, rows of duplicated re / im of ω_n^{r(p0 + l)}
        let mr = n / radix;
        for p0 in (0..mr).step_by(2) {
            for r in 1..radix {
                let mut re = V4::default();
                let mut im = V4::default();
                for l in 0..2 {
                    let (c, si) = root(r * (p0 + l), n);
                    re.0[2 * l] = c;
                    re.0[2 * l + 1] = c;
                    im.0[2 * l] = -si;
                    im.0[2 * l + 1] = si;
                }
                tw.push(re);
                tw.push(im);
            }
        }
        let mut stages = Vec::with_capacity(plan.len());
        for (idx, &(kind, s, m16)) in plan.iter().enumerate() {
            let off = if idx == 0 { 0 } else { tw.len() };
            if matches!(kind, Kind::Fused4 | Kind::Fused8 | Kind::Fused16) {
                // per p < m/16 and r = 1..16: ω_m^{r·p} as a row of its real part and a row
                // of its pre-signed imaginary part (30 `V4` per p)
                let m = 16 * m16;
                for p in 0..m16 {
                    for r in 1..16 {
                        let (c, si) = root(r * p, m);
                        tw.push(V4([c; 4]));
                        tw.push(V4([-si, si, -si, si]));
                    }
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

    /// Pass plan, e.g. `"F8 FL16+8"`.
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
        // SAFETY: `self` exists, so `with_plan` checked the CPU features; `b` points to exactly
        // `n` writable complex values and `t` to at least `scratch_len()` (both asserted
        // above), and they do not overlap (distinct `&mut` borrows).
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
        // SAFETY: as in `process`: lengths asserted above, features checked in `with_plan`;
        // `input` is a shared borrow, so it is disjoint from the exclusive `output` and
        // `scratch`.
        unsafe { self.run(i, o, t, false) }
    }

    /// # Safety
    /// `src` readable and `dst` writable for
    /// `n` complex values, `tmp` writable for `n` complex values; `tmp` disjoint from both;
    /// `src`, `dst` equal (`inplace`) or disjoint.
    unsafe fn run(&self, src: *const f32, dst: *mut f32, tmp: *mut f32, inplace: bool) {
        let tw = self.tw.as_ptr() as *const f32;
        let count = self.stages.len();
        let mut from = src;
        for (idx, st) in self.stages.iter().enumerate() {
            // the last stage writes `dst` (see `writes_dst`)
            let to = if super::pow2_avx512::writes_dst(idx, count, inplace) {
                dst
            } else {
                tmp
            };
            // SAFETY: `from` and `to` are each `src`, `dst` or `tmp`, all valid for `n` complex
            // values. The kernel was instantiated for exactly this `n`, `s`, `m/16` (see
            // `kernel`), so its indices stay below `n`; `st.tw` is the offset of this stage's
            // rows in `self.tw`, which holds all the rows the kernel reads. `from == to` only
            // for the last stage of an odd-length in-place plan, a unit-twiddle or fused last
            // stage whose q-vector reads precede its writes to the same positions. SSE2 is
            // part of x86-64.
            unsafe { (st.f)(from, to, tw.add(4 * st.tw)) };
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
        // 64: F8 L8
        (First8, 64, 1, 8) => first_stage::<INV, 8, 64>,
        (Last8, 64, 8, 1) => last_stage::<INV, 8, 8>,
        // 128: F16 L8
        (First16, 128, 1, 8) => first_stage::<INV, 16, 128>,
        (Last8, 128, 16, 1) => last_stage::<INV, 8, 16>,
        // 256: F16 L16
        (First16, 256, 1, 16) => first_stage::<INV, 16, 256>,
        (Last16, 256, 16, 1) => last_stage::<INV, 16, 16>,
        // 512: F8 FL16+4
        (First8, 512, 1, 64) => first_stage::<INV, 8, 512>,
        (Fused4, 512, 8, 4) => fused_last::<INV, 4, 8>,
        // 1024: F16 FL16+4
        (First16, 1024, 1, 64) => first_stage::<INV, 16, 1024>,
        (Fused4, 1024, 16, 4) => fused_last::<INV, 4, 16>,
        // 2048: F16 FL16+8
        (First16, 2048, 1, 128) => first_stage::<INV, 16, 2048>,
        (Fused8, 2048, 16, 8) => fused_last::<INV, 8, 16>,
        // 4096: F16 FL16+16
        (First16, 4096, 1, 256) => first_stage::<INV, 16, 4096>,
        (Fused16, 4096, 16, 16) => fused_last::<INV, 16, 16>,
        _ => return None,
    };
    Some(f)
}

// ---------------------------------------------------------------------------------------------
// xmm arithmetic (2 complex f32 per vector, re/im interleaved). Every helper here is an
// `unsafe fn` only because it uses SSE2 intrinsics (part of x86-64): it touches no memory
// (except where its contract says), and it is only inlined into the stage kernels below.

/// `(re, im) → (im, re)` in every complex element.
///
/// # Safety
/// Register-only shuffle (only called from the kernels).
#[inline(always)]
unsafe fn swap_ri(z: __m128) -> __m128 {
    // SAFETY: register-only shuffle.
    unsafe { _mm_shuffle_ps::<0xB1>(z, z) }
}

/// 4-point DFT of four vectors of complex values (forward: ω = -j).
///
/// # Safety
/// Register-only arithmetic (only called from the kernels).
#[inline(always)]
unsafe fn bfly4<const INV: bool>(
    a: __m128,
    b: __m128,
    c: __m128,
    d: __m128,
) -> (__m128, __m128, __m128, __m128) {
    // SAFETY: register-only arithmetic.
    unsafe {
        let apc = _mm_add_ps(a, c);
        let amc = _mm_sub_ps(a, c);
        let bpd = _mm_add_ps(b, d);
        let bmd = _mm_sub_ps(b, d);
        let y0 = _mm_add_ps(apc, bpd);
        let y2 = _mm_sub_ps(apc, bpd);
        // r = ∓j·bmd (forward −j: (bim, −bre)); y1 = amc + r, y3 = amc − r
        let r = mul_mj::<INV>(bmd);
        (y0, _mm_add_ps(amc, r), y2, _mm_sub_ps(amc, r))
    }
}

/// `z · w` with `w` given as its duplicated real part `wr` and its duplicated imaginary part
/// with the real lanes' sign flipped, `wis = (−w.im, w.im)`: `z·wr + swap(z)·wis`.
///
/// # Safety
/// Register-only arithmetic (only called from the kernels).
#[inline(always)]
unsafe fn cmul(z: __m128, wr: __m128, wis: __m128) -> __m128 {
    // SAFETY: register-only arithmetic.
    unsafe { _mm_add_ps(_mm_mul_ps(z, wr), _mm_mul_ps(swap_ri(z), wis)) }
}

/// `cos(π/8)`, `sin(π/8)`, `√½`.
const C16: f32 = 0.923_879_5;
const S16: f32 = 0.382_683_43;
const H: f32 = std::f32::consts::FRAC_1_SQRT_2;

/// `z · ω` for the constant root `ω = cos θ ∓ i sin θ` (− forward, + inverse), given
/// `(cos θ, sin θ)`: `z·c + swap(z)·(−s', s')` with `s'` the signed sine (two multiplies and an
/// add).
///
/// # Safety
/// Register-only arithmetic (only called from the kernels).
#[inline(always)]
unsafe fn cmul_const<const INV: bool>(z: __m128, c: f32, s: f32) -> __m128 {
    let s = if INV { s } else { -s };
    // SAFETY: register-only arithmetic.
    unsafe {
        let wis = _mm_set_ps(s, -s, s, -s);
        _mm_add_ps(_mm_mul_ps(swap_ri(z), wis), _mm_mul_ps(z, _mm_set1_ps(c)))
    }
}

/// `z · (∓j)` (forward: −j, inverse: +j), exact.
///
/// # Safety
/// Register-only arithmetic (only called from the kernels).
#[inline(always)]
unsafe fn mul_mj<const INV: bool>(z: __m128) -> __m128 {
    // SAFETY: register-only shuffle and xor.
    unsafe {
        let sw = swap_ri(z);
        // forward: (im, −re), inverse: (−im, re); `_mm_set_ps` lists lanes high to low
        let mask = if INV {
            _mm_set_ps(0.0, -0.0, 0.0, -0.0)
        } else {
            _mm_set_ps(-0.0, 0.0, -0.0, 0.0)
        };
        _mm_xor_ps(sw, mask)
    }
}

/// In-register `R`-point DFT (R = 2, 4, 8, 16) of `v[..R]`, outputs in natural order.
///
/// # Safety
/// Register-only arithmetic (only called from the kernels).
#[inline(always)]
unsafe fn dft_r<const INV: bool, const R: usize>(v: [__m128; 16]) -> [__m128; 16] {
    // SAFETY: register-only arithmetic.
    unsafe {
        let z = _mm_setzero_ps();
        match R {
            2 => {
                let mut o = [z; 16];
                o[0] = _mm_add_ps(v[0], v[1]);
                o[1] = _mm_sub_ps(v[0], v[1]);
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
/// Register-only arithmetic (only called from the kernels).
#[inline(always)]
unsafe fn dft8<const INV: bool>(v: [__m128; 8]) -> [__m128; 8] {
    // SAFETY: register-only arithmetic.
    unsafe {
        let (a0, a1, a2, a3) = bfly4::<INV>(v[0], v[2], v[4], v[6]);
        let (b0, b1, b2, b3) = bfly4::<INV>(v[1], v[3], v[5], v[7]);
        let b1 = cmul_const::<INV>(b1, H, H);
        let b2 = mul_mj::<INV>(b2);
        let b3 = cmul_const::<INV>(b3, -H, H);
        [
            _mm_add_ps(a0, b0),
            _mm_add_ps(a1, b1),
            _mm_add_ps(a2, b2),
            _mm_add_ps(a3, b3),
            _mm_sub_ps(a0, b0),
            _mm_sub_ps(a1, b1),
            _mm_sub_ps(a2, b2),
            _mm_sub_ps(a3, b3),
        ]
    }
}

/// 16-point DFT in registers (i = i1 + 4·i2, k = k1 + 4·k2).
///
/// # Safety
/// Register-only arithmetic (only called from the kernels).
#[inline(always)]
unsafe fn dft16<const INV: bool>(v: [__m128; 16]) -> [__m128; 16] {
    // SAFETY: register-only arithmetic.
    unsafe {
        let mut a = [[_mm_setzero_ps(); 4]; 4];
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
        let mut out = [_mm_setzero_ps(); 16];
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

/// One group of 2 values of `p` of a radix-`R` first stage (`s = 1`, `m = n`), transposed:
/// `rows[2b + l]` = the outputs `r = 2b, 2b + 1` of `p + l`, i.e. `y[R(p + l) + 2b .. + 2]`.
///
/// # Safety
/// `x` readable at complex `p + i·mr + 0..2` for `i < R`; `t` points at a table group of
/// `2(R−1)` 16-byte aligned rows of 4 floats.
#[inline(always)]
unsafe fn first_group<const INV: bool, const R: usize>(
    x: *const f32,
    p: usize,
    mr: usize,
    t: *const f32,
) -> [__m128; 16] {
    // SAFETY: reads as in the contract above; the rest is register-only.
    unsafe {
        let mut v = [_mm_setzero_ps(); 16];
        for (i, vi) in v.iter_mut().enumerate().take(R) {
            *vi = _mm_loadu_ps(x.add(2 * (p + i * mr)));
        }
        let mut o = dft_r::<INV, R>(v);
        for (r, or) in o.iter_mut().enumerate().take(R).skip(1) {
            let w = t.add(8 * (r - 1));
            *or = cmul(*or, _mm_load_ps(w), _mm_load_ps(w.add(4)));
        }
        let mut rows = [_mm_setzero_ps(); 16];
        for b in 0..R / 2 {
            let (o0, o1) = (o[2 * b], o[2 * b + 1]);
            rows[2 * b] = _mm_movelh_ps(o0, o1);
            rows[2 * b + 1] = _mm_movehl_ps(o1, o0);
        }
        rows
    }
}

// ---------------------------------------------------------------------------------------------
// Stage kernels. Common contract (`# Safety` of each): `x` readable and `y`
// writable for `n` complex f32 values (the kernel's compile-time length), any alignment of 4
// bytes or more; equal only for the unit-twiddle / fused last stages (which read every
// position of a q-vector before writing it); `t` points at the stage's 16-byte aligned table
// rows.

/// First stage (`s = 1`, `m = N`), radix `R`, vectorised over `p`, one group of 2 values of
/// `p` per iteration.
///
/// # Safety
/// See the contract above; `t` holds `2(R−1)` rows per 2 values of `p < N/R`.
#[inline(never)]
unsafe fn first_stage<const INV: bool, const R: usize, const N: usize>(
    x: *const f32,
    y: *mut f32,
    tw: *const f32,
) {
    let mr = N / R;
    let mut p = 0;
    let mut t = tw;
    while p < mr {
        // SAFETY: p ≤ mr − 2 (mr is even), so the loads in `first_group` read complex
        // ≤ p + 1 + (R−1)·mr < N; stores write R·(p + l) + 2b + 0..2 < R·(p + 2) ≤ N.
        // `t` advances by one group (2(R−1) rows of 4 floats) per 2 values of p.
        unsafe {
            let rows = first_group::<INV, R>(x, p, mr, t);
            for l in 0..2 {
                for b in 0..R / 2 {
                    _mm_storeu_ps(y.add(2 * (R * (p + l) + 2 * b)), rows[2 * b + l]);
                }
            }
            t = t.add(8 * (R - 1));
        }
        p += 2;
    }
}

/// Last radix-`R` stage (R = 8 or 16, `n = R·S`, unit twiddles); may run in place.
///
/// # Safety
/// See the contract above; the table is not read.
#[inline(never)]
unsafe fn last_stage<const INV: bool, const R: usize, const S: usize>(
    x: *const f32,
    y: *mut f32,
    _t: *const f32,
) {
    let s = S;
    let mut q = 0;
    while q < s {
        // SAFETY: q ≤ s − 2, so loads and stores touch complex `q + i·s + 0..2` < R·s = n; all
        // R loads precede the R stores to the same positions (in place is fine).
        unsafe {
            let mut v = [_mm_setzero_ps(); 16];
            for (i, vi) in v.iter_mut().enumerate().take(R) {
                *vi = _mm_loadu_ps(x.add(2 * (q + i * s)));
            }
            let out = dft_r::<INV, R>(v);
            for (r, o) in out.iter().enumerate().take(R) {
                _mm_storeu_ps(y.add(2 * (q + r * s)), *o);
            }
        }
        q += 2;
    }
}

/// Last two stages fused, one q-vector at a time: for each q-vector, a radix-16 stage with
/// twiddles (`m = 16·RB`, stride `SA`) into an L1 buffer, then the radix-`RB` last stage
/// (stride `16·SA`) from it; `n = 16·RB·SA`. Reads and writes only the positions `q + SA·j` of
/// the current q-vector, all reads first, so it may run in place.
///
/// # Safety
/// See the contract above; `t` holds 30 rows of 4 floats per `p < RB`.
#[inline(never)]
unsafe fn fused_last<const INV: bool, const RB: usize, const SA: usize>(
    x: *const f32,
    y: *mut f32,
    tw: *const f32,
) {
    let sa = SA;
    let mut l = [MaybeUninit::<__m128>::uninit(); 256];
    let sm = sa * RB; // n / 16
                      // Opaque trip counts: keep the loops rolled (full unrolling overflows the uop cache).
    let (rb, sixteen) = core::hint::black_box((RB, 16usize));
    assert!(rb == RB && sixteen == 16);
    let mut q = 0;
    while q < sa {
        // SAFETY: q ≤ sa − 2; loads read complex `q + sa·p + i·sa·RB + 0..2` < 16·RB·sa = n,
        // stores write `q + sa·(r + 16·r2) + 0..2` < n; all loads of this q-vector precede its
        // stores (in place is fine). Table reads: floats 120·p .. 120·p + 119 for p < RB. `l`
        // has 256 ≥ 16·RB slots (RB ≤ 16 in every instantiation, rb == RB asserted), and slot
        // `16p + r` is written in the first loop before the second loop reads it.
        unsafe {
            for p in 0..rb {
                let mut v = [_mm_setzero_ps(); 16];
                for (i, vi) in v.iter_mut().enumerate() {
                    *vi = _mm_loadu_ps(x.add(2 * (q + sa * p + i * sm)));
                }
                let mut out = dft16::<INV>(v);
                if p > 0 {
                    let t = tw.add(4 * 30 * p);
                    for (r, o) in out.iter_mut().enumerate().skip(1) {
                        let w = t.add(8 * (r - 1));
                        *o = cmul(*o, _mm_load_ps(w), _mm_load_ps(w.add(4)));
                    }
                }
                for (r, o) in out.iter().enumerate() {
                    l[16 * p + r] = MaybeUninit::new(*o);
                }
            }
            for r in 0..sixteen {
                let mut v = [_mm_setzero_ps(); 16];
                for (i, vi) in v.iter_mut().enumerate().take(RB) {
                    *vi = l[r + 16 * i].assume_init();
                }
                let o = dft_r::<INV, RB>(v);
                for (r2, or) in o.iter().enumerate().take(RB) {
                    _mm_storeu_ps(y.add(2 * (q + sa * (r + 16 * r2))), *or);
                }
            }
        }
        q += 2;
    }
}

#[cfg(test)]
mod tests {
    use super::super::pow2_f32_check::{matches_rustfft_at_every_length, Pow2F32};
    use super::*;

    type C = Complex<f32>;

    impl Pow2F32 for Pow2Sse2F32 {
        fn scratch_len(&self) -> usize {
            Pow2Sse2F32::scratch_len(self)
        }
        fn process(&self, buf: &mut [C], scratch: &mut [C]) {
            Pow2Sse2F32::process(self, buf, scratch)
        }
        fn process_outofplace(&self, input: &[C], output: &mut [C], scratch: &mut [C]) {
            Pow2Sse2F32::process_outofplace(self, input, output, scratch)
        }
    }

    /// The pass plans are those of the module doc's table, in both directions.
    #[test]
    fn pass_plans_are_the_documented_ones() {
        let want = [
            (64, "F8 L8"),
            (128, "F16 L8"),
            (256, "F16 L16"),
            (512, "F8 FL16+4"),
            (1024, "F16 FL16+4"),
            (2048, "F16 FL16+8"),
            (4096, "F16 FL16+16"),
        ];
        for (n, plan) in want {
            for inv in [false, true] {
                assert_eq!(
                    Pow2Sse2F32::new(n, inv).unwrap().describe(),
                    plan,
                    "n = {n}"
                );
            }
        }
    }

    /// Every offered length, both directions, through the shared checks of
    /// [`matches_rustfft_at_every_length`] (double reference, RMS error against rustfft's
    /// float transform, round trip, in place = out of place at odd offsets, impulses, NaN);
    /// other lengths have no plan.
    #[test]
    fn matches_rustfft_in_and_out_of_place_at_every_length() {
        for n in [0, 1, 2, 8, 16, 32, 100, 384, 2 * MAX_LEN, 65536] {
            assert!(Pow2Sse2F32::new(n, false).is_none(), "n = {n}");
        }
        let lgs = MIN_LEN.trailing_zeros()..=MAX_LEN.trailing_zeros();
        // SSE2 is part of x86-64: every length has its plan
        matches_rustfft_at_every_length(47, lgs, true, Pow2Sse2F32::new);
    }
}
