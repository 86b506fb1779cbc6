"""``sigkern features --engine ray|dask`` on a local cluster of two workers: the same files,
byte for byte, as the local run (skipped where the extra is not installed)."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Dict

import numpy as np
import pytest

from sigkern.cli import main

sf = pytest.importorskip("soundfile")


@pytest.fixture(scope="module")
def local_run(tmp_path_factory: pytest.TempPathFactory) -> Dict[str, Path]:
    d = tmp_path_factory.mktemp("engines")
    src = d / "corpus"
    (src / "sub").mkdir(parents=True)
    rng = np.random.default_rng(5)
    for k, (rate, ch) in enumerate([(48000, 2), (44100, 1), (16000, 1), (22050, 2)]):
        x = 0.1 * rng.standard_normal((int(rate * (1.5 + 0.5 * k)), ch))
        sf.write(str(src / ("sub" if k % 2 else "") / f"clip{k}.flac"), x, rate)
    (src / "broken.wav").write_bytes(b"RIFF\x00\x00\x00\x00WAVE")
    out = d / "local"
    assert main(["features", str(src), "-o", str(out), "-j", "2", "-q"],
                out=io.StringIO(), err=io.StringIO()) == 1   # the broken file
    return {"src": src, "out": out}


def _same_output(a: Path, b: Path) -> None:
    names = sorted(p.relative_to(a) for p in a.rglob("*.npy"))
    assert names and names == sorted(p.relative_to(b) for p in b.rglob("*.npy"))
    for n in names:
        assert (a / n).read_bytes() == (b / n).read_bytes(), n
    ia, ib = (json.loads((d / "index.json").read_text()) for d in (a, b))
    for f in ia["files"] + ib["files"]:
        f.pop("features")
    assert ia == ib


@pytest.mark.parametrize("engine", ["dask", "ray"])
def test_engine_matches_the_local_run(local_run: Dict[str, Path], tmp_path: Path,
                                      engine: str) -> None:
    pytest.importorskip("dask.distributed" if engine == "dask" else "ray")
    err = io.StringIO()
    rc = main(["features", str(local_run["src"]), "-o", str(tmp_path), "--engine", engine,
               "-j", "2"], out=io.StringIO(), err=err)
    assert rc == 1, err.getvalue()
    assert "broken.wav: unreadable" in err.getvalue()
    assert "4 computed, 1 failed" in err.getvalue()
    _same_output(local_run["out"], tmp_path)
