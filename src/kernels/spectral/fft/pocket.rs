//! pocketfft's Bluestein transform (`fftblue`) and the complex passes it runs on (`cfftp`,
//! radix 8, 4, 2, 3, 5, 7 and 11: the inner length is 2·3·5·7·11-smooth), ported operation for
//! operation with pocketfft's twiddle tables ([`SinCos2PiByN`]), so the real transforms that
//! pocketfft runs through Bluestein (`fftblue::exec_r`) give numpy's results bit for bit.
//!
//! Plain multiplies and adds in pocketfft's order (no FMA), on slices (no `unsafe`), scalar
//! (about 1.5–3× the time of [`super::mixed::MixedFft`]'s Bluestein with its AVX-512 passes,
//! whose operations are grouped differently). Unnormalised in both directions.

use super::mixed::{factorize_cfftp, SinCos2PiByN};
use crate::error::SkResult;
use crate::kernels::alloc::{try_collect, try_vec};
use crate::kernels::spectral::Complex;
use crate::kernels::Float;

type C<T> = Complex<T>;

#[inline(always)]
fn add<T: Float>(a: C<T>, b: C<T>) -> C<T> {
    C::new(a.re + b.re, a.im + b.im)
}

#[inline(always)]
fn sub<T: Float>(a: C<T>, b: C<T>) -> C<T> {
    C::new(a.re - b.re, a.im - b.im)
}

/// pocketfft's `special_mul<fwd>`: `v·conj(w)` forward, `v·w` backward.
#[inline(always)]
fn smul<T: Float, const FWD: bool>(v: C<T>, w: C<T>) -> C<T> {
    if FWD {
        C::new(v.re * w.re + v.im * w.im, v.im * w.re - v.re * w.im)
    } else {
        C::new(v.re * w.re - v.im * w.im, v.re * w.im + v.im * w.re)
    }
}

/// pocketfft's `ROTX90<fwd>`: `−i·a` forward, `i·a` backward.
#[inline(always)]
fn rotx90<T: Float, const FWD: bool>(a: C<T>) -> C<T> {
    if FWD {
        C::new(a.im, -a.re)
    } else {
        C::new(-a.im, a.re)
    }
}

/// pocketfft's `ROTX45<fwd>`.
#[inline(always)]
fn rotx45<T: Float, const FWD: bool>(a: C<T>) -> C<T> {
    let h = T::from_f64(std::f64::consts::FRAC_1_SQRT_2);
    if FWD {
        C::new(h * (a.re + a.im), h * (a.im - a.re))
    } else {
        C::new(h * (a.re - a.im), h * (a.im + a.re))
    }
}

/// pocketfft's `ROTX135<fwd>`.
#[inline(always)]
fn rotx135<T: Float, const FWD: bool>(a: C<T>) -> C<T> {
    let h = T::from_f64(std::f64::consts::FRAC_1_SQRT_2);
    if FWD {
        C::new(h * (a.im - a.re), h * (-a.re - a.im))
    } else {
        C::new(h * (-a.re - a.im), h * (a.re - a.im))
    }
}

/// `(cos, sin)(2πm/p)` for `m = 1 … (p−1)/2`, as pocketfft's pass3/5/7/11 constants.
fn odd_consts(p: usize) -> &'static [(f64, f64)] {
    match p {
        3 => &[(-0.5, 0.866_025_403_784_438_6)],
        5 => &[
            (0.309_016_994_374_947_45, 0.951_056_516_295_153_5),
            (-0.809_016_994_374_947_5, 0.587_785_252_292_473_1),
        ],
        7 => &[
            (0.623_489_801_858_733_5, 0.781_831_482_468_029_8),
            (-0.222_520_933_956_314_4, 0.974_927_912_181_823_6),
            (-0.900_968_867_902_419_1, 0.433_883_739_117_558_1),
        ],
        _ => &[
            (0.841_253_532_831_181_2, 0.540_640_817_455_597_6),
            (0.415_415_013_001_886_44, 0.909_631_995_354_518_3),
            (-0.142_314_838_273_285_14, 0.989_821_441_880_932_7),
            (-0.654_860_733_945_285_1, 0.755_749_574_354_258_3),
            (-0.959_492_973_614_497_4, 0.281_732_556_841_429_67),
        ],
    }
}

/// One factor of [`Cfftp`]: `tw[(j−1)(ido−1) + i−1] = e^{2πi·j·l1·i/n}`.
struct Fact<T> {
    ip: usize,
    tw: Vec<C<T>>,
}

/// pocketfft's complex passes `cfftp` for a 2·3·5·7·11-smooth length.
pub(crate) struct Cfftp<T> {
    n: usize,
    fact: Vec<Fact<T>>,
}

impl<T: Float> Cfftp<T> {
    /// Plans `n ≥ 1` points; `n` must be 2·3·5·7·11-smooth.
    pub(crate) fn new(n: usize) -> SkResult<Self> {
        let mut fact = Vec::new();
        if n > 1 {
            let twid = SinCos2PiByN::new(n)?;
            let mut l1 = 1;
            for ip in factorize_cfftp(n) {
                assert!(ip <= 11, "cfftp: factor {ip} of {n}");
                let ido = n / (l1 * ip);
                let tw = try_collect(
                    (0..(ip - 1) * (ido - 1)).map(|t| {
                        let (j, i) = (t / (ido - 1) + 1, t % (ido - 1) + 1);
                        let (c, s) = twid.get(j * l1 * i);
                        C::new(T::from_f64(c), T::from_f64(s))
                    }),
                    "the FFT twiddle factors",
                )?;
                fact.push(Fact { ip, tw });
                l1 *= ip;
            }
        }
        Ok(Cfftp { n, fact })
    }

    /// Transforms `c` (n values) in place, unnormalised; `ch` holds at least n values.
    pub(crate) fn exec<const FWD: bool>(&self, c: &mut [C<T>], ch: &mut [C<T>]) {
        let n = self.n;
        let (c, ch) = (&mut c[..n], &mut ch[..n]);
        let mut in_c = true;
        let mut l1 = 1;
        for f in &self.fact {
            let ido = n / (l1 * f.ip);
            let (src, dst): (&[C<T>], &mut [C<T>]) = if in_c {
                (&*c, &mut *ch)
            } else {
                (&*ch, &mut *c)
            };
            match f.ip {
                8 => pass8::<T, FWD>(ido, l1, src, dst, &f.tw),
                4 => pass4::<T, FWD>(ido, l1, src, dst, &f.tw),
                2 => pass2::<T, FWD>(ido, l1, src, dst, &f.tw),
                p => pass_odd::<T, FWD>(p, ido, l1, src, dst, &f.tw),
            }
            in_c = !in_c;
            l1 *= f.ip;
        }
        if !in_c {
            c.copy_from_slice(ch);
        }
    }
}

fn pass2<T: Float, const FWD: bool>(
    ido: usize,
    l1: usize,
    cc: &[C<T>],
    ch: &mut [C<T>],
    wa: &[C<T>],
) {
    let chi = |a: usize, b: usize, c: usize| a + ido * (b + l1 * c);
    let cci = |a: usize, b: usize, c: usize| a + ido * (b + 2 * c);
    for k in 0..l1 {
        let (a, b) = (cc[cci(0, 0, k)], cc[cci(0, 1, k)]);
        ch[chi(0, k, 0)] = add(a, b);
        ch[chi(0, k, 1)] = sub(a, b);
        for i in 1..ido {
            let (a, b) = (cc[cci(i, 0, k)], cc[cci(i, 1, k)]);
            ch[chi(i, k, 0)] = add(a, b);
            ch[chi(i, k, 1)] = smul::<T, FWD>(sub(a, b), wa[i - 1]);
        }
    }
}

fn pass4<T: Float, const FWD: bool>(
    ido: usize,
    l1: usize,
    cc: &[C<T>],
    ch: &mut [C<T>],
    wa: &[C<T>],
) {
    let chi = |a: usize, b: usize, c: usize| a + ido * (b + l1 * c);
    let cci = |a: usize, b: usize, c: usize| a + ido * (b + 4 * c);
    let w = |x: usize, i: usize| wa[i - 1 + x * (ido - 1)];
    for k in 0..l1 {
        for i in 0..ido {
            let (t2, t1) = (
                add(cc[cci(i, 0, k)], cc[cci(i, 2, k)]),
                sub(cc[cci(i, 0, k)], cc[cci(i, 2, k)]),
            );
            let (t3, t4) = (
                add(cc[cci(i, 1, k)], cc[cci(i, 3, k)]),
                sub(cc[cci(i, 1, k)], cc[cci(i, 3, k)]),
            );
            let t4 = rotx90::<T, FWD>(t4);
            if i == 0 {
                ch[chi(0, k, 0)] = add(t2, t3);
                ch[chi(0, k, 2)] = sub(t2, t3);
                ch[chi(0, k, 1)] = add(t1, t4);
                ch[chi(0, k, 3)] = sub(t1, t4);
            } else {
                ch[chi(i, k, 0)] = add(t2, t3);
                ch[chi(i, k, 1)] = smul::<T, FWD>(add(t1, t4), w(0, i));
                ch[chi(i, k, 2)] = smul::<T, FWD>(sub(t2, t3), w(1, i));
                ch[chi(i, k, 3)] = smul::<T, FWD>(sub(t1, t4), w(2, i));
            }
        }
    }
}

fn pass8<T: Float, const FWD: bool>(
    ido: usize,
    l1: usize,
    cc: &[C<T>],
    ch: &mut [C<T>],
    wa: &[C<T>],
) {
    let chi = |a: usize, b: usize, c: usize| a + ido * (b + l1 * c);
    let cci = |a: usize, b: usize, c: usize| a + ido * (b + 8 * c);
    let w = |x: usize, i: usize| wa[i - 1 + x * (ido - 1)];
    for k in 0..l1 {
        for i in 0..ido {
            let x = |m: usize| cc[cci(i, m, k)];
            let (a1, a5) = (add(x(1), x(5)), sub(x(1), x(5)));
            let (a3, a7) = (add(x(3), x(7)), sub(x(3), x(7)));
            let a7 = rotx90::<T, FWD>(a7);
            let (a1, a3) = (add(a1, a3), sub(a1, a3));
            let a3 = rotx90::<T, FWD>(a3);
            let (a5, a7) = (add(a5, a7), sub(a5, a7));
            let a5 = rotx45::<T, FWD>(a5);
            let a7 = rotx135::<T, FWD>(a7);
            let (a0, a4) = (add(x(0), x(4)), sub(x(0), x(4)));
            let (a2, a6) = (add(x(2), x(6)), sub(x(2), x(6)));
            let (a0, a2) = (add(a0, a2), sub(a0, a2));
            let a6 = rotx90::<T, FWD>(a6);
            let (a4, a6) = (add(a4, a6), sub(a4, a6));
            let y = [
                add(a0, a1),
                add(a4, a5),
                add(a2, a3),
                add(a6, a7),
                sub(a0, a1),
                sub(a4, a5),
                sub(a2, a3),
                sub(a6, a7),
            ];
            if i == 0 {
                for (m, &v) in y.iter().enumerate() {
                    ch[chi(0, k, m)] = v;
                }
            } else {
                ch[chi(i, k, 0)] = y[0];
                for (m, &v) in y.iter().enumerate().skip(1) {
                    ch[chi(i, k, m)] = smul::<T, FWD>(v, w(m - 1, i));
                }
            }
        }
    }
}

/// pocketfft's pass3, pass5, pass7 and pass11 (one scheme: sums and differences of the pairs
/// `x_m ± x_{p−m}`, then each output pair from the constants of [`odd_consts`]).
fn pass_odd<T: Float, const FWD: bool>(
    p: usize,
    ido: usize,
    l1: usize,
    cc: &[C<T>],
    ch: &mut [C<T>],
    wa: &[C<T>],
) {
    let h = p / 2;
    let sign = if FWD { -1.0 } else { 1.0 };
    let cs = odd_consts(p);
    // coefficients of output pair u: x[u][m] = cos(2πum/p), y[u][m] = ±sin(2πum/p)
    let mut xr = [[T::ZERO; 5]; 6];
    let mut yi = [[T::ZERO; 5]; 6];
    for u in 1..=h {
        for m in 1..=h {
            let r = u * m % p;
            let (f, s) = if r <= h { (r, 1.0) } else { (p - r, -1.0) };
            xr[u][m - 1] = T::from_f64(cs[f - 1].0);
            yi[u][m - 1] = T::from_f64(s * sign * cs[f - 1].1);
        }
    }
    let chi = |a: usize, b: usize, c: usize| a + ido * (b + l1 * c);
    let cci = |a: usize, b: usize, c: usize| a + ido * (b + p * c);
    let w = |x: usize, i: usize| wa[i - 1 + x * (ido - 1)];
    let zero = C::new(T::ZERO, T::ZERO);
    for k in 0..l1 {
        for i in 0..ido {
            let t0 = cc[cci(i, 0, k)];
            let mut s = [zero; 5];
            let mut d = [zero; 5];
            for m in 1..=h {
                let (a, b) = (cc[cci(i, m, k)], cc[cci(i, p - m, k)]);
                s[m - 1] = add(a, b);
                d[m - 1] = sub(a, b);
            }
            let mut y0 = t0;
            for v in &s[..h] {
                y0 = add(y0, *v);
            }
            ch[chi(i, k, 0)] = y0;
            for u in 1..=h {
                let (x, y) = (&xr[u], &yi[u]);
                let (mut car, mut cai) = (t0.re, t0.im);
                for m in 0..h {
                    car = car + x[m] * s[m].re;
                    cai = cai + x[m] * s[m].im;
                }
                let (mut cbi, mut cbr) = (y[0] * d[0].re, y[0] * d[0].im);
                for m in 1..h {
                    cbi = cbi + y[m] * d[m].re;
                    cbr = cbr + y[m] * d[m].im;
                }
                let (ca, cb) = (C::new(car, cai), C::new(-cbr, cbi));
                let (a, b) = (add(ca, cb), sub(ca, cb));
                if i == 0 {
                    ch[chi(0, k, u)] = a;
                    ch[chi(0, k, p - u)] = b;
                } else {
                    ch[chi(i, k, u)] = smul::<T, FWD>(a, w(u - 1, i));
                    ch[chi(i, k, p - u)] = smul::<T, FWD>(b, w(p - u - 1, i));
                }
            }
        }
    }
}

/// pocketfft's `fftblue` for `n` points: inner length `good_size_cmplx(2n − 1)`.
pub(crate) struct PocketBlue<T> {
    n: usize,
    plan: Cfftp<T>,
    /// `b_k = e^{iπk²/n}`, `k < n` (from pocketfft's table of `2n` roots).
    bk: Vec<C<T>>,
    /// The transform of the zero-padded, circular `b_k/n2`, bins `0 ≤ k ≤ n2/2`.
    bkf: Vec<C<T>>,
}

impl<T: Float> PocketBlue<T> {
    pub(crate) fn new(n: usize, n2: usize) -> SkResult<Self> {
        let what = "the Bluestein chirp";
        let plan = Cfftp::<T>::new(n2)?;
        let tmp = SinCos2PiByN::new(2 * n)?;
        let mut coeff = 0usize;
        let bk = try_collect(
            (0..n).map(|m| {
                if m == 0 {
                    return C::new(T::ONE, T::ZERO);
                }
                coeff += 2 * m - 1;
                if coeff >= 2 * n {
                    coeff -= 2 * n;
                }
                let (c, s) = tmp.get(coeff);
                C::new(T::from_f64(c), T::from_f64(s))
            }),
            what,
        )?;
        let xn2 = T::ONE / T::from_f64(n2 as f64);
        let mut tbkf = try_vec(n2, C::new(T::ZERO, T::ZERO), what)?;
        let scaled = |b: C<T>| C::new(b.re * xn2, b.im * xn2);
        tbkf[0] = scaled(bk[0]);
        for m in 1..n {
            tbkf[m] = scaled(bk[m]);
            tbkf[n2 - m] = tbkf[m];
        }
        let mut ch = try_vec(n2, C::new(T::ZERO, T::ZERO), what)?;
        plan.exec::<true>(&mut tbkf, &mut ch);
        tbkf.truncate(n2 / 2 + 1);
        Ok(PocketBlue {
            n,
            plan,
            bk,
            bkf: tbkf,
        })
    }

    /// Scratch values [`PocketBlue::fft`] needs.
    pub(crate) fn scratch_len(&self) -> usize {
        2 * self.plan.n
    }

    /// pocketfft's `fftblue::fft<fwd>` with `fct = 1`: `c` (n values) in place.
    pub(crate) fn fft<const FWD: bool>(&self, c: &mut [C<T>], scratch: &mut [C<T>]) {
        let (n, n2) = (self.n, self.plan.n);
        let (akf, ch) = scratch[..2 * n2].split_at_mut(n2);
        for ((a, &x), &b) in akf.iter_mut().zip(c.iter()).zip(&self.bk) {
            *a = smul::<T, FWD>(x, b);
        }
        // pocketfft's zero is akf[0]·0 (a signed zero); only its value matters below
        let zero = C::new(akf[0].re * T::ZERO, akf[0].im * T::ZERO);
        akf[n..].fill(zero);
        self.plan.exec::<true>(akf, ch);
        let bkf = &self.bkf;
        akf[0] = smul_not::<T, FWD>(akf[0], bkf[0]);
        for m in 1..n2.div_ceil(2) {
            akf[m] = smul_not::<T, FWD>(akf[m], bkf[m]);
            akf[n2 - m] = smul_not::<T, FWD>(akf[n2 - m], bkf[m]);
        }
        if n2.is_multiple_of(2) {
            akf[n2 / 2] = smul_not::<T, FWD>(akf[n2 / 2], bkf[n2 / 2]);
        }
        self.plan.exec::<false>(akf, ch);
        for ((x, &a), &b) in c.iter_mut().zip(akf.iter()).zip(&self.bk) {
            *x = smul::<T, FWD>(a, b);
        }
    }
}

/// `special_mul<!fwd>`.
#[inline(always)]
fn smul_not<T: Float, const FWD: bool>(v: C<T>, w: C<T>) -> C<T> {
    if FWD {
        smul::<T, false>(v, w)
    } else {
        smul::<T, true>(v, w)
    }
}

#[cfg(test)]
mod tests {
    use super::super::mixed::MixedFft;
    use super::*;
    use crate::kernels::testutil::Rng;

    fn rel(a: &[C<f64>], b: &[C<f64>]) -> f64 {
        let num: f64 = a.iter().zip(b).map(|(x, y)| (x - y).norm_sqr()).sum();
        let den: f64 = b.iter().map(|y| y.norm_sqr()).sum();
        (num / den.max(1e-300)).sqrt()
    }

    fn smooth(mut v: usize) -> bool {
        for p in [2, 3, 5, 7, 11] {
            while v.is_multiple_of(p) {
                v /= p;
            }
        }
        v == 1
    }

    /// The complex passes (every radix, both directions) against the accuracy-first complex
    /// transform, and Bluestein (forward and backward) likewise.
    #[test]
    fn cfftp_and_bluestein_match_the_mixed_transform() {
        let mut rng = Rng::new(23);
        let sizes = (1..=200usize)
            .filter(|&n| smooth(n))
            .chain([512, 1000, 1024, 1331, 2310, 4096, 5040]);
        for n in sizes {
            let x: Vec<C<f64>> = (0..n)
                .map(|_| C::new(rng.uniform() - 0.5, rng.uniform() - 0.5))
                .collect();
            let p = Cfftp::<f64>::new(n).unwrap();
            let m = MixedFft::<f64>::new(n).unwrap();
            let mut ms = vec![C::new(0.0, 0.0); m.scratch_len()];
            let mut ch = vec![C::new(0.0, 0.0); n];
            let tol = 2e-16 * (4.0 + (n as f64).log2());
            for inverse in [false, true] {
                let mut want = x.clone();
                m.process(&mut want, &mut ms, inverse);
                let mut got = x.clone();
                if inverse {
                    p.exec::<false>(&mut got, &mut ch);
                } else {
                    p.exec::<true>(&mut got, &mut ch);
                }
                let e = rel(&got, &want);
                assert!(e <= tol, "cfftp n={n} inverse={inverse}: {e:e}");
            }
        }
        for n in [50usize, 97, 647, 727, 1009, 4099] {
            let x: Vec<C<f64>> = (0..n)
                .map(|_| C::new(rng.uniform() - 0.5, rng.uniform() - 0.5))
                .collect();
            let b =
                PocketBlue::<f64>::new(n, super::super::mixed::good_size_rule(2 * n - 1)).unwrap();
            let m = MixedFft::<f64>::new(n).unwrap();
            let mut ms = vec![C::new(0.0, 0.0); m.scratch_len()];
            let mut s = vec![C::new(0.0, 0.0); b.scratch_len()];
            for inverse in [false, true] {
                let mut want = x.clone();
                m.process(&mut want, &mut ms, inverse);
                let mut got = x.clone();
                if inverse {
                    b.fft::<false>(&mut got, &mut s);
                } else {
                    b.fft::<true>(&mut got, &mut s);
                }
                let e = rel(&got, &want);
                assert!(e <= 1e-15, "bluestein n={n} inverse={inverse}: {e:e}");
            }
        }
    }
}
