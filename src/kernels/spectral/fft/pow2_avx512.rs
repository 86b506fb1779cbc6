//! AVX-512 double-precision complex FFT for power-of-two lengths 16..=32768.
//!
//! Algorithm: Stockham autosort, decimation in frequency, radix 16 (4×4 in registers). A stage
//! works on sub-transforms of length `m` spaced `s` apart (`s·m = n`): for `p < m/R`, `q < s`
//! it reads `x[q + s(p + i·m/R)]` (`i < R`), does an `R`-point DFT, multiplies output `r` by
//! `ω_m^{rp}` and writes it to `y[q + s(R·p + r)]`, ping-ponging between buffer and scratch.
//! The first stage (`s = 1`, radix 4, 8 or 16 so that the rest is as many radix-16 stages as
//! possible) is vectorised over `p`: 4 complex per zmm, per-lane twiddles from a table of
//! pre-duplicated re/im vectors, outputs transposed in registers (4×4 blocks of 128-bit lanes)
//! before contiguous stores. Later stages are vectorised over `q` with twiddles broadcast from
//! a per-`p` row of the table. The last stage (radix 16, 8, 4 or 2) has unit outer twiddles and
//! runs in place when the pass count needs it. From n = 4096 on, the last radix-16 stage and the
//! last stage are fused per q-vector through a 16 KiB stack buffer (one pass less over L2).
//! n = 16, 32, 64 are single-pass codelets (radix-4 first stage kept in registers, then a
//! 4/8/16-point DFT). Twiddles are `unit_root` values (octant reduction in integers).
//!
//! Pass structure (F = first stage, M = radix-16 middle, L = last, FL = fused M+L):
//! 16..64: one codelet; 128: F16 L8; 256: F16 L16; 512: F8 M16 L4; 1024: F4 M16 L16;
//! 2048: F8 M16 L16; 4096: F16 FL16; 8192: F8 M16 FL4; 16384: F4 M16 FL16; 32768: F8 M16 FL16.

use super::super::Complex;
use super::mixed::unit_root;
use core::arch::x86_64::*;
use core::mem::MaybeUninit;

/// One cache line of doubles, so twiddle rows are 64-byte aligned.
#[derive(Clone, Copy, Default)]
#[repr(C, align(64))]
struct V8([f64; 8]);

#[derive(Clone, Copy, Debug)]
enum Kind {
    /// `s = 1`, radix 4/8/16, vectorised over `p`; twiddles: `2(R−1)` rows per 4 values of `p`.
    First4,
    First8,
    First16,
    /// Whole transform of `n = 4·R2` in registers (first-stage radix-4 table).
    Small16,
    Small32,
    Small64,
    /// Radix-16, `s ≥ 4`, with twiddles; one 32-double row per `p`.
    Mid16,
    /// Last two stages fused per q-vector through an L1 buffer: radix 16 with twiddles
    /// (`m = 16·R`), then radix `R` (2/4/8/16) with unit twiddles.
    Fused2,
    Fused4,
    Fused8,
    Fused16,
    /// First two stages fused per group of 4 low indices `p'` through an L1 buffer: radix
    /// 4/8 first stage (table at offset 0), then radix 16 with per-lane twiddles (30 rows per
    /// group at `tw`), transposed into place.
    /// Radix-16/8/4/2 last stage (`m = R`), unit twiddles.
    Last16,
    Last8,
    Last4,
    Last2,
}

#[derive(Clone, Copy, Debug)]
struct Stage {
    kind: Kind,
    /// stride `s`
    s: usize,
    /// `m / 4` (radix-4) or 1
    m4: usize,
    /// offset of the stage's twiddle rows in `tw`
    tw: usize,
}

/// Planned power-of-two FFT using AVX-512.
pub struct Pow2Avx512 {
    n: usize,
    inverse: bool,
    stages: Vec<Stage>,
    tw: Vec<V8>,
    /// single-pass codelet for n ≤ 64
    small: Option<SmallFn>,
}

/// Codelet signature: `(src, dst, table)`.
type SmallFn = unsafe fn(*const f64, *mut f64, *const f64);

impl Pow2Avx512 {
    /// `None` unless `n` is a power of two in `16..=32768` and the CPU has AVX-512 F+DQ+VL+BW
    /// and FMA.
    pub fn new(n: usize, inverse: bool) -> Option<Self> {
        if !n.is_power_of_two() || !(16..=32768).contains(&n) {
            return None;
        }
        if !(is_x86_feature_detected!("avx512f")
            && is_x86_feature_detected!("avx512dq")
            && is_x86_feature_detected!("avx512vl")
            && is_x86_feature_detected!("avx512bw")
            && is_x86_feature_detected!("fma"))
        {
            return None;
        }
        let sign = if inverse { 1.0 } else { -1.0 };
        let root = |k: usize, m: usize| {
            let (c, s) = unit_root(k, m);
            (c, sign * s)
        };
        let mut stages = Vec::new();
        let mut tw: Vec<V8> = Vec::new();
        let lg = n.trailing_zeros() as usize;
        // first-stage radix 2^r1: small codelets use radix 4; otherwise make the rest a
        // multiple of 4 bits (radix-16 stages) where possible, else leave 2 bits for the end
        let r1 = match lg {
            4..=6 => 2,
            // 128 = 16·8 measured ~5% faster than 8·16
            7 => 4,
            _ => match lg % 4 {
                0 => 4,
                2 => 2,
                _ => 3,
            },
        };
        let radix = 1usize << r1;
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
        let kind = match (lg, radix) {
            (4, _) => Kind::Small16,
            (5, _) => Kind::Small32,
            (6, _) => Kind::Small64,
            (_, 4) => Kind::First4,
            (_, 8) => Kind::First8,
            _ => Kind::First16,
        };
        stages.push(Stage {
            kind,
            s: 1,
            m4: mr,
            tw: 0,
        });
        let mut m = if lg <= 6 { 1 } else { mr };
        let mut s = radix;
        while m >= 16 {
            let m16 = m / 16;
            let off = tw.len();
            let kind = if m16 > 1 {
                for p in 0..m16 {
                    let mut rows = [V8::default(); 4];
                    for r in 1..16 {
                        let (c, si) = root(r * p, m);
                        rows[(2 * r - 2) / 8].0[(2 * r - 2) % 8] = c;
                        rows[(2 * r - 1) / 8].0[(2 * r - 1) % 8] = si;
                    }
                    tw.extend_from_slice(&rows);
                }
                Kind::Mid16
            } else {
                Kind::Last16
            };
            stages.push(Stage {
                kind,
                s,
                m4: m16,
                tw: off,
            });
            m /= 16;
            s *= 16;
        }
        let kind = match m {
            8 => Some(Kind::Last8),
            4 => Some(Kind::Last4),
            2 => Some(Kind::Last2),
            _ => None,
        };
        if let Some(kind) = kind {
            stages.push(Stage {
                kind,
                s,
                m4: 1,
                tw: tw.len(),
            });
        }
        // fuse a trailing radix-16 stage with the last stage (working set of one q-vector)
        if let (true, [.., a, b]) = (n >= FUSE_MIN, stages.as_slice()) {
            let fused = match (a.kind, b.kind) {
                (Kind::Mid16, Kind::Last16) => Some(Kind::Fused16),
                (Kind::Mid16, Kind::Last8) => Some(Kind::Fused8),
                (Kind::Mid16, Kind::Last4) => Some(Kind::Fused4),
                (Kind::Mid16, Kind::Last2) => Some(Kind::Fused2),
                _ => None,
            };
            if let Some(kind) = fused {
                let a = *a;
                stages.pop();
                stages.pop();
                stages.push(Stage { kind, ..a });
            }
        }
        let small: Option<SmallFn> = match (n, inverse) {
            (16, false) => Some(small::<false, 4>),
            (32, false) => Some(small::<false, 8>),
            (64, false) => Some(small::<false, 16>),
            (16, true) => Some(small::<true, 4>),
            (32, true) => Some(small::<true, 8>),
            (64, true) => Some(small::<true, 16>),
            _ => None,
        };
        Some(Self {
            n,
            inverse,
            stages,
            tw,
            small,
        })
    }

    /// Required scratch length.
    pub fn scratch_len(&self) -> usize {
        self.n
    }

    /// In-place unnormalised transform (forward `e^{-2πijk/n}`, as rustfft).
    pub fn process(&self, buf: &mut [Complex<f64>], scratch: &mut [Complex<f64>]) {
        assert_eq!(buf.len(), self.n, "buffer length must equal the FFT length");
        assert!(scratch.len() >= self.n, "scratch too short");
        let b = buf.as_mut_ptr() as *mut f64;
        let t = scratch.as_mut_ptr() as *mut f64;
        // SAFETY: `new` checked the CPU features; `b` and `t` each point to `n` writable
        // complex values (checked above) and do not overlap (distinct `&mut` borrows).
        unsafe { self.run(b, b, t, true) }
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
        assert!(scratch.len() >= self.n, "scratch too short");
        let i = input.as_ptr() as *const f64;
        let o = output.as_mut_ptr() as *mut f64;
        let t = scratch.as_mut_ptr() as *mut f64;
        // SAFETY: features checked in `new`; `i` is readable for `n` complex values, `o` and
        // `t` writable for `n`; the output/scratch borrows are exclusive, so no aliasing with
        // each other or with the shared `input`.
        unsafe { self.run(i, o, t, false) }
    }

    /// Runs the stages from `src` into `dst` using `tmp`; with `inplace`, `src == dst`.
    ///
    /// # Safety
    /// AVX-512 F/DQ/VL/BW + FMA present; `src` readable and `dst`, `tmp` writable for `n`
    /// complex values; `tmp` disjoint from both; `src` and `dst` equal or disjoint.
    unsafe fn run(&self, src: *const f64, dst: *mut f64, tmp: *mut f64, inplace: bool) {
        // SAFETY: forwarded contract; the small codelets load everything before storing, so
        // `src == dst` is fine, and they need no scratch.
        unsafe {
            if let Some(f) = self.small {
                return f(src, dst, self.tw.as_ptr() as *const f64);
            }
            if self.inverse {
                run_avx512::<true>(self, src, dst, tmp, inplace)
            } else {
                run_avx512::<false>(self, src, dst, tmp, inplace)
            }
        }
    }
}

/// # Safety
/// As [`Pow2Avx512::run`].
#[target_feature(enable = "avx512f,avx512dq,avx512vl,avx512bw,fma")]
unsafe fn run_avx512<const INV: bool>(
    plan: &Pow2Avx512,
    src: *const f64,
    dst: *mut f64,
    tmp: *mut f64,
    inplace: bool,
) {
    let n = plan.n;
    let count = plan.stages.len();
    // Pick the destinations so that the last stage writes `dst`. Out of place: alternate so
    // that stage `count - 1` lands in `dst`. In place with an odd count: ping-pong the first
    // `count - 1` stages back into `dst` and run the last stage (unit twiddles, same index set
    // in and out) in place.
    let last_in_place = inplace && count % 2 == 1;
    let pingpong = if last_in_place { count - 1 } else { count };
    let tw = plan.tw.as_ptr() as *const f64;
    let mut from = src;
    for (idx, st) in plan.stages.iter().enumerate() {
        let to: *mut f64 = if idx >= pingpong || (pingpong - 1 - idx) % 2 == 0 {
            dst
        } else {
            tmp
        };
        let t = tw.add(8 * st.tw);
        // SAFETY: `from` readable and `to` writable for `n` complex values; they are either
        // disjoint (ping-pong) or identical only for the unit-twiddle last stage, whose
        // butterflies read and write exactly the same four positions.
        unsafe {
            dispatch::<INV>(st, from, to, n, t);
        }
        from = to;
    }
}

/// 4-point DFT of four vectors of complex values (forward: ω = -j).
#[inline(always)]
unsafe fn bfly4<const INV: bool>(
    a: __m512d,
    b: __m512d,
    c: __m512d,
    d: __m512d,
) -> (__m512d, __m512d, __m512d, __m512d) {
    let one = _mm512_set1_pd(1.0);
    let apc = _mm512_add_pd(a, c);
    let amc = _mm512_sub_pd(a, c);
    let bpd = _mm512_add_pd(b, d);
    let bmd = _mm512_sub_pd(b, d);
    let sw = _mm512_permute_pd::<0x55>(bmd); // (im, re)
    let y0 = _mm512_add_pd(apc, bpd);
    let y2 = _mm512_sub_pd(apc, bpd);
    // amc - j·bmd = (re + bim, im - bre); amc + j·bmd = (re - bim, im + bre)
    let minus_j = _mm512_fmsubadd_pd(amc, one, sw);
    let plus_j = _mm512_fmaddsub_pd(amc, one, sw);
    if INV {
        (y0, plus_j, y2, minus_j)
    } else {
        (y0, minus_j, y2, plus_j)
    }
}

/// `z · w` with `w` given as duplicated real and imaginary parts.
#[inline(always)]
unsafe fn cmul(z: __m512d, wr: __m512d, wi: __m512d) -> __m512d {
    let sw = _mm512_permute_pd::<0x55>(z);
    _mm512_fmaddsub_pd(z, wr, _mm512_mul_pd(sw, wi))
}

/// Runs one stage.
///
/// # Safety
/// AVX-512 present; `x` readable and `y` writable for `n` complex values (equal only for the
/// unit-twiddle last stages and the small codelets); `t` points at the stage's table rows.
#[inline(always)]
unsafe fn dispatch<const INV: bool>(
    st: &Stage,
    x: *const f64,
    y: *mut f64,
    n: usize,
    t: *const f64,
) {
    // SAFETY: forwarded contract; each kernel stays within n values and its table rows.
    unsafe {
        match st.kind {
            Kind::First4 if n > PF_MIN => first_stage::<INV, 4, true>(x, y, n, t),
            Kind::First4 => first_stage::<INV, 4, false>(x, y, n, t),
            Kind::First8 if n > PF_MIN => first_stage::<INV, 8, true>(x, y, n, t),
            Kind::First8 => first_stage::<INV, 8, false>(x, y, n, t),
            Kind::First16 if n > PF_MIN => first_stage::<INV, 16, true>(x, y, n, t),
            Kind::First16 => first_stage::<INV, 16, false>(x, y, n, t),
            Kind::Small16 => small::<INV, 4>(x, y, t),
            Kind::Small32 => small::<INV, 8>(x, y, t),
            Kind::Small64 => small::<INV, 16>(x, y, t),
            Kind::Mid16 if n > PF_MIN => mid16_stage::<INV, true, true>(x, y, st.s, st.m4, t),
            Kind::Mid16 => mid16_stage::<INV, true, false>(x, y, st.s, st.m4, t),
            Kind::Last16 if n > PF_MIN => mid16_stage::<INV, false, true>(x, y, st.s, 1, t),
            Kind::Last16 => mid16_stage::<INV, false, false>(x, y, st.s, 1, t),
            Kind::Fused2 => fused_last::<INV, 2>(x, y, st.s, t),
            Kind::Fused4 => fused_last::<INV, 4>(x, y, st.s, t),
            Kind::Fused8 => fused_last::<INV, 8>(x, y, st.s, t),
            Kind::Fused16 => fused_last::<INV, 16>(x, y, st.s, t),
            Kind::Last8 => last8_stage::<INV>(x, y, st.s),
            Kind::Last4 => last4_stage::<INV>(x, y, st.s),
            Kind::Last2 => last2_stage(x, y, st.s),
        }
    }
}

/// In-register `R`-point DFT (R = 4, 8, 16) of `v[..R]`, outputs in natural order.
#[inline(always)]
unsafe fn dft_r<const INV: bool, const R: usize>(v: [__m512d; 16]) -> [__m512d; 16] {
    // SAFETY: register-only arithmetic; the caller guarantees AVX-512.
    unsafe {
        let z = _mm512_setzero_pd();
        match R {
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
#[inline(always)]
unsafe fn dft8<const INV: bool>(v: [__m512d; 8]) -> [__m512d; 8] {
    // SAFETY: register-only arithmetic.
    unsafe {
        let (a0, a1, a2, a3) = bfly4::<INV>(v[0], v[2], v[4], v[6]);
        let (b0, b1, b2, b3) = bfly4::<INV>(v[1], v[3], v[5], v[7]);
        let b1 = cmul_const::<INV>(b1, H, H);
        let b2 = mul_mj::<INV>(b2);
        let b3 = cmul_const::<INV>(b3, -H, H);
        [
            _mm512_add_pd(a0, b0),
            _mm512_add_pd(a1, b1),
            _mm512_add_pd(a2, b2),
            _mm512_add_pd(a3, b3),
            _mm512_sub_pd(a0, b0),
            _mm512_sub_pd(a1, b1),
            _mm512_sub_pd(a2, b2),
            _mm512_sub_pd(a3, b3),
        ]
    }
}

/// 16-point DFT in registers (i = i1 + 4·i2, k = k1 + 4·k2).
#[inline(always)]
unsafe fn dft16<const INV: bool>(v: [__m512d; 16]) -> [__m512d; 16] {
    // SAFETY: register-only arithmetic.
    unsafe {
        let mut a = [[_mm512_setzero_pd(); 4]; 4];
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
        let mut out = [_mm512_setzero_pd(); 16];
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

/// 4×4 transpose of 128-bit (complex) lanes: row `l` = `(o0[l], o1[l], o2[l], o3[l])`.
#[inline(always)]
unsafe fn transpose4(o0: __m512d, o1: __m512d, o2: __m512d, o3: __m512d) -> [__m512d; 4] {
    // SAFETY: register-only shuffles.
    unsafe {
        let t0 = _mm512_shuffle_f64x2::<0b01_00_01_00>(o0, o1);
        let t1 = _mm512_shuffle_f64x2::<0b11_10_11_10>(o0, o1);
        let t2 = _mm512_shuffle_f64x2::<0b01_00_01_00>(o2, o3);
        let t3 = _mm512_shuffle_f64x2::<0b11_10_11_10>(o2, o3);
        [
            _mm512_shuffle_f64x2::<0b10_00_10_00>(t0, t2),
            _mm512_shuffle_f64x2::<0b11_01_11_01>(t0, t2),
            _mm512_shuffle_f64x2::<0b10_00_10_00>(t1, t3),
            _mm512_shuffle_f64x2::<0b11_01_11_01>(t1, t3),
        ]
    }
}

/// One group of 4 values of `p` of a radix-`R` first stage (`s = 1`, `m = n`): returns the
/// twiddled outputs `o[r]` (lanes `p..p+4`).
#[inline(always)]
unsafe fn first_group<const INV: bool, const R: usize>(
    x: *const f64,
    p: usize,
    mr: usize,
    t: *const f64,
) -> [__m512d; 16] {
    // SAFETY: p + (R−1)·mr + 3 < n; the table group holds 2(R−1) aligned rows.
    unsafe {
        let mut v = [_mm512_setzero_pd(); 16];
        for (i, vi) in v.iter_mut().enumerate().take(R) {
            *vi = _mm512_loadu_pd(x.add(2 * (p + i * mr)));
        }
        let mut o = dft_r::<INV, R>(v);
        for (r, or) in o.iter_mut().enumerate().take(R).skip(1) {
            let w = t.add(16 * (r - 1));
            *or = cmul(*or, _mm512_load_pd(w), _mm512_load_pd(w.add(8)));
        }
        o
    }
}

/// As [`first_group`] but transposed: `rows[4b + l]` = `y[R(p + l) + 4b .. + 4]`.
#[inline(always)]
unsafe fn first_group_t<const INV: bool, const R: usize>(
    x: *const f64,
    p: usize,
    mr: usize,
    t: *const f64,
) -> [__m512d; 16] {
    // SAFETY: as `first_group`.
    unsafe {
        let o = first_group::<INV, R>(x, p, mr, t);
        let mut rows = [_mm512_setzero_pd(); 16];
        for b in 0..R / 4 {
            let tr = transpose4(o[4 * b], o[4 * b + 1], o[4 * b + 2], o[4 * b + 3]);
            for l in 0..4 {
                rows[4 * b + l] = tr[l];
            }
        }
        rows
    }
}

/// First stage (`s = 1`, `m = n`), radix `R`, vectorised over `p`.
#[inline(never)]
#[target_feature(enable = "avx512f,avx512dq,avx512vl,avx512bw,fma")]
unsafe fn first_stage<const INV: bool, const R: usize, const PF: bool>(
    x: *const f64,
    y: *mut f64,
    n: usize,
    tw: *const f64,
) {
    let mr = n / R;
    let mut p = 0;
    let mut t = tw;
    while p < mr {
        // SAFETY: loads as in `first_group`; stores at R·p + R·l + 4b + 3 < R·(p + 4) ≤ n.
        unsafe {
            if PF {
                for i in 0..R {
                    let a = x.wrapping_add(2 * (p + PF_DIST + i * mr));
                    _mm_prefetch::<_MM_HINT_T0>(a as *const i8);
                }
            }
            let rows = first_group_t::<INV, R>(x, p, mr, t);
            for l in 0..4 {
                for b in 0..R / 4 {
                    _mm512_storeu_pd(y.add(2 * (R * (p + l) + 4 * b)), rows[4 * b + l]);
                }
            }
            t = t.add(16 * (R - 1));
        }
        p += 4;
    }
}

/// Whole transform of `n = 4·R2` (16, 32, 64) in registers: radix-4 first stage, then an
/// `R2`-point DFT over the vectors. All loads precede all stores (in-place safe).
#[inline(never)]
#[target_feature(enable = "avx512f,avx512dq,avx512vl,avx512bw,fma")]
unsafe fn small<const INV: bool, const R2: usize>(x: *const f64, y: *mut f64, tw: *const f64) {
    // SAFETY: n = 4·R2 values; first-stage table of R2/4 groups of 6 rows.
    unsafe {
        let mut v = [_mm512_setzero_pd(); 16];
        for g in 0..R2 / 4 {
            let rows = first_group_t::<INV, 4>(x, 4 * g, R2, tw.add(48 * g));
            for l in 0..4 {
                v[4 * g + l] = rows[l];
            }
        }
        let o = dft_r::<INV, R2>(v);
        for (r, or) in o.iter().enumerate().take(R2) {
            _mm512_storeu_pd(y.add(8 * r), *or);
        }
    }
}

/// Last radix-4 stage (`m = 4`, `s = n/4`): unit twiddles; may run in place.
#[inline(never)]
#[target_feature(enable = "avx512f,avx512dq,avx512vl,avx512bw,fma")]
unsafe fn last4_stage<const INV: bool>(x: *const f64, y: *mut f64, s: usize) {
    let mut q = 0;
    while q < s {
        // SAFETY: indices q + r·s + 3 < 4s = n; all loads precede the stores of the same
        // positions, so in-place use is fine.
        unsafe {
            let a = _mm512_loadu_pd(x.add(2 * q));
            let b = _mm512_loadu_pd(x.add(2 * (q + s)));
            let c = _mm512_loadu_pd(x.add(2 * (q + 2 * s)));
            let d = _mm512_loadu_pd(x.add(2 * (q + 3 * s)));
            let (o0, o1, o2, o3) = bfly4::<INV>(a, b, c, d);
            _mm512_storeu_pd(y.add(2 * q), o0);
            _mm512_storeu_pd(y.add(2 * (q + s)), o1);
            _mm512_storeu_pd(y.add(2 * (q + 2 * s)), o2);
            _mm512_storeu_pd(y.add(2 * (q + 3 * s)), o3);
        }
        q += 4;
    }
}

/// Last radix-2 stage (`m = 2`, `s = n/2`); may run in place.
#[inline(never)]
#[target_feature(enable = "avx512f,avx512dq,avx512vl,avx512bw,fma")]
unsafe fn last2_stage(x: *const f64, y: *mut f64, s: usize) {
    let mut q = 0;
    while q < s {
        // SAFETY: q + s + 3 < 2s = n; loads precede stores of the same positions.
        unsafe {
            let a = _mm512_loadu_pd(x.add(2 * q));
            let b = _mm512_loadu_pd(x.add(2 * (q + s)));
            _mm512_storeu_pd(y.add(2 * q), _mm512_add_pd(a, b));
            _mm512_storeu_pd(y.add(2 * (q + s)), _mm512_sub_pd(a, b));
        }
        q += 4;
    }
}

/// Fuse the last two stages from this length on.
const FUSE_MIN: usize = 4096;

/// Software prefetch above this length (complex values ahead of the current load).
const PF_MIN: usize = 2048;
const PF_DIST: usize = 16;

/// `cos(π/8)`, `sin(π/8)`, `√½`.
const C16: f64 = 0.923_879_532_511_286_7;
const S16: f64 = 0.382_683_432_365_089_8;
const H: f64 = std::f64::consts::FRAC_1_SQRT_2;

/// `z · ω` for the constant root `ω = cos θ ∓ i sin θ` (− forward, + inverse), given
/// `(cos θ, sin θ)`.
#[inline(always)]
unsafe fn cmul_const<const INV: bool>(z: __m512d, c: f64, s: f64) -> __m512d {
    let s = if INV { s } else { -s };
    cmul(z, _mm512_set1_pd(c), _mm512_set1_pd(s))
}

/// `z · (∓j)` (forward: −j, inverse: +j), exact.
#[inline(always)]
unsafe fn mul_mj<const INV: bool>(z: __m512d) -> __m512d {
    let sw = _mm512_permute_pd::<0x55>(z);
    let mask = if INV {
        _mm512_set_pd(0.0, -0.0, 0.0, -0.0, 0.0, -0.0, 0.0, -0.0)
    } else {
        _mm512_set_pd(-0.0, 0.0, -0.0, 0.0, -0.0, 0.0, -0.0, 0.0)
    };
    _mm512_xor_pd(sw, mask)
}

/// Radix-16 stage (`s ≥ 4`, `m16 = m / 16`), vectorised over `q`; with `TW` the outputs
/// `r = 1..16` are multiplied by `ω_m^{rp}` from a 32-double row per `p`.
#[inline(never)]
#[target_feature(enable = "avx512f,avx512dq,avx512vl,avx512bw,fma")]
unsafe fn mid16_stage<const INV: bool, const TW: bool, const PF: bool>(
    x: *const f64,
    y: *mut f64,
    s: usize,
    m16: usize,
    tw: *const f64,
) {
    let sm = s * m16;
    for p in 0..m16 {
        // SAFETY: all indices are < n = 16·s·m16; with TW the table has 32 doubles per p.
        unsafe {
            let xi = x.add(2 * s * p);
            let yo = y.add(2 * 16 * s * p);
            let t = tw.add(32 * p);
            let mut q = 0;
            while q < s {
                let mut v = [_mm512_setzero_pd(); 16];
                for (i, vi) in v.iter_mut().enumerate() {
                    *vi = _mm512_loadu_pd(xi.add(2 * (q + i * sm)));
                }
                if PF {
                    // the load streams advance linearly in q + s·p: fetch PF_DIST ahead
                    for i in 0..16 {
                        let a = xi.wrapping_add(2 * (q + PF_DIST + i * sm));
                        _mm_prefetch::<_MM_HINT_T0>(a as *const i8);
                    }
                }
                let mut out = dft16::<INV>(v);
                if TW {
                    for (r, o) in out.iter_mut().enumerate().skip(1) {
                        let wr = _mm512_set1_pd(*t.add(2 * r - 2));
                        let wi = _mm512_set1_pd(*t.add(2 * r - 1));
                        *o = cmul(*o, wr, wi);
                    }
                }
                for (r, o) in out.iter().enumerate() {
                    _mm512_storeu_pd(yo.add(2 * (q + r * s)), *o);
                }
                q += 4;
            }
        }
    }
}

/// Last radix-8 stage (`m = 8`, `s = n/8`): unit outer twiddles; may run in place.
#[inline(never)]
#[target_feature(enable = "avx512f,avx512dq,avx512vl,avx512bw,fma")]
unsafe fn last8_stage<const INV: bool>(x: *const f64, y: *mut f64, s: usize) {
    let mut q = 0;
    while q < s {
        // SAFETY: indices q + i·s + 3 < 8s = n; all loads precede the stores.
        unsafe {
            let mut v = [_mm512_setzero_pd(); 8];
            for (i, vi) in v.iter_mut().enumerate() {
                *vi = _mm512_loadu_pd(x.add(2 * (q + i * s)));
            }
            let out = dft8::<INV>(v);
            for (r, o) in out.iter().enumerate() {
                _mm512_storeu_pd(y.add(2 * (q + r * s)), *o);
            }
        }
        q += 4;
    }
}

/// Last two stages fused: for each q-vector, a radix-16 stage with twiddles (`m = 16·RB`,
/// stride `sa`) into an L1 buffer, then the radix-`RB` last stage (stride `16·sa`) from it.
/// Reads and writes only the positions `q + sa·j` of the current q-vector, all reads first,
/// so it may run in place.
#[inline(never)]
#[target_feature(enable = "avx512f,avx512dq,avx512vl,avx512bw,fma")]
unsafe fn fused_last<const INV: bool, const RB: usize>(
    x: *const f64,
    y: *mut f64,
    sa: usize,
    tw: *const f64,
) {
    let mut l = [MaybeUninit::<__m512d>::uninit(); 256];
    let sm = sa * RB; // n / 16
                      // opaque loop bounds: keep the loops rolled (full unrolling overflows the uop cache)
    let (rb, sixteen) = core::hint::black_box((RB, 16usize));
    assert!(rb == RB && sixteen == 16);
    let mut q = 0;
    while q < sa {
        // SAFETY: indices q + sa·(p + i·RB) and q + sa·(r + 16·r2) are < 16·RB·sa = n; the
        // table has 32 doubles per p < RB; `l[16p + r]` is written for all p < RB, r < 16
        // before any is read.
        unsafe {
            for p in 0..rb {
                let mut v = [_mm512_setzero_pd(); 16];
                for (i, vi) in v.iter_mut().enumerate() {
                    *vi = _mm512_loadu_pd(x.add(2 * (q + sa * p + i * sm)));
                }
                let mut out = dft16::<INV>(v);
                if p > 0 {
                    let t = tw.add(32 * p);
                    for (r, o) in out.iter_mut().enumerate().skip(1) {
                        let wr = _mm512_set1_pd(*t.add(2 * r - 2));
                        let wi = _mm512_set1_pd(*t.add(2 * r - 1));
                        *o = cmul(*o, wr, wi);
                    }
                }
                for (r, o) in out.iter().enumerate() {
                    l[16 * p + r] = MaybeUninit::new(*o);
                }
            }
            for r in 0..sixteen {
                let mut v = [_mm512_setzero_pd(); 16];
                for (i, vi) in v.iter_mut().enumerate().take(RB) {
                    *vi = l[r + 16 * i].assume_init();
                }
                let o = if RB == 2 {
                    let mut o = v;
                    o[0] = _mm512_add_pd(v[0], v[1]);
                    o[1] = _mm512_sub_pd(v[0], v[1]);
                    o
                } else {
                    dft_r::<INV, RB>(v)
                };
                for (r2, or) in o.iter().enumerate().take(RB) {
                    _mm512_storeu_pd(y.add(2 * (q + sa * (r + 16 * r2))), *or);
                }
            }
        }
        q += 4;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::testutil::Rng;
    use rustfft::FftPlanner;

    type C = Complex<f64>;

    fn random(rng: &mut Rng, n: usize) -> Vec<C> {
        let v = rng.vec_f64(2 * n, 1.0);
        v.chunks(2).map(|p| C::new(p[0], p[1])).collect()
    }

    fn run(p: &Pow2Avx512, x: &[C]) -> Vec<C> {
        let mut y = x.to_vec();
        p.process(&mut y, &mut vec![C::default(); p.scratch_len()]);
        y
    }

    fn same_bits(a: &[C], b: &[C]) -> bool {
        a.iter()
            .zip(b)
            .all(|(u, v)| u.re.to_bits() == v.re.to_bits() && u.im.to_bits() == v.im.to_bits())
    }

    /// Every length 16 … 32768, both directions (where this CPU has AVX-512): against rustfft
    /// within 1e-15·log2(n)·max|X|, the round trip, in place = out of place bit for bit (input
    /// untouched) at odd offsets of buffer, output and scratch, impulses against the exact
    /// roots, and a NaN input reaching every bin.
    #[test]
    fn matches_rustfft_in_and_out_of_place_at_every_length() {
        let have = crate::simd::detected() == crate::simd::Level::Avx512;
        for n in [0, 1, 2, 8, 12, 48, 100, 65536] {
            assert!(Pow2Avx512::new(n, false).is_none(), "n = {n}");
        }
        let mut rng = Rng::new(31);
        for lg in 4..=15u32 {
            let n = 1usize << lg;
            let (Some(f), Some(b)) = (Pow2Avx512::new(n, false), Pow2Avx512::new(n, true)) else {
                assert!(!have, "no plan for {n} on an AVX-512 CPU");
                continue;
            };
            let x = random(&mut rng, n);
            for (p, inv) in [(&f, false), (&b, true)] {
                let y = run(p, &x);
                let mut want = x.clone();
                let mut pl = FftPlanner::<f64>::new();
                let r = if inv {
                    pl.plan_fft_inverse(n)
                } else {
                    pl.plan_fft_forward(n)
                };
                r.process(&mut want);
                let big = want.iter().map(|v| v.norm()).fold(0.0, f64::max);
                let e = y
                    .iter()
                    .zip(&want)
                    .map(|(a, b)| (a - b).norm())
                    .fold(0.0, f64::max);
                assert!(e <= 1e-15 * f64::from(lg) * big, "n={n} inv={inv}: {e:e}");
                for off in [1usize, 3] {
                    let (mut buf, mut s) = (vec![C::default(); n + 8], vec![C::default(); n + 8]);
                    buf[off..off + n].copy_from_slice(&x);
                    let xin = buf.clone();
                    let mut out = vec![C::new(7.0, 7.0); n + 8];
                    let o = 2 * off + 1;
                    p.process_outofplace(&xin[off..off + n], &mut out[o..o + n], &mut s[off..]);
                    assert!(
                        same_bits(&out[o..o + n], &y),
                        "out of place n={n} off={off}"
                    );
                    assert_eq!(xin[off..off + n], x[..], "input kept n={n}");
                    p.process(&mut buf[off..off + n], &mut s[off..]);
                    assert!(
                        same_bits(&buf[off..off + n], &y),
                        "in place n={n} off={off}"
                    );
                }
            }
            let back = run(&b, &run(&f, &x));
            let e = back
                .iter()
                .zip(&x)
                .map(|(a, b)| (a / n as f64 - b).norm())
                .fold(0.0, f64::max);
            assert!(e < 1e-15 * f64::from(lg) * 4.0, "round trip n={n}: {e:e}");
            for k in [0, 1, 3, n / 2 - 1, n - 1] {
                let mut d = vec![C::default(); n];
                d[k] = C::new(1.0, 0.0);
                for (j, v) in run(&f, &d).iter().enumerate() {
                    let (c, s) = unit_root(j * k, n);
                    let e = (v - C::new(c, -s)).norm();
                    assert!(e < 1e-15 * f64::from(lg), "impulse n={n} k={k} j={j}");
                }
            }
            let mut z = x.clone();
            z[n / 3] = C::new(f64::NAN, 0.0);
            assert!(
                run(&f, &z).iter().all(|v| v.re.is_nan() || v.im.is_nan()),
                "NaN n={n}"
            );
        }
    }
}
