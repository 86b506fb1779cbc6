//! AVX-512 single-precision complex FFT for power-of-two lengths 16..=32768.
//!
//! # Algorithm
//!
//! Same algorithm as [`super::pow2_avx512`]: Stockham autosort, decimation in frequency, with 8
//! complex floats per zmm (`__m512`). A stage works on sub-transforms of length `m` spaced `s`
//! apart (`s·m = n`): for `p < m/R`, `q < s` it reads `x[q + s(p + i·m/R)]` (`i < R`), does
//! an `R`-point DFT, multiplies output `r` by `ω_m^{rp}` and writes `y[q + s(R·p + r)]`.
//!
//! * The first stage (`s = 1`) has radix 8 or 16 and is vectorised over `p` (8 lanes), with
//!   per-lane twiddles from pre-duplicated re/im rows; its outputs are transposed in registers
//!   (8×8 blocks of 64-bit complex values: `unpacklo/hi_pd` + two rounds of `shuffle_f64x2`)
//!   before contiguous stores. Because its radix is ≥ 8, every later stage has `s ≥ 8` and is
//!   vectorised over `q`, 8 complex per vector, with twiddles broadcast per `p`.
//! * Middle stages are radix 16 (4×4 in registers); the last stage is radix 16 or 8 with unit
//!   twiddles (it runs in place when the pass count needs it).
//! * n = 16: one ymm codelet (4×4); n = 32: one zmm codelet (4 × 8, the 8-point part done as
//!   2 × 4 with the two 4-lane halves of each zmm holding `j1` and `j1 + 4`); n = 64: one zmm
//!   codelet (8 × 8 with an 8×8 register transpose). Plans of 32 and 64 also have a fused
//!   real codelet ([`Pow2Avx512F32::real_forward`]: codelet then split step;
//!   [`Pow2Avx512F32::real_inverse`]: inverse split then codelet; no scratch).
//! * At n = 512, 1024 and from 8192 on, the last radix-16 stage and a radix-4/16 last stage
//!   are fused per q-vector through a 16 KiB stack buffer (`FL16+R`).
//! * Every stage kernel is instantiated with compile-time `n` / `s` / `m/16` (constant strides
//!   and trip counts are faster than runtime strides); [`kernel`] lists exactly
//!   the 23 instantiations the plans below use, and anything else is `unreachable!`.
//! * Stage kernels are called through function pointers chosen at plan time (without that,
//!   LLVM inlined them all into one driver whose prologue cost ~7 ns per call at small n).
//! * Above n = 4096 the first and middle stages prefetch 16 values of `p` / `q` ahead.
//!
//! # Pass plans
//!
//! C = single codelet, F = first stage (radix), M16 = radix-16 middle stage, L = last stage
//! (unit twiddles), FL16+R = fused radix-16 + radix-R last stage. `(s, m/16)` per stage.
//!
//! | n     | plan           | stages `(s, m/16)`                         |
//! |------:|----------------|--------------------------------------------|
//! | 16    | C16 (ymm)      | —                                          |
//! | 32    | C32 (zmm)      | —                                          |
//! | 64    | C64 (zmm)      | —                                          |
//! | 128   | F16 L8         | F16 (1, 8), L8 (16, 1)                     |
//! | 256   | F16 L16        | F16 (1, 16), L16 (16, 1)                   |
//! | 512   | F8 FL16+4      | F8 (1, 64), FL16+4 (8, 4)                  |
//! | 1024  | F16 FL16+4     | F16 (1, 64), FL16+4 (16, 4)                |
//! | 2048  | F8 M16 L16     | F8 (1, 256), M16 (8, 16), L16 (128, 1)     |
//! | 4096  | F16 M16 L16    | F16 (1, 256), M16 (16, 16), L16 (256, 1)   |
//! | 8192  | F8 M16 FL16+4  | F8 (1, 1024), M16 (8, 64), FL16+4 (128, 4) |
//! | 16384 | F16 M16 FL16+4 | F16 (1, 1024), M16 (16, 64), FL16+4 (256, 4) |
//! | 32768 | F8 M16 FL16+16 | F8 (1, 4096), M16 (8, 256), FL16+16 (128, 16) |
//!
//! (For the first stage the second number is `n / R`.) A test checks the plans against this
//! table. The inverse transform runs the same kernels (a const generic flips the
//! sign of the in-register constants) with the conjugate twiddle table.
//!
//! # Twiddles
//!
//! Every twiddle is computed in f64 with [`super::mixed::unit_root`] and rounded to f32 once.
//!
//! # Safety
//!
//! All intrinsic code is in `unsafe fn`s. The stage kernels and the in-register DFTs are
//! shared with the double plans, written once over the vector type in
//! [`super::pow2_avx512_stages`] (the float 8×8 transpose and prefetch distance in its
//! `F32x16` impl); this module keeps the plans and the float codelets of n ≤ 64. The kernels
//! carry `#[target_feature(enable = "avx512f,avx512dq,avx512vl,avx512bw,fma")]`; the
//! `#[inline(always)]` helpers are only called from those kernels. The kernels are reachable
//! only through a plan, and [`Pow2Avx512F32::new`] returns `None` unless the CPU has all five
//! features.

use super::super::Complex;
use super::mixed::unit_root;
use super::pow2_avx512_stages::{
    bfly4, cmul, dft8, first_stage, first_stage_win, fused_last, last8_stage, mid16_stage,
    transpose8, Zmm,
};
use super::split_avx512::{F32x16, Lanes};
use core::arch::x86_64::*;

/// One cache line of floats, so table rows are 64-byte aligned.
#[derive(Clone, Copy, Default)]
#[repr(C, align(64))]
struct V16([f32; 16]);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// Single-pass codelets for n = 16, 32, 64.
    Small16,
    Small32,
    Small64,
    /// `s = 1`, radix 8/16, vectorised over `p`; twiddles: `2(R−1)` rows per 8 values of `p`.
    First8,
    First16,
    /// Radix-16 with twiddles, `s ≥ 8`; 32 floats per `p`.
    Mid16,
    /// Last two stages fused per q-vector through an L1 buffer (radix 16 with twiddles, then
    /// radix `R` with unit twiddles); table as `Mid16` with `m/16 = R`.
    Fused4,
    Fused16,
    /// Last stage, unit twiddles.
    Last16,
    Last8,
}

#[derive(Clone, Copy, Debug)]
struct Stage {
    /// which pass (the kernel `f` was chosen by it, with the stride and trip count)
    kind: Kind,
    /// offset of the stage's table rows (in `V16` units)
    tw: usize,
    f: StageFn,
}

/// Planned power-of-two single-precision FFT using AVX-512.
pub struct Pow2Avx512F32 {
    n: usize,
    stages: Vec<Stage>,
    tw: Vec<V16>,
    /// the fused real forward codelet ([`small_real`]) of a forward plan of 32 or 64
    real_fwd: Option<RealFn>,
    /// the fused real inverse codelet ([`small_real_inv`]) of an inverse plan of 32 or 64
    real_inv: Option<RealInvFn>,
    /// the windowed first stage ([`first_stage_win`]) of a forward multi-pass plan
    first_win: Option<FirstWinFn>,
    /// the real forward split step's twiddles `v[k]`, `k < n/2`, spread up to
    /// [`super::split_avx512::SPREAD_MAX`] points, as they are above (see
    /// [`super::pow2_avx512::Pow2Avx512`]'s); empty until [`Pow2Avx512F32::with_split`] gives
    /// them
    split: Vec<V16>,
}

/// Fused real forward codelet: `(x, y, table, spread split twiddles)` (see [`small_real`]).
type RealFn = unsafe fn(*const f32, *mut f32, *const f32, *const f32);

/// Fused real inverse codelet: `(x, y, table, split twiddles, scale)` (see [`small_real_inv`]).
type RealInvFn = unsafe fn(*const f32, *mut f32, *const f32, *const f32, f32);

/// Windowed first stage: `(x, y, table, window)` (see [`first_stage_win`]).
type FirstWinFn = unsafe fn(*const f32, *mut f32, *const f32, *const f32);

/// Stages of the multi-pass plans, indexed by `log2(n) − 7` (n = 128..=32768); see the module
/// doc. The first entry is the first stage; the strides follow from it.
const PLANS: [&[Kind]; 9] = {
    use Kind::*;
    [
        &[First16, Last8],         // 128
        &[First16, Last16],        // 256
        &[First8, Fused4],         // 512
        &[First16, Fused4],        // 1024
        &[First8, Mid16, Last16],  // 2048
        &[First16, Mid16, Last16], // 4096
        &[First8, Mid16, Fused4],  // 8192
        &[First16, Mid16, Fused4], // 16384
        &[First8, Mid16, Fused16], // 32768
    ]
};

impl Pow2Avx512F32 {
    /// `None` unless `n` is a power of two in `16..=32768` and the CPU has AVX-512 F+DQ+VL+BW
    /// and FMA.
    pub fn new(n: usize, inverse: bool) -> Option<Self> {
        if !n.is_power_of_two() || !(16..=32768).contains(&n) {
            return None;
        }
        // the library's own detection: its AVX-512 level requires F, DQ, VL, BW and FMA
        if crate::simd::detected() != crate::simd::Level::Avx512 {
            return None;
        }
        let sign = if inverse { 1.0 } else { -1.0 };
        let root = |k: usize, m: usize| {
            let (c, s) = unit_root(k, m);
            (c as f32, (sign * s) as f32)
        };
        let lg = n.trailing_zeros() as usize;
        let mut tw: Vec<V16> = Vec::new();
        // (kind, s, m16, table offset)
        let mut plan: Vec<(Kind, usize, usize, usize)> = Vec::new();
        // per-lane (duplicated re / im) rows for `w^(r·(p0 + l))`, l < lanes
        let lane_rows = |tw: &mut Vec<V16>, f: &dyn Fn(usize) -> (f32, f32), lanes: usize| {
            let mut re = V16::default();
            let mut im = V16::default();
            for l in 0..8 {
                let (c, s) = f(l % lanes);
                re.0[2 * l] = c;
                re.0[2 * l + 1] = c;
                im.0[2 * l] = s;
                im.0[2 * l + 1] = s;
            }
            tw.push(re);
            tw.push(im);
        };
        match lg {
            4 => {
                // ω16^{j1·k2}, k2 = 1..3, lanes j1 < 4 (ymm: first 8 floats)
                for k2 in 1..4 {
                    lane_rows(&mut tw, &|l| root(l * k2, 16), 4);
                }
                plan.push((Kind::Small16, 1, 1, 0));
            }
            5 => {
                // ω32^{j1·k2}, k2 = 1..3, lanes j1 < 8; then [1 | ω8^a] for a = 1..3
                for k2 in 1..4 {
                    lane_rows(&mut tw, &|l| root(l * k2, 32), 8);
                }
                for a in 1..4 {
                    lane_rows(&mut tw, &|l| if l < 4 { (1.0, 0.0) } else { root(a, 8) }, 8);
                }
                plan.push((Kind::Small32, 1, 1, 0));
            }
            6 => {
                for r in 1..8 {
                    lane_rows(&mut tw, &|l| root(l * r, 64), 8);
                }
                plan.push((Kind::Small64, 1, 1, 0));
            }
            _ => {
                let kinds = PLANS[lg - 7];
                let radix = match kinds[0] {
                    Kind::First8 => 8,
                    Kind::First16 => 16,
                    k => unreachable!("plan for n = {n} starts with {k:?}"),
                };
                let mr = n / radix;
                for p0 in (0..mr).step_by(8) {
                    for r in 1..radix {
                        lane_rows(&mut tw, &|l| root(r * (p0 + l), n), 8);
                    }
                }
                plan.push((kinds[0], 1, mr, 0));
                let mut m = mr;
                let mut s = radix;
                for &kind in &kinds[1..] {
                    let off = tw.len();
                    let m16 = m / 16;
                    match kind {
                        Kind::Mid16 | Kind::Fused4 | Kind::Fused16 => {
                            for p in 0..m16 {
                                let mut rows = [V16::default(); 2];
                                for r in 1..16 {
                                    let (c, si) = root(r * p, m);
                                    rows[(2 * r - 2) / 16].0[(2 * r - 2) % 16] = c;
                                    rows[(2 * r - 1) / 16].0[(2 * r - 1) % 16] = si;
                                }
                                tw.extend_from_slice(&rows);
                            }
                            plan.push((kind, s, m16, off));
                            m = match kind {
                                Kind::Mid16 => m16,
                                Kind::Fused4 => {
                                    assert_eq!(m16, 4);
                                    1
                                }
                                _ => {
                                    assert_eq!(m16, 16);
                                    1
                                }
                            };
                            s *= 16;
                        }
                        Kind::Last16 | Kind::Last8 => {
                            assert_eq!(m, if kind == Kind::Last16 { 16 } else { 8 });
                            plan.push((kind, s, 1, off));
                            m = 1;
                        }
                        k => unreachable!("{k:?} after the first stage (n = {n})"),
                    }
                }
                assert_eq!(m, 1, "plan for n = {n} does not cover the length");
            }
        }
        let stages: Vec<Stage> = plan
            .into_iter()
            .map(|(kind, s, m16, tw)| {
                let f = if inverse {
                    kernel::<true>(kind, n, s, m16)
                } else {
                    kernel::<false>(kind, n, s, m16)
                };
                Stage { kind, tw, f }
            })
            .collect();
        let real_fwd: Option<RealFn> = match (inverse, n) {
            (false, 32) => Some(small_real::<4>),
            (false, 64) => Some(small_real::<8>),
            _ => None,
        };
        let real_inv: Option<RealInvFn> = match (inverse, n) {
            (true, 32) => Some(small_real_inv::<4>),
            (true, 64) => Some(small_real_inv::<8>),
            _ => None,
        };
        let first_win = (!inverse && stages.len() > 1).then(|| first_kernel_win(stages[0].kind, n));
        Some(Self {
            n,
            stages,
            tw,
            real_fwd,
            real_inv,
            first_win,
            split: Vec::new(),
        })
    }

    /// Pass plan, e.g. `"F16 M16 L16"` (the tests check it against the module doc's table).
    #[cfg(test)]
    fn describe(&self) -> String {
        let names: Vec<&str> = self
            .stages
            .iter()
            .map(|st| match st.kind {
                Kind::Small16 => "C16",
                Kind::Small32 => "C32",
                Kind::Small64 => "C64",
                Kind::First8 => "F8",
                Kind::First16 => "F16",
                Kind::Mid16 => "M16",
                Kind::Fused4 => "FL16+4",
                Kind::Fused16 => "FL16+16",
                Kind::Last16 => "L16",
                Kind::Last8 => "L8",
            })
            .collect();
        names.join(" ")
    }

    /// Required scratch length: 0 for the single-codelet sizes (16, 32, 64), else `n`.
    pub fn scratch_len(&self) -> usize {
        if self.stages.len() == 1 {
            0
        } else {
            super::pow2_shared::aligned_passes_scratch(self.n)
        }
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
        unsafe { self.run(b, core::ptr::null(), b, t, true) }
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
        unsafe { self.run(i, core::ptr::null(), o, t, false) }
    }

    super::pow2_shared::windowed_methods!(f32);

    /// Whether [`Self::process_destroying`] into a misaligned output beats the in-place passes
    /// through it: at every length.
    pub fn destroying_pays(&self) -> bool {
        true
    }

    super::pow2_shared::destroying_method!(f32, 16);

    super::pow2_shared::real_codelet_methods!(
        f32,
        V16,
        16,
        super::split_avx512::split_fwd_f32_entry
    );

    /// # Safety
    /// AVX-512 F/DQ/VL/BW + FMA present (guaranteed by `new`); `src` readable and `dst`
    /// writable for `n` complex values, `tmp` writable for `scratch_len()` complex values;
    /// `tmp` disjoint from both; `src`, `dst` equal (`inplace`) or disjoint.
    /// `win` null, or (with `first_win`, out of place) readable for `n` complex values: the
    /// first stage then multiplies the input by it.
    unsafe fn run(
        &self,
        src: *const f32,
        win: *const f32,
        dst: *mut f32,
        tmp: *mut f32,
        inplace: bool,
    ) {
        if let [st] = self.stages.as_slice() {
            debug_assert!(win.is_null(), "the codelets take no window");
            // SAFETY: single-pass codelet for exactly this `n`, reading `n` values at `src` and
            // writing `n` at `dst` (all loads before stores, so `src == dst` is fine), with the
            // table this plan built for it.
            unsafe { (st.f)(src, dst, self.tw.as_ptr() as *const f32) }
        } else {
            // SAFETY: the caller's contract is `run_stages`'s.
            unsafe { run_stages(self, src, win, dst, tmp, inplace) }
        }
    }
}

/// Stage kernel: `(x, y, table)`; the length and strides are compile-time parameters.
type StageFn = unsafe fn(*const f32, *mut f32, *const f32);

/// The windowed first stage ([`first_stage_win`]) of the forward plan of `n` whose first stage
/// is `kind` (the first-stage rows of [`kernel`], prefetching where they do).
fn first_kernel_win(kind: Kind, n: usize) -> FirstWinFn {
    use Kind::*;
    match (kind, n) {
        (First16, 128) => first_stage_win::<F32x16, 16, false, 128>,
        (First16, 256) => first_stage_win::<F32x16, 16, false, 256>,
        (First8, 512) => first_stage_win::<F32x16, 8, false, 512>,
        (First16, 1024) => first_stage_win::<F32x16, 16, false, 1024>,
        (First8, 2048) => first_stage_win::<F32x16, 8, false, 2048>,
        (First16, 4096) => first_stage_win::<F32x16, 16, false, 4096>,
        (First8, 8192) => first_stage_win::<F32x16, 8, true, 8192>,
        (First16, 16384) => first_stage_win::<F32x16, 16, true, 16384>,
        (First8, 32768) => first_stage_win::<F32x16, 8, true, 32768>,
        _ => unreachable!("no windowed first stage for {kind:?} at n = {n}"),
    }
}

/// The kernel instantiation for one stage of a default plan. Covers exactly the stages that
/// [`PLANS`] (and the codelets) produce: 3 codelets + 23 stage kernels per direction; any other
/// combination is a planner bug.
fn kernel<const INV: bool>(kind: Kind, n: usize, s: usize, m16: usize) -> StageFn {
    use Kind::*;
    match (kind, n, s, m16) {
        (Small16, 16, 1, 1) => small16::<INV>,
        (Small32, 32, 1, 1) => small32::<INV>,
        (Small64, 64, 1, 1) => small64::<INV>,
        // 128: F16 L8
        (First16, 128, 1, 8) => first_stage::<F32x16, INV, 16, false, 128>,
        (Last8, 128, 16, 1) => last8_stage::<F32x16, INV, 16>,
        // 256: F16 L16
        (First16, 256, 1, 16) => first_stage::<F32x16, INV, 16, false, 256>,
        (Last16, 256, 16, 1) => mid16_stage::<F32x16, INV, false, false, 16, 1>,
        // 512: F8 FL16+4
        (First8, 512, 1, 64) => first_stage::<F32x16, INV, 8, false, 512>,
        (Fused4, 512, 8, 4) => fused_last::<F32x16, INV, 4, 8>,
        // 1024: F16 FL16+4
        (First16, 1024, 1, 64) => first_stage::<F32x16, INV, 16, false, 1024>,
        (Fused4, 1024, 16, 4) => fused_last::<F32x16, INV, 4, 16>,
        // 2048: F8 M16 L16
        (First8, 2048, 1, 256) => first_stage::<F32x16, INV, 8, false, 2048>,
        (Mid16, 2048, 8, 16) => mid16_stage::<F32x16, INV, true, false, 8, 16>,
        (Last16, 2048, 128, 1) => mid16_stage::<F32x16, INV, false, false, 128, 1>,
        // 4096: F16 M16 L16
        (First16, 4096, 1, 256) => first_stage::<F32x16, INV, 16, false, 4096>,
        (Mid16, 4096, 16, 16) => mid16_stage::<F32x16, INV, true, false, 16, 16>,
        (Last16, 4096, 256, 1) => mid16_stage::<F32x16, INV, false, false, 256, 1>,
        // 8192: F8 M16 FL16+4 (prefetching from here on)
        (First8, 8192, 1, 1024) => first_stage::<F32x16, INV, 8, true, 8192>,
        (Mid16, 8192, 8, 64) => mid16_stage::<F32x16, INV, true, true, 8, 64>,
        (Fused4, 8192, 128, 4) => fused_last::<F32x16, INV, 4, 128>,
        // 16384: F16 M16 FL16+4
        (First16, 16384, 1, 1024) => first_stage::<F32x16, INV, 16, true, 16384>,
        (Mid16, 16384, 16, 64) => mid16_stage::<F32x16, INV, true, true, 16, 64>,
        (Fused4, 16384, 256, 4) => fused_last::<F32x16, INV, 4, 256>,
        // 32768: F8 M16 FL16+16
        (First8, 32768, 1, 4096) => first_stage::<F32x16, INV, 8, true, 32768>,
        (Mid16, 32768, 8, 256) => mid16_stage::<F32x16, INV, true, true, 8, 256>,
        (Fused16, 32768, 128, 16) => fused_last::<F32x16, INV, 16, 128>,
        _ => unreachable!("no kernel for {kind:?} at n = {n}, s = {s}, m/16 = {m16}"),
    }
}

/// # Safety
/// As [`Pow2Avx512F32::run`], with a multi-pass plan.
unsafe fn run_stages(
    plan: &Pow2Avx512F32,
    src: *const f32,
    win: *const f32,
    dst: *mut f32,
    tmp: *mut f32,
    inplace: bool,
) {
    let tw = plan.tw.as_ptr() as *const f32;
    let count = plan.stages.len();
    let two = super::pow2_shared::use_aligned_passes(plan.n, dst as usize, inplace);
    let mut from = src;
    for (idx, st) in plan.stages.iter().enumerate() {
        // the last stage writes `dst` (see `stage_dst`)
        let to = super::pow2_shared::stage_dst(idx, count, inplace, two, dst, tmp, 2 * plan.n);
        // SAFETY: `from` and `to` are each `src`, `dst`, `tmp` or (with `two`) `tmp + n`
        // complex values, all valid for `n` complex values and the last two disjoint from each
        // other and from `src`, `dst` (`scratch_len()` is n, 2n where `two` can hold, for
        // multi-pass plans). The kernel was
        // instantiated for exactly this `n`, `s`, `m/16` (see `kernel`), so its indices stay
        // below `n`; `st.tw` is the offset of this stage's rows in `plan.tw`, which holds all
        // the rows the kernel reads. `from == to` only for the last stage of an odd-length
        // in-place plan, which is a unit-twiddle or fused last stage (every q-vector's reads
        // precede its writes to the same positions). CPU features were checked in `new`.
        // With a window, `first_win` is the windowed twin of stage 0's kernel (same `n`,
        // radix and table rows) and also reads `win[..n]`.
        unsafe {
            match plan.first_win {
                Some(fw) if idx == 0 && !win.is_null() => fw(from, to, tw.add(16 * st.tw), win),
                _ => (st.f)(from, to, tw.add(16 * st.tw)),
            }
        }
        from = to;
    }
    debug_assert_eq!(from, dst as *const f32);
}

// ---------------------------------------------------------------------------------------------
// Single-pass codelets (all loads precede all stores: in-place safe), over the shared helpers of
// [`super::pow2_avx512_stages`] where they fit.

/// n = 64 = 8 × 8: j = j1 + 8·j2, vectors over j2 with lanes j1; DFT8 across, per-lane
/// twiddles ω64^{j1·k2}, 8×8 transpose, DFT8 across, contiguous stores (X[k2 + 8·k1]).
///
/// # Safety
/// AVX-512 F/DQ/VL/BW + FMA; `x` readable and `y` writable for 64 complex values (may be
/// equal); `t` holds 7 row pairs (14 rows of 16 floats, 64-byte aligned).
#[inline(never)]
#[target_feature(enable = "avx512f,avx512dq,avx512vl,avx512bw,fma")]
unsafe fn small64<const INV: bool>(x: *const f32, y: *mut f32, t: *const f32) {
    // SAFETY: `small64_regs` reads x[..64] and the table (this function's contract); the
    // stores write floats 16·k .. 16·k + 15 for k < 8 (64 complex) after all loads.
    unsafe {
        let out = small64_regs::<INV>(x, t);
        for (k, ok) in out.iter().enumerate() {
            F32x16::store(y.add(16 * k), *ok);
        }
    }
}

/// The transform of [`small64`] in registers: vector `k` holds `X[8k .. 8k + 8]`.
///
/// # Safety
/// As [`small64`] for `x` and `t` (nothing is written); inlined only into AVX-512 code.
#[inline(always)]
unsafe fn small64_regs<const INV: bool>(x: *const f32, t: *const f32) -> [F32x16; 8] {
    // SAFETY: loads at floats 16·i .. 16·i + 15 for i < 8 (128 floats = 64 complex); table
    // rows 0..14.
    unsafe {
        let mut v = [F32x16::zero(); 8];
        for (i, vi) in v.iter_mut().enumerate() {
            *vi = F32x16::load(x.add(16 * i));
        }
        let mut o = dft8::<F32x16, INV>(v);
        for (r, or) in o.iter_mut().enumerate().skip(1) {
            let w = t.add(32 * (r - 1));
            *or = cmul(*or, F32x16::load_row(w), F32x16::load_row(w.add(16)));
        }
        let w = transpose8(o);
        dft8::<F32x16, INV>(w)
    }
}

/// n = 32 = 4 × 8: j = j1 + 8·j2. Vectors over j2 (lanes j1); DFT4 across, per-lane twiddles
/// ω32^{j1·k2}; 4×4 transposes inside each 256-bit half so that vector `a` holds
/// `[k2 = 0..3 at j1 = a | k2 = 0..3 at j1 = a + 4]`; radix 2 across the halves, twiddle
/// `ω8^{a}` on the upper half, DFT4 across `a`: vector `k1a` = `X[8·k1a .. 8·k1a + 8]`.
///
/// # Safety
/// AVX-512 F/DQ/VL/BW + FMA; `x` readable and `y` writable for 32 complex values (may be
/// equal); `t` holds 6 row pairs (12 rows of 16 floats, 64-byte aligned).
#[inline(never)]
#[target_feature(enable = "avx512f,avx512dq,avx512vl,avx512bw,fma")]
unsafe fn small32<const INV: bool>(x: *const f32, y: *mut f32, t: *const f32) {
    // SAFETY: `small32_regs` reads x[..32] and the table (this function's contract); the
    // stores write floats 0..64 (32 complex) after all loads.
    unsafe {
        let o = small32_regs::<INV>(x, t);
        for (k, ok) in o.iter().enumerate() {
            F32x16::store(y.add(16 * k), *ok);
        }
    }
}

/// The transform of [`small32`] in registers: vector `k` holds `X[8k .. 8k + 8]`.
///
/// # Safety
/// As [`small32`] for `x` and `t` (nothing is written); inlined only into AVX-512 code.
#[inline(always)]
unsafe fn small32_regs<const INV: bool>(x: *const f32, t: *const f32) -> [F32x16; 4] {
    // SAFETY: loads at floats 0..64 (32 complex); table rows 0..12.
    unsafe {
        let row = |k: usize| F32x16::load_row(t.add(16 * k));
        let v0 = F32x16::load(x);
        let v1 = F32x16::load(x.add(16));
        let v2 = F32x16::load(x.add(32));
        let v3 = F32x16::load(x.add(48));
        let (a0, a1, a2, a3) = bfly4::<F32x16, INV>(v0, v1, v2, v3);
        let a1 = cmul(a1, row(0), row(1));
        let a2 = cmul(a2, row(2), row(3));
        let a3 = cmul(a3, row(4), row(5));
        let d = |v: F32x16| _mm512_castps_pd(v.0);
        let t0 = _mm512_unpacklo_pd(d(a0), d(a1));
        let t1 = _mm512_unpackhi_pd(d(a0), d(a1));
        let t2 = _mm512_unpacklo_pd(d(a2), d(a3));
        let t3 = _mm512_unpackhi_pd(d(a2), d(a3));
        // W[a] = [te.L0, t(2+e).L0, te.L0+2, t(2+e).L0+2], e = a & 1, L0 = a >> 1
        let i0 = _mm512_set_epi64(13, 12, 5, 4, 9, 8, 1, 0);
        let i1 = _mm512_set_epi64(15, 14, 7, 6, 11, 10, 3, 2);
        let c = |v: __m512d| F32x16(_mm512_castpd_ps(v));
        let w0 = c(_mm512_permutex2var_pd(t0, i0, t2));
        let w1 = c(_mm512_permutex2var_pd(t1, i0, t3));
        let w2 = c(_mm512_permutex2var_pd(t0, i1, t2));
        let w3 = c(_mm512_permutex2var_pd(t1, i1, t3));
        // radix 2 across the 256-bit halves: [lo + hi | lo − hi]
        let sign = _mm512_set_ps(
            -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0,
        );
        let r2 = |w: F32x16| {
            F32x16(_mm512_fmadd_ps(
                w.0,
                sign,
                _mm512_shuffle_f32x4::<0x4E>(w.0, w.0),
            ))
        };
        let b0 = r2(w0);
        let b1 = r2(w1);
        let b2 = r2(w2);
        let b3 = r2(w3);
        let b1 = cmul(b1, row(6), row(7));
        let b2 = cmul(b2, row(8), row(9));
        let b3 = cmul(b3, row(10), row(11));
        let (o0, o1, o2, o3) = bfly4::<F32x16, INV>(b0, b1, b2, b3);
        [o0, o1, o2, o3]
    }
}

/// Real forward transform of `2n` points, `n = 8·R` (32, 64) complex pairs at `x`: the
/// forward codelet ([`small32`], [`small64`]) stored to `y`, then the forward split step on the
/// vectors just stored ([`super::split_avx512::split_fwd_aligned`]); as the double
/// `small_real` of [`super::pow2_avx512`].
///
/// # Safety
/// AVX-512 F/DQ/VL/BW + FMA; `x` readable for `n` complex values, `t` the plan's table, `v`
/// the plan's spread split twiddles (`2n` floats), `y` writable for `n + 1`, disjoint from `x`.
#[inline(never)]
#[target_feature(enable = "avx512f,avx512dq,avx512vl,avx512bw,fma")]
unsafe fn small_real<const R: usize>(x: *const f32, y: *mut f32, t: *const f32, v: *const f32) {
    // SAFETY: the codelet reads x[..n] and its table; the stores write y[..n]; the split reads
    // and writes y[..=n] and reads v[..2n] (the contract above, n = 8·R a multiple of 16).
    unsafe {
        if R == 4 {
            for (k, ok) in small32_regs::<false>(x, t).iter().enumerate() {
                F32x16::store(y.add(16 * k), *ok);
            }
        } else {
            for (k, ok) in small64_regs::<false>(x, t).iter().enumerate() {
                F32x16::store(y.add(16 * k), *ok);
            }
        }
        super::split_avx512::split_fwd_aligned::<F32x16, true>(y, y, 8 * R, v);
    }
}

/// Real inverse transform into `n = 8·R` (32, 64) complex pairs at `y` from the `n + 1` bins
/// at `x`: the inverse split step into `y` ([`super::split_avx512::split_inv_aligned`]),
/// then the inverse codelet ([`small32`], [`small64`]) in place, its outputs multiplied by
/// `scale` unless it is 1; as the double `small_real_inv` of [`super::pow2_avx512`].
///
/// # Safety
/// AVX-512 F/DQ/VL/BW + FMA; `x` readable for `n + 1` complex values, `y` writable for `n`,
/// disjoint from `x`; `t` the plan's table, `stw` readable for `n/2` complex values.
#[inline(never)]
#[target_feature(enable = "avx512f,avx512dq,avx512vl,avx512bw,fma")]
unsafe fn small_real_inv<const R: usize>(
    x: *const f32,
    y: *mut f32,
    t: *const f32,
    stw: *const f32,
    scale: f32,
) {
    // SAFETY: the split reads x[..=n] and stw[..n/2] and writes y[..n]; the codelet then reads
    // y[..n] and its table and writes y[..n] after all its loads (the contract above).
    unsafe {
        super::split_avx512::split_inv_aligned::<F32x16>(x, y, 8 * R, stw);
        let mut o = [F32x16::zero(); 8];
        if R == 4 {
            o[..4].copy_from_slice(&small32_regs::<true>(y, t));
        } else {
            o = small64_regs::<true>(y, t);
        }
        if scale != 1.0 {
            let s = F32x16::bcast(scale);
            for ok in o.iter_mut().take(R) {
                *ok = F32x16::mul(*ok, s);
            }
        }
        for (k, ok) in o.iter().enumerate().take(R) {
            F32x16::store(y.add(16 * k), *ok);
        }
    }
}

/// 4-point DFT across four ymm vectors.
///
/// # Safety
/// Register-only arithmetic (no memory access); the CPU must support AVX-512 F/VL + FMA,
/// which holds because it is only inlined into the `#[target_feature]` `small16`.
#[inline(always)]
unsafe fn bfly4_256<const INV: bool>(
    a: __m256,
    b: __m256,
    c: __m256,
    d: __m256,
) -> (__m256, __m256, __m256, __m256) {
    // SAFETY: register arithmetic, no memory access.
    unsafe {
        let one = _mm256_set1_ps(1.0);
        let apc = _mm256_add_ps(a, c);
        let amc = _mm256_sub_ps(a, c);
        let bpd = _mm256_add_ps(b, d);
        let bmd = _mm256_sub_ps(b, d);
        let sw = _mm256_permute_ps::<0xB1>(bmd);
        let y0 = _mm256_add_ps(apc, bpd);
        let y2 = _mm256_sub_ps(apc, bpd);
        let minus_j = _mm256_fmsubadd_ps(amc, one, sw);
        let plus_j = _mm256_fmaddsub_ps(amc, one, sw);
        if INV {
            (y0, plus_j, y2, minus_j)
        } else {
            (y0, minus_j, y2, plus_j)
        }
    }
}

/// `z · w` (ymm), `w` given as duplicated re and im parts.
///
/// # Safety
/// Register-only arithmetic (no memory access); the CPU must support AVX-512 F/VL + FMA,
/// which holds because it is only inlined into the `#[target_feature]` `small16`.
#[inline(always)]
unsafe fn cmul_256(z: __m256, wr: __m256, wi: __m256) -> __m256 {
    // SAFETY: register arithmetic, no memory access.
    unsafe { _mm256_fmaddsub_ps(z, wr, _mm256_mul_ps(_mm256_permute_ps::<0xB1>(z), wi)) }
}

/// n = 16 = 4 × 4 in ymm registers: j = j1 + 4·j2; DFT4 across, twiddles ω16^{j1·k2},
/// 4×4 transpose, DFT4 across, contiguous stores.
///
/// # Safety
/// AVX-512 F/DQ/VL/BW + FMA; `x` readable and `y` writable for 16 complex values (may be
/// equal); `t` holds 3 row pairs (6 rows of 16 floats, 64-byte aligned).
#[inline(never)]
#[target_feature(enable = "avx512f,avx512dq,avx512vl,avx512bw,fma")]
unsafe fn small16<const INV: bool>(x: *const f32, y: *mut f32, t: *const f32) {
    // SAFETY: loads and stores at floats 0..32 (16 complex), all loads before the first
    // store; the first 8 floats of table rows 0..6 are read.
    unsafe {
        let v0 = _mm256_loadu_ps(x);
        let v1 = _mm256_loadu_ps(x.add(8));
        let v2 = _mm256_loadu_ps(x.add(16));
        let v3 = _mm256_loadu_ps(x.add(24));
        let (a0, a1, a2, a3) = bfly4_256::<INV>(v0, v1, v2, v3);
        let a1 = cmul_256(a1, _mm256_load_ps(t), _mm256_load_ps(t.add(16)));
        let a2 = cmul_256(a2, _mm256_load_ps(t.add(32)), _mm256_load_ps(t.add(48)));
        let a3 = cmul_256(a3, _mm256_load_ps(t.add(64)), _mm256_load_ps(t.add(80)));
        let d = _mm256_castps_pd;
        let t0 = _mm256_unpacklo_pd(d(a0), d(a1)); // (a0[0], a1[0] | a0[2], a1[2])
        let t1 = _mm256_unpackhi_pd(d(a0), d(a1)); // (a0[1], a1[1] | a0[3], a1[3])
        let t2 = _mm256_unpacklo_pd(d(a2), d(a3));
        let t3 = _mm256_unpackhi_pd(d(a2), d(a3));
        let c = _mm256_castpd_ps;
        let w0 = c(_mm256_permute2f128_pd::<0x20>(t0, t2));
        let w1 = c(_mm256_permute2f128_pd::<0x20>(t1, t3));
        let w2 = c(_mm256_permute2f128_pd::<0x31>(t0, t2));
        let w3 = c(_mm256_permute2f128_pd::<0x31>(t1, t3));
        let (o0, o1, o2, o3) = bfly4_256::<INV>(w0, w1, w2, w3);
        _mm256_storeu_ps(y, o0);
        _mm256_storeu_ps(y.add(8), o1);
        _mm256_storeu_ps(y.add(16), o2);
        _mm256_storeu_ps(y.add(24), o3);
    }
}

#[cfg(test)]
mod tests {
    use super::super::pow2_check::{matches_rustfft_at_every_length, Pow2Plan};
    use super::*;

    type C = Complex<f32>;

    impl Pow2Plan<f32> for Pow2Avx512F32 {
        fn scratch_len(&self) -> usize {
            Pow2Avx512F32::scratch_len(self)
        }
        fn process(&self, buf: &mut [C], scratch: &mut [C]) {
            Pow2Avx512F32::process(self, buf, scratch)
        }
        fn process_outofplace(&self, input: &[C], output: &mut [C], scratch: &mut [C]) {
            Pow2Avx512F32::process_outofplace(self, input, output, scratch)
        }
    }

    /// The pass plans are those of the module doc's table.
    #[test]
    fn pass_plans_are_the_documented_ones() {
        let want = [
            (16, "C16"),
            (32, "C32"),
            (64, "C64"),
            (128, "F16 L8"),
            (256, "F16 L16"),
            (512, "F8 FL16+4"),
            (1024, "F16 FL16+4"),
            (2048, "F8 M16 L16"),
            (4096, "F16 M16 L16"),
            (8192, "F8 M16 FL16+4"),
            (16384, "F16 M16 FL16+4"),
            (32768, "F8 M16 FL16+16"),
        ];
        for (n, plan) in want {
            for inv in [false, true] {
                if let Some(p) = Pow2Avx512F32::new(n, inv) {
                    assert_eq!(p.describe(), plan, "n = {n}");
                }
            }
        }
    }

    /// Every length 16 … 32768, both directions (where this CPU has AVX-512), through the
    /// shared checks of [`matches_rustfft_at_every_length`] (double reference, RMS error
    /// against rustfft's float transform, round trip, in place = out of place at odd offsets,
    /// impulses, NaN); other lengths have no plan.
    #[test]
    fn matches_rustfft_in_and_out_of_place_at_every_length() {
        for n in [0, 1, 2, 8, 12, 48, 100, 65536] {
            assert!(Pow2Avx512F32::new(n, false).is_none(), "n = {n}");
        }
        let have = crate::simd::detected() == crate::simd::Level::Avx512;
        matches_rustfft_at_every_length(37, 4..=15, have, Pow2Avx512F32::new);
    }
}
