//! Multichannel sample layouts as the C functions take them, checked: *planar* data keeps
//! channel `c`'s sample `t` at `p[c·stride + t]` (`stride >= n` when there is more than one
//! channel, ignored for one); *interleaved* data keeps it at `p[t·channels + c]`.

use crate::error::{SkError, SkResult};
use crate::kernels::layout::Layout;

/// The planar layout of `channels × n` samples with the caller's `stride` (argument `name`),
/// and its extent in elements. `n_name` names the length argument in messages. With one
/// channel (or none) the stride is ignored.
#[inline(always)]
pub(crate) fn planar(
    name: &'static str,
    stride: isize,
    channels: usize,
    n_name: &str,
    n: usize,
) -> SkResult<(Layout, usize)> {
    // one channel (or none): the stride is ignored; else it must be at least n
    let s = if channels <= 1 { n } else { stride as usize };
    let fine = channels <= 1 || (stride >= 0 && s >= n);
    let l = Layout::planar(s);
    match l.extent(channels, n) {
        Some(ext) if fine => Ok((l, ext)),
        _ => Err(planar_error(name, stride, channels, n_name, n)),
    }
}

/// The error of a planar layout that [`planar`] refused, by the first rule it breaks.
#[cold]
#[inline(never)]
fn planar_error(name: &str, stride: isize, channels: usize, n_name: &str, n: usize) -> SkError {
    let stride = if channels <= 1 {
        n
    } else {
        let Ok(s) = usize::try_from(stride) else {
            return SkError::BadArgument(format!("{name} = {stride} is negative"));
        };
        if s < n {
            return SkError::BadArgument(format!(
                "{name} = {s} is less than {n_name} = {n}: channels would overlap"
            ));
        }
        s
    };
    SkError::Length(format!(
        "{channels} channels of {n} samples with {name} = {stride} overflow the address space"
    ))
}

/// The interleaved layout of `frames` frames of `channels` samples, and its length in elements.
/// `n_name` names the frame-count argument in messages.
pub(crate) fn interleaved(
    n_name: &str,
    frames: usize,
    channels: usize,
) -> SkResult<(Layout, usize)> {
    let len = frames.checked_mul(channels).ok_or_else(|| {
        SkError::Length(format!(
            "{n_name} = {frames} × channels = {channels} overflows"
        ))
    })?;
    Ok((Layout::interleaved(channels), len))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::{SK_ERR_BAD_ARGUMENT, SK_ERR_LENGTH};

    #[test]
    fn planar_rules_and_messages() {
        assert_eq!(
            planar("x_stride", 10, 3, "n", 8).unwrap(),
            (Layout::planar(10), 28)
        );
        // one channel: the stride is ignored, even a negative one
        assert_eq!(
            planar("x_stride", -4, 1, "n", 8).unwrap(),
            (Layout::planar(8), 8)
        );
        assert_eq!(planar("x_stride", 0, 2, "n", 0).unwrap().1, 0);
        let e = planar("x_stride", 50, 2, "n", 100).unwrap_err();
        assert_eq!(e.code(), SK_ERR_BAD_ARGUMENT);
        assert_eq!(
            e.to_string(),
            "x_stride = 50 is less than n = 100: channels would overlap"
        );
        let e = planar("y_stride", -1, 2, "n_out", 3).unwrap_err();
        assert_eq!(e.to_string(), "y_stride = -1 is negative");
        let e = planar("x_stride", isize::MAX, 3, "n", 2).unwrap_err();
        assert_eq!(e.code(), SK_ERR_LENGTH);
        assert!(e.to_string().contains("overflow the address space"), "{e}");
    }

    #[test]
    fn planar_edges() {
        // no channels or no samples: nothing to touch
        assert_eq!(planar("s", -3, 0, "n", 5).unwrap().1, 0);
        assert_eq!(planar("s", 7, 3, "n", 0).unwrap().1, 0);
        // stride exactly n is fine, one less overlaps, negative is refused before that
        assert_eq!(planar("s", 4, 2, "n", 4).unwrap(), (Layout::planar(4), 8));
        assert_eq!(
            planar("s", 3, 2, "n", 4).unwrap_err().to_string(),
            "s = 3 is less than n = 4: channels would overlap"
        );
        assert_eq!(
            planar("s", isize::MIN, 2, "n", 4).unwrap_err().to_string(),
            format!("s = {} is negative", isize::MIN)
        );
        // one channel: n itself may be anything a size_t holds
        assert_eq!(
            planar("s", -1, 1, "n", usize::MAX).unwrap(),
            (Layout::planar(usize::MAX), usize::MAX)
        );
        // the extent overflows: (channels − 1)·stride + n − 1 + 1 > SIZE_MAX
        assert_eq!(planar("s", isize::MAX, 3, "n", 1).unwrap().1, usize::MAX);
        let e = planar("s", isize::MAX, 3, "n", 2).unwrap_err();
        assert_eq!(e.code(), SK_ERR_LENGTH);
        assert_eq!(
            e.to_string(),
            format!(
                "3 channels of 2 samples with s = {} overflow the address space",
                isize::MAX
            )
        );
    }

    #[test]
    fn interleaved_rules_and_messages() {
        assert_eq!(
            interleaved("n_frames", 5, 3).unwrap(),
            (Layout::interleaved(3), 15)
        );
        let e = interleaved("n_in", usize::MAX, 2).unwrap_err();
        assert_eq!(e.code(), SK_ERR_LENGTH);
        assert_eq!(
            e.to_string(),
            format!("n_in = {} × channels = 2 overflows", usize::MAX)
        );
    }
}
