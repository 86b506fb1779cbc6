"""The ``sigkern`` command line (python/sigkern/cli) on real files: generated WAV and FLAC at
several rates and channel counts, 16/24-bit PCM and float, checked against the library's
functions on the same decoded data and against libebur128 (pyebur128) for loudness; bad inputs
each give a clear reason and leave nothing half-written."""

from __future__ import annotations

import io
import json
import math
import os
import subprocess
import sys
from pathlib import Path
from typing import Dict, List, Tuple

import numpy as np
import pytest

import sigkern
from sigkern.cli import main

sf = pytest.importorskip("soundfile")

#: name -> (rate, channels, subtype, seconds)
CORPUS: Dict[str, Tuple[int, int, str, float]] = {
    "music_48k_stereo_16.wav": (48000, 2, "PCM_16", 5.0),
    "speech_44k_mono_24.flac": (44100, 1, "PCM_24", 4.2),
    "fx_22k_stereo_float.wav": (22050, 2, "FLOAT", 3.7),
    "surround_32k_6ch_24.wav": (32000, 6, "PCM_24", 3.3),
    "voice_16k_mono_16.flac": (16000, 1, "PCM_16", 4.5),
}


def programme(rate: int, channels: int, seconds: float, seed: int) -> np.ndarray:
    """Music-like test material (frames, channels): tones, filtered noise, level changes and a
    quiet passage, so that both gates of the loudness measurement matter."""
    rng = np.random.default_rng(seed)
    n = int(seconds * rate)
    t = np.arange(n) / rate
    noise = np.cumsum(rng.standard_normal((n, channels)), axis=0)
    noise -= np.linspace(noise[0], noise[-1], n)
    noise /= np.abs(noise).max() + 1e-9
    tones = sum(a * np.sin(2 * np.pi * f * t + p)
                for a, f, p in [(0.25, 110 * (1 + seed % 3), 0.1), (0.1, 997, 0.7),
                                (0.05, 5300, 0.3)])
    x = 0.15 * noise + tones[:, None] * (1 + 0.1 * np.arange(channels))
    env = np.ones(n)
    env[int(0.3 * n):int(0.45 * n)] = 0.3
    env[int(0.7 * n):int(0.8 * n)] = 0.002
    return np.clip(x * env[:, None], -0.95, 0.95)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("corpus")
    for k, (name, (rate, ch, sub, sec)) in enumerate(CORPUS.items()):
        sf.write(str(d / name), programme(rate, ch, sec, k), rate, subtype=sub)
    return d


def cli(*args: str) -> Tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    rc = main([str(a) for a in args], out=out, err=err)
    return rc, out.getvalue(), err.getvalue()


def read(path: Path, dtype: str = "float32") -> Tuple[np.ndarray, int]:
    x, rate = sf.read(str(path), dtype=dtype, always_2d=True)
    return np.ascontiguousarray(x), rate


def files(corpus: Path) -> List[Path]:
    return [corpus / n for n in CORPUS]


def no_partial_files(d: Path) -> bool:
    return not [p for p in d.rglob("*") if p.name.endswith(".part") or p.name.startswith(".")]


# ------------------------------------------------------------------------- info, loudness


def test_info_json_equals_the_library(corpus: Path) -> None:
    rc, out, err = cli("info", "--json", "-j", "1", *files(corpus))
    assert rc == 0, err
    rows = json.loads(out)
    assert [r["path"] for r in rows] == [str(p) for p in files(corpus)]
    for r, (name, (rate, ch, sub, sec)) in zip(rows, CORPUS.items()):
        x, _ = read(corpus / name)
        s = sigkern.loudness_stats(x, rate, interleaved=True)
        assert (r["rate"], r["channels"], r["frames"], r["subtype"]) == (rate, ch, x.shape[0], sub)
        assert r["seconds"] == pytest.approx(x.shape[0] / rate)
        # the command streams 64 Ki-frame blocks through a Meter: bit for bit the one-shot values
        for key in ("integrated", "loudness_range", "true_peak", "sample_peak"):
            assert r[key] == getattr(s, key), (name, key)


def test_info_table(corpus: Path) -> None:
    rc, out, err = cli("info", corpus)
    assert rc == 0
    assert "integrated LUFS" in out and all(n in out for n in CORPUS)
    assert f"{len(CORPUS)} files, {len(CORPUS)} read, 0 failed" in err


def _ebur128(paths: List[Path]) -> Tuple[List[float], float]:
    pyebur128 = pytest.importorskip("pyebur128")
    states = []
    for p in paths:
        x, rate = read(p, "float64")
        st = pyebur128.R128State(x.shape[1], rate, pyebur128.MeasurementMode.MODE_I)
        st.add_frames(x.ravel(), x.shape[0])
        states.append(st)
    return ([pyebur128.get_loudness_global(s) for s in states],
            pyebur128.get_loudness_global_multiple(states))


def test_loudness_album_against_libebur128(corpus: Path) -> None:
    rc, out, err = cli("loudness", "--album", "--json", "-j", "2", corpus)
    assert rc == 0, err
    rows = json.loads(out)
    assert len(rows) == len(CORPUS) + 1
    assert all(set(r) >= {"path", "integrated", "loudness_range", "true_peak", "sample_peak",
                          "album"} for r in rows)
    per_file, album = _ebur128([Path(r["path"]) for r in rows[:-1]])
    for r, ref in zip(rows, per_file):
        assert r["album"] is False
        assert abs(r["integrated"] - ref) < 0.01, (r["path"], r["integrated"], ref)
    a = rows[-1]
    assert a["album"] is True and a["path"] is None and a["files"] == len(CORPUS)
    assert abs(a["integrated"] - album) < 0.01, (a["integrated"], album)
    # the album is not the mean of the files: the gates run over every block at once
    assert abs(a["integrated"] - float(np.mean(per_file))) > 0.05
    assert a["true_peak"] == max(r["true_peak"] for r in rows[:-1])
    assert a["sample_peak"] == max(r["sample_peak"] for r in rows[:-1])


def test_album_of_one_file_is_the_file(corpus: Path) -> None:
    for name in ("music_48k_stereo_16.wav", "speech_44k_mono_24.flac"):
        rc, out, _ = cli("loudness", "--album", "--json", corpus / name)
        f, a = json.loads(out)
        assert rc == 0
        assert abs(f["integrated"] - a["integrated"]) < 1e-6
        assert abs(f["loudness_range"] - a["loudness_range"]) < 1e-6


# ------------------------------------------------------------------------------ normalize


def test_normalize_reaches_the_target(corpus: Path, tmp_path: Path) -> None:
    rc, out, err = cli("normalize", "-o", tmp_path, "--lufs", "-23", "--true-peak", "-1",
                       "-j", "2", *files(corpus))
    assert rc == 0, err
    for name, (rate, ch, sub, sec) in CORPUS.items():
        y, r = read(tmp_path / name)
        info = sf.info(str(tmp_path / name))
        assert (r, y.shape[1], info.subtype, info.format) == (rate, ch, sub, sf.info(str(corpus / name)).format)
        s = sigkern.loudness_stats(y, rate, interleaved=True)
        assert abs(s.integrated + 23.0) < 0.02, (name, s.integrated)   # dither: ±1 LSB
        assert s.true_peak <= -1.0 + 0.01
    assert no_partial_files(tmp_path)


def test_normalize_gain_only_and_limiter(corpus: Path, tmp_path: Path) -> None:
    src = corpus / "music_48k_stereo_16.wav"
    x, rate = read(src, "float64")
    s = sigkern.loudness_stats(x, rate, interleaved=True)
    # a target the true-peak ceiling stops: gain only lowers the gain to the ceiling ...
    rc, out, _ = cli("normalize", "-o", tmp_path / "g", "--lufs", "-6", "--true-peak", "-2",
                     "--peak-mode", "gain", "--subtype", "FLOAT", "--json", src)
    assert rc == 0
    (r,) = json.loads(out)
    g = -2.0 - s.true_peak
    assert r["gain_db"] == pytest.approx(g) and r["limited"] is False
    y, _ = read(tmp_path / "g" / src.name, "float64")
    np.testing.assert_allclose(y, (x * 10 ** (g / 20)).astype(np.float32), rtol=0, atol=1e-7)
    # ... the limiter keeps the full gain and holds the peaks at the ceiling
    rc, out, _ = cli("normalize", "-o", tmp_path / "l", "--lufs", "-6", "--true-peak", "-2",
                     "--subtype", "FLOAT", "--json", src)
    (r,) = json.loads(out)
    assert rc == 0 and r["limited"] is True and r["gain_db"] == pytest.approx(-6 - s.integrated)
    y, _ = read(tmp_path / "l" / src.name, "float64")
    assert y.shape == x.shape
    ys = sigkern.loudness_stats(y, rate, interleaved=True)
    assert ys.true_peak <= -2.0 + 1e-6
    assert ys.integrated > sigkern.loudness_stats((x * 10 ** (g / 20)), rate, interleaved=True).integrated


def test_normalize_album_applies_one_gain(corpus: Path, tmp_path: Path) -> None:
    names = ["music_48k_stereo_16.wav", "fx_22k_stereo_float.wav"]
    rc, out, err = cli("normalize", "--album", "--lufs", "-20", "--subtype", "FLOAT", "--json",
                       "-o", tmp_path, *[corpus / n for n in names])
    assert rc == 0, err
    rows = json.loads(out.split("\n", 1)[1])
    assert rows[0]["gain_db"] == rows[1]["gain_db"]
    _, album = _ebur128([tmp_path / n for n in names])
    assert abs(album + 20.0) < 0.01
    for n in names:
        x, _ = read(corpus / n, "float64")
        y, _ = read(tmp_path / n, "float64")
        np.testing.assert_allclose(y, x * 10 ** (rows[0]["gain_db"] / 20), rtol=0, atol=1e-6)


def test_normalize_dithers_integer_pcm(corpus: Path, tmp_path: Path) -> None:
    src = corpus / "voice_16k_mono_16.flac"
    rc, out, _ = cli("normalize", "-o", tmp_path, "--lufs", "-30", "--json", src)
    assert rc == 0
    (r,) = json.loads(out)
    x, _ = read(src, "float64")
    y, _ = sf.read(str(tmp_path / src.name), dtype="int16", always_2d=True)
    exact = x * 10 ** (r["gain_db"] / 20) * 32768
    err = y - exact
    assert np.abs(err).max() < 1.5         # TPDF dither: within ±1 LSB of the exact value, plus rounding
    assert err.std() > 0.4                 # and not plain rounding (error std 0.29; TPDF: 0.5)


# ------------------------------------------------------------------------------ resample


@pytest.mark.parametrize("quality", ["high", "quick"])
def test_resample_equals_the_library(corpus: Path, tmp_path: Path, quality: str) -> None:
    rc, out, err = cli("resample", "-o", tmp_path, "--rate", "16000", "--quality", quality,
                       "--subtype", "FLOAT", "-j", "2",
                       *[p for p in files(corpus) if p.suffix == ".wav"])
    assert rc == 0, err
    for name, (rate, ch, _, _) in CORPUS.items():
        if not name.endswith(".wav"):
            continue
        x, _ = read(corpus / name)
        y, r = read(tmp_path / name)
        assert r == 16000
        np.testing.assert_array_equal(y, sigkern.resample(x, rate, 16000, quality, axis=0))


def test_resample_mono_and_pcm(corpus: Path, tmp_path: Path) -> None:
    src = corpus / "music_48k_stereo_16.wav"
    rc, _, err = cli("resample", "-o", tmp_path / "f", "-r", "44100", "--channels", "mono",
                     "--subtype", "DOUBLE", src)
    assert rc == 0, err
    x, _ = read(src, "float64")                       # a DOUBLE output is computed in float64
    y, _ = read(tmp_path / "f" / src.name, "float64")
    np.testing.assert_array_equal(y[:, 0], sigkern.resample(x.mean(axis=1), 48000, 44100))
    # FLAC 24-bit in, FLAC 24-bit out (dithered), same length as the library's output
    src = corpus / "speech_44k_mono_24.flac"
    rc, _, _ = cli("resample", "-o", tmp_path / "p", "-r", "48000", src)
    assert rc == 0
    y, r = read(tmp_path / "p" / src.name)
    info = sf.info(str(tmp_path / "p" / src.name))
    ref = sigkern.resample(read(src)[0], 44100, 48000, axis=0)
    assert (r, info.subtype, y.shape) == (48000, "PCM_24", ref.shape)
    assert np.abs(y - ref).max() < 3 / 2 ** 23


# ------------------------------------------------------------------------------ features


def _reference_features(path: Path, kind: str, rate: int = 16000) -> np.ndarray:
    x, r = read(path)
    m = x.mean(axis=1, dtype=np.float64).astype(np.float32) if x.shape[1] > 1 else x[:, 0].copy()
    y = sigkern.resample(m, r, rate) if r != rate else m
    if kind == "whisper":
        return sigkern.log_mel_spectrogram(y, sr=rate)
    if kind == "logmel":
        with sigkern.MelSpectrogram(sr=rate, n_fft=400, hop_length=160, n_mels=80) as plan:
            return plan.log_mel(y)
    return getattr(sigkern.kaldi, kind)(y, num_mel_bins=80, sample_frequency=rate)


@pytest.mark.parametrize("kind", ["whisper", "logmel", "fbank", "mfcc"])
def test_features_equal_the_library(corpus: Path, tmp_path: Path, kind: str) -> None:
    rc, out, err = cli("features", corpus, "-o", tmp_path, "--kind", kind, "-j", "2")
    assert rc == 0, err
    index = json.loads((tmp_path / "index.json").read_text())
    assert index["kind"] == kind and index["rate"] == 16000 and index["format"] == "npy"
    assert [f["path"] for f in index["files"]] == [str(p) for p in sorted(files(corpus))]
    for f in index["files"]:
        a = np.load(tmp_path / f["features"])
        assert a.dtype == np.float32 and list(a.shape) == f["shape"]
        ref = _reference_features(Path(f["path"]), kind)
        np.testing.assert_array_equal(a, ref.astype(np.float32))
        assert f["samples"] == sigkern.resample_size(sf.info(f["path"]).frames, f["source_rate"], 16000) \
            or f["source_rate"] == 16000
    assert no_partial_files(tmp_path)


def test_features_resume_and_settings(corpus: Path, tmp_path: Path) -> None:
    rc, _, _ = cli("features", corpus, "-o", tmp_path, "-j", "1")
    assert rc == 0
    npy = sorted(tmp_path.glob("*.npy"))
    assert len(npy) == len(CORPUS)
    stamp = {p: p.stat().st_mtime_ns for p in npy}
    npy[0].unlink()                                     # as if the run had stopped there
    rc, out, err = cli("features", corpus, "-o", tmp_path, "-j", "1")
    assert rc == 0
    assert f"1 computed, {len(CORPUS) - 1} already done" in err
    assert all(p.stat().st_mtime_ns == stamp[p] for p in npy[1:])
    assert len(json.loads((tmp_path / "index.json").read_text())["files"]) == len(CORPUS)
    # other settings into the same directory: refused before anything is written
    rc, _, err = cli("features", corpus, "-o", tmp_path, "--kind", "mfcc")
    assert rc == 2 and "other settings" in err
    assert all(p.stat().st_mtime_ns == stamp[p] for p in npy[1:])


def test_features_loudness_normalisation(corpus: Path, tmp_path: Path) -> None:
    src = corpus / "voice_16k_mono_16.flac"
    rc, _, _ = cli("features", src, "-o", tmp_path, "--lufs", "-23", "--kind", "fbank")
    assert rc == 0
    x, _ = read(src)
    y = x[:, 0].copy()
    y *= np.float32(10 ** ((-23 - sigkern.integrated_loudness(y, 16000)) / 20))
    np.testing.assert_array_equal(np.load(tmp_path / (src.stem + ".npy")),
                                  sigkern.kaldi.fbank(y, num_mel_bins=80, sample_frequency=16000))


# ------------------------------------------------------------------------------ bad input


@pytest.fixture
def bad(tmp_path: Path) -> Dict[str, Path]:
    d = tmp_path / "bad"
    d.mkdir()
    (d / "empty.wav").write_bytes(b"")
    sf.write(str(d / "noframes.wav"), np.zeros((0, 2)), 48000)
    (d / "corrupt.wav").write_bytes(b"RIFF\x24\x00\x00\x00WAVEfmt \x10\x00\x00\x00garbage!garbage!")
    x = programme(48000, 1, 3.0, 9)
    x[100000, 0] = np.nan                              # in the second 64 Ki-frame block
    sf.write(str(d / "nan.wav"), x, 48000, subtype="FLOAT")
    sf.write(str(d / "good.wav"), programme(48000, 1, 2.0, 3), 48000)
    return {p.stem: p for p in d.iterdir()} | {"missing": d / "missing.wav", "dir": d}


REASONS = {"empty": "zero length", "noframes": "zero length", "corrupt": "unreadable",
           "nan": "NaN or infinity in the data at frame 100000", "missing": "no such file"}


@pytest.mark.parametrize("command", ["info", "loudness", "normalize", "resample", "features"])
def test_bad_files_are_reported_and_the_run_goes_on(bad: Dict[str, Path], tmp_path: Path,
                                                    command: str) -> None:
    out_dir = tmp_path / "out"
    args = [command, *[bad[k] for k in REASONS], bad["good"]]
    if command in ("normalize", "resample", "features"):
        args += ["-o", out_dir]
    if command == "resample":
        args += ["--rate", "16000"]
    rc, out, err = cli(*args, "-j", "1")
    assert rc == 1
    for k, reason in REASONS.items():
        if command in ("info", "loudness", "normalize") and k == "nan":
            reason = "NaN or infinity in the data"   # found while measuring
        assert f"{bad[k]}: {reason}" in err, (k, err)
    assert "1 failed" not in err and f"{len(REASONS)} failed" in err
    if out_dir.exists():
        written = sorted(p.name for p in out_dir.rglob("*") if p.is_file())
        assert no_partial_files(out_dir)
        assert not [w for w in written if w.split(".")[0] in REASONS], written
        assert any(w.startswith("good.") for w in written)


def test_nan_in_a_later_block_leaves_no_half_file(bad: Dict[str, Path], tmp_path: Path) -> None:
    # the resampler has written the first block when the second one turns out bad
    rc, _, err = cli("resample", bad["nan"], "-o", tmp_path / "o", "--rate", "16000")
    assert rc == 1 and "at frame 100000" in err
    assert list((tmp_path / "o").iterdir()) == []


def test_directory_without_audio(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("no audio here")
    for cmd in (["info", tmp_path], ["features", tmp_path, "-o", tmp_path / "f"]):
        rc, _, err = cli(*cmd)
        assert rc == 2 and "no audio files in this directory" in err
    assert not (tmp_path / "f").exists()


def test_unwritable_output_directory(bad: Dict[str, Path], tmp_path: Path) -> None:
    blocker = tmp_path / "a_file"
    blocker.write_text("")
    for cmd in (["normalize", bad["good"], "-o", blocker / "out"],
                ["resample", bad["good"], "-o", blocker, "--rate", "8000"],
                ["features", bad["good"], "-o", blocker / "x" / "y"]):
        rc, _, err = cli(*cmd)
        assert rc == 2 and "cannot write to the output directory" in err, err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a_file", "bad"]


def test_usage_errors() -> None:
    for args in (["resample", "x.wav", "-o", "o"],             # --rate missing
                 ["resample", "x.wav", "-o", "o", "-r", "9"],  # out of range
                 ["loudness", "x.wav", "-j", "0"],
                 ["normalize", "x.wav", "-o", "o", "--lufs", "nan"],
                 ["bogus"]):
        rc, _, _ = cli(*args)
        assert rc == 2, args


def test_output_would_overwrite_input(corpus: Path) -> None:
    rc, _, err = cli("resample", corpus / "voice_16k_mono_16.flac", "-o", corpus, "-r", "8000")
    assert rc == 2 and "overwrite the input" in err


# ------------------------------------------------------------------------- console script


def test_console_script_and_python_m(corpus: Path) -> None:
    src = str(corpus / "voice_16k_mono_16.flac")
    exe = Path(sys.executable).with_name("sigkern")
    runs = [[sys.executable, "-m", "sigkern", "loudness", "--json", src]]
    if exe.exists():
        runs.append([str(exe), "loudness", "--json", src])
    for cmd in runs:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=120,
                           env=dict(os.environ, CI="1"))
        assert p.returncode == 0, p.stderr
        (r,) = json.loads(p.stdout)
        x, _ = read(Path(src))
        assert r["integrated"] == sigkern.integrated_loudness(x[:, 0], 16000)
        assert math.isfinite(r["true_peak"])
    p = subprocess.run([sys.executable, "-m", "sigkern", "info", "/nonexistent.wav"],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 1 and "/nonexistent.wav: no such file" in p.stderr


_BAR = """
import time
from sigkern.cli._run import Progress
p = Progress(3, "files", True)
for i in range(3):
    time.sleep(0.15)
    p.update({"ok": i != 1, "path": "/x/bad.wav"})
p.close()
"""


@pytest.mark.parametrize("ci", [False, True])
def test_progress_bar_on_a_terminal_only(ci: bool) -> None:
    import fcntl
    import pty
    import struct
    import termios

    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))  # 100 columns
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    if ci:
        env["CI"] = "true"
    p = subprocess.Popen([sys.executable, "-c", _BAR], stdout=slave, stderr=slave, env=env)
    p.wait(timeout=60)
    os.close(slave)
    out = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:
            break
        if not chunk:
            break
        out += chunk
    os.close(master)
    text = out.decode(errors="replace")
    assert p.returncode == 0
    if ci:
        assert text == ""
    else:
        assert "files:" in text and "file/s" in text and "failed: bad.wav" in text
