"""The base of every transform: audiomentations' call convention (``t(samples, sample_rate)``,
``p``, ``parameters``, ``freeze_parameters()``/``unfreeze_parameters()``,
``randomize_parameters()``) over a batch ``(..., n)``, with the randomness drawn from a seeded
numpy Generator (C: none of its own; the numerical work is in :mod:`._kernels`)."""

from __future__ import annotations

import math
from typing import Any, Dict, Optional, Union

import numpy as np

__all__ = ["BaseWaveformTransform", "AugmentArgumentError", "SeedLike"]

SeedLike = Union[None, int, np.random.Generator, np.random.SeedSequence]


class AugmentArgumentError(ValueError, AssertionError):
    """A bad constructor argument. Both a ``ValueError`` and an ``AssertionError``: audiomentations
    raises one or the other (``assert`` in some constructors), so code catching either works."""


def _require(cond: bool, msg: str) -> None:
    if not cond:
        raise AugmentArgumentError(msg)


def _uniform(rng: np.random.Generator, lo: float, hi: float, shape: Any) -> np.ndarray:
    """``random.uniform(lo, hi)`` per row (``lo + (hi - lo) * U[0, 1)``)."""
    return np.asarray(lo + (hi - lo) * rng.random(shape))


def _randint(rng: np.random.Generator, lo: int, hi: int, shape: Any) -> np.ndarray:
    """``random.randint(lo, hi)`` per row (both ends included)."""
    return np.asarray(rng.integers(lo, hi, size=shape, endpoint=True))


class BaseWaveformTransform:
    """A random waveform transform with audiomentations' interface, applied to a batch.

    ``samples`` is a float32 or float64 numpy array of shape ``(..., n)``: a 1-D array is one
    clip (as in audiomentations); every leading index of a larger array is a clip of its own,
    with its own draw of ``should_apply`` and of every parameter. The dtype is kept (float64 is
    not converted to float32). The draws come from ``numpy.random.default_rng(seed)``, so a
    transform made with the same seed gives the same outputs for the same calls.

    Parameters
    ----------
    p : float, default 0.5
        Probability that a clip is transformed.
    seed : int, Generator, SeedSequence or None, default None
        Seed of the transform's own generator (``None``: fresh entropy).

    Attributes
    ----------
    parameters : dict
        The last draw: ``should_apply`` and the transform's parameters, Python scalars for a
        1-D input, arrays of the batch shape otherwise.
    are_parameters_frozen : bool
        Set by :meth:`freeze_parameters`: the next calls reuse ``parameters`` (broadcast over
        the batch) instead of drawing new ones.
    """

    supports_multichannel = True

    def __init__(self, p: float = 0.5, *, seed: SeedLike = None) -> None:
        _require(isinstance(p, (int, float)) and 0 <= p <= 1, f"p must be in [0, 1], got {p!r}")
        self.p = float(p)
        self.rng = np.random.default_rng(seed)
        self.parameters: Dict[str, Any] = {"should_apply": None}
        self.are_parameters_frozen = False

    def __repr__(self) -> str:
        return f"{type(self).__name__}(p={self.p})"

    def freeze_parameters(self) -> None:
        """Keep the current parameters for the next calls (drawn at the next call if none yet).

        Returns
        -------
        None
        """
        self.are_parameters_frozen = True

    def unfreeze_parameters(self) -> None:
        """Draw new parameters at every call again.

        Returns
        -------
        None
        """
        self.are_parameters_frozen = False

    def randomize_parameters(self, samples: np.ndarray, sample_rate: int) -> None:
        """Draw ``should_apply`` and the parameters for every clip of ``samples``.

        Parameters
        ----------
        samples : ndarray, float32 or float64, shape (..., n)
        sample_rate : int
            Hz.

        Returns
        -------
        None
        """
        x = _check_samples(samples, type(self).__name__)
        batch = x.shape[:-1]
        apply = self.rng.random(batch) < self.p
        drawn = self._draw(x.reshape(-1, x.shape[-1]), int(sample_rate), math.prod(batch))
        params: Dict[str, Any] = {"should_apply": apply}
        for k, v in drawn.items():
            params[k] = np.asarray(v).reshape(batch + self._extra.get(k, ()))
        if not batch:
            params = {k: (v.item() if v.ndim == 0 else v) for k, v in params.items()}
        self.parameters = params

    def _draw(self, x: np.ndarray, sample_rate: int, rows: int) -> Dict[str, Any]:
        """Per-row parameters (arrays of length ``rows``); ``x`` is ``(rows, n)``."""
        return {}

    def _apply(self, x: np.ndarray, sample_rate: int, prm: Dict[str, np.ndarray]) -> np.ndarray:
        """The transform of the selected rows ``x`` (C-contiguous ``(rows, n)``), with their
        parameters (arrays of length ``rows``)."""
        raise NotImplementedError

    #: trailing shapes of parameters that are not one number per clip
    _extra: Dict[str, tuple[int, ...]] = {}

    def __call__(self, samples: np.ndarray, sample_rate: int) -> np.ndarray:
        """Transform ``samples`` (see the class docstring).

        Parameters
        ----------
        samples : ndarray, float32 or float64, shape (..., n)
        sample_rate : int
            Hz, > 0.

        Returns
        -------
        ndarray
            The transformed batch, ``samples``' dtype; ``samples`` itself when no clip is
            transformed.
        """
        return self._run(samples, sample_rate, None)

    def _run(self, samples: np.ndarray, sample_rate: int, gate: Optional[np.ndarray]) -> np.ndarray:
        """``__call__`` with the clips where ``gate`` (a flat bool per clip) is False left alone
        (used by :class:`Compose` for its own ``p``)."""
        name = type(self).__name__
        x = _check_samples(samples, name)
        if not (isinstance(sample_rate, (int, np.integer, float)) and sample_rate > 0
                and math.isfinite(sample_rate)):
            raise ValueError(f"{name}: sample_rate must be a positive number, got {sample_rate!r}")
        if not self.are_parameters_frozen or self.parameters["should_apply"] is None:
            self.randomize_parameters(x, int(sample_rate))
        batch, n = x.shape[:-1], x.shape[-1]
        rows = math.prod(batch)
        try:
            prm = {k: np.broadcast_to(np.asarray(v), batch + self._extra.get(k, ()))
                   .reshape((rows,) + self._extra.get(k, ()))
                   for k, v in self.parameters.items()}
        except ValueError:
            raise ValueError(f"{name}: the frozen parameters were drawn for a batch of shape "
                             f"{np.shape(self.parameters['should_apply'])}, which does not "
                             f"broadcast to {batch}") from None
        sel = prm.pop("should_apply").astype(bool)
        if gate is not None:
            sel = sel & gate
        if n == 0 or not sel.any():
            return samples
        x2 = np.ascontiguousarray(x.reshape(rows, n))
        if sel.all():
            y = self._apply(x2, int(sample_rate), prm)
            return y.reshape(batch + (y.shape[-1],))
        sub = self._apply(np.ascontiguousarray(x2[sel]), int(sample_rate),
                          {k: v[sel] for k, v in prm.items()})
        if sub.shape[-1] != n:
            raise ValueError(f"{name}: changes the length, so it cannot transform only some clips "
                             f"of a batch; use p=1.0 or leave_length_unchanged=True")
        y = x2.copy()
        y[sel] = sub
        return y.reshape(x.shape)


def _check_samples(samples: Any, name: str) -> np.ndarray:
    if not isinstance(samples, np.ndarray):
        raise TypeError(f"{name}: samples must be a numpy array, got {type(samples).__name__}")
    if samples.dtype not in (np.float32, np.float64):
        raise TypeError(f"{name}: samples must be float32 or float64, got {samples.dtype}")
    if samples.ndim < 1:
        raise ValueError(f"{name}: samples must have at least one axis (time last)")
    return samples
