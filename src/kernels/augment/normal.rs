//! Seeded standard normal draws for the noise augmentations.
//!
//! Generator: row `r` of a call with seed `s` has its own xoshiro256++ stream (Blackman and
//! Vigna), its 256-bit state the first four SplitMix64 outputs from
//! `s + r·0xD1B54A32D192ED03` (wrapping), so rows are independent of each other and of how
//! the rows are split over threads. Normal values come from Marsaglia and Tsang's ziggurat
//! (2000, 128 layers) on the upper 32 bits of each 64-bit output, with the exact tail
//! (`x > 3.4426`) by Marsaglia's exponential method and uniforms in (0, 1) from 53 bits. A value
//! has 32-bit resolution, ample for noise added to audio; float and double rows hold the same
//! values (rounded to float for float rows).

use crate::kernels::par::par_rows;
use crate::kernels::Float;
use std::sync::OnceLock;

/// The ziggurat's tables (`kn`: integer acceptance bounds, `wn`: widths, `fz`: densities).
struct Zig {
    kn: [u32; 128],
    wn: [f64; 128],
    fz: [f64; 128],
}

const R: f64 = 3.442619855899;

fn tables() -> &'static Zig {
    static Z: OnceLock<Zig> = OnceLock::new();
    Z.get_or_init(|| {
        let m1 = 2147483648.0f64;
        let vn = 9.91256303526217e-3f64;
        let mut z = Zig {
            kn: [0; 128],
            wn: [0.0; 128],
            fz: [0.0; 128],
        };
        let mut dn = R;
        let mut tn = dn;
        let q = vn / (-0.5 * dn * dn).exp();
        z.kn[0] = ((dn / q) * m1) as u32;
        z.kn[1] = 0;
        z.wn[0] = q / m1;
        z.wn[127] = dn / m1;
        z.fz[0] = 1.0;
        z.fz[127] = (-0.5 * dn * dn).exp();
        for i in (1..=126).rev() {
            dn = (-2.0 * (vn / dn + (-0.5 * dn * dn).exp()).ln()).sqrt();
            z.kn[i + 1] = ((dn / tn) * m1) as u32;
            tn = dn;
            z.fz[i] = (-0.5 * dn * dn).exp();
            z.wn[i] = dn / m1;
        }
        z
    })
}

/// xoshiro256++.
struct Xo([u64; 4]);

impl Xo {
    fn new(seed: u64, row: u64) -> Xo {
        let mut sm = seed.wrapping_add(row.wrapping_mul(0xD1B54A32D192ED03));
        let mut next = || {
            sm = sm.wrapping_add(0x9E3779B97F4A7C15);
            let mut z = sm;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58476D1CE4E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D049BB133111EB);
            z ^ (z >> 31)
        };
        Xo([next(), next(), next(), next()])
    }

    #[inline]
    fn next(&mut self) -> u64 {
        let s = &mut self.0;
        let r = s[0].wrapping_add(s[3]).rotate_left(23).wrapping_add(s[0]);
        let t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = s[3].rotate_left(45);
        r
    }

    /// Uniform in (0, 1).
    fn uni(&mut self) -> f64 {
        ((self.next() >> 11) as f64 + 0.5) * (1.0 / 9007199254740992.0)
    }

    /// One standard normal value: the ziggurat's fast path inline, the rest out of line.
    #[inline(always)]
    fn normal(&mut self, z: &Zig) -> f64 {
        let hz = (self.next() >> 32) as u32 as i32;
        let iz = (hz & 127) as usize;
        if hz.unsigned_abs() < z.kn[iz] {
            return hz as f64 * z.wn[iz];
        }
        self.normal_slow(hz, iz, z)
    }

    /// The rest of [`Xo::normal`] after a first draw `hz` outside its layer's fast bound
    /// (rare: about 1.2 % of the values).
    #[cold]
    #[inline(never)]
    fn normal_slow(&mut self, mut hz: i32, mut iz: usize, z: &Zig) -> f64 {
        loop {
            let x = hz as f64 * z.wn[iz];
            if iz == 0 {
                // the tail beyond R
                loop {
                    let xt = -self.uni().ln() / R;
                    let y = -self.uni().ln();
                    if y + y >= xt * xt {
                        return if hz > 0 { R + xt } else { -R - xt };
                    }
                }
            }
            if z.fz[iz] + self.uni() * (z.fz[iz - 1] - z.fz[iz]) < (-0.5 * x * x).exp() {
                return x;
            }
            hz = (self.next() >> 32) as u32 as i32;
            iz = (hz & 127) as usize;
            if hz.unsigned_abs() < z.kn[iz] {
                return hz as f64 * z.wn[iz];
            }
        }
    }
}

/// Draws every value of the rows of `chunk` (`n` per row; its first row is row `first` of the
/// call) from the rows' own streams, two rows at a time in one loop (independent streams, so
/// their work overlaps; each row's values are those of its stream alone), handing each to
/// `put(row, slot, value)`.
#[inline(always)]
fn draw_rows<T>(
    chunk: &mut [T],
    n: usize,
    first: usize,
    seed: u64,
    put: impl Fn(usize, &mut T, f64),
) {
    let z = tables();
    let mut rows = chunk.chunks_exact_mut(n).enumerate();
    while let Some((ka, ra)) = rows.next() {
        let a = first + ka;
        let mut ga = Xo::new(seed, a as u64);
        match rows.next() {
            Some((kb, rb)) => {
                let b = first + kb;
                let mut gb = Xo::new(seed, b as u64);
                for (va, vb) in ra.iter_mut().zip(rb.iter_mut()) {
                    let (xa, xb) = (ga.normal(z), gb.normal(z));
                    put(a, va, xa);
                    put(b, vb, xb);
                }
            }
            None => {
                for v in ra.iter_mut() {
                    put(a, v, ga.normal(z));
                }
            }
        }
    }
}

/// Fills each row of `y` (`n` values per row) with standard normal draws of the row's stream
/// (see the module notes); rows are filled on up to `SIGKERN_THREADS` threads with the same
/// values.
pub fn normal_rows<T: Float>(y: &mut [T], n: usize, seed: u64) {
    if n == 0 {
        return;
    }
    par_rows(y, n, y.len().saturating_mul(4), |first, chunk| {
        draw_rows(chunk, n, first, seed, |_, v, x| {
            *v = <T as Float>::from_f64(x)
        });
    });
}

/// Adds scaled standard normal draws to each row of `y` in one pass: `y[r·n + i] += z · s` where
/// `z` is the value [`normal_rows`] gives at that place (same seed, same streams) rounded to `T`
/// and `s` is `scales[r]` rounded to `T` (a row whose `scales[r]` is 0 is left unchanged), the
/// product and the sum each rounded in `T` (the same values as [`normal_rows`]
/// into a buffer then [`super::mix_rows`] with [`super::MixLevel::Absolute`] unmeasured, without
/// the buffer). Rows are split over up to `SIGKERN_THREADS` threads with the same values.
pub fn add_normal_rows<T: Float>(y: &mut [T], n: usize, seed: u64, scales: &[f64]) {
    if n == 0 {
        return;
    }
    par_rows(y, n, y.len().saturating_mul(4), |first, chunk| {
        draw_rows(chunk, n, first, seed, |r, v, x| {
            let sc = scales[r];
            if sc != 0.0 {
                *v = *v + <T as Float>::from_f64(x) * <T as Float>::from_f64(sc);
            }
        });
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moments_and_reproducibility() {
        let n = 200_000;
        let mut y = vec![0.0f64; 2 * n];
        normal_rows(&mut y, n, 42);
        let mut again = vec![0.0f64; 2 * n];
        normal_rows(&mut again, n, 42);
        assert_eq!(y, again);
        assert_ne!(y[..n], y[n..]);
        for row in y.chunks_exact(n) {
            let m = row.iter().sum::<f64>() / n as f64;
            let v = row.iter().map(|a| (a - m) * (a - m)).sum::<f64>() / n as f64;
            let k = row.iter().map(|a| (a - m).powi(4)).sum::<f64>() / n as f64 / (v * v);
            // standard errors: mean 1/sqrt(n) = 2.2e-3, variance sqrt(2/n) = 3.2e-3,
            // kurtosis sqrt(24/n) = 1.1e-2; bounds at about 5 of them
            assert!(m.abs() < 0.012 && (v - 1.0).abs() < 0.016 && (k - 3.0).abs() < 0.06);
            // the tail beyond R is reached (P(|x| > R) = 5.8e-4)
            assert!(row.iter().any(|a| a.abs() > R));
        }
    }

    /// Rows drawn two at a time hold the values of their stream drawn alone.
    #[test]
    fn paired_rows_are_single_streams() {
        let n = 70_001;
        let mut y = vec![0.0f64; 3 * n];
        normal_rows(&mut y, n, 5);
        let z = tables();
        for r in 0..3 {
            let mut g = Xo::new(5, r as u64);
            for i in 0..n {
                assert_eq!(y[r * n + i], g.normal(z));
            }
        }
    }

    #[test]
    fn add_normal_is_normal_then_mix() {
        let n = 5003;
        let x: Vec<f32> = (0..3 * n)
            .map(|i| ((i * 37) % 101) as f32 / 50.0 - 1.0)
            .collect();
        let scales = [0.25f64, -3.0, 1e-3];
        let mut y = x.clone();
        add_normal_rows(&mut y, n, 9, &scales);
        let mut z = vec![0.0f32; 3 * n];
        normal_rows(&mut z, n, 9);
        for (r, &sc) in scales.iter().enumerate() {
            for i in 0..n {
                let k = r * n + i;
                assert_eq!(y[k], x[k] + z[k] * sc as f32);
            }
        }
        let mut single = x.clone();
        crate::kernels::par::serial_if(true, || add_normal_rows(&mut single, n, 9, &scales));
        assert_eq!(single, y);
    }
}
