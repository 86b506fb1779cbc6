//! PCM sample conversion: int16, int32, 24-bit packed little-endian, uint8 (offset binary) ↔
//! `f32`/`f64`, and `f32` ↔ `f64`.
//!
//! Convention (the one WAV/libsndfile use for reading):
//! - integer → float: `v / 2^(bits-1)`, so the most negative code maps to exactly −1.0 and the
//!   most positive to `1 − 2^-(bits-1)`. Exact for 8/16/24 bits in both float types and for
//!   32 bits into `f64`; int32 → `f32` is correctly rounded (one rounding).
//! - float → integer: `x · 2^(bits-1)`, clamped to the integer range, rounded to nearest with
//!   ties to even. The per-element function maps NaN to 0 and ±inf to the clamped extremes, so it
//!   is total; the exported functions refuse non-finite input before converting (see
//!   [`first_non_finite`] and `docs/audio.md`).
//! - uint8 is offset binary: code `c` means `c − 128`.
//!
//! Speed. Scaling by a power of two is exact, so the conversions need no division. Rounding
//! uses the "magic number" trick: for `|v| ≤ 2^(p-2)` (`p` the significand width), `v + M` with
//! `M = 1.5·2^(p-1)` lands where consecutive floats are 1 apart, so the addition itself rounds
//! half to even (default rounding mode) and the integer is read off the low significand bits.
//! No float → int conversion instruction is needed (Rust's saturating `as` does not vectorise),
//! and it auto-vectorises at every level. The scalar reference uses `clamp` +
//! `f64::round_ties_even` + `as` instead; the cross-level tests compare the two bit for bit.

use super::strided::{StridedMut, StridedRef};
use super::Float;
use crate::simd::{multiversion, Level};

/// The float types PCM converts to and from (`f32`, `f64`).
pub trait PcmFloat: Float {
    /// `v as Self` (correctly rounded).
    fn from_i32(v: i32) -> Self;
    /// `v · scale` clamped to `[lo, hi]` and rounded half to even, computed in `Self`; valid
    /// when `|hi|, |lo| ≤ 2^22` (every 8- and 16-bit format). NaN gives 0.
    fn quantize_small(self, scale: Self, lo: Self, hi: Self) -> i32;
}

#[inline(always)]
fn clamp_nan_zero<T: PartialOrd + Copy>(v: T, lo: T, hi: T, zero: T) -> T {
    #[allow(clippy::eq_op)]
    let v = if v != v { zero } else { v };
    let v = if v < lo { lo } else { v };
    if v > hi {
        hi
    } else {
        v
    }
}

impl PcmFloat for f32 {
    #[inline(always)]
    fn from_i32(v: i32) -> Self {
        v as f32
    }
    #[inline(always)]
    fn quantize_small(self, scale: f32, lo: f32, hi: f32) -> i32 {
        let v = clamp_nan_zero(self * scale, lo, hi, 0.0);
        // |v| ≤ 2^22: v + 1.5·2^23 lies in [2^23, 2^24), where the spacing is 1, so the addition
        // rounds v half to even and the low significand bits hold round(v) + 2^22
        ((v + 12_582_912.0f32).to_bits() as i32).wrapping_sub(0x4B40_0000)
    }
}

impl PcmFloat for f64 {
    #[inline(always)]
    fn from_i32(v: i32) -> Self {
        v as f64
    }
    #[inline(always)]
    fn quantize_small(self, scale: f64, lo: f64, hi: f64) -> i32 {
        quantize_wide(self, scale, lo, hi)
    }
}

/// `x · scale` in `f64`, clamped and rounded half to even (valid for `|lo|, |hi| ≤ 2^51`).
#[inline(always)]
fn quantize_wide<T: Float>(x: T, scale: f64, lo: f64, hi: f64) -> i32 {
    let v = clamp_nan_zero(x.to_f64() * scale, lo, hi, 0.0);
    // |v| ≤ 2^51: v + 1.5·2^52 lies in [2^52, 2^53) (spacing 1): the same trick in f64
    ((v + 6_755_399_441_055_744.0f64).to_bits() as i64).wrapping_sub(0x4338_0000_0000_0000) as i32
}

/// A PCM sample format.
pub trait Pcm: Copy + Default + Send + Sync + std::fmt::Debug + 'static {
    /// Bits per sample.
    const BITS: u32;
    /// C name used in messages.
    const C_NAME: &'static str;
    /// The signed integer value of the code (offset removed, sign extended).
    fn to_i32(self) -> i32;
    /// The code of a signed value already in range.
    fn from_i32(v: i32) -> Self;
    /// Float → code, the fast path (lane bodies).
    fn encode<T: PcmFloat>(x: T) -> Self;
    /// Code → float, the fast path (lane bodies).
    fn decode<T: PcmFloat>(self) -> T;
}

/// 2^(bits-1) as f64.
#[inline(always)]
fn full_scale<S: Pcm>() -> f64 {
    (1u64 << (S::BITS - 1)) as f64
}

impl Pcm for i16 {
    const BITS: u32 = 16;
    const C_NAME: &'static str = "int16_t";
    #[inline(always)]
    fn to_i32(self) -> i32 {
        self as i32
    }
    #[inline(always)]
    fn from_i32(v: i32) -> Self {
        v as i16
    }
    #[inline(always)]
    fn encode<T: PcmFloat>(x: T) -> Self {
        x.quantize_small(
            T::from_f64(32768.0),
            T::from_f64(-32768.0),
            T::from_f64(32767.0),
        ) as i16
    }
    #[inline(always)]
    fn decode<T: PcmFloat>(self) -> T {
        T::from_i32(self as i32) * T::from_f64(1.0 / 32768.0)
    }
}

impl Pcm for u8 {
    const BITS: u32 = 8;
    const C_NAME: &'static str = "uint8_t";
    #[inline(always)]
    fn to_i32(self) -> i32 {
        self as i32 - 128
    }
    #[inline(always)]
    fn from_i32(v: i32) -> Self {
        (v + 128) as u8
    }
    #[inline(always)]
    fn encode<T: PcmFloat>(x: T) -> Self {
        (x.quantize_small(T::from_f64(128.0), T::from_f64(-128.0), T::from_f64(127.0)) + 128) as u8
    }
    #[inline(always)]
    fn decode<T: PcmFloat>(self) -> T {
        T::from_i32(self as i32 - 128) * T::from_f64(1.0 / 128.0)
    }
}

impl Pcm for i32 {
    const BITS: u32 = 32;
    const C_NAME: &'static str = "int32_t";
    #[inline(always)]
    fn to_i32(self) -> i32 {
        self
    }
    #[inline(always)]
    fn from_i32(v: i32) -> Self {
        v
    }
    #[inline(always)]
    fn encode<T: PcmFloat>(x: T) -> Self {
        quantize_wide(x, 2147483648.0, -2147483648.0, 2147483647.0)
    }
    #[inline(always)]
    fn decode<T: PcmFloat>(self) -> T {
        // int32 → f32 rounds once (correctly); the power-of-two scaling is exact
        T::from_i32(self) * T::from_f64(1.0 / 2147483648.0)
    }
}

/// A 24-bit packed little-endian sample (three bytes, as in WAV files).
pub type I24 = [u8; 3];

impl Pcm for I24 {
    const BITS: u32 = 24;
    const C_NAME: &'static str = "24-bit packed sample";
    #[inline(always)]
    fn to_i32(self) -> i32 {
        i32::from_le_bytes([0, self[0], self[1], self[2]]) >> 8
    }
    #[inline(always)]
    fn from_i32(v: i32) -> Self {
        let b = v.to_le_bytes();
        [b[0], b[1], b[2]]
    }
    #[inline(always)]
    fn encode<T: PcmFloat>(x: T) -> Self {
        Self::from_i32(quantize_wide(x, 8388608.0, -8388608.0, 8388607.0))
    }
    #[inline(always)]
    fn decode<T: PcmFloat>(self) -> T {
        T::from_i32(self.to_i32()) * T::from_f64(1.0 / 8388608.0)
    }
}

/// Reference float → code: `f64` arithmetic, `clamp`, `round_ties_even`; NaN → 0.
pub fn encode_ref<S: Pcm, T: Float>(x: T) -> S {
    let fs = full_scale::<S>();
    let v = x.to_f64() * fs;
    if v.is_nan() {
        return S::from_i32(0);
    }
    S::from_i32(v.clamp(-fs, fs - 1.0).round_ties_even() as i32)
}

/// Reference code → float: `f64` division, one rounding to `T`.
pub fn decode_ref<S: Pcm, T: Float>(c: S) -> T {
    T::from_f64(c.to_i32() as f64 / full_scale::<S>())
}

#[inline(always)]
fn decode_lanes<S: Pcm, T: PcmFloat>(x: &[S], y: &mut [T]) {
    assert_eq!(
        x.len(),
        y.len(),
        "operand length differs from output length"
    );
    for (y, &c) in y.iter_mut().zip(x) {
        *y = c.decode();
    }
}

fn decode_scalar<S: Pcm, T: PcmFloat>(x: &[S], y: &mut [T]) {
    assert_eq!(
        x.len(),
        y.len(),
        "operand length differs from output length"
    );
    for i in 0..x.len() {
        y[i] = decode_ref(x[i]);
    }
}

#[inline(always)]
fn encode_lanes<T: PcmFloat, S: Pcm>(x: &[T], y: &mut [S]) {
    assert_eq!(
        x.len(),
        y.len(),
        "operand length differs from output length"
    );
    for (y, &v) in y.iter_mut().zip(x) {
        *y = S::encode(v);
    }
}

fn encode_scalar<T: PcmFloat, S: Pcm>(x: &[T], y: &mut [S]) {
    assert_eq!(
        x.len(),
        y.len(),
        "operand length differs from output length"
    );
    for i in 0..x.len() {
        y[i] = encode_ref(x[i]);
    }
}

/// `f32` ↔ `f64` with `as` (widening exact; narrowing rounds to nearest even, overflows to ±inf,
/// keeps NaN).
pub trait CastTo: Float {
    type Out: Float;
    fn cast(self) -> Self::Out;
}
impl CastTo for f32 {
    type Out = f64;
    #[inline(always)]
    fn cast(self) -> f64 {
        self as f64
    }
}
impl CastTo for f64 {
    type Out = f32;
    #[inline(always)]
    fn cast(self) -> f32 {
        self as f32
    }
}

#[inline(always)]
fn cast_lanes<A: CastTo>(x: &[A], y: &mut [A::Out]) {
    assert_eq!(
        x.len(),
        y.len(),
        "operand length differs from output length"
    );
    for (y, &v) in y.iter_mut().zip(x) {
        *y = v.cast();
    }
}

fn cast_scalar<A: CastTo>(x: &[A], y: &mut [A::Out]) {
    assert_eq!(
        x.len(),
        y.len(),
        "operand length differs from output length"
    );
    for i in 0..x.len() {
        y[i] = A::Out::from_f64(x[i].to_f64());
    }
}

/// `x − x`: 0 for finite, NaN for NaN and ±inf.
#[inline(always)]
#[allow(clippy::eq_op)]
fn probe<T: Float>(x: T) -> T {
    x - x
}

/// Lanes per block of the finiteness scan.
const SCAN: usize = 64;

#[inline(always)]
fn all_finite_lanes<T: Float>(x: &[T]) -> bool {
    let mut acc = [T::ZERO; SCAN];
    let mut chunks = x.chunks_exact(SCAN);
    for c in &mut chunks {
        for j in 0..SCAN {
            acc[j] = acc[j] + probe(c[j]);
        }
    }
    for (a, &v) in acc.iter_mut().zip(chunks.remainder()) {
        *a = *a + probe(v);
    }
    acc.iter().all(|a| *a == T::ZERO)
}

fn all_finite_scalar<T: Float>(x: &[T]) -> bool {
    x.iter().all(|v| v.is_finite())
}

multiversion! {
    /// `y[i] = x[i] / 2^(bits-1)` (integer code → float).
    pub fn decode_at<S: Pcm, T: PcmFloat>(x: &[S], y: &mut [T]) -> ();
    scalar = decode_scalar; simd = decode_lanes;
}
multiversion! {
    /// `y[i] = code(x[i])`: scale, clamp, round half to even; NaN → 0.
    pub fn encode_at<T: PcmFloat, S: Pcm>(x: &[T], y: &mut [S]) -> ();
    scalar = encode_scalar; simd = encode_lanes;
}
multiversion! {
    /// `y[i] = x[i] as A::Out` (`f32` ↔ `f64`).
    pub fn cast_at<A: CastTo>(x: &[A], y: &mut [A::Out]) -> ();
    scalar = cast_scalar; simd = cast_lanes;
}
multiversion! {
    /// Whether every element is finite.
    pub fn all_finite_at<T: Float>(x: &[T]) -> bool;
    scalar = all_finite_scalar; simd = all_finite_lanes;
}

/// Index of the first NaN or ±inf in `x`, if any (a vectorised scan; the position is located
/// only when the scan flags something).
pub fn first_non_finite<T: Float>(level: Level, x: &[T]) -> Option<usize> {
    if all_finite_at(level, x) {
        None
    } else {
        x.iter().position(|v| !v.is_finite())
    }
}

/// Elements per gather/scatter block of the strided conversions.
const BLOCK: usize = 512;

/// Runs `f` on consecutive blocks of a strided input and a strided output (borrowed when unit
/// stride, gathered/scattered through stack buffers otherwise).
#[inline(always)]
fn blocked<A: Copy + Default, B: Copy + Default>(
    x: StridedRef<'_, A>,
    y: &mut StridedMut<'_, B>,
    mut f: impl FnMut(&[A], &mut [B]),
) {
    let n = y.len();
    assert_eq!(x.len(), n, "operand length differs from output length");
    if let (Some(xs), Some(ys)) = (x.as_unit(), y.as_unit_mut()) {
        return f(xs, ys);
    }
    let mut bx = [A::default(); BLOCK];
    let mut by = [B::default(); BLOCK];
    let mut start = 0;
    while start < n {
        let m = (n - start).min(BLOCK);
        let (tx, ty) = (&mut bx[..m], &mut by[..m]);
        x.gather(start, tx);
        f(tx, ty);
        y.scatter(start, ty);
        start += m;
    }
}

/// Strided integer code → float.
pub fn decode_strided<S: Pcm, T: PcmFloat>(
    level: Level,
    x: StridedRef<'_, S>,
    y: &mut StridedMut<'_, T>,
) {
    decode_s_mv(level, x, y, level)
}

#[inline(always)]
fn decode_s_body<S: Pcm, T: PcmFloat>(
    x: StridedRef<'_, S>,
    y: &mut StridedMut<'_, T>,
    level: Level,
) {
    blocked(x, y, |a, b| decode_at(level, a, b))
}

/// Strided float → integer code (total: NaN → 0; the caller scans first to refuse it).
pub fn encode_strided<T: PcmFloat, S: Pcm>(
    level: Level,
    x: StridedRef<'_, T>,
    y: &mut StridedMut<'_, S>,
) {
    encode_s_mv(level, x, y, level)
}

#[inline(always)]
fn encode_s_body<T: PcmFloat, S: Pcm>(
    x: StridedRef<'_, T>,
    y: &mut StridedMut<'_, S>,
    level: Level,
) {
    blocked(x, y, |a, b| encode_at(level, a, b))
}

/// Strided `f32` ↔ `f64`.
pub fn cast_strided<A: CastTo>(level: Level, x: StridedRef<'_, A>, y: &mut StridedMut<'_, A::Out>) {
    cast_s_mv(level, x, y, level)
}

#[inline(always)]
fn cast_s_body<A: CastTo>(x: StridedRef<'_, A>, y: &mut StridedMut<'_, A::Out>, level: Level) {
    blocked(x, y, |a, b| cast_at(level, a, b))
}

// The strided bodies compiled per level (gather/scatter inlined), as in `strided`.
multiversion! {
    fn decode_s_mv<S: Pcm, T: PcmFloat>(x: StridedRef<'_, S>, y: &mut StridedMut<'_, T>, lv: Level) -> ();
    scalar = decode_s_body; simd = decode_s_body;
}
multiversion! {
    fn encode_s_mv<T: PcmFloat, S: Pcm>(x: StridedRef<'_, T>, y: &mut StridedMut<'_, S>, lv: Level) -> ();
    scalar = encode_s_body; simd = encode_s_body;
}
multiversion! {
    fn cast_s_mv<A: CastTo>(x: StridedRef<'_, A>, y: &mut StridedMut<'_, A::Out>, lv: Level) -> ();
    scalar = cast_s_body; simd = cast_s_body;
}

/// Logical index of the first NaN or ±inf of a strided view, if any.
pub fn first_non_finite_strided<T: Float>(level: Level, x: StridedRef<'_, T>) -> Option<usize> {
    if let Some(s) = x.as_unit() {
        return first_non_finite(level, s);
    }
    let mut buf = [T::ZERO; BLOCK];
    let mut start = 0;
    while start < x.len() {
        let m = (x.len() - start).min(BLOCK);
        let b = &mut buf[..m];
        x.gather(start, b);
        if let Some(i) = first_non_finite(level, b) {
            return Some(start + i);
        }
        start += m;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::testutil::{lengths, Rng};
    use crate::simd::available;

    fn adversarial(rng: &mut Rng, n: usize) -> Vec<f64> {
        let specials = [
            0.0,
            -0.0,
            1.0,
            -1.0,
            0.99999,
            -1.00001,
            1e30,
            -1e30,
            f64::MAX,
            -f64::MAX,
            5e-324,
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            // exact ties at 16 bits: k + 0.5 over 32768
            0.5 / 32768.0,
            1.5 / 32768.0,
            -2.5 / 32768.0,
            32766.5 / 32768.0,
            -32767.5 / 32768.0,
            // ties at 24, 8 and 32 bits
            0.5 / 8388608.0,
            -3.5 / 8388608.0,
            126.5 / 128.0,
            -0.5 / 128.0,
            2.5 / 2147483648.0,
            2147483646.5 / 2147483648.0,
        ];
        (0..n)
            .map(|i| {
                if i % 3 == 1 {
                    specials[(rng.next_u64() % specials.len() as u64) as usize]
                } else {
                    rng.uniform() * 1.2
                }
            })
            .collect()
    }

    fn check_encode<S: Pcm + PartialEq>(x64: &[f64], x32: &[f32]) {
        let want64: Vec<S> = x64.iter().map(|&v| encode_ref::<S, f64>(v)).collect();
        let want32: Vec<S> = x32.iter().map(|&v| encode_ref::<S, f32>(v)).collect();
        for level in available() {
            let mut y = vec![S::default(); x64.len()];
            encode_at(level, x64, &mut y);
            assert!(
                y == want64,
                "{} from f64 {level:?} n={}",
                S::C_NAME,
                x64.len()
            );
            encode_at(level, x32, &mut y);
            assert!(
                y == want32,
                "{} from f32 {level:?} n={}",
                S::C_NAME,
                x64.len()
            );
        }
    }

    #[test]
    fn encode_matches_round_ties_even_reference_at_every_level() {
        let mut rng = Rng::new(21);
        for n in lengths() {
            let x64 = adversarial(&mut rng, n);
            let x32: Vec<f32> = x64.iter().map(|&v| v as f32).collect();
            check_encode::<i16>(&x64, &x32);
            check_encode::<u8>(&x64, &x32);
            check_encode::<i32>(&x64, &x32);
            check_encode::<I24>(&x64, &x32);
        }
    }

    #[test]
    fn nan_with_payload_encodes_to_zero_at_every_level() {
        let x32: Vec<f32> = [0x7FC0_0001u32, 0xFFC0_FFFF, 0x7F80_0001, 0xFFFF_FFFF]
            .iter()
            .map(|&b| f32::from_bits(b))
            .cycle()
            .take(67)
            .collect();
        let x64: Vec<f64> = [
            0x7FF8_0000_0000_0001u64,
            0xFFF8_0000_FFFF_FFFF,
            0x7FF0_0000_0000_0001,
        ]
        .iter()
        .map(|&b| f64::from_bits(b))
        .cycle()
        .take(67)
        .collect();
        for level in available() {
            let mut a = vec![1i16; 67];
            encode_at(level, &x32, &mut a);
            assert!(a.iter().all(|&v| v == 0), "{level:?}");
            encode_at(level, &x64, &mut a);
            assert!(a.iter().all(|&v| v == 0), "{level:?}");
            let mut b = vec![1i32; 67];
            encode_at(level, &x32, &mut b);
            assert!(b.iter().all(|&v| v == 0), "{level:?}");
            let mut c = vec![[1u8; 3]; 67];
            encode_at(level, &x64, &mut c);
            assert!(c.iter().all(|&v| v == [0, 0, 0]), "{level:?}");
            let mut d = vec![1u8; 67];
            encode_at(level, &x32, &mut d);
            assert!(d.iter().all(|&v| v == 128), "{level:?}");
        }
    }

    #[test]
    fn encode_reference_closed_forms() {
        // ties to even, saturation, NaN → 0
        let cases: [(f64, i16); 10] = [
            (0.5 / 32768.0, 0),
            (1.5 / 32768.0, 2),
            (-2.5 / 32768.0, -2),
            (1.0, 32767),
            (-1.0, -32768),
            (-1.5, -32768),
            (f64::INFINITY, 32767),
            (f64::NEG_INFINITY, -32768),
            (f64::NAN, 0),
            (32766.5 / 32768.0, 32766),
        ];
        for (x, want) in cases {
            assert_eq!(encode_ref::<i16, f64>(x), want, "{x}");
            assert_eq!(encode_ref::<i16, f32>(x as f32), want, "{x}");
        }
        assert_eq!(encode_ref::<u8, f32>(-1.0), 0);
        assert_eq!(encode_ref::<u8, f32>(0.0), 128);
        assert_eq!(encode_ref::<u8, f32>(1.0), 255);
        assert_eq!(encode_ref::<I24, f64>(-1.0), [0x00, 0x00, 0x80]);
        assert_eq!(encode_ref::<I24, f64>(1.0), [0xff, 0xff, 0x7f]);
        assert_eq!(encode_ref::<I24, f64>(-1.0 / 8388608.0), [0xff, 0xff, 0xff]);
        assert_eq!(encode_ref::<i32, f64>(1.0), i32::MAX);
        assert_eq!(encode_ref::<i32, f32>(-1.0), i32::MIN);
        assert_eq!(encode_ref::<i32, f64>(2.5 / 2147483648.0), 2);
    }

    #[test]
    fn decode_every_code_at_every_level() {
        let all16: Vec<i16> = (i16::MIN..=i16::MAX).collect();
        let all8: Vec<u8> = (0..=255).collect();
        let mut rng = Rng::new(22);
        let mut i32s: Vec<i32> = (0..70_000).map(|_| rng.next_u64() as i32).collect();
        i32s.extend([i32::MIN, i32::MAX, 0, -1, 1, 16_777_217, -16_777_217]);
        let mut i24s: Vec<I24> = (0..70_000)
            .map(|_| I24::from_i32(((rng.next_u64() as i32) << 8) >> 8))
            .collect();
        i24s.extend([
            [0, 0, 0x80],
            [0xff, 0xff, 0x7f],
            [0xff, 0xff, 0xff],
            [1, 0, 0],
        ]);
        fn run<S: Pcm>(codes: &[S]) {
            let w32: Vec<f32> = codes.iter().map(|&c| decode_ref(c)).collect();
            let w64: Vec<f64> = codes.iter().map(|&c| decode_ref(c)).collect();
            for level in available() {
                let mut y32 = vec![0.0f32; codes.len()];
                let mut y64 = vec![0.0f64; codes.len()];
                decode_at(level, codes, &mut y32);
                decode_at(level, codes, &mut y64);
                assert_eq!(y32, w32, "{} {level:?}", S::C_NAME);
                assert_eq!(y64, w64, "{} {level:?}", S::C_NAME);
                // f64 is exact: encode(decode(c)) == c
                let mut back = vec![S::default(); codes.len()];
                encode_at(level, &y64, &mut back);
                assert!(
                    back.iter()
                        .zip(codes)
                        .all(|(a, b)| a.to_i32() == b.to_i32()),
                    "{}",
                    S::C_NAME
                );
            }
        }
        run(&all16);
        run(&all8);
        run(&i32s);
        run(&i24s);
        assert_eq!(decode_ref::<i16, f32>(i16::MIN), -1.0);
        assert_eq!(decode_ref::<u8, f64>(0), -1.0);
        assert_eq!(decode_ref::<I24, f64>([0, 0, 0x80]), -1.0);
        assert_eq!(decode_ref::<i32, f32>(i32::MIN), -1.0);
        // the largest int32 rounds to exactly 1.0 in f32
        assert_eq!(decode_ref::<i32, f32>(i32::MAX), 1.0);
    }

    #[test]
    fn cast_and_scan_at_every_level() {
        let mut rng = Rng::new(23);
        for n in lengths() {
            let x = adversarial(&mut rng, n);
            let want: Vec<f32> = x.iter().map(|&v| v as f32).collect();
            let bad = x.iter().position(|v| !v.is_finite());
            for level in available() {
                let mut y = vec![0.0f32; n];
                cast_at(level, &x, &mut y);
                assert!(crate::kernels::testutil::same(&y, &want), "{level:?}");
                let mut z = vec![0.0f64; n];
                cast_at(level, &y, &mut z);
                let wz: Vec<f64> = y.iter().map(|&v| v as f64).collect();
                assert!(crate::kernels::testutil::same(&z, &wz), "{level:?}");
                assert_eq!(first_non_finite(level, &x), bad, "n={n} {level:?}");
                let finite: Vec<f64> = x
                    .iter()
                    .map(|v| if v.is_finite() { *v } else { 0.0 })
                    .collect();
                assert_eq!(first_non_finite(level, &finite), None);
            }
        }
    }

    #[test]
    fn strided_conversions_equal_contiguous() {
        let mut rng = Rng::new(24);
        for n in [0usize, 1, 5, 511, 512, 1300] {
            for s in [2isize, -1, -3, 0] {
                let ext = if n == 0 {
                    0
                } else {
                    (n - 1) * s.unsigned_abs() + 1
                };
                let first = if s < 0 && n > 0 { ext - 1 } else { 0 };
                let span = adversarial(&mut rng, ext.max(1));
                let xv = StridedRef::new(&span, first, s, n).unwrap();
                let xc = xv.to_vec();
                for level in available() {
                    // f64 → int16 into a reversed destination
                    let mut out = vec![7i16; n];
                    let mut y = StridedMut::new(&mut out, n.saturating_sub(1), -1, n).unwrap();
                    encode_strided(level, xv, &mut y);
                    let mut want = vec![0i16; n];
                    encode_at(Level::Scalar, &xc, &mut want);
                    want.reverse();
                    assert_eq!(out, want, "n={n} s={s} {level:?}");
                    // int16 (strided) → f32
                    let codes: Vec<i16> = (0..ext).map(|i| (i as i16).wrapping_mul(977)).collect();
                    let cv = StridedRef::new(&codes, first, s, n).unwrap();
                    let mut f = vec![0.0f32; n];
                    decode_strided(level, cv, &mut StridedMut::contiguous(&mut f));
                    let wf: Vec<f32> = cv.to_vec().iter().map(|&c| decode_ref(c)).collect();
                    assert_eq!(f, wf);
                    // f64 → f32 strided
                    let mut g = vec![0.0f32; 2 * n];
                    let mut gv = StridedMut::new(&mut g, 0, 2, n).unwrap();
                    cast_strided(level, xv, &mut gv);
                    let wg: Vec<f32> = xc.iter().map(|&v| v as f32).collect();
                    assert!(crate::kernels::testutil::same(&gv.as_ref().to_vec(), &wg));
                    assert_eq!(
                        first_non_finite_strided(level, xv),
                        xc.iter().position(|v| !v.is_finite())
                    );
                }
            }
        }
    }
}
