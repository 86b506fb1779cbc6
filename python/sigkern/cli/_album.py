"""Album (programme-set) loudness: the gated values over several files at once, as libebur128's
``ebur128_loudness_global_multiple`` and ``ebur128_loudness_range_multiple`` compute them.

An album value is not a mean of the files' values: the gates run over the union of every
file's 400 ms gating blocks (integrated loudness) and 3 s short-term blocks (loudness range).
:class:`Blocks` collects those block energies of one file on the meter's grid (100 ms steps of
``round(rate / 10)`` frames; a 400 ms block after every step from the 4th on, a 3 s block from
the 30th on, see docs/loudness.md), with the same K-weighting design and channel weights as
:class:`sigkern.Meter` (float64 throughout). For one file the album values equal the file's.
"""

from __future__ import annotations

import math
from typing import List, Optional, Sequence, Tuple

import numpy as np

from ..filters import sosfilt

ABSOLUTE_GATE = -70.0


def k_weighting(rate: float) -> np.ndarray:
    """The two K-weighting sections (high shelf, RLB high-pass) at ``rate`` Hz, as
    ``(2, 6)`` SOS: the bilinear transforms of the analogue prototypes that reproduce
    BS.1770's 48 kHz table (the meter's design)."""
    f0, g, q = 1681.974450955533, 3.999843853973347, 0.7071752369554196
    k = math.tan(math.pi * f0 / rate)
    vh = 10.0 ** (g / 20.0)
    vb = vh ** 0.4996667741545416
    a0 = 1.0 + k / q + k * k
    shelf = [(vh + vb * k / q + k * k) / a0, 2.0 * (k * k - vh) / a0, (vh - vb * k / q + k * k) / a0,
             1.0, 2.0 * (k * k - 1.0) / a0, (1.0 - k / q + k * k) / a0]
    f0, q = 38.13547087602444, 0.5003270373238773
    k = math.tan(math.pi * f0 / rate)
    a0 = 1.0 + k / q + k * k
    hp = [1.0, -2.0, 1.0, 1.0, 2.0 * (k * k - 1.0) / a0, (1.0 - k / q + k * k) / a0]
    return np.array([shelf, hp])


def channel_weights(channels: int) -> np.ndarray:
    """BS.1770 weights for ``channels`` in WAV order (as :class:`sigkern.Meter`)."""
    w = np.ones(channels)
    if channels == 4:
        w[2:4] = 1.41
    elif channels == 5:
        w[3:5] = 1.41
    elif channels == 6:
        w[3], w[4:6] = 0.0, 1.41
    elif channels == 8:
        w[3], w[4:8] = 0.0, 1.41
    return w


def energy(lufs: float) -> float:
    """Mean square of a loudness value."""
    return float(10.0 ** ((lufs + 0.691) / 10.0))


def lufs(z: float) -> float:
    """Loudness of a mean square (``-inf`` for 0)."""
    return -0.691 + 10.0 * math.log10(z) if z > 0 else -math.inf


class Blocks:
    """Collects the gating-block and short-term energies of one signal fed in interleaved
    float blocks ``(frames, channels)``."""

    def __init__(self, rate: int, channels: int) -> None:
        self.step = int(math.floor(rate / 10.0 + 0.5))  # rounded half up, as the meter
        self._sos = k_weighting(float(rate))
        self._zi = np.zeros((2, channels, 2))
        self._w = channel_weights(channels)
        self._carry = np.zeros(0)
        self._steps: List[np.ndarray] = []

    def add(self, x: np.ndarray) -> None:
        """Feeds ``(frames, channels)`` frames."""
        planar = np.ascontiguousarray(x.T, dtype=np.float64)
        y, zf = sosfilt(self._sos, planar, zi=self._zi)
        self._zi = np.asarray(zf)
        sq = self._w @ (np.asarray(y) ** 2)  # the weighted sum of squares of every frame
        sq = np.concatenate([self._carry, sq])
        n = sq.size // self.step * self.step
        if n:
            self._steps.append(sq[:n].reshape(-1, self.step).sum(axis=1) / self.step)
        self._carry = sq[n:]

    def energies(self) -> Tuple[np.ndarray, np.ndarray]:
        """(400 ms block energies, 3 s block energies), ``float64``."""
        s = np.concatenate(self._steps) if self._steps else np.zeros(0)
        return _windows(s, 4), _windows(s, 30)


def _windows(steps: np.ndarray, k: int) -> np.ndarray:
    """Means of ``k`` consecutive steps, one per step from the ``k``-th on."""
    if steps.size < k:
        return np.zeros(0)
    out: np.ndarray = np.lib.stride_tricks.sliding_window_view(steps, k).sum(axis=1) / k
    return out


def integrated(blocks: Sequence[np.ndarray]) -> float:
    """Gated integrated loudness (LUFS) of the union of 400 ms block energies."""
    z = np.concatenate(list(blocks)) if blocks else np.zeros(0)
    z = z[z >= energy(ABSOLUTE_GATE)]
    if z.size == 0:
        return -math.inf
    thr = max(z.mean() * 0.1, energy(ABSOLUTE_GATE))
    return lufs(float(z[z >= thr].mean()))


def loudness_range(short: Sequence[np.ndarray]) -> float:
    """Loudness range (LU, EBU Tech 3342) of the union of 3 s block energies."""
    z = np.concatenate(list(short)) if short else np.zeros(0)
    z = z[z >= energy(ABSOLUTE_GATE)]
    if z.size == 0:
        return 0.0
    thr = max(z.mean() * 0.01, energy(ABSOLUTE_GATE))
    z = np.sort(z[z >= thr])
    n = z.size

    def at(p: float) -> float:
        return lufs(float(z[int(math.floor((n - 1) * p + 0.5))]))
    return at(0.95) - at(0.10)


def album(rows: Sequence[Tuple[np.ndarray, np.ndarray]], peaks: Sequence[Tuple[float, float]]
          ) -> Tuple[float, float, float, float]:
    """(integrated, range, true peak, sample peak) of several files from their
    :meth:`Blocks.energies` and (true peak, sample peak) pairs in dB."""
    tp = max((p[0] for p in peaks), default=-math.inf)
    sp = max((p[1] for p in peaks), default=-math.inf)
    return integrated([r[0] for r in rows]), loudness_range([r[1] for r in rows]), tp, sp


def none_if_inf(v: float) -> Optional[float]:
    """``None`` for a non-finite value (JSON has no infinity)."""
    return v if math.isfinite(v) else None
