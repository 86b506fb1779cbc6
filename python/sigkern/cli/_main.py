"""``sigkern`` subcommands: argument parsing, running, tables and reports."""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from typing import Any, Callable, Dict, List, Optional, Sequence, TextIO, Tuple

from . import _album
from ._io import UsageError, atomic, find_audio, out_paths, prepare_outdir
from ._run import ENGINES, default_jobs, execute
from ._tasks import KINDS, Result

#: exit statuses: every file done, some file failed, the command could not run
OK, FAILED, USAGE = 0, 1, 2


# ------------------------------------------------------------------------------ output


def _db(v: Any, digits: int = 2) -> str:
    if v is None:
        return ""
    v = float(v)
    return f"{v:.{digits}f}" if math.isfinite(v) else ("-inf" if v < 0 else "inf")


def _dur(s: float) -> str:
    m, sec = divmod(s, 60.0)
    h, m = divmod(int(m), 60)
    return f"{h}:{m:02d}:{sec:06.3f}" if h else f"{m}:{sec:06.3f}"


def table(headers: Sequence[str], rows: Sequence[Sequence[str]], out: TextIO,
          left: int = 1) -> None:
    """An aligned text table; the first ``left`` columns are left-aligned."""
    widths = [max([len(h)] + [len(r[i]) for r in rows]) for i, h in enumerate(headers)]

    def line(cells: Sequence[str]) -> str:
        return "  ".join(c.ljust(w) if i < left else c.rjust(w)
                         for i, (c, w) in enumerate(zip(cells, widths))).rstrip()
    print(line(headers), file=out)
    print("  ".join("-" * w for w in widths), file=out)
    for r in rows:
        print(line(r), file=out)


def _finite(v: Any) -> Any:
    return _album.none_if_inf(v) if isinstance(v, float) else v


def _json_rows(rows: Sequence[Dict[str, Any]]) -> str:
    return json.dumps([{k: _finite(v) for k, v in r.items()} for r in rows], indent=2)


def summary(results: Sequence[Result], wall: float, what: str, err: TextIO,
            quiet: bool = False) -> int:
    """The failures (each with its reason) and a closing line on ``err``; the exit status."""
    failed = [r for r in results if not r["ok"]]
    for r in failed:
        print(f"sigkern: {r['path']}: {r['error']}", file=err)
    skipped = sum(1 for r in results if r.get("skipped"))
    audio = sum(float(r.get("seconds", 0.0)) for r in results if r["ok"] and not r.get("skipped"))
    if not quiet:
        parts = [f"{len(results)} file{'s' if len(results) != 1 else ''}",
                 f"{len(results) - len(failed) - skipped} {what}"]
        if skipped:
            parts.append(f"{skipped} already done")
        parts.append(f"{len(failed)} failed")
        speed = f" ({audio / wall:.0f}x real time)" if wall > 0 and audio > 0 else ""
        print(f"sigkern: {', '.join(parts)}; {_dur(audio)} of audio in {wall:.2f} s{speed}",
              file=err)
    return FAILED if failed else OK


# ----------------------------------------------------------------------------- commands


def _common(a: argparse.Namespace) -> Dict[str, Any]:
    return dict(workers=a.jobs, progress=not a.quiet)


def cmd_info(a: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    files = find_audio(a.files)
    t0 = time.perf_counter()
    res = execute("info", [(p, None) for p, _ in files], {}, desc="info", **_common(a))
    wall = time.perf_counter() - t0
    ok = [r for r in res if r["ok"]]
    keys = ("path", "rate", "channels", "frames", "seconds", "format", "subtype", "sample_peak",
            "true_peak", "integrated", "loudness_range")
    if a.json:
        print(_json_rows([{k: r.get(k) for k in keys} if r["ok"] else
                          {"path": r["path"], "error": r["error"]} for r in res]), file=out)
    elif ok:
        table(["file", "rate", "ch", "length", "format", "peak dBFS", "true peak dBTP",
               "integrated LUFS", "LRA LU"],
              [[r["path"], str(r["rate"]), str(r["channels"]), _dur(r["seconds"]),
                f"{r['format']} {r['subtype']}", _db(r["sample_peak"]), _db(r["true_peak"]),
                _db(r["integrated"]), _db(r["loudness_range"])] for r in ok], out)
    return summary(res, wall, "read", err, a.quiet)


def _album_row(res: Sequence[Result]) -> Dict[str, Any]:
    ok = [r for r in res if r["ok"]]
    i, lra, tp, sp = _album.album([r["blocks"] for r in ok],
                                  [(r["true_peak"], r["sample_peak"]) for r in ok])
    return {"path": None, "album": True, "files": len(ok), "integrated": i,
            "loudness_range": lra, "true_peak": tp, "sample_peak": sp,
            "seconds": sum(r["seconds"] for r in ok)}


def cmd_loudness(a: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    files = find_audio(a.files)
    t0 = time.perf_counter()
    res = execute("loudness", [(p, None) for p, _ in files], {"album": a.album},
                  desc="loudness", **_common(a))
    album = _album_row(res) if a.album and any(r["ok"] for r in res) else None
    wall = time.perf_counter() - t0
    keys = ("path", "integrated", "loudness_range", "true_peak", "sample_peak", "max_momentary",
            "max_short_term", "seconds")
    rows = [{k: r.get(k) for k in keys} if r["ok"] else {"path": r["path"], "error": r["error"]}
            for r in res]
    if a.json:
        if album is not None:
            for r in rows:
                r["album"] = False
            rows.append(album)
        print(_json_rows(rows), file=out)
    else:
        body = [[r["path"], _db(r["integrated"]), _db(r["loudness_range"]), _db(r["true_peak"]),
                 _db(r["sample_peak"])] for r in res if r["ok"]]
        if album is not None:
            body.append([f"(album of {album['files']} files)", _db(album["integrated"]),
                         _db(album["loudness_range"]), _db(album["true_peak"]),
                         _db(album["sample_peak"])])
        if body:
            table(["file", "integrated LUFS", "LRA LU", "true peak dBTP", "sample peak dBFS"],
                  body, out)
    return summary(res, wall, "measured", err, a.quiet)


def cmd_normalize(a: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    files = find_audio(a.files)
    outdir = prepare_outdir(a.output)
    dests = out_paths(outdir, files)
    opts: Dict[str, Any] = {"lufs": a.lufs, "true_peak": a.true_peak, "mode": a.peak_mode,
                            "subtype": a.subtype, "gain_db": None}
    t0 = time.perf_counter()
    jobs: List[Tuple[str, Optional[str]]] = [(p, d) for (p, _), d in zip(files, dests)]
    failed_first: List[Result] = []
    if a.album:
        m = execute("loudness", [(p, None) for p, _ in jobs], {"album": True},
                    desc="measure", **_common(a))
        alb = _album_row(m) if any(r["ok"] for r in m) else None
        failed_first = [r for r in m if not r["ok"]]
        if alb is None or not math.isfinite(alb["integrated"]):
            if alb is not None:
                print("sigkern: the album is silent (integrated loudness -inf): nothing to "
                      "normalise", file=err)
            return summary(m, time.perf_counter() - t0, "normalised", err, a.quiet) or FAILED
        gain = a.lufs - alb["integrated"]
        if a.peak_mode == "gain" and math.isfinite(alb["true_peak"]):
            gain = min(gain, a.true_peak - alb["true_peak"])
        opts["gain_db"] = gain
        opts["measured"] = {r["path"]: {"integrated": r["integrated"], "true_peak": r["true_peak"]}
                            for r in m if r["ok"]}
        jobs = [(p, d) for p, d in jobs if p in opts["measured"]]
        if not a.quiet:
            print(f"album: {_db(alb['integrated'])} LUFS, true peak {_db(alb['true_peak'])} dBTP;"
                  f" gain {gain:+.2f} dB for every file", file=out)
    res = execute("normalize", jobs, opts, desc="normalize", **_common(a)) if jobs else []
    res = failed_first + res
    wall = time.perf_counter() - t0
    ok = [r for r in res if r["ok"]]
    if a.json:
        keys = ("path", "output", "integrated", "true_peak", "gain_db", "limited", "subtype")
        print(_json_rows([{k: r.get(k) for k in keys} if r["ok"] else
                          {"path": r["path"], "error": r["error"]} for r in res]), file=out)
    elif ok and not a.quiet:
        table(["file", "integrated LUFS", "true peak dBTP", "gain dB", "peaks", "output"],
              [[r["path"], _db(r["integrated"]), _db(r["true_peak"]), f"{r['gain_db']:+.2f}",
                "limited" if r["limited"] else "", f"{r['output']} ({r['subtype']})"] for r in ok],
              out)
    return summary(res, wall, "normalised", err, a.quiet)


def cmd_resample(a: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    files = find_audio(a.files)
    outdir = prepare_outdir(a.output)
    dests = out_paths(outdir, files)
    opts = {"rate": a.rate, "quality": a.quality, "mono": a.channels == "mono",
            "subtype": a.subtype}
    t0 = time.perf_counter()
    res = execute("resample", [(p, d) for (p, _), d in zip(files, dests)], opts,
                  desc="resample", **_common(a))
    wall = time.perf_counter() - t0
    ok = [r for r in res if r["ok"]]
    if ok and not a.quiet:
        table(["file", "in rate", "out rate", "ch", "frames", "output"],
              [[r["path"], str(r["in_rate"]), str(r["rate"]), str(r["channels"]), str(r["frames"]),
                f"{r['output']} ({r['subtype']})"] for r in ok], out)
    return summary(res, wall, "resampled", err, a.quiet)


def _config(a: argparse.Namespace) -> Dict[str, Any]:
    return {"kind": a.kind, "rate": a.rate, "n_mels": a.n_mels, "lufs": a.lufs,
            "quality": a.quality}


def cmd_features(a: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    files = find_audio(a.inputs)
    outdir = prepare_outdir(a.output)
    dests = out_paths(outdir, files, ext=".npy")
    conf = _config(a)
    cpath = os.path.join(outdir, "features.json")
    if os.path.exists(cpath) and not a.overwrite:
        with open(cpath) as f:
            old = json.load(f)
        if old != conf:
            raise UsageError(f"{outdir} holds features made with other settings ({old}); "
                             "use another directory or --overwrite")
    atomic(cpath, lambda tmp: _write_json(tmp, conf))
    opts = dict(conf, overwrite=a.overwrite)
    t0 = time.perf_counter()
    res = execute("features", [(p, d) for (p, _), d in zip(files, dests)], opts,
                  engine=a.engine, address=a.address, desc="features", **_common(a))
    wall = time.perf_counter() - t0
    ok = [r for r in res if r["ok"]]
    index = dict(conf, format="npy", files=[
        {"path": r["path"], "features": os.path.relpath(r["features"], outdir), "rate": r["rate"],
         "source_rate": r["source_rate"], "samples": r["samples"], "seconds": r["seconds"],
         "shape": r["shape"]} for r in ok])
    atomic(os.path.join(outdir, "index.json"), lambda tmp: _write_json(tmp, index))
    if ok and not a.quiet:
        table(["file", "source rate", "samples", "shape", "features"],
              [[r["path"], str(r["source_rate"]), str(r["samples"]),
                "x".join(map(str, r["shape"])),
                os.path.relpath(r["features"], outdir) + (" (already done)" if r["skipped"] else "")]
               for r in ok], out)
    return summary(res, wall, "computed", err, a.quiet)


def _write_json(tmp: str, obj: Any) -> None:
    with open(tmp, "w") as f:
        json.dump(obj, f, indent=1)
        f.write("\n")


# ------------------------------------------------------------------------------ parser


def _jobs(v: str) -> int:
    try:
        n = int(v)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {v!r}") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {n}")
    return n


def _hz_arg(v: str) -> int:
    try:
        r = int(v)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number of Hz: {v!r}") from None
    if not 1000 <= r <= 768000:
        raise argparse.ArgumentTypeError(f"must be 1000 to 768000 Hz, got {r}")
    return r


def _finite_float(v: str) -> float:
    try:
        f = float(v)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {v!r}") from None
    if not math.isfinite(f):
        raise argparse.ArgumentTypeError(f"must be finite, got {v}")
    return f


QUALITIES = ("quick", "low", "medium", "high", "very_high")
EPILOG = ("exit status: 0 every file done, 1 some file failed (each is reported with its "
          "reason), 2 the command could not run. See docs/cli.md.")


def parser() -> argparse.ArgumentParser:
    """The ``sigkern`` argument parser."""
    p = argparse.ArgumentParser(
        prog="sigkern", epilog=EPILOG,
        description="Loudness, normalisation, resampling and speech features for audio files "
                    "and corpora (WAV, FLAC, OGG, MP3 and the other formats libsndfile reads).")
    p.add_argument("--version", action="version", version=f"sigkern {_version()}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", required=True)

    def common(sp: argparse.ArgumentParser) -> None:
        sp.add_argument("-j", "--jobs", type=_jobs, default=default_jobs(), metavar="N",
                        help="worker processes (default: all cores, %(default)s here)")
        sp.add_argument("-q", "--quiet", action="store_true",
                        help="no progress bar and no closing line (normalize, resample, "
                             "features: no table either); failures are still reported")

    s = sub.add_parser("info", help="rate, channels, length, format, peaks, loudness",
                       description="Rate, channels, length, format, sample and true peak, "
                                   "integrated loudness and loudness range of each file.",
                       epilog=EPILOG)
    s.add_argument("files", nargs="+", metavar="FILE", help="audio files or directories")
    s.add_argument("--json", action="store_true", help="a JSON list instead of the table")
    common(s)
    s.set_defaults(func=cmd_info)

    s = sub.add_parser("loudness", help="EBU R 128 report per file (and album)",
                       description="EBU R 128 / ITU-R BS.1770-4: integrated loudness, loudness "
                                   "range, true peak and sample peak of each file; with --album "
                                   "also the values of all files together (gated over every "
                                   "file's blocks, as libebur128's global loudness).",
                       epilog=EPILOG)
    s.add_argument("files", nargs="+", metavar="FILE", help="audio files or directories")
    s.add_argument("--album", action="store_true", help="also the album values")
    s.add_argument("--json", action="store_true", help="a JSON list of objects instead of the table")
    common(s)
    s.set_defaults(func=cmd_loudness)

    s = sub.add_parser("normalize", aliases=["normalise"], help="two-pass loudness normalisation",
                       description="Measures each file (or the album), then writes it with the "
                                   "gain that reaches the target loudness; where that gain would "
                                   "push the true peak above the ceiling, a true-peak limiter "
                                   "(--peak-mode limit, default) or a smaller gain (--peak-mode "
                                   "gain). 16- and 24-bit PCM output is TPDF-dithered.",
                       epilog=EPILOG)
    s.add_argument("files", nargs="+", metavar="IN", help="audio files or directories")
    s.add_argument("-o", "--output", required=True, metavar="OUTDIR", help="output directory")
    s.add_argument("--lufs", type=_finite_float, default=-23.0,
                   help="target integrated loudness, LUFS (default %(default)s)")
    s.add_argument("--true-peak", type=_finite_float, default=-1.0,
                   help="true-peak ceiling, dBTP (default %(default)s)")
    s.add_argument("--peak-mode", choices=("limit", "gain"), default="limit",
                   help="keep the ceiling with a limiter or by lowering the gain "
                        "(default %(default)s)")
    s.add_argument("--album", action="store_true",
                   help="one gain for all files, from their album loudness")
    s.add_argument("--subtype", type=str.upper, default=None,
                   help="output subtype, e.g. PCM_16, PCM_24, FLOAT (default: the input's)")
    s.add_argument("--json", action="store_true", help="a JSON list instead of the table")
    common(s)
    s.set_defaults(func=cmd_normalize)

    s = sub.add_parser("resample", help="sample-rate conversion",
                       description="Converts each file to --rate (streamed: the output equals "
                                   "sigkern.resample of the whole signal).", epilog=EPILOG)
    s.add_argument("files", nargs="+", metavar="IN", help="audio files or directories")
    s.add_argument("-o", "--output", required=True, metavar="OUTDIR", help="output directory")
    s.add_argument("-r", "--rate", type=_hz_arg, required=True, help="output rate, Hz")
    s.add_argument("--quality", choices=QUALITIES, default="high",
                   help="resampler preset (default %(default)s)")
    s.add_argument("--channels", choices=("keep", "mono"), default="keep",
                   help="keep the channels or mix to mono (default %(default)s)")
    s.add_argument("--subtype", type=str.upper, default=None,
                   help="output subtype, e.g. PCM_16, PCM_24, FLOAT (default: the input's)")
    common(s)
    s.set_defaults(func=cmd_resample)

    s = sub.add_parser("features", help="speech features of a corpus (.npy per file + index)",
                       description="Decodes each file, mixes it to mono, resamples it to --rate, "
                                   "optionally brings it to --lufs, computes the features and "
                                   "writes them as OUT/<relative path>.npy (float32), with "
                                   "OUT/index.json listing every file and OUT/features.json the "
                                   "settings. Files whose .npy exists are skipped, so an "
                                   "interrupted run resumes. Kinds: "
                                   + "; ".join(f"{k}: {v}" for k, v in KINDS.items()) + ".",
                       epilog=EPILOG)
    s.add_argument("inputs", nargs="+", metavar="DIR", help="directories or audio files")
    s.add_argument("-o", "--output", required=True, metavar="OUT", help="output directory")
    s.add_argument("--kind", choices=tuple(KINDS), default="whisper",
                   help="feature kind (default %(default)s)")
    s.add_argument("-r", "--rate", type=_hz_arg, default=16000,
                   help="sample rate of the features, Hz (default %(default)s)")
    s.add_argument("--n-mels", type=_jobs, default=80, help="mel bands (default %(default)s)")
    s.add_argument("--lufs", type=_finite_float, default=None,
                   help="bring each file to this integrated loudness first (gain only)")
    s.add_argument("--quality", choices=QUALITIES, default="high",
                   help="resampler preset (default %(default)s)")
    s.add_argument("--overwrite", action="store_true",
                   help="recompute files already done (and accept other settings)")
    s.add_argument("--engine", choices=ENGINES, default="local",
                   help="local worker processes, Ray tasks or Dask futures "
                        "(pip install 'sigkern[ray]' / 'sigkern[dask]'; default %(default)s)")
    s.add_argument("--address", default=None,
                   help="cluster address for --engine ray|dask (default: a local cluster of "
                        "--jobs workers)")
    common(s)
    s.set_defaults(func=cmd_features)
    return p


def _version() -> str:
    from .. import __version__
    return __version__


def main(argv: Optional[Sequence[str]] = None, out: Optional[TextIO] = None,
         err: Optional[TextIO] = None) -> int:
    """Runs the command line.

    Parameters
    ----------
    argv : sequence of str, optional
        The arguments after the program name (default: ``sys.argv[1:]``).
    out, err : text streams, optional
        Where reports and errors go (default: ``sys.stdout`` / ``sys.stderr``).

    Returns
    -------
    int
        The exit status: 0 every file done, 1 some file failed, 2 the command could not run.
    """
    out = out or sys.stdout
    err = err or sys.stderr
    p = parser()
    try:
        a = p.parse_args(list(argv) if argv is not None else None)
    except SystemExit as e:
        return int(e.code) if isinstance(e.code, int) else USAGE
    try:
        func: Callable[[argparse.Namespace, TextIO, TextIO], int] = a.func
        return func(a, out, err)
    except UsageError as e:
        print(f"sigkern {a.command}: {e}", file=err)
        return USAGE
    except KeyboardInterrupt:
        print("sigkern: interrupted (finished files are kept; nothing half-written)", file=err)
        return 130
