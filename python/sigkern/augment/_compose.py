"""audiomentations' ``Compose``: a chain of transforms run on a batch, every draw made in
Python from seeded generators (C: the transforms')."""

from __future__ import annotations

import math
from typing import Any, List, Sequence

import numpy as np

from ._base import BaseWaveformTransform, SeedLike, _check_samples, _require

__all__ = ["Compose"]


class Compose:
    """audiomentations' ``Compose(transforms, p, shuffle)``: apply the transforms in order (or
    in a random order with ``shuffle``) with probability ``p`` per clip.

    Parameters
    ----------
    transforms : sequence of transforms
        sigkern augmentation transforms (or any callable ``(samples, sample_rate)``; those
        ignore the per-clip ``p`` of the chain and see the whole batch).
    p : float, default 1.0
        Probability that a clip goes through the chain.
    shuffle : bool, default False
        Random order per call (one order for the batch).
    seed : int, Generator or None, keyword-only
        Seeds the chain's own draws; when given, every sigkern transform's generator is also
        re-seeded from it (children of one ``SeedSequence``), so the whole pipeline is
        reproducible from this one seed.

    Examples
    --------
    >>> from sigkern.augment import Compose, Gain, PolarityInversion
    >>> aug = Compose([sigkern.augment.Gain(p=1.0), sigkern.augment.PolarityInversion(p=0.5)], seed=0)
    >>> y = aug(np.ones((4, 1600), np.float32), 16000)
    """

    def __init__(self, transforms: Sequence[Any], p: float = 1.0, shuffle: bool = False, *,
                 seed: SeedLike = None) -> None:
        _require(0 <= p <= 1, f"p must be in [0, 1], got {p!r}")
        self.transforms: List[Any] = list(transforms)
        self.p = float(p)
        self.shuffle = bool(shuffle)
        self.rng = np.random.default_rng(seed)
        if seed is not None:
            kids = self.rng.spawn(len(self.transforms))
            for t, k in zip(self.transforms, kids):
                if isinstance(t, BaseWaveformTransform):
                    t.rng = k
        self.are_parameters_frozen = False

    def __repr__(self) -> str:
        return f"Compose({self.transforms!r}, p={self.p}, shuffle={self.shuffle})"

    def freeze_parameters(self) -> None:
        """Freeze every transform's parameters.

        Returns
        -------
        None
        """
        self.are_parameters_frozen = True
        for t in self.transforms:
            if hasattr(t, "freeze_parameters"):
                t.freeze_parameters()

    def unfreeze_parameters(self) -> None:
        """Unfreeze every transform's parameters.

        Returns
        -------
        None
        """
        self.are_parameters_frozen = False
        for t in self.transforms:
            if hasattr(t, "unfreeze_parameters"):
                t.unfreeze_parameters()

    def randomize_parameters(self, samples: np.ndarray, sample_rate: int) -> None:
        """Draw every transform's parameters for ``samples``.

        Parameters
        ----------
        samples : ndarray, shape (..., n)
        sample_rate : int

        Returns
        -------
        None
        """
        for t in self.transforms:
            if hasattr(t, "randomize_parameters"):
                t.randomize_parameters(samples, sample_rate)

    def __call__(self, samples: np.ndarray, sample_rate: int) -> np.ndarray:
        """Run the chain (see the class docstring).

        Parameters
        ----------
        samples : ndarray, float32 or float64, shape (..., n)
        sample_rate : int

        Returns
        -------
        ndarray
        """
        x = _check_samples(samples, "Compose")
        batch = x.shape[:-1]
        gate = self.rng.random(batch) < self.p
        if not gate.any():
            return samples
        order = list(self.transforms)
        if self.shuffle:
            order = [order[i] for i in self.rng.permutation(len(order))]
        gate_rows = gate.reshape(math.prod(batch))
        y = x
        for t in order:
            if isinstance(t, BaseWaveformTransform):
                y = t._run(y, sample_rate, gate_rows)
            else:
                y = t(y, sample_rate)
        return y
