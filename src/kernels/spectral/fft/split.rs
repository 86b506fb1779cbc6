//! The real transforms' split step (a complex transform of n/2 points ↔ the n/2+1 bins of n real
//! points): the scalar reference ([`split_fwd_pair`], [`split_inv_pair`]), the compiler-vectorised
//! bodies, the per-level dispatch to the explicit SIMD steps, and the split twiddles.

use super::split_pair::{split_fwd_ends, split_fwd_pair, split_inv_ends, split_inv_pair};
use super::{mixed, Complex, FftFloat};
#[cfg(target_arch = "x86_64")]
use super::{split_avx2, split_avx512};
use crate::error::SkResult;
use crate::kernels::alloc::try_collect;
use crate::kernels::Float;

macro_rules! split_at_level {
    ($fwd:ident, $inv:ident, $t:ty) => {
        /// The forward split step: explicit AVX-512 or AVX2 where the (clamped) level allows it,
        /// otherwise the compiler-vectorised body at that level.
        pub(super) fn $fwd(level: crate::simd::Level, y: &mut [Complex<$t>], v: &[Complex<$t>]) {
            #[cfg(target_arch = "x86_64")]
            match crate::simd::effective(level) {
                // SAFETY: the level was clamped to the detected one, so the CPU has AVX-512
                // F/BW/DQ/VL.
                crate::simd::Level::Avx512 => return unsafe { split_avx512::$fwd(y, v) },
                // SAFETY: as above, the CPU has AVX2.
                crate::simd::Level::Avx2 => return unsafe { split_avx2::$fwd(y, v) },
                _ => {}
            }
            split_fwd_generic(level, y, v)
        }

        /// The inverse split step: explicit AVX2 where the (clamped) level is AVX2, otherwise the
        /// compiler-vectorised body at that level (the AVX-512 level keeps its compiler-vectorised
        /// body: the explicit AVX2 step has not been measured against it).
        pub(super) fn $inv(
            level: crate::simd::Level,
            x: &[Complex<$t>],
            z: &mut [Complex<$t>],
            tw: &[Complex<$t>],
        ) {
            #[cfg(target_arch = "x86_64")]
            if crate::simd::effective(level) == crate::simd::Level::Avx2 {
                // SAFETY: the level was clamped to the detected one, so the CPU has AVX2.
                return unsafe { split_avx2::$inv(x, z, tw) };
            }
            split_inv_generic(level, x, z, tw)
        }
    };
}
split_at_level!(split_fwd_f32, split_inv_f32, f32);
split_at_level!(split_fwd_f64, split_inv_f64, f64);

/// Forward split step: `y[..m]` holds `Z = FFT_m(x[2j] + i·x[2j+1])`; writes the n/2+1 bins of
/// the real FFT into `y[..=m]`. `v[k] = −i·e^{−2πik/n}/2` for `k ≤ m/2` (see
/// [`split_fwd_pair`]).
#[inline(always)]
pub(super) fn split_fwd_body<T: FftFloat>(y: &mut [Complex<T>], v: &[Complex<T>]) {
    let m = y.len() - 1;
    split_fwd_ends(y);
    let p = (m - 1) / 2;
    let (lo, hi) = y[1..m].split_at_mut(p);
    let hl = hi.len();
    let hi = &mut hi[hl - p..];
    // Blocks of B pairs: the partner block (which runs backwards) is first copied reversed into
    // a local array, so the arithmetic is a plain forward loop the compiler vectorises.
    const B: usize = 16;
    let nb = p / B;
    for blk in 0..nb {
        let i0 = blk * B;
        let j0 = p - i0 - B; // partner of lo[i0 + l] is hi[j0 + B - 1 - l]
        let hb: &mut [Complex<T>; B] = (&mut hi[j0..j0 + B]).try_into().unwrap();
        let lb: &mut [Complex<T>; B] = (&mut lo[i0..i0 + B]).try_into().unwrap();
        let vb: &[Complex<T>; B] = v[1 + i0..1 + i0 + B].try_into().unwrap();
        let mut rb = [Complex::new(T::ZERO, T::ZERO); B];
        for l in 0..B {
            rb[l] = hb[B - 1 - l];
        }
        for l in 0..B {
            split_fwd_pair(&mut lb[l], &mut rb[l], vb[l]);
        }
        for l in 0..B {
            hb[B - 1 - l] = rb[l];
        }
    }
    let done = nb * B;
    for ((a, b), w) in lo[done..]
        .iter_mut()
        .zip(hi[..p - done].iter_mut().rev())
        .zip(&v[1 + done..])
    {
        split_fwd_pair(a, b, *w);
    }
}

crate::simd::multiversion! {
    /// The forward split step at a SIMD level (compiler-vectorised body).
    fn split_fwd_generic<T: FftFloat>(y: &mut [Complex<T>], v: &[Complex<T>]) -> ();
    scalar = split_fwd_body; simd = split_fwd_body;
}

/// The forward split step at a SIMD level: explicit AVX-512 (f32 and f64) at [`Level::Avx512`],
/// explicit AVX2 at [`Level::Avx2`], otherwise [`split_fwd_generic`].
///
/// [`Level::Avx512`]: crate::simd::Level::Avx512
/// [`Level::Avx2`]: crate::simd::Level::Avx2
pub(super) fn split_fwd<T: FftFloat>(
    level: crate::simd::Level,
    y: &mut [Complex<T>],
    v: &[Complex<T>],
) {
    T::split_fwd_at(level, y, v)
}

/// Inverse split step: from the n/2+1 bins `x` (imaginary parts of bins 0 and m ignored) writes
/// `Z'[k] = F + i·conj(w^k)·G`, `Z'[m−k] = conj(F − i·conj(w^k)·G)` with
/// `F = X[k] + conj X[m−k]`, `G = X[k] − conj X[m−k]` into `z` (m values); the unnormalised
/// inverse FFT of `Z'` is then the n-point unnormalised inverse real FFT, as re/im pairs.
#[inline(always)]
pub(super) fn split_inv_body<T: FftFloat>(
    x: &[Complex<T>],
    z: &mut [Complex<T>],
    tw: &[Complex<T>],
) {
    let m = z.len();
    split_inv_ends(x, z);
    let p = (m - 1) / 2;
    let (zlo, zhi) = z[1..].split_at_mut(p);
    let zl = zhi.len();
    let zhi = &mut zhi[zl - p..];
    let xlo = &x[1..=p];
    let xhi = &x[m - p..m];
    // blocks of B pairs with the backward-running partners reversed through local arrays, as in
    // the forward step
    const B: usize = 16;
    let nb = p / B;
    for blk in 0..nb {
        let i0 = blk * B;
        let j0 = p - i0 - B;
        let xa: &[Complex<T>; B] = xlo[i0..i0 + B].try_into().unwrap();
        let xh: &[Complex<T>; B] = xhi[j0..j0 + B].try_into().unwrap();
        let wb: &[Complex<T>; B] = tw[1 + i0..1 + i0 + B].try_into().unwrap();
        let mut xb = [Complex::new(T::ZERO, T::ZERO); B];
        for l in 0..B {
            xb[l] = xh[B - 1 - l];
        }
        let mut outa = [Complex::new(T::ZERO, T::ZERO); B];
        let mut outb = [Complex::new(T::ZERO, T::ZERO); B];
        for l in 0..B {
            (outa[l], outb[l]) = split_inv_pair(xa[l], xb[l], wb[l]);
        }
        zlo[i0..i0 + B].copy_from_slice(&outa);
        let zh: &mut [Complex<T>; B] = (&mut zhi[j0..j0 + B]).try_into().unwrap();
        for l in 0..B {
            zh[B - 1 - l] = outb[l];
        }
    }
    let done = nb * B;
    for ((((za, zb), xa), xb), w) in zlo[done..]
        .iter_mut()
        .zip(zhi[..p - done].iter_mut().rev())
        .zip(&xlo[done..])
        .zip(xhi[..p - done].iter().rev())
        .zip(&tw[1 + done..])
    {
        (*za, *zb) = split_inv_pair(*xa, *xb, *w);
    }
}

crate::simd::multiversion! {
    /// The inverse split step at a SIMD level (compiler-vectorised body).
    fn split_inv_generic<T: FftFloat>(
        x: &[Complex<T>],
        z: &mut [Complex<T>],
        tw: &[Complex<T>],
    ) -> ();
    scalar = split_inv_body; simd = split_inv_body;
}

/// The inverse split step at a SIMD level: explicit AVX2 at [`Level::Avx2`], otherwise
/// [`split_inv_generic`].
///
/// [`Level::Avx2`]: crate::simd::Level::Avx2
pub(super) fn split_inv<T: FftFloat>(
    level: crate::simd::Level,
    x: &[Complex<T>],
    z: &mut [Complex<T>],
    tw: &[Complex<T>],
) {
    T::split_inv_at(level, x, z, tw)
}

/// The split-step twiddles of an even length `n`, each rounded once from [`mixed::unit_root`]:
/// `tw[k] = e^{−2πik/n}` (inverse step) and `v[k] = −i·e^{−2πik/n}/2` (forward step) for
/// `k ≤ n/4`.
#[allow(clippy::type_complexity)]
pub(super) fn split_twiddles<T: Float>(n: usize) -> SkResult<(Vec<Complex<T>>, Vec<Complex<T>>)> {
    let m = n / 2;
    let what = "the FFT twiddle factors";
    let tw = try_collect(
        (0..m / 2 + 1).map(|k| {
            let (c, s) = mixed::unit_root(k, n);
            Complex::new(T::from_f64(c), T::from_f64(-s))
        }),
        what,
    )?;
    // −i·(c − i s)/2 = (−s/2, −c/2)
    let v = try_collect(
        (0..m / 2 + 1).map(|k| {
            let (c, s) = mixed::unit_root(k, n);
            Complex::new(T::from_f64(-0.5 * s), T::from_f64(-0.5 * c))
        }),
        what,
    )?;
    Ok((tw, v))
}
