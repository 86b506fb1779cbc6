//! `scipy.signal.firwin` with all of its band options: any number of cutoffs, `pass_zero` as a
//! bool or a band name, `scale`, and any window (the caller passes the symmetric window).

use crate::error::{SkError, SkResult};
use std::f64::consts::PI;

/// scipy's `pass_zero`: a bool, or a band name that also checks the number of cutoffs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PassZero {
    Bool(bool),
    Lowpass,
    Highpass,
    Bandpass,
    Bandstop,
}

fn sinc(x: f64) -> f64 {
    if x == 0.0 {
        1.0
    } else {
        let y = PI * x;
        y.sin() / y
    }
}

/// Taps of `scipy.signal.firwin(n_taps, cutoff, window=<win>, pass_zero=pass_zero,
/// scale=scale, fs=fs)`; `win` is the symmetric window of `n_taps` points
/// (`get_window(window, n_taps, fftbins=False)`), `cutoff` in the units of `fs`.
pub fn firwin_bands(
    n_taps: usize,
    cutoff: &[f64],
    pass_zero: PassZero,
    scale: bool,
    fs: f64,
    win: &[f64],
) -> SkResult<Vec<f64>> {
    if n_taps == 0 {
        return Err(SkError::Length("n_taps is 0".into()));
    }
    assert_eq!(win.len(), n_taps, "window length");
    if !(fs.is_finite() && fs > 0.0) {
        return Err(SkError::BadArgument(format!(
            "fs = {fs} must be finite and positive"
        )));
    }
    if cutoff.is_empty() {
        return Err(SkError::Length(
            "n_cutoff is 0; at least one cutoff frequency is needed".into(),
        ));
    }
    let nyq = 0.5 * fs;
    let c: Vec<f64> = cutoff.iter().map(|f| f / nyq).collect();
    for (i, (&v, &f)) in c.iter().zip(cutoff).enumerate() {
        if !(v > 0.0 && v < 1.0) {
            return Err(SkError::BadArgument(format!(
                "cutoff[{i}] = {f} must be strictly between 0 and fs/2 = {nyq}"
            )));
        }
    }
    if let Some(i) = c.windows(2).position(|p| p[1] <= p[0]) {
        return Err(SkError::BadArgument(format!(
            "cutoff must be strictly increasing: cutoff[{}] = {} <= cutoff[{i}] = {}",
            i + 1,
            cutoff[i + 1],
            cutoff[i]
        )));
    }
    let count_rule = |name: &str, single: bool| -> SkResult<()> {
        let ok = if single { c.len() == 1 } else { c.len() > 1 };
        if ok {
            Ok(())
        } else {
            Err(SkError::BadArgument(format!(
                "pass_zero = '{name}' needs {} cutoff, got {}",
                if single {
                    "exactly one"
                } else {
                    "more than one"
                },
                c.len()
            )))
        }
    };
    let pz = match pass_zero {
        PassZero::Bool(b) => b,
        PassZero::Lowpass => {
            count_rule("lowpass", true)?;
            true
        }
        PassZero::Bandstop => {
            count_rule("bandstop", false)?;
            true
        }
        PassZero::Highpass => {
            count_rule("highpass", true)?;
            false
        }
        PassZero::Bandpass => {
            count_rule("bandpass", false)?;
            false
        }
    };
    let pass_nyquist = (c.len() % 2 == 1) ^ pz;
    if pass_nyquist && n_taps.is_multiple_of(2) {
        return Err(SkError::BadArgument(format!(
            "n_taps = {n_taps} is even, but this filter passes the Nyquist frequency, which needs \
             an odd number of taps"
        )));
    }
    let mut edges = Vec::with_capacity(c.len() + 2);
    if pz {
        edges.push(0.0);
    }
    edges.extend_from_slice(&c);
    if pass_nyquist {
        edges.push(1.0);
    }
    let bands: Vec<(f64, f64)> = edges.chunks_exact(2).map(|p| (p[0], p[1])).collect();
    let alpha = 0.5 * (n_taps - 1) as f64;
    let m: Vec<f64> = (0..n_taps).map(|i| i as f64 - alpha).collect();
    let mut h = vec![0.0; n_taps];
    for &(left, right) in &bands {
        for (hv, &mv) in h.iter_mut().zip(&m) {
            *hv += right * sinc(right * mv);
            *hv -= left * sinc(left * mv);
        }
    }
    for (hv, wv) in h.iter_mut().zip(win) {
        *hv *= wv;
    }
    if scale {
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
        if s == 0.0 || !s.is_finite() {
            return Err(SkError::BadArgument(format!(
                "the response at the scaling frequency is {s}; cannot scale (use scale = 0)"
            )));
        }
        for hv in &mut h {
            *hv /= s;
        }
    }
    Ok(h)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::filter::design::{firwin, window, FirBand, Window};

    #[test]
    fn agrees_with_the_two_edge_firwin() {
        for (band, c, pz) in [
            (FirBand::Lowpass, vec![0.3], PassZero::Lowpass),
            (FirBand::Highpass, vec![0.3], PassZero::Highpass),
            (FirBand::Bandpass, vec![0.2, 0.5], PassZero::Bandpass),
            (FirBand::Bandstop, vec![0.2, 0.5], PassZero::Bandstop),
        ] {
            let f2 = c.get(1).copied().unwrap_or(0.0);
            let want = firwin(31, band, Window::Hamming, c[0], f2, 2.0).unwrap();
            let got =
                firwin_bands(31, &c, pz, true, 2.0, &window(Window::Hamming, 31).unwrap()).unwrap();
            for (a, b) in got.iter().zip(&want) {
                assert!((a - b).abs() < 1e-15, "{band:?}");
            }
        }
    }

    #[test]
    fn rules() {
        let w = vec![1.0; 10];
        let e = |c: &[f64], pz| firwin_bands(10, c, pz, true, 2.0, &w).unwrap_err();
        assert!(e(&[0.3], PassZero::Bool(false))
            .to_string()
            .contains("even"));
        assert!(e(&[0.5, 0.3], PassZero::Bool(true))
            .to_string()
            .contains("strictly increasing"));
        assert!(e(&[0.3, 0.5], PassZero::Lowpass)
            .to_string()
            .contains("exactly one"));
        assert!(e(&[1.0], PassZero::Bool(true))
            .to_string()
            .contains("cutoff[0]"));
        assert_eq!(
            e(&[], PassZero::Bool(true)).code(),
            crate::error::SK_ERR_LENGTH
        );
        // three edges with pass_zero = True: bands [0, c0], [c1, c2]; Nyquist stopped
        assert!(firwin_bands(10, &[0.2, 0.4, 0.6], PassZero::Bool(true), false, 2.0, &w).is_ok());
    }
}
