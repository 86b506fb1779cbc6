//! Runtime SIMD dispatch.
//!
//! The library is compiled for the baseline of its target (SSE2 on x86-64, NEON on AArch64) and
//! picks a wider instruction set at run time. Every hot kernel is written once as a generic,
//! `#[inline(always)]` body on slices whose inner loops work on fixed-width lane arrays; the
//! [`multiversion!`] macro compiles that body several times, once inside a
//! `#[target_feature(enable = ...)]` wrapper per level, and dispatches on a [`Level`].
//! Each kernel also has a plain one-element-at-a-time reference body, used at
//! [`Level::Scalar`] and as the reference in the cross-level tests.
//!
//! The level in use is detected once; the environment variable `SIGKERN_SIMD` (read once, on the
//! first call that needs it) may force a lower level: `scalar`, `sse2`/`neon`/`baseline`,
//! `avx2`, `avx512`. A request above what the CPU supports is clamped to the detected level;
//! an unknown value is ignored.

use std::sync::OnceLock;

pub mod tile;

/// Asks the CPU to start loading the cache lines of `s` into the nearest cache, so a later
/// pass over them does not wait on memory. A hint only: nothing is read architecturally and
/// results cannot change; a no-op off x86-64.
#[inline(always)]
pub fn prefetch<T>(s: &[T]) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        let bytes = std::mem::size_of_val(s);
        let p = s.as_ptr().cast::<i8>();
        for off in (0..bytes).step_by(64) {
            // SAFETY: `off < bytes`, so the address is inside `s`; a prefetch never faults and
            // has no architectural effect. SSE (which has the instruction) is in the x86-64
            // baseline.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(p.add(off)) };
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = s;
}

/// An instruction-set level, ordered from least to most capable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    /// Reference loops, one element at a time.
    Scalar,
    /// The lane-blocked kernels compiled for the target's baseline (SSE2 / NEON).
    Baseline,
    /// x86-64 with AVX2 and FMA.
    Avx2,
    /// x86-64 with AVX-512 F, BW, DQ and VL.
    Avx512,
}

impl Level {
    /// The name `sk_simd_level` reports.
    pub fn name(self) -> &'static str {
        match self {
            Level::Scalar => "scalar",
            #[cfg(target_arch = "x86_64")]
            Level::Baseline => "sse2",
            #[cfg(target_arch = "aarch64")]
            Level::Baseline => "neon",
            #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
            Level::Baseline => "baseline",
            Level::Avx2 => "avx2",
            Level::Avx512 => "avx512",
        }
    }

    /// The same name NUL-terminated, for the C ABI.
    pub fn c_name(self) -> &'static std::ffi::CStr {
        match self {
            Level::Scalar => c"scalar",
            #[cfg(target_arch = "x86_64")]
            Level::Baseline => c"sse2",
            #[cfg(target_arch = "aarch64")]
            Level::Baseline => c"neon",
            #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
            Level::Baseline => c"baseline",
            Level::Avx2 => c"avx2",
            Level::Avx512 => c"avx512",
        }
    }

    /// Parses a `SIGKERN_SIMD` value (case-insensitive, surrounding blanks ignored).
    pub fn parse(s: &str) -> Option<Level> {
        match s.trim().to_ascii_lowercase().as_str() {
            "scalar" | "none" => Some(Level::Scalar),
            "baseline" | "sse2" | "neon" => Some(Level::Baseline),
            "avx2" => Some(Level::Avx2),
            "avx512" | "avx-512" => Some(Level::Avx512),
            _ => None,
        }
    }
}

/// The best level this CPU supports (detected once).
pub fn detected() -> Level {
    static DETECTED: OnceLock<Level> = OnceLock::new();
    *DETECTED.get_or_init(detect)
}

#[cfg(target_arch = "x86_64")]
fn detect() -> Level {
    if is_x86_feature_detected!("avx512f")
        && is_x86_feature_detected!("avx512bw")
        && is_x86_feature_detected!("avx512dq")
        && is_x86_feature_detected!("avx512vl")
        && is_x86_feature_detected!("avx2")
        && is_x86_feature_detected!("fma")
    {
        Level::Avx512
    } else if is_x86_feature_detected!("avx2") && is_x86_feature_detected!("fma") {
        Level::Avx2
    } else {
        Level::Baseline
    }
}

#[cfg(not(target_arch = "x86_64"))]
fn detect() -> Level {
    Level::Baseline
}

/// The level that actually runs when `level` is requested: never above [`detected()`]. Every
/// `unsafe` use of a level's instructions rests on this clamp.
#[inline]
pub fn effective(level: Level) -> Level {
    level.min(detected())
}

/// Every level this CPU can run, lowest first. The cross-level tests iterate over it.
pub fn available() -> Vec<Level> {
    [Level::Scalar, Level::Baseline, Level::Avx2, Level::Avx512]
        .into_iter()
        .filter(|l| *l <= detected())
        .collect()
}

/// The level the library uses: the detected one, lowered by `SIGKERN_SIMD` if set.
pub fn current() -> Level {
    static CURRENT: OnceLock<Level> = OnceLock::new();
    *CURRENT.get_or_init(|| {
        let requested = std::env::var("SIGKERN_SIMD")
            .ok()
            .and_then(|v| Level::parse(&v));
        match requested {
            Some(l) => effective(l),
            None => detected(),
        }
    })
}

/// Compiles one generic kernel body at every level and dispatches on a [`Level`].
///
/// ```ignore
/// multiversion! {
///     /// docs
///     pub fn add_at<T: Float, O: BinOp>(a: Src<'_, T>, b: Src<'_, T>, y: &mut [T]) -> ();
///     scalar = add_scalar; simd = add_lanes;
/// }
/// ```
/// generates `pub fn add_at<T, O>(level: Level, a, b, y)`. The requested level is clamped to
/// [`detected()`] before dispatch, so a caller can never run instructions the CPU lacks: that
/// clamp is what makes the `unsafe` calls of the `#[target_feature]` wrappers sound.
macro_rules! multiversion {
    (
        $(#[$meta:meta])*
        $vis:vis fn $name:ident<$($g:ident : $bound:path),+>($($arg:ident : $ty:ty),* $(,)?) -> $ret:ty;
        scalar = $scalar:ident; simd = $simd:ident;
    ) => {
        $(#[$meta])*
        #[allow(clippy::too_many_arguments)]
        $vis fn $name<$($g: $bound),+>(level: $crate::simd::Level, $($arg: $ty),*) -> $ret {
            #[cfg(target_arch = "x86_64")]
            #[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl,avx2,fma,bmi1,bmi2,popcnt")]
            #[allow(clippy::too_many_arguments)]
            fn avx512<$($g: $bound),+>($($arg: $ty),*) -> $ret {
                $simd::<$($g),+>($($arg),*)
            }
            #[cfg(target_arch = "x86_64")]
            #[target_feature(enable = "avx2,fma,bmi1,bmi2,popcnt")]
            #[allow(clippy::too_many_arguments)]
            fn avx2<$($g: $bound),+>($($arg: $ty),*) -> $ret {
                $simd::<$($g),+>($($arg),*)
            }
            match $crate::simd::effective(level) {
                #[cfg(target_arch = "x86_64")]
                // SAFETY: the level was clamped to the detected one, so the CPU has AVX-512.
                $crate::simd::Level::Avx512 => unsafe { avx512::<$($g),+>($($arg),*) },
                #[cfg(target_arch = "x86_64")]
                // SAFETY: the level was clamped to the detected one, so the CPU has AVX2 + FMA.
                $crate::simd::Level::Avx2 => unsafe { avx2::<$($g),+>($($arg),*) },
                $crate::simd::Level::Scalar => $scalar::<$($g),+>($($arg),*),
                _ => $simd::<$($g),+>($($arg),*),
            }
        }
    };
}
pub(crate) use multiversion;

/// Outputs at least this large (in bytes) are written with non-temporal stores by the
/// elementwise kernels when the output is a separate buffer: half the L3 cache of a typical
/// server part, so results that will be read again soon stay cached, and buffers far beyond the
/// cache skip the read-for-ownership that a normal store costs (a quarter of the traffic of
/// `y = a + b`).
pub(crate) const STREAM_THRESHOLD_BYTES: usize = 16 << 20;

/// Writes the 16 bytes of `src` to `dst` with a non-temporal store (`movntdq`, SSE2: part of the
/// x86-64 baseline). Panics unless both are exactly 16 bytes and `dst` is 16-byte aligned (a
/// misaligned non-temporal store would fault). On other architectures it is a plain copy.
/// Call [`stream_fence`] after a run of these.
#[inline(always)]
pub fn stream16<T: Copy>(dst: &mut [T], src: &[T]) {
    assert!(std::mem::size_of_val(dst) == 16 && std::mem::size_of_val(src) == 16);
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{__m128i, _mm_loadu_si128, _mm_stream_si128};
        let d = dst.as_mut_ptr() as *mut __m128i;
        assert!(
            d.is_aligned(),
            "non-temporal store target not 16-byte aligned"
        );
        // SAFETY: 16 readable bytes at src, 16 writable and aligned bytes at dst (asserted);
        // SSE2 is always present on x86-64.
        unsafe { _mm_stream_si128(d, _mm_loadu_si128(src.as_ptr() as *const __m128i)) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    dst.copy_from_slice(src);
}

/// `v` unchanged, through an empty `asm!` block that the optimiser cannot see into: the value
/// stays in its register (no memory round trip, no instruction emitted). The recursive filters
/// pass their state through it once per sample where a lane block is narrower than a vector
/// register, so that LLVM's SLP vectoriser does not pack the independent per-section recursions
/// into wider vectors with lane shuffles on the dependency chain (which made the one-channel
/// float cascade 2.9x and the four-channel one 1.15x slower).
#[inline(always)]
pub fn opaque_f32(mut v: f32) -> f32 {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: an empty template; it reads and writes only the register holding `v`.
    unsafe {
        std::arch::asm!("/* {0} */", inout(xmm_reg) v, options(pure, nomem, nostack, preserves_flags))
    };
    v
}

/// [`opaque_f32`] for four `f32` lanes held in one SSE register.
#[inline(always)]
pub fn opaque_f32x4(v: [f32; 4]) -> [f32; 4] {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::__m128;
        // SAFETY: `[f32; 4]` and `__m128` are both 16 bytes and every bit pattern is valid for
        // both; the empty template reads and writes only the register holding `r`.
        unsafe {
            let mut r = std::mem::transmute::<[f32; 4], __m128>(v);
            std::arch::asm!("/* {0} */", inout(xmm_reg) r, options(pure, nomem, nostack, preserves_flags));
            std::mem::transmute::<__m128, [f32; 4]>(r)
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    v
}

/// [`opaque_f32`] for `f64`.
#[inline(always)]
pub fn opaque_f64(mut v: f64) -> f64 {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: an empty template; it reads and writes only the register holding `v`.
    unsafe {
        std::arch::asm!("/* {0} */", inout(xmm_reg) v, options(pure, nomem, nostack, preserves_flags))
    };
    v
}

/// Orders preceding non-temporal stores before any later store (`sfence`).
#[inline(always)]
pub fn stream_fence() {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: sfence has no preconditions; SSE is part of the x86-64 baseline.
    unsafe {
        std::arch::x86_64::_mm_sfence()
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stream16_stores_exactly_sixteen_bytes() {
        let mut buf = [0u32; 12];
        let start = buf.as_ptr().align_offset(16);
        let src = [1u32, 2, 3, 4];
        stream16(&mut buf[start..start + 4], &src);
        stream_fence();
        assert_eq!(&buf[start..start + 4], &src);
        assert_eq!(buf.iter().filter(|&&v| v != 0).count(), 4);
    }

    #[test]
    #[should_panic]
    fn stream16_refuses_misaligned_target() {
        let mut buf = [0u32; 12];
        let start = buf.as_ptr().align_offset(16) + 1;
        stream16(&mut buf[start..start + 4], &[1u32, 2, 3, 4]);
    }

    #[test]
    fn parse_names() {
        assert_eq!(Level::parse(" AVX2 "), Some(Level::Avx2));
        assert_eq!(Level::parse("scalar"), Some(Level::Scalar));
        assert_eq!(Level::parse("sse2"), Some(Level::Baseline));
        assert_eq!(Level::parse("avx512"), Some(Level::Avx512));
        assert_eq!(Level::parse("mmx"), None);
        for l in available() {
            assert_eq!(Level::parse(l.name()), Some(l));
            assert_eq!(l.c_name().to_str().unwrap(), l.name());
        }
    }

    #[test]
    fn current_never_exceeds_detected() {
        assert!(current() <= detected());
        assert_eq!(available().last().copied(), Some(detected()));
        assert_eq!(available()[0], Level::Scalar);
    }
}
