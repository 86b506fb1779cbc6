//! The power-of-two complex FFT passes of the own transforms whose vectors hold two complex
//! values, written once over the vector type ([`Pair`]): AVX2 + FMA doubles (one ymm,
//! [`super::pow2_avx2_f64`]), SSE2 floats (one xmm, [`super::pow2_sse2_f32`]) and SSE2 doubles
//! (two xmm, [`super::pow2_sse2_f64`]). Each of those modules gives its vector arithmetic, its
//! table layout, its pass plans and the stage kernels instantiated with its instruction set's
//! target features ([`stage_fns`]); the plan, the driver and the kernel bodies are here.
//!
//! # Algorithm
//!
//! Stockham autosort, decimation in frequency, two passes. A stage works on sub-transforms of
//! length `m` spaced `s` apart (`s·m = n`): for `p < m/R`, `q < s` it reads
//! `x[q + s(p + i·m/R)]` (`i < R`), does an `R`-point DFT, multiplies output `r` by
//! `ω_m^{rp}` and writes it to `y[q + s(R·p + r)]`.
//!
//! * The first stage (`s = 1`, radix 8 or 16) is vectorised over `p`: per-lane twiddles from
//!   two table rows per `r` and pair of `p`, outputs transposed in registers (2×2 blocks of
//!   complex elements) before contiguous stores.
//! * The second stage is either a radix-8/16 last stage with unit twiddles, vectorised over
//!   `q`, or (`FL16+R`) a radix-16 stage with twiddles (one table group per `p`) fused with
//!   the radix-`R` last stage per q-vector through a stack buffer of 256 vectors.
//! * The `∓j` rotations, the constant twiddles of the radix-8/16 DFTs and the table twiddles
//!   are the vector type's (swap + xor; mul + add or FMA).
//! * Every stage kernel is instantiated with compile-time `n` / `s` / radix (constant strides
//!   and trip counts) and called through a function pointer chosen at plan time; each vector
//!   type's `kernel` lists exactly the instantiations its plans use (per direction).
//!
//! The inverse transform runs the same kernels (a const generic flips the sign of the
//! in-register constants) with the conjugate twiddle table; it is unnormalised.
//!
//! # Twiddles
//!
//! All twiddles are [`super::mixed::unit_root`] values (octant reduction in integers, angle in
//! double-double), rounded once to the element type.
//!
//! # Safety
//!
//! All intrinsic code is in `unsafe fn`s: the [`Pair`] methods (register-only except the
//! documented loads and stores) are `#[inline(always)]` and only called from the kernel bodies
//! here, which are only called from the stage kernels of [`stage_fns`], compiled with the
//! instruction set's target features. The kernels are reachable only through a plan, and
//! [`Pow2Pair::new`] returns `None` unless [`Pair::has_cpu`]. All loads and stores of data are
//! unaligned; only the plan's own table (rows aligned for the vector type) is read with aligned loads.

use super::super::Complex;
use super::mixed::unit_root;
use core::mem::MaybeUninit;

/// Stage kernel: `(x, y, table)`; the length and strides are compile-time parameters.
pub(super) type StageFn<E> = unsafe fn(*const E, *mut E, *const E);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    /// `s = 1`, radix 8/16, vectorised over `p`; twiddles: `2(R−1)` rows per 2 values of `p`.
    First8,
    First16,
    /// Last two stages fused per q-vector through an L1 buffer: radix 16 with twiddles
    /// (`m = 16·R`, [`Pair::FUSED_ROWS`] rows per `p`), then radix `R` with unit twiddles.
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

/// A vector of two complex values (re/im interleaved: lanes re0, im0, re1, im1) with its
/// arithmetic, table layout, pass plans and kernels, for one instruction set.
///
/// # Safety (of the methods)
/// The `unsafe fn`s use the instruction set's intrinsics: they may only run where
/// [`Pair::has_cpu`] holds, which the plans guarantee (they are only called, inlined, from
/// the stage kernels). They touch no memory except where their documentation says.
pub(super) trait Pair: Copy {
    /// The element type (f32, f64).
    type E: Copy + Default + 'static;
    /// One table row: exactly 4 scalars, aligned for the vector type's aligned loads.
    type Row: Copy + Default;
    /// Smallest length with a plan; [`Pair::PLANS`] covers `MIN_LEN·2^i`.
    const MIN_LEN: usize;
    /// The stages of the plans, indexed by `log2(n / MIN_LEN)`.
    const PLANS: &'static [&'static [Kind]];
    /// Table rows per `p` of a fused stage ([`Pair::fused_rows`]); 30 in the default,
    /// pre-signed layout.
    const FUSED_ROWS: usize = 30;

    /// Whether this CPU runs the instruction set.
    fn has_cpu() -> bool;
    /// The kernel instantiation for one stage of a plan (`kind` at length `n` with stride `s`
    /// and `m16`: `n/R` for the first stage, 1 for the last, the last radix for the fused
    /// stages), or `None` for a combination the plans do not use.
    fn kernel<const INV: bool>(
        kind: Kind,
        n: usize,
        s: usize,
        m16: usize,
    ) -> Option<StageFn<Self::E>>;
    /// A table row of `v`, each value rounded once to the element type.
    fn row(v: [f64; 4]) -> Self::Row;
    /// The two rows of a first-stage twiddle for the 2 values of `p` of a vector: the roots
    /// `(cos, signed sin)` of lane 0 and lane 1, as [`Pair::cmul_rows`] reads them. By default
    /// pre-signed: the real parts `(c0, c0, c1, c1)` and the imaginary parts with the real
    /// lanes' sign flipped, `(−s0, s0, −s1, s1)`, so `z · w = z·row0 + swap(z)·row1`.
    fn twiddle_rows(w: [(f64, f64); 2]) -> [Self::Row; 2] {
        let [(c0, s0), (c1, s1)] = w;
        [Self::row([c0, c0, c1, c1]), Self::row([-s0, s0, -s1, s1])]
    }
    /// Appends the [`Pair::FUSED_ROWS`] rows of one `p` of a fused stage: the roots
    /// `(cos, signed sin)` for `r = 1..16`, as [`Pair::cmul_fused`] reads them. By default two
    /// pre-signed rows per root, `(c, c, c, c)` and `(−s, s, −s, s)`.
    fn fused_rows(w: &[(f64, f64); 15], out: &mut Vec<Self::Row>) {
        for &(c, s) in w {
            out.push(Self::row([c; 4]));
            out.push(Self::row([-s, s, -s, s]));
        }
    }

    /// All lanes zero.
    unsafe fn zero() -> Self;
    /// `a + b`.
    unsafe fn add(a: Self, b: Self) -> Self;
    /// `a − b`.
    unsafe fn sub(a: Self, b: Self) -> Self;
    /// `z · (∓j)` (forward: −j, inverse: +j), exact.
    unsafe fn mul_mj<const INV: bool>(z: Self) -> Self;
    /// `z · ω` for the constant root `ω = cos θ ∓ i sin θ` (− forward, + inverse), given
    /// `(cos θ, sin θ)`.
    unsafe fn cmul_const<const INV: bool>(z: Self, c: f64, s: f64) -> Self;
    /// `z · w` with `w` from the two table rows at `w` ([`Pair::twiddle_rows`]).
    unsafe fn cmul_rows(z: Self, w: *const Self::E) -> Self;
    /// `z · w_r` with `w_r` the root `r` (1 ≤ r < 16) of the fused-stage rows of one `p` at `t`
    /// ([`Pair::fused_rows`]); by default the pair of pre-signed rows of `r`.
    #[inline(always)]
    unsafe fn cmul_fused(z: Self, t: *const Self::E, r: usize) -> Self {
        // SAFETY: the caller passes the FUSED_ROWS rows of one p at `t` and 1 ≤ r < 16, so
        // rows 2(r − 1) and 2(r − 1) + 1 are among them.
        unsafe { Self::cmul_rows(z, t.add(8 * (r - 1))) }
    }
    /// Two complex values from `p` (any alignment of the element type); reads 4 scalars.
    unsafe fn loadu(p: *const Self::E) -> Self;
    /// Stores two complex values at `p` (any alignment of the element type); writes 4 scalars.
    unsafe fn storeu(p: *mut Self::E, v: Self);
    /// The 2×2 transpose of complex elements: `(a0, a1), (b0, b1) → (a0, b0), (a1, b1)`.
    unsafe fn transpose(a: Self, b: Self) -> (Self, Self);
}

#[derive(Clone, Copy)]
struct Stage<E> {
    /// which pass (the kernel `f` was chosen by it, with the stride and trip count)
    #[cfg_attr(not(test), allow(dead_code))]
    kind: Kind,
    /// offset of the stage's table rows (in rows)
    tw: usize,
    f: StageFn<E>,
}

/// A planned power-of-two complex FFT on vectors `V` (immutable: may run on any number of
/// threads at once).
pub(super) struct Pow2Pair<V: Pair> {
    n: usize,
    stages: Vec<Stage<V::E>>,
    tw: Vec<V::Row>,
}

impl<V: Pair> Pow2Pair<V> {
    /// Largest length with a plan.
    pub(super) const MAX_LEN: usize = V::MIN_LEN << (V::PLANS.len() - 1);

    /// `None` unless `n` is a power of two in `MIN_LEN..=MAX_LEN` and the CPU runs `V`'s
    /// instruction set.
    pub(super) fn new(n: usize, inverse: bool) -> Option<Self> {
        if !(n.is_power_of_two() && (V::MIN_LEN..=Self::MAX_LEN).contains(&n) && V::has_cpu()) {
            return None;
        }
        let kinds = V::PLANS[(n / V::MIN_LEN).trailing_zeros() as usize];
        let sign = if inverse { 1.0 } else { -1.0 };
        let root = |k: usize, m: usize| {
            let (c, s) = unit_root(k, m);
            (c, sign * s)
        };
        // (kind, s, n/R or the last radix or 1): a first stage and a last (or fused last)
        // stage; they multiply out to n (checked by each plan table's test, and `kernel` has
        // no arm for anything else)
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
        // the kernels step through the table 4 scalars a row
        const { assert!(size_of::<V::Row>() == 4 * size_of::<V::E>()) };
        let mut tw: Vec<V::Row> = Vec::new();
        // first-stage table: per 2 values of p, two rows per r of ω_n^{r(p0 + l)}
        let mr = n / radix;
        for p0 in (0..mr).step_by(2) {
            for r in 1..radix {
                tw.extend(V::twiddle_rows([root(r * p0, n), root(r * (p0 + 1), n)]));
            }
        }
        let mut stages = Vec::with_capacity(plan.len());
        for (idx, &(kind, s, m16)) in plan.iter().enumerate() {
            let off = if idx == 0 { 0 } else { tw.len() };
            if matches!(kind, Kind::Fused4 | Kind::Fused8 | Kind::Fused16) {
                // the roots ω_m^{r·p}, r = 1..16, per p < m/16
                let m = 16 * m16;
                for p in 0..m16 {
                    let w: [(f64, f64); 15] = core::array::from_fn(|i| root((i + 1) * p, m));
                    V::fused_rows(&w, &mut tw);
                }
            }
            let f = if inverse {
                V::kernel::<true>(kind, n, s, m16)
            } else {
                V::kernel::<false>(kind, n, s, m16)
            }?;
            stages.push(Stage { kind, tw: off, f });
        }
        Some(Self { n, stages, tw })
    }

    /// Pass plan, e.g. `"F8 FL16+8"`.
    #[cfg(test)]
    pub(super) fn describe(&self) -> String {
        let names: Vec<&str> = self.stages.iter().map(|st| st.kind.name()).collect();
        names.join(" ")
    }

    /// Required scratch length (`n`).
    pub(super) fn scratch_len(&self) -> usize {
        self.n
    }

    /// In-place unnormalised transform (forward `e^{-2πijk/n}`, as rustfft).
    pub(super) fn process(&self, buf: &mut [Complex<V::E>], scratch: &mut [Complex<V::E>]) {
        assert_eq!(buf.len(), self.n, "buffer length must equal the FFT length");
        assert!(scratch.len() >= self.scratch_len(), "scratch too short");
        let b = buf.as_mut_ptr() as *mut V::E;
        let t = scratch.as_mut_ptr() as *mut V::E;
        // SAFETY: `self` exists, so `new` checked the CPU; `b` points to exactly `n` writable
        // complex values and `t` to at least `scratch_len()` (both asserted above), and they
        // do not overlap (distinct `&mut` borrows).
        unsafe { self.run(b, b, t, true) }
    }

    /// Out-of-place transform: `input` untouched, result in `output`.
    pub(super) fn process_outofplace(
        &self,
        input: &[Complex<V::E>],
        output: &mut [Complex<V::E>],
        scratch: &mut [Complex<V::E>],
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
        let i = input.as_ptr() as *const V::E;
        let o = output.as_mut_ptr() as *mut V::E;
        let t = scratch.as_mut_ptr() as *mut V::E;
        // SAFETY: as in `process`: lengths asserted above, CPU checked in `new`; `input` is a
        // shared borrow, so it is disjoint from the exclusive `output` and `scratch`.
        unsafe { self.run(i, o, t, false) }
    }

    /// # Safety
    /// The CPU runs `V`'s instruction set (guaranteed by `new`); `src` readable and `dst`
    /// writable for `n` complex values, `tmp` writable for `n` complex values; `tmp` disjoint
    /// from both; `src`, `dst` equal (`inplace`) or disjoint.
    unsafe fn run(&self, src: *const V::E, dst: *mut V::E, tmp: *mut V::E, inplace: bool) {
        let tw = self.tw.as_ptr() as *const V::E;
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
            // `Pair::kernel`), so its indices stay below `n`; `st.tw` is the offset of this
            // stage's rows in `self.tw`, which holds all the rows the kernel reads. `from == to`
            // only for the last stage of an odd-length in-place plan, a unit-twiddle or fused
            // last stage whose q-vector reads precede its writes to the same positions. The
            // CPU was checked in `new`.
            unsafe { (st.f)(from, to, tw.add(4 * st.tw)) };
            from = to;
        }
        debug_assert_eq!(from, dst as *const V::E);
    }
}

/// `cos(π/8)`, `sin(π/8)`, `√½`.
const C16: f64 = 0.923_879_532_511_286_7;
const S16: f64 = 0.382_683_432_365_089_8;
const H: f64 = std::f64::consts::FRAC_1_SQRT_2;

/// 4-point DFT of four vectors of complex values (forward: ω = -j).
///
/// # Safety
/// Register-only arithmetic (see [`Pair`]).
#[inline(always)]
unsafe fn bfly4<V: Pair, const INV: bool>(a: V, b: V, c: V, d: V) -> (V, V, V, V) {
    // SAFETY: register-only arithmetic.
    unsafe {
        let apc = V::add(a, c);
        let amc = V::sub(a, c);
        let bpd = V::add(b, d);
        let bmd = V::sub(b, d);
        let y0 = V::add(apc, bpd);
        let y2 = V::sub(apc, bpd);
        // r = ∓j·bmd (forward −j: (bim, −bre)); y1 = amc + r, y3 = amc − r
        let r = V::mul_mj::<INV>(bmd);
        (y0, V::add(amc, r), y2, V::sub(amc, r))
    }
}

/// In-register `R`-point DFT (R = 4, 8, 16) of `v[..R]`, outputs in natural order.
///
/// # Safety
/// Register-only arithmetic (see [`Pair`]).
#[inline(always)]
unsafe fn dft_r<V: Pair, const INV: bool, const R: usize>(v: [V; 16]) -> [V; 16] {
    // SAFETY: register-only arithmetic.
    unsafe {
        let z = V::zero();
        match R {
            4 => {
                let (o0, o1, o2, o3) = bfly4::<V, INV>(v[0], v[1], v[2], v[3]);
                [o0, o1, o2, o3, z, z, z, z, z, z, z, z, z, z, z, z]
            }
            8 => {
                let o = dft8::<V, INV>([v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7]]);
                [
                    o[0], o[1], o[2], o[3], o[4], o[5], o[6], o[7], z, z, z, z, z, z, z, z,
                ]
            }
            16 => dft16::<V, INV>(v),
            _ => unreachable!("no {R}-point DFT"),
        }
    }
}

/// 8-point DFT in registers (i = i1 + 2·i2, k = k1 + 4·k2).
///
/// # Safety
/// Register-only arithmetic (see [`Pair`]).
#[inline(always)]
unsafe fn dft8<V: Pair, const INV: bool>(v: [V; 8]) -> [V; 8] {
    // SAFETY: register-only arithmetic.
    unsafe {
        let (a0, a1, a2, a3) = bfly4::<V, INV>(v[0], v[2], v[4], v[6]);
        let (b0, b1, b2, b3) = bfly4::<V, INV>(v[1], v[3], v[5], v[7]);
        let b1 = V::cmul_const::<INV>(b1, H, H);
        let b2 = V::mul_mj::<INV>(b2);
        let b3 = V::cmul_const::<INV>(b3, -H, H);
        [
            V::add(a0, b0),
            V::add(a1, b1),
            V::add(a2, b2),
            V::add(a3, b3),
            V::sub(a0, b0),
            V::sub(a1, b1),
            V::sub(a2, b2),
            V::sub(a3, b3),
        ]
    }
}

/// 16-point DFT in registers (i = i1 + 4·i2, k = k1 + 4·k2).
///
/// # Safety
/// Register-only arithmetic (see [`Pair`]).
#[inline(always)]
unsafe fn dft16<V: Pair, const INV: bool>(v: [V; 16]) -> [V; 16] {
    // SAFETY: register-only arithmetic.
    unsafe {
        let z = V::zero();
        let mut a = [[z; 4]; 4];
        for (i1, ai) in a.iter_mut().enumerate() {
            let (o0, o1, o2, o3) = bfly4::<V, INV>(v[i1], v[i1 + 4], v[i1 + 8], v[i1 + 12]);
            *ai = [o0, o1, o2, o3];
        }
        a[1][1] = V::cmul_const::<INV>(a[1][1], C16, S16);
        a[1][2] = V::cmul_const::<INV>(a[1][2], H, H);
        a[1][3] = V::cmul_const::<INV>(a[1][3], S16, C16);
        a[2][1] = V::cmul_const::<INV>(a[2][1], H, H);
        a[2][2] = V::mul_mj::<INV>(a[2][2]);
        a[2][3] = V::cmul_const::<INV>(a[2][3], -H, H);
        a[3][1] = V::cmul_const::<INV>(a[3][1], S16, C16);
        a[3][2] = V::cmul_const::<INV>(a[3][2], -H, H);
        a[3][3] = V::cmul_const::<INV>(a[3][3], -C16, -S16);
        let mut out = [z; 16];
        for k1 in 0..4 {
            let (o0, o1, o2, o3) = bfly4::<V, INV>(a[0][k1], a[1][k1], a[2][k1], a[3][k1]);
            out[k1] = o0;
            out[k1 + 4] = o1;
            out[k1 + 8] = o2;
            out[k1 + 12] = o3;
        }
        out
    }
}

// ---------------------------------------------------------------------------------------------
// Kernel bodies. Common contract (`# Safety` of each): the CPU runs `V`'s instruction set and
// the caller is a stage kernel of `stage_fns!` compiled with its features; `x` readable and `y`
// writable for `n` complex values (the kernel's compile-time length), any alignment of the
// element type; equal only for the unit-twiddle / fused last stages (which read every position
// of a q-vector before writing it); `t` points at the stage's table rows.

/// First stage (`s = 1`, `m = N`), radix `R`, vectorised over `p`, one group of 2 values of
/// `p` per iteration.
///
/// # Safety
/// See the contract above; `t` holds `2(R−1)` rows per 2 values of `p < N/R`.
#[inline(always)]
pub(super) unsafe fn first_stage<V: Pair, const INV: bool, const R: usize, const N: usize>(
    x: *const V::E,
    y: *mut V::E,
    tw: *const V::E,
) {
    let mr = N / R;
    let mut p = 0;
    let mut t = tw;
    while p < mr {
        // SAFETY: p ≤ mr − 2 (mr is even), so the loads read complex ≤ p + 1 + (R−1)·mr < N;
        // stores write R·(p + l) + 2b + 0..2 < R·(p + 2) ≤ N. `t` advances by one group
        // (2(R−1) rows of 4 scalars) per 2 values of p.
        unsafe {
            let mut v = [V::zero(); 16];
            for (i, vi) in v.iter_mut().enumerate().take(R) {
                *vi = V::loadu(x.add(2 * (p + i * mr)));
            }
            let mut o = dft_r::<V, INV, R>(v);
            for (r, or) in o.iter_mut().enumerate().take(R).skip(1) {
                *or = V::cmul_rows(*or, t.add(8 * (r - 1)));
            }
            // rows[2b + l] = the outputs r = 2b, 2b + 1 of p + l
            let mut rows = [V::zero(); 16];
            for b in 0..R / 2 {
                (rows[2 * b], rows[2 * b + 1]) = V::transpose(o[2 * b], o[2 * b + 1]);
            }
            for l in 0..2 {
                for b in 0..R / 2 {
                    V::storeu(y.add(2 * (R * (p + l) + 2 * b)), rows[2 * b + l]);
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
#[inline(always)]
pub(super) unsafe fn last_stage<V: Pair, const INV: bool, const R: usize, const S: usize>(
    x: *const V::E,
    y: *mut V::E,
    _t: *const V::E,
) {
    let mut q = 0;
    while q < S {
        // SAFETY: q ≤ S − 2, so loads and stores touch complex `q + i·S + 0..2` < R·S = n; all
        // R loads precede the R stores to the same positions (in place is fine).
        unsafe {
            let mut v = [V::zero(); 16];
            for (i, vi) in v.iter_mut().enumerate().take(R) {
                *vi = V::loadu(x.add(2 * (q + i * S)));
            }
            let out = dft_r::<V, INV, R>(v);
            for (r, o) in out.iter().enumerate().take(R) {
                V::storeu(y.add(2 * (q + r * S)), *o);
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
/// See the contract above; `t` holds [`Pair::FUSED_ROWS`] rows per `p < RB`.
#[inline(always)]
pub(super) unsafe fn fused_last<V: Pair, const INV: bool, const RB: usize, const SA: usize>(
    x: *const V::E,
    y: *mut V::E,
    tw: *const V::E,
) {
    let mut l = [MaybeUninit::<V>::uninit(); 256];
    let sm = SA * RB; // n / 16
    let per_p = 4 * V::FUSED_ROWS;
    // Opaque trip counts: keep the loops rolled (full unrolling overflows the uop cache).
    let (rb, sixteen) = core::hint::black_box((RB, 16usize));
    assert!(rb == RB && sixteen == 16);
    let mut q = 0;
    while q < SA {
        // SAFETY: q ≤ SA − 2; loads read complex `q + SA·p + i·SA·RB + 0..2` < 16·RB·SA = n,
        // stores write `q + SA·(r + 16·r2) + 0..2` < n; all loads of this q-vector precede its
        // stores (in place is fine). Table reads: the FUSED_ROWS rows of each p < RB. `l` has
        // 256 ≥ 16·RB slots (RB ≤ 16 in every instantiation, rb == RB asserted), and slot
        // `16p + r` is written in the first loop before the second loop reads it.
        unsafe {
            for p in 0..rb {
                let mut v = [V::zero(); 16];
                for (i, vi) in v.iter_mut().enumerate() {
                    *vi = V::loadu(x.add(2 * (q + SA * p + i * sm)));
                }
                let mut out = dft16::<V, INV>(v);
                if p > 0 {
                    let t = tw.add(per_p * p);
                    for (r, o) in out.iter_mut().enumerate().skip(1) {
                        *o = V::cmul_fused(*o, t, r);
                    }
                }
                for (r, o) in out.iter().enumerate() {
                    l[16 * p + r] = MaybeUninit::new(*o);
                }
            }
            for r in 0..sixteen {
                let mut v = [V::zero(); 16];
                for (i, vi) in v.iter_mut().enumerate().take(RB) {
                    *vi = l[r + 16 * i].assume_init();
                }
                let o = dft_r::<V, INV, RB>(v);
                for (r2, or) in o.iter().enumerate().take(RB) {
                    V::storeu(y.add(2 * (q + SA * (r + 16 * r2))), *or);
                }
            }
        }
        q += 2;
    }
}

/// The three stage kernels of one vector type as `#[inline(never)]` functions compiled with
/// its instruction set's target features (none for SSE2, part of x86-64), for its
/// [`Pair::kernel`] table: `stage_fns!(Vector, element, "features")`.
macro_rules! stage_fns {
    ($v:ty, $e:ty $(, $feat:literal)?) => {
        /// The first stage on this module's vectors ([`super::pow2_pair::first_stage`]).
        ///
        /// # Safety
        /// As [`super::pow2_pair::first_stage`].
        #[inline(never)]
        $(#[target_feature(enable = $feat)])?
        unsafe fn first_stage<const INV: bool, const R: usize, const N: usize>(
            x: *const $e,
            y: *mut $e,
            t: *const $e,
        ) {
            // SAFETY: the caller keeps the generic kernel's contract.
            unsafe { super::pow2_pair::first_stage::<$v, INV, R, N>(x, y, t) }
        }

        /// The last stage on this module's vectors ([`super::pow2_pair::last_stage`]).
        ///
        /// # Safety
        /// As [`super::pow2_pair::last_stage`].
        #[inline(never)]
        $(#[target_feature(enable = $feat)])?
        unsafe fn last_stage<const INV: bool, const R: usize, const S: usize>(
            x: *const $e,
            y: *mut $e,
            t: *const $e,
        ) {
            // SAFETY: the caller keeps the generic kernel's contract.
            unsafe { super::pow2_pair::last_stage::<$v, INV, R, S>(x, y, t) }
        }

        /// The fused last stages on this module's vectors ([`super::pow2_pair::fused_last`]).
        ///
        /// # Safety
        /// As [`super::pow2_pair::fused_last`].
        #[inline(never)]
        $(#[target_feature(enable = $feat)])?
        unsafe fn fused_last<const INV: bool, const RB: usize, const SA: usize>(
            x: *const $e,
            y: *mut $e,
            t: *const $e,
        ) {
            // SAFETY: the caller keeps the generic kernel's contract.
            unsafe { super::pow2_pair::fused_last::<$v, INV, RB, SA>(x, y, t) }
        }
    };
}
pub(super) use stage_fns;

/// The plans of the double vector types (AVX2: one ymm, [`super::pow2_avx2_f64`]; SSE2: a pair
/// of xmm, [`super::pow2_sse2_f64`]): the same passes on two complex doubles a vector, so the
/// same plans (chosen on the AVX2 passes, see that module). Expands, inside the vector type's
/// `impl Pair`, to its `MIN_LEN`, `PLANS` and `kernel` over the module's [`stage_fns`] kernels:
///
/// |    n | plan       | stages `(s, m/16)`           |
/// |-----:|------------|------------------------------|
/// |   64 | F8 L8      | F8 (1, 8), L8 (8, 1)         |
/// |  128 | F8 L16     | F8 (1, 16), L16 (8, 1)       |
/// |  256 | F16 L16    | F16 (1, 16), L16 (16, 1)     |
/// |  512 | F8 FL16+4  | F8 (1, 64), FL16+4 (8, 4)    |
/// | 1024 | F8 FL16+8  | F8 (1, 128), FL16+8 (8, 8)   |
/// | 2048 | F8 FL16+16 | F8 (1, 256), FL16+16 (8, 16) |
macro_rules! double_plans {
    () => {
        const MIN_LEN: usize = 64;
        const PLANS: &'static [&'static [Kind]] = {
            use Kind::*;
            &[
                &[First8, Last8],   // 64
                &[First8, Last16],  // 128
                &[First16, Last16], // 256
                &[First8, Fused4],  // 512
                &[First8, Fused8],  // 1024
                &[First8, Fused16], // 2048
            ]
        };

        fn kernel<const INV: bool>(
            kind: Kind,
            n: usize,
            s: usize,
            m16: usize,
        ) -> Option<StageFn<f64>> {
            use Kind::*;
            let f: StageFn<f64> = match (kind, n, s, m16) {
                // 64: F8 L8
                (First8, 64, 1, 8) => first_stage::<INV, 8, 64>,
                (Last8, 64, 8, 1) => last_stage::<INV, 8, 8>,
                // 128: F8 L16
                (First8, 128, 1, 16) => first_stage::<INV, 8, 128>,
                (Last16, 128, 8, 1) => last_stage::<INV, 16, 8>,
                // 256: F16 L16
                (First16, 256, 1, 16) => first_stage::<INV, 16, 256>,
                (Last16, 256, 16, 1) => last_stage::<INV, 16, 16>,
                // 512: F8 FL16+4
                (First8, 512, 1, 64) => first_stage::<INV, 8, 512>,
                (Fused4, 512, 8, 4) => fused_last::<INV, 4, 8>,
                // 1024: F8 FL16+8
                (First8, 1024, 1, 128) => first_stage::<INV, 8, 1024>,
                (Fused8, 1024, 8, 8) => fused_last::<INV, 8, 8>,
                // 2048: F8 FL16+16
                (First8, 2048, 1, 256) => first_stage::<INV, 8, 2048>,
                (Fused16, 2048, 8, 16) => fused_last::<INV, 16, 8>,
                _ => return None,
            };
            Some(f)
        }
    };
}
pub(super) use double_plans;

#[cfg(test)]
pub(super) mod tests {
    use super::super::pow2_check::Pow2Plan;
    use super::*;

    impl<V: Pair> Pow2Plan<V::E> for Pow2Pair<V> {
        fn scratch_len(&self) -> usize {
            Pow2Pair::scratch_len(self)
        }
        fn process(&self, buf: &mut [Complex<V::E>], scratch: &mut [Complex<V::E>]) {
            Pow2Pair::process(self, buf, scratch)
        }
        fn process_outofplace(
            &self,
            input: &[Complex<V::E>],
            output: &mut [Complex<V::E>],
            scratch: &mut [Complex<V::E>],
        ) {
            Pow2Pair::process_outofplace(self, input, output, scratch)
        }
    }

    /// The plans of [`double_plans`], as [`plans_are`] takes them.
    pub(in super::super) const DOUBLE_PLAN_NAMES: [(usize, &str); 6] = [
        (64, "F8 L8"),
        (128, "F8 L16"),
        (256, "F16 L16"),
        (512, "F8 FL16+4"),
        (1024, "F8 FL16+8"),
        (2048, "F8 FL16+16"),
    ];

    /// `V`'s plans are `want` (length, plan) in both directions, and no other length has one:
    /// each vector module's plan-table test.
    pub(in super::super) fn plans_are<V: Pair>(want: &[(usize, &str)]) {
        assert_eq!(want.len(), V::PLANS.len(), "one documented plan per length");
        for &(n, plan) in want {
            for inv in [false, true] {
                if let Some(p) = Pow2Pair::<V>::new(n, inv) {
                    assert_eq!(p.describe(), plan, "n = {n}");
                } else {
                    assert!(!V::has_cpu(), "no plan for {n} on a CPU that runs it");
                }
            }
        }
        let max = Pow2Pair::<V>::MAX_LEN;
        for n in [0, 1, 2, 8, 16, V::MIN_LEN / 2, 100, 384, 2 * max, 65536] {
            assert!(Pow2Pair::<V>::new(n, false).is_none(), "n = {n}");
        }
    }
}
