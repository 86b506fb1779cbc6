//! Filter design in double precision.
//!
//! - [`rbj`]: the RBJ "Audio EQ Cookbook" biquads, normalised so `a0 = 1`;
//! - [`butter_sos`]: Butterworth filters as second-order sections, following
//!   `scipy.signal.butter(N, Wn, btype, fs=fs, output='sos')` step by step (analog prototype,
//!   frequency transform, bilinear transform, `zpk2sos` with `pairing='nearest'`), so the same
//!   sections come out in the same order;
//! - [`firwin`]: windowed-sinc FIR filters as `scipy.signal.firwin` (hamming, hann, blackman,
//!   kaiser windows; scaled to unit gain at the centre of the first passband).

use super::cplx::{c, np_div, C};
pub use super::iirproto::BesselNorm;
pub(crate) use super::iirproto::BESSEL_MAX_ORDER;
use super::iirproto::{besselap, ellipap};
use crate::error::{SkError, SkResult};
use crate::kernels::alloc::{try_collect, try_vec};
use std::f64::consts::PI;

/// The cookbook biquads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rbj {
    Lowpass,
    Highpass,
    /// Band-pass with 0 dB peak gain.
    Bandpass,
    Notch,
    Allpass,
    /// Peaking EQ (`gain_db` at `f0`).
    Peaking,
    LowShelf,
    HighShelf,
}

fn check_freq(name: &str, f: f64, fs: f64) -> SkResult<()> {
    if !(f.is_normal() && f > 0.0 && f < fs / 2.0) {
        return Err(SkError::BadArgument(format!(
            "{name} = {f} must lie strictly between 0 and fs/2 = {} (a positive normal number)",
            fs / 2.0
        )));
    }
    Ok(())
}

fn check_fs(fs: f64) -> SkResult<()> {
    if !(fs.is_normal() && fs > 0.0) {
        return Err(SkError::BadArgument(format!(
            "fs = {fs} must be a positive normal number (finite, > 0)"
        )));
    }
    Ok(())
}

/// The result check every IIR design ends with: each coefficient finite, and each section one
/// that `sk_biquad_*_new` / [`SosFilter`](super::sos::SosFilter) in double precision accepts
/// (poles strictly inside the unit circle). Parameters at the edge of their ranges can pass
/// every range check and still give such a section (e.g. a cutoff so low that the poles round
/// onto the unit circle); it is refused here, before anything is written.
fn check_sections(sections: &[[f64; 6]], params: &str) -> SkResult<()> {
    for (i, sec) in sections.iter().enumerate() {
        if let Some(k) = sec.iter().position(|v| !v.is_finite()) {
            return Err(SkError::BadArgument(format!(
                "{params}: the design's section {i} has coefficient {k} = {}; the parameters are \
                 too extreme to be represented in double precision",
                sec[k]
            )));
        }
    }
    let flat: Vec<f64> = sections.iter().flatten().copied().collect();
    super::coeffs::sections_from_sos::<f64>(&flat).map_err(|e| {
        SkError::BadArgument(format!(
            "{params}: the design cannot be used as a filter ({e}); the parameters are too close \
             to the edge of their range for double precision"
        ))
    })?;
    Ok(())
}

/// One cookbook biquad `[b0, b1, b2, 1, a1, a2]` (normalised by `a0`). `q > 0`; `gain_db` is
/// used by the peaking and shelf filters only (it must be finite for every kind).
pub fn rbj(kind: Rbj, fs: f64, f0: f64, q: f64, gain_db: f64) -> SkResult<[f64; 6]> {
    check_fs(fs)?;
    check_freq("f0", f0, fs)?;
    if !(q.is_normal() && q > 0.0) {
        return Err(SkError::BadArgument(format!(
            "q = {q} must be a positive normal number (finite, > 0)"
        )));
    }
    if !gain_db.is_finite() || gain_db.abs() > 600.0 {
        return Err(SkError::BadArgument(format!(
            "gain_db = {gain_db} must be finite and within ±600 dB"
        )));
    }
    let w0 = 2.0 * PI * f0 / fs;
    let (sn, cs) = w0.sin_cos();
    let alpha = sn / (2.0 * q);
    let a = 10f64.powf(gain_db / 40.0);
    let sa = 2.0 * a.sqrt() * alpha;
    let (b, den) = match kind {
        Rbj::Lowpass => (
            [(1.0 - cs) / 2.0, 1.0 - cs, (1.0 - cs) / 2.0],
            [1.0 + alpha, -2.0 * cs, 1.0 - alpha],
        ),
        Rbj::Highpass => (
            [(1.0 + cs) / 2.0, -(1.0 + cs), (1.0 + cs) / 2.0],
            [1.0 + alpha, -2.0 * cs, 1.0 - alpha],
        ),
        Rbj::Bandpass => ([alpha, 0.0, -alpha], [1.0 + alpha, -2.0 * cs, 1.0 - alpha]),
        Rbj::Notch => ([1.0, -2.0 * cs, 1.0], [1.0 + alpha, -2.0 * cs, 1.0 - alpha]),
        Rbj::Allpass => (
            [1.0 - alpha, -2.0 * cs, 1.0 + alpha],
            [1.0 + alpha, -2.0 * cs, 1.0 - alpha],
        ),
        Rbj::Peaking => (
            [1.0 + alpha * a, -2.0 * cs, 1.0 - alpha * a],
            [1.0 + alpha / a, -2.0 * cs, 1.0 - alpha / a],
        ),
        Rbj::LowShelf => (
            [
                a * ((a + 1.0) - (a - 1.0) * cs + sa),
                2.0 * a * ((a - 1.0) - (a + 1.0) * cs),
                a * ((a + 1.0) - (a - 1.0) * cs - sa),
            ],
            [
                (a + 1.0) + (a - 1.0) * cs + sa,
                -2.0 * ((a - 1.0) + (a + 1.0) * cs),
                (a + 1.0) + (a - 1.0) * cs - sa,
            ],
        ),
        Rbj::HighShelf => (
            [
                a * ((a + 1.0) + (a - 1.0) * cs + sa),
                -2.0 * a * ((a - 1.0) + (a + 1.0) * cs),
                a * ((a + 1.0) + (a - 1.0) * cs - sa),
            ],
            [
                (a + 1.0) - (a - 1.0) * cs + sa,
                2.0 * ((a - 1.0) - (a + 1.0) * cs),
                (a + 1.0) - (a - 1.0) * cs - sa,
            ],
        ),
    };
    let a0 = den[0];
    let sos = [
        b[0] / a0,
        b[1] / a0,
        b[2] / a0,
        1.0,
        den[1] / a0,
        den[2] / a0,
    ];
    check_sections(
        &[sos],
        &format!("fs = {fs}, f0 = {f0}, q = {q}, gain_db = {gain_db}"),
    )?;
    Ok(sos)
}

// ---------------------------------------------------------------------------------------------
// Butterworth, scipy's way.

fn prod(v: &[C]) -> C {
    v.iter().fold(c(1.0, 0.0), |a, &b| a * b)
}

/// Butterworth band types.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Band {
    Lowpass,
    Highpass,
    Bandpass,
    Bandstop,
}

/// Number of sections of an order-`n` Butterworth filter of band type `band`.
pub fn butter_sections(order: usize, band: Band) -> usize {
    if order == 0 {
        return 1; // the identity section
    }
    match band {
        Band::Lowpass | Band::Highpass => order.div_ceil(2),
        Band::Bandpass | Band::Bandstop => order,
    }
}

/// Largest order accepted.
pub(crate) const BUTTER_MAX_ORDER: usize = 64;

/// scipy's `_cplxreal`: conjugate pairs (positive imaginary part, averaged) sorted by real part
/// then |imag|, followed by the real values sorted; returned as one list (complex first).
fn cplxreal(z: &[C]) -> SkResult<Vec<C>> {
    if z.is_empty() {
        return Ok(Vec::new());
    }
    let tol = 100.0 * f64::EPSILON;
    let mut z = z.to_vec();
    // lexsort((|imag|, real)): by real, then |imag|; stable
    z.sort_by(|a, b| {
        a.re.partial_cmp(&b.re)
            .unwrap()
            .then(a.im.abs().partial_cmp(&b.im.abs()).unwrap())
    });
    let is_r: Vec<bool> = z.iter().map(|v| v.im.abs() <= tol * v.abs()).collect();
    let zr: Vec<C> = z
        .iter()
        .zip(&is_r)
        .filter(|(_, &r)| r)
        .map(|(v, _)| c(v.re, 0.0))
        .collect();
    let rest: Vec<C> = z
        .iter()
        .zip(&is_r)
        .filter(|(_, &r)| !r)
        .map(|(v, _)| *v)
        .collect();
    let mut zp: Vec<C> = rest.iter().copied().filter(|v| v.im > 0.0).collect();
    let mut zn: Vec<C> = rest.iter().copied().filter(|v| v.im < 0.0).collect();
    if zp.len() != zn.len() {
        return Err(SkError::BadArgument(
            "a complex root has no matching conjugate".into(),
        ));
    }
    // runs of (approximately) equal real part, each sorted by |imag|
    let same: Vec<bool> = (1..zp.len())
        .map(|i| zp[i].re - zp[i - 1].re <= tol * zp[i - 1].abs())
        .collect();
    let mut i = 0;
    while i < same.len() {
        if same[i] {
            let start = i;
            while i < same.len() && same[i] {
                i += 1;
            }
            let stop = i + 1; // exclusive
            for chunk in [&mut zp[start..stop], &mut zn[start..stop]] {
                chunk.sort_by(|a, b| a.im.abs().partial_cmp(&b.im.abs()).unwrap());
            }
        } else {
            i += 1;
        }
    }
    for (p, n) in zp.iter().zip(&zn) {
        if (*p - n.conj()).abs() > tol * n.abs() {
            return Err(SkError::BadArgument(
                "a complex root has no matching conjugate".into(),
            ));
        }
    }
    let mut out: Vec<C> = zp
        .iter()
        .zip(&zn)
        .map(|(p, n)| (*p + n.conj()).scale(0.5))
        .collect();
    out.extend(zr);
    Ok(out)
}

/// `np.poly` of up to two roots, real part (the roots are real or a conjugate pair).
fn poly(roots: &[C]) -> Vec<f64> {
    let mut a = vec![c(1.0, 0.0)];
    for &r in roots {
        let mut next = vec![c(0.0, 0.0); a.len() + 1];
        for (i, &v) in a.iter().enumerate() {
            next[i] = next[i] + v;
            next[i + 1] = next[i + 1] + v * (-r);
        }
        a = next;
    }
    a.iter().map(|v| v.re).collect()
}

fn single_zpksos(z: &[C], p: &[C]) -> [f64; 6] {
    let mut sos = [0.0; 6];
    let b = poly(z);
    let a = poly(p);
    sos[3 - b.len()..3].copy_from_slice(&b);
    sos[6 - a.len()..6].copy_from_slice(&a);
    sos
}

fn nearest_idx(fro: &[C], to: C, which: Option<bool>) -> Option<usize> {
    let mut order: Vec<usize> = (0..fro.len()).collect();
    order.sort_by(|&i, &j| {
        (fro[i] - to)
            .abs()
            .partial_cmp(&(fro[j] - to).abs())
            .unwrap()
    });
    order
        .into_iter()
        .find(|&i| which.is_none_or(|real| fro[i].is_real() == real))
}

fn idx_worst(p: &[C], analog: bool) -> usize {
    // digital: the pole closest to the unit circle; analog: closest to the imaginary axis
    let badness = |v: C| {
        if analog {
            v.re.abs()
        } else {
            (1.0 - v.abs()).abs()
        }
    };
    let mut best = 0;
    for i in 1..p.len() {
        if badness(p[i]) < badness(p[best]) {
            best = i;
        }
    }
    best
}

/// How `zpk2sos` combines poles and zeros into sections (scipy's `pairing`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pairing {
    /// Pad to an even count and pair each pole pair with its nearest zeros (scipy's default for
    /// digital filters).
    Nearest,
    /// As `Nearest`, an odd real pole kept in its own section without padding.
    KeepOdd,
    /// No padding: first-order sections where needed, `len(z) <= len(p)` (the only pairing for
    /// analog filters).
    Minimal,
}

/// scipy's `zpk2sos(z, p, k, pairing, analog=analog)`.
fn zpk2sos(z: &[C], p: &[C], k: f64, pairing: Pairing, analog: bool) -> SkResult<Vec<[f64; 6]>> {
    let mut z = z.to_vec();
    let mut p = p.to_vec();
    if z.is_empty() && p.is_empty() {
        return Ok(vec![if analog {
            [0.0, 0.0, k, 0.0, 0.0, 1.0]
        } else {
            [k, 0.0, 0.0, 1.0, 0.0, 0.0]
        }]);
    }
    if analog && pairing != Pairing::Minimal {
        return Err(SkError::BadArgument(
            "for analog zpk2sos conversion, pairing must be \"minimal\"".into(),
        ));
    }
    let minimal = pairing == Pairing::Minimal;
    let n_sections = if minimal {
        if p.len() < z.len() {
            return Err(SkError::BadArgument(format!(
                "pairing 'minimal' needs at least as many poles as zeros (got {} zeros, {} poles)",
                z.len(),
                p.len()
            )));
        }
        p.len().div_ceil(2)
    } else {
        while p.len() < z.len() {
            p.push(c(0.0, 0.0));
        }
        while z.len() < p.len() {
            z.push(c(0.0, 0.0));
        }
        let n = p.len().div_ceil(2);
        if p.len() % 2 == 1 && pairing == Pairing::Nearest {
            p.push(c(0.0, 0.0));
            z.push(c(0.0, 0.0));
        }
        n
    };
    let mut z = cplxreal(&z)?;
    let mut p = cplxreal(&p)?;
    // scipy's pairing can run out of real zeros for a real pole (some analog band-pass designs
    // of odd order: scipy raises IndexError there)
    let internal = |what: &str| {
        SkError::BadArgument(format!(
            "zpk2sos: the pairing finds no {what} left to pair (scipy's zpk2sos fails here too)"
        ))
    };
    let mut sos = vec![[0.0; 6]; n_sections];
    for si in (0..n_sections).rev() {
        let p1 = p.remove(idx_worst(&p, analog));
        let n_real_p = p.iter().filter(|v| v.is_real()).count();
        let n_real_z = z.iter().filter(|v| v.is_real()).count();
        if p1.is_real() && n_real_p == 0 {
            if !minimal {
                let zi = nearest_idx(&z, p1, Some(true)).ok_or_else(|| internal("real zero"))?;
                let z1 = z.remove(zi);
                sos[si] = single_zpksos(&[z1, c(0.0, 0.0)], &[p1, c(0.0, 0.0)]);
            } else if !z.is_empty() {
                let zi = nearest_idx(&z, p1, Some(true)).ok_or_else(|| internal("real zero"))?;
                let z1 = z.remove(zi);
                sos[si] = single_zpksos(&[z1], &[p1]);
            } else {
                sos[si] = single_zpksos(&[], &[p1]);
            }
        } else if p.len() + 1 == z.len() && !p1.is_real() && n_real_p == 1 && n_real_z == 1 {
            let zi = nearest_idx(&z, p1, Some(false)).ok_or_else(|| internal("complex zero"))?;
            let z1 = z.remove(zi);
            sos[si] = single_zpksos(&[z1, z1.conj()], &[p1, p1.conj()]);
        } else {
            let p2 = if p1.is_real() {
                let reals: Vec<usize> = (0..p.len()).filter(|&i| p[i].is_real()).collect();
                let rp: Vec<C> = reals.iter().map(|&i| p[i]).collect();
                p.remove(reals[idx_worst(&rp, analog)])
            } else {
                p1.conj()
            };
            if !z.is_empty() {
                let zi = nearest_idx(&z, p1, None).ok_or_else(|| internal("zero"))?;
                let z1 = z.remove(zi);
                if !z1.is_real() {
                    sos[si] = single_zpksos(&[z1, z1.conj()], &[p1, p2]);
                } else if !z.is_empty() {
                    let zi =
                        nearest_idx(&z, p1, Some(true)).ok_or_else(|| internal("real zero"))?;
                    let z2 = z.remove(zi);
                    sos[si] = single_zpksos(&[z1, z2], &[p1, p2]);
                } else {
                    sos[si] = single_zpksos(&[z1], &[p1, p2]);
                }
            } else {
                sos[si] = single_zpksos(&[], &[p1, p2]);
            }
        }
    }
    for v in &mut sos[0][..3] {
        *v *= k;
    }
    Ok(sos)
}

/// An order-`order` Butterworth filter as `(n_sections, 6)` sections, equal to
/// `scipy.signal.butter(order, Wn, band, fs=fs, output='sos')` with `Wn = f1` (low/high-pass)
/// or `[f1, f2]` (band-pass/stop). Frequencies in the units of `fs`.
pub fn butter_sos(order: usize, band: Band, f1: f64, f2: f64, fs: f64) -> SkResult<Vec<[f64; 6]>> {
    if order > BUTTER_MAX_ORDER {
        return Err(SkError::BadArgument(format!(
            "order = {order} must be between 0 and {BUTTER_MAX_ORDER}"
        )));
    }
    check_fs(fs)?;
    check_freq("f1", f1, fs)?;
    let two_band = matches!(band, Band::Bandpass | Band::Bandstop);
    if two_band {
        check_freq("f2", f2, fs)?;
        if f2 <= f1 {
            return Err(SkError::BadArgument(format!(
                "f2 = {f2} must be greater than f1 = {f1}"
            )));
        }
    }
    if order == 0 {
        // scipy: no poles, no zeros, gain 1 -> the identity section
        return Ok(vec![[1.0, 0.0, 0.0, 1.0, 0.0, 0.0]]);
    }
    // buttap
    let n = order as f64;
    let mut p: Vec<C> = (0..order)
        .map(|i| {
            let m = -(n - 1.0) + 2.0 * i as f64;
            let th = PI * m / (2.0 * n);
            // -exp(1j*th)
            c(-th.cos(), -th.sin())
        })
        .collect();
    let mut z: Vec<C> = Vec::new();
    let mut k = 1.0;
    // normalised frequencies, pre-warped with fs = 2
    let warp = |f: f64| {
        let wn = f / (fs / 2.0);
        2.0 * 2.0 * (PI * wn / 2.0).tan()
    };
    let w1 = warp(f1);
    let degree = p.len() - z.len();
    match band {
        Band::Lowpass => {
            z = z.iter().map(|v| v.scale(w1)).collect();
            p = p.iter().map(|v| v.scale(w1)).collect();
            k *= w1.powi(degree as i32);
        }
        Band::Highpass => {
            let kz = prod(&z.iter().map(|v| -*v).collect::<Vec<_>>());
            let kp = prod(&p.iter().map(|v| -*v).collect::<Vec<_>>());
            k *= (kz / kp).re;
            z = z.iter().map(|v| c(w1, 0.0) / *v).collect();
            p = p.iter().map(|v| c(w1, 0.0) / *v).collect();
            z.extend(std::iter::repeat_n(c(0.0, 0.0), degree));
        }
        Band::Bandpass | Band::Bandstop => {
            let w2 = warp(f2);
            let bw = w2 - w1;
            let wo = (w1 * w2).sqrt();
            let wo2 = c(wo * wo, 0.0);
            let split = |v: &[C]| -> Vec<C> {
                let mut out: Vec<C> = v.iter().map(|&r| r + (r * r - wo2).sqrt()).collect();
                out.extend(v.iter().map(|&r| r - (r * r - wo2).sqrt()));
                out
            };
            if band == Band::Bandpass {
                let zl: Vec<C> = z.iter().map(|v| v.scale(bw / 2.0)).collect();
                let pl: Vec<C> = p.iter().map(|v| v.scale(bw / 2.0)).collect();
                z = split(&zl);
                p = split(&pl);
                z.extend(std::iter::repeat_n(c(0.0, 0.0), degree));
                k *= bw.powi(degree as i32);
            } else {
                let kz = prod(&z.iter().map(|v| -*v).collect::<Vec<_>>());
                let kp = prod(&p.iter().map(|v| -*v).collect::<Vec<_>>());
                let zh: Vec<C> = z.iter().map(|v| c(bw / 2.0, 0.0) / *v).collect();
                let ph: Vec<C> = p.iter().map(|v| c(bw / 2.0, 0.0) / *v).collect();
                z = split(&zh);
                p = split(&ph);
                z.extend(std::iter::repeat_n(c(0.0, wo), degree));
                z.extend(std::iter::repeat_n(c(0.0, -wo), degree));
                k *= (kz / kp).re;
            }
        }
    }
    // bilinear_zpk with fs = 2
    let fs2 = c(4.0, 0.0);
    let degree = p.len() - z.len();
    let kz = prod(&z.iter().map(|v| fs2 - *v).collect::<Vec<_>>());
    let kp = prod(&p.iter().map(|v| fs2 - *v).collect::<Vec<_>>());
    let mut zz: Vec<C> = z.iter().map(|v| (fs2 + *v) / (fs2 - *v)).collect();
    let pz: Vec<C> = p.iter().map(|v| (fs2 + *v) / (fs2 - *v)).collect();
    zz.extend(std::iter::repeat_n(c(-1.0, 0.0), degree));
    let kd = k * (kz / kp).re;
    let sos = zpk2sos(&zz, &pz, kd, Pairing::Nearest, false)?;
    check_sections(
        &sos,
        &format!("order = {order}, f1 = {f1}, f2 = {f2}, fs = {fs}"),
    )?;
    Ok(sos)
}

// ---------------------------------------------------------------------------------------------
// The IIR family, scipy's way: analog prototype, frequency transform, bilinear transform,
// zpk2sos.

/// Analog low-pass prototypes (cutoff 1 rad/s): scipy's `buttap`, `cheb1ap`, `cheb2ap`,
/// `ellipap`, `besselap`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Proto {
    Butter,
    /// Chebyshev type I, `rp` dB of pass-band ripple (≥ 0).
    Cheby1(f64),
    /// Chebyshev type II, `rs` dB of stop-band attenuation (≥ 0).
    Cheby2(f64),
    /// Elliptic (Cauer): `rp` dB of pass-band ripple, `rs` dB of stop-band attenuation (both
    /// > 0 from order 2 on; order 1 needs `rp` > 0 only).
    Ellip(f64, f64),
    /// Bessel–Thomson with scipy's normalisation.
    Bessel(BesselNorm),
}

/// Largest order of an IIR design other than Bessel (those go to [`BESSEL_MAX_ORDER`]).
pub(crate) const IIR_MAX_ORDER: usize = 64;

/// Zeros, poles and gain of a filter; roots as `[re, im]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Zpk {
    pub z: Vec<[f64; 2]>,
    pub p: Vec<[f64; 2]>,
    pub k: f64,
}

/// numpy's `sinh` of a complex number with finite parts.
fn csinh(v: C) -> C {
    if v.im == 0.0 {
        return c(v.re.sinh(), v.im);
    }
    c(v.re.sinh() * v.im.cos(), v.re.cosh() * v.im.sin())
}

fn prototype(order: usize, proto: Proto) -> SkResult<(Vec<C>, Vec<C>, f64)> {
    let n = order as f64;
    let ms = |i: usize| -(n - 1.0) + 2.0 * i as f64; // arange(-N+1, N, 2)
    Ok(match proto {
        Proto::Ellip(rp, rs) => return ellipap(order, rp, rs),
        Proto::Bessel(norm) => return besselap(order, norm),
        Proto::Butter => {
            if order == 0 {
                return Ok((Vec::new(), Vec::new(), 1.0));
            }
            let p = (0..order)
                .map(|i| {
                    let th = PI * ms(i) / (2.0 * n);
                    c(-th.cos(), -th.sin())
                })
                .collect();
            (Vec::new(), p, 1.0)
        }
        Proto::Cheby1(rp) => {
            if order == 0 {
                return Ok((Vec::new(), Vec::new(), 10f64.powf(-rp / 20.0)));
            }
            let eps = (10f64.powf(0.1 * rp) - 1.0).sqrt();
            let mu = 1.0 / n * (1.0 / eps).asinh();
            let p: Vec<C> = (0..order)
                .map(|i| -csinh(c(mu, PI * ms(i) / (2.0 * n))))
                .collect();
            let mut k = prod(&p.iter().map(|v| -*v).collect::<Vec<_>>()).re;
            if order.is_multiple_of(2) {
                k /= (1.0 + eps * eps).sqrt();
            }
            (Vec::new(), p, k)
        }
        Proto::Cheby2(rs) => {
            if order == 0 {
                return Ok((Vec::new(), Vec::new(), 1.0));
            }
            let de = 1.0 / (10f64.powf(0.1 * rs) - 1.0).sqrt();
            let mu = (1.0 / de).asinh() / n;
            let z: Vec<C> = (0..order)
                .map(ms)
                .filter(|m| *m != 0.0)
                .map(|m| {
                    let s = (m * PI / (2.0 * n)).sin();
                    -(c(0.0, 1.0) / c(s, 0.0)).conj()
                })
                .collect();
            let p: Vec<C> = (0..order)
                .map(|i| {
                    let th = PI * ms(i) / (2.0 * n);
                    let e = c(-th.cos(), -th.sin());
                    c(1.0, 0.0) / c(mu.sinh() * e.re, mu.cosh() * e.im)
                })
                .collect();
            let kp = prod(&p.iter().map(|v| -*v).collect::<Vec<_>>());
            let kz = prod(&z.iter().map(|v| -*v).collect::<Vec<_>>());
            (z, p, (kp / kz).re)
        }
    })
}

/// scipy's `lp2lp_zpk`, `lp2hp_zpk`, `lp2bp_zpk`, `lp2bs_zpk` with edges `w1` (and `w2`).
fn transform(z: Vec<C>, p: Vec<C>, k: f64, band: Band, w1: f64, w2: f64) -> (Vec<C>, Vec<C>, f64) {
    let degree = p.len() - z.len();
    let neg_prod = |v: &[C]| prod(&v.iter().map(|x| -*x).collect::<Vec<_>>());
    match band {
        Band::Lowpass => (
            z.iter().map(|v| v.scale(w1)).collect(),
            p.iter().map(|v| v.scale(w1)).collect(),
            k * w1.powi(degree as i32),
        ),
        Band::Highpass => {
            let kk = k * (neg_prod(&z) / neg_prod(&p)).re;
            let mut zh: Vec<C> = z.iter().map(|v| c(w1, 0.0) / *v).collect();
            let ph: Vec<C> = p.iter().map(|v| c(w1, 0.0) / *v).collect();
            zh.extend(std::iter::repeat_n(c(0.0, 0.0), degree));
            (zh, ph, kk)
        }
        Band::Bandpass | Band::Bandstop => {
            let bw = w2 - w1;
            let wo = (w1 * w2).sqrt();
            let wo2 = c(wo * wo, 0.0);
            let split = |v: &[C]| -> Vec<C> {
                let mut out: Vec<C> = v.iter().map(|&r| r + (r * r - wo2).sqrt()).collect();
                out.extend(v.iter().map(|&r| r - (r * r - wo2).sqrt()));
                out
            };
            if band == Band::Bandpass {
                // numpy's `z * bw / 2`: a complex product, then a complex division (the sign
                // of a zero imaginary part decides the square root's branch below)
                let half = |v: &C| np_div(*v * c(bw, 0.0), c(2.0, 0.0));
                let zl: Vec<C> = z.iter().map(half).collect();
                let pl: Vec<C> = p.iter().map(half).collect();
                let mut zb = split(&zl);
                zb.extend(std::iter::repeat_n(c(0.0, 0.0), degree));
                (zb, split(&pl), k * bw.powi(degree as i32))
            } else {
                let kk = k * (neg_prod(&z) / neg_prod(&p)).re;
                let zh: Vec<C> = z.iter().map(|v| c(bw / 2.0, 0.0) / *v).collect();
                let ph: Vec<C> = p.iter().map(|v| c(bw / 2.0, 0.0) / *v).collect();
                let mut zb = split(&zh);
                zb.extend(std::iter::repeat_n(c(0.0, wo), degree));
                zb.extend(std::iter::repeat_n(c(0.0, -wo), degree));
                (zb, split(&ph), kk)
            }
        }
    }
}

/// scipy's `bilinear_zpk(z, p, k, fs)`.
fn bilinear(z: &[C], p: &[C], k: f64, fs: f64) -> (Vec<C>, Vec<C>, f64) {
    let fs2 = c(2.0 * fs, 0.0);
    let degree = p.len() - z.len();
    let kz = prod(&z.iter().map(|v| fs2 - *v).collect::<Vec<_>>());
    let kp = prod(&p.iter().map(|v| fs2 - *v).collect::<Vec<_>>());
    let mut zz: Vec<C> = z.iter().map(|v| (fs2 + *v) / (fs2 - *v)).collect();
    let pz: Vec<C> = p.iter().map(|v| (fs2 + *v) / (fs2 - *v)).collect();
    zz.extend(std::iter::repeat_n(c(-1.0, 0.0), degree));
    (zz, pz, k * (kz / kp).re)
}

/// scipy's `zpk2sos(z, p, k, pairing, analog=analog)` of roots given as `[re, im]`. Roots must
/// be finite; complex ones must come in conjugate pairs (else `BadArgument`).
pub fn zpk2sos_pairs(
    z: &[[f64; 2]],
    p: &[[f64; 2]],
    k: f64,
    pairing: Pairing,
    analog: bool,
) -> SkResult<Vec<[f64; 6]>> {
    if !k.is_finite() || z.iter().chain(p).flatten().any(|v| !v.is_finite()) {
        return Err(SkError::BadArgument(
            "the zeros, poles and gain must be finite".into(),
        ));
    }
    let cz: Vec<C> = z.iter().map(|r| c(r[0], r[1])).collect();
    let cp: Vec<C> = p.iter().map(|r| c(r[0], r[1])).collect();
    zpk2sos(&cz, &cp, k, pairing, analog)
}

/// Number of poles of an order-`order` design of band type `band` (the capacity the root
/// arrays need; zeros never outnumber poles).
pub fn iir_roots(order: usize, band: Band) -> usize {
    match band {
        Band::Lowpass | Band::Highpass => order,
        Band::Bandpass | Band::Bandstop => 2 * order,
    }
}

/// scipy's `iirfilter(order, Wn, btype, analog, ftype, output='zpk')` for the prototypes of
/// [`Proto`]: `Wn = w1` (low/high-pass) or `[w1, w2]`; digital edges normalised to the Nyquist
/// frequency (strictly between 0 and 1), analog edges in rad/s (> 0).
pub fn iir_zpk(
    order: usize,
    proto: Proto,
    band: Band,
    w1: f64,
    w2: f64,
    analog: bool,
) -> SkResult<Zpk> {
    // (besselap states its own limit)
    if order > IIR_MAX_ORDER && !matches!(proto, Proto::Bessel(_)) {
        return Err(SkError::BadArgument(format!(
            "order = {order} must be between 0 and {IIR_MAX_ORDER}"
        )));
    }
    match proto {
        Proto::Cheby1(r) | Proto::Cheby2(r) if !(r.is_finite() && r >= 0.0) => {
            return Err(SkError::BadArgument(format!(
                "the ripple/attenuation = {r} dB must be finite and not negative"
            )));
        }
        Proto::Ellip(rp, rs) if !(rp.is_finite() && rp >= 0.0 && rs.is_finite() && rs >= 0.0) => {
            return Err(SkError::BadArgument(format!(
                "rp = {rp} dB and rs = {rs} dB must be finite and not negative"
            )));
        }
        _ => {}
    }
    let two = matches!(band, Band::Bandpass | Band::Bandstop);
    let all = [("w1", w1), ("w2", w2)];
    for &(name, w) in &all[..if two { 2 } else { 1 }] {
        let ok = if analog {
            w.is_normal() && w > 0.0
        } else {
            w.is_normal() && w > 0.0 && w < 1.0
        };
        if !ok {
            return Err(SkError::BadArgument(format!(
                "{name} = {w} must be {}",
                if analog {
                    "a positive normal number (rad/s)"
                } else {
                    "strictly between 0 and 1 (normalised to the Nyquist frequency)"
                }
            )));
        }
    }
    if two && w2 <= w1 {
        return Err(SkError::BadArgument(format!(
            "w2 = {w2} must be greater than w1 = {w1}"
        )));
    }
    let (z, p, k) = prototype(order, proto)?;
    let warp = |w: f64| {
        if analog {
            w
        } else {
            2.0 * 2.0 * (PI * w / 2.0).tan()
        }
    };
    let (z, p, k) = transform(z, p, k, band, warp(w1), if two { warp(w2) } else { 0.0 });
    let (z, p, k) = if analog {
        (z, p, k)
    } else {
        bilinear(&z, &p, k, 2.0)
    };
    let pair = |v: &[C]| v.iter().map(|r| [r.re, r.im]).collect::<Vec<_>>();
    let out = Zpk {
        z: pair(&z),
        p: pair(&p),
        k,
    };
    if !out.k.is_finite() || out.z.iter().chain(&out.p).flatten().any(|v| !v.is_finite()) {
        return Err(SkError::BadArgument(format!(
            "order = {order}, w1 = {w1}, w2 = {w2}: the design's roots or gain are not finite; \
             the parameters are too extreme for double precision"
        )));
    }
    Ok(out)
}

// ---------------------------------------------------------------------------------------------
// firwin

/// FIR band types.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FirBand {
    Lowpass,
    Highpass,
    Bandpass,
    Bandstop,
}

/// Windows for [`firwin`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Window {
    Hamming,
    Hann,
    Blackman,
    Kaiser(f64),
}

/// Modified Bessel function of the first kind, order 0 (power series; all terms positive).
pub(crate) fn bessel_i0(x: f64) -> f64 {
    let q = x * x / 4.0;
    let mut term = 1.0;
    let mut sum = 1.0;
    let mut k = 1.0;
    while term > sum * 1e-17 {
        term *= q / (k * k);
        sum += term;
        k += 1.0;
    }
    sum
}

/// The symmetric window of length `m` (`get_window(w, m, fftbins=False)`).
pub fn window(w: Window, m: usize) -> SkResult<Vec<f64>> {
    if m == 1 {
        return Ok(vec![1.0]);
    }
    let what = "the FIR window";
    let cosine = |a: &[f64]| -> SkResult<Vec<f64>> {
        let points = (0..m).map(|i| {
            // np.linspace(-pi, pi, m)
            let fac = -PI + 2.0 * PI * i as f64 / (m - 1) as f64;
            let mut v = 0.0;
            for (k, &ak) in a.iter().enumerate() {
                v += ak * (k as f64 * fac).cos();
            }
            v
        });
        try_collect(points, what)
    };
    match w {
        Window::Hamming => cosine(&[0.54, 0.46]),
        Window::Hann => cosine(&[0.5, 0.5]),
        Window::Blackman => cosine(&[0.42, 0.50, 0.08]),
        Window::Kaiser(beta) => {
            let alpha = (m - 1) as f64 / 2.0;
            let d = bessel_i0(beta);
            let points = (0..m).map(|i| {
                let r = (i as f64 - alpha) / alpha;
                bessel_i0(beta * (1.0 - r * r).max(0.0).sqrt()) / d
            });
            try_collect(points, what)
        }
    }
}

fn sinc(x: f64) -> f64 {
    if x == 0.0 {
        1.0
    } else {
        let y = PI * x;
        y.sin() / y
    }
}

/// Windowed-sinc taps, equal to `scipy.signal.firwin(n_taps, cutoff, window=w,
/// pass_zero=band, fs=fs)` with `cutoff = f1` (low/high-pass) or `[f1, f2]` (band-pass/stop).
/// High-pass and band-stop filters need an odd number of taps.
pub fn firwin(
    n_taps: usize,
    band: FirBand,
    w: Window,
    f1: f64,
    f2: f64,
    fs: f64,
) -> SkResult<Vec<f64>> {
    if n_taps == 0 {
        return Err(SkError::Length("n_taps is 0".into()));
    }
    check_fs(fs)?;
    check_freq("f1", f1, fs)?;
    let nyq = fs / 2.0;
    let two = matches!(band, FirBand::Bandpass | FirBand::Bandstop);
    if two {
        check_freq("f2", f2, fs)?;
        if f2 <= f1 {
            return Err(SkError::BadArgument(format!(
                "f2 = {f2} must be greater than f1 = {f1}"
            )));
        }
    }
    if let Window::Kaiser(beta) = w {
        if !(0.0..=700.0).contains(&beta) {
            return Err(SkError::BadArgument(format!(
                "kaiser beta = {beta} must be finite and in [0, 700]"
            )));
        }
    }
    let (c1, c2) = (f1 / nyq, f2 / nyq);
    let pass_nyquist = matches!(band, FirBand::Highpass | FirBand::Bandstop);
    if pass_nyquist && n_taps.is_multiple_of(2) {
        return Err(SkError::BadArgument(format!(
            "n_taps = {n_taps} is even; a {} filter needs an odd number of taps (an even-length \
             linear-phase filter has zero response at Nyquist)",
            if band == FirBand::Highpass {
                "high-pass"
            } else {
                "band-stop"
            }
        )));
    }
    let bands: Vec<(f64, f64)> = match band {
        FirBand::Lowpass => vec![(0.0, c1)],
        FirBand::Highpass => vec![(c1, 1.0)],
        FirBand::Bandpass => vec![(c1, c2)],
        FirBand::Bandstop => vec![(0.0, c1), (c2, 1.0)],
    };
    let alpha = 0.5 * (n_taps - 1) as f64;
    let what = "the FIR design";
    let m = try_collect((0..n_taps).map(|i| i as f64 - alpha), what)?;
    let mut h = try_vec(n_taps, 0.0, what)?;
    for &(left, right) in &bands {
        for (hv, &mv) in h.iter_mut().zip(&m) {
            *hv += right * sinc(right * mv);
            *hv -= left * sinc(left * mv);
        }
    }
    for (hv, wv) in h.iter_mut().zip(window(w, n_taps)?) {
        *hv *= wv;
    }
    let (left, right) = bands[0];
    let sf = if left == 0.0 {
        0.0
    } else if right == 1.0 {
        1.0
    } else {
        0.5 * (left + right)
    };
    let s: f64 = h
        .iter()
        .zip(&m)
        .map(|(hv, &mv)| hv * (PI * mv * sf).cos())
        .sum();
    for hv in &mut h {
        *hv /= s;
    }
    if let Some(i) = h.iter().position(|v| !v.is_finite()) {
        return Err(SkError::BadArgument(format!(
            "f1 = {f1}, f2 = {f2}, fs = {fs}, n_taps = {n_taps}: tap {i} of the design is {}; \
             the parameters are too extreme to be represented in double precision",
            h[i]
        )));
    }
    Ok(h)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: &[f64], b: &[f64], rel: f64) -> bool {
        let scale = b.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() <= rel * scale)
    }

    #[test]
    fn iir_family_matches_scipy_fixtures() {
        let flat = |s: Vec<[f64; 6]>| s.concat();
        // scipy.signal.cheby1(3, 1.0, 0.3, output='sos')
        let want = [
            0.034384966351816024,
            0.06876993270363205,
            0.034384966351816024,
            1.0,
            -0.5977088859557689,
            0.0,
            1.0,
            1.0,
            0.0,
            1.0,
            -0.9826960523706986,
            0.6664788186594006,
        ];
        let d = iir_zpk(3, Proto::Cheby1(1.0), Band::Lowpass, 0.3, 0.0, false).unwrap();
        let got = flat(zpk2sos_pairs(&d.z, &d.p, d.k, Pairing::Nearest, false).unwrap());
        assert!(close(&got, &want, 1e-13), "{got:?}");
        // scipy.signal.cheby2(4, 40.0, [0.2, 0.4], 'bandstop', output='sos')
        let want = [
            0.25110154253136985,
            -0.2567084946412702,
            0.2511015425313698,
            1.0,
            -0.3980530595071463,
            0.2604538704899867,
            1.0,
            -1.4121673155173435,
            1.0000000000000002,
            1.0,
            -1.180950590561392,
            0.4644657786809546,
            1.0,
            -0.6704314195200096,
            1.0,
            1.0,
            0.0017828464080578386,
            0.6432236421297942,
            1.0,
            -1.5973501378433435,
            1.0,
            1.0,
            -1.6310666807559433,
            0.8231461088938898,
        ];
        let d = iir_zpk(4, Proto::Cheby2(40.0), Band::Bandstop, 0.2, 0.4, false).unwrap();
        let got = flat(zpk2sos_pairs(&d.z, &d.p, d.k, Pairing::Nearest, false).unwrap());
        assert!(close(&got, &want, 1e-13), "{got:?}");
        // scipy.signal.cheby2(3, 30.0, 2.0, analog=True, output='sos'): 'minimal' pairing
        let want = [
            0.0,
            0.0,
            0.18983159915049969,
            0.0,
            1.0,
            1.0715595528043387,
            1.0,
            0.0,
            5.333333333333335,
            1.0,
            0.8817279536538389,
            0.9448240117123919,
        ];
        let d = iir_zpk(3, Proto::Cheby2(30.0), Band::Lowpass, 2.0, 0.0, true).unwrap();
        let got = flat(zpk2sos_pairs(&d.z, &d.p, d.k, Pairing::Minimal, true).unwrap());
        assert!(close(&got, &want, 1e-13), "{got:?}");
        // the general path gives butter_sos's sections
        let d = iir_zpk(5, Proto::Butter, Band::Bandpass, 0.1, 0.3, false).unwrap();
        let got = zpk2sos_pairs(&d.z, &d.p, d.k, Pairing::Nearest, false).unwrap();
        assert_eq!(got, butter_sos(5, Band::Bandpass, 0.1, 0.3, 2.0).unwrap());
        // errors
        assert!(iir_zpk(65, Proto::Butter, Band::Lowpass, 0.3, 0.0, false).is_err());
        assert!(iir_zpk(3, Proto::Cheby1(-1.0), Band::Lowpass, 0.3, 0.0, false).is_err());
        assert!(iir_zpk(3, Proto::Butter, Band::Lowpass, 1.0, 0.0, false).is_err());
        assert!(iir_zpk(3, Proto::Butter, Band::Bandpass, 0.3, 0.2, false).is_err());
        assert!(iir_zpk(3, Proto::Butter, Band::Lowpass, 5.0, 0.0, true).is_ok());
        assert!(zpk2sos_pairs(&[[0.0, 1.0]], &[[0.5, 0.0]], 1.0, Pairing::Nearest, false).is_err());
        assert!(zpk2sos_pairs(
            &[[0.5, 0.0], [0.2, 0.0]],
            &[[0.5, 0.0]],
            1.0,
            Pairing::Minimal,
            true
        )
        .is_err());
        assert!(zpk2sos_pairs(
            &[[f64::NAN, 0.0]],
            &[[0.5, 0.0]],
            1.0,
            Pairing::Nearest,
            false
        )
        .is_err());
        assert!(zpk2sos_pairs(&[], &[[0.5, 0.0]], 1.0, Pairing::Nearest, true).is_err());
    }

    #[test]
    fn butter_matches_scipy_fixtures() {
        // scipy.signal.butter(4, 1000, 'lowpass', fs=48000, output='sos')
        let want = [
            [
                1.555172178089176e-05,
                3.110344356178352e-05,
                1.555172178089176e-05,
                1.0,
                -1.7695043485128368,
                0.7847733317825629,
            ],
            [1.0, 2.0, 1.0, 1.0, -1.8885559538890464, 0.9048522287685677],
        ];
        let got = butter_sos(4, Band::Lowpass, 1000.0, 0.0, 48000.0).unwrap();
        for (g, w) in got.iter().zip(&want) {
            assert!(close(g, w, 1e-12), "{g:?} {w:?}");
        }
        // scipy.signal.butter(3, [0.2, 0.5], 'bandpass', output='sos')
        let want = [
            [
                0.04953299635725316,
                0.09906599271450632,
                0.04953299635725316,
                1.0,
                -0.6750803037670938,
                0.3249196962329064,
            ],
            [
                1.0,
                0.0,
                -1.0,
                1.0,
                -0.08405773418307556,
                0.5859192139686878,
            ],
            [1.0, -2.0, 1.0, 1.0, -1.3614648386763923, 0.7236248254696609],
        ];
        let got = butter_sos(3, Band::Bandpass, 0.2, 0.5, 2.0).unwrap();
        assert_eq!(got.len(), 3);
        for (g, w) in got.iter().zip(&want) {
            assert!(close(g, w, 1e-9), "{g:?} {w:?}");
        }
    }

    #[test]
    fn butter_rejects_bad_arguments() {
        // order 0 is scipy's identity section (frequencies still checked)
        for band in [
            Band::Lowpass,
            Band::Highpass,
            Band::Bandpass,
            Band::Bandstop,
        ] {
            assert_eq!(
                butter_sos(0, band, 0.1, 0.5, 2.0).unwrap(),
                vec![[1.0, 0.0, 0.0, 1.0, 0.0, 0.0]]
            );
            assert_eq!(butter_sections(0, band), 1);
        }
        assert!(butter_sos(0, Band::Lowpass, 1.5, 0.0, 2.0).is_err());
        assert!(butter_sos(65, Band::Lowpass, 0.1, 0.0, 2.0).is_err());
        assert!(butter_sos(2, Band::Lowpass, 1.0, 0.0, 2.0).is_err());
        assert!(butter_sos(2, Band::Lowpass, 0.0, 0.0, 2.0).is_err());
        assert!(butter_sos(2, Band::Lowpass, f64::NAN, 0.0, 2.0).is_err());
        assert!(butter_sos(2, Band::Bandpass, 0.3, 0.2, 2.0).is_err());
        assert!(butter_sos(2, Band::Bandstop, 0.3, 1.2, 2.0).is_err());
        assert!(butter_sos(2, Band::Highpass, 0.3, 0.0, -2.0).is_err());
        assert_eq!(butter_sections(5, Band::Lowpass), 3);
        assert_eq!(butter_sections(5, Band::Bandstop), 5);
        for order in 0..=12 {
            for band in [
                Band::Lowpass,
                Band::Highpass,
                Band::Bandpass,
                Band::Bandstop,
            ] {
                let s = butter_sos(order, band, 0.21, 0.6, 2.0).unwrap();
                assert_eq!(s.len(), butter_sections(order, band));
            }
        }
    }

    #[test]
    fn rbj_properties() {
        // lowpass: unit DC gain; notch: zero on the unit circle at f0; allpass: |b| reversed a
        let lp = rbj(Rbj::Lowpass, 48000.0, 1000.0, 0.5f64.sqrt(), 0.0).unwrap();
        let dc = (lp[0] + lp[1] + lp[2]) / (1.0 + lp[4] + lp[5]);
        assert!((dc - 1.0).abs() < 1e-12);
        let ap = rbj(Rbj::Allpass, 48000.0, 3000.0, 2.0, 0.0).unwrap();
        assert!((ap[0] - ap[5]).abs() < 1e-15 && (ap[2] - 1.0).abs() < 1e-15);
        assert!(rbj(Rbj::Peaking, 48000.0, 1000.0, 0.0, 3.0).is_err());
        assert!(rbj(Rbj::Peaking, 48000.0, 24000.0, 1.0, 3.0).is_err());
        assert!(rbj(Rbj::Peaking, 48000.0, 1000.0, 1.0, f64::NAN).is_err());
        assert!(rbj(Rbj::Lowpass, 0.0, 1000.0, 1.0, 0.0).is_err());
    }

    #[test]
    fn firwin_matches_scipy_fixture() {
        // scipy.signal.firwin(7, 0.3)
        let want = [
            0.003296613269668359,
            0.058973232008108376,
            0.2492098913464448,
            0.37704052675155686,
            0.24920989134644486,
            0.058973232008108445,
            0.003296613269668359,
        ];
        let got = firwin(7, FirBand::Lowpass, Window::Hamming, 0.3, 0.0, 2.0).unwrap();
        assert!(close(&got, &want, 1e-14), "{got:?}");
        assert!(firwin(8, FirBand::Highpass, Window::Hann, 0.3, 0.0, 2.0).is_err());
        assert!((bessel_i0(0.0) - 1.0).abs() < 1e-16);
        // I0(5) = 27.239871823604442
        assert!((bessel_i0(5.0) / 27.239871823604442 - 1.0).abs() < 1e-14);
    }
}
