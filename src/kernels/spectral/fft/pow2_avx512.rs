//! AVX-512 double-precision complex FFT for power-of-two lengths 16..=32768.
//!
//! # Algorithm
//!
//! Stockham autosort, decimation in frequency, 4 complex doubles per zmm. A stage works on
//! sub-transforms of length `m` spaced `s` apart (`s·m = n`): for `p < m/R`, `q < s` it reads
//! `x[q + s(p + i·m/R)]` (`i < R`), does an `R`-point DFT, multiplies output `r` by
//! `ω_m^{rp}` and writes it to `y[q + s(R·p + r)]`, ping-ponging between buffer and scratch.
//!
//! * The first stage (`s = 1`, radix 4, 8 or 16) is vectorised over `p`: per-lane twiddles from
//!   pre-duplicated re/im rows, outputs transposed in registers (4×4 blocks of 128-bit lanes)
//!   before contiguous stores.
//! * Middle stages are radix 16 (4×4 in registers), vectorised over `q`, twiddles broadcast
//!   from a 32-double row per `p`.
//! * The last stage (radix 16 or 8) has unit twiddles and runs in place when the pass count
//!   needs it; `FL16+R` fuses the last radix-16 stage and a radix-`R` (4/8/16) last stage per
//!   q-vector through a 16 KiB stack buffer.
//! * Every stage kernel is instantiated with compile-time `n` / `s` / `m/16` (constant strides
//!   and trip counts are faster than runtime strides);
//!   [`kernel`] lists exactly the instantiations the plans below use, and anything else is
//!   `unreachable!`.
//! * Stage kernels are called through function pointers chosen at plan time (a `match` inside
//!   one driver let LLVM inline them all into one function with a 16 KiB stack-probe prologue
//!   and a long address set-up on every call).
//! * n = 16, 32, 64: single-pass codelets (radix-4 first stage kept in registers, then a
//!   4/8/16-point DFT). Plans of these lengths also have a fused real codelet
//!   ([`Pow2Avx512::real_forward`], [`Pow2Avx512::real_inverse`]): the whole real transform of
//!   2n points, the codelet and the split step (or the inverse split and the codelet), with no
//!   scratch and no call between them. Forward plans of 128 and 256 points have one too
//!   ([`two_pass_real`]): their two passes and the split step, without the thread's workspace.
//! * No software prefetch: with the const kernels it only slowed the large lengths down.
//!
//! # Pass plans
//!
//! C = single codelet, F = first stage (radix), M16 = radix-16 middle stage, L = last stage
//! (unit twiddles), FL16+R = fused radix-16 + radix-R last stage. `(s, m/16)` per stage (for
//! the first stage the second number is `n / R`). They were chosen by alternating
//! measurements against all first-radix / fusion variants; a test checks them against this
//! table.
//!
//! | n     | plan             | stages `(s, m/16)`                              |
//! |------:|------------------|-------------------------------------------------|
//! | 16    | C16              | —                                               |
//! | 32    | C32              | —                                               |
//! | 64    | C64              | —                                               |
//! | 128   | F16 L8           | F16 (1, 8), L8 (16, 1)                          |
//! | 256   | F16 L16          | F16 (1, 16), L16 (16, 1)                        |
//! | 512   | F4 M16 L8        | F4 (1, 128), M16 (4, 8), L8 (64, 1)             |
//! | 1024  | F4 M16 L16       | F4 (1, 256), M16 (4, 16), L16 (64, 1)           |
//! | 2048  | F8 M16 L16       | F8 (1, 256), M16 (8, 16), L16 (128, 1)          |
//! | 4096  | F16 FL16+16      | F16 (1, 256), FL16+16 (16, 16)                  |
//! | 8192  | F8 M16 FL16+4    | F8 (1, 1024), M16 (8, 64), FL16+4 (128, 4)      |
//! | 16384 | F8 M16 FL16+8    | F8 (1, 2048), M16 (8, 128), FL16+8 (128, 8)     |
//! | 32768 | F8 M16 FL16+16   | F8 (1, 4096), M16 (8, 256), FL16+16 (128, 16)   |
//!
//! The inverse transform runs the same kernels (a const generic flips the sign of the
//! in-register constants) with the conjugate twiddle table.
//!
//! # Twiddles
//!
//! All twiddles are [`super::mixed::unit_root`] values (octant reduction in integers, angle in
//! double-double).
//!
//! # Safety
//!
//! All intrinsic code is in `unsafe fn`s. The stage kernels and the in-register DFTs are
//! shared with the float plans of [`super::pow2_avx512_f32`], written once over the vector type
//! in [`super::pow2_avx512_stages`]; this module keeps the plans and the double-only codelets
//! (n ≤ 64 and the fused real ones). The kernels carry
//! `#[target_feature(enable = "avx512f,avx512dq,avx512vl,avx512bw,fma")]`; the
//! `#[inline(always)]` helpers touch no memory and are only called from those kernels. The
//! kernels are reachable only through a plan, and [`Pow2Avx512::new`] returns `None` unless
//! the CPU has all five features.

use super::super::Complex;
use super::mixed::unit_root;
use super::pow2_avx512_stages::{
    dft_r, first_group, first_stage, first_stage_win, fused_last, last8_stage, mid16_stage,
    transpose_rows4, Zmm,
};
use super::split_avx512::{F64x8, Lanes};
use core::mem::MaybeUninit;

/// One cache line of doubles, so table rows are 64-byte aligned.
#[derive(Clone, Copy, Default)]
#[repr(C, align(64))]
struct V8([f64; 8]);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// Whole transform of `n = 4·R2` in registers (first-stage radix-4 table).
    Small16,
    Small32,
    Small64,
    /// `s = 1`, radix 4/8/16, vectorised over `p`; twiddles: `2(R−1)` rows per 4 values of `p`.
    First4,
    First8,
    First16,
    /// Radix-16, `s ≥ 4`, with twiddles; one 32-double row per `p`.
    Mid16,
    /// Last two stages fused per q-vector through an L1 buffer: radix 16 with twiddles
    /// (`m = 16·R`, table as `Mid16`), then radix `R` with unit twiddles.
    Fused4,
    Fused8,
    Fused16,
    /// Radix-16/8 last stage (`m = R`), unit twiddles.
    Last16,
    Last8,
}

impl Kind {
    /// The plan notation of the module doc (`describe`).
    #[cfg(test)]
    fn name(self) -> &'static str {
        match self {
            Kind::Small16 => "C16",
            Kind::Small32 => "C32",
            Kind::Small64 => "C64",
            Kind::First4 => "F4",
            Kind::First8 => "F8",
            Kind::First16 => "F16",
            Kind::Mid16 => "M16",
            Kind::Fused4 => "FL16+4",
            Kind::Fused8 => "FL16+8",
            Kind::Fused16 => "FL16+16",
            Kind::Last16 => "L16",
            Kind::Last8 => "L8",
        }
    }
}

/// Stage kernel: `(x, y, table)`; the length and strides are compile-time parameters.
type StageFn = unsafe fn(*const f64, *mut f64, *const f64);

#[derive(Clone, Copy)]
struct Stage {
    /// which pass (the kernel `f` was chosen by it, with the stride and trip count)
    #[cfg_attr(not(test), allow(dead_code))]
    kind: Kind,
    /// offset of the stage's table rows (in `V8` units)
    tw: usize,
    f: StageFn,
}

/// Planned power-of-two double-precision FFT using AVX-512 .
pub struct Pow2Avx512 {
    n: usize,
    stages: Vec<Stage>,
    tw: Vec<V8>,
    /// the codelet for n ≤ 64 (then `stages` is that single stage), kept in the struct so the
    /// small sizes reach it without going through the stage vector
    small: Option<StageFn>,
    /// the fused real forward codelet ([`small_real`], [`two_pass_real`]) of a forward plan
    /// for n ≤ 256
    real_fwd: Option<RealFn>,
    /// the fused real inverse codelet ([`small_real_inv`]) of an inverse plan for n ≤ 64
    real_inv: Option<RealInvFn>,
    /// the windowed first stage ([`first_stage_win`]) of a forward multi-pass plan
    first_win: Option<FirstWinFn>,
    /// the real forward split step's twiddles `v[k]`, `k < n/2`: up to
    /// [`super::split_avx512::SPREAD_MAX`] points spread, rows `(v.re, v.re)` and
    /// `(−v.im, v.im)` per block of four ([`super::split_avx512::split_table_rows`]), as they
    /// are above; empty until [`Pow2Avx512::with_split`] gives them
    split: Vec<V8>,
}

/// Fused real forward codelet: `(x, y, table, spread split twiddles)` (see [`small_real`]).
type RealFn = unsafe fn(*const f64, *mut f64, *const f64, *const f64);

/// Windowed first stage: `(x, y, table, window)` (see [`first_stage_win`]).
type FirstWinFn = unsafe fn(*const f64, *mut f64, *const f64, *const f64);

/// Fused real inverse codelet: `(x, y, table, split twiddles, scale)` (see [`small_real_inv`]).
type RealInvFn = unsafe fn(*const f64, *mut f64, *const f64, *const f64, f64);

/// Stages of the multi-pass plans, indexed by `log2(n) − 7` (n = 128..=32768); see the module
/// doc. The first entry is the first stage; the strides follow from it.
const PLANS: [&[Kind]; 9] = {
    use Kind::*;
    [
        &[First16, Last8],         // 128
        &[First16, Last16],        // 256
        &[First4, Mid16, Last8],   // 512
        &[First4, Mid16, Last16],  // 1024
        &[First8, Mid16, Last16],  // 2048
        &[First16, Fused16],       // 4096
        &[First8, Mid16, Fused4],  // 8192
        &[First8, Mid16, Fused8],  // 16384
        &[First8, Mid16, Fused16], // 32768
    ]
};

impl Pow2Avx512 {
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
            (c, sign * s)
        };
        // (kind, s, m/16 or n/R)
        let plan: Vec<(Kind, usize, usize)> = match n {
            16 => vec![(Kind::Small16, 1, 1)],
            32 => vec![(Kind::Small32, 1, 1)],
            64 => vec![(Kind::Small64, 1, 1)],
            _ => {
                let kinds = PLANS[n.trailing_zeros() as usize - 7];
                let radix = match kinds[0] {
                    Kind::First4 => 4,
                    Kind::First8 => 8,
                    Kind::First16 => 16,
                    k => unreachable!("plan for n = {n} starts with {k:?}"),
                };
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
                            let rb = match kind {
                                Kind::Fused4 => 4,
                                Kind::Fused8 => 8,
                                _ => 16,
                            };
                            assert_eq!(m, 16 * rb, "plan for n = {n}");
                            plan.push((kind, s, rb));
                            m = 1;
                        }
                        Kind::Last16 | Kind::Last8 => {
                            assert_eq!(m, if kind == Kind::Last16 { 16 } else { 8 });
                            plan.push((kind, s, 1));
                            m = 1;
                        }
                        k => unreachable!("{k:?} after the first stage (n = {n})"),
                    }
                }
                assert_eq!(m, 1, "plan for n = {n} does not cover the length");
                plan
            }
        };
        let mut tw: Vec<V8> = Vec::new();
        // first-stage table (the codelets use the radix-4 one): per 4 values of p, rows of
        // duplicated re / im of ω_n^{r(p0 + l)}
        let radix = if n <= 64 { 4 } else { n / plan[0].2 };
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
                // one row of ω_m^{r·p}, r = 1..16, per p < m/16 (32 doubles = 4 `V8`)
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
            };
            stages.push(Stage { kind, tw: off, f });
        }
        let small = if n <= 64 { Some(stages[0].f) } else { None };
        let real_fwd: Option<RealFn> = match (inverse, n) {
            (false, 16) => Some(small_real::<4>),
            (false, 32) => Some(small_real::<8>),
            (false, 64) => Some(small_real::<16>),
            (false, 128) => Some(two_pass_real::<128>),
            (false, 256) => Some(two_pass_real::<256>),
            _ => None,
        };
        let real_inv: Option<RealInvFn> = match (inverse, n) {
            (true, 16) => Some(small_real_inv::<4>),
            (true, 32) => Some(small_real_inv::<8>),
            (true, 64) => Some(small_real_inv::<16>),
            _ => None,
        };
        let first_win = (!inverse && small.is_none()).then(|| first_kernel_win(plan[0].0, n));
        Some(Self {
            n,
            stages,
            tw,
            small,
            real_fwd,
            real_inv,
            first_win,
            split: Vec::new(),
        })
    }

    /// Pass plan, e.g. `"F16 FL16+16"` (the tests check it against the module doc's table).
    #[cfg(test)]
    fn describe(&self) -> String {
        let names: Vec<&str> = self.stages.iter().map(|st| st.kind.name()).collect();
        names.join(" ")
    }

    /// Required scratch length: 0 for the single-codelet sizes (16, 32, 64), else `n`.
    pub fn scratch_len(&self) -> usize {
        if self.small.is_some() {
            0
        } else {
            super::pow2_shared::aligned_passes_scratch(self.n)
        }
    }

    /// In-place unnormalised transform (forward `e^{-2πijk/n}`, as rustfft).
    pub fn process(&self, buf: &mut [Complex<f64>], scratch: &mut [Complex<f64>]) {
        assert_eq!(buf.len(), self.n, "buffer length must equal the FFT length");
        assert!(scratch.len() >= self.scratch_len(), "scratch too short");
        let b = buf.as_mut_ptr() as *mut f64;
        let t = scratch.as_mut_ptr() as *mut f64;
        // SAFETY: `self` exists, so `new` checked the CPU features; `b` points to exactly `n`
        // writable complex values and `t` to at least `scratch_len()` (both asserted above),
        // and they do not overlap (distinct `&mut` borrows).
        unsafe { self.run(b, core::ptr::null(), b, t, true) }
    }

    /// Out-of-place transform: `input` untouched, result in `output`.
    pub fn process_outofplace(
        &self,
        input: &[Complex<f64>],
        output: &mut [Complex<f64>],
        scratch: &mut [Complex<f64>],
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
        let i = input.as_ptr() as *const f64;
        let o = output.as_mut_ptr() as *mut f64;
        let t = scratch.as_mut_ptr() as *mut f64;
        // SAFETY: as in `process`: lengths asserted above, features checked in `new`; `input`
        // is a shared borrow, so it is disjoint from the exclusive `output` and `scratch`.
        unsafe { self.run(i, core::ptr::null(), o, t, false) }
    }

    super::pow2_shared::windowed_methods!(f64);

    /// Whether [`Self::process_destroying`] into a misaligned output beats the in-place
    /// passes through that output: at every length but 2048, whose last pass (radix 16 over
    /// vectors 2 KiB apart) then reads and writes twice the cache lines of the in-place pass in
    /// the same few L1 sets.
    pub fn destroying_pays(&self) -> bool {
        self.n != 2048
    }

    super::pow2_shared::destroying_method!(f64, 8);

    super::pow2_shared::real_codelet_methods!(f64, V8, 8, super::split_avx512::split_fwd_f64_entry);

    /// # Safety
    /// AVX-512 F/DQ/VL/BW + FMA present (guaranteed by `new`); `src` readable and `dst`
    /// writable for `n` complex values, `tmp` writable for `scratch_len()` complex values;
    /// `tmp` disjoint from both; `src`, `dst` equal (`inplace`) or disjoint. `win` null, or
    /// (with `first_win`, out of place) readable for `n` complex values: the first stage then
    /// multiplies the input by it.
    unsafe fn run(
        &self,
        src: *const f64,
        win: *const f64,
        dst: *mut f64,
        tmp: *mut f64,
        inplace: bool,
    ) {
        let tw = self.tw.as_ptr() as *const f64;
        if let Some(f) = self.small {
            debug_assert!(win.is_null(), "the codelets take no window");
            // SAFETY: single-pass codelet for exactly this `n`, reading `n` values at `src` and
            // writing `n` at `dst` (all loads before stores, so `src == dst` is fine), with the
            // table this plan built for it.
            return unsafe { f(src, dst, tw) };
        }
        let count = self.stages.len();
        let two = super::pow2_shared::use_aligned_passes(self.n, dst as usize, inplace);
        let mut from = src;
        for (idx, st) in self.stages.iter().enumerate() {
            let to = super::pow2_shared::stage_dst(idx, count, inplace, two, dst, tmp, 2 * self.n);
            // SAFETY: `from` and `to` are each `src`, `dst`, `tmp` or (with `two`) `tmp + n`
            // complex values, all valid for `n` complex values and the last two disjoint from
            // each other and from `src`, `dst` (`scratch_len()` is n, 2n where `two` can hold,
            // for multi-pass plans). The kernel was
            // instantiated for exactly this `n`, `s`, `m/16` (see `kernel`), so its indices
            // stay below `n`; `st.tw` is the offset of this stage's rows in `self.tw`, which
            // holds all the rows the kernel reads. `from == to` only for the last stage of an
            // odd-length in-place plan, a unit-twiddle or fused last stage whose q-vector reads
            // precede its writes to the same positions. CPU features were checked in `new`.
            // With a window, `first_win` is the windowed twin of stage 0's kernel (same `n`,
            // radix and table rows) and also reads `win[..n]`.
            unsafe {
                match self.first_win {
                    Some(fw) if idx == 0 && !win.is_null() => fw(from, to, tw.add(8 * st.tw), win),
                    _ => (st.f)(from, to, tw.add(8 * st.tw)),
                }
            };
            from = to;
        }
        debug_assert_eq!(from, dst as *const f64);
    }
}

/// The kernel instantiation for one stage of a plan: `kind` at length `n` with stride `s` and
/// `m16` (`m/16` for radix-16 stages, `n/R` for the first stage, 1 for the last). Covers exactly
/// the stages that [`PLANS`] (and the codelets) produce: 3 codelets + 24 stage kernels per
/// direction; any other combination is a planner bug.
fn kernel<const INV: bool>(kind: Kind, n: usize, s: usize, m16: usize) -> StageFn {
    use Kind::*;
    match (kind, n, s, m16) {
        (Small16, 16, 1, 1) => small::<INV, 4>,
        (Small32, 32, 1, 1) => small::<INV, 8>,
        (Small64, 64, 1, 1) => small::<INV, 16>,
        // 128: F16 L8
        (First16, 128, 1, 8) => first_stage::<F64x8, INV, 16, false, 128>,
        (Last8, 128, 16, 1) => last8_stage::<F64x8, INV, 16>,
        // 256: F16 L16
        (First16, 256, 1, 16) => first_stage::<F64x8, INV, 16, false, 256>,
        (Last16, 256, 16, 1) => mid16_stage::<F64x8, INV, false, false, 16, 1>,
        // 512: F4 M16 L8
        (First4, 512, 1, 128) => first_stage::<F64x8, INV, 4, false, 512>,
        (Mid16, 512, 4, 8) => mid16_stage::<F64x8, INV, true, false, 4, 8>,
        (Last8, 512, 64, 1) => last8_stage::<F64x8, INV, 64>,
        // 1024: F4 M16 L16
        (First4, 1024, 1, 256) => first_stage::<F64x8, INV, 4, false, 1024>,
        (Mid16, 1024, 4, 16) => mid16_stage::<F64x8, INV, true, false, 4, 16>,
        (Last16, 1024, 64, 1) => mid16_stage::<F64x8, INV, false, false, 64, 1>,
        // 2048: F8 M16 L16
        (First8, 2048, 1, 256) => first_stage::<F64x8, INV, 8, false, 2048>,
        (Mid16, 2048, 8, 16) => mid16_stage::<F64x8, INV, true, false, 8, 16>,
        (Last16, 2048, 128, 1) => mid16_stage::<F64x8, INV, false, false, 128, 1>,
        // 4096: F16 FL16+16
        (First16, 4096, 1, 256) => first_stage::<F64x8, INV, 16, false, 4096>,
        (Fused16, 4096, 16, 16) => fused_last::<F64x8, INV, 16, 16>,
        // 8192: F8 M16 FL16+4
        (First8, 8192, 1, 1024) => first_stage::<F64x8, INV, 8, false, 8192>,
        (Mid16, 8192, 8, 64) => mid16_stage::<F64x8, INV, true, false, 8, 64>,
        (Fused4, 8192, 128, 4) => fused_last::<F64x8, INV, 4, 128>,
        // 16384: F8 M16 FL16+8
        (First8, 16384, 1, 2048) => first_stage::<F64x8, INV, 8, false, 16384>,
        (Mid16, 16384, 8, 128) => mid16_stage::<F64x8, INV, true, false, 8, 128>,
        (Fused8, 16384, 128, 8) => fused_last::<F64x8, INV, 8, 128>,
        // 32768: F8 M16 FL16+16
        (First8, 32768, 1, 4096) => first_stage::<F64x8, INV, 8, false, 32768>,
        (Mid16, 32768, 8, 256) => mid16_stage::<F64x8, INV, true, false, 8, 256>,
        (Fused16, 32768, 128, 16) => fused_last::<F64x8, INV, 16, 128>,
        _ => unreachable!("no kernel for {kind:?} at n = {n}, s = {s}, m/16 = {m16}"),
    }
}

/// The windowed first stage ([`first_stage_win`]) of the forward plan of `n` whose first stage
/// is `kind` (the first-stage rows of [`kernel`]).
fn first_kernel_win(kind: Kind, n: usize) -> FirstWinFn {
    use Kind::*;
    match (kind, n) {
        (First16, 128) => first_stage_win::<F64x8, 16, false, 128>,
        (First16, 256) => first_stage_win::<F64x8, 16, false, 256>,
        (First4, 512) => first_stage_win::<F64x8, 4, false, 512>,
        (First4, 1024) => first_stage_win::<F64x8, 4, false, 1024>,
        (First8, 2048) => first_stage_win::<F64x8, 8, false, 2048>,
        (First16, 4096) => first_stage_win::<F64x8, 16, false, 4096>,
        (First8, 8192) => first_stage_win::<F64x8, 8, false, 8192>,
        (First8, 16384) => first_stage_win::<F64x8, 8, false, 16384>,
        (First8, 32768) => first_stage_win::<F64x8, 8, false, 32768>,
        _ => unreachable!("no windowed first stage for {kind:?} at n = {n}"),
    }
}

// ---------------------------------------------------------------------------------------------
// Single-pass codelets (n ≤ 64) and the two-pass real codelet, over the shared stages of
// [`super::pow2_avx512_stages`]. Common contract of the kernels: AVX-512 F/DQ/VL/BW + FMA present;
// `x` readable and `y` writable for `n` complex values; `t` the plan's 64-byte aligned table.

/// Whole transform of `n = 4·R2` (16, 32, 64) in registers: radix-4 first stage, then an
/// `R2`-point DFT over the vectors. All loads precede all stores (in-place safe).
///
/// # Safety
/// See the contract above (`n = 4·R2`); `t` holds `R2/4` groups of 6 rows.
#[inline(never)]
#[target_feature(enable = "avx512f,avx512dq,avx512vl,avx512bw,fma")]
unsafe fn small<const INV: bool, const R2: usize>(x: *const f64, y: *mut f64, tw: *const f64) {
    // SAFETY: `small_regs` reads x[..n] and the table (n = 4·R2); the stores write complex
    // 4r + 0..4 < n after all loads.
    unsafe {
        let o = small_regs::<INV, R2>(x, tw);
        for (r, or) in o.iter().enumerate().take(R2) {
            F64x8::store(y.add(8 * r), *or);
        }
    }
}

/// The transform of [`small`] in registers: vector `r < R2` holds `X[4r .. 4r + 4]`.
///
/// # Safety
/// As [`small`] for `x` and `tw` (nothing is written); inlined only into AVX-512 code.
#[inline(always)]
unsafe fn small_regs<const INV: bool, const R2: usize>(
    x: *const f64,
    tw: *const f64,
) -> [F64x8; 16] {
    // SAFETY: n = 4·R2 values; `first_group` reads complex 4g + 0..4 + i·R2 < n and table
    // group g (48 doubles); the rest is register-only.
    unsafe {
        let mut v = [F64x8::zero(); 16];
        for g in 0..R2 / 4 {
            let o = first_group::<F64x8, INV, 4, false>(
                x,
                core::ptr::null(),
                4 * g,
                R2,
                tw.add(48 * g),
            );
            let rows = transpose_rows4::<4>(&o);
            for l in 0..4 {
                v[4 * g + l] = rows[l];
            }
        }
        dft_r::<F64x8, INV, R2>(v)
    }
}

/// Real forward transform of `2n` points, `n = 4·R2` (16, 32, 64) complex pairs at `x`: the
/// forward codelet of [`small`] stored to `y`, then the forward split step on the vectors just
/// stored ([`super::split_avx512::split_fwd_aligned`], whose loads the store buffer
/// forwards), `n + 1` bins at `y`: bit for bit the codelet followed by the split step, without
/// a call, the plan's scratch or the thread's workspace in between.
///
/// # Safety
/// AVX-512 F/DQ/VL/BW + FMA; `x` readable for `n` complex values, `tw` the plan's radix-4
/// table, `v` the plan's spread split twiddles (`2n` doubles), `y` writable for `n + 1`
/// complex values, disjoint from `x`.
#[inline(never)]
#[target_feature(enable = "avx512f,avx512dq,avx512vl,avx512bw,fma")]
unsafe fn small_real<const R2: usize>(x: *const f64, y: *mut f64, tw: *const f64, v: *const f64) {
    // SAFETY: `small_regs` reads x[..n] and the table; the stores write y[..n]; the split reads
    // and writes y[..=n] and reads v[..2n] (the contract above, n = 4·R2 a multiple of 8).
    unsafe {
        let o = small_regs::<false, R2>(x, tw);
        for (r, or) in o.iter().enumerate().take(R2) {
            F64x8::store(y.add(8 * r), *or);
        }
        super::split_avx512::split_fwd_aligned::<F64x8, true>(y, y, 4 * R2, v);
    }
}

/// Real forward transform of `2n` points, `n` = 128 or 256 complex pairs at `x`, in the two
/// passes of this length's plan (F16 then L8 or L16) with no scratch from the plan or the
/// thread: the first pass writes `y` when `y` is on a 64-byte boundary, else a 4 KiB stack
/// buffer that is; the last pass (unit twiddles) runs in place there; the forward split step
/// then reads the vectors it stored ([`super::split_avx512::split_fwd_aligned`]) and writes
/// the `n + 1` bins to `y`. Bit for bit the plan's transform followed by the split step.
///
/// # Safety
/// AVX-512 F/DQ/VL/BW + FMA; `x` readable for `n` complex values, `tw` the plan's table (the
/// first stage's rows at its start), `v` the plan's spread split twiddles (`2n` doubles), `y`
/// writable for `n + 1` complex values, disjoint from `x`.
#[inline(never)]
#[target_feature(enable = "avx512f,avx512dq,avx512vl,avx512bw,fma")]
unsafe fn two_pass_real<const N: usize>(x: *const f64, y: *mut f64, tw: *const f64, v: *const f64) {
    // 256 complex values: the larger of the two lengths
    let mut buf = MaybeUninit::<[V8; 64]>::uninit();
    let t = if (y as usize).is_multiple_of(64) {
        y
    } else {
        buf.as_mut_ptr() as *mut f64
    };
    // SAFETY: `t` is `y` (n + 1 complex values) or the buffer (256 ≥ n complex values), in
    // either case disjoint from `x`. The first stage reads x[..n] and the table's first-stage
    // rows and writes t[..n]; the unit-twiddle last stage loads each q-vector's 8 or 16 values
    // before it stores them (in place is fine); the split reads t[..n] and v[..2n] and writes
    // y[..=n] (in place when t = y, else disjoint). The stage kernels are the ones `kernel`
    // gives the plan of this `n`.
    unsafe {
        match N {
            128 => {
                first_stage::<F64x8, false, 16, false, 128>(x, t, tw);
                last8_stage::<F64x8, false, 16>(t, t, tw);
            }
            256 => {
                first_stage::<F64x8, false, 16, false, 256>(x, t, tw);
                mid16_stage::<F64x8, false, false, false, 16, 1>(t, t, tw);
            }
            _ => unreachable!("two-pass real codelet for n = {N}"),
        }
        super::split_avx512::split_fwd_aligned::<F64x8, true>(t, y, N, v);
    }
}

/// Real inverse transform into `n = 4·R2` (16, 32, 64) complex pairs at `y` from the `n + 1`
/// bins at `x`: the inverse split step into `y`
/// ([`super::split_avx512::split_inv_aligned`], storing the vectors the codelet loads, which
/// the store buffer forwards), then the inverse codelet of [`small`] in place, its outputs
/// multiplied by `scale` unless it is 1: bit for bit the split step, the codelet and the
/// scaling one after another.
///
/// # Safety
/// AVX-512 F/DQ/VL/BW + FMA; `x` readable for `n + 1` complex values, `y` writable for `n`,
/// disjoint from `x`; `tw` the plan's radix-4 table, `stw` readable for `n/2` complex values.
#[inline(never)]
#[target_feature(enable = "avx512f,avx512dq,avx512vl,avx512bw,fma")]
unsafe fn small_real_inv<const R2: usize>(
    x: *const f64,
    y: *mut f64,
    tw: *const f64,
    stw: *const f64,
    scale: f64,
) {
    // SAFETY: the split reads x[..=n] and stw[..n/2] and writes y[..n]; the codelet then reads
    // y[..n] and the table and writes y[..n] after all its loads (the contract above).
    unsafe {
        super::split_avx512::split_inv_aligned::<F64x8>(x, y, 4 * R2, stw);
        let mut o = small_regs::<true, R2>(y, tw);
        if scale != 1.0 {
            let s = F64x8::bcast(scale);
            for or in o.iter_mut().take(R2) {
                *or = F64x8::mul(*or, s);
            }
        }
        for (r, or) in o.iter().enumerate().take(R2) {
            F64x8::store(y.add(8 * r), *or);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::pow2_check::{matches_rustfft_at_every_length, Pow2Plan};
    use super::*;

    type C = Complex<f64>;

    impl Pow2Plan<f64> for Pow2Avx512 {
        fn scratch_len(&self) -> usize {
            Pow2Avx512::scratch_len(self)
        }
        fn process(&self, buf: &mut [C], scratch: &mut [C]) {
            Pow2Avx512::process(self, buf, scratch)
        }
        fn process_outofplace(&self, input: &[C], output: &mut [C], scratch: &mut [C]) {
            Pow2Avx512::process_outofplace(self, input, output, scratch)
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
            (512, "F4 M16 L8"),
            (1024, "F4 M16 L16"),
            (2048, "F8 M16 L16"),
            (4096, "F16 FL16+16"),
            (8192, "F8 M16 FL16+4"),
            (16384, "F8 M16 FL16+8"),
            (32768, "F8 M16 FL16+16"),
        ];
        for (n, plan) in want {
            for inv in [false, true] {
                if let Some(p) = Pow2Avx512::new(n, inv) {
                    assert_eq!(p.describe(), plan, "n = {n}");
                }
            }
        }
    }

    /// Every length 16 … 32768, both directions (where this CPU has AVX-512), through the
    /// shared checks of [`matches_rustfft_at_every_length`] (rustfft within
    /// 1e-15·log2(n)·max|X|, round trip, in place = out of place at odd offsets, impulses,
    /// NaN); other lengths have no plan.
    #[test]
    fn matches_rustfft_in_and_out_of_place_at_every_length() {
        for n in [0, 1, 2, 8, 12, 48, 100, 65536] {
            assert!(Pow2Avx512::new(n, false).is_none(), "n = {n}");
        }
        let have = crate::simd::detected() == crate::simd::Level::Avx512;
        matches_rustfft_at_every_length(31, 4..=15, have, Pow2Avx512::new);
    }
}
