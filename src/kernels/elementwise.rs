//! Elementwise kernels: `y[i] = op(a[i], b[i])` and `y[i] = op(x[i])`.
//!
//! Every kernel gives bit-identical results at every SIMD level (each element is one IEEE
//! operation, or a fixed sequence of them, with no fused multiply-add), so the cross-level tests
//! compare bits.

use super::{Float, Src};
use crate::simd::{multiversion, stream16, stream_fence, Level, STREAM_THRESHOLD_BYTES};

/// A binary elementwise operation `y = f(a, b)`.
pub trait BinOp<T: Float>: Copy {
    fn apply(&self, a: T, b: T) -> T;
}

/// A unary elementwise operation `y = f(x)`.
pub trait UnOp<T: Float>: Copy {
    fn apply(&self, x: T) -> T;
}

#[derive(Clone, Copy)]
pub struct AddOp;
#[derive(Clone, Copy)]
pub struct SubOp;
#[derive(Clone, Copy)]
pub struct MulOp;
#[derive(Clone, Copy)]
pub struct DivOp;
/// `y = b + a·x`, applied as `binary(x, y, y)`: the first operand is x, the second the old y.
#[derive(Clone, Copy)]
pub struct AxpyOp<T>(pub T);

impl<T: Float> BinOp<T> for AddOp {
    #[inline(always)]
    fn apply(&self, a: T, b: T) -> T {
        a + b
    }
}
impl<T: Float> BinOp<T> for SubOp {
    #[inline(always)]
    fn apply(&self, a: T, b: T) -> T {
        a - b
    }
}
impl<T: Float> BinOp<T> for MulOp {
    #[inline(always)]
    fn apply(&self, a: T, b: T) -> T {
        a * b
    }
}
impl<T: Float> BinOp<T> for DivOp {
    #[inline(always)]
    fn apply(&self, a: T, b: T) -> T {
        a / b
    }
}
impl<T: Float> BinOp<T> for AxpyOp<T> {
    #[inline(always)]
    fn apply(&self, x: T, y: T) -> T {
        y + self.0 * x
    }
}

/// `y = a·x`.
#[derive(Clone, Copy)]
pub struct ScaleOp<T>(pub T);
/// `y = x / d` (used by peak normalisation so the peak lands on exactly ±1).
#[derive(Clone, Copy)]
pub struct DivByOp<T>(pub T);
/// `y = |x|`.
#[derive(Clone, Copy)]
pub struct AbsOp;
/// `y = min(max(x, lo), hi)`; NaN data stays NaN, as in `np.clip`.
#[derive(Clone, Copy)]
pub struct ClipOp<T> {
    pub lo: T,
    pub hi: T,
}

impl<T: Float> UnOp<T> for ScaleOp<T> {
    #[inline(always)]
    fn apply(&self, x: T) -> T {
        self.0 * x
    }
}
impl<T: Float> UnOp<T> for DivByOp<T> {
    #[inline(always)]
    fn apply(&self, x: T) -> T {
        x / self.0
    }
}
impl<T: Float> UnOp<T> for AbsOp {
    #[inline(always)]
    fn apply(&self, x: T) -> T {
        x.abs()
    }
}
impl<T: Float> UnOp<T> for ClipOp<T> {
    #[inline(always)]
    fn apply(&self, x: T) -> T {
        // Comparisons with NaN are false, so NaN passes through unchanged.
        let y = if x < self.lo { self.lo } else { x };
        if y > self.hi {
            self.hi
        } else {
            y
        }
    }
}

#[inline(always)]
fn binary_lanes<T: Float, O: BinOp<T>>(a: Src<'_, T>, b: Src<'_, T>, y: &mut [T], op: O) {
    a.check_len(y.len());
    b.check_len(y.len());
    // Zipped iterators carry no bounds checks, so each arm compiles to straight vector code.
    match (a, b) {
        (Src::Slice(a), Src::Slice(b)) => {
            for ((y, &a), &b) in y.iter_mut().zip(a).zip(b) {
                *y = op.apply(a, b);
            }
        }
        (Src::Dst, Src::Slice(b)) => {
            for (y, &b) in y.iter_mut().zip(b) {
                *y = op.apply(*y, b);
            }
        }
        (Src::Slice(a), Src::Dst) => {
            for (y, &a) in y.iter_mut().zip(a) {
                *y = op.apply(a, *y);
            }
        }
        (Src::Dst, Src::Dst) => {
            for y in y.iter_mut() {
                *y = op.apply(*y, *y);
            }
        }
    }
}

fn binary_scalar<T: Float, O: BinOp<T>>(a: Src<'_, T>, b: Src<'_, T>, y: &mut [T], op: O) {
    a.check_len(y.len());
    b.check_len(y.len());
    for i in 0..y.len() {
        let av = match a {
            Src::Slice(s) => s[i],
            Src::Dst => y[i],
        };
        let bv = match b {
            Src::Slice(s) => s[i],
            Src::Dst => y[i],
        };
        y[i] = op.apply(av, bv);
    }
}

#[inline(always)]
fn unary_lanes<T: Float, O: UnOp<T>>(x: Src<'_, T>, y: &mut [T], op: O) {
    x.check_len(y.len());
    match x {
        Src::Slice(x) => {
            for (y, &x) in y.iter_mut().zip(x) {
                *y = op.apply(x);
            }
        }
        Src::Dst => {
            for y in y.iter_mut() {
                *y = op.apply(*y);
            }
        }
    }
}

fn unary_scalar<T: Float, O: UnOp<T>>(x: Src<'_, T>, y: &mut [T], op: O) {
    x.check_len(y.len());
    for i in 0..y.len() {
        let v = match x {
            Src::Slice(s) => s[i],
            Src::Dst => y[i],
        };
        y[i] = op.apply(v);
    }
}

multiversion! {
    /// `y[i] = op(a[i], b[i])` at the given SIMD level. A `Src::Slice` operand must have
    /// `y.len()` elements.
    pub fn binary_at<T: Float, O: BinOp<T>>(a: Src<'_, T>, b: Src<'_, T>, y: &mut [T], op: O) -> ();
    scalar = binary_scalar; simd = binary_lanes;
}

multiversion! {
    /// `y[i] = op(x[i])` at the given SIMD level.
    pub fn unary_at<T: Float, O: UnOp<T>>(x: Src<'_, T>, y: &mut [T], op: O) -> ();
    scalar = unary_scalar; simd = unary_lanes;
}

/// Whether an output of `n` elements is written with non-temporal stores (separate output
/// buffer, beyond [`STREAM_THRESHOLD_BYTES`], and not the scalar reference level).
fn streams<T>(level: Level, n: usize) -> bool {
    level > Level::Scalar && n.saturating_mul(std::mem::size_of::<T>()) >= STREAM_THRESHOLD_BYTES
}

/// Computes one 64-byte line of results (`out`, already in registers after inlining) and writes
/// it to `dst` with four 16-byte non-temporal stores. Keeping the results in registers matters:
/// storing them to a stack buffer and re-loading 16-byte pieces defeats store-to-load
/// forwarding from 512-bit stores and stalls.
#[inline(always)]
fn stream_line<T: Float>(dst: &mut [T], out: &[T; 16]) {
    let lanes = 16 / std::mem::size_of::<T>();
    for (d, s) in dst.chunks_exact_mut(lanes).zip(out.chunks_exact(lanes)) {
        stream16(d, s);
    }
}

/// Splits `y` into an unaligned head, a body of whole 64-byte lines starting on a 16-byte
/// boundary, and a tail: `(head_len, body_len)`.
#[inline(always)]
fn stream_split<T>(y: &[T]) -> (usize, usize) {
    let per = 64 / std::mem::size_of::<T>();
    let head = y.as_ptr().align_offset(16).min(y.len());
    (head, (y.len() - head) / per * per)
}

#[inline(always)]
fn binary_stream_lanes<T: Float, O: BinOp<T>>(a: &[T], b: &[T], y: &mut [T], op: O) {
    assert!(
        a.len() == y.len() && b.len() == y.len(),
        "operand length differs from output length"
    );
    let per = 64 / std::mem::size_of::<T>();
    let (head, body) = stream_split(y);
    let (yh, rest) = y.split_at_mut(head);
    let (yb, yt) = rest.split_at_mut(body);
    binary_lanes(Src::Slice(&a[..head]), Src::Slice(&b[..head]), yh, op);
    let (ab, bb) = (&a[head..head + body], &b[head..head + body]);
    for ((d, x), z) in yb
        .chunks_exact_mut(per)
        .zip(ab.chunks_exact(per))
        .zip(bb.chunks_exact(per))
    {
        let mut out = [T::ZERO; 16];
        for k in 0..per {
            out[k] = op.apply(x[k], z[k]);
        }
        stream_line(d, &out);
    }
    binary_lanes(
        Src::Slice(&a[head + body..]),
        Src::Slice(&b[head + body..]),
        yt,
        op,
    );
    stream_fence();
}

#[inline(always)]
fn unary_stream_lanes<T: Float, O: UnOp<T>>(x: &[T], y: &mut [T], op: O) {
    assert!(
        x.len() == y.len(),
        "operand length differs from output length"
    );
    let per = 64 / std::mem::size_of::<T>();
    let (head, body) = stream_split(y);
    let (yh, rest) = y.split_at_mut(head);
    let (yb, yt) = rest.split_at_mut(body);
    unary_lanes(Src::Slice(&x[..head]), yh, op);
    for (d, v) in yb
        .chunks_exact_mut(per)
        .zip(x[head..head + body].chunks_exact(per))
    {
        let mut out = [T::ZERO; 16];
        for k in 0..per {
            out[k] = op.apply(v[k]);
        }
        stream_line(d, &out);
    }
    unary_lanes(Src::Slice(&x[head + body..]), yt, op);
    stream_fence();
}

multiversion! {
    /// `y[i] = op(a[i], b[i])` for separate buffers, written with non-temporal stores.
    fn binary_stream_at<T: Float, O: BinOp<T>>(a: &[T], b: &[T], y: &mut [T], op: O) -> ();
    scalar = binary_stream_lanes; simd = binary_stream_lanes;
}

multiversion! {
    /// `y[i] = op(x[i])` for separate buffers, written with non-temporal stores.
    fn unary_stream_at<T: Float, O: UnOp<T>>(x: &[T], y: &mut [T], op: O) -> ();
    scalar = unary_stream_lanes; simd = unary_stream_lanes;
}

/// `y[i] = op(a[i], b[i])` at the library's current SIMD level; large separate outputs use
/// non-temporal stores.
pub fn binary<T: Float, O: BinOp<T>>(a: Src<'_, T>, b: Src<'_, T>, y: &mut [T], op: O) {
    let level = crate::simd::current();
    if let (Src::Slice(a), Src::Slice(b)) = (a, b) {
        if streams::<T>(level, y.len()) {
            return binary_stream_at(level, a, b, y, op);
        }
    }
    binary_at(level, a, b, y, op)
}

/// `y[i] = op(x[i])` at the library's current SIMD level; large separate outputs use
/// non-temporal stores.
pub fn unary<T: Float, O: UnOp<T>>(x: Src<'_, T>, y: &mut [T], op: O) {
    let level = crate::simd::current();
    if let Src::Slice(x) = x {
        if streams::<T>(level, y.len()) {
            return unary_stream_at(level, x, y, op);
        }
    }
    unary_at(level, x, y, op)
}

/// `y[i] = a·x[i]`.
pub fn scale<T: Float>(level: Level, x: Src<'_, T>, a: T, y: &mut [T]) {
    unary_at(level, x, y, ScaleOp(a))
}

/// `y[i] += a·x[i]`. `x` may be `Src::Dst` (then `y[i] += a·y[i]`).
pub fn axpy<T: Float>(level: Level, x: Src<'_, T>, a: T, y: &mut [T]) {
    binary_at(level, x, Src::Dst, y, AxpyOp(a))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::testutil::{lengths, same, Rng};
    use crate::simd::available;

    fn special_f32(rng: &mut Rng, n: usize) -> Vec<f32> {
        let specials = [
            0.0,
            -0.0,
            f32::NAN,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::MAX,
            -f32::MAX,
            f32::MIN_POSITIVE,
            1e-40, // denormal
            -1e-45,
        ];
        (0..n)
            .map(|i| {
                if i % 7 == 3 {
                    specials[(rng.next_u64() % specials.len() as u64) as usize]
                } else {
                    (rng.uniform() * 100.0) as f32
                }
            })
            .collect()
    }

    /// Every op, every in-place form, every level: bit-identical to an f64-free reference.
    #[test]
    fn binary_ops_match_reference_at_every_level() {
        let mut rng = Rng::new(1);
        for n in lengths() {
            let a = special_f32(&mut rng, n);
            let b = special_f32(&mut rng, n);
            type Ref = fn(f32, f32) -> f32;
            let refs: [(Ref, &str); 5] = [
                (|a, b| a + b, "add"),
                (|a, b| a - b, "sub"),
                (|a, b| a * b, "mul"),
                (|a, b| a / b, "div"),
                (|x, y| y + 2.5 * x, "axpy"),
            ];
            for (f, name) in refs {
                let want: Vec<f32> = a.iter().zip(&b).map(|(&x, &y)| f(x, y)).collect();
                for level in available() {
                    let run = |a: Src<'_, f32>, b: Src<'_, f32>, y: &mut [f32]| match name {
                        "add" => binary_at(level, a, b, y, AddOp),
                        "sub" => binary_at(level, a, b, y, SubOp),
                        "mul" => binary_at(level, a, b, y, MulOp),
                        "div" => binary_at(level, a, b, y, DivOp),
                        _ => binary_at(level, a, b, y, AxpyOp(2.5f32)),
                    };
                    let mut y = vec![7.0f32; n];
                    run(Src::Slice(&a), Src::Slice(&b), &mut y);
                    assert!(same(&y, &want), "{name} n={n} {level:?}");
                    // in place on the first operand
                    let mut y = a.clone();
                    run(Src::Dst, Src::Slice(&b), &mut y);
                    assert!(same(&y, &want), "{name} a=y n={n} {level:?}");
                    // in place on the second operand
                    let mut y = b.clone();
                    run(Src::Slice(&a), Src::Dst, &mut y);
                    assert!(same(&y, &want), "{name} b=y n={n} {level:?}");
                    // both operands are the output
                    let want_sq: Vec<f32> = a.iter().map(|&x| f(x, x)).collect();
                    let mut y = a.clone();
                    run(Src::Dst, Src::Dst, &mut y);
                    assert!(same(&y, &want_sq), "{name} a=b=y n={n} {level:?}");
                }
            }
        }
    }

    #[test]
    fn unary_ops_match_reference_at_every_level_f64() {
        let mut rng = Rng::new(2);
        for n in lengths() {
            let x: Vec<f64> = special_f32(&mut rng, n)
                .iter()
                .map(|&v| v as f64 * 1e200)
                .collect();
            for level in available() {
                let mut y = vec![0.0; n];
                scale(level, Src::Slice(&x), -3.0, &mut y);
                let want: Vec<f64> = x.iter().map(|v| -3.0 * v).collect();
                assert!(same(&y, &want), "scale n={n} {level:?}");

                let mut y = x.clone();
                unary_at(level, Src::Dst, &mut y, AbsOp);
                let want: Vec<f64> = x.iter().map(|v| v.abs()).collect();
                assert!(same(&y, &want), "abs n={n} {level:?}");

                let mut y = vec![0.0; n];
                unary_at(
                    level,
                    Src::Slice(&x),
                    &mut y,
                    ClipOp {
                        lo: -1e201,
                        hi: 5e200,
                    },
                );
                let want: Vec<f64> = x
                    .iter()
                    .map(|&v| {
                        if v.is_nan() {
                            v
                        } else {
                            v.clamp(-1e201, 5e200)
                        }
                    })
                    .collect();
                assert!(same(&y, &want), "clip n={n} {level:?}");

                let mut y = x.clone();
                axpy(level, Src::Dst, 0.5, &mut y);
                let want: Vec<f64> = x.iter().map(|&v| v + 0.5 * v).collect();
                assert!(same(&y, &want), "axpy x=y n={n} {level:?}");
            }
        }
    }

    #[test]
    fn streaming_path_matches_plain_path_at_any_alignment() {
        let n = STREAM_THRESHOLD_BYTES / 4 + 37;
        let mut rng = Rng::new(9);
        let a = special_f32(&mut rng, n + 3);
        let b = special_f32(&mut rng, n + 3);
        for off in 0..3 {
            let (a, b) = (&a[off..off + n], &b[..n]);
            let mut want = vec![0.0f32; n + 3];
            binary_at(
                Level::Scalar,
                Src::Slice(a),
                Src::Slice(b),
                &mut want[off..off + n],
                MulOp,
            );
            let mut got = vec![0.0f32; n + 3];
            binary(Src::Slice(a), Src::Slice(b), &mut got[off..off + n], MulOp);
            assert!(same(&got, &want), "binary off={off}");
            let mut want = vec![0.0f32; n + 3];
            unary_at(
                Level::Scalar,
                Src::Slice(a),
                &mut want[off..off + n],
                ClipOp { lo: -1.0, hi: 2.0 },
            );
            let mut got = vec![0.0f32; n + 3];
            unary(
                Src::Slice(a),
                &mut got[off..off + n],
                ClipOp { lo: -1.0, hi: 2.0 },
            );
            assert!(same(&got, &want), "unary off={off}");
        }
        let x: Vec<f64> = (0..STREAM_THRESHOLD_BYTES / 8 + 5)
            .map(|i| i as f64)
            .collect();
        let mut y = vec![0.0; x.len()];
        unary(Src::Slice(&x), &mut y, ScaleOp(0.5));
        assert!(y.iter().enumerate().all(|(i, &v)| v == i as f64 * 0.5));
    }

    #[test]
    fn clip_keeps_nan_and_signed_zero() {
        let x = [f32::NAN, -0.0, 0.0, f32::INFINITY, f32::NEG_INFINITY, 0.5];
        let mut y = [0.0f32; 6];
        unary(Src::Slice(&x), &mut y, ClipOp { lo: -1.0, hi: 1.0 });
        assert!(y[0].is_nan());
        assert_eq!(y[1].to_bits(), (-0.0f32).to_bits());
        assert_eq!(&y[2..], &[0.0, 1.0, -1.0, 0.5]);
    }

    #[test]
    #[should_panic(expected = "operand length differs")]
    fn mismatched_lengths_are_an_internal_error() {
        let a = [1.0f32; 3];
        let mut y = [0.0f32; 4];
        binary(Src::Slice(&a), Src::Dst, &mut y, AddOp);
    }
}
