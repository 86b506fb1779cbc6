//! Filter coefficients in the forms the kernels run, checked: biquad sections ([`Section`],
//! scipy's `sos` rows `[b0, b1, b2, a0, a1, a2]` normalised by `a0`, with the pole check every
//! cascade and every IIR design ends with) and transfer functions ([`Tf`], scipy's `(b, a)`
//! normalised by `a[0]`). See [`super::sos`] and [`super::lfilter`] for the recursions.

use crate::error::{SkError, SkResult};
use crate::kernels::alloc::try_with_capacity;
use crate::kernels::Float;

/// One normalised section in the form the kernel runs (see [`super::sos`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Section<T> {
    pub b0: T,
    pub c1: T,
    pub c2: T,
    /// `−a1`
    pub na1: T,
    /// `−a2`
    pub na2: T,
}

/// Checks one section (`[b0, b1, b2, a0, a1, a2]`) and returns it normalised by `a0`, in `f64`.
/// `index` names the section in messages.
pub fn normalise(sec: &[f64], index: usize) -> SkResult<[f64; 5]> {
    assert_eq!(sec.len(), 6, "a section has six coefficients");
    if let Some(k) = sec.iter().position(|v| !v.is_finite()) {
        return Err(SkError::BadArgument(format!(
            "sos[{index}][{k}] = {} is not finite",
            sec[k]
        )));
    }
    let a0 = sec[3];
    if a0 == 0.0 {
        return Err(SkError::BadArgument(format!(
            "sos[{index}][3] (a0) is 0; a section needs a0 != 0"
        )));
    }
    let n = [
        sec[0] / a0,
        sec[1] / a0,
        sec[2] / a0,
        sec[4] / a0,
        sec[5] / a0,
    ];
    if let Some(k) = n.iter().position(|v| !v.is_finite()) {
        return Err(SkError::BadArgument(format!(
            "sos[{index}] divided by a0 = {a0:e} overflows (coefficient {k} becomes {})",
            n[k]
        )));
    }
    check_stable(n[3], n[4], index)?;
    Ok(n)
}

/// How far outside the unit circle a pole may lie before a section is refused: poles with
/// `|z| <= 1 + POLE_TOL` are accepted. Poles on the circle (integrators, resonators, DC terms)
/// are marginally stable and filtered like scipy does; the tolerance absorbs the rounding of
/// coefficients computed for a pole exactly on the circle.
pub(crate) const POLE_TOL: f64 = 1e-9;

/// Whether both poles of `1 + a1 z⁻¹ + a2 z⁻²` lie in the closed disk `|z| <= 1 + POLE_TOL`.
/// With `r = 1 + POLE_TOL` this is the stability triangle of the polynomial scaled to radius
/// `r`: `|a2| <= r²` and `|a1| <= r + a2 / r` (linear in the coefficients, so it stays exact
/// for double poles where a root formula would lose half the digits).
pub fn poles_within(a1: f64, a2: f64) -> bool {
    let r = 1.0 + POLE_TOL;
    a2.abs() <= r * r && a1.abs() <= r + a2 / r
}

/// Refuses a section with a pole strictly outside the unit circle (beyond [`POLE_TOL`]).
fn check_stable(a1: f64, a2: f64, index: usize) -> SkResult<()> {
    if poles_within(a1, a2) {
        Ok(())
    } else {
        Err(SkError::BadArgument(format!(
            "sos[{index}] is unstable: a pole lies outside the unit circle \
             (normalised a1 = {a1}, a2 = {a2}; poles on or inside it need |a2| <= 1 and \
             |a1| <= 1 + a2, within a tolerance of 1e-9)"
        )))
    }
}

impl<T: Float> Section<T> {
    /// The kernel form of a normalised section `[b0, b1, b2, a1, a2]`; rejects a section with a
    /// pole outside the unit circle (beyond [`POLE_TOL`]) once the coefficients are rounded to
    /// `T`.
    pub fn from_normalised(n: [f64; 5], index: usize) -> SkResult<Self> {
        let [b0, b1, b2, a1, a2] = n;
        let s = Section {
            b0: T::from_f64(b0),
            c1: T::from_f64(b1 - a1 * b0),
            c2: T::from_f64(b2 - a2 * b0),
            na1: T::from_f64(-a1),
            na2: T::from_f64(-a2),
        };
        check_stable(-s.na1.to_f64(), -s.na2.to_f64(), index).map_err(|_| {
            SkError::BadArgument(format!(
                "sos[{index}] becomes unstable when its coefficients are rounded to {} \
                 (a1 = {a1}, a2 = {a2}); use the double-precision filter",
                T::C_NAME
            ))
        })?;
        if [s.b0, s.c1, s.c2].iter().any(|v| !v.is_finite()) {
            return Err(SkError::BadArgument(format!(
                "sos[{index}] has a coefficient out of the range of {}",
                T::C_NAME
            )));
        }
        Ok(s)
    }
}

/// Parses an `(n_sections, 6)` array into kernel sections.
pub fn sections_from_sos<T: Float>(sos: &[f64]) -> SkResult<Vec<Section<T>>> {
    assert_eq!(sos.len() % 6, 0, "sos has a multiple of six coefficients");
    if sos.is_empty() {
        return Err(SkError::Length(
            "n_sections is 0; a cascade needs at least one section".into(),
        ));
    }
    let mut sections = try_with_capacity(sos.len() / 6, "the filter sections")?;
    for (i, s) in sos.chunks_exact(6).enumerate() {
        sections.push(Section::from_normalised(normalise(s, i)?, i)?);
    }
    Ok(sections)
}

/// Checks `b` and `a` and returns them divided by `a[0]` and padded with zeros to a common length
/// `N = max(len b, len a)` (in `f64`).
pub fn normalise_tf(b: &[f64], a: &[f64]) -> SkResult<(Vec<f64>, Vec<f64>)> {
    if b.is_empty() {
        return Err(SkError::Length(
            "nb is 0; b needs at least one coefficient".into(),
        ));
    }
    if a.is_empty() {
        return Err(SkError::Length(
            "na is 0; a needs at least one coefficient".into(),
        ));
    }
    for (name, v) in [("b", b), ("a", a)] {
        if let Some(k) = v.iter().position(|c| !c.is_finite()) {
            return Err(SkError::BadArgument(format!(
                "{name}[{k}] = {} is not finite",
                v[k]
            )));
        }
    }
    let a0 = a[0];
    if a0 == 0.0 {
        return Err(SkError::BadArgument(
            "a[0] is 0; the filter needs a[0] != 0".into(),
        ));
    }
    let n = b.len().max(a.len());
    let mut bn = vec![0.0; n];
    let mut an = vec![0.0; n];
    for (d, s) in bn.iter_mut().zip(b) {
        *d = s / a0;
    }
    for (d, s) in an.iter_mut().zip(a) {
        *d = s / a0;
    }
    for (name, v) in [("b", &bn), ("a", &an)] {
        if let Some(k) = v.iter().position(|c| !c.is_finite()) {
            return Err(SkError::BadArgument(format!(
                "{name} divided by a[0] = {a0:e} overflows (coefficient {k} becomes {})",
                v[k]
            )));
        }
    }
    Ok((bn, an))
}

/// Coefficients in kernel form, rounded to `T`: `b[0..=K]`, `c[j] = b[j] − a[j]·b[0]` and
/// `na[j] = −a[j]` (`c[0]`, `na[0]` unused).
#[derive(Clone, Debug, PartialEq)]
pub struct Tf<T> {
    pub b: Vec<T>,
    pub c: Vec<T>,
    pub na: Vec<T>,
}

impl<T: Float> Tf<T> {
    /// Validates and converts `(b, a)`; refuses coefficients out of the range of `T`.
    pub fn new(b: &[f64], a: &[f64]) -> SkResult<Self> {
        let (bn, an) = normalise_tf(b, a)?;
        let tb: Vec<T> = bn.iter().map(|&v| T::from_f64(v)).collect();
        let tc: Vec<T> = bn
            .iter()
            .zip(&an)
            .map(|(&b, &a)| T::from_f64(b - a * bn[0]))
            .collect();
        let tna: Vec<T> = an.iter().map(|&v| T::from_f64(-v)).collect();
        if tb.iter().chain(&tc).chain(&tna).any(|v| !v.is_finite()) {
            return Err(SkError::BadArgument(format!(
                "a coefficient divided by a[0] is out of the range of {}",
                T::C_NAME
            )));
        }
        Ok(Tf {
            b: tb,
            c: tc,
            na: tna,
        })
    }

    /// The filter order `K` (state values per channel).
    pub fn order(&self) -> usize {
        self.b.len() - 1
    }
}
