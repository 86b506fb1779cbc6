//! Minimal complex arithmetic for the filter design code (numpy's operations: Smith's
//! division, the principal square root).

use std::ops::{Add, Div, Mul, Neg, Sub};

/// Minimal complex arithmetic for the design code.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct C {
    pub(crate) re: f64,
    pub(crate) im: f64,
}

pub(crate) const fn c(re: f64, im: f64) -> C {
    C { re, im }
}

impl Add for C {
    type Output = C;
    fn add(self, o: C) -> C {
        c(self.re + o.re, self.im + o.im)
    }
}
impl Sub for C {
    type Output = C;
    fn sub(self, o: C) -> C {
        c(self.re - o.re, self.im - o.im)
    }
}
impl Mul for C {
    type Output = C;
    fn mul(self, o: C) -> C {
        c(
            self.re * o.re - self.im * o.im,
            self.re * o.im + self.im * o.re,
        )
    }
}
impl Div for C {
    type Output = C;
    fn div(self, o: C) -> C {
        // Smith's algorithm, as numpy's complex division
        if o.re.abs() >= o.im.abs() {
            let r = o.im / o.re;
            let d = o.re + o.im * r;
            c((self.re + self.im * r) / d, (self.im - self.re * r) / d)
        } else {
            let r = o.re / o.im;
            let d = o.re * r + o.im;
            c((self.re * r + self.im) / d, (self.im * r - self.re) / d)
        }
    }
}
impl Neg for C {
    type Output = C;
    fn neg(self) -> C {
        c(-self.re, -self.im)
    }
}
impl C {
    pub(crate) fn abs(self) -> f64 {
        self.re.hypot(self.im)
    }
    pub(crate) fn conj(self) -> C {
        c(self.re, -self.im)
    }
    pub(crate) fn scale(self, s: f64) -> C {
        c(self.re * s, self.im * s)
    }
    pub(crate) fn is_real(self) -> bool {
        self.im == 0.0
    }
    /// Principal square root.
    pub(crate) fn sqrt(self) -> C {
        let r = self.abs();
        if r == 0.0 {
            return c(0.0, 0.0);
        }
        let t = ((r + self.re.abs()) / 2.0).sqrt();
        if self.re >= 0.0 {
            c(t, self.im / (2.0 * t))
        } else {
            c(self.im.abs() / (2.0 * t), t.copysign(self.im))
        }
    }
}

/// numpy's complex division (Smith's method, multiplying by the reciprocal of the scale).
pub(crate) fn np_div(a: C, b: C) -> C {
    if b.re.abs() >= b.im.abs() {
        let rat = b.im / b.re;
        let scl = 1.0 / (b.re + b.im * rat);
        c((a.re + a.im * rat) * scl, (a.im - a.re * rat) * scl)
    } else {
        let rat = b.re / b.im;
        let scl = 1.0 / (b.im + b.re * rat);
        c((a.re * rat + a.im) * scl, (a.im * rat - a.re) * scl)
    }
}
