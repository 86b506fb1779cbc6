"""Every public callable of the package has a numpydoc docstring: a Parameters section when it
takes arguments, a Returns section when it returns a value (the rule scipy.signal follows).

The walk covers ``sigkern.__all__``, each family module's ``__all__`` and the public methods
and properties of the public classes, so a new function without the sections fails here."""

from __future__ import annotations

import inspect
import re

import pytest

import sigkern

FAMILIES = ("core", "audio", "filters", "spectral", "loudness", "dynamics", "resample", "kaldi",
            "effects", "feature")
#: a numpydoc section header: the name, then a line of dashes as long as it
_SECTION = re.compile(r"^\s*(\w[\w ]*)\n\s*(-+)\s*$", re.M)


def _sections(doc: str | None) -> set[str]:
    doc = inspect.cleandoc(doc or "")
    return {m.group(1).strip() for m in _SECTION.finditer(doc) if len(m.group(2)) == len(m.group(1).strip())}


def _documented_params(doc: str | None) -> set[str]:
    """The names the Parameters section lists: its unindented entry lines, ``name : type`` or
    ``a, b : type`` or ``a, b, c`` (numpydoc's forms)."""
    lines = inspect.cleandoc(doc or "").splitlines()
    names: set[str] = set()
    inside = False
    for i, line in enumerate(lines):
        nxt = lines[i + 1] if i + 1 < len(lines) else ""
        if nxt.strip() and set(nxt.strip()) == {"-"} and len(nxt.strip()) == len(line.strip()):
            inside = line.strip() == "Parameters"
            continue
        if not inside or not line.strip() or line[0].isspace() or set(line.strip()) == {"-"}:
            continue
        head = line.split(" : ")[0].rstrip(":").strip()
        names.update(n.strip().lstrip("*") for n in head.split(","))
    return names


def _public_names() -> dict[str, object]:
    import importlib

    objs: dict[str, object] = {}
    for name in sigkern.__all__:
        objs[f"sigkern.{name}"] = getattr(sigkern, name)
    for fam in FAMILIES:
        mod = importlib.import_module(f"sigkern.{fam}")
        for name in mod.__all__:
            objs.setdefault(f"sigkern.{name}", getattr(mod, name))
    return objs


def _is_exception(obj: object) -> bool:
    return inspect.isclass(obj) and issubclass(obj, BaseException)


def _callables() -> list[tuple[str, object, inspect.Signature, bool]]:
    """(qualified name, object, signature, is a constructor) of every public callable."""
    out = []
    for qual, obj in sorted(_public_names().items()):
        if inspect.isclass(obj):
            if _is_exception(obj):
                continue  # exceptions: documented by their class docstring (checked below)
            if issubclass(obj, tuple):  # a NamedTuple: its fields are its Attributes section
                continue
            out.append((qual, obj, inspect.signature(obj.__init__), True))
            for mname, member in sorted(vars(obj).items()):
                if mname.startswith("_"):
                    continue
                if isinstance(member, (staticmethod, classmethod)):
                    member = member.__func__
                if inspect.isfunction(member):
                    out.append((f"{qual}.{mname}", member, inspect.signature(member), False))
        elif callable(obj) and (inspect.isfunction(obj) or inspect.isbuiltin(obj)):
            if inspect.isbuiltin(obj):
                continue  # the CFFI lib's functions are not Python functions
            out.append((qual, obj, inspect.signature(obj), False))
    return out


CALLABLES = _callables()


def _params(sig: inspect.Signature) -> list[str]:
    return [
        p.name
        for p in sig.parameters.values()
        if p.name not in ("self", "cls") and p.kind not in (p.VAR_KEYWORD,)
    ]


def test_the_walk_finds_the_package() -> None:
    names = {q for q, *_ in CALLABLES}
    # one function and one class of each family, and methods of the classes
    for q in ("sigkern.scale", "sigkern.pcm_to_float", "sigkern.filtfilt", "sigkern.rfft",
              "sigkern.integrated_loudness", "sigkern.resample_poly", "sigkern.Compressor",
              "sigkern.FftPlan.rfft", "sigkern.Meter.add", "sigkern.Resampler.process"):
        assert q in names, q
    assert len(CALLABLES) > 100


@pytest.mark.parametrize("qual,obj,sig,is_class", CALLABLES, ids=[c[0] for c in CALLABLES])
def test_parameters_and_returns_sections(qual: str, obj: object, sig: inspect.Signature,
                                         is_class: bool) -> None:
    doc = obj.__doc__
    assert doc and doc.strip(), f"{qual} has no docstring"
    sections = _sections(doc)
    if _params(sig):
        assert "Parameters" in sections, f"{qual}{sig}: docstring has no Parameters section"
        listed = _documented_params(doc)
        missing = [n for n in _params(sig) if n not in listed]
        assert not missing, f"{qual}: parameters {missing} are not in the Parameters section"
    if is_class:
        return
    ret = sig.return_annotation
    if ret is inspect.Signature.empty:
        pytest.fail(f"{qual}: no return annotation")
    returns_value = ret not in ("None", None, "NoReturn")
    if returns_value:
        assert "Returns" in sections or "Yields" in sections, (
            f"{qual}: returns {ret} but its docstring has no Returns section"
        )


def test_properties_and_exceptions_have_docstrings() -> None:
    missing = []
    for qual, obj in sorted(_public_names().items()):
        if not inspect.isclass(obj):
            continue
        if not (obj.__doc__ or "").strip():
            missing.append(qual)
        for mname, member in vars(obj).items():
            if isinstance(member, property) and not mname.startswith("_"):
                if not (member.__doc__ or "").strip():
                    missing.append(f"{qual}.{mname}")
    assert not missing, f"no docstring: {missing}"


def test_section_parser() -> None:
    doc = """Summary.

    Parameters
    ----------
    x : array_like
        Input.

    Returns
    -------
    y : ndarray
    """
    assert _sections(doc) == {"Parameters", "Returns"}
    assert _sections("Summary.\n\nParameters\n---\nx : int\n") == set()
    assert _documented_params(doc) == {"x"}
    assert _documented_params("S.\n\nParameters\n----------\na, b : int\n    d.\n*args\n\nReturns\n"
                              "-------\ny : int\n") == {"a", "b", "args"}
