//! An accuracy-first complex FFT for every length that is not a power of two: mixed-radix
//! Stockham passes (radix 4, 2, 3, 5 and a generic odd radix) in pocketfft's structure, and
//! Bluestein's algorithm for lengths with a large prime factor. Its precision is set by the
//! twiddle factors, which are all computed by [`unit_root`] to within about half an ulp (the
//! angle is reduced to the first octant in integers and evaluated in double-double), and the
//! Bluestein chirp index `k² mod 2n` is computed in integers, so no angle error grows with the
//! index. Unnormalised in both directions, like rustfft.
//!
//! The passes ping-pong between the data and a scratch buffer of the same length; Bluestein
//! needs two buffers of its inner (2·3·5-smooth) length.
//!
//! Speed: for f64 at [`Level::Avx2`] and above the passes of radix 2, 3, 4, 5, 7, 11 and 13 run
//! vectorised ([`simd`]: two or four complex values per vector, the same operations as the
//! scalar passes, so every level gives the same bits).

use super::FftFloat;
use crate::error::SkResult;
use crate::kernels::alloc::{try_collect, try_vec};
use crate::kernels::spectral::Complex;
use crate::kernels::Float;
use crate::simd::Level;

mod arith;
mod simd;

use arith::{add, mul, mulc, rot, scl, sub, tw};

/// `2π` split into a double and the rest.
const TWO_PI_HI: f64 = std::f64::consts::TAU;
const TWO_PI_LO: f64 = 2.449_293_598_294_706_4e-16;

/// `(cos 2πq, sin 2πq)` for `q = num/den ∈ [0, 1/8]`, evaluating the angle in double-double:
/// `q = qh + ql` exactly to working precision, `2πq = ah + al`, and `cos(ah + al) ≈ cos ah −
/// al·sin ah` (al is below one ulp of ah, so the first-order correction is exact enough).
fn sincos_octant(num: u64, den: u64) -> (f64, f64) {
    let (nf, df) = (num as f64, den as f64); // both < 2^53: exact
    let qh = nf / df;
    let ql = (-qh).mul_add(df, nf) / df;
    let ah = TWO_PI_HI * qh;
    let al = TWO_PI_HI.mul_add(qh, -ah) + TWO_PI_HI * ql + TWO_PI_LO * qh;
    let (s, c) = ah.sin_cos();
    ((-s).mul_add(al, c), c.mul_add(al, s))
}

/// `(cos, sin)` of `2π·k/n`, to within about half an ulp for any `k` (reduced modulo `n` and to
/// the first octant in integers, so large indices lose nothing).
pub(crate) fn unit_root(k: usize, n: usize) -> (f64, f64) {
    let (mut num, mut den) = ((k % n) as u64, n as u64);
    // q ∈ (1/2, 1): conjugate of 1 − q
    let neg_sin = 2 * num > den;
    if neg_sin {
        num = den - num;
    }
    // q ∈ (1/4, 1/2]: cos 2πq = −cos 2π(1/2 − q), sin 2πq = sin 2π(1/2 − q)
    let neg_cos = 4 * num > den;
    if neg_cos {
        num = den - 2 * num;
        den *= 2;
    }
    // q ∈ (1/8, 1/4]: cos 2πq = sin 2π(1/4 − q) and vice versa
    let swap = 8 * num > den;
    if swap {
        num = den - 4 * num;
        den *= 4;
    }
    let (c, s) = sincos_octant(num, den);
    let (mut c, mut s) = if swap { (s, c) } else { (c, s) };
    if neg_cos {
        c = -c;
    }
    if neg_sin {
        s = -s;
    }
    (c, s)
}

/// pocketfft's twiddle table `sincos_2pibyn<double>(n)`: `(cos, sin)(2πk/n)` for `0 ≤ k < n`,
/// computed exactly as pocketfft computes it (so the values are numpy's bit for bit): the angle
/// step `π/(4n)` in x87 extended precision rounded to double, `cos`/`sin` of `m·step` reduced
/// to the first octant, in two tables (`v1` for the low bits of `k`, `v2` for the high ones)
/// whose entries are multiplied in double. Within an ulp or two of [`unit_root`]'s values.
pub(crate) struct SinCos2PiByN {
    n: usize,
    mask: usize,
    shift: u32,
    v1: Vec<(f64, f64)>,
    v2: Vec<(f64, f64)>,
}

/// `0.25L·π/n` as pocketfft computes it: in x87 extended precision (64-bit significand, π
/// rounded to it), the quotient rounded to 64 bits and then to double.
fn pocketfft_angle(n: usize) -> f64 {
    // π in extended precision: 0xC90FDAA22168C235 · 2^−62, so π/4 = M · 2^−64
    const M: u128 = 0xC90F_DAA2_2168_C235;
    let num = M << 64; // π/4 = num · 2^−128
    let (q, r) = (num / n as u128, num % n as u128);
    // round q (≥ 2^99 for n < 2^28) to 64 significant bits, nearest even, r as sticky bit
    let bits = 128 - q.leading_zeros();
    let mut sh = bits - 64;
    let low = q & ((1u128 << sh) - 1);
    let half = 1u128 << (sh - 1);
    let mut q64 = q >> sh;
    if low > half || (low == half && (r != 0 || q64 & 1 == 1)) {
        q64 += 1;
        if q64 >> 64 != 0 {
            q64 >>= 1;
            sh += 1;
        }
    }
    // then to 53 bits, nearest even (the 64-bit value is exact: no sticky bit)
    let low = q64 & 0x7ff;
    let mut m53 = q64 >> 11;
    let mut e = sh as i32 + 11 - 128;
    if low > 0x400 || (low == 0x400 && m53 & 1 == 1) {
        m53 += 1;
        if m53 >> 53 != 0 {
            m53 >>= 1;
            e += 1;
        }
    }
    m53 as f64 * 2f64.powi(e)
}

impl SinCos2PiByN {
    /// pocketfft's `calc`: `(cos, sin)(2πx/n)` from `cos`/`sin` of `m·ang`, `ang = π/(4n)`.
    fn calc(x: usize, n: usize, ang: f64) -> (f64, f64) {
        let mut x = x << 3;
        if x < 4 * n {
            if x < 2 * n {
                if x < n {
                    return ((x as f64 * ang).cos(), (x as f64 * ang).sin());
                }
                let y = (2 * n - x) as f64 * ang;
                return (y.sin(), y.cos());
            }
            x -= 2 * n;
            if x < n {
                return (-(x as f64 * ang).sin(), (x as f64 * ang).cos());
            }
            let y = (2 * n - x) as f64 * ang;
            return (-y.cos(), y.sin());
        }
        x = 8 * n - x;
        if x < 2 * n {
            if x < n {
                return ((x as f64 * ang).cos(), -(x as f64 * ang).sin());
            }
            let y = (2 * n - x) as f64 * ang;
            return (y.sin(), -y.cos());
        }
        x -= 2 * n;
        if x < n {
            return (-(x as f64 * ang).sin(), -(x as f64 * ang).cos());
        }
        let y = (2 * n - x) as f64 * ang;
        (-y.cos(), -y.sin())
    }

    pub(crate) fn new(n: usize) -> SkResult<Self> {
        let what = "the FFT twiddle factors";
        let ang = pocketfft_angle(n);
        let nval = (n + 2) / 2;
        let mut shift = 1u32;
        while (1usize << shift) * (1usize << shift) < nval {
            shift += 1;
        }
        let mask = (1usize << shift) - 1;
        let v1 = try_collect(
            (0..mask + 1).map(|i| {
                if i == 0 {
                    (1.0, 0.0)
                } else {
                    Self::calc(i, n, ang)
                }
            }),
            what,
        )?;
        let v2 = try_collect(
            (0..nval.div_ceil(mask + 1)).map(|i| {
                if i == 0 {
                    (1.0, 0.0)
                } else {
                    Self::calc(i * (mask + 1), n, ang)
                }
            }),
            what,
        )?;
        Ok(SinCos2PiByN {
            n,
            mask,
            shift,
            v1,
            v2,
        })
    }

    /// `(cos, sin)(2π·idx/n)`, `idx ≤ n` (pocketfft's `operator[]`).
    #[inline]
    pub(crate) fn get(&self, idx: usize) -> (f64, f64) {
        let (i, neg) = if 2 * idx <= self.n {
            (idx, false)
        } else {
            (self.n - idx, true)
        };
        let (x1, x2) = (self.v1[i & self.mask], self.v2[i >> self.shift]);
        let re = x1.0 * x2.0 - x1.1 * x2.1;
        let im = x1.0 * x2.1 + x1.1 * x2.0;
        (re, if neg { -im } else { im })
    }
}

/// [`unit_root`] as a complex value of the element type (rounded once from f64).
pub(crate) fn root<T: Float>(k: usize, n: usize) -> Complex<T> {
    let (c, s) = unit_root(k, n);
    Complex::new(T::from_f64(c), T::from_f64(s))
}

/// One Stockham pass of radix `p`: `l1` transforms already done, `ido = n/(l1·p)`.
struct Pass<T> {
    p: usize,
    l1: usize,
    ido: usize,
    /// `tw[(i−1)(p−1) + j−1] = e^{2πi·j·l1·i/n}` for `1 ≤ j < p`, `1 ≤ i < ido` (the twiddles
    /// of one column together).
    tw: Vec<Complex<T>>,
    /// Radix 2–5, 7, 11, 13 only, for the SIMD passes: `twv[(j−1)·ido + i] =
    /// e^{2πi·j·l1·i/n}` for `1 ≤ j < p`, `0 ≤ i < ido` (each output's twiddles together,
    /// contiguous in `i`).
    twv: Vec<Complex<T>>,
    /// Generic radix only: `e^{2πi·j/p}`, `0 ≤ j < p`.
    roots: Vec<Complex<T>>,
}

/// A fixed-radix pass: `cc` is `(ido, p, l1)`, `ch` is `(ido, l1, p)` (first index fastest).
/// The first column (`i = 0`) needs no twiddles and is done on its own.
#[inline(always)]
fn pass_fixed<T: Float, const P: usize, const FWD: bool>(
    ps: &Pass<T>,
    cc: &[Complex<T>],
    ch: &mut [Complex<T>],
    bf: impl Fn(&[Complex<T>; P]) -> [Complex<T>; P],
) {
    let (ido, l1) = (ps.ido, ps.l1);
    let tws = &ps.tw[..(P - 1) * (ido - 1)];
    for k in 0..l1 {
        let src = &cc[ido * P * k..ido * P * (k + 1)];
        let x: [Complex<T>; P] = std::array::from_fn(|m| src[ido * m]);
        let y = bf(&x);
        for (j, &v) in y.iter().enumerate() {
            ch[ido * (k + l1 * j)] = v;
        }
        for (i, w) in (1..ido).zip(tws.chunks_exact(P - 1)) {
            let x: [Complex<T>; P] = std::array::from_fn(|m| src[i + ido * m]);
            let y = bf(&x);
            ch[i + ido * k] = y[0];
            for (j, (&v, &w)) in y[1..].iter().zip(w).enumerate() {
                ch[i + ido * (k + l1 * (j + 1))] = tw::<T, FWD>(v, w);
            }
        }
    }
}

fn pass2<T: Float, const FWD: bool>(ps: &Pass<T>, cc: &[Complex<T>], ch: &mut [Complex<T>]) {
    pass_fixed::<T, 2, FWD>(ps, cc, ch, |x| [add(x[0], x[1]), sub(x[0], x[1])]);
}

fn pass4<T: Float, const FWD: bool>(ps: &Pass<T>, cc: &[Complex<T>], ch: &mut [Complex<T>]) {
    pass_fixed::<T, 4, FWD>(ps, cc, ch, |x| {
        let t2 = add(x[0], x[2]);
        let t1 = sub(x[0], x[2]);
        let t3 = add(x[1], x[3]);
        let t4 = rot::<T, FWD>(sub(x[1], x[3]));
        [add(t2, t3), add(t1, t4), sub(t2, t3), sub(t1, t4)]
    });
}

fn pass3<T: Float, const FWD: bool>(ps: &Pass<T>, cc: &[Complex<T>], ch: &mut [Complex<T>]) {
    let tr = T::from_f64(-0.5);
    let ti = T::from_f64(0.866_025_403_784_438_6); // sin(2π/3)
    pass_fixed::<T, 3, FWD>(ps, cc, ch, |x| {
        let t1 = add(x[1], x[2]);
        let t2 = sub(x[1], x[2]);
        let ca = add(x[0], scl(t1, tr));
        let cb = rot::<T, FWD>(scl(t2, ti));
        [add(x[0], t1), add(ca, cb), sub(ca, cb)]
    });
}

fn pass5<T: Float, const FWD: bool>(ps: &Pass<T>, cc: &[Complex<T>], ch: &mut [Complex<T>]) {
    let (c1, s1) = unit_root(1, 5);
    let (c2, s2) = unit_root(2, 5);
    let (r1, i1, r2, i2) = (
        T::from_f64(c1),
        T::from_f64(s1),
        T::from_f64(c2),
        T::from_f64(s2),
    );
    pass_fixed::<T, 5, FWD>(ps, cc, ch, |x| {
        let t1 = add(x[1], x[4]);
        let t4 = sub(x[1], x[4]);
        let t2 = add(x[2], x[3]);
        let t3 = sub(x[2], x[3]);
        let y0 = add(x[0], add(t1, t2));
        let ca1 = add(x[0], add(scl(t1, r1), scl(t2, r2)));
        let cb1 = rot::<T, FWD>(add(scl(t4, i1), scl(t3, i2)));
        let ca2 = add(x[0], add(scl(t1, r2), scl(t2, r1)));
        let cb2 = rot::<T, FWD>(sub(scl(t4, i2), scl(t3, i1)));
        [
            y0,
            add(ca1, cb1),
            add(ca2, cb2),
            sub(ca2, cb2),
            sub(ca1, cb1),
        ]
    });
}

/// Generic odd radix `p`: the symmetric-pair DFT (`x_m ± x_{p−m}` against exact cos/sin of
/// `2πjm/p`), O(p²) per group of p values.
fn passg<T: Float, const FWD: bool>(
    ps: &Pass<T>,
    cc: &[Complex<T>],
    ch: &mut [Complex<T>],
    buf: &mut [Complex<T>],
) {
    let (p, ido, l1) = (ps.p, ps.ido, ps.l1);
    let h = p / 2;
    let zero = Complex::new(T::ZERO, T::ZERO);
    let (sums, out) = buf[..2 * p].split_at_mut(p);
    for k in 0..l1 {
        for i in 0..ido {
            let at = |m: usize| cc[i + ido * (m + p * k)];
            let x0 = at(0);
            let mut y0 = x0;
            for m in 1..=h {
                let (a, b) = (at(m), at(p - m));
                sums[m] = add(a, b); // a_m
                sums[p - m] = sub(a, b); // b_m
                y0 = add(y0, sums[m]);
            }
            out[0] = y0;
            for j in 1..=h {
                let mut re = x0;
                let mut im = zero;
                let mut idx = 0;
                for m in 1..=h {
                    idx += j;
                    if idx >= p {
                        idx -= p;
                    }
                    let r = ps.roots[idx];
                    re = add(re, scl(sums[m], r.re));
                    im = add(im, scl(sums[p - m], r.im));
                }
                let im = rot::<T, FWD>(im);
                out[j] = add(re, im);
                out[p - j] = sub(re, im);
            }
            ch[i + ido * k] = out[0];
            for (j, &v) in out.iter().enumerate().skip(1) {
                ch[i + ido * (k + l1 * j)] = if i == 0 {
                    v
                } else {
                    tw::<T, FWD>(v, ps.tw[(i - 1) * (p - 1) + j - 1])
                };
            }
        }
    }
}

/// pocketfft's factor order for its real passes `rfftp` (and the C pocketfft's complex ones,
/// which [`MixedFft`] follows): fours first, a remaining two moved to the front, then the odd
/// factors ascending.
pub(crate) fn factorize(n: usize) -> Vec<usize> {
    pocketfft_factors(n, false)
}

/// The factor order of pocketfft's C++ complex passes `cfftp` ([`super::pocket`]): eights
/// first, then as [`factorize`] (the two swapped to the very front, ahead of the eights).
pub(crate) fn factorize_cfftp(n: usize) -> Vec<usize> {
    pocketfft_factors(n, true)
}

fn pocketfft_factors(mut n: usize, eights: bool) -> Vec<usize> {
    let mut f = Vec::new();
    while eights && n.is_multiple_of(8) {
        f.push(8);
        n /= 8;
    }
    while n.is_multiple_of(4) {
        f.push(4);
        n /= 4;
    }
    if n.is_multiple_of(2) {
        n /= 2;
        f.push(2);
        let last = f.len() - 1;
        f.swap(0, last);
    }
    let mut d = 3;
    while d * d <= n {
        while n.is_multiple_of(d) {
            f.push(d);
            n /= d;
        }
        d += 2;
    }
    if n > 1 {
        f.push(n);
    }
    f
}

fn largest_prime_factor(n: usize) -> usize {
    factorize(n).into_iter().max().unwrap_or(1)
}

/// pocketfft's operation-count estimate (larger prime factors penalised).
fn cost_guess(n: usize) -> f64 {
    let f: f64 = factorize(n)
        .into_iter()
        .map(|p| match p {
            4 => 4.0,
            p if p <= 5 => p as f64,
            p => 1.1 * p as f64,
        })
        .sum();
    f * n as f64
}

/// The smallest 2·3·5-smooth length ≥ `n` (the Bluestein inner length: only the hard-coded
/// radices).
fn good_size(n: usize) -> usize {
    let mut best = n.next_power_of_two();
    let mut f5 = 1;
    while f5 < best {
        let mut f3 = f5;
        while f3 < best {
            let mut f2 = f3;
            while f2 < n {
                f2 *= 2;
            }
            best = best.min(f2);
            f3 *= 3;
        }
        f5 *= 5;
    }
    best
}

/// pocketfft's `good_size`: the smallest 2·3·5·7·11-smooth length ≥ `n` (used only to decide
/// between direct passes and Bluestein exactly as pocketfft does).
pub(crate) fn good_size_rule(n: usize) -> usize {
    let mut best = n.next_power_of_two();
    let mut f11 = 1;
    while f11 < best {
        let mut f7 = f11;
        while f7 < best {
            best = best.min(good_size(n.div_ceil(f7)).saturating_mul(f7));
            f7 *= 7;
        }
        f11 *= 11;
    }
    best
}

/// pocketfft's choice of Bluestein for a transform of `n` points whose direct cost is weighted
/// by `weight` (1 for complex transforms, 1/2 for real ones): only with a prime factor above √n
/// and a padded transform estimated cheaper. Following it keeps the accuracy of numpy's
/// algorithm at each length (direct O(p²) passes are more accurate than Bluestein's
/// convolution).
pub(crate) fn pocketfft_uses_bluestein(n: usize, weight: f64) -> bool {
    if n < 50 {
        return false;
    }
    let lpf = largest_prime_factor(n);
    lpf * lpf > n && 3.0 * cost_guess(good_size_rule(2 * n - 1)) < weight * cost_guess(n)
}

/// Stockham passes for one length.
struct Passes<T> {
    n: usize,
    passes: Vec<Pass<T>>,
    /// Largest generic (p > 5) radix, 0 if none: its pass needs 2p more scratch values.
    maxg: usize,
}

impl<T: FftFloat> Passes<T> {
    fn new(n: usize) -> SkResult<Self> {
        let what = "the FFT twiddle factors";
        let mut passes = Vec::new();
        let mut l1 = 1;
        for p in factorize(n) {
            let ido = n / (l1 * p);
            let tw = try_collect(
                (0..(p - 1) * (ido - 1)).map(|t| {
                    let (i, j) = (t / (p - 1) + 1, t % (p - 1) + 1);
                    root(j * l1 * i, n)
                }),
                what,
            )?;
            let twv = if p <= 5 || matches!(p, 7 | 11 | 13) {
                try_collect(
                    (0..(p - 1) * ido).map(|t| {
                        let (j, i) = (t / ido + 1, t % ido);
                        root(j * l1 * i, n)
                    }),
                    what,
                )?
            } else {
                Vec::new()
            };
            let roots = if p > 5 {
                try_collect((0..p).map(|j| root(j, p)), what)?
            } else {
                Vec::new()
            };
            passes.push(Pass {
                p,
                l1,
                ido,
                tw,
                twv,
                roots,
            });
            l1 *= p;
        }
        let maxg = passes
            .iter()
            .map(|p| p.p)
            .filter(|&p| p > 5)
            .max()
            .unwrap_or(0);
        Ok(Passes { n, passes, maxg })
    }

    /// Scratch values [`Passes::run`] needs.
    fn scratch_len(&self) -> usize {
        self.n + 2 * self.maxg
    }

    /// Transforms `c` in place using `ch` ([`Passes::scratch_len`] values) as the other
    /// Stockham buffer and the generic radix's workspace. At [`Level::Avx2`] and above, f64
    /// radix-2–5, 7, 11 and 13 passes run with AVX2/AVX-512 (bit-identical results, see
    /// [`simd`]).
    fn run<const FWD: bool>(&self, level: Level, c: &mut [Complex<T>], ch: &mut [Complex<T>]) {
        let vector = cfg!(target_arch = "x86_64") && crate::simd::effective(level) >= Level::Avx2;
        let n = self.n;
        let (ch, buf) = ch[..self.scratch_len()].split_at_mut(n);
        let c = &mut c[..n];
        let mut in_c = true;
        for ps in &self.passes {
            let (src, dst): (&[Complex<T>], &mut [Complex<T>]) = if in_c {
                (&*c, &mut *ch)
            } else {
                (&*ch, &mut *c)
            };
            in_c = !in_c;
            if vector && Self::pass_simd::<FWD>(level, ps, src, dst) {
                continue;
            }
            match ps.p {
                4 => pass4::<T, FWD>(ps, src, dst),
                2 => pass2::<T, FWD>(ps, src, dst),
                3 => pass3::<T, FWD>(ps, src, dst),
                5 => pass5::<T, FWD>(ps, src, dst),
                _ => passg::<T, FWD>(ps, src, dst, buf),
            }
        }
        if !in_c {
            c.copy_from_slice(ch);
        }
    }
}

impl<T: FftFloat> Passes<T> {
    /// One pass with AVX2/AVX-512 if it is an f64 radix-2–5, 7, 11 or 13 pass (`false`
    /// otherwise: nothing done). The caller checked that the SIMD level includes AVX2.
    #[inline]
    fn pass_simd<const FWD: bool>(
        level: Level,
        ps: &Pass<T>,
        src: &[Complex<T>],
        dst: &mut [Complex<T>],
    ) -> bool {
        #[cfg(target_arch = "x86_64")]
        if let (Some(cc), Some(ch), Some(twv), Some(roots)) = (
            T::as_f64(src),
            T::as_f64_mut(dst),
            T::as_f64(&ps.twv),
            T::as_f64(&ps.roots),
        ) {
            let (p, l1, ido) = (ps.p, ps.l1, ps.ido);
            return if crate::simd::effective(level) == Level::Avx512 {
                // SAFETY: the level was clamped to the detected one: the CPU has AVX-512 F/DQ.
                unsafe { simd::pass_avx512::<FWD>(p, l1, ido, twv, roots, cc, ch) }
            } else {
                // SAFETY: the caller found the (clamped) level to include AVX2.
                unsafe { simd::pass_avx2::<FWD>(p, l1, ido, twv, roots, cc, ch) }
            };
        }
        let _ = (level, ps, src, dst);
        false
    }
}

/// Bluestein's algorithm: `X_j = conj(b_j)·Σ_k x_k conj(b_k)·b_{j−k}` with the chirp
/// `b_k = e^{iπk²/n}`, the convolution done with an inner transform of a smooth length.
struct Blue<T> {
    n: usize,
    inner: Passes<T>,
    /// `b_k`, `k < n`.
    bk: Vec<Complex<T>>,
    /// Forward transform of the circular chirp, divided by the inner length.
    bkf: Vec<Complex<T>>,
}

impl<T: FftFloat> Blue<T> {
    /// Bluestein of `n` points with an inner transform of `n2 ≥ 2n − 1` points.
    fn new(n: usize, n2: usize) -> SkResult<Self> {
        let inner = Passes::new(n2)?;
        let what = "the Bluestein chirp";
        // k² mod 2n in integers: (k+1)² = k² + 2k + 1
        let mut coeff = 0usize;
        let bk = try_collect(
            (0..n).map(|k| {
                if k > 0 {
                    coeff = (coeff + 2 * k - 1) % (2 * n);
                }
                root::<T>(coeff, 2 * n)
            }),
            what,
        )?;
        // the chirp's transform in f64 (then rounded), so f32 plans lose nothing here either
        let mut bkf64 = try_vec(n2, Complex::new(0.0f64, 0.0), what)?;
        let mut coeff = 0usize;
        for k in 0..n {
            if k > 0 {
                coeff = (coeff + 2 * k - 1) % (2 * n);
            }
            let w = root::<f64>(coeff, 2 * n);
            bkf64[k] = w;
            if k > 0 {
                bkf64[n2 - k] = w;
            }
        }
        let p64 = Passes::<f64>::new(n2)?;
        let mut ch = try_vec(p64.scratch_len(), Complex::new(0.0f64, 0.0), what)?;
        p64.run::<true>(crate::simd::current(), &mut bkf64, &mut ch);
        let s = 1.0 / n2 as f64;
        let bkf = try_collect(
            bkf64.iter().map(|v| {
                Complex::new(
                    <T as Float>::from_f64(v.re * s),
                    <T as Float>::from_f64(v.im * s),
                )
            }),
            what,
        )?;
        Ok(Blue { n, inner, bk, bkf })
    }

    fn run<const FWD: bool>(&self, level: Level, c: &mut [Complex<T>], scratch: &mut [Complex<T>]) {
        let n2 = self.inner.n;
        let (akf, rest) = scratch.split_at_mut(n2);
        let zero = Complex::new(T::ZERO, T::ZERO);
        for ((a, &x), &b) in akf.iter_mut().zip(c.iter()).zip(&self.bk) {
            *a = if FWD { mulc(x, b) } else { mul(x, b) };
        }
        akf[self.n..].fill(zero);
        self.inner.run::<true>(level, akf, rest);
        for (a, &b) in akf.iter_mut().zip(&self.bkf) {
            *a = if FWD { mul(*a, b) } else { mulc(*a, b) };
        }
        self.inner.run::<false>(level, akf, rest);
        for ((x, &a), &b) in c.iter_mut().zip(akf.iter()).zip(&self.bk) {
            *x = if FWD { mulc(a, b) } else { mul(a, b) };
        }
    }
}

enum Algo<T> {
    Passes(Passes<T>),
    Blue(Blue<T>),
}

/// A complex FFT plan of one length (both directions, unnormalised).
pub(crate) struct MixedFft<T> {
    n: usize,
    algo: Algo<T>,
}

impl<T: FftFloat> MixedFft<T> {
    /// Plans a complex transform of `n ≥ 1` points: Stockham passes, or Bluestein where
    /// pocketfft's complex cost rule picks it.
    pub(crate) fn new(n: usize) -> SkResult<Self> {
        Self::with_bluestein(n, pocketfft_uses_bluestein(n, 1.0))
    }

    fn with_bluestein(n: usize, blue: bool) -> SkResult<Self> {
        let algo = if blue {
            Algo::Blue(Blue::new(n, good_size(2 * n - 1))?)
        } else {
            Algo::Passes(Passes::new(n)?)
        };
        Ok(MixedFft { n, algo })
    }

    /// Complex scratch values [`MixedFft::process`] needs.
    pub(crate) fn scratch_len(&self) -> usize {
        match &self.algo {
            Algo::Passes(p) => p.scratch_len(),
            Algo::Blue(b) => b.inner.n + b.inner.scratch_len(),
        }
    }

    /// Transforms `data` (n values) in place; `scratch` holds at least
    /// [`MixedFft::scratch_len`] values.
    pub(crate) fn process(
        &self,
        data: &mut [Complex<T>],
        scratch: &mut [Complex<T>],
        inverse: bool,
    ) {
        self.process_at(crate::simd::current(), data, scratch, inverse)
    }

    /// [`MixedFft::process`] at a SIMD level (clamped to the CPU's).
    pub(crate) fn process_at(
        &self,
        level: Level,
        data: &mut [Complex<T>],
        scratch: &mut [Complex<T>],
        inverse: bool,
    ) {
        assert_eq!(data.len(), self.n, "fft length");
        match (&self.algo, inverse) {
            (Algo::Passes(p), false) => p.run::<true>(level, data, scratch),
            (Algo::Passes(p), true) => p.run::<false>(level, data, scratch),
            (Algo::Blue(b), false) => b.run::<true>(level, data, scratch),
            (Algo::Blue(b), true) => b.run::<false>(level, data, scratch),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::testutil::Rng;

    /// Direct DFT with exact twiddles, accumulated in f64 with compensated (Kahan) sums.
    fn dft(x: &[Complex<f64>], inverse: bool) -> Vec<Complex<f64>> {
        let n = x.len();
        (0..n)
            .map(|k| {
                let (mut acc, mut comp) = (Complex::new(0.0, 0.0), Complex::new(0.0, 0.0));
                for (j, v) in x.iter().enumerate() {
                    let (c, s) = unit_root(j * k % n, n);
                    let w = Complex::new(c, if inverse { s } else { -s });
                    let y = v * w - comp;
                    let t = acc + y;
                    comp = (t - acc) - y;
                    acc = t;
                }
                acc
            })
            .collect()
    }

    #[test]
    fn unit_roots_are_accurate_and_symmetric() {
        for n in [1usize, 2, 3, 5, 7, 8, 12, 13, 1000, 4099, 1 << 20, 999_983] {
            for k in (0..n).step_by((n / 97).max(1)) {
                let (c, s) = unit_root(k, n);
                let a = 2.0 * std::f64::consts::PI * k as f64 / n as f64;
                // the naive angle loses up to k·ulp(2π/n); allow that plus 2 ulp
                let tol = 4.5e-16 + 2.3e-16 * a;
                assert!((c - a.cos()).abs() <= tol, "cos {k}/{n}");
                assert!((s - a.sin()).abs() <= tol, "sin {k}/{n}");
                assert!((c * c + s * s - 1.0).abs() < 4.5e-16, "norm {k}/{n}");
            }
        }
        // exact values at the special angles
        assert_eq!(unit_root(0, 7), (1.0, 0.0));
        assert_eq!(unit_root(2, 8), (0.0, 1.0));
        assert_eq!(unit_root(4, 8), (-1.0, 0.0));
        assert_eq!(unit_root(6, 8), (0.0, -1.0));
        let (c, s) = unit_root(1, 8);
        assert!((c - s).abs() <= 1.2e-16);
    }

    /// pocketfft's angle step and twiddle table: `π/4` exactly for n = 1, within an ulp of
    /// `π/(4n)`, and the table within a couple of ulp of the exactly rounded roots.
    #[test]
    fn pocketfft_twiddles_are_close_to_exact() {
        assert_eq!(pocketfft_angle(1), std::f64::consts::FRAC_PI_4);
        assert_eq!(pocketfft_angle(2), std::f64::consts::FRAC_PI_4 / 2.0);
        for n in (1..3000usize).chain([4099, 1 << 20, 999_983, (1 << 28) - 1]) {
            let a = pocketfft_angle(n);
            let want = std::f64::consts::FRAC_PI_4 / n as f64;
            assert!((a - want).abs() <= 1.5 * f64::EPSILON * want, "angle n={n}");
        }
        for n in [
            1usize,
            2,
            3,
            5,
            7,
            8,
            12,
            13,
            27,
            54,
            1000,
            1009,
            4096,
            4099,
            1 << 16,
        ] {
            let t = SinCos2PiByN::new(n).unwrap();
            assert_eq!(t.get(0), (1.0, 0.0));
            for k in 0..n {
                let (c, s) = t.get(k);
                let (ec, es) = unit_root(k, n);
                assert!((c - ec).abs() <= 4.5e-16, "cos {k}/{n}");
                assert!((s - es).abs() <= 4.5e-16, "sin {k}/{n}");
            }
        }
    }

    #[test]
    fn good_size_is_smallest_smooth() {
        for n in 1..2000usize {
            let g = good_size(n);
            let smooth = |mut v: usize| {
                for p in [2, 3, 5] {
                    while v.is_multiple_of(p) {
                        v /= p;
                    }
                }
                v == 1
            };
            assert!(g >= n && smooth(g), "{n} -> {g}");
            assert!((n..g).all(|v| !smooth(v)), "{n} -> {g}");
        }
    }

    #[test]
    fn matches_direct_dft_both_directions() {
        let mut rng = Rng::new(3);
        let sizes =
            (1..=64usize).chain([97, 100, 121, 169, 243, 256, 480, 509, 961, 1009, 2 * 1009]);
        for n in sizes {
            let p = MixedFft::<f64>::new(n).unwrap();
            let x: Vec<Complex<f64>> = (0..n)
                .map(|_| Complex::new(rng.uniform() - 0.5, rng.uniform() - 0.5))
                .collect();
            let mut scratch = vec![Complex::new(0.0, 0.0); p.scratch_len()];
            for inverse in [false, true] {
                let want = dft(&x, inverse);
                let mut y = x.clone();
                p.process(&mut y, &mut scratch, inverse);
                let norm = want.iter().map(|v| v.norm_sqr()).sum::<f64>().sqrt();
                let err = y
                    .iter()
                    .zip(&want)
                    .map(|(a, b)| (a - b).norm_sqr())
                    .sum::<f64>()
                    .sqrt();
                // rms relative error: a few eps·√log n
                assert!(
                    err <= 1e-15 * norm.max(1e-300),
                    "n={n} inv={inverse}: {}",
                    err / norm
                );
            }
        }
    }

    /// The SIMD passes give the scalar passes' results exactly (compared with `==`: the SIMD
    /// first column is multiplied by the exact twiddle 1, which can only change a zero's sign),
    /// at every level, both directions, every radix and both vector layouts, Bluestein too.
    #[test]
    fn every_simd_level_matches_the_scalar_passes() {
        assert_eq!(unit_root(1, 5), (simd::C1_5, simd::S1_5));
        assert_eq!(unit_root(2, 5), (simd::C2_5, simd::S2_5));
        assert_eq!((3.0f64).sqrt() / 2.0, simd::SIN_60);
        let mut rng = Rng::new(5);
        let sizes = (1..=130usize).chain([
            243, 375, 400, 480, 625, 960, 1000, 1001, 1920, 3072, 4099, 5120, 6000, 44100,
        ]);
        for n in sizes {
            let p = MixedFft::<f64>::new(n).unwrap();
            let x: Vec<Complex<f64>> = (0..n)
                .map(|_| Complex::new(rng.uniform() - 0.5, rng.uniform() - 0.5))
                .collect();
            let mut scratch = vec![Complex::new(0.0, 0.0); p.scratch_len()];
            for inverse in [false, true] {
                let mut want = x.clone();
                p.process_at(Level::Scalar, &mut want, &mut scratch, inverse);
                for level in crate::simd::available() {
                    let mut got = x.clone();
                    p.process_at(level, &mut got, &mut scratch, inverse);
                    assert!(got == want, "n={n} inverse={inverse} {level:?}");
                }
            }
        }
    }

    #[test]
    fn bluestein_is_chosen_for_large_primes_and_f32_is_accurate() {
        assert!(matches!(
            MixedFft::<f64>::new(4099).unwrap().algo,
            Algo::Blue(_)
        ));
        assert!(matches!(
            MixedFft::<f64>::new(13).unwrap().algo,
            Algo::Passes(_)
        ));
        let mut rng = Rng::new(9);
        for n in [13usize, 509, 4099] {
            let x: Vec<Complex<f64>> = (0..n)
                .map(|_| Complex::new(rng.uniform() - 0.5, rng.uniform() - 0.5))
                .collect();
            let want = dft(&x, false);
            let p = MixedFft::<f32>::new(n).unwrap();
            let mut y: Vec<Complex<f32>> = x
                .iter()
                .map(|v| Complex::new(v.re as f32, v.im as f32))
                .collect();
            let mut scratch = vec![Complex::new(0.0f32, 0.0); p.scratch_len()];
            p.process(&mut y, &mut scratch, false);
            let norm = want.iter().map(|v| v.norm_sqr()).sum::<f64>().sqrt();
            let err = y
                .iter()
                .zip(&want)
                .map(|(a, b)| (Complex::new(a.re as f64, a.im as f64) - b).norm_sqr())
                .sum::<f64>()
                .sqrt();
            assert!(err <= 3e-7 * norm, "f32 n={n}: {}", err / norm);
        }
    }
}
