//! scipy's polyphase tools: `scipy.signal.upfirdn` and `scipy.signal.resample_poly` (default
//! Kaiser window, `padtype='constant'`), computed as polyphase dot products in SIMD lanes.
//!
//! `upfirdn(h, x, up, down)`: upsample by `up` (zeros between samples), filter with `h`,
//! keep every `down`-th sample: `y[i] = Σ_j x[j]·h[i·down − j·up]`, of scipy's length
//! [`upfirdn_len`].

use super::dot::{lanes, run_at, Dot, Job};
use crate::error::{SkError, SkResult};
use crate::kernels::filter::design::{firwin, FirBand, Window};
use crate::kernels::par::par_rows;
use crate::kernels::Float;
use crate::simd::Level;

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// scipy's `_output_len(len_h, in_len, up, down)`: `ceil(((in_len − 1)·up + len_h) / down)`
/// (`in_len`, `len_h` at least 1); `None` on overflow.
pub fn upfirdn_len(n_h: usize, n_x: usize, up: usize, down: usize) -> Option<usize> {
    let span = n_x.checked_sub(1)?.checked_mul(up)?.checked_add(n_h)?;
    Some((span - 1) / down + 1)
}

/// Checks `up`, `down` and the filter.
pub fn check_rates(up: usize, down: usize) -> SkResult<()> {
    if up == 0 || down == 0 {
        return Err(SkError::BadArgument(format!(
            "up = {up} and down = {down} must be at least 1"
        )));
    }
    Ok(())
}

fn alloc<T: Clone>(n: usize, v: T, what: &str) -> SkResult<Vec<T>> {
    let mut out = Vec::new();
    out.try_reserve_exact(n)
        .map_err(|_| SkError::Allocation(format!("could not allocate {what}")))?;
    out.resize(n, v);
    Ok(out)
}

/// `scipy.signal.upfirdn(h, x, up, down)` into `y` (`y.len()` = [`upfirdn_len`], checked by
/// the caller). `h` and `x` non-empty.
pub fn upfirdn<T: Float>(
    level: Level,
    h: &[T],
    x: &[T],
    up: usize,
    down: usize,
    y: &mut [T],
) -> SkResult<()> {
    upfirdn_from(level, h, x, up, down, 0, y)
}

/// Outputs `start .. start + y.len()` of [`upfirdn`] (split over threads when large; every
/// output is computed the same way whatever the split).
fn upfirdn_from<T: Float>(
    level: Level,
    h: &[T],
    x: &[T],
    up: usize,
    down: usize,
    start: usize,
    y: &mut [T],
) -> SkResult<()> {
    let nh = h.len();
    // phase p holds h[p + m·up], reversed, zero-padded to kp (a multiple of the lane block)
    let lb = lanes::<T>();
    let kp = nh.div_ceil(up).div_ceil(lb).max(1) * lb;
    let table_len = kp
        .checked_mul(up)
        .ok_or_else(|| SkError::Length("the phase table size overflows".into()))?;
    let mut table = alloc(table_len, T::ZERO, "the phase table")?;
    for (k, &v) in h.iter().enumerate() {
        let (p, m) = (k % up, k / up);
        table[p * kp + kp - 1 - m] = v;
    }
    // x with kp − 1 zeros before it and enough after it for the last window
    let last_j = ((start + y.len().saturating_sub(1)) * down) / up;
    let padded_len = (kp - 1)
        .checked_add(x.len().max(last_j + 1))
        .ok_or_else(|| SkError::Length("input size overflows".into()))?;
    let mut xp = alloc(padded_len, T::ZERO, "the padded input")?;
    xp[kp - 1..kp - 1 + x.len()].copy_from_slice(x);
    let work = y.len().saturating_mul(kp);
    par_rows(y, 1, work, |first, out| {
        run_at(
            level,
            &mut UpfirdnRun {
                table: &table,
                kp,
                xp: &xp,
                up,
                down,
                first: start + first,
                out,
            },
        )
    });
    Ok(())
}

/// Outputs `first ..` of an upfirdn, four at a time.
struct UpfirdnRun<'a, T> {
    table: &'a [T],
    kp: usize,
    xp: &'a [T],
    up: usize,
    down: usize,
    first: usize,
    out: &'a mut [T],
}

impl<T: Float> Job for UpfirdnRun<'_, T> {
    #[inline(always)]
    fn run<D: Dot>(&mut self) {
        let (table, kp, xp, up, down) = (self.table, self.kp, self.xp, self.up, self.down);
        let win = |i: usize| {
            let t = i * down;
            let (p, j) = (t % up, t / up);
            (&table[p * kp..p * kp + kp], &xp[j..j + kp])
        };
        let mut i = self.first;
        let mut chunks = self.out.chunks_exact_mut(4);
        for o in &mut chunks {
            let w = [win(i), win(i + 1), win(i + 2), win(i + 3)];
            o.copy_from_slice(&D::dot::<T, 4>(w.map(|v| v.0), w.map(|v| v.1)));
            i += 4;
        }
        for o in chunks.into_remainder() {
            let (c, xw) = win(i);
            *o = D::dot::<T, 1>([c], [xw])[0];
            i += 1;
        }
    }
}

/// Output length of `scipy.signal.resample_poly(x, up, down)`: `ceil(n_x·up'/down')` with
/// `up'/down'` in lowest terms.
pub fn resample_poly_len(n_x: usize, up: usize, down: usize) -> Option<usize> {
    let g = gcd(up, down);
    let (up, down) = (up / g, down / g);
    Some(n_x.checked_mul(up)?.div_ceil(down))
}

/// scipy's padding for a filter of `n_taps` taps (centre `half = (n_taps − 1) / 2`): the
/// zeros put before the filter and the outputs dropped from the front.
fn poly_padding(half: usize, down: usize) -> (usize, usize) {
    let pre = down - half % down;
    (pre, (half + pre) / down)
}

/// The default filter `resample_poly` designs: `firwin(20·max + 1, 1/max, ('kaiser', 5.0))`.
fn poly_filter(up: usize, down: usize) -> SkResult<Vec<f64>> {
    let max_rate = up.max(down);
    design_lowpass(max_rate, Window::Kaiser(5.0))
}

/// `firwin(20·q + 1, 1/q, window)`: the default filter of `resample_poly` (Kaiser 5) and of
/// `decimate(ftype='fir')` (Hamming).
fn design_lowpass(q: usize, window: Window) -> SkResult<Vec<f64>> {
    let n_taps = q
        .checked_mul(20)
        .and_then(|v| v.checked_add(1))
        .ok_or_else(|| SkError::Length("filter length overflows".into()))?;
    if n_taps > 1 << 24 {
        return Err(SkError::BadArgument(format!(
            "the factor {q} needs a {n_taps}-tap filter; at most 2^24"
        )));
    }
    firwin(n_taps, FirBand::Lowpass, window, 1.0 / q as f64, 0.0, 2.0)
}

/// `scipy.signal.resample_poly(x, up, down)` (window `('kaiser', 5.0)`, `padtype='constant'`)
/// into `y` of length [`resample_poly_len`].
pub fn resample_poly<T: Float>(
    level: Level,
    x: &[T],
    up: usize,
    down: usize,
    y: &mut [T],
) -> SkResult<()> {
    check_rates(up, down)?;
    let g = gcd(up, down);
    let (up, down) = (up / g, down / g);
    if up == 1 && down == 1 {
        y.copy_from_slice(x);
        return Ok(());
    }
    let h = poly_filter(up, down)?;
    resample_poly_with(level, x, up, down, &h, y)
}

/// `resample_poly(x, up, down, window=h)` with the ratio already in lowest terms and not
/// `1/1`: `h` scaled by `up`, scipy's padding and alignment.
fn resample_poly_with<T: Float>(
    level: Level,
    x: &[T],
    up: usize,
    down: usize,
    h: &[f64],
    y: &mut [T],
) -> SkResult<()> {
    if x.is_empty() {
        return Ok(());
    }
    let (pre, remove) = poly_padding((h.len() - 1) / 2, down);
    let n_out = y.len();
    let mut post = 0usize;
    let len_for = |post: usize| upfirdn_len(h.len() + pre + post, x.len(), up, down);
    while len_for(post).ok_or_else(|| SkError::Length("output size overflows".into()))?
        < n_out + remove
    {
        post += 1;
    }
    let mut hp = alloc(pre + h.len() + post, T::ZERO, "the padded filter")?;
    for (d, &v) in hp[pre..].iter_mut().zip(h) {
        *d = T::from_f64(v * up as f64);
    }
    // only the outputs kept are computed: upfirdn outputs remove .. remove + n_out
    upfirdn_from(level, &hp, x, up, down, remove, y)
}

/// Output length of [`decimate`]: `ceil(n_x / q)`.
pub fn decimate_len(n_x: usize, q: usize) -> usize {
    n_x.div_ceil(q.max(1))
}

/// Output length of [`interpolate`]: `n_x·q` (`None` on overflow).
pub fn interpolate_len(n_x: usize, q: usize) -> Option<usize> {
    n_x.checked_mul(q)
}

fn check_factor(q: usize) -> SkResult<()> {
    if q == 0 {
        return Err(SkError::BadArgument(
            "the factor q must be at least 1".into(),
        ));
    }
    Ok(())
}

/// `scipy.signal.decimate(x, q, ftype='fir', zero_phase=True)`: `resample_poly(x, 1, q,
/// window=firwin(20·q + 1, 1/q, window='hamming'))`, into `y` of length [`decimate_len`].
pub fn decimate<T: Float>(level: Level, x: &[T], q: usize, y: &mut [T]) -> SkResult<()> {
    check_factor(q)?;
    if q == 1 {
        y.copy_from_slice(x);
        return Ok(());
    }
    let h = design_lowpass(q, Window::Hamming)?;
    resample_poly_with(level, x, 1, q, &h, y)
}

/// The counterpart of [`decimate`]: `resample_poly(x, q, 1, window=firwin(20·q + 1, 1/q,
/// window='hamming'))` (the filter scaled by `q`, so a DC input keeps its level), into `y` of
/// length [`interpolate_len`].
pub fn interpolate<T: Float>(level: Level, x: &[T], q: usize, y: &mut [T]) -> SkResult<()> {
    check_factor(q)?;
    if q == 1 {
        y.copy_from_slice(x);
        return Ok(());
    }
    let h = design_lowpass(q, Window::Hamming)?;
    resample_poly_with(level, x, q, 1, &h, y)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::testutil::Rng;
    use crate::simd::current;

    fn reference(h: &[f64], x: &[f64], up: usize, down: usize) -> Vec<f64> {
        let n = upfirdn_len(h.len(), x.len(), up, down).unwrap();
        (0..n)
            .map(|i| {
                let mut s = 0.0;
                for (j, &xv) in x.iter().enumerate() {
                    let k = (i * down) as isize - (j * up) as isize;
                    if k >= 0 && (k as usize) < h.len() {
                        s += xv * h[k as usize];
                    }
                }
                s
            })
            .collect()
    }

    #[test]
    fn upfirdn_matches_the_definition() {
        let mut rng = Rng::new(5);
        for (nh, nx, up, down) in [
            (1, 1, 1, 1),
            (3, 10, 1, 1),
            (7, 20, 3, 2),
            (16, 33, 2, 5),
            (40, 17, 7, 3),
            (5, 50, 1, 4),
            (33, 64, 4, 1),
        ] {
            let h = rng.vec_f64(nh, 1.0);
            let x = rng.vec_f64(nx, 1.0);
            let want = reference(&h, &x, up, down);
            let mut y = vec![f64::NAN; want.len()];
            upfirdn(current(), &h, &x, up, down, &mut y).unwrap();
            for (a, b) in y.iter().zip(&want) {
                assert!((a - b).abs() < 1e-12, "{nh} {nx} {up} {down}");
            }
        }
    }

    /// decimate / interpolate against the polyphase definition with the same Hamming filter
    /// (scipy itself is checked in python_tests/cabi/test_resample_poly.py).
    #[test]
    fn decimate_and_interpolate_follow_the_definition() {
        let mut rng = Rng::new(9);
        for (n, q) in [(1, 2), (7, 3), (100, 2), (101, 5), (64, 1)] {
            let x = rng.vec_f64(n, 1.0);
            let mut d = vec![f64::NAN; decimate_len(n, q)];
            decimate(current(), &x, q, &mut d).unwrap();
            let mut u = vec![f64::NAN; interpolate_len(n, q).unwrap()];
            interpolate(current(), &x, q, &mut u).unwrap();
            if q == 1 {
                assert_eq!(d, x);
                assert_eq!(u, x);
                continue;
            }
            let h = design_lowpass(q, Window::Hamming).unwrap();
            let half = (h.len() - 1) / 2;
            // y[m] = Σ_j x[j]·h[half + m·down − j·up]·up
            for (up, down, y) in [(1usize, q, &d), (q, 1usize, &u)] {
                for (m, &got) in y.iter().enumerate() {
                    let mut s = 0.0;
                    for (j, &xv) in x.iter().enumerate() {
                        let k = (half + m * down) as isize - (j * up) as isize;
                        if k >= 0 && (k as usize) < h.len() {
                            s += xv * h[k as usize] * up as f64;
                        }
                    }
                    assert!((got - s).abs() < 1e-12, "n {n} q {q} up {up} m {m}");
                }
            }
        }
        assert!(decimate(current(), &[1.0f32], 0, &mut [0.0]).is_err());
        assert!(interpolate(current(), &[1.0f32], 0, &mut [0.0]).is_err());
        assert_eq!(decimate_len(0, 3), 0);
        assert_eq!(decimate_len(7, 3), 3);
    }

    #[test]
    fn lengths() {
        // scipy: upfirdn([1]*3, [1]*10, 1, 1) has 12 samples; (7, 20, 3, 2) -> 32
        assert_eq!(upfirdn_len(3, 10, 1, 1), Some(12));
        assert_eq!(upfirdn_len(7, 20, 3, 2), Some(32));
        assert_eq!(resample_poly_len(100, 147, 160), Some(92));
        assert_eq!(resample_poly_len(100, 2, 4), Some(50));
    }
}
